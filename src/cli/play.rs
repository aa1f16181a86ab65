//! `wedge play`: a practice game against the engine in the terminal ([docs/play.md](../../docs/play.md)).

use std::io::IsTerminal;
use std::path::PathBuf;
use wedge::engine::play::{
    default_autosave, read_saved, PlayConfig, PlayFrontEnd, DEFAULT_MOVE_MS,
};
use wedge::protocol::play::{Players, Style, TimeSetting};

/// The arguments of `wedge play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// Your side: black, white, both (two people; the engine gives hints) or none (watch).
    /// Default: black, or the sides of the game resumed or loaded when wedge play saved it.
    #[arg(long = "play", value_parser = ["black", "white", "both", "none"])]
    pub side: Option<String>,
    /// The engine's level, 1 (weakest) to 10 (full strength; docs/levels.md). Default: 10, or
    /// the level of the game resumed or loaded when wedge play saved it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10))]
    pub level: Option<u32>,
    /// Seconds the engine thinks at most a move. Default: 5, or the clock of the game resumed or
    /// loaded when it has one.
    #[arg(long, conflicts_with = "clock")]
    pub time: Option<f64>,
    /// A game clock for each side instead: MINUTES[+SECONDS a move], e.g. 10+2.
    #[arg(long)]
    pub clock: Option<String>,
    /// Continue the game saved when the last session ended.
    #[arg(long)]
    pub resume: bool,
    /// Start from a saved game instead (GGF, or a transcript such as f5d6c3).
    #[arg(long, conflicts_with = "resume")]
    pub load: Option<PathBuf>,
    /// Where the game is saved after every move and on exit (default:
    /// $XDG_STATE_HOME/wedge/play.ggf or ~/.local/state/wedge/play.ggf).
    #[arg(long)]
    pub autosave: Option<PathBuf>,
    /// Do not save the game automatically.
    #[arg(long, conflicts_with_all = ["autosave", "resume"])]
    pub no_autosave: bool,
    /// Play without the opening book (on by default, as for the engine: docs/book.md).
    #[arg(long)]
    pub no_book: bool,
    /// Vary the engine's moves with this seed (the same seed and moves replay the same game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(..=2_147_483_647))]
    pub seed: Option<u64>,
    /// Plain characters, no colours (also when NO_COLOR is set or the output is not a terminal).
    #[arg(long)]
    pub plain: bool,
}

