//! One slot of a transposition table that threads share without locks: a key and a data word,
//! stored as two relaxed atomic words, the key exclusive-or'ed with the scrambled data, and the
//! data. Both tables (the midgame search's, [`super::midgame`]'s `table`, and the solver's, [`super::endgame`]'s `shared_table`)
//! are arrays of these.
//!
//! Racy on purpose: two threads may write one slot at once, or one read it while another writes.
//! A slot whose two words come from different writes decodes to a key in pseudo-random bits
//! (the data words differ, and scrambling spreads the difference over the whole word), which no
//! position has short of a 2^-64 coincidence: it reads as a miss, never as one position's data
//! under another's key. On x86-64 and AArch64 relaxed atomic loads and stores are plain moves: a
//! single thread pays nothing for this.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A key and a data word. All zeros is an empty slot; it decodes to key 0, so tables keep their
/// keys odd.
#[derive(Default)]
pub(super) struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The data word spread over all 64 bits (a bijection: an odd multiplier), so that mixing the words
/// of two writes changes the decoded key in pseudo-random bits.
#[inline]
fn scramble(data: u64) -> u64 {
    data.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Slot {
    /// The slot's key and data word.
    #[inline]
    pub fn load(&self) -> (u64, u64) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ scramble(data), data)
    }

    /// Writes a key and its data word.
    #[inline]
    pub fn store(&self, key: u64, data: u64) {
        self.check.store(key ^ scramble(data), Relaxed);
        self.data.store(data, Relaxed);
    }

    /// Empties the slot.
    #[inline]
    pub fn clear(&self) {
        self.check.store(0, Relaxed);
        self.data.store(0, Relaxed);
    }

    /// Writes the data word alone: what a reader sees while another thread's write is half done
    /// (for the tests of the tables).
    #[cfg(test)]
    pub fn store_data_only(&self, data: u64) {
        self.data.store(data, Relaxed);
    }
}
