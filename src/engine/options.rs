//! The engine's options: the table `uci` advertises, their current values, and checked setting by
//! name (case-insensitive). Evaluation weights are options too, one per weight.

use crate::board::square::truncate;
use crate::eval::weights::{self, Weights};
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
}

const fn spin_kind(default: i64, min: i64, max: i64) -> Kind {
    Kind::Spin { default, min, max }
}

/// The non-weight options, in advertised order.
const ENGINE_OPTIONS: &[(&str, Kind)] = &[
    // Up to 1 TB: whether the memory is there is found out when the table is made (an error line
    // then, and the table in use stays).
    ("Hash", spin_kind(DEFAULT_HASH_MB as i64, 1, 1 << 20)),
    ("Threads", spin_kind(1, 1, 256)),
    ("MultiPV", spin_kind(1, 1, 64)),
    ("Ponder", Kind::Check { default: false }),
    ("OwnBook", Kind::Check { default: true }),
    ("BookFile", Kind::Text { default: "" }),
    ("BookRandomness", spin_kind(0, 0, 64)),
    ("EvalFile", Kind::Text { default: "" }),
    ("Clear Hash", Kind::Button),
    ("MoveOverhead", spin_kind(30, 0, 5000)),
    ("Level", spin_kind(MAX_LEVEL as i64, 1, MAX_LEVEL as i64)),
    ("Randomness", spin_kind(0, 0, 2000)),
    ("Seed", spin_kind(0, 0, 2_147_483_647)),
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
    /// Search threads: the endgame solver uses them all; the midgame search uses one.
    pub threads: usize,
    /// Root moves reported per iteration.
    pub multipv: usize,
    /// Write the expected reply after the move (`bestmove X ponder Y`), for GUIs that ponder.
    pub ponder: bool,
    /// Use the opening book (once one ships).
    pub own_book: bool,
    /// The weights file last loaded (empty: built-in weights).
    pub eval_file: String,
    /// Milliseconds kept in reserve on every move.
    pub move_overhead_ms: u64,
    /// The evaluation weights.
    pub weights: Weights,
    /// Trained pattern weights in use (the built-in ones by default, or an `EvalFile` of that
    /// kind); `None` selects the hand evaluation.
    pub pattern: Option<std::sync::Arc<crate::eval::pattern::PatternWeights>>,
    /// Book moves within this many discs of the best are chosen at random (0: always the best).
    pub book_randomness: i32,
    /// Playing level, 1..=MAX_LEVEL.
    pub level: u32,
    /// Root-score noise in centidiscs (0: none).
    pub randomness: i32,
    /// Seed of the random generator.
    pub seed: u64,
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
            move_overhead_ms: 30,
            weights: Weights::default(),
            pattern: crate::eval::built_in_patterns(),
            book_randomness: 0,
            level: MAX_LEVEL,
            randomness: 0,
            seed: 0,
        }
    }
}

/// The `option name ...` lines of the handshake: engine options first, then every weight.
pub fn option_lines() -> Vec<String> {
    let mut lines: Vec<String> = ENGINE_OPTIONS
        .iter()
        .map(|(name, kind)| match kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Text { default } => {
                let d = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {name} type string default {d}")
            }
            Kind::Button => format!("option name {name} type button"),
        })
        .collect();
    for s in weights::SPECS {
        lines.push(format!(
            "option name {} type spin default {} min {} max {}",
            s.name, s.default, s.min, s.max
        ));
    }
    lines
}

/// Reads a spin value and checks its range.
fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("setoption: '{name}' needs a value {min}..{max}"))?;
    let n: i64 = v.trim().parse().map_err(|_| {
        format!(
            "setoption: '{name}' needs an integer {min}..{max}, got '{}'",
            truncate(v)
        )
    })?;
    if n < min || n > max {
        return Err(format!("setoption: '{name}' must be {min}..{max}, got {n}"));
    }
    Ok(n)
}

/// Reads a check value: `true` or `false` (any case).
fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    let v = value.unwrap_or("").trim();
    match v.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "setoption: '{name}' needs true or false, got '{}'",
            truncate(v)
        )),
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
        && &head == crate::eval::pattern::MAGIC
}

