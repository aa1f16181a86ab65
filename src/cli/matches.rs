//! `wedge match`: engine-vs-engine matches ([docs/match.md](../../docs/match.md)).

use std::path::PathBuf;
use std::time::Instant;
use wedge::board::Position;

/// The arguments of `wedge match`.
#[derive(clap::Args)]
pub struct MatchArgs {
    /// An engine: `random`, `greedy`, or "name=NAME cmd=PROGRAM [arg=ARG]... [option.NAME=VALUE]...
    /// [proto=wedge|uci|ugi|nboard|gtp]" (default: wedge's own protocol). Give it twice; the first
    /// is the one the statistics speak for.
    #[arg(long = "engine", required_unless_present = "recount", num_args = 1)]
    pub engines: Vec<String>,
    /// Play nothing: count the games of these files (as --out writes them, from one run or
    /// several) and print the match's report again.
    /// With --sprt, the test is taken on the games counted (the shards of one match together).
    #[arg(long, num_args = 1.., value_name = "GGF_FILE", conflicts_with_all = [
        "engines", "openings", "opening_plies", "games", "out", "json", "variant", "shard",
        "rounds", "seed", "concurrency", "move_timeout", "layout", "random_moves", "tc",
        "movetime", "depth", "nodes"
    ])]
    pub recount: Vec<PathBuf>,
    /// Play only part I of N of the match (`--shard 2/8`: pairs 2, 10, 18, ...), for several
    /// processes or machines; each writes its own --out, and `--recount` of all of them gives the
    /// match's report. A shard run again with the same command plays only the games its --out
    /// does not hold yet.
    #[arg(long, value_parser = super::parse_shard, default_value = "1/1")]
    pub shard: (usize, usize),
    /// Openings file, one a line: transcripts (e.g. the XOT set) or GGF games (as --out writes
    /// them). Default: the start position only.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Keep only the first N moves (passes count) of each opening, e.g. of games recorded by --out.
    #[arg(long, requires = "openings")]
    pub opening_plies: Option<usize>,
    /// Number of games, exactly: two per opening (colours swapped); an odd number plays the last
    /// opening once. Default: two per opening in the file, each round.
    #[arg(long, value_parser = super::game_count)]
    pub games: Option<usize>,
    /// Play each chosen opening this many times (the games are spread over the rounds).
    #[arg(long, default_value_t = 1, value_parser = rounds)]
    pub rounds: usize,
    /// Seed for sampling openings and for the random player.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time per move or game.
    #[command(flatten)]
    pub time: TimeArgs,
    /// Games played at once (each with its own engine processes; 1 to 256).
    #[arg(long, default_value_t = 1, value_parser = super::concurrency)]
    pub concurrency: usize,
    /// Stop when a sequential test decides, e.g. "elo0=0 elo1=5 alpha=0.05 beta=0.05".
    #[arg(long, value_parser = sprt_text)]
    pub sprt: Option<String>,
    /// Append each game as a GGF line to this file; each engine's stderr is appended to
    /// FILE.NAME.stderr.log beside it (without --out it is not kept).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the report as JSON to this file (replaced at the end of the match).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// With --depth or --nodes: seconds a move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60, value_parser = super::timeout_seconds)]
    pub move_timeout: u64,
    /// Play variant games on a ROWSxCOLS board (e.g. 10x10), engines driven with
    /// `position variant ...` (docs/match.md, "Variant boards").
    #[arg(long, value_name = "ROWSxCOLS", conflicts_with_all = ["openings", "opening_plies"])]
    pub variant: Option<String>,
    /// The blocked squares of variant openings: corners, none, random:K (K squares drawn anew for
    /// each opening) or a FILE holding a printed board (its size must be the --variant size).
    #[arg(long, requires = "variant", default_value = "corners")]
    pub layout: String,
    /// Random moves played from the layout's start to make each variant opening.
    #[arg(long, requires = "variant", default_value_t = 0, value_parser = random_moves)]
    pub random_moves: usize,
}

/// Rounds of a match: 1 to 100,000.
fn rounds(text: &str) -> Result<usize, String> {
    super::bounded_count(text, 1, 100_000)
}

