//! The endgame solver against the FFO answers and against plain, obviously-correct searches written
//! here; WLD against exact; stable discs never flip.

use wedge::board::stability::stable_discs;
use wedge::board::text::read_obf_file;
use wedge::board::{Board, Move, Square};
use wedge::rng::Rng;
use wedge::search::Solver;
use wedge::tools::solve::{check, solve_all, SolveOptions};

/// A position with exactly `empties` empty squares reached by random play (None if the random game
/// ended earlier).
fn random_position(rng: &mut Rng, empties: u32) -> Option<Board> {
    let mut b = Board::START;
    while b.empty_count() > empties {
        if b.is_game_over() {
            return None;
        }
        let moves: Vec<Square> = b.legal_moves().collect();
        if moves.is_empty() {
            b = b.pass();
            continue;
        }
        b = b.play(moves[(rng.next_u64() % moves.len() as u64) as usize])?;
    }
    (!b.is_game_over()).then_some(b)
}

/// Plain minimax to the end of the game.
fn minimax(b: Board) -> i32 {
    let moves: Vec<Square> = b.legal_moves().collect();
    if moves.is_empty() {
        if b.pass().legal_moves().is_empty() {
            return b.final_score();
        }
        return -minimax(b.pass());
    }
    moves
        .into_iter()
        .map(|m| -minimax(b.play(m).unwrap()))
        .max()
        .unwrap()
}

/// Plain fail-hard alpha-beta in square order, no tricks (for positions too big for minimax).
fn alphabeta(b: Board, mut alpha: i32, beta: i32) -> i32 {
    let moves: Vec<Square> = b.legal_moves().collect();
    if moves.is_empty() {
        if b.pass().legal_moves().is_empty() {
            return b.final_score().clamp(alpha, beta);
        }
        return -alphabeta(b.pass(), -beta, -alpha);
    }
    for m in moves {
        let v = -alphabeta(b.play(m).unwrap(), -beta, -alpha);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// FFO #1-#19 with `threads` search threads per position and `jobs` positions at once.
fn check_ffo_1_to_19(threads: usize, jobs: usize) {
    let lines = read_obf_file(&data("fforum-1-19.obf")).unwrap();
    assert_eq!(lines.len(), 19);
    let options = SolveOptions {
        wld: false,
        threads,
        jobs,
        hash_mb: 16,
        eval: wedge::eval::Evaluator::default(),
    };
    let results = solve_all(&lines, &options, |_, _| {}).unwrap();
    assert_eq!(results.len(), 19);
    for (i, (line, r)) in lines.iter().zip(&results).enumerate() {
        let best = line.scores.iter().map(|&(_, s)| s).max().unwrap();
        assert_eq!(r.score, best, "FFO #{}", i + 1);
        let mv = r.best_move.unwrap();
        let listed = line.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s);
        assert_eq!(
            listed,
            Some(best),
            "FFO #{}: move {mv} is not a best move",
            i + 1
        );
        assert!(r.ok);
    }
}

#[test]
fn ffo_1_to_19_scores_and_moves_match() {
    check_ffo_1_to_19(1, 2);
}

#[test]
fn ffo_1_to_19_scores_and_moves_match_with_helper_threads() {
    // More threads than this machine may have cores: the helpers then also interleave in time,
    // which shakes out more orders of events.
    check_ffo_1_to_19(3, 1);
}

#[test]
fn ffo_20_to_23_wld_and_exact() {
    // The quicker ones of the second file (17-18 empties); the rest are the `solve` benchmark.
    let lines = read_obf_file(&data("fforum-20-39.obf")).unwrap();
    let mut solver = Solver::new(1);
    assert_eq!(solver.hashfull(), 0);
    for line in &lines[..4] {
        let best = line.scores.iter().map(|&(_, s)| s).max().unwrap();
        let exact = solver.solve_exact(line.position.board);
        assert_eq!(exact.score, best);
        // A solve of 15-18 empties fills a good part of a 1 MB table (the first position, with 6
        // empties, is below the table's range).
        if line.position.board.empty_count() >= 15 {
            assert!(solver.hashfull() > 0, "{}", solver.hashfull());
        }
        let wld = solver.solve_wld(line.position.board);
        assert_eq!(wld.score.signum(), best.signum());
        assert!(check(line, wld.best_move, wld.score, true).1);
    }
}

#[test]
fn check_detects_wrong_scores_and_moves() {
    let lines = read_obf_file(&data("fforum-1-19.obf")).unwrap();
    let line = &lines[0]; // G8:+18; H1:+12; ...
    let g8 = Move::play("g8".parse().unwrap());
    let h1 = Move::play("h1".parse().unwrap());
    assert!(check(line, Some(g8), 18, false).1);
    assert!(!check(line, Some(g8), 16, false).1);
    assert!(!check(line, Some(h1), 18, false).1);
    assert!(check(line, Some(h1), 5, true).1);
    assert!(!check(line, Some(g8), -2, true).1);
}

#[test]
fn solver_equals_minimax_on_random_positions() {
    let mut rng = Rng::new(0xE4D6_A3E5);
    let mut solver = Solver::new(4);
    let mut tested = 0;
    while tested < 60 {
        let empties = 6 + (rng.next_u64() % 5) as u32; // 6..=10
        let Some(b) = random_position(&mut rng, empties) else {
            continue;
        };
        let expected = minimax(b);
        let r = solver.solve_exact(b);
        assert_eq!(r.score, expected, "{b:?}");
        // The best move really achieves the score, and the PV replays to a finished game.
        let mv = r.best_move.unwrap();
        let child = b.play_move(mv).unwrap();
        assert_eq!(-minimax(child), expected);
        let mut end = b;
        for m in &r.pv {
            end = end.play_move(*m).unwrap();
        }
        assert!(end.is_game_over(), "PV does not reach the end: {:?}", r.pv);
        let sign = if r.pv.len().is_multiple_of(2) { 1 } else { -1 };
        assert_eq!(sign * end.final_score(), expected, "PV score");
        tested += 1;
    }
}

#[test]
fn solver_equals_plain_alphabeta_up_to_14_empties() {
    let mut rng = Rng::new(0x0BAD_5EED);
    let mut solver = Solver::new(16);
    let mut tested = 0;
    while tested < 24 {
        let empties = 11 + (tested % 4) as u32; // 11..=14
        let Some(b) = random_position(&mut rng, empties) else {
            continue;
        };
        let expected = alphabeta(b, -64, 64);
        assert_eq!(solver.solve_exact(b).score, expected, "{b:?}");
        // WLD agrees in sign.
        assert_eq!(
            solver.solve_wld(b).score.signum(),
            expected.signum(),
            "{b:?}"
        );
        // A narrow window gives the right bound.
        let r = solver.solve_window(b, expected - 1, expected + 1);
        assert_eq!(r.score, expected);
        tested += 1;
    }
}

#[test]
fn game_over_and_forced_pass_positions() {
    let mut solver = Solver::new(1);
    // Over: a wipe-out.
    let over = wedge::board::text::board_after("d3c3b3d2e1d6d7e3f4").unwrap();
    let r = solver.solve_exact(over);
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, over.final_score());
    // Must pass: the solver answers PASS and the score of the position after it.
    let mut rng = Rng::new(5);
    let mut found = 0;
    while found < 5 {
        let empties = 8 + (rng.next_u64() % 4) as u32;
        let Some(b) = random_position(&mut rng, empties) else {
            continue;
        };
        if !b.must_pass() {
            continue;
        }
        let r = solver.solve_exact(b);
        assert_eq!(r.best_move, Some(Move::PASS));
        assert_eq!(r.score, minimax(b));
        found += 1;
    }
}

