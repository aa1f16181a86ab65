//! Multi-ProbCut (Buro) for the midgame search: at a node to be searched `depth` plies deep, a
//! shallow search of `shallow_depth(depth)` plies predicts the deep value as `a * v + b` with a
//! normal error of deviation `sigma`. When the prediction clears the window by `t * sigma` (`t`
//! from the search's selectivity level), the node is cut off without the deep search.
//!
//! The parameters come from a table fitted on positions of self-play games by `wedge mpc fit`
//! (`src/tools/mpc.rs`), embedded in the binary from `mpc.txt`: rows of (empties range, depth)
//! with their own `a`, `b` and `sigma`, and a linear model of `sigma` in the empties, the depth and
//! the shallow depth for the pairs that no row covers: depths deeper than the fit searched, fewer
//! empties than its first row, and rows fitted on too few positions.

use crate::files::Excerpt;
use once_cell::sync::Lazy;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Shallowest node depth at which a probable cut is tried: below it the shallow search would be
/// the static evaluation, and the deep search is cheap anyway.
pub const MIN_DEPTH: u32 = 3;
/// Rows fitted on fewer positions than this are left to the model.
const MIN_ROW_SAMPLES: u32 = 60;
/// The smallest deviation used (centidiscs): a guard against a degenerate fit.
const MIN_SIGMA: f64 = 40.0;
/// Table dimension: empties and depths 0..=60.
const SIZE: usize = 61;

/// The depth of the shallow search that predicts a `depth`-ply search: about half as deep, and
/// of the same parity, since the evaluation's bias differs between odd and even depths.
#[inline]
pub fn shallow_depth(depth: u32) -> u32 {
    depth / 4 * 2 + (depth & 1)
}

/// The prediction of a deep search from a shallow one: `deep ~ a * shallow + b`, error `sigma`
/// (centidiscs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Slope.
    pub a: f64,
    /// Offset, centidiscs.
    pub b: f64,
    /// Standard deviation of the error, centidiscs.
    pub sigma: f64,
}

impl Fit {
    /// Whether a table may hold this fit: a rising line (0 < a <= 4), an offset within 64 discs and
    /// a deviation above zero and within 64 discs. Beyond these a row would force or forbid every
    /// cut: a wrong file, not a fit.
    pub fn plausible(&self) -> bool {
        self.a > 0.0
            && self.a <= 4.0
            && self.b.abs() <= 6400.0
            && self.sigma > 0.0
            && self.sigma <= 6400.0
    }
}

/// The deviation of `model` at `empties` and `depth` (its shallow depth by [`shallow_depth`]),
/// before the table's floor.
fn model_sigma(model: &SigmaModel, empties: u32, depth: u32) -> f64 {
    model[0]
        + model[1] * f64::from(empties)
        + model[2] * f64::from(depth)
        + model[3] * f64::from(shallow_depth(depth))
}

/// Whether a table may hold `model`: its deviation at most 64 discs everywhere the search cuts
/// (every empties count, depths from [`MIN_DEPTH`]), and above zero somewhere there (a model
/// below zero everywhere would give every cut the floor's deviation).
pub fn plausible_model(model: &SigmaModel) -> bool {
    let grid = || (0..SIZE as u32).flat_map(|e| (MIN_DEPTH..SIZE as u32).map(move |d| (e, d)));
    grid().all(|(e, d)| model_sigma(model, e, d) <= 6400.0)
        && grid().any(|(e, d)| model_sigma(model, e, d) > 0.0)
}

/// A fitted row: the prediction of a `depth`-ply search by a `shallow`-ply one at
/// `empties_lo..=empties_hi` empty squares, from `samples` positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Fewest empty squares covered.
    pub empties_lo: u32,
    /// Most empty squares covered.
    pub empties_hi: u32,
    /// Depth of the deep search.
    pub depth: u32,
    /// Depth of the shallow search.
    pub shallow: u32,
    /// The fit.
    pub fit: Fit,
    /// Positions it was fitted on.
    pub samples: u32,
}

/// `sigma = c[0] + c[1] * empties + c[2] * depth + c[3] * shallow` (centidiscs).
pub type SigmaModel = [f64; 4];

