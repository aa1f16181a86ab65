//! The engine's options: the table `uci` advertises, their current values, and checked setting by
//! name (case-insensitive). Evaluation weights are options too, one per weight.

use crate::board::square::truncate;
use crate::eval::weights::{self, EvalKind, Weights};
use crate::variant::eval::Weights as VariantWeights;
use crate::variant::search::SearchOptions;
use std::path::Path;

/// Default hash size, MB.
pub const DEFAULT_HASH_MB: usize = 64;

/// The kind of an option, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a fixed set of words (matched case-insensitively).
    Combo {
        /// Default value.
        default: &'static str,
        /// The values it takes.
        values: &'static [&'static str],
    },
    /// Free text.
    Text {
        /// Default value (empty: none).
        default: &'static str,
    },
    /// An action without a value.
    Button,
}

/// What the engine must do after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond storing the value.
    None,
    /// Resize the hash table to this many MB.
    ResizeHash(usize),
    /// Empty the hash table.
    ClearHash,
    /// The evaluation weights changed.
    Weights,
    /// Reseed the search's random generator.
    Seed(u64),
    /// Search with this many threads.
    Threads(usize),
    /// Use this book file (empty: the built-in book).
    BookFile(String),
    /// The Multi-ProbCut table changed ([`Options::mpc`]).
    Mpc,
}

/// Why an option could not be set; nothing changed. The messages are what `info string error:`
/// lines show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name (shortened if long).
    Unknown(String),
    /// The text names no option.
    NoName,
    /// The value is missing, malformed or out of range for the option.
    BadValue {
        /// The option.
        option: &'static str,
        /// What is wrong with the value.
        fault: ValueFault,
    },
    /// The pattern evaluation refused a weight.
    Weight(crate::eval::weights::WeightError),
    /// The variant evaluation refused a weight.
    VariantWeight(crate::variant::eval::WeightError),
    /// The file an option names cannot be used (the error names the file, and the line for text
    /// files).
    File {
        /// `EvalFile`, `BookFile` or `MpcFile`.
        option: &'static str,
        /// What was wrong with it.
        error: OptionFileError,
    },
}

/// Why the file an option names cannot be used: the loader's own error (shared, so that an
/// [`OptionError`] can be cloned as the protocols' reports are).
#[derive(Clone, Debug)]
pub enum OptionFileError {
    /// Trained pattern weights or a network (`EvalFile`).
    Pattern(std::sync::Arc<crate::eval::pattern::PatternFileError>),
    /// A text file of named weights (`EvalFile`).
    Weights(std::sync::Arc<crate::board::text::FileError>),
    /// A Multi-ProbCut table (`MpcFile`).
    Mpc(std::sync::Arc<crate::search::midgame::probcut::MpcFileError>),
    /// An opening book (`BookFile`).
    Book(std::sync::Arc<crate::book::BookError>),
}

impl std::fmt::Display for OptionFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionFileError::Pattern(e) => e.fmt(f),
            OptionFileError::Weights(e) => e.fmt(f),
            OptionFileError::Mpc(e) => e.fmt(f),
            OptionFileError::Book(e) => e.fmt(f),
        }
    }
}

/// Two are equal when they are of the same loader and say the same: the errors they hold (I/O
/// errors among them) have no equality of their own.
impl PartialEq for OptionFileError {
    fn eq(&self, other: &OptionFileError) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
            && self.to_string() == other.to_string()
    }
}

impl Eq for OptionFileError {}

impl OptionError {
    /// What is wrong, without the `setoption:` or option name that the protocol's message starts
    /// with: for a front end that gave the value under a flag of its own (`--eval-file`, `--set`).
    pub fn detail(&self) -> String {
        Detail(self).to_string()
    }

    /// The message as a front end whose option command is `command` (`set_option`, `set option`)
    /// writes it: that command's name where wedge's protocol writes `setoption:`.
    pub fn in_command(&self, command: &str) -> String {
        InCommand(self, command).to_string()
    }
}

