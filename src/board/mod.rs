//! The board and every rule of Othello: discs as two bitboards (side to move, opponent), legal moves,
//! flips, playing and passing, the end of the game and its score, the 8 symmetries and a position hash.
//!
//! `Board` is relative (it knows "the side to move", not which colour that is); `Position` adds the
//! colour for text formats and protocol use. Both are 16-17 byte `Copy` values: play is copy-make and
//! nothing here allocates.

pub mod bitboard;
pub mod ggf;
pub mod movegen;
pub mod square;
pub mod stability;
pub mod symmetry;
pub mod text;
pub mod wthor;

pub use bitboard::Bitboard;
pub use square::{Color, Move, ParseSquareError, Square};
pub use symmetry::Symmetry;

use std::fmt;

/// A 64-bit hash of the discs of the side to move (`player`) and of the other side (`opponent`).
///
/// Two rounds of multiply-xorshift mixing over both words: every input bit affects every output bit,
/// and it costs a few multiplies instead of 64 table lookups (a Zobrist hash would need one lookup per
/// disc, or an incremental update through every flip).
#[inline]
pub const fn hash(player: u64, opponent: u64) -> u64 {
    let mut h = player.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 32)
}

/// The final score of a finished game for the side with discs `player` (world rule: empties to the
/// winner); see [`Board::final_score`].
#[inline]
pub const fn final_score(player: u64, opponent: u64) -> i32 {
    let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
    let empties = 64 - (player | opponent).count_ones() as i32;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// Discs of the side to move (`player`) and of the other side (`opponent`), one bit per square.
///
/// Invariant: the two sets are disjoint (checked by [`Board::new`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    player: u64,
    opponent: u64,
}

/// Why a pair of bitboards is not a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlapError(pub u64);

impl fmt::Display for OverlapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "both sides have a disc on the same square(s): {:#018x}",
            self.0
        )
    }
}

impl std::error::Error for OverlapError {}

impl Board {
    /// The standard start position from black's point of view (black to move): white on d4 and e5,
    /// black on d5 and e4.
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// A board from the side to move's and the opponent's discs; fails if they overlap.
    pub fn new(player: u64, opponent: u64) -> Result<Board, OverlapError> {
        if player & opponent != 0 {
            Err(OverlapError(player & opponent))
        } else {
            Ok(Board { player, opponent })
        }
    }

    /// Discs of the side to move.
    #[inline]
    pub const fn player(self) -> u64 {
        self.player
    }

    /// Discs of the side not to move.
    #[inline]
    pub const fn opponent(self) -> u64 {
        self.opponent
    }

    /// Empty squares.
    #[inline]
    pub const fn empties(self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline]
    pub const fn empty_count(self) -> u32 {
        self.empties().count_ones()
    }

    /// Legal squares for the side to move.
    #[inline]
    pub fn legal_moves(self) -> Bitboard {
        Bitboard(movegen::legal_moves(self.player, self.opponent))
    }

    /// Whether the side to move has at least one square to play.
    #[inline]
    pub fn can_move(self) -> bool {
        movegen::legal_moves(self.player, self.opponent) != 0
    }

    /// Whether the side to move must pass: it has no move but the opponent has one.
    #[inline]
    pub fn must_pass(self) -> bool {
        !self.can_move() && self.pass().can_move()
    }

    /// Whether the game is over: neither side can move (a full board is a special case).
    #[inline]
    pub fn is_game_over(self) -> bool {
        !self.can_move() && !self.pass().can_move()
    }

