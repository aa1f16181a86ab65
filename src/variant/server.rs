//! The referee of the course's game server (`../shared/design/variant-server.md`): seats a white
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

use super::board::{Board, Cell, Colour, Square, VariantError};
use super::wire::{self, ServerMessage, Status, WireMove, MOVE_LEN};
use crate::rng::Rng;
use std::fmt;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
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

/// A move of a finished record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Who played it.
    pub colour: Colour,
    /// The square, or `None` for a pass.
    pub square: Option<Square>,
    /// The time it took, from the server's message to the whole move read.
    pub used: Duration,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Neither side could move: the discs decide.
    Finished,
    /// `loser`'s clock ran out.
    Time {
        /// Who ran out of time.
        loser: Colour,
    },
    /// `loser` sent an illegal move, a wrong pass or a malformed move.
    Illegal {
        /// Who lost.
        loser: Colour,
        /// What was wrong, with what was sent.
        what: String,
    },
    /// `loser`'s connection closed or failed.
    Disconnected {
        /// Who went away.
        loser: Colour,
    },
    /// The server was stopped (Ctrl-C) during the game: no result.
    Interrupted,
}

/// One game as the server saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Its number in the session, from 1.
    pub number: u32,
    /// Games in the session.
    pub of: u32,
    /// The start position (layout, discs, side to move).
    pub start: Board,
    /// The moves and passes, in order.
    pub moves: Vec<PlayedMove>,
    /// The last position.
    pub end: Board,
    /// How it ended.
    pub ending: Ending,
    /// Each player's budget for the game.
    pub time: Duration,
    /// Time left at the end: white's, red's.
    pub time_left: [Duration; 2],
    /// The clients' addresses: white's, red's.
    pub peers: [SocketAddr; 2],
    /// When the game started, in seconds since 1970.
    pub started: u64,
}

/// The index of a colour in the `[white, red]` arrays.
fn idx(colour: Colour) -> usize {
    match colour {
        Colour::White => 0,
        Colour::Red => 1,
    }
}

/// The printed board's letter of a colour.
fn letter(colour: Colour) -> char {
    match colour {
        Colour::White => 'W',
        Colour::Red => 'R',
    }
}

/// A colour's name.
fn name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Red => "red",
    }
}

/// A square's name as the records (and the engine protocol) write it: the column's letter `a`-`p`
/// then the row from 1, so the wire's (r, c) is letter c, number r + 1: (0, 0) is `a1`, (3, 5)
/// is `f4`, (9, 9) is `j10`.
pub fn square_text(sq: Square) -> String {
    format!(
        "{}{}",
        char::from(b'a' + sq.col.min(25)),
        u32::from(sq.row) + 1
    )
}

/// The board in one line: `RxC` then the rows (cells `.`, `W`, `R`, `#`) joined by `/`, then the
/// side to move (`W` or `R`). E.g. `4x4 #..#/.WR./.RW./#..# W`.
pub fn board_line(board: &Board) -> String {
    let mut rows = Vec::with_capacity(board.rows());
    for row in 0..board.rows() {
        let mut text = String::with_capacity(board.cols());
        for col in 0..board.cols() {
            text.push(
                match board.cell(Square {
                    row: row as u8,
                    col: col as u8,
                }) {
                    Cell::Empty => '.',
                    Cell::Blocked => '#',
                    Cell::Disc(c) => letter(c),
                },
            );
        }
        rows.push(text);
    }
    format!(
        "{}x{} {} {}",
        board.rows(),
        board.cols(),
        rows.join("/"),
        letter(board.to_move())
    )
}

