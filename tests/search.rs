//! The midgame search against plain minimax written here (same evaluation, same pass rule), with the
//! transposition table on and off; exact play near the end; determinism; and strength against the
//! random and greedy players from XOT openings.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wedge::board::text::{read_openings_file, Game};
use wedge::board::{Board, Square};
use wedge::eval::Evaluator;
use wedge::game::players::{greedy_move, random_move};
use wedge::rng::Rng;
use wedge::search::{Limits, Score, Searcher};

use wedge::search::midgame::EVAL_LIMIT;

/// Plain negamax to `depth`; a pass does not use depth; finished games score 100 per disc.
fn minimax(ev: &Evaluator, b: Board, depth: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let moves: Vec<Square> = b.legal_moves().collect();
    if moves.is_empty() {
        if b.pass().legal_moves().is_empty() {
            return 100 * b.final_score();
        }
        return -minimax(ev, b.pass(), depth, nodes);
    }
    if depth == 0 {
        return ev.evaluate(b);
    }
    moves
        .into_iter()
        .map(|m| -minimax(ev, b.play(m).unwrap(), depth - 1, nodes))
        .max()
        .unwrap()
}

fn value(score: Score) -> i32 {
    match score {
        Score::Eval(v) => v,
        Score::Exact(d) => 100 * d,
        Score::Wld(_) => panic!("unexpected WLD score"),
    }
}

fn search(s: &mut Searcher, b: Board, depth: u32) -> wedge::search::SearchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(b, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

fn random_positions(seed: u64, count: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let plies = 4 + rng.below(50);
        let mut b = Board::START;
        for _ in 0..plies {
            match random_move(&b, &mut rng) {
                Some(m) => b = b.play_move(m).unwrap(),
                None => break,
            }
        }
        if b.can_move() {
            out.push(b);
        }
    }
    out
}

/// The first `count` of `random_positions(seed, pool)` with an empties count in `empties`.
fn positions_with_empties(
    seed: u64,
    pool: usize,
    empties: std::ops::RangeInclusive<u32>,
    count: usize,
) -> Vec<Board> {
    random_positions(seed, pool)
        .into_iter()
        .filter(|b| empties.contains(&b.empty_count()))
        .take(count)
        .collect()
}

#[test]
fn search_equals_minimax_with_and_without_tt() {
    let ev = Evaluator::default();
    let mut total_minimax = 0u64;
    let mut total_search = 0u64;
    for (i, b) in random_positions(11, 40).into_iter().enumerate() {
        let depth = 1 + (i as u32 % 4);
        let mut nodes = 0;
        let expected = minimax(&ev, b, depth, &mut nodes);
        for use_tt in [true, false] {
            let mut s = Searcher::new(4, ev.clone());
            s.set_use_tt(use_tt);
            let r = search(&mut s, b, depth);
            assert_eq!(value(r.score), expected, "{b:?} depth {depth} tt {use_tt}");
            if use_tt {
                total_search += r.nodes;
            }
        }
        total_minimax += nodes;
    }
    assert!(
        total_search * 2 < total_minimax,
        "alpha-beta searched {total_search} nodes, minimax {total_minimax}"
    );
}

/// The selective search's prunings begin at 3 plies to go (probable cuts) and 4 (late move
/// reductions); a full-width search, the default of `Limits`, has neither and stays the plain
/// search at those depths too. Besides the trained evaluation, one that loves giving the opponent
/// moves: the moves the search orders last are then the best ones. With the late move reductions
/// forced on at full width, this test fails.
#[test]
fn full_width_search_equals_minimax_at_depths_6_and_7() {
    let mut w = wedge::eval::weights::Weights::default();
    w.set_by_name("MobilityMid", "-150").unwrap();
    w.set_by_name("MobilityEnd", "-150").unwrap();
    let perverse = Evaluator::new(w);
    let positions = positions_with_empties(41, 200, 20..=44, 8);
    for (i, b) in positions.into_iter().enumerate() {
        let depth = 6 + (i as u32 % 2);
        for ev in [Evaluator::default(), perverse.clone()] {
            let mut nodes = 0;
            let expected = minimax(&ev, b, depth, &mut nodes);
            let mut s = Searcher::new(16, ev.clone());
            let r = search(&mut s, b, depth);
            assert_eq!(value(r.score), expected, "{b:?} depth {depth}");
        }
    }
}

