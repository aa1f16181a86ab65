//! Tools that drive the library directly (no protocol text): perft, bench, solve, the match runner
//! (arena) with its baseline players, and the training pipeline (datagen, train). The command
//! line (`src/cli/`) calls them and prints their results.

pub mod arena;
pub mod bench;
pub mod mpc;
pub mod perft;
pub mod players;
pub mod solve;
pub mod train;
