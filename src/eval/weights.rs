//! The named evaluation weights: each has a name (the `setoption` name and the weights-file key), a
//! default, a range and a one-line meaning. Values are in centidiscs (1/100 of a disc) per unit of the
//! feature. Most terms come in a `...Mid` and an `...End` flavour: the evaluation blends the two by the
//! number of empty squares (all `Mid` with 60 empties, all `End` with none).

use crate::board::text::{read_lines, FileError, FileProblem};
use crate::files::Excerpt;
use std::fmt;
use std::path::Path;

/// One weight's description.
#[derive(Clone, Copy, Debug)]
pub struct WeightSpec {
    /// The name, as used by `setoption` and weights files (matched case-insensitively).
    pub name: &'static str,
    /// The built-in value.
    pub default: i32,
    /// The smallest accepted value.
    pub min: i32,
    /// The largest accepted value.
    pub max: i32,
    /// What the weight multiplies.
    pub meaning: &'static str,
}

macro_rules! weights {
    ($($id:ident = $name:literal, $default:expr, $meaning:literal;)*) => {
        /// Indices of the weights in [`SPECS`].
        #[allow(missing_docs)]
        pub mod id {
            weights!(@ids 0usize, $($id,)*);
        }
        /// Every weight, in a fixed order (the order of `uci` option lines and of dumped files).
        pub const SPECS: &[WeightSpec] = &[
            $(WeightSpec { name: $name, default: $default, min: -10000, max: 10000, meaning: $meaning },)*
        ];
    };
    (@ids $n:expr, $id:ident, $($rest:ident,)*) => {
        pub const $id: usize = $n;
        weights!(@ids $n + 1usize, $($rest,)*);
    };
    (@ids $n:expr,) => {};
}

weights! {
    CORNER_MID = "CornerMid", 500, "own corner minus opponent's corners (midgame)";
    CORNER_END = "CornerEnd", 150, "own corner minus opponent's corners (endgame)";
    C_EMPTY_MID = "CSquareMid", -150, "C-squares (edge squares next to a corner) beside an empty corner (midgame)";
    C_EMPTY_END = "CSquareEnd", -40, "C-squares beside an empty corner (endgame)";
    C_TAKEN = "CSquareTaken", 20, "C-squares beside an occupied corner";
    A_SQUARE = "ASquare", 30, "A-squares (c1, f1 and their images)";
    B_SQUARE = "BSquare", 10, "B-squares (d1, e1 and their images)";
    EDGE_STABLE_MID = "EdgeStableMid", 60, "edge discs (not corners) that can never flip along their edge (midgame)";
    EDGE_STABLE_END = "EdgeStableEnd", 80, "edge discs that can never flip along their edge (endgame)";
    X_EMPTY_MID = "XSquareMid", -300, "X-squares (b2, g2, b7, g7) beside an empty corner (midgame)";
    X_EMPTY_END = "XSquareEnd", -60, "X-squares beside an empty corner (endgame)";
    MOBILITY_MID = "MobilityMid", 70, "legal moves of the side to move minus the opponent's (midgame)";
    MOBILITY_END = "MobilityEnd", 40, "legal moves minus the opponent's (endgame)";
    POTENTIAL_MID = "PotentialMobilityMid", 25, "empty squares next to opponent discs minus those next to own discs (midgame)";
    POTENTIAL_END = "PotentialMobilityEnd", 10, "potential mobility difference (endgame)";
    DISCS_MID = "DiscsMid", -5, "disc difference (midgame: fewer discs is usually better)";
    DISCS_END = "DiscsEnd", 40, "disc difference (endgame)";
    PARITY_END = "ParityEnd", 120, "+1 when the number of empty squares is odd (the side to move expects the last move), -1 when even (endgame only)";
}

/// Number of weights.
pub const COUNT: usize = SPECS.len();

