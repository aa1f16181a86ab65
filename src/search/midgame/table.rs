//! The midgame transposition table: a fixed-size array of 4-entry buckets (one cache line each)
//! indexed by the position hash, shared by every thread of a search.
//!
//! Each entry keeps the full 64-bit hash (so a false hit needs a 64-bit collision), lower and upper
//! bounds on the score, the depth they were searched to, the best move and the search generation.
//! Replacement within a bucket: the same position is updated in place; otherwise the entry from an
//! older search goes first, then the shallowest. Deep results from the current search survive
//! (they are the expensive ones), while stale entries never block the table.
//!
//! Shared between threads, racy on purpose: slots are read and written without locks
//! ([`crate::search::slot`]), so a probe sees a whole entry of its own position or nothing. What races can
//! do is lose a store (two threads replacing the same slot) or combine bounds from a store that
//! another thread just overwrote; both only cost work, as a full table does. One thread searches
//! exactly as it would with a plain table.

use crate::board::hash;
use crate::board::square::NO_SQUARE;
use crate::search::slot::Slot;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// One stored position.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's full hash (0 = empty slot).
    pub key: u64,
    /// Lower bound on the score (centidiscs).
    pub lower: i16,
    /// Upper bound on the score (centidiscs).
    pub upper: i16,
    /// Depth searched.
    pub depth: u8,
    /// Best move's square index, or [`NO_SQUARE`] for none.
    pub best: u8,
    /// Search generation that wrote it.
    pub generation: u8,
    /// Multi-ProbCut level of the search that found the bounds (higher: surer; `FULL_WIDTH`
    /// for a full-width search).
    pub selectivity: u8,
}

impl Entry {
    /// Everything but the key, in one word.
    #[inline]
    fn pack(&self) -> u64 {
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.depth as u64) << 32
            | (self.best as u64) << 40
            | (self.generation as u64) << 48
            | (self.selectivity as u64) << 56
    }

    #[inline]
    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            best: (data >> 40) as u8,
            generation: (data >> 48) as u8,
            selectivity: (data >> 56) as u8,
        }
    }
}

/// The entry a slot holds (key 0: empty; a torn slot decodes to a key no position has).
#[inline]
fn load(slot: &Slot) -> Entry {
    let (key, data) = slot.load();
    Entry::unpack(key, data)
}

/// Entries in a bucket. Four 16-byte slots fill one 64-byte cache line, so a probe of all four costs
/// one memory access; more ways keep the deep entries of a long search alive where two would
/// evict them (measured in docs/benchmarks.md).
const WAYS: usize = 4;

/// One cache line of entries, aligned so that a bucket never straddles two lines.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

