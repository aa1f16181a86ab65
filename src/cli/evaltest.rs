//! `wedge evaltest`: measures evaluations (the hand one, the built-in one, a file, a search of a
//! given depth) against the labels of data files, by empties count, by the size of the score and
//! by file ([docs/training.md](../../docs/training.md#measuring-wedge-evaltest)).

use super::training::read_all_samples;
use super::{load_evaluator, progress_reporter};
use std::path::{Path, PathBuf};
use wedge::eval::weights::Weights;

/// The arguments of `wedge evaltest`.
#[derive(clap::Args)]
pub struct EvalTestArgs {
    /// Data files (the `wedge datagen` format).
    #[arg(long = "data", required = true)]
    pub data: Vec<PathBuf>,
    /// Also measure this weights file (tables, a pattern network or named weights).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Also measure a search of this depth (from an empty table, with the `--eval-file`
    /// evaluation if given, else the built-in one): how far labels of that depth lie from the
    /// data's (1 to 30).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: Option<u32>,
    /// Selectivity of that search, percent as the `Selectivity` option: 73, 87, 95, 98, 99 or
    /// 100 (full width).
    #[arg(long, default_value_t = 73, value_parser = super::selectivity_percent, requires = "depth")]
    pub selectivity: u8,
}

/// Prints the evaluations' mean absolute error against the data's labels, by empty squares.
pub fn evaltest(args: EvalTestArgs) -> Result<(), String> {
    run_eval_test(
        &args.data,
        args.eval_file.as_deref(),
        args.depth.map(|d| {
            (
                d,
                wedge::search::selectivity::level_for_percent(args.selectivity),
            )
        }),
    )
}

fn run_eval_test(
    data: &[PathBuf],
    eval_file: Option<&Path>,
    search: Option<(u32, u8)>,
) -> Result<(), String> {
    use wedge::eval::Evaluator;
    use wedge::tools::train::EmptiesErrors;
    // Read file by file, so that each file's positions can be measured apart too.
    let mut samples = Vec::new();
    let mut files = Vec::new();
    for path in data {
        let start = samples.len();
        samples.extend(read_all_samples(std::slice::from_ref(path))?);
        files.push((path.display().to_string(), start..samples.len()));
    }
    let mut evaluators = vec![
        ("hand", Evaluator::new(Weights::default())),
        ("trained", Evaluator::default()),
    ];
    if let Some(path) = eval_file {
        evaluators.push(("file", load_evaluator(path)?));
    }
    // Each evaluation's prediction of each sample (a search may give none: a proof without a
    // disc count).
    let mut predictions: Vec<Vec<Option<f64>>> = evaluators
        .iter()
        .map(|(_, e)| {
            samples
                .iter()
                .map(|s| Some(f64::from(e.evaluate(s.board)) / 100.0))
                .collect()
        })
        .collect();
    let mut names: Vec<String> = evaluators
        .iter()
        .map(|(name, _)| name.to_string())
        .collect();
    if let Some((depth, level)) = search {
        // The last evaluation listed: the file's if given, else the built-in one.
        let eval = evaluators.pop().map(|(_, e)| e).unwrap_or_default();
        predictions.push(search_predictions(&samples, eval, depth, level));
        names.push(format!("depth {depth}"));
    }
    let pairs_in = |p: &Vec<Option<f64>>, part: std::ops::Range<usize>| {
        samples[part.clone()]
            .iter()
            .zip(p[part].iter())
            .filter_map(|(s, v)| v.map(|v| (s, v)))
            .collect::<Vec<_>>()
    };
    let pairs = |p: &Vec<Option<f64>>| pairs_in(p, 0..samples.len());
    let by_empties: Vec<EmptiesErrors> = predictions
        .iter()
        .map(|p| EmptiesErrors::measure_pairs(pairs(p)))
        .collect();
    let by_score: Vec<EmptiesErrors> = predictions
        .iter()
        .map(|p| EmptiesErrors::measure_pairs_by_score(pairs(p)))
        .collect();
    outln!(
        "mean absolute error (discs) against the labels, by empty squares, and the last one's \
         mean signed error (bias: positive where it scores too high for the side to move):"
    );
    // Up to 64: a data file may hold boards of fewer than 4 discs, which no game reaches.
    let mut rows: Vec<(String, u32, u32)> = (0..=64)
        .filter(|&n| by_empties[0].count(n, n) > 0)
        .map(|n| (n.to_string(), n, n))
        .collect();
    rows.push(("all".to_string(), 0, 64));
    print_errors("empties", &names, &by_empties, &rows);
    outln!();
    outln!("the same by the size of the label (|score| in discs): close, clear and lopsided positions:");
    let bands = [
        ("0-5", 0, 5),
        ("6-11", 6, 11),
        ("12-19", 12, 19),
        ("20-29", 20, 29),
        ("30-64", 30, 64),
    ];
    let rows: Vec<(String, u32, u32)> = bands
        .iter()
        .filter(|&&(_, lo, hi)| by_score[0].count(lo, hi) > 0)
        .map(|&(label, lo, hi)| (label.to_string(), lo, hi))
        .collect();
    print_errors("|score|", &names, &by_score, &rows);
    if files.len() > 1 {
        outln!();
        outln!("the same by file:");
        let mut header = format!("{:>9}", "positions");
        for name in &names {
            header.push_str(&format!(" {name:>8}"));
        }
        outln!("{header} {:>8}  file", "bias");
        for (name, part) in &files {
            let errors: Vec<EmptiesErrors> = predictions
                .iter()
                .map(|p| EmptiesErrors::measure_pairs(pairs_in(p, part.clone())))
                .collect();
            outln!("{}  {name}", error_columns(&errors, 0, 64));
        }
    }
    Ok(())
}