/// Why a weight could not be set, by name or from a line of a weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightError {
    /// A weights file line names this weight but gives no value.
    NoValue(String),
    /// A weights file line has this after the value.
    Extra(String),
    /// No weight has this name.
    Unknown(String),
    /// The value is not an integer.
    NotANumber {
        /// The weight.
        name: &'static str,
        /// The text given.
        value: String,
    },
    /// The `Evaluation` line names neither `trained` nor `hand`.
    BadEvaluation(String),
    /// The value is outside the weight's range.
    OutOfRange {
        /// The weight.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The smallest accepted value.
        min: i32,
        /// The largest accepted value.
        max: i32,
    },
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightError::NoValue(n) => write!(f, "'{}' has no value", Excerpt(n)),
            WeightError::Extra(extra) => {
                write!(f, "unexpected '{}' after the value", Excerpt(extra))
            }
            WeightError::Unknown(n) => write!(f, "unknown weight '{}'", Excerpt(n)),
            WeightError::BadEvaluation(v) => {
                write!(
                    f,
                    "'{EVALUATION_KEY}' takes trained or hand, got '{}'",
                    Excerpt(v)
                )
            }
            WeightError::NotANumber { name, value } => {
                write!(f, "'{name}' needs an integer, got '{}'", Excerpt(value))
            }
            WeightError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "'{name}' must be {min}..{max}, got {value}"),
        }
    }
}

impl std::error::Error for WeightError {}

/// A full set of weight values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    values: [i32; COUNT],
}

impl Default for Weights {
    fn default() -> Weights {
        let mut values = [0; COUNT];
        for (v, spec) in values.iter_mut().zip(SPECS) {
            *v = spec.default;
        }
        Weights { values }
    }
}

impl Weights {
    /// The value of weight `id` (an index from [`id`]).
    #[inline]
    pub fn get(&self, id: usize) -> i32 {
        self.values[id]
    }

    /// Every weight at 0.
    pub fn zero() -> Weights {
        Weights { values: [0; COUNT] }
    }

    /// Each weight minus its default: the adjustment these weights make to the trained evaluation.
    pub fn minus_defaults(&self) -> Weights {
        let mut values = self.values;
        for (v, spec) in values.iter_mut().zip(SPECS) {
            *v -= spec.default;
        }
        Weights { values }
    }

    /// The index of the weight called `name` (case-insensitive).
    pub fn find(name: &str) -> Option<usize> {
        SPECS.iter().position(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Sets the weight called `name` from text; nothing changes on error.
    pub fn set_by_name(&mut self, name: &str, value: &str) -> Result<(), WeightError> {
        let id = Weights::find(name).ok_or_else(|| WeightError::Unknown(name.to_string()))?;
        let spec = &SPECS[id];
        let v: i64 = value.trim().parse().map_err(|_| WeightError::NotANumber {
            name: spec.name,
            value: crate::board::square::truncate(value),
        })?;
        if v < i64::from(spec.min) || v > i64::from(spec.max) {
            return Err(WeightError::OutOfRange {
                name: spec.name,
                value: v,
                min: spec.min,
                max: spec.max,
            });
        }
        self.values[id] = v as i32;
        Ok(())
    }

    /// Reads a weights file: `name value` per line, `#` comments, and optionally one line
    /// `Evaluation trained` or `Evaluation hand` saying which evaluation the weights are for. Weights
    /// the file does not name keep their built-in values. Any unknown name or bad value fails the
    /// whole file, naming the line.
    pub fn load(path: &Path) -> Result<WeightsFile, FileError> {
        let mut w = Weights::default();
        let mut evaluation = None;
        let named = read_lines(path, |line| {
            let mut parts = line.split_whitespace();
            let name = parts.next().unwrap_or("");
            let value = parts
                .next()
                .ok_or_else(|| WeightError::NoValue(name.to_string()))?;
            if let Some(extra) = parts.next() {
                return Err(WeightError::Extra(extra.to_string()));
            }
            if name.eq_ignore_ascii_case(EVALUATION_KEY) {
                evaluation = Some(EvalKind::parse(value).ok_or_else(|| {
                    WeightError::BadEvaluation(crate::board::square::truncate(value))
                })?);
                return Ok(());
            }
            w.set_by_name(name, value)
        })?;
        // An empty file (or one of comments only) is a mistake, not "all built-in values".
        if named.is_empty() {
            return Err(FileError::new(path, 0, FileProblem::Empty("weight")));
        }
        Ok(WeightsFile {
            weights: w,
            evaluation,
        })
    }

    /// The weights as a file that [`Weights::load`] reads back, for `evaluation`; `patterns` says
    /// (in a comment) which trained weights they adjust.
    pub fn dump(&self, evaluation: EvalKind, patterns: &str) -> String {
        let mut out =
            String::from("# wedge evaluation weights (centidiscs per unit of each feature)\n");
        match evaluation {
            EvalKind::Trained => out.push_str(&format!(
                "# for the trained evaluation ({patterns}): each weight adds (value - default) \
                 times its feature\n"
            )),
            EvalKind::Hand => out.push_str("# for the hand evaluation: the sum of the terms\n"),
        }
        out.push_str(&format!("{EVALUATION_KEY} {}\n", evaluation.name()));
        for (spec, v) in SPECS.iter().zip(&self.values) {
            out.push_str(&format!(
                "# {} (default {})\n{} {}\n",
                spec.meaning, spec.default, spec.name, v
            ));
        }
        out
    }
}

/// The key of a weights file's line that chooses the evaluation (the `Evaluation` option's name).
pub const EVALUATION_KEY: &str = "Evaluation";

/// Which evaluation the searches use: the `Evaluation` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// The trained pattern evaluation, adjusted by the named weights' changes from their defaults.
    Trained,
    /// The hand evaluation: the named weights alone.
    Hand,
}

impl EvalKind {
    /// The option value: `trained` or `hand`.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Trained => "trained",
            EvalKind::Hand => "hand",
        }
    }

    /// Reads `trained` or `hand` (any case).
    pub fn parse(text: &str) -> Option<EvalKind> {
        [EvalKind::Trained, EvalKind::Hand]
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(text.trim()))
    }
}

