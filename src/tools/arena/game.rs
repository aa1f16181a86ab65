//! One game of a match, for every game the runner plays ([`MatchGame`]: the 8 x 8 game and variant
//! boards): the players take turns from the end of the opening under the time control, the clocks
//! are kept, and every failure (no start, a crash, a hang, a refusal, an illegal move, a flag)
//! forfeits the game for the side at fault, which is restarted before the next game. A game brings
//! its rules, how its players start, which engines it refuses, and the form of its record; the
//! loop, the clocks, the forfeits and the seating are written once, here.

use super::player::{
    Clocks, EngineSpec, Failure, Launch, Player, TimeControl, Unsupported, WedgeText,
};
use super::stats::{Outcome, Tally};
use super::{launch, run_pairs, Counted, MatchConfig, MatchError};
use crate::game::{Game, Line, Rules, Side};
use crossbeam_channel::Receiver;
use std::fmt::{Debug, Display};
use std::time::{Duration, Instant};

/// A game the match runner can play.
pub trait MatchGame: WedgeText {
    /// A finished game as `--out` writes it (one line).
    type Record: Clone + Debug + Display + Send;

    /// Starts a player of this game from its spec (a baseline or an engine process).
    fn start_player(spec: &EngineSpec, launch: &Launch) -> Result<Box<dyn Player<Self>>, Failure>;

    /// Why the engine of `spec` cannot play `opening` (`None`: it can), checked before the match.
    fn refuses(spec: &EngineSpec, opening: &Line<Self>) -> Option<Unsupported>;

    /// The record of a finished game.
    fn record(game: Finished<Self>) -> Self::Record;
}

