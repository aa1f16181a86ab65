//! `wedge match`: engine-vs-engine matches. Each opening is played twice with colours swapped (an odd
//! number of games plays the last opening once), games run `concurrency` at a time (each worker with
//! its own engine processes), every counted game is handed to the caller at once (to append to a
//! file: nothing is lost on interruption), and the tally gives Elo, LOS, pentanomial counts and an
//! optional SPRT stop. When the SPRT decides, the match ends on that tally: games still being played
//! are abandoned and not counted, so the report's figures are exactly the ones the test decided on.
//!
//! Every engine is started (handshake and options included) before the first game: one that cannot
//! start stops the match with a [`MatchError`], since every game it would play is a forfeit that says
//! nothing about its strength. An engine that crashes, hangs, plays
//! an illegal move or overruns its clock loses that game, with the reason recorded, and is restarted.
//!
//! One game of any kind is played by [`game`] (the loop, clocks, forfeits, seating), over one
//! [`player::Player`] trait; a game brings its rules, its players and its record
//! ([`game::MatchGame`]): the 8 x 8 game here, variant boards in [`variant`]. A new engine
//! protocol is one file in `player/` and one arm of [`player::start`].

pub mod game;
mod openings;
pub mod player;
mod recount;
mod report;
pub mod stats;
pub mod variant;

pub use crate::tools::shard::Shard;
#[cfg(test)]
use openings::parse_opening;
pub use openings::{read_openings, sample_openings, OpeningError};
pub use player::{parse_tc, TcError};
pub use recount::{game_name, recount, Recount, RecountError};
pub use report::{json_report, progress_text, recount_report, report};

/// How a match's `--out` names a game's pair in its `GN` tag: `pair 17 game 1` (pairs counted
/// from 1; game 1 has engine A black, game 2 engine B), which [`recount()`] reads back.
pub const PAIR_PREFIX: &str = "pair ";
/// Between the pair's and the game's number in the `GN` tag (see [`PAIR_PREFIX`]).
pub const GAME_INFIX: &str = " game ";

use crate::board::ggf::{now_unix, parse_ggf, GgfGame};
use crate::board::text::{read_lines, FileError, Game};
use crate::board::Position;
use crate::game::Line;
use crossbeam_channel::{bounded, never, select, unbounded, Receiver, TryRecvError};
pub use game::{run_games, Finished, GameResult, MatchGame};
use player::{
    start, EngineKind, EngineSpec, Failure, Launch, Player, Proto, TimeControl, Unsupported,
};
use stats::{Outcome, Sprt, SprtState, Tally};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first engine (the one the statistics speak for).
    pub a: EngineSpec,
    /// The second engine.
    pub b: EngineSpec,
    /// The openings, one pair of games each, in playing order.
    pub openings: Vec<Game>,
    /// Games to play, at least 1 and at most two per opening: the openings in order, both colours
    /// each (A black first); an odd count plays the last opening once, with A black.
    pub games: usize,
    /// Time per game or per move.
    pub tc: TimeControl,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// Seeds each game's draws: the built-in players' and, through their `Seed` option, the
    /// engines' noise.
    pub seed: u64,
    /// For depth/nodes limits: how long a move may take before the engine counts as hung.
    pub move_timeout: Duration,
    /// Where the engines' stderr is kept: appended to `<this>.<engine name>.stderr.log` (the name
    /// with characters other than letters, digits, `-`, `_` and `.` as `_`); `None` keeps only
    /// each engine's last lines, quoted when it fails.
    pub stderr_logs: Option<std::path::PathBuf>,
    /// The part of the match this process plays: pairs `p` with `p % parts == part` (from 0).
    pub shard: Shard,
    /// Games already played by an earlier run of this shard, (pair, A black) to A's disc
    /// difference: not played again, and counted in the tally (and the SPRT) from the start.
    pub done: HashMap<(usize, bool), i32>,
    /// The run's identity, written into each record (`GN[pair 17 game 1 run <id>]`) so that the
    /// shards of one run can be counted together and those of different runs cannot.
    pub run: Option<String>,
    /// Disconnected to interrupt the match (the runner got SIGINT or SIGTERM): the games in
    /// progress are dropped, every engine is ended with what it started, and the match returns
    /// [`MatchError::Interrupted`] with the games counted so far.
    pub interrupt: Option<Receiver<()>>,
}

