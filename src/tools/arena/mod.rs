//! `wedge match`: engine-vs-engine matches. Each opening is played twice with colours swapped (an odd
//! number of games plays the last opening once), games run `concurrency` at a time (each worker with
//! its own engine processes), every counted game is handed to the caller at once (to append to a
//! file: nothing is lost on interruption), and the tally gives Elo, LOS, pentanomial counts and an
//! optional SPRT stop. When the SPRT decides, the match ends on that tally: games still being played
//! are abandoned and not counted, so the report's figures are exactly the ones the test decided on.
//!
//! Every engine is started (handshake and options included) before the first game: one that cannot
//! start stops the match with a [`MatchError`], since every game it would play is a forfeit that says
//! nothing about its strength. An engine that crashes, hangs, plays
//! an illegal move or overruns its clock loses that game, with the reason recorded, and is restarted.

pub mod player;
pub mod stats;

use crate::board::ggf::{now_unix, parse_ggf, GgfGame};
use crate::board::text::{read_lines, FileError, Game};
use crate::board::{Color, Move};
use crossbeam_channel::{bounded, unbounded, Receiver, TryRecvError};
use player::{start, Clocks, EngineKind, EngineSpec, Failure, Launch, Player, Proto, TimeControl};
use stats::{Outcome, Sprt, SprtState, Tally};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first engine (the one the statistics speak for).
    pub a: EngineSpec,
    /// The second engine.
    pub b: EngineSpec,
    /// The openings, one pair of games each, in playing order.
    pub openings: Vec<Game>,
    /// Games to play, at least 1 and at most two per opening: the openings in order, both colours
    /// each (A black first); an odd count plays the last opening once, with A black.
    pub games: usize,
    /// Time per game or per move.
    pub tc: TimeControl,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// Seeds the built-in random player.
    pub seed: u64,
    /// For depth/nodes limits: how long a move may take before the engine counts as hung.
    pub move_timeout: Duration,
    /// Where the engines' stderr is kept: appended to `<this>.<engine name>.stderr.log` (the name
    /// with characters other than letters, digits, `-`, `_` and `.` as `_`); `None` keeps only
    /// each engine's last lines, quoted when it fails.
    pub stderr_logs: Option<std::path::PathBuf>,
}

/// The stderr log of engine `name` for the prefix `logs` (see [`MatchConfig::stderr_logs`]).
pub fn stderr_log_path(logs: &std::path::Path, name: &str) -> std::path::PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut path = logs.as_os_str().to_owned();
    path.push(format!(".{safe}.stderr.log"));
    path.into()
}

/// Why a match could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// The configuration cannot be played (no games, too few openings, two engines of one name, ...).
    Config(String),
    /// An engine could not be started or set up before the first game.
    Start {
        /// The engine's name.
        engine: String,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(text) => write!(f, "{text}"),
            MatchError::Start { engine, reason } => {
                write!(f, "engine '{engine}' could not be started: {reason}")
            }
        }
    }
}

impl std::error::Error for MatchError {}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Index of the opening (pair) in the match.
    pub pair: usize,
    /// Whether engine A had black.
    pub a_black: bool,
    /// The record.
    pub record: GgfGame,
    /// The result for A.
    pub outcome: Outcome,
    /// A's final disc difference (±64 for a forfeit).
    pub a_discs: i32,
    /// `(engine name, reason)` if the game ended by a failure.
    pub failure: Option<(String, String)>,
}

/// How a game ended.
struct Played {
    moves: Vec<Move>,
    black_score: i32,
    forfeit: Option<(Color, String)>,
}

