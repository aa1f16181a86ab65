//! What the search worker tells the front ends, in the order it happens: the reports of a game's
//! search or `perft` ([`GameEvent`]), search progress, the long tools' totals, the answers to
//! pings and hash resizes. Its own file so that the worker and the game jobs it runs both speak it
//! without importing each other.

pub use super::game::{GameEvent, SearchEvent};
use crate::search::{HashResizeError, ProgressSnapshot, TableAllocError};
use std::time::Duration;

/// What the worker tells the front end, in the order it happens.
pub enum Report {
    /// A game's search or `perft` count reports: an iteration, the result, a root move's count.
    Game(GameEvent),
    /// A running search's live figures, about once a second, with the time since it started.
    Progress(ProgressSnapshot, Duration),
    /// A long tool (`perft`, `bench`) reports.
    Tool(ToolReport),
    /// Every job sent before the `Ping` is done.
    Pong,
    /// The answer to a hash resize to this many MB: done, or why it failed (the old table is
    /// kept).
    Resized(usize, Result<(), HashResizeError>),
}

/// What the long tools report when they end.
#[derive(Debug)]
pub enum ToolReport {
    /// The perft count is over (or was stopped).
    PerftDone {
        /// Plies.
        depth: u32,
        /// Leaves counted.
        total: u64,
        /// Time taken.
        time: Duration,
        /// Whether `stop` ended it before the count was complete.
        stopped: bool,
    },
    /// The bench is over (or was stopped, or could not start).
    BenchDone(Result<BenchFigures, TableAllocError>),
    /// A game is learnt into the book file, or why not.
    Learned(Box<Result<super::learn::Learnt, super::learn::LearnError>>),
}

/// A bench run's totals.
#[derive(Clone, Copy, Debug)]
pub struct BenchFigures {
    /// Nodes of the positions searched.
    pub nodes: u64,
    /// Their time.
    pub time: Duration,
    /// Positions searched.
    pub positions: usize,
    /// Whether `stop` ended it early.
    pub stopped: bool,
}
