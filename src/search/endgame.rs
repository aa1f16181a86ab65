//! The perfect endgame solver: exact final disc differences and win/loss/draw proofs.
//!
//! Layers by number of empty squares, each the cheapest code that works there:
//! - 1 empty: the score follows from the disc count and the flip count of the last move; the board
//!   after it is never built.
//! - 2..=`SHALLOW_MAX` empties: no move generation; the empties live in a small list ordered by
//!   quadrant parity (a square alone in its quadrant first) and each is tried directly.
//! - up to `TT_MIN`: move generation with fastest-first ordering (fewest opponent replies; corners
//!   count double); from `NEARBY_MIN` empties bounds and best moves kept in a small table of the
//!   thread's own ([`super::nearbytable`]), not in the shared one.
//! - from `TT_MIN` empties up: a transposition table (bounds and best move), the hash move first,
//!   a stability cut-off, and principal variation search.
//!
//! Exact solves from `SELECTIVE_MIN` empties first run selective passes (Multi-ProbCut: a node whose
//! shallow evaluation search clears the window by enough standard deviations of its error is cut
//! off unsearched). Their results are only probable, and so are marked in the table, but they
//! leave good moves and a close estimate behind for the final, exact pass.
//!
//! Scores are from the side to move's point of view, in discs, with the empties going to the winner.
//!
//! With [`Solver::set_threads`], nodes from `SPLIT_MIN` empties share the moves after their first
//! with helper threads (young brothers wait, in the private `parallel` module); all threads use one table
//! ([`super::endtable`]).

use super::endtable::{EndTable, Entry};
use super::movelist::{MovePicker, MAX_MOVES};
use super::nearbytable::NearbyTable;
use super::parallel::{AbortChain, Member, Pool, Split};
use super::reply_count;
use crate::board::movegen::{count_last_flips, flips, legal_moves, neighbours};
use crate::board::stability::stable_discs;
use crate::board::{final_score, Board, Move, Square};
use crate::eval::{Evaluator, PatternIndices};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Above any score: scores lie in -64..=64.
const INF: i32 = 65;
/// Largest number of empties handled by the parity-ordered list search.
const SHALLOW_MAX: u32 = 5;
/// Smallest number of empties at which the (shared) transposition table is used. It was 9 before
/// the layer below had a table of its own (`NEARBY_MIN`); with it, 10 took FFO #20-#39 4.09-4.19 s
/// and 9 4.22-4.26 s, in turn (nodes 71.9 M and 70.3 M).
const TT_MIN: u32 = 10;
/// Smallest number of empties at which children are probed in the shared table before searching
/// (ETC). 11 instead of 12 once the children's buckets were requested together: FFO #20-#39 -1.2%
/// nodes, #40-#45 -2.4%, #53 -0.8%, and no slower (#53 faster in three of four pairs).
const ETC_MIN: u32 = 11;
/// Fewest empties at which the move-generating layer uses its small per-thread table. Against none
/// (with the shared table from 9 empties, as before it): FFO #20-#39 81.2 M -> 71.9 M nodes, #40-#45
/// 296.6 M -> 252.9 M, 4.5 -> 4.1 s and 14.1 -> 12.6 s (docs/benchmarks.md, thirteenth session).
const NEARBY_MIN: u32 = 6;
/// From this many empties, the opponent's evaluation after the move joins the ordering key.
const EVAL_ORDER_MIN: u32 = 12;
/// From this many empties, a 1-ply look-ahead (the opponent's best reply by evaluation) replaces it.
const LOOKAHEAD_ORDER_MIN: u32 = 16;
/// From this many empties, a 2-ply look-ahead.
const SEARCH_ORDER_MIN: u32 = 18;
/// From this many empties, a 4-ply look-ahead (an odd depth, 3, ordered worse than 2).
const DEEP_ORDER_MIN: u32 = 22;
/// Weight of the evaluation in the ordering key, per 100 centidiscs (mobility weighs 16 per move).
const EVAL_ORDER_WEIGHT: i32 = 5;
/// Weight in the ordering key, from `EVAL_ORDER_MIN` empties, of each empty square next to the
/// mover's discs after the move (the opponent's potential mobility). Measured: 3 to 6 all save
/// nodes (-5.7% on FFO #40-#47, -1.9% on 60 self-play positions at 20 empties with 4); below 12
/// empties it saved at most 1% and costs its instructions where nodes are cheap.
const POTENTIAL_ORDER_WEIGHT: i32 = 4;
/// Bound on evaluation-scale values in the ordering search.
const INF_EVAL: i32 = 100_000;
/// Taken off the ordering key of a move whose child's table entry, from a less sure selective pass,
/// shows it refuting the node (larger than any other key, so such moves go first): in solves with
/// selective passes, FFO #40-#45 -1.1% nodes, #45-#52 -0.9%, #53 -0.4%.
const LIKELY_CUT_BONUS: i32 = 1_000_000;
/// In the ordering, a move whose look-ahead value is this much (centidiscs) below the best one's so
/// far only gets a bound, which its search finds with fewer evaluations.
const ORDER_EVAL_MARGIN: i32 = 800;
/// From this many empties, exact solves start with a narrow window around a shallow estimate and
/// widen it (doubling) on the side it fails, the table kept warm between tries.
const ASPIRATION_MIN: u32 = 12;
/// Depth of the evaluation search giving that estimate.
const ASPIRATION_DEPTH: u32 = 2;
/// From this many empties, the estimate comes from a deeper search.
const ASPIRATION_DEEP_MIN: u32 = 24;
/// Depth of that deeper search.
const ASPIRATION_DEEP_DEPTH: u32 = 6;
/// How often (in nodes) the stop flag is looked at: about 0.1 ms of solving.
const STOP_CHECK_NODES: u64 = 4096;
/// Smallest number of empties at which a node's moves after the first are shared with idle helper
/// threads (when the solver has any).
const SPLIT_MIN: u32 = 12;
/// Probable-cut (Multi-ProbCut) levels: by how many standard deviations of a shallow search's error
/// its value must clear the window for a node to be cut off unsearched (about 73%, 87%, 95%, 98%
/// and 99% confidence). Level `EXACT` cuts nothing: its results are proven.
const MPC_T: [f64; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];
/// The confidence of each level, in percent (the share of a normal distribution within `MPC_T`
/// standard deviations of its mean).
const MPC_CONFIDENCE: [u8; 5] = [73, 87, 95, 98, 99];
/// The level of proven results.
const EXACT: u8 = MPC_T.len() as u8;
/// Smallest number of empties at which a selective pass tries a probable cut (below it, nodes are
/// searched exactly in every pass, and their table entries count as proven).
const MPC_MIN: u32 = 12;
/// From this many empties, the probable cut's shallow search is 4 plies deep instead of 2.
const MPC_DEEP_MIN: u32 = 20;
/// From this many empties, an exact solve first runs selective passes (the levels of
/// `SELECTIVE_PASSES`), each an aspiration solve around the previous one's score, which leave the
/// table full of good moves and tight bounds for the exact pass.
const SELECTIVE_MIN: u32 = 18;
/// The levels of the selective passes below `SELECTIVE_MORE_MIN` empties (73% and 95%).
const SELECTIVE_PASSES: [u8; 2] = [0, 2];
/// From this many empties, the selective passes are `SELECTIVE_MORE_PASSES`.
const SELECTIVE_MORE_MIN: u32 = 24;
/// The levels of the selective passes from `SELECTIVE_MORE_MIN` empties (73%, 87%, 95% and 98%).
/// On the large solves the intermediate passes save many nodes: FFO #53 1.91 G -> 1.51 G, #54
/// 2.96 G -> 2.82 G (a fifth pass at 99% cost more than it saved). Below 24 empties their
/// evaluation searches cost more instructions than the nodes they save (FFO #44 + #47 under
/// cachegrind: 8.498 G with four passes at every size, 8.196 G with two below 24, 8.131 G with two
/// everywhere; FFO #20-#39: 28.40 G, 28.24 G, 28.14 G).
const SELECTIVE_MORE_PASSES: [u8; 4] = [0, 1, 2, 3];
/// Windows a selective pass tries around its estimate before it falls back to the full window.
const SELECTIVE_TRIES: u32 = 4;