/// A Multi-ProbCut table: the fit for every (empties, depth), from rows where they are fitted and
/// from the model elsewhere.
#[derive(Clone, Debug)]
pub struct MpcTable {
    fits: Vec<Fit>,
}

/// A line of an MPC table that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MpcTableError {
    /// Line number, from 1 (0: the table as a whole).
    pub line: usize,
    /// What is wrong.
    pub problem: MpcProblem,
}

/// What is wrong with an MPC table or one of its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MpcProblem {
    /// The file is not UTF-8 text.
    NotText,
    /// A word that should be a finite number (the word, shortened to a readable length).
    NotANumber(String),
    /// A second `model` line.
    SecondModel,
    /// A model whose sigma leaves its range.
    BadModel,
    /// A row's empties or depths are not whole numbers 0-60.
    NotWhole,
    /// A row's numbers are out of their ranges.
    BadRow,
    /// A line that is neither a model nor a row (the line, shortened).
    Unknown(String),
    /// No `model` line.
    NoModel,
}

impl std::fmt::Display for MpcProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MpcProblem::NotText => f.write_str("not a text file (not UTF-8)"),
            MpcProblem::NotANumber(w) => write!(f, "'{w}' is not a number"),
            MpcProblem::SecondModel => f.write_str("a second 'model' line (a table has one)"),
            MpcProblem::BadModel => f.write_str(
                "the model's sigma must stay at most 6400 at every empties count and depth, and \
                 be above 0 at some",
            ),
            MpcProblem::NotWhole => f.write_str("empties and depths must be whole numbers 0-60"),
            MpcProblem::BadRow => f.write_str(
                "expected lo <= hi, shallow < depth, 0 < a <= 4, |b| <= 6400, 0 < sigma <= 6400 \
                 and a whole number of samples",
            ),
            MpcProblem::Unknown(line) => write!(
                f,
                "expected 'model c0 c1 c2 c3' or 'row lo hi depth shallow a b sigma samples', got \
                 '{line}'"
            ),
            MpcProblem::NoModel => f.write_str("no 'model' line"),
        }
    }
}

impl std::fmt::Display for MpcTableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "line {}: {}", self.line, self.problem)
        }
    }
}

impl std::error::Error for MpcTableError {}

/// A table file that could not be loaded (the `MpcFile` option, `--mpc-file`).
#[derive(Debug)]
pub enum MpcFileError {
    /// The file could not be read.
    Io(PathBuf, std::io::Error),
    /// A line of it is not a table line, or it has no model.
    Table(PathBuf, MpcTableError),
}

impl std::fmt::Display for MpcFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MpcFileError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            MpcFileError::Table(path, e) if e.line == 0 => {
                write!(f, "{}: {}", path.display(), e.problem)
            }
            MpcFileError::Table(path, e) => {
                write!(f, "{}:{}: {}", path.display(), e.line, e.problem)
            }
        }
    }
}

impl std::error::Error for MpcFileError {}

/// The text of the table built into the binary (`mpc.txt`).
pub const BUILT_IN_TEXT: &str = include_str!("mpc.txt");

/// The table built into the binary.
pub static BUILT_IN: Lazy<Arc<MpcTable>> = Lazy::new(|| {
    // The embedded text is checked by a test; a broken one is a build defect, not input.
    Arc::new(MpcTable::parse(BUILT_IN_TEXT).unwrap_or_else(|e| panic!("built-in mpc.txt: {e}")))
});

impl MpcTable {
    /// The table of a model and rows (rows with too few samples are left to the model).
    pub fn new(model: SigmaModel, rows: &[Row]) -> MpcTable {
        let mut fits = Vec::with_capacity(SIZE * SIZE);
        for empties in 0..SIZE {
            for depth in 0..SIZE {
                let sigma = model_sigma(&model, empties as u32, depth as u32);
                fits.push(Fit {
                    a: 1.0,
                    b: 0.0,
                    sigma: sigma.max(MIN_SIGMA),
                });
            }
        }
        for row in rows.iter().filter(|r| r.samples >= MIN_ROW_SAMPLES) {
            for e in row.empties_lo..=row.empties_hi.min(SIZE as u32 - 1) {
                if row.depth < SIZE as u32 && row.shallow == shallow_depth(row.depth) {
                    fits[e as usize * SIZE + row.depth as usize] = Fit {
                        sigma: row.fit.sigma.max(MIN_SIGMA),
                        ..row.fit
                    };
                }
            }
        }
        MpcTable { fits }
    }