/// Plays one game from the end of `opening`; failures forfeit the game for the side at fault.
fn play_game(
    black: &mut dyn Player,
    white: &mut dyn Player,
    opening: &Game,
    tc: TimeControl,
    move_timeout: Duration,
) -> Played {
    let mut moves = opening.moves.clone();
    let mut pos = opening.position();
    let (base, inc) = match tc {
        TimeControl::Clock { base, increment } => (base, increment),
        _ => (Duration::ZERO, Duration::ZERO),
    };
    let mut clocks = Clocks {
        black: base,
        white: base,
        increment: inc,
    };
    for colour in [Color::Black, Color::White] {
        let p: &mut dyn Player = match colour {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        if let Err(Failure(reason)) = p.new_game() {
            return Played {
                moves,
                black_score: forfeit_score(colour),
                forfeit: Some((colour, reason)),
            };
        }
    }
    while !pos.board.is_game_over() {
        let side = pos.side;
        let remaining = match side {
            Color::Black => clocks.black,
            Color::White => clocks.white,
        };
        let wait = match tc {
            // Wait a little past the flag so a late answer is seen (and judged) rather than lost.
            TimeControl::Clock { .. } => remaining + Duration::from_millis(200),
            TimeControl::MoveTime(t) => t * 2 + Duration::from_secs(2),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => move_timeout,
        };
        let player: &mut dyn Player = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        if let Err(Failure(reason)) = player.sync() {
            return Played {
                moves,
                black_score: forfeit_score(side),
                forfeit: Some((side, reason)),
            };
        }
        let started = Instant::now();
        let answer = player.choose(opening.start, &moves, pos, tc, clocks, started + wait);
        let used = started.elapsed();
        let fail = |reason: String| Played {
            moves: moves.clone(),
            black_score: forfeit_score(side),
            forfeit: Some((side, reason)),
        };
        let mv = match answer {
            Ok(m) => m,
            Err(Failure(reason)) => return fail(reason),
        };
        if let TimeControl::Clock { .. } = tc {
            if used > remaining {
                return fail(format!(
                    "lost on time ({} ms used, {} ms left)",
                    used.as_millis(),
                    remaining.as_millis()
                ));
            }
            let left = remaining - used + inc;
            match side {
                Color::Black => clocks.black = left,
                Color::White => clocks.white = left,
            }
        }
        match pos.play(mv) {
            Some(next) => {
                moves.push(mv);
                pos = next;
            }
            None => return fail(format!("illegal move {mv}")),
        }
    }
    Played {
        moves,
        black_score: pos.black_final_score(),
        forfeit: None,
    }
}

/// Black's score when `loser` forfeits.
fn forfeit_score(loser: Color) -> i32 {
    match loser {
        Color::Black => -64,
        Color::White => 64,
    }
}

/// A worker's players, restarted after a failure (an empty seat is started before the next game).
struct Seats {
    a: Option<Box<dyn Player>>,
    b: Option<Box<dyn Player>>,
}

/// What player `spec` of `config` is started with.
fn launch(config: &MatchConfig, spec: &EngineSpec, seed: u64, stop: &Receiver<()>) -> Launch {
    Launch {
        tc: config.tc,
        seed,
        stderr_log: config
            .stderr_logs
            .as_deref()
            .map(|logs| stderr_log_path(logs, &spec.name)),
        stop: stop.clone(),
    }
}

impl Seats {
    /// Starts both players, naming the one that fails.
    fn start(config: &MatchConfig, seed: u64, stop: &Receiver<()>) -> Result<Seats, MatchError> {
        let one = |spec: &EngineSpec| {
            start(spec, &launch(config, spec, seed, stop)).map_err(|Failure(reason)| {
                MatchError::Start {
                    engine: spec.name.clone(),
                    reason,
                }
            })
        };
        Ok(Seats {
            a: Some(one(&config.a)?),
            b: Some(one(&config.b)?),
        })
    }
}

/// Whether the match has been stopped (its stop channel's sender dropped).
fn stopped(stop: &Receiver<()>) -> bool {
    matches!(stop.try_recv(), Err(TryRecvError::Disconnected))
}

/// Refuses a configuration that cannot give a meaningful match.
fn check(config: &MatchConfig) -> Result<(), MatchError> {
    let bad = |text: String| Err(MatchError::Config(text));
    if config.games == 0 {
        return bad("no games to play (--games must be at least 1)".into());
    }
    if config.games > 2 * config.openings.len() {
        return bad(format!(
            "{} games need {} openings, {} given",
            config.games,
            config.games.div_ceil(2),
            config.openings.len()
        ));
    }
    if config.a.name == config.b.name {
        return bad(format!(
            "both engines are named '{}': give them different names (name=...) so that records \
             and reports can tell them apart",
            config.a.name
        ));
    }
    for spec in [&config.a, &config.b] {
        if let EngineKind::Process {
            proto: Proto::Gtp, ..
        } = spec.kind
        {
            if let Some(i) = config
                .openings
                .iter()
                .position(|o| o.start != crate::board::Position::START)
            {
                return bad(format!(
                    "engine '{}' speaks GTP, which starts from the standard position only, and \
                     opening {} starts from a set-up board",
                    spec.name,
                    i + 1
                ));
            }
        }
    }
    Ok(())
}

/// Plays the match, calling `on_game` for each counted game with the tally so far (in the calling
/// thread, in completion order), and returns the final tally. Every engine is started before the
/// first game; one that cannot start ends the match with an error. Stops early when the SPRT
/// decides; a game that ends after that is not counted.
pub fn run(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameResult, &Tally),
) -> Result<Tally, MatchError> {
    check(config)?;
    let pairs = config.games.div_ceil(2);
    let workers = config.concurrency.clamp(1, pairs);
    let next = AtomicUsize::new(0);
    // Dropping `stop_tx` stops the match: workers see it between games, and waits for an engine's
    // answer end at once.
    let (stop_tx, stop_rx) = bounded::<()>(0);
    let mut stop_tx = Some(stop_tx);
    let started = Barrier::new(workers + 1);
    let start_error: Mutex<Option<MatchError>> = Mutex::new(None);
    let (tx, rx) = unbounded::<GameResult>();
    let mut tally = Tally::default();
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let tx = tx.clone();
            let stop = stop_rx.clone();
            let (next, started, start_error) = (&next, &started, &start_error);
            scope.spawn(move || {
                // The engines are started by the thread that uses them to the end (on Linux an
                // engine is killed when the thread that started it ends, see player::Pipe).
                let seats = Seats::start(config, config.seed ^ worker as u64, &stop);
                let mut seats = match seats {
                    Ok(seats) => Some(seats),
                    Err(e) => {
                        let mut first = start_error.lock().unwrap_or_else(|p| p.into_inner());
                        first.get_or_insert(e);
                        None
                    }
                };
                started.wait();
                let Some(seats) = seats.as_mut() else {
                    return;
                };
                loop {
                    if stopped(&stop) {
                        return;
                    }
                    let pair = next.fetch_add(1, Ordering::Relaxed);
                    if pair >= pairs {
                        return;
                    }
                    let opening = &config.openings[pair];
                    let games_of_pair = if 2 * pair + 1 == config.games { 1 } else { 2 };
                    for a_black in [true, false].into_iter().take(games_of_pair) {
                        if stopped(&stop) {
                            return;
                        }
                        let seed =
                            config.seed ^ ((pair as u64) << 1 | a_black as u64) ^ worker as u64;
                        let r = play_one(config, seats, &stop, opening, pair, a_black, seed);
                        if tx.send(r).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(tx);
        started.wait();
        let failed = start_error.lock().map_or(true, |e| e.is_some());
        if failed {
            return;
        }
        let mut halves: HashMap<usize, Outcome> = HashMap::new();
        for r in &rx {
            tally.add_game(r.outcome, r.a_discs);
            if let Some(first) = halves.remove(&r.pair) {
                tally.add_pair(first, r.outcome);
            } else {
                halves.insert(r.pair, r.outcome);
            }
            on_game(&r, &tally);
            if let Some(sprt) = &config.sprt {
                if sprt.state(&tally) != SprtState::Continue {
                    break;
                }
            }
        }
        // Stops the workers still playing; their games are not counted.
        stop_tx.take();
        drop(rx);
    });
    match start_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(tally),
    }
}

/// Plays one game with fresh or kept players; a failed player is dropped so the next game restarts
/// it.
fn play_one(
    config: &MatchConfig,
    seats: &mut Seats,
    stop: &Receiver<()>,
    opening: &Game,
    pair: usize,
    a_black: bool,
    seed: u64,
) -> GameResult {
    let mut failure: Option<(Color, String)> = None;
    for (slot, spec, colour) in [
        (
            &mut seats.a,
            &config.a,
            if a_black { Color::Black } else { Color::White },
        ),
        (
            &mut seats.b,
            &config.b,
            if a_black { Color::White } else { Color::Black },
        ),
    ] {
        if slot.is_none() {
            match start(spec, &launch(config, spec, seed, stop)) {
                Ok(p) => *slot = Some(p),
                Err(Failure(reason)) => {
                    failure.get_or_insert((colour, reason));
                }
            }
        }
    }
    let played = match (&mut seats.a, &mut seats.b, failure) {
        (Some(a), Some(b), None) => {
            let (black, white): (&mut dyn Player, &mut dyn Player) = if a_black {
                (a.as_mut(), b.as_mut())
            } else {
                (b.as_mut(), a.as_mut())
            };
            play_game(black, white, opening, config.tc, config.move_timeout)
        }
        (_, _, failure) => {
            let (loser, reason) = failure.unwrap_or((Color::Black, "engine not started".into()));
            Played {
                moves: opening.moves.clone(),
                black_score: forfeit_score(loser),
                forfeit: Some((loser, reason)),
            }
        }
    };
    let a_colour = if a_black { Color::Black } else { Color::White };
    let failure = played.forfeit.map(|(loser, reason)| {
        // Restart whoever failed before the next game.
        let (name, slot) = if loser == a_colour {
            (config.a.name.clone(), &mut seats.a)
        } else {
            (config.b.name.clone(), &mut seats.b)
        };
        *slot = None;
        (name, reason)
    });
    let a_discs = if a_black {
        played.black_score
    } else {
        -played.black_score
    };
    let outcome = match a_discs.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    };
    let (black, white) = if a_black {
        (&config.a.name, &config.b.name)
    } else {
        (&config.b.name, &config.a.name)
    };
    GameResult {
        pair,
        a_black,
        record: GgfGame {
            place: "wedge match".into(),
            unix_time: now_unix(),
            black: black.clone(),
            white: white.clone(),
            time_control: config.tc.describe(),
            start: opening.start,
            moves: played.moves,
            black_score: played.black_score,
            forfeit: failure
                .as_ref()
                .map(|(name, reason)| format!("{name}: {reason}")),
        },
        outcome,
        a_discs,
        failure,
    }
}

