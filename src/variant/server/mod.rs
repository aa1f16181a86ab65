//! The referee of the course's game server (docs/formats.md, "The game server's wire format"): seats a white
//! and a red client on a listening socket, plays a session of games between them over the wire
//! format of [`super::wire`], and judges them: legality (an illegal move, a wrong pass or a
//! malformed move is a technical loss), passes, each player's wall-clock budget for the game
//! (running out is a loss) and disconnections (the session ends, the other client gets ABORT).
//! It returns every game as a [`GameRecord`] and tells its caller what happens through
//! [`Event`]s; it prints nothing.
//!
//! Choices (docs/variants.md, "The game server"):
//! - Colours are fixed per connection for the whole session: the client says which colour it
//!   plays in its hello, so it never has to change sides.
//! - Every read has a deadline: the hello must come within [`SessionConfig::hello_timeout`], a
//!   move before the mover's clock runs out (a silent client loses on time). Reads wait in slices
//!   of at most [`POLL`], so a stop request (Ctrl-C in `wedge server`) is seen within that time.
//! - The listening socket is closed as soon as both clients are seated, and every client socket
//!   when the session ends (after ABORT, a shut-down write side and a short wait for the client's
//!   own close, so that the last message is not lost to a reset).

mod record;
mod referee;
mod seating;
#[cfg(test)]
mod tests;

pub use record::{
    board_line, square_text, Ending, Foul, GameRecord, PlayedMove, SessionEnd, SessionReport,
    Totals,
};

use super::board::{Board, Side, SideNames, VariantError};
use super::wire::{ServerMessage, Status};
use crate::rng::Rng;
use referee::{message, play_game};
use seating::seat_clients;
use std::fmt;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The longest a read or an accept waits before the stop flag is looked at again.
pub const POLL: Duration = Duration::from_millis(50);

/// How long the server waits for a client to close its end after ABORT before closing its own.
const LINGER: Duration = Duration::from_millis(1000);

/// Where the games of a session start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Starts {
    /// Every game from this position (a layout, or a whole position file).
    Fixed(Board),
    /// Every game from the central start of a `rows` x `cols` board with `blocked` squares drawn
    /// at random, anew for each game; the same `seed` gives the same layouts in the same order.
    Random {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// Blocked squares per game.
        blocked: usize,
        /// Seed of the draws.
        seed: u64,
    },
}

impl Starts {
    /// The start positions in game order (the first error, e.g. too many blocked squares for the
    /// board, comes at the first draw: [`Starts::check`] finds it before a session).
    fn generator(&self) -> impl FnMut() -> Result<Board, VariantError> + '_ {
        let mut rng = match self {
            Starts::Random { seed, .. } => Rng::new(*seed),
            Starts::Fixed(_) => Rng::new(0),
        };
        move || match self {
            Starts::Fixed(board) => Ok(*board),
            Starts::Random {
                rows,
                cols,
                blocked,
                ..
            } => Board::random_layout(*rows, *cols, *blocked, &mut rng),
        }
    }

    /// Checks that a start can be made (draws the first one).
    pub fn check(&self) -> Result<(), VariantError> {
        (self.generator())().map(|_| ())
    }
}

/// What a session is: how many games, where they start, the clock.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// Games to play.
    pub games: u32,
    /// Each player's wall-clock budget for one game.
    pub time: Duration,
    /// The start of each game.
    pub starts: Starts,
    /// How long a connected client may take to send its hello.
    pub hello_timeout: Duration,
    /// How long a write to a client may block (a client that does not read is disconnected).
    pub write_timeout: Duration,
}

impl SessionConfig {
    /// A session of `games` games of `time` a player from `starts`, with 10-second hello and
    /// write timeouts.
    pub fn new(games: u32, time: Duration, starts: Starts) -> SessionConfig {
        SessionConfig {
            games,
            time,
            starts,
            hello_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
        }
    }
}

/// The index of a colour in the `[white, red]` arrays (its wire number).
fn idx(colour: Side) -> usize {
    usize::from(colour.wire())
}

/// Why a connection was closed without a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Too many connections were already waiting for their hello.
    TooManyWaiting,
    /// The socket could not be set up.
    Socket,
    /// No hello came in time.
    NoHello,
    /// The connection closed before its hello.
    GoneBeforeHello,
    /// The hello byte is neither 0 nor 1.
    BadHello(u8),
    /// The client closed its connection before the games began: its colour is free again.
    LeftBeforeGames(Side),
    /// The colour asked for is taken.
    Taken(Side),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooManyWaiting => f.write_str("too many connections waiting for their hello"),
            Refusal::Socket => f.write_str("the socket could not be set up"),
            Refusal::NoHello => f.write_str("no hello in time"),
            Refusal::GoneBeforeHello => f.write_str("closed before its hello"),
            Refusal::BadHello(b) => write!(
                f,
                "the hello must be 0 or 1, got \"{}\"",
                super::wire::escape_bytes(&[*b])
            ),
            Refusal::LeftBeforeGames(colour) => write!(
                f,
                "closed before the games began; {} is free again",
                colour.name()
            ),
            Refusal::Taken(colour) => write!(f, "{} is already taken", colour.name()),
        }
    }
}

