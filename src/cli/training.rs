//! `wedge datagen` and `wedge train`: self-play data and fitting the pattern evaluation or network
//! ([docs/training.md](../../docs/training.md)).

use super::{progress_reporter, thread_count};
use std::path::{Path, PathBuf};
use std::time::Instant;
use wedge::eval::weights::Weights;

/// The arguments of `wedge datagen`.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// Openings, one a line: transcripts or GGF games (a finished game refused).
    #[arg(long)]
    pub openings: PathBuf,
    /// The data file (appended to; games already in it are skipped).
    #[arg(long)]
    pub out: PathBuf,
    /// Games the file should hold when done.
    #[arg(long, default_value_t = 1000, value_parser = super::game_count)]
    pub games: usize,
    /// Search depth of the moves, 1 to 30.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Solve exactly from this many empties, 0 to 26.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=26))]
    pub exact_empties: u32,
    /// Root noise in centidiscs, for variety, 0 to 2000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(i32).range(0..=2000))]
    pub randomness: i32,
    /// Games played at once.
    #[arg(long, value_parser = thread_count, default_value_t = 1)]
    pub threads: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Label the positions above the exact-solve point with a search of this depth instead
    /// of the game's result (deep-search labels), 1 to 30.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub label_depth: Option<u32>,
    /// Only write positions with this many empties, e.g. `30-40` (default: all).
    #[arg(long, value_parser = parse_empties_range)]
    pub keep_empties: Option<(u32, u32)>,
    /// Also write every sibling of the solved part's positions (the position after each
    /// legal move, not only the one played), each labelled by its own exact solve: data on
    /// ranking the moves of a position, the endgame solver's ordering task.
    #[arg(long)]
    pub siblings: bool,
    /// Selectivity of the searches (moves and labels), percent as the `Selectivity` option:
    /// 73, 87, 95, 98, 99 or 100 (full width).
    #[arg(long, default_value_t = 100, value_parser = super::selectivity_percent)]
    pub selectivity: u8,
    /// Play only part I of N disjoint parts of the run (`--shard 2/8`: the second of every eight
    /// games, numbered 1, 9, 17, ... from 0 as the data files number them), for spreading one run
    /// over machines; `wedge data merge` joins the parts.
    #[arg(long, value_parser = super::parse_shard, default_value = "1/1")]
    pub shard: (usize, usize),
    /// A weaker side: in each game one side (black in even-numbered games, white in odd ones)
    /// plays a random legal move instead of its search's, before the exact solve, with a
    /// chance drawn for the game between 0 and this many percent; for the lopsided positions
    /// that games against weaker players reach (0: none).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub blunders: u32,
}

