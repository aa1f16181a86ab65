//! `wedge analyze`: every move of every game of the files scored against the best move, each
//! side's losses and errors, as a table on stdout, a JSON document and an SVG graph per game.
//! Each game's results are written as soon as it is done, so Ctrl-C leaves the finished ones.

use super::{hash_mb, thread_count};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wedge::protocol::play::counted;
use wedge::tools::analyze::{self, input, svg, Analysts, GameReport, Settings, Thresholds};

/// The arguments of `wedge analyze`.
#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// Game files: GGF (one or many games), transcripts (one game a line) or WTHOR (`.wtb`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Search depth of the positions before the exact part.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Seconds per position instead of a depth (the results then depend on the machine).
    #[arg(long, conflicts_with = "depth", value_parser = seconds)]
    pub time: Option<f64>,
    /// Positions with at most this many empty squares are solved exactly.
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact: u32,
    /// Selectivity of the searches, percent (73, 87, 95, 98, 99; 100: full width).
    #[arg(long, default_value_t = 73, value_parser = super::selectivity_percent)]
    pub selectivity: u8,
    /// Positions analysed at once (each with its own table).
    #[arg(long, value_parser = thread_count)]
    pub jobs: Option<usize>,
    /// Table size per job, in MB.
    #[arg(long, value_parser = hash_mb, default_value_t = 64)]
    pub hash: usize,
    /// A loss of at least this many discs is an inaccuracy (?!).
    #[arg(long, default_value_t = 2.0, value_parser = discs)]
    pub inaccuracy: f64,
    /// A loss of at least this many discs is a mistake (?).
    #[arg(long, default_value_t = 4.0, value_parser = discs)]
    pub mistake: f64,
    /// A loss of at least this many discs is a blunder (??).
    #[arg(long, default_value_t = 8.0, value_parser = discs)]
    pub blunder: f64,
    /// Write the whole analysis as JSON (schema in docs/analyze.md).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Draw each game's evaluation graph as SVG: this file for one game; for several, numbered
    /// files beside it (`graph.svg`: `graph-1.svg`, `graph-2.svg`, ...).
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("'{text}': seconds above 0, at most 3600")),
    }
}

fn discs(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(d) if (0.0..=128.0).contains(&d) => Ok(d),
        _ => Err(format!("'{text}': discs from 0 to 128")),
    }
}

/// The exit status when Ctrl-C stopped the analysis (the games finished before it are written).
pub const INTERRUPTED_STATUS: u8 = 130;

/// The JSON document: the settings and every game finished.
#[derive(serde::Serialize)]
struct Document<'a> {
    wedge: &'static str,
    settings: &'a Settings,
    games: &'a [GameReport],
}

