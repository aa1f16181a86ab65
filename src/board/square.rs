//! Squares, moves and colours: the small value types every other module speaks in, with their text
//! forms (`a1`..`h8`, `pass`) and typed parse errors.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares. Bit `i` of a bitboard is square `i`: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8,
/// ..., h8 = 63 (row-major from a1; the column letter comes first in the name).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

/// A square index that is no square (the squares are 0..64): "no move" wherever a move is kept
/// as a byte (the tables' best moves, the solver's move fields, the live progress figures).
pub const NO_SQUARE: u8 = 64;

impl Square {
    /// All 64 squares in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with index `index` (a1 = 0 ... h8 = 63), or `None` when `index >= 64`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `col` (0 = a ... 7 = h) and `row` (0 = row 1 ... 7 = row 8), if both are < 8.
    #[inline]
    pub const fn from_coords(col: u8, row: u8) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The square of the lowest set bit of a non-empty bitboard.
    ///
    /// Callers guarantee `bits != 0`; with 0 the result is h8's neighbour index clamped to h8.
    #[inline]
    pub(crate) fn from_lowest_bit(bits: u64) -> Square {
        Square((bits.trailing_zeros() as u8) & 63)
    }

    /// The index of this square, 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (a) to 7 (h).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 & 7
    }

    /// The row, 0 (row 1) to 7 (row 8).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The bitboard with only this square set.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = (b'a' + self.col()) as char;
        let row = (b'1' + self.row()) as char;
        write!(f, "{col}{row}")
    }
}

/// Why a square or move name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// The text was empty.
    Empty,
    /// The text was not a column letter a-h followed by a row digit 1-8.
    Invalid(String),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Empty => write!(f, "empty square name (expected a1..h8)"),
            ParseSquareError::Invalid(s) => {
                write!(
                    f,
                    "'{s}' is not a square (expected a column a-h then a row 1-8, e.g. f5)"
                )
            }
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bytes = s.as_bytes();
        if bytes.is_empty() {
            return Err(ParseSquareError::Empty);
        }
        if bytes.len() != 2 {
            return Err(ParseSquareError::Invalid(truncate(s)));
        }
        let col = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        Square::from_coords(col, row).ok_or_else(|| ParseSquareError::Invalid(truncate(s)))
    }
}

/// Shortens user text quoted in an error message so an oversized line cannot flood the output, and
/// writes its control characters escaped (`\u{1b}`), so that a quoted NUL or terminal escape
/// sequence reaches neither a GUI's reader nor a terminal as itself.
pub(crate) fn truncate(s: &str) -> String {
    const MAX: usize = 40;
    let mut out = String::new();
    for c in s.chars().take(MAX) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if s.chars().nth(MAX).is_some() {
        out.push_str("...");
    }
    out
}

/// A move: a disc placed on a square, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(u8);

impl Move {
    /// The pass move (only legal when the side to move has no square to play but the game goes on).
    pub const PASS: Move = Move(64);

    /// The move that places a disc on `sq`.
    #[inline]
    pub const fn play(sq: Square) -> Move {
        Move(sq.0)
    }

    /// The square of a placing move, `None` for a pass.
    #[inline]
    pub const fn square(self) -> Option<Square> {
        Square::new(self.0)
    }

    /// Whether this is the pass move.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// A compact code: the square index, or 64 for a pass (used in tables and files).
    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// The move with code `code` (see [`Move::code`]), if valid.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Move> {
        if code <= 64 {
            Some(Move(code))
        } else {
            None
        }
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::play(sq)
    }
}

impl fmt::Display for Move {
    /// Squares print in lower case (`f5`); the pass prints as `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            Some(sq) => sq.fmt(f),
            None => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseSquareError;

    /// Accepts a square name (any case) or a pass: `pass`, `ps`, `pa`, `--` or `0000` (any case).
    fn from_str(s: &str) -> Result<Move, ParseSquareError> {
        if is_pass_token(s) {
            Ok(Move::PASS)
        } else {
            s.parse::<Square>().map(Move::play)
        }
    }
}

/// Whether `s` is one of the accepted spellings of a pass.
pub(crate) fn is_pass_token(s: &str) -> bool {
    ["pass", "ps", "pa", "--", "0000"]
        .iter()
        .any(|p| s.eq_ignore_ascii_case(p))
}

/// The colour of a player's discs. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player (`X` in board strings).
    Black,
    /// The second player (`O` in board strings).
    White,
}

impl From<Color> for crate::game::Side {
    /// Black moves first.
    fn from(c: Color) -> crate::game::Side {
        match c {
            Color::Black => crate::game::Side::First,
            Color::White => crate::game::Side::Second,
        }
    }
}

impl From<crate::game::Side> for Color {
    /// The first player is black.
    fn from(s: crate::game::Side) -> Color {
        match s {
            crate::game::Side::First => Color::Black,
            crate::game::Side::Second => Color::White,
        }
    }
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The board-string letter: `X` for black, `O` for white.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_is_cut_and_its_control_characters_escaped() {
        assert_eq!(truncate("e\u{0}4"), "e\\u{0}4");
        assert_eq!(truncate("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(truncate("caf\u{e9}"), "caf\u{e9}");
        assert_eq!(truncate(&"x".repeat(41)), format!("{}...", "x".repeat(40)));
        assert_eq!(truncate(&"x".repeat(40)), "x".repeat(40));
    }

    #[test]
    fn square_names_round_trip() {
        for sq in Square::ALL {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
            assert_eq!(name.to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("h1".parse::<Square>().map(Square::index), Ok(7));
        assert_eq!("a2".parse::<Square>().map(Square::index), Ok(8));
        assert_eq!("H8".parse::<Square>().map(Square::index), Ok(63));
    }

    #[test]
    fn bad_square_names_are_errors() {
        for bad in ["", "a", "a0", "a9", "i1", "11", "aa", "a10", "é1", "f5 "] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} should not parse");
        }
        assert_eq!("".parse::<Square>(), Err(ParseSquareError::Empty));
    }

    #[test]
    fn pass_spellings() {
        for p in ["pass", "PASS", "ps", "PA", "pa", "--", "0000"] {
            assert_eq!(p.parse::<Move>(), Ok(Move::PASS), "{p}");
        }
        assert_eq!(Move::PASS.to_string(), "pass");
        assert!("000".parse::<Move>().is_err());
    }

    #[test]
    fn long_input_is_truncated_in_errors() {
        let long = "x".repeat(10_000);
        let msg = long.parse::<Square>().unwrap_err().to_string();
        assert!(msg.len() < 200);
    }
}
