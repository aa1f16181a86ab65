//! The endgame solver's transposition table, shared by every thread of a solve.
//!
//! Each slot holds a full board (so a hit is never a different position) and a packed word of
//! bounds, best move, empties and solve generation. Threads read and write slots without locks: a
//! slot is three relaxed atomic words, and the two board words are stored exclusive-or'ed with a
//! scrambled copy of the data word. A slot torn by two threads writing at once then decodes to a board that is (short of
//! a 2^-64 coincidence) no position anyone probes, so it reads as a miss instead of as wrong bounds.
//! On x86-64 relaxed atomic loads and stores are plain moves: the single-threaded solver pays
//! nothing for this.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// Lower bound on the score.
    pub lower: i8,
    /// Upper bound on the score.
    pub upper: i8,
    /// Best move found (64: none).
    pub best: u8,
    /// Empty squares of the position (replacement keeps the deeper entry).
    pub empties: u8,
    /// The solve that stored it (entries of earlier solves are replaced first).
    pub generation: u8,
    /// How sure the bounds are: the probable-cut level of the search that found them (higher is
    /// surer; the solver's highest level means proven).
    pub selectivity: u8,
}

impl Entry {
    fn pack(&self) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | (self.generation as u64) << 32
            | (self.selectivity as u64) << 40
    }

    fn unpack(player: u64, opponent: u64, data: u64) -> Entry {
        Entry {
            player,
            opponent,
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            generation: (data >> 32) as u8,
            selectivity: (data >> 40) as u8,
        }
    }
}

/// One slot: the board words exclusive-or'ed with the scrambled data word, and the data word.
#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

/// The data word spread over all 64 bits (a bijection: an odd multiplier), so that mixing the words
/// of two writes changes the decoded boards in pseudo-random bits, not just in the few squares whose
/// bits the two data words differ in (which could decode to a real position with some colours
/// swapped).
#[inline]
fn scramble(data: u64) -> u64 {
    data.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Relaxed);
        let key = scramble(data);
        Entry::unpack(
            self.player.load(Relaxed) ^ key,
            self.opponent.load(Relaxed) ^ key,
            data,
        )
    }

    #[inline]
    fn store(&self, e: &Entry) {
        let data = e.pack();
        let key = scramble(data);
        self.player.store(e.player ^ key, Relaxed);
        self.opponent.store(e.opponent ^ key, Relaxed);
        self.data.store(data, Relaxed);
    }
}

/// The table: a power of two of slots in buckets of two.
pub struct EndTable {
    slots: Box<[Slot]>,
    mask: usize,
}

impl EndTable {
    /// A table of about `mb` megabytes (at least 1024 slots).
    pub fn new(mb: usize) -> EndTable {
        let entries = (mb.max(1) << 20) / std::mem::size_of::<Slot>();
        let size = (entries.next_power_of_two() >> 1).max(1024);
        let table = EndTable {
            slots: (0..size).map(|_| Slot::default()).collect(),
            mask: size - 1,
        };
        // The allocation is zeroed lazily by the kernel, page by page on first touch: touch every
        // page now, so that the cost is paid here and not in the middle of the first solves.
        table.clear();
        table
    }