#[test]
fn exact_near_the_end_and_best_move_achieves_it() {
    let ev = Evaluator::default();
    let mut rng = Rng::new(5);
    let mut tested = 0;
    while tested < 20 {
        let mut b = Board::START;
        while b.empty_count() > 7 {
            match random_move(&b, &mut rng) {
                Some(m) => b = b.play_move(m).unwrap(),
                None => break,
            }
        }
        if !b.can_move() {
            continue;
        }
        let mut nodes = 0;
        let expected = minimax(&ev, b, 64, &mut nodes);
        let mut s = Searcher::new(4, ev.clone());
        let r = search(&mut s, b, 20);
        assert_eq!(r.score, Score::Exact(expected / 100), "{b:?}");
        let child = b.play_move(r.best_move.unwrap()).unwrap();
        assert_eq!(-minimax(&ev, child, 64, &mut nodes), expected);
        tested += 1;
    }
}

#[test]
fn search_is_deterministic() {
    let b = wedge::board::text::board_after("f5d6c3d3c4f4f6f3e6e7").unwrap();
    let mut a = Searcher::new(8, Evaluator::default());
    let mut c = Searcher::new(8, Evaluator::default());
    let ra = search(&mut a, b, 8);
    let rc = search(&mut c, b, 8);
    assert_eq!(ra, rc);
}

fn openings(n: usize) -> Vec<Game> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xot-sample.txt");
    let all = read_openings_file(&path).unwrap();
    all.into_iter().take(n).collect()
}

/// Plays one game; wedge (at `depth`) is black when `wedge_black`. Returns wedge's final disc
/// difference.
fn play(
    start: Board,
    wedge_black: bool,
    depth: u32,
    opponent: &mut dyn FnMut(Board) -> wedge::Move,
) -> i32 {
    let mut s = Searcher::new(4, Evaluator::default());
    let mut b = start;
    let mut black_to_move = true;
    while !b.is_game_over() {
        let mv = if black_to_move == wedge_black {
            search(&mut s, b, depth).best_move.unwrap()
        } else {
            opponent(b)
        };
        b = b.play_move(mv).unwrap();
        black_to_move = !black_to_move;
    }
    let score = b.final_score();
    // `score` is for the side to move at the end.
    if black_to_move == wedge_black {
        score
    } else {
        -score
    }
}

#[test]
fn beats_random_and_greedy_from_xot_openings() {
    let games = openings(50);
    assert_eq!(games.len(), 50);
    let mut rng = Rng::new(2024);
    let mut wins = 0;
    let mut played = 0;
    for g in &games {
        // XOT openings are 8 moves: black to move.
        let start = g.position().board;
        for wedge_black in [true, false] {
            let r = play(start, wedge_black, 4, &mut |b| {
                random_move(&b, &mut rng).unwrap()
            });
            wins += (r > 0) as u32;
            let r = play(start, wedge_black, 4, &mut |b| {
                greedy_move(&b, &mut rng).unwrap()
            });
            wins += (r > 0) as u32;
            played += 2;
        }
    }
    assert!(wins * 100 >= played * 99, "won {wins} of {played}");
}

/// A legal setup with 34 legal moves for black (reachable games have at most 33).
const MANY_MOVES: &str = "------X--O-OOXO--OXXXXO--OX-O----XX-O-X--OXXXXO---O-OXO--------- X";
/// White to move has to pass; black then has 33 legal moves.
const MANY_AFTER_PASS: &str = "---------OXO--OXXXXX-OXX-OXO--OX---------------O-OXO--OXXXXX-OXX O";