/// The outcome of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// The exact score (or, for a WLD solve, -1/0/+1 times some positive margin: only the sign is
    /// meaningful), from the side to move's point of view.
    pub score: i32,
    /// The best move (`Move::PASS` if the side to move must pass; `None` if the game is over).
    pub best_move: Option<Move>,
    /// The principal variation, starting with the best move (passes included).
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the solve was interrupted by the stop flag. The result is then the last finished
    /// selective pass's if there was one (`confidence` above 0), else not reliable at all.
    pub aborted: bool,
    /// How sure the score and move are, in percent: 100 for a finished solve, 73, 87, 95 or 98 for
    /// the result of a selective pass (see [`Solver::solve_exact_reporting`]), 0 for nothing finished.
    pub confidence: u8,
}

/// The endgame solver. Keeps its transposition table between solves of the same game.
pub struct Solver {
    eval: Evaluator,
    table: Arc<EndTable>,
    nodes: u64,
    stop: Option<Arc<AtomicBool>>,
    /// Where the node count is published while solving (the midgame search's progress).
    progress: Option<Arc<super::Progress>>,
    /// The solve ends (aborted) after about this many nodes, over all its windows (`u64::MAX`:
    /// no limit).
    node_budget: u64,
    /// Nodes of this solve's finished windows, counted against `node_budget`.
    budget_used: u64,
    /// The cut-off flags of the splits the current work lies under (helpers: and the stop flag).
    chain: AbortChain,
    aborted: bool,
    /// Node count at which the stop flag is looked at next.
    next_check: u64,
    /// Counts solves, for the table's replacement.
    generation: u8,
    /// The probable-cut level of the running pass (`EXACT` outside selective passes).
    selectivity: u8,
    /// The helper threads (only the solver the caller owns has them).
    pool: Option<Pool>,
    /// This thread's handle on the pool, for recruiting helpers at split points and taking jobs
    /// while waiting for them (the owner and its helpers alike).
    member: Option<Arc<Member>>,
    /// The pattern indices of the position the next [`Solver::search_tt`] call is about, left by
    /// the parent that has just computed them from its own (one update instead of a fresh read).
    next_indices: Option<PatternIndices>,
    /// This thread's table for the move-generating layer, from `NEARBY_MIN` empties.
    nearby: NearbyTable,
    /// Whether the next [`Solver::search_tt`] call is expected to be an all-node (one whose every
    /// move fails low), left by the parent as `next_indices` is.
    next_all: bool,
}

/// Masks of the four quadrants (the definition [`odd_quadrants`] is tested against).
#[cfg(test)]
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

// The pattern indices a parent hands down (`Solver::next_indices`) are taken by the child's
// `search_tt`: every position that orders by evaluation must be a table node (checked at compile
// time).
const _: () = assert!(EVAL_ORDER_MIN >= TT_MIN);

/// Squares adjacent to a corner (C- and X-squares) get ordered after the others at equal parity.
const NEAR_CORNERS: u64 = 0x42C3_0000_0000_C342;
const CORNERS: u64 = 0x8100_0000_0000_0081;

