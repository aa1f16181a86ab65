//! The `wedge` command line: with no subcommand it runs the engine protocol loop on stdin/stdout;
//! subcommands run tools (perft, ...) directly over the library. Errors are printed here and only here.

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use wedge::board::text::{read_obf_file, read_openings_file};
use wedge::board::Position;
use wedge::eval::weights::Weights;
use wedge::tools::{bench, perft, solve};

#[derive(Parser)]
#[command(name = "wedge", version, about = "wedge, an Othello engine", long_about = None)]
struct Cli {
    /// The protocol to speak when running as an engine: wedge (protocol.md), nboard, gtp, or auto
    /// (decided by the first line received: `nboard ...` or a GTP command; else wedge).
    #[arg(long, default_value = "auto", value_parser = ["auto", "wedge", "nboard", "gtp"])]
    protocol: String,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths of DEPTH plies (a pass is a ply; a finished game counts once).
    Perft {
        /// Number of plies.
        depth: u32,
        /// Start from this board: 64 squares a1..h8 (X, O, -) then the side to move (X or O).
        /// It may start with `-` (an empty a1): `--board "---...--- X"` works as written.
        #[arg(long, allow_hyphen_values = true)]
        board: Option<String>,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
    },
    /// Search a fixed set of positions to a fixed depth; prints the node count (the search's
    /// fingerprint) and the speed.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = wedge::tools::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Hash table size in MB.
        #[arg(long, value_parser = hash_mb, default_value_t = 64)]
        hash: usize,
    },
    /// Opening books: build, extend, inspect, export (see docs/book.md).
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// Play a match between two engines (see docs/match.md).
    Match(MatchArgs),
    /// Self-play data for training the pattern evaluation (see docs/training.md).
    Datagen {
        /// Openings (transcripts, one a line).
        #[arg(long)]
        openings: PathBuf,
        /// The data file (appended to; games already in it are skipped).
        #[arg(long)]
        out: PathBuf,
        /// Games the file should hold when done.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Search depth of the moves.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Solve exactly from this many empties.
        #[arg(long, default_value_t = 18)]
        exact_empties: u32,
        /// Root noise in centidiscs, for variety.
        #[arg(long, default_value_t = 200)]
        randomness: i32,
        /// Games played at once.
        #[arg(long, value_parser = thread_count, default_value_t = 1)]
        threads: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Label the positions above the exact-solve point with a search of this depth instead
        /// of the game's result (deep-search labels).
        #[arg(long)]
        label_depth: Option<u32>,
        /// Only write positions with this many empties, e.g. `30-40` (default: all).
        #[arg(long, value_parser = parse_empties_range)]
        keep_empties: Option<(u32, u32)>,
        /// Also write every sibling of the solved part's positions (the position after each
        /// legal move, not only the one played), each labelled by its own exact solve: data on
        /// ranking the moves of a position, the endgame solver's ordering task.
        #[arg(long)]
        siblings: bool,
    },
    /// Mean absolute error of evaluations against the labels of data files, by empty squares:
    /// the hand evaluation, the built-in trained one and optionally a weights file.
    #[command(name = "evaltest")]
    EvalTest {
        /// Data files (the `wedge datagen` format).
        #[arg(long = "data", required = true)]
        data: Vec<PathBuf>,
        /// Also measure this weights file (pattern or hand weights).
        #[arg(long)]
        eval_file: Option<PathBuf>,
    },
    /// Fit the pattern evaluation to data files; reports errors per phase and writes the weights.
    Train {
        /// Data files from `wedge datagen`.
        #[arg(long = "data", required = true)]
        data: Vec<PathBuf>,
        /// The weights file to write (load it with `setoption name EvalFile value FILE`).
        #[arg(long)]
        out: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 15)]
        epochs: usize,
        /// Adagrad base step size.
        #[arg(long, default_value_t = 0.3)]
        lr: f32,
        /// L2 regularisation (towards 0, or towards the `--init` weights).
        #[arg(long, default_value_t = 0.001)]
        lambda: f32,
        /// Per mille of positions held out for testing.
        #[arg(long, default_value_t = 100)]
        held_out: u64,
        /// Fit mirror-image configurations separately (by default they share one value).
        #[arg(long)]
        untied: bool,
        /// Start from this pattern weights file instead of zeros (continued training); phases
        /// without training positions keep its weights.
        #[arg(long)]
        init: Option<PathBuf>,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Evaluation weights: `dump` writes them in the weights-file format.
    Weights {
        #[command(subcommand)]
        action: WeightsAction,
    },
    /// Solve the positions of an OBF file exactly and check the scores it gives.
    Solve {
        /// The OBF file (one position a line, with `MOVE:score` items).
        file: PathBuf,
        /// Solve for win/loss/draw only.
        #[arg(long)]
        wld: bool,
        /// Search threads per position (they share one table).
        #[arg(long, value_parser = thread_count, default_value_t = 1)]
        threads: usize,
        /// Positions solved at once (each with its own threads and table).
        #[arg(long, value_parser = thread_count, default_value_t = 1)]
        jobs: usize,
        /// Transposition table size per position being solved, in MB.
        #[arg(long, value_parser = hash_mb, default_value_t = 256)]
        hash: usize,
        /// Number of the first position in the file (e.g. 40 for fforum-40-59.obf).
        #[arg(long, default_value_t = 1)]
        first: usize,
        /// Order moves with this weights file (pattern or hand weights) instead of the built-in
        /// evaluation.
        #[arg(long)]
        eval_file: Option<PathBuf>,
    },
}

