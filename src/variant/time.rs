//! Time management for the variant player: how long one move may take, from the limits of a
//! search (`depth`, `movetime`, a whole-game `clock`) and the number of empty squares left.
//!
//! With a clock the player keeps a safety margin that it never spends (the referee measures wall
//! time, with the network and process start-up in it), and shares the rest as every game does
//! ([`crate::game::clock::budget`]) over the moves it still has to make; the hard limit stops the
//! search even in the middle of an iteration.

use crate::game::clock::{budget, Clock};
use std::time::Duration;

/// How long the engine may think about one move. Unset fields do not limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search at most this many plies.
    pub depth: Option<u32>,
    /// Think at most this long on this move.
    pub movetime: Option<Duration>,
    /// The player's game clock: the player budgets its own share.
    pub clock: Option<Clock>,
}

/// The part of the clock never planned for: this fraction of what is left...
const MARGIN_FRACTION: u32 = 20;
/// ...but at least this much...
const MARGIN_MIN: Duration = Duration::from_millis(60);
/// ...and at most this much.
const MARGIN_MAX: Duration = Duration::from_millis(1500);
/// The least time a move is given (it still returns a legal move found by a depth-1 search).
const FLOOR: Duration = Duration::from_millis(2);
/// Kept back from a `movetime`, for answering after the search stops.
const MOVETIME_RESERVE: Duration = Duration::from_millis(5);

/// The time plan of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start another iteration after this much time (an iteration takes a few times longer
    /// than the last).
    pub soft: Option<Duration>,
    /// Stop the search, even in the middle of an iteration, at this time.
    pub hard: Option<Duration>,
}

impl TimePlan {
    /// No time limit.
    pub const UNLIMITED: TimePlan = TimePlan {
        soft: None,
        hard: None,
    };
}

/// The plan for a move with `limits` when `empties` squares are empty.
///
/// With a clock of `T` left: margin `m` = T/20 clamped to 60 ms..1.5 s, kept back as the
/// overhead of [`budget`] over `empties / 2 + 1` own moves; `soft` (no iteration starts after it)
/// is half the move's share, `hard` the budget's hard limit (both at least 2 ms). With a
/// `movetime`, both are that time less 5 ms (and the lesser of the two when both are given).
pub fn plan(limits: &Limits, empties: u32) -> TimePlan {
    let mut plan = TimePlan::UNLIMITED;
    if let Some(clock) = limits.clock {
        let margin = (clock.remaining / MARGIN_FRACTION).clamp(MARGIN_MIN, MARGIN_MAX);
        let (share, hard) = budget(clock, margin, empties / 2 + 1);
        let hard = hard.max(FLOOR);
        plan.soft = Some((share / 2).max(FLOOR).min(hard));
        plan.hard = Some(hard);
    }
    if let Some(movetime) = limits.movetime {
        let t = movetime.saturating_sub(MOVETIME_RESERVE).max(FLOOR);
        plan.soft = Some(plan.soft.map_or(t, |s| s.min(t)));
        plan.hard = Some(plan.hard.map_or(t, |h| h.min(t)));
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64) -> Limits {
        Limits {
            clock: Some(Clock::sudden_death(Duration::from_millis(ms))),
            ..Limits::default()
        }
    }

    #[test]
    fn a_game_never_spends_its_margin() {
        // Playing a whole 10 x 10 game move after move with the hard limit spent every time never
        // reaches zero.
        let mut left = Duration::from_secs(120);
        for empties in (0..=92).rev().step_by(2) {
            let p = plan(&clock(left.as_millis() as u64), empties);
            let hard = p.hard.unwrap();
            assert!(p.soft.unwrap() <= hard);
            assert!(hard < left, "{empties}: {hard:?} of {left:?}");
            left -= hard;
        }
        assert!(left > Duration::from_millis(50), "{left:?}");
    }

    #[test]
    fn shares_and_movetime() {
        let p = plan(&clock(120_000), 92);
        let hard = p.hard.unwrap();
        assert!(
            hard > Duration::from_secs(2) && hard < Duration::from_secs(30),
            "{hard:?}"
        );
        let both = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..clock(120_000)
        };
        assert_eq!(plan(&both, 92).hard, Some(Duration::from_millis(95)));
        assert_eq!(plan(&Limits::default(), 10), TimePlan::UNLIMITED);
        // Almost no time: the floor, still under what is left.
        assert_eq!(plan(&clock(1), 50).hard, Some(FLOOR));
    }
}
