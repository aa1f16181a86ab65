//! A client of the course's game server (docs/formats.md, "The game server's wire format"): sends the hello,
//! then answers the server's messages until ABORT: a move from a [`Player`] on GIVE MOVE, the pass
//! on CAN NOT MOVE, a fresh game on GAME ENDED. It owns the session loop and its tally; it prints
//! nothing (its caller hears [`ClientEvent`]s) and never panics on what the server sends: a
//! malformed message ends the session with an error that carries its bytes.
//!
//! The wire format does not carry the board's size (docs/formats.md, "Wire format notes"): the
//! client is told `rows x cols`, or, when it is not, takes a message of `n` cells for a square
//! board of side `sqrt(n)` (10 x 10 for the course's 100 cells); any other count is an error that
//! asks for the size.

use super::board::{Board, Side, Square, VariantError, MAX_SIDE};
use super::player::{Limits, Player};
use super::wire::{self, DecodeError, ReadError, ServerMessage, Status, WireMove};
use std::fmt;
use std::io::{self, Read, Write};
use std::time::Duration;

/// How the client plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientConfig {
    /// The colour it asks for in its hello.
    pub colour: Side,
    /// The board's rows and columns, if known; `None`: a square board from the cell count.
    pub size: Option<(usize, usize)>,
    /// Search at most this many plies a move.
    pub depth: Option<u32>,
    /// Think at most this long a move.
    pub movetime: Option<Duration>,
}

/// What the client tells its caller as the session goes.
#[derive(Debug)]
pub enum ClientEvent<'a> {
    /// A message arrived.
    Received(&'a ServerMessage),
    /// The client answered (`None`: the pass).
    Sent(Option<Square>),
    /// A game ended; its final counts.
    GameEnded {
        /// The game's number, from 1.
        number: u32,
        /// The client's discs.
        mine: u32,
        /// The opponent's discs.
        theirs: u32,
        /// True when neither side could move any more (false: the server ended the game early, on
        /// time or for an illegal move; the wire does not say which nor who lost).
        finished: bool,
    },
}

/// The session's tally from the client's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientReport {
    /// Games that ended (GAME ENDED received).
    pub games: u32,
    /// Finished games with more discs than the opponent.
    pub wins: u32,
    /// Finished games with fewer discs.
    pub losses: u32,
    /// Finished games with as many discs.
    pub draws: u32,
    /// Games the server ended before the position was over (time, illegal move).
    pub unfinished: u32,
    /// The client's discs at the end of every game.
    pub discs: u32,
    /// The opponent's discs at the end of every game.
    pub opponent_discs: u32,
    /// True when ABORT came in the middle of a game (the opponent went away, or the server
    /// stopped).
    pub aborted_mid_game: bool,
}