/// The arguments of `wedge train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// Data files from `wedge datagen`.
    #[arg(long = "data", required = true)]
    pub data: Vec<PathBuf>,
    /// The weights file to write (load it with `setoption name EvalFile value FILE`).
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the data, 1 to 10,000.
    #[arg(long, default_value_t = 15, value_parser = epochs)]
    pub epochs: usize,
    /// Adagrad base step size.
    #[arg(long, default_value_t = 0.3, value_parser = positive)]
    pub lr: f32,
    /// L2 regularisation (towards 0, or towards the `--init` weights).
    #[arg(long, default_value_t = 0.001, value_parser = non_negative)]
    pub lambda: f32,
    /// Pull of each weight, at each step that touches it, towards the same weight of the
    /// neighbouring phases (0: none), so that narrow phases (`--phasing linear:2`) lean on what
    /// their neighbours learnt instead of on their own few positions alone.
    #[arg(long, default_value_t = 0.0, value_parser = non_negative)]
    pub smooth: f32,
    /// Per mille of the games held out for testing, 0 to 900 (at least a tenth is trained on).
    #[arg(long, default_value_t = 100, value_parser = held_out_per_mille)]
    pub held_out: u64,
    /// Fit mirror-image configurations separately (by default they share one value).
    #[arg(long)]
    pub untied: bool,
    /// How the weight sets cover the empties counts: `linear:S` (anchors every S empties,
    /// blended linearly in between) or `steps:W` (sets of W empties; `steps:10` is the first
    /// files' six phases).
    #[arg(long, default_value = "linear:8", value_parser = parse_phasing)]
    pub phasing: wedge::eval::pattern::Phasing,
    /// Threads fitting at once (sharing the weights without locks): faster, but the weights
    /// then differ from run to run in their last bits; 1 fits the same weights every time.
    #[arg(long, value_parser = thread_count, default_value_t = 1)]
    pub threads: usize,
    /// Add a side-to-move term that cancels the odd/even swing of searches (half the mean
    /// difference between 1-ply and static values, per phase; docs/training.md).
    #[arg(long)]
    pub tempo: bool,
    /// The side-to-move term's size as a multiple of half the 1-ply minus static difference
    /// (`--tempo`; 1 cancels that difference at one ply, more also the rest that deeper
    /// searches show: docs/training.md).
    #[arg(long, default_value_t = 1.0, value_parser = tempo_scale, requires = "tempo")]
    pub tempo_scale: f32,
    /// Start from this pattern weights file instead of zeros (with --net: instead of the
    /// built-in tables, or a network file to go on from); phases without training positions keep
    /// its weights.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fit a pattern network (docs/training.md) instead of tables, starting from the `--init`
    /// tables or the built-in ones, or going on from the `--init` network (the table fit's --lr,
    /// --lambda, --smooth, --untied and --phasing do not apply: the network takes its phasing from
    /// what it starts from).
    #[arg(long, conflicts_with_all = ["lr", "lambda", "smooth", "untied", "phasing"])]
    pub net: bool,
    /// The network's step size for the configuration vectors (Adagrad, per value).
    #[arg(long, default_value_t = 0.05, value_parser = positive, requires = "net")]
    pub net_lr: f32,
    /// The network's step size for its heads (Adagrad).
    #[arg(long, default_value_t = 0.01, value_parser = positive, requires = "net")]
    pub head_lr: f32,
    /// Test sets to report the network's errors on, before the fit, after every pass and at the
    /// end (repeatable).
    #[arg(long, requires = "net")]
    pub test: Vec<PathBuf>,
}

/// Plays the games the data file lacks and appends them.
pub fn datagen(args: DatagenArgs) -> Result<(), String> {
    super::check_not_input("datagen", &args.out, [args.openings.as_path()])?;
    // As a match reads them: transcripts or GGF games, a finished game refused with its line.
    let list =
        wedge::tools::arena::read_openings(&args.openings, None).map_err(|e| e.to_string())?;
    // Before the run claims its output.
    if list.is_empty() {
        return Err(format!("{}: no openings in it", args.openings.display()));
    }
    let options = wedge::tools::train::DatagenOptions {
        games: args.games,
        depth: args.depth,
        exact_empties: args.exact_empties,
        randomness: args.randomness,
        threads: args.threads,
        seed: args.seed,
        label_depth: args.label_depth,
        keep: args.keep_empties.unwrap_or((0, 60)),
        siblings: args.siblings,
        selectivity: wedge::search::selectivity::level_for_percent(args.selectivity),
        shard: args.shard,
        blunders: args.blunders,
    };
    // The run: everything that decides its games, the built-in evaluation and Multi-ProbCut table
    // included (not the shard or the thread count, which change who plays a game, not the game;
    // not --games, which a run may raise to go on). The shard is the file's part of the run,
    // recorded beside it too.
    let openings: String = list
        .iter()
        .map(|g| format!("{}{},", g.start, g.transcript()))
        .collect();
    let games = format!(
        "datagen {:?}, openings {} lines {}",
        wedge::tools::train::DatagenOptions {
            games: 0,
            threads: 1,
            shard: (0, 1),
            ..options.clone()
        },
        list.len(),
        wedge::tools::run::run_id(&openings)
    );
    let version = env!("CARGO_PKG_VERSION");
    let about = format!(
        "wedge {version} evaluation {:016x} mpc {} {games}",
        wedge::eval::built_in_checksum(),
        wedge::tools::run::run_id(wedge::search::midgame::probcut::BUILT_IN_TEXT),
    );
    let mut run = wedge::tools::run::run_id(&about);
    // A run file written before the run's identity named the evaluation (and before it recorded
    // the file's part) holds the identity without them: such a run resumes as it was.
    let legacy = wedge::tools::run::run_id(&format!("wedge {version} {games}"));
    let header = if wedge::tools::train::is_binary_path(&args.out) {
        wedge::tools::train::FILE_HEADER as u64
    } else {
        0
    };
    if wedge::tools::run::recorded_run(&args.out).as_deref() == Some(legacy.as_str())
        && wedge::tools::run::recorded_part(&args.out).is_none()
        && std::fs::metadata(&args.out).is_ok_and(|m| m.len() > header)
    {
        run = legacy;
    }
    let part = format!("{}/{}", args.shard.0 + 1, args.shard.1);
    wedge::tools::run::claim_run(&args.out, &run, &about, &part, header)
        .map_err(|e| e.to_string())?;
    let played =
        wedge::tools::train::datagen(&list, &options, &args.out, &progress_reporter("games"))
            .map_err(|e| e.to_string())?;
    if played == 0 {
        outln!(
            "played no game: {} holds every game of this part of --games {} already (a larger \
             --games plays more)",
            args.out.display(),
            args.games
        );
    } else {
        let played = wedge::protocol::play::counted(played, "game", "games");
        outln!("played {played} into {}", args.out.display());
    }
    Ok(())
}

