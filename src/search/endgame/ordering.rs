//! Move ordering from `TT_MIN` empties: the cheapest refutation or hash move first, then by
//! opponent mobility, potential mobility and evaluation, with shallow evaluation searches
//! ([`Solver::shallow_value`]) where the subtrees are large.

use super::*;

impl Solver {
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
    pub(super) fn order_moves(
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
    pub(super) fn shallow_value(
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
}
