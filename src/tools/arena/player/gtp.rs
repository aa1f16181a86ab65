//! Engines that speak GTP: numbered commands, `play` and `genmove`, `time_settings`/`time_left`
//! when the engine takes them, `set_depth` for fixed depth.

use super::*;

/// An engine process speaking GTP: moves are sent with `play`, the engine's with `genmove`. The
/// engine's own board is kept in step; when it is not, it is rebuilt with `clear_board`. Every
/// command carries a number and only the answer with that number is taken, so a stray or late
/// answer is never read as the answer to a later command.
///
/// The time control goes as `time_settings` each game and `time_left` each move (a clock), in
/// seconds with milliseconds; an engine that refuses the fractions is sent whole seconds (GTP's
/// own form: the times down, a byo-yomi of at least 1 s). Both commands are optional in GTP: an
/// engine that refuses one is not sent it again (nor `time_left` when it refused `time_settings`)
/// and plays on its own timing, while the runner still enforces the clock. A fixed depth needs
/// `set_depth`, which is checked at the start (`known_command`).
pub struct GtpPlayer {
    pipe: Pipe,
    /// The number of the next command.
    next_id: u64,
    tc: TimeControl,
    /// Cleared when the engine refuses `time_settings`.
    time_settings_ok: bool,
    /// Cleared when the engine refuses `time_left`, or `time_settings`.
    time_left_ok: bool,
    /// Set when the engine refused times with fractions of a second and took whole seconds.
    whole_seconds: bool,
    /// The moves the engine's board holds.
    known: Vec<Move>,
    start_known: bool,
}

impl GtpPlayer {
    /// Starts the program, checks it answers GTP and sets the options (`set_option NAME VALUE`; a
    /// `?` answer is a refusal).
    pub fn start(
        cmd: &str,
        args: &[String],
        options: &[(String, String)],
        launch: &Launch,
    ) -> Result<Self, Failure> {
        let mut p = GtpPlayer {
            pipe: Pipe::spawn(cmd, args, launch.stderr_log.as_deref(), launch.stop.clone())?,
            next_id: 1,
            tc: launch.tc,
            time_settings_ok: true,
            time_left_ok: true,
            whole_seconds: false,
            known: Vec::new(),
            start_known: false,
        };
        p.ask("protocol_version", Instant::now() + HANDSHAKE_TIMEOUT)
            .map_err(handshake)?;
        p.ask("boardsize 8", Instant::now() + HANDSHAKE_TIMEOUT)?;
        for (name, value) in options {
            p.ask(
                &format!("set_option {name} {value}"),
                Instant::now() + HANDSHAKE_TIMEOUT,
            )
            .map_err(|e| options_refused(&[(name.clone(), value.clone())], &[e.to_string()]))?;
        }
        let setup = Instant::now() + HANDSHAKE_TIMEOUT;
        match launch.tc {
            TimeControl::Depth(d) => {
                if p.ask("known_command set_depth", setup)? != "true" {
                    return Err(Failure::Unsupported(Unsupported::GtpDepth));
                }
                p.ask(&format!("set_depth {d}"), setup)?;
            }
            TimeControl::Nodes(_) => {
                return Err(Failure::Unsupported(Unsupported::NodeLimit(Proto::Gtp)))
            }
            TimeControl::Clock { .. } | TimeControl::MoveTime(_) => {}
        }
        Ok(p)
    }

    /// Sends a command and returns the text of its `=` answer (a `?` answer is a failure).
    fn ask(&mut self, command: &str, deadline: Instant) -> Result<String, Failure> {
        match self.try_ask(command, deadline)? {
            Answer::Accepted(text) => Ok(text),
            Answer::Refused(reply) => Err(Failure::Refused {
                command: command.to_string(),
                reply,
            }),
        }
    }

    /// Sends a command; its answer: accepted (`=`) with its text, or refused (`?`) with the line.
    fn try_ask(&mut self, command: &str, deadline: Instant) -> Result<Answer, Failure> {
        let id = self.next_id;
        self.next_id += 1;
        self.pipe.send(&format!("{id} {command}"))?;
        let line = self
            .pipe
            .wait_for(|l| gtp_answer(l, id).is_some(), deadline)?;
        Ok(match gtp_answer(&line, id) {
            Some((true, text)) => Answer::Accepted(text.to_string()),
            _ => Answer::Refused(line),
        })
    }
}

/// A GTP engine's answer to a command.
enum Answer {
    /// `=`: the command was carried out; the answer's text.
    Accepted(String),
    /// `?`: the command was refused; the whole answer line.
    Refused(String),
}