/// An [`OptionError`]'s text after its prefix.
struct Detail<'a>(&'a OptionError);

impl std::fmt::Display for Detail<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::NoName => f.write_str("an option name is needed"),
            OptionError::BadValue { option, fault } => {
                write!(f, "'{option}' ")?;
                match fault {
                    ValueFault::Missing { min, max } => write!(f, "needs a value {min}..{max}"),
                    ValueFault::NotAnInteger { min, max, got } => {
                        write!(f, "needs an integer {min}..{max}, got '{got}'")
                    }
                    ValueFault::OutOfRange { min, max, got } => {
                        write!(f, "must be {min}..{max}, got {got}")
                    }
                    ValueFault::NotTrueOrFalse(got) => {
                        write!(f, "needs true or false, got '{got}'")
                    }
                    ValueFault::NotAChoice { values, got } => {
                        write!(f, "takes {}, got '{got}'", values.join(" or "))
                    }
                    ValueFault::NoText => f.write_str("needs a value ('<empty>' for none)"),
                    ValueFault::NotANumberOption => f.write_str("is not a number option"),
                    ValueFault::NotAChoiceOption => f.write_str("is not a choice option"),
                }
            }
            OptionError::Weight(e) => write!(f, "{e}"),
            OptionError::VariantWeight(e) => write!(f, "{e}"),
            OptionError::File { error, .. } => error.fmt(f),
        }
    }
}

/// An [`OptionError`]'s whole message, as the option command named here writes it.
struct InCommand<'a>(&'a OptionError, &'a str);

impl std::fmt::Display for InCommand<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            OptionError::Unknown(_) | OptionError::NoName => {}
            OptionError::BadValue { .. }
            | OptionError::Weight(_)
            | OptionError::VariantWeight(_) => write!(f, "{}: ", self.1)?,
            OptionError::File { option, .. } => write!(f, "{option}: ")?,
        }
        Detail(self.0).fmt(f)
    }
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        InCommand(self, "setoption").fmt(f)
    }
}

impl std::error::Error for OptionError {}

/// What is wrong with an option's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueFault {
    /// A number option without a value.
    Missing {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A number option's value that is no integer (the value given).
    NotAnInteger {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
        /// The value given.
        got: String,
    },
    /// A number out of the option's range.
    OutOfRange {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
        /// The value given.
        got: i64,
    },
    /// A check option's value that is neither `true` nor `false`.
    NotTrueOrFalse(String),
    /// A choice option's value that is none of its words.
    NotAChoice {
        /// The words it takes.
        values: &'static [&'static str],
        /// The value given.
        got: String,
    },
    /// A string option without `value`.
    NoText,
    /// A number was asked of an option that is not a number.
    NotANumberOption,
    /// A choice was asked of an option that is not a choice.
    NotAChoiceOption,
}

const fn spin_kind(default: i64, min: i64, max: i64) -> Kind {
    Kind::Spin { default, min, max }
}

/// One engine option, declared once: its name, its kind (default and range) and what setting it
/// does. `set` has checked the value against the kind when it stores it.
struct EngineOption {
    name: &'static str,
    kind: Kind,
    set: fn(&mut Options, &EngineOption, Option<&str>) -> Result<Effect, OptionError>,
}

impl EngineOption {
    /// The value as an integer within the option's range.
    fn spin(&self, value: Option<&str>) -> Result<i64, OptionError> {
        match self.kind {
            Kind::Spin { min, max, .. } => spin(self.name, value, min, max),
            _ => Err(OptionError::BadValue {
                option: self.name,
                fault: ValueFault::NotANumberOption,
            }),
        }
    }

