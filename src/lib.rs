//! wedge: an Othello (Reversi) engine.
//!
//! - [`board`]: bitboards, squares, the rules of the game, symmetries, hashing and text formats.
//! - [`engine`]: the engine process: reader, controller, search worker, options.
//! - [`book`]: the opening book: format, lookup, building.
//! - [`eval`]: the static evaluation and its named, settable weights.
//! - [`search`]: the midgame search, the endgame solver and their limits/report types.
//! - [`protocol`]: the text protocol: command parser (and output formatting).
//! - [`rng`]: a seeded random generator for reproducible noise and sampling.
//! - [`tools`]: drivers the command line runs directly (perft, solve, ...).
//!
//! The binary (`src/main.rs`) is a thin command line over this library.

pub mod board;
pub mod book;
pub mod engine;
pub mod eval;
pub mod files;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod tools;

pub use board::{Bitboard, Board, Color, Move, Position, Square};
