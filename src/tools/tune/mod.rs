//! `wedge tune`: SPSA (simultaneous perturbation stochastic approximation, Spall 1992) over any
//! engine's spin options, measured by games.
//!
//! Each iteration draws a random sign for every parameter, plays the engine with all parameters
//! moved one step up by those signs (`theta + c_k delta`) against itself with all moved down
//! (`theta - c_k delta`), in colour-swapped pairs of openings, and moves every parameter by
//! `a_k / c_k * result * delta`, `result` being the plus side's wins minus losses. One pair of
//! opposite perturbations estimates the gradient of all parameters at once, which is why SPSA
//! needs as many games for ten parameters as for one.
//!
//! The gains follow the schedule of Spall's guidelines as chess engine testing frameworks use it:
//! given each parameter's step `c_end` and learning rate `r_end` wanted at the last iteration `N`,
//! `c_k = c_end (N / (k + 1))^gamma` and `a_k = r_end c_end^2 ((A + N) / (A + k + 1))^alpha` with
//! `alpha = 0.602`, `gamma = 0.101`, `A = N / 10`: large, exploratory steps first, settling
//! towards the end.
//!
//! Iteration `k` depends only on the seed, `k` and the parameters before it, so a run that is
//! stopped and resumed from its state file (written after every iteration) continues the same run.

use super::arena::{self, player::EngineKind, player::EngineSpec, player::TimeControl};
use crate::board::text::Game;
use crate::rng::Rng;
use std::fmt;
use std::time::Duration;

/// SPSA's step-size exponent for the learning rate (Spall's recommended value).
pub const ALPHA: f64 = 0.602;
/// SPSA's exponent for the perturbation size.
pub const GAMMA: f64 = 0.101;
/// The learning rate at the last iteration when none is given (per unit of `c_end`).
pub const DEFAULT_R_END: f64 = 0.002;

/// One tuned option.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The option's name, as the engine's `setoption` takes it.
    pub name: String,
    /// Its value at the start.
    pub start: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// The perturbation at the last iteration (the size of a change that games can tell apart).
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
}

impl Param {
    /// The whole number sent to the engine for `value`: rounded, then kept within MIN..MAX (a
    /// bound that is no whole number gives the nearest one inside).
    pub fn whole(&self, value: f64) -> i64 {
        value.round().clamp(self.min.ceil(), self.max.floor()) as i64
    }

    /// The parameter as `--param` takes it (what a state file records).
    pub fn spec(&self) -> String {
        format!(
            "{},{},{},{},{},{}",
            self.name, self.start, self.min, self.max, self.c_end, self.r_end
        )
    }

    /// Reads `NAME,START,MIN,MAX,C_END[,R_END]` (the layout chess testing frameworks use).
    pub fn parse(text: &str) -> Result<Param, ParamError> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if !(5..=6).contains(&parts.len())
            || parts[0].is_empty()
            || parts[0].contains(char::is_whitespace)
        {
            return Err(ParamError::Form(text.to_string()));
        }
        let number = |i: usize, what: &'static str| -> Result<f64, ParamError> {
            parts[i]
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| ParamError::NotANumber {
                    name: parts[0].to_string(),
                    field: what,
                    text: parts[i].to_string(),
                })
        };
        let p = Param {
            name: parts[0].to_string(),
            start: number(1, "START")?,
            min: number(2, "MIN")?,
            max: number(3, "MAX")?,
            c_end: number(4, "C_END")?,
            r_end: match parts.get(5) {
                Some(_) => number(5, "R_END")?,
                None => DEFAULT_R_END,
            },
        };
        if p.min > p.max || p.start < p.min || p.start > p.max {
            return Err(ParamError::OutOfOrder(p));
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            return Err(ParamError::NotPositive(p.name));
        }
        // The gain, R_END C_END^2 times at most a few thousand, must stay a finite number.
        if p.r_end * p.c_end * p.c_end > 1e100 || p.min.ceil() > p.max.floor() {
            return Err(ParamError::Unusable(p.name));
        }
        Ok(p)
    }
}

