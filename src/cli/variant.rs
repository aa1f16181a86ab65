//! `wedge variant`: tools for variant boards (any size up to 16 x 16, blocked squares): `perft`
//! counts move paths (the move generator's test), `minimax` shows alpha-beta giving plain
//! minimax's value with far fewer nodes (the course's demonstration, scanline move order).

use std::path::PathBuf;
use std::time::Instant;
use wedge::rng::Rng;
use wedge::variant::board::{parse_size, Board, StartLayout};
use wedge::variant::perft;
use wedge::variant::search::{SearchOptions, Searcher};

/// The `wedge variant` tools.
#[derive(clap::Subcommand)]
pub enum VariantAction {
    /// Count move paths at depths 1..=N on a variant board (a pass is a ply; a finished game
    /// counts once).
    Perft(PerftArgs),
    /// Alpha-beta against plain minimax at depths 1..=N in scanline move order: values and node
    /// counts (and wedge's ordered search with its table for comparison).
    Minimax(MinimaxArgs),
}

/// Which board: size and blocked squares, or a printed-board file.
#[derive(clap::Args)]
pub struct LayoutArgs {
    /// Rows x columns, each 2 to 16.
    #[arg(long, default_value = "10x10")]
    pub size: String,
    /// The blocked squares: `none`, `corners` (the four corners), `random:K` (K squares drawn with
    /// --seed, in pairs symmetric under a half turn when K is even) or a FILE holding a printed
    /// board (`.` `W` `R` `#`, optional `to move: W|R`), whose size, discs and side are used as they are (--size is then ignored).
    #[arg(long, alias = "layout", default_value = "corners")]
    pub blocked: String,
    /// The seed of `random:K` layouts and of --random-moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play this many random moves (seeded) from the position first.
    #[arg(long, default_value_t = 0)]
    pub random_moves: usize,
}

/// The arguments of `wedge variant perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// The board: its size and blocked squares.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// The deepest count, 1 to 20 (every depth from 1 is printed).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Also print the count below each legal move at the deepest depth.
    #[arg(long)]
    pub divide: bool,
}

/// The arguments of `wedge variant minimax`.
#[derive(clap::Args)]
pub struct MinimaxArgs {
    /// The board: its size and blocked squares.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// The deepest search, 1 to 20 (every depth from 1 is searched).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
}

/// Runs a `wedge variant` tool.
pub fn run(action: VariantAction) -> Result<(), String> {
    match action {
        VariantAction::Perft(args) => run_perft(args),
        VariantAction::Minimax(args) => run_minimax(args),
    }
}

/// The position the arguments describe, and a line saying how it was made.
fn position(args: &LayoutArgs) -> Result<(Board, String), String> {
    let mut rng = Rng::new(args.seed);
    let spec = args.blocked.as_str();
    let named = StartLayout::parse_named(spec).map_err(|e| format!("--blocked: {e}"))?;
    let (board, what) = if let Some(layout) = named {
        let (rows, cols) = parse_size(&args.size).map_err(|e| format!("--size: {e}"))?;
        let board = layout
            .start(rows, cols, &mut rng)
            .map_err(|e| format!("--blocked {spec}: {e}"))?;
        let what = match layout {
            StartLayout::Corners => format!("{rows}x{cols}, the four corners blocked"),
            StartLayout::Random(k) => format!(
                "{rows}x{cols}, {k} random blocked squares (seed {})",
                args.seed
            ),
            _ => format!("{rows}x{cols}, no blocked square"),
        };
        (board, what)
    } else {
        let path = PathBuf::from(spec);
        let bytes = wedge::files::read_regular(&path, wedge::files::MAX_TEXT_BYTES)
            .map_err(|e| format!("--blocked {spec}: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{spec}: not UTF-8 text"))?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let board = Board::parse_printed(text).map_err(|e| format!("{spec}: {e}"))?;
        let what = format!("{}x{} from {spec}", board.rows(), board.cols());
        (board, what)
    };
    let mut board = board;
    let mut played = 0;
    for _ in 0..args.random_moves {
        if board.is_over() {
            break;
        }
        played += 1;
        let moves = board.legal_moves();
        board = match moves.len() {
            0 => board.pass(),
            n => board
                .play(moves[rng.below(n as u64) as usize])
                .unwrap_or(board),
        };
    }
    let what = if args.random_moves > played {
        format!("{what}, after {played} random moves (the game ended)")
    } else if args.random_moves > 0 {
        format!("{what}, after {} random moves", args.random_moves)
    } else {
        what
    };
    Ok((board, what))
}

/// Prints the position, then one count per depth (and the divide at the deepest).
fn run_perft(args: PerftArgs) -> Result<(), String> {
    let (board, what) = position(&args.layout)?;
    outln!("{what}");
    out!("{board}");
    for depth in 1..=args.depth {
        let start = Instant::now();
        let n = perft::perft(&board, depth);
        let secs = start.elapsed().as_secs_f64();
        outln!(
            "perft {depth}: {n} leaves, {secs:.3} s, {:.0} leaves/s",
            n as f64 / secs.max(1e-9)
        );
    }
    if args.divide && args.depth > 0 {
        for (mv, n) in perft::perft_divide(&board, args.depth) {
            match mv {
                Some(sq) => outln!("{} {n}", wedge::protocol::variant::square_name(sq)),
                None => outln!("pass {n}"),
            }
        }
    }
    Ok(())
}

/// Prints, per depth, minimax's and alpha-beta's values and nodes in scanline order, and wedge's
/// own search (ordered, with its table) for comparison.
fn run_minimax(args: MinimaxArgs) -> Result<(), String> {
    let (board, what) = position(&args.layout)?;
    outln!("{what}");
    out!("{board}");
    let scanline = |alpha_beta| {
        let mut s = Searcher::new(16);
        s.options = SearchOptions {
            alpha_beta,
            scanline_order: true,
            transposition_table: false,
            ..SearchOptions::default()
        };
        s
    };
    let mut minimax = scanline(false);
    let mut alpha_beta = scanline(true);
    let mut ordered = Searcher::new(16);
    outln!(
        "{:>5} {:>9} {:>14} {:>9} {:>14} {:>8} {:>14} {:>8}",
        "depth",
        "minimax",
        "nodes",
        "alphabeta",
        "nodes",
        "ratio",
        "ordered+tt",
        "ratio"
    );
    for depth in 1..=args.depth {
        let mm = minimax.search_depth(&board, depth);
        let ab = alpha_beta.search_depth(&board, depth);
        let full = ordered.search_depth(&board, depth);
        if ab.value != mm.value || full.value != mm.value {
            return Err(format!(
                "depth {depth}: values differ: minimax {}, alpha-beta {}, ordered {}",
                mm.value, ab.value, full.value
            ));
        }
        outln!(
            "{depth:>5} {:>9} {:>14} {:>9} {:>14} {:>8.4} {:>14} {:>8.4}",
            mm.value,
            mm.nodes,
            ab.value,
            ab.nodes,
            ab.nodes as f64 / mm.nodes.max(1) as f64,
            full.nodes,
            full.nodes as f64 / mm.nodes.max(1) as f64
        );
    }
    Ok(())
}
