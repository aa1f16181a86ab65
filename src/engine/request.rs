//! A search request: what a front end asks the engine core to search, in the engine's own terms
//! (limits, the clocks, the root moves, the kind of solve). Each front end builds one from its own
//! protocol: the wedge protocol's `go` ([`crate::protocol::parser::GoParams::request`]), NBoard's
//! depth and game clock, GTP's time settings, `wedge play`'s level and clock. The core turns it
//! into a search plan; it never sees protocol text.

use crate::game::clock::Clock;
use crate::game::Side;
use crate::search::SolveKind;
use std::time::Duration;

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
    /// The first player's remaining clock, milliseconds (8 x 8: black's; a variant board:
    /// white's), then the second player's.
    pub clock_ms: [Option<u64>; 2],
    /// The first player's increment a move, milliseconds, then the second player's.
    pub inc_ms: [Option<u64>; 2],
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
    pub fn on_clock(side: Side, left_ms: u64, inc_ms: u64) -> SearchRequest {
        let mut r = SearchRequest::default();
        r.clock_ms[side as usize] = Some(left_ms);
        r.inc_ms[side as usize] = Some(inc_ms);
        r
    }

    /// `side`'s game clock, if the request gives it.
    pub fn clock(&self, side: Side) -> Option<Clock> {
        self.clock_ms[side as usize].map(|ms| Clock {
            remaining: Duration::from_millis(ms),
            increment: Duration::from_millis(self.inc_ms[side as usize].unwrap_or(0)),
            moves_to_go: self.moves_to_go,
        })
    }

    /// Whether the request names clocks (a remaining time, an increment or `moves_to_go`) yet none
    /// for `side`, the side to move, and no other limit (time, depth, nodes): such a search runs
    /// until stopped or solved, a front end's mistake worth a warning.
    pub fn lacks_clock_of(&self, side: Side) -> bool {
        let names_clocks = self
            .clock_ms
            .iter()
            .chain(&self.inc_ms)
            .any(Option::is_some)
            || self.moves_to_go.is_some();
        names_clocks
            && self.clock_ms[side as usize].is_none()
            && self.movetime_ms.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && !self.infinite
    }

    /// Whether a search of this request for `side` to move ends on its own: not `infinite`, and a
    /// depth, nodes, a move time, `side`'s clock or a solve bounds it.
    pub fn has_limit(&self, side: Side) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime_ms.is_some()
                || self.clock_ms[side as usize].is_some()
                || self.solve.is_some())
    }

    /// A move in at most `ms` milliseconds.
    pub fn move_time(ms: u64) -> SearchRequest {
        SearchRequest {
            movetime_ms: Some(ms),
            ..SearchRequest::default()
        }
    }
}
