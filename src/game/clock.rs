//! How long a move may take on a game clock, for every game: the side's time left, its increment
//! and the moves to the next time control become a share of the time for this move and a hard
//! limit. Each game says how many of its own moves the clock must still last (the 8 x 8 engine
//! leaves out the moves its exact solver plays in a fraction of the time; a variant board counts
//! them all) and what it keeps back for answering ([`budget`]'s `overhead`).

use std::time::Duration;

/// One side's game clock when a move is asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// The time left.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: the clock is for the rest of the game).
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// A clock for the rest of the game with `remaining` left and no increment.
    pub fn sudden_death(remaining: Duration) -> Clock {
        Clock {
            remaining,
            ..Clock::default()
        }
    }
}

/// The time of one move on `clock`: `(share, hard)`. `share` is the move's part of what is left
/// after `overhead` over `own_moves` moves (or `moves_to_go`; at least 2), plus 0.8 of the
/// increment; a search starts no iteration after half of it. `hard` stops the search: three
/// shares, never more than half of what is left.
pub fn budget(clock: Clock, overhead: Duration, own_moves: u32) -> (Duration, Duration) {
    let available = clock.remaining.saturating_sub(overhead);
    let moves_left = clock.moves_to_go.unwrap_or(own_moves).max(2);
    let share = available / moves_left + clock.increment.mul_f64(0.8);
    let hard = (share * 3).min(available.mul_f64(0.5));
    (share.min(hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_is_shared_over_the_moves_left() {
        let ms = Duration::from_millis;
        let clock = |left, inc, to_go| Clock {
            remaining: ms(left),
            increment: ms(inc),
            moves_to_go: to_go,
        };
        assert_eq!(
            budget(clock(18_000, 0, None), ms(0), 18),
            (ms(1000), ms(3000))
        );
        // The increment adds 0.8 of itself; movestogo replaces the estimate.
        assert_eq!(budget(clock(18_000, 100, Some(9)), ms(0), 18).0, ms(2080));
        // Near the end at least two shares are kept, and never more than half the time left.
        assert_eq!(budget(clock(1000, 0, None), ms(0), 0), (ms(500), ms(500)));
        // The overhead is never planned for.
        assert_eq!(budget(clock(1100, 0, None), ms(100), 2), (ms(500), ms(500)));
    }

    #[test]
    fn a_game_never_runs_out_of_time() {
        // Every move spending its whole hard limit still leaves time at the end of a long game.
        let mut left = Duration::from_secs(60);
        for own in (1..=46).rev() {
            let (_, hard) = budget(Clock::sudden_death(left), Duration::from_millis(50), own);
            assert!(hard < left, "{own}: {hard:?} of {left:?}");
            left -= hard;
        }
        assert!(left > Duration::from_millis(50), "{left:?}");
    }
}