impl MatchConfig {
    /// The games of pair `pair` (0-based): both colours, or A black alone for the last pair of an
    /// odd count.
    fn games_of_pair(&self, pair: usize) -> usize {
        if 2 * pair + 1 == self.games {
            1
        } else {
            2
        }
    }

    /// The pairs this process plays: its shard's, less those whose games are all done.
    fn pairs_to_play(&self) -> Vec<usize> {
        (0..self.games.div_ceil(2))
            .filter(|&p| self.shard.owns(p))
            .filter(|&p| {
                [true, false]
                    .into_iter()
                    .take(self.games_of_pair(p))
                    .any(|a_black| !self.done.contains_key(&(p, a_black)))
            })
            .collect()
    }

    /// The games of this process's shard, those already done included: what a complete run of
    /// it counts.
    pub fn shard_games(&self) -> usize {
        (0..self.games.div_ceil(2))
            .filter(|&p| self.shard.owns(p))
            .map(|p| self.games_of_pair(p))
            .sum()
    }

    /// The games this process has to play (its shard's, less those already done).
    pub fn planned_games(&self) -> usize {
        (0..self.games.div_ceil(2))
            .filter(|&p| self.shard.owns(p))
            .map(|p| {
                [true, false]
                    .into_iter()
                    .take(self.games_of_pair(p))
                    .filter(|&a_black| !self.done.contains_key(&(p, a_black)))
                    .count()
            })
            .sum()
    }

    /// The `GN` tag of a game: its pair (from 1), its game in the pair, and the run.
    pub fn game_name(&self, pair: usize, a_black: bool) -> String {
        let mut name = format!(
            "{PAIR_PREFIX}{}{GAME_INFIX}{}",
            pair + 1,
            if a_black { 1 } else { 2 }
        );
        if let Some(run) = &self.run {
            name.push_str(RUN_INFIX);
            name.push_str(run);
        }
        name
    }
}

/// Between the game's number and the run in the `GN` tag (see [`PAIR_PREFIX`]).
pub const RUN_INFIX: &str = " run ";

/// The stderr log of engine `name` for the prefix `logs` (see [`MatchConfig::stderr_logs`]).
pub fn stderr_log_path(logs: &std::path::Path, name: &str) -> std::path::PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut path = logs.as_os_str().to_owned();
    path.push(format!(".{safe}.stderr.log"));
    path.into()
}

/// Why a match could not be played.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchError {
    /// No games to play.
    NoGames,
    /// More games than two an opening.
    TooFewOpenings {
        /// Games asked for.
        games: usize,
        /// Openings given.
        openings: usize,
    },
    /// Both engines have this name.
    SameName(String),
    /// The two engines' names differ only where the stderr logs' file names replace characters,
    /// or in case: both would write this one log.
    SameLog(std::path::PathBuf),
    /// Opening `n` (from 1, in the match's order) is illegal or leaves no move to play; the
    /// opening as text.
    BadOpening(usize, String),
    /// An engine cannot play an opening (from 1, in the match's order) of the match.
    Unsupported {
        /// The engine's name.
        engine: String,
        /// The opening.
        opening: usize,
        /// The opening as text (its board when set up, then its moves), to find it in the file.
        text: String,
        /// What it cannot do.
        what: Unsupported,
    },
    /// An engine could not be started or set up before the first game.
    Start {
        /// The engine's name.
        engine: String,
        /// What went wrong.
        reason: Failure,
    },
    /// An engine failed to restart this many times in a row (its games forfeited, counted and
    /// written): the match stopped.
    GaveUp {
        /// The engine's name.
        engine: String,
        /// The failed restarts in a row.
        tries: u32,
        /// Why the last one failed.
        reason: Failure,
    },
    /// The match was interrupted ([`MatchConfig::interrupt`]); the games in progress were
    /// dropped, those counted before are in this tally.
    Interrupted(Box<Tally>),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::NoGames => f.write_str("no games to play (--games must be at least 1)"),
            MatchError::TooFewOpenings { games, openings } => write!(
                f,
                "{games} games need {} openings, {openings} given",
                games.div_ceil(2)
            ),
            MatchError::SameName(name) => write!(
                f,
                "both engines are named '{name}': give them different names (name=...) so that \
                 records and reports can tell them apart"
            ),
            MatchError::SameLog(path) => write!(
                f,
                "both engines' stderr would go to {}: give them names that differ in ASCII \
                 letters (not only in case), digits, '-', '_' or '.'",
                path.display()
            ),
            MatchError::BadOpening(n, text) => {
                write!(
                    f,
                    "opening {n} ({}) is illegal or leaves no move to play",
                    crate::files::Excerpt(text)
                )
            }
            MatchError::Unsupported {
                engine,
                opening,
                text,
                what,
            } => write!(
                f,
                "engine '{engine}' cannot play opening {opening} ({}): {what}",
                crate::files::Excerpt(text)
            ),
            MatchError::Start { engine, reason } => {
                write!(f, "engine '{engine}' could not be started: {reason}")
            }
            MatchError::GaveUp {
                engine,
                tries,
                reason,
            } => write!(
                f,
                "engine '{engine}' could not be restarted {tries} times in a row (the last: \
                 {reason}); the match stopped"
            ),
            MatchError::Interrupted(tally) => write!(
                f,
                "interrupted after {} games; the games in progress were not counted",
                tally.games()
            ),
        }
    }
}