    /// The prediction for a node at `empties` empty squares searched `depth` plies deep.
    #[inline]
    pub fn fit(&self, empties: u32, depth: u32) -> Fit {
        let (e, d) = (
            (empties as usize).min(SIZE - 1),
            (depth as usize).min(SIZE - 1),
        );
        self.fits[e * SIZE + d]
    }

    /// Reads a table file (the format of [`MpcTable::parse`]); errors name the file and line.
    pub fn load(path: &Path) -> Result<MpcTable, MpcFileError> {
        // A table is a few kilobytes; 1 MB leaves room for comments and refuses a wrong file
        // (a FIFO, a data file) before it is read.
        let text = crate::files::read_regular(path, 1 << 20)
            .map_err(|e| MpcFileError::Io(path.to_path_buf(), e))?;
        let text = String::from_utf8(text).map_err(|_| {
            MpcFileError::Table(
                path.to_path_buf(),
                MpcTableError {
                    line: 0,
                    problem: MpcProblem::NotText,
                },
            )
        })?;
        MpcTable::parse(&text).map_err(|e| MpcFileError::Table(path.to_path_buf(), e))
    }

    /// Reads a table in the format [`format_table`] writes: `model c0 c1 c2 c3` once, then `row
    /// <empties lo> <empties hi> <depth> <shallow> <a> <b> <sigma> <samples>` lines; `#` starts a
    /// comment.
    pub fn parse(text: &str) -> Result<MpcTable, MpcTableError> {
        // A byte-order mark, as some editors write, is not part of the first line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut model = None;
        let mut rows = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let err = |problem| MpcTableError {
                line: i + 1,
                problem,
            };
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let kind = words.next().unwrap_or("");
            let numbers: Vec<f64> = words
                .map(|w| {
                    w.parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| err(MpcProblem::NotANumber(Excerpt(w).to_string())))
                })
                .collect::<Result<_, _>>()?;
            match (kind, numbers.len()) {
                ("model", 4) => {
                    if model.is_some() {
                        return Err(err(MpcProblem::SecondModel));
                    }
                    let m = [numbers[0], numbers[1], numbers[2], numbers[3]];
                    if !plausible_model(&m) {
                        return Err(err(MpcProblem::BadModel));
                    }
                    model = Some(m);
                }
                ("row", 8) => {
                    let whole = |x: f64| {
                        ((0.0..=60.0).contains(&x) && x.fract() == 0.0).then_some(x as u32)
                    };
                    let fields = (
                        whole(numbers[0]),
                        whole(numbers[1]),
                        whole(numbers[2]),
                        whole(numbers[3]),
                    );
                    let (Some(lo), Some(hi), Some(depth), Some(shallow)) = fields else {
                        return Err(err(MpcProblem::NotWhole));
                    };
                    let fit = Fit {
                        a: numbers[4],
                        b: numbers[5],
                        sigma: numbers[6],
                    };
                    let samples = numbers[7];
                    if lo > hi
                        || depth == 0
                        || shallow >= depth
                        || !fit.plausible()
                        || samples < 0.0
                        || samples.fract() != 0.0
                    {
                        return Err(err(MpcProblem::BadRow));
                    }
                    rows.push(Row {
                        empties_lo: lo,
                        empties_hi: hi,
                        depth,
                        shallow,
                        fit,
                        samples: samples as u32,
                    });
                }
                _ => return Err(err(MpcProblem::Unknown(Excerpt(line).to_string()))),
            }
        }
        let model = model.ok_or(MpcTableError {
            line: 0,
            problem: MpcProblem::NoModel,
        })?;
        Ok(MpcTable::new(model, &rows))
    }
}