/// Seconds with two decimals.
fn seconds(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

impl GameRecord {
    /// The winner (`None`: a draw, or an interrupted game).
    pub fn winner(&self) -> Option<Colour> {
        match &self.ending {
            Ending::Finished => {
                let (w, r) = (self.end.count(Colour::White), self.end.count(Colour::Red));
                match w.cmp(&r) {
                    std::cmp::Ordering::Greater => Some(Colour::White),
                    std::cmp::Ordering::Less => Some(Colour::Red),
                    std::cmp::Ordering::Equal => None,
                }
            }
            Ending::Time { loser } | Ending::Disconnected { loser } => Some(loser.other()),
            Ending::Illegal { loser, .. } => Some(loser.other()),
            Ending::Interrupted => None,
        }
    }

    /// The result as the record writes it: `W+12`, `R+4`, `draw` for a finished game; the winner's
    /// letter and the reason for a forfeit (`R:time`, `W:illegal`, `W:disconnect`); `?:interrupted`.
    pub fn result(&self) -> String {
        let diff = self.end.count(Colour::White) as i64 - self.end.count(Colour::Red) as i64;
        let winner = self.winner().map(letter).unwrap_or('?');
        match &self.ending {
            Ending::Finished if diff == 0 => "draw".to_string(),
            Ending::Finished => format!("{winner}+{}", diff.abs()),
            Ending::Time { .. } => format!("{winner}:time"),
            Ending::Illegal { .. } => format!("{winner}:illegal"),
            Ending::Disconnected { .. } => format!("{winner}:disconnect"),
            Ending::Interrupted => "?:interrupted".to_string(),
        }
    }

    /// A sentence for people: `white wins 56-40`, `red wins: white ran out of time`, ...
    pub fn describe(&self) -> String {
        let (w, r) = (self.end.count(Colour::White), self.end.count(Colour::Red));
        match &self.ending {
            Ending::Finished => match self.winner() {
                Some(c) => format!("{} wins {w}-{r} (white-red)", name(c)),
                None => format!("draw {w}-{r}"),
            },
            Ending::Time { loser } => format!(
                "{} wins: {} ran out of time ({w}-{r} on the board)",
                name(loser.other()),
                name(*loser)
            ),
            Ending::Illegal { loser, what } => format!(
                "{} wins: technical loss of {}: {what}",
                name(loser.other()),
                name(*loser)
            ),
            Ending::Disconnected { loser } => format!(
                "{} wins: {} disconnected",
                name(loser.other()),
                name(*loser)
            ),
            Ending::Interrupted => "interrupted, no result".to_string(),
        }
    }

    /// The game as one GGF-like line (docs/variants.md, "Records"):
    /// `(;GM[Othello variant]PC[wedge server]DT[..]GN[1/10]TI[120.00]PW[addr]PR[addr]
    /// BO[10x10 ... W]W[g5//0.12]R[PA//0.01]...RE[W+12]SC[56-40]TL[101.22 98.07];)` with `CM[..]`
    /// naming a technical loss.
    pub fn ggf(&self) -> String {
        let mut out = format!(
            "(;GM[Othello variant]PC[wedge server]DT[{}]GN[{}/{}]TI[{}]PW[{}]PR[{}]BO[{}]",
            self.started,
            self.number,
            self.of,
            seconds(self.time),
            self.peers[0],
            self.peers[1],
            board_line(&self.start)
        );
        for mv in &self.moves {
            let square = mv.square.map(square_text).unwrap_or_else(|| "PA".into());
            out.push_str(&format!(
                "{}[{square}//{}]",
                letter(mv.colour),
                seconds(mv.used)
            ));
        }
        out.push_str(&format!(
            "RE[{}]SC[{}-{}]TL[{} {}]",
            self.result(),
            self.end.count(Colour::White),
            self.end.count(Colour::Red),
            seconds(self.time_left[0]),
            seconds(self.time_left[1])
        ));
        if let Ending::Illegal { what, .. } = &self.ending {
            out.push_str(&format!("CM[{}]", what.replace([']', '['], "")));
        }
        out.push_str(";)");
        out
    }
}

/// Why a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// Every game was played.
    Complete,
    /// A client went away during game `game` (the session stops there).
    Disconnected {
        /// Who went away.
        colour: Colour,
        /// In which game (from 1).
        game: u32,
    },
    /// The server was stopped (before or during the games).
    Interrupted,
}

/// What a session produced.
#[derive(Clone, Debug)]
pub struct SessionReport {
    /// Games planned.
    pub planned: u32,
    /// The games played (an interrupted game included, without a result).
    pub games: Vec<GameRecord>,
    /// Why the session ended.
    pub end: SessionEnd,
    /// The clients' addresses, white's and red's (`None` for a seat never taken).
    pub peers: [Option<SocketAddr>; 2],
}

/// One colour's totals over a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Discs at the end of every game.
    pub discs: u32,
    /// Games lost on time.
    pub time_losses: u32,
    /// Games lost by an illegal or malformed move or a wrong pass.
    pub illegal_losses: u32,
    /// Games lost by going away.
    pub disconnects: u32,
}

impl SessionReport {
    /// The totals of `colour` (an interrupted game counts for nothing).
    pub fn totals(&self, colour: Colour) -> Totals {
        let mut t = Totals::default();
        for game in &self.games {
            if game.ending == Ending::Interrupted {
                continue;
            }
            t.discs += game.end.count(colour);
            match game.winner() {
                Some(c) if c == colour => t.wins += 1,
                Some(_) => {
                    t.losses += 1;
                    match game.ending {
                        Ending::Time { .. } => t.time_losses += 1,
                        Ending::Illegal { .. } => t.illegal_losses += 1,
                        Ending::Disconnected { .. } => t.disconnects += 1,
                        Ending::Finished | Ending::Interrupted => {}
                    }
                }
                None => t.draws += 1,
            }
        }
        t
    }

