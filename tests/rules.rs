//! Every rule of Othello, the fast move generator against a plain square-by-square reference, and
//! perft against the published counts.

use wedge::board::movegen;
use wedge::board::text::board_after;
use wedge::board::{Board, Move, Position, Square, Symmetry};
use wedge::rng::Rng;
use wedge::tools::perft::{perft, perft_divide};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn bits(names: &[&str]) -> u64 {
    names.iter().fold(0, |b, n| b | sq(n).bit())
}

/// The deliberately simple reference: walk from the square in each direction, one square at a time.
fn reference_flips(p: u64, o: u64, s: usize) -> u64 {
    if (p | o) >> s & 1 == 1 {
        return 0;
    }
    let (c0, r0) = ((s % 8) as i32, (s / 8) as i32);
    let mut all = 0;
    for (dc, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (mut c, mut r) = (c0 + dc, r0 + dr);
        let mut line = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + c);
            if o & bit != 0 {
                line |= bit;
            } else {
                if p & bit != 0 {
                    all |= line;
                }
                break;
            }
            c += dc;
            r += dr;
        }
    }
    all
}

fn reference_moves(p: u64, o: u64) -> u64 {
    (0..64)
        .filter(|&s| reference_flips(p, o, s) != 0)
        .fold(0, |m, s| m | 1 << s)
}

/// Positions reached by random play from the start (every position of many random games).
fn random_positions(seed: u64, games: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::START;
        while !b.is_game_over() {
            out.push(b);
            let moves: Vec<Square> = b.legal_moves().collect();
            if moves.is_empty() {
                b = b.pass();
            } else {
                let m = moves[rng.below(moves.len() as u64) as usize];
                b = b.play(m).unwrap();
            }
        }
        out.push(b);
    }
    out
}

