//! The text of the protocols the engine speaks; one module per protocol, each a pure translation
//! between lines and values (no engine state, no search):
//!
//! - wedge's own protocol (UCI-shaped, a strict superset of UGI; specified in `protocol.md`):
//!   [`parser`] reads one command line into a typed [`Command`], every malformed line becoming a
//!   [`ParseError`] whose message is ready to be written after `info string error: `; [`output`]
//!   formats the engine's answers.
//! - [`nboard`]: the NBoard protocol, version 2.
//! - [`gtp`]: GTP as Othello programs use it.
//! - [`play`]: the commands, board and read-outs of `wedge play`, the game for people.
//! - [`variant`]: variant boards (any size, blocked squares) in wedge's protocol: square names,
//!   `position variant ...`, and the answers on such boards.
//!
//! This module also holds what they share: why a line could not be read at all ([`LineError`]) and
//! the guess of the protocol from a session's first line ([`detect_protocol`]). Checking a command
//! against the engine's state (legality of moves, option names and ranges, "not during a search")
//! is the job of the engine's front ends (`src/engine/`), not of these modules.

pub mod gtp;
pub mod nboard;
pub mod output;
pub mod parser;
pub mod play;
pub mod variant;

pub use parser::{
    parse_command, Command, GoParams, ParseError, PositionSpec, QueryKind, MAX_LINE_BYTES,
};
use std::fmt;

/// Why a line of input could not be read as text, whatever the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Longer than [`MAX_LINE_BYTES`] (skipped whole, never buffered in full).
    TooLong,
    /// Not UTF-8.
    NotUtf8,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong => write!(f, "line too long (at most {MAX_LINE_BYTES} bytes)"),
            LineError::NotUtf8 => f.write_str("the line is not valid UTF-8"),
        }
    }
}

impl std::error::Error for LineError {}

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// wedge's own protocol (UCI-shaped, a superset of UGI): protocol.md.
    Wedge,
    /// The NBoard protocol, version 2.
    Nboard,
    /// GTP as Othello programs use it.
    Gtp,
}

/// Guesses the protocol from the first line a controller sends, in any case and after a byte-order
/// mark: `nboard ...` is NBoard; a GTP command (or a numeric GTP id) is GTP; anything else is
/// wedge's protocol.
pub fn detect_protocol(first_line: &str) -> Protocol {
    let word = first_line
        .trim_start_matches('\u{feff}')
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if word == "nboard" {
        Protocol::Nboard
    } else if (gtp::COMMANDS.contains(&word.as_str()) && word != "quit")
        || (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
    {
        Protocol::Gtp
    } else {
        Protocol::Wedge
    }
}