/// One table of errors: a row per range of the key, a column per evaluation, the last one's bias.
fn print_errors(
    key: &str,
    names: &[String],
    errors: &[wedge::tools::train::EmptiesErrors],
    rows: &[(String, u32, u32)],
) {
    let mut header = format!("{key:>7} {:>9}", "positions");
    for name in names {
        header.push_str(&format!(" {name:>8}"));
    }
    header.push_str(&format!(" {:>8}", "bias"));
    outln!("{header}");
    for (label, lo, hi) in rows {
        outln!("{label:>7} {}", error_columns(errors, *lo, *hi));
    }
}

/// A row's columns: the positions in `lo..=hi`, each evaluation's error there and the last one's
/// bias.
fn error_columns(errors: &[wedge::tools::train::EmptiesErrors], lo: u32, hi: u32) -> String {
    let mut line = format!("{:>9}", errors[0].count(lo, hi));
    for e in errors {
        match e.mae(lo, hi) {
            Some(mae) => line.push_str(&format!(" {mae:>8.2}")),
            None => line.push_str(&format!(" {:>8}", "-")),
        }
    }
    match errors.last().and_then(|e| e.bias(lo, hi)) {
        Some(bias) => line.push_str(&format!(" {bias:>+8.2}")),
        None => line.push_str(&format!(" {:>8}", "-")),
    }
    line
}

/// The values of depth-`depth` searches at selectivity level `level` (each from an empty table,
/// as datagen labels) of the samples; `None` for a search that proves a win, loss or draw without
/// a disc count.
fn search_predictions(
    samples: &[wedge::tools::train::Sample],
    eval: wedge::eval::Evaluator,
    depth: u32,
    level: u8,
) -> Vec<Option<f64>> {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use wedge::search::Searcher;
    use wedge::tools::train::search_label;
    let mut searcher = Searcher::new(16, eval);
    let stop = Arc::new(AtomicBool::new(false));
    let report = progress_reporter("searched");
    samples
        .iter()
        .enumerate()
        .map(|(i, sample)| {
            report(i + 1, samples.len());
            // A cleared table: each search depends on its position alone, whatever the order.
            searcher.clear();
            search_label(sample.board, depth, level, &mut searcher, &stop)
                .map(|(value, _)| f64::from(value))
        })
        .collect()
}