#[test]
fn flips_in_all_eight_directions_at_once() {
    // Player to move on d4 with an opponent disc next to it and a player disc beyond, in all 8
    // directions.
    let o = bits(&["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]);
    let p = bits(&["b2", "d2", "f2", "b4", "f4", "b6", "d6", "f6"]);
    let b = Board::new(p, o).unwrap();
    assert_eq!(b.flips(sq("d4")).0, o);
    let after = b.play(sq("d4")).unwrap();
    // After the move the opponent (now to move) has no discs left.
    assert_eq!(after.player(), 0);
    assert_eq!(after.opponent(), p | o | sq("d4").bit());
    // Each direction alone flips exactly its own disc.
    for (od, pd) in [
        ("c3", "b2"),
        ("d3", "d2"),
        ("e3", "f2"),
        ("c4", "b4"),
        ("e4", "f4"),
        ("c5", "b6"),
        ("d5", "d6"),
        ("e5", "f6"),
    ] {
        let b = Board::new(sq(pd).bit(), sq(od).bit()).unwrap();
        assert_eq!(b.flips(sq("d4")).0, sq(od).bit(), "direction via {od}");
    }
}

#[test]
fn long_lines_and_only_bracketed_discs_flip() {
    // a1 plays: b1..g1 are opponent, h1 is the player's: six flips.
    let b = Board::new(bits(&["h1"]), bits(&["b1", "c1", "d1", "e1", "f1", "g1"])).unwrap();
    assert_eq!(b.flips(sq("a1")).count(), 6);
    // No player disc at the end of the run: nothing flips, the move is illegal.
    let b = Board::new(
        bits(&["a8"]),
        bits(&["b1", "c1", "d1", "e1", "f1", "g1", "h1"]),
    )
    .unwrap();
    assert!(b.flips(sq("a1")).is_empty());
    assert!(!b.is_legal(Move::play(sq("a1"))));
    // A gap stops the line.
    let b = Board::new(bits(&["e1"]), bits(&["b1", "d1"])).unwrap();
    assert!(b.flips(sq("a1")).is_empty());
}

#[test]
fn no_wrap_around_at_the_edges() {
    // h1 opponent, a2 player: g1 would "flip" h1 only if the row wrapped into the next one.
    let b = Board::new(bits(&["a2"]), bits(&["h1"])).unwrap();
    assert!(b.flips(sq("g1")).is_empty());
    assert_eq!(b.legal_moves().0, 0);
    // Same on the other side: a2 opponent, h1 player, b2 to play would wrap westwards.
    let b = Board::new(bits(&["h1"]), bits(&["a2"])).unwrap();
    assert!(b.flips(sq("b2")).is_empty());
    assert_eq!(b.legal_moves().0, 0);
    // Diagonals: h3 opponent, a5 player; g2 would wrap through h3 -> a4? Check every square.
    for s in 0..64 {
        let p = 1u64 << s;
        for t in 0..64 {
            let o = 1u64 << t;
            if s == t {
                continue;
            }
            assert_eq!(
                movegen::legal_moves(p, o),
                reference_moves(p, o),
                "p {s} o {t}"
            );
        }
    }
}

#[test]
fn occupied_squares_are_illegal() {
    let b = Board::START;
    for s in ["d4", "e4", "d5", "e5"] {
        assert!(!b.is_legal(Move::play(sq(s))));
        assert!(b.play(sq(s)).is_none());
        assert!(b.flips(sq(s)).is_empty());
    }
}

#[test]
fn forced_pass_and_game_over() {
    // Player: a1. Opponent: b1, c1 (player can play d1). Opponent has no move (no flank).
    let b = Board::new(bits(&["a1"]), bits(&["b1", "c1"])).unwrap();
    assert!(b.can_move());
    assert!(!b.must_pass());
    let opp_view = b.pass();
    assert!(!opp_view.can_move());
    assert!(opp_view.must_pass());
    assert!(opp_view.is_legal(Move::PASS));
    assert!(!b.is_legal(Move::PASS));
    assert_eq!(opp_view.play_move(Move::PASS), Some(b));
    assert_eq!(b.play_move(Move::PASS), None);
    // After d1 everything is the player's: neither side can move, the game is over with 60 empties.
    let end = b.play(sq("d1")).unwrap();
    assert!(end.is_game_over());
    assert!(!end.must_pass());
    // The side to move after d1 has no discs: it lost 0-4, and the winner takes all 60 empties.
    assert_eq!(end.final_score(), -64);
    assert_eq!(end.pass().final_score(), 64);
}

#[test]
fn game_over_by_double_pass_before_full_board() {
    // A known short game: black wins by wiping out white in 9 moves.
    let b = board_after("d3c3b3d2e1d6d7e3f4").unwrap();
    assert!(b.is_game_over());
    assert!(b.empty_count() > 0);
    assert_eq!(
        b.player().count_ones() + b.opponent().count_ones(),
        64 - b.empty_count()
    );
    // White to move has nothing; black has everything and 51 empties go to black.
    assert_eq!(b.player(), 0);
    assert_eq!(b.final_score(), -64);
}

#[test]
fn scoring_gives_empties_to_the_winner_and_draws_are_zero() {
    // 3 discs to 1 with 60 empties: 2 + 60 = 62.
    let b = Board::new(bits(&["a1", "b1", "c1"]), bits(&["h8"])).unwrap();
    assert_eq!(b.final_score(), 62);
    assert_eq!(b.pass().final_score(), -62);
    // Two discs each with 60 empties: a draw, nobody gets the empties.
    let b = Board::new(bits(&["a1", "b1"]), bits(&["h8", "g8"])).unwrap();
    assert_eq!(b.final_score(), 0);
    // A full board: plain disc difference.
    let b = Board::new(0xFFFF_FFFF, 0xFFFF_FFFF_0000_0000).unwrap();
    assert_eq!(b.final_score(), 0);
    let b = Board::new(0x000F_FFFF_FFFF, 0xFFFF_FFF0_0000_0000).unwrap();
    assert_eq!(b.final_score(), 8);
}

#[test]
fn fast_generator_matches_reference_on_random_positions() {
    let positions = random_positions(0x5EED_1234, 400);
    assert!(positions.len() > 20_000);
    for b in positions {
        let (p, o) = (b.player(), b.opponent());
        let moves = movegen::legal_moves(p, o);
        assert_eq!(moves, reference_moves(p, o), "moves of {b:?}");
        // The portable generator too (the SIMD one above is what this machine runs by default).
        assert_eq!(
            movegen::legal_moves_scalar(p, o),
            moves,
            "scalar moves of {b:?}"
        );
        for s in 0..64 {
            if (p | o) >> s & 1 == 0 {
                let expected = reference_flips(p, o, s);
                assert_eq!(movegen::flips(s, p, o), expected, "flips {s} of {b:?}");
                assert_eq!(
                    movegen::flips_scalar(s, p, o),
                    expected,
                    "scalar flips {s} of {b:?}"
                );
            }
        }
    }
}

#[test]
fn rules_commute_with_symmetries() {
    for b in random_positions(77, 20) {
        for s in Symmetry::ALL {
            let t = b.transform(s);
            assert_eq!(t.legal_moves().0, s.apply(b.legal_moves().0));
            assert_eq!(t.hash() == b.hash(), t == b);
            assert_eq!(t.canonical().0, b.canonical().0);
        }
    }
}

fn reference_counts() -> Vec<(u32, u64)> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let d = it.next().unwrap().parse().unwrap();
            let n = it.next().unwrap().parse().unwrap();
            (d, n)
        })
        .collect()
}

