//! The endgame solver's transposition table, shared by every thread of a solve.
//!
//! The table is an array of 64-byte buckets, each one cache line holding four 16-byte slots, so a
//! probe costs one cache miss at most and a prefetch covers the whole bucket. A position's bucket
//! comes from one hash of its discs and its slot is recognised by a second, independent 64-bit
//! hash (the key, 63 bits: it is kept odd): a different position passes for it only if it shares
//! the bucket and the whole key, about once in 2^61 probes of a full bucket. That is far beyond any
//! solve: all of FFO #40-#59 is 1.7 * 2^33 nodes, and only those from 10 empties probe the table
//! (a few probes each).
//!
//! Threads read and write slots without locks ([`crate::search::slot`]): a slot torn by two writers reads
//! as a miss instead of as wrong bounds, and the single-threaded solver pays nothing for this. An
//! empty slot holds data 0, which is no stored entry (its bounds are both 0 and its empties 0, which
//! the solver never stores, as it stores only from `TT_MIN` empties).
//!
//! Against a layout of two 24-byte slots holding the whole board (in buckets that straddle two
//! cache lines every other time; 8 M slots in 256 MB where this one has 16 M), FFO #53 takes
//! 1.410 G nodes instead of 1.489 G and 8% less time; the smaller solves, whose trees fit either
//! table, are the same.

use crate::search::slot::Slot;

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Lower bound on the score.
    pub lower: i8,
    /// Upper bound on the score.
    pub upper: i8,
    /// Best move found (64: none).
    pub best: u8,
    /// Empty squares of the position (replacement keeps the deeper and costlier entries).
    pub empties: u8,
    /// The solve that stored it (entries of earlier solves are replaced first).
    pub generation: u8,
    /// How sure the bounds are: the probable-cut level of the search that found them (higher is
    /// surer; the solver's highest level means proven).
    pub selectivity: u8,
    /// The work the search of the position took: the bit length of its node count (replacement
    /// keeps the costlier entries).
    pub cost: u8,
}

impl Entry {
    fn pack(&self) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.empties as u64) << 24
            | (self.generation as u64) << 32
            | (self.selectivity as u64) << 40
            | (self.cost as u64) << 48
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            generation: (data >> 32) as u8,
            selectivity: (data >> 40) as u8,
            cost: (data >> 48) as u8,
        }
    }
}

/// Where a position lives in the table: its bucket and its key. Computed once per node and used
/// for the probe and the store (a prefetch needs only the bucket: [`EndTable::prefetch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    bucket: usize,
    key: u64,
}

/// How much an entry of the current solve is worth keeping: its empties plus its cost (the bit
/// length of its subtree's node count), so that of two entries at the same depth the one that took
/// more work stays, and a shallow entry that took much work (many passes, a hard position) can
/// outweigh a deeper one that was cut off at once. Against empties alone, with tables small enough
/// to fill: FFO #20-#39 in 2 MB 81.88 M -> 81.47 M nodes, #40-#47 in 8 MB 354.6 M -> 346.2 M, #50 in
/// 32 MB 624.3 M -> 613.8 M; #53 in 256 MB 1.4095 G -> 1.4016 G.
#[inline]
fn keep_rank(e: &Entry) -> u32 {
    u32::from(e.empties) + u32::from(e.cost)
}

/// Slots per bucket.
const WAYS: usize = 4;

/// Four slots on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; WAYS],
}

/// The table: a power of two of four-slot buckets.
pub struct EndTable {
    buckets: Box<[Bucket]>,
    /// log2 of the number of buckets.
    bits: u32,
}