#[derive(clap::Args)]
struct MatchArgs {
    /// An engine: `random`, `greedy`, or "name=NAME cmd=PROGRAM [arg=ARG]... [option.NAME=VALUE]...".
    /// Give it twice; the first is the one the statistics speak for.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Openings file, one a line: transcripts (e.g. the XOT set) or GGF games (as --out writes
    /// them). Default: the start position only.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Keep only the first N moves (passes count) of each opening, e.g. of games recorded by --out.
    #[arg(long, requires = "openings")]
    opening_plies: Option<usize>,
    /// Number of games, exactly: two per opening (colours swapped); an odd number plays the last
    /// opening once. Default: two per opening in the file, each round.
    #[arg(long)]
    games: Option<usize>,
    /// Play each chosen opening this many times (the games are spread over the rounds).
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Seed for sampling openings and for the random player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Clock per game: SECONDS+INCREMENT, e.g. 60+0.5.
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"])]
    tc: Option<String>,
    /// Milliseconds per move.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Stop when a sequential test decides, e.g. "elo0=0 elo1=5 alpha=0.05 beta=0.05".
    #[arg(long)]
    sprt: Option<String>,
    /// Append each game as a GGF line to this file; each engine's stderr is appended to
    /// FILE.NAME.stderr.log beside it (without --out it is not kept).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the report as JSON to this file (replaced at the end of the match).
    #[arg(long)]
    json: Option<PathBuf>,
    /// With --depth or --nodes: seconds a move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60)]
    move_timeout: u64,
}

#[derive(clap::Args, Clone)]
struct LeafArgs {
    /// Search depth for leaf positions.
    #[arg(long, default_value_t = 10)]
    depth: u32,
    /// Leaves with at most this many empty squares are solved exactly.
    #[arg(long, default_value_t = 18)]
    exact_empties: u32,
    /// Leaves scored at once.
    #[arg(long, value_parser = thread_count, default_value_t = 1)]
    threads: usize,
    /// Hash table per thread, MB.
    #[arg(long, value_parser = hash_mb, default_value_t = 32)]
    hash: usize,
}

