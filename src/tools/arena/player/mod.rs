//! Players for the match runner: the built-in `random` and `greedy` players, and engines run as
//! processes that speak wedge's protocol (any UCI/UGI-style engine for Othello), NBoard or GTP. Each
//! process is set up at its start (handshake, options, limits its protocol needs), and an engine that
//! refuses any of it fails to start; then it must answer each move in time. Everything it does wrong
//! (crash, hang, refusal, malformed answer) is a [`Failure`] with a reason, never a panic. An
//! engine's stderr goes to a log file when the match has one; its last lines are quoted when it fails.

use crate::board::ggf::GgfGame;
use crate::board::{Move, Position};
use crate::game::players::Baseline;
use crate::game::Rules;
use crate::rng::Rng;
use crossbeam_channel::{select, Receiver};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod gtp;
mod nboard;
mod pipe;
mod wedge;

pub use gtp::GtpPlayer;
pub use nboard::NboardPlayer;
pub use pipe::Pipe;
pub use wedge::{ProcessPlayer, WedgeText};

/// How an engine is started: a built-in player or a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Uniformly random legal moves (seeded).
    Random,
    /// Most discs flipped.
    Greedy,
    /// A program speaking one of the supported protocols.
    Process {
        /// The program.
        cmd: String,
        /// Its arguments.
        args: Vec<String>,
        /// Options set after the handshake, in the engine's protocol (`setoption name N value V`,
        /// GTP `set_option N V`, NBoard `set option N V`); a refused one stops the engine's start.
        options: Vec<(String, String)>,
        /// The protocol it speaks.
        proto: Proto,
    },
}

/// The protocols the runner can drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// wedge's protocol (UCI/UGI-style).
    Wedge,
    /// NBoard, version 2.
    Nboard,
    /// GTP.
    Gtp,
}

impl Proto {
    /// The protocol's name as its users write it.
    pub fn name(self) -> &'static str {
        match self {
            Proto::Wedge => "wedge's protocol",
            Proto::Nboard => "NBoard",
            Proto::Gtp => "GTP",
        }
    }
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
    /// (required for a process), `arg=ARG` (repeatable), `option.NAME=VALUE` (repeatable; set in the
    /// engine's protocol after the handshake), `proto=wedge|uci|ugi|nboard|gtp` (default wedge).
    pub fn parse(text: &str) -> Result<EngineSpec, SpecError> {
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
        let mut proto = Proto::Wedge;
        for item in t.split_whitespace() {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(item.to_string()))?;
            match k {
                "name" => name = Some(v.to_string()),
                "cmd" => cmd = Some(v.to_string()),
                "arg" => args.push(v.to_string()),
                "proto" => {
                    proto = match v {
                        "wedge" | "uci" | "ugi" => Proto::Wedge,
                        "nboard" => Proto::Nboard,
                        "gtp" => Proto::Gtp,
                        _ => return Err(SpecError::UnknownProtocol(v.to_string())),
                    }
                }
                _ => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => options.push((opt.to_string(), v.to_string())),
                    _ => return Err(SpecError::UnknownKey(k.to_string())),
                },
            }
        }
        let cmd = cmd.ok_or(SpecError::NoCommand)?;
        Ok(EngineSpec {
            name: name.unwrap_or_else(|| cmd.clone()),
            kind: EngineKind::Process {
                cmd,
                args,
                options,
                proto,
            },
        })
    }
}

/// Why an engine's description (`--engine`) could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// An item is not `key=value`.
    NotKeyValue(String),
    /// `proto=` names a protocol the runner does not speak.
    UnknownProtocol(String),
    /// A key other than name, cmd, arg, option.NAME, proto.
    UnknownKey(String),
    /// No `cmd=`.
    NoCommand,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::NotKeyValue(item) => write!(
                f,
                "--engine: '{item}' is not key=value (name=, cmd=, arg=, option.NAME=, proto=)"
            ),
            SpecError::UnknownProtocol(p) => write!(
                f,
                "--engine: proto '{p}' is not supported (wedge, uci, ugi, nboard, gtp)"
            ),
            SpecError::UnknownKey(k) => write!(f, "--engine: unknown key '{k}'"),
            SpecError::NoCommand => f.write_str("--engine: cmd=PROGRAM is required"),
        }
    }
}