impl Solver {
    /// A solver with a transposition table of about `table_mb` megabytes (at least 1 MB). Panics
    /// if the memory is not there: sizes that come from outside go through [`Solver::try_new`].
    pub fn new(table_mb: usize) -> Solver {
        Solver::try_new(table_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with a table of about `table_mb` megabytes, or an error if the memory is not there.
    pub fn try_new(table_mb: usize) -> Result<Solver, super::TableAllocError> {
        Ok(Solver::sharing(
            Arc::new(EndTable::try_new(table_mb)?),
            Evaluator::default(),
            None,
        ))
    }

    /// A solver on `table` (possibly shared with others), with no helpers of its own; `member` is
    /// its place in another solver's pool, for a helper.
    fn sharing(table: Arc<EndTable>, eval: Evaluator, member: Option<Arc<Member>>) -> Solver {
        Solver {
            eval,
            table,
            nodes: 0,
            stop: None,
            chain: Vec::new(),
            aborted: false,
            next_check: 0,
            generation: 0,
            selectivity: EXACT,
            pool: None,
            member,
            next_indices: None,
            nearby: NearbyTable::default(),
            next_all: false,
            progress: None,
            node_budget: u64::MAX,
            budget_used: 0,
        }
    }

    /// Ends the next solves (aborted, like a stop) after about `limit` nodes each, counting every
    /// window and selective pass (`None`: no limit). This thread's nodes only; helpers' are not
    /// counted.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_budget = limit.unwrap_or(u64::MAX);
        self.budget_used = 0;
        self.nodes = 0;
    }

    /// Publishes this solver's node count in `progress` while it solves (for progress lines).
    pub fn set_progress(&mut self, progress: Arc<super::Progress>) {
        self.progress = Some(progress);
    }

    /// Solves with `threads` threads in all (1: this thread alone; at most 256): the calling thread
    /// and `threads - 1` helpers sharing the table. Helpers that cannot be started are left out.
    pub fn set_threads(&mut self, threads: usize) {
        self.member = None;
        self.pool = None;
        let helpers = threads.clamp(1, 256) - 1;
        if helpers == 0 {
            return;
        }
        let (table, eval) = (self.table.clone(), self.eval.clone());
        let mut pool = Pool::start(helpers, move |member: Member| {
            let mut helper =
                Solver::sharing(table.clone(), eval.clone(), Some(Arc::new(member.clone())));
            member.serve(|split| helper.help(split));
        });
        if pool.helpers() > 0 {
            self.member = pool.owner().map(Arc::new);
            self.pool = Some(pool);
        }
    }

    /// Threads the solver searches with (1 + its helpers).
    pub fn threads(&self) -> usize {
        1 + self.pool.as_ref().map_or(0, Pool::helpers)
    }

    /// Uses `eval` for move ordering at high empties.
    pub fn set_evaluator(&mut self, eval: Evaluator) {
        self.eval = eval;
        if self.pool.is_some() {
            // The helpers hold their own copy: restart them with the new one.
            let threads = self.threads();
            self.set_threads(threads);
        }
    }

    /// Sets the flag that, once true, makes the running solve return early (marked `aborted`).
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `board` exactly: the best final disc difference for the side to move and a move that
    /// achieves it. From `ASPIRATION_MIN` empties it is solved as a sequence of narrow-window solves
    /// (aspiration), which costs about a fifth fewer nodes than one full-window solve, and from
    /// `SELECTIVE_MIN` empties after selective passes that cost fewer nodes than they save
    /// (docs/benchmarks.md).
    pub fn solve_exact(&mut self, board: Board) -> SolveResult {
        self.solve_exact_reporting(board, &mut |_, _| {})
    }

    /// [`Solver::solve_exact`], calling `on_pass` with the result of each selective pass as it
    /// finishes (a probable score and move, with its `confidence`; nodes counted from the start of
    /// the solve) and the table's fill in per mille. If the solve is stopped after
    /// a pass has finished, it returns the last finished pass's result, marked `aborted`.
    pub fn solve_exact_reporting(
        &mut self,
        board: Board,
        on_pass: &mut dyn FnMut(&SolveResult, u32),
    ) -> SolveResult {
        self.generation = self.generation.wrapping_add(1);
        let n = board.empty_count();
        if n < ASPIRATION_MIN || board.is_game_over() {
            return self.solve_window(board, -64, 64);
        }
        let (p, o) = (board.player(), board.opponent());
        // Deeper estimates are better (mean error against the FFO #20-#59 scores: 6.1 discs at depth
        // 2, 4.1 at depth 6) but cost more; they pay for themselves on the larger solves.
        let depth = if n >= ASPIRATION_DEEP_MIN {
            ASPIRATION_DEEP_DEPTH
        } else {
            ASPIRATION_DEPTH
        };
        let guess =
            self.shallow_value(p, o, &PatternIndices::new(p, o), depth, -INF_EVAL, INF_EVAL);
        // Final scores are even: the first window (guess - 1, guess + 1) only holds the even score
        // nearest the estimate, so it is as cheap as a null-window test.
        let guess = ((guess as f64 / 200.0).round() as i32 * 2).clamp(-64, 64);
        self.staged(board, on_pass, &mut |solver, last| {
            // Each pass starts its window at the score of the one before.
            solver.aspiration(board, last.map_or(guess, |r| r.score))
        })
    }

    /// Runs `pass` at each selective level (from `SELECTIVE_MIN` empties) and then exactly, handing
    /// it the previous pass's result and `on_pass` each selective result. A stopped pass returns the
    /// last finished one's result instead, marked `aborted`.
    fn staged(
        &mut self,
        board: Board,
        on_pass: &mut dyn FnMut(&SolveResult, u32),
        pass: &mut dyn FnMut(&mut Solver, Option<&SolveResult>) -> SolveResult,
    ) -> SolveResult {
        let n = board.empty_count();
        let levels: &[u8] = if n >= SELECTIVE_MORE_MIN {
            &SELECTIVE_MORE_PASSES
        } else if n >= SELECTIVE_MIN {
            &SELECTIVE_PASSES
        } else {
            &[]
        };
        // A stopped pass gives way to the last finished one, if any.
        let stopped = |last: Option<SolveResult>, r: SolveResult, nodes: u64| {
            let r = last.map_or(r, |l| SolveResult { aborted: true, ..l });
            SolveResult { nodes, ..r }
        };
        let mut nodes = 0;
        let mut last: Option<SolveResult> = None;
        for &level in levels {
            self.selectivity = level;
            let r = pass(self, last.as_ref());
            self.selectivity = EXACT;
            nodes += r.nodes;
            if r.aborted {
                return stopped(last, r, nodes);
            }
            on_pass(&SolveResult { nodes, ..r.clone() }, self.hashfull());
            last = Some(r);
        }
        let r = pass(self, last.as_ref());
        nodes += r.nodes;
        if r.aborted {
            return stopped(last, r, nodes);
        }
        SolveResult { nodes, ..r }
    }

    /// Solves with windows around `guess` (even), widened on the side they fail, until the score is
    /// inside one. A failed window returns a bound `b` (fail-soft); the next window first tests the
    /// even score at `b` (or next to it on the failing side, when a selective pass returns an odd
    /// bound), as the true score is most often there (on FFO #38 the exact pass failed low at -20
    /// with a window around -18: proving -20 with the window (-23, -19) cost 15.3 M nodes), and only
    /// later windows widen, by 2, 4, 8... discs. Against widening by 2 at once: FFO #20-#39
    /// 82.29 M -> 81.22 M nodes, FFO #53 1.511 G -> 1.489 G, FFO #40-#47 +0.2%, 60 self-play
    /// positions at 20 empties +0.2%. Without the rounding to even, #53 took 1.860 G: a 95% pass
    /// failed low at -1, retested (-2, 0), which only holds the odd -1, and failed again.
    fn aspiration(&mut self, board: Board, guess: i32) -> SolveResult {
        let (mut alpha, mut beta) = (guess - 1, guess + 1);
        let mut delta = 0;
        let mut nodes = 0;
        let mut tries = 0;
        loop {
            tries += 1;
            let r = self.solve_window(board, alpha, beta);
            nodes += r.nodes;
            if r.aborted || (r.score > alpha && r.score < beta) || (alpha <= -64 && beta >= 64) {
                return SolveResult { nodes, ..r };
            }
            if self.selectivity < EXACT && tries >= SELECTIVE_TRIES {
                // A selective search is not consistent: its bounds from one window may contradict
                // those from the next, and the windows could go back and forth for ever. The full
                // window always ends the loop.
                (alpha, beta) = (-65, 65);
                continue;
            }
            // Exact scores are even, but a selective pass can return an odd bound (a probable cut
            // returns the window's edge): the next window is centred on the even score next to it
            // on the failing side, which keeps the bounds odd.
            if r.score <= alpha {
                let bound = r.score - (r.score & 1);
                beta = (bound + 1).min(65);
                alpha = (bound - delta - 1).max(-65);
            } else {
                let bound = r.score + (r.score & 1);
                alpha = (bound - 1).max(-65);
                beta = (bound + delta + 1).min(65);
            }
            delta = (delta * 2).max(2);
        }
    }

    /// Solves for win/loss/draw only (window -1..1): the sign of the score is exact, the magnitude is
    /// not. From `SELECTIVE_MIN` empties, selective passes with the same window come first.
    pub fn solve_wld(&mut self, board: Board) -> SolveResult {
        self.solve_wld_reporting(board, &mut |_, _| {})
    }

    /// [`Solver::solve_wld`], reporting its selective passes as
    /// [`Solver::solve_exact_reporting`] does.
    pub fn solve_wld_reporting(
        &mut self,
        board: Board,
        on_pass: &mut dyn FnMut(&SolveResult, u32),
    ) -> SolveResult {
        self.generation = self.generation.wrapping_add(1);
        self.staged(board, on_pass, &mut |solver, _| {
            solver.solve_window(board, -1, 1)
        })
    }

    /// Solves with the window `alpha..beta` (exclusive bounds, fail-soft): a score strictly inside it
    /// is exact, one at or below `alpha` is an upper bound and one at or above `beta` a lower bound.
    pub fn solve_window(&mut self, board: Board, alpha: i32, beta: i32) -> SolveResult {
        self.budget_used = self.budget_used.saturating_add(self.nodes);
        self.nodes = 0;
        self.next_check = 0;
        self.aborted = false;
        let (p, o) = (board.player(), board.opponent());
        let n = board.empty_count();
        if board.is_game_over() {
            return SolveResult {
                score: board.final_score(),
                best_move: None,
                pv: Vec::new(),
                nodes: 1,
                aborted: false,
                confidence: 100,
            };
        }
        let (score, best) = self.root(p, o, alpha.max(-64), beta.min(64), n);
        let pv = if self.aborted || score <= alpha || score >= beta || self.selectivity < EXACT {
            // Only a bound is known (or the solve was cut short): the PV is the move chosen.
            best.into_iter().collect()
        } else {
            self.principal_variation(board, score, best)
        };
        SolveResult {
            score,
            best_move: best,
            pv,
            nodes: self.nodes,
            aborted: self.aborted,
            confidence: match (self.aborted, self.selectivity) {
                (true, _) => 0,
                (false, EXACT) => 100,
                (false, level) => MPC_CONFIDENCE[level as usize],
            },
        }
    }

    /// Per mille of sampled table slots written by the current solve (the UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull(self.generation)
    }

    /// Nodes searched by the last solve so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The root: every move searched with PVS, best move returned.
    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> (i32, Option<Move>) {
        self.nodes += 1;
        let moves = legal_moves(p, o);
        if moves == 0 {
            let score = -self.search(o, p, -beta, -alpha, n);
            return (score, Some(Move::PASS));
        }
        let mut ordered = self.order_moves(p, o, moves, n, None, None, 0, false);
        let first = ordered.peek().unwrap_or(64);
        let (best, best_sq) =
            self.search_moves(p, o, alpha, beta, n, false, &mut ordered, (-INF, 64), None);
        let best_move = Square::new(if best_sq < 64 { best_sq } else { first }).map(Move::play);
        (best, best_move)
    }

