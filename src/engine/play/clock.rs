//! The clocks of a `wedge play` game: each move's time (what the saved record writes), what each
//! side has used and has left, and how the time control is written (`TI`, the status line).

use super::{PlayFrontEnd, AFTER_FLAG};
use crate::board::Color;
use crate::engine::session::Session;
use crate::protocol::play::{clock_text, colour_name, seconds_text, TimeSetting};

impl PlayFrontEnd {
    /// The game's move times (zeros where `times` does not fit the moves).
    pub(super) fn set_times(&mut self, times: Vec<u64>) {
        let n = self.game.moves.len();
        self.times = if times.len() == n { times } else { vec![0; n] };
    }

    /// Milliseconds colour `c` (index) has used: the times of its moves.
    fn used(&self, c: usize) -> u64 {
        let first = self.game.start.side as usize;
        let own = self.times.iter().skip(usize::from(first != c)).step_by(2);
        own.fold(0u64, |sum, &t| sum.saturating_add(t))
    }

    /// The time control as GGF's `TI` writes a clock (`seconds/increment/grace`, no grace since
    /// a flag falls at once); `0`, no clock, for a time per move.
    pub(super) fn clock_tag(&self) -> String {
        let secs = |ms: u64| ms as f64 / 1000.0;
        match self.config.time {
            TimeSetting::PerMove(_) => crate::board::ggf::NO_CLOCK.into(),
            TimeSetting::Game(ms, inc) => crate::board::ggf::GgfClock {
                time: secs(ms),
                increment: secs(inc),
                grace: 0.0,
            }
            .to_string(),
        }
    }

    /// The time setting in words (`5:00 a game + 2.0 s a move`, `at most 5.0 s a move`).
    pub(super) fn time_text(&self) -> String {
        match self.config.time {
            TimeSetting::PerMove(ms) => format!("at most {} s a move", seconds_text(ms)),
            TimeSetting::Game(ms, inc) => format!(
                "{} a game{}",
                clock_text(ms),
                if inc > 0 {
                    format!(" + {} s a move", seconds_text(inc))
                } else {
                    String::new()
                }
            ),
        }
    }

    /// The status line's clocks: the time left on each, or for a time a move the time used.
    pub(super) fn clock_line(&self) -> String {
        match self.config.time {
            TimeSetting::Game(base, inc) => {
                format!(
                    "clock: Black {} White {}",
                    clock_text(self.left(0, base, inc)),
                    clock_text(self.left(1, base, inc))
                )
            }
            TimeSetting::PerMove(_) => format!(
                "time used: Black {} White {}",
                clock_text(self.used(0)),
                clock_text(self.used(1))
            ),
        }
    }

    /// Moves played by colour `c` (index) so far.
    fn moves_of(&self, c: usize) -> usize {
        let first = self.game.start.side as usize;
        let n = self.game.moves.len();
        if c == first {
            n.div_ceil(2)
        } else {
            n / 2
        }
    }

    /// Milliseconds left on colour `c`'s clock of `base` and `inc` a move (0 when it ran out).
    pub(super) fn left(&self, c: usize, base: u64, inc: u64) -> u64 {
        let moves = self.moves_of(c) as u64;
        base.saturating_add(inc.saturating_mul(moves))
            .saturating_sub(self.used(c))
    }

    /// What the game is after colour `c` lost on time, and what can follow.
    pub(super) fn lost_text(c: Color) -> String {
        format!("{} lost on time ({AFTER_FLAG})", colour_name(c))
    }

    /// The side to move, when it has a clock and its turn has taken longer than the clock had
    /// left when the turn began (a flag falls at once: no grace period).
    fn time_up(&self) -> Option<Color> {
        let TimeSetting::Game(base, inc) = self.config.time else {
            return None;
        };
        let pos = self.position();
        let took = self.turn_started.elapsed().as_millis() as u64;
        let over = !pos.board.is_game_over() && took > self.left(pos.side as usize, base, inc);
        over.then_some(pos.side)
    }

    /// Lets the flag of the side to move fall when its time is up, and says so; whether it fell
    /// now. The game is then lost on time, and saved so.
    pub(super) fn check_flag(&mut self, s: &mut Session<'_>) -> bool {
        if self.flag.is_some() {
            return false;
        }
        let Some(c) = self.time_up() else {
            return false;
        };
        self.flag = Some(c);
        self.dirty = true;
        s.out.line(&format!(
            "{}'s time is up: {} wins on time ({AFTER_FLAG}).",
            colour_name(c),
            colour_name(c.opposite())
        ));
        self.autosave(s);
        true
    }
}