impl EndTable {
    /// A table of about `mb` megabytes (the largest power of two of buckets that fits, at least
    /// 256 buckets). For tests: panics if the memory is not there; the engine's tables go through
    /// [`EndTable::try_new`].
    #[cfg(test)]
    fn new(mb: usize) -> EndTable {
        EndTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes, or an error if the memory is not there.
    pub fn try_new(mb: usize) -> Result<EndTable, crate::search::TableAllocError> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket>()).max(256);
        // The largest power of two not above `count`.
        let bits = usize::BITS - 1 - count.leading_zeros();
        let table = EndTable {
            buckets: crate::search::huge_page_vec(1usize << bits, Bucket::default)?
                .into_boxed_slice(),
            bits,
        };
        // The allocation is zeroed lazily by the kernel, page by page on first touch: touch every
        // page now, so that the cost is paid here and not in the middle of the first solves.
        table.clear();
        Ok(table)
    }

    /// Forgets every position.
    pub fn clear(&self) {
        self.clear_with(1);
    }

    /// [`EndTable::clear`] with `threads` threads clearing parts of the table at once.
    pub fn clear_with(&self, threads: usize) {
        crate::game::table::clear_in_parts(&self.buckets, threads, |b| {
            b.slots.iter().for_each(Slot::clear)
        });
    }

    /// The bucket and key of a position. The bucket number is the top bits of a sum of two
    /// products (each input bit moves the top bits); the key is [`crate::board::hash`], a
    /// different function, so sharing a bucket says nothing about sharing a key (kept odd: 63 bits).
    #[inline]
    pub fn place(&self, p: u64, o: u64) -> Place {
        Place {
            bucket: self.bucket(p, o),
            // Never 0: an empty slot decodes to key 0, and must match no position.
            key: crate::board::hash(p, o) | 1,
        }
    }

    /// The bucket number alone (the cheap half of [`EndTable::place`]).
    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        let spread = p
            .wrapping_mul(0xA24B_AED4_963E_E407)
            .wrapping_add(o.wrapping_mul(0x9FB2_1C65_1E98_DF25));
        // `bits` is at least 8, so the shift is at most 56.
        (spread >> (64 - self.bits)) as usize
    }

    /// Starts loading the bucket of a position that is about to be probed (a cache hint only). It
    /// needs only the bucket number, not the key (the costlier hash): a caller that probes several
    /// positions requests every bucket first and computes the keys while the lines arrive.
    #[inline]
    pub fn prefetch(&self, p: u64, o: u64) {
        crate::search::prefetch(&self.buckets[self.bucket(p, o)]);
    }

    /// The entry for the position, if its bucket holds it.
    #[inline]
    pub fn probe(&self, place: Place) -> Option<Entry> {
        let bucket = &self.buckets[place.bucket];
        bucket.slots.iter().find_map(|s| {
            let (key, data) = s.load();
            (key == place.key).then(|| Entry::unpack(data))
        })
    }

    /// Stores bounds for the position in its bucket: over its own entry (bounds merged when they
    /// are equally sure, replaced when the new ones are surer, kept when they are less sure), else
    /// over the slot whose entry matters least: one of an earlier solve (or an empty slot), else
    /// the one with the lowest [`keep_rank`] (empties plus cost). Each bucket so keeps its three
    /// most valuable entries of the solve and cycles the fourth slot.
    #[inline]
    pub fn store(&self, place: Place, entry: Entry) {
        let bucket = &self.buckets[place.bucket];
        let old = [0, 1, 2, 3].map(|k| bucket.slots[k].load());
        let (slot, lower, upper) = match old.iter().position(|&(key, _)| key == place.key) {
            Some(k) => {
                let e = Entry::unpack(old[k].1);
                if e.selectivity > entry.selectivity {
                    return;
                }
                if e.selectivity < entry.selectivity {
                    (k, entry.lower, entry.upper)
                } else {
                    (k, entry.lower.max(e.lower), entry.upper.min(e.upper))
                }
            }
            None => {
                // The slot with the smallest (current solve?, empties + cost), the first on ties.
                let rank = |data: u64| {
                    let e = Entry::unpack(data);
                    (u32::from(e.generation == entry.generation) << 16) | keep_rank(&e)
                };
                let k = (1..WAYS).fold(0, |k, j| {
                    if rank(old[j].1) < rank(old[k].1) {
                        j
                    } else {
                        k
                    }
                });
                (k, entry.lower, entry.upper)
            }
        };
        let entry = Entry {
            lower,
            upper: upper.max(lower),
            ..entry
        };
        bucket.slots[slot].store(place.key, entry.pack());
    }

    /// Per mille of the first (up to) 1000 slots holding an entry of solve `generation`.
    pub fn hashfull(&self, generation: u8) -> u32 {
        let sample = self.buckets.iter().flat_map(|b| b.slots.iter()).take(1000);
        let (mut used, mut seen) = (0, 0);
        for s in sample {
            let (_, data) = s.load();
            seen += 1;
            if data != 0 && Entry::unpack(data).generation == generation {
                used += 1;
            }
        }
        used * 1000 / seen.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solver's level for proven bounds (the table itself only compares levels).
    const PROVEN: u8 = 5;

    fn entry(lower: i8, upper: i8, empties: u8, generation: u8) -> Entry {
        Entry {
            lower,
            upper,
            best: 19,
            empties,
            generation,
            selectivity: PROVEN,
            cost: 0,
        }
    }

    const P: u64 = 0x0000_0008_1000_0000;
    const O: u64 = 0x0000_0010_0800_0000;

    #[test]
    fn entries_round_trip_with_negative_bounds() {
        let t = EndTable::new(1);
        let at = t.place(P, O);
        assert_eq!(t.probe(at), None);
        let e = entry(-64, -12, 20, 3);
        t.store(at, e);
        assert_eq!(t.probe(at), Some(e));
        assert_eq!(t.probe(t.place(O, P)), None);
    }

    #[test]
    fn storing_again_merges_the_bounds() {
        let t = EndTable::new(1);
        let at = t.place(P, O);
        t.store(at, entry(-4, 64, 12, 1));
        t.store(at, entry(-64, 10, 12, 1));
        let e = t.probe(at).expect("stored");
        assert_eq!((e.lower, e.upper), (-4, 10));
    }

    #[test]
    fn surer_bounds_replace_less_sure_ones_and_are_not_replaced_by_them() {
        let t = EndTable::new(1);
        let place = t.place(P, O);
        let at = |lower, upper, selectivity| Entry {
            selectivity,
            ..entry(lower, upper, 20, 1)
        };
        t.store(place, at(10, 64, 0));
        t.store(place, at(-64, 20, 0));
        let e = t.probe(place).expect("stored");
        assert_eq!((e.lower, e.upper, e.selectivity), (10, 20, 0), "merged");
        // Proven bounds replace probable ones instead of merging with them.
        t.store(place, at(-64, 4, PROVEN));
        let e = t.probe(place).expect("stored");
        assert_eq!((e.lower, e.upper, e.selectivity), (-64, 4, PROVEN));
        // Probable bounds leave proven ones alone.
        t.store(place, at(30, 30, 2));
        let e = t.probe(place).expect("stored");
        assert_eq!((e.lower, e.upper, e.selectivity), (-64, 4, PROVEN));
    }

    /// The places of `count` distinct positions in bucket `bucket`, found by trying pseudo-random
    /// ones.
    fn in_bucket(t: &EndTable, bucket: usize, count: usize) -> Vec<Place> {
        let mut found: Vec<(u64, u64)> = Vec::new();
        let mut x = 1u64;
        while found.len() < count {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let p = x & 0x00FF_FF00_0000_0000;
            let o = (x >> 8) & 0x0000_0000_FFFF_FFFF;
            if p & o == 0 && t.place(p, o).bucket == bucket && !found.contains(&(p, o)) {
                found.push((p, o));
            }
        }
        found.iter().map(|&(p, o)| t.place(p, o)).collect()
    }

    #[test]
    fn a_full_bucket_keeps_the_deeper_entries_of_the_current_solve() {
        let t = EndTable::new(1);
        let at = in_bucket(&t, t.place(P, O).bucket, 6);
        for (k, empties) in [20, 10, 12, 15, 11].into_iter().enumerate() {
            t.store(at[k], entry(0, 0, empties, 5));
        }
        let held = |k: usize| t.probe(at[k]).is_some();
        assert!(
            held(0) && held(2) && held(3),
            "the three deepest entries stay"
        );
        assert!(held(4), "the newest entry takes the shallowest one's slot");
        assert!(!held(1), "the shallowest one is replaced");
        // A later solve replaces entries of earlier ones first, however deep.
        for k in [1, 5, 2, 3] {
            t.store(at[k], entry(0, 0, 9, 6));
        }
        assert!(
            !held(0),
            "an earlier solve's entry, however deep, goes first"
        );
    }

    #[test]
    fn a_full_bucket_weighs_the_work_behind_each_entry() {
        let t = EndTable::new(1);
        let at = in_bucket(&t, t.place(P, O).bucket, 6);
        let costing = |empties, cost| Entry {
            cost,
            ..entry(0, 0, empties, 5)
        };
        // Same depth: the cheapest goes. Then a deep entry that took little work (20 + 2) goes
        // before a shallower one that took much (12 + 14).
        for (k, (empties, cost)) in [(14, 9), (14, 3), (14, 12), (12, 14)]
            .into_iter()
            .enumerate()
        {
            t.store(at[k], costing(empties, cost));
        }
        t.store(at[4], costing(14, 8));
        let held = |k: usize| t.probe(at[k]).is_some();
        assert!(!held(1), "the cheapest entry of the same depth is replaced");
        assert!(held(0) && held(2) && held(3) && held(4));
        // 20 + 2 takes the slot of 14 + 8 (the lowest rank, 22, then): the bucket holds ranks
        // 23, 22, 26, 26.
        t.store(at[1], costing(20, 2));
        assert!(held(1) && !held(4));
        t.store(at[5], costing(14, 1));
        assert!(held(3), "the shallow but costly entry stays");
        assert!(!held(1), "the deep but cheap entry goes first");
        assert_eq!(t.probe(at[5]).map(|e| e.cost), Some(1), "the cost is kept");
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let t = EndTable::new(1);
        let at = t.place(P, O);
        t.store(at, entry(2, 2, 20, 1));
        // Another writer's data word lands without its key word: no longer readable as (P, O).
        let bucket = &t.buckets[at.bucket];
        let k = bucket
            .slots
            .iter()
            .position(|s| s.load().0 == at.key)
            .expect("stored");
        bucket.slots[k].store_data_only(entry(-30, 40, 11, 2).pack());
        assert_eq!(t.probe(at), None);
    }

    #[test]
    fn an_empty_table_matches_no_position() {
        let t = EndTable::new(1);
        // Keys are odd and empty slots decode to key 0: no position matches them.
        for (p, o) in [(P, O), (0, 0), (u64::MAX, 0), (0x8100_0000_0000_0081, 0)] {
            let at = t.place(p, o);
            assert_eq!(at.key & 1, 1, "the key of {p:x}/{o:x} is odd");
            assert_eq!(
                t.buckets[at.bucket].slots[0].load(),
                (0, 0),
                "an empty slot reads as key 0"
            );
            assert_eq!(t.probe(at), None);
        }
        assert_eq!(t.hashfull(0), 0);
    }

    #[test]
    fn hashfull_counts_the_slots_of_the_current_solve() {
        let t = EndTable::new(1);
        // The first bucket is among the sampled ones.
        let at = in_bucket(&t, 0, 3);
        assert_eq!(t.hashfull(3), 0);
        for place in &at {
            t.store(*place, entry(0, 0, 12, 3));
        }
        // Three of the 1000 sampled slots.
        assert_eq!(t.hashfull(3), 3);
        assert_eq!(t.hashfull(4), 0);
    }
}
