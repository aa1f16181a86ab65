//! `wedge solve`: solves every position of an OBF file exactly (or win/loss/draw) and checks the
//! scores the file gives.

use super::{hash_mb, load_evaluator, search_threads};
use std::path::{Path, PathBuf};
use std::time::Instant;
use wedge::board::text::read_obf_file;
use wedge::tools::solve;

/// The arguments of `wedge solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The OBF file (one position a line, with `MOVE:score` items).
    pub file: PathBuf,
    /// Solve for win/loss/draw only.
    #[arg(long)]
    pub wld: bool,
    /// Search threads per position, 1 to 256 as the engine's Threads option (they share one
    /// table).
    #[arg(long, value_parser = search_threads, default_value_t = 1)]
    pub threads: usize,
    /// Positions solved at once, 1 to 256 (each with its own threads and table).
    #[arg(long, value_parser = search_threads, default_value_t = 1)]
    pub jobs: usize,
    /// Transposition table size per position being solved, in MB.
    #[arg(long, value_parser = hash_mb, default_value_t = 256)]
    pub hash: usize,
    /// Number of the first position in the file (e.g. 40 for fforum-40-59.obf; at most
    /// 1,000,000,000).
    #[arg(long, default_value_t = 1, value_parser = first_number)]
    pub first: usize,
    /// Order moves with this weights file (tables, a pattern network or named weights) instead
    /// of the built-in tables.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Also write each position's result and the totals as JSON to this file (docs/formats.md,
    /// "JSON reports"), mismatches included.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Solves the file's positions, printing a row each and the totals; a score that disagrees with
/// the file is an error.
pub fn run(args: SolveArgs) -> Result<(), String> {
    let options = |eval| solve::SolveOptions {
        wld: args.wld,
        threads: args.threads,
        jobs: args.jobs,
        hash_mb: args.hash,
        eval,
    };
    if let Some(path) = &args.json {
        let inputs = [Some(args.file.as_path()), args.eval_file.as_deref()];
        super::check_outputs("solve", &[("--json", path)], inputs.into_iter().flatten())?;
    }
    solve_file(
        &args.file,
        args.first,
        args.eval_file.as_deref(),
        args.json.as_deref(),
        options,
    )
}

fn solve_file(
    file: &Path,
    first: usize,
    eval_file: Option<&Path>,
    json: Option<&Path>,
    options: impl FnOnce(wedge::eval::Evaluator) -> solve::SolveOptions,
) -> Result<(), String> {
    let lines = read_obf_file(file).map_err(|e| e.to_string())?;
    if lines.is_empty() {
        return Err(format!("{}: no positions in this file", file.display()));
    }
    let eval = match eval_file {
        Some(path) => load_evaluator(path)?,
        None => wedge::eval::Evaluator::default(),
    };
    let options = options(eval);
    let (wld, threads) = (options.wld, options.threads);
    let start = Instant::now();
    outln!("{}", solve::HEADER);
    let results = solve::solve_all(&lines, &options, |i, r| {
        outln!("{}", solve::row(first + i, r));
    })
    .map_err(|e| format!("solve: {e}"))?;
    let wall = start.elapsed();
    outln!("{}", solve::totals(&results, wall));
    let bad = results.iter().filter(|r| !r.ok).count();
    if let Some(path) = json {
        let nodes: u64 = results.iter().map(|r| r.nodes).sum();
        let secs = results.iter().fold(0.0, |t, r| t + r.time.as_secs_f64());
        let doc = serde_json::json!({
            "wedge": wedge::build_info::VERSION,
            "commit": wedge::build_info::COMMIT,
            "file": file.display().to_string(),
            "wld": wld,
            "threads": threads,
            "positions": results.iter().enumerate().map(|(i, r)| serde_json::json!({
                "number": first + i,
                "empties": r.empties,
                "best_move": r.best_move.map(|m| m.to_string()),
                "score": r.score,
                "expected": r.expected,
                "ok": r.ok,
                "nodes": r.nodes,
                "seconds": r.time.as_secs_f64(),
            })).collect::<Vec<_>>(),
            "mismatches": bad,
            "nodes": nodes,
            "seconds": secs,
            "wall_seconds": wall.as_secs_f64(),
            "nodes_per_second": (nodes as f64 / secs.max(1e-9)).round(),
        });
        super::write_json(path, &doc)?;
    }
    if bad > 0 {
        return Err(format!(
            "{bad} position(s) disagree with {}",
            file.display()
        ));
    }
    Ok(())
}

/// The number of a file's first position: 0 to a billion, so that numbering a file's positions
/// from it cannot overflow.
fn first_number(text: &str) -> Result<usize, String> {
    super::bounded_count(text, 0, 1_000_000_000)
}
