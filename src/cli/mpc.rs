//! `wedge mpc fit`: the midgame search's Multi-ProbCut table from positions of self-play games
//! (docs/search.md shows the command that made the built-in table).

use super::{progress_reporter, search_threads};
use std::path::PathBuf;
use wedge::search::midgame::probcut;
use wedge::tools::mpc;

/// `wedge mpc` actions.
#[derive(clap::Subcommand)]
pub enum MpcAction {
    /// Search positions full width at every depth up to `--depth` and fit the table.
    Fit(FitArgs),
}

/// The arguments of `wedge mpc fit`.
#[derive(clap::Args)]
pub struct FitArgs {
    /// Data files of `wedge datagen` (their positions are used, not their labels).
    #[arg(long = "data")]
    pub data: Vec<PathBuf>,
    /// Values measured before (`--scores-out` of an earlier run) instead of searching.
    #[arg(long, conflicts_with = "data")]
    pub scores: Option<PathBuf>,
    /// Where to write the table (the format of src/search/midgame/mpc.txt).
    #[arg(long)]
    pub out: PathBuf,
    /// Also write the measured values here (not with --scores, which reads them).
    #[arg(long, conflicts_with = "scores")]
    pub scores_out: Option<PathBuf>,
    /// Deepest search (1 to 56: positions need two empties more).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=56), conflicts_with = "scores")]
    pub depth: u32,
    /// Positions drawn from the data (at `depth + 2` to 58 empties), 1 to 10,000,000.
    #[arg(long, default_value_t = 1000, value_parser = super::game_count, conflicts_with = "scores")]
    pub positions: usize,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1, conflicts_with = "scores")]
    pub seed: u64,
    /// Search with this evaluation file (as `EvalFile` loads it) instead of the built-in one: the
    /// table for that evaluation, to play with `MpcFile` beside it.
    #[arg(long, conflicts_with = "scores")]
    pub eval_file: Option<PathBuf>,
    /// Positions searched at once, 1 to 256.
    #[arg(long, value_parser = search_threads, default_value_t = 1, conflicts_with = "scores")]
    pub jobs: usize,
}

/// Runs `wedge mpc ...`.
pub fn run(action: MpcAction) -> Result<(), String> {
    let MpcAction::Fit(args) = action;
    let mut outputs = vec![("--out", args.out.as_path())];
    outputs.extend(args.scores_out.as_deref().map(|p| ("--scores-out", p)));
    let inputs = args
        .data
        .iter()
        .chain(&args.scores)
        .chain(&args.eval_file)
        .map(|p| p.as_path());
    super::check_outputs("mpc fit", &outputs, inputs)?;
    let data = match &args.scores {
        Some(path) => mpc::read_scores(path).map_err(|e| e.to_string())?,
        None => {
            if args.data.is_empty() {
                return Err(
                    "give --data FILE (positions) or --scores FILE (measured values)".into(),
                );
            }
            let eval = match &args.eval_file {
                Some(path) => super::load_evaluator(path)?,
                None => wedge::eval::Evaluator::default(),
            };
            let mut boards = Vec::new();
            for path in &args.data {
                let file =
                    wedge::tools::train::read_sample_file(path).map_err(|e| e.to_string())?;
                if file.torn_bytes > 0 {
                    eprintln!("{}", super::data::torn_warning(path, file.torn_bytes));
                }
                let samples = file.samples;
                boards.extend(
                    samples
                        .iter()
                        .map(|s| s.board.canonical().0)
                        .filter(|b| (args.depth + 2..=58).contains(&b.empty_count())),
                );
            }
            // Canonical forms, deduplicated, in a seeded order.
            boards.sort_by_key(|b| (b.player(), b.opponent()));
            boards.dedup();
            let mut rng = wedge::rng::Rng::new(args.seed);
            rng.shuffle(&mut boards);
            boards.truncate(args.positions);
            if boards.is_empty() {
                return Err("no positions with enough empty squares in the data".into());
            }
            let measured = mpc::measure(
                &eval,
                &boards,
                args.depth,
                args.jobs,
                &progress_reporter("positions"),
            )
            .map_err(|e| e.to_string())?;
            if let Some(path) = &args.scores_out {
                super::write_atomically(path, mpc::format_scores(&measured))?;
            }
            measured
        }
    };
    let (model, rows) = mpc::fit(&data);
    let from = args
        .scores
        .as_ref()
        .map_or_else(String::new, |p| format!("{}: ", p.display()));
    let model = match model {
        Some(m) if rows.len() >= 4 => m,
        _ => {
            return Err(format!(
                "{from}{} rows could be fitted, too few or too alike to fit the model of sigma \
                 (it needs rows of several depths and shallow depths, as --depth 6 or more \
                 gives): give more positions or a greater --depth",
                rows.len()
            ))
        }
    };
    // As given, whatever bytes the arguments hold (a path need not be UTF-8).
    let command: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let header = vec![
        "wedge Multi-ProbCut table (src/search/midgame/probcut.rs reads it)".to_string(),
        format!("made by: wedge {}", command.join(" ")),
        format!("from {} positions", data.len()),
    ];
    super::write_atomically(&args.out, probcut::format_table(&header, model, &rows))?;
    outln!("depth shallow empties      a       b   sigma  samples");
    for r in &rows {
        outln!(
            "{:5} {:7} {:>2}-{:<2}  {:7.3} {:7.1} {:7.1} {:8}",
            r.depth,
            r.shallow,
            r.empties_lo,
            r.empties_hi,
            r.fit.a,
            r.fit.b,
            r.fit.sigma,
            r.samples
        );
    }
    outln!(
        "model: sigma = {:.1} + {:.2} * empties + {:.2} * depth + {:.2} * shallow",
        model[0],
        model[1],
        model[2],
        model[3]
    );
    Ok(())
}
