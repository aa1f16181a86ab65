//! `wedge server`: hosts the course's game server (docs/variants.md, "The game server"): parses
//! the session's options into a [`SessionConfig`], listens, prints the port, the seats, each
//! game's result (and with `--watch` every position), writes the records and the summary, and
//! turns Ctrl-C into a clean stop (ABORT to the clients, sockets closed, summary printed).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use wedge::rng::Rng;
use wedge::variant::board::{parse_size, Board, SideNames, StartLayout};
use wedge::variant::server::{self, Event, SessionConfig, SessionEnd, Starts};

/// The arguments of `wedge server`.
#[derive(clap::Args)]
pub struct ServerArgs {
    /// The course server's positional form, `GAMES [PORT [TIME [POSITION]]]`: the same as
    /// --games, --port, --time and --position (give each one way only).
    #[arg(value_name = "GAMES PORT TIME POSITION", num_args = 0..=4)]
    pub positional: Vec<String>,
    /// Games to play (required, here or as the first positional argument).
    #[arg(long)]
    pub games: Option<u32>,
    /// Port to listen on (default 5555; 0: any free port, printed on the first line).
    #[arg(long)]
    pub port: Option<u16>,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Seconds per player per game (decimals allowed; default 120).
    #[arg(long)]
    pub time: Option<String>,
    /// Start every game from this position: a printed board (`.` empty, `W`, `R`, `#` blocked;
    /// frame and numbers ignored; an optional line `to move: W|R`).
    #[arg(long, conflicts_with_all = ["layout", "size"])]
    pub position: Option<PathBuf>,
    /// Blocked squares: `corners` (the four corners, the default), `none`, `random:K` (K squares
    /// drawn anew for each game from --seed), or a printed-board FILE whose `#` squares are the
    /// layout (its discs are ignored: games start from the central four).
    #[arg(long)]
    pub layout: Option<String>,
    /// Seed of the random layouts (default: from the clock; printed either way).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Board size ROWSxCOLS, each 2 to 16 (default 10x10; not with a position or layout file).
    #[arg(long)]
    pub size: Option<String>,
    /// Write each game as a GGF-like line to DIR/games.ggf as it ends, and the summary to
    /// DIR/summary.txt (both replaced; the directory is created).
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Print every position (the printed board) as the games go.
    #[arg(long)]
    pub watch: bool,
}

/// Raised by SIGINT or SIGTERM; the session polls it.
static STOP: once_cell::sync::Lazy<std::sync::Arc<AtomicBool>> =
    once_cell::sync::Lazy::new(|| std::sync::Arc::new(AtomicBool::new(false)));

/// Makes Ctrl-C (SIGINT) and SIGTERM raise [`STOP`] instead of killing the process; a second one,
/// with the flag already raised, ends the process at once (status 1).
fn stop_on_signals() {
    #[cfg(unix)]
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The conditional shutdown is registered first, so it sees the flag as the signal before
        // raised it. A registration that fails leaves the default action (the process ends).
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 1, STOP.clone());
        let _ = signal_hook::flag::register(signal, STOP.clone());
    }
}