/// A finished game, in every game's terms, for [`MatchGame::record`].
#[derive(Clone, Debug)]
pub struct Finished<G: Rules> {
    /// The players' names: the first player's, then the second's.
    pub names: [String; 2],
    /// The match's time control (each record writes it its own way).
    pub tc: super::player::TimeControl,
    /// The start position (the opening's moves are in `moves`).
    pub start: G,
    /// Every move from the start, passes included.
    pub moves: Vec<G::Move>,
    /// The first player's final score (the winner gets every square on a forfeit).
    pub first_score: i32,
    /// `name: reason` of a forfeit.
    pub forfeit: Option<String>,
    /// The game's name in the match: its pair, its game, the run ([`MatchConfig::game_name`]).
    pub name: String,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameResult<G: MatchGame = crate::board::Position> {
    /// Index of the opening (pair) in the match.
    pub pair: usize,
    /// Whether engine A moved first (black on 8 x 8, white on a variant board).
    pub a_first: bool,
    /// The record.
    pub record: G::Record,
    /// The result for A.
    pub outcome: Outcome,
    /// A's final disc difference (every square for a forfeit).
    pub a_discs: i32,
    /// `(engine name, failure)` if the game ended by a failure.
    pub failure: Option<(String, Failure)>,
    /// The match must stop after this game: an engine could not be restarted
    /// [`RESTART_TRIES`] times in a row.
    pub gave_up: Option<MatchError>,
}

/// Restarts of one engine that may fail in a row (each game a forfeit) before the match stops: an
/// engine that no longer starts would otherwise forfeit every game left.
pub const RESTART_TRIES: u32 = 3;

impl<G: MatchGame> Counted for GameResult<G> {
    fn pair(&self) -> usize {
        self.pair
    }
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn a_discs(&self) -> i32 {
        self.a_discs
    }
    fn gave_up(&self) -> Option<MatchError> {
        self.gave_up.clone()
    }
}

/// How a game ended.
struct Played<G: Game> {
    moves: Vec<G::Move>,
    first_score: i32,
    forfeit: Option<(Side, Failure)>,
}

impl<G: Game> Played<G> {
    /// `loser` forfeits after `moves`: every square to the other side.
    fn forfeit(start: &G, moves: &[G::Move], loser: Side, reason: Failure) -> Played<G> {
        Played {
            moves: moves.to_vec(),
            first_score: loser.other().sign(start.squares()),
            forfeit: Some((loser, reason)),
        }
    }
}

/// The seed of game number `game` of a match run with `--seed match_seed` (`2 * pair` for the
/// pair's game with engine A first, `2 * pair + 1` for the other): the same whichever process
/// plays the game, and unrelated between games and between matches of other seeds.
fn game_seed(match_seed: u64, game: usize) -> u64 {
    crate::rng::Rng::new(match_seed ^ (game as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .next_u64()
}

/// Plays one game from the end of `opening` with `players` (the first player's, then the
/// second's); failures forfeit the game for the side at fault.
fn play_game<G: MatchGame>(
    players: [&mut dyn Player<G>; 2],
    game_seed: u64,
    opening: &Line<G>,
    tc: TimeControl,
    move_timeout: Duration,
) -> Played<G> {
    let start = opening.start;
    let mut moves = opening.moves.clone();
    let Some(mut pos) = opening.position() else {
        return Played::forfeit(
            &start,
            &moves,
            Side::First,
            Failure::Illegal("in the opening".into()),
        );
    };
    let (base, inc) = match tc {
        TimeControl::Clock { base, increment } => (base, increment),
        _ => (Duration::ZERO, Duration::ZERO),
    };
    let mut clocks = Clocks {
        left: [base; 2],
        increment: inc,
    };
    for side in [Side::First, Side::Second] {
        if let Err(reason) = players[side as usize].new_game(game_seed) {
            return Played::forfeit(&start, &moves, side, reason);
        }
    }
    while !pos.is_over() {
        let side = pos.side();
        let remaining = clocks.left[side as usize];
        let wait = match tc {
            // Wait a little past the flag so a late answer is seen (and judged) rather than lost.
            TimeControl::Clock { .. } => remaining + Duration::from_millis(200),
            TimeControl::MoveTime(t) => t * 2 + Duration::from_secs(2),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => move_timeout,
        };
        let player = &mut *players[side as usize];
        if let Err(reason) = player.sync() {
            return Played::forfeit(&start, &moves, side, reason);
        }
        let started = Instant::now();
        let answer = player.choose(&start, &moves, &pos, tc, clocks, started + wait);
        let used = started.elapsed();
        let mv = match (answer, tc) {
            (Ok(m), _) => m,
            // Under a clock no answer by the flag is a loss on time, whatever the engine was doing.
            (Err(Failure::Timeout), TimeControl::Clock { .. }) => {
                let reason = Failure::Flag {
                    used: started.elapsed(),
                    left: remaining,
                };
                return Played::forfeit(&start, &moves, side, reason);
            }
            (Err(reason), _) => return Played::forfeit(&start, &moves, side, reason),
        };
        if let TimeControl::Clock { .. } = tc {
            if used > remaining {
                let reason = Failure::Flag {
                    used,
                    left: remaining,
                };
                return Played::forfeit(&start, &moves, side, reason);
            }
            clocks.left[side as usize] = remaining - used + inc;
        }
        match pos.play(mv) {
            Some(next) => {
                moves.push(mv);
                pos = next;
            }
            None => {
                let reason = if mv == G::PASS {
                    Failure::IllegalPass
                } else {
                    Failure::Illegal(G::move_text(mv))
                };
                return Played::forfeit(&start, &moves, side, reason);
            }
        }
    }
    // What an engine said after its last move (a second `bestmove`) is judged in this game.
    for side in [Side::First, Side::Second] {
        if let Err(reason) = players[side as usize].sync() {
            return Played::forfeit(&start, &moves, side, reason);
        }
    }
    Played {
        moves,
        first_score: pos.first_score(),
        forfeit: None,
    }
}

/// A worker's players, restarted after a failure (an empty seat is started before the next game).
pub(super) struct Seats<G: MatchGame> {
    a: Option<Box<dyn Player<G>>>,
    b: Option<Box<dyn Player<G>>>,
    /// Failed restarts in a row of A and of B.
    failed_starts: [u32; 2],
}

impl<G: MatchGame> Seats<G> {
    /// Starts both players, naming the one that fails.
    pub(super) fn start(
        config: &MatchConfig,
        seed: u64,
        stop: &Receiver<()>,
    ) -> Result<Seats<G>, MatchError> {
        let one = |spec: &EngineSpec| {
            G::start_player(spec, &launch(config, spec, seed, stop)).map_err(|reason| {
                MatchError::Start {
                    engine: spec.name.clone(),
                    reason,
                }
            })
        };
        Ok(Seats {
            a: Some(one(&config.a)?),
            b: Some(one(&config.b)?),
            failed_starts: [0; 2],
        })
    }
}

/// Plays one game with fresh or kept players; a failed player is dropped so the next game restarts
/// it.
fn play_one<G: MatchGame>(
    config: &MatchConfig,
    seats: &mut Seats<G>,
    stop: &Receiver<()>,
    opening: &Line<G>,
    pair: usize,
    a_first: bool,
    seed: u64,
) -> GameResult<G> {
    let a_side = if a_first { Side::First } else { Side::Second };
    let mut failure: Option<(Side, Failure)> = None;
    let mut gave_up = None;
    let [failed_a, failed_b] = &mut seats.failed_starts;
    for (slot, spec, side, failed) in [
        (&mut seats.a, &config.a, a_side, failed_a),
        (&mut seats.b, &config.b, a_side.other(), failed_b),
    ] {
        if slot.is_none() {
            match G::start_player(spec, &launch(config, spec, seed, stop)) {
                Ok(p) => {
                    *slot = Some(p);
                    *failed = 0;
                }
                Err(reason) => {
                    *failed += 1;
                    if *failed >= RESTART_TRIES && !matches!(reason, Failure::Stopped) {
                        gave_up.get_or_insert(MatchError::GaveUp {
                            engine: spec.name.clone(),
                            tries: *failed,
                            reason: reason.clone(),
                        });
                    }
                    failure.get_or_insert((side, reason));
                }
            }
        }
    }
    let played = match (&mut seats.a, &mut seats.b, failure) {
        (Some(a), Some(b), None) => {
            let players: [&mut dyn Player<G>; 2] = if a_first {
                [a.as_mut(), b.as_mut()]
            } else {
                [b.as_mut(), a.as_mut()]
            };
            let game_seed = game_seed(config.seed, 2 * pair + usize::from(!a_first));
            play_game(players, game_seed, opening, config.tc, config.move_timeout)
        }
        (_, _, failure) => {
            let (loser, reason) = failure.unwrap_or((
                Side::First,
                Failure::Start {
                    what: "engine".into(),
                    error: "not started".into(),
                },
            ));
            Played::forfeit(&opening.start, &opening.moves, loser, reason)
        }
    };
    let failure = played.forfeit.map(|(loser, reason)| {
        // Restart whoever failed before the next game.
        let (name, slot) = if loser == a_side {
            (config.a.name.clone(), &mut seats.a)
        } else {
            (config.b.name.clone(), &mut seats.b)
        };
        *slot = None;
        (name, reason)
    });
    let a_discs = a_side.sign(played.first_score);
    let names = if a_first {
        [config.a.name.clone(), config.b.name.clone()]
    } else {
        [config.b.name.clone(), config.a.name.clone()]
    };
    GameResult {
        pair,
        a_first,
        record: G::record(Finished {
            names,
            tc: config.tc,
            start: opening.start,
            moves: played.moves,
            first_score: played.first_score,
            forfeit: failure
                .as_ref()
                .map(|(name, reason)| format!("{name}: {reason}")),
            name: config.game_name(pair, a_first),
        }),
        outcome: Outcome::from_discs(a_discs),
        a_discs,
        failure,
        gave_up,
    }
}

/// Refuses a match that cannot give a meaningful result: no games, too few openings, one name for
/// both engines, an opening that is illegal or over, an engine the game refuses.
pub(super) fn check<G: MatchGame>(
    config: &MatchConfig,
    openings: &[Line<G>],
) -> Result<(), MatchError> {
    if config.games == 0 {
        return Err(MatchError::NoGames);
    }
    if config.games > 2 * openings.len() {
        return Err(MatchError::TooFewOpenings {
            games: config.games,
            openings: openings.len(),
        });
    }
    if config.a.name == config.b.name {
        return Err(MatchError::SameName(config.a.name.clone()));
    }
    if let Some(logs) = &config.stderr_logs {
        // Compared without case: on a file system that ignores it (macOS, Windows) those are one.
        let log = super::stderr_log_path(logs, &config.a.name);
        let other = super::stderr_log_path(logs, &config.b.name);
        if log.as_os_str().eq_ignore_ascii_case(other.as_os_str()) {
            return Err(MatchError::SameLog(log));
        }
    }
    if let Some(i) = openings
        .iter()
        .position(|o| o.position().is_none_or(|p| p.is_over()))
    {
        return Err(MatchError::BadOpening(
            i + 1,
            G::position_command(&openings[i].start, &openings[i].moves),
        ));
    }
    for spec in [&config.a, &config.b] {
        if let Some((i, what)) = openings
            .iter()
            .enumerate()
            .find_map(|(i, o)| G::refuses(spec, o).map(|w| (i, w)))
        {
            return Err(MatchError::Unsupported {
                engine: spec.name.clone(),
                opening: i + 1,
                text: G::position_command(&openings[i].start, &openings[i].moves),
                what,
            });
        }
    }
    Ok(())
}

/// Plays a match of `G` from `openings` (one pair each, in order), calling `on_game` for each
/// counted game with the tally so far (in the calling thread, in completion order), and returns
/// the final tally. Every engine is started before the first game; one that cannot start ends the
/// match with an error. Stops early when the SPRT decides; a game that ends after that is not
/// counted.
pub fn run_games<G: MatchGame>(
    config: &MatchConfig,
    openings: &[Line<G>],
    on_game: impl FnMut(&GameResult<G>, &Tally),
) -> Result<Tally, MatchError> {
    check(config, openings)?;
    run_pairs(
        config,
        |seed, stop| Seats::<G>::start(config, seed, stop),
        |seats, stop, pair, a_first, seed| {
            play_one(config, seats, stop, &openings[pair], pair, a_first, seed)
        },
        on_game,
    )
}