impl std::error::Error for SpecError {}

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
    /// The game clock as GGF's `TI` writes it: `60/0.5/0` for `--tc 60+0.5` (the runner gives no
    /// grace), and no clock (`0`) for limits a move.
    pub fn ggf_clock(&self) -> String {
        match self {
            TimeControl::Clock { base, increment } => crate::board::ggf::GgfClock {
                time: base.as_secs_f64(),
                increment: increment.as_secs_f64(),
                grace: 0.0,
            }
            .to_string(),
            _ => crate::board::ggf::NO_CLOCK.into(),
        }
    }

    /// The time control as text (`60//0.5`, `movetime 100ms`, `depth 8`, `nodes 30000`), for
    /// reports and the ids of runs.
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

/// What starting a player needs besides its spec.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The match's time control (engines whose protocol needs it are set up for it at the start).
    pub tc: TimeControl,
    /// Seeds the random player.
    pub seed: u64,
    /// The file the engine's stderr is appended to; `None` keeps only its last lines, for messages.
    pub stderr_log: Option<PathBuf>,
    /// Disconnected when the match stops: a wait for an engine's answer then ends at once. A
    /// receiver that never disconnects ([`crossbeam_channel::never`]) means "never stopped".
    pub stop: Receiver<()>,
}

/// Why a player failed to start or to produce a legal move in time: what the match runner
/// records as the reason of a forfeit. Callers match on the kind; the text is for records and
/// reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The program could not be started (`error`: the system's words).
    Start {
        /// The command.
        what: String,
        /// Why.
        error: String,
    },
    /// The engine's stderr log could not be opened.
    Log {
        /// The log file.
        path: PathBuf,
        /// The system's words.
        error: String,
    },
    /// The program went away: what it did (`exited`, `closed its input`), its exit status when
    /// known, and its last lines on stderr.
    Exited {
        /// What it did.
        what: &'static str,
        /// Its exit status, once known.
        status: Option<String>,
        /// Its last lines on stderr (empty: none).
        stderr: String,
    },
    /// No answer before the deadline (hung?).
    Timeout,
    /// The match was stopped while waiting for an answer.
    Stopped,
    /// The start failed: the handshake, options and set-up before the first game.
    Handshake(Box<Failure>),
    /// The engine refused its options: the options sent (`name=value`) and its error replies.
    OptionsRefused {
        /// The options sent.
        sent: Vec<String>,
        /// The engine's error replies.
        errors: Vec<String>,
    },
    /// The engine refused the game's seed with this reply.
    SeedRefused {
        /// The seed.
        seed: u64,
        /// Its reply.
        reply: String,
    },
    /// A command the engine refused (GTP), with its reply.
    Refused {
        /// The command.
        command: String,
        /// Its reply.
        reply: String,
    },
    /// A second answer for one `go` (the line: `bestmove`, or NBoard's `===`).
    SecondBestmove(String),
    /// `bestmove none` in a live position.
    NoMove,
    /// An answer that names no move (the line).
    Malformed(String),
    /// A move that is not legal there (as the protocol writes it).
    Illegal(String),
    /// A pass where a move was legal.
    IllegalPass,
    /// The clock ran out: the time used and the time that was left.
    Flag {
        /// Time the move took.
        used: Duration,
        /// Time that was left.
        left: Duration,
    },
    /// What the match asks cannot be done with this player.
    Unsupported(Unsupported),
    /// A baseline was asked for a move in a finished game.
    GameOver,
}

