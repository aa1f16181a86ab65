//! wedge: an Othello (Reversi) engine.
//!
//! - [`board`]: bitboards, squares, the rules of the game, symmetries, hashing and text formats.
//! - [`engine`]: the engine process: the session loop and its reader, the shared core, one front
//!   end (state machine) per protocol behind one trait, the search worker, options.
//! - [`book`]: the opening book: format, lookup, building.
//! - [`eval`]: the static evaluation and its named, settable weights.
//! - [`search`]: the midgame search, the endgame solver and their limits/report types.
//! - [`protocol`]: the protocols' text, one module each (wedge's own: parser and output; NBoard;
//!   GTP): lines to typed commands, values to answer lines.
//! - [`build_info`]: the version, commit and CPU features the binary was built with.
//! - [`rng`]: a seeded random generator for reproducible noise and sampling.
//! - [`files`]: reading files from outside (only regular files of a sane size).
//! - [`game`]: the seam between the games (8 x 8 and [`variant`] boards) and the plumbing they
//!   share: sides, rules, baseline players, the clock, search tables.
//! - [`variant`]: boards of any size with blocked squares: rules, search, the course's game server
//!   and client.
//! - [`gui`]: the web server of the board in the browser (`wedge gui`); its game is the front end
//!   [`engine::gui`], its API's types [`protocol::gui`].
//! - [`tools`]: drivers the command line runs directly (perft, bench, solve, match, datagen/train,
//!   the Multi-ProbCut fit); the match runner plays any [`game::Game`].
//!
//! The binary (`src/main.rs`, with one file per tool in `src/cli/`) parses the command line and
//! calls this library; only it turns errors into text on stderr.

pub mod board;
pub mod book;
pub mod build_info;
pub mod engine;
pub mod eval;
pub mod files;
pub mod game;
pub mod gui;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod tools;
pub mod variant;

pub use board::{Bitboard, Board, Color, Move, Position, Square};