/// A `--tc` text that reads as a clock (a bad one is a bad command line, exit status 2).
fn tc_text(text: &str) -> Result<String, String> {
    wedge::tools::arena::parse_tc(text)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

/// A `--sprt` text that reads as a test (a bad one is a bad command line, exit status 2).
fn sprt_text(text: &str) -> Result<String, String> {
    wedge::tools::arena::stats::Sprt::parse(text)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

/// Random moves of a variant opening: 0 to 1,000 (more than any board has squares).
fn random_moves(text: &str) -> Result<usize, String> {
    super::bounded_count(text, 0, 1_000)
}

/// How long an engine may think, as `wedge match` and `wedge tune` take it (one of these).
#[derive(clap::Args)]
pub struct TimeArgs {
    /// Clock per game: SECONDS+INCREMENT, e.g. 60+0.5.
    #[arg(long, conflicts_with_all = ["movetime", "depth", "nodes"], value_parser = tc_text)]
    pub tc: Option<String>,
    /// Milliseconds per move (at least 1).
    #[arg(long, conflicts_with_all = ["depth", "nodes"], value_parser = super::at_least_one::<u64>)]
    pub movetime: Option<u64>,
    /// Fixed depth per move (1 to 60).
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Fixed nodes per move (at least 1).
    #[arg(long, value_parser = super::at_least_one::<u64>)]
    pub nodes: Option<u64>,
}

impl TimeArgs {
    /// The time control given (100 ms a move if none).
    pub fn control(&self) -> Result<wedge::tools::arena::player::TimeControl, String> {
        use std::time::Duration;
        use wedge::tools::arena::{self, player::TimeControl};
        Ok(if let Some(tc) = &self.tc {
            arena::parse_tc(tc).map_err(|e| e.to_string())?
        } else if let Some(ms) = self.movetime {
            TimeControl::MoveTime(Duration::from_millis(ms.max(1)))
        } else if let Some(d) = self.depth {
            TimeControl::Depth(d.clamp(1, 60))
        } else if let Some(n) = self.nodes {
            TimeControl::Nodes(n.max(1))
        } else {
            TimeControl::MoveTime(Duration::from_millis(100))
        })
    }
}

/// Counts the games of `paths` again and prints their report; the exit status is the match's:
/// [`FAILURES_STATUS`] when a game was lost by a forfeit, else 0.
fn recount(paths: &[PathBuf], sprt: Option<&str>) -> Result<u8, String> {
    use wedge::tools::arena;
    let sprt = sprt
        .map(arena::stats::Sprt::parse)
        .transpose()
        .map_err(|e| e.to_string())?;
    let counted = arena::recount(paths).map_err(|e| format!("match --recount: {e}"))?;
    print_or_drop!("{}", arena::recount_report(&counted, sprt.as_ref()));
    Ok(if counted.forfeits > 0 {
        FAILURES_STATUS
    } else {
        0
    })
}

/// The exit status of a match in which at least one game ended in an engine failure (a crash, a
/// hang, an illegal or malformed move, a protocol violation, a loss on time): the report and the
/// files are written as always, and a script can tell the run from a healthy one.
pub const FAILURES_STATUS: u8 = 3;

/// Plays the match and prints its report; the exit status is 0, or [`FAILURES_STATUS`] when games
/// ended in engine failures.
pub fn run(args: MatchArgs) -> Result<u8, String> {
    use std::io::Write;
    use wedge::tools::arena::{self, player, stats::Sprt};
    if !args.recount.is_empty() {
        return recount(&args.recount, args.sprt.as_deref());
    }
    if args.engines.len() != 2 {
        return Err(format!(
            "match: give exactly two --engine, got {}",
            args.engines.len()
        ));
    }
    let a = player::EngineSpec::parse(&args.engines[0]).map_err(|e| e.to_string())?;
    let b = player::EngineSpec::parse(&args.engines[1]).map_err(|e| e.to_string())?;
    // --games and --rounds are in range (their parsers), so 2 * rounds cannot overflow.
    let (openings, variant_openings, games) = match &args.variant {
        Some(size) => {
            let games = args.games.unwrap_or(2 * args.rounds);
            let openings = variant_openings(size, &args, games)?;
            (Vec::new(), Some(openings), games)
        }
        None => {
            let all = match &args.openings {
                Some(path) => arena::read_openings(path, args.opening_plies).map_err(|e| {
                    // A finished game as an opening: say how to use its first moves instead.
                    let over = matches!(e.found(), Some(arena::OpeningError::Over(None)));
                    if args.opening_plies.is_none() && over {
                        format!("{e} (--opening-plies N keeps the first N moves of each game)")
                    } else {
                        e.to_string()
                    }
                })?,
                None => vec![wedge::board::text::Game::new(Position::START)],
            };
            if all.is_empty() {
                let path = args
                    .openings
                    .as_deref()
                    .unwrap_or(std::path::Path::new("-"));
                return Err(format!(
                    "match: {}: no openings in the file",
                    path.display()
                ));
            }
            let games = match args.games {
                Some(n) => n,
                None => (2 * all.len())
                    .checked_mul(args.rounds)
                    .filter(|&n| n <= super::MAX_GAMES)
                    .ok_or_else(|| {
                        format!(
                            "match: two games per opening in each of {} rounds is more than {} \
                             games; give --games",
                            args.rounds,
                            super::MAX_GAMES
                        )
                    })?,
            };
            let pairs = games.div_ceil(2);
            let mut openings =
                arena::sample_openings(&all, pairs.div_ceil(args.rounds), args.rounds, args.seed);
            openings.truncate(pairs);
            (openings, None, games)
        }
    };
    let tc = args.time.control()?;
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| e.to_string())?;
    let shard = arena::Shard {
        part: args.shard.0,
        parts: args.shard.1,
    };
    if sprt.is_some() && shard.parts > 1 {
        return Err(
            "match: a shard cannot stop on its own SPRT; take the test on all the shards' \
                    games: wedge match --recount FILES --sprt ..."
                .into(),
        );
    }
    let outputs: Vec<(&str, &std::path::Path)> = [("--out", &args.out), ("--json", &args.json)]
        .into_iter()
        .filter_map(|(flag, p)| Some((flag, p.as_deref()?)))
        .collect();
    // A `--layout` that is no layout's name is a file read.
    let layout = std::path::Path::new(&args.layout);
    let inputs = args
        .openings
        .iter()
        .chain(&args.recount)
        .map(|p| p.as_path())
        .chain(std::iter::once(layout));
    super::check_outputs("match", &outputs, inputs)?;
    if args.variant.is_some() {
        // Variant records are written, not read back: a variant match is played whole, into a
        // new file.
        if shard.parts > 1 {
            return Err(
                "match: a variant match cannot be split into shards (its records are \
                        not read back to join them); play it whole"
                    .into(),
            );
        }
        if let Some(out) = &args.out {
            if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
                return Err(format!(
                    "match: {} holds games already, and a variant match is not resumed: give a \
                     new --out",
                    out.display()
                ));
            }
        }
    }
    if shard.parts > 1 && args.out.is_none() {
        return Err("match: a shard needs --out, where its games are kept for --recount".into());
    }
    let run = run_id(&args, &a, &b, &tc, &openings, games);
    let names = [a.name.as_str(), b.name.as_str()];
    let (done, failed_before) = match &args.out {
        Some(path) => games_done(path, &run, shard, names)?,
        None => Default::default(),
    };
    let mut out = match &args.out {
        Some(path) => Some(
            wedge::files::open_output(std::fs::OpenOptions::new().create(true).append(true), path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    let (interrupt, signal) = super::interrupt_on_signals();
    let config = arena::MatchConfig {
        a,
        b,
        openings,
        games,
        tc,
        concurrency: args.concurrency.clamp(1, 256),
        sprt,
        seed: args.seed,
        move_timeout: std::time::Duration::from_secs(args.move_timeout),
        stderr_logs: args.out.clone(),
        shard,
        done,
        run: Some(run),
        interrupt,
    };
    if !config.done.is_empty() {
        let out = args
            .out
            .as_deref()
            .map_or(String::new(), |p| p.display().to_string());
        let left = config.planned_games();
        if left == 0 {
            eprintln_or_drop!(
                "match: every game of this {} is in {out} already; nothing left to play",
                if shard.parts > 1 { "shard" } else { "run" }
            );
        } else {
            eprintln_or_drop!(
                "match: {} games of this run are in {out} already; playing the other {left}",
                config.done.len()
            );
        }
    }
    let start = Instant::now();
    // On a terminal, a bar redrawn in place (indicatif hides it when stderr is not a terminal);
    // otherwise a line every 10 games and one for the final tally, for logs.
    // The games of this run or shard, those in `--out` already included.
    let total = config.planned_games() + config.done.len();
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:20} {pos}/{len} games [{elapsed}]  {wide_msg}",
    ) {
        bar.set_style(style);
    }
    let log_line = |tally: &wedge::tools::arena::stats::Tally| {
        eprintln_or_drop!(
            "games {}/{}  {}  {:.0} s",
            tally.games(),
            total,
            arena::progress_text(tally),
            start.elapsed().as_secs_f64()
        );
    };
    // The failures of the games played before count as the new ones do.
    let mut failures = failed_before;
    let mut write_error = None;
    let mut logged = 0;
    // The tally so far, for the report of a match that stops on an engine that no longer starts.
    let mut so_far = None;
    // Each counted game: its record line and its failure, whatever the board.
    let mut on_game = |record: String,
                       failure: &Option<(String, arena::player::Failure)>,
                       tally: &wedge::tools::arena::stats::Tally| {
        let failed = out
            .as_mut()
            .and_then(|f| writeln!(f, "{record}").and_then(|_| f.flush()).err());
        if let Some(e) = failed {
            // Said at once: the games go on being counted, and are not written from here on (a
            // record cut by the failure would have the next one glued to it).
            out = None;
            let path = args.out.as_deref().unwrap_or(std::path::Path::new(""));
            eprintln_or_drop!(
                "match: writing {} failed: {e}; the games from here on are counted but not saved",
                path.display()
            );
            write_error = Some(format!("writing {} failed: {e}", path.display()));
        }
        if let Some((engine, reason)) = failure {
            failures.push((engine.clone(), reason.to_string()));
        }
        so_far = Some(tally.clone());
        bar.set_position(u64::from(tally.games()));
        bar.set_message(arena::progress_text(tally));
        if bar.is_hidden() && tally.games().is_multiple_of(10) {
            log_line(tally);
            logged = tally.games();
        }
    };
    let tally = match variant_openings {
        None => arena::run(&config, |game, tally| {
            on_game(game.record.to_string(), &game.failure, tally)
        }),
        Some(openings) => {
            let m = arena::variant::VariantMatch {
                config: config.clone(),
                openings,
            };
            arena::variant::run_variant(&m, |game, tally| {
                on_game(game.record.to_string(), &game.failure, tally)
            })
        }
    };
    bar.finish_and_clear();
    // A match stopped on an engine that no longer starts, or interrupted, reports the games it
    // played, as any.
    let interrupted = matches!(tally, Err(arena::MatchError::Interrupted(_)));
    let (tally, stopped) = match (tally, so_far) {
        (Err(e @ arena::MatchError::GaveUp { .. }), Some(so_far)) => (so_far, Some(e)),
        (Err(arena::MatchError::Interrupted(tally)), _) => (*tally, None),
        (tally, _) => (tally.map_err(|e| format!("match: {e}"))?, None),
    };
    if bar.is_hidden() && logged != tally.games() {
        log_line(&tally);
    }
    print_or_drop!("{}", arena::report(&config, &tally, &failures));
    if let Some(path) = &args.json {
        super::write_atomically(path, arena::json_report(&config, &tally, &failures))
            .map_err(|e| format!("match: {e}"))?;
    }
    if let Some(e) = write_error {
        return Err(format!("match: {e}"));
    }
    if let Some(e) = stopped {
        return Err(format!("match: {e}"));
    }
    if interrupted {
        // A variant match is not resumed (its openings are drawn for the run).
        let resume = match &args.out {
            Some(out) if args.variant.is_none() => format!(
                "; the games counted are in {}, and the same command plays the rest",
                out.display()
            ),
            Some(out) => format!("; the games counted are in {}", out.display()),
            None => String::new(),
        };
        let signal = signal.load(std::sync::atomic::Ordering::SeqCst);
        eprintln_or_drop!(
            "match: interrupted after {} games; the games in progress were not counted{resume}",
            tally.games()
        );
        return Ok(u8::try_from(128 + signal).unwrap_or(1));
    }
    Ok(if failures.is_empty() {
        0
    } else {
        FAILURES_STATUS
    })
}

/// The openings of a variant match of `games` games on a `size` (`ROWSxCOLS`) board: one per
/// pair, each `--layout` (corners, none, random:K, or a printed board in a file) and
/// `--random-moves` random moves, drawn reproducibly from `--seed`.
fn variant_openings(
    size: &str,
    args: &MatchArgs,
    games: usize,
) -> Result<Vec<wedge::tools::arena::variant::VariantOpening>, String> {
    use wedge::tools::arena::variant::make_openings;
    use wedge::variant::board::{parse_size, StartLayout};
    let layout = args.layout.as_str();
    let (rows, cols) = parse_size(size).map_err(|e| format!("--variant: {e}"))?;
    let named = StartLayout::parse_named(layout).map_err(|e| format!("--layout: {e}"))?;
    let layout = match named {
        Some(l) => l,
        None => {
            let path = std::path::Path::new(layout);
            let bytes = wedge::files::read_regular(path, wedge::files::MAX_TEXT_BYTES)
                .map_err(|e| format!("--layout {layout}: {e}"))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("--layout {layout}: not UTF-8 text"))?;
            let board = wedge::variant::board::Board::parse_printed(&text)
                .map_err(|e| format!("--layout {layout}: {e}"))?;
            if (board.rows(), board.cols()) != (rows, cols) {
                return Err(format!(
                    "--layout {layout}: a {}x{} board, but --variant is {rows}x{cols}",
                    board.rows(),
                    board.cols()
                ));
            }
            StartLayout::Fixed(board)
        }
    };
    make_openings(
        rows,
        cols,
        &layout,
        args.random_moves,
        games.div_ceil(2),
        args.seed,
    )
    .map_err(|e| format!("match: {e}"))
}