    /// The summary for people: games played, why the session ended, then one line a colour.
    pub fn summary(&self) -> String {
        let decided = self
            .games
            .iter()
            .filter(|g| g.ending != Ending::Interrupted)
            .count();
        let why = match &self.end {
            SessionEnd::Complete => "all games played".to_string(),
            SessionEnd::Disconnected { colour, game } => {
                format!("{} disconnected in game {game}", name(*colour))
            }
            SessionEnd::Interrupted => "interrupted".to_string(),
        };
        let mut out = format!(
            "session: {decided} of {} games played ({why})\n",
            self.planned
        );
        for colour in [Colour::White, Colour::Red] {
            let t = self.totals(colour);
            let peer = self.peers[idx(colour)]
                .map(|p| p.to_string())
                .unwrap_or_else(|| "-".into());
            out.push_str(&format!(
                "{:<5} {peer}: {} wins, {} losses, {} draws, {} discs (lost on time {}, by illegal moves {}, by disconnecting {})\n",
                name(colour),
                t.wins,
                t.losses,
                t.draws,
                t.discs,
                t.time_losses,
                t.illegal_losses,
                t.disconnects
            ));
        }
        out
    }
}

/// What the referee tells its caller as the session goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A client took a seat.
    Seated {
        /// Its colour.
        colour: Colour,
        /// Its address.
        peer: SocketAddr,
    },
    /// A connection was closed without a seat (a bad or missing hello, a colour already taken).
    Refused {
        /// Its address.
        peer: SocketAddr,
        /// Why.
        reason: String,
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

/// Why a deadline-bound read did not get its bytes.
enum ReadFailure {
    /// The deadline passed.
    Timeout,
    /// The peer closed the connection or it failed.
    Gone,
    /// The stop flag was raised.
    Stopped,
}

/// A seated client.
struct Seat {
    stream: TcpStream,
    peer: SocketAddr,
    /// False once a read or write failed: nothing more is sent to it.
    alive: bool,
}

impl Seat {
    /// Sends `msg`; a failure marks the seat dead.
    fn send(&mut self, msg: &ServerMessage) -> bool {
        if self.alive {
            let ok = self
                .stream
                .write_all(&msg.encode())
                .and_then(|()| self.stream.flush());
            self.alive = ok.is_ok();
        }
        self.alive
    }

    /// Closes after ABORT: shuts the write side, waits up to `until` for the client's own close
    /// (discarding anything it still sends), then drops the socket.
    fn close(self, until: Instant) {
        let _ = self.stream.shutdown(Shutdown::Write);
        if !self.alive {
            return;
        }
        let mut stream = self.stream;
        let mut sink = [0u8; 256];
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
                break;
            }
            match stream.read(&mut sink) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
    }
}

/// Reads exactly `buf.len()` bytes from `stream` before `deadline`, skipping `\0`, CR and LF
/// before the first byte (none of them can start a move or a hello; a client that ends its hello
/// with a `\0` or a newline is understood). Waits in slices of [`POLL`] to see `stop`.
fn read_exact_by(
    stream: &mut TcpStream,
    buf: &mut [u8],
    deadline: Instant,
    stop: &AtomicBool,
) -> Result<(), ReadFailure> {
    let mut filled = 0;
    while filled < buf.len() {
        if stop.load(Ordering::SeqCst) {
            return Err(ReadFailure::Stopped);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ReadFailure::Timeout);
        }
        let slice = left.min(POLL).max(Duration::from_millis(1));
        if stream.set_read_timeout(Some(slice)).is_err() {
            return Err(ReadFailure::Gone);
        }
        match stream.read(&mut buf[filled..]) {
            Ok(0) => return Err(ReadFailure::Gone),
            Ok(n) => {
                if filled == 0 {
                    let skip = buf[..n]
                        .iter()
                        .take_while(|&&b| matches!(b, 0 | b'\r' | b'\n'))
                        .count();
                    buf.copy_within(skip..n, 0);
                    filled = n - skip;
                } else {
                    filled += n;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) => {}
            Err(_) => return Err(ReadFailure::Gone),
        }
    }
    Ok(())
}