#[derive(Subcommand)]
enum BookAction {
    /// Build a book from opening lines (transcripts, one a line). Finished leaves are kept in
    /// OUT.journal, so an interrupted build resumes when run again.
    Build {
        /// The opening lines.
        #[arg(long)]
        openings: PathBuf,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        leaf: LeafArgs,
    },
    /// Extend a book along its near-best lines: expand leaves and add missing moves.
    Extend {
        /// The book to extend (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        /// Follow moves within this many discs of the best.
        #[arg(long, default_value_t = 2)]
        margin: i32,
        /// At most this many new positions.
        #[arg(long, default_value_t = 1000)]
        max: usize,
        #[command(flatten)]
        leaf: LeafArgs,
    },
    /// Print the book's size and depth statistics.
    Stats {
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Print the book moves of a position: a transcript from the start, or "<64 squares> <side>".
    Probe {
        /// The position (a board string may start with `-`, an empty a1).
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Print every book move as text: `<position> <move> <score> <depth>` per line.
    Export {
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum WeightsAction {
    /// Print the weights (built-in, or those of --from after loading it) as a weights file.
    Dump {
        /// A weights file to load first (it is checked line by line).
        #[arg(long)]
        from: Option<PathBuf>,
    },
}

/// A number of threads (or games, or jobs) at once: 1 to 1024.
fn thread_count(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 1024)
}

/// A table size in MB: 1 MB to 1 TB (whether the memory is there is checked when it is allocated).
fn hash_mb(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 1 << 20)
}

fn bounded_count(text: &str, min: usize, max: usize) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    if n < min || n > max {
        return Err(format!("must be {min} to {max}, got {n}"));
    }
    Ok(n)
}

/// Makes a write to a closed pipe end the process quietly, as Unix tools do (`wedge perft 10 |
/// head -1` exits with status 141 and no message), instead of Rust's default of ignoring SIGPIPE
/// and panicking in `println!`. Only for the command-line tools that write to nothing but their
/// output: the engine process keeps SIGPIPE ignored and ends cleanly when its writer sees the
/// closed pipe, and so does the match runner, which writes to its engines' pipes.
fn die_quietly_on_closed_pipe() {
    #[cfg(unix)]
    {
        const SIGPIPE: std::ffi::c_int = 13;
        const SIG_DFL: usize = 0;
        unsafe extern "C" {
            fn signal(signum: std::ffi::c_int, handler: usize) -> usize;
        }
        // SAFETY: `signal` with SIG_DFL only restores the default disposition of SIGPIPE (end the
        // process); it installs no handler, so no Rust code ever runs in signal context, and it is
        // called once at start-up before any other thread exists.
        let _ = unsafe { signal(SIGPIPE, SIG_DFL) };
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    // Not for `match`: it writes to its engines' pipes, and an engine that exits must be a failure
    // the runner reports, not a signal that kills the runner.
    if cli.command.is_some() && !matches!(cli.command, Some(Command::Match(_))) {
        die_quietly_on_closed_pipe();
    }
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            board,
            divide,
        }) => run_perft(depth, board.as_deref(), divide),
        Some(Command::Bench { depth, hash }) => run_bench(depth, hash),
        Some(Command::Match(args)) => run_match(args),
        Some(Command::Datagen {
            openings,
            out,
            games,
            depth,
            exact_empties,
            randomness,
            threads,
            seed,
            label_depth,
            keep_empties,
            siblings,
        }) => {
            let games_list = read_openings_file(&openings).map_err(|e| e.to_string());
            games_list.and_then(|list| {
                let options = wedge::tools::train::DatagenOptions {
                    games,
                    depth: depth.clamp(1, 30),
                    exact_empties: exact_empties.min(26),
                    randomness: randomness.clamp(0, 2000),
                    threads: threads.clamp(1, 256),
                    seed,
                    label_depth: label_depth.map(|d| d.clamp(1, 30)),
                    keep: keep_empties.unwrap_or((0, 60)),
                    siblings,
                };
                let played = wedge::tools::train::datagen(
                    &list,
                    &options,
                    &out,
                    &progress_reporter("games"),
                )?;
                println!("played {played} games into {}", out.display());
                Ok(())
            })
        }
        Some(Command::Train {
            data,
            out,
            epochs,
            lr,
            lambda,
            held_out,
            seed,
            untied,
            init,
        }) => run_train(
            &data,
            &out,
            held_out,
            init.as_deref(),
            wedge::tools::train::TrainOptions {
                epochs: epochs.max(1),
                learning_rate: lr,
                lambda,
                seed,
                tie_symmetric: !untied,
                // Loaded from `init` by run_train, which returns a bad file as an error.
                init: None,
            },
        ),
        Some(Command::EvalTest { data, eval_file }) => run_eval_test(&data, eval_file.as_deref()),
        Some(Command::Book { action }) => run_book(action),
        Some(Command::Weights {
            action: WeightsAction::Dump { from },
        }) => match from {
            None => {
                print!("{}", Weights::default().dump());
                Ok(())
            }
            Some(path) => Weights::load(&path)
                .map(|w| print!("{}", w.dump()))
                .map_err(|e| e.to_string()),
        },
        Some(Command::Solve {
            file,
            wld,
            threads,
            jobs,
            hash,
            first,
            eval_file,
        }) => {
            let options = |eval| solve::SolveOptions {
                wld,
                threads,
                jobs,
                hash_mb: hash,
                eval,
            };
            run_solve(&file, first, eval_file.as_deref(), options)
        }
        None => {
            let code = run_engine(&cli.protocol);
            return ExitCode::from(code.clamp(0, 255) as u8);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("wedge: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the engine on stdin/stdout in the chosen protocol (`auto`: detected from the first line).
fn run_engine(protocol: &str) -> i32 {
    use std::io::{BufRead, IsTerminal, Read};
    // A person at a terminal sees at once that the engine runs and what to type; GUIs and scripts
    // on pipes get nothing before their first command.
    if std::io::stdin().is_terminal() {
        println!(
            "wedge {}, an Othello engine: type 'help' for the commands, 'quit' to leave \
             ('wedge --help' lists the command-line tools)",
            env!("CARGO_PKG_VERSION")
        );
    }
    use wedge::engine::{detect_protocol, run, Protocol};
    let mut stdin = std::io::BufReader::new(std::io::stdin());
    let (protocol, first) = match protocol {
        "wedge" => (Protocol::Wedge, Vec::new()),
        "nboard" => (Protocol::Nboard, Vec::new()),
        "gtp" => (Protocol::Gtp, Vec::new()),
        _ => {
            // Read (and keep) lines until one is not blank; its first word decides. At most the
            // protocol's line limit is read, so a huge first line cannot exhaust memory.
            let mut first = Vec::new();
            loop {
                let start = first.len();
                let limit = (wedge::protocol::parser::MAX_LINE_BYTES + 2) as u64;
                match (&mut stdin).take(limit).read_until(b'\n', &mut first) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&first[start..]);
                        if !line.trim().is_empty() || !line.ends_with('\n') {
                            break;
                        }
                    }
                }
            }
            let text = String::from_utf8_lossy(&first).to_string();
            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            (detect_protocol(line), first)
        }
    };
    let input = std::io::Cursor::new(first).chain(stdin);
    run(protocol, input, std::io::stdout())
}

