//! `wedge perft`: counts move paths from a position (the move generator's test and speed).

use std::time::Instant;
use wedge::board::Position;
use wedge::tools::perft;

/// The arguments of `wedge perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Number of plies, 1 to 20.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Start from this board: 64 squares a1..h8 (X, O, -) then the side to move (X or O).
    /// It may start with `-` (an empty a1): `--board "---...--- X"` works as written.
    #[arg(long, allow_hyphen_values = true)]
    pub board: Option<String>,
    /// Print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
}

/// Counts and prints the leaves (below each root move with `--divide`), the time and the speed.
pub fn run(args: PerftArgs) -> Result<(), String> {
    let (depth, board, divide) = (args.depth, args.board.as_deref(), args.divide);
    let pos = match board {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| format!("--board: {e}"))?,
        None => Position::START,
    };
    let start = Instant::now();
    let total = if divide {
        let never = std::sync::atomic::AtomicBool::new(false);
        perft::perft_divide_stoppable(pos.board, depth, &never, |mv, n| outln!("{mv} {n}"))
            .unwrap_or_default()
    } else {
        perft::perft(pos.board, depth)
    };
    outln!("{}", perft::summary(depth, total, start.elapsed()));
    Ok(())
}