    /// Searches `moves` in order, principal variation search style, after whatever gave `best`
    /// (score and square; square 64 when nothing was searched yet, and then the first move gets
    /// the full window). Once one move has been searched, the rest are shared with idle helpers
    /// when there are any. Returns the best score and square; stops early on a cut-off or when
    /// the solve is aborted (the result then means nothing). `cut_node`: the node is an expected
    /// cut-node, so its first move is expected to refute it.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        cut_node: bool,
        moves: &mut MovePicker,
        (mut best, mut best_sq): (i32, u8),
        indices: Option<&PatternIndices>,
    ) -> (i32, u8) {
        loop {
            if best_sq != 64 && self.should_split(n, moves.len()) {
                let mut rest = [0u8; MAX_MOVES];
                let count = moves.drain_sorted(&mut rest);
                return self.search_split(p, o, alpha, beta, n, &rest[..count], (best, best_sq));
            }
            let Some(sq) = moves.pop() else { break };
            let first = best_sq == 64;
            let v = self.search_move(
                p,
                o,
                sq as usize,
                alpha,
                beta,
                n,
                first,
                first && cut_node,
                indices,
            );
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_sq)
    }

    /// Whether the solve must end: looks at the stop flag once every `STOP_CHECK_NODES` nodes
    /// (counted over all layers, so the delay between two looks is bounded whatever the layer).
    #[inline]
    fn poll_stop(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + STOP_CHECK_NODES;
            if let Some(p) = &self.progress {
                p.set_solving_nodes(self.nodes);
            }
            if self.must_abort() || self.budget_used.saturating_add(self.nodes) >= self.node_budget
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Whether the stop flag or the cut-off flag of a split above the current work is set.
    fn must_abort(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.chain.iter().any(|f| f.load(Ordering::Relaxed))
    }

    /// Whether a node with `n` empties and `remaining` moves still to search should share them with
    /// helpers now.
    #[inline]
    fn should_split(&self, n: u32, remaining: usize) -> bool {
        n >= SPLIT_MIN
            && remaining >= 2
            && self.member.as_ref().is_some_and(|m| m.shared.has_idle())
    }

    /// Searches `moves` (the node's moves after the first, best first) together with whichever
    /// helpers are idle; returns the best score and move, counting `best` (the first move's).
    #[allow(clippy::too_many_arguments)]
    fn search_split(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        moves: &[u8],
        best: (i32, u8),
    ) -> (i32, u8) {
        let mut chain = self.chain.clone();
        if let Some(stop) = &self.stop {
            chain.insert(0, stop.clone());
        }
        let split = Arc::new(Split::new(
            p,
            o,
            n,
            alpha,
            beta,
            best,
            moves,
            &chain,
            (self.generation, self.selectivity),
        ));
        if let Some(member) = &self.member {
            member.shared.recruit(&split, moves.len() - 1);
        }
        self.chain.push(split.cutoff.clone());
        self.work(&split);
        self.chain.pop();
        // Wait for the helpers, meanwhile helping them with work under this split. The jobs run on
        // this solver, so its own state is put aside for them and restored after.
        if let Some(member) = self.member.clone() {
            member.wait(&split, |sub| {
                let saved = (
                    self.nodes,
                    std::mem::take(&mut self.chain),
                    self.aborted,
                    self.next_check,
                );
                self.help(sub);
                (self.nodes, self.chain, self.aborted, self.next_check) = saved;
            });
        }
        self.nodes += split.nodes.load(Ordering::Relaxed);
        // The result stands if nothing above this split asks to stop: this split's own cut-off
        // (a fail-high was found) ends its work early without harm. But when something above does,
        // a helper may have left its move unfinished while this thread has not looked at the flags
        // yet: the result is then incomplete, so it must count as aborted whatever this thread saw.
        self.aborted = self.must_abort();
        split.result()
    }

    /// Takes moves from the split until none is left, reporting each score.
    fn work(&mut self, split: &Split) {
        while let Some(sq) = split.next_move() {
            let alpha = split.alpha.load(Ordering::Relaxed);
            if alpha >= split.beta {
                break;
            }
            let v = self.search_move(
                split.p,
                split.o,
                sq as usize,
                alpha,
                split.beta,
                split.n,
                false,
                false,
                None,
            );
            if self.aborted {
                break;
            }
            split.report(sq, v);
        }
    }

    /// A helper's share of a split: its moves until none is left or the work is no longer needed.
    fn help(&mut self, split: &Split) {
        self.generation = split.generation;
        self.selectivity = split.selectivity;
        self.chain.clone_from(&split.chain);
        self.aborted = false;
        self.nodes = 0;
        self.next_check = 0;
        self.work(split);
        split.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.chain.clear();
    }

    /// The score of playing `sq` (from the mover's side), principal variation search style: the
    /// first move with the full window, the others with a null window and a re-search when they
    /// land inside it. `refutes`: the move is expected to refute the node (the first move of an
    /// expected cut-node), so its child is expected to be an all-node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_move(
        &mut self,
        p: u64,
        o: u64,
        sq: usize,
        alpha: i32,
        beta: i32,
        n: u32,
        first: bool,
        refutes: bool,
        indices: Option<&PatternIndices>,
    ) -> i32 {
        let f = flips(sq, p, o);
        let (cp, co) = (o ^ f, p | f | (1 << sq));
        // A child that will order its moves by evaluation gets its pattern indices from here (it
        // is a table node, whose `search_tt` takes them at once: asserted next to `NEAR_CORNERS`).
        let child = indices
            .filter(|_| n > EVAL_ORDER_MIN)
            .map(|idx| idx.play(sq, f));
        self.next_indices = child;
        // Only a table node takes the flag, as with the indices.
        self.next_all = refutes && n > TT_MIN;
        if first {
            return -self.search(cp, co, -beta, -alpha, n - 1);
        }
        let v = -self.search(cp, co, -alpha - 1, -alpha, n - 1);
        if v > alpha && v < beta {
            self.next_indices = child;
            -self.search(cp, co, -beta, -v, n - 1)
        } else {
            v
        }
    }

    /// Dispatches to the layer for `n` empties. Window `alpha..beta`, fail-soft.
    #[inline]
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n >= TT_MIN {
            self.search_tt(p, o, alpha, beta, n)
        } else if n > SHALLOW_MAX {
            self.search_mid(p, o, alpha, beta, n, legal_moves(p, o))
        } else {
            let (list, count) = parity_ordered_empties(p, o);
            self.search_shallow(p, o, alpha, beta, list, count)
        }
    }

    /// The moves of `p` ordered for search, best first: fastest first (fewest replies for the
    /// opponent, corner replies counted twice), moves into odd-parity quadrants, C- and X-squares
    /// late, and from `EVAL_ORDER_MIN` empties the opponent's potential mobility and the evaluation
    /// (from `LOOKAHEAD_ORDER_MIN` after a 1-ply look-ahead, from `SEARCH_ORDER_MIN` after 2 plies,
    /// from `DEEP_ORDER_MIN` after 4). The hash move is put first by the caller.
    /// `indices` are the position's pattern indices and `known_flips` the flips of its moves by
    /// square, when the caller already has them; the moves in `likely_cuts` go before all others.
    /// At an expected all-node of the exact pass (`all_node`), where every move will be searched
    /// and the order hardly matters, no evaluation is spent: the keys stop before it.
    #[allow(clippy::too_many_arguments)]
    fn order_moves(
        &self,
        p: u64,
        o: u64,
        mut moves: u64,
        n: u32,
        indices: Option<&PatternIndices>,
        known_flips: Option<&[u64; 64]>,
        likely_cuts: u64,
        all_node: bool,
    ) -> MovePicker {
        let mut list = MovePicker::default();
        let mut best_v = -INF_EVAL;
        let odd = odd_quadrants(!(p | o));
        let fresh;
        let idx = match indices {
            Some(idx) => Some(idx),
            None if n >= EVAL_ORDER_MIN && !all_node => {
                fresh = PatternIndices::new(p, o);
                Some(&fresh)
            }
            None => None,
        };
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = match known_flips {
                Some(known) => known[sq],
                None => flips(sq, p, o),
            };
            let (cp, co) = (o ^ f, p | f | (1 << sq));
            if n > TT_MIN {
                // The child will probe the table: start loading its bucket now.
                self.table.prefetch(cp, co);
            }
            let replies = legal_moves(cp, co);
            let mut key = reply_count(replies) * 16;
            if odd >> sq & 1 == 1 && n < 20 {
                key -= 8;
            }
            if (1u64 << sq) & NEAR_CORNERS != 0 {
                key += 4;
            }
            if n >= EVAL_ORDER_MIN {
                let potential = neighbours(co) & !(co | cp);
                key += POTENTIAL_ORDER_WEIGHT * potential.count_ones() as i32;
            }
            if likely_cuts >> sq & 1 != 0 {
                // Before every move that was not foretold to cut, with no evaluation spent on it.
                list.push(key - LIKELY_CUT_BONUS, sq as u8);
                continue;
            }
            let depth = if all_node {
                None
            } else if n >= DEEP_ORDER_MIN {
                Some(4)
            } else if n >= SEARCH_ORDER_MIN {
                Some(2)
            } else if n >= LOOKAHEAD_ORDER_MIN {
                Some(1)
            } else if n >= EVAL_ORDER_MIN {
                Some(0)
            } else {
                None
            };
            if let (Some(d), Some(idx)) = (depth, idx) {
                // `v` is the opponent's value after the move. Only the best moves need precise
                // values: a move worse than the best so far (`best_v`, the mover's view) by the
                // margin only gets a bound, as the opponent's search stops at that point.
                let child = idx.play(sq, f);
                let v = if d == 0 && replies != 0 {
                    // The evaluation itself (what the search would return), with the replies
                    // already generated.
                    self.eval.evaluate_indexed_moves(cp, co, &child, replies)
                } else {
                    self.shallow_value(
                        cp,
                        co,
                        &child,
                        d,
                        -INF_EVAL,
                        INF_EVAL.min(ORDER_EVAL_MARGIN - best_v),
                    )
                };
                best_v = best_v.max(-v);
                key += v * EVAL_ORDER_WEIGHT / 100;
            }
            list.push(key, sq as u8);
        }
        list
    }

    /// A small alpha-beta search with the evaluation at the leaves (centidiscs, side to move's view):
    /// the move-ordering estimate at high empties.
    fn shallow_value(
        &self,
        p: u64,
        o: u64,
        idx: &PatternIndices,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return 100 * final_score(p, o);
            }
            return -self.shallow_value(o, p, &idx.pass(), depth, -beta, -alpha);
        }
        if depth == 0 {
            return self.eval.evaluate_indexed_moves(p, o, idx, moves);
        }
        // From 2 plies to go, fastest first (fewest replies, corners twice): the same value, found
        // with fewer evaluations. Nearer the leaves, square order (ordering costs more there).
        // (No picker at all nearer the leaves: filling its 32 words would be wasted there.)
        let mut ordered = (depth >= 2).then(|| {
            let mut list = MovePicker::default();
            let mut m = moves;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(sq, p, o);
                let replies = legal_moves(o ^ f, p | f | (1 << sq));
                list.push(reply_count(replies), sq as u8);
            }
            list
        });
        let mut unordered = if ordered.is_some() { 0 } else { moves };
        let mut best = -INF_EVAL;
        loop {
            let sq = if let Some(sq) = ordered.as_mut().and_then(MovePicker::pop) {
                sq as usize
            } else if unordered != 0 {
                let sq = unordered.trailing_zeros() as usize;
                unordered &= unordered - 1;
                sq
            } else {
                break;
            };
            let f = flips(sq, p, o);
            let v = -self.shallow_value(
                o ^ f,
                p | f | (1 << sq),
                &idx.play(sq, f),
                depth - 1,
                -beta,
                -alpha,
            );
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Search with the transposition table, hash move first, stability cut-off and PVS.
    fn search_tt(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
        // Taken first, so that no early return leaves them for another position.
        let inherited = self.next_indices.take();
        // The node's expected type in a null-window search: the first child of a cut-node is an
        // all-node, the other children of either kind cut-nodes (a wider window: a PV node).
        let null_window = beta - alpha == 1;
        let expect_all = std::mem::take(&mut self.next_all) && null_window;
        let cut_node = null_window && !expect_all;
        self.nodes += 1;
        let first_node = self.nodes;
        if self.poll_stop() {
            return 0;
        }
        // Stability cut-off: the opponent's stable discs are lost to us for good. Only worth computing
        // when alpha is so high that even all the opponent's discs being stable could refute it.
        if alpha >= 64 - 2 * o.count_ones() as i32 {
            let max_possible = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if max_possible <= alpha {
                return max_possible;
            }
            beta = beta.min(max_possible);
        }

        let place = self.table.place(p, o);
        let mut hash_move = 64u8;
        if let Some(entry) = self.table.probe(place) {
            if entry.selectivity >= self.selectivity {
                let (lo, hi) = (entry.lower as i32, entry.upper as i32);
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            hash_move = entry.best;
        }
        let moves = legal_moves(p, o);
        // From `ETC_MIN` empties every child's flips are computed (kept by square for the
        // ordering) and its bucket requested at once, ahead of the enhanced transposition cut-off
        // below: the probable cut's search in between then hides the cache misses.
        let requested = (n >= ETC_MIN).then(|| self.children_flips::<true>(p, o, moves));
        // The pattern indices of the position, computed once for the probable cut and the ordering.
        let mut indices = inherited;
        if self.selectivity < EXACT && n >= MPC_MIN {
            let idx = indices.get_or_insert_with(|| PatternIndices::new(p, o));
            if let Some(v) = self.probable_cut(p, o, idx, alpha, beta, n) {
                return v;
            }
        }
        let original_alpha = alpha;

        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            self.next_indices = indices.map(|idx| idx.pass());
            self.next_all = cut_node;
            return -self.search_tt(o, p, -beta, -alpha, n);
        }
        // Enhanced transposition cut-off: a child already known to be bad enough for the opponent
        // refutes this node before any ordering work (with the shared table from `ETC_MIN`
        // empties, at `TT_MIN` with the small one; between them no flips array is filled). It
        // notes the moves that an earlier selective pass found refuting (`likely_cuts`). At an
        // expected all-node of the exact pass no child is expected to refute it, and the children
        // are not read (their buckets are still requested): FFO #45-#52 and #53 -1.2..-1.5% time
        // in four pairs, +0.05% nodes.
        let mut likely_cuts = 0u64;
        // The foretold cut whose search cost the least (the entry's cost: the bit length of its
        // node count), and the hash move's cost if it is one of them.
        let (mut cheapest, mut cheapest_cost, mut hash_cost) = (64u8, u8::MAX, u8::MAX);
        let all_node = expect_all && self.selectivity == EXACT;
        let known_flips = if let Some(known) = requested {
            let mut m = if all_node { 0 } else { moves };
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = known[sq];
                let place = self.table.place(o ^ f, p | f | (1 << sq));
                if let Some(e) = self.table.probe(place) {
                    if -(e.upper as i32) >= beta {
                        if e.selectivity >= self.selectivity {
                            return -(e.upper as i32);
                        }
                        // A less sure pass's bound cannot cut here, but it foretells a cut.
                        likely_cuts |= 1 << sq;
                        if e.cost < cheapest_cost {
                            (cheapest, cheapest_cost) = (sq as u8, e.cost);
                        }
                        if sq == hash_move as usize {
                            hash_cost = e.cost;
                        }
                    }
                }
            }
            Some(known)
        } else if n == TT_MIN {
            // At the table's lowest layer the children live in the thread's small table, whose
            // probes hit the L2 cache: the same cut-off from it costs little (FFO #20-#39 -0.6%
            // nodes, #53 -0.8%, #40-#45 -0.1%, 60 self-play positions at 20 empties -0.6%).
            let known = self.children_flips::<false>(p, o, moves);
            let mut m = if all_node { 0 } else { moves };
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = known[sq];
                if let Some(k) = self.nearby.probe(o ^ f, p | f | (1 << sq)) {
                    if -k.upper >= beta {
                        return -k.upper;
                    }
                }
            }
            Some(known)
        } else {
            None
        };
        // Of the moves whose children an earlier, less sure pass left refuting the node, the one
        // whose refutation took it the fewest nodes (the entry's cost) is tried first, in place of
        // the hash move when that is costlier or foretold no cut: the surer pass must prove the
        // refutation again, and a cheaper one is likely cheaper to prove. In the exact pass: FFO
        // #40-#45 -1.9% nodes, #45-#52 -1.4%, #54 -0.5%, #55 -0.3%, #53 +0.4%; in every pass a
        // further -0.7%, -0.2%, -0.4%, -0.5%, -0.3% (#58 -0.2%, #20-#39 -0.1%).
        if cheapest_cost < hash_cost {
            hash_move = cheapest;
        }
        let mut best = -INF;
        let mut best_sq = 64u8;
        let mut rest = moves;
        // The hash move goes first, before the others are even scored: a cut-off there saves the
        // ordering work.
        if hash_move < 64 && moves >> hash_move & 1 == 1 {
            rest &= !(1u64 << hash_move);
            let v = self.search_move(
                p,
                o,
                hash_move as usize,
                alpha,
                beta,
                n,
                true,
                cut_node,
                indices.as_ref(),
            );
            if self.aborted {
                return 0;
            }
            best = v;
            best_sq = hash_move;
            alpha = alpha.max(v);
        }
        if best < beta && rest != 0 {
            // At an expected all-node of the exact pass the ordering spends no evaluation: in
            // FFO #53's exact pass, at most 1.5% of them from 11 empties (3.2% at 10) had a move
            // that cut (against more than 99% of the expected cut-nodes).
            if indices.is_none() && n >= EVAL_ORDER_MIN && !all_node {
                indices = Some(PatternIndices::new(p, o));
            }
            let mut ordered = self.order_moves(
                p,
                o,
                rest,
                n,
                indices.as_ref(),
                known_flips.as_ref(),
                likely_cuts,
                all_node,
            );
            (best, best_sq) = self.search_moves(
                p,
                o,
                alpha,
                beta,
                n,
                cut_node,
                &mut ordered,
                (best, best_sq),
                indices.as_ref(),
            );
            if self.aborted {
                return 0;
            }
        }
        let (lower, upper) = result_bounds(best, original_alpha, beta);
        self.table.store(
            place,
            Entry {
                lower: lower as i8,
                upper: upper as i8,
                best: best_sq,
                empties: n as u8,
                generation: self.generation,
                // Below `MPC_MIN` nothing is cut on probability: the result is proven.
                selectivity: if n >= MPC_MIN {
                    self.selectivity
                } else {
                    EXACT
                },
                cost: (64 - (self.nodes - first_node).leading_zeros()) as u8,
            },
        );
        best
    }

    /// The flips of each of `moves`, by square. With `PREFETCH`, each child's bucket in the shared
    /// table is requested as well, all before any is read: the cache misses overlap instead of
    /// coming one after the other.
    #[inline]
    fn children_flips<const PREFETCH: bool>(&self, p: u64, o: u64, moves: u64) -> [u64; 64] {
        let mut known = [0u64; 64];
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(sq, p, o);
            known[sq] = f;
            if PREFETCH {
                self.table.prefetch(o ^ f, p | f | (1 << sq));
            }
        }
        known
    }

    /// Multi-ProbCut: a shallow evaluation search that clears the window by the margin of the
    /// current level predicts the node's result; `Some(bound)` cuts the node off with it.
    fn probable_cut(
        &self,
        p: u64,
        o: u64,
        idx: &PatternIndices,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> Option<i32> {
        let depth = if n >= MPC_DEEP_MIN { 4 } else { 2 };
        let margin = (MPC_T[self.selectivity as usize] * mpc_sigma(n, depth)) as i32;
        let (low, high) = (alpha * 100 - margin, beta * 100 + margin);
        // Two null-window tests cost less than one search with the window between them.
        if beta < 64 && self.shallow_value(p, o, idx, depth, high - 1, high) >= high {
            return Some(beta);
        }
        if alpha > -64 && self.shallow_value(p, o, idx, depth, low, low + 1) <= low {
            return Some(alpha);
        }
        None
    }

    /// Search with move generation and fastest-first ordering, without the shared table (from
    /// `NEARBY_MIN` empties with the thread's small one). `moves` are the legal
    /// moves of `p` (the parent computed them for its ordering: they are not generated twice).
    /// Dispatches to the code for each number of empties, as [`Solver::search_shallow`] does.
    #[inline(always)]
    fn search_mid(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, moves: u64) -> i32 {
        match n {
            6 => self.mid::<6>(p, o, alpha, beta, moves),
            7 => self.mid::<7>(p, o, alpha, beta, moves),
            8 => self.mid::<8>(p, o, alpha, beta, moves),
            9 => self.mid::<9>(p, o, alpha, beta, moves),
            _ => self.mid_any(p, o, alpha, beta, n, moves),
        }
    }

    /// [`Solver::search_mid`] with `N` (6 to 9) empty squares.
    #[inline]
    fn mid<const N: u32>(&mut self, p: u64, o: u64, alpha: i32, beta: i32, moves: u64) -> i32 {
        self.mid_body(p, o, alpha, beta, N, moves)
    }

    /// [`Solver::search_mid`] for other numbers of empties (not reached with the present layer
    /// bounds; kept so that the dispatch is total).
    #[inline(never)]
    fn mid_any(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, moves: u64) -> i32 {
        self.mid_body(p, o, alpha, beta, n, moves)
    }

    /// [`Solver::search_mid`] when the side to move has no move: the opponent plays, or the game
    /// ends. Out of line, so that the layers do not recurse into themselves.
    #[inline(never)]
    fn mid_pass(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let replies = legal_moves(o, p);
        if replies == 0 {
            return final_score(p, o);
        }
        -self.search_mid(o, p, -beta, -alpha, n, replies)
    }

    /// The body of [`Solver::search_mid`], inlined into each layer with its `n`.
    #[inline(always)]
    fn mid_body(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32, moves: u64) -> i32 {
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        if moves == 0 {
            return self.mid_pass(p, o, alpha, beta, n);
        }
        // The small table: its bounds may end the node at once; its best move goes first.
        let original_alpha = alpha;
        let mut beta = beta;
        let mut hash_move = 64u8;
        if n >= NEARBY_MIN {
            if let Some(k) = self.nearby.probe(p, o) {
                if k.lower >= beta {
                    return k.lower;
                }
                if k.upper <= alpha {
                    return k.upper;
                }
                if k.lower == k.upper {
                    return k.lower;
                }
                alpha = alpha.max(k.lower);
                beta = beta.min(k.upper);
                hash_move = k.best;
            }
        }
        // Fixed-size move lists on the stack (at most 9 empties here, so at most 9 moves). Each move
        // keeps its square, flips and the opponent's replies (for the child) at its place in the
        // generation order, with its fastest-first key packed with that place into one word. The
        // moves are not sorted: each turn takes the smallest word left (a branch-free minimum over
        // the nine words). A cut-off usually comes at the first move, and an insertion sort's
        // comparisons were the most mispredicted branches of the whole solver.
        const SLOTS: usize = (TT_MIN - 1) as usize;
        let (mut squares, mut flipped, mut answers) = ([0u8; SLOTS], [0u64; SLOTS], [0u64; SLOTS]);
        let mut keys = [u32::MAX; SLOTS];
        let mut count = 0;
        let odd = odd_quadrants(!(p | o));
        let mut m = moves;
        while m != 0 && count < SLOTS {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(sq, p, o);
            let replies = legal_moves(o ^ f, p | f | (1 << sq));
            // Reply counts are at most 64 (corners twice): the key stays below 2^28. A move into
            // an odd quadrant gains half a reply.
            let key = if sq as u8 == hash_move {
                0
            } else {
                reply_count(replies) as u32 * 16 + 8 - 8 * (odd >> sq & 1) as u32 + 1
            };
            keys[count] = key << 4 | count as u32;
            (squares[count], flipped[count], answers[count]) = (sq as u8, f, replies);
            count += 1;
        }
        let mut best = -INF;
        let mut best_sq = 64u8;
        for _ in 0..count {
            let packed = keys.iter().fold(u32::MAX, |a, &k| a.min(k));
            // The place is below `count`; the modulo only lets the compiler drop bounds checks.
            let i = (packed as usize & 15) % SLOTS;
            keys[i] = u32::MAX;
            let (sq, f, replies) = (squares[i], flipped[i], answers[i]);
            let (cp, co) = (o ^ f, p | f | (1 << sq));
            let v = if n - 1 > SHALLOW_MAX {
                -self.search_mid(cp, co, -beta, -alpha, n - 1, replies)
            } else {
                -self.search(cp, co, -beta, -alpha, n - 1)
            };
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if n >= NEARBY_MIN && !self.aborted {
            let (lower, upper) = result_bounds(best, original_alpha, beta);
            self.nearby.store(p, o, lower, upper, best_sq);
        }
        best
    }

    /// Search over an explicit list of empty squares (no move generation): each square is tried
    /// directly, a move with no flips is illegal. The `count` squares are packed one per byte in
    /// `list`, lowest byte first, in parity order; removing one is two shifts, no copying.
    /// Dispatches to the code for each count, so that no layer recurses into itself (only the rare
    /// passes go through an out-of-line call) and each can be inlined into the one above.
    #[inline(always)]
    fn search_shallow(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        list: u64,
        count: u32,
    ) -> i32 {
        match count {
            2 => self.last2(
                p,
                o,
                alpha,
                beta,
                list as usize & 63,
                (list >> 8) as usize & 63,
            ),
            3 => self.shallow::<3>(p, o, alpha, beta, list),
            4 => self.shallow::<4>(p, o, alpha, beta, list),
            5 => self.shallow::<5>(p, o, alpha, beta, list),
            _ => self.shallow_any(p, o, alpha, beta, list, count),
        }
    }

    /// [`Solver::search_shallow`] with `C` (3 to 5) empty squares.
    #[inline]
    fn shallow<const C: u32>(&mut self, p: u64, o: u64, alpha: i32, beta: i32, list: u64) -> i32 {
        self.shallow_body(p, o, alpha, beta, list, C)
    }

    /// The body of [`Solver::search_shallow`], inlined into each layer with its `count`.
    #[inline(always)]
    fn shallow_body(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        list: u64,
        count: u32,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for i in 0..count {
            let s = (list >> (8 * i)) as usize & 63;
            // A square with no opponent disc beside it cannot flip anything.
            if NEIGHBOURS[s] & o == 0 {
                continue;
            }
            let f = flips(s, p, o);
            if f == 0 {
                continue;
            }
            let shift = 8 * i;
            let rest = (list & ((1u64 << shift) - 1)) | ((list >> (shift + 8)) << shift);
            let v = -self.search_shallow(o ^ f, p | f | (1 << s), -beta, -alpha, rest, count - 1);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        return best;
                    }
                }
            }
        }
        if best == -INF {
            return self.shallow_pass(p, o, alpha, beta, list, count);
        }
        best
    }

    /// The list search when the side to move has no move: the opponent plays, or the game ends.
    /// Out of line, so that the layers above do not recurse.
    #[inline(never)]
    fn shallow_pass(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        list: u64,
        count: u32,
    ) -> i32 {
        let can_reply = (0..count).any(|i| {
            let s = (list >> (8 * i)) as usize & 63;
            NEIGHBOURS[s] & p != 0 && flips(s, o, p) != 0
        });
        if can_reply {
            return -self.search_shallow(o, p, -beta, -alpha, list, count);
        }
        final_score(p, o)
    }

    /// [`Solver::search_shallow`] for the counts no layer is made for (0, 1 and above 5: only
    /// whole solves of tiny positions get here).
    #[inline(never)]
    fn shallow_any(&mut self, p: u64, o: u64, alpha: i32, beta: i32, list: u64, count: u32) -> i32 {
        self.shallow_body(p, o, alpha, beta, list, count)
    }

    /// Two empty squares `a` and `b` (in that order of preference).
    #[inline(always)]
    fn last2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, a: usize, b: usize) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let fa = if NEIGHBOURS[a] & o != 0 {
            flips(a, p, o)
        } else {
            0
        };
        if fa != 0 {
            best = -self.last1(o ^ fa, p | fa | (1 << a), -beta, b);
            if best >= beta {
                return best;
            }
        }
        let fb = if NEIGHBOURS[b] & o != 0 {
            flips(b, p, o)
        } else {
            0
        };
        if fb != 0 {
            let v = -self.last1(o ^ fb, p | fb | (1 << b), -beta, a);
            best = best.max(v);
        }
        if best == -INF {
            return self.last2_pass(p, o, alpha, beta, a, b);
        }
        best
    }

    /// [`Solver::last2`] when the side to move has no move: the opponent plays, or the game ends.
    /// Kept out of line (it is rare), so that `last2` itself has no recursion and inlines.
    #[inline(never)]
    fn last2_pass(&mut self, p: u64, o: u64, alpha: i32, beta: i32, a: usize, b: usize) -> i32 {
        if flips(a, o, p) == 0 && flips(b, o, p) == 0 {
            return final_score(p, o);
        }
        -self.last2(o, p, -beta, -alpha, a, b)
    }

    /// The last empty square: the final score without building the last board. With one empty square
    /// the two sides hold 63 discs, so the score is never a draw.
    #[inline(always)]
    fn last1(&mut self, p: u64, o: u64, _alpha: i32, sq: usize) -> i32 {
        self.nodes += 1;
        let diff = 2 * p.count_ones() as i32 - 63;
        let n = count_last_flips(sq, p) as i32;
        if n > 0 {
            return diff + 2 * n + 1;
        }
        let n = count_last_flips(sq, o) as i32;
        if n > 0 {
            // The opponent plays the last square.
            return diff - 2 * n - 1;
        }
        // Nobody can play it: the empty goes to the winner.
        if diff > 0 {
            diff + 1
        } else {
            diff - 1
        }
    }

    /// The principal variation for an exact score: from the root, repeatedly pick a move whose exact
    /// score matches. The solve's best move (at the root) or the table's is tried first: it is
    /// nearly always right, and its subtree is in the table. Only if it fails are the moves ordered
    /// and tried in turn. Each try is a null-window test ([`Solver::pv_try`]). Against ordering
    /// every position's moves and trying them with a window of width 2, the PV of FFO #51 took
    /// 518 nodes and 27 us instead of 10.5 M nodes and 0.53 s, and that of #45 1,646 nodes and
    /// 51 us instead of 42.5 M nodes and 1.31 s (12% of its solving time).
    fn principal_variation(
        &mut self,
        board: Board,
        score: i32,
        root_best: Option<Move>,
    ) -> Vec<Move> {
        let saved_nodes = self.nodes;
        let mut pv = Vec::new();
        let mut b = board;
        let mut target = score;
        while !b.is_game_over() {
            let (p, o) = (b.player(), b.opponent());
            let moves = legal_moves(p, o);
            if moves == 0 {
                pv.push(Move::PASS);
                b = b.pass();
                target = -target;
                continue;
            }
            let n = b.empty_count();
            // The root is not in the table: its best move comes from the solve.
            let hash_move = match (pv.is_empty(), root_best.and_then(Move::square)) {
                (true, Some(sq)) => sq.index() as u8,
                _ => self
                    .table
                    .probe(self.table.place(p, o))
                    .map_or(64, |e| e.best),
            };
            let first = (hash_move < 64 && moves >> hash_move & 1 == 1).then_some(hash_move);
            let mut found = first.and_then(|sq| self.pv_try(p, o, sq, n, target));
            if found.is_none() {
                let mut ordered = self.order_moves(p, o, moves, n, None, None, 0, false);
                while let Some(sq) = ordered.pop() {
                    if Some(sq) != first {
                        found = self.pv_try(p, o, sq, n, target);
                        if found.is_some() {
                            break;
                        }
                    }
                }
            }
            let Some((sq, next)) = found else { break };
            pv.push(Move::play(sq));
            b = next;
            target = -target;
        }
        self.nodes = saved_nodes;
        pv
    }

    /// Whether playing `sq` keeps the exact score `target` (the position's best): the move and the
    /// position after it if so. A null-window test: no child scores below -target, so the move is
    /// right when its child is not above.
    fn pv_try(&mut self, p: u64, o: u64, sq: u8, n: u32, target: i32) -> Option<(Square, Board)> {
        let s = sq as usize;
        let f = flips(s, p, o);
        let (cp, co) = (o ^ f, p | f | (1 << s));
        if self.search(cp, co, -target, -target + 1, n - 1) <= -target {
            Square::new(sq).zip(Board::new(cp, co).ok())
        } else {
            None
        }
    }
}

