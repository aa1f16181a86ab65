//! The variant board: rows x cols (each 1..=16) squares, some blocked, discs of two colours, and the
//! side to move. White (wire colour 0) moves first, as in the course's game.
//!
//! Squares are numbered `row * 16 + col` whatever the board's width, so a board is three 256-bit
//! sets (white, red, playable) and the 8 directions are shifts by 1, 15, 16 and 17 with masks that
//! stop wrapping; a blocked square is in no set, so a line of flips stops at it as at an edge.
//!
//! This file owns the rules (moves, flips, passes, the end and the count), random layouts and the
//! position hash; `text` the printed-board text format and its parser. Move generation works on
//! whole sets, one direction at a time ([`moves`]); flips walk the 8 lines out of the one square
//! played ([`flips`]). Nothing here allocates except the `Vec`-returning conveniences.

mod error;
pub mod layout;
mod text;

pub use error::{LineFault, VariantError};
pub use layout::{parse_size, StartLayout};

use super::bits::Bits;
use std::fmt;

/// The largest number of rows or columns.
pub const MAX_SIDE: usize = 16;

/// A move on a variant board: a square, or `None` for a pass.
pub type VariantMove = Option<Square>;

/// A square: row and column from the upper left corner (0, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Row, from 0 at the top.
    pub row: u8,
    /// Column, from 0 at the left.
    pub col: u8,
}

/// Which player: [`Side::First`] is the course's white (wire colour 0, `W`), [`Side::Second`]
/// its red (wire colour 1, `R`); [`SideNames`] gives those words.
pub use crate::game::Side;

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing (a disc may be played here).
    Empty,
    /// Never holds a disc.
    Blocked,
    /// A disc.
    Disc(Side),
}

/// A position of a variant game: layout, discs and side to move. Copy-make: a move returns a new
/// board.
///
/// Invariants (checked by the constructors): `white`, `red` and the empty squares are disjoint
/// subsets of `playable`, which lies inside the `rows` x `cols` rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    white: Bits,
    red: Bits,
    playable: Bits,
    rows: u8,
    cols: u8,
    to_move: Side,
}

/// The legal moves of the side with discs `p` against `o`, with `empty` the squares a disc may be
/// played on (playable and free).
///
/// For each direction, a run starts at the opponent discs next to a disc of `p` and grows one step
/// at a time over opponent discs; the empty squares just past a run are moves. The loop runs as
/// many times as the longest run of opponent discs in that direction (usually 1 to 3), over whole
/// sets, never square by square. Blocked and off-board squares are in neither `o` nor `empty`, so
/// they end a run as an edge does.
#[inline]
pub fn moves(p: Bits, o: Bits, empty: Bits) -> Bits {
    dir_moves::<1>(p, o, empty)
        | dir_moves::<-1>(p, o, empty)
        | dir_moves::<16>(p, o, empty)
        | dir_moves::<-16>(p, o, empty)
        | dir_moves::<17>(p, o, empty)
        | dir_moves::<-17>(p, o, empty)
        | dir_moves::<15>(p, o, empty)
        | dir_moves::<-15>(p, o, empty)
}

/// [`moves`] in direction `D`.
#[inline(always)]
fn dir_moves<const D: i32>(p: Bits, o: Bits, empty: Bits) -> Bits {
    let mut run = p.step::<D>() & o;
    let mut found = Bits::EMPTY;
    while !run.is_empty() {
        let next = run.step::<D>();
        found |= next & empty;
        run = next & o;
    }
    found
}

/// The discs of `o` that a disc of `p` played on square `index` flips (empty: not a legal move,
/// if `index` is an empty square).
#[inline]
pub fn flips(index: usize, p: Bits, o: Bits) -> Bits {
    let m = Bits::square(index);
    dir_flips::<1>(m, p, o)
        | dir_flips::<-1>(m, p, o)
        | dir_flips::<16>(m, p, o)
        | dir_flips::<-16>(m, p, o)
        | dir_flips::<17>(m, p, o)
        | dir_flips::<-17>(m, p, o)
        | dir_flips::<15>(m, p, o)
        | dir_flips::<-15>(m, p, o)
}

