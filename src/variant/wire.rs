//! The course server's wire format (docs/formats.md, "The game server's wire format"): the client's hello byte,
//! the server-to-client message (status, remaining time, last move, disc counts, the cells, a
//! terminator) and the client's 9-byte move. This module owns the bytes only: encoding, decoding
//! and reading whole messages from a stream; what a message means is the referee's
//! ([`super::server`]) and the client's ([`super::client`]) business.
//!
//! Choices where the page leaves room (see docs/formats.md, "Wire format notes"):
//! - Encoding writes zero-padded numbers (`00250.66`, `002`), the pass or "no move" as ` -1`, and
//!   the `\0` terminator; decoding accepts zero- or space-padded numbers (`-01`, ` -1`, `  7`) and
//!   either terminator (the last cell's space followed by `\0` or by another space).
//! - The message does not carry the board's size, only its cells. A message is self-delimiting
//!   all the same: after the 27-character header every cell starts with a digit, and the
//!   terminator is a `\0` or a space, so [`read_message`] reads cell after cell until it meets the
//!   terminator. Bytes `\0`, space, CR or LF before a message's status digit are skipped (a
//!   server that sends one terminator byte too many is still understood).

use super::board::{Cell, Side, SideNames, Square, MAX_SIDE};
use std::fmt;
use std::io::{self, Read};
use std::time::Duration;

/// Characters of the header: `S TTTTT.TT RRR CCC WWW RRR ` (each field and its following space).
pub const HEADER_LEN: usize = 27;

/// Bytes of the client's move message: `RRR CCC ` and a terminator.
pub const MOVE_LEN: usize = 9;

/// The most cells a message may carry (a 16 x 16 board).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// The largest remaining time the `TTTTT.TT` field can show, in hundredths of a second.
const MAX_CENTISECONDS: u64 = 9_999_999;

/// The length of a server message carrying `cells` cells: the header, two characters a cell (the
/// cell and its space), the terminator. 228 for 10 x 10.
pub const fn message_len(cells: usize) -> usize {
    HEADER_LEN + 2 * cells + 1
}

/// The client's hello: one character, `0` for white, `1` for red.
pub fn hello_byte(colour: Side) -> u8 {
    b'0' + colour.wire()
}

/// The colour a hello byte asks for (`None` for anything but `0` or `1`).
pub fn parse_hello(byte: u8) -> Option<Side> {
    match byte {
        b'0' => Some(Side::First),
        b'1' => Some(Side::Second),
        _ => None,
    }
}

/// The status of a server message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// 0: your turn, send a move.
    GiveMove,
    /// 1: your turn, but you have no legal move: send the pass (-1, -1).
    CanNotMove,
    /// 2: the game is over (the counts and cells are the final position).
    GameEnded,
    /// 3: the session is over (all games played, or the other client went away).
    Abort,
}

impl Status {
    /// The digit on the wire.
    pub fn digit(self) -> u8 {
        match self {
            Status::GiveMove => b'0',
            Status::CanNotMove => b'1',
            Status::GameEnded => b'2',
            Status::Abort => b'3',
        }
    }

    /// The status of a wire digit.
    pub fn from_digit(byte: u8) -> Option<Status> {
        match byte {
            b'0' => Some(Status::GiveMove),
            b'1' => Some(Status::CanNotMove),
            b'2' => Some(Status::GameEnded),
            b'3' => Some(Status::Abort),
            _ => None,
        }
    }
}

impl fmt::Display for Status {
    /// The page's names: `GIVE MOVE`, `CAN NOT MOVE`, `GAME ENDED`, `ABORT`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::GiveMove => "GIVE MOVE",
            Status::CanNotMove => "CAN NOT MOVE",
            Status::GameEnded => "GAME ENDED",
            Status::Abort => "ABORT",
        })
    }
}

/// A message from the server to one client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerMessage {
    /// What the client must do.
    pub status: Status,
    /// The client's remaining time in the game (hundredths of a second on the wire).
    pub time_left: Duration,
    /// The opponent's last move (`None`: a pass, or no move yet).
    pub last_move: Option<Square>,
    /// White discs on the board.
    pub white: u32,
    /// Red discs on the board.
    pub red: u32,
    /// The cells, row after row from the upper left.
    pub cells: Vec<Cell>,
}

/// Bytes that are not a well-formed message; carries the bytes so that a report can show them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// What is wrong.
    pub fault: WireFault,
    /// The offending bytes (the whole message, or as much of it as was read).
    pub bytes: Vec<u8>,
}

