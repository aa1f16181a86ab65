//! The `wedge` command line: with no subcommand it runs the engine protocol loop on stdin/stdout;
//! subcommands run tools (perft, ...) directly over the library. Errors are printed here and only here.

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use wedge::board::text::read_obf_file;
use wedge::board::Position;
use wedge::eval::weights::Weights;
use wedge::tools::{bench, perft, solve};

#[derive(Parser)]
#[command(name = "wedge", version, about = "wedge, an Othello engine", long_about = None)]
struct Cli {
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
        #[arg(long)]
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
        #[arg(long, default_value_t = 64)]
        hash: usize,
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
        /// Positions solved at once (each position is solved by one thread).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size per thread, in MB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Number of the first position in the file (e.g. 40 for fforum-40-59.obf).
        #[arg(long, default_value_t = 1)]
        first: usize,
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

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            board,
            divide,
        }) => run_perft(depth, board.as_deref(), divide),
        Some(Command::Bench { depth, hash }) => {
            run_bench(depth, hash);
            Ok(())
        }
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
            hash,
            first,
        }) => run_solve(&file, wld, threads, hash, first),
        None => {
            let stdin = std::io::stdin();
            let code = wedge::engine::run(std::io::BufReader::new(stdin), std::io::stdout());
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
    wld: bool,
    threads: usize,
    hash: usize,
    first: usize,
) -> Result<(), String> {
    let lines = read_obf_file(file).map_err(|e| e.to_string())?;
    let options = solve::SolveOptions {
        wld,
        threads,
        hash_mb: hash,
    };
    let start = Instant::now();
    println!("{}", solve::HEADER);
    let results = solve::solve_all(&lines, &options, |i, r| {
        println!("{}", solve::row(first + i, r));
    });
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

fn run_bench(depth: u32, hash: usize) {
    let mut i = 0;
    let lines = bench::run(depth.clamp(1, 60), hash, |line| {
        i += 1;
        println!(
            "position {:>2}: {:>11} nodes {:>8} ms  {}",
            i,
            line.nodes,
            line.time.as_millis(),
            line.position
        );
    });
    print!("{}", bench::summary(&lines));
}