/// The text of a table: a header of `#` comments (`header`, one per line), the model and the rows.
pub fn format_table(header: &[String], model: SigmaModel, rows: &[Row]) -> String {
    let mut out = String::new();
    for h in header {
        out.push_str(&format!("# {h}\n"));
    }
    out.push_str("# sigma = c0 + c1 * empties + c2 * depth + c3 * shallow (centidiscs)\n");
    out.push_str(&format!(
        "model {:.3} {:.4} {:.4} {:.4}\n",
        model[0], model[1], model[2], model[3]
    ));
    out.push_str("# row empties_lo empties_hi depth shallow a b sigma samples\n");
    for r in rows {
        out.push_str(&format!(
            "row {} {} {} {} {:.4} {:.1} {:.1} {}\n",
            r.empties_lo,
            r.empties_hi,
            r.depth,
            r.shallow,
            r.fit.a,
            r.fit.b,
            r.fit.sigma,
            r.samples
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_file_with_a_second_model_or_a_model_or_row_beyond_any_fit_is_refused() {
        let good = "model 300 -5 20 -30\nrow 12 19 3 1 0.9 -1 300 241\n";
        assert!(MpcTable::parse(good).is_ok());
        for (text, line) in [
            ("model 300 -5 20 -30\nmodel 1 2 3 4\n", 2),
            ("model 300 -5 20 -30\nrow 12 19 3 1 9 -1 300 241\n", 2),
            ("model 300 -5 20 -30\nrow 12 19 3 1 0.9 -90000 300 241\n", 2),
            (
                "model 300 -5 20 -30\n# c\nrow 12 19 3 1 0.9 -1 300 2.5\n",
                3,
            ),
            ("model 300 -5 20 -30\nrow 12 19 3 1 0.9 -1 300 -4\n", 2),
            ("row 12 19 3 1 0.9 -1 300 241\n", 0),
            // A model that would forbid every cut, or give every cut the floor's deviation.
            ("model 1e300 0 0 0\n", 1),
            ("# c\nmodel 300 0 200 0\n", 2),
            ("model -1000000 0 0 0\n", 1),
        ] {
            let e = MpcTable::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }

    #[test]
    fn shallow_depths_keep_parity_and_stay_below() {
        for d in MIN_DEPTH..=60 {
            let s = shallow_depth(d);
            assert_eq!(s % 2, d % 2, "depth {d}");
            assert!(s < d && s * 4 >= d, "depth {d}: shallow {s}");
        }
    }

    #[test]
    fn the_built_in_table_reads_and_gives_sane_deviations() {
        let t = &*BUILT_IN;
        for e in 10..=60 {
            for d in MIN_DEPTH..=30 {
                let f = t.fit(e, d);
                assert!(f.a > 0.5 && f.a < 1.5, "a {} at {e}/{d}", f.a);
                assert!(
                    f.sigma >= MIN_SIGMA && f.sigma < 2000.0,
                    "sigma {}",
                    f.sigma
                );
            }
        }
    }

    #[test]
    fn rows_override_the_model_and_round_trip_through_text() {
        let rows = [Row {
            empties_lo: 20,
            empties_hi: 29,
            depth: 8,
            shallow: 4,
            fit: Fit {
                a: 0.9,
                b: 12.0,
                sigma: 250.0,
            },
            samples: 500,
        }];
        let model = [100.0, 2.0, 10.0, -5.0];
        let text = format_table(&["test".into()], model, &rows);
        let t = MpcTable::parse(&text).unwrap();
        assert_eq!(t.fit(25, 8), rows[0].fit);
        // Outside the row: the model, a = 1, b = 0.
        let f = t.fit(30, 8);
        assert_eq!((f.a, f.b), (1.0, 0.0));
        assert!((f.sigma - (100.0 + 60.0 + 80.0 - 20.0)).abs() < 1e-9);
    }

    #[test]
    fn bad_lines_name_their_number() {
        let e = MpcTable::parse("model 1 2 3 4\nrow 1 2 x 4 5 6 7 8\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("'x' is not a number"));
        assert_eq!(
            MpcTable::parse("row 1 2 3 1 1 0 100 100\n").unwrap_err(),
            MpcTableError {
                line: 0,
                problem: MpcProblem::NoModel
            }
        );
        assert!(MpcTable::parse("model 1 2 3 4\nrow 30 20 8 4 1 0 100 100\n").is_err());
        // A huge word or line is quoted shortened, so an error line stays short.
        let long = "9".repeat(100_000);
        for text in [
            format!("model 1 2 3 x{long}\n"),
            format!("model {long} 1\n"),
        ] {
            let e = MpcTable::parse(&text).unwrap_err().to_string();
            assert!(e.len() < 300, "{} bytes", e.len());
        }
    }
}