/// Reads an openings file: one opening a line, either a transcript from the standard start
/// (`f5d6c3...`, the XOT format) or a GGF game (`(;GM[Othello]...;)`, as `--out` writes them, set-up
/// boards included). With `plies`, each opening is cut to its first `plies` moves (passes count).
/// An opening after which the game is over is an error naming the file and line: no move would be
/// played, and the game would be scored as if it had been.
pub fn read_openings(path: &Path, plies: Option<usize>) -> Result<Vec<Game>, FileError> {
    read_lines(path, |line| parse_opening(line, plies))
}

/// One line of an openings file (see [`read_openings`]).
fn parse_opening(line: &str, plies: Option<usize>) -> Result<Game, String> {
    let mut game = if line.starts_with("(;") {
        parse_ggf(line).map_err(|e| e.to_string())?
    } else {
        line.parse::<Game>().map_err(|e| e.to_string())?
    };
    if let Some(n) = plies {
        game.moves.truncate(n);
    }
    if game.position().board.is_game_over() {
        return Err(match plies {
            None => "the game is over: an opening must leave a move to play (--opening-plies N \
                     keeps the first N moves of each game)"
                .into(),
            Some(n) => format!(
                "the game is over within its first {n} moves: an opening must leave a move to play"
            ),
        });
    }
    Ok(game)
}