/// The identity of a match run: a hash of everything that decides its games (the engines and
/// their options, the time, the openings drawn, the number of games, the seed, the variant
/// settings and wedge's version), the same for every shard of it.
fn run_id(
    args: &MatchArgs,
    a: &wedge::tools::arena::player::EngineSpec,
    b: &wedge::tools::arena::player::EngineSpec,
    tc: &wedge::tools::arena::player::TimeControl,
    openings: &[wedge::board::text::Game],
    games: usize,
) -> String {
    let mut text = format!(
        "{}|{a:?}|{b:?}|{}|{games}|{}|{:?}|{}|{}|",
        env!("CARGO_PKG_VERSION"),
        tc.describe(),
        args.seed,
        args.variant,
        args.layout,
        args.random_moves
    );
    text.push_str(&wedge::tools::run::openings_text(openings));
    wedge::tools::run::run_id(&text)
}

/// The game (pair, A black) that a record of a match file (at `at`) holds, if it is of run `run`;
/// another run's game is refused.
fn game_of_run(
    record: &wedge::board::ggf::GgfRecord,
    run: &str,
    at: &str,
) -> Result<(usize, bool), String> {
    match record
        .name
        .as_deref()
        .map_or((None, None), wedge::tools::arena::game_name)
    {
        (Some((pair, game)), Some(r)) if r == run => {
            let pair: usize = pair
                .parse()
                .map_err(|_| format!("{at}: pair '{pair}' is not a number"))?;
            Ok((pair.saturating_sub(1), game == 1))
        }
        _ => Err(format!(
            "{at}: a game of another run (other engines, options, openings, time, seed or \
             version); give another --out"
        )),
    }
}

