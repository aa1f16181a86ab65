//! What can be wrong with a variant board's description: its size, its blocked squares, its
//! cells, a printed board's lines ([`VariantError`]), and the words for each.

use super::{Square, MAX_SIDE};
use std::fmt;

/// A wrong board description (size, cell count, text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// A side length out of range: what it is (`rows`, `columns`), the least allowed, the value.
    Side {
        /// What the length is of.
        what: &'static str,
        /// The least allowed (the most is [`MAX_SIDE`]).
        min: usize,
        /// The value given.
        got: usize,
    },
    /// A size that is not `ROWSxCOLS` (the text).
    Size(String),
    /// A size whose side is out of range (the text, the side).
    SizeSide(String, usize),
    /// A blocked square off the board (the square, the rows and columns).
    BlockedOff(Square, usize, usize),
    /// A blocked square among the four central ones.
    BlockedCentre(Square),
    /// A cell list of the wrong length: rows, columns, cells given.
    CellCount(usize, usize, usize),
    /// `k` blocked squares do not fit (`symmetric`: in symmetric pairs), at most `most`.
    TooManyBlocked {
        /// Squares asked for.
        k: usize,
        /// In symmetric pairs.
        symmetric: bool,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// The most that fit.
        most: usize,
    },
    /// A `random:K` layout without a number of squares from 0 to 256 (the `K` given).
    RandomCount(String),
    /// A printed board's line: its number (from 1) and what is wrong on it.
    Line(usize, LineFault),
    /// A printed board with no board lines.
    NoBoard,
    /// A printed board with more columns than [`MAX_SIDE`].
    TooWide(usize),
}

/// What is wrong on a line of a printed board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineFault {
    /// The side to move is not `W` or `R` (what was given).
    Side(String),
    /// A character that is no cell.
    Character(char),
    /// This many cells where the first board line has `first`.
    Width(usize, usize),
    /// More than [`MAX_SIDE`] board lines.
    TooMany,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Side { what, min, got } => {
                write!(f, "{what} must be {min} to {MAX_SIDE}, got {got}")
            }
            VariantError::Size(text) => write!(f, "'{text}' is not ROWSxCOLS (e.g. 10x10)"),
            VariantError::SizeSide(text, n) => write!(
                f,
                "size '{text}': each side must be {} to {MAX_SIDE}, got {n}",
                super::layout::MIN_SIDE
            ),
            VariantError::BlockedOff(sq, rows, cols) => {
                write!(f, "blocked square {sq} is off the {rows} x {cols} board")
            }
            VariantError::BlockedCentre(sq) => {
                write!(f, "blocked square {sq} is one of the four central squares")
            }
            VariantError::CellCount(rows, cols, got) => write!(
                f,
                "a {rows} x {cols} board has {} cells, got {got}",
                rows * cols
            ),
            VariantError::TooManyBlocked {
                k,
                symmetric,
                rows,
                cols,
                most,
            } => write!(
                f,
                "{k} blocked squares{} do not fit on a {rows} x {cols} board (at most {most})",
                if *symmetric {
                    " in symmetric pairs"
                } else {
                    ""
                }
            ),
            VariantError::RandomCount(k) => {
                write!(
                    f,
                    "'random:{k}' needs a number of blocked squares (0 to 256)"
                )
            }
            VariantError::Line(number, fault) => {
                write!(f, "line {number}: ")?;
                match fault {
                    LineFault::Side(other) => {
                        write!(f, "the side to move must be W or R, got '{other}'")
                    }
                    LineFault::Character(c) => {
                        write!(f, "unexpected character '{c}' (cells are . W R #)")
                    }
                    LineFault::Width(n, first) => {
                        write!(f, "{n} cells, but the first board line has {first}")
                    }
                    LineFault::TooMany => write!(f, "more than {MAX_SIDE} board lines"),
                }
            }
            VariantError::NoBoard => f.write_str("no board lines (cells . W R #)"),
            VariantError::TooWide(cols) => {
                write!(f, "{cols} cells a line: at most {MAX_SIDE} columns")
            }
        }
    }
}

impl std::error::Error for VariantError {}
