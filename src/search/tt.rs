//! The midgame transposition table: a fixed-size array of 2-entry buckets indexed by the position hash.
//!
//! Each entry keeps the full 64-bit hash (so a false hit needs a 64-bit collision), lower and upper
//! bounds on the score, the depth they were searched to, the best move and the search generation.
//! Replacement within a bucket: the same position is updated in place; otherwise the entry from an
//! older search goes first, then the shallower one. Deep results from the current search survive
//! (they are the expensive ones), while stale entries never block the table.

use crate::board::hash;
use crate::board::square::NO_SQUARE;

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

/// Two entries, aligned so that a bucket never straddles two cache lines.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct Bucket([Entry; 2]);

/// The table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two buckets, at least 1,024).
    /// Panics if the memory is not there: sizes that come from outside go through
    /// [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes, or an error if the memory is not there.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, super::TableAllocError> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<Bucket>()).max(1024);
        let size = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() >> 1
        };
        Ok(TranspositionTable {
            buckets: super::huge_page_vec(size, Bucket::default)?,
            mask: size - 1,
            generation: 0,
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search: entries written before it become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Starts loading the bucket of (`player`, `opponent`) into the cache, so that a probe a little
    /// later does not wait for memory (a hint: it changes nothing else).
    #[inline]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        let key = hash(player, opponent) | 1;
        super::prefetch(&self.buckets[(key >> 1) as usize & self.mask]);
    }

    /// The entry for (`player`, `opponent`), if stored.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let key = hash(player, opponent) | 1;
        let bucket = &self.buckets[(key >> 1) as usize & self.mask].0;
        bucket.iter().find(|e| e.key == key).copied()
    }

    /// Stores a search result: the score `score` found with window `alpha..beta` at `depth` and
    /// Multi-ProbCut level `selectivity`, and the best move (`None` for none). A result of the same
    /// depth and level narrows the stored bounds. Otherwise results are ranked by depth, then
    /// level: an entry of the current search that ranks higher keeps its bounds (a deeper but less
    /// sure one included); any other is replaced.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
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
        let generation = self.generation;
        let bucket = &mut self.buckets[(key >> 1) as usize & self.mask].0;
        let score = score.clamp(-32000, 32000) as i16;
        let (lower, upper) = if i32::from(score) >= beta {
            (score, i16::MAX)
        } else if i32::from(score) <= alpha {
            (i16::MIN, score)
        } else {
            (score, score)
        };
        let depth = depth.min(255) as u8;
        let slot = if let Some(i) = bucket.iter().position(|e| e.key == key) {
            let e = &mut bucket[i];
            if (e.depth, e.selectivity) == (depth, selectivity) {
                // Same depth and level: the bounds combine.
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper).max(e.lower);
                e.generation = generation;
                if let Some(b) = best {
                    e.best = b;
                }
                return;
            }
            if (e.depth, e.selectivity) > (depth, selectivity) && e.generation == generation {
                // A deeper or surer result from this search is worth more; only refresh the move
                // if none.
                if e.best == NO_SQUARE {
                    e.best = best.unwrap_or(NO_SQUARE);
                }
                return;
            }
            i
        } else {
            let age = |e: &Entry| (e.generation == generation, e.depth);
            if age(&bucket[0]) <= age(&bucket[1]) {
                0
            } else {
                1
            }
        };
        bucket[slot] = Entry {
            key,
            lower,
            upper,
            depth,
            best: best.unwrap_or(NO_SQUARE),
            generation,
            selectivity,
        };
    }

    /// Per mille of sampled slots written by the current search (the UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .filter(|e| e.key != 0 && e.generation == self.generation)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * 2)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_bounds() {
        let mut tt = TranspositionTable::new(1);
        tt.store(1, 2, 5, 5, -10, 10, 3, Some(7));
        let e = tt.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.upper, e.depth, e.best), (3, 3, 5, 7));
        tt.store(1, 2, 5, 5, -10, 10, 20, None);
        let e = tt.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.best), (20, 7));
        assert!(tt.probe(2, 1).is_none());
        tt.clear();
        assert!(tt.probe(1, 2).is_none());
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for i in 0..100_000u64 {
            tt.store(i, i << 32, 1, 5, 0, 1, 0, None);
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