    /// Discs that playing `sq` would flip; empty if `sq` is occupied or the move is illegal.
    #[inline]
    pub fn flips(self, sq: Square) -> Bitboard {
        if self.empties() & sq.bit() == 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(sq.index(), self.player, self.opponent))
    }

    /// Whether `mv` is legal here (a pass is legal only when the side to move must pass).
    pub fn is_legal(self, mv: Move) -> bool {
        match mv.square() {
            Some(sq) => !self.flips(sq).is_empty(),
            None => self.must_pass(),
        }
    }

    /// The board after the side to move plays `sq` with the given (non-empty) `flips`, from the new
    /// side to move's point of view. The caller has computed `flips` with [`Board::flips`].
    #[inline]
    pub fn play_with_flips(self, sq: Square, flips: Bitboard) -> Board {
        Board {
            player: self.opponent ^ flips.0,
            opponent: self.player | flips.0 | sq.bit(),
        }
    }

    /// The board after playing `sq`, or `None` if the move is illegal (occupied or flips nothing).
    #[inline]
    pub fn play(self, sq: Square) -> Option<Board> {
        let f = self.flips(sq);
        if f.is_empty() {
            None
        } else {
            Some(self.play_with_flips(sq, f))
        }
    }

    /// The board after `mv`, or `None` if it is illegal here (see [`Board::is_legal`]).
    pub fn play_move(self, mv: Move) -> Option<Board> {
        match mv.square() {
            Some(sq) => self.play(sq),
            None if self.must_pass() => Some(self.pass()),
            None => None,
        }
    }

    /// The board with the turn handed to the opponent (no disc changes). Whether the pass is legal
    /// is the caller's business; see [`Board::must_pass`].
    #[inline]
    pub const fn pass(self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Disc difference (side to move minus opponent) with the empty squares not counted.
    #[inline]
    pub const fn disc_difference(self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score of a finished game for the side to move, under the world rule: the empty
    /// squares go to the winner (none to either side on a draw).
    #[inline]
    pub const fn final_score(self) -> i32 {
        final_score(self.player, self.opponent)
    }

    /// The board seen through symmetry `s` (both bitboards transformed alike).
    #[inline]
    pub fn transform(self, s: Symmetry) -> Board {
        Board {
            player: s.apply(self.player),
            opponent: s.apply(self.opponent),
        }
    }

    /// The canonical form of this board among its 8 symmetric images (the least by `(player,
    /// opponent)`), together with the symmetry that maps this board to it.
    pub fn canonical(self) -> (Board, Symmetry) {
        let mut best = (self, Symmetry::Identity);
        for s in Symmetry::ALL {
            let b = self.transform(s);
            if (b.player, b.opponent) < (best.0.player, best.0.opponent) {
                best = (b, s);
            }
        }
        best
    }

    /// A 64-bit hash of the position, suitable for indexing a transposition table; see [`hash`].
    #[inline]
    pub const fn hash(self) -> u64 {
        hash(self.player, self.opponent)
    }
}

/// A board with the colour of the side to move: what text formats and the protocol speak of.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The discs, relative to the side to move.
    pub board: Board,
    /// The colour of the side to move.
    pub side: Color,
}

impl Position {
    /// The standard start: black to move.
    pub const START: Position = Position {
        board: Board::START,
        side: Color::Black,
    };

    /// A position from black's and white's discs and the side to move.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Result<Position, OverlapError> {
        let board = match side {
            Color::Black => Board::new(black, white)?,
            Color::White => Board::new(white, black)?,
        };
        Ok(Position { board, side })
    }

    /// Black's discs.
    pub const fn black(self) -> u64 {
        match self.side {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    pub const fn white(self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// The position after `mv`, or `None` if it is illegal.
    pub fn play(self, mv: Move) -> Option<Position> {
        self.board.play_move(mv).map(|board| Position {
            board,
            side: self.side.opposite(),
        })
    }

    /// The legal moves as a list: the squares, or just `[Move::PASS]` when the side must pass, or
    /// nothing when the game is over.
    pub fn legal_move_list(self) -> Vec<Move> {
        let moves = self.board.legal_moves();
        if !moves.is_empty() {
            moves.map(Move::play).collect()
        } else if self.board.must_pass() {
            vec![Move::PASS]
        } else {
            Vec::new()
        }
    }

    /// Final disc difference from black's point of view (only meaningful when the game is over).
    pub const fn black_final_score(self) -> i32 {
        let s = self.board.final_score();
        match self.side {
            Color::Black => s,
            Color::White => -s,
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_moves() {
        let moves: Vec<String> = Board::START.legal_moves().map(|s| s.to_string()).collect();
        assert_eq!(moves, vec!["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn overlap_is_rejected() {
        assert!(Board::new(1, 1).is_err());
        assert!(Board::new(1, 2).is_ok());
    }

    #[test]
    fn hash_distinguishes_side_to_move() {
        assert_ne!(Board::START.hash(), Board::START.pass().hash());
    }
}
