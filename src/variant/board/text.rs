//! The printed board, the text format of `--position` files, `--watch` and `position variant
//! variantfile`: a header of column numbers, one line a row (`.` empty, `W`, `R`, `#` blocked) and
//! the side to move; and its parser, which names the line of an error.

use super::{Board, Cell, LineFault, Side, SideNames, Square, VariantError, MAX_SIDE};
use std::fmt;
use std::str::FromStr;

impl Cell {
    /// The printed board's character: `.`, `#`, `W` or `R`.
    pub fn symbol(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Blocked => '#',
            Cell::Disc(colour) => colour.letter(),
        }
    }
}

impl Board {
    /// The printed board: a header line of column numbers, then one line a row with its number and
    /// the cells (`.` empty, `W`, `R`, `#` blocked), then a line `to move: W` or `to move: R`.
    ///
    /// Numbers are right-aligned in two characters and each cell follows a space, so a column
    /// number ends above its cells:
    ///
    /// ```text
    ///    0 1 2 3
    ///  0 # . . .
    ///  1 . W R .
    ///  2 . R W .
    ///  3 . . . #
    /// to move: W
    /// ```
    pub fn printed(&self) -> String {
        let mut out = String::from("  ");
        for c in 0..self.cols() {
            out.push_str(&format!("{c:>2}"));
        }
        out.push('\n');
        for r in 0..self.rows() {
            out.push_str(&format!("{r:>2}"));
            for c in 0..self.cols() {
                out.push(' ');
                out.push(self.cell(Square::new(r as u8, c as u8)).symbol());
            }
            out.push('\n');
        }
        out.push_str(&format!("to move: {}\n", self.to_move.letter()));
        out
    }

    /// Reads a printed board: lines with cells `.`, `W`, `R`, `#` (borders, spaces, numbers and
    /// `|`/`+`/`-` frame characters ignored); every board line must have the same number of cells.
    /// An optional line `to move: W|R` sets the side to move (default white). Errors name the line.
    pub fn parse_printed(text: &str) -> Result<Board, VariantError> {
        let mut cells = Vec::new();
        let mut cols = None;
        let mut rows = 0;
        let mut to_move = Side::First;
        for (n, line) in text.lines().enumerate() {
            let number = n + 1;
            let trimmed = line.trim();
            if let Some(side) = trimmed
                .get(..8)
                .filter(|head| head.eq_ignore_ascii_case("to move:"))
                .and_then(|_| trimmed.get(8..))
            {
                to_move = match side.trim() {
                    "W" | "w" => Side::First,
                    "R" | "r" => Side::Second,
                    other => {
                        return Err(VariantError::Line(
                            number,
                            LineFault::Side(other.to_string()),
                        ))
                    }
                };
                continue;
            }
            let mut row = Vec::new();
            for ch in line.chars() {
                match ch {
                    '.' => row.push(Cell::Empty),
                    '#' => row.push(Cell::Blocked),
                    'W' => row.push(Cell::Disc(Side::First)),
                    'R' => row.push(Cell::Disc(Side::Second)),
                    '|' | '+' | '-' | '=' => {}
                    c if c.is_ascii_digit() || c.is_whitespace() => {}
                    c => return Err(VariantError::Line(number, LineFault::Character(c))),
                }
            }
            if row.is_empty() {
                continue;
            }
            match cols {
                None => cols = Some(row.len()),
                Some(c) if c != row.len() => {
                    return Err(VariantError::Line(number, LineFault::Width(row.len(), c)))
                }
                Some(_) => {}
            }
            rows += 1;
            if rows > MAX_SIDE {
                return Err(VariantError::Line(number, LineFault::TooMany));
            }
            cells.extend(row);
        }
        let Some(cols) = cols else {
            return Err(VariantError::NoBoard);
        };
        if cols > MAX_SIDE {
            return Err(VariantError::TooWide(cols));
        }
        Board::from_cells(rows, cols, &cells, to_move)
    }
}

impl fmt::Display for Board {
    /// The printed board ([`Board::printed`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.printed())
    }
}

impl FromStr for Board {
    type Err = VariantError;

    /// A printed board ([`Board::parse_printed`]).
    fn from_str(s: &str) -> Result<Board, VariantError> {
        Board::parse_printed(s)
    }
}
