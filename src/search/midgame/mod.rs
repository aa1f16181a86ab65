//! The midgame search: iterative deepening over a negamax principal variation search with a
//! transposition table, aspiration windows and MultiPV, handing over to the perfect endgame solver
//! when the rest of the game can be solved in the time available.
//!
//! Limits (depth, nodes, time) come in as [`Limits`]; progress goes out through a callback as [`Info`]
//! values; `stop` is an atomic flag checked every few hundred nodes. Nothing here reads or writes text.

pub mod probcut;
mod solve;
mod tree;

use super::endgame::{SolveResult, Solver};
use super::movelist::MoveList;
use super::selectivity::{self, FULL_WIDTH};
use super::tt::TranspositionTable;
use super::{
    reply_count, Bound, Info, Limits, Progress, Score, SearchResult, SolveKind, TableAllocError,
};
use crate::board::movegen::{flips, legal_moves};
use crate::board::square::NO_SQUARE;
use crate::board::{final_score, Bitboard, Board, Move, Square};
use crate::eval::{Evaluator, PatternIndices};
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Above every score (centidiscs): final scores are at most 6,400.
const INF_CENTIDISCS: i32 = 30000;
/// The largest heuristic score (centidiscs): evaluations are clamped to +-63 discs, inside the
/// range of final scores (+-64 discs), so that a proven win or loss by 64 outranks any evaluation.
pub const EVAL_LIMIT: i32 = 6300;
/// Nodes between two looks at the stop flag and the node limit.
const CHECK_EVERY: u64 = 256;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 60;
/// First aspiration half-window, centidiscs.
const ASPIRATION: i32 = 150;

/// The midgame searcher: owns the transposition table, the evaluation and the endgame solver, which
/// persist between searches of the same game.
pub struct Searcher {
    tt: TranspositionTable,
    eval: Evaluator,
    solver: Solver,
    nodes: u64,
    node_limit: u64,
    stop: Arc<AtomicBool>,
    aborted: bool,
    seldepth: u32,
    use_tt: bool,
    rng: Rng,
    progress: Arc<Progress>,
    /// When the search in progress started.
    started: Instant,
    /// The Multi-ProbCut level of the search in progress ([`FULL_WIDTH`]: none).
    selectivity: u8,
}

