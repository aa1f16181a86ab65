//! Engines that speak wedge's protocol (UCI/UGI-shaped): `uci`, options, `isready` before each
//! move, `position ... moves ...` and `go`, answered by `bestmove`.

use super::*;

/// An engine process speaking wedge's protocol.
pub struct ProcessPlayer {
    pipe: Pipe,
}

impl ProcessPlayer {
    /// Starts the program, does the `uci` handshake and sends the options.
    pub fn start(
        cmd: &str,
        args: &[String],
        options: &[(String, String)],
        launch: &Launch,
    ) -> Result<Self, Failure> {
        let mut pipe = Pipe::spawn(cmd, args, launch.stderr_log.as_deref(), launch.stop.clone())?;
        pipe.send("uci").map_err(handshake)?;
        pipe.wait_for(|l| l == "uciok", Instant::now() + HANDSHAKE_TIMEOUT)
            .map_err(handshake)?;
        for (name, value) in options {
            pipe.send(&format!("setoption name {name} value {value}"))?;
        }
        // The engine answers a command it refuses with `info string error: ...` (protocol.md); every
        // such line before `readyok` is about the options just sent.
        pipe.send("isready")?;
        let mut errors = Vec::new();
        pipe.wait(Instant::now() + HANDSHAKE_TIMEOUT, |l| {
            if let Some(e) = l.strip_prefix("info string error") {
                errors.push(e.trim_start_matches(':').trim().to_string());
            }
            l == "readyok"
        })?;
        if !errors.is_empty() {
            return Err(options_refused(options, &errors));
        }
        Ok(ProcessPlayer { pipe })
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.pipe.send(line)
    }

    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
    ) -> Result<String, Failure> {
        self.pipe.wait_for(done, deadline)
    }
}

impl Player for ProcessPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        self.send("ucinewgame")?;
        self.sync()
    }

    /// `isready`, then everything up to `readyok` is read and dropped.
    fn sync(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", Instant::now() + HANDSHAKE_TIMEOUT)
            .map(|_| ())
    }

    fn choose(
        &mut self,
        start: Position,
        moves: &[Move],
        _pos: Position,
        tc: TimeControl,
        clocks: Clocks,
        deadline: Instant,
    ) -> Result<Move, Failure> {
        let base = if start == Position::START {
            "position startpos".to_string()
        } else {
            format!("position board {}", start)
        };
        // Passes are sent explicitly as `0000` (UCI's null move, which every UGI engine reads): a
        // pass at the end of the list cannot be inferred by the engine.
        let list: Vec<String> = moves
            .iter()
            .map(|m| {
                if m.is_pass() {
                    "0000".to_string()
                } else {
                    m.to_string()
                }
            })
            .collect();
        let position = if list.is_empty() {
            base
        } else {
            format!("{base} moves {}", list.join(" "))
        };
        self.send(&position)?;
        let go = match tc {
            TimeControl::Clock { .. } => format!(
                "go btime {} wtime {} binc {} winc {}",
                clocks.black.as_millis(),
                clocks.white.as_millis(),
                clocks.increment.as_millis(),
                clocks.increment.as_millis()
            ),
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
        };
        self.send(&go)?;
        let line = self.wait_for(|l| l.starts_with("bestmove"), deadline)?;
        let word = line.split_whitespace().nth(1).unwrap_or("");
        if word.eq_ignore_ascii_case("none") {
            return Err(Failure(
                "answered 'bestmove none' in a live position".into(),
            ));
        }
        word.parse::<Move>().map_err(|_| {
            Failure(format!(
                "malformed answer '{}'",
                crate::board::square::truncate(&line)
            ))
        })
    }
}

impl crate::tools::arena::variant::VariantPlayer for ProcessPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        Player::new_game(self)
    }

    fn sync(&mut self) -> Result<(), Failure> {
        Player::sync(self)
    }

    /// `position variant ...` with the moves so far, the `go` of the time control, and the
    /// `bestmove` answer read as a variant square or a pass.
    fn choose(
        &mut self,
        start: &crate::variant::board::Board,
        moves: &[crate::protocol::variant::VariantMove],
        _board: &crate::variant::board::Board,
        tc: TimeControl,
        clocks: crate::tools::arena::variant::VariantClocks,
        deadline: Instant,
    ) -> Result<crate::protocol::variant::VariantMove, Failure> {
        use crate::tools::arena::variant::{go_command, parse_bestmove, position_command};
        self.send(&position_command(start, moves))?;
        self.send(&go_command(tc, clocks))?;
        let line = self.wait_for(|l| l.starts_with("bestmove"), deadline)?;
        parse_bestmove(&line)
    }
}
