//! `wedge solve`: solves every position of an OBF file with the endgame solver, compares with the
//! expected scores in the file, and reports nodes, time and nodes/second per position and in total.

use crate::board::text::ObfLine;
use crate::board::Move;
use crate::eval::Evaluator;
use crate::search::Solver;
use std::time::{Duration, Instant};

/// What to solve and how.
#[derive(Clone)]
pub struct SolveOptions {
    /// Solve for win/loss/draw only.
    pub wld: bool,
    /// Search threads per position (sharing one table).
    pub threads: usize,
    /// Positions solved at once (each with its own `threads` threads and table).
    pub jobs: usize,
    /// Transposition table size per position being solved, in MB.
    pub hash_mb: usize,
    /// The evaluation that orders the moves at high empties.
    pub eval: Evaluator,
}

/// The outcome for one position.
#[derive(Clone, Debug)]
pub struct SolvedLine {
    /// Empty squares in the position.
    pub empties: u32,
    /// The move the solver chose (`None` if the game was over).
    pub best_move: Option<Move>,
    /// The score found (for WLD: -1, 0 or +1).
    pub score: i32,
    /// The best score the file gives, if any.
    pub expected: Option<i32>,
    /// Whether the result agrees with the file (score, and the chosen move has the best score).
    pub ok: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

fn sign(x: i32) -> i32 {
    x.signum()
}

/// Checks one result against a problem line: the score equals the file's best score (sign only for
/// WLD), and the chosen move, when the file lists it, has that best score too.
pub fn check(
    line: &ObfLine,
    best_move: Option<Move>,
    score: i32,
    wld: bool,
) -> (Option<i32>, bool) {
    let Some(expected) = line.scores.iter().map(|&(_, s)| s).max() else {
        return (None, true);
    };
    let score_ok = if wld {
        sign(score) == sign(expected)
    } else {
        score == expected
    };
    let move_ok = match best_move {
        Some(mv) => line
            .scores
            .iter()
            .find(|&&(m, _)| m == mv)
            .is_none_or(|&(_, s)| {
                if wld {
                    sign(s) == sign(expected)
                } else {
                    s == expected
                }
            }),
        None => true,
    };
    (Some(expected), score_ok && move_ok)
}

/// Solves one problem line.
pub fn solve_line(solver: &mut Solver, line: &ObfLine, wld: bool) -> SolvedLine {
    let board = line.position.board;
    let start = Instant::now();
    let result = if wld {
        solver.solve_wld(board)
    } else {
        solver.solve_exact(board)
    };
    let time = start.elapsed();
    let score = if wld {
        sign(result.score)
    } else {
        result.score
    };
    let (expected, ok) = check(line, result.best_move, result.score, wld);
    SolvedLine {
        empties: board.empty_count(),
        best_move: result.best_move,
        score,
        expected: expected.map(|e| if wld { sign(e) } else { e }),
        ok,
        nodes: result.nodes,
        time,
    }
}

/// Solves all lines, `jobs` positions at a time with `threads` threads each; `on_done(index, result)` is called as each one
/// finishes (in completion order); the results come back in file order.
pub fn solve_all(
    lines: &[ObfLine],
    options: &SolveOptions,
    on_done: impl Fn(usize, &SolvedLine) + Sync,
) -> Result<Vec<SolvedLine>, crate::search::TableAllocError> {
    // Every job's table is made before any solving starts: memory that is not there is an error
    // here, not an abort in the middle of a run. No more jobs than positions.
    let jobs = options.jobs.min(lines.len()).clamp(1, 256);
    crate::game::table::check_room(jobs, options.hash_mb.max(1))?;
    let mut solvers = (0..jobs)
        .map(|_| Solver::try_new(options.hash_mb))
        .collect::<Result<Vec<_>, _>>()?;
    for solver in &mut solvers {
        solver.set_evaluator(options.eval.clone());
        solver.set_threads(options.threads);
    }
    Ok(super::in_parallel(
        lines,
        solvers,
        |solver, line| solve_line(solver, line, options.wld),
        on_done,
    ))
}

/// The header of the result table.
pub const HEADER: &str =
    "   # empties  move  score  expect  check          nodes     time(s)        nodes/s";

/// One row of the result table for position number `number`.
pub fn row(number: usize, r: &SolvedLine) -> String {
    let secs = r.time.as_secs_f64();
    let mv = r.best_move.map_or("-".to_string(), |m| m.to_string());
    let expected = r.expected.map_or("-".to_string(), |e| format!("{e:+}"));
    format!(
        "{:>4} {:>7}  {:>4}  {:>+5}  {:>6}  {:<8} {:>13} {:>11.3} {:>14.0}",
        number,
        r.empties,
        mv,
        r.score,
        expected,
        match (r.expected, r.ok) {
            (None, _) => "-",
            (Some(_), true) => "OK",
            (Some(_), false) => "MISMATCH",
        },
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-9)
    )
}

/// The totals line: positions, mismatches, nodes, time and nodes/second.
pub fn totals(results: &[SolvedLine], wall: Duration) -> String {
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    // Folded from +0.0: a float `sum` starts at -0.0, which prints as "-0.000" for no results.
    let time = results.iter().fold(0.0, |t, r| t + r.time.as_secs_f64());
    let bad = results.iter().filter(|r| !r.ok).count();
    format!(
        "total: {} positions, {} mismatches, {} nodes, {:.3} s solving ({:.3} s wall), {:.0} nodes/s",
        results.len(),
        bad,
        nodes,
        time,
        wall.as_secs_f64(),
        nodes as f64 / time.max(1e-9)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_of_no_results_read_zero() {
        let line = totals(&[], Duration::from_millis(5));
        assert!(line.contains(" 0.000 s solving"), "{line}");
        assert!(!line.contains("-0.000"), "{line}");
    }

    #[test]
    fn the_check_column_says_ok_only_against_a_score() {
        let solved = |expected, ok| SolvedLine {
            empties: 20,
            best_move: None,
            score: 4,
            expected,
            ok,
            nodes: 10,
            time: Duration::from_millis(1),
        };
        let check = |r: &SolvedLine| row(1, r).split_whitespace().nth(5).map(str::to_string);
        assert_eq!(check(&solved(None, true)).as_deref(), Some("-"));
        assert_eq!(check(&solved(Some(4), true)).as_deref(), Some("OK"));
        assert_eq!(check(&solved(Some(6), false)).as_deref(), Some("MISMATCH"));
    }
}