/// The bounds a fail-soft search result `best` proves, searched with the window
/// `original_alpha..beta`: a fail-high gives a lower bound, a fail-low an upper bound, a score
/// inside the window is exact.
#[inline(always)]
fn result_bounds(best: i32, original_alpha: i32, beta: i32) -> (i32, i32) {
    if best >= beta {
        (best, 64)
    } else if best <= original_alpha {
        (-64, best)
    } else {
        (best, best)
    }
}

/// The standard deviation, in centidiscs, of the error of a `depth`-ply evaluation search against
/// the exact score at `n` empties (fitted on self-play positions with exact scores, 10-20 empties:
/// about 6.7 discs at depth 2, 6.0 at depth 4, growing slowly with the empties).
fn mpc_sigma(n: u32, depth: u32) -> f64 {
    let base = if depth >= 4 { 600.0 } else { 670.0 };
    base + 8.0 * (n as f64 - 16.0)
}

/// The squares of the quadrants that hold an odd number of empty squares. The exclusive-or folds
/// gather each quadrant's parity into its lowest square (bits 0, 4, 32 and 36: a1, e1, a5, e5), and
/// one multiplication spreads those four bits over their quadrants (the four products are disjoint).
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    let mut x = empties;
    x ^= x >> 1;
    x ^= x >> 2;
    x ^= x >> 8;
    x ^= x >> 16;
    (x & 0x0000_0011_0000_0011).wrapping_mul(0x0F0F_0F0F)
}