/// A played game of run `run` in a match file (at `at`): (pair, A black) and A's disc difference
/// from its result (`RE[+4.000]`, or `RE[-64.000:r]` for a forfeit).
fn game_done(
    record: &wedge::board::ggf::GgfRecord,
    run: &str,
    at: &str,
) -> Result<((usize, bool), i32), String> {
    let (pair, a_black) = game_of_run(record, run, at)?;
    let black = record
        .black_result()
        .ok_or_else(|| format!("{at}: a game without a disc result (RE)"))?;
    Ok(((pair, a_black), if a_black { black } else { -black }))
}

/// Whether `tail`, a last line without its newline that is no whole record, is a record of run
/// `run` cut short as it was written: the start of wedge match's record, no record's end, and the
/// run's id in its `GN` if that tag was written whole.
fn cut_record_of_run(tail: &str, run: &str) -> bool {
    const HEAD: &str = "(;GM[Othello]PC[wedge match]";
    let head = tail.starts_with(HEAD) || HEAD.starts_with(tail);
    let name = tail
        .split_once("GN[")
        .and_then(|(_, rest)| rest.split_once(']'));
    let same_run = name.is_none_or(|(name, _)| {
        name.ends_with(&format!("{}{run}", wedge::tools::arena::RUN_INFIX))
    });
    head && !tail.contains(";)") && same_run
}

