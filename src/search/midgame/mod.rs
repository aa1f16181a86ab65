//! The midgame search: iterative deepening over a negamax principal variation search with a
//! transposition table, aspiration windows and MultiPV, handing over to the perfect endgame solver
//! when the rest of the game can be solved in the time available.
//!
//! Limits (depth, nodes, time) come in as [`Limits`]; progress goes out through a callback as [`Info`]
//! values; `stop` is an atomic flag checked every few hundred nodes. Nothing here reads or writes text.
//!
//! A node of the tree (`tree`'s `pvs`), in order:
//! 1. Stop and node-limit check (every `CHECK_EVERY` nodes).
//! 2. No move: pass (no depth used), or the final score when neither side can move.
//! 3. Depth 0: the static evaluation.
//! 4. Transposition table probe (`table`): a stored bound at least as deep and as sure decides
//!    the node outside principal variation nodes.
//! 5. Depth 1 outside the principal variation: the best child evaluation, no further recursion.
//! 6. Multi-ProbCut ([`probcut`]): at selective levels, a shallow search that clears the window by
//!    enough standard deviations cuts the node off.
//! 7. Move ordering: the table's move, then children by evaluation and the opponent's mobility.
//! 8. With helper threads, "being searched" marks (`busy`) defer children another thread has.
//! 9. The moves, principal variation search: the first with the full window, the rest with a null
//!    window and a re-search; late moves first searched shallower (`reductions`).
//! 10. The result stored in the table with its bound, depth and selectivity.
//!
//! Around the tree: iterative deepening with aspiration windows and MultiPV (this file), the time
//! plan (`timing`), helper threads (`threads`), and the hand-over to the endgame solver near
//! the end (`solve`).

mod busy;
pub mod probcut;
mod reductions;
mod solve;
mod table;
mod threads;
mod timing;
pub use timing::time_budget;
mod tree;

use super::endgame::{SolveResult, Solver};
use super::movelist::MoveList;
use super::selectivity::{self, FULL_WIDTH};
use super::{
    reply_count, Bound, HashResizeError, HashTableKind, Info, Limits, Progress, Score,
    SearchResult, SolveKind, TableAllocError,
};
use crate::board::movegen::{flips, legal_moves};
use crate::board::square::NO_SQUARE;
use crate::board::{final_score, Bitboard, Board, Move, Square};
use crate::eval::{Evaluator, PatternIndices};
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A child position to search: its discs, pattern indices, remaining depth and ply.
pub(super) struct Child<'a> {
    pub(super) p: u64,
    pub(super) o: u64,
    pub(super) idx: &'a PatternIndices,
    pub(super) depth: u32,
    pub(super) ply: u32,
}
use solve::score_of;
use table::TranspositionTable;

/// Above every score (centidiscs): final scores are at most 6,400.
const INF_CENTIDISCS: i32 = 30000;
/// The largest heuristic score (centidiscs): the evaluation's limit.
pub use crate::eval::EVAL_LIMIT;
/// Nodes between two looks at the stop flag and the node limit.
const CHECK_EVERY: u64 = 256;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 60;
/// First aspiration half-window, centidiscs.
const ASPIRATION: i32 = 150;
/// Deepest iteration of a timed search with a single legal move.
const ONLY_MOVE_DEPTH: u32 = 8;

/// Empties up to which `go exact`/`wld` runs the solver at once: such a solve takes milliseconds.
const SURE_SOLVE_EMPTIES: u32 = 16;

/// Depth of the midgame search that gives a longer solve (or the solver's hand-over) a move and a
/// score to fall back on.
const QUICK_DEPTH: u32 = 6;

/// The midgame searcher: owns the transposition table, the evaluation and the endgame solver, which
/// persist between searches of the same game.
pub struct Searcher {
    /// The search thread's state (the table and evaluation with it).
    tree: Tree,
    solver: Solver,
    rng: Rng,
    /// Threads of the midgame search: this one plus `threads - 1` helpers ([`threads`]).
    threads: usize,
}

/// What one thread of the midgame search works with: the shared table, its own copy of the
/// evaluation, and its own counters and flags. The search's thread has one, and so does every
/// helper ([`threads`]).
pub(super) struct Tree {
    tt: Arc<TranspositionTable>,
    eval: Evaluator,
    nodes: u64,
    node_limit: u64,
    stop: Arc<AtomicBool>,
    aborted: bool,
    seldepth: u32,
    use_tt: bool,
    progress: Arc<Progress>,
    /// When the search in progress started.
    started: Instant,
    /// The Multi-ProbCut level of the search in progress ([`FULL_WIDTH`]: none).
    selectivity: u8,
    /// The Multi-ProbCut table (the built-in one unless [`Searcher::set_mpc_table`] gave another).
    mpc: Arc<probcut::MpcTable>,
    /// Nodes searched by the helpers so far, for the node limit and the reports (always 0 with
    /// one thread). A helper's tree holds the search's counter, to add its own nodes to.
    helper_nodes: Arc<AtomicU64>,
    /// Whether this is a helper's tree ([`threads`]).
    helper: bool,
    /// The nodes the threads of a parallel search are searching now ([`busy`]); `None` with one
    /// thread, whose search then stays the same node for node.
    busy: Option<Arc<busy::Busy>>,
}

