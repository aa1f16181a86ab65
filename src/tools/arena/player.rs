//! Players for the match runner: the built-in `random` and `greedy` players, and engines run as
//! processes that speak wedge's protocol (any UCI/UGI-style engine for Othello), NBoard or GTP. Each
//! process is set up at its start (handshake, options, limits its protocol needs), and an engine that
//! refuses any of it fails to start; then it must answer each move in time. Everything it does wrong
//! (crash, hang, refusal, malformed answer) is a [`Failure`] with a reason, never a panic. An
//! engine's stderr goes to a log file when the match has one; its last lines are quoted when it fails.

use crate::board::ggf::GgfGame;
use crate::board::{Move, Position};
use crate::tools::players::{greedy_move, random_move, Rng};
use crossbeam_channel::{select, unbounded, Receiver};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
        let mut proto = Proto::Wedge;
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
                "proto" => {
                    proto = match v {
                        "wedge" | "uci" | "ugi" => Proto::Wedge,
                        "nboard" => Proto::Nboard,
                        "gtp" => Proto::Gtp,
                        _ => {
                            return Err(format!(
                            "--engine: proto '{v}' is not supported (wedge, uci, ugi, nboard, gtp)"
                        ))
                        }
                    }
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
            kind: EngineKind::Process {
                cmd,
                args,
                options,
                proto,
            },
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
    /// Prepares for a new game; also drains whatever the engine still had to say about the last one.
    fn new_game(&mut self) -> Result<(), Failure>;
    /// Makes sure nothing the engine said before is still on its way, so that the next answer read
    /// is the answer to the next question (an engine that wrote a stray second `bestmove` must not
    /// have it taken for its next move). Called before each move, off the clock.
    fn sync(&mut self) -> Result<(), Failure> {
        Ok(())
    }
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

/// A running program with its input and a channel of its output lines.
pub struct Pipe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stop: Receiver<()>,
    /// The last lines of its stderr.
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Disconnected when its stderr closes (the program ended).
    stderr_closed: Receiver<()>,
}

/// How many of an engine's last stderr lines are kept for messages.
const STDERR_TAIL_LINES: usize = 3;