    /// The value as one of a combo option's words (its own spelling).
    fn combo(&self, value: Option<&str>) -> Result<&'static str, OptionError> {
        let Kind::Combo { values, .. } = self.kind else {
            return Err(OptionError::BadValue {
                option: self.name,
                fault: ValueFault::NotAChoiceOption,
            });
        };
        let v = value.unwrap_or("").trim();
        values
            .iter()
            .find(|w| w.eq_ignore_ascii_case(v))
            .copied()
            .ok_or_else(|| OptionError::BadValue {
                option: self.name,
                fault: ValueFault::NotAChoice {
                    values,
                    got: truncate(v),
                },
            })
    }

    /// The value as `true` or `false`.
    fn check(&self, value: Option<&str>) -> Result<bool, OptionError> {
        check(self.name, value)
    }
}

/// The text of string option `name`'s value (`<empty>` and `value` with nothing after it mean
/// the empty string); no `value` at all is an error, since the empty string resets the option.
fn text_value(name: &'static str, value: Option<&str>) -> Result<String, OptionError> {
    let v = value
        .ok_or(OptionError::BadValue {
            option: name,
            fault: ValueFault::NoText,
        })?
        .trim();
    Ok(if v == "<empty>" {
        String::new()
    } else {
        v.to_string()
    })
}

