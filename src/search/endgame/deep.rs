//! The deep layer (from `TT_MIN` empties): stability cut-off, table probe, enhanced
//! transposition cut-off, probable cut (Multi-ProbCut) and the store, around principal variation
//! search.

use super::*;

impl Solver {
    /// Search with the transposition table, hash move first, stability cut-off and PVS; `hint`
    /// is what the parent knows of this node.
    pub(super) fn search_tt(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        n: u32,
        hint: Hint<'_>,
    ) -> i32 {
        let inherited = hint.indices.copied();
        // The node's expected type in a null-window search: the first child of a cut-node is an
        // all-node, the other children of either kind cut-nodes (a wider window: a PV node).
        let null_window = beta - alpha == 1;
        let expect_all = hint.expect_all && null_window;
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
        let mut hash_move = NO_SQUARE;
        if let Some(entry) = self.table.probe(place) {
            if entry.selectivity >= self.selectivity {
                let (lo, hi) = (entry.lower as i32, entry.upper as i32);
                if let Some(v) = bound_cutoff(lo, hi, alpha, beta) {
                    return v;
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
            let passed = indices.map(|idx| idx.pass());
            let hint = Hint {
                indices: passed.as_ref(),
                expect_all: cut_node,
            };
            return -self.search_tt(o, p, -beta, -alpha, n, hint);
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
        let (mut cheapest, mut cheapest_cost, mut hash_cost) = (NO_SQUARE, u8::MAX, u8::MAX);
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
        let mut best = -INF_DISCS;
        let mut best_sq = NO_SQUARE;
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
    pub(super) fn children_flips<const PREFETCH: bool>(
        &self,
        p: u64,
        o: u64,
        moves: u64,
    ) -> [u64; 64] {
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
    pub(super) fn probable_cut(
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
}
