//! wedge: an Othello (Reversi) engine.
//!
//! - [`board`]: bitboards, squares, the rules of the game, symmetries, hashing and text formats.
//! - [`tools`]: drivers the command line runs directly (perft, ...).
//!
//! The binary (`src/main.rs`) is a thin command line over this library.

pub mod board;
pub mod protocol;
pub mod search;
pub mod tools;

pub use board::{Bitboard, Board, Color, Move, Position, Square};
