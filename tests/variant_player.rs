//! The variant player: alpha-beta gives minimax's value with fewer nodes, the exact solve agrees
//! with a brute-force minimax written here, every player answers a legal move or a pass exactly
//! when it must, the clock is never overspent, and the engine beats the random and greedy
//! baselines.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wedge::rng::Rng;
use wedge::variant::board::{Board, Side, Square};
use wedge::variant::eval::Weights;
use wedge::variant::player::{Limits, Player, PlayerKind};
use wedge::variant::search::{decided, SearchOptions, Searcher};

fn corners10() -> Board {
    let b = [(0, 0), (0, 9), (9, 0), (9, 9)].map(|(r, c)| Square::new(r, c));
    Board::start(10, 10, &b).unwrap()
}

/// `board` after `plies` random moves (passes when forced), or earlier if the game ends.
fn after_random_moves(mut board: Board, plies: usize, rng: &mut Rng) -> Board {
    for _ in 0..plies {
        if board.is_over() {
            break;
        }
        let moves = board.legal_moves();
        board = if moves.is_empty() {
            board.pass()
        } else {
            board
                .play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap()
        };
    }
    board
}

/// A set of test positions: openings and middle games on several layouts.
fn positions() -> Vec<Board> {
    let mut rng = Rng::new(11);
    let mut out = vec![corners10(), Board::start(8, 8, &[]).unwrap()];
    out.push(after_random_moves(corners10(), 12, &mut rng));
    let layout = Board::random_layout(10, 10, 8, &mut Rng::new(3)).unwrap();
    out.push(after_random_moves(layout, 16, &mut rng));
    out.push(after_random_moves(
        Board::start(6, 9, &[Square::new(0, 4)]).unwrap(),
        9,
        &mut rng,
    ));
    out
}

fn demo_searcher(alpha_beta: bool) -> Searcher {
    let mut s = Searcher::new(4);
    s.options = SearchOptions {
        alpha_beta,
        scanline_order: true,
        transposition_table: false,
        ..SearchOptions::default()
    };
    s
}

#[test]
fn alpha_beta_gives_the_minimax_value_with_fewer_nodes() {
    let mut minimax = demo_searcher(false);
    let mut alpha_beta = demo_searcher(true);
    let mut ordered = Searcher::new(4);
    for board in positions() {
        for depth in 1..=4 {
            let mm = minimax.search_depth(&board, depth);
            let ab = alpha_beta.search_depth(&board, depth);
            let full = ordered.search_depth(&board, depth);
            assert_eq!(ab.value, mm.value, "depth {depth}\n{board}");
            assert_eq!(
                full.value, mm.value,
                "ordered, table: depth {depth}\n{board}"
            );
            assert!(ab.nodes <= mm.nodes);
            if depth >= 3 {
                assert!(
                    ab.nodes < mm.nodes,
                    "depth {depth}: {} {}",
                    ab.nodes,
                    mm.nodes
                );
            }
            assert!(board.is_legal(ab.best.unwrap()));
        }
    }
}

/// The final disc difference for the side to move under perfect play, by trying everything.
fn brute_force(board: &Board) -> i32 {
    let moves = board.legal_moves();
    if moves.is_empty() {
        if board.is_over() {
            return board.disc_difference(board.to_move());
        }
        return -brute_force(&board.pass());
    }
    moves
        .iter()
        .map(|&m| -brute_force(&board.play(m).unwrap()))
        .max()
        .unwrap()
}