#[test]
fn positions_with_more_than_32_moves_search_every_move() {
    let ev = Evaluator::default();
    let wide: Board = MANY_MOVES.parse::<wedge::Position>().unwrap().board;
    let after_pass: Board = MANY_AFTER_PASS.parse::<wedge::Position>().unwrap().board;
    assert_eq!(wide.legal_moves().count(), 34);
    assert_eq!(after_pass.legal_moves().count(), 0);
    assert_eq!(after_pass.pass().legal_moves().count(), 33);
    // As the root, below it (white's replies lead to black positions with many moves), and after
    // a forced pass: the search's value is plain minimax's, with and without the table.
    let black_below = MANY_MOVES.replace(" X", " O");
    let below: Board = black_below.parse::<wedge::Position>().unwrap().board;
    // More positions where the side not to move has 33 or more moves: variations of the first.
    let mut rng = Rng::new(34);
    let mut variants = Vec::new();
    while variants.len() < 40 {
        let mut text: Vec<u8> = black_below.bytes().collect();
        for _ in 0..3 {
            text[rng.below(64) as usize] = [b'-', b'X', b'O'][rng.below(3) as usize];
        }
        let Ok(p) = std::str::from_utf8(&text)
            .unwrap()
            .parse::<wedge::Position>()
        else {
            continue;
        };
        if p.board.can_move() && p.board.pass().legal_moves().count() > 32 {
            variants.push((p.board, 2..=2));
        }
    }
    // An evaluation that loves giving the opponent moves makes the moves the search orders last
    // (the opponent's most replies) the best ones: a list that dropped them would be caught.
    let mut w = wedge::eval::weights::Weights::default();
    w.set_by_name("MobilityMid", "-150").unwrap();
    w.set_by_name("MobilityEnd", "-150").unwrap();
    let perverse = Evaluator::new(w);
    let cases = [(wide, 1..=3), (below, 1..=3), (after_pass, 1..=3)]
        .into_iter()
        .chain(variants);
    for ((b, depths), ev) in cases.flat_map(|c| [(c.clone(), &ev), (c, &perverse)]) {
        for depth in depths {
            let mut nodes = 0;
            let expected = minimax(ev, b, depth, &mut nodes);
            for use_tt in [true, false] {
                let mut s = Searcher::new(4, ev.clone());
                s.set_use_tt(use_tt);
                let r = search(&mut s, b, depth);
                assert_eq!(value(r.score), expected, "{b:?} depth {depth} tt {use_tt}");
                assert!(r.best_move.is_some_and(|m| b.play_move(m).is_some()));
            }
        }
    }
}