/// The non-weight options, in advertised order.
const ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "Hash",
        // Up to 1 TB: whether the memory is there is found out when the table is made (an error
        // line then, and the table in use stays).
        kind: spin_kind(DEFAULT_HASH_MB as i64, 1, 1 << 20),
        set: |o, d, v| {
            o.hash_mb = d.spin(v)? as usize;
            Ok(Effect::ResizeHash(o.hash_mb))
        },
    },
    EngineOption {
        name: "Threads",
        kind: spin_kind(1, 1, 256),
        set: |o, d, v| {
            o.threads = d.spin(v)? as usize;
            Ok(Effect::Threads(o.threads))
        },
    },
    EngineOption {
        name: "MultiPV",
        kind: spin_kind(1, 1, 64),
        set: |o, d, v| {
            o.multipv = d.spin(v)? as usize;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "Ponder",
        kind: Kind::Check { default: false },
        set: |o, d, v| {
            o.ponder = d.check(v)?;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "OwnBook",
        kind: Kind::Check { default: true },
        set: |o, d, v| {
            o.own_book = d.check(v)?;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "BookFile",
        kind: Kind::Text { default: "" },
        set: |_, d, v| Ok(Effect::BookFile(text_value(d.name, v)?)),
    },
    EngineOption {
        name: "BookRandomness",
        kind: spin_kind(0, 0, 64),
        set: |o, d, v| {
            o.book_randomness = d.spin(v)? as i32;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "Evaluation",
        kind: Kind::Combo {
            default: "trained",
            values: &["trained", "hand"],
        },
        set: |o, d, v| {
            o.evaluation = EvalKind::parse(d.combo(v)?).unwrap_or(EvalKind::Trained);
            Ok(Effect::Weights)
        },
    },
    EngineOption {
        name: "EvalFile",
        kind: Kind::Text { default: "" },
        set: |o, d, v| o.load_eval_file(&text_value(d.name, v)?),
    },
    EngineOption {
        name: "MpcFile",
        kind: Kind::Text { default: "" },
        set: |o, d, v| o.load_mpc_file(&text_value(d.name, v)?),
    },
    EngineOption {
        name: "Clear Hash",
        kind: Kind::Button,
        set: |_, _, _| Ok(Effect::ClearHash),
    },
    EngineOption {
        name: "MoveOverhead",
        kind: spin_kind(30, 0, 5000),
        set: |o, d, v| {
            o.move_overhead_ms = d.spin(v)? as u64;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "Level",
        kind: spin_kind(MAX_LEVEL as i64, 1, MAX_LEVEL as i64),
        set: |o, d, v| {
            o.level = d.spin(v)? as u32;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "Selectivity",
        kind: spin_kind(crate::search::selectivity::DEFAULT_PERCENT as i64, 73, 100),
        set: |o, d, v| {
            let percent = d.spin(v)? as u8;
            o.selectivity = crate::search::selectivity::level_for_percent(percent);
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "Randomness",
        kind: spin_kind(0, 0, 2000),
        set: |o, d, v| {
            o.randomness = d.spin(v)? as i32;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "Seed",
        kind: spin_kind(0, 0, 2_147_483_647),
        set: |o, d, v| {
            o.seed = d.spin(v)? as u64;
            Ok(Effect::Seed(o.seed))
        },
    },
    // The variant player's switches (variant boards only, protocol.md 3.1).
    EngineOption {
        name: "AlphaBeta",
        kind: Kind::Check { default: true },
        set: |o, d, v| {
            o.variant.alpha_beta = d.check(v)?;
            Ok(Effect::None)
        },
    },
    EngineOption {
        name: "MoveOrder",
        kind: Kind::Combo {
            default: "best",
            values: &["best", "scanline"],
        },
        set: |o, d, v| {
            o.variant.scanline = d.combo(v)? == "scanline";
            Ok(Effect::None)
        },
    },
];

/// The strongest level (full strength, the default).
pub const MAX_LEVEL: u32 = 10;

/// What a level allows: deepest iteration, exact-solve empties and root noise (centidiscs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelLimits {
    /// Deepest iteration (None: no cap).
    pub depth: Option<u32>,
    /// Largest number of empties solved exactly (None: as time allows).
    pub solve_empties: Option<u32>,
    /// Noise added to root scores.
    pub randomness: i32,
}

/// The limits of each level, 1 (weakest) to [`MAX_LEVEL`] (full strength). docs/levels.md shows
/// how they score against each other.
pub fn level_limits(level: u32) -> LevelLimits {
    let (depth, solve, randomness) = match level {
        1 => (Some(1), Some(0), 2000),
        2 => (Some(1), Some(0), 400),
        3 => (Some(2), Some(0), 150),
        4 => (Some(3), Some(4), 60),
        5 => (Some(4), Some(8), 0),
        6 => (Some(6), Some(10), 0),
        7 => (Some(8), Some(12), 0),
        8 => (Some(10), Some(14), 0),
        9 => (Some(12), Some(18), 0),
        _ => (None, None, 0),
    };
    LevelLimits {
        depth,
        solve_empties: solve,
        randomness,
    }
}

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    /// Hash table size, MB.
    pub hash_mb: usize,
    /// Search threads: the midgame search (helpers sharing its table) and the endgame solver use
    /// them all.
    pub threads: usize,
    /// Root moves reported per iteration.
    pub multipv: usize,
    /// Write the expected reply after the move (`bestmove X ponder Y`), for GUIs that ponder.
    pub ponder: bool,
    /// Use the opening book (docs/book.md).
    pub own_book: bool,
    /// The weights file last loaded (empty: built-in weights).
    pub eval_file: String,
    /// The trained weights file in use (empty: the built-in network).
    pub pattern_file: String,
    /// The Multi-ProbCut table file in use (empty: the built-in table).
    pub mpc_file: String,
    /// The midgame search's Multi-ProbCut table (`MpcFile`, or the built-in one).
    pub mpc: std::sync::Arc<crate::search::midgame::probcut::MpcTable>,
    /// Milliseconds kept in reserve on every move.
    pub move_overhead_ms: u64,
    /// The named evaluation weights: the hand evaluation's terms, or adjustments of the trained
    /// one by their change from the defaults.
    pub weights: Weights,
    /// Which evaluation the searches use.
    pub evaluation: EvalKind,
    /// The trained pattern weights (the built-in ones by default, or an `EvalFile` of that kind);
    /// `None` only if the built-in ones failed to load, and then the hand evaluation is used.
    pub pattern: Option<crate::eval::Trained>,
    /// Book moves within this many discs of the best are chosen at random (0: always the best).
    pub book_randomness: i32,
    /// Playing level, 1..=MAX_LEVEL.
    pub level: u32,
    /// Root-score noise in centidiscs (0: none).
    pub randomness: i32,
    /// Multi-ProbCut level of the midgame search (see `Selectivity` in docs/options.md).
    pub selectivity: u8,
    /// Seed of the random generator.
    pub seed: u64,
    /// The variant player's options (variant boards only).
    pub variant: VariantOptions,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            own_book: true,
            eval_file: String::new(),
            pattern_file: String::new(),
            mpc_file: String::new(),
            mpc: crate::search::midgame::probcut::BUILT_IN.clone(),
            move_overhead_ms: 30,
            weights: Weights::default(),
            evaluation: EvalKind::Trained,
            pattern: crate::eval::built_in_trained(),
            book_randomness: 0,
            level: MAX_LEVEL,
            randomness: 0,
            selectivity: crate::search::selectivity::default_level(),
            seed: 0,
            variant: VariantOptions::default(),
        }
    }
}

/// An option as the engine declares it: its name, and its kind with the default and range. The
/// protocols write these as they must (the wedge protocol's `option name ...` lines:
/// [`crate::protocol::output::option_lines`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The name, as `setoption` takes it (case-insensitively).
    pub name: &'static str,
    /// Its kind, default and range.
    pub kind: Kind,
}

/// Every option, in advertised order: engine options first, then every evaluation weight, then
/// the variant evaluation's weights.
pub fn declarations() -> Vec<Declaration> {
    let spin = |name, default: i32, min: i32, max: i32| Declaration {
        name,
        kind: Kind::Spin {
            default: i64::from(default),
            min: i64::from(min),
            max: i64::from(max),
        },
    };
    let mut out: Vec<Declaration> = ENGINE_OPTIONS
        .iter()
        .map(|o| Declaration {
            name: o.name,
            kind: o.kind.clone(),
        })
        .collect();
    out.extend(
        weights::SPECS
            .iter()
            .map(|s| spin(s.name, s.default, s.min, s.max)),
    );
    out.extend(
        crate::variant::eval::WEIGHT_SPECS
            .iter()
            .map(|s| spin(s.name, s.default, s.min, s.max)),
    );
    out
}

/// Reads a spin value and checks its range.
fn spin(name: &'static str, value: Option<&str>, min: i64, max: i64) -> Result<i64, OptionError> {
    let bad = |fault| OptionError::BadValue {
        option: name,
        fault,
    };
    let v = value.ok_or_else(|| bad(ValueFault::Missing { min, max }))?;
    let n: i64 = v.trim().parse().map_err(|_| {
        bad(ValueFault::NotAnInteger {
            min,
            max,
            got: truncate(v),
        })
    })?;
    if n < min || n > max {
        return Err(bad(ValueFault::OutOfRange { min, max, got: n }));
    }
    Ok(n)
}

/// Reads a check value: `true` or `false` (any case).
fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    let v = value.unwrap_or("").trim();
    match v.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::BadValue {
            option: name,
            fault: ValueFault::NotTrueOrFalse(truncate(v)),
        }),
    }
}