fn run_perft(depth: u32, board: Option<&str>, divide: bool) -> Result<(), String> {
    let pos = match board {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| format!("--board: {e}"))?,
        None => Position::START,
    };
    let start = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, n) in perft::perft_divide(pos.board, depth) {
            println!("{mv} {n}");
            total += n;
        }
        total
    } else {
        perft::perft(pos.board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("perft {depth}: {total} leaves");
    println!(
        "time {:.3} s, {:.0} leaves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run_solve(
    file: &Path,
    first: usize,
    eval_file: Option<&Path>,
    options: impl FnOnce(wedge::eval::Evaluator) -> solve::SolveOptions,
) -> Result<(), String> {
    let lines = read_obf_file(file).map_err(|e| e.to_string())?;
    let eval = match eval_file {
        Some(path) => load_evaluator(path)?,
        None => wedge::eval::Evaluator::default(),
    };
    let options = options(eval);
    let start = Instant::now();
    println!("{}", solve::HEADER);
    let results = solve::solve_all(&lines, &options, |i, r| {
        println!("{}", solve::row(first + i, r));
    })
    .map_err(|e| format!("solve: {e}"))?;
    println!("{}", solve::totals(&results, start.elapsed()));
    let bad = results.iter().filter(|r| !r.ok).count();
    if bad > 0 {
        return Err(format!(
            "{bad} position(s) disagree with {}",
            file.display()
        ));
    }
    Ok(())
}

fn run_bench(depth: u32, hash: usize) -> Result<(), String> {
    let mut i = 0;
    let never = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let lines = bench::run(
        depth.clamp(1, 60),
        hash,
        never,
        |line: &bench::BenchLine| {
            i += 1;
            println!(
                "position {:>2}: {:>11} nodes {:>8} ms  {}",
                i,
                line.nodes,
                line.time.as_millis(),
                line.position
            );
        },
    )
    .map_err(|e| format!("bench: {e}"))?;
    print!("{}", bench::summary(&lines));
    Ok(())
}

fn run_match(args: MatchArgs) -> Result<(), String> {
    use std::io::Write;
    use wedge::tools::arena::{self, player, stats::Sprt};
    if args.engines.len() != 2 {
        return Err(format!(
            "match: give exactly two --engine, got {}",
            args.engines.len()
        ));
    }
    let a = player::EngineSpec::parse(&args.engines[0])?;
    let b = player::EngineSpec::parse(&args.engines[1])?;
    let all = match &args.openings {
        Some(path) => arena::read_openings(path, args.opening_plies).map_err(|e| e.to_string())?,
        None => vec![wedge::board::text::Game::new(Position::START)],
    };
    if all.is_empty() {
        return Err("match: the openings file has no openings".into());
    }
    if args.rounds == 0 {
        return Err("match: --rounds must be at least 1".into());
    }
    let games = match args.games {
        Some(0) => return Err("match: --games must be at least 1".into()),
        Some(n) => n,
        None => 2 * all.len() * args.rounds,
    };
    let pairs = games.div_ceil(2);
    let mut openings =
        arena::sample_openings(&all, pairs.div_ceil(args.rounds), args.rounds, args.seed);
    openings.truncate(pairs);
    let tc = if let Some(tc) = &args.tc {
        arena::parse_tc(tc)?
    } else if let Some(ms) = args.movetime {
        player::TimeControl::MoveTime(std::time::Duration::from_millis(ms.max(1)))
    } else if let Some(d) = args.depth {
        player::TimeControl::Depth(d.clamp(1, 60))
    } else if let Some(n) = args.nodes {
        player::TimeControl::Nodes(n.max(1))
    } else {
        player::TimeControl::MoveTime(std::time::Duration::from_millis(100))
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let mut out = match &args.out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    let config = arena::MatchConfig {
        a,
        b,
        openings,
        games,
        tc,
        concurrency: args.concurrency.clamp(1, 256),
        sprt,
        seed: args.seed,
        move_timeout: std::time::Duration::from_secs(args.move_timeout.max(1)),
        stderr_logs: args.out.clone(),
    };
    let start = Instant::now();
    // On a terminal, a bar redrawn in place (indicatif hides it when stderr is not a terminal);
    // otherwise a line every 10 games and one for the final tally, for logs.
    let bar = indicatif::ProgressBar::new(config.games as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:20} {pos}/{len} games [{elapsed}]  {wide_msg}",
    ) {
        bar.set_style(style);
    }
    let log_line = |tally: &wedge::tools::arena::stats::Tally| {
        eprintln!(
            "games {}/{}  {}  {:.0} s",
            tally.games(),
            config.games,
            arena::progress_text(tally),
            start.elapsed().as_secs_f64()
        );
    };
    let mut failures = Vec::new();
    let mut write_error = None;
    let mut logged = 0;
    let tally = arena::run(&config, |game, tally| {
        if let Some(f) = out.as_mut() {
            if let Err(e) = writeln!(f, "{}", game.record).and_then(|_| f.flush()) {
                write_error.get_or_insert(e.to_string());
            }
        }
        if let Some(failure) = &game.failure {
            failures.push(failure.clone());
        }
        bar.set_position(u64::from(tally.games()));
        bar.set_message(arena::progress_text(tally));
        if bar.is_hidden() && tally.games() % 10 == 0 {
            log_line(tally);
            logged = tally.games();
        }
    });
    bar.finish_and_clear();
    let tally = tally.map_err(|e| format!("match: {e}"))?;
    if bar.is_hidden() && logged != tally.games() {
        log_line(&tally);
    }
    print!("{}", arena::report(&config, &tally, &failures));
    if let Some(path) = &args.json {
        // Written beside the target and renamed over it, so a reader never sees half a report.
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        std::fs::write(&partial, arena::json_report(&config, &tally, &failures))
            .and_then(|_| std::fs::rename(&partial, path))
            .map_err(|e| format!("match: writing {}: {e}", path.display()))?;
    }
    if let Some(e) = write_error {
        return Err(format!("writing the games failed: {e}"));
    }
    Ok(())
}

/// A progress reporter for long jobs (book build and extend, datagen): an indicatif bar with rate
/// and ETA redrawn in place on a terminal; a log line every 10 seconds otherwise (indicatif draws
/// nothing when stderr is not a terminal, so logs and CI output get the plain lines).
fn progress_reporter(what: &'static str) -> impl Fn(usize, usize) + Sync {
    use std::io::IsTerminal;
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} {per_sec} ETA {eta}",
    ) {
        bar.set_style(style.progress_chars("#>-"));
    }
    bar.set_prefix(what);
    let last_log = std::sync::Mutex::new(Instant::now());
    move |done: usize, total: usize| {
        if tty {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            if done == total {
                bar.finish();
            }
            return;
        }
        let secs = start.elapsed().as_secs_f64();
        let rate = done as f64 / secs.max(1e-3);
        let eta = if rate > 0.0 {
            (total.saturating_sub(done)) as f64 / rate
        } else {
            0.0
        };
        if let Ok(mut last) = last_log.lock() {
            if last.elapsed().as_secs() >= 10 || done == total {
                *last = Instant::now();
                eprintln!(
                    "{what}: {done}/{total} ({:.1}%), {rate:.1}/s, ETA {eta:.0}s",
                    100.0 * done as f64 / total.max(1) as f64
                );
            }
        }
    }
}

