//! Tools that drive the library directly (no protocol text): perft and, later, bench, solve, match
//! and tuning. Each is a thin layer that the command line calls.

pub mod arena;
pub mod bench;
pub mod perft;
pub mod players;
pub mod solve;
pub mod train;