/// Why a `--param` could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// Not of the form `NAME,START,MIN,MAX,C_END[,R_END]` (the text).
    Form(String),
    /// A field that is not a finite number.
    NotANumber {
        /// The parameter.
        name: String,
        /// The field (`START`, `MIN`, ...).
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// Not `MIN <= START <= MAX`.
    OutOfOrder(Param),
    /// `C_END` or `R_END` not positive (the parameter).
    NotPositive(String),
    /// No whole number between `MIN` and `MAX`, or `C_END` and `R_END` so large that the gain
    /// overflows (the parameter).
    Unusable(String),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Form(t) => {
                write!(f, "--param: '{t}' is not NAME,START,MIN,MAX,C_END[,R_END]")
            }
            ParamError::NotANumber { name, field, text } => {
                write!(f, "--param {name}: {field} '{text}' is not a number")
            }
            ParamError::OutOfOrder(p) => write!(
                f,
                "--param {}: needs MIN <= START <= MAX, got {} <= {} <= {}",
                p.name, p.min, p.start, p.max
            ),
            ParamError::NotPositive(name) => {
                write!(f, "--param {name}: C_END and R_END must be positive")
            }
            ParamError::Unusable(name) => write!(
                f,
                "--param {name}: needs a whole number between MIN and MAX, and R_END C_END^2 \
                 at most 1e100"
            ),
        }
    }
}

impl std::error::Error for ParamError {}

/// Why a tune state file cannot resume this run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// A state file in the text (not JSON) format, which is not read.
    OldFormat,
    /// Not JSON of a state file: the line and what the reader said.
    Json {
        /// The line (from 1).
        line: usize,
        /// The reader's message.
        message: String,
    },
    /// Another `format` field (its value).
    Format(String),
    /// A setting of the run that differs: its name, the file's value and the command's.
    Other(&'static str, u64, u64),
    /// Other parameters: the file's names and the command's.
    Names(Vec<String>, Vec<String>),
    /// The same parameters with other `--param` values: the file's and the command's.
    Specs(Vec<String>, Vec<String>),
    /// Iterations done, history entries and the run's iterations that do not fit together.
    Progress(usize, usize, usize),
    /// A value that is not a number, or a history entry of the wrong length.
    Values,
    /// The engine, its options, the time control or the openings differ from the run's.
    Setup,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::OldFormat => f.write_str(
                "a state file in the text format of an earlier wedge (this one writes JSON): \
                 finish that run with the wedge that started it, or start again",
            ),
            StateError::Json { line, message } => write!(
                f,
                "line {line}: not a wedge tune state: {}",
                crate::files::Excerpt(message)
            ),
            StateError::Format(v) => write!(
                f,
                "not a wedge tune state (format '{}')",
                crate::files::Excerpt(v)
            ),
            StateError::Other(what, file, command) => write!(
                f,
                "it was started with {what} {file} and this command has {command}"
            ),
            StateError::Names(file, command) => write!(
                f,
                "it tunes {} and this command {}",
                file.join(" "),
                command.join(" ")
            ),
            StateError::Specs(file, command) => write!(
                f,
                "it was started with --param {} and this command has --param {}",
                file.join(" --param "),
                command.join(" --param ")
            ),
            StateError::Progress(done, history, of) => write!(
                f,
                "it has {done} iterations done and {history} in its history, of {of}"
            ),
            StateError::Values => {
                f.write_str("a value that is not a number, or a history entry of the wrong length")
            }
            StateError::Setup => f.write_str(
                "it was started with another engine, engine options, time control or openings",
            ),
        }
    }
}

impl std::error::Error for StateError {}

