//! A small table of proven bounds for the solver's move-generating layer (a few empties above the
//! list layer, below the shared table): one per solver thread, small enough to stay in the
//! core's own caches.
//!
//! Near the leaves the shared table costs more than it saves (a probe is a likely miss to main
//! memory, and the shared table's bookkeeping is paid at nodes that take a few hundred cycles in
//! all), yet the same positions come back: transpositions among the last moves, and the repeated
//! null-window passes of the aspiration, each of which walks most of the previous pass's tree
//! again. This table catches those while they are fresh: direct-mapped, each new entry replaces the
//! old one, and an entry holds the whole position, so a hit is never a different position.
//! Bounds at these depths come from full searches, so they stay true for ever: entries of an
//! earlier solve are as good as new.

/// log2 of the number of entries (24 bytes each: 2^15 make 768 KB).
const BITS: u32 = 14;

/// One position's bounds and best move.
#[derive(Clone, Copy, Default)]
struct Slot {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

/// What the table knows about a position: its bounds (from the side to move's view) and the move
/// that produced the lower bound (64: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// Lower bound on the score.
    pub lower: i32,
    /// Upper bound on the score.
    pub upper: i32,
    /// The best move found, 64 if none.
    pub best: u8,
}

/// The table (see the module comment).
pub struct NearbyTable {
    slots: Box<[Slot]>,
}

impl Default for NearbyTable {
    fn default() -> NearbyTable {
        NearbyTable {
            slots: vec![Slot::default(); 1 << BITS].into_boxed_slice(),
        }
    }
}

impl NearbyTable {
    /// The slot of a position: the top bits of a sum of two products (every input bit can move
    /// them).
    #[inline(always)]
    fn index(p: u64, o: u64) -> usize {
        let spread = p
            .wrapping_mul(0xA24B_AED4_963E_E407)
            .wrapping_add(o.wrapping_mul(0x9FB2_1C65_1E98_DF25));
        (spread >> (64 - BITS)) as usize
    }

    /// The bounds stored for the position, if its slot holds it.
    #[inline(always)]
    pub fn probe(&self, p: u64, o: u64) -> Option<Known> {
        let s = &self.slots[Self::index(p, o)];
        (s.player == p && s.opponent == o).then_some(Known {
            lower: s.lower as i32,
            upper: s.upper as i32,
            best: s.best,
        })
    }

    /// Stores bounds for the position (scores from -64 to 64), merged with those already there for
    /// the same position, else replacing whatever the slot held.
    #[inline(always)]
    pub fn store(&mut self, p: u64, o: u64, lower: i32, upper: i32, best: u8) {
        let s = &mut self.slots[Self::index(p, o)];
        let (mut lower, mut upper) = (lower as i8, upper as i8);
        if s.player == p && s.opponent == o {
            lower = lower.max(s.lower);
            upper = upper.min(s.upper).max(lower);
        }
        *s = Slot {
            player: p,
            opponent: o,
            lower,
            upper,
            best,
        };
    }

    /// Every stored position with its bounds: (player, opponent, lower, upper). For tests that
    /// check the table's contents against independent solves.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> impl Iterator<Item = (u64, u64, i32, i32)> + '_ {
        self.slots
            .iter()
            .filter(|s| s.player | s.opponent != 0)
            .map(|s| (s.player, s.opponent, s.lower as i32, s.upper as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_position_is_found_and_others_are_not() {
        let mut t = NearbyTable::default();
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert_eq!(t.probe(p, o), None);
        t.store(p, o, -64, 12, 19);
        let k = Known {
            lower: -64,
            upper: 12,
            best: 19,
        };
        assert_eq!(t.probe(p, o), Some(k));
        assert_eq!(t.probe(o, p), None);
        // Bounds for the same position are merged.
        t.store(p, o, 4, 64, 20);
        assert_eq!(
            t.probe(p, o),
            Some(Known {
                lower: 4,
                upper: 12,
                best: 20
            })
        );
    }

    #[test]
    fn a_position_in_the_same_slot_replaces_the_old_one() {
        let mut t = NearbyTable::default();
        let (p, o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        // Find another position with the same slot.
        let mut q = p;
        loop {
            q = q.wrapping_mul(0x5851_F42D_4C95_7F2D).wrapping_add(1) & !o;
            if q != p && NearbyTable::index(q, o) == NearbyTable::index(p, o) {
                break;
            }
        }
        t.store(p, o, 2, 2, 10);
        t.store(q, o, -6, 64, 11);
        assert_eq!(t.probe(p, o), None);
        assert_eq!(t.probe(q, o).map(|k| k.lower), Some(-6));
    }
}
