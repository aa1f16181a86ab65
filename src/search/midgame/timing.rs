//! When a search on a clock stops starting iterations: the soft limit, stretched where the search
//! is unsure and shortened where one move dominates.
//!
//! After each finished iteration the root's best move and score update [`TimeUse`]. A best move
//! that changes adds instability (which halves every iteration it holds); a score that falls
//! against the last iteration of the same parity (scores swing with the parity of the depth, so
//! the one just before is no fair reference) stretches the limit by the fall; a move that has held
//! for several iterations, its score not falling, shortens it. The factor stays within [`MIN_FACTOR`, `MAX_FACTOR`], and
//! the engine's hard limit (three times the soft one) bounds the search whatever the factor says.

use std::time::Duration;

/// Fewest and most times the soft limit a search may use.
const MIN_FACTOR: f64 = 0.5;
const MAX_FACTOR: f64 = 2.0;
/// Iterations shallower than this say little about the move (they finish in microseconds).
const FIRST_COUNTED_DEPTH: u32 = 6;
/// Fall in score (centidiscs) against the last same-parity iteration that doubles the limit's
/// stretch from falls (a fall of this much gives a factor of 1.5).
const FALL_SCALE: f64 = 400.0;

/// The iteration-by-iteration record a clocked search decides with.
#[derive(Debug, Clone)]
pub(super) struct TimeUse {
    soft: Option<Duration>,
    best: Option<u8>,
    /// Finished iterations (from [`FIRST_COUNTED_DEPTH`]) in a row with the same best move.
    held: u32,
    /// Grows by one when the best move changes, halves each iteration after.
    instability: f64,
    /// Root scores of the last two finished iterations: `[previous, current]`.
    scores: [Option<i32>; 2],
    factor: f64,
}

impl TimeUse {
    /// A record for a search whose soft limit is `soft` (`None`: no clock, nothing to decide).
    pub(super) fn new(soft: Option<Duration>) -> TimeUse {
        TimeUse {
            soft,
            best: None,
            held: 0,
            instability: 0.0,
            scores: [None, None],
            factor: 1.0,
        }
    }

    /// Records a finished iteration of `depth` plies whose best move is `best` with `score`
    /// (centidiscs, side to move's view).
    pub(super) fn finished(&mut self, depth: u32, best: u8, score: i32) {
        let same_parity = self.scores[0];
        self.scores = [self.scores[1], Some(score)];
        let changed = self.best.is_some_and(|b| b != best);
        self.best = Some(best);
        if depth < FIRST_COUNTED_DEPTH {
            return;
        }
        self.instability *= 0.5;
        if changed {
            self.instability += 1.0;
            self.held = 0;
        } else {
            self.held += 1;
        }
        let fall = same_parity.map_or(0, |s| (s - score).max(0));
        let from_fall = 1.0 + (f64::from(fall) / FALL_SCALE).min(1.0) * 0.5;
        let from_changes = 1.0 + 0.5 * self.instability;
        // A falling score is no time to hurry, however long the move has held.
        let from_holding = match self.held {
            _ if fall > 50 => 1.0,
            0..=2 => 1.0,
            3..=5 => 0.8,
            _ => 0.65,
        };
        self.factor = (from_fall * from_changes * from_holding).clamp(MIN_FACTOR, MAX_FACTOR);
    }

    /// How many times the plain soft limit this search may use now.
    #[cfg(test)]
    pub(super) fn factor(&self) -> f64 {
        self.factor
    }

    /// Whether no further iteration should start at `elapsed`: once half the stretched soft limit
    /// is gone, the next iteration (two to three times the last) would likely not finish.
    pub(super) fn stop_deepening(&self, elapsed: Duration) -> bool {
        self.soft
            .is_some_and(|soft| elapsed >= soft.mul_f64(0.5 * self.factor))
    }
}

/// Own moves at the end of a game that [`time_budget`] leaves out of its share (the solver's).
const SOLVED_OWN_MOVES: u32 = 8;

/// What a clock keeps back for each own move still to play, this one too: a process answers a
/// few milliseconds after its search stops on a loaded machine, and a clock nearly out still pays
/// that on every move left. A clock that holds at least this reserve never runs out while each
/// answer comes no later than this after its hard limit: each move leaves at least the next
/// move's reserve (`a_loaded_machine_never_runs_out_of_time`).
pub const MOVE_LATENCY: Duration = Duration::from_millis(5);