/// Fits the pattern evaluation and writes it; prints the errors by phase.
pub fn train(args: TrainArgs) -> Result<(), String> {
    if args.net {
        return run_net(&args);
    }
    run_train(
        &args.data,
        &args.out,
        args.held_out,
        args.init.as_deref(),
        wedge::tools::train::TrainOptions {
            epochs: args.epochs,
            learning_rate: args.lr,
            lambda: args.lambda,
            smooth: args.smooth,
            seed: args.seed,
            tie_symmetric: !args.untied,
            // Loaded from `init` by run_train, which returns a bad file as an error.
            init: None,
            phasing: args.phasing,
            threads: args.threads,
        },
        args.tempo.then_some(f64::from(args.tempo_scale)),
    )
}

/// Fits a pattern network from tables (`--init`, else the built-in ones) or on from a network
/// (`--init` a network file) and writes it; reports the errors on the test sets (and the held-out
/// games) before, after every pass and at the end.
fn run_net(args: &TrainArgs) -> Result<(), String> {
    use wedge::eval::pattern::net::{NetWeights, HEAD_SCALE, HIDDEN};
    use wedge::eval::pattern::{PatternWeights, Phasing};
    use wedge::tools::train::{
        parity_offsets, split, tempo_terms, train_net, train_net_from, NetOptions, Sample,
    };
    let inputs = args.data.iter().chain(&args.test).chain(&args.init);
    super::check_not_input("train --net", &args.out, inputs.map(|p| p.as_path()))?;
    // The start: tables (the network begins as them) or a network to fit on.
    enum Start {
        Tables(PatternWeights),
        Net(NetWeights),
    }
    let from = match &args.init {
        Some(path) if is_net_file(path) => {
            Start::Net(NetWeights::load(path).map_err(|e| e.to_string())?)
        }
        Some(path) => Start::Tables(PatternWeights::load(path).map_err(|e| e.to_string())?),
        None => Start::Tables(
            wedge::eval::built_in_patterns()
                .ok_or("--net: the built-in pattern weights did not load; give --init")?
                .as_ref()
                .clone(),
        ),
    };
    if let Start::Tables(init) = &from {
        if !matches!(init.phasing, Phasing::Linear { .. }) || init.phases.len() > HIDDEN {
            return Err(format!(
                "--net starts from tables of at most {HIDDEN} linear anchors (--phasing \
                 linear:S); these have {} phases, {}",
                init.phases.len(),
                match init.phasing {
                    Phasing::Steps { width } => format!("steps:{width}"),
                    Phasing::Linear { spacing } => format!("linear:{spacing}"),
                }
            ));
        }
    }
    let (training, held_out) = split(read_all_samples(&args.data)?, args.held_out);
    outln!(
        "{} training positions, {} held out",
        training.len(),
        held_out.len()
    );
    check_training(&training, held_out.len())?;
    let most = training
        .iter()
        .map(|s| s.board.empty_count())
        .max()
        .unwrap_or(0);
    if most < 59 {
        // The tables keep a phase without data as it was; the network's vectors are shared by
        // every empties count, so its values where no position holds them drift with the rest.
        eprintln!(
            "warning: no training position has more than {most} empty squares: the network's \
             values at {}-60 change with no data to hold them; add positions there \
             (data/train/early-p7.wdb has the first plies from the start)",
            most + 1
        );
    }
    let mut tests: Vec<(String, Vec<Sample>)> = Vec::new();
    for path in &args.test {
        tests.push((
            path.display().to_string(),
            read_all_samples(std::slice::from_ref(path))?,
        ));
    }
    if !held_out.is_empty() {
        tests.push(("held out".to_string(), held_out));
    }
    let report = |what: &str, f: &dyn Fn(wedge::board::Board) -> f64| {
        for (name, set) in &tests {
            outln!("  {what} on {name}: {}", score_buckets(set, f));
        }
    };
    outln!("mean absolute error (discs), overall [|score| 0-5 6-11 12-19 20-29 30-64]:");
    match &from {
        Start::Tables(init) => report("tables", &|b| f64::from(init.evaluate(b)) / 100.0),
        Start::Net(net) => report("start", &|b| f64::from(net.evaluate(b)) / 100.0),
    }
    let options = NetOptions {
        hidden: HIDDEN,
        epochs: args.epochs,
        learning_rate: args.net_lr,
        head_rate: args.head_lr,
        seed: args.seed,
        threads: args.threads,
    };
    let start = Instant::now();
    let progress = |epoch, train_mae, net: &wedge::tools::train::Net| {
        outln!(
            "epoch {epoch} ({:.0} s): training MAE {train_mae:.3} discs",
            start.elapsed().as_secs_f64()
        );
        report("network", &|b| f64::from(net.evaluate(b)));
    };
    let net = match &from {
        Start::Tables(init) => train_net(&training, init, &options, progress),
        Start::Net(net) => train_net_from(&training, net, &options, progress),
    };
    let (mut weights, cut) = net
        .quantize()
        .ok_or("--net: the network does not have the file's channel count")?;
    if cut > 0 {
        eprintln!("warning: {cut} values cut to the 16-bit range");
    }
    if args.tempo {
        let step = (training.len() / 200_000).max(1);
        let sample: Vec<Sample> = training.iter().step_by(step).copied().collect();
        let offsets = parity_offsets(|b| weights.evaluate(b), &sample);
        let scale = f64::from(args.tempo_scale);
        let terms = tempo_terms(weights.phasing, weights.heads.len(), &offsets, scale);
        for (head, t) in weights.heads.iter_mut().zip(&terms) {
            head.bias += (t * f64::from(HEAD_SCALE)).round() as i32;
        }
        let terms: Vec<String> = terms.iter().map(|t| format!("{t:.2}")).collect();
        outln!("side-to-move term by anchor (discs): {}", terms.join(" "));
    }
    report("written", &|b| f64::from(weights.evaluate(b)) / 100.0);
    super::write_atomically(&args.out, weights.to_bytes())?;
    outln!("wrote {}", args.out.display());
    Ok(())
}