/// Everything a tuning run needs.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The engine (a process; its own options are set first, then the tuned ones).
    pub engine: EngineSpec,
    /// The tuned options.
    pub params: Vec<Param>,
    /// Iterations of the whole run (`N`: the schedule depends on it).
    pub iterations: usize,
    /// Pairs of games (one opening, both colours) per iteration.
    pub pairs: usize,
    /// The openings drawn from.
    pub openings: Vec<Game>,
    /// Time per move or game.
    pub tc: TimeControl,
    /// Games played at once.
    pub concurrency: usize,
    /// Seeds the perturbations and the openings' draw.
    pub seed: u64,
    /// For depth/nodes limits: how long a move may take before the engine counts as hung.
    pub move_timeout: Duration,
    /// Disconnected to interrupt the run: the iteration in progress ends as
    /// [`arena::MatchError::Interrupted`] ([`arena::MatchConfig::interrupt`]) and is not counted.
    pub interrupt: Option<crossbeam_channel::Receiver<()>>,
}

impl TuneConfig {
    /// What a resume must share with the run that wrote the state, beyond the numbers the state
    /// names: the engine with its options, the time control and the openings, as one id.
    pub fn run_id(&self) -> String {
        let text = format!(
            "{:?}|{}|{}",
            self.engine,
            self.tc.describe(),
            super::run::openings_text(&self.openings)
        );
        super::run::run_id(&text)
    }
}

/// Where a run stands: what the state file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneState {
    /// Iterations finished.
    pub done: usize,
    /// The parameters now, in the configuration's order.
    pub theta: Vec<f64>,
    /// Games the plus side won, drew and lost, over the whole run.
    pub plus: [u64; 3],
    /// The parameters after each finished iteration.
    pub history: Vec<Vec<f64>>,
}

impl TuneState {
    /// The state before the first iteration.
    pub fn new(config: &TuneConfig) -> TuneState {
        TuneState {
            done: 0,
            theta: config.params.iter().map(|p| p.start).collect(),
            plus: [0; 3],
            history: Vec::new(),
        }
    }

    /// The state file's text for `config` (read back by [`TuneState::parse`]): a JSON document.
    pub fn to_text(&self, config: &TuneConfig) -> String {
        let file = StateFile {
            format: STATE_FORMAT.to_string(),
            iterations: config.iterations as u64,
            seed: config.seed,
            pairs: config.pairs as u64,
            run: Some(config.run_id()),
            done: self.done as u64,
            plus: self.plus,
            params: config
                .params
                .iter()
                .zip(&self.theta)
                .map(|(p, &value)| StateParam {
                    spec: p.spec(),
                    name: p.name.clone(),
                    value,
                })
                .collect(),
            history: self.history.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a state file's text, checking that it belongs to a run of `config` (same iterations,
    /// seed, pairs and parameters); the message says what differs.
    pub fn parse(text: &str, config: &TuneConfig) -> Result<TuneState, StateError> {
        if text.trim_start().starts_with('#') {
            return Err(StateError::OldFormat);
        }
        let file: StateFile = serde_json::from_str(text).map_err(|e| {
            // serde's text ends with the position (the line is given apart) and, for an unknown
            // field, lists every field there is: the field named is what says what is wrong.
            let full = e.to_string();
            let message = full
                .rsplit_once(" at line ")
                .map_or(full.as_str(), |(m, _)| m);
            let message = match message.split_once(", expected one of") {
                Some((m, _)) if m.starts_with("unknown field") => m,
                _ => message,
            };
            StateError::Json {
                line: e.line(),
                message: message.to_string(),
            }
        })?;
        if file.format != STATE_FORMAT {
            return Err(StateError::Format(file.format));
        }
        check_same("iterations", file.iterations, config.iterations as u64)?;
        check_same("seed", file.seed, config.seed)?;
        check_same("pairs", file.pairs, config.pairs as u64)?;
        if file.run.as_ref().is_some_and(|run| *run != config.run_id()) {
            return Err(StateError::Setup);
        }
        let names: Vec<String> = file.params.iter().map(|p| p.name.clone()).collect();
        let wanted: Vec<String> = config.params.iter().map(|p| p.name.clone()).collect();
        if names != wanted {
            return Err(StateError::Names(names, wanted));
        }
        let specs: Vec<String> = file.params.iter().map(|p| p.spec.clone()).collect();
        let wanted_specs: Vec<String> = config.params.iter().map(Param::spec).collect();
        if specs != wanted_specs {
            return Err(StateError::Specs(specs, wanted_specs));
        }
        let done = file.done as usize;
        if done > config.iterations || file.history.len() != done {
            return Err(StateError::Progress(
                done,
                file.history.len(),
                config.iterations,
            ));
        }
        let finite = |values: &[f64]| values.iter().all(|v| v.is_finite());
        let theta: Vec<f64> = file.params.iter().map(|p| p.value).collect();
        if !finite(&theta)
            || file
                .history
                .iter()
                .any(|h| h.len() != names.len() || !finite(h))
        {
            return Err(StateError::Values);
        }
        Ok(TuneState {
            done,
            theta,
            plus: file.plus,
            history: file.history,
        })
    }
}

/// The `format` field of a tune state file.
const STATE_FORMAT: &str = "wedge tune state 2";

/// A tune state file as written (JSON): the run's settings, which a resume must match, and where it
/// stands.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    format: String,
    iterations: u64,
    seed: u64,
    pairs: u64,
    /// The run's engine, time control and openings ([`TuneConfig::run_id`]); absent from
    /// state files without a run id, which are resumed without this check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run: Option<String>,
    done: u64,
    plus: [u64; 3],
    params: Vec<StateParam>,
    history: Vec<Vec<f64>>,
}

/// One parameter in a state file: its `--param` as given, its name and its current value.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StateParam {
    spec: String,
    name: String,
    value: f64,
}