/// What a player cannot do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// A node limit (NBoard, GTP).
    NodeLimit(Proto),
    /// A fixed depth, from a GTP engine that does not know `set_depth`.
    GtpDepth,
    /// A set-up start position (GTP).
    SetUpBoard,
    /// Variant boards (every protocol but wedge's).
    Variant(Proto),
    /// A built-in player was started as a process, or the other way round.
    NotBuiltIn,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Start { what, error } => write!(f, "cannot start '{what}': {error}"),
            Failure::Log { path, error } => {
                write!(f, "cannot open the stderr log {}: {error}", path.display())
            }
            Failure::Exited {
                what,
                status,
                stderr,
            } => {
                match status {
                    Some(s) => write!(f, "the engine {what} ({s})")?,
                    None => write!(f, "the engine {what} (crashed?)")?,
                }
                if !stderr.is_empty() {
                    write!(f, "; its stderr ended: {stderr}")?;
                }
                Ok(())
            }
            Failure::Timeout => f.write_str("no answer in time (hung?)"),
            Failure::Stopped => f.write_str("the match was stopped"),
            Failure::Handshake(inner) if **inner == Failure::Timeout => write!(
                f,
                "handshake failed: no answer to the protocol's opening commands within {} s \
                 (hung, or an engine of another protocol?)",
                HANDSHAKE_TIMEOUT.as_secs()
            ),
            Failure::Handshake(inner) => write!(f, "handshake failed: {inner}"),
            Failure::OptionsRefused { sent, errors } => write!(
                f,
                "refused its options ({}): {}",
                sent.join(" "),
                errors.join("; ")
            ),
            Failure::SeedRefused { seed, reply } => {
                write!(f, "refused the game's seed {seed}: {reply}")
            }
            Failure::Refused { command, reply } => write!(
                f,
                "'{command}' was refused: {}",
                crate::board::square::truncate(reply)
            ),
            Failure::SecondBestmove(line) => write!(
                f,
                "protocol violation: a second answer ('{}') to one go",
                crate::board::square::truncate(line)
            ),
            Failure::NoMove => f.write_str("answered 'bestmove none' in a live position"),
            Failure::Malformed(line) => write!(
                f,
                "malformed answer '{}'",
                crate::board::square::truncate(line)
            ),
            Failure::Illegal(mv) => write!(f, "illegal move {mv}"),
            Failure::IllegalPass => f.write_str("a pass with a legal move"),
            Failure::Flag { used, left } => write!(
                f,
                "lost on time ({} ms used, {} ms left)",
                used.as_millis(),
                left.as_millis()
            ),
            Failure::Unsupported(u) => write!(f, "{u}"),
            Failure::GameOver => f.write_str("game is over"),
        }
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::NodeLimit(Proto::Gtp) => f.write_str(
                "GTP has no node limit: use --depth (with an engine that knows 'set_depth'), \
                 --movetime or --tc",
            ),
            Unsupported::NodeLimit(proto) => write!(
                f,
                "{} has no node limit: use --depth, --movetime or --tc",
                proto.name()
            ),
            Unsupported::GtpDepth => f.write_str(
                "this GTP engine cannot play a fixed depth: it does not know 'set_depth' \
                 (use --movetime or --tc)",
            ),
            Unsupported::SetUpBoard => {
                f.write_str("GTP engines can only start from the standard position")
            }
            Unsupported::Variant(proto) => write!(
                f,
                "{} has no variant boards: variant matches drive engines over wedge's protocol \
                 (proto=wedge)",
                proto.name()
            ),
            Unsupported::NotBuiltIn => f.write_str("not a built-in player"),
        }
    }
}

impl std::error::Error for Failure {}

/// The clocks when a move is asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// The time left: the first player's, then the second player's (index by
    /// [`crate::game::Side`]).
    pub left: [Duration; 2],
    /// Increment per move.
    pub increment: Duration,
}

/// Something that plays games of `G`.
pub trait Player<G: Rules>: Send {
    /// Prepares for a new game whose seed is `game_seed` (drawn from the match's seed and the
    /// game's number: the same whichever process plays the game); also drains whatever the engine
    /// still had to say about the last one.
    fn new_game(&mut self, game_seed: u64) -> Result<(), Failure>;
    /// Makes sure nothing the engine said before is still on its way, so that the next answer read
    /// is the answer to the next question (an engine that wrote a stray second `bestmove` must not
    /// have it taken for its next move). Called before each move, off the clock.
    fn sync(&mut self) -> Result<(), Failure> {
        Ok(())
    }
    /// Chooses a move in `pos`, reached from `start` by `moves`; `deadline` is when to give up.
    fn choose(
        &mut self,
        start: &G,
        moves: &[G::Move],
        pos: &G,
        tc: TimeControl,
        clocks: Clocks,
        deadline: Instant,
    ) -> Result<G::Move, Failure>;
}

/// The built-in random and greedy players, for every game.
pub struct BaselinePlayer {
    kind: Baseline,
    rng: Rng,
}

impl BaselinePlayer {
    /// A baseline of `kind` whose draws start from `seed` (each game reseeds it).
    pub fn new(kind: Baseline, seed: u64) -> BaselinePlayer {
        BaselinePlayer {
            kind,
            rng: Rng::new(seed),
        }
    }
}