/// The games of run `run` that `path` holds already, (pair, A black) to A's disc difference, for
/// a match or shard run again, and the engine failures among them ((engine, reason), from the
/// forfeits' comments; `names`: engines A and B). Refuses a file with games of another run or
/// shard or without a result; a last line cut short (the process was killed while writing it)
/// is removed.
fn games_done(
    path: &std::path::Path,
    run: &str,
    shard: wedge::tools::arena::Shard,
    names: [&str; 2],
) -> Result<(GamesDone, Vec<(String, String)>), String> {
    let mut failures = Vec::new();
    let mut game_done = |record: &wedge::board::ggf::GgfRecord, at: &str| {
        let ((pair, a_black), discs) = game_done(record, run, at)?;
        if !shard.owns(pair) {
            return Err(format!(
                "{at}: pair {} is another shard's; give each shard its own --out",
                pair + 1
            ));
        }
        let forfeit = record.result.as_deref().is_some_and(|r| r.ends_with(":r"));
        if let Some(comment) = record.comment.as_deref().filter(|_| forfeit) {
            let failure = names.iter().find_map(|name| {
                let reason = comment.strip_prefix(name)?.strip_prefix(": ")?;
                Some((name.to_string(), reason.to_string()))
            });
            failures.extend(failure);
        }
        Ok(((pair, a_black), discs))
    };
    use wedge::board::ggf::parse_ggf_record;
    let mut done = std::collections::HashMap::new();
    let bytes = match wedge::files::read_regular(path, wedge::files::MAX_TEXT_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((done, failures)),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: not UTF-8 text; give another --out", path.display()))?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    for (i, line) in text[..whole].lines().enumerate() {
        let line = line.trim();
        // Comment lines, as `--recount` skips them.
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let at = format!("{}:{}", path.display(), i + 1);
        let record = parse_ggf_record(line).map_err(|e| format!("{at}: {e}"))?;
        let (game, a_discs) = game_done(&record, &at)?;
        done.insert(game, a_discs);
    }
    // Only now, with every whole line a game of this run: a last line without its newline is a
    // whole record of this run (its newline is added), or a record cut short (cut), or refused.
    if whole < text.len() {
        let at = format!("{}:{}", path.display(), text[..whole].lines().count() + 1);
        let tail = text[whole..].trim();
        if let Ok(record) = parse_ggf_record(tail) {
            let (game, a_discs) = game_done(&record, &at)?;
            done.insert(game, a_discs);
            use std::io::Write;
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(b"\n"))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            return Ok((done, failures));
        }
        if !cut_record_of_run(tail, run) {
            return Err(format!(
                "{at}: a last line without its newline that is no game of this run cut short; \
                 give another --out"
            ));
        }
        eprintln_or_drop!(
            "match: {}: removing a last line cut short ({} bytes)",
            path.display(),
            text.len() - whole
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(whole as u64)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((done, failures))
}

/// (pair, A black) to A's disc difference, of the games played.
type GamesDone = std::collections::HashMap<(usize, bool), i32>;