impl std::error::Error for MatchError {}

/// What player `spec` of `config` is started with.
fn launch(config: &MatchConfig, spec: &EngineSpec, seed: u64, stop: &Receiver<()>) -> Launch {
    Launch {
        tc: config.tc,
        seed,
        stderr_log: config
            .stderr_logs
            .as_deref()
            .map(|logs| stderr_log_path(logs, &spec.name)),
        stop: stop.clone(),
    }
}

/// Whether the match has been stopped (its stop channel's sender dropped).
fn stopped(stop: &Receiver<()>) -> bool {
    matches!(stop.try_recv(), Err(TryRecvError::Disconnected))
}

/// Plays the 8 x 8 match of `config`, calling `on_game` for each counted game with the tally so
/// far, and returns the final tally ([`run_games`] with the configuration's openings).
pub fn run(
    config: &MatchConfig,
    on_game: impl FnMut(&GameResult, &Tally),
) -> Result<Tally, MatchError> {
    let openings: Vec<Line<Position>> = config
        .openings
        .iter()
        .map(|g| Line {
            start: g.start,
            moves: g.moves.clone(),
        })
        .collect();
    run_games(config, &openings, on_game)
}

/// The 8 x 8 game in a match: engines over wedge's protocol, NBoard or GTP, and GGF records.
impl MatchGame for Position {
    type Record = GgfGame;

    fn start_player(
        spec: &EngineSpec,
        launch: &Launch,
    ) -> Result<Box<dyn Player<Position>>, Failure> {
        start(spec, launch)
    }

    /// GTP starts from the standard position only.
    fn refuses(spec: &EngineSpec, opening: &Line<Position>) -> Option<Unsupported> {
        let gtp = matches!(
            spec.kind,
            EngineKind::Process {
                proto: Proto::Gtp,
                ..
            }
        );
        (gtp && opening.start != Position::START).then_some(Unsupported::SetUpBoard)
    }

    fn record(game: Finished<Position>) -> GgfGame {
        let [black, white] = game.names;
        GgfGame {
            place: "wedge match".into(),
            unix_time: now_unix(),
            black,
            white,
            time_control: game.tc.ggf_clock(),
            start: game.start,
            moves: game.moves,
            times: Vec::new(),
            black_score: game.first_score,
            forfeit: game.forfeit,
            name: Some(game.name),
        }
    }
}

/// A counted game as the pairing loop sees it, whatever the board: which pair it belongs to and
/// how it went for engine A.
pub(crate) trait Counted {
    /// Index of the opening (pair).
    fn pair(&self) -> usize;
    /// The result for A.
    fn outcome(&self) -> Outcome;
    /// A's final disc difference.
    fn a_discs(&self) -> i32;
    /// Whether the match must stop after this game, and why.
    fn gave_up(&self) -> Option<MatchError> {
        None
    }
}