/// Multi-ProbCut: at the same depth the selective search visits far fewer nodes than the full-width
/// one, and the moves it picks lose little by the full-width search's own measure; the full-width
/// level is the plain search, node for node.
#[test]
fn selective_search_is_narrower_and_its_moves_lose_little() {
    use wedge::search::selectivity::{default_level, FULL_WIDTH};
    let ev = Evaluator::default();
    let (mut full_nodes, mut selective_nodes, mut loss) = (0u64, 0u64, 0i64);
    let positions: Vec<Board> = positions_with_empties(23, 60, 20..=50, 24);
    assert!(positions.len() >= 20);
    for &b in &positions {
        let run = |selectivity: u8, root_moves: Option<u64>| {
            let mut s = Searcher::new(8, ev.clone());
            let limits = Limits {
                depth: Some(8),
                selectivity,
                root_moves,
                ..Limits::default()
            };
            s.search(b, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
        };
        let full = run(FULL_WIDTH, None);
        let plain = search(&mut Searcher::new(8, ev.clone()), b, 8);
        assert_eq!((full.nodes, full.best_move), (plain.nodes, plain.best_move));
        let selective = run(default_level(), None);
        let mv = selective.best_move.expect("a move");
        let sq = mv.square().expect("not a pass");
        assert!(b.play(sq).is_some(), "illegal {mv}");
        // The full-width value of the selective search's move.
        let chosen = run(FULL_WIDTH, Some(1 << sq.index()));
        loss += i64::from(value(full.score) - value(chosen.score));
        full_nodes += full.nodes;
        selective_nodes += selective.nodes;
    }
    let mean_loss = loss as f64 / positions.len() as f64;
    eprintln!("nodes {selective_nodes} vs {full_nodes}, mean loss {mean_loss:.0} centidiscs");
    assert!(
        selective_nodes * 3 < full_nodes,
        "selective {selective_nodes} vs full {full_nodes}"
    );
    assert!((0.0..150.0).contains(&mean_loss), "mean loss {mean_loss}");
}

/// A selective search that reaches the end of the game raises its confidence to full width before
/// it calls its score exact: the score is then the solver's, and every report before the last
/// full-width one is a heuristic score.
#[test]
fn selective_search_to_the_end_proves_its_score() {
    use wedge::search::selectivity::default_level;
    let ev = Evaluator::default();
    let positions: Vec<Board> = positions_with_empties(31, 400, 9..=11, 8);
    assert!(positions.len() >= 6);
    for b in positions {
        let mut s = Searcher::new(8, ev.clone());
        let limits = Limits {
            selectivity: default_level(),
            ..Limits::default()
        };
        let mut reports = Vec::new();
        let r = s.search(b, &limits, Arc::new(AtomicBool::new(false)), &mut |info| {
            reports.push(info)
        });
        let exact = wedge::search::Solver::new(4).solve_exact(b).score;
        assert_eq!(r.score, Score::Exact(exact), "{b:?}");
        for info in &reports {
            if info.selectivity < 100 {
                assert!(matches!(info.score, Score::Eval(_)), "{info:?}");
            }
        }
        assert!(reports.iter().any(|i| i.selectivity < 100));
    }
}

/// A selective search that reaches the end of the game leaves the proof to the exact solver: the
/// same exact score as a search that proves it on its own (with two principal lines, which the
/// solver does not give), in under three quarters of the nodes over the positions (0.69). The
/// bound is loose because the late move reductions and the probable cut's gate make the selective
/// iterations, which both searches run, cheaper (the ratios before them: docs/search.md).
#[test]
fn the_solver_proves_the_end_of_a_selective_search() {
    use wedge::search::selectivity::default_level;
    let ev = Evaluator::default();
    let positions: Vec<Board> = positions_with_empties(33, 400, 14..=16, 6);
    assert!(positions.len() >= 4);
    let (mut handed_nodes, mut alone_nodes) = (0, 0);
    for b in positions {
        let run = |multipv: usize| {
            let limits = Limits {
                selectivity: default_level(),
                multipv,
                ..Limits::default()
            };
            let mut s = Searcher::new(8, ev.clone());
            s.search(b, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
        };
        let (handed, alone) = (run(1), run(2));
        let exact = wedge::search::Solver::new(4).solve_exact(b).score;
        assert_eq!(handed.score, Score::Exact(exact), "{b:?}");
        assert_eq!(alone.score, Score::Exact(exact), "{b:?}");
        handed_nodes += handed.nodes;
        alone_nodes += alone.nodes;
    }
    assert!(
        handed_nodes * 4 < alone_nodes * 3,
        "{handed_nodes} nodes handed over, {alone_nodes} alone"
    );
}

/// The midgame search with helper threads (lazy SMP, `Threads`): at 1, 2 and 4 threads every
/// search returns a legal move, a score inside the evaluation's range at a heuristic depth, and the
/// solver's exact score when the iterations reach the end of the game (helpers share the table:
/// a race there must never make a proof wrong). One thread is the single-threaded search itself:
/// same result and node count as a searcher that never had helpers.
#[test]
fn parallel_search_is_sound_at_1_2_and_4_threads() {
    use wedge::search::selectivity::default_level;
    let ev = Evaluator::default();
    let positions = random_positions(77, 400);
    let midgame: Vec<Board> = positions
        .iter()
        .copied()
        .filter(|b| b.empty_count() >= 30)
        .take(4)
        .collect();
    let endgame: Vec<Board> = positions
        .iter()
        .copied()
        .filter(|b| (10..=12).contains(&b.empty_count()))
        .take(4)
        .collect();
    assert!(midgame.len() == 4 && endgame.len() == 4);
    let limits = Limits {
        depth: Some(9),
        selectivity: default_level(),
        ..Limits::default()
    };
    let never = || Arc::new(AtomicBool::new(false));
    let reference: Vec<_> = midgame
        .iter()
        .map(|&b| Searcher::new(8, ev.clone()).search(b, &limits, never(), &mut |_| {}))
        .collect();
    for threads in [1, 2, 4] {
        for (b, r1) in midgame.iter().zip(&reference) {
            let mut s = Searcher::new(8, ev.clone());
            s.set_threads(threads);
            let mut last_nodes = 0;
            let r = s.search(*b, &limits, never(), &mut |i| last_nodes = i.nodes);
            let mv = r.best_move.expect("a move");
            assert!(
                b.play_move(mv).is_some(),
                "{threads} threads: {mv:?} in {b:?}"
            );
            assert_eq!(r.depth, 9);
            assert!(value(r.score).abs() <= EVAL_LIMIT, "{:?}", r.score);
            assert!(r.nodes >= last_nodes, "{} < {last_nodes}", r.nodes);
            if threads == 1 {
                // Threads 1 is the search of a searcher never given threads: same move, score,
                // line and node count.
                assert_eq!(&r, r1);
            }
        }
        let mut s = Searcher::new(8, ev.clone());
        s.set_threads(threads);
        for &b in &endgame {
            s.clear();
            let limits = Limits {
                selectivity: default_level(),
                solve_empties: 0,
                ..Limits::default()
            };
            let r = s.search(b, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
            let exact = wedge::search::Solver::new(4).solve_exact(b).score;
            assert_eq!(r.score, Score::Exact(exact), "{threads} threads: {b:?}");
            let child = b.play_move(r.best_move.unwrap()).unwrap();
            let after = wedge::search::Solver::new(4).solve_exact(child).score;
            assert_eq!(
                -after, exact,
                "{threads} threads: the move does not keep the score"
            );
        }
    }
}

/// A stop ends a search with helpers as it ends one without: the search returns the best move of
/// its last iteration, and the helpers are gone with it (the test would hang on a helper left
/// running in the scope).
#[test]
fn a_stopped_parallel_search_returns_a_move() {
    let b = wedge::board::text::board_after("f5d6c3d3c4").unwrap();
    let mut s = Searcher::new(16, Evaluator::default());
    s.set_threads(4);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = s.search(b, &limits, stop, &mut |_| {});
    stopper.join().unwrap();
    assert!(b.play_move(r.best_move.unwrap()).is_some());
    assert!(r.depth >= 1 && r.nodes > 0);
}

/// A timed search with a single legal move stays shallow (the timer would otherwise let it think
/// for the whole move's time); an untimed one searches as deep as it is asked.
#[test]
fn a_single_legal_move_is_not_thought_over_when_timed() {
    // Positions of random games with one legal move and 20 empties or more.
    let mut rng = Rng::new(91);
    let mut only = Vec::new();
    while only.len() < 3 {
        let mut b = Board::START;
        while b.empty_count() >= 20 {
            if b.legal_moves().count() == 1 {
                only.push(b);
                break;
            }
            match random_move(&b, &mut rng) {
                Some(m) => b = b.play_move(m).unwrap(),
                None => break,
            }
        }
    }
    for b in only {
        let mut s = Searcher::new(8, Evaluator::default());
        let timed = Limits {
            timed: true,
            ..Limits::default()
        };
        let r = s.search(b, &timed, Arc::new(AtomicBool::new(false)), &mut |_| {});
        assert!(r.depth <= 8, "{b:?}: depth {}", r.depth);
        let deep = search(&mut s, b, 10);
        assert_eq!(deep.depth, 10);
    }
    // One move chosen by `searchmoves` among many is searched as deep as the limits allow.
    let b = wedge::board::text::board_after("f5d6c3d3c4").unwrap();
    let one = b.legal_moves().first().unwrap();
    let mut s = Searcher::new(8, Evaluator::default());
    let limits = Limits {
        timed: true,
        depth: Some(10),
        root_moves: Some(1u64 << one.index()),
        ..Limits::default()
    };
    let r = s.search(b, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
    assert_eq!(r.depth, 10);
    assert_eq!(r.best_move, Some(wedge::board::Move::play(one)));
}

/// With `MultiPV` above 1 near the end, both a solve (`go exact`) and a search whose hand-over
/// limit covers the position give every line its exact score: the best `multipv` moves, ranked,
/// each line's score that of a solve of its child on its own.
#[test]
fn multipv_lines_are_exact_in_the_endgame() {
    use wedge::search::{Info, SolveKind};
    let ev = Evaluator::default();
    let positions: Vec<Board> = positions_with_empties(41, 400, 12..=14, 3);
    assert!(positions.len() >= 3);
    for b in positions {
        let mut exact: Vec<i32> = b
            .legal_moves()
            .map(|m| {
                -wedge::search::Solver::new(4)
                    .solve_exact(b.play(m).unwrap())
                    .score
            })
            .collect();
        exact.sort_unstable_by(|a, b| b.cmp(a));
        let multipv = exact.len().min(3);
        for solve in [Some(SolveKind::Exact), None] {
            let limits = Limits {
                multipv: 3,
                solve,
                solve_empties: 20,
                ..Limits::default()
            };
            let mut lines: Vec<Info> = Vec::new();
            let mut s = Searcher::new(8, ev.clone());
            let r = s.search(b, &limits, Arc::new(AtomicBool::new(false)), &mut |i| {
                lines.push(i)
            });
            assert_eq!(r.score, Score::Exact(exact[0]), "{b:?} {solve:?}");
            // The last report of each line is the one that stands.
            for k in 1..=multipv {
                let last = lines.iter().rev().find(|i| i.multipv == k).unwrap();
                assert_eq!(
                    last.score,
                    Score::Exact(exact[k - 1]),
                    "{b:?} {solve:?} line {k}"
                );
                let child = b.play_move(last.pv[0]).unwrap();
                let alone = wedge::search::Solver::new(4).solve_exact(child).score;
                assert_eq!(-alone, exact[k - 1], "{b:?} {solve:?} line {k}'s move");
            }
        }
    }
}