#[test]
fn perft_matches_reference_counts_to_depth_9() {
    let counts = reference_counts();
    assert!(counts.len() >= 9);
    for (depth, expected) in counts.into_iter().filter(|&(d, _)| d <= 9) {
        assert_eq!(perft(Board::START, depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_divide_sums_and_handles_passes() {
    let parts = perft_divide(Board::START, 6);
    assert_eq!(parts.len(), 4);
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), 8200);
    // A position where the side to move must pass: the divide is one pass entry.
    let b = Board::new(bits(&["a1"]), bits(&["b1", "c1"]))
        .unwrap()
        .pass();
    let parts = perft_divide(b, 2);
    assert_eq!(parts, vec![(Move::PASS, 1)]);
    // A finished game counts once at any depth.
    let over = board_after("d3c3b3d2e1d6d7e3f4").unwrap();
    assert_eq!(perft(over, 5), 1);
    assert!(perft_divide(over, 3).is_empty());
}

#[test]
fn perft_agrees_with_a_plain_recursive_count() {
    fn plain(b: Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = Position {
            board: b,
            side: wedge::Color::Black,
        }
        .legal_move_list();
        if moves.is_empty() {
            return 1;
        }
        moves
            .into_iter()
            .map(|m| plain(b.play_move(m).unwrap(), depth - 1))
            .sum()
    }
    for b in random_positions(99, 3).into_iter().step_by(7) {
        assert_eq!(perft(b, 4), plain(b, 4), "{b:?}");
    }
}

// Any disc layout (not only reachable ones): the fast generator, the portable one and the
// reference agree, for every empty square's flips too.
proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
    #[test]
    fn generators_match_the_reference_on_any_layout(black: u64, white: u64) {
        let (p, o) = (black, white & !black);
        let moves = movegen::legal_moves(p, o);
        proptest::prop_assert_eq!(moves, reference_moves(p, o));
        proptest::prop_assert_eq!(movegen::legal_moves_scalar(p, o), moves);
        for s in 0..64 {
            if (p | o) >> s & 1 == 0 {
                let expected = reference_flips(p, o, s);
                proptest::prop_assert_eq!(movegen::flips(s, p, o), expected);
                proptest::prop_assert_eq!(movegen::flips_scalar(s, p, o), expected);
            }
        }
    }
}