impl DecodeError {
    fn new(fault: WireFault, bytes: &[u8]) -> DecodeError {
        DecodeError {
            fault,
            bytes: bytes.to_vec(),
        }
    }
}

/// What is wrong with a message's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireFault {
    /// Fewer bytes than a header and a terminator.
    TooShort,
    /// The header's byte at this offset is not a space.
    HeaderSpace(usize),
    /// The status digit is not 0 to 3.
    Status,
    /// The remaining time is not `TTTTT.TT`.
    Time,
    /// A number field of the header is not a 3-character number.
    Number,
    /// The last move is neither -1 -1 nor a square.
    LastMove,
    /// The white disc count is out of range.
    WhiteCount,
    /// The red disc count is out of range.
    RedCount,
    /// The message does not end with `\0` or a second space.
    Terminator,
    /// The cells are not pairs of a digit and a space.
    CellPairs,
    /// A cell is not 0 to 3.
    Cell,
    /// A cell is not followed by a space.
    CellSpace,
    /// More cells than [`MAX_CELLS`].
    TooManyCells,
    /// A cell is not 0 to 3, and no terminator stands there either (read from a stream).
    CellOrEnd,
    /// More than [`MAX_FILLER`] bytes of filler and no message.
    NoMessage,
    /// A move is not 9 bytes.
    MoveLength,
    /// A move is not `RRR CCC ` and a terminator.
    MoveShape,
    /// A move does not end with `\0` or a space.
    MoveEnd,
    /// A move's row is not a number.
    Row,
    /// A move's column is not a number.
    Column,
}

impl fmt::Display for WireFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireFault::TooShort => f.write_str("too short for a message"),
            WireFault::HeaderSpace(at) => write!(f, "byte {at} of the header must be a space"),
            WireFault::Status => f.write_str("the status must be 0 to 3"),
            WireFault::Time => f.write_str("the remaining time is not TTTTT.TT"),
            WireFault::Number => f.write_str("a number field is not a 3-character number"),
            WireFault::LastMove => f.write_str("the last move is neither -1 -1 nor a square"),
            WireFault::WhiteCount => f.write_str("the white disc count is out of range"),
            WireFault::RedCount => f.write_str("the red disc count is out of range"),
            WireFault::Terminator => f.write_str("the message must end with \\0 or a second space"),
            WireFault::CellPairs => f.write_str("the cells are not pairs of a digit and a space"),
            WireFault::Cell => f.write_str("a cell must be 0 to 3"),
            WireFault::CellSpace => f.write_str("each cell must be followed by a space"),
            WireFault::TooManyCells => write!(f, "more than {MAX_CELLS} cells"),
            WireFault::CellOrEnd => {
                f.write_str("a cell must be 0 to 3 (or the message end with \\0 or a second space)")
            }
            WireFault::NoMessage => write!(
                f,
                "more than {MAX_FILLER} bytes of \\0, space or line ends and no message"
            ),
            WireFault::MoveLength => f.write_str("a move is 9 bytes"),
            WireFault::MoveShape => f.write_str("a move is `RRR CCC ` and a terminator"),
            WireFault::MoveEnd => f.write_str("a move must end with \\0 or a space"),
            WireFault::Row => f.write_str("the row is not a number"),
            WireFault::Column => f.write_str("the column is not a number"),
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (bytes: \"{}\", {} bytes)",
            self.fault,
            escape_bytes(&self.bytes),
            self.bytes.len()
        )
    }
}

impl std::error::Error for DecodeError {}

/// Bytes as a readable string: printable ASCII as is, `\0`, `\n`, `\r`, `\t`, `\\`, `\"` escaped,
/// anything else as `\xNN`.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            0 => out.push_str("\\0"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