impl<G: Rules> Player<G> for BaselinePlayer {
    /// Each game draws its moves from its own seed, so a game replays at any concurrency.
    fn new_game(&mut self, game_seed: u64) -> Result<(), Failure> {
        self.rng = Rng::new(game_seed);
        Ok(())
    }
    fn choose(
        &mut self,
        _: &G,
        _: &[G::Move],
        pos: &G,
        _: TimeControl,
        _: Clocks,
        _: Instant,
    ) -> Result<G::Move, Failure> {
        self.kind
            .choose(pos, &mut self.rng)
            .ok_or(Failure::GameOver)
    }
}

/// The built-in player of `spec`, if it names one.
pub fn baseline<G: Rules>(spec: &EngineSpec, launch: &Launch) -> Option<Box<dyn Player<G>>> {
    let kind = match spec.kind {
        EngineKind::Random => Baseline::Random,
        EngineKind::Greedy => Baseline::Greedy,
        EngineKind::Process { .. } => return None,
    };
    Some(Box::new(BaselinePlayer::new(kind, launch.seed)))
}

/// How long the handshake and `isready` may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);

/// The failure for options the engine refused: its error replies, and the options sent.
fn options_refused(options: &[(String, String)], errors: &[String]) -> Failure {
    Failure::OptionsRefused {
        sent: options.iter().map(|(n, v)| format!("{n}={v}")).collect(),
        errors: errors.to_vec(),
    }
}

/// Marks a failure as one of the handshake.
fn handshake(failure: Failure) -> Failure {
    Failure::Handshake(Box::new(failure))
}

/// Starts an 8 x 8 player from its spec: a baseline, or an engine over its protocol.
pub fn start(spec: &EngineSpec, launch: &Launch) -> Result<Box<dyn Player<Position>>, Failure> {
    let (cmd, args, options, proto) = match &spec.kind {
        EngineKind::Process {
            cmd,
            args,
            options,
            proto,
        } => (cmd, args, options, proto),
        EngineKind::Random | EngineKind::Greedy => {
            return baseline(spec, launch).ok_or(Failure::Unsupported(Unsupported::NotBuiltIn))
        }
    };
    Ok(match proto {
        Proto::Wedge => Box::new(ProcessPlayer::start(cmd, args, options, launch)?),
        Proto::Nboard => Box::new(NboardPlayer::start(cmd, args, options, launch)?),
        Proto::Gtp => Box::new(GtpPlayer::start(cmd, args, options, launch)?),
    })
}

/// Reads a game clock `SECONDS+INCREMENT` (`60+0.5`; the increment may be left out).
pub fn parse_tc(text: &str) -> Result<TimeControl, TcError> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| -> Result<Duration, TcError> {
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| TcError::NotSeconds(s.to_string()))?;
        if !(0.0..=86_400.0).contains(&v) {
            return Err(TcError::OutOfRange(s.trim().to_string()));
        }
        Ok(Duration::from_secs_f64(v))
    };
    let base = secs(base)?;
    if base.is_zero() {
        return Err(TcError::NoBase);
    }
    Ok(TimeControl::Clock {
        base,
        increment: secs(inc)?,
    })
}

/// Why a game clock could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcError {
    /// A part is not a number of seconds.
    NotSeconds(String),
    /// A part is negative or over a day.
    OutOfRange(String),
    /// The base time is zero.
    NoBase,
}

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcError::NotSeconds(s) => {
                write!(f, "--tc: '{s}' is not a number of seconds (e.g. 60+0.5)")
            }
            TcError::OutOfRange(s) => write!(f, "--tc: {s} seconds is out of range"),
            TcError::NoBase => f.write_str("--tc: the base time must be positive"),
        }
    }
}

impl std::error::Error for TcError {}

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
                options: vec![("Hash".into(), "16".into())],
                proto: Proto::Wedge,
            }
        );
        assert!(EngineSpec::parse("name=A").is_err());
        assert!(EngineSpec::parse("cmd=x bogus").is_err());
        assert!(EngineSpec::parse("cmd=x proto=xboard").is_err());
        assert!(matches!(
            EngineSpec::parse("cmd=x proto=nboard").unwrap().kind,
            EngineKind::Process {
                proto: Proto::Nboard,
                ..
            }
        ));
        assert!(EngineSpec::parse("cmd=x option.=3").is_err());
    }

    #[test]
    fn a_silent_handshake_says_how_long_it_waited() {
        let text = Failure::Handshake(Box::new(Failure::Timeout)).to_string();
        assert!(text.contains("opening commands within 20 s"), "{text}");
        let text = Failure::Handshake(Box::new(Failure::NoMove)).to_string();
        assert!(text.starts_with("handshake failed: answered"), "{text}");
    }
}
