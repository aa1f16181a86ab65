//! `wedge tune`: SPSA over an engine's spin options ([docs/tuning.md](../../docs/tuning.md)).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use wedge::tools::arena::{self, player::EngineSpec};
use wedge::tools::tune::{self, Param, TuneConfig, TuneState};

/// The arguments of `wedge tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The engine, as `wedge match` takes it: "name=NAME cmd=PROGRAM [arg=ARG]...
    /// [option.NAME=VALUE]... [proto=...]". Its own options are set before the tuned ones.
    #[arg(long)]
    pub engine: String,
    /// A tuned spin option: NAME,START,MIN,MAX,C_END[,R_END] (repeatable). C_END is the
    /// perturbation at the end of the run, R_END the learning rate then (default 0.002).
    #[arg(long = "param", required = true)]
    pub params: Vec<String>,
    /// Iterations (each a match of --pairs pairs of games between the two perturbed sides).
    #[arg(long, default_value_t = 500, value_parser = super::game_count)]
    pub iterations: usize,
    /// Pairs of games (one opening, both colours) per iteration.
    #[arg(long, default_value_t = 1, value_parser = super::game_count)]
    pub pairs: usize,
    /// Openings file (transcripts such as the XOT set, or GGF lines of unfinished games; a finished
    /// game is refused). Default: the start position.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Time per move or game.
    #[command(flatten)]
    pub time: super::matches::TimeArgs,
    /// Games played at once (1 to 256; above --pairs, --pairs at once: a worker plays both games
    /// of a pair).
    #[arg(long, default_value_t = 1, value_parser = super::concurrency)]
    pub concurrency: usize,
    /// Seed of the perturbations and the openings' draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The state file: written after every iteration, and resumed from when it exists.
    #[arg(long)]
    pub state: PathBuf,
    /// Append one CSV line per iteration to this file (for plotting).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// With --depth or --nodes: seconds a move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60, value_parser = super::timeout_seconds)]
    pub move_timeout: u64,
}