/// Why a session ended badly.
#[derive(Debug)]
pub enum ClientError {
    /// The connection failed.
    Io(io::Error),
    /// The server closed the connection without ABORT (`partial`: an unfinished message).
    Closed {
        /// Bytes of the unfinished message.
        partial: Vec<u8>,
    },
    /// The server sent something that is not a message.
    Malformed(DecodeError),
    /// A message's cells are not a board of the expected size.
    Size {
        /// The cells the message had.
        cells: usize,
        /// The size the client was told, if any.
        expected: Option<(usize, usize)>,
        /// The message.
        bytes: Vec<u8>,
    },
    /// A message's cells are not a valid board.
    Board {
        /// What is wrong.
        error: VariantError,
        /// The message.
        bytes: Vec<u8>,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Io(e) => write!(f, "connection: {e}"),
            ClientError::Closed { partial } if partial.is_empty() => {
                f.write_str("the server closed the connection without ABORT")
            }
            ClientError::Closed { partial } => write!(
                f,
                "the server closed the connection in the middle of a message (bytes: \"{}\")",
                wire::escape_bytes(partial)
            ),
            ClientError::Malformed(e) => write!(f, "malformed server message: {e}"),
            ClientError::Size {
                cells,
                expected: Some((rows, cols)),
                bytes,
            } => write!(
                f,
                "the server sent {cells} cells, not {rows} x {cols} (bytes: \"{}\")",
                wire::escape_bytes(bytes)
            ),
            ClientError::Size { cells, bytes, .. } => write!(
                f,
                "the server sent {cells} cells, not a square board: give the size (--size RxC) (bytes: \"{}\")",
                wire::escape_bytes(bytes)
            ),
            ClientError::Board { error, bytes } => write!(
                f,
                "the server's board is not valid: {error} (bytes: \"{}\")",
                wire::escape_bytes(bytes)
            ),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<ReadError> for ClientError {
    fn from(e: ReadError) -> ClientError {
        match e {
            ReadError::Io(e) => ClientError::Io(e),
            ReadError::Closed { partial } => ClientError::Closed { partial },
            ReadError::Malformed(e) => ClientError::Malformed(e),
        }
    }
}

/// Time kept back from the reported clock for the network and the server's own measurement: 50 ms
/// and 2% of what is left.
fn reserve(time_left: Duration) -> Duration {
    Duration::from_millis(50) + time_left / 50
}

/// The board's rows and columns for a message of `cells` cells.
fn board_size(cells: usize, told: Option<(usize, usize)>) -> Option<(usize, usize)> {
    match told {
        Some((rows, cols)) => (rows * cols == cells).then_some((rows, cols)),
        None => (2..=MAX_SIDE)
            .find(|side| side * side == cells)
            .map(|side| (side, side)),
    }
}

/// The position a message shows, `to_move` to move (`raw`: the message's bytes, for errors).
fn board_of(
    msg: &ServerMessage,
    raw: &[u8],
    to_move: Side,
    config: &ClientConfig,
) -> Result<Board, ClientError> {
    let bytes = || raw.to_vec();
    let (rows, cols) =
        board_size(msg.cells.len(), config.size).ok_or_else(|| ClientError::Size {
            cells: msg.cells.len(),
            expected: config.size,
            bytes: bytes(),
        })?;
    Board::from_cells(rows, cols, &msg.cells, to_move).map_err(|error| ClientError::Board {
        error,
        bytes: bytes(),
    })
}

/// Plays a session: sends the hello for `config.colour` on `writer`, then reads messages from
/// `reader` (buffer it) and answers them with `player`'s moves until ABORT, which ends the session
/// with the tally. A malformed message, a board of the wrong size or a connection that ends
/// without ABORT is an error.
pub fn play_session(
    reader: &mut impl Read,
    writer: &mut impl Write,
    config: &ClientConfig,
    player: &mut Player,
    on_event: &mut dyn FnMut(ClientEvent<'_>),
) -> Result<ClientReport, ClientError> {
    let me = config.colour;
    writer
        .write_all(&[wire::hello_byte(me)])
        .and_then(|()| writer.flush())
        .map_err(ClientError::Io)?;
    let mut report = ClientReport::default();
    let mut in_game = false;
    loop {
        let (msg, raw) = wire::read_message(reader)?;
        on_event(ClientEvent::Received(&msg));
        match msg.status {
            Status::GiveMove | Status::CanNotMove => {
                in_game = true;
                let answer = if msg.status == Status::CanNotMove {
                    None
                } else {
                    let board = board_of(&msg, &raw, me, config)?;
                    let limits = Limits {
                        depth: config.depth,
                        movetime: config.movetime,
                        clock: Some(crate::game::clock::Clock::sudden_death(
                            msg.time_left
                                .saturating_sub(reserve(msg.time_left))
                                .max(Duration::from_millis(1)),
                        )),
                    };
                    // No move found under GIVE MOVE: answer the pass and let the referee judge.
                    player.choose(&board, &limits)
                };
                writer
                    .write_all(&WireMove::new(answer).encode())
                    .and_then(|()| writer.flush())
                    .map_err(ClientError::Io)?;
                on_event(ClientEvent::Sent(answer));
            }
            Status::GameEnded => {
                in_game = false;
                let board = board_of(&msg, &raw, me, config)?;
                let (mine, theirs) = match me {
                    Side::First => (msg.white, msg.red),
                    Side::Second => (msg.red, msg.white),
                };
                let finished = board.is_over();
                // Saturating: a server may send any number of GAME ENDED messages and discs.
                let add = |n: &mut u32, k: u32| *n = n.saturating_add(k);
                add(&mut report.games, 1);
                add(&mut report.discs, mine);
                add(&mut report.opponent_discs, theirs);
                if !finished {
                    add(&mut report.unfinished, 1);
                } else if mine > theirs {
                    add(&mut report.wins, 1);
                } else if mine < theirs {
                    add(&mut report.losses, 1);
                } else {
                    add(&mut report.draws, 1);
                }
                on_event(ClientEvent::GameEnded {
                    number: report.games,
                    mine,
                    theirs,
                    finished,
                });
                player.new_game();
            }
            Status::Abort => {
                report.aborted_mid_game = in_game;
                return Ok(report);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_come_from_the_cell_count_or_the_size_given() {
        assert_eq!(board_size(100, None), Some((10, 10)));
        assert_eq!(board_size(64, None), Some((8, 8)));
        assert_eq!(board_size(80, None), None);
        assert_eq!(board_size(80, Some((8, 10))), Some((8, 10)));
        assert_eq!(board_size(100, Some((8, 10))), None);
        assert_eq!(board_size(1, None), None);
    }

    #[test]
    fn the_reserve_is_small() {
        assert_eq!(
            reserve(Duration::from_secs(100)),
            Duration::from_millis(2050)
        );
        assert_eq!(reserve(Duration::ZERO), Duration::from_millis(50));
    }
}
