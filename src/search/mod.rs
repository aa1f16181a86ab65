//! Searching for moves: the perfect endgame solver (and, later, the midgame search, time management
//! and transposition table). Nothing here reads or writes text.

pub mod endgame;

pub use endgame::{SolveResult, Solver};