/// Analyses the files' games; returns the exit status (0, or [`INTERRUPTED_STATUS`]).
pub fn run(args: AnalyzeArgs) -> Result<u8, String> {
    if !(args.inaccuracy <= args.mistake && args.mistake <= args.blunder) {
        return Err("analyze: need --inaccuracy <= --mistake <= --blunder".into());
    }
    let settings = Settings {
        depth: args.depth,
        time: args.time.map(Duration::from_secs_f64),
        exact_empties: args.exact,
        selectivity: args.selectivity,
        thresholds: Thresholds {
            inaccuracy: args.inaccuracy,
            mistake: args.mistake,
            blunder: args.blunder,
        },
    };
    let mut games = Vec::new();
    for path in &args.files {
        let read = input::read_games(path).map_err(|e| e.to_string())?;
        if read.is_empty() {
            return Err(format!("analyze: {}: no game in it", path.display()));
        }
        games.extend(read);
    }
    // Several games get a graph each, numbered: every one of those files is checked.
    let mut named: Vec<(String, PathBuf)> = args
        .json
        .iter()
        .map(|p| ("--json".into(), p.clone()))
        .collect();
    if let Some(svg) = &args.svg {
        if games.len() > 1 {
            named
                .extend((1..=games.len()).map(|n| (format!("--svg (game {n})"), numbered(svg, n))));
        } else {
            named.push(("--svg".into(), svg.clone()));
        }
    }
    let outputs: Vec<(&str, &Path)> = named
        .iter()
        .map(|(f, p)| (f.as_str(), p.as_path()))
        .collect();
    super::check_outputs("analyze", &outputs, args.files.iter().map(|p| p.as_path()))?;
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let mut analysts = Analysts::new(jobs, args.hash).map_err(|e| format!("analyze: {e}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 1, stop.clone());
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    let total: usize = games.iter().map(|g| Analysts::positions(&g.game)).sum();
    let progress = super::progress_reporter("positions");
    let done_before = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let mut reports: Vec<GameReport> = Vec::new();
    let several = games.len() > 1;
    for named in &games {
        let base = done_before.load(std::sync::atomic::Ordering::Relaxed);
        let report = analysts.analyze(named, &settings, &stop, &|done, _| {
            progress(base + done, total)
        });
        let report = match report {
            Ok(r) => r,
            Err(analyze::AnalyzeError::Interrupted) => {
                eprintln!(
                    "analyze: interrupted; {} of {} games analysed and written",
                    reports.len(),
                    games.len()
                );
                return Ok(INTERRUPTED_STATUS);
            }
            Err(e) => return Err(format!("analyze: {e}")),
        };
        done_before.fetch_add(
            Analysts::positions(&named.game),
            std::sync::atomic::Ordering::Relaxed,
        );
        // The files first: they are what a failed write to standard output must not cost.
        if let Some(path) = &args.svg {
            let path = if several {
                numbered(path, reports.len() + 1)
            } else {
                path.clone()
            };
            super::write_atomically(&path, svg::graph(&report))?;
        }
        reports.push(report);
        if let Some(path) = &args.json {
            let doc = Document {
                wedge: wedge::build_info::VERSION,
                settings: &settings,
                games: &reports,
            };
            super::write_json(path, &doc)?;
        }
        if let Some(report) = reports.last() {
            out!("{}", table(report));
        }
    }
    eprintln!(
        "analyze: {}, {} in {:.1} s",
        counted(reports.len(), "game", "games"),
        counted(total, "position", "positions"),
        started.elapsed().as_secs_f64()
    );
    Ok(0)
}

/// `graph.svg` -> `graph-3.svg`.
fn numbered(path: &Path, n: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

/// The readable table of one game.
fn table(r: &GameReport) -> String {
    let mut s = format!("{}: {} (black) vs {} (white)", r.source, r.black, r.white);
    match r.result {
        Some(d) if r.ended_early => s.push_str(&format!(
            ", result {d:+} (as recorded: it ended before its moves did)\n"
        )),
        Some(d) => s.push_str(&format!(", result {d:+}\n")),
        None => s.push_str(", unfinished\n"),
    }
    s.push_str("  #  side   move  best   best  played   loss  search\n");
    for m in &r.moves {
        s.push_str(&format!(
            "{:>3}  {:<5}  {:<4}  {:<4} {:>+6.1}  {:>+6.1}  {:>5.1}  {:<6} {}\n",
            m.number,
            m.colour,
            m.played,
            m.best,
            m.best_score,
            m.played_score,
            m.loss,
            if m.exact {
                "exact".to_string()
            } else {
                format!("d{}", m.depth)
            },
            m.mark.map_or("", |k| k.symbol())
        ));
    }
    for (side, sum) in [("black", &r.black_summary), ("white", &r.white_summary)] {
        s.push_str(&format!(
            "{side}: {}, loss {:.1} ({:.2} a move), {}, {}, {}",
            counted(sum.moves, "move", "moves"),
            sum.total_loss,
            sum.mean_loss,
            counted(sum.blunders, "blunder", "blunders"),
            counted(sum.mistakes, "mistake", "mistakes"),
            counted(sum.inaccuracies, "inaccuracy", "inaccuracies")
        ));
        if let Some((n, mv, loss)) = &sum.biggest {
            s.push_str(&format!("; biggest {n}. {mv} ({loss:.1})"));
        }
        s.push('\n');
    }
    s.push('\n');
    s
}
