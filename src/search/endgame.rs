//! The perfect endgame solver: exact final disc differences and win/loss/draw proofs.
//!
//! Layers by number of empty squares, each the cheapest code that works there:
//! - 1 empty: the score follows from the disc count and the flip count of the last move; the board
//!   after it is never built.
//! - 2..=`SHALLOW_MAX` empties: no move generation; the empties live in a small list ordered by
//!   quadrant parity (a square alone in its quadrant first) and each is tried directly.
//! - up to `TT_MIN`: move generation with fastest-first ordering (fewest opponent replies; corners
//!   count double), no hash table.
//! - from `TT_MIN` empties up: a transposition table (bounds and best move), the hash move first,
//!   a stability cut-off, and principal variation search.
//!
//! Scores are from the side to move's point of view, in discs, with the empties going to the winner.

use super::movelist::MoveList;
use crate::board::movegen::{count_last_flips, flips, legal_moves, neighbours};
use crate::board::stability::stable_discs;
use crate::board::{final_score, hash, Board, Move, Square};
use crate::eval::{Evaluator, PatternIndices};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Above any score: scores lie in -64..=64.
const INF: i32 = 65;
/// Largest number of empties handled by the parity-ordered list search.
const SHALLOW_MAX: u32 = 5;
/// Smallest number of empties at which the transposition table is used.
const TT_MIN: u32 = 9;
/// Smallest number of empties at which children are probed in the table before searching (ETC).
const ETC_MIN: u32 = 12;
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
/// Bound on evaluation-scale values in the ordering search.
const INF_EVAL: i32 = 100_000;
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
    /// Whether the solve was interrupted by the stop flag (then the result is not reliable).
    pub aborted: bool,
}

/// One entry of the solver's transposition table: the full board (so there are no false hits), the
/// bounds on its score, and the best move found.
#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
    /// The solve that stored it (entries of earlier solves are replaced first).
    generation: u8,
}

/// The endgame solver. Keeps its transposition table between solves of the same game.
pub struct Solver {
    eval: Evaluator,
    table: Vec<Entry>,
    mask: usize,
    nodes: u64,
    stop: Option<Arc<AtomicBool>>,
    aborted: bool,
    /// Node count at which the stop flag is looked at next.
    next_check: u64,
    /// Counts solves, for the table's replacement.
    generation: u8,
}

/// Quadrant of each square (0..4), for parity ordering.
const fn quadrant(sq: usize) -> usize {
    ((sq >> 2) & 1) | (((sq >> 5) & 1) << 1)
}

/// Masks of the four quadrants.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares adjacent to a corner (C- and X-squares) get ordered after the others at equal parity.
const NEAR_CORNERS: u64 = 0x42C3_0000_0000_C342;
const CORNERS: u64 = 0x8100_0000_0000_0081;

impl Solver {
    /// A solver with a transposition table of about `table_mb` megabytes (at least 1 MB).
    pub fn new(table_mb: usize) -> Solver {
        let entries = (table_mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let size = entries.next_power_of_two() >> 1;
        Solver {
            eval: Evaluator::default(),
            table: vec![Entry::default(); size.max(1024)],
            mask: size.max(1024) - 1,
            nodes: 0,
            stop: None,
            aborted: false,
            next_check: 0,
            generation: 0,
        }
    }

    /// Uses `eval` for move ordering at high empties.
    pub fn set_evaluator(&mut self, eval: Evaluator) {
        self.eval = eval;
    }

    /// Sets the flag that, once true, makes the running solve return early (marked `aborted`).
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
    }

    /// Solves `board` exactly: the best final disc difference for the side to move and a move that
    /// achieves it. From `ASPIRATION_MIN` empties it is solved as a sequence of narrow-window solves
    /// (aspiration), which costs about a fifth fewer nodes than one full-window solve (docs/benchmarks.md).
    pub fn solve_exact(&mut self, board: Board) -> SolveResult {
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
        let (mut alpha, mut beta) = (guess - 1, guess + 1);
        let mut delta = 2;
        let mut nodes = 0;
        loop {
            let r = self.solve_window(board, alpha, beta);
            nodes += r.nodes;
            if r.aborted || (r.score > alpha && r.score < beta) || (alpha <= -64 && beta >= 64) {
                return SolveResult { nodes, ..r };
            }
            if r.score <= alpha {
                // An upper bound (even, like every score): keep the bounds odd.
                beta = (r.score + 1).min(65);
                alpha = (r.score - delta - 1).max(-65);
            } else {
                alpha = (r.score - 1).max(-65);
                beta = (r.score + delta + 1).min(65);
            }
            delta *= 2;
        }
    }