#[test]
fn stable_discs_never_flip() {
    let mut rng = Rng::new(0x57AB1E);
    for _ in 0..300 {
        let empties = 4 + (rng.next_u64() % 30) as u32;
        let Some(b) = random_position(&mut rng, empties) else {
            continue;
        };
        let mine = stable_discs(b.player(), b.opponent());
        let theirs = stable_discs(b.opponent(), b.player());
        // Random continuations: the stable discs keep their colour to the end.
        for _ in 0..5 {
            let (mut cur, mut flipped) = (b, false);
            while !cur.is_game_over() {
                let moves: Vec<Square> = cur.legal_moves().collect();
                cur = if moves.is_empty() {
                    cur.pass()
                } else {
                    cur.play(moves[(rng.next_u64() % moves.len() as u64) as usize])
                        .unwrap()
                };
                flipped = !flipped;
            }
            // `flipped` tells whether `cur.player()` is the original opponent.
            let (p_now, o_now) = if flipped {
                (cur.opponent(), cur.player())
            } else {
                (cur.player(), cur.opponent())
            };
            assert_eq!(p_now & mine, mine);
            assert_eq!(o_now & theirs, theirs);
        }
    }
}

/// `wedge solve --eval-file`: another evaluation orders the moves (same scores); a missing file is
/// refused with its name.
#[test]
fn solve_command_with_an_eval_file() {
    let run = |eval: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args(["solve", "tests/data/fforum-1-19.obf", "--eval-file", eval])
            .output()
            .expect("the wedge binary runs")
    };
    let ok = run("src/eval/patterns.bin");
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{text}");
    assert!(text.contains("19 positions, 0 mismatches"), "{text}");
    let missing = run("no-such-weights.bin");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such-weights.bin"));
}

