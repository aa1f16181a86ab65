//! The WTHOR database format (`.wtb`), in which the French Othello federation publishes the archive
//! of tournament games: a 16-byte header, then 68 bytes a game.
//!
//! Header: the file's creation date (century, year, month, day: 4 bytes), the number of games
//! (u32, little-endian), a count used by other WTHOR files (u16), the games' year (u16), the board
//! size (u8: 0 or 8 for 8 x 8; other sizes are not Othello games wedge reads), a type byte, a depth
//! byte and one reserved byte. A game: the tournament, black and white player numbers (u16 each),
//! black's disc count at the end (u8), the theoretical score (u8), then 60 move bytes, each
//! `10 * row + column` with rows and columns 1..8 (`f5` is 56), 0 after the last move. Passes are
//! not written; they follow from the rules.

use super::text::Game;
use super::{Move, Position, Square};
use std::fmt;

/// The header's size in bytes.
pub const HEADER_BYTES: usize = 16;
/// One game's size in bytes.
pub const GAME_BYTES: usize = 68;

/// One game of a WTHOR file: its players' numbers (names are in a separate `.JOU` file) and its
/// moves from the standard start, passes inserted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// The tournament's number.
    pub tournament: u16,
    /// Black's player number.
    pub black: u16,
    /// White's player number.
    pub white: u16,
    /// Black's disc count at the end, as recorded.
    pub black_discs: u8,
    /// The game.
    pub game: Game,
}

/// Why a WTHOR file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WthorError {
    /// Shorter than the header.
    NoHeader,
    /// The board size byte is not 0 or 8.
    BoardSize(u8),
    /// The size does not match the header's game count.
    Length {
        /// Games the header announces.
        games: u32,
        /// Bytes after the header.
        bytes: usize,
    },
    /// A move byte is not a square.
    BadSquare {
        /// The game, from 1.
        game: usize,
        /// The move, from 1.
        number: usize,
        /// The byte.
        byte: u8,
    },
    /// A move is illegal in its position.
    Illegal {
        /// The game, from 1.
        game: usize,
        /// The move, from 1.
        number: usize,
        /// The move.
        mv: Move,
    },
}

impl fmt::Display for WthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WthorError::NoHeader => write!(f, "shorter than a WTHOR header ({HEADER_BYTES} bytes)"),
            WthorError::BoardSize(s) => write!(f, "board size {s}: only 8 x 8 games are read"),
            WthorError::Length { games, bytes } => write!(
                f,
                "the header announces {games} game{} of {GAME_BYTES} bytes, but {bytes} bytes follow it",
                if *games == 1 { "" } else { "s" }
            ),
            WthorError::BadSquare { game, number, byte } => {
                write!(f, "game {game}, move {number}: byte {byte} is not a square")
            }
            WthorError::Illegal { game, number, mv } => {
                write!(f, "game {game}, move {number}: {mv} is illegal")
            }
        }
    }
}

impl std::error::Error for WthorError {}

/// The square of a WTHOR move byte (`10 * row + column`, both 1..8).
fn square_of(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::from_coords(col - 1, row - 1)
    } else {
        None
    }
}

/// Reads the games of a WTHOR file's bytes.
pub fn parse_wthor(bytes: &[u8]) -> Result<Vec<WthorGame>, WthorError> {
    if bytes.len() < HEADER_BYTES {
        return Err(WthorError::NoHeader);
    }
    let games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    let size = bytes[12];
    if size != 0 && size != 8 {
        return Err(WthorError::BoardSize(size));
    }
    let body = &bytes[HEADER_BYTES..];
    if body.len() != games as usize * GAME_BYTES {
        return Err(WthorError::Length {
            games,
            bytes: body.len(),
        });
    }
    let mut out = Vec::with_capacity(games as usize);
    for (g, record) in body.chunks_exact(GAME_BYTES).enumerate() {
        let u16_at = |i: usize| u16::from_le_bytes([record[i], record[i + 1]]);
        let mut game = Game::new(Position::START);
        let mut pos = Position::START;
        for (i, &byte) in record[8..].iter().enumerate() {
            if byte == 0 {
                break;
            }
            let number = i + 1;
            let sq = square_of(byte).ok_or(WthorError::BadSquare {
                game: g + 1,
                number,
                byte,
            })?;
            if pos.board.must_pass() && !pos.board.is_game_over() {
                game.moves.push(Move::PASS);
                pos = pos.play(Move::PASS).unwrap_or(pos);
            }
            let mv = Move::from(sq);
            pos = pos.play(mv).ok_or(WthorError::Illegal {
                game: g + 1,
                number,
                mv,
            })?;
            game.moves.push(mv);
        }
        out.push(WthorGame {
            tournament: u16_at(0),
            black: u16_at(2),
            white: u16_at(4),
            black_discs: record[6],
            game,
        });
    }
    Ok(out)
}

/// The bytes of a WTHOR file holding `games` (for tests and for tools that write archives): the
/// header with the given year and no creation date, each game's moves without passes.
pub fn write_wthor(games: &[WthorGame], year: u16) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_BYTES];
    out[4..8].copy_from_slice(&(games.len() as u32).to_le_bytes());
    out[10..12].copy_from_slice(&year.to_le_bytes());
    out[12] = 8;
    for g in games {
        let mut record = [0u8; GAME_BYTES];
        record[0..2].copy_from_slice(&g.tournament.to_le_bytes());
        record[2..4].copy_from_slice(&g.black.to_le_bytes());
        record[4..6].copy_from_slice(&g.white.to_le_bytes());
        record[6] = g.black_discs;
        record[7] = g.black_discs;
        for (i, mv) in g
            .game
            .moves
            .iter()
            .filter(|m| !m.is_pass())
            .take(60)
            .enumerate()
        {
            if let Some(sq) = mv.square() {
                record[8 + i] = (sq.row() + 1) * 10 + sq.col() + 1;
            }
        }
        out.extend_from_slice(&record);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_ten_times_the_row_plus_the_column() {
        assert_eq!(square_of(56).unwrap().to_string(), "f5");
        assert_eq!(square_of(11).unwrap().to_string(), "a1");
        assert_eq!(square_of(88).unwrap().to_string(), "h8");
        for bad in [0, 9, 10, 19, 90, 255] {
            assert!(square_of(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn games_round_trip_and_bad_files_are_refused() {
        let game: Game = "f5d6c3d3c4f4f6f3e6e7".parse().unwrap();
        let g = WthorGame {
            tournament: 7,
            black: 12,
            white: 34,
            black_discs: 33,
            game,
        };
        let bytes = write_wthor(std::slice::from_ref(&g), 2026);
        assert_eq!(bytes.len(), HEADER_BYTES + GAME_BYTES);
        assert_eq!(parse_wthor(&bytes).unwrap(), vec![g]);
        assert_eq!(parse_wthor(&bytes[..10]), Err(WthorError::NoHeader));
        assert!(matches!(
            parse_wthor(&bytes[..bytes.len() - 1]),
            Err(WthorError::Length { games: 1, .. })
        ));
        let mut illegal = bytes.clone();
        illegal[HEADER_BYTES + 8] = 11; // a1 as the first move
        assert!(matches!(
            parse_wthor(&illegal),
            Err(WthorError::Illegal {
                game: 1,
                number: 1,
                ..
            })
        ));
    }
}