/// The empty squares of the board packed one per byte (lowest byte first) and their count: those in
/// odd quadrants first (then the others), corners before other squares and C/X-squares last within
/// each group, by square index within each of these six classes. Called with at most `SHALLOW_MAX`
/// (< 8) empties; from the ninth on, squares are left out.
fn parity_ordered_empties(p: u64, o: u64) -> (u64, u32) {
    let empties = !(p | o);
    let odd = odd_quadrants(empties);
    let mut list = 0u64;
    let mut count = 0;
    for group in [empties & odd, empties & !odd] {
        for part in [
            group & CORNERS,
            group & !CORNERS & !NEAR_CORNERS,
            group & NEAR_CORNERS,
        ] {
            let mut m = part;
            while m != 0 && count < 8 {
                list |= (m.trailing_zeros() as u64) << (8 * count);
                m &= m - 1;
                count += 1;
            }
        }
    }
    (list, count)
}

/// The squares adjacent to each square ([`neighbours`] of one square, computed at compile time).
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = neighbours(1u64 << sq);
        sq += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Solves stopped in the middle (wherever the stop lands: each after a different delay) leave
    /// only true bounds in the small table: every entry is checked against a fresh solver's exact
    /// score. The check holds wherever the stop lands, and whether it landed at all.
    #[test]
    fn stopped_solves_leave_only_true_bounds_in_the_small_table() {
        let mut rng = Rng::new(0x5709_CAFE);
        let stop = Arc::new(AtomicBool::new(false));
        let mut solver = Solver::new(2);
        solver.set_stop_flag(stop.clone());
        let mut checker = Solver::new(2);
        let (mut stopped, mut checked) = (0, 0);
        for round in 0..4u64 {
            // A random position with 18 empties.
            let mut b = Board::START;
            while b.empty_count() > 18 && !b.is_game_over() {
                let moves = legal_moves(b.player(), b.opponent());
                if moves == 0 {
                    b = b.pass();
                    continue;
                }
                let pick = (rng.next_u64() % u64::from(moves.count_ones())) as u32;
                let mut m = moves;
                for _ in 0..pick {
                    m &= m - 1;
                }
                let sq = Square::new(m.trailing_zeros() as u8).expect("on the board");
                b = b.play(sq).expect("legal");
            }
            stop.store(false, Ordering::Relaxed);
            let delay = std::time::Duration::from_micros(300 + 700 * round);
            let r = std::thread::scope(|s| {
                s.spawn(|| {
                    std::thread::sleep(delay);
                    stop.store(true, Ordering::Relaxed);
                });
                solver.solve_exact(b)
            });
            stopped += usize::from(r.aborted);
            for (p, o, lower, upper) in solver.nearby.entries() {
                let exact = checker
                    .solve_exact(Board::new(p, o).expect("disjoint"))
                    .score;
                assert!(
                    lower <= exact && exact <= upper,
                    "{lower}..{upper} for a position whose score is {exact}"
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "the small table held no entry to check");
        println!("{stopped} of 4 solves stopped, {checked} entries checked");
    }

    /// Plain negamax over the evaluation, moves in square order, no pruning.
    fn negamax(eval: &Evaluator, p: u64, o: u64, depth: u32) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return 100 * final_score(p, o);
            }
            return -negamax(eval, o, p, depth);
        }
        if depth == 0 {
            return eval.evaluate_indexed(p, o, &PatternIndices::new(p, o));
        }
        let mut best = -INF_EVAL;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(sq, p, o);
            best = best.max(-negamax(eval, o ^ f, p | f | (1 << sq), depth - 1));
        }
        best
    }

    #[test]
    fn empties_are_listed_by_parity_group_then_class_then_square() {
        let mut rng = Rng::new(12);
        for _ in 0..20_000 {
            // 0 to 7 empty squares at random, the rest split between the sides at random.
            let mut empties = 0u64;
            for _ in 0..rng.below(8) {
                empties |= 1 << rng.below(64);
            }
            let p = rng.next_u64() & !empties;
            let o = !p & !empties;
            // The definition: odd quadrants first, then corners, plain squares, C/X-squares, each
            // class in square order.
            let odd = odd_quadrants(empties);
            let mut want = Vec::new();
            for group in [empties & odd, empties & !odd] {
                for class in [
                    group & CORNERS,
                    group & !CORNERS & !NEAR_CORNERS,
                    group & NEAR_CORNERS,
                ] {
                    want.extend((0..64u64).filter(|&s| class >> s & 1 == 1));
                }
            }
            let (list, count) = parity_ordered_empties(p, o);
            let got: Vec<u64> = (0..count).map(|i| list >> (8 * i) & 63).collect();
            assert_eq!(got, want, "{empties:#x}");
        }
    }

    #[test]
    fn odd_quadrants_are_the_quadrants_with_an_odd_number_of_empties() {
        let mut rng = Rng::new(11);
        for _ in 0..10_000 {
            let empties = rng.next_u64() & rng.next_u64();
            let mut want = 0;
            for mask in QUADRANTS {
                if (empties & mask).count_ones() % 2 == 1 {
                    want |= mask;
                }
            }
            assert_eq!(odd_quadrants(empties), want, "{empties:#x}");
        }
    }

    #[test]
    fn the_ordered_shallow_search_finds_the_plain_negamax_value() {
        let solver = Solver::new(1);
        let mut rng = Rng::new(5);
        let mut checked = 0;
        while checked < 40 {
            // A random position 10-40 moves into a game.
            let mut b = Board::START;
            for _ in 0..10 + rng.below(30) {
                let moves: Vec<Square> = b.legal_moves().collect();
                if moves.is_empty() {
                    b = b.pass();
                } else {
                    let sq = moves[rng.below(moves.len() as u64) as usize];
                    b = b.play(sq).unwrap_or(b);
                }
            }
            if b.is_game_over() {
                continue;
            }
            checked += 1;
            let (p, o) = (b.player(), b.opponent());
            let idx = PatternIndices::new(p, o);
            for depth in 0..=3 {
                let want = negamax(&solver.eval, p, o, depth);
                let got = solver.shallow_value(p, o, &idx, depth, -INF_EVAL, INF_EVAL);
                assert_eq!(got, want, "depth {depth}, {b:?}");
                // Null windows on each side of the value give bounds on the right side of it.
                assert!(solver.shallow_value(p, o, &idx, depth, want - 1, want) >= want);
                assert!(solver.shallow_value(p, o, &idx, depth, want, want + 1) <= want);
            }
        }
    }
}