/// The table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two buckets, at least 1,024).
    /// For tests: panics if the memory is not there; the engine's tables go through
    /// [`TranspositionTable::try_new`].
    #[cfg(test)]
    fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes, or an error if the memory is not there.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, crate::search::TableAllocError> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<Bucket>()).max(1024);
        let size = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() >> 1
        };
        Ok(TranspositionTable {
            buckets: crate::search::huge_page_vec(size, Bucket::default)?,
            mask: size - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets everything. Only between searches: a search running meanwhile would see a part of
    /// the table cleared (harmless, but a waste).
    /// `threads` threads clear parts of the table at once.
    pub fn clear(&self, threads: usize) {
        crate::game::table::clear_in_parts(&self.buckets, threads, |b| {
            b.0.iter().for_each(Slot::clear)
        });
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: entries written before it become the first to be replaced. Called
    /// before the search's threads start.
    pub fn new_search(&self) {
        self.generation
            .store(self.generation.load(Relaxed).wrapping_add(1), Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key >> 1) as usize & self.mask]
    }

    /// Starts loading the bucket of (`player`, `opponent`) into the cache, so that a probe a little
    /// later does not wait for memory (a hint: it changes nothing else).
    #[inline]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        let key = hash(player, opponent) | 1;
        crate::search::prefetch(self.bucket(key));
    }

    /// The entry for (`player`, `opponent`), if stored.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let key = hash(player, opponent) | 1;
        self.bucket(key).0.iter().map(load).find(|e| e.key == key)
    }

    /// Stores a search result: the score `score` found with window `alpha..beta` at `depth` and
    /// Multi-ProbCut level `selectivity`, and the best move (`None` for none). A result of the same
    /// depth and level narrows the stored bounds. Otherwise results are ranked by depth, then
    /// level: an entry of the current search that ranks higher keeps its bounds (a deeper but less
    /// sure one included); any other is replaced.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        player: u64,
        opponent: u64,
        depth: u32,
        selectivity: u8,
        alpha: i32,
        beta: i32,
        score: i32,
        best: Option<u8>,
    ) {
        let key = hash(player, opponent) | 1;
        let generation = self.generation.load(Relaxed);
        let bucket = &self.bucket(key).0;
        let entries: [Entry; WAYS] = std::array::from_fn(|i| load(&bucket[i]));
        let score = score.clamp(-32000, 32000) as i16;
        let (lower, upper) = if i32::from(score) >= beta {
            (score, i16::MAX)
        } else if i32::from(score) <= alpha {
            (i16::MIN, score)
        } else {
            (score, score)
        };
        let depth = depth.min(255) as u8;
        let slot = if let Some(i) = entries.iter().position(|e| e.key == key) {
            let mut e = entries[i];
            if (e.depth, e.selectivity) == (depth, selectivity) {
                // Same depth and level: the bounds combine.
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper).max(e.lower);
                e.generation = generation;
                if let Some(b) = best {
                    e.best = b;
                }
                bucket[i].store(e.key, e.pack());
                return;
            }
            if (e.depth, e.selectivity) > (depth, selectivity) && e.generation == generation {
                // A deeper or surer result from this search is worth more; only refresh the move
                // if none.
                if e.best == NO_SQUARE && best.is_some() {
                    e.best = best.unwrap_or(NO_SQUARE);
                    bucket[i].store(e.key, e.pack());
                }
                return;
            }
            i
        } else {
            // The first of the least valuable: an older search's, then the shallowest.
            let age = |e: &Entry| (e.generation == generation, e.depth);
            (1..WAYS).fold(0, |worst, i| {
                if age(&entries[i]) < age(&entries[worst]) {
                    i
                } else {
                    worst
                }
            })
        };
        let entry = Entry {
            key,
            lower,
            upper,
            depth,
            best: best.unwrap_or(NO_SQUARE),
            generation,
            selectivity,
        };
        bucket[slot].store(key, entry.pack());
    }

    /// Per mille of sampled slots written by the current search (the UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let sample = self.buckets.len().min(500);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .map(load)
                    .filter(|e| e.key != 0 && e.generation == generation)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * WAYS)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_bounds() {
        let tt = TranspositionTable::new(1);
        tt.store(1, 2, 5, 5, -10, 10, 3, Some(7));
        let e = tt.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.upper, e.depth, e.best), (3, 3, 5, 7));
        tt.store(1, 2, 5, 5, -10, 10, 20, None);
        let e = tt.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.best), (20, 7));
        assert!(tt.probe(2, 1).is_none());
        tt.clear(1);
        assert!(tt.probe(1, 2).is_none());
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for i in 0..100_000u64 {
            tt.store(i, i << 32, 1, 5, 0, 1, 0, None);
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    /// A bucket holds its current search's three deepest entries while shallow ones pass through
    /// its last slot: a long search keeps more of its expensive results than two ways could.
    #[test]
    fn deep_entries_survive_shallow_traffic_in_their_bucket() {
        let tt = TranspositionTable::new(1);
        let bucket_of = |p: u64, o: u64| tt.bucket(hash(p, o) | 1) as *const Bucket;
        let target = bucket_of(1, 2);
        let sharing: Vec<(u64, u64)> = (0..u64::MAX)
            .map(|i| (i | 1 << 40, i << 20 | 1 << 63))
            .filter(|&(p, o)| bucket_of(p, o) == target)
            .take(3 + 50)
            .collect();
        let (deep, shallow) = sharing.split_at(3);
        for (n, &(p, o)) in deep.iter().enumerate() {
            tt.store(p, o, 20, 5, -30000, 30000, n as i32 * 100, Some(n as u8));
        }
        for &(p, o) in shallow {
            tt.store(p, o, 1, 5, -30000, 30000, 7, None);
        }
        for (n, &(p, o)) in deep.iter().enumerate() {
            let e = tt
                .probe(p, o)
                .expect("a deep entry was evicted by a shallow one");
            assert_eq!((e.depth, e.lower, e.best), (20, n as i16 * 100, n as u8));
        }
        // The last shallow entry is there too; the earlier ones made way for it.
        let &(p, o) = shallow.last().unwrap();
        assert_eq!(tt.probe(p, o).map(|e| e.depth), Some(1));
        assert!(tt.probe(shallow[0].0, shallow[0].1).is_none());
    }

    /// Threads storing and probing the same small table at once: a probe returns a whole entry
    /// of the position asked for or nothing, never bounds that another position stored.
    #[test]
    fn concurrent_stores_never_give_another_positions_entry() {
        let tt = TranspositionTable::new(1);
        // Distinct positions' values are tied to their discs, so a mixed entry shows.
        let value = |i: u64| ((i * 37) % 4000) as i32 - 2000;
        let depth = |i: u64| (i % 40 + 1) as u32;
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    let mut found = 0;
                    for round in 0..20_000u64 {
                        // Far more positions than slots: constant replacement in every bucket.
                        let i = (round * 7919 + t * 104_729) % 50_000;
                        let (p, o) = (i | 1 << 40, i << 20 | 1 << 63);
                        tt.store(
                            p,
                            o,
                            depth(i),
                            3,
                            -30000,
                            30000,
                            value(i),
                            Some((i % 60) as u8),
                        );
                        let j = (round * 31 + t) % 50_000;
                        if let Some(e) = tt.probe(j | 1 << 40, j << 20 | 1 << 63) {
                            found += 1;
                            assert_eq!((e.lower, e.upper), (value(j) as i16, value(j) as i16));
                            assert_eq!((e.depth, e.best), (depth(j) as u8, (j % 60) as u8));
                        }
                    }
                    assert!(found > 0);
                });
            }
        });
    }
}