/// Solves random positions with helper threads and checks every score against the single-threaded
/// solver: exact solves, WLD, and narrow windows (fail-high and fail-low bounds must be true bounds).
fn parallel_agrees_with_sequential(seed: u64, count: usize, empties: u32, threads: usize) {
    let mut rng = Rng::new(seed);
    let mut one = Solver::new(4);
    let mut many = Solver::new(4);
    many.set_threads(threads);
    assert_eq!(many.threads(), threads);
    let mut done = 0;
    while done < count {
        let Some(b) = random_position(&mut rng, empties) else {
            continue;
        };
        done += 1;
        let exact = one.solve_exact(b);
        let r = many.solve_exact(b);
        assert!(!r.aborted);
        assert_eq!(r.score, exact.score, "exact, {b:?}");
        // The move returned has that score.
        if let Some(sq) = r.best_move.and_then(|m| m.square()) {
            let after = b.play(sq).expect("the best move is legal");
            assert_eq!(
                -one.solve_exact(after).score,
                exact.score,
                "best move, {b:?}"
            );
        }
        let wld = many.solve_wld(b);
        assert_eq!(wld.score.signum(), exact.score.signum(), "wld, {b:?}");
        // A window below the score fails high with a lower bound, one above fails low (both
        // windows inside the range of scores).
        if exact.score.abs() > 56 {
            continue;
        }
        let low = many.solve_window(b, exact.score - 7, exact.score - 3);
        assert!(
            low.score >= exact.score - 3 && low.score <= exact.score,
            "{b:?}"
        );
        let high = many.solve_window(b, exact.score + 3, exact.score + 7);
        assert!(
            high.score <= exact.score + 3 && high.score >= exact.score,
            "{b:?}"
        );
    }
}

#[test]
fn parallel_solves_agree_with_sequential_ones() {
    parallel_agrees_with_sequential(71, 40, 16, 2);
    parallel_agrees_with_sequential(72, 20, 18, 4);
}

#[test]
fn selective_passes_leave_exact_scores_and_pvs_exact() {
    // From 18 empties an exact solve first runs probable-cut passes that share the table with
    // the exact pass; a full-window solve runs none. Both must give the same score, and the PV
    // must play out to it.
    let mut rng = Rng::new(91);
    let mut staged = Solver::new(8);
    let mut plain = Solver::new(8);
    for (empties, count) in [(18, 12), (20, 6)] {
        let mut done = 0;
        while done < count {
            let Some(b) = random_position(&mut rng, empties) else {
                continue;
            };
            done += 1;
            let r = staged.solve_exact(b);
            let reference = plain.solve_window(b, -64, 64);
            assert!(!r.aborted);
            assert_eq!(r.score, reference.score, "{b:?}");
            let mut end = b;
            let mut sign = 1;
            for &mv in &r.pv {
                end = end.play_move(mv).expect("PV moves are legal");
                sign = -sign;
            }
            assert!(end.is_game_over(), "the PV reaches the end: {b:?}");
            assert_eq!(sign * end.final_score(), r.score, "{b:?}");
        }
    }
}

#[test]
fn selective_passes_are_reported_and_a_stop_keeps_the_last_one() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let lines = read_obf_file(&data("fforum-40-59.obf")).unwrap();
    // FFO #40: 20 empties, two selective passes before the exact one.
    let b = lines[0].position.board;
    let mut solver = Solver::new(16);
    let mut seen = Vec::new();
    let r = solver.solve_exact_reporting(b, &mut |pass, hashfull| {
        seen.push((pass.confidence, pass.nodes, pass.best_move.is_some()));
        assert!(hashfull <= 1000);
    });
    assert_eq!(r.score, 38);
    assert_eq!((r.confidence, r.aborted), (100, false));
    let levels: Vec<u8> = seen.iter().map(|s| s.0).collect();
    assert_eq!(levels, [73, 95], "{seen:?}");
    assert!(
        seen.windows(2).all(|w| w[0].1 < w[1].1) && seen[1].1 < r.nodes,
        "nodes count up: {seen:?}"
    );
    assert!(seen.iter().all(|s| s.2), "each pass has a move");
    // FFO #47: 25 empties, four passes (the intermediate levels too) before the exact one.
    let big = lines[7].position.board;
    assert!(big.empty_count() >= 24);
    let mut levels = Vec::new();
    let r = Solver::new(16).solve_exact_reporting(big, &mut |pass, _| levels.push(pass.confidence));
    assert_eq!((r.score, levels), (4, vec![73, 87, 95, 98]));
    // Below 18 empties there is no selective pass.
    let mut calls = 0;
    let small = read_obf_file(&data("fforum-1-19.obf")).unwrap()[0]
        .position
        .board;
    assert!(small.empty_count() < 18);
    let r = solver.solve_exact_reporting(small, &mut |_, _| calls += 1);
    assert_eq!((calls, r.confidence), (0, 100));
    // Stopped after the first pass: the answer is that pass's, marked as stopped.
    let stop = Arc::new(AtomicBool::new(false));
    let mut solver = Solver::new(16);
    solver.set_stop_flag(stop.clone());
    let mut first = None;
    let r = solver.solve_exact_reporting(b, &mut |pass, _| {
        first.get_or_insert_with(|| pass.clone());
        stop.store(true, Ordering::Relaxed);
    });
    let first = first.expect("the first pass finished");
    assert!(r.aborted);
    assert_eq!(r.confidence, 73);
    assert_eq!((r.score, r.best_move), (first.score, first.best_move));
    assert!(r.nodes >= first.nodes);
    // WLD reports its passes the same way.
    stop.store(false, Ordering::Relaxed);
    let mut wld_passes = 0;
    let r = solver.solve_wld_reporting(b, &mut |_, _| wld_passes += 1);
    assert_eq!((r.score.signum(), r.confidence, wld_passes), (1, 100, 2));
}
