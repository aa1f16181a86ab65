//! Time management for the variant player: how long one move may take, from the limits of a
//! search (`depth`, `movetime`, a whole-game `clock`) and the number of empty squares left.
//!
//! With a clock the player keeps a safety margin that it never spends (the referee measures wall
//! time, with the network and process start-up in it), then gives this move an equal share of the
//! rest over the moves it still has to make, a little more early on when the tree is widest; a
//! hard limit, a fixed multiple of that share and never more than a quarter of what is left, stops
//! the search even in the middle of an iteration.

use std::time::Duration;

/// How long the engine may think about one move. Unset fields do not limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search at most this many plies.
    pub depth: Option<u32>,
    /// Think at most this long on this move.
    pub movetime: Option<Duration>,
    /// The player's remaining time for the whole game: the player budgets its own share.
    pub clock: Option<Duration>,
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
/// With a clock of `T` left: margin `m` = T/20 clamped to 60 ms..1.5 s; usable `U = T - m`; the
/// moves still to make about `n = empties / 2 + 1`; the share is `U / n` (times 1.5 while more than
/// half the board is empty, where the search gains most); `soft` = share / 2, `hard` = the lesser of
/// 3 x share and U / 4. With a `movetime`, both are that time less 5 ms (and the lesser of the two
/// when both are given).
pub fn plan(limits: &Limits, empties: u32) -> TimePlan {
    let mut plan = TimePlan::UNLIMITED;
    if let Some(clock) = limits.clock {
        let margin = (clock / MARGIN_FRACTION).clamp(MARGIN_MIN, MARGIN_MAX);
        let usable = clock.saturating_sub(margin);
        let moves_left = empties / 2 + 1;
        let mut share = usable / moves_left.max(1);
        if empties > 40 {
            share = share * 3 / 2;
        }
        let hard = (share * 3).min(usable / 4).max(FLOOR);
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
            clock: Some(Duration::from_millis(ms)),
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
