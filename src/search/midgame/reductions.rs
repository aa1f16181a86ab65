//! Late move reductions, the selective search's second pruning beside Multi-ProbCut
//! ([`super::probcut`]): at a null-window node, the moves after the first few are searched a few
//! plies shallower first, and again at full depth only when that search says they beat alpha.

use super::{Child, Tree};
use crate::board::Move;

impl Tree {
    /// A late move of a null-window node ([`late_reduction`]): first searched `reduction` plies
    /// shallower, and again at full depth only if that search says it beats `alpha`.
    pub(super) fn search_late_child(
        &mut self,
        c: &Child,
        alpha: i32,
        beta: i32,
        reduction: u32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        pv.clear();
        let reduced = c.depth.saturating_sub(reduction);
        let v = -self.pvs(c.p, c.o, c.idx, -alpha - 1, -alpha, reduced, c.ply, pv);
        if v > alpha && !self.aborted {
            self.search_child(c, alpha, beta, false, pv)
        } else {
            v
        }
    }
}

/// Late move reductions, the selective search's second pruning beside Multi-ProbCut: the plies
/// by which the first search of a node's move is shallower. At a null-window node with
/// [`LATE_MIN_DEPTH`] plies or more to go, the moves searched after the first [`LATE_MOVES`] (in
/// the order of [`Tree::order_moves`], a move deferred as busy by another thread last) are
/// searched [`LATE_REDUCTION`] plies shallower first. Two plies keep the parity of the depth,
/// which the evaluation's odd/even swing would otherwise bias. Only at the selective levels: a
/// full-width search stays the plain search. The measured settings are in
/// docs/search.md (late move reductions): from 4 plies after 2 moves against from 6 after 3,
/// SPRT(0, 20) H1 at 100 ms a move, +28.0 +- 21.5 Elo.
pub(super) fn late_reduction(depth: u32, searched: usize, is_pv: bool, selective: bool) -> u32 {
    if selective && !is_pv && searched >= LATE_MOVES && depth >= LATE_MIN_DEPTH {
        LATE_REDUCTION
    } else {
        0
    }
}

// The reduced search keeps the parity of the depth and at least one ply.
const _: () = assert!(LATE_REDUCTION.is_multiple_of(2) && LATE_MIN_DEPTH > LATE_REDUCTION + 1);

/// Moves of a node searched at full depth before [`late_reduction`] applies.
const LATE_MOVES: usize = 2;
/// The fewest plies to go at which late moves are reduced (the reduced search keeps at least 1).
const LATE_MIN_DEPTH: u32 = 4;
/// Plies by which a late move's first search is shallower.
const LATE_REDUCTION: u32 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_moves_are_reduced_only_in_selective_null_window_searches() {
        let (moves, depth) = (LATE_MOVES, LATE_MIN_DEPTH);
        assert_eq!(late_reduction(depth, moves, false, true), LATE_REDUCTION);
        assert_eq!(late_reduction(20, 10, false, true), LATE_REDUCTION);
        // The first moves, principal variation nodes, shallow nodes and full width: no reduction.
        assert_eq!(late_reduction(depth, moves - 1, false, true), 0);
        assert_eq!(late_reduction(depth, moves, true, true), 0);
        assert_eq!(late_reduction(depth - 1, moves + 3, false, true), 0);
        assert_eq!(late_reduction(20, 10, false, false), 0);
    }
}