/// How long a move may take on `clock` with `empties` empty squares: [`crate::game::clock::budget`]
/// over the own moves the search still thinks about (half the empties, less the 8 own moves of the
/// last 16 or so empties, which the exact solver plays in a fraction of the time: it takes over at
/// 18-24 empties, so a share for them would be left unused; docs/search.md#time). Kept back:
/// `overhead` once and `MOVE_LATENCY` for each own move until the clock's next control. A
/// control after the end of the game (or `movestogo 0`) is sudden death; one before it shares the
/// clock over its moves, or over the moves the search thinks about when they are fewer (time
/// comes again at the control, so sudden death's share is always safe).
pub fn time_budget(
    clock: crate::game::clock::Clock,
    overhead: Duration,
    empties: u32,
) -> (Duration, Duration) {
    let moves_left = empties.div_ceil(2);
    let own_moves = moves_left.saturating_sub(SOLVED_OWN_MOVES);
    let control = clock.moves_to_go.filter(|&m| m > 0 && m < moves_left);
    let reserve = overhead + MOVE_LATENCY * control.unwrap_or(moves_left);
    let clock = crate::game::clock::Clock {
        moves_to_go: control.map(|m| m.min(own_moves)),
        ..clock
    };
    crate::game::clock::budget(clock, reserve, own_moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOFT: Duration = Duration::from_millis(1000);

    #[test]
    fn a_move_that_holds_shortens_the_search() {
        let mut t = TimeUse::new(Some(SOFT));
        for d in 1..=12 {
            t.finished(d, 19, 120);
        }
        assert!(t.factor() < 1.0);
        assert!(t.stop_deepening(Duration::from_millis(400)));
        assert!(!t.stop_deepening(Duration::from_millis(300)));
    }

    #[test]
    fn a_changing_move_stretches_it() {
        let mut t = TimeUse::new(Some(SOFT));
        for d in 1..=10 {
            t.finished(d, 19, 50);
        }
        t.finished(11, 37, 50);
        assert!(t.factor() > 1.2, "{}", t.factor());
        assert!(!t.stop_deepening(Duration::from_millis(550)));
    }

    #[test]
    fn a_falling_score_stretches_it_but_a_parity_swing_does_not() {
        // Odd depths 3 discs above even ones: the same every pair, no fall.
        let mut swing = TimeUse::new(Some(SOFT));
        for d in 1..=10 {
            swing.finished(d, 19, if d % 2 == 1 { 300 } else { 0 });
        }
        assert!(swing.factor() <= 1.0, "{}", swing.factor());
        let mut fall = TimeUse::new(Some(SOFT));
        for d in 1..=9 {
            fall.finished(d, 19, 100);
        }
        fall.finished(10, 19, -300);
        assert!(fall.factor() >= 1.4, "{}", fall.factor());
        assert!(fall.factor() <= MAX_FACTOR);
    }

    #[test]
    fn a_loaded_machine_never_runs_out_of_time() {
        // 1 s for a whole game from 52 empties, no overhead: every move spends its whole hard
        // limit and answers MOVE_LATENCY after it, the solver's moves too.
        use crate::game::clock::Clock;
        let mut left = Duration::from_secs(1);
        for empties in (1..=52).rev().step_by(2) {
            let (_, hard) = time_budget(Clock::sudden_death(left), Duration::ZERO, empties);
            let spent = hard + MOVE_LATENCY;
            assert!(spent <= left, "{empties} empties: {spent:?} of {left:?}");
            left -= spent;
        }
    }

    #[test]
    fn a_control_after_the_end_of_the_game_is_sudden_death() {
        use crate::game::clock::Clock;
        let ms = Duration::from_millis;
        let clock = |moves_to_go| Clock {
            remaining: ms(10_000),
            increment: ms(0),
            moves_to_go,
        };
        let sudden = time_budget(clock(None), ms(30), 40);
        assert_eq!(time_budget(clock(Some(u32::MAX)), ms(30), 40), sudden);
        assert_eq!(time_budget(clock(Some(20)), ms(30), 40), sudden);
        assert_eq!(time_budget(clock(Some(0)), ms(30), 40), sudden);
        // A control before it shares the clock over the moves until then, never less than
        // sudden death's share (more time comes at the control).
        assert!(time_budget(clock(Some(5)), ms(30), 40).0 > sudden.0);
        assert!(sudden.0 > ms(500), "{sudden:?}");
        for empties in [12, 30, 41, 55, 60] {
            let sudden = time_budget(clock(None), ms(30), empties);
            for m in 1..40 {
                let share = time_budget(clock(Some(m)), ms(30), empties).0;
                assert!(
                    share >= sudden.0,
                    "{empties} empties, movestogo {m}: {share:?}"
                );
            }
        }
    }

    #[test]
    fn without_a_clock_it_never_stops() {
        let mut t = TimeUse::new(None);
        t.finished(8, 1, 0);
        assert!(!t.stop_deepening(Duration::from_secs(3600)));
    }
}