/// What the referee tells its caller as the session goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A client took a seat.
    Seated {
        /// Its colour.
        colour: Side,
        /// Its address.
        peer: SocketAddr,
    },
    /// A connection was closed without a seat (a bad or missing hello, a colour already taken).
    Refused {
        /// Its address.
        peer: SocketAddr,
        /// Why.
        reason: Refusal,
    },
    /// A game starts from `board`.
    GameStarted {
        /// Its number, from 1.
        number: u32,
        /// The start position.
        board: &'a Board,
    },
    /// A move or pass was played.
    Played {
        /// The game's number.
        number: u32,
        /// The move.
        mv: PlayedMove,
        /// The mover's time left.
        time_left: Duration,
        /// The position after it.
        board: &'a Board,
    },
    /// A game ended.
    GameEnded(&'a GameRecord),
}

/// A failure of the listening socket (the games themselves never fail: a client's failure is
/// its loss).
#[derive(Debug)]
pub enum ServerError {
    /// Accepting connections failed.
    Accept(io::Error),
    /// No start position can be made (e.g. too many blocked squares for the board).
    Start(VariantError),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Accept(e) => write!(f, "accepting connections: {e}"),
            ServerError::Start(e) => write!(f, "start position: {e}"),
        }
    }
}

impl std::error::Error for ServerError {}

/// Runs a session on `listener`: seats a white and a red client, plays `config.games` games
/// between them, sends ABORT to whoever is still there and closes every socket (the listener as
/// soon as both clients are seated). Raising `stop` ends the session within [`POLL`] or so (the
/// game in progress is recorded as interrupted). Errors only for the listener itself.
pub fn run_session(
    listener: TcpListener,
    config: &SessionConfig,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<SessionReport, ServerError> {
    config.starts.check().map_err(ServerError::Start)?;
    let seated = seat_clients(&listener, config, stop, on_event)?;
    drop(listener);
    let mut report = SessionReport {
        planned: config.games,
        games: Vec::new(),
        end: SessionEnd::Interrupted,
        peers: [None, None],
    };
    let Some(mut seats) = seated else {
        return Ok(report);
    };
    report.peers = [Some(seats[0].peer), Some(seats[1].peer)];
    report.end = SessionEnd::Complete;
    let mut starts = config.starts.generator();
    let mut last_board = None;
    let mut last_clocks = [config.time; 2];
    let mut failure = None;
    for number in 1..=config.games {
        if stop.load(Ordering::SeqCst) {
            report.end = SessionEnd::Interrupted;
            break;
        }
        let start = match starts() {
            Ok(board) => board,
            Err(e) => {
                failure = Some(ServerError::Start(e));
                break;
            }
        };
        let record = play_game(&mut seats, number, start, config, stop, on_event);
        on_event(Event::GameEnded(&record));
        last_board = Some(record.end);
        last_clocks = record.time_left;
        let ending = record.ending.clone();
        report.games.push(record);
        match ending {
            Ending::Interrupted => {
                report.end = SessionEnd::Interrupted;
                break;
            }
            Ending::Disconnected { loser } => {
                report.end = SessionEnd::Disconnected {
                    colour: loser,
                    game: number,
                };
                break;
            }
            _ => {}
        }
        if let Some(gone) = seats.iter().position(|s| !s.alive) {
            // A client that vanished while GAME ENDED was sent to it.
            report.end = SessionEnd::Disconnected {
                colour: if gone == 0 { Side::First } else { Side::Second },
                game: number,
            };
            break;
        }
    }
    // ABORT shows the last position played (or the next start when no game was played; an empty
    // board if even that cannot be made: the cells of ABORT mean nothing to a client).
    let board = last_board.or_else(|| starts().ok());
    for (i, seat) in seats.iter_mut().enumerate() {
        let msg = match &board {
            Some(b) => message(Status::Abort, last_clocks[i], None, b),
            None => ServerMessage {
                status: Status::Abort,
                time_left: last_clocks[i],
                last_move: None,
                white: 0,
                red: 0,
                cells: Vec::new(),
            },
        };
        seat.send(&msg);
    }
    let until = Instant::now() + LINGER;
    for seat in seats {
        seat.close(until);
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(report),
    }
}