/// Waits for a white and a red client: accepts connections (polling, to see `stop`), reads each
/// one's hello and seats it, refusing a bad hello or a colour already taken. `None` when stopped.
fn seat_clients(
    listener: &TcpListener,
    config: &SessionConfig,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Option<[Seat; 2]>, ServerError> {
    listener
        .set_nonblocking(true)
        .map_err(ServerError::Accept)?;
    let mut seats: [Option<Seat>; 2] = [None, None];
    while seats.iter().any(Option::is_none) {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let (mut stream, peer) = match listener.accept() {
            Ok(conn) => conn,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                std::thread::sleep(POLL);
                continue;
            }
            // The client went away between its connect and our accept: not the listener's fault.
            Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => continue,
            Err(e) => return Err(ServerError::Accept(e)),
        };
        let mut refuse = |reason: String| on_event(Event::Refused { peer, reason });
        if stream.set_nonblocking(false).is_err()
            || stream
                .set_write_timeout(Some(config.write_timeout))
                .is_err()
        {
            refuse("the socket could not be set up".into());
            continue;
        }
        let _ = stream.set_nodelay(true);
        let mut hello = [0u8; 1];
        let deadline = Instant::now() + config.hello_timeout;
        match read_exact_by(&mut stream, &mut hello, deadline, stop) {
            Ok(()) => {}
            Err(ReadFailure::Stopped) => return Ok(None),
            Err(ReadFailure::Timeout) => {
                refuse("no hello in time".into());
                continue;
            }
            Err(ReadFailure::Gone) => {
                refuse("closed before its hello".into());
                continue;
            }
        }
        let Some(colour) = wire::parse_hello(hello[0]) else {
            refuse(format!(
                "the hello must be 0 or 1, got \"{}\"",
                wire::escape_bytes(&hello)
            ));
            continue;
        };
        let seat = &mut seats[idx(colour)];
        if seat.is_some() {
            refuse(format!("{} is already taken", name(colour)));
            continue;
        }
        *seat = Some(Seat {
            stream,
            peer,
            alive: true,
        });
        on_event(Event::Seated { colour, peer });
    }
    match seats {
        [Some(white), Some(red)] => Ok(Some([white, red])),
        _ => Ok(None),
    }
}

/// The message to `colour` about `board`.
fn message(
    status: Status,
    time_left: Duration,
    last_move: Option<Square>,
    board: &Board,
) -> ServerMessage {
    let mut cells = Vec::with_capacity(board.rows() * board.cols());
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            cells.push(board.cell(Square {
                row: row as u8,
                col: col as u8,
            }));
        }
    }
    ServerMessage {
        status,
        time_left,
        last_move,
        white: board.count(Colour::White),
        red: board.count(Colour::Red),
        cells,
    }
}

