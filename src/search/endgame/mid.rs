//! The mid layer (`SHALLOW_MAX`+1 to `TT_MIN`-1 empties): move generation with fastest-first
//! ordering, bounds and best moves in the thread's small table from `NEARBY_MIN` empties.

use super::*;

impl Solver {
    /// Search with move generation and fastest-first ordering, without the shared table (from
    /// `NEARBY_MIN` empties with the thread's small one). `moves` are the legal
    /// moves of `p` (the parent computed them for its ordering: they are not generated twice).
    /// Dispatches to the code for each number of empties, as [`Solver::search_shallow`] does.
    #[inline(always)]
    pub(super) fn search_mid(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        moves: u64,
    ) -> i32 {
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
    pub(super) fn mid<const N: u32>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        moves: u64,
    ) -> i32 {
        self.mid_body(p, o, alpha, beta, N, moves)
    }

    /// [`Solver::search_mid`] for other numbers of empties (not reached with the present layer
    /// bounds; kept so that the dispatch is total).
    #[inline(never)]
    pub(super) fn mid_any(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        moves: u64,
    ) -> i32 {
        self.mid_body(p, o, alpha, beta, n, moves)
    }

    /// [`Solver::search_mid`] when the side to move has no move: the opponent plays, or the game
    /// ends. Out of line, so that the layers do not recurse into themselves.
    #[inline(never)]
    pub(super) fn mid_pass(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let replies = legal_moves(o, p);
        if replies == 0 {
            return final_score(p, o);
        }
        -self.search_mid(o, p, -beta, -alpha, n, replies)
    }

    /// The body of [`Solver::search_mid`], inlined into each layer with its `n`.
    #[inline(always)]
    pub(super) fn mid_body(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        moves: u64,
    ) -> i32 {
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
        let mut hash_move = NO_SQUARE;
        if n >= NEARBY_MIN {
            if let Some(k) = self.nearby.probe(p, o) {
                if let Some(v) = bound_cutoff(k.lower, k.upper, alpha, beta) {
                    return v;
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
        // comparisons would be the most mispredicted branches of the whole solver.
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
        let mut best = -INF_DISCS;
        let mut best_sq = NO_SQUARE;
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
                -self.search(cp, co, -beta, -alpha, n - 1, Hint::NONE)
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
}
