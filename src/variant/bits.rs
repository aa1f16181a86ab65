//! The variant board's 256-bit square sets: one bit per square `row * 16 + col` of a 16 x 16 grid,
//! set algebra, counting, iteration in scanline order and the shifts that move every square one
//! step in one of the 8 directions without wrapping from one row's edge into the next row.
//!
//! Word `w` holds rows `4w..4w+3` (bit `i % 64` of word `i / 64` is square `i`), so a shift by 1,
//! 15, 16 or 17 squares is a 256-bit shift that carries between the four words.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Squares of column 0 (the left edge of the 16 x 16 grid).
const COL0: Bits = Bits([0x0001_0001_0001_0001; 4]);
/// Squares of column 15 (the right edge of the 16 x 16 grid).
const COL15: Bits = Bits([0x8000_8000_8000_8000; 4]);

/// The 8 directions as the change of the square number for one step: east, west, south, north,
/// south-east, north-west, south-west, north-east (rows grow downwards).
pub const DIRECTIONS: [i32; 8] = [1, -1, 16, -16, 17, -17, 15, -15];

/// A set of squares of the 16 x 16 grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// No square.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// The set of one square (`index < 256`).
    #[inline]
    pub const fn square(index: usize) -> Bits {
        let mut w = [0; 4];
        w[(index >> 6) & 3] = 1 << (index & 63);
        Bits(w)
    }

    /// The squares of the `rows` x `cols` rectangle at the upper left (each at most 16).
    pub fn rectangle(rows: usize, cols: usize) -> Bits {
        let row_bits: u64 = if cols >= 16 {
            0xFFFF
        } else {
            (1u64 << cols) - 1
        };
        let mut set = Bits::EMPTY;
        for r in 0..rows.min(16) {
            set.0[r / 4] |= row_bits << (16 * (r % 4));
        }
        set
    }

    /// Whether square `index` is in the set (false for `index >= 256`).
    #[inline]
    pub const fn contains(self, index: usize) -> bool {
        index < 256 && (self.0[index >> 6] >> (index & 63)) & 1 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// The lowest square (first in scanline order), if any.
    #[inline]
    pub const fn first(self) -> Option<usize> {
        let mut w = 0;
        while w < 4 {
            if self.0[w] != 0 {
                return Some(w * 64 + self.0[w].trailing_zeros() as usize);
            }
            w += 1;
        }
        None
    }

    /// Every square moved `n` (1..=63) places up the numbering (towards the lower right); squares
    /// pushed past 255 vanish. Rows are not respected: see [`Bits::step`].
    #[inline(always)]
    pub const fn shl(self, n: u32) -> Bits {
        let w = self.0;
        let m = 64 - n;
        Bits([
            w[0] << n,
            (w[1] << n) | (w[0] >> m),
            (w[2] << n) | (w[1] >> m),
            (w[3] << n) | (w[2] >> m),
        ])
    }

    /// Every square moved `n` (1..=63) places down the numbering (towards the upper left); squares
    /// pushed below 0 vanish. Rows are not respected: see [`Bits::step`].
    #[inline(always)]
    pub const fn shr(self, n: u32) -> Bits {
        let w = self.0;
        let m = 64 - n;
        Bits([
            (w[0] >> n) | (w[1] << m),
            (w[1] >> n) | (w[2] << m),
            (w[2] >> n) | (w[3] << m),
            w[3] >> n,
        ])
    }

    /// Every square moved one step in direction `D` (one of [`DIRECTIONS`]); a square that would
    /// leave the 16 x 16 grid vanishes instead of wrapping to the other edge. A step that raises
    /// the column can only land on column 0 by wrapping from column 15, so those results are
    /// cleared, and likewise column 15 for steps that lower it.
    #[inline(always)]
    pub const fn step<const D: i32>(self) -> Bits {
        let moved = if D > 0 {
            self.shl(D as u32)
        } else {
            self.shr((-D) as u32)
        };
        match D {
            1 | 17 | -15 => moved.and(COL0.not_const()),
            -1 | -17 | 15 => moved.and(COL15.not_const()),
            _ => moved,
        }
    }

    /// `self & other` in a `const fn`.
    #[inline(always)]
    const fn and(self, other: Bits) -> Bits {
        Bits([
            self.0[0] & other.0[0],
            self.0[1] & other.0[1],
            self.0[2] & other.0[2],
            self.0[3] & other.0[3],
        ])
    }

    /// `!self` in a `const fn`.
    #[inline(always)]
    const fn not_const(self) -> Bits {
        Bits([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }

    /// The squares of the set, lowest first (scanline order).
    #[inline]
    pub fn iter(self) -> BitsIter {
        BitsIter(self)
    }

    /// Every square one step away from a square of the set (in any of the 8 directions), without
    /// wrapping; the set itself is not included unless a square of it neighbours another.
    #[inline]
    pub fn neighbours(self) -> Bits {
        self.step::<1>()
            | self.step::<-1>()
            | self.step::<16>()
            | self.step::<-16>()
            | self.step::<17>()
            | self.step::<-17>()
            | self.step::<15>()
            | self.step::<-15>()
    }
}

/// The squares of a [`Bits`], lowest first.
#[derive(Clone, Debug)]
pub struct BitsIter(Bits);

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        for w in 0..4 {
            let word = self.0 .0[w];
            if word != 0 {
                self.0 .0[w] = word & (word - 1);
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitsIter {}

impl IntoIterator for Bits {
    type Item = usize;
    type IntoIter = BitsIter;

    fn into_iter(self) -> BitsIter {
        BitsIter(self)
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitand(self, rhs: Bits) -> Bits {
        self.and(rhs)
    }
}

impl BitOr for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitor(self, rhs: Bits) -> Bits {
        Bits([
            self.0[0] | rhs.0[0],
            self.0[1] | rhs.0[1],
            self.0[2] | rhs.0[2],
            self.0[3] | rhs.0[3],
        ])
    }
}

impl BitXor for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitxor(self, rhs: Bits) -> Bits {
        Bits([
            self.0[0] ^ rhs.0[0],
            self.0[1] ^ rhs.0[1],
            self.0[2] ^ rhs.0[2],
            self.0[3] ^ rhs.0[3],
        ])
    }
}

impl Not for Bits {
    type Output = Bits;
    #[inline(always)]
    fn not(self) -> Bits {
        self.not_const()
    }
}

impl BitAndAssign for Bits {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bits) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for Bits {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bits) {
        *self = *self | rhs;
    }
}

impl BitXorAssign for Bits {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bits) {
        *self = *self ^ rhs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_move_one_square_and_never_wrap() {
        // Column 15 of row 3 (square 63) and column 0 of row 4 (square 64) straddle a word.
        let a = Bits::square(63);
        assert_eq!(a.step::<1>(), Bits::EMPTY);
        assert_eq!(a.step::<16>(), Bits::square(79));
        assert_eq!(a.step::<15>(), Bits::square(78));
        assert_eq!(a.step::<-1>(), Bits::square(62));
        assert_eq!(a.step::<-15>(), Bits::EMPTY);
        let b = Bits::square(64);
        assert_eq!(b.step::<-1>(), Bits::EMPTY);
        assert_eq!(b.step::<-16>(), Bits::square(48));
        assert_eq!(b.step::<-15>(), Bits::square(49));
        assert_eq!(b.step::<-17>(), Bits::EMPTY);
        assert_eq!(b.step::<17>(), Bits::square(81));
        assert_eq!(Bits::square(255).step::<16>(), Bits::EMPTY);
        assert_eq!(Bits::square(0).step::<-16>(), Bits::EMPTY);
        assert_eq!(Bits::square(200).neighbours().count(), 8);
        assert_eq!(Bits::square(0).neighbours().count(), 3);
    }

    #[test]
    fn rectangles_iterate_in_scanline_order() {
        let r = Bits::rectangle(10, 10);
        assert_eq!(r.count(), 100);
        let squares: Vec<usize> = r.iter().collect();
        assert_eq!(squares[0], 0);
        assert_eq!(squares[10], 16);
        assert_eq!(squares[99], 9 * 16 + 9);
        assert!(squares.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Bits::rectangle(16, 16), !Bits::EMPTY);
        assert_eq!(r.first(), Some(0));
        assert!(r.contains(9 * 16 + 9) && !r.contains(10) && !r.contains(300));
    }
}