impl Pipe {
    /// Starts `cmd` with `args`, stdin and stdout piped, stderr appended to `stderr_log` (if any);
    /// waits end early when `stop` disconnects.
    pub fn spawn(
        cmd: &str,
        args: &[String],
        stderr_log: Option<&Path>,
        stop: Receiver<()>,
    ) -> Result<Pipe, Failure> {
        let mut log = match stderr_log {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        Failure(format!(
                            "cannot open the stderr log {}: {e}",
                            path.display()
                        ))
                    })?,
            ),
            None => None,
        };
        // A program file that was just written can be briefly "busy" (ETXTBSY) while another thread
        // forks; that clears within milliseconds, so it is retried a few times.
        let mut attempt = 0;
        let mut command = Command::new(cmd);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        die_with_parent(&mut command);
        let mut child = loop {
            let spawned = command.spawn();
            match spawned {
                Ok(c) => break c,
                Err(e) if e.raw_os_error() == Some(26) && attempt < 20 => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(Failure(format!("cannot start '{cmd}': {e}"))),
            }
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(Failure("no pipes to the engine".into()));
        };
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let (closed_tx, stderr_closed) = crossbeam_channel::bounded::<()>(0);
        let tail = stderr_tail.clone();
        std::thread::spawn(move || {
            // Bytes, not text: an engine's stderr need not be UTF-8, and the log keeps it as written.
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            while matches!(reader.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                if let Some(f) = log.as_mut() {
                    if !line.ends_with(b"\n") {
                        line.push(b'\n');
                    }
                    // A log that cannot be written must not stop the engine: the line is dropped.
                    let _ = f.write_all(&line);
                }
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                if !text.is_empty() {
                    let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                    if tail.len() == STDERR_TAIL_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(text);
                }
                line.clear();
            }
            drop(closed_tx);
        });
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Pipe {
            child,
            stdin,
            lines,
            stop,
            stderr_tail,
            stderr_closed,
        })
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.exited("closed its input"));
        }
        Ok(())
    }

    /// Reads lines until one satisfies `done`; returns it.
    pub fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
    ) -> Result<String, Failure> {
        let mut found = None;
        self.wait(deadline, |l| {
            let last = done(l);
            if last {
                found = Some(l.to_string());
            }
            last
        })?;
        Ok(found.unwrap_or_default())
    }

    /// Hands each line read to `each` until it returns true, the deadline passes, the program
    /// exits or the match stops.
    pub fn wait(
        &mut self,
        deadline: Instant,
        mut each: impl FnMut(&str) -> bool,
    ) -> Result<(), Failure> {
        let timeout = crossbeam_channel::at(deadline);
        loop {
            select! {
                recv(self.lines) -> line => match line {
                    Ok(l) => {
                        if each(&l) {
                            return Ok(());
                        }
                    }
                    Err(_) => return Err(self.exited("exited")),
                },
                recv(self.stop) -> _ => return Err(Failure("the match was stopped".into())),
                recv(timeout) -> _ => return Err(Failure("no answer in time (hung?)".into())),
            }
        }
    }

    /// The failure for a program that went away: `what` it did, and its exit status once known.
    fn exited(&mut self, what: &str) -> Failure {
        // The output closes a moment before the process can be reaped; wait a little for its status.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Its last words on stderr, once the reader has seen them to the end.
        let _ = self.stderr_closed.recv_timeout(Duration::from_millis(200));
        let tail = self.stderr_tail();
        let said = if tail.is_empty() {
            String::new()
        } else {
            format!("; its stderr ended: {tail}")
        };
        match status {
            Some(s) => Failure(format!("the engine {what} ({s}){said}")),
            None => Failure(format!("the engine {what} (crashed?){said}")),
        }
    }

    /// The last lines the program wrote to stderr, joined with ` | ` and cut to a readable length.
    pub fn stderr_tail(&self) -> String {
        const MAX: usize = 300;
        let tail = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        let text = tail.iter().cloned().collect::<Vec<_>>().join(" | ");
        if text.chars().count() > MAX {
            let cut: String = text.chars().take(MAX).collect();
            format!("{cut}...")
        } else {
            text
        }
    }
}

