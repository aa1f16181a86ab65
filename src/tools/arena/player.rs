//! Players for the match runner: the built-in `random` and `greedy` players, and engines run as
//! processes that speak wedge's protocol (any UCI/UGI-style engine for Othello). A process engine is
//! driven with `position ... moves ...` and `go ...` and must answer `bestmove` in time; everything it
//! does wrong (crash, hang, malformed answer) is a [`Failure`] with a reason, never a panic.

use crate::board::{Move, Position};
use crate::tools::players::{greedy_move, random_move, Rng};
use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// How an engine is started: a built-in player or a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Uniformly random legal moves (seeded).
    Random,
    /// Most discs flipped.
    Greedy,
    /// A program speaking the protocol.
    Process {
        /// The program.
        cmd: String,
        /// Its arguments.
        args: Vec<String>,
        /// `setoption` pairs sent after the handshake.
        options: Vec<(String, String)>,
    },
}

/// A named engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in records and reports.
    pub name: String,
    /// How to start it.
    pub kind: EngineKind,
}

impl EngineSpec {
    /// Reads `random`, `greedy`, or whitespace-separated `key=value` items: `name=NAME`, `cmd=PROGRAM`
    /// (required for a process), `arg=ARG` (repeatable), `option.NAME=VALUE` (repeatable; sent as
    /// `setoption name NAME value VALUE`), `proto=wedge` (the only protocol for now).
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let t = text.trim();
        match t {
            "random" => {
                return Ok(EngineSpec {
                    name: "random".into(),
                    kind: EngineKind::Random,
                })
            }
            "greedy" => {
                return Ok(EngineSpec {
                    name: "greedy".into(),
                    kind: EngineKind::Greedy,
                })
            }
            _ => {}
        }
        let (mut name, mut cmd, mut args, mut options) = (None, None, Vec::new(), Vec::new());
        for item in t.split_whitespace() {
            let (k, v) = item.split_once('=').ok_or_else(|| {
                format!(
                    "--engine: '{item}' is not key=value (name=, cmd=, arg=, option.NAME=, proto=)"
                )
            })?;
            match k {
                "name" => name = Some(v.to_string()),
                "cmd" => cmd = Some(v.to_string()),
                "arg" => args.push(v.to_string()),
                "proto" if v == "wedge" || v == "uci" || v == "ugi" => {}
                "proto" => {
                    return Err(format!(
                        "--engine: proto '{v}' is not supported (wedge, uci or ugi)"
                    ))
                }
                _ => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => options.push((opt.to_string(), v.to_string())),
                    _ => return Err(format!("--engine: unknown key '{k}'")),
                },
            }
        }
        let cmd = cmd.ok_or_else(|| "--engine: cmd=PROGRAM is required".to_string())?;
        Ok(EngineSpec {
            name: name.unwrap_or_else(|| cmd.clone()),
            kind: EngineKind::Process { cmd, args, options },
        })
    }
}

/// How long a move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A game clock: base time and increment per move.
    Clock {
        /// Time at the start of the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Fixed time per move.
    MoveTime(Duration),
    /// Fixed depth per move.
    Depth(u32),
    /// Fixed nodes per move.
    Nodes(u64),
}

impl TimeControl {
    /// The GGF `TI` text.
    pub fn describe(&self) -> String {
        match self {
            TimeControl::Clock { base, increment } => {
                format!("{}//{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::MoveTime(t) => format!("movetime {}ms", t.as_millis()),
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// Why a player failed to produce a legal move in time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure(pub String);

/// The clocks when a move is asked for.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Black's remaining time.
    pub black: Duration,
    /// White's remaining time.
    pub white: Duration,
    /// Increment per move.
    pub increment: Duration,
}

/// Something that plays moves.
pub trait Player: Send {
    /// Prepares for a new game.
    fn new_game(&mut self) -> Result<(), Failure>;
    /// Chooses a move in `pos`, reached from `start` by `moves`; `deadline` is when to give up.
    fn choose(
        &mut self,
        start: Position,
        moves: &[Move],
        pos: Position,
        tc: TimeControl,
        clocks: Clocks,
        deadline: Instant,
    ) -> Result<Move, Failure>;
}

/// The random player.
pub struct RandomPlayer(pub Rng);

impl Player for RandomPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        Ok(())
    }
    fn choose(
        &mut self,
        _: Position,
        _: &[Move],
        pos: Position,
        _: TimeControl,
        _: Clocks,
        _: Instant,
    ) -> Result<Move, Failure> {
        random_move(pos.board, &mut self.0).ok_or_else(|| Failure("game is over".into()))
    }
}

/// The greedy player.
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        Ok(())
    }
    fn choose(
        &mut self,
        _: Position,
        _: &[Move],
        pos: Position,
        _: TimeControl,
        _: Clocks,
        _: Instant,
    ) -> Result<Move, Failure> {
        greedy_move(pos.board).ok_or_else(|| Failure("game is over".into()))
    }
}

/// An engine process.
pub struct ProcessPlayer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// How long the handshake and `isready` may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);

impl ProcessPlayer {
    /// Starts the program, does the `uci` handshake and sends the options.
    pub fn start(
        cmd: &str,
        args: &[String],
        options: &[(String, String)],
    ) -> Result<Self, Failure> {
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure(format!("cannot start '{cmd}': {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(Failure("no pipes to the engine".into()));
        };
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = ProcessPlayer {
            child,
            stdin,
            lines,
        };
        p.send("uci")?;
        p.wait_for(|l| l == "uciok", Instant::now() + HANDSHAKE_TIMEOUT)?;
        for (name, value) in options {
            p.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Failure("the engine closed its input (crashed?)".into()))
    }

    /// Reads lines until one satisfies `done`; returns it.
    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
    ) -> Result<String, Failure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if done(&l) => return Ok(l),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure("no answer in time (hung?)".into()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure("the engine exited (crashed?)".into()))
                }
            }
        }
    }
}

impl Drop for ProcessPlayer {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Player for ProcessPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        self.send("ucinewgame")?;
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

/// Starts a player from its spec (`seed` seeds the random player).
pub fn start(spec: &EngineSpec, seed: u64) -> Result<Box<dyn Player>, Failure> {
    Ok(match &spec.kind {
        EngineKind::Random => Box::new(RandomPlayer(Rng::new(seed))),
        EngineKind::Greedy => Box::new(GreedyPlayer),
        EngineKind::Process { cmd, args, options } => {
            Box::new(ProcessPlayer::start(cmd, args, options)?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(
            EngineSpec::parse("random").unwrap().kind,
            EngineKind::Random
        );
        let s = EngineSpec::parse("name=A cmd=./wedge option.Hash=16 arg=-v proto=ugi").unwrap();
        assert_eq!(s.name, "A");
        assert_eq!(
            s.kind,
            EngineKind::Process {
                cmd: "./wedge".into(),
                args: vec!["-v".into()],
                options: vec![("Hash".into(), "16".into())]
            }
        );
        assert!(EngineSpec::parse("name=A").is_err());
        assert!(EngineSpec::parse("cmd=x bogus").is_err());
        assert!(EngineSpec::parse("cmd=x proto=gtp").is_err());
        assert!(EngineSpec::parse("cmd=x option.=3").is_err());
    }
}
