//! What the search worker tells the front ends, in the order it happens: search progress and
//! results (8 x 8 and variant boards), the long tools' counts, the answers to pings and hash
//! resizes. Its own file so that the worker and the variant jobs it runs both speak it without
//! importing each other.

use crate::board::Move;
use crate::search::{Info, ProgressSnapshot, SearchResult, TableAllocError};
use std::time::Duration;

/// What the worker tells the front end, in the order it happens.
pub enum Report {
    /// Search progress: a finished iteration or a bound found on the way.
    Info(Info),
    /// The search finished.
    Done(SearchResult),
    /// A finished iteration of a variant search.
    VariantInfo(crate::variant::search::Report),
    /// A variant search finished (its best move is legal, or `None` for a pass).
    VariantDone(crate::variant::search::Report),
    /// A running search's live figures, about once a second, with the time since it started.
    Progress(ProgressSnapshot, Duration),
    /// A long tool (`perft`, `bench`) reports.
    Tool(ToolReport),
    /// Every job sent before the `Ping` is done.
    Pong,
    /// The answer to a hash resize to this many MB: done, or why it failed (the old table is
    /// kept).
    Resized(usize, Result<(), TableAllocError>),
}

/// What the long tools report.
#[derive(Clone, Debug)]
pub enum ToolReport {
    /// One root move's perft count.
    PerftMove(Move, u64),
    /// One root move's perft count on a variant board (`None`: a pass).
    VariantPerftMove(crate::variant::board::VariantMove, u64),
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
