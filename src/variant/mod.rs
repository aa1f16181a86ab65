//! Variant boards: Othello on any rectangle up to 16 x 16 with blocked squares (the course
//! tournament's 10 x 10 game, docs/formats.md), its player and its game
//! server. The 8 x 8 engine (`crate::board`, `crate::search`) does not use this module: its fast
//! path stays as it is.
//!
//! - [`bits`]: the 256-bit square sets and their non-wrapping shifts.
//! - [`board`]: the board type, the rules, the printed-board text format, random layouts.
//! - [`perft`]: move-path counts (the move generator's test).
//! - [`player`]: the variant players (the engine, random, greedy) behind one type.
//! - [`search`]: the engine's search (iterative deepening alpha-beta or minimax, table, solve).
//! - [`eval`]: the engine's evaluation (layout-independent features with named weights).
//! - [`time`]: how long a move may take (depth, movetime, a whole-game clock).
//! - [`wire`]: the game server's wire format (hello, server message, move).
//! - [`server`]: the game server's referee (`wedge server`).
//! - [`client`]: a client of the game server (`wedge client`).

pub mod bits;
pub mod board;
pub mod client;
pub mod eval;
pub mod perft;
pub mod player;
pub mod search;
pub mod server;
pub mod time;
pub mod wire;