impl Tree {
    /// A thread's state for a search of `tt` with `eval`.
    fn new(tt: Arc<TranspositionTable>, eval: Evaluator, progress: Arc<Progress>) -> Tree {
        Tree {
            tt,
            eval,
            nodes: 0,
            node_limit: u64::MAX,
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            seldepth: 0,
            use_tt: true,
            progress,
            started: Instant::now(),
            selectivity: FULL_WIDTH,
            mpc: probcut::BUILT_IN.clone(),
            helper_nodes: Arc::new(AtomicU64::new(0)),
            helper: false,
            busy: None,
        }
    }

    /// Nodes of the search so far, all threads.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_nodes.load(Ordering::Relaxed)
    }
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
        // The larger table first: a size the memory cannot hold is refused before anything is
        // filled.
        let tt = Arc::new(TranspositionTable::try_new(hash_mb)?);
        let mut solver = Solver::try_new(Searcher::solver_mb(hash_mb))?;
        solver.set_evaluator(eval.clone());
        solver.set_progress(progress.clone());
        Ok(Searcher {
            tree: Tree::new(tt, eval, progress),
            solver,
            rng: Rng::new(0),
            threads: 1,
        })
    }

    /// The live figures of the search in progress, for another thread to report.
    pub fn progress(&self) -> Arc<Progress> {
        self.tree.progress.clone()
    }

    /// Turns the transposition table on or off (on by default). Off is for testing and analysis:
    /// the search then returns exactly the plain minimax value at a fixed depth, only slower.
    pub fn set_use_tt(&mut self, on: bool) {
        self.tree.use_tt = on;
    }

    /// Replaces the evaluation (e.g. after a weight change).
    pub fn set_evaluator(&mut self, eval: Evaluator) {
        self.solver.set_evaluator(eval.clone());
        self.tree.eval = eval;
    }

    /// Replaces the Multi-ProbCut table: one fitted to the evaluation in use (`wedge mpc fit`)
    /// cuts as the built-in table does for the built-in evaluation.
    pub fn set_mpc_table(&mut self, table: Arc<probcut::MpcTable>) {
        self.tree.mpc = table;
    }

    /// The Multi-ProbCut table in use.
    pub fn mpc_table(&self) -> &Arc<probcut::MpcTable> {
        &self.tree.mpc
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.tree.eval
    }

    /// Resizes the hash table (its contents are lost). If the memory is not there, the tables in
    /// use stay as they were, contents included, and the error says so: the new tables are made
    /// while the old ones still exist, so a failed resize never leaves the engine without one.
    /// Their sum is checked before either is made (each checks itself only once the one before
    /// it is filled), so a resize the memory cannot hold beside the old tables fills nothing.
    pub fn resize_hash(&mut self, hash_mb: usize) -> Result<(), HashResizeError> {
        let threads = self.solver.threads();
        let failed = |table| move |error| HashResizeError { table, error };
        crate::game::table::check_room(1, Searcher::tables_mb_made(hash_mb))
            .map_err(failed(HashTableKind::Both))?;
        let tt = TranspositionTable::try_new(hash_mb).map_err(failed(HashTableKind::Search))?;
        let mut solver =
            Solver::try_new(Searcher::solver_mb(hash_mb)).map_err(failed(HashTableKind::Solver))?;
        self.tree.tt = Arc::new(tt);
        solver.set_evaluator(self.tree.eval.clone());
        solver.set_progress(self.tree.progress.clone());
        solver.set_threads(threads);
        self.solver = solver;
        Ok(())
    }

    /// Searches with `threads` threads in all: the midgame search runs `threads - 1` helpers
    /// beside its own thread, all sharing the transposition table (lazy SMP), and the endgame
    /// solver (exact and WLD solves, and the hand-over near the end of a game) shares its work with
    /// `threads - 1` helpers of its own.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
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
        self.tree.tt.clear(self.threads);
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
        self.tree.stop = stop;
        self.tree.nodes = 0;
        self.tree.helper_nodes.store(0, Ordering::Relaxed);
        self.tree.started = start;
        self.tree.progress.reset();
        self.tree.aborted = false;
        self.tree.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.tree.selectivity = limits.selectivity.min(FULL_WIDTH);
        self.tree.tt.new_search();

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
                self.tree.stop.clone(),
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
        let multipv = limits.multipv.clamp(1, 64);
        if let Some(kind) = limits.solve {
            // `searchmoves` or MultiPV: each root move solved on its own.
            let lines = restricted || multipv > 1;
            if empties <= SURE_SOLVE_EMPTIES && lines {
                return self.solve_moves(board, moves, kind, multipv, start, report);
            } else if empties <= SURE_SOLVE_EMPTIES {
                return self.solve(board, kind, start, report).0;
            }
            // A solve this far from the end may be cut short (time, nodes, `stop`) before its
            // first selective pass: a short midgame search first leaves a scored line and a
            // sound move to fall back on.
            // No noise: a solve plays the move of its last line.
            let quick = Limits {
                depth: Some(QUICK_DEPTH),
                solve: None,
                solve_empties: 0,
                randomness: 0,
                ..limits.clone()
            };
            let fallback = self.search(board, &quick, self.tree.stop.clone(), report);
            if self.tree.aborted {
                return fallback;
            }
            // The helper threads' nodes count towards the solve's node budget and reports.
            self.count_helper_nodes();
            // Cut short before a selective pass (one line) or before every root move is solved
            // (lines), the quick search's line over the same moves is the answer.
            let (solved, answered) = if lines {
                let r = self.solve_moves(board, moves, kind, multipv, start, report);
                (r, !self.tree.aborted)
            } else {
                let (r, confidence) = self.solve(board, kind, start, report);
                (r, !self.tree.aborted || confidence > 0)
            };
            if !answered {
                return SearchResult {
                    nodes: self.tree.nodes,
                    ..fallback
                };
            }
            return solved;
        }
        // Hand over to the solver when the endgame is small enough for the time we have. A short
        // midgame search first gives a sound move to fall back on if the solve cannot finish.
        // Not with MultiPV: the solver proves one move, and the lines need every root move's
        // score (the deepening below reaches the end and raises its level instead).
        if limits.nodes.is_none() && empties <= limits.solve_empties && !restricted && multipv == 1
        {
            let quick = Limits {
                depth: Some(limits.depth.map_or(QUICK_DEPTH, |d| d.min(QUICK_DEPTH))),
                solve_empties: 0,
                ..limits.clone()
            };
            let fallback = self.search(board, &quick, self.tree.stop.clone(), report);
            if self.tree.aborted {
                return fallback;
            }
            // A selective pass that finished before the time ran out knows more than the quick
            // search: its move is kept.
            return self.solve_after_search(board, fallback, 0, start, report);
        }

        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if moves.count_ones() == 1 && !restricted && limits.timed && !limits.infinite {
            // One legal move: a short search gives its score; the time is kept for later moves.
            // Not for one move chosen by `searchmoves`: that asks for its score at full depth.
            max_depth = max_depth.min(ONLY_MOVE_DEPTH);
        }
        let mut roots: Vec<RootMove> = Bitboard(moves)
            .map(|sq| RootMove {
                sq: sq.index() as u8,
                score: -INF_CENTIDISCS,
                pv: Vec::new(),
            })
            .collect();
        self.tree.order_root(p, o, &mut roots);
        let plan = Plan {
            max_depth,
            empties,
            multipv,
            // With randomness every root move needs a real score to add noise to.
            width: if limits.randomness > 0 { 64 } else { multipv },
            soft_time: limits.soft_time.filter(|_| !limits.infinite),
            skip: None,
            // Noise is added to the scores of one depth: those of the last finished iteration.
            whole_iterations: limits.randomness > 0,
            // The solver gives one move's proof: not for several scored root moves.
            solve_at_end: multipv == 1 && limits.randomness == 0 && !restricted,
        };
        let Deepened {
            mut result,
            proven,
            finished_at,
            wants_solve,
        } = if self.threads > 1 {
            threads::deepen_with_helpers(
                &mut self.tree,
                self.threads,
                p,
                o,
                &plan,
                &mut roots,
                report,
            )
        } else {
            self.tree.deepen(p, o, &plan, &mut roots, report)
        };
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
        if wants_solve && !self.tree.aborted {
            let level = selectivity::percent(finished_at.1);
            return self.solve_after_search(board, result, level, start, report);
        }
        result.nodes = self.tree.total_nodes();
        result
    }

    /// Seeds the generator behind `Limits::randomness`.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }
}