/// Picks `pairs` openings from `all`, shuffled reproducibly by `seed` (cycling if there are fewer),
/// each repeated `rounds` times.
pub fn sample_openings(all: &[Game], pairs: usize, rounds: usize, seed: u64) -> Vec<Game> {
    if all.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    let mut rng = crate::tools::players::Rng::new(seed);
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    let picked: Vec<Game> = (0..pairs)
        .map(|i| all[order[i % order.len()]].clone())
        .collect();
    let mut out = Vec::with_capacity(picked.len() * rounds.max(1));
    for _ in 0..rounds.max(1) {
        out.extend(picked.iter().cloned());
    }
    out
}

/// The running figures, as the progress line shows them: W/D/L, score and Elo, with the same
/// wording as the report.
pub fn progress_text(tally: &Tally) -> String {
    format!(
        "+{} ={} -{}  score {:.1}%  Elo {}",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        tally.elo_estimate()
    )
}

/// The closing report.
pub fn report(config: &MatchConfig, tally: &Tally, failures: &[(String, String)]) -> String {
    let mut s = format!(
        "{} vs {}: {} games, +{} ={} -{} (score {:.1}%), average discs {:+.2}\n",
        config.a.name,
        config.b.name,
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        tally.average_discs()
    );
    if (tally.games() as usize) < config.games {
        let why = match &config.sprt {
            Some(sprt) if sprt.state(tally) != SprtState::Continue => "the SPRT decided",
            _ => "the match was stopped",
        };
        s.push_str(&format!(
            "stopped after {} of {} games: {why}\n",
            tally.games(),
            config.games
        ));
    }
    s.push_str(&format!(
        "pairs (0, 1/2, 1, 3/2, 2 points): {:?}, total {}; unpaired games: {}\n",
        tally.pentanomial,
        tally.pairs(),
        tally.unpaired_games()
    ));
    let basis = tally
        .basis()
        .map_or(String::new(), |b| format!(", from {b}"));
    match tally.elo_estimate() {
        e @ stats::EloEstimate::Finite { .. } => s.push_str(&format!(
            "Elo difference: {e} (95%{basis}), LOS {:.1}%\n",
            100.0 * tally.los()
        )),
        e => s.push_str(&format!(
            "Elo difference: {e}{basis}, LOS {:.1}%\n",
            100.0 * tally.los()
        )),
    }
    if let Some(sprt) = &config.sprt {
        let (lo, hi) = sprt.bounds();
        let state = match sprt.state(tally) {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "undecided",
        };
        s.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {state}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            tally.llr(sprt.elo0, sprt.elo1),
            lo,
            hi
        ));
    }
    if failures.is_empty() {
        s.push_str("failures: none\n");
    } else {
        s.push_str(&format!("failures: {}\n", failures.len()));
        for (name, reason) in failures {
            s.push_str(&format!("  {name}: {reason}\n"));
        }
    }
    s
}