/// What a text weights file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsFile {
    /// The weights (those it does not name at their defaults).
    pub weights: Weights,
    /// The evaluation it chooses, if it has an `Evaluation` line.
    pub evaluation: Option<EvalKind>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_findable() {
        for (i, s) in SPECS.iter().enumerate() {
            assert_eq!(Weights::find(s.name), Some(i));
            assert_eq!(Weights::find(&s.name.to_lowercase()), Some(i));
            assert!(s.min <= s.default && s.default <= s.max);
        }
        assert_eq!(SPECS[id::PARITY_END].name, "ParityEnd");
    }

    #[test]
    fn set_and_errors() {
        let mut w = Weights::default();
        w.set_by_name("mobilitymid", "12").unwrap();
        assert_eq!(w.get(id::MOBILITY_MID), 12);
        let before = w.clone();
        assert!(matches!(
            w.set_by_name("Nope", "1"),
            Err(WeightError::Unknown(_))
        ));
        assert!(matches!(
            w.set_by_name("CornerMid", "x"),
            Err(WeightError::NotANumber { .. })
        ));
        assert!(matches!(
            w.set_by_name("CornerMid", "99999999"),
            Err(WeightError::OutOfRange { .. })
        ));
        assert_eq!(w, before);
    }

    #[test]
    fn dump_reads_back() {
        let mut w = Weights::default();
        w.set_by_name("DiscsEnd", "-77").unwrap();
        let dir = std::env::temp_dir().join(format!("wedge-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.txt");
        for kind in [EvalKind::Trained, EvalKind::Hand] {
            std::fs::write(&path, w.dump(kind, "built-in")).unwrap();
            let file = Weights::load(&path).unwrap();
            assert_eq!((file.weights, file.evaluation), (w.clone(), Some(kind)));
        }
        std::fs::write(&path, "evaluation HAND\nMobilityMid 3\n").unwrap();
        assert_eq!(
            Weights::load(&path).unwrap().evaluation,
            Some(EvalKind::Hand)
        );
        std::fs::write(&path, "Evaluation manual\n").unwrap();
        assert_eq!(Weights::load(&path).unwrap_err().line, 1);
        std::fs::write(&path, "CornerMid 10\nBogus 3\n").unwrap();
        let err = Weights::load(&path).unwrap_err();
        assert_eq!(err.line, 2);
        std::fs::write(&path, "CornerMid\n").unwrap();
        assert_eq!(Weights::load(&path).unwrap_err().line, 1);
    }
}
