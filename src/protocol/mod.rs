//! The engine protocol (UCI-shaped, a strict superset of UGI; specified in `protocol.md`).
//!
//! This module owns the protocol's text: reading one command line into a typed [`Command`]
//! ([`parser`]), every malformed line becoming a [`ParseError`] whose message is ready to be written
//! after `info string error: `, and formatting the engine's answers ([`output`]). Checking a command against the engine's state (legality of
//! moves, option names and ranges, "not during a search") is the job of the engine loop, not of the
//! parser.

pub mod output;
pub mod parser;

pub use parser::{parse_command, Command, GoParams, ParseError, PositionSpec, QueryKind};