/// [`flips`] in direction `D`: the run of opponent discs from `m`, kept if a disc of `p` ends it.
#[inline(always)]
fn dir_flips<const D: i32>(m: Bits, p: Bits, o: Bits) -> Bits {
    let mut line = Bits::EMPTY;
    let mut cur = m.step::<D>() & (p | o);
    while !(cur & o).is_empty() {
        line |= cur;
        cur = cur.step::<D>() & (p | o);
    }
    if cur.is_empty() {
        Bits::EMPTY
    } else {
        line
    }
}

impl Square {
    /// The square at `row`, `col`.
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }

    /// Its number in the 256-bit sets: `row * 16 + col` (meaningful for rows and columns below 16).
    #[inline]
    pub const fn index(self) -> usize {
        self.row as usize * MAX_SIDE + self.col as usize
    }

    /// The square numbered `index` (`row * 16 + col`, below 256).
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        Square {
            row: (index / MAX_SIDE) as u8,
            col: (index % MAX_SIDE) as u8,
        }
    }
}

impl fmt::Display for Square {
    /// `(row, col)`, as the course's page writes squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// A side length checked to be in `min..=16`.
fn side(what: &'static str, n: usize, min: usize) -> Result<u8, VariantError> {
    if (min..=MAX_SIDE).contains(&n) {
        Ok(n as u8)
    } else {
        Err(VariantError::Side { what, min, got: n })
    }
}

/// The four central squares of a `rows` x `cols` board: white's two (upper left and lower right),
/// then red's two.
fn centre(rows: usize, cols: usize) -> [Square; 4] {
    let r = ((rows - 1) / 2) as u8;
    let c = ((cols - 1) / 2) as u8;
    [
        Square::new(r, c),
        Square::new(r + 1, c + 1),
        Square::new(r, c + 1),
        Square::new(r + 1, c),
    ]
}

impl Board {
    /// The start position of a `rows` x `cols` board with `blocked` squares: two white and two red
    /// discs on the four central squares, white on the diagonal from the upper left ((r, c) and
    /// (r+1, c+1) with r = (rows-1)/2, c = (cols-1)/2), white to move. Errors: a side outside
    /// 2..=16, a blocked square off the board or on a central square.
    pub fn start(rows: usize, cols: usize, blocked: &[Square]) -> Result<Board, VariantError> {
        let r = side("rows", rows, 2)?;
        let c = side("columns", cols, 2)?;
        let centre = centre(rows, cols);
        let mut playable = Bits::rectangle(rows, cols);
        for &sq in blocked {
            if usize::from(sq.row) >= rows || usize::from(sq.col) >= cols {
                return Err(VariantError::BlockedOff(sq, rows, cols));
            }
            if centre.contains(&sq) {
                return Err(VariantError::BlockedCentre(sq));
            }
            playable &= !Bits::square(sq.index());
        }
        let set = |a: Square, b: Square| Bits::square(a.index()) | Bits::square(b.index());
        Ok(Board {
            white: set(centre[0], centre[1]),
            red: set(centre[2], centre[3]),
            playable,
            rows: r,
            cols: c,
            to_move: Side::First,
        })
    }

    /// A board from its cells, row after row from the upper left (`rows * cols` cells), and the
    /// side to move.
    pub fn from_cells(
        rows: usize,
        cols: usize,
        cells: &[Cell],
        to_move: Side,
    ) -> Result<Board, VariantError> {
        let r = side("rows", rows, layout::MIN_SIDE)?;
        let c = side("columns", cols, layout::MIN_SIDE)?;
        if cells.len() != rows * cols {
            return Err(VariantError::CellCount(rows, cols, cells.len()));
        }
        let mut board = Board {
            white: Bits::EMPTY,
            red: Bits::EMPTY,
            playable: Bits::EMPTY,
            rows: r,
            cols: c,
            to_move,
        };
        for (i, cell) in cells.iter().enumerate() {
            let bit = Bits::square((i / cols) * MAX_SIDE + i % cols);
            match cell {
                Cell::Blocked => continue,
                Cell::Empty => {}
                Cell::Disc(Side::First) => board.white |= bit,
                Cell::Disc(Side::Second) => board.red |= bit,
            }
            board.playable |= bit;
        }
        Ok(board)
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        usize::from(self.rows)
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        usize::from(self.cols)
    }

