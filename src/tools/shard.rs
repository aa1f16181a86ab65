//! The parts of a long job (`--shard I/N`): match pairs, book leaves and training games are dealt
//! to the parts the same way, so that the parts' outputs join into the whole job's.

/// One of `parts` disjoint parts of a long job (`--shard 3/8` is part 2 of 8, counted from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This part, from 0.
    pub part: usize,
    /// How many parts.
    pub parts: usize,
}

impl Shard {
    /// The whole job.
    pub const WHOLE: Shard = Shard { part: 0, parts: 1 };

    /// Whether item `n` of the job belongs to this part.
    pub fn owns(self, n: usize) -> bool {
        n % self.parts.max(1) == self.part
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}