/// The report as a JSON document (see docs/match.md for its fields).
pub fn json_report(config: &MatchConfig, tally: &Tally, failures: &[(String, String)]) -> String {
    use serde::Serialize;

    #[derive(Serialize)]
    struct Report<'a> {
        engines: [Engine<'a>; 2],
        tc: Tc,
        games: Games,
        wins: u32,
        draws: u32,
        losses: u32,
        score: f64,
        average_discs: f64,
        pentanomial: [u32; 5],
        pairs: u32,
        unpaired_games: u32,
        elo: Elo,
        los: f64,
        sprt: Option<SprtReport>,
        failures: Vec<FailureReport<'a>>,
    }
    #[derive(Serialize)]
    struct Engine<'a> {
        name: &'a str,
        kind: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        cmd: Option<&'a str>,
        args: &'a [String],
        options: Vec<[&'a str; 2]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        proto: Option<&'a str>,
    }
    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Tc {
        Clock { base_ms: u128, increment_ms: u128 },
        Movetime { ms: u128 },
        Depth { depth: u32 },
        Nodes { nodes: u64 },
    }
    #[derive(Serialize)]
    struct Games {
        planned: usize,
        played: u32,
        stopped_early: bool,
    }
    #[derive(Serialize)]
    struct Elo {
        /// "pairs", "games" or null (fewer than two samples).
        basis: Option<&'static str>,
        samples: u32,
        /// Null when unknown or unbounded.
        estimate: Option<f64>,
        /// Half-width of the 95% interval; null when unknown or unbounded.
        interval95: Option<f64>,
        unbounded: bool,
    }
    #[derive(Serialize)]
    struct SprtReport {
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        llr: f64,
        lower: f64,
        upper: f64,
        state: &'static str,
    }
    #[derive(Serialize)]
    struct FailureReport<'a> {
        engine: &'a str,
        reason: &'a str,
    }

    fn engine(spec: &EngineSpec) -> Engine<'_> {
        match &spec.kind {
            EngineKind::Random | EngineKind::Greedy => Engine {
                name: &spec.name,
                kind: if spec.kind == EngineKind::Random {
                    "random"
                } else {
                    "greedy"
                },
                cmd: None,
                args: &[],
                options: Vec::new(),
                proto: None,
            },
            EngineKind::Process {
                cmd,
                args,
                options,
                proto,
            } => Engine {
                name: &spec.name,
                kind: "process",
                cmd: Some(cmd),
                args,
                options: options.iter().map(|(n, v)| [n.as_str(), v]).collect(),
                proto: Some(match proto {
                    Proto::Wedge => "wedge",
                    Proto::Nboard => "nboard",
                    Proto::Gtp => "gtp",
                }),
            },
        }
    }
    let tc = match config.tc {
        TimeControl::Clock { base, increment } => Tc::Clock {
            base_ms: base.as_millis(),
            increment_ms: increment.as_millis(),
        },
        TimeControl::MoveTime(t) => Tc::Movetime { ms: t.as_millis() },
        TimeControl::Depth(depth) => Tc::Depth { depth },
        TimeControl::Nodes(nodes) => Tc::Nodes { nodes },
    };
    let (basis, samples) = match tally.basis() {
        Some(stats::Basis::Pairs(n)) => (Some("pairs"), n),
        Some(stats::Basis::Games(n)) => (Some("games"), n),
        None => (None, 0),
    };
    let elo = match tally.elo_estimate() {
        stats::EloEstimate::Finite { elo, half_width } => Elo {
            basis,
            samples,
            estimate: Some(elo),
            interval95: Some(half_width),
            unbounded: false,
        },
        e => Elo {
            basis,
            samples,
            estimate: None,
            interval95: None,
            unbounded: matches!(e, stats::EloEstimate::Unbounded { .. }),
        },
    };
    let sprt = config.sprt.map(|sprt| {
        let (lower, upper) = sprt.bounds();
        SprtReport {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            llr: tally.llr(sprt.elo0, sprt.elo1),
            lower,
            upper,
            state: match sprt.state(tally) {
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::Continue => "undecided",
            },
        }
    });
    let report = Report {
        engines: [engine(&config.a), engine(&config.b)],
        tc,
        games: Games {
            planned: config.games,
            played: tally.games(),
            stopped_early: (tally.games() as usize) < config.games,
        },
        wins: tally.wins,
        draws: tally.draws,
        losses: tally.losses,
        score: tally.score(),
        average_discs: tally.average_discs(),
        pentanomial: tally.pentanomial,
        pairs: tally.pairs(),
        unpaired_games: tally.unpaired_games(),
        elo,
        los: tally.los(),
        sprt,
        failures: failures
            .iter()
            .map(|(engine, reason)| FailureReport { engine, reason })
            .collect(),
    };
    // Serialising these plain structures cannot fail (no maps with non-string keys, no I/O).
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
}

