//! Live figures of a running search (nodes, iteration, the root move being searched), written by the
//! search thread and read by another thread that reports them at a steady pace. The search pays one
//! relaxed store per stop-flag check and per root move; it never waits for the reader.
//!
//! All fields are independent relaxed atomics: a reader may see figures from slightly different
//! moments (a node count a few hundred nodes older than the move number), which is all a progress
//! line needs. Nothing here decides anything in the search.

use crate::board::square::NO_SQUARE;
use crate::board::{Move, Square};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// The shared figures.
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes of the midgame search, finished solves included.
    nodes: AtomicU64,
    /// Nodes of the solve in progress (0 when none).
    solving_nodes: AtomicU64,
    /// The iteration in progress (0: none yet).
    depth: AtomicU32,
    /// The root move being searched: its square in the low 8 bits ([`NO_SQUARE`]: none) and its number,
    /// counted from 1, above them.
    current: AtomicU32,
}

/// What a reader sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Nodes searched so far.
    pub nodes: u64,
    /// The iteration in progress (0: none yet).
    pub depth: u32,
    /// The root move being searched and its number in the iteration (from 1).
    pub current: Option<(Move, usize)>,
}

impl Progress {
    /// Starts a new search: everything back to zero.
    pub fn reset(&self) {
        self.nodes.store(0, Relaxed);
        self.solving_nodes.store(0, Relaxed);
        self.depth.store(0, Relaxed);
        self.current.store(u32::from(NO_SQUARE), Relaxed);
    }

    /// The midgame search's node count.
    #[inline]
    pub fn set_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Relaxed);
    }

    /// The node count of the solve in progress (0 once it is over and counted in `set_nodes`).
    #[inline]
    pub fn set_solving_nodes(&self, nodes: u64) {
        self.solving_nodes.store(nodes, Relaxed);
    }

    /// A solve starts: no iteration or root move is in progress (the node count stays).
    pub fn set_solving(&self) {
        self.depth.store(0, Relaxed);
        self.current.store(u32::from(NO_SQUARE), Relaxed);
    }

    /// The iteration and the root move (square index and number from 1) now being searched.
    pub fn set_current(&self, depth: u32, square: u8, number: usize) {
        self.depth.store(depth, Relaxed);
        let number = number.min(0xFF_FFFF) as u32;
        self.current.store(u32::from(square) | number << 8, Relaxed);
    }

    /// The figures now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let current = self.current.load(Relaxed);
        let square = Square::new((current & 0xFF) as u8);
        ProgressSnapshot {
            nodes: self.nodes.load(Relaxed) + self.solving_nodes.load(Relaxed),
            depth: self.depth.load(Relaxed),
            current: square.map(|sq| (Move::play(sq), (current >> 8) as usize)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_shows_what_was_written() {
        let p = Progress::default();
        p.reset();
        assert_eq!(p.snapshot().current, None);
        p.set_nodes(1000);
        p.set_solving_nodes(24);
        p.set_current(7, 37, 3);
        let s = p.snapshot();
        assert_eq!(s.nodes, 1024);
        assert_eq!(s.depth, 7);
        assert_eq!(s.current, Some((Move::play(Square::ALL[37]), 3)));
        p.reset();
        assert_eq!(p.snapshot().nodes, 0);
    }
}