/// The mean absolute error of `f` on `set`, overall and by the size of the label, each value
/// clamped as the engine's evaluation is (+-63 discs).
fn score_buckets(
    set: &[wedge::tools::train::Sample],
    f: &dyn Fn(wedge::board::Board) -> f64,
) -> String {
    let limit = f64::from(wedge::eval::EVAL_LIMIT) / 100.0;
    let mae = |part: &mut dyn Iterator<Item = &wedge::tools::train::Sample>| {
        let (sum, n) = part.fold((0f64, 0usize), |(s, n), x| {
            let value = f(x.board).clamp(-limit, limit);
            (s + (value - f64::from(x.label)).abs(), n + 1)
        });
        if n == 0 {
            "-".to_string()
        } else {
            format!("{:.2}", sum / n as f64)
        }
    };
    let by: Vec<String> = [(0, 5), (6, 11), (12, 19), (20, 29), (30, 64)]
        .iter()
        .map(|&(lo, hi)| {
            mae(&mut set
                .iter()
                .filter(|x| (lo..=hi).contains(&(x.label.abs().round() as i32))))
        })
        .collect();
    format!("{} [{}]", mae(&mut set.iter()), by.join(" "))
}

/// Refuses a fit without training positions (the split held out every game): it would write its
/// starting weights as if fitted.
fn check_training(training: &[wedge::tools::train::Sample], held_out: usize) -> Result<(), String> {
    if training.is_empty() {
        return Err(format!(
            "train: no training positions left ({held_out} held out: the split holds out whole \
             games, and these files have too few); give more games or --held-out 0"
        ));
    }
    Ok(())
}

/// Whether `path` is a pattern network's file (read as one by `--init` with `--net`); one that is
/// unreadable or no regular file (a FIFO would block) is left to the tables' loader to name.
fn is_net_file(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    wedge::files::check_regular(path, wedge::files::MAX_TEXT_BYTES).is_ok()
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok_and(|()| wedge::eval::pattern::net::NetWeights::is_net(&magic))
}