impl Options {
    /// Sets option `name` (case-insensitive) from `value`. On error nothing changes and the message
    /// says what was wrong and what is expected.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let Some((canonical, kind)) = ENGINE_OPTIONS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        else {
            let Some(id) = Weights::find(name) else {
                return Err(format!("unknown option '{}'", truncate(name)));
            };
            let spec = &weights::SPECS[id];
            let v = spin(spec.name, value, i64::from(spec.min), i64::from(spec.max))?;
            self.weights
                .set_by_name(spec.name, &v.to_string())
                .map_err(|e| format!("setoption: {e}"))?;
            // Board-shape weights belong to the hand evaluation: setting one selects it. Global
            // terms (mobility, discs, parity) also adjust the trained evaluation, which stays.
            if !crate::eval::GLOBAL_TERMS.contains(&id) {
                self.pattern = None;
            }
            return Ok(Effect::Weights);
        };
        let range = |kind: &Kind| match kind {
            Kind::Spin { min, max, .. } => (*min, *max),
            _ => (0, 0),
        };
        let (min, max) = range(kind);
        match *canonical {
            "Hash" => {
                self.hash_mb = spin(canonical, value, min, max)? as usize;
                Ok(Effect::ResizeHash(self.hash_mb))
            }
            "Threads" => {
                self.threads = spin(canonical, value, min, max)? as usize;
                Ok(Effect::Threads(self.threads))
            }
            "MultiPV" => {
                self.multipv = spin(canonical, value, min, max)? as usize;
                Ok(Effect::None)
            }
            "BookRandomness" => {
                self.book_randomness = spin(canonical, value, min, max)? as i32;
                Ok(Effect::None)
            }
            "BookFile" => {
                let path = value.unwrap_or("").trim();
                let path = if path == "<empty>" { "" } else { path };
                Ok(Effect::BookFile(path.to_string()))
            }
            "Level" => {
                self.level = spin(canonical, value, min, max)? as u32;
                Ok(Effect::None)
            }
            "Randomness" => {
                self.randomness = spin(canonical, value, min, max)? as i32;
                Ok(Effect::None)
            }
            "Seed" => {
                self.seed = spin(canonical, value, min, max)? as u64;
                Ok(Effect::Seed(self.seed))
            }
            "MoveOverhead" => {
                self.move_overhead_ms = spin(canonical, value, min, max)? as u64;
                Ok(Effect::None)
            }
            "OwnBook" => {
                self.own_book = check(canonical, value)?;
                Ok(Effect::None)
            }
            "Ponder" => {
                self.ponder = check(canonical, value)?;
                Ok(Effect::None)
            }
            "EvalFile" => {
                let path = value.unwrap_or("").trim();
                if path.is_empty() || path == "<empty>" {
                    self.weights = Weights::default();
                    self.pattern = crate::eval::built_in_patterns();
                    self.eval_file.clear();
                } else if is_pattern_file(Path::new(path)) {
                    let p = crate::eval::pattern::PatternWeights::load(Path::new(path))
                        .map_err(|e| format!("EvalFile: {e}"))?;
                    self.pattern = Some(std::sync::Arc::new(p));
                    self.eval_file = path.to_string();
                } else {
                    self.weights =
                        Weights::load(Path::new(path)).map_err(|e| format!("EvalFile: {e}"))?;
                    self.pattern = None;
                    self.eval_file = path.to_string();
                }
                Ok(Effect::Weights)
            }
            _ => Ok(Effect::ClearHash), // "Clear Hash", the only button
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_by_any_case_and_errors_change_nothing() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("32")), Ok(Effect::ResizeHash(32)));
        assert_eq!(o.hash_mb, 32);
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("x")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert_eq!(o.hash_mb, 32);
        assert!(o.set("Contempt", Some("1")).is_err());
        assert_eq!(o.set("ownbook", Some("FALSE")), Ok(Effect::None));
        assert!(!o.own_book);
        assert!(o.set("OwnBook", Some("maybe")).is_err());
        assert_eq!(o.set("mobilitymid", Some("3")), Ok(Effect::Weights));
        assert_eq!(o.weights.get(weights::id::MOBILITY_MID), 3);
        assert!(o.set("MobilityMid", Some("100000")).is_err());
        assert_eq!(o.set("clear hash", None), Ok(Effect::ClearHash));
        assert!(o.set("EvalFile", Some("/nonexistent/w.txt")).is_err());
        assert_eq!(o.weights.get(weights::id::MOBILITY_MID), 3);
    }

    #[test]
    fn every_option_is_listed_once() {
        let lines = option_lines();
        assert_eq!(lines.len(), ENGINE_OPTIONS.len() + weights::COUNT);
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name CornerMid type spin")));
    }
}