/// Seconds since 1970 (0 if the clock is before it).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Referees one game from `start` and sends GAME ENDED to both clients (not ABORT).
fn play_game(
    seats: &mut [Seat; 2],
    number: u32,
    start: Board,
    config: &SessionConfig,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> GameRecord {
    on_event(Event::GameStarted {
        number,
        board: &start,
    });
    let started = unix_now();
    let mut board = start;
    let mut clocks = [config.time; 2];
    let mut last: [Option<Square>; 2] = [None, None];
    let mut moves = Vec::new();
    let ending = loop {
        if board.is_over() {
            break Ending::Finished;
        }
        let colour = board.to_move();
        let me = idx(colour);
        let must_pass = board.must_pass();
        let status = if must_pass {
            Status::CanNotMove
        } else {
            Status::GiveMove
        };
        let msg = message(status, clocks[me], last[idx(colour.other())], &board);
        if !seats[me].send(&msg) {
            break Ending::Disconnected { loser: colour };
        }
        let sent = Instant::now();
        let mut bytes = [0u8; MOVE_LEN];
        let read = read_exact_by(&mut seats[me].stream, &mut bytes, sent + clocks[me], stop);
        let used = sent.elapsed();
        match read {
            Ok(()) => {}
            Err(ReadFailure::Timeout) => {
                clocks[me] = Duration::ZERO;
                break Ending::Time { loser: colour };
            }
            Err(ReadFailure::Gone) => {
                seats[me].alive = false;
                break Ending::Disconnected { loser: colour };
            }
            Err(ReadFailure::Stopped) => {
                clocks[me] = clocks[me].saturating_sub(used);
                break Ending::Interrupted;
            }
        }
        if used > clocks[me] {
            clocks[me] = Duration::ZERO;
            break Ending::Time { loser: colour };
        }
        clocks[me] -= used;
        let illegal = |what: String| Ending::Illegal {
            loser: colour,
            what,
        };
        let sent_move = match WireMove::decode(&bytes) {
            Ok(mv) => mv,
            Err(e) => break illegal(format!("malformed move: {e}")),
        };
        let square = if must_pass {
            if !sent_move.is_pass() {
                break illegal(format!("sent {sent_move} when it had to pass"));
            }
            board = board.pass();
            None
        } else {
            if sent_move.is_pass() {
                break illegal("passed while it had a legal move".into());
            }
            let next = sent_move
                .square(board.rows(), board.cols())
                .and_then(|sq| board.play(sq).map(|b| (sq, b)));
            let Some((sq, next)) = next else {
                break illegal(format!("illegal move {sent_move}"));
            };
            board = next;
            Some(sq)
        };
        last[me] = square;
        let mv = PlayedMove {
            colour,
            square,
            used,
        };
        moves.push(mv);
        on_event(Event::Played {
            number,
            mv,
            time_left: clocks[me],
            board: &board,
        });
    };
    if ending != Ending::Interrupted {
        for colour in [Colour::White, Colour::Red] {
            let me = idx(colour);
            let msg = message(
                Status::GameEnded,
                clocks[me],
                last[idx(colour.other())],
                &board,
            );
            seats[me].send(&msg);
        }
    }
    GameRecord {
        number,
        of: config.games,
        start,
        moves,
        end: board,
        ending,
        time: config.time,
        time_left: clocks,
        peers: [seats[0].peer, seats[1].peer],
        started,
    }
}

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
                colour: if gone == 0 {
                    Colour::White
                } else {
                    Colour::Red
                },
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

#[cfg(test)]
mod tests {
    use super::*;

    fn corners() -> Board {
        let sq = |row, col| Square { row, col };
        Board::start(10, 10, &[sq(0, 0), sq(0, 9), sq(9, 0), sq(9, 9)]).unwrap()
    }

    #[test]
    fn squares_are_named_as_in_the_protocol() {
        assert_eq!(square_text(Square { row: 0, col: 0 }), "a1");
        assert_eq!(square_text(Square { row: 3, col: 5 }), "f4");
        assert_eq!(square_text(Square { row: 15, col: 15 }), "p16");
    }

    #[test]
    fn board_lines_show_the_layout() {
        let line = board_line(&corners());
        assert!(line.starts_with("10x10 #........#/........../"), "{line}");
        assert!(line.contains("/....WR..../....RW..../"), "{line}");
        assert!(line.ends_with("#........# W"), "{line}");
    }

    #[test]
    fn random_starts_follow_the_seed() {
        let starts = Starts::Random {
            rows: 10,
            cols: 10,
            blocked: 6,
            seed: 9,
        };
        let mut a = starts.generator();
        let mut b = starts.generator();
        let first: Vec<Board> = (0..3).map(|_| a().unwrap()).collect();
        let second: Vec<Board> = (0..3).map(|_| b().unwrap()).collect();
        assert_eq!(first, second);
        assert_ne!(first[0], first[1]);
        let too_many = Starts::Random {
            rows: 4,
            cols: 4,
            blocked: 20,
            seed: 1,
        };
        assert!(too_many.check().is_err());
    }

    #[test]
    fn records_name_the_result() {
        let peer: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let start = corners();
        let mv = start.legal_moves()[0];
        let end = start.play(mv).unwrap();
        let mut record = GameRecord {
            number: 1,
            of: 2,
            start,
            moves: vec![PlayedMove {
                colour: Colour::White,
                square: Some(mv),
                used: Duration::from_millis(120),
            }],
            end,
            ending: Ending::Time { loser: Colour::Red },
            time: Duration::from_secs(120),
            time_left: [Duration::from_millis(119_880), Duration::ZERO],
            peers: [peer, peer],
            started: 0,
        };
        let line = record.ggf();
        assert!(line.starts_with("(;GM[Othello variant]"), "{line}");
        assert!(
            line.contains(&format!("W[{}//0.12]", square_text(mv))),
            "{line}"
        );
        assert!(
            line.contains("RE[W:time]SC[4-1]TL[119.88 0.00];)"),
            "{line}"
        );
        record.ending = Ending::Finished;
        assert_eq!(record.result(), "W+3");
        assert_eq!(record.winner(), Some(Colour::White));
        let report = SessionReport {
            planned: 2,
            games: vec![record],
            end: SessionEnd::Complete,
            peers: [Some(peer), None],
        };
        assert_eq!(report.totals(Colour::White).wins, 1);
        assert_eq!(report.totals(Colour::Red).discs, 1);
        assert!(report.summary().contains("1 of 2 games played"));
    }
}
