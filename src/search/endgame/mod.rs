//! The perfect endgame solver: exact final disc differences and win/loss/draw proofs.
//!
//! Layers by number of empty squares, each the cheapest code that works there:
//! - 1 empty: the score follows from the disc count and the flip count of the last move; the board
//!   after it is never built.
//! - 2..=`SHALLOW_MAX` empties: no move generation; the empties live in a small list ordered by
//!   quadrant parity (a square alone in its quadrant first) and each is tried directly.
//! - up to `TT_MIN`: move generation with fastest-first ordering (fewest opponent replies; corners
//!   count double); from `NEARBY_MIN` empties bounds and best moves kept in a small table of the
//!   thread's own (`leaf_table`), not in the shared one.
//! - from `TT_MIN` empties up: a transposition table (bounds and best move), the hash move first,
//!   a stability cut-off, and principal variation search.
//!
//! Exact solves from `SELECTIVE_MIN` empties first run selective passes (Multi-ProbCut: a node whose
//! shallow evaluation search clears the window by enough standard deviations of its error is cut
//! off unsearched). Their results are only probable, and so are marked in the table, but they
//! leave good moves and a close estimate behind for the final, exact pass.
//!
//! A node of the deep layer (`deep`, from `TT_MIN` empties), in order:
//! 1. Stop and cut-off checks (a helper's split may have been cut off above it).
//! 2. Stability cut-off: the opponent's discs that can never flip bound the score from above.
//! 3. Shared table probe (`shared_table`): stored bounds decide the node; the stored move goes
//!    first. The children's buckets are requested at once (from `ETC_MIN` empties).
//! 4. In a selective pass, the probable cut (Multi-ProbCut on a shallow evaluation search).
//! 5. No move: pass, or the final score.
//! 6. Enhanced transposition cut-off: a child's entry that refutes the node, before any search.
//! 7. Move ordering (`ordering`): the table's move, then by evaluation and mobility.
//! 8. The moves, principal variation search; from `SPLIT_MIN` empties the moves after the first
//!    are shared with idle helper threads (`helpers`, `threads`).
//! 9. The result stored in the shared table with its bound (and whether it is only probable).
//!
//! Below it: `mid` (move generation, the thread's own `leaf_table`), `shallow` (the parity
//! list) and the last empty; `driver` runs the passes and the aspiration at the root.
//!
//! Scores are from the side to move's point of view, in discs, with the empties going to the winner.
//!
//! With [`Solver::set_threads`], nodes from `SPLIT_MIN` empties share the moves after their first
//! with helper threads (young brothers wait, `helpers`); all threads use one table (`shared_table`).

mod deep;
mod driver;
mod helpers;
mod leaf_table;
mod mid;
mod ordering;
mod shallow;
mod shared_table;
mod threads;

use super::movelist::{MovePicker, MAX_MOVES};
use super::selectivity::{MPC_CONFIDENCE, MPC_T};
use super::{bound_cutoff, reply_count};
use crate::board::movegen::{count_last_flips, flips, legal_moves, neighbours};
use crate::board::square::NO_SQUARE;
use crate::board::stability::stable_discs;
use crate::board::{final_score, Board, Move, Square};
use crate::eval::{Evaluator, PatternIndices};
use helpers::{AbortChain, Member, Pool, Split};
use leaf_table::NearbyTable;
use shared_table::{EndTable, Entry};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Above any score: scores lie in -64..=64.
const INF_DISCS: i32 = 65;
/// Largest number of empties handled by the parity-ordered list search.
const SHALLOW_MAX: u32 = 5;
/// Smallest number of empties at which the (shared) transposition table is used; below it the
/// layer's own small table serves (`NEARBY_MIN`). 10 takes FFO #20-#39 4.09-4.19 s against
/// 4.22-4.26 s with 9, measured in turn (nodes 71.9 M and 70.3 M).
const TT_MIN: u32 = 10;
/// Smallest number of empties at which children are probed in the shared table before searching
/// (ETC), their buckets requested together. 11 against 12: FFO #20-#39 -1.2% nodes, #40-#45
/// -2.4%, #53 -0.8%, and no slower (#53 faster in three of four pairs).
const ETC_MIN: u32 = 11;
/// Fewest empties at which the move-generating layer uses its small per-thread table. Against none
/// (with the shared table from 9 empties): FFO #20-#39 81.2 M -> 71.9 M nodes, #40-#45 296.6 M ->
/// 252.9 M, 4.5 -> 4.1 s and 14.1 -> 12.6 s (docs/benchmarks.md).
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
/// The level of proven results (cuts nothing).
const EXACT: u8 = super::selectivity::FULL_WIDTH;
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
    /// Nodes of the finished windows and passes of the solve in progress (from
    /// [`Solver::solve_exact`] or [`Solver::solve_wld`] on): with the current window's, the count
    /// published for progress lines, which must not go back when a window ends.
    solve_base: u64,
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
    /// This thread's table for the move-generating layer, from `NEARBY_MIN` empties.
    nearby: NearbyTable,
}

/// Masks of the four quadrants (the definition [`odd_quadrants`] is tested against).
#[cfg(test)]
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// What a parent knows of the child it is about to search, for the table layer
/// ([`Solver::search_tt`]; the layers below ignore it): the child's pattern indices, updated from
/// the parent's by the move (one update instead of a fresh read of the board), and whether the
/// child is expected to be an all-node (one whose every move fails low).
/// The indices are lent, not copied: a hint travels through every call of the dispatcher.
#[derive(Clone, Copy, Default)]
pub(super) struct Hint<'a> {
    /// The child's pattern indices, when the parent has them.
    pub(super) indices: Option<&'a PatternIndices>,
    /// The child follows the first move of an expected cut-node, so it is expected to be an
    /// all-node.
    pub(super) expect_all: bool,
}

impl Hint<'_> {
    /// Nothing known.
    pub(super) const NONE: Hint<'static> = Hint {
        indices: None,
        expect_all: false,
    };
}

// The pattern indices a parent hands down in a [`Hint`] are used by the child's `search_tt`:
// every position that orders by evaluation must be a table node (checked at compile time).
const _: () = assert!(EVAL_ORDER_MIN >= TT_MIN);

/// Squares adjacent to a corner (C- and X-squares) get ordered after the others at equal parity.
const NEAR_CORNERS: u64 = 0x42C3_0000_0000_C342;
const CORNERS: u64 = crate::board::Bitboard::CORNERS.0;

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
            Evaluator::default().for_ordering(),
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
            nearby: NearbyTable::default(),
            progress: None,
            node_budget: u64::MAX,
            budget_used: 0,
            solve_base: 0,
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

    /// Orders moves at high empties with `eval` ([`Evaluator::for_ordering`]: the built-in
    /// network's tables where `eval` is the built-in network).
    pub fn set_evaluator(&mut self, eval: Evaluator) {
        self.eval = eval.for_ordering();
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

    /// Forgets every stored position (with as many threads as the solver searches with).
    pub fn clear(&mut self) {
        self.table.clear_with(self.threads());
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
        // The first stop comes after 0.3 ms, long before an 18-empty solve ends: at least that
        // solve was cut in the middle, so stopped tables were checked.
        assert!(
            stopped >= 1,
            "no solve was stopped ({checked} entries checked)"
        );
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