#[test]
fn the_exact_solve_agrees_with_brute_force() {
    let mut rng = Rng::new(5);
    let mut searcher = Searcher::new(4);
    let mut checked = 0;
    for (rows, cols, k, empties) in [(6, 6, 0, 8), (10, 10, 4, 8), (5, 7, 3, 9), (10, 10, 10, 7)] {
        for _ in 0..6 {
            let start = Board::random_layout(rows, cols, k, &mut rng).unwrap();
            let total = start.empties() as usize;
            let board = after_random_moves(start, total.saturating_sub(empties), &mut rng);
            let stop = AtomicBool::new(false);
            let report = searcher.search(&board, &Limits::default(), &stop, |_| {});
            let expected = brute_force(&board);
            if board.is_over() {
                assert!(report.best.is_none());
            }
            assert!(report.exact, "{board}");
            let found = decided(report.value).unwrap_or(report.value);
            assert_eq!(found, expected, "{board}");
            if let Some(m) = report.best {
                let after = board.play(m).unwrap();
                assert_eq!(
                    -brute_force(&after),
                    expected,
                    "the best move must keep the value"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}

#[test]
fn every_player_moves_legally_or_passes_exactly_when_it_must() {
    let mut rng = Rng::new(8);
    let limits = Limits {
        depth: Some(2),
        movetime: Some(Duration::from_millis(50)),
        clock: None,
    };
    for (i, kind) in [PlayerKind::Engine, PlayerKind::Random, PlayerKind::Greedy]
        .into_iter()
        .enumerate()
    {
        let mut player = Player::new(kind, i as u64);
        for (rows, cols, k) in [(10, 10, 6), (6, 9, 5), (4, 4, 2), (16, 16, 20)] {
            player.new_game();
            let mut board = Board::random_layout(rows, cols, k, &mut rng).unwrap();
            while !board.is_over() {
                match player.choose(&board, &limits) {
                    Some(m) => {
                        assert!(board.is_legal(m), "{kind:?} {m}\n{board}");
                        board = board.play(m).unwrap();
                    }
                    None => {
                        assert!(board.must_pass(), "{kind:?} passed\n{board}");
                        board = board.pass();
                    }
                }
            }
            assert_eq!(player.choose(&board, &limits), None);
        }
    }
}

#[test]
fn greedy_takes_the_most_flips() {
    let board = Board::parse_printed("W R R . R W\n. . . . . .\nto move: W").unwrap();
    let mut greedy = Player::new(PlayerKind::Greedy, 1);
    assert_eq!(
        greedy.choose(&board, &Limits::default()),
        Some(Square::new(0, 3))
    );
}

/// Plays one game; returns white's disc difference at the end.
fn play(board: Board, white: &mut Player, red: &mut Player, limits: &Limits) -> i32 {
    let mut board = board;
    white.new_game();
    red.new_game();
    while !board.is_over() {
        let player = match board.to_move() {
            Side::First => &mut *white,
            Side::Second => &mut *red,
        };
        board = match player.choose(&board, limits) {
            Some(m) => board.play(m).unwrap(),
            None => board.pass(),
        };
    }
    board.disc_difference(Side::First)
}

#[test]
fn the_engine_beats_random_and_greedy() {
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let layouts = [
        corners10(),
        Board::random_layout(10, 10, 8, &mut Rng::new(77)).unwrap(),
    ];
    for (g, layout) in layouts.iter().enumerate() {
        for kind in [PlayerKind::Random, PlayerKind::Greedy] {
            let mut engine = Player::new(PlayerKind::Engine, 1);
            let mut baseline = Player::new(kind, 100 + g as u64);
            let as_white = play(*layout, &mut engine, &mut baseline, &limits);
            let as_red = -play(*layout, &mut baseline, &mut engine, &limits);
            assert!(
                as_white > 0 && as_red > 0,
                "{kind:?} layout {g}: {as_white} {as_red}"
            );
        }
    }
}

#[test]
fn the_evaluation_beats_the_plain_disc_count() {
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut engine = Player::new(PlayerKind::Engine, 1);
    let mut discs = Player::new(PlayerKind::Engine, 2);
    discs.searcher().weights = Weights::disc_count();
    let layout = corners10();
    let as_white = play(layout, &mut engine, &mut discs, &limits);
    let as_red = -play(layout, &mut discs, &mut engine, &limits);
    assert!(as_white > 0 && as_red > 0, "{as_white} {as_red}");
}

#[test]
fn a_game_on_the_clock_stays_within_it() {
    // Both sides play with 1.5 s for the whole game, the clock counting down as a server would.
    let budget = Duration::from_millis(1500);
    let mut left = [budget, budget];
    let mut players = [
        Player::new(PlayerKind::Engine, 1),
        Player::new(PlayerKind::Engine, 2),
    ];
    let mut board = Board::random_layout(10, 10, 6, &mut Rng::new(9)).unwrap();
    while !board.is_over() {
        let side = board.to_move() as usize;
        let limits = Limits {
            clock: Some(wedge::game::clock::Clock::sudden_death(left[side])),
            ..Limits::default()
        };
        let t = Instant::now();
        let choice = players[side].choose(&board, &limits);
        let spent = t.elapsed();
        assert!(spent < left[side], "out of time with {:?} left", left[side]);
        left[side] -= spent;
        board = match choice {
            Some(m) => board.play(m).unwrap(),
            None => board.pass(),
        };
    }
    for l in left {
        assert!(l > Duration::from_millis(30), "{l:?} left");
    }
}