/// Runs the game until `quit` or the end of the input.
pub fn run(args: PlayArgs) -> Result<u8, String> {
    let time = match (&args.clock, args.time) {
        (Some(clock), _) => {
            let words = ["time", "game", clock.as_str()].join(" ");
            match wedge::protocol::play::parse(&words) {
                Ok(wedge::protocol::play::PlayCommand::Time(t)) => t,
                Ok(_) => return Err(format!("--clock: '{clock}' is not MINUTES[+SECONDS]")),
                Err(e) => return Err(format!("--clock: {e}")),
            }
        }
        (None, Some(t)) if t.is_finite() && (0.01..=86_400.0).contains(&t) => {
            TimeSetting::PerMove((t * 1000.0).round() as u64)
        }
        (None, Some(t)) => return Err(format!("--time: {t} is not 0.01..86400 seconds")),
        (None, None) => TimeSetting::PerMove(DEFAULT_MOVE_MS),
    };
    let time_given = args.clock.is_some() || args.time.is_some();
    let autosave = if args.no_autosave {
        None
    } else {
        args.autosave.clone().or_else(default_autosave)
    };
    // A path that cannot be written is refused now, not after the first move.
    if let Some(path) = &args.autosave {
        super::check_output(path).map_err(|e| format!("--autosave: {e}"))?;
        // The save replaces the file: one that holds anything but one saved game (a match's
        // records, notes) is not overwritten.
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            let bytes = wedge::files::read_regular(path, wedge::files::MAX_TEXT_BYTES)
                .map_err(|e| format!("--autosave: {}: {e}", path.display()))?;
            if let Err(e) = read_saved(&String::from_utf8_lossy(&bytes)) {
                return Err(format!(
                    "--autosave: {} is not a saved game ({}:{e}), and saving would replace it; \
                     give another file",
                    path.display(),
                    path.display()
                ));
            }
        }
    }
    let from =
        if args.resume {
            Some(autosave.clone().ok_or(
                "--resume: no saved game is known (no --autosave, HOME or XDG_STATE_HOME)",
            )?)
        } else {
            args.load.clone()
        };
    let mut saved = match from {
        Some(path) => {
            let bytes = wedge::files::read_regular(&path, wedge::files::MAX_TEXT_BYTES).map_err(
                |e| match e.kind() {
                    std::io::ErrorKind::NotFound if args.resume => format!(
                        "--resume: no saved game to resume ({} does not exist: wedge play saves \
                         a game there as it is played)",
                        path.display()
                    ),
                    _ => format!("{}: {e}", path.display()),
                },
            )?;
            Some(
                read_saved(&String::from_utf8_lossy(&bytes))
                    .map_err(|e| format!("{}:{e}", path.display()))?,
            )
        }
        None => None,
    };
    // A game not resumed is saved over the last one: an unfinished one is kept aside first.
    if !args.resume {
        if let Some(note) = autosave.as_deref().and_then(keep_unfinished) {
            println!("{note}");
        }
    }
    // The sides and level a saved game of wedge play's own was played with, unless given.
    let (saved_players, saved_level) = saved
        .as_ref()
        .and_then(|s| s.sides())
        .map_or((None, None), |(p, l)| (Some(p), l));
    let players = match args.side.as_deref() {
        Some("white") => Players::Human(wedge::board::Color::White),
        Some("both") => Players::BothHuman,
        Some("none") => Players::BothEngine,
        Some(_) => Players::Human(wedge::board::Color::Black),
        None => saved_players.unwrap_or(Players::Human(wedge::board::Color::Black)),
    };
    let level = args.level.or(saved_level).unwrap_or(10);
    // A time control given plays on after a loss on time, as `time` does in the game.
    if let Some(saved) = saved.as_mut().filter(|_| time_given) {
        saved.lost_on_time = None;
    }
    // A saved game with a clock goes on with it (its moves' times are charged), unless told.
    let time = match saved.as_ref().and_then(|s| s.clock()) {
        Some((ms, inc)) if !time_given => TimeSetting::Game(ms, inc),
        _ => time,
    };
    // A person at a terminal: thinking is shown in place (escape codes), so both ends must be one.
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    // A script's board is plain wherever its output goes.
    let colour =
        !args.plain && interactive && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let config = PlayConfig {
        players,
        level,
        time,
        style: Style { colour },
        interactive,
        autosave,
        resume: saved,
        book: !args.no_book,
        random: args.seed,
    };
    let stdin = std::io::BufReader::new(std::io::stdin());
    // 1: the engine could not start (the log says why), or the last save of the game failed (its
    // error line says so).
    let code = wedge::engine::session::run(PlayFrontEnd::new(config), stdin, std::io::stdout());
    Ok(code.clamp(0, 255) as u8)
}

/// Copies an unfinished game saved in `path` to `<name>.previous.ggf` beside it, since this
/// session's game replaces it at its first move (starting without `--resume` is an easy slip);
/// what to tell the player, if there was such a game.
fn keep_unfinished(path: &std::path::Path) -> Option<String> {
    let bytes = wedge::files::read_regular(path, wedge::files::MAX_TEXT_BYTES).ok()?;
    let saved = read_saved(&String::from_utf8_lossy(&bytes)).ok()?;
    let moves = saved.game.moves.iter().filter(|m| !m.is_pass()).count();
    if saved.game.position().board.is_game_over() || moves == 0 {
        return None;
    }
    let aside = path.with_extension("previous.ggf");
    let moves = wedge::protocol::play::counted(moves, "move", "moves");
    Some(match wedge::files::write_whole(&aside, &bytes) {
        Ok(()) => format!(
            "Your unfinished game ({moves}) is kept in {}: wedge play --load that file \
             continues it.",
            aside.display()
        ),
        Err(e) => format!(
            "Your unfinished game ({moves}) in {} is replaced at this game's first move (it \
             could not be copied: {e}); quit now and wedge play --resume continues it.",
            path.display()
        ),
    })
}