fn check_same(what: &'static str, file: u64, command: u64) -> Result<(), StateError> {
    if file == command {
        Ok(())
    } else {
        Err(StateError::Other(what, file, command))
    }
}

/// One finished iteration, for the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// Its number, from 1.
    pub number: usize,
    /// The perturbation of each parameter (signed: `c_k delta`).
    pub perturbation: Vec<f64>,
    /// The plus side's values and the minus side's, as sent to the engines.
    pub plus_values: Vec<i64>,
    /// The minus side's values.
    pub minus_values: Vec<i64>,
    /// The plus side's wins, draws and losses in this iteration.
    pub score: [u64; 3],
}

/// Why a tuning run stopped.
#[derive(Debug)]
pub enum TuneError {
    /// No `--param` to tune.
    NoParams,
    /// `--iterations` or `--pairs` is 0.
    NothingToPlay,
    /// No openings.
    NoOpenings,
    /// The tuned engine is a built-in player, not a program.
    NotAProgram,
    /// A parameter is given twice (its name).
    Twice(String),
    /// An iteration's games could not be played (an engine that cannot start or refuses a value).
    Match {
        /// The iteration, from 1.
        iteration: usize,
        /// What went wrong.
        error: super::arena::MatchError,
    },
    /// An engine failed in an iteration's game (a crash, a hang, an illegal move; a flag under a
    /// clock counts as a loss): its forfeit is no measure of the values, so the iteration is not
    /// counted.
    EngineFailed {
        /// The iteration, from 1.
        iteration: usize,
        /// The engine (its name, then `plus` or `minus`).
        engine: String,
        /// What it did.
        failure: super::arena::player::Failure,
    },
    /// The engine does not start with every parameter at its MIN (or MAX): what it said.
    Range {
        /// `MIN` or `MAX`.
        bound: &'static str,
        /// The engine's refusal, or why it did not start.
        failure: super::arena::player::Failure,
    },
    /// The caller's handler failed writing `path` (the state file, the log).
    Save {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::NoParams => f.write_str("no --param to tune"),
            TuneError::NothingToPlay => f.write_str("--iterations and --pairs must be at least 1"),
            TuneError::NoOpenings => f.write_str("no openings"),
            TuneError::NotAProgram => {
                f.write_str("the tuned engine must be a program (cmd=...), not a built-in player")
            }
            TuneError::Twice(name) => write!(f, "the parameter {name} is given twice"),
            TuneError::Match { iteration, error } => write!(f, "iteration {iteration}: {error}"),
            TuneError::EngineFailed {
                iteration,
                engine,
                failure,
            } => write!(
                f,
                "iteration {iteration}: engine {engine} failed ({failure}); the iteration is not \
                 counted"
            ),
            TuneError::Range { bound, failure } if refused_options(failure) => write!(
                f,
                "the engine does not take every parameter at its {bound} ({failure}); give a \
                 range the engine takes (its `uci` answer lists each option's min and max)"
            ),
            TuneError::Range { bound, failure } => write!(
                f,
                "the engine could not be started ({bound} of every parameter): {failure}"
            ),
            TuneError::Save { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for TuneError {}

/// Whether a start failed because the engine refused the options it was given (not because it
/// could not run at all).
fn refused_options(failure: &arena::player::Failure) -> bool {
    match failure {
        arena::player::Failure::OptionsRefused { .. } => true,
        arena::player::Failure::Handshake(inner) => refused_options(inner),
        _ => false,
    }
}

/// The schedule's constant `A` (a tenth of the run).
fn stability(config: &TuneConfig) -> f64 {
    config.iterations as f64 / 10.0
}

/// The perturbation size of parameter `p` at iteration `k` (from 0).
pub fn c_k(config: &TuneConfig, p: &Param, k: usize) -> f64 {
    p.c_end * (config.iterations as f64 / (k as f64 + 1.0)).powf(GAMMA)
}

/// The gain of parameter `p` at iteration `k` (from 0).
pub fn a_k(config: &TuneConfig, p: &Param, k: usize) -> f64 {
    let a = stability(config);
    let n = config.iterations as f64;
    p.r_end * p.c_end * p.c_end * ((a + n) / (a + k as f64 + 1.0)).powf(ALPHA)
}

/// The random signs of iteration `k` (from 0): one per parameter, from the seed and `k` alone.
fn signs(config: &TuneConfig, k: usize) -> Vec<f64> {
    let mut rng = Rng::new(config.seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    config
        .params
        .iter()
        // The top bit: xorshift64*'s lowest bit is linear in the seed, so the low bits of two
        // seeds' draws differ by one fixed pattern at every iteration.
        .map(|_| if rng.next_u64() >> 63 == 0 { -1.0 } else { 1.0 })
        .collect()
}

/// Refuses a configuration that cannot tune anything.
pub fn check(config: &TuneConfig) -> Result<(), TuneError> {
    if config.params.is_empty() {
        return Err(TuneError::NoParams);
    }
    if config.iterations == 0 || config.pairs == 0 {
        return Err(TuneError::NothingToPlay);
    }
    if config.openings.is_empty() {
        return Err(TuneError::NoOpenings);
    }
    if !matches!(config.engine.kind, EngineKind::Process { .. }) {
        return Err(TuneError::NotAProgram);
    }
    let mut names: Vec<(String, &str)> = config
        .params
        .iter()
        .map(|p| (p.name.to_ascii_lowercase(), p.name.as_str()))
        .collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(TuneError::Twice(w[1].1.to_string()));
    }
    Ok(())
}

/// The engine with the tuned options set to `values` (after its own options), named after it
/// with `role` (`w plus`).
fn with_values(config: &TuneConfig, role: &str, values: &[i64]) -> EngineSpec {
    let mut spec = config.engine.clone();
    spec.name = format!("{} {role}", config.engine.name);
    if let EngineKind::Process { options, .. } = &mut spec.kind {
        for (p, v) in config.params.iter().zip(values) {
            options.push((p.name.clone(), v.to_string()));
        }
    }
    spec
}

/// Starts the engine with every parameter at its MIN, then at its MAX, so that a range the engine
/// refuses stops the run before its first game, not at the iteration that first reaches it. An
/// interrupt meanwhile is the interrupt of `iteration`, the next to play.
fn check_range(config: &TuneConfig, iteration: usize) -> Result<(), TuneError> {
    let launch = arena::player::Launch {
        tc: config.tc,
        seed: config.seed,
        stderr_log: None,
        stop: config
            .interrupt
            .clone()
            .unwrap_or_else(crossbeam_channel::never),
    };
    for (bound, at) in [("MIN", 0), ("MAX", 1)] {
        let values: Vec<i64> = config
            .params
            .iter()
            .map(|p| p.whole(if at == 0 { p.min } else { p.max }))
            .collect();
        let spec = with_values(config, &bound.to_ascii_lowercase(), &values);
        match arena::player::start(&spec, &launch) {
            Ok(_) => {}
            Err(arena::player::Failure::Stopped) => {
                return Err(TuneError::Match {
                    iteration,
                    error: arena::MatchError::Interrupted(Box::default()),
                })
            }
            Err(failure) => return Err(TuneError::Range { bound, failure }),
        }
    }
    Ok(())
}

/// Runs the iterations after `state.done` up to the configuration's count, calling `after` with the
/// new state and the iteration's figures after each one (to save the state: an error there stops
/// the run).
pub fn run(
    config: &TuneConfig,
    state: &mut TuneState,
    mut after: impl FnMut(&TuneState, &Iteration) -> Result<(), TuneError>,
) -> Result<(), TuneError> {
    check(config)?;
    if state.done < config.iterations {
        check_range(config, state.done + 1)?;
    }
    while state.done < config.iterations {
        let k = state.done;
        let delta = signs(config, k);
        let mut perturbation = Vec::with_capacity(delta.len());
        let (mut plus, mut minus) = (Vec::new(), Vec::new());
        for ((p, &t), &d) in config.params.iter().zip(&state.theta).zip(&delta) {
            let c = c_k(config, p, k) * d;
            perturbation.push(c);
            plus.push(p.whole(t + c));
            minus.push(p.whole(t - c));
        }
        let openings = arena::sample_openings(
            &config.openings,
            config.pairs,
            1,
            config.seed ^ (k as u64).wrapping_mul(0xD1B5_4A32_D192_ED03),
        );
        let games = arena::MatchConfig {
            a: with_values(config, "plus", &plus),
            b: with_values(config, "minus", &minus),
            openings,
            games: 2 * config.pairs,
            tc: config.tc,
            concurrency: config.concurrency.clamp(1, config.pairs),
            sprt: None,
            seed: config.seed ^ k as u64,
            move_timeout: config.move_timeout,
            stderr_logs: None,
            shard: arena::Shard::WHOLE,
            done: Default::default(),
            run: None,
            interrupt: config.interrupt.clone(),
        };
        let mut failed = None;
        let tally = arena::run(&games, |game, _| {
            // A flag is a result under a clock; the rest measure nothing.
            let is_result =
                |f: &arena::player::Failure| matches!(f, arena::player::Failure::Flag { .. });
            if failed.is_none() {
                failed = game.failure.clone().filter(|(_, f)| !is_result(f));
            }
        })
        .map_err(|error| TuneError::Match {
            iteration: k + 1,
            error,
        })?;
        if let Some((engine, failure)) = failed {
            return Err(TuneError::EngineFailed {
                iteration: k + 1,
                engine,
                failure,
            });
        }
        let result = f64::from(tally.wins) - f64::from(tally.losses);
        for (((p, t), &d), c) in config
            .params
            .iter()
            .zip(state.theta.iter_mut())
            .zip(&delta)
            .zip(&perturbation)
        {
            let step = a_k(config, p, k) / c.abs() * result * d;
            *t = (*t + step).clamp(p.min, p.max);
        }
        state.done += 1;
        let score = [
            u64::from(tally.wins),
            u64::from(tally.draws),
            u64::from(tally.losses),
        ];
        for (total, s) in state.plus.iter_mut().zip(score) {
            *total += s;
        }
        state.history.push(state.theta.clone());
        let iteration = Iteration {
            number: k + 1,
            perturbation,
            plus_values: plus,
            minus_values: minus,
            score,
        };
        after(state, &iteration)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