/// Parses `--tempo-scale`: a number from 0 to 3.
fn tempo_scale(text: &str) -> Result<f32, String> {
    finite_where(text, |x| (0.0..=3.0).contains(&x), "from 0 to 3")
}

/// The held-out share: per mille, 0 to 900.
fn held_out_per_mille(text: &str) -> Result<u64, String> {
    super::bounded_count(text, 0, 900).map(|n| n as u64)
}

/// A finite number of at least 0.
fn non_negative(text: &str) -> Result<f32, String> {
    finite_where(text, |x| x >= 0.0, "of at least 0")
}

/// A number of passes over the data: 1 to 10,000.
fn epochs(text: &str) -> Result<usize, String> {
    super::bounded_count(text, 1, 10_000)
}

/// A finite number above 0.
fn positive(text: &str) -> Result<f32, String> {
    finite_where(text, |x| x > 0.0, "above 0")
}

/// `text` as a finite number that passes `ok`; the error says it is not a number `what`.
fn finite_where(text: &str, ok: fn(f32) -> bool, what: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && ok(x) => Ok(x),
        _ => Err(format!("'{text}' is not a number {what}")),
    }
}

/// Parses `LO-HI` (numbers of empty squares, LO <= HI <= 60).
pub(super) fn parse_empties_range(text: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = text
        .split_once('-')
        .ok_or_else(|| format!("'{text}' is not a range like 30-40"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{t}' is not a number of empty squares"))
    };
    let (lo, hi) = (number(lo)?, number(hi)?);
    if lo > hi || hi > 60 {
        return Err(format!("'{text}': need LO <= HI <= 60"));
    }
    Ok((lo, hi))
}

/// The positions of every data file; a file with none is an error naming it (an empty file would
/// otherwise train or measure nothing and still exit 0).
pub(super) fn read_all_samples(
    paths: &[PathBuf],
) -> Result<Vec<wedge::tools::train::Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let file = wedge::tools::train::read_sample_file(path).map_err(|e| e.to_string())?;
        if file.torn_bytes > 0 {
            eprintln!("{}", super::data::torn_warning(path, file.torn_bytes));
        }
        let these = file.samples;
        if these.is_empty() {
            return Err(format!(
                "{}: no positions in this data file",
                path.display()
            ));
        }
        samples.extend(these);
    }
    Ok(samples)
}