/// Runs (or resumes) the tuning and prints the report; the exit status is 0, or 130 or 143 when
/// Ctrl-C or SIGTERM interrupted it.
pub fn run(args: TuneArgs) -> Result<u8, String> {
    let engine = EngineSpec::parse(&args.engine).map_err(|e| e.to_string())?;
    let params = args
        .params
        .iter()
        .map(|p| Param::parse(p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let openings = match &args.openings {
        Some(path) => {
            let all = arena::read_openings(path, None).map_err(|e| e.to_string())?;
            if all.is_empty() {
                return Err(format!("tune: {}: no openings in the file", path.display()));
            }
            all
        }
        None => vec![wedge::board::text::Game::new(wedge::board::Position::START)],
    };
    let config = TuneConfig {
        engine,
        params,
        iterations: args.iterations,
        pairs: args.pairs,
        openings,
        tc: args.time.control()?,
        concurrency: args.concurrency.clamp(1, 256),
        seed: args.seed,
        move_timeout: std::time::Duration::from_secs(args.move_timeout),
        interrupt: None,
    };
    let mut outputs = vec![("--state", args.state.as_path())];
    outputs.extend(args.log.as_deref().map(|p| ("--log", p)));
    super::check_outputs("tune", &outputs, args.openings.as_deref())?;
    let read = wedge::files::read_regular(&args.state, wedge::files::MAX_TEXT_BYTES);
    let mut state = match read {
        Ok(bytes) => TuneState::parse(&String::from_utf8_lossy(&bytes), &config)
            .map_err(|e| format!("tune: {}: {e}", args.state.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => TuneState::new(&config),
        Err(e) => return Err(format!("tune: {}: {e}", args.state.display())),
    };
    if state.done > 0 && state.done < config.iterations {
        eprintln_or_drop!(
            "resuming {} at iteration {} of {}",
            args.state.display(),
            state.done + 1,
            config.iterations
        );
    }
    // A run that cannot start writes nothing, not even the log's header.
    tune::check(&config).map_err(|e| format!("tune: {e}"))?;
    let mut log = match &args.log {
        Some(path) => {
            let mut header = String::from("iteration,wins,draws,losses");
            for p in &config.params {
                header.push_str(&format!(",{0}_plus,{0}_minus,{0}", p.name));
            }
            let fresh = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
            // A log goes on only under its own columns and after the iterations this state has
            // counted: another run's would take rows that do not fit them.
            let mut keep = None;
            if !fresh {
                let bytes = wedge::files::read_regular(path, wedge::files::MAX_TEXT_BYTES)
                    .map_err(|e| format!("tune: {}: {e}", path.display()))?;
                let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
                // Without its newline, the start of this run's header is the header cut short.
                let cut = !bytes.contains(&b'\n') && header.as_bytes().starts_with(first);
                if first != header.as_bytes() && !cut {
                    return Err(format!(
                        "tune: {}: the log of another run (its first line is not this run's \
                         header, {header}); give another --log",
                        path.display()
                    ));
                }
                let kept = log_kept(&bytes, state.done)
                    .map_err(|e| format!("tune: {}: {e}; give another --log", path.display()))?;
                keep = (kept < bytes.len()).then_some(kept as u64);
            }
            // A header cut short is written again, whole.
            let fresh = fresh || keep == Some(0);
            let mut options = std::fs::OpenOptions::new();
            options.create(true).append(true);
            let mut f = wedge::files::open_output(&mut options, path)
                .map_err(|e| format!("tune: {}: {e}", path.display()))?;
            if let Some(len) = keep {
                // A row cut by a crash, or the row of an iteration the state did not count
                // (it is played again).
                f.set_len(len)
                    .map_err(|e| format!("tune: {}: {e}", path.display()))?;
            }
            if fresh {
                writeln!(f, "{header}").map_err(|e| format!("tune: {}: {e}", path.display()))?;
            }
            Some((f, path.clone()))
        }
        None => None,
    };
    let (interrupt, signal) = super::interrupt_on_signals();
    let config = TuneConfig {
        interrupt,
        ..config
    };
    let start = Instant::now();
    let first = state.done;
    // Each iteration's log row, then its state: a crash between them leaves a row the resumed
    // run drops (`log_kept`) and plays again.
    let result = tune::run(&config, &mut state, |state, it| {
        if let Some((f, path)) = log.as_mut() {
            let mut line = format!(
                "{},{},{},{}",
                it.number, it.score[0], it.score[1], it.score[2]
            );
            for ((plus, minus), theta) in it
                .plus_values
                .iter()
                .zip(&it.minus_values)
                .zip(&state.theta)
            {
                line.push_str(&format!(",{plus},{minus},{theta:.3}"));
            }
            writeln!(f, "{line}")
                .and_then(|()| f.flush())
                .map_err(|error| tune::TuneError::Save {
                    path: path.clone(),
                    error,
                })?;
        }
        wedge::files::write_whole(&args.state, state.to_text(&config).as_bytes()).map_err(
            |error| tune::TuneError::Save {
                path: args.state.clone(),
                error,
            },
        )?;
        let per = start.elapsed().as_secs_f64() / (state.done - first) as f64;
        let eta = per * (config.iterations - state.done) as f64;
        let values: Vec<String> = config
            .params
            .iter()
            .zip(&state.theta)
            .map(|(p, t)| format!("{} {t:.1}", p.name))
            .collect();
        eprintln_or_drop!(
            "iteration {}/{}  plus +{}={}-{}  {}  ETA {:.0} s",
            state.done,
            config.iterations,
            it.score[0],
            it.score[1],
            it.score[2],
            values.join("  "),
            eta
        );
        Ok(())
    });
    if let Err(tune::TuneError::Match {
        iteration,
        error: arena::MatchError::Interrupted(_),
    }) = result
    {
        print_or_drop!("{}", report(&config, &state));
        eprintln_or_drop!(
            "tune: interrupted in iteration {iteration}, which is not counted; {} holds the {} \
             iterations before it, and the same command resumes",
            args.state.display(),
            state.done
        );
        let signal = signal.load(std::sync::atomic::Ordering::SeqCst);
        return Ok(u8::try_from(128 + signal).unwrap_or(1));
    }
    result.map_err(|e| format!("tune: {e}"))?;
    print_or_drop!("{}", report(&config, &state));
    Ok(0)
}

/// How many bytes of a log (`bytes`, its header checked) a run resumed after `done` iterations
/// keeps: the header and the rows of iterations up to `done`, in order (one missing after a
/// failed write is no matter), without a last row cut short (no newline) or the row of iteration
/// `done + 1` (written before its state was); any other row is another run's. A header without
/// its newline keeps nothing.
fn log_kept(bytes: &[u8], done: usize) -> Result<usize, String> {
    let Some(header) = bytes.iter().position(|&b| b == b'\n') else {
        return Ok(0);
    };
    let mut kept = header + 1;
    let (mut last, mut line) = (0, 2);
    while let Some(end) = bytes[kept..].iter().position(|&b| b == b'\n') {
        let row = std::str::from_utf8(&bytes[kept..kept + end]).unwrap_or("");
        match row.split(',').next().and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if n > last && n <= done => last = n,
            Some(n) if n == done + 1 && kept + end + 1 == bytes.len() => break,
            _ => {
                return Err(format!(
                    "line {line} is no row of the iterations 1 to {done} this state counted, in \
                     order: the log of another run"
                ))
            }
        }
        kept += end + 1;
        line += 1;
    }
    Ok(kept)
}

/// The final report: each parameter's start, end (and the option to set), and its history at
/// each tenth of the run. The options line is `tuned:` once every iteration is done, `partial:`
/// for a run interrupted before (so a script that reads `tuned:` never takes its values).
fn report(config: &TuneConfig, state: &TuneState) -> String {
    let [w, d, l] = state.plus;
    let mut out = format!(
        "{} of {} iterations, {} games (plus side +{w} ={d} -{l})\n",
        state.done,
        config.iterations,
        w + d + l
    );
    let marks: Vec<usize> = (1..=10)
        .map(|t: usize| (t * state.history.len()).div_ceil(10))
        .filter(|&k| k > 0)
        .collect();
    for (i, (p, t)) in config.params.iter().zip(&state.theta).enumerate() {
        let history: Vec<String> = marks
            .iter()
            .map(|&k| format!("{:.0}", state.history[k - 1][i]))
            .collect();
        out.push_str(&format!(
            "{}: {} -> {:.1} (set {})   history by tenths: {}\n",
            p.name,
            p.start,
            t,
            p.whole(*t),
            history.join(" ")
        ));
    }
    let options: Vec<String> = config
        .params
        .iter()
        .zip(&state.theta)
        .map(|(p, t)| format!("option.{}={}", p.name, p.whole(*t)))
        .collect();
    let label = if state.done >= config.iterations {
        "tuned"
    } else {
        "partial"
    };
    out.push_str(&format!("{label}: {}\n", options.join(" ")));
    out
}

#[cfg(test)]
mod tests {
    use super::log_kept;

    #[test]
    fn a_resumed_log_keeps_the_rows_its_state_counted() {
        let log_kept = |text: &str, done| log_kept(text.as_bytes(), done);
        let h = "iteration,wins,draws,losses\n";
        let row = |k: usize| format!("{k},1,0,1\n");
        let rows = |n: usize| (1..=n).map(row).collect::<String>();
        // Whole rows of counted iterations stay; a cut last row goes.
        assert_eq!(log_kept(&format!("{h}{}", rows(2)), 2), Ok(h.len() + 16));
        assert_eq!(log_kept(&format!("{h}{}3,1", rows(2)), 2), Ok(h.len() + 16));
        // The row of the iteration after the state's (written before the state was) goes too.
        assert_eq!(log_kept(&format!("{h}{}", rows(3)), 2), Ok(h.len() + 16));
        assert_eq!(log_kept(&format!("{h}{}", rows(1)), 0), Ok(h.len()));
        // Missing rows (a failed write) are kept as they are, and rows after them too.
        assert_eq!(log_kept(&format!("{h}{}", rows(1)), 5), Ok(h.len() + 8));
        let gap = format!("{h}{}{}", row(1), row(3));
        assert_eq!(log_kept(&gap, 3), Ok(gap.len()));
        // Rows past that, or out of order, are another run's.
        assert!(log_kept(&format!("{h}{}", rows(2)), 0).is_err());
        assert!(log_kept(&format!("{h}{}", rows(4)), 2).is_err());
        assert!(log_kept(&format!("{h}{}{}", row(2), row(1)), 5).is_err());
        // A header cut short is written again.
        assert_eq!(log_kept("iteration,wi", 0), Ok(0));
    }
}