    /// Forgets every position.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.store(&Entry::default());
        }
    }

    /// The first slot of the position's two-slot bucket.
    #[inline]
    pub fn bucket(&self, p: u64, o: u64) -> usize {
        (crate::board::hash(p, o) as usize) & self.mask & !1
    }

    /// Starts loading a bucket that is about to be probed (a cache hint only).
    #[inline]
    pub fn prefetch(&self, bucket: usize) {
        super::prefetch(&self.slots[bucket & self.mask]);
    }

    /// The entry for the position, if its bucket holds it.
    #[inline]
    pub fn probe(&self, bucket: usize, p: u64, o: u64) -> Option<Entry> {
        self.slots[bucket..bucket + 2]
            .iter()
            .map(Slot::load)
            .find(|e| e.player == p && e.opponent == o)
    }

    /// Stores bounds for the position in its bucket: over its own entry (bounds merged when they
    /// are equally sure, replaced when the new ones are surer, kept when they are less sure), else
    /// over the slot holding an entry of an earlier solve, else over the one with fewer empties, so
    /// each bucket keeps its deepest entry and cycles the other slot.
    #[inline]
    pub fn store(&self, bucket: usize, entry: Entry) {
        let pair = &self.slots[bucket..bucket + 2];
        let old = [pair[0].load(), pair[1].load()];
        let same = |e: &Entry| e.player == entry.player && e.opponent == entry.opponent;
        let (k, lower, upper) = if same(&old[0]) || same(&old[1]) {
            let k = usize::from(!same(&old[0]));
            let e = &old[k];
            if e.selectivity > entry.selectivity {
                return;
            }
            if e.selectivity < entry.selectivity {
                (k, entry.lower, entry.upper)
            } else {
                (k, entry.lower.max(e.lower), entry.upper.min(e.upper))
            }
        } else {
            let keep = |e: &Entry| (e.generation == entry.generation, e.empties);
            (
                usize::from(keep(&old[1]) < keep(&old[0])),
                entry.lower,
                entry.upper,
            )
        };
        pair[k].store(&Entry {
            lower,
            upper: upper.max(lower),
            ..entry
        });
    }

    /// Per mille of the first (up to) 1000 slots holding an entry of solve `generation`.
    pub fn hashfull(&self, generation: u8) -> u32 {
        let sample = &self.slots[..self.slots.len().min(1000)];
        let used = sample
            .iter()
            .map(Slot::load)
            .filter(|e| e.player | e.opponent != 0 && e.generation == generation)
            .count();
        (used * 1000 / sample.len()) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solver's level for proven bounds (the table itself only compares levels).
    const PROVEN: u8 = 5;

    fn entry(p: u64, o: u64, lower: i8, upper: i8, empties: u8, generation: u8) -> Entry {
        Entry {
            player: p,
            opponent: o,
            lower,
            upper,
            best: 19,
            empties,
            generation,
            selectivity: PROVEN,
        }
    }

    #[test]
    fn entries_round_trip_with_negative_bounds() {
        let t = EndTable::new(1);
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let b = t.bucket(p, o);
        assert_eq!(t.probe(b, p, o), None);
        let e = entry(p, o, -64, -12, 20, 3);
        t.store(b, e);
        assert_eq!(t.probe(b, p, o), Some(e));
        assert_eq!(t.probe(b, o, p), None);
    }

    #[test]
    fn storing_again_merges_the_bounds() {
        let t = EndTable::new(1);
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let b = t.bucket(p, o);
        t.store(b, entry(p, o, -4, 64, 12, 1));
        t.store(b, entry(p, o, -64, 10, 12, 1));
        let e = t.probe(b, p, o).expect("stored");
        assert_eq!((e.lower, e.upper), (-4, 10));
    }

    #[test]
    fn surer_bounds_replace_less_sure_ones_and_are_not_replaced_by_them() {
        let t = EndTable::new(1);
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let b = t.bucket(p, o);
        let at = |lower, upper, selectivity| Entry {
            selectivity,
            ..entry(p, o, lower, upper, 20, 1)
        };
        t.store(b, at(10, 64, 0));
        t.store(b, at(-64, 20, 0));
        let e = t.probe(b, p, o).expect("stored");
        assert_eq!((e.lower, e.upper, e.selectivity), (10, 20, 0), "merged");
        // Proven bounds replace probable ones instead of merging with them.
        t.store(b, at(-64, 4, PROVEN));
        let e = t.probe(b, p, o).expect("stored");
        assert_eq!((e.lower, e.upper, e.selectivity), (-64, 4, PROVEN));
        // Probable bounds leave proven ones alone.
        t.store(b, at(30, 30, 2));
        let e = t.probe(b, p, o).expect("stored");
        assert_eq!((e.lower, e.upper, e.selectivity), (-64, 4, PROVEN));
    }

    #[test]
    fn a_full_bucket_keeps_the_deeper_entry_of_the_current_solve() {
        let t = EndTable::new(1);
        // Three positions that share a bucket, found by trying pseudo-random ones.
        let base = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let b = t.bucket(base.0, base.1);
        let mut same_bucket = vec![base];
        let mut x = 1u64;
        while same_bucket.len() < 3 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let p = x & 0x00FF_FF00_0000_0000;
            let o = (x >> 8) & 0x0000_0000_FFFF_0000;
            if p & o == 0 && t.bucket(p, o) == b && !same_bucket.contains(&(p, o)) {
                same_bucket.push((p, o));
            }
        }
        let [(p0, o0), (p1, o1), (p2, o2)] = [same_bucket[0], same_bucket[1], same_bucket[2]];
        t.store(b, entry(p0, o0, 0, 0, 20, 5));
        t.store(b, entry(p1, o1, 0, 0, 10, 5));
        t.store(b, entry(p2, o2, 0, 0, 12, 5));
        assert!(t.probe(b, p0, o0).is_some(), "the deepest entry stays");
        assert!(
            t.probe(b, p1, o1).is_none(),
            "the shallower one is replaced"
        );
        assert!(t.probe(b, p2, o2).is_some());
        // A later solve replaces entries of earlier ones first, however deep.
        t.store(b, entry(p1, o1, 0, 0, 9, 6));
        t.store(b, entry(p2, o2, 0, 0, 9, 6));
        assert!(t.probe(b, p0, o0).is_none());
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let t = EndTable::new(1);
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let b = t.bucket(p, o);
        t.store(b, entry(p, o, 2, 2, 20, 1));
        // Another writer's data word lands without its board words: no longer readable as (p, o).
        let slot = &t.slots[b];
        let other = entry(p, o, -30, 40, 11, 2).pack();
        slot.data.store(other, Relaxed);
        assert_eq!(t.probe(b, p, o), None);
    }
}