fn run_train(
    data: &[PathBuf],
    out: &Path,
    held_out: u64,
    init: Option<&Path>,
    mut options: wedge::tools::train::TrainOptions,
    tempo: Option<f64>,
) -> Result<(), String> {
    use wedge::tools::train::{split, train, PhaseErrors};
    super::check_not_input("train", out, data.iter().map(|p| p.as_path()).chain(init))?;
    if let Some(path) = init {
        options.init =
            Some(wedge::eval::pattern::PatternWeights::load(path).map_err(|e| e.to_string())?);
    }
    let samples = read_all_samples(data)?;
    let (training, test) = split(samples, held_out);
    outln!(
        "{} training positions, {} held out",
        training.len(),
        test.len()
    );
    check_training(&training, test.len())?;
    let start = Instant::now();
    let mut weights = train(&training, &options, |epoch, mae| {
        eprintln!("epoch {epoch}: training MAE {mae:.3} discs")
    });
    outln!("trained in {:.1} s", start.elapsed().as_secs_f64());
    let hand = wedge::eval::Evaluator::new(Weights::default());
    let hand_err = PhaseErrors::measure(&test, |b| f64::from(hand.evaluate(b)) / 100.0);
    let init_err = options
        .init
        .as_ref()
        .map(|init| PhaseErrors::measure(&test, |b| f64::from(init.evaluate(b)) / 100.0));
    let train_err = PhaseErrors::measure(&training, |b| f64::from(weights.evaluate(b)) / 100.0);
    let test_err = PhaseErrors::measure(&test, |b| f64::from(weights.evaluate(b)) / 100.0);
    outln!("mean absolute error (discs) by phase (empties):");
    outln!(
        "phase        positions   hand(held-out)  trained(train)  trained(held-out){}",
        if init_err.is_some() {
            "  init(held-out)"
        } else {
            ""
        }
    );
    // A held-out column over no positions shows "-", not an error of 0.
    let held = |mae: f64, count: usize| {
        if count == 0 {
            "-".to_string()
        } else {
            format!("{mae:.2}")
        }
    };
    let init_column = |mae: Option<f64>, count: usize| {
        mae.map_or(String::new(), |m| format!(" {:>15}", held(m, count)))
    };
    for ph in 0..wedge::eval::pattern::PHASES {
        let n = test_err.count[ph];
        outln!(
            "{:>2}-{:<2} {:>17} {:>16} {:>15.2} {:>18}{}",
            ph * 10,
            ph * 10 + 9,
            n,
            held(hand_err.mae[ph], n),
            train_err.mae[ph],
            held(test_err.mae[ph], n),
            init_column(init_err.as_ref().map(|e| e.mae[ph]), n)
        );
    }
    let n = test_err.count.iter().sum::<usize>();
    outln!(
        "all   {:>17} {:>16} {:>15.2} {:>18}{}",
        n,
        held(hand_err.overall(), n),
        train_err.overall(),
        held(test_err.overall(), n),
        init_column(init_err.as_ref().map(|e| e.overall()), n)
    );
    if let Some(scale) = tempo {
        use wedge::tools::train::{add_tempo, parity_offsets};
        // A sample of the training positions is plenty for 61 means.
        let step = (training.len() / 200_000).max(1);
        let sample: Vec<_> = training.iter().step_by(step).copied().collect();
        let by_decade = |offsets: &[(f64, usize)]| -> String {
            (0..6)
                .map(|d| {
                    let (x, n) = offsets[d * 10..(d * 10 + 10).min(61)]
                        .iter()
                        .fold((0.0, 0), |(x, n), &(o, k)| (x + o * k as f64, n + k));
                    format!("{:+.2}", if n > 0 { x / n as f64 } else { 0.0 })
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let before = parity_offsets(|b| weights.evaluate(b), &sample);
        let terms = add_tempo(&mut weights, &before, scale);
        let after = parity_offsets(|b| weights.evaluate(b), &sample);
        outln!("parity offset (1-ply minus static, discs) by tens of empties 0-9 .. 50-59:");
        outln!("  before {}", by_decade(&before));
        outln!("  after  {}", by_decade(&after));
        let terms: Vec<String> = terms.iter().map(|t| format!("{t:.2}")).collect();
        outln!("side-to-move term by phase (discs): {}", terms.join(" "));
    }
    super::write_atomically(out, weights.to_bytes())?;
    outln!("wrote {}", out.display());
    Ok(())
}

/// Parses `linear:S` or `steps:W` (1..=30 empties).
fn parse_phasing(text: &str) -> Result<wedge::eval::pattern::Phasing, String> {
    use wedge::eval::pattern::Phasing;
    let (kind, n) = text
        .split_once(':')
        .ok_or_else(|| format!("'{text}': expected linear:S or steps:W"))?;
    let n: u32 = n
        .parse()
        .ok()
        .filter(|n| (1..=30).contains(n))
        .ok_or_else(|| format!("'{n}': expected a number of empties from 1 to 30"))?;
    match kind {
        "linear" => Ok(Phasing::Linear { spacing: n }),
        "steps" => Ok(Phasing::Steps { width: n }),
        _ => Err(format!("'{kind}': expected linear or steps")),
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_empties_range, tempo_scale};
    use crate::cli::parse_shard;

    #[test]
    fn tempo_scales() {
        assert_eq!(tempo_scale("1.3"), Ok(1.3));
        assert_eq!(tempo_scale("0"), Ok(0.0));
        assert_eq!(tempo_scale("3"), Ok(3.0));
        for bad in ["-0.1", "3.5", "nan", "inf", "x", ""] {
            assert!(tempo_scale(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("1/1"), Ok((0, 1)));
        assert_eq!(parse_shard("3/8"), Ok((2, 8)));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("3").is_err());
        assert!(parse_shard("a/b").is_err());
    }

    #[test]
    fn empties_ranges() {
        assert_eq!(parse_empties_range("30-40"), Ok((30, 40)));
        assert_eq!(parse_empties_range(" 20 - 24 "), Ok((20, 24)));
        assert!(parse_empties_range("40-30").is_err());
        assert!(parse_empties_range("30-61").is_err());
        assert!(parse_empties_range("30").is_err());
        assert!(parse_empties_range("a-b").is_err());
    }
}