/// Why reading a message from a stream failed.
#[derive(Debug)]
pub enum ReadError {
    /// The stream failed (a timeout shows as `WouldBlock` or `TimedOut`).
    Io(io::Error),
    /// The stream ended; `partial` holds what was read of an unfinished message (empty when it
    /// ended between messages).
    Closed {
        /// Bytes of the unfinished message.
        partial: Vec<u8>,
    },
    /// The bytes are not a message.
    Malformed(DecodeError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Closed { partial } if partial.is_empty() => {
                f.write_str("the connection was closed")
            }
            ReadError::Closed { partial } => write!(
                f,
                "the connection was closed in the middle of a message (bytes: \"{}\")",
                escape_bytes(partial)
            ),
            ReadError::Malformed(e) => write!(f, "malformed message: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// The digit of a cell.
fn cell_digit(cell: Cell) -> u8 {
    match cell {
        Cell::Disc(Side::First) => b'0',
        Cell::Disc(Side::Second) => b'1',
        Cell::Empty => b'2',
        Cell::Blocked => b'3',
    }
}

/// The cell of a digit.
fn digit_cell(byte: u8) -> Option<Cell> {
    match byte {
        b'0' => Some(Cell::Disc(Side::First)),
        b'1' => Some(Cell::Disc(Side::Second)),
        b'2' => Some(Cell::Empty),
        b'3' => Some(Cell::Blocked),
        _ => None,
    }
}

/// A 3-character number field (`007`, `  7`, `-01`, ` -1`, `7  `).
fn parse_int(field: &[u8]) -> Option<i32> {
    let text = std::str::from_utf8(field).ok()?.trim_matches(' ');
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
        return None;
    }
    text.parse().ok()
}

/// The `TTTTT.TT` field (zero- or space-padded; a negative time reads as zero).
fn parse_time(field: &[u8]) -> Option<Duration> {
    let text = std::str::from_utf8(field).ok()?.trim_matches(' ');
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || !all_digits(frac) || frac.len() > 2 {
        return None;
    }
    let seconds: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let hundredths: u64 = match frac.len() {
        0 => 0,
        1 => frac.parse::<u64>().ok()? * 10,
        _ => frac.parse().ok()?,
    };
    if negative {
        return Some(Duration::ZERO);
    }
    Some(Duration::from_millis(seconds * 1000 + hundredths * 10))
}

/// A last-move pair as a square: (-1, -1) is none, 0..16 a square, anything else wrong.
fn parse_last_move(row: i32, col: i32) -> Option<Option<Square>> {
    let side = 0..MAX_SIDE as i32;
    match (row, col) {
        (-1, -1) => Some(None),
        (r, c) if side.contains(&r) && side.contains(&c) => Some(Some(Square {
            row: r as u8,
            col: c as u8,
        })),
        _ => None,
    }
}

impl ServerMessage {
    /// The message's bytes: zero-padded numbers, ` -1  -1` for no last move, the `\0` terminator.
    /// Times beyond 99999.99 s show as 99999.99; counts above 999 cannot occur (at most 256
    /// squares).
    pub fn encode(&self) -> Vec<u8> {
        let cs = ((self.time_left.as_millis() / 10) as u64).min(MAX_CENTISECONDS);
        let (row, col) = match self.last_move {
            Some(sq) => (format!("{:03}", sq.row), format!("{:03}", sq.col)),
            None => (" -1".to_string(), " -1".to_string()),
        };
        let mut out = Vec::with_capacity(message_len(self.cells.len()));
        out.push(self.status.digit());
        out.extend_from_slice(
            format!(
                " {:05}.{:02} {row} {col} {:03} {:03} ",
                cs / 100,
                cs % 100,
                self.white.min(999),
                self.red.min(999)
            )
            .as_bytes(),
        );
        for &cell in &self.cells {
            out.push(cell_digit(cell));
            out.push(b' ');
        }
        out.push(0);
        out
    }

    /// Decodes a whole message, terminator included (`\0` or a space after the last cell's space).
    pub fn decode(bytes: &[u8]) -> Result<ServerMessage, DecodeError> {
        let bad = |fault: WireFault| DecodeError::new(fault, bytes);
        if bytes.len() < HEADER_LEN + 1 {
            return Err(bad(WireFault::TooShort));
        }
        let (header, rest) = bytes.split_at(HEADER_LEN);
        for at in [1, 10, 14, 18, 22, 26] {
            if header[at] != b' ' {
                return Err(bad(WireFault::HeaderSpace(at)));
            }
        }
        let status = Status::from_digit(header[0]).ok_or_else(|| bad(WireFault::Status))?;
        let time_left = parse_time(&header[2..10]).ok_or_else(|| bad(WireFault::Time))?;
        let fields = [
            &header[11..14],
            &header[15..18],
            &header[19..22],
            &header[23..26],
        ];
        let mut numbers = [0i32; 4];
        for (n, field) in numbers.iter_mut().zip(fields) {
            *n = parse_int(field).ok_or_else(|| bad(WireFault::Number))?;
        }
        let last_move =
            parse_last_move(numbers[0], numbers[1]).ok_or_else(|| bad(WireFault::LastMove))?;
        let count = |n: i32| u32::try_from(n).ok().filter(|&n| n as usize <= MAX_CELLS);
        let white = count(numbers[2]).ok_or_else(|| bad(WireFault::WhiteCount))?;
        let red = count(numbers[3]).ok_or_else(|| bad(WireFault::RedCount))?;
        let (body, terminator) = rest.split_at(rest.len() - 1);
        if !matches!(terminator, [0] | [b' ']) {
            return Err(bad(WireFault::Terminator));
        }
        if body.len() % 2 != 0 || body.len() / 2 > MAX_CELLS {
            return Err(bad(WireFault::CellPairs));
        }
        let mut cells = Vec::with_capacity(body.len() / 2);
        for pair in body.chunks_exact(2) {
            let cell = digit_cell(pair[0]).ok_or_else(|| bad(WireFault::Cell))?;
            if pair[1] != b' ' {
                return Err(bad(WireFault::CellSpace));
            }
            cells.push(cell);
        }
        Ok(ServerMessage {
            status,
            time_left,
            last_move,
            white,
            red,
            cells,
        })
    }
}

/// The most filler bytes (`\0`, space, CR, LF) [`read_message`] skips before a message: a peer
/// that sends nothing else is not waited on forever.
pub const MAX_FILLER: usize = 64 * 1024;

/// Reads one server message from `reader` (best buffered): skips `\0`, space, CR and LF before
/// the status digit, then reads the header and the cells until the terminator (see the module
/// comment), and decodes it. Stops at the terminator: nothing of the next message is consumed.
/// Returns the message and its bytes as they came (for reports).
pub fn read_message(reader: &mut impl Read) -> Result<(ServerMessage, Vec<u8>), ReadError> {
    let mut bytes = Vec::with_capacity(message_len(100));
    let mut byte = [0u8; 1];
    let mut next = |bytes: &[u8]| -> Result<u8, ReadError> {
        loop {
            match reader.read(&mut byte) {
                Ok(0) => {
                    return Err(ReadError::Closed {
                        partial: bytes.to_vec(),
                    })
                }
                Ok(_) => return Ok(byte[0]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
    };
    let mut skipped = 0;
    let first = loop {
        let b = next(&bytes)?;
        if !matches!(b, 0 | b' ' | b'\r' | b'\n') {
            break b;
        }
        skipped += 1;
        if skipped > MAX_FILLER {
            return Err(ReadError::Malformed(DecodeError::new(
                WireFault::NoMessage,
                &[],
            )));
        }
    };
    bytes.push(first);
    while bytes.len() < HEADER_LEN {
        let b = next(&bytes)?;
        bytes.push(b);
    }
    // Early check, so that a stream of garbage is reported after its header, not read on.
    if let Err(e) = ServerMessage::decode(&[&bytes[..], &[0]].concat()) {
        return Err(ReadError::Malformed(DecodeError::new(e.fault, &bytes)));
    }
    loop {
        let b = next(&bytes)?;
        bytes.push(b);
        match b {
            0 | b' ' => break,
            b'0'..=b'3' => {
                let space = next(&bytes)?;
                bytes.push(space);
                if space != b' ' {
                    return Err(ReadError::Malformed(DecodeError::new(
                        WireFault::CellSpace,
                        &bytes,
                    )));
                }
                if (bytes.len() - HEADER_LEN) / 2 > MAX_CELLS {
                    return Err(ReadError::Malformed(DecodeError::new(
                        WireFault::TooManyCells,
                        &bytes,
                    )));
                }
            }
            _ => {
                return Err(ReadError::Malformed(DecodeError::new(
                    WireFault::CellOrEnd,
                    &bytes,
                )))
            }
        }
    }
    match ServerMessage::decode(&bytes) {
        Ok(msg) => Ok((msg, bytes)),
        Err(e) => Err(ReadError::Malformed(e)),
    }
}

/// A move as the client sent it: row and column, (-1, -1) for the pass. Numbers are kept as sent;
/// whether they name a square of the board is the referee's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireMove {
    /// The row sent.
    pub row: i32,
    /// The column sent.
    pub col: i32,
}

impl WireMove {
    /// The pass (-1, -1).
    pub const PASS: WireMove = WireMove { row: -1, col: -1 };

    /// The move to `sq`, or the pass for `None`.
    pub fn new(mv: Option<Square>) -> WireMove {
        match mv {
            Some(sq) => WireMove {
                row: i32::from(sq.row),
                col: i32::from(sq.col),
            },
            None => WireMove::PASS,
        }
    }

    /// True for (-1, -1).
    pub fn is_pass(self) -> bool {
        self == WireMove::PASS
    }

    /// The square it names on a `rows` x `cols` board (`None` for the pass and for numbers off
    /// the board).
    pub fn square(self, rows: usize, cols: usize) -> Option<Square> {
        let row = usize::try_from(self.row).ok().filter(|&r| r < rows)?;
        let col = usize::try_from(self.col).ok().filter(|&c| c < cols)?;
        Some(Square {
            row: row as u8,
            col: col as u8,
        })
    }

    /// The 9 bytes: `RRR CCC ` zero-padded (` -1  -1 ` for the pass) and `\0`.
    pub fn encode(self) -> [u8; MOVE_LEN] {
        let field = |n: i32| {
            if n < 0 {
                format!("{n:>3}")
            } else {
                format!("{n:03}")
            }
        };
        let text = format!("{} {} ", field(self.row), field(self.col));
        let mut out = [0u8; MOVE_LEN];
        for (o, b) in out.iter_mut().zip(text.bytes()) {
            *o = b;
        }
        out
    }

    /// Decodes the 9 bytes of a move: two 3-character numbers (zero- or space-padded), each
    /// followed by a space, then `\0` or a space.
    pub fn decode(bytes: &[u8]) -> Result<WireMove, DecodeError> {
        let bad = |fault: WireFault| DecodeError::new(fault, bytes);
        if bytes.len() != MOVE_LEN {
            return Err(bad(WireFault::MoveLength));
        }
        if bytes[3] != b' ' || bytes[7] != b' ' {
            return Err(bad(WireFault::MoveShape));
        }
        if !matches!(bytes[8], 0 | b' ') {
            return Err(bad(WireFault::MoveEnd));
        }
        let row = parse_int(&bytes[0..3]).ok_or_else(|| bad(WireFault::Row))?;
        let col = parse_int(&bytes[4..7]).ok_or_else(|| bad(WireFault::Column))?;
        Ok(WireMove { row, col })
    }
}

impl fmt::Display for WireMove {
    /// `(row, col)`, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            write!(f, "({}, {})", self.row, self.col)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells of the page's example row `3 2 0 1 2 2 2 2 2 3`, then empty rows.
    fn example_cells() -> Vec<Cell> {
        let mut cells = vec![Cell::Empty; 100];
        cells[0] = Cell::Blocked;
        cells[2] = Cell::Disc(Side::First);
        cells[3] = Cell::Disc(Side::Second);
        cells[9] = Cell::Blocked;
        cells[90] = Cell::Blocked;
        cells[99] = Cell::Blocked;
        cells
    }

    fn example() -> ServerMessage {
        ServerMessage {
            status: Status::GiveMove,
            time_left: Duration::from_millis(250_660),
            last_move: Some(Square { row: 0, col: 2 }),
            white: 9,
            red: 6,
            cells: example_cells(),
        }
    }

    #[test]
    fn the_pages_example_encodes_to_228_bytes() {
        let bytes = example().encode();
        assert_eq!(bytes.len(), 228);
        assert_eq!(message_len(100), 228);
        assert!(bytes.starts_with(b"0 00250.66 000 002 009 006 3 2 0 1 2 2 2 2 2 3 2 2 2 "));
        assert!(bytes.ends_with(b"3 \0"));
        assert_eq!(ServerMessage::decode(&bytes), Ok(example()));
    }

    #[test]
    fn space_padding_and_the_two_space_terminator_are_read() {
        let mut text = String::from("0   250.66   0   2   9   6 ");
        for cell in example_cells() {
            text.push(cell_digit(cell) as char);
            text.push(' ');
        }
        text.push(' ');
        assert_eq!(ServerMessage::decode(text.as_bytes()), Ok(example()));
        let pass = b"1 00001.05 -01 -01 002 003 2 2 0 1 \0";
        let msg = ServerMessage::decode(pass).unwrap();
        assert_eq!(msg.status, Status::CanNotMove);
        assert_eq!(msg.last_move, None);
        assert_eq!(msg.time_left, Duration::from_millis(1050));
        assert_eq!(msg.cells.len(), 4);
        let none = [&b"2    -1.00  -1  -1   2   3 "[..], b"2 \0"].concat();
        assert_eq!(
            ServerMessage::decode(&none).unwrap().time_left,
            Duration::ZERO
        );
    }

    #[test]
    fn bad_messages_carry_their_bytes() {
        let bytes = example().encode();
        for (at, byte) in [
            (0, b'4'),
            (5, b'x'),
            (14, b'0'),
            (27, b'5'),
            (28, b'2'),
            (227, b'x'),
        ] {
            let mut bad = bytes.clone();
            bad[at] = byte;
            let err = ServerMessage::decode(&bad).unwrap_err();
            assert_eq!(err.bytes, bad, "byte {at}");
            assert!(err.to_string().contains("bytes: \""), "{err}");
        }
        assert!(ServerMessage::decode(b"0 00250.66 000 002").is_err());
        let odd = b"0 00250.66 000 002 009 006 2 2\0";
        assert!(ServerMessage::decode(odd).is_err());
        let off = b"0 00250.66 000 016 009 006 2 \0";
        assert!(ServerMessage::decode(off).is_err());
    }

    #[test]
    fn messages_are_read_one_at_a_time_from_a_stream() {
        let mut stream = Vec::new();
        stream.extend_from_slice(&example().encode());
        stream.extend_from_slice(b"\0\n");
        let mut two = example();
        two.status = Status::Abort;
        two.last_move = None;
        let mut encoded = two.encode();
        let end = encoded.len() - 1;
        encoded[end] = b' ';
        stream.extend_from_slice(&encoded);
        let mut reader = &stream[..];
        let (first, bytes) = read_message(&mut reader).unwrap();
        assert_eq!((first, bytes), (example(), example().encode()));
        assert_eq!(read_message(&mut reader).unwrap().0, two);
        assert!(matches!(
            read_message(&mut reader),
            Err(ReadError::Closed { partial }) if partial.is_empty()
        ));
        let mut cut = &example().encode()[..100];
        assert!(matches!(
            read_message(&mut cut),
            Err(ReadError::Closed { partial }) if partial.len() == 100
        ));
        let mut garbage = &b"HTTP/1.1 400 Bad Request\r\n\r\n"[..];
        match read_message(&mut garbage) {
            Err(ReadError::Malformed(e)) => assert!(e.bytes.starts_with(b"HTTP/1.1")),
            other => panic!("{other:?}"),
        }
        // Filler before a message is skipped up to a limit, then refused: no endless wait.
        let mut padded = vec![0u8; MAX_FILLER];
        padded.extend_from_slice(&example().encode());
        assert_eq!(read_message(&mut &padded[..]).unwrap().0, example());
        let endless = std::io::repeat(b' ');
        match read_message(&mut endless.take(10 * MAX_FILLER as u64)) {
            Err(ReadError::Malformed(e)) => assert_eq!(e.fault, WireFault::NoMessage, "{e}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn moves_round_trip() {
        assert_eq!(
            &WireMove::new(Some(Square { row: 3, col: 7 })).encode(),
            b"003 007 \0"
        );
        assert_eq!(&WireMove::PASS.encode(), b" -1  -1 \0");
        for text in [&b"003 007 \0"[..], b"  3   7  ", b"3   7    "] {
            assert_eq!(WireMove::decode(text), Ok(WireMove { row: 3, col: 7 }));
        }
        for text in [&b" -1  -1 \0"[..], b"-01 -01 \0", b"-1  -1   "] {
            assert!(WireMove::decode(text).unwrap().is_pass());
        }
        for text in [
            &b"003 007\0\0"[..],
            b"0a3 007 \0",
            b"003 007 \n",
            b"003 007 ",
        ] {
            let err = WireMove::decode(text).unwrap_err();
            assert_eq!(err.bytes, text);
        }
        let far = WireMove { row: 12, col: 3 };
        assert_eq!(far.square(10, 10), None);
        assert_eq!(far.square(16, 16), Some(Square { row: 12, col: 3 }));
        assert_eq!(WireMove::PASS.square(10, 10), None);
    }

    #[test]
    fn hello_bytes() {
        assert_eq!(hello_byte(Side::First), b'0');
        assert_eq!(hello_byte(Side::Second), b'1');
        assert_eq!(parse_hello(b'1'), Some(Side::Second));
        assert_eq!(parse_hello(b'2'), None);
    }
}