fn load_book(path: Option<&Path>) -> Result<wedge::book::Book, String> {
    match path {
        Some(p) => wedge::book::Book::load(p),
        None => wedge::book::Book::embedded(),
    }
    .map_err(|e| e.to_string())
}

fn run_book(action: BookAction) -> Result<(), String> {
    use wedge::book::build::{build, extend, BuildOptions};
    let options = |l: &LeafArgs| BuildOptions {
        depth: l.depth.clamp(1, 60),
        exact_empties: l.exact_empties.min(30),
        threads: l.threads.clamp(1, 256),
        hash_mb: l.hash.clamp(1, 4096),
    };
    let journal_of = |out: &Path| {
        let mut j = out.as_os_str().to_owned();
        j.push(".journal");
        PathBuf::from(j)
    };
    match action {
        BookAction::Build {
            openings,
            out,
            leaf,
        } => {
            let games = read_openings_file(&openings).map_err(|e| e.to_string())?;
            if games.is_empty() {
                return Err(format!(
                    "{}: no opening lines in it: a book built from it would be empty",
                    openings.display()
                ));
            }
            let journal = journal_of(&out);
            let book = build(
                &games,
                &options(&leaf),
                Some(&journal),
                &progress_reporter("leaves"),
            )?;
            book.save(&out)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            let _ = std::fs::remove_file(&journal);
            println!("wrote {} positions to {}", book.len(), out.display());
            Ok(())
        }
        BookAction::Extend {
            book,
            out,
            margin,
            max,
            leaf,
        } => {
            let b = load_book(book.as_deref())?;
            let journal = journal_of(&out);
            let before = b.len();
            let extended = extend(
                &b,
                margin.max(0),
                max,
                &options(&leaf),
                Some(&journal),
                &progress_reporter("new positions"),
            )?;
            extended
                .save(&out)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            let _ = std::fs::remove_file(&journal);
            println!(
                "{} -> {} positions, wrote {}",
                before,
                extended.len(),
                out.display()
            );
            Ok(())
        }
        BookAction::Stats { book } => {
            let b = load_book(book.as_deref())?;
            let leaves = b
                .entries()
                .iter()
                .filter(|e| e.flags & wedge::book::FLAG_LEAF != 0)
                .count();
            let exact = b
                .entries()
                .iter()
                .filter(|e| e.depth == wedge::book::DEPTH_EXACT)
                .count();
            let mut by_discs = std::collections::BTreeMap::new();
            for e in b.entries() {
                *by_discs
                    .entry((e.player | e.opponent).count_ones())
                    .or_insert(0usize) += 1;
            }
            println!(
                "positions: {} ({} leaves, {} inner, {} exact)",
                b.len(),
                leaves,
                b.len() - leaves,
                exact
            );
            println!("size: {} bytes", b.to_bytes().len());
            if let Some(e) = b.get(Position::START.board) {
                println!("start position: score {:+}, depth {}", e.score, e.depth);
            }
            println!("positions by disc count: {:?}", by_discs);
            Ok(())
        }
        BookAction::Probe { position, book } => {
            let b = load_book(book.as_deref())?;
            let pos = if position.chars().filter(|c| !c.is_whitespace()).count() >= 64 {
                position.parse::<Position>().map_err(|e| e.to_string())?
            } else {
                position
                    .parse::<wedge::board::text::Game>()
                    .map_err(|e| e.to_string())?
                    .position()
            };
            match b.get(pos.board) {
                Some(e) => println!(
                    "in book: score {:+} depth {}{}",
                    e.score,
                    e.depth,
                    if e.flags & wedge::book::FLAG_LEAF != 0 {
                        " (leaf)"
                    } else {
                        ""
                    }
                ),
                None => println!("not in book"),
            }
            for m in b.moves(pos.board) {
                println!("{} {:+} depth {}", m.mv, m.score, m.depth);
            }
            Ok(())
        }
        BookAction::Export { book } => {
            use std::io::Write;
            let b = load_book(book.as_deref())?;
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            for e in b.entries() {
                let Ok(board) = wedge::Board::new(e.player, e.opponent) else {
                    continue;
                };
                let pos = Position {
                    board,
                    side: wedge::Color::Black,
                };
                for m in b.moves(board) {
                    if writeln!(out, "{} {} {:+} {}", pos, m.mv, m.score, m.depth).is_err() {
                        return Ok(());
                    }
                }
            }
            Ok(())
        }
    }
}

