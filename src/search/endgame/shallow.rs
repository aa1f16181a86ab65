//! The shallow layers (2 to `SHALLOW_MAX` empties): no move generation, the empties in a list by
//! quadrant parity, each tried directly; then the last two and the last empty square.

use super::*;

impl Solver {
    /// Search over an explicit list of empty squares (no move generation): each square is tried
    /// directly, a move with no flips is illegal. The `count` squares are packed one per byte in
    /// `list`, lowest byte first, in parity order; removing one is two shifts, no copying.
    /// Dispatches to the code for each count, so that no layer recurses into itself (only the rare
    /// passes go through an out-of-line call) and each can be inlined into the one above.
    #[inline(always)]
    pub(super) fn search_shallow(
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
    pub(super) fn shallow<const C: u32>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        list: u64,
    ) -> i32 {
        self.shallow_body(p, o, alpha, beta, list, C)
    }

    /// The body of [`Solver::search_shallow`], inlined into each layer with its `count`.
    #[inline(always)]
    pub(super) fn shallow_body(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        list: u64,
        count: u32,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF_DISCS;
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
        if best == -INF_DISCS {
            return self.shallow_pass(p, o, alpha, beta, list, count);
        }
        best
    }

    /// The list search when the side to move has no move: the opponent plays, or the game ends.
    /// Out of line, so that the layers above do not recurse.
    #[inline(never)]
    pub(super) fn shallow_pass(
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
    pub(super) fn shallow_any(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        list: u64,
        count: u32,
    ) -> i32 {
        self.shallow_body(p, o, alpha, beta, list, count)
    }

    /// Two empty squares `a` and `b` (in that order of preference).
    #[inline(always)]
    pub(super) fn last2(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: usize,
        b: usize,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF_DISCS;
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
        if best == -INF_DISCS {
            return self.last2_pass(p, o, alpha, beta, a, b);
        }
        best
    }

    /// [`Solver::last2`] when the side to move has no move: the opponent plays, or the game ends.
    /// Kept out of line (it is rare), so that `last2` itself has no recursion and inlines.
    #[inline(never)]
    pub(super) fn last2_pass(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: usize,
        b: usize,
    ) -> i32 {
        if flips(a, o, p) == 0 && flips(b, o, p) == 0 {
            return final_score(p, o);
        }
        -self.last2(o, p, -beta, -alpha, a, b)
    }

    /// The last empty square: the final score without building the last board. With one empty square
    /// the two sides hold 63 discs, so the score is never a draw.
    #[inline(always)]
    pub(super) fn last1(&mut self, p: u64, o: u64, _alpha: i32, sq: usize) -> i32 {
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
}