/// Seconds, above 0 and at most 99999.99 (what the wire's `TTTTT.TT` can show).
fn parse_time(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("time '{text}' is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 99_999.99) {
        return Err(format!(
            "time must be above 0 and at most 99999.99 s, got {text}"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A printed board read from a file.
fn read_board(path: &Path) -> Result<Board, String> {
    let bytes = wedge::files::read_regular(path, wedge::files::MAX_TEXT_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    Board::parse_printed(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The games' starts from --position, --layout, --size and --seed, and a line describing them.
fn starts(
    args: &ServerArgs,
    position: Option<&Path>,
    seed: u64,
) -> Result<(Starts, String), String> {
    if let Some(path) = position {
        return Ok((
            Starts::Fixed(read_board(path)?),
            format!("position {}", path.display()),
        ));
    }
    let layout = args.layout.as_deref().unwrap_or("corners");
    let size = args
        .size
        .as_deref()
        .map(|s| parse_size(s).map_err(|e| format!("--size: {e}")))
        .transpose()?;
    let (rows, cols) = size.unwrap_or((10, 10));
    let described = format!("{rows}x{cols}, layout {layout}");
    let named = StartLayout::parse_named(layout).map_err(|e| format!("--layout: {e}"))?;
    match named {
        Some(StartLayout::Random(blocked)) => {
            let starts = Starts::Random {
                rows,
                cols,
                blocked,
                seed,
            };
            starts
                .check()
                .map_err(|e| format!("--layout {layout}: {e}"))?;
            Ok((starts, format!("{described}, seed {seed}")))
        }
        Some(fixed) => {
            let start = fixed
                .start(rows, cols, &mut Rng::new(seed))
                .map_err(|e| format!("--layout {layout}: {e}"))?;
            Ok((Starts::Fixed(start), described))
        }
        None => {
            if size.is_some() {
                return Err(
                    "--size does not go with a layout file (the file gives the size)".into(),
                );
            }
            // The file's blocked squares, with the discs of a start position.
            let board = read_board(Path::new(layout))?;
            let start = board.restarted().ok_or_else(|| {
                format!("--layout {layout}: a central square is blocked, no game can start")
            })?;
            Ok((
                Starts::Fixed(start),
                format!("{}x{}, layout {layout}", board.rows(), board.cols()),
            ))
        }
    }
}

/// One setting given as a flag or as a positional argument (not both).
fn either<T>(
    flag: Option<T>,
    positional: Option<&String>,
    what: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    match (flag, positional) {
        (Some(_), Some(_)) => Err(format!(
            "{what} is given twice (as --{what} and as a positional argument)"
        )),
        (Some(v), None) => Ok(Some(v)),
        (None, Some(text)) => parse(text)
            .map(Some)
            .map_err(|e| format!("{} (positional): {e}", what.to_uppercase())),
        (None, None) => Ok(None),
    }
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// The records directory's two files.
struct Records {
    games: BufWriter<File>,
    summary: PathBuf,
}

impl Records {
    fn create(dir: &Path) -> Result<Records, String> {
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "--records {}: not a folder (it names the folder the records go to)",
                dir.display()
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join("games.ggf");
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        let games = wedge::files::open_output(&mut options, &path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Records {
            games: BufWriter::new(games),
            summary: dir.join("summary.txt"),
        })
    }
}

/// Runs `wedge server`.
pub fn run(args: ServerArgs) -> Result<(), String> {
    if args.positional.len() > 4 {
        return Err("at most 4 positional arguments: GAMES PORT TIME POSITION".into());
    }
    let pos = |i: usize| args.positional.get(i);
    let games = either(args.games, pos(0), "games", |s| {
        super::bounded_count(s, 1, u32::MAX as usize).map(|n| n as u32)
    })?
    .ok_or("the number of games is required (--games N)")?;
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let port = either(args.port, pos(1), "port", |s| {
        s.trim()
            .parse::<u16>()
            .map_err(|_| format!("port '{s}' is not 0 to 65535"))
    })?
    .unwrap_or(5555);
    let time = match either(args.time.clone(), pos(2), "time", |s| Ok(s.to_string()))? {
        Some(text) => parse_time(&text)?,
        None => Duration::from_secs(120),
    };
    let position = either(args.position.clone(), pos(3), "position", |s| {
        Ok(PathBuf::from(s))
    })?;
    if position.is_some() && (args.layout.is_some() || args.size.is_some()) {
        return Err("--position gives the whole start: no --layout or --size with it".into());
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (starts, described) = starts(&args, position.as_deref(), seed)?;
    stop_on_signals();
    let listener = TcpListener::bind((args.host.as_str(), port))
        .map_err(|e| format!("listening on {}:{port}: {e}", args.host))?;
    // Created once the port is ours: a failed start leaves the last session's records alone.
    let mut records = args.records.as_deref().map(Records::create).transpose()?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("listening on {}:{port}: {e}", args.host))?;
    println!("listening on {addr}");
    println!(
        "session: {games} games, {:.2} s a player a game, {described}",
        time.as_secs_f64()
    );

    let config = SessionConfig::new(games, time, starts);
    let watch = args.watch;
    let mut record_error: Option<String> = None;
    let mut on_event = |event: Event<'_>| match event {
        Event::Seated { colour, peer } => println!("{} seated: {peer}", colour.name()),
        Event::Refused { peer, reason } => println!("refused {peer}: {reason}"),
        Event::GameStarted { number, board } => {
            if watch {
                println!("game {number}: start\n{}", board.printed());
            }
        }
        Event::Played {
            number,
            mv,
            time_left,
            board,
        } => {
            if watch {
                let square = mv
                    .square
                    .map(|sq| format!("{} ({}, {})", server::square_text(sq), sq.row, sq.col))
                    .unwrap_or_else(|| "pass".into());
                println!(
                    "game {number}: {} {square} ({:.2} s, {:.2} s left)\n{}",
                    mv.colour.letter(),
                    mv.used.as_secs_f64(),
                    time_left.as_secs_f64(),
                    board.printed()
                );
            }
        }
        Event::GameEnded(record) => {
            println!(
                "game {}/{}: {} [{}]",
                record.number,
                record.of,
                record.describe(),
                record.result()
            );
            let line = record.ggf();
            match records.as_mut() {
                Some(r) => {
                    if let Err(e) = writeln!(r.games, "{line}").and_then(|()| r.games.flush()) {
                        record_error.get_or_insert(format!("writing the records: {e}"));
                    }
                }
                None => println!("{line}"),
            }
        }
    };
    let report =
        server::run_session(listener, &config, &STOP, &mut on_event).map_err(|e| e.to_string())?;
    let summary = report.summary();
    print!("{summary}");
    if let Some(r) = &records {
        super::write_atomically(&r.summary, &summary)?;
    }
    if let Some(e) = record_error {
        return Err(e);
    }
    match report.end {
        SessionEnd::Complete => Ok(()),
        SessionEnd::Disconnected { colour, game } => Err(format!(
            "session ended early: {} disconnected in game {game}",
            colour.name()
        )),
        SessionEnd::Interrupted => Err("interrupted".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse() {
        assert_eq!(parse_time("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_time("0").is_err());
        assert!(parse_time("100000").is_err());
        assert!(parse_time("nan").is_err());
    }
}