/// Makes the program die with the runner, even a runner killed by SIGKILL (which runs no `Drop`):
/// the kernel sends it SIGKILL when the thread that started it ends. The match starts each engine in
/// the worker thread that uses it to the end of the match, so that is the runner's end.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let runner = std::process::id() as libc::pid_t;
    // SAFETY: the hook runs in the child between fork and exec, where only async-signal-safe work
    // is allowed (another thread of the runner may have held a lock at the fork). It calls only
    // prctl and getppid, which are plain system calls that take no lock and allocate nothing, reads
    // the captured integer, and on error builds an io::Error from a raw errno, which does not
    // allocate either. No memory is shared with the parent's threads.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
            ) == -1
            {
                return Err(std::io::Error::last_os_error());
            }
            // The runner may have died before the prctl took effect; then nobody would send the
            // signal, so the child must not go on.
            if libc::getppid() != runner {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Elsewhere the engines are only killed when their [`Pipe`] is dropped.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

impl Drop for Pipe {
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

/// An engine process speaking wedge's protocol.
pub struct ProcessPlayer {
    pipe: Pipe,
}

/// How long the handshake and `isready` may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);

/// The failure for options the engine refused: its error replies, and the options sent.
fn options_refused(options: &[(String, String)], errors: &[String]) -> Failure {
    let sent: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
    Failure(format!(
        "refused its options ({}): {}",
        sent.join(" "),
        errors.join("; ")
    ))
}

/// Rewords a failure during the handshake as one.
fn handshake(Failure(reason): Failure) -> Failure {
    Failure(format!("handshake failed: {reason}"))
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

/// Starts a player from its spec.
pub fn start(spec: &EngineSpec, launch: &Launch) -> Result<Box<dyn Player>, Failure> {
    Ok(match &spec.kind {
        EngineKind::Random => Box::new(RandomPlayer(Rng::new(launch.seed))),
        EngineKind::Greedy => Box::new(GreedyPlayer),
        EngineKind::Process {
            cmd,
            args,
            options,
            proto: Proto::Wedge,
        } => Box::new(ProcessPlayer::start(cmd, args, options, launch)?),
        EngineKind::Process {
            cmd,
            args,
            options,
            proto: Proto::Nboard,
        } => Box::new(NboardPlayer::start(cmd, args, options, launch)?),
        EngineKind::Process {
            cmd,
            args,
            options,
            proto: Proto::Gtp,
        } => Box::new(GtpPlayer::start(cmd, args, options, launch)?),
    })
}

/// The depth asked of an NBoard engine (a protocol without clocks) for a time control: the depth
/// itself, or a depth that suits the time per move.
fn nboard_depth(tc: TimeControl) -> u32 {
    match tc {
        TimeControl::Depth(d) => d,
        TimeControl::MoveTime(t) if t < Duration::from_millis(100) => 4,
        TimeControl::MoveTime(t) if t < Duration::from_secs(1) => 8,
        _ => 12,
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
            return Err(Failure(
                "NBoard has no node limit: use --depth, --movetime or --tc".into(),
            ));
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

    /// Pings and waits for the matching pong; returns the `error ...` lines read on the way.
    fn sync(&mut self, deadline: Instant) -> Result<Vec<String>, Failure> {
        self.ping += 1;
        let n = self.ping;
        self.pipe.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        let mut errors = Vec::new();
        self.pipe.wait(deadline, |l| {
            if l.starts_with("error") {
                errors.push(l.to_string());
            }
            l == want
        })?;
        Ok(errors)
    }
}

impl Player for NboardPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        self.sync(Instant::now() + HANDSHAKE_TIMEOUT).map(|_| ())
    }

    fn choose(
        &mut self,
        start: Position,
        moves: &[Move],
        _pos: Position,
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
            time_control: tc.describe(),
            start,
            moves: moves.to_vec(),
            black_score: 0,
            forfeit: None,
        };
        self.pipe.send(&format!("set game {game}"))?;
        self.sync(deadline)?;
        self.pipe.send("go")?;
        let line = self.pipe.wait_for(|l| l.starts_with("==="), deadline)?;
        let word = line.split_whitespace().nth(1).unwrap_or("");
        let mv = word.split('/').next().unwrap_or("");
        mv.parse::<Move>().map_err(|_| {
            Failure(format!(
                "malformed answer '{}'",
                crate::board::square::truncate(&line)
            ))
        })
    }
}

/// An engine process speaking GTP: moves are sent with `play`, the engine's with `genmove`. The
/// engine's own board is kept in step; when it is not, it is rebuilt with `clear_board`. Every
/// command carries a number and only the answer with that number is taken, so a stray or late
/// answer is never read as the answer to a later command.
///
/// The time control goes as `time_settings` each game and `time_left` each move (a clock). Both are
/// optional in GTP: an engine that refuses one is not sent it again and plays on its own timing,
/// while the runner still enforces the clock. A fixed depth needs `set_depth`, which is checked at
/// the start (`known_command`).
pub struct GtpPlayer {
    pipe: Pipe,
    /// The number of the next command.
    next_id: u64,
    tc: TimeControl,
    /// Cleared when the engine refuses `time_settings`.
    time_settings_ok: bool,
    /// Cleared when the engine refuses `time_left`.
    time_left_ok: bool,
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
            .map_err(|Failure(e)| options_refused(&[(name.clone(), value.clone())], &[e]))?;
        }
        let setup = Instant::now() + HANDSHAKE_TIMEOUT;
        match launch.tc {
            TimeControl::Depth(d) => {
                if p.ask("known_command set_depth", setup)? != "true" {
                    return Err(Failure(
                        "this GTP engine cannot play a fixed depth: it does not know 'set_depth' \
                         (use --movetime or --tc)"
                            .into(),
                    ));
                }
                p.ask(&format!("set_depth {d}"), setup)?;
            }
            TimeControl::Nodes(_) => {
                return Err(Failure(
                    "GTP has no node limit: use --depth (with an engine that knows 'set_depth'), \
                     --movetime or --tc"
                        .into(),
                ))
            }
            TimeControl::Clock { .. } | TimeControl::MoveTime(_) => {}
        }
        Ok(p)
    }

    /// Sends a command and returns the text of its `=` answer (a `?` answer is a failure).
    fn ask(&mut self, command: &str, deadline: Instant) -> Result<String, Failure> {
        self.try_ask(command, deadline)?.map_err(|refusal| {
            Failure(format!(
                "'{command}' was refused: {}",
                crate::board::square::truncate(&refusal)
            ))
        })
    }

    /// Sends a command; its answer's text, `Ok` for `=` and `Err` for `?`.
    fn try_ask(
        &mut self,
        command: &str,
        deadline: Instant,
    ) -> Result<Result<String, String>, Failure> {
        let id = self.next_id;
        self.next_id += 1;
        self.pipe.send(&format!("{id} {command}"))?;
        let line = self
            .pipe
            .wait_for(|l| gtp_answer(l, id).is_some(), deadline)?;
        Ok(match gtp_answer(&line, id) {
            Some((true, text)) => Ok(text.to_string()),
            _ => Err(line),
        })
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

fn gtp_colour(c: crate::board::Color) -> &'static str {
    match c {
        crate::board::Color::Black => "b",
        crate::board::Color::White => "w",
    }
}

