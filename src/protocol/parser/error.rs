//! What can be wrong with a line of wedge's protocol ([`Fault`]), one variant per kind of mistake,
//! and its one-line text (what was wrong and what was expected).

use super::MAX_LINE_BYTES;
use crate::board::square::ParseSquareError;
use crate::board::text::ParseBoardError;
use crate::protocol::variant::VariantTextError;
use std::fmt;

/// The commands the parser knows, for the unknown-command message.
pub(super) const KNOWN_COMMANDS: &str =
    "uci, ugi, isready, ucinewgame, uginewgame, debug, position, go, stop, \
                              ponderhit, quit, setoption, query, d, eval, perft, bench, help";

/// What `setoption` expects.
const SETOPTION_USAGE: &str = "expected 'setoption name <name> [value <value>]'";

/// What `position` expects.
const POSITION_USAGE: &str =
    "expected 'startpos', 'board <64 squares> <side>', 'fen <rows> <side>', 'variant <rows>x<cols> \
     ...' or 'variantfile <path>', then optionally 'moves ...'";

/// What is wrong with a number argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberFault {
    /// None given.
    Missing,
    /// Above `max` (the token).
    TooLarge(String, u64),
    /// Below zero (the token).
    Negative(String),
    /// Not a number (the token).
    NotANumber(String),
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Longer than [`MAX_LINE_BYTES`] (its length).
    TooLong(usize),
    /// Could not be split into tokens.
    Tokens,
    /// Not a command (the first word).
    UnknownCommand(String),
    /// Input that is not a line of text.
    Input(crate::protocol::LineError),
    /// A command that takes no arguments got one.
    NoArguments {
        /// The command.
        command: &'static str,
        /// The first argument.
        extra: String,
    },
    /// A number argument `name` of `command`.
    Number {
        /// The command.
        command: &'static str,
        /// The keyword the number follows.
        name: &'static str,
        /// What is wrong.
        fault: NumberFault,
    },
    /// A depth outside `min..=max`.
    Depth {
        /// The command.
        command: &'static str,
        /// The least depth.
        min: u32,
        /// The greatest depth.
        max: u32,
        /// The value given.
        got: u64,
    },
    /// `debug` without `on` or `off` (what was given instead; `None`: nothing).
    Debug(Option<String>),
    /// `debug on|off` followed by more.
    DebugExtra(String),
    /// `query` without a known kind (what was given; `None`: nothing).
    Query(Option<String>),
    /// `query <kind>` followed by more.
    QueryExtra(String),
    /// `perft <depth>` followed by more.
    PerftExtra(String),
    /// `bench <depth>` followed by more.
    BenchExtra(String),
    /// `setoption` without `name` (what came instead; `None`: nothing).
    SetOption(Option<String>),
    /// `setoption name` without a name.
    SetOptionName,
    /// A `go` parameter given twice (its name).
    Twice(&'static str),
    /// A word `go` does not know.
    GoParameter(String),
    /// A `searchmoves` entry that is no move.
    SearchMove(ParseSquareError),
    /// `searchmoves` with no move.
    SearchNothing,
    /// `go mate` with `exact`.
    MateAndExact,
    /// `go exact` with `wld`.
    ExactAndWld,
    /// `position` without a known base (what was given; `None`: nothing).
    Position(Option<String>),
    /// `position board|fen` whose board cannot be read (the base, why).
    Board(&'static str, ParseBoardError),
    /// `position board|fen` without its squares (the base, what is missing).
    BoardMissing(&'static str, &'static str),
    /// `position board|fen` without the side to move after them.
    SideMissing(&'static str, &'static str),
    /// A move of `position ... moves` that is no move (its number from 1, why).
    Move(usize, ParseSquareError),
    /// Text after the position that is not `moves` (`variant`: after a variant position).
    AfterPosition {
        /// The text.
        text: String,
        /// After a variant position.
        variant: bool,
    },
    /// A variant position or its moves (protocol.md, 3.1).
    Variant(VariantTextError),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::TooLong(n) => write!(f, "line too long: {n} bytes (at most {MAX_LINE_BYTES})"),
            Fault::Tokens => f.write_str("could not split the line into tokens"),
            Fault::UnknownCommand(w) => {
                write!(f, "unknown command '{w}' (known: {KNOWN_COMMANDS})")
            }
            Fault::Input(e) => write!(f, "{e}"),
            Fault::NoArguments { command, extra } => {
                write!(f, "'{command}' takes no arguments, got '{extra}'")
            }
            Fault::Number {
                command,
                name,
                fault,
            } => match fault {
                NumberFault::Missing => {
                    write!(f, "{command}: '{name}' needs a number, got nothing")
                }
                NumberFault::TooLarge(t, max) => {
                    write!(f, "{command}: '{name}' is too large: '{t}' (at most {max})")
                }
                NumberFault::Negative(t) => {
                    write!(f, "{command}: '{name}' must not be negative, got '{t}'")
                }
                NumberFault::NotANumber(t) => {
                    write!(f, "{command}: '{name}' needs a number, got '{t}'")
                }
            },
            Fault::Depth {
                command,
                min,
                max,
                got,
            } => write!(f, "{command}: the depth must be {min}..{max}, got {got}"),
            Fault::Debug(None) => f.write_str("debug: expected 'on' or 'off', got nothing"),
            Fault::Debug(Some(t)) => write!(f, "debug: expected 'on' or 'off', got '{t}'"),
            Fault::DebugExtra(t) => {
                write!(f, "debug: expected only 'on' or 'off', got extra '{t}'")
            }
            Fault::Query(None) => {
                f.write_str("query: expected 'gameover', 'p1turn' or 'result', got nothing")
            }
            Fault::Query(Some(t)) => write!(
                f,
                "query: expected 'gameover', 'p1turn' or 'result', got '{t}'"
            ),
            Fault::QueryExtra(t) => write!(
                f,
                "query: expected one of 'gameover', 'p1turn', 'result', got extra '{t}'"
            ),
            Fault::PerftExtra(t) => write!(f, "perft: expected only a depth, got extra '{t}'"),
            Fault::BenchExtra(t) => {
                write!(f, "bench: expected at most a depth, got extra '{t}'")
            }
            Fault::SetOption(None) => write!(f, "setoption: {SETOPTION_USAGE}, got nothing"),
            Fault::SetOption(Some(t)) => write!(f, "setoption: {SETOPTION_USAGE}, got '{t}'"),
            Fault::SetOptionName => write!(
                f,
                "setoption: the option name is missing after 'name' ({SETOPTION_USAGE})"
            ),
            Fault::Twice(name) => {
                let alias = match *name {
                    "btime" | "p1time" => Some("btime and p1time"),
                    "wtime" | "p2time" => Some("wtime and p2time"),
                    "binc" | "p1inc" => Some("binc and p1inc"),
                    "winc" | "p2inc" => Some("winc and p2inc"),
                    _ => None,
                };
                write!(f, "go: '{name}' given twice")?;
                if let Some(pair) = alias {
                    // The parser maps both namings onto 8 x 8's clocks; on a variant board white
                    // is player 1, so the two namings must not be mixed at all (protocol.md, 3.1).
                    write!(
                        f,
                        " ({pair} name one value on 8 x 8: give it once; a variant board's clocks \
                         are named by colour or by player, not both)"
                    )?;
                }
                Ok(())
            }
            Fault::GoParameter(t) => write!(
                f,
                "go: unknown parameter '{t}' (expected {})",
                super::go::GO_WORDS
            ),
            Fault::SearchMove(e) => write!(f, "go: searchmoves: {e}"),
            Fault::SearchNothing => f.write_str("go: searchmoves needs at least one move"),
            Fault::MateAndExact => {
                f.write_str("go: 'mate' (a win/loss/draw solve) and 'exact' exclude each other")
            }
            Fault::ExactAndWld => {
                f.write_str("go: 'exact' and 'wld' exclude each other (give one of them)")
            }
            Fault::Position(None) => write!(f, "position: {POSITION_USAGE}; got nothing"),
            Fault::Position(Some(t)) => write!(f, "position: {POSITION_USAGE}; got '{t}'"),
            Fault::Board(base, e) => write!(f, "position {base}: {e}"),
            Fault::BoardMissing(base, what) => write!(f, "position {base}: {what} are missing"),
            Fault::SideMissing(base, what) => write!(
                f,
                "position {base}: the side to move is missing after {what} (expected X or O)"
            ),
            Fault::Move(n, e) => write!(f, "position: move {n}: {e}"),
            Fault::AfterPosition { text, variant } => write!(
                f,
                "position: unexpected '{text}' after the {}position (expected 'moves' and a \
                 list of moves)",
                if *variant { "variant " } else { "" }
            ),
            Fault::Variant(e) => write!(f, "{e}"),
        }
    }
}
