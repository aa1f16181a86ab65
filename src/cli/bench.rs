//! `wedge bench`: the fixed positions searched to a fixed depth; the node count is the search's
//! fingerprint (`Bench:` in commits).

use super::hash_mb;
use wedge::tools::bench;

/// The arguments of `wedge bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth, 1 to 60.
    #[arg(long, default_value_t = wedge::tools::bench::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Confidence of the midgame search's Multi-ProbCut, percent (73, 87, 95, 98, 99; 100: full
    /// width); the default is the engine's `Selectivity`.
    #[arg(long, default_value_t = wedge::search::selectivity::DEFAULT_PERCENT,
          value_parser = super::selectivity_percent)]
    pub selectivity: u8,
    /// Hash table size in MB.
    #[arg(long, value_parser = hash_mb, default_value_t = 64)]
    pub hash: usize,
    /// Search threads (the engine's `Threads`); node counts are the fingerprint with 1 only.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Also write the figures as JSON to this file (docs/formats.md, "JSON reports").
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
    /// Search with this evaluation file (as `EvalFile` loads it) instead of the built-in one:
    /// its node count and speed.
    #[arg(long)]
    pub eval_file: Option<std::path::PathBuf>,
    /// Search with this Multi-ProbCut table (as `MpcFile` loads it; `wedge mpc fit` writes one)
    /// instead of the built-in one.
    #[arg(long)]
    pub mpc_file: Option<std::path::PathBuf>,
}

/// Searches every bench position, printing a line each, then the totals.
pub fn run(args: BenchArgs) -> Result<(), String> {
    let (depth, hash) = (args.depth, args.hash);
    if let Some(path) = &args.json {
        let inputs = args.eval_file.iter().chain(&args.mpc_file);
        super::check_outputs("bench", &[("--json", path)], inputs.map(|p| p.as_path()))?;
    }
    let evaluator = match &args.eval_file {
        Some(path) => super::load_evaluator(path)?,
        None => wedge::eval::Evaluator::default(),
    };
    let mpc = match &args.mpc_file {
        Some(path) => std::sync::Arc::new(
            wedge::search::midgame::probcut::MpcTable::load(path)
                .map_err(|e| format!("--mpc-file: {e}"))?,
        ),
        None => wedge::search::midgame::probcut::BUILT_IN.clone(),
    };
    let mut i = 0;
    let never = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let lines = bench::run(
        &evaluator,
        &mpc,
        depth,
        wedge::search::selectivity::level_for_percent(args.selectivity),
        hash,
        args.threads as usize,
        never,
        |line: &bench::BenchLine| {
            i += 1;
            outln!(
                "position {:>2}: {:>11} nodes {:>8} ms  {}",
                i,
                line.nodes,
                line.time.as_millis(),
                line.position
            );
        },
    )
    .map_err(|e| format!("bench: {e}"))?;
    out!("{}", bench::summary(&lines));
    if let Some(path) = &args.json {
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        let secs: f64 = lines.iter().map(|l| l.time.as_secs_f64()).sum();
        let doc = serde_json::json!({
            "wedge": wedge::build_info::VERSION,
            "commit": wedge::build_info::COMMIT,
            "depth": depth,
            "selectivity": args.selectivity,
            "threads": args.threads,
            "hash_mb": hash,
            // The files searched with (null: the built-in ones), so that a result is not taken
            // for the fingerprint.
            "eval_file": args.eval_file.as_ref().map(|p| p.display().to_string()),
            "mpc_file": args.mpc_file.as_ref().map(|p| p.display().to_string()),
            "positions": lines.iter().enumerate().map(|(i, l)| serde_json::json!({
                "number": i + 1,
                "position": l.position.to_string(),
                "nodes": l.nodes,
                "seconds": l.time.as_secs_f64(),
            })).collect::<Vec<_>>(),
            "nodes": nodes,
            "seconds": secs,
            "nodes_per_second": (nodes as f64 / secs.max(1e-9)).round(),
        });
        super::write_json(path, &doc)?;
    }
    Ok(())
}