/// Parses `LO-HI` (numbers of empty squares, LO <= HI <= 60).
fn parse_empties_range(text: &str) -> Result<(u32, u32), String> {
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

/// `wedge evaltest`: evaluation error against labelled data, by empty squares.
/// The positions of every data file; a file with none is an error naming it (an empty file would
/// otherwise train or measure nothing and still exit 0).
fn read_all_samples(paths: &[PathBuf]) -> Result<Vec<wedge::tools::train::Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let these = wedge::tools::train::read_samples(path)?;
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

fn run_eval_test(data: &[PathBuf], eval_file: Option<&Path>) -> Result<(), String> {
    use wedge::eval::Evaluator;
    use wedge::tools::train::EmptiesErrors;
    let samples = read_all_samples(data)?;
    let mut evaluators = vec![
        ("hand", Evaluator::new(Weights::default())),
        ("trained", Evaluator::default()),
    ];
    if let Some(path) = eval_file {
        evaluators.push(("file", load_evaluator(path)?));
    }
    let errors: Vec<EmptiesErrors> = evaluators
        .iter()
        .map(|(_, e)| EmptiesErrors::measure(&samples, |b| f64::from(e.evaluate(b)) / 100.0))
        .collect();
    println!("mean absolute error (discs) against the labels, by empty squares:");
    let mut header = format!("{:>7} {:>9}", "empties", "positions");
    for (name, _) in &evaluators {
        header.push_str(&format!(" {name:>8}"));
    }
    println!("{header}");
    let mut rows: Vec<(String, u32, u32)> = (0..=60)
        .filter(|&n| errors[0].count(n, n) > 0)
        .map(|n| (n.to_string(), n, n))
        .collect();
    rows.push(("all".to_string(), 0, 60));
    for (label, lo, hi) in rows {
        let mut line = format!("{label:>7} {:>9}", errors[0].count(lo, hi));
        for e in &errors {
            line.push_str(&format!(" {:>8.2}", e.mae(lo, hi).unwrap_or(0.0)));
        }
        println!("{line}");
    }
    Ok(())
}

fn run_train(
    data: &[PathBuf],
    out: &Path,
    held_out: u64,
    init: Option<&Path>,
    mut options: wedge::tools::train::TrainOptions,
) -> Result<(), String> {
    use wedge::tools::train::{split, train, PhaseErrors};
    if let Some(path) = init {
        options.init = Some(wedge::eval::pattern::PatternWeights::load(path)?);
    }
    let samples = read_all_samples(data)?;
    let (training, test) = split(samples, held_out.min(900));
    println!(
        "{} training positions, {} held out",
        training.len(),
        test.len()
    );
    let start = Instant::now();
    let weights = train(&training, &options, |epoch, mae| {
        eprintln!("epoch {epoch}: training MAE {mae:.3} discs")
    });
    println!("trained in {:.1} s", start.elapsed().as_secs_f64());
    let hand = wedge::eval::Evaluator::new(Weights::default());
    let hand_err = PhaseErrors::measure(&test, |b| f64::from(hand.evaluate(b)) / 100.0);
    let init_err = options
        .init
        .as_ref()
        .map(|init| PhaseErrors::measure(&test, |b| f64::from(init.evaluate(b)) / 100.0));
    let train_err = PhaseErrors::measure(&training, |b| f64::from(weights.evaluate(b)) / 100.0);
    let test_err = PhaseErrors::measure(&test, |b| f64::from(weights.evaluate(b)) / 100.0);
    println!("mean absolute error (discs) by phase (empties):");
    println!(
        "phase        positions   hand(held-out)  trained(train)  trained(held-out){}",
        if init_err.is_some() {
            "  init(held-out)"
        } else {
            ""
        }
    );
    let init_column = |mae: Option<f64>| mae.map_or(String::new(), |m| format!(" {m:>15.2}"));
    for ph in 0..wedge::eval::pattern::PHASES {
        println!(
            "{:>2}-{:<2} {:>17} {:>16.2} {:>15.2} {:>18.2}{}",
            ph * 10,
            ph * 10 + 9,
            test_err.count[ph],
            hand_err.mae[ph],
            train_err.mae[ph],
            test_err.mae[ph],
            init_column(init_err.as_ref().map(|e| e.mae[ph]))
        );
    }
    println!(
        "all   {:>17} {:>16.2} {:>15.2} {:>18.2}{}",
        test_err.count.iter().sum::<usize>(),
        hand_err.overall(),
        train_err.overall(),
        test_err.overall(),
        init_column(init_err.as_ref().map(|e| e.overall()))
    );
    std::fs::write(out, weights.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// The evaluation a weights file gives (either kind), as `setoption name EvalFile` would load it.
fn load_evaluator(path: &Path) -> Result<wedge::eval::Evaluator, String> {
    let mut options = wedge::engine::options::Options::default();
    options.set("EvalFile", Some(&path.to_string_lossy()))?;
    Ok(wedge::eval::Evaluator::with_pattern(
        options.weights.clone(),
        options.pattern.clone(),
    ))
}

#[cfg(test)]
mod tests {
    use super::parse_empties_range;

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
