//! The `wedge` command line: with no subcommand it runs the engine protocol loop on stdin/stdout;
//! subcommands run the tools of `cli/` (one file each) over the library. Errors are printed here
//! and only here.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// `wedge --version`: the version, the commit and the CPU features (what a bug report needs).
static VERSION: once_cell::sync::Lazy<String> =
    once_cell::sync::Lazy::new(wedge::build_info::long_version);

#[derive(Parser)]
#[command(name = "wedge", version = VERSION.as_str(), about = "wedge, an Othello engine", long_about = None)]
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
    Perft(cli::perft::PerftArgs),
    /// Analyse whole games: each move's loss against the best move, errors marked, each side's
    /// totals, with exact endgames (see docs/analyze.md).
    Analyze(cli::analyze::AnalyzeArgs),
    /// Search a fixed set of positions to a fixed depth; prints the node count (the search's
    /// fingerprint) and the speed.
    Bench(cli::bench::BenchArgs),
    /// Opening books: build, extend, inspect, export (see docs/book.md).
    Book {
        #[command(subcommand)]
        action: cli::book::BookAction,
    },
    /// Play a match between two engines (see docs/match.md).
    Match(cli::matches::MatchArgs),
    /// Play a game against the engine in the terminal (see docs/play.md).
    Play(cli::play::PlayArgs),
    /// The board in the browser: play, hints, analysis (see docs/gui.md).
    Gui(cli::gui::GuiArgs),
    /// Tune an engine's spin options by SPSA over games (see docs/tuning.md).
    Tune(cli::tune::TuneArgs),
    /// Self-play data for training the pattern evaluation (see docs/training.md).
    Datagen(cli::training::DatagenArgs),
    /// Training-data files: `merge` joins shards and files into checked binary files, `convert`
    /// rewrites one in the current format, `positions` lists the positions of recorded games,
    /// `label` scores a list of positions into one, `info` counts them (see docs/training.md).
    Data {
        #[command(subcommand)]
        action: cli::data::DataAction,
    },
    /// Mean absolute error of evaluations against the labels of data files, by empty squares, by
    /// the size of the score and, for several files, by file: the hand evaluation, the built-in
    /// trained one and optionally a weights file or a search.
    #[command(name = "evaltest")]
    EvalTest(cli::evaltest::EvalTestArgs),
    /// Fit the pattern evaluation to data files; reports errors per phase and writes the weights.
    Train(cli::training::TrainArgs),
    /// Evaluation weights: `dump` writes the evaluation in use as the files that load it again.
    Weights {
        #[command(subcommand)]
        action: cli::weights::WeightsAction,
    },
    /// Solve the positions of an OBF file exactly and check the scores it gives.
    Solve(cli::solve::SolveArgs),
    /// The midgame search's Multi-ProbCut table: `fit` measures and fits it (see docs/search.md).
    Mpc {
        #[command(subcommand)]
        action: cli::mpc::MpcAction,
    },
    /// Host the course's 10x10 game server: referee a session of games between a white and a red
    /// client over TCP (see docs/variants.md).
    Server(cli::server::ServerArgs),
    /// Play a session in the course's game server as white or red (see docs/variants.md).
    Client(cli::client::ClientArgs),
    /// Variant boards (any size up to 16x16, blocked squares): `perft`, and `minimax` (alpha-beta
    /// against plain minimax, the course's demonstration; see docs/variants.md).
    Variant {
        #[command(subcommand)]
        action: cli::variant::VariantAction,
    },
}

/// Makes a write to a closed pipe end the process quietly, as Unix tools do (`wedge perft 10 |
/// head -1` exits with status 141 and no message), instead of Rust's default of ignoring SIGPIPE
/// and panicking in `println!`. Only for the command-line tools that write to nothing but their
/// output: the engine process keeps SIGPIPE ignored and ends cleanly when its writer sees the
/// closed pipe, the match runner writes to its engines' pipes, and the browser board keeps serving.
fn die_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with SIG_DFL only restores the default disposition of SIGPIPE (end the
    // process); it installs no handler, so no Rust code ever runs in signal context, and it is
    // called once at start-up before any other thread exists.
    let _ = unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    // Not for `match` and `tune`: they write to its engines' pipes, and an engine that exits must
    // be a failure the runner reports, not a signal that kills the runner. Not for `gui`: a board
    // started by a launcher that does not read its output keeps serving.
    let keeps_sigpipe_ignored = matches!(
        cli.command,
        Some(Command::Match(_) | Command::Tune(_) | Command::Gui(_))
    );
    if cli.command.is_some() && !keeps_sigpipe_ignored {
        die_quietly_on_closed_pipe();
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Analyze(args)) => match cli::analyze::run(args) {
            Ok(status) if cli::stdout_failure().is_none() => return ExitCode::from(status),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        },
        Some(Command::Match(args)) => match cli::matches::run(args) {
            Ok(status) if cli::stdout_failure().is_none() => return ExitCode::from(status),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        },
        Some(Command::Tune(args)) => match cli::tune::run(args) {
            Ok(status) if cli::stdout_failure().is_none() => return ExitCode::from(status),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        },
        Some(Command::Play(args)) => match cli::play::run(args) {
            Ok(status) => return ExitCode::from(status),
            Err(e) => Err(e),
        },
        Some(Command::Gui(args)) => cli::gui::run(args),
        Some(Command::Datagen(args)) => cli::training::datagen(args),
        Some(Command::Train(args)) => cli::training::train(args),
        Some(Command::EvalTest(args)) => cli::evaltest::evaltest(args),
        Some(Command::Data { action }) => cli::data::run(action),
        Some(Command::Book { action }) => cli::book::run(action),
        Some(Command::Weights { action }) => cli::weights::run(action),
        Some(Command::Solve(args)) => cli::solve::run(args),
        Some(Command::Mpc { action }) => cli::mpc::run(action),
        Some(Command::Server(args)) => cli::server::run(args),
        Some(Command::Client(args)) => cli::client::run(args),
        Some(Command::Variant { action }) => cli::variant::run(action),
        None => {
            let code = cli::engine::run_engine(&cli.protocol);
            return ExitCode::from(code.clamp(0, 255) as u8);
        }
    };
    // A tool whose output could not be written has failed, even where its files were written.
    let result = result.and_then(|()| cli::stdout_failure().map_or(Ok(()), |e| Err(e.to_string())));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("wedge: {msg}");
            ExitCode::FAILURE
        }
    }
}