/// Whether `path` is a regular file that starts with the pattern weights file's magic bytes (a
/// FIFO or device is never opened: see [`crate::files`]).
fn is_pattern_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    crate::files::check_regular(path, crate::files::MAX_TEXT_BYTES).is_ok()
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
        && (&head == crate::eval::pattern::MAGIC
            || &head == crate::eval::pattern::MAGIC_PHASED
            || &head == crate::eval::pattern::net::MAGIC_NET)
}

impl Options {
    /// Sets option `name` (case-insensitive) from `value`. On error nothing changes and the message
    /// says what was wrong and what is expected.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let Some(option) = ENGINE_OPTIONS
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
        else {
            if let Some(spec) = crate::variant::eval::WEIGHT_SPECS
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
            {
                let v = spin(spec.name, value, i64::from(spec.min), i64::from(spec.max))?;
                self.variant
                    .weights
                    .set_weight(spec.name, v as i32)
                    .map_err(OptionError::VariantWeight)?;
                return Ok(Effect::None);
            }
            let Some(id) = Weights::find(name) else {
                return Err(OptionError::Unknown(truncate(name)));
            };
            let spec = &weights::SPECS[id];
            let v = spin(spec.name, value, i64::from(spec.min), i64::from(spec.max))?;
            self.weights
                .set_by_name(spec.name, &v.to_string())
                .map_err(OptionError::Weight)?;
            return Ok(Effect::Weights);
        };
        (option.set)(self, option, value)
    }

    /// The evaluation these options select.
    pub fn evaluator(&self) -> crate::eval::Evaluator {
        let pattern = match self.evaluation {
            EvalKind::Trained => self.pattern.clone(),
            EvalKind::Hand => None,
        };
        crate::eval::Evaluator::with_trained(self.weights.clone(), pattern)
    }

    /// Loads `MpcFile`: a Multi-ProbCut table as `wedge mpc fit` writes it; empty: the built-in
    /// table. On error nothing changes.
    fn load_mpc_file(&mut self, path: &str) -> Result<Effect, OptionError> {
        use crate::search::midgame::probcut::{MpcTable, BUILT_IN};
        if path.is_empty() {
            self.mpc = BUILT_IN.clone();
        } else {
            let table = MpcTable::load(Path::new(path)).map_err(|e| OptionError::File {
                option: "MpcFile",
                error: OptionFileError::Mpc(e.into()),
            })?;
            self.mpc = std::sync::Arc::new(table);
        }
        self.mpc_file = path.to_string();
        Ok(Effect::Mpc)
    }

    /// Loads `EvalFile`: trained pattern weights, or a text file of named weights (which keeps the
    /// evaluation in use: with patterns they adjust it); empty: the built-in network, the default
    /// named weights and `Evaluation` `trained`. On error nothing changes.
    fn load_eval_file(&mut self, path: &str) -> Result<Effect, OptionError> {
        let file = |error: OptionFileError| OptionError::File {
            option: "EvalFile",
            error,
        };
        if path.is_empty() {
            self.weights = Weights::default();
            self.evaluation = EvalKind::Trained;
            self.pattern = crate::eval::built_in_trained();
            self.eval_file.clear();
            self.pattern_file.clear();
        } else if is_pattern_file(Path::new(path)) {
            let p = crate::eval::Trained::load(Path::new(path))
                .map_err(|e| file(OptionFileError::Pattern(e.into())))?;
            self.pattern = Some(p);
            self.eval_file = path.to_string();
            self.pattern_file = path.to_string();
        } else {
            let loaded = Weights::load(Path::new(path))
                .map_err(|e| file(OptionFileError::Weights(e.into())))?;
            self.weights = loaded.weights;
            if let Some(kind) = loaded.evaluation {
                self.evaluation = kind;
            }
            self.eval_file = path.to_string();
        }
        Ok(Effect::Weights)
    }
}

#[cfg(test)]
mod tests;

/// The variant player's options: `AlphaBeta`, `MoveOrder` and the evaluation's named weights
/// (`VariantMobility`, ...; docs/options.md). The 8 x 8 options do not change them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantOptions {
    /// Alpha-beta pruning (and the transposition table); off: plain minimax.
    pub alpha_beta: bool,
    /// Moves in scanline order (row by row, left to right) instead of the ordering heuristics.
    pub scanline: bool,
    /// The evaluation's weights.
    pub weights: VariantWeights,
}

impl Default for VariantOptions {
    fn default() -> VariantOptions {
        VariantOptions {
            alpha_beta: true,
            scanline: false,
            weights: VariantWeights::default(),
        }
    }
}

impl VariantOptions {
    /// The search options these stand for.
    pub(super) fn search_options(&self) -> SearchOptions {
        SearchOptions {
            alpha_beta: self.alpha_beta,
            scanline_order: self.scanline,
            // Scanline order is the course's demonstration of plain alpha-beta: no table, whose
            // cut-offs (and entries kept from a deeper search) would change the node counts.
            transposition_table: !self.scanline,
            ..SearchOptions::default()
        }
    }
}