/// Parses `60+0.5` (seconds + increment) into a clock time control.
pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| -> Result<Duration, String> {
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("--tc: '{s}' is not a number of seconds (e.g. 60+0.5)"))?;
        if !(0.0..=86_400.0).contains(&v) {
            return Err(format!("--tc: {v} seconds is out of range"));
        }
        Ok(Duration::from_secs_f64(v))
    };
    let base = secs(base)?;
    if base.is_zero() {
        return Err("--tc: the base time must be positive".into());
    }
    Ok(TimeControl::Clock {
        base,
        increment: secs(inc)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_logs_sit_next_to_the_games() {
        let path = stderr_log_path(std::path::Path::new("out/games.ggf"), "my engine/2");
        assert_eq!(
            path,
            std::path::Path::new("out/games.ggf.my_engine_2.stderr.log")
        );
    }

    #[test]
    fn openings_are_transcripts_or_ggf_and_leave_a_move() {
        let opening = parse_opening("f5d6c3", None).unwrap();
        assert_eq!(opening.moves.len(), 3);
        let ggf = "(;GM[Othello]PC[x]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6]B[c3];)";
        assert_eq!(parse_opening(ggf, None).unwrap(), opening);
        assert_eq!(parse_opening(ggf, Some(1)).unwrap().moves.len(), 1);
        // A whole game: refused as it is, taken cut.
        let mut pos = crate::board::Position::START;
        let mut game = Game::new(pos);
        while !pos.board.is_game_over() {
            let mv = pos.legal_move_list()[0];
            game.moves.push(mv);
            pos = pos.play(mv).unwrap();
        }
        let err = parse_opening(&game.transcript(), None).unwrap_err();
        assert!(err.contains("over"), "{err}");
        assert!(parse_opening(&game.transcript(), Some(10)).is_ok());
        assert!(parse_opening("f5f5", None).is_err());
    }

    #[test]
    fn tc_parses() {
        assert_eq!(
            parse_tc("60+0.5"),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            })
        );
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("0+1").is_err());
        assert!(parse_tc("10").is_ok());
    }

    #[test]
    fn builtin_players_play_consistent_games() {
        let openings: Vec<Game> = ["f5d6c3d3c4f4f6f3", "f5f6e6f4e3c5c4e7"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let config = MatchConfig {
            a: EngineSpec::parse("greedy").unwrap(),
            b: EngineSpec::parse("random").unwrap(),
            games: 4,
            openings,
            tc: TimeControl::Depth(1),
            concurrency: 2,
            sprt: None,
            seed: 1,
            move_timeout: Duration::from_secs(10),
            stderr_logs: None,
        };
        let mut games = Vec::new();
        let tally = run(&config, |g, _| games.push(g.clone())).unwrap();
        assert_eq!(tally.games(), 4);
        assert_eq!(tally.pentanomial.iter().sum::<u32>(), 2);
        for g in games {
            let mut pos = g.record.start;
            for m in &g.record.moves {
                pos = pos.play(*m).expect("legal");
            }
            assert!(pos.board.is_game_over());
            assert_eq!(pos.black_final_score(), g.record.black_score);
            assert!(g.failure.is_none());
        }
        // An odd count plays the last opening once: three games, one pair and one lone game.
        let config = MatchConfig { games: 3, ..config };
        let tally = run(&config, |_, _| {}).unwrap();
        assert_eq!((tally.games(), tally.pairs()), (3, 1));
    }
}
