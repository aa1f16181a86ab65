//! The board sizes and layouts that command lines name (`wedge server --layout`, `wedge match
//! --variant --layout`, `wedge variant --size --blocked`): `RxC`, and `corners`, `none`,
//! `random:K` or a printed board read by the caller. One parser, so every tool accepts the same.

use super::{Board, Square, VariantError, MAX_SIDE};
use crate::rng::Rng;

/// Fewest rows or columns of a named size: a start position needs the four central squares.
pub(super) const MIN_SIDE: usize = 2;

/// Where the blocked squares of a start position come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartLayout {
    /// The four corners blocked (the course's example).
    Corners,
    /// No square blocked.
    Open,
    /// This many squares drawn at random, a new layout for each start.
    Random(usize),
    /// This position (a printed board from a file) for every start.
    Fixed(Board),
}

impl StartLayout {
    /// Reads `corners`, `none`, `random:K` (K at most 256); anything else is the caller's file
    /// name (`None`).
    pub fn parse_named(text: &str) -> Result<Option<StartLayout>, VariantError> {
        Ok(Some(match text {
            "corners" => StartLayout::Corners,
            "none" => StartLayout::Open,
            _ => match text.strip_prefix("random:") {
                Some(k) => StartLayout::Random(
                    k.trim()
                        .parse()
                        .ok()
                        .filter(|&k: &usize| k <= 256)
                        .ok_or_else(|| VariantError::RandomCount(k.to_string()))?,
                ),
                None => return Ok(None),
            },
        }))
    }

    /// A start position on a `rows` x `cols` board (random layouts draw from `rng`; a fixed one
    /// is returned as it is, whatever the size).
    pub fn start(&self, rows: usize, cols: usize, rng: &mut Rng) -> Result<Board, VariantError> {
        match self {
            StartLayout::Corners => Board::start(rows, cols, &corners(rows, cols)),
            StartLayout::Open => Board::start(rows, cols, &[]),
            StartLayout::Random(k) => Board::random_layout(rows, cols, *k, rng),
            StartLayout::Fixed(board) => Ok(*board),
        }
    }
}

/// `ROWSxCOLS` (or `RxC` with a capital X), each 2 to 16.
pub fn parse_size(text: &str) -> Result<(usize, usize), VariantError> {
    let bad = || VariantError::Size(text.to_string());
    let (r, c) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let side = |s: &str| -> Result<usize, VariantError> {
        let n: usize = s.trim().parse().map_err(|_| bad())?;
        if (MIN_SIDE..=MAX_SIDE).contains(&n) {
            Ok(n)
        } else {
            Err(VariantError::SizeSide(text.to_string(), n))
        }
    };
    Ok((side(r)?, side(c)?))
}

/// The corner squares of a `rows` x `cols` board that are not among its four central squares
/// (all four from a side of 4 up; on a side of 2 or 3 the central squares reach the edge, and
/// those corners stay open). Sides are clamped to 1..=16, so any size gives squares that
/// [`Board::start`] can judge.
pub fn corners(rows: usize, cols: usize) -> Vec<Square> {
    let side = |n: usize| n.clamp(1, MAX_SIDE) as u8;
    let (rows, cols) = (side(rows), side(cols));
    // The start's central squares: rows (R-1)/2 and the next, columns likewise.
    let central = |i: u8, n: u8| i == (n - 1) / 2 || i == (n - 1) / 2 + 1;
    let mut out = Vec::with_capacity(4);
    for row in [0, rows - 1] {
        for col in [0, cols - 1] {
            let sq = Square::new(row, col);
            let is_central = central(row, rows) && central(col, cols);
            if !is_central && !out.contains(&sq) {
                out.push(sq);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_and_bounded() {
        assert_eq!(parse_size("10x10"), Ok((10, 10)));
        assert_eq!(parse_size(" 8X12 "), Ok((8, 12)));
        for bad in ["10", "x10", "1x10", "17x10", "256x10", "10x-1", ""] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn layouts_are_named() {
        assert_eq!(
            StartLayout::parse_named("corners"),
            Ok(Some(StartLayout::Corners))
        );
        assert_eq!(
            StartLayout::parse_named("none"),
            Ok(Some(StartLayout::Open))
        );
        assert_eq!(
            StartLayout::parse_named("random:4"),
            Ok(Some(StartLayout::Random(4)))
        );
        assert_eq!(StartLayout::parse_named("board.txt"), Ok(None));
        assert!(StartLayout::parse_named("random:x").is_err());
        assert!(StartLayout::parse_named("random:257").is_err());
        let mut rng = Rng::new(1);
        let b = StartLayout::Corners.start(10, 10, &mut rng).unwrap();
        assert_eq!(b.blocked(), corners(10, 10));
        assert_eq!(corners(10, 10).len(), 4);
        // Small sides: the corners that are central squares stay open, and every size starts.
        assert_eq!(
            corners(3, 3),
            vec![Square::new(0, 0), Square::new(0, 2), Square::new(2, 0)]
        );
        assert!(corners(2, 2).is_empty());
        for rows in MIN_SIDE..=MAX_SIDE {
            for cols in MIN_SIDE..=MAX_SIDE {
                let b = StartLayout::Corners.start(rows, cols, &mut rng);
                assert!(b.is_ok(), "{rows}x{cols}: {b:?}");
            }
        }
    }
}
