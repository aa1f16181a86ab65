//! The 8 symmetries of the square (the dihedral group D4) acting on bitboards and squares.
//!
//! The rules of Othello commute with all 8, so the opening book and the canonical position key treat
//! a position and its images as one. Each transform is a few delta-swaps (no loop over squares).

use super::square::Square;

/// One of the 8 symmetries, named by what it does to a square at column `c`, row `r` (0-based).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    /// (c, r) -> (c, r).
    Identity,
    /// (c, r) -> (c, 7 - r): rows mirrored, a1 <-> a8.
    FlipVertical,
    /// (c, r) -> (7 - c, r): columns mirrored, a1 <-> h1.
    FlipHorizontal,
    /// (c, r) -> (7 - c, 7 - r): half turn.
    Rotate180,
    /// (c, r) -> (r, c): mirror in the a1-h8 diagonal.
    Transpose,
    /// (c, r) -> (7 - r, 7 - c): mirror in the a8-h1 diagonal.
    AntiTranspose,
    /// (c, r) -> (7 - r, c): a quarter turn.
    Rotate90,
    /// (c, r) -> (r, 7 - c): the opposite quarter turn.
    Rotate270,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipVertical,
        Symmetry::FlipHorizontal,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// A small stable number for files: the index in [`Symmetry::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Applies the symmetry to a bitboard.
    #[inline]
    pub fn apply(self, b: u64) -> u64 {
        match self {
            Symmetry::Identity => b,
            Symmetry::FlipVertical => flip_vertical(b),
            Symmetry::FlipHorizontal => flip_horizontal(b),
            Symmetry::Rotate180 => flip_vertical(flip_horizontal(b)),
            Symmetry::Transpose => transpose(b),
            Symmetry::AntiTranspose => flip_vertical(flip_horizontal(transpose(b))),
            // (c, r) -> transpose (r, c) -> flip horizontal (7 - r, c).
            Symmetry::Rotate90 => flip_horizontal(transpose(b)),
            // (c, r) -> transpose (r, c) -> flip vertical (r, 7 - c).
            Symmetry::Rotate270 => flip_vertical(transpose(b)),
        }
    }

    /// All eight images of a bitboard, indexed like [`Symmetry::ALL`]: one transpose and two column
    /// mirrors shared between them, the rest byte swaps.
    #[inline]
    pub fn apply_all(b: u64) -> [u64; 8] {
        let h = flip_horizontal(b);
        let t = transpose(b);
        let th = flip_horizontal(t);
        [
            b,
            flip_vertical(b),
            h,
            flip_vertical(h),
            t,
            flip_vertical(th),
            th,
            flip_vertical(t),
        ]
    }

    /// Applies the symmetry to a square.
    #[inline]
    pub fn apply_square(self, sq: Square) -> Square {
        Square::from_lowest_bit(self.apply(sq.bit()))
    }
}

/// Rows mirrored: byte order reversed.
#[inline]
fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Columns mirrored: bit order reversed inside each byte.
#[inline]
fn flip_horizontal(mut b: u64) -> u64 {
    b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Mirror in the a1-h8 diagonal: three delta swaps (blocks of 4, 2, 1 squares).
#[inline]
fn transpose(mut b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_coords(s: Symmetry, c: u8, r: u8) -> (u8, u8) {
        match s {
            Symmetry::Identity => (c, r),
            Symmetry::FlipVertical => (c, 7 - r),
            Symmetry::FlipHorizontal => (7 - c, r),
            Symmetry::Rotate180 => (7 - c, 7 - r),
            Symmetry::Transpose => (r, c),
            Symmetry::AntiTranspose => (7 - r, 7 - c),
            Symmetry::Rotate90 => (7 - r, c),
            Symmetry::Rotate270 => (r, 7 - c),
        }
    }

    #[test]
    fn each_symmetry_matches_its_coordinate_map() {
        for s in Symmetry::ALL {
            for sq in Square::ALL {
                let (c, r) = by_coords(s, sq.col(), sq.row());
                assert_eq!(
                    s.apply_square(sq),
                    Square::from_coords(c, r).unwrap(),
                    "{s:?} {sq}"
                );
            }
        }
    }

    #[test]
    fn apply_all_matches_apply() {
        for probe in [
            0x0123_4567_89AB_CDEFu64,
            0x8040_2010_0804_0201,
            0xFF00_0000_0000_0081,
        ] {
            let all = Symmetry::apply_all(probe);
            for s in Symmetry::ALL {
                assert_eq!(all[s.index()], s.apply(probe), "{s:?}");
            }
        }
    }

    #[test]
    fn inverses_undo_and_all_are_distinct() {
        let probe = 0x0123_4567_89AB_CDEFu64;
        let mut images = Vec::new();
        for s in Symmetry::ALL {
            assert_eq!(s.inverse().apply(s.apply(probe)), probe, "{s:?}");
            images.push(s.apply(probe));
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }
}
