//! Engines that speak NBoard: `nboard 2`, `set game` with the game so far, `set depth`, `go`,
//! answered by `=== <move>`.

use super::*;

/// The depth asked of an NBoard engine (a protocol without clocks) for a time control: the depth
/// itself, or a depth that suits the time per move (under a game clock, a thirtieth of the base
/// time plus the increment: a player has about 30 moves).
fn nboard_depth(tc: TimeControl) -> u32 {
    let per_move = match tc {
        TimeControl::Depth(d) => return d,
        TimeControl::MoveTime(t) => t,
        TimeControl::Clock { base, increment } => base / 30 + increment,
        TimeControl::Nodes(_) => return 12,
    };
    if per_move < Duration::from_millis(100) {
        4
    } else if per_move < Duration::from_secs(1) {
        8
    } else {
        12
    }
}

/// An engine process speaking NBoard: the game goes as GGF with `set game`, the move comes back as
/// `=== <move>[/eval/time]`. NBoard has no clock, so timed matches ask for a fixed depth.
pub struct NboardPlayer {
    pipe: Pipe,
    ping: u64,
    depth: Option<u32>,
}

impl NboardPlayer {
    /// Starts the program, sends `nboard 2` and waits for the answer to a `ping`, then sets the
    /// options (`set option NAME VALUE`) and pings again: an `error ...` line before the `pong` is
    /// a refusal.
    pub fn start(
        cmd: &str,
        args: &[String],
        options: &[(String, String)],
        launch: &Launch,
    ) -> Result<Self, Failure> {
        if let TimeControl::Nodes(_) = launch.tc {
            return Err(Failure::Unsupported(Unsupported::NodeLimit(Proto::Nboard)));
        }
        let mut p = NboardPlayer {
            pipe: Pipe::spawn(cmd, args, launch.stderr_log.as_deref(), launch.stop.clone())?,
            ping: 0,
            depth: None,
        };
        p.pipe.send("nboard 2").map_err(handshake)?;
        p.sync(Instant::now() + HANDSHAKE_TIMEOUT)
            .map_err(handshake)?;
        if !options.is_empty() {
            for (name, value) in options {
                p.pipe.send(&format!("set option {name} {value}"))?;
            }
            let errors = p.sync(Instant::now() + HANDSHAKE_TIMEOUT)?;
            if !errors.is_empty() {
                return Err(options_refused(options, &errors));
            }
        }
        Ok(p)
    }

    /// Pings and waits for the matching pong; returns the `error ...` lines read on the way. A
    /// move (`===`) on the way is a protocol violation: every `go` gets one, already read, so
    /// another would be taken for the engine's next move.
    fn sync(&mut self, deadline: Instant) -> Result<Vec<String>, Failure> {
        self.ping += 1;
        let n = self.ping;
        self.pipe.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        let mut errors = Vec::new();
        let mut stray = None;
        self.pipe.wait(deadline, |l| {
            if l.starts_with("error") {
                errors.push(l.to_string());
            }
            if stray.is_none() && l.starts_with("===") {
                stray = Some(l.to_string());
            }
            l == want
        })?;
        match stray {
            Some(line) => Err(Failure::SecondBestmove(line)),
            None => Ok(errors),
        }
    }
}

impl Player<Position> for NboardPlayer {
    fn new_game(&mut self, _: u64) -> Result<(), Failure> {
        self.sync(Instant::now() + HANDSHAKE_TIMEOUT).map(|_| ())
    }

    fn choose(
        &mut self,
        start: &Position,
        moves: &[Move],
        _pos: &Position,
        tc: TimeControl,
        _clocks: Clocks,
        deadline: Instant,
    ) -> Result<Move, Failure> {
        let depth = nboard_depth(tc);
        if self.depth != Some(depth) {
            self.pipe.send(&format!("set depth {depth}"))?;
            self.depth = Some(depth);
        }
        let game = GgfGame {
            place: "wedge match".into(),
            unix_time: crate::board::ggf::now_unix(),
            black: "black".into(),
            white: "white".into(),
            // The moves carry no times, so a clock would read as full at every move: the depth
            // decides, and the runner enforces the time.
            time_control: crate::board::ggf::NO_CLOCK.into(),
            start: *start,
            moves: moves.to_vec(),
            times: Vec::new(),
            black_score: 0,
            forfeit: None,
            name: None,
        };
        self.pipe.send(&format!("set game {game}"))?;
        self.sync(deadline)?;
        self.pipe.send("go")?;
        let line = self.pipe.wait_for(|l| l.starts_with("==="), deadline)?;
        let word = line.split_whitespace().nth(1).unwrap_or("");
        let mv = word.split('/').next().unwrap_or("");
        mv.parse::<Move>()
            .map_err(|_| Failure::Malformed(line.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_suits_the_time_per_move_under_either_clock() {
        let ms = Duration::from_millis;
        assert_eq!(nboard_depth(TimeControl::Depth(7)), 7);
        assert_eq!(nboard_depth(TimeControl::MoveTime(ms(50))), 4);
        assert_eq!(nboard_depth(TimeControl::MoveTime(ms(500))), 8);
        assert_eq!(nboard_depth(TimeControl::MoveTime(ms(2000))), 12);
        // 5 s a game and 50 ms a move: about 217 ms a move.
        let clock = |base, increment| TimeControl::Clock { base, increment };
        assert_eq!(nboard_depth(clock(ms(5000), ms(50))), 8);
        assert_eq!(nboard_depth(clock(ms(1000), ms(0))), 4);
        assert_eq!(nboard_depth(clock(ms(60_000), ms(0))), 12);
    }
}