/// The pairing loop shared by 8 x 8 and variant matches: `config.games` games over
/// `config.games.div_ceil(2)` pairs (A first, then A second; an odd count plays the last pair's
/// first game only), `config.concurrency` workers each with the seats `start_seats` gives it
/// (before the first game: one that fails ends the match), each game played by `play(seats, stop,
/// pair, a_first, seed)` and counted in completion order; stops when the SPRT decides.
pub(crate) fn run_pairs<S, R: Counted + Send>(
    config: &MatchConfig,
    start_seats: impl Fn(u64, &Receiver<()>) -> Result<S, MatchError> + Sync,
    play: impl Fn(&mut S, &Receiver<()>, usize, bool, u64) -> R + Sync,
    mut on_game: impl FnMut(&R, &Tally),
) -> Result<Tally, MatchError> {
    let mine = config.pairs_to_play();
    let workers = config.concurrency.clamp(1, mine.len().max(1));
    let next = AtomicUsize::new(0);
    // Dropping `stop_tx` stops the match: workers see it between games, and waits for an engine's
    // answer end at once.
    let (stop_tx, stop_rx) = bounded::<()>(0);
    let stop_tx = Mutex::new(Some(stop_tx));
    let stop_all = || {
        stop_tx.lock().unwrap_or_else(|p| p.into_inner()).take();
    };
    let interrupt = config.interrupt.clone().unwrap_or_else(never);
    // Disconnected when the pairing loop ends, so that the interrupt's watcher ends too.
    let (ended_tx, ended_rx) = bounded::<()>(0);
    let started = Barrier::new(workers + 1);
    let start_error: Mutex<Option<MatchError>> = Mutex::new(None);
    let (tx, rx) = unbounded::<R>();
    // The games an earlier run played count from the start: a pair half played then is completed
    // by its other game now.
    let mut tally = Tally::default();
    let mut halves: HashMap<usize, Outcome> = HashMap::new();
    let mut earlier: Vec<(&(usize, bool), &i32)> = config.done.iter().collect();
    earlier.sort();
    for (&(pair, _), &a_discs) in earlier {
        let outcome = Outcome::from_discs(a_discs);
        tally.add_game(outcome, a_discs);
        if let Some(first) = halves.remove(&pair) {
            tally.add_pair(first, outcome);
        } else {
            halves.insert(pair, outcome);
        }
    }
    // A test the earlier games have decided plays no more.
    if let Some(sprt) = &config.sprt {
        if sprt.state(&tally) != SprtState::Continue {
            return Ok(tally);
        }
    }
    std::thread::scope(|scope| {
        // An interrupt stops the workers at once, even while their engines are being started.
        let (interrupt, stop_all) = (&interrupt, &stop_all);
        scope.spawn(move || {
            select! {
                recv(interrupt) -> _ => stop_all(),
                recv(ended_rx) -> _ => {}
            }
        });
        for worker in 0..workers {
            let tx = tx.clone();
            let stop = stop_rx.clone();
            let (next, started, start_error, mine) = (&next, &started, &start_error, &mine);
            let (start_seats, play) = (&start_seats, &play);
            scope.spawn(move || {
                // The engines are started by the thread that uses them to the end (on Linux an
                // engine is killed when the thread that started it ends, see player::Pipe).
                let seats = start_seats(config.seed ^ worker as u64, &stop);
                let mut seats = match seats {
                    Ok(seats) => Some(seats),
                    Err(e) => {
                        let mut first = start_error.lock().unwrap_or_else(|p| p.into_inner());
                        first.get_or_insert(e);
                        None
                    }
                };
                started.wait();
                let Some(seats) = seats.as_mut() else {
                    return;
                };
                loop {
                    if stopped(&stop) {
                        return;
                    }
                    let Some(&pair) = mine.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        return;
                    };
                    for a_black in [true, false].into_iter().take(config.games_of_pair(pair)) {
                        if stopped(&stop) {
                            return;
                        }
                        if config.done.contains_key(&(pair, a_black)) {
                            continue;
                        }
                        let seed =
                            config.seed ^ ((pair as u64) << 1 | a_black as u64) ^ worker as u64;
                        let r = play(seats, &stop, pair, a_black, seed);
                        if tx.send(r).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(tx);
        started.wait();
        // Interrupted while the engines started: the engines that saw it failed as stopped.
        if matches!(interrupt.try_recv(), Err(TryRecvError::Disconnected)) {
            let mut first = start_error.lock().unwrap_or_else(|p| p.into_inner());
            *first = Some(MatchError::Interrupted(Box::new(tally.clone())));
        }
        let failed = start_error.lock().map_or(true, |e| e.is_some());
        if failed {
            // Stop the workers whose engines did start before they play a game.
            stop_all();
            drop(ended_tx);
            return;
        }
        loop {
            let r = select! {
                recv(rx) -> r => r.ok(),
                recv(interrupt) -> _ => None,
            };
            // Once interrupted no result counts: the games the interrupt stopped come in as
            // forfeits, and `select!` takes either of two ready channels.
            if matches!(interrupt.try_recv(), Err(TryRecvError::Disconnected)) {
                start_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(MatchError::Interrupted(Box::new(tally.clone())));
                break;
            }
            let Some(r) = r else {
                break;
            };
            tally.add_game(r.outcome(), r.a_discs());
            if let Some(first) = halves.remove(&r.pair()) {
                tally.add_pair(first, r.outcome());
            } else {
                halves.insert(r.pair(), r.outcome());
            }
            on_game(&r, &tally);
            if let Some(e) = r.gave_up() {
                start_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(e);
                break;
            }
            if let Some(sprt) = &config.sprt {
                if sprt.state(&tally) != SprtState::Continue {
                    break;
                }
            }
        }
        // Stops the workers still playing; their games are not counted.
        stop_all();
        drop(ended_tx);
        drop(rx);
    });
    match start_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(tally),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_logs_sit_next_to_the_games() {
        let path = stderr_log_path(std::path::Path::new("out/games.ggf"), "my engine/2");
        assert_eq!(
            path,
            std::path::Path::new("out/games.ggf.my_engine_2.stderr.log")
        );
    }

    #[test]
    fn openings_are_transcripts_or_ggf_and_leave_a_move() {
        let opening = parse_opening("f5d6c3", None).unwrap();
        assert_eq!(opening.moves.len(), 3);
        let ggf = "(;GM[Othello]PC[x]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6]B[c3];)";
        assert_eq!(parse_opening(ggf, None).unwrap(), opening);
        assert_eq!(parse_opening(ggf, Some(1)).unwrap().moves.len(), 1);
        // A whole game: refused as it is, taken cut.
        let mut pos = crate::board::Position::START;
        let mut game = Game::new(pos);
        while !pos.board.is_game_over() {
            let mv = pos.legal_move_list()[0];
            game.moves.push(mv);
            pos = pos.play(mv).unwrap();
        }
        let err = parse_opening(&game.transcript(), None).unwrap_err();
        assert!(matches!(err, OpeningError::Over(None)), "{err}");
        assert!(err.to_string().contains("over"), "{err}");
        assert!(parse_opening(&game.transcript(), Some(10)).is_ok());
        assert!(matches!(
            parse_opening("f5f5", None),
            Err(OpeningError::Transcript(_))
        ));
    }

    #[test]
    fn matches_that_cannot_be_played_are_refused_by_kind() {
        let openings: Vec<Game> = vec!["f5d6c3".parse().unwrap()];
        let config = MatchConfig {
            a: EngineSpec::parse("name=g cmd=/nonexistent proto=gtp").unwrap(),
            b: EngineSpec::parse("random").unwrap(),
            games: 2,
            openings,
            tc: TimeControl::Depth(1),
            concurrency: 1,
            sprt: None,
            seed: 1,
            move_timeout: Duration::from_secs(1),
            stderr_logs: None,
            shard: Shard::WHOLE,
            done: Default::default(),
            run: None,
            interrupt: None,
        };
        let set_up = Position::START.play("f5".parse().unwrap()).unwrap();
        let from_set_up = MatchConfig {
            openings: vec![Game::new(set_up)],
            ..config.clone()
        };
        assert_eq!(
            run(&from_set_up, |_, _| {}).unwrap_err(),
            MatchError::Unsupported {
                engine: "g".into(),
                opening: 1,
                text: <Position as player::WedgeText>::position_command(&set_up, &[]),
                what: Unsupported::SetUpBoard
            }
        );
        let three = MatchConfig {
            games: 3,
            ..config.clone()
        };
        assert_eq!(
            run(&three, |_, _| {}).unwrap_err(),
            MatchError::TooFewOpenings {
                games: 3,
                openings: 1
            }
        );
        let twins = MatchConfig {
            b: config.a.clone(),
            ..config
        };
        assert_eq!(
            run(&twins, |_, _| {}).unwrap_err(),
            MatchError::SameName("g".into())
        );
        // Names that differ only in characters the log names replace: one log for both.
        let mut a = twins.a.clone();
        let mut b = twins.a.clone();
        a.name = "x/y".into();
        b.name = "X:y".into();
        let logs = MatchConfig {
            a: a.clone(),
            b: b.clone(),
            stderr_logs: Some("out/games.ggf".into()),
            ..twins
        };
        assert_eq!(
            run(&logs, |_, _| {}).unwrap_err(),
            MatchError::SameLog("out/games.ggf.x_y.stderr.log".into())
        );
        // Without logs the names are told apart.
        let no_logs = MatchConfig {
            stderr_logs: None,
            ..logs
        };
        assert_ne!(
            run(&no_logs, |_, _| {}).err(),
            Some(MatchError::SameLog("out/games.ggf.x_y.stderr.log".into()))
        );
    }

    #[test]
    fn tc_parses() {
        assert_eq!(
            parse_tc("60+0.5"),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            })
        );
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("0+1").is_err());
        assert!(parse_tc("10").is_ok());
    }

    #[test]
    fn builtin_players_play_consistent_games() {
        let openings: Vec<Game> = ["f5d6c3d3c4f4f6f3", "f5f6e6f4e3c5c4e7"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let config = MatchConfig {
            a: EngineSpec::parse("greedy").unwrap(),
            b: EngineSpec::parse("random").unwrap(),
            games: 4,
            openings,
            tc: TimeControl::Depth(1),
            concurrency: 2,
            sprt: None,
            seed: 1,
            move_timeout: Duration::from_secs(10),
            stderr_logs: None,
            shard: Shard::WHOLE,
            done: Default::default(),
            run: None,
            interrupt: None,
        };
        let mut games = Vec::new();
        let tally = run(&config, |g, _| games.push(g.clone())).unwrap();
        assert_eq!(tally.games(), 4);
        assert_eq!(tally.pentanomial.iter().sum::<u32>(), 2);
        for g in games {
            let mut pos = g.record.start;
            for m in &g.record.moves {
                pos = pos.play(*m).expect("legal");
            }
            assert!(pos.board.is_game_over());
            assert_eq!(pos.black_final_score(), g.record.black_score);
            assert!(g.failure.is_none());
        }
        // An odd count plays the last opening once: three games, one pair and one lone game.
        let config = MatchConfig { games: 3, ..config };
        let tally = run(&config, |_, _| {}).unwrap();
        assert_eq!((tally.games(), tally.pairs()), (3, 1));

        // Interrupted after the second game: the match ends with the two games counted by then,
        // though the workers have finished more meanwhile (which a stopped game also is).
        let (tx, rx) = bounded::<()>(0);
        let mut tx = Some(tx);
        let config = MatchConfig {
            games: 200,
            openings: vec![Game::new(Position::START); 100],
            interrupt: Some(rx),
            ..config
        };
        let mut counted = 0;
        let result = run(&config, |_, tally| {
            counted = tally.games();
            if counted == 2 {
                tx.take();
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        match result {
            Err(MatchError::Interrupted(tally)) => {
                assert_eq!((tally.games(), counted), (2, 2));
            }
            other => panic!("not interrupted: {other:?}"),
        }
    }
}
