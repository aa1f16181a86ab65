//! The `Bitboard` set type: 64 bits, one per square, with set algebra and iteration over squares.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares as a 64-bit mask (bit `i` = square `i`, a1 = bit 0, h8 = bit 63).
///
/// Iterating yields the squares from a1 towards h8. All operations are plain integer operations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The four corners a1, h1, a8, h8.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_lowest_bit(self.0))
        }
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard(sq.bit())
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_lowest_bit(self.0);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order_and_counts() {
        let b = Bitboard(0x8000_0000_0000_0101);
        let squares: Vec<usize> = b.map(Square::index).collect();
        assert_eq!(squares, vec![0, 8, 63]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.len(), 3);
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert!(Bitboard::CORNERS.contains(Square::ALL[63]));
        assert!(!Bitboard::CORNERS.contains(Square::ALL[62]));
        assert_eq!((b & !Bitboard(1)).count(), 2);
    }
}