impl Tree {
    /// Iterative deepening from the root (`p`, `o`) as `plan` says, with `roots` in the order to
    /// search them (kept sorted by the latest scores), calling `report` after each finished
    /// iteration. Returns the result of the last iteration that searched at least its first move,
    /// whether its score is a proof (a full-width search to the end of the game), and how far the
    /// last finished iteration went.
    fn deepen(
        &mut self,
        p: u64,
        o: u64,
        plan: &Plan,
        roots: &mut [RootMove],
        report: &mut dyn FnMut(Info),
    ) -> Deepened {
        let Plan {
            max_depth,
            empties,
            multipv,
            width,
            soft_time,
            skip,
            whole_iterations,
            solve_at_end,
        } = *plan;
        let mut finished: Option<Vec<RootMove>> = None;
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
        let mut finished_at = (0, FULL_WIDTH);
        let mut wants_solve = false;
        let mut time_use = timing::TimeUse::new(soft_time);
        loop {
            if depth < max_depth && depth < empties {
                if solve_at_end && depth + 1 >= empties && self.selectivity == FULL_WIDTH {
                    // A full-width search to the end is the solver's job.
                    wants_solve = true;
                    break;
                }
                depth += 1;
                // A helper leaves some depths to the others (never the last one).
                if skip.is_some_and(|s| s.skips(depth)) && depth < max_depth.min(empties) {
                    continue;
                }
            } else if depth >= empties && self.selectivity < FULL_WIDTH {
                if solve_at_end {
                    // The selective search has reached the end: the exact solver proves the rest.
                    wants_solve = true;
                    break;
                }
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
            let scores = self.search_root(p, o, iteration, roots, report);
            if self.aborted && whole_iterations {
                if let Some(last) = finished.take() {
                    roots.clone_from_slice(&last);
                }
                break;
            }
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
            finished_at = (depth, self.selectivity);
            prev_score = best.score;
            if whole_iterations {
                finished = Some(roots.to_vec());
            }
            let elapsed = self.started.elapsed();
            for (k, rm) in roots.iter().take(multipv).enumerate() {
                report(Info {
                    multipv: k + 1,
                    depth,
                    seldepth: self.seldepth.max(depth),
                    score: score_of(rm.score, to_the_end),
                    bound: Bound::Exact,
                    nodes: self.total_nodes(),
                    time: elapsed,
                    hashfull: self.tt.hashfull(),
                    selectivity: self.reported_selectivity(depth),
                    pv: rm.pv.clone(),
                });
            }
            time_use.finished(depth, roots[0].sq, roots[0].score);
            if time_use.stop_deepening(elapsed) {
                break;
            }
        }
        Deepened {
            result,
            proven,
            finished_at,
            wants_solve,
        }
    }

    /// Reports the last finished iteration of a helper, whose move the search plays.
    fn report_adopted(&self, found: &Deepened, report: &mut dyn FnMut(Info)) {
        let (depth, level) = found.finished_at;
        report(Info {
            multipv: 1,
            depth,
            seldepth: depth,
            score: found.result.score,
            bound: Bound::Exact,
            nodes: self.total_nodes(),
            time: self.started.elapsed(),
            hashfull: self.tt.hashfull(),
            selectivity: if depth > probcut::MIN_DEPTH {
                selectivity::percent(level)
            } else {
                100
            },
            pv: found.result.pv.clone(),
        });
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
                    nodes: self.total_nodes(),
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

/// What an iterative deepening searches: up to which depth, how many root moves it scores exactly
/// and reports, when it stops starting iterations, which depths it leaves out.
#[derive(Clone, Copy)]
struct Plan {
    /// Deepest iteration.
    max_depth: u32,
    /// Empty squares at the root (an iteration that deep reaches the end of the game).
    empties: u32,
    /// Root moves reported after each iteration.
    multipv: usize,
    /// Root moves given exact scores (at least `multipv`).
    width: usize,
    /// No iteration starts after half of this, stretched or shortened by [`timing::TimeUse`].
    soft_time: Option<Duration>,
    /// The depths a helper thread leaves out.
    skip: Option<threads::Skip>,
    /// Whether the root list given back must be that of the last finished iteration (scores all
    /// of one depth) rather than that of an iteration stopped part-way.
    whole_iterations: bool,
    /// Whether to stop, once a selective iteration has reached the end of the game (or before a
    /// full-width one would), and leave the proof to the exact solver ([`Deepened::wants_solve`]).
    solve_at_end: bool,
}

/// What an iterative deepening found: the result of its last iteration (finished, or stopped after
/// its first move), whether that is a proof, and the depth and Multi-ProbCut level of the last
/// finished iteration ((0, [`FULL_WIDTH`]) if none finished).
struct Deepened {
    result: SearchResult,
    proven: bool,
    finished_at: (u32, u8),
    /// The deepening stopped where the exact solver should take over (time was left to start
    /// another iteration, and the next one would have searched to the end of the game).
    wants_solve: bool,
}

/// One iteration at the root: its depth, how many root moves get exact scores, and the score
/// the aspiration window is centred on.
#[derive(Clone, Copy)]
struct Iteration {
    depth: u32,
    multipv: usize,
    guess: i32,
}
