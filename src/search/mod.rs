//! Searching for moves: the midgame search (iterative deepening PVS with a transposition table), the
//! perfect endgame solver, and the types through which the engine talks to them: [`Limits`] in,
//! [`Info`] reports and a [`SearchResult`] out. Nothing here reads or writes text.

pub mod endgame;
pub mod midgame;
pub mod movelist;
pub mod progress;
pub mod selectivity;
mod slot;

pub use endgame::{SolveResult, Solver};
pub use midgame::{time_budget, Searcher};
pub use progress::{Progress, ProgressSnapshot};
pub use selectivity::{FULL_WIDTH, MPC_CONFIDENCE};

/// Starts loading the cache line holding `item` (a hint for a table probe coming soon; it changes
/// nothing else). Shared by the midgame table and the solver's.
#[inline]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing architecturally; the pointer comes from a
    // live reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(item as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

pub(crate) use crate::game::table::huge_page_vec;
pub use crate::game::table::TableAllocError;

/// Which of a searcher's two tables a `Hash` resize could not allocate
/// ([`Searcher::resize_hash`](midgame::Searcher::resize_hash)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashTableKind {
    /// The search's transposition table: the largest power of two of MB not above the size asked.
    Search,
    /// The endgame solver's table: a quarter of the size asked, rounded down to a power of two.
    Solver,
    /// Both tables, checked together before either is made: the memory cannot hold them beside
    /// the tables in use.
    Both,
}

/// A `Hash` resize that failed: which table, and the allocation error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashResizeError {
    /// The table that could not be had.
    pub table: HashTableKind,
    /// Its allocation error (the bytes asked for).
    pub error: TableAllocError,
}

impl std::fmt::Display for HashResizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for HashResizeError {}

/// Gives the memory that the allocator holds free back to the system. Helper threads allocate in
/// arenas of their own; once they have ended (fewer `Threads`), glibc keeps those arenas' free
/// pages unless asked: 64 helpers left about 30 MB behind after going back to one thread, measured
/// with `setoption name Threads value 64`, a solve, then `Threads 1` and VmRSS. Elsewhere a no-op.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `malloc_trim` is glibc's own, thread-safe (it takes each arena's lock), and only
        // returns pages that hold no allocation to the system; no live Rust value is touched.
        let _ = unsafe { libc::malloc_trim(0) };
    }
}

/// Other systems: no advice given.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _bytes: usize) {}

/// What stored bounds `lower..=upper` on a node's value decide when it is searched with the
/// window `alpha..beta`: the value to return at once (a lower bound at or above `beta`, an upper
/// bound at or below `alpha`, or equal bounds: the exact value), or `None` when it must be
/// searched. Shared by the midgame table, the solver's table and its small per-thread table.
#[inline(always)]
fn bound_cutoff(lower: i32, upper: i32, alpha: i32, beta: i32) -> Option<i32> {
    if lower >= beta {
        Some(lower)
    } else if upper <= alpha {
        Some(upper)
    } else if lower == upper {
        Some(lower)
    } else {
        None
    }
}

/// The fastest-first measure of a move, from the opponent's `replies` after it: their number, with
/// corners counted twice (fewer is better). Shared by the midgame ordering, the solver's and its
/// evaluation searches.
#[inline]
fn reply_count(replies: u64) -> i32 {
    const CORNERS: u64 = crate::board::Bitboard::CORNERS.0;
    (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
}

use crate::board::Move;
use std::time::Duration;

/// Which perfect solve to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveKind {
    /// The exact final disc difference.
    Exact,
    /// Win, draw or loss only.
    Wld,
}

/// What bounds a search. The hard time limit is enforced by whoever owns the stop flag (it is set
/// when time runs out); the search itself only looks at the flag, the node limit and `soft_time`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Do not start a new iteration after half of this time.
    pub soft_time: Option<Duration>,
    /// A timer will stop the search (a clock or `movetime`): with a single legal move the search
    /// then stays shallow and leaves the time for later moves.
    pub timed: bool,
    /// Search until stopped (never end on time).
    pub infinite: bool,
    /// Solve to the end instead of a heuristic search.
    pub solve: Option<SolveKind>,
    /// Number of best root moves to report.
    pub multipv: usize,
    /// Hand over to the exact solver at or below this many empty squares (0: never).
    pub solve_empties: u32,
    /// Bounded noise (centidiscs, uniform in -r..=r) added to every root move's score before the
    /// move is chosen: weaker, varied play. 0 = none (deterministic best play).
    pub randomness: i32,
    /// Search only these root moves (a set of squares; `None`: all). Squares that are not legal
    /// are ignored; a set with no legal move searches all moves.
    pub root_moves: Option<u64>,
    /// Multi-ProbCut level of the midgame search: an index into [`MPC_CONFIDENCE`]
    /// (0: 73%, the most selective), or [`FULL_WIDTH`] for a full-width search.
    pub selectivity: u8,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            soft_time: None,
            timed: false,
            infinite: false,
            solve: None,
            multipv: 1,
            solve_empties: 0,
            randomness: 0,
            root_moves: None,
            selectivity: FULL_WIDTH,
        }
    }
}

/// A score as the search knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic evaluation, centidiscs, side to move's view.
    Eval(i32),
    /// The exact final disc difference under perfect play.
    Exact(i32),
    /// Win (+1), draw (0) or loss (-1) under perfect play.
    Wld(i32),
}

impl Score {
    /// The same score from the other side's view.
    pub fn negated(self) -> Score {
        match self {
            Score::Eval(v) => Score::Eval(-v),
            Score::Exact(d) => Score::Exact(-d),
            Score::Wld(w) => Score::Wld(-w),
        }
    }
}

/// What a reported score is: exact for the search's window, or only a bound (an aspiration window
/// failed and the iteration goes on with a wider one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    /// The score of the finished iteration.
    #[default]
    Exact,
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
}

/// Progress after one iteration (one per MultiPV line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Rank of this line, 1 = best.
    pub multipv: usize,
    /// Depth of the finished iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The line's score.
    pub score: Score,
    /// Whether the score is exact or only a bound.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Hash table use, per mille.
    pub hashfull: u32,
    /// How sure the score is, percent: the confidence of the Multi-ProbCut level that found it
    /// (73 to 99), 100 for a full-width search or a proof.
    pub selectivity: u8,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The final answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`Move::PASS` when forced; `None` when the game is over).
    pub best_move: Option<Move>,
    /// Its score.
    pub score: Score,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Depth of the last iteration that produced the move.
    pub depth: u32,
}

#[cfg(test)]
mod tests {
    use super::huge_page_vec;

    #[test]
    fn a_huge_page_vector_holds_exactly_what_it_was_given() {
        // Large enough to span several 2 MB pages and end inside one, small enough to be quick.
        let len = (5 << 20) / 8 + 3;
        let mut next = 0u64;
        let v = huge_page_vec(len, || {
            next += 1;
            next * 7
        })
        .unwrap();
        assert_eq!(v.len(), len);
        assert!(v.iter().enumerate().all(|(i, &x)| x == (i as u64 + 1) * 7));
        assert!(huge_page_vec(0, || 1u8).unwrap().is_empty());
        // More than any machine has: an error, not an abort.
        let err = huge_page_vec(usize::MAX / 64, || 0u64).unwrap_err();
        assert!(err.to_string().contains("cannot allocate"));
    }
}