    /// Solves for win/loss/draw only (window -1..1): the sign of the score is exact, the magnitude is
    /// not.
    pub fn solve_wld(&mut self, board: Board) -> SolveResult {
        self.generation = self.generation.wrapping_add(1);
        self.solve_window(board, -1, 1)
    }

    /// Solves with the window `alpha..beta` (exclusive bounds, fail-soft): a score strictly inside it
    /// is exact, one at or below `alpha` is an upper bound and one at or above `beta` a lower bound.
    pub fn solve_window(&mut self, board: Board, alpha: i32, beta: i32) -> SolveResult {
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
            };
        }
        let (score, best) = self.root(p, o, alpha.max(-64), beta.min(64), n);
        let pv = if self.aborted || score <= alpha || score >= beta {
            // Only a bound is known (or the solve was cut short): the PV is the move chosen.
            best.into_iter().collect()
        } else {
            self.principal_variation(board, score)
        };
        SolveResult {
            score,
            best_move: best,
            pv,
            nodes: self.nodes,
            aborted: self.aborted,
        }
    }

    /// Per mille of sampled table slots written by the current solve (the UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = &self.table[..self.table.len().min(1000)];
        let used = sample
            .iter()
            .filter(|e| e.player | e.opponent != 0 && e.generation == self.generation)
            .count();
        (used * 1000 / sample.len()) as u32
    }

    /// Nodes searched by the last solve so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The root: every move searched with PVS, best move returned.
    fn root(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> (i32, Option<Move>) {
        self.nodes += 1;
        let moves = legal_moves(p, o);
        if moves == 0 {
            let score = -self.search(o, p, -beta, -alpha, n);
            return (score, Some(Move::PASS));
        }
        let ordered = self.order_moves(p, o, moves, n);
        let ordered = ordered.squares();
        let mut best = -INF;
        let mut best_move = None;
        for (i, &sq) in ordered.iter().enumerate() {
            let sq = sq as usize;
            let v = self.search_move(p, o, sq, alpha, beta, n, i == 0);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Square::new(sq as u8).map(Move::play);
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        if best_move.is_none() {
            best_move = Square::new(ordered[0]).map(Move::play);
        }
        (best, best_move)
    }

    /// Whether the solve must end: looks at the stop flag once every `STOP_CHECK_NODES` nodes
    /// (counted over all layers, so the delay between two looks is bounded whatever the layer).
    #[inline]
    fn poll_stop(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + STOP_CHECK_NODES;
            if let Some(stop) = &self.stop {
                if stop.load(Ordering::Relaxed) {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// The score of playing `sq` (from the mover's side), principal variation search style: the
    /// first move with the full window, the others with a null window and a re-search when they
    /// land inside it.
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
    ) -> i32 {
        let f = flips(sq, p, o);
        let (cp, co) = (o ^ f, p | f | (1 << sq));
        if first {
            return -self.search(cp, co, -beta, -alpha, n - 1);
        }
        let v = -self.search(cp, co, -alpha - 1, -alpha, n - 1);
        if v > alpha && v < beta {
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
    /// late, and from `EVAL_ORDER_MIN` empties the evaluation (from `LOOKAHEAD_ORDER_MIN` after a
    /// 1-ply look-ahead, from `SEARCH_ORDER_MIN` after 2 plies, from `DEEP_ORDER_MIN` after 4).
    /// The hash move is put first by the caller.
    fn order_moves(&self, p: u64, o: u64, mut moves: u64, n: u32) -> MoveList {
        let mut list = MoveList::default();
        let parity = quadrant_parity(!(p | o));
        let idx = (n >= EVAL_ORDER_MIN).then(|| PatternIndices::new(p, o));
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let (cp, co) = (o ^ f, p | f | (1 << sq));
            if n > TT_MIN {
                // The child will probe the table: start loading its bucket now.
                self.prefetch(cp, co);
            }
            let replies = legal_moves(cp, co);
            let mut key = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32 * 16;
            if parity >> quadrant(sq) & 1 == 1 && n < 20 {
                key -= 8;
            }
            if (1u64 << sq) & NEAR_CORNERS != 0 {
                key += 4;
            }
            let depth = if n >= DEEP_ORDER_MIN {
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
            if let (Some(d), Some(idx)) = (depth, &idx) {
                let v = self.shallow_value(cp, co, &idx.play(sq, f), d, -INF_EVAL, INF_EVAL);
                key += v * EVAL_ORDER_WEIGHT / 100;
            }
            list.insert(key, sq as u8);
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
            return self.eval.evaluate_indexed(p, o, idx);
        }
        let mut m = moves;
        let mut best = -INF_EVAL;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
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
        self.nodes += 1;
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

        let bucket = self.bucket(p, o);
        let mut hash_move = 64u8;
        if let Some(entry) = self.probe(bucket, p, o) {
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
            hash_move = entry.best;
        }
        let original_alpha = alpha;

        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.search_tt(o, p, -beta, -alpha, n);
        }
        if n >= ETC_MIN {
            // Enhanced transposition cut-off: a child already known to be bad enough for the opponent
            // refutes this node before any ordering work.
            let mut m = moves;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(sq, p, o);
                let (cp, co) = (o ^ f, p | f | (1 << sq));
                let child = self.bucket(cp, co);
                if let Some(e) = self.probe(child, cp, co) {
                    if -(e.upper as i32) >= beta {
                        return -(e.upper as i32);
                    }
                }
            }
        }
        let mut best = -INF;
        let mut best_sq = 64u8;
        let mut rest = moves;
        // The hash move goes first, before the others are even scored: a cut-off there saves the
        // ordering work.
        if hash_move < 64 && moves >> hash_move & 1 == 1 {
            rest &= !(1u64 << hash_move);
            let v = self.search_move(p, o, hash_move as usize, alpha, beta, n, true);
            if self.aborted {
                return 0;
            }
            best = v;
            best_sq = hash_move;
            alpha = alpha.max(v);
        }
        if best < beta && rest != 0 {
            let ordered = self.order_moves(p, o, rest, n);
            for (i, &sq) in ordered.squares().iter().enumerate() {
                let first = i == 0 && best_sq == 64;
                let v = self.search_move(p, o, sq as usize, alpha, beta, n, first);
                if self.aborted {
                    return 0;
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
        }
        // Store: fail-high gives a lower bound, fail-low an upper bound, otherwise exact.
        let (lower, upper) = if best >= beta {
            (best, 64)
        } else if best <= original_alpha {
            (-64, best)
        } else {
            (best, best)
        };
        self.store(bucket, p, o, lower, upper, best_sq, n);
        best
    }

    /// Starts loading the bucket of a position that is about to be probed (a cache hint only).
    #[inline]
    fn prefetch(&self, p: u64, o: u64) {
        super::prefetch(&self.table[self.bucket(p, o)]);
    }

    /// The first slot of the position's two-slot bucket.
    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        (hash(p, o) as usize) & self.mask & !1
    }

    /// The entry for the position, if its bucket (two slots from `bucket`) holds it.
    #[inline]
    fn probe(&self, bucket: usize, p: u64, o: u64) -> Option<Entry> {
        self.table[bucket..bucket + 2]
            .iter()
            .find(|e| e.player == p && e.opponent == o)
            .copied()
    }

    /// Stores bounds for the position in its bucket: over its own entry (bounds merged), else over
    /// the slot holding an entry of an earlier solve, else over the one with fewer empties, so each
    /// bucket keeps its deepest entry and cycles the other slot.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(&mut self, bucket: usize, p: u64, o: u64, lower: i32, upper: i32, best: u8, n: u32) {
        let generation = self.generation;
        let pair = &mut self.table[bucket..bucket + 2];
        let same = |e: &Entry| e.player == p && e.opponent == o;
        let (k, lower, upper) = if same(&pair[0]) || same(&pair[1]) {
            let k = usize::from(!same(&pair[0]));
            let e = &pair[k];
            (k, lower.max(e.lower as i32), upper.min(e.upper as i32))
        } else {
            let keep = |e: &Entry| (e.generation == generation, e.empties);
            (usize::from(keep(&pair[1]) < keep(&pair[0])), lower, upper)
        };
        pair[k] = Entry {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper.max(lower) as i8,
            best,
            empties: n as u8,
            generation,
        };
    }

    /// Search with move generation and fastest-first ordering, no hash table. `moves` are the legal
    /// moves of `p` (the parent computed them for its ordering: they are not generated twice).
    fn search_mid(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32, moves: u64) -> i32 {
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        if moves == 0 {
            let replies = legal_moves(o, p);
            if replies == 0 {
                return final_score(p, o);
            }
            return -self.search_mid(o, p, -beta, -alpha, n, replies);
        }
        // Fixed-size move list on the stack: fastest-first keys, then a small insertion sort. Each
        // entry keeps the flips and the opponent's replies for the child.
        let mut list = [(0i32, 0u8, 0u64, 0u64); 32];
        let mut count = 0;
        let parity = quadrant_parity(!(p | o));
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(sq, p, o);
            let replies = legal_moves(o ^ f, p | f | (1 << sq));
            let mut key = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32 * 16;
            if parity >> quadrant(sq) & 1 == 1 {
                key -= 8;
            }
            let mut j = count;
            while j > 0 && list[j - 1].0 > key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = (key, sq as u8, f, replies);
            count += 1;
        }
        let mut best = -INF;
        for &(_, sq, f, replies) in &list[..count] {
            let (cp, co) = (o ^ f, p | f | (1 << sq));
            let v = if n - 1 > SHALLOW_MAX {
                -self.search_mid(cp, co, -beta, -alpha, n - 1, replies)
            } else {
                -self.search(cp, co, -beta, -alpha, n - 1)
            };
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

    /// Search over an explicit list of empty squares (no move generation): each square is tried
    /// directly, a move with no flips is illegal. The `count` squares are packed one per byte in
    /// `list`, lowest byte first, in parity order; removing one is two shifts, no copying.
    fn search_shallow(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        list: u64,
        count: u32,
    ) -> i32 {
        if count == 2 {
            return self.last2(
                p,
                o,
                alpha,
                beta,
                list as usize & 63,
                (list >> 8) as usize & 63,
            );
        }
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
            // No move: pass if the opponent can move, else the game is over.
            let can_reply = (0..count).any(|i| {
                let s = (list >> (8 * i)) as usize & 63;
                NEIGHBOURS[s] & p != 0 && flips(s, o, p) != 0
            });
            if can_reply {
                return -self.search_shallow(o, p, -beta, -alpha, list, count);
            }
            return final_score(p, o);
        }
        best
    }

    /// Two empty squares `a` and `b` (in that order of preference).
    #[inline]
    fn last2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, a: usize, b: usize) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let fa = flips(a, p, o);
        if fa != 0 {
            best = -self.last1(o ^ fa, p | fa | (1 << a), -beta, b);
            if best >= beta {
                return best;
            }
        }
        let fb = flips(b, p, o);
        if fb != 0 {
            let v = -self.last1(o ^ fb, p | fb | (1 << b), -beta, a);
            best = best.max(v);
        }
        if best == -INF {
            if flips(a, o, p) == 0 && flips(b, o, p) == 0 {
                return final_score(p, o);
            }
            return -self.last2(o, p, -beta, -alpha, a, b);
        }
        best
    }

    /// The last empty square: the final score without building the last board. With one empty square
    /// the two sides hold 63 discs, so the score is never a draw.
    #[inline]
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
    /// score matches (checked with a window of width 2 around it, cheap with the table warm).
    fn principal_variation(&mut self, board: Board, score: i32) -> Vec<Move> {
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
            let mut found = None;
            for &sq in self.order_moves(p, o, moves, n).squares() {
                let s = sq as usize;
                let f = flips(s, p, o);
                let (cp, co) = (o ^ f, p | f | (1 << s));
                if -self.search(cp, co, -target - 1, -target + 1, n - 1) == target {
                    found = Square::new(sq).zip(Board::new(cp, co).ok());
                    break;
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
}

/// One bit per quadrant: set when the quadrant holds an odd number of empty squares.
#[inline]
fn quadrant_parity(empties: u64) -> u32 {
    let mut parity = 0;
    for (q, &mask) in QUADRANTS.iter().enumerate() {
        parity |= ((empties & mask).count_ones() & 1) << q;
    }
    parity
}

/// The empty squares of the board packed one per byte (lowest byte first) and their count: those in
/// odd quadrants first (then the others), corners before other squares and C/X-squares last within
/// each group. Called with at most `SHALLOW_MAX` (< 8) empties.
fn parity_ordered_empties(p: u64, o: u64) -> (u64, u32) {
    let empties = !(p | o);
    let parity = quadrant_parity(empties);
    let mut odd = 0u64;
    for (q, &mask) in QUADRANTS.iter().enumerate() {
        if parity >> q & 1 == 1 {
            odd |= mask;
        }
    }
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
