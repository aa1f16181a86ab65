//! Which nodes some thread of a parallel midgame search is searching now (the "being searched"
//! marks of ABDADA): a node deep enough marks itself while its moves are searched, and a thread
//! that meets a marked child after its first move searches its other moves first and comes back
//! to the marked one last, by when the other thread's result is likely in the table. Threads then
//! spread over the siblings of a node instead of all searching its same child.
//!
//! Shared by all threads of one search without locks: a fixed array of keys, one slot per index
//! of a position's hash. Races cost only ordering, never correctness: a mark lost to a slot
//! collision or a race makes a thread search a busy child now (as without marks); a stale or
//! colliding mark makes it search a free child later (as with another ordering). Either way every
//! move is searched, with the same windows.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bits of a slot's index.
const SLOT_BITS: u32 = 12;
/// Slots.
const SLOTS: usize = 1 << SLOT_BITS;

/// The marks of one search.
pub(super) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// No node marked.
    pub fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The mark of the position `p`, `o` (side to move's discs, opponent's): its hash with the low
    /// bit set, so that no position's mark is 0, the empty slot.
    pub fn key(p: u64, o: u64) -> u64 {
        crate::board::hash(p, o) | 1
    }

    /// The slot of `key`: its top bits (the low bit is always set).
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> (64 - SLOT_BITS)) as usize]
    }

    /// Marks the node of `key` ([`Busy::key`]) as being searched.
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key`, unless another node's mark has replaced it.
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether the node of hash `key` is marked.
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_and_go() {
        let busy = Busy::new();
        let (a, b) = (0x1234_5678_9abc_def1, 0x1111_2222_3333_4444);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a) && !busy.is_busy(b));
        // A node in the same slot takes it over; the first one's leave does not clear it.
        let c = a ^ (1 << 20);
        busy.enter(c);
        busy.leave(a);
        assert!(busy.is_busy(c) && !busy.is_busy(a));
        busy.leave(c);
        assert!(!busy.is_busy(c));
    }
}