impl Player for GtpPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        self.known.clear();
        self.start_known = false;
        let settings = match self.tc {
            // Absolute time: the increments show in `time_left`.
            TimeControl::Clock { base, .. } => {
                format!("time_settings {:.3} 0 0", base.as_secs_f64())
            }
            TimeControl::MoveTime(t) => format!("time_settings 0 {:.3} 1", t.as_secs_f64()),
            // Byo-yomi time with no stones means "no time limit" in GTP: `set_depth` limits it.
            TimeControl::Depth(_) => "time_settings 0 1 0".to_string(),
            TimeControl::Nodes(_) => return Ok(()),
        };
        if self.time_settings_ok {
            let answer = self.try_ask(&settings, Instant::now() + HANDSHAKE_TIMEOUT)?;
            self.time_settings_ok = answer.is_ok();
        }
        Ok(())
    }

    fn choose(
        &mut self,
        start: Position,
        moves: &[Move],
        pos: Position,
        tc: TimeControl,
        clocks: Clocks,
        deadline: Instant,
    ) -> Result<Move, Failure> {
        if start != Position::START {
            return Err(Failure(
                "GTP engines can only start from the standard position".into(),
            ));
        }
        if !self.start_known || !moves.starts_with(&self.known) {
            self.ask("clear_board", deadline)?;
            self.known.clear();
            self.start_known = true;
        }
        let mut p = start;
        for m in &moves[..self.known.len()] {
            p = p.play(*m).unwrap_or(p);
        }
        for &m in &moves[self.known.len()..] {
            self.ask(&format!("play {} {}", gtp_colour(p.side), m), deadline)?;
            p = p.play(m).unwrap_or(p);
            self.known.push(m);
        }
        if let (TimeControl::Clock { .. }, true) = (tc, self.time_left_ok) {
            let left = match pos.side {
                crate::board::Color::Black => clocks.black,
                crate::board::Color::White => clocks.white,
            };
            let command = format!(
                "time_left {} {:.3} 0",
                gtp_colour(pos.side),
                left.as_secs_f64()
            );
            self.time_left_ok = self.try_ask(&command, deadline)?.is_ok();
        }
        let answer = self.ask(&format!("genmove {}", gtp_colour(pos.side)), deadline)?;
        let mv = answer.parse::<Move>().map_err(|_| {
            Failure(format!(
                "malformed answer '{}'",
                crate::board::square::truncate(&answer)
            ))
        })?;
        // The engine has played its move on its own board.
        self.known.push(mv);
        Ok(mv)
    }
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
