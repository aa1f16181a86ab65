//! A search request: what a front end asks the engine core to search, in the engine's own terms
//! (limits, the clocks, the root moves, the kind of solve). Each front end builds one from its own
//! protocol: the wedge protocol's `go` ([`crate::protocol::parser::GoParams::request`]), NBoard's
//! depth and game clock, GTP's time settings, `wedge play`'s level and clock. The core turns it
//! into a search plan; it never sees protocol text.

use crate::board::Color;
use crate::search::SolveKind;

/// What to search and for how long. Every limit is optional; none at all is a search until
/// stopped only when `infinite` is set, else the core's defaults apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchRequest {
    /// The deepest iteration (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// A fixed time for the move, milliseconds.
    pub movetime_ms: Option<u64>,
    /// Black's remaining clock, milliseconds (on a variant board: Red's, the second mover).
    pub black_ms: Option<u64>,
    /// White's remaining clock, milliseconds (on a variant board: White's, the first mover).
    pub white_ms: Option<u64>,
    /// Black's increment a move, milliseconds.
    pub black_inc_ms: Option<u64>,
    /// White's increment a move, milliseconds.
    pub white_inc_ms: Option<u64>,
    /// Moves until the next time control (none: the clock is for the rest of the game).
    pub moves_to_go: Option<u32>,
    /// Search until stopped, whatever the clocks say.
    pub infinite: bool,
    /// Solve to the end of the game instead of a heuristic search.
    pub solve: Option<SolveKind>,
    /// Search only these root moves (a set of squares).
    pub root_moves: Option<u64>,
}

impl SearchRequest {
    /// A move on `side`'s game clock: `left_ms` on it, `inc_ms` added after each move.
    pub fn on_clock(side: Color, left_ms: u64, inc_ms: u64) -> SearchRequest {
        let mut r = SearchRequest::default();
        match side {
            Color::Black => {
                r.black_ms = Some(left_ms);
                r.black_inc_ms = Some(inc_ms);
            }
            Color::White => {
                r.white_ms = Some(left_ms);
                r.white_inc_ms = Some(inc_ms);
            }
        }
        r
    }

    /// A move in at most `ms` milliseconds.
    pub fn move_time(ms: u64) -> SearchRequest {
        SearchRequest {
            movetime_ms: Some(ms),
            ..SearchRequest::default()
        }
    }
}