impl Answer {
    /// Whether the command was carried out.
    fn is_ok(&self) -> bool {
        matches!(self, Answer::Accepted(_))
    }
}

/// Reads `line` as the answer to command `id`: whether it succeeded (`=`, not `?`) and its text.
fn gtp_answer(line: &str, id: u64) -> Option<(bool, &str)> {
    let ok = match line.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return None,
    };
    let rest = &line[1..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || rest[..digits].parse::<u64>().ok() != Some(id) {
        return None;
    }
    let text = &rest[digits..];
    if !text.is_empty() && !text.starts_with(char::is_whitespace) {
        return None;
    }
    Some((ok, text.trim()))
}

/// A time in seconds as GTP commands carry it: with milliseconds, or whole (rounded down).
fn seconds(t: Duration, whole: bool) -> String {
    if whole {
        t.as_secs().to_string()
    } else {
        format!("{:.3}", t.as_secs_f64())
    }
}

fn gtp_colour(c: crate::board::Color) -> &'static str {
    match c {
        crate::board::Color::Black => "b",
        crate::board::Color::White => "w",
    }
}

impl Player<Position> for GtpPlayer {
    fn new_game(&mut self, _: u64) -> Result<(), Failure> {
        self.known.clear();
        self.start_known = false;
        let settings = |whole: bool| match self.tc {
            // Absolute time: the increments show in `time_left`.
            TimeControl::Clock { base, .. } => {
                Some(format!("time_settings {} 0 0", seconds(base, whole)))
            }
            TimeControl::MoveTime(t) => {
                let t = if whole {
                    t.max(Duration::from_secs(1))
                } else {
                    t
                };
                Some(format!("time_settings 0 {} 1", seconds(t, whole)))
            }
            // Byo-yomi time with no stones means "no time limit" in GTP: `set_depth` limits it.
            TimeControl::Depth(_) => Some("time_settings 0 1 0".to_string()),
            TimeControl::Nodes(_) => None,
        };
        let (Some(first), Some(whole)) = (settings(self.whole_seconds), settings(true)) else {
            return Ok(());
        };
        if self.time_settings_ok {
            let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
            let mut ok = self.try_ask(&first, deadline)?.is_ok();
            if !ok && whole != first {
                ok = self.try_ask(&whole, deadline)?.is_ok();
                self.whole_seconds = ok;
            }
            self.time_settings_ok = ok;
            self.time_left_ok &= ok;
        }
        Ok(())
    }

    fn choose(
        &mut self,
        start: &Position,
        moves: &[Move],
        pos: &Position,
        tc: TimeControl,
        clocks: Clocks,
        deadline: Instant,
    ) -> Result<Move, Failure> {
        if *start != Position::START {
            return Err(Failure::Unsupported(Unsupported::SetUpBoard));
        }
        if !self.start_known || !moves.starts_with(&self.known) {
            self.ask("clear_board", deadline)?;
            self.known.clear();
            self.start_known = true;
        }
        let mut p = *start;
        for m in &moves[..self.known.len()] {
            p = p.play(*m).unwrap_or(p);
        }
        for &m in &moves[self.known.len()..] {
            self.ask(&format!("play {} {}", gtp_colour(p.side), m), deadline)?;
            p = p.play(m).unwrap_or(p);
            self.known.push(m);
        }
        if let (TimeControl::Clock { .. }, true) = (tc, self.time_left_ok) {
            let left = clocks.left[crate::game::Side::from(pos.side) as usize];
            let command = format!(
                "time_left {} {} 0",
                gtp_colour(pos.side),
                seconds(left, self.whole_seconds)
            );
            self.time_left_ok = self.try_ask(&command, deadline)?.is_ok();
        }
        let answer = self.ask(&format!("genmove {}", gtp_colour(pos.side)), deadline)?;
        let mv = answer
            .parse::<Move>()
            .map_err(|_| Failure::Malformed(answer.clone()))?;
        // The engine has played its move on its own board.
        self.known.push(mv);
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_answers_are_matched_by_number() {
        assert_eq!(gtp_answer("=12 f5", 12), Some((true, "f5")));
        assert_eq!(gtp_answer("=12", 12), Some((true, "")));
        assert_eq!(
            gtp_answer("?3 unknown command", 3),
            Some((false, "unknown command"))
        );
        assert_eq!(gtp_answer("=1 f5", 12), None);
        assert_eq!(gtp_answer("=123 f5", 12), None);
        assert_eq!(gtp_answer("= f5", 12), None);
        assert_eq!(gtp_answer("=12f5", 12), None);
        assert_eq!(gtp_answer("", 12), None);
    }
}