    /// What `sq` holds (`Blocked` off the board).
    pub fn cell(&self, sq: Square) -> Cell {
        if !self.on_board(sq) {
            return Cell::Blocked;
        }
        let i = sq.index();
        if self.white.contains(i) {
            Cell::Disc(Side::First)
        } else if self.red.contains(i) {
            Cell::Disc(Side::Second)
        } else if self.playable.contains(i) {
            Cell::Empty
        } else {
            Cell::Blocked
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The legal moves of the side to move, in scanline order (row by row, left to right).
    pub fn legal_moves(&self) -> Vec<Square> {
        self.move_set().iter().map(Square::from_index).collect()
    }

    /// The number of legal moves of the side to move (no allocation).
    pub fn mobility(&self) -> u32 {
        self.move_set().count()
    }

    /// Whether `sq` is a legal move for the side to move.
    pub fn is_legal(&self, sq: Square) -> bool {
        self.flips(sq) > 0
    }

    /// The board after the side to move plays `sq` (discs flipped, other side to move), or `None`
    /// when the move is illegal.
    pub fn play(&self, sq: Square) -> Option<Board> {
        if !self.on_board(sq) {
            return None;
        }
        self.play_index(sq.index())
    }

    /// The number of discs `sq` would flip (0: illegal).
    pub fn flips(&self, sq: Square) -> u32 {
        if !self.on_board(sq) {
            return 0;
        }
        self.flip_set(sq.index()).count()
    }

    /// The board with the other side to move (a pass; legal only when the side to move has no move).
    pub fn pass(&self) -> Board {
        Board {
            to_move: self.to_move.other(),
            ..*self
        }
    }

    /// True when the side to move has no legal move (it must pass, or the game is over).
    pub fn must_pass(&self) -> bool {
        self.move_set().is_empty()
    }

    /// True when neither side has a legal move.
    pub fn is_over(&self) -> bool {
        self.must_pass() && self.pass().must_pass()
    }

    /// Discs of `colour`.
    pub fn count(&self, colour: Side) -> u32 {
        self.discs(colour).count()
    }

    /// Empty (playable) squares.
    pub fn empties(&self) -> u32 {
        self.empty_set().count()
    }

    /// A start position with `k` blocked squares drawn at random (never the four central squares;
    /// the layout is symmetric under a half turn when `k` is even, as the course's layouts were).
    pub fn random_layout(
        rows: usize,
        cols: usize,
        k: usize,
        rng: &mut crate::rng::Rng,
    ) -> Result<Board, VariantError> {
        let empty = Board::start(rows, cols, &[])?;
        let centre = centre(rows, cols);
        let free = |sq: &Square| !centre.contains(sq);
        let mirror = |sq: Square| Square::new(rows as u8 - 1 - sq.row, cols as u8 - 1 - sq.col);
        let candidates: Vec<Square> = empty
            .empty_set()
            .iter()
            .map(Square::from_index)
            .filter(free)
            .collect();
        let mut blocked = Vec::with_capacity(k);
        if k.is_multiple_of(2) {
            let mut pairs: Vec<Square> = candidates
                .iter()
                .copied()
                .filter(|&sq| sq < mirror(sq) && free(&mirror(sq)))
                .collect();
            if k / 2 > pairs.len() {
                return Err(VariantError::TooManyBlocked {
                    k,
                    symmetric: true,
                    rows,
                    cols,
                    most: 2 * pairs.len(),
                });
            }
            rng.shuffle(&mut pairs);
            for &sq in &pairs[..k / 2] {
                blocked.push(sq);
                blocked.push(mirror(sq));
            }
        } else {
            let mut all = candidates;
            if k > all.len() {
                return Err(VariantError::TooManyBlocked {
                    k,
                    symmetric: false,
                    rows,
                    cols,
                    most: all.len(),
                });
            }
            rng.shuffle(&mut all);
            blocked.extend_from_slice(&all[..k]);
        }
        Board::start(rows, cols, &blocked)
    }
}

/// The set-level API the search, the evaluation and perft use: squares as numbers `row * 16 + col`
/// and sets as [`Bits`].
impl Board {
    /// Whether `sq` lies inside the rectangle (it may still be blocked).
    #[inline]
    pub fn on_board(&self, sq: Square) -> bool {
        sq.row < self.rows && sq.col < self.cols
    }

    /// Discs of `colour` as a set.
    #[inline]
    pub fn discs(&self, colour: Side) -> Bits {
        match colour {
            Side::First => self.white,
            Side::Second => self.red,
        }
    }

    /// Discs of the side to move.
    #[inline]
    pub fn player_discs(&self) -> Bits {
        self.discs(self.to_move)
    }

    /// Discs of the side not to move.
    #[inline]
    pub fn opponent_discs(&self) -> Bits {
        self.discs(self.to_move.other())
    }

    /// The squares that may ever hold a disc (on the board and not blocked).
    #[inline]
    pub fn playable(&self) -> Bits {
        self.playable
    }

    /// The empty playable squares.
    #[inline]
    pub fn empty_set(&self) -> Bits {
        self.playable & !(self.white | self.red)
    }

    /// The legal moves of the side to move as a set.
    #[inline]
    pub fn move_set(&self) -> Bits {
        moves(self.player_discs(), self.opponent_discs(), self.empty_set())
    }

    /// The discs that playing square `index` flips (empty: illegal, or not an empty square).
    #[inline]
    pub fn flip_set(&self, index: usize) -> Bits {
        if index >= 256 || !self.empty_set().contains(index) {
            return Bits::EMPTY;
        }
        flips(index, self.player_discs(), self.opponent_discs())
    }

    /// The board after the side to move plays square `index`, or `None` when that is illegal.
    #[inline]
    pub fn play_index(&self, index: usize) -> Option<Board> {
        let f = self.flip_set(index);
        (!f.is_empty()).then(|| self.apply(index, f))
    }

    /// The board after the side to move puts a disc on square `index` and turns the discs `flipped`
    /// (the caller's [`Board::flip_set`] of that square: this does not check).
    #[inline]
    pub fn apply(&self, index: usize, flipped: Bits) -> Board {
        let placed = Bits::square(index) | flipped;
        let (white, red) = match self.to_move {
            Side::First => (self.white | placed, self.red ^ flipped),
            Side::Second => (self.white ^ flipped, self.red | placed),
        };
        Board {
            white,
            red,
            to_move: self.to_move.other(),
            ..*self
        }
    }

    /// The board with `to_move` to move.
    pub fn with_to_move(&self, to_move: Side) -> Board {
        Board { to_move, ..*self }
    }

    /// Discs of `colour` minus discs of the other colour.
    pub fn disc_difference(&self, colour: Side) -> i32 {
        self.count(colour) as i32 - self.count(colour.other()) as i32
    }

    /// The colour with more discs (`None`: equal), which wins once the game is over.
    pub fn winner(&self) -> Option<Side> {
        match self.disc_difference(Side::First) {
            d if d > 0 => Some(Side::First),
            d if d < 0 => Some(Side::Second),
            _ => None,
        }
    }

    /// Every cell, row after row from the upper left (`rows * cols`; the order of
    /// [`Board::from_cells`] and of the wire format).
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::with_capacity(self.rows() * self.cols());
        for r in 0..self.rows {
            for c in 0..self.cols {
                out.push(self.cell(Square::new(r, c)));
            }
        }
        out
    }

    /// The blocked squares inside the rectangle, in scanline order.
    pub fn blocked(&self) -> Vec<Square> {
        (Bits::rectangle(self.rows(), self.cols()) & !self.playable)
            .iter()
            .map(Square::from_index)
            .collect()
    }

    /// The same layout and side to move with the discs of the start position (two and two in the
    /// centre), or `None` if a central square is blocked.
    pub fn restarted(&self) -> Option<Board> {
        let board = Board::start(self.rows(), self.cols(), &self.blocked()).ok()?;
        Some(board)
    }

    /// A 64-bit hash of the discs, the layout and the side to move (for transposition tables).
    ///
    /// Multiply-rotate mixing of the 12 words, then a final avalanche: a few multiplies per word,
    /// no table, and every input bit reaches every output bit.
    pub fn hash(&self) -> u64 {
        const K_WHITE: u64 = 0x9E37_79B9_7F4A_7C15;
        const K_RED: u64 = 0xC2B2_AE3D_27D4_EB4F;
        const K_LAYOUT: u64 = 0x1656_67B1_9E37_79F9;
        const K_MIX: u64 = 0xD6E8_FEB8_6659_FD93;
        let mut h: u64 = match self.to_move {
            Side::First => 0x2545_F491_4F6C_DD1D,
            Side::Second => 0x5851_F42D_4C95_7F2D,
        };
        for w in 0..4 {
            h ^= self.white.0[w].wrapping_mul(K_WHITE);
            h = h.rotate_left(27).wrapping_mul(K_MIX);
            h ^= self.red.0[w].wrapping_mul(K_RED);
            h = h.rotate_left(27).wrapping_mul(K_MIX);
            h ^= self.playable.0[w].wrapping_mul(K_LAYOUT);
            h = h.rotate_left(27).wrapping_mul(K_MIX);
        }
        h ^= h >> 32;
        h = h.wrapping_mul(K_MIX);
        h ^ (h >> 29)
    }
}

/// The variant's words for the sides: white moves first, red second.
pub trait SideNames {
    /// The wire number: 0 white, 1 red.
    fn wire(self) -> u8;
    /// The printed board's letter: `W` or `R`.
    fn letter(self) -> char;
    /// `white` or `red`.
    fn name(self) -> &'static str;
}

impl SideNames for Side {
    fn wire(self) -> u8 {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    fn letter(self) -> char {
        match self {
            Side::First => 'W',
            Side::Second => 'R',
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::First => "white",
            Side::Second => "red",
        }
    }
}

/// The side of a wire number (0 white, 1 red).
pub fn side_from_wire(n: u8) -> Option<Side> {
    match n {
        0 => Some(Side::First),
        1 => Some(Side::Second),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn corners(n: u8) -> Vec<Square> {
        vec![
            Square::new(0, 0),
            Square::new(0, n - 1),
            Square::new(n - 1, 0),
            Square::new(n - 1, n - 1),
        ]
    }

    #[test]
    fn the_start_has_four_discs_and_four_moves() {
        let b = Board::start(10, 10, &corners(10)).unwrap();
        assert_eq!(b.count(Side::First), 2);
        assert_eq!(b.count(Side::Second), 2);
        assert_eq!(b.empties(), 100 - 4 - 4);
        assert_eq!(b.cell(Square::new(4, 4)), Cell::Disc(Side::First));
        assert_eq!(b.cell(Square::new(5, 5)), Cell::Disc(Side::First));
        assert_eq!(b.cell(Square::new(4, 5)), Cell::Disc(Side::Second));
        assert_eq!(b.cell(Square::new(0, 0)), Cell::Blocked);
        assert_eq!(b.cell(Square::new(10, 3)), Cell::Blocked);
        assert_eq!(b.to_move(), Side::First);
        let moves = b.legal_moves();
        assert_eq!(
            moves,
            vec![
                Square::new(3, 5),
                Square::new(4, 6),
                Square::new(5, 3),
                Square::new(6, 4)
            ]
        );
        assert_eq!(b.mobility(), 4);
        let after = b.play(Square::new(3, 5)).unwrap();
        assert_eq!(after.count(Side::First), 4);
        assert_eq!(after.count(Side::Second), 1);
        assert_eq!(after.to_move(), Side::Second);
        assert!(b.play(Square::new(0, 0)).is_none());
        assert!(b.play(Square::new(3, 3)).is_none());
        assert!(b.play(Square::new(12, 3)).is_none());
        assert_eq!(b.flips(Square::new(4, 4)), 0);
    }

    #[test]
    fn lines_stop_at_blocked_squares_and_edges() {
        // W R R # W: the run of red ends at a blocked square, so (0, 0) is no move; on the
        // second row the line ends at a white disc past the edge of nothing: (1, 3) is a move.
        let b = Board::parse_printed(". R R # W\n. . . . .\nW R R . .\nto move: W").unwrap();
        assert_eq!(b.cell(Square::new(0, 3)), Cell::Blocked);
        assert!(!b.is_legal(Square::new(0, 0)));
        assert!(b.is_legal(Square::new(2, 3)));
        assert_eq!(b.flips(Square::new(2, 3)), 2);
        // A 16-column board: a red run at the right edge must not wrap into the next row.
        let mut text = String::new();
        text.push_str(&".".repeat(14));
        text.push_str("RR\n");
        text.push('W');
        text.push_str(&".".repeat(15));
        text.push('\n');
        let b = Board::parse_printed(&text).unwrap();
        assert_eq!(b.cols(), 16);
        assert!(b.legal_moves().is_empty());
        assert!(b.must_pass());
        assert!(b.is_over());
    }

    #[test]
    fn printed_boards_read_back() {
        let mut rng = Rng::new(5);
        for (rows, cols, k) in [(10, 10, 6), (6, 9, 3), (16, 16, 10), (8, 8, 0), (2, 2, 0)] {
            let mut b = Board::random_layout(rows, cols, k, &mut rng).unwrap();
            assert_eq!(b.blocked().len(), k);
            for _ in 0..7 {
                if let Some(&m) = b.legal_moves().first() {
                    b = b.play(m).unwrap();
                }
            }
            let text = b.printed();
            assert_eq!(Board::parse_printed(&text), Ok(b), "{text}");
            assert_eq!(text.parse::<Board>(), Ok(b));
            assert_eq!(
                Board::from_cells(rows, cols, &b.cells(), b.to_move()),
                Ok(b)
            );
        }
    }

    #[test]
    fn parse_errors_name_the_line() {
        let e = Board::parse_printed(". . .\n. . \n").unwrap_err();
        assert_eq!(e, VariantError::Line(2, LineFault::Width(2, 3)), "{e}");
        let e = Board::parse_printed(". . .\n. X .\n").unwrap_err();
        assert_eq!(e, VariantError::Line(2, LineFault::Character('X')), "{e}");
        assert!(e.to_string().contains("line 2") && e.to_string().contains('X'));
        let e = Board::parse_printed(". .\n. .\nto move: Q\n").unwrap_err();
        assert_eq!(e, VariantError::Line(3, LineFault::Side("Q".into())), "{e}");
        assert!(Board::parse_printed("  0 1 2\n\n").is_err());
        let framed = "+---+\n|W R|\n|R W|\n+---+\nto move: R\n";
        let b = Board::parse_printed(framed).unwrap();
        assert_eq!((b.rows(), b.cols(), b.to_move()), (2, 2, Side::Second));
    }

    #[test]
    fn bad_sizes_and_layouts_are_errors() {
        assert!(Board::start(1, 10, &[]).is_err());
        assert!(Board::start(17, 10, &[]).is_err());
        assert!(Board::start(10, 10, &[Square::new(4, 4)]).is_err());
        assert!(Board::start(10, 10, &[Square::new(10, 0)]).is_err());
        assert!(Board::from_cells(2, 2, &[Cell::Empty; 3], Side::First).is_err());
        assert!(Board::random_layout(4, 4, 13, &mut Rng::new(1)).is_err());
        assert!(Board::random_layout(4, 4, 12, &mut Rng::new(1)).is_ok());
    }

    #[test]
    fn random_layouts_are_reproducible_and_symmetric() {
        let a = Board::random_layout(10, 10, 8, &mut Rng::new(42)).unwrap();
        let b = Board::random_layout(10, 10, 8, &mut Rng::new(42)).unwrap();
        assert_eq!(a, b);
        for sq in a.blocked() {
            assert_eq!(a.cell(Square::new(9 - sq.row, 9 - sq.col)), Cell::Blocked);
        }
        let odd = Board::random_layout(9, 7, 5, &mut Rng::new(3)).unwrap();
        assert_eq!(odd.blocked().len(), 5);
    }

    #[test]
    fn passes_and_the_end() {
        // White can flank the red disc; red has nothing to flank.
        let b = Board::parse_printed("W R .\n. . .\nto move: W").unwrap();
        assert!(!b.must_pass());
        let r = b.pass();
        assert_eq!(r.to_move(), Side::Second);
        assert!(r.must_pass());
        assert!(!r.is_over());
        let end = b.play(Square::new(0, 2)).unwrap();
        assert_eq!(end.count(Side::First), 3);
        assert!(end.is_over());
        assert_eq!(end.winner(), Some(Side::First));
        assert_eq!(end.disc_difference(Side::Second), -3);
    }

    #[test]
    fn hashes_tell_sides_and_discs_apart() {
        let b = Board::start(10, 10, &[]).unwrap();
        assert_ne!(b.hash(), b.pass().hash());
        let mut seen = std::collections::HashSet::new();
        for m in b.legal_moves() {
            let c = b.play(m).unwrap();
            assert!(seen.insert(c.hash()));
            for m2 in c.legal_moves() {
                seen.insert(c.play(m2).unwrap().hash());
            }
        }
        assert!(seen.len() >= 12);
    }
}