/// A root move with its latest score and PV.
#[derive(Clone, Debug)]
struct RootMove {
    sq: u8,
    score: i32,
    pv: Vec<Move>,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and the given evaluation. Panics if the memory
    /// is not there: sizes that come from outside go through [`Searcher::try_new`].
    pub fn new(hash_mb: usize, eval: Evaluator) -> Searcher {
        Searcher::try_new(hash_mb, eval).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a table of `hash_mb` megabytes, or an error if the memory is not there.
    pub fn try_new(hash_mb: usize, eval: Evaluator) -> Result<Searcher, TableAllocError> {
        let progress = Arc::new(Progress::default());
        let mut solver = Solver::try_new((hash_mb / 4).max(1))?;
        solver.set_evaluator(eval.clone());
        solver.set_progress(progress.clone());
        Ok(Searcher {
            tt: TranspositionTable::try_new(hash_mb)?,
            eval,
            solver,
            nodes: 0,
            node_limit: u64::MAX,
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            seldepth: 0,
            use_tt: true,
            rng: Rng::new(0),
            progress,
            started: Instant::now(),
            selectivity: FULL_WIDTH,
        })
    }

    /// The live figures of the search in progress, for another thread to report.
    pub fn progress(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// Turns the transposition table on or off (on by default). Off is for testing and analysis:
    /// the search then returns exactly the plain minimax value at a fixed depth, only slower.
    pub fn set_use_tt(&mut self, on: bool) {
        self.use_tt = on;
    }

    /// Replaces the evaluation (e.g. after a weight change).
    pub fn set_evaluator(&mut self, eval: Evaluator) {
        self.solver.set_evaluator(eval.clone());
        self.eval = eval;
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Resizes the hash table (its contents are lost). If the memory is not there, the tables in
    /// use stay as they were, contents included, and the error says so: the new tables are made
    /// while the old ones still exist, so a failed resize never leaves the engine without one.
    pub fn resize_hash(&mut self, hash_mb: usize) -> Result<(), TableAllocError> {
        let threads = self.solver.threads();
        let tt = TranspositionTable::try_new(hash_mb)?;
        let mut solver = Solver::try_new((hash_mb / 4).max(1))?;
        self.tt = tt;
        solver.set_evaluator(self.eval.clone());
        solver.set_progress(self.progress.clone());
        solver.set_threads(threads);
        self.solver = solver;
        Ok(())
    }

    /// Searches with `threads` threads in all where the search can use them: the endgame solver
    /// (exact and WLD solves, and the hand-over near the end of a game) shares its work with
    /// `threads - 1` helpers; the midgame search itself runs on one thread.
    pub fn set_threads(&mut self, threads: usize) {
        if threads != self.solver.threads() {
            let fewer = threads < self.solver.threads();
            self.solver.set_threads(threads);
            if fewer {
                // The helpers that ended have been joined: their memory can go back.
                super::release_free_memory();
            }
        }
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.solver.clear();
    }

    /// Searches `board` within `limits`, calling `report` after each finished iteration (one call per
    /// MultiPV line). `stop` ends the search early; the best move so far is returned.
    pub fn search(
        &mut self,
        board: Board,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        report: &mut dyn FnMut(Info),
    ) -> SearchResult {
        let start = Instant::now();
        self.stop = stop;
        self.nodes = 0;
        self.started = start;
        self.progress.reset();
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.selectivity = limits.selectivity.min(FULL_WIDTH);
        self.tt.new_search();

        let (p, o) = (board.player(), board.opponent());
        let moves = legal_moves(p, o);
        if moves == 0 {
            if board.is_game_over() {
                return SearchResult {
                    best_move: None,
                    score: Score::Exact(board.final_score()),
                    pv: Vec::new(),
                    nodes: 0,
                    depth: 0,
                };
            }
            // A forced pass: search the opponent's position and see it from this side (one line:
            // the pass is the only move; no noise on the opponent's choice).
            let mut from_here = |mut info: Info| {
                info.score = info.score.negated();
                info.bound = match info.bound {
                    Bound::Lower => Bound::Upper,
                    Bound::Upper => Bound::Lower,
                    Bound::Exact => Bound::Exact,
                };
                info.pv.insert(0, Move::PASS);
                report(info);
            };
            let child_limits = Limits {
                root_moves: None,
                multipv: 1,
                randomness: 0,
                ..limits.clone()
            };
            let mut r = self.search(
                board.pass(),
                &child_limits,
                self.stop.clone(),
                &mut from_here,
            );
            r.score = r.score.negated();
            r.pv.insert(0, Move::PASS);
            r.best_move = Some(Move::PASS);
            return r;
        }

        // `searchmoves`: only these root moves (all of them when none of the set is legal).
        let (moves, restricted) = match limits.root_moves {
            Some(set) if set & moves != 0 => (set & moves, set & moves != moves),
            _ => (moves, false),
        };
        let empties = board.empty_count();
        if let Some(kind) = limits.solve {
            if restricted {
                return self.solve_moves(board, moves, kind, start, report);
            }
            return self.solve(board, kind, start, report).0;
        }
        // Hand over to the solver when the endgame is small enough for the time we have. A short
        // midgame search first gives a sound move to fall back on if the solve cannot finish.
        if limits.nodes.is_none() && empties <= limits.solve_empties && !restricted {
            let quick = Limits {
                depth: Some(limits.depth.map_or(6, |d| d.min(6))),
                solve_empties: 0,
                ..limits.clone()
            };
            let fallback = self.search(board, &quick, self.stop.clone(), report);
            if self.aborted {
                return fallback;
            }
            let nodes = self.nodes;
            self.nodes = 0;
            let (mut r, confidence) = self.solve(board, SolveKind::Exact, start, report);
            r.nodes += nodes;
            // A selective pass that finished before the time ran out knows more than the quick
            // search: its move is kept.
            return if self.aborted && confidence == 0 {
                SearchResult {
                    nodes: r.nodes,
                    ..fallback
                }
            } else {
                r
            };
        }

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let multipv = limits.multipv.clamp(1, 64);
        // With randomness every root move needs a real score to add noise to.
        let width = if limits.randomness > 0 { 64 } else { multipv };
        let mut roots: Vec<RootMove> = Bitboard(moves)
            .map(|sq| RootMove {
                sq: sq.index() as u8,
                score: -INF_CENTIDISCS,
                pv: Vec::new(),
            })
            .collect();
        self.order_root(p, o, &mut roots);
        let mut result = SearchResult {
            best_move: Square::new(roots[0].sq).map(Move::play),
            score: Score::Eval(0),
            pv: vec![],
            nodes: 0,
            depth: 0,
        };
        let mut prev_score = 0;
        // Iterations deepen until the end of the game (or the depth limit); a selective search
        // that has reached the end then raises its confidence level by level to a full-width
        // search, the only one whose end-of-game score is a proof.
        let mut depth = 0;
        let mut proven = false;
        loop {
            if depth < max_depth && depth < empties {
                depth += 1;
            } else if depth >= empties && self.selectivity < FULL_WIDTH {
                // So shallow an end makes no probable cut: straight to full width.
                self.selectivity = if depth <= probcut::MIN_DEPTH {
                    FULL_WIDTH
                } else {
                    self.selectivity + 1
                };
            } else {
                break;
            }
            let to_the_end = depth >= empties && self.selectivity == FULL_WIDTH;
            self.seldepth = 0;
            let iteration = Iteration {
                depth,
                multipv: width,
                guess: prev_score,
            };
            let scores = self.search_root(p, o, iteration, &mut roots, report);
            if self.aborted && scores.is_none() {
                break;
            }
            // A finished iteration (or a partial one whose first move was searched) gives the best
            // move; partial iterations are not reported as depth lines.
            let best = &roots[0];
            result.best_move = Square::new(best.sq).map(Move::play);
            result.pv = best.pv.clone();
            // A stopped iteration's score may be a bound: never a proof.
            result.score = score_of(best.score, to_the_end && !self.aborted);
            result.depth = depth;
            if self.aborted {
                break;
            }
            proven = to_the_end;
            prev_score = best.score;
            let elapsed = start.elapsed();
            for (k, rm) in roots.iter().take(multipv).enumerate() {
                report(Info {
                    multipv: k + 1,
                    depth,
                    seldepth: self.seldepth.max(depth),
                    score: score_of(rm.score, to_the_end),
                    bound: Bound::Exact,
                    nodes: self.nodes,
                    time: elapsed,
                    hashfull: self.tt.hashfull(),
                    selectivity: self.reported_selectivity(depth),
                    pv: rm.pv.clone(),
                });
            }
            if let Some(soft) = limits.soft_time {
                if elapsed >= soft.mul_f64(0.5) && !limits.infinite {
                    break;
                }
            }
        }
        if limits.randomness > 0 && result.depth > 0 {
            // Bounded noise on the root scores: weaker, varied play (reproducible from the seed).
            let r = i64::from(limits.randomness);
            let mut best = i64::MIN;
            for rm in &roots {
                let noise = (self.rng.below(2 * r as u64 + 1) as i64) - r;
                let v = i64::from(rm.score) + noise;
                if v > best && rm.score > -INF_CENTIDISCS {
                    best = v;
                    result.best_move = Square::new(rm.sq).map(Move::play);
                    result.pv = rm.pv.clone();
                    result.score = score_of(rm.score, proven);
                }
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// The confidence of an iteration `depth` plies deep, percent: probable cuts happen below
    /// the root only from depth `probcut::MIN_DEPTH + 1`; shallower iterations are full width.
    fn reported_selectivity(&self, depth: u32) -> u8 {
        if depth > probcut::MIN_DEPTH {
            selectivity::percent(self.selectivity)
        } else {
            100
        }
    }

    /// Seeds the generator behind `Limits::randomness`.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Initial root order: by the static evaluation of each child, best for the side to move first
    /// (the child's evaluation is the opponent's view, so the smallest comes first).
    fn order_root(&self, p: u64, o: u64, roots: &mut [RootMove]) {
        roots.sort_by_key(|rm| {
            let sq = rm.sq as usize;
            let f = flips(sq, p, o);
            let child = Board::new(o ^ f, p | f | (1 << sq)).unwrap_or(Board::START);
            self.eval.evaluate(child)
        });
    }

    /// One iteration at the root. Moves are searched in the order of the previous iteration; the
    /// first `multipv` get exact scores, the others are only tested against the weakest of those.
    /// Returns `None` if stopped before the first move finished.
    fn search_root(
        &mut self,
        p: u64,
        o: u64,
        Iteration {
            depth,
            multipv,
            guess,
        }: Iteration,
        roots: &mut [RootMove],
        report: &mut dyn FnMut(Info),
    ) -> Option<()> {
        let multipv = multipv.min(roots.len());
        let (mut alpha, mut beta) = if depth >= 4 && multipv == 1 {
            (guess - ASPIRATION, guess + ASPIRATION)
        } else {
            (-INF_CENTIDISCS, INF_CENTIDISCS)
        };
        let idx = PatternIndices::new(p, o);
        loop {
            let mut best = -INF_CENTIDISCS;
            for i in 0..roots.len() {
                let sq = roots[i].sq as usize;
                self.progress.set_current(depth, sq as u8, i + 1);
                let f = flips(sq, p, o);
                let (cp, co) = (o ^ f, p | f | (1 << sq));
                let cidx = idx.play(sq, f);
                // The bound a move must beat to enter the reported set.
                let floor = if multipv > 1 {
                    if i < multipv {
                        -INF_CENTIDISCS
                    } else {
                        roots[multipv - 1].score.max(-INF_CENTIDISCS)
                    }
                } else {
                    alpha.max(best)
                };
                let mut pv = Vec::new();
                let v = if i == 0 || (multipv > 1 && i < multipv) {
                    -self.pvs(cp, co, &cidx, -beta, -floor, depth - 1, 1, &mut pv)
                } else {
                    let v = -self.pvs(cp, co, &cidx, -floor - 1, -floor, depth - 1, 1, &mut pv);
                    if v > floor && v < beta && !self.aborted {
                        pv.clear();
                        -self.pvs(cp, co, &cidx, -beta, -floor, depth - 1, 1, &mut pv)
                    } else {
                        v
                    }
                };
                if self.aborted {
                    return (i > 0).then_some(());
                }
                let rm = &mut roots[i];
                if v > floor || i < multipv {
                    rm.score = v;
                    rm.pv = std::iter::once(Move::play(Square::ALL[sq]))
                        .chain(pv)
                        .collect();
                } else {
                    rm.score = v.min(floor); // an upper bound: keeps it below the reported ones
                }
                best = best.max(v);
                // Keep the list sorted by score (stable, so ties keep the earlier order).
                let mut j = i;
                while j > 0 && roots[j - 1].score < roots[j].score {
                    roots.swap(j - 1, j);
                    j -= 1;
                }
                if multipv == 1 && best >= beta {
                    break;
                }
            }
            // Aspiration: report the bound, widen and search again on a fail.
            let failed = if best <= alpha && alpha > -INF_CENTIDISCS {
                Some(Bound::Upper)
            } else if best >= beta && beta < INF_CENTIDISCS {
                Some(Bound::Lower)
            } else {
                None
            };
            if let Some(bound) = failed {
                report(Info {
                    multipv: 1,
                    depth,
                    seldepth: self.seldepth.max(depth),
                    score: Score::Eval(best),
                    bound,
                    nodes: self.nodes,
                    time: self.started.elapsed(),
                    hashfull: self.tt.hashfull(),
                    selectivity: self.reported_selectivity(depth),
                    pv: roots[0].pv.clone(),
                });
            }
            if best <= alpha && alpha > -INF_CENTIDISCS {
                alpha = (alpha - 4 * ASPIRATION).max(-INF_CENTIDISCS);
                if best <= -EVAL_LIMIT {
                    alpha = -INF_CENTIDISCS;
                }
                continue;
            }
            if best >= beta && beta < INF_CENTIDISCS {
                beta = (beta + 4 * ASPIRATION).min(INF_CENTIDISCS);
                if best >= EVAL_LIMIT {
                    beta = INF_CENTIDISCS;
                }
                continue;
            }
            return Some(());
        }
    }
}

/// One iteration at the root: its depth, how many root moves get exact scores, and the score
/// the aspiration window is centred on.
#[derive(Clone, Copy)]
struct Iteration {
    depth: u32,
    multipv: usize,
    guess: i32,
}

/// Converts a root score to a reported score: exact when the search reached the end of the game.
fn score_of(v: i32, to_the_end: bool) -> Score {
    if to_the_end && v % 100 == 0 && v.abs() <= 6400 {
        Score::Exact(v / 100)
    } else {
        Score::Eval(v)
    }
}

/// How long a move may take, from the clock: (soft, hard). Soft: do not start an iteration after
/// half of it; hard: stop the search.
pub fn time_budget(
    remaining: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
    overhead: Duration,
    empties: u32,
) -> (Duration, Duration) {
    let available = remaining.saturating_sub(overhead);
    // Own moves left in the game (about half the empties), the last dozen being cheap to solve.
    let moves_left = moves_to_go
        .unwrap_or(empties.div_ceil(2).saturating_sub(5))
        .max(2);
    let soft = available / moves_left + increment.mul_f64(0.8);
    let hard = (soft * 3).min(available.mul_f64(0.5));
    (soft.min(hard), hard)
}
