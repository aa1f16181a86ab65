//! Variant matches (`wedge match --variant RxC`): games on boards of any size with blocked
//! squares ([`crate::variant`]), played by the same pairing loop, statistics and report as 8 x 8
//! matches. Each opening is a layout (the four corners blocked, none, `K` squares drawn at random,
//! or a printed board from a file) plus optional random moves; it is played twice with colours
//! swapped, engine A white (moving first) in the first game. Engines are driven over wedge's
//! protocol with `position variant ...` (protocol.md, 3.1), or are the built-in random and greedy
//! players; NBoard and GTP know no variant boards and are refused before the match.

use super::player::{EngineKind, EngineSpec, Failure, Launch, ProcessPlayer, Proto, TimeControl};
use super::{launch, run_pairs, Counted, MatchConfig, MatchError};
use crate::board::ggf::now_unix;
use crate::protocol::variant::{cells_text, side_text, square_name, VariantMove};
use crate::rng::Rng;
use crate::variant::board::{Board, Colour, StartLayout};
use crate::variant::player::{Limits, Player, PlayerKind};
use crossbeam_channel::Receiver;
use std::fmt;
use std::time::{Duration, Instant};

use super::stats::{Outcome, Tally};

/// One opening: a start position and the moves played from it before the engines take over
/// (`None`: a pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantOpening {
    /// The start (layout, discs, side to move).
    pub start: Board,
    /// The random moves played from it.
    pub moves: Vec<VariantMove>,
}

impl VariantOpening {
    /// The position after the opening's moves (`None` if one is illegal).
    pub fn position(&self) -> Option<Board> {
        replay(&self.start, &self.moves)
    }
}

/// The position after `moves` from `start`, passes included (`None`: an illegal move or pass).
pub fn replay(start: &Board, moves: &[VariantMove]) -> Option<Board> {
    moves.iter().try_fold(*start, |b, mv| match mv {
        Some(sq) => b.play(*sq),
        None => (b.must_pass() && !b.is_over()).then(|| b.pass()),
    })
}

/// `pairs` openings on a `rows` x `cols` board: the layout's start, then `random_moves` random
/// moves (forced passes count as moves); reproducible from `seed`. A draw whose random moves end
/// the game is drawn again; an error if no draw in a hundred leaves a move to play.
pub fn make_openings(
    rows: usize,
    cols: usize,
    layout: &StartLayout,
    random_moves: usize,
    pairs: usize,
    seed: u64,
) -> Result<Vec<VariantOpening>, String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(pairs);
    for _ in 0..pairs {
        let mut found = None;
        for _ in 0..100 {
            let start = layout
                .start(rows, cols, &mut rng)
                .map_err(|e| format!("--layout: {e}"))?;
            if start.is_over() {
                // A random layout may wall the centre in: draw again. A fixed one never changes.
                if matches!(layout, StartLayout::Random(_)) {
                    continue;
                }
                return Err("--layout: the start position has no move to play".into());
            }
            let mut board = start;
            let mut moves = Vec::with_capacity(random_moves);
            for _ in 0..random_moves {
                if board.is_over() {
                    break;
                }
                let legal = board.legal_moves();
                if legal.is_empty() {
                    moves.push(None);
                    board = board.pass();
                    continue;
                }
                let sq = legal[rng.below(legal.len() as u64) as usize];
                moves.push(Some(sq));
                board = board.play(sq).unwrap_or(board);
            }
            if !board.is_over() {
                found = Some(VariantOpening { start, moves });
                break;
            }
        }
        out.push(found.ok_or_else(|| {
            format!("--layout, --random-moves {random_moves}: no playable opening in 100 draws")
        })?);
    }
    Ok(out)
}

/// A variant match: the shared settings (engines, games, time control, concurrency, SPRT, seed,
/// logs) and the openings.
#[derive(Clone, Debug)]
pub struct VariantMatch {
    /// Everything but the openings, as for 8 x 8 matches; its `openings` are not used (leave them
    /// empty).
    pub config: MatchConfig,
    /// One pair of games each, in playing order.
    pub openings: Vec<VariantOpening>,
}

/// One finished variant game.
#[derive(Clone, Debug)]
pub struct VariantGameResult {
    /// Index of the opening (pair).
    pub pair: usize,
    /// Whether engine A played white (moving first).
    pub a_white: bool,
    /// The record.
    pub record: VariantRecord,
    /// The result for A.
    pub outcome: Outcome,
    /// A's final disc difference (all playable squares for a forfeit).
    pub a_discs: i32,
    /// `(engine name, reason)` if the game ended by a failure.
    pub failure: Option<(String, String)>,
}

impl Counted for VariantGameResult {
    fn pair(&self) -> usize {
        self.pair
    }
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn a_discs(&self) -> i32 {
        self.a_discs
    }
}

/// A variant game as `--out` writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantRecord {
    /// When the game ended, seconds since 1970.
    pub unix_time: u64,
    /// White's name.
    pub white: String,
    /// Red's name.
    pub red: String,
    /// The time control, as text.
    pub time_control: String,
    /// The start position (the layout; the opening's random moves are in `moves`).
    pub start: Board,
    /// Every move from the start, passes included, with who played it.
    pub moves: Vec<(Colour, VariantMove)>,
    /// White's discs minus red's at the end (all playable squares for a forfeit).
    pub white_score: i32,
    /// `name: reason` of a forfeit.
    pub forfeit: Option<String>,
}

impl fmt::Display for VariantRecord {
    /// One GGF-like line, in the form of the game server's records (docs/variants.md):
    /// `(;GM[Othello variant]PC[wedge match]DT[..]TI[..]PW[..]PR[..]BO[10x10 #..# ... W]W[4,5]R[PA]
    /// ...RE[W+12];)`, squares as `row,col` from 0, and for a forfeit `RE[W:forfeit]C[name:
    /// reason]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let clean = |s: &str| s.replace(['[', ']'], "");
        write!(
            f,
            "(;GM[Othello variant]PC[wedge match]DT[{}]TI[{}]PW[{}]PR[{}]BO[{}x{} {} {}]",
            self.unix_time,
            clean(&self.time_control),
            clean(&self.white),
            clean(&self.red),
            self.start.rows(),
            self.start.cols(),
            cells_text(self.start.rows(), self.start.cols(), |sq| self
                .start
                .cell(sq)),
            side_text(self.start.to_move()),
        )?;
        for (colour, mv) in &self.moves {
            let text = match mv {
                Some(sq) => format!("{},{}", sq.row, sq.col),
                None => "PA".to_string(),
            };
            write!(f, "{}[{text}]", side_text(*colour))?;
        }
        let winner = match self.white_score {
            s if s > 0 => "W",
            s if s < 0 => "R",
            _ => "",
        };
        match &self.forfeit {
            Some(reason) => write!(f, "RE[{winner}:forfeit]C[{}]", clean(reason))?,
            None if winner.is_empty() => write!(f, "RE[draw]")?,
            None => write!(f, "RE[{winner}+{}]", self.white_score.abs())?,
        }
        write!(f, ";)")
    }
}

/// The clocks of a variant game when a move is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantClocks {
    /// White's remaining time.
    pub white: Duration,
    /// Red's remaining time.
    pub red: Duration,
    /// Increment per move.
    pub increment: Duration,
}

/// Something that plays variant games.
pub trait VariantPlayer: Send {
    /// Prepares for a new game.
    fn new_game(&mut self) -> Result<(), Failure>;
    /// Makes sure nothing the engine said before is still on its way (see
    /// [`super::player::Player::sync`]). Called before each move, off the clock.
    fn sync(&mut self) -> Result<(), Failure> {
        Ok(())
    }
    /// Chooses a move (`None`: a pass) in `board`, reached from `start` by `moves`; `deadline` is
    /// when to give up.
    fn choose(
        &mut self,
        start: &Board,
        moves: &[VariantMove],
        board: &Board,
        tc: TimeControl,
        clocks: VariantClocks,
        deadline: Instant,
    ) -> Result<VariantMove, Failure>;
}

/// The built-in random and greedy players.
struct Builtin(Player);

impl VariantPlayer for Builtin {
    fn new_game(&mut self) -> Result<(), Failure> {
        self.0.new_game();
        Ok(())
    }
    fn choose(
        &mut self,
        _: &Board,
        _: &[VariantMove],
        board: &Board,
        _: TimeControl,
        _: VariantClocks,
        _: Instant,
    ) -> Result<VariantMove, Failure> {
        Ok(self.0.choose(board, &Limits::default()))
    }
}

/// An engine process plays variant games over wedge's protocol (protocol.md 3.1).
impl VariantPlayer for ProcessPlayer {
    fn new_game(&mut self) -> Result<(), Failure> {
        // The variant search draws no noise: the seed is left as it is.
        self.send("ucinewgame")?;
        super::player::Player::sync(self)
    }

    fn sync(&mut self) -> Result<(), Failure> {
        super::player::Player::sync(self)
    }

    /// `position variant ...` with the moves so far, the `go` of the time control, and the
    /// `bestmove` answer read as a variant square or a pass.
    fn choose(
        &mut self,
        start: &Board,
        moves: &[VariantMove],
        _board: &Board,
        tc: TimeControl,
        clocks: VariantClocks,
        deadline: Instant,
    ) -> Result<VariantMove, Failure> {
        self.send(&position_command(start, moves))?;
        self.send(&go_command(tc, clocks))?;
        let line = self.wait_for(|l| l.starts_with("bestmove"), deadline)?;
        parse_bestmove(&line)
    }
}

/// The `position` command for the position `moves` after `start`: `position variant RxC [blocked
/// ...]` when `start` is its layout's start position, else `position variant RxC board <cells>
/// <side>`; then the moves, passes written `0000`.
pub fn position_command(start: &Board, moves: &[VariantMove]) -> String {
    let (rows, cols) = (start.rows(), start.cols());
    let mut line = format!("position variant {rows}x{cols}");
    let blocked = start.blocked();
    if start.restarted().as_ref() == Some(start) {
        if !blocked.is_empty() {
            let names: Vec<String> = blocked.into_iter().map(square_name).collect();
            line.push_str(&format!(" blocked {}", names.join(",")));
        }
    } else {
        line.push_str(&format!(
            " board {} {}",
            cells_text(rows, cols, |sq| start.cell(sq)),
            side_text(start.to_move())
        ));
    }
    if !moves.is_empty() {
        line.push_str(" moves");
        for mv in moves {
            line.push(' ');
            match mv {
                Some(sq) => line.push_str(&square_name(*sq)),
                None => line.push_str("0000"),
            }
        }
    }
    line
}

/// The `go` command for a variant move: clocks as `wtime` (white's) and `btime` (red's).
pub fn go_command(tc: TimeControl, clocks: VariantClocks) -> String {
    match tc {
        TimeControl::Clock { .. } => format!(
            "go wtime {} btime {} winc {} binc {}",
            clocks.white.as_millis(),
            clocks.red.as_millis(),
            clocks.increment.as_millis(),
            clocks.increment.as_millis()
        ),
        TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
    }
}

/// Reads the move of a `bestmove` line (a square, or a pass); `none` is a failure in a live game.
pub fn parse_bestmove(line: &str) -> Result<VariantMove, Failure> {
    let word = line.split_whitespace().nth(1).unwrap_or("");
    if word.eq_ignore_ascii_case("none") {
        return Err(Failure(
            "answered 'bestmove none' in a live position".into(),
        ));
    }
    crate::protocol::variant::parse_move(word).map_err(|_| {
        Failure(format!(
            "malformed answer '{}'",
            crate::board::square::truncate(line)
        ))
    })
}

/// Starts a variant player from its spec.
fn start(spec: &EngineSpec, launch: &Launch) -> Result<Box<dyn VariantPlayer>, Failure> {
    Ok(match &spec.kind {
        EngineKind::Random => Box::new(Builtin(Player::new(PlayerKind::Random, launch.seed))),
        EngineKind::Greedy => Box::new(Builtin(Player::new(PlayerKind::Greedy, launch.seed))),
        EngineKind::Process {
            cmd,
            args,
            options,
            proto: Proto::Wedge,
        } => Box::new(ProcessPlayer::start(cmd, args, options, launch)?),
        EngineKind::Process { proto, .. } => {
            return Err(Failure(format!(
                "{proto:?} engines cannot play variant boards (only wedge's protocol has them)"
            )))
        }
    })
}

/// A worker's players; an empty seat is restarted before the next game.
struct Seats {
    a: Option<Box<dyn VariantPlayer>>,
    b: Option<Box<dyn VariantPlayer>>,
}

/// Refuses a variant match that cannot be played.
fn check(m: &VariantMatch) -> Result<(), MatchError> {
    let bad = |text: String| Err(MatchError::Config(text));
    let config = &m.config;
    if config.games == 0 {
        return bad("no games to play (--games must be at least 1)".into());
    }
    if config.games > 2 * m.openings.len() {
        return bad(format!(
            "{} games need {} openings, {} given",
            config.games,
            config.games.div_ceil(2),
            m.openings.len()
        ));
    }
    if config.a.name == config.b.name {
        return bad(format!(
            "both engines are named '{}': give them different names (name=...) so that records \
             and reports can tell them apart",
            config.a.name
        ));
    }
    for spec in [&config.a, &config.b] {
        if let EngineKind::Process { proto, .. } = spec.kind {
            if proto != Proto::Wedge {
                return bad(format!(
                    "engine '{}' speaks {proto:?}, which has no variant boards: variant matches \
                     drive engines over wedge's protocol (proto=wedge)",
                    spec.name
                ));
            }
        }
    }
    if let Some(i) = m.openings.iter().position(|o| match o.position() {
        Some(b) => b.is_over(),
        None => true,
    }) {
        return bad(format!(
            "variant opening {} is illegal or leaves no move to play",
            i + 1
        ));
    }
    Ok(())
}

/// Plays the variant match, calling `on_game` for each counted game with the tally so far, and
/// returns the final tally; as [`super::run`] (engines started before the first game, failures
/// lose the game, the SPRT may stop the match).
pub fn run_variant(
    m: &VariantMatch,
    on_game: impl FnMut(&VariantGameResult, &Tally),
) -> Result<Tally, MatchError> {
    check(m)?;
    let config = &m.config;
    let start_seats = |seed: u64, stop: &Receiver<()>| -> Result<Seats, MatchError> {
        let one = |spec: &EngineSpec| {
            start(spec, &launch(config, spec, seed, stop)).map_err(|Failure(reason)| {
                MatchError::Start {
                    engine: spec.name.clone(),
                    reason,
                }
            })
        };
        Ok(Seats {
            a: Some(one(&config.a)?),
            b: Some(one(&config.b)?),
        })
    };
    run_pairs(
        config,
        start_seats,
        |seats, stop, pair, a_white, seed| play_one(m, seats, stop, pair, a_white, seed),
        on_game,
    )
}

/// How a game ended.
struct Played {
    moves: Vec<(Colour, VariantMove)>,
    white_score: i32,
    forfeit: Option<(Colour, String)>,
}

/// White's score when `loser` forfeits: every playable square to the winner.
fn forfeit_score(start: &Board, loser: Colour) -> i32 {
    let squares = (start.rows() * start.cols() - start.blocked().len()) as i32;
    match loser {
        Colour::White => -squares,
        Colour::Red => squares,
    }
}

/// Plays one game from the end of `opening`; failures forfeit the game for the side at fault.
fn play_game(
    white: &mut dyn VariantPlayer,
    red: &mut dyn VariantPlayer,
    opening: &VariantOpening,
    tc: TimeControl,
    move_timeout: Duration,
) -> Played {
    let start = opening.start;
    // Who played each opening move, replayed from the start.
    let mut moves: Vec<(Colour, VariantMove)> = Vec::new();
    let mut board = start;
    for mv in &opening.moves {
        moves.push((board.to_move(), *mv));
        board = replay(&board, &[*mv]).unwrap_or(board);
    }
    let mut list: Vec<VariantMove> = opening.moves.clone();
    let (base, inc) = match tc {
        TimeControl::Clock { base, increment } => (base, increment),
        _ => (Duration::ZERO, Duration::ZERO),
    };
    let mut clocks = VariantClocks {
        white: base,
        red: base,
        increment: inc,
    };
    let forfeit = |moves: &[(Colour, VariantMove)], loser: Colour, reason: String| Played {
        moves: moves.to_vec(),
        white_score: forfeit_score(&start, loser),
        forfeit: Some((loser, reason)),
    };
    if let Err(Failure(reason)) = white.new_game() {
        return forfeit(&moves, Colour::White, reason);
    }
    if let Err(Failure(reason)) = red.new_game() {
        return forfeit(&moves, Colour::Red, reason);
    }
    while !board.is_over() {
        let side = board.to_move();
        let remaining = match side {
            Colour::White => clocks.white,
            Colour::Red => clocks.red,
        };
        let wait = match tc {
            TimeControl::Clock { .. } => remaining + Duration::from_millis(200),
            TimeControl::MoveTime(t) => t * 2 + Duration::from_secs(2),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => move_timeout,
        };
        let player: &mut dyn VariantPlayer = match side {
            Colour::White => &mut *white,
            Colour::Red => &mut *red,
        };
        if let Err(Failure(reason)) = player.sync() {
            return forfeit(&moves, side, reason);
        }
        let started = Instant::now();
        let answer = player.choose(&start, &list, &board, tc, clocks, started + wait);
        let used = started.elapsed();
        let mv = match answer {
            Ok(m) => m,
            Err(Failure(reason)) => return forfeit(&moves, side, reason),
        };
        if let TimeControl::Clock { .. } = tc {
            if used > remaining {
                return forfeit(
                    &moves,
                    side,
                    format!(
                        "lost on time ({} ms used, {} ms left)",
                        used.as_millis(),
                        remaining.as_millis()
                    ),
                );
            }
            let left = remaining - used + inc;
            match side {
                Colour::White => clocks.white = left,
                Colour::Red => clocks.red = left,
            }
        }
        match replay(&board, &[mv]) {
            Some(next) => {
                moves.push((side, mv));
                list.push(mv);
                board = next;
            }
            None => {
                let what = match mv {
                    Some(sq) => format!("illegal move {}", square_name(sq)),
                    None => "a pass with a legal move".to_string(),
                };
                return forfeit(&moves, side, what);
            }
        }
    }
    Played {
        moves,
        white_score: board.disc_difference(Colour::White),
        forfeit: None,
    }
}

/// Plays one game with fresh or kept players; a failed player is dropped so the next game restarts
/// it.
fn play_one(
    m: &VariantMatch,
    seats: &mut Seats,
    stop: &Receiver<()>,
    pair: usize,
    a_white: bool,
    seed: u64,
) -> VariantGameResult {
    let config = &m.config;
    let opening = &m.openings[pair];
    let a_colour = if a_white { Colour::White } else { Colour::Red };
    let mut failure: Option<(Colour, String)> = None;
    for (slot, spec, colour) in [
        (&mut seats.a, &config.a, a_colour),
        (&mut seats.b, &config.b, a_colour.other()),
    ] {
        if slot.is_none() {
            match start(spec, &launch(config, spec, seed, stop)) {
                Ok(p) => *slot = Some(p),
                Err(Failure(reason)) => {
                    failure.get_or_insert((colour, reason));
                }
            }
        }
    }
    let played = match (&mut seats.a, &mut seats.b, failure) {
        (Some(a), Some(b), None) => {
            let (white, red): (&mut dyn VariantPlayer, &mut dyn VariantPlayer) = if a_white {
                (a.as_mut(), b.as_mut())
            } else {
                (b.as_mut(), a.as_mut())
            };
            play_game(white, red, opening, config.tc, config.move_timeout)
        }
        (_, _, failure) => {
            let (loser, reason) = failure.unwrap_or((Colour::White, "engine not started".into()));
            Played {
                moves: Vec::new(),
                white_score: forfeit_score(&opening.start, loser),
                forfeit: Some((loser, reason)),
            }
        }
    };
    let failure = played.forfeit.map(|(loser, reason)| {
        // Restart whoever failed before the next game.
        let (name, slot) = if loser == a_colour {
            (config.a.name.clone(), &mut seats.a)
        } else {
            (config.b.name.clone(), &mut seats.b)
        };
        *slot = None;
        (name, reason)
    });
    let a_discs = if a_white {
        played.white_score
    } else {
        -played.white_score
    };
    let outcome = Outcome::from_discs(a_discs);
    let (white, red) = if a_white {
        (&config.a.name, &config.b.name)
    } else {
        (&config.b.name, &config.a.name)
    };
    VariantGameResult {
        pair,
        a_white,
        record: VariantRecord {
            unix_time: now_unix(),
            white: white.clone(),
            red: red.clone(),
            time_control: config.tc.describe(),
            start: opening.start,
            moves: played.moves,
            white_score: played.white_score,
            forfeit: failure
                .as_ref()
                .map(|(name, reason)| format!("{name}: {reason}")),
        },
        outcome,
        a_discs,
        failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::board::Square;

    #[test]
    fn commands_name_squares_and_clocks() {
        let start = StartLayout::Corners
            .start(10, 10, &mut Rng::new(1))
            .expect("corners");
        let e = start.legal_moves()[0];
        assert_eq!(
            position_command(&start, &[Some(e), None]),
            format!(
                "position variant 10x10 blocked a1,j1,a10,j10 moves {} 0000",
                square_name(e)
            )
        );
        let moved = start.play(e).expect("legal");
        let line = position_command(&moved, &[]);
        assert!(line.starts_with("position variant 10x10 board #"), "{line}");
        assert!(line.ends_with(" R"), "{line}");
        let clocks = VariantClocks {
            white: Duration::from_millis(1500),
            red: Duration::from_millis(2500),
            increment: Duration::ZERO,
        };
        let tc = TimeControl::Clock {
            base: Duration::from_secs(3),
            increment: Duration::ZERO,
        };
        assert_eq!(
            go_command(tc, clocks),
            "go wtime 1500 btime 2500 winc 0 binc 0"
        );
        assert_eq!(parse_bestmove("bestmove j10"), Ok(Some(Square::new(9, 9))));
        assert_eq!(parse_bestmove("bestmove 0000"), Ok(None));
        assert!(parse_bestmove("bestmove none").is_err());
        assert!(parse_bestmove("bestmove zz").is_err());
    }

    #[test]
    fn openings_leave_a_move_and_replay() {
        let openings = make_openings(8, 10, &StartLayout::Random(6), 6, 5, 3).expect("openings");
        assert_eq!(openings.len(), 5);
        for o in &openings {
            assert_eq!(o.moves.len(), 6);
            assert_eq!(o.start.blocked().len(), 6);
            assert!(!o.position().expect("legal").is_over());
        }
        assert_eq!(
            openings,
            make_openings(8, 10, &StartLayout::Random(6), 6, 5, 3).unwrap()
        );
    }

    #[test]
    fn builtin_players_play_a_variant_match() {
        let openings = make_openings(6, 6, &StartLayout::Corners, 2, 2, 9).expect("openings");
        let m = VariantMatch {
            config: MatchConfig {
                a: EngineSpec::parse("greedy").unwrap(),
                b: EngineSpec::parse("random").unwrap(),
                openings: Vec::new(),
                games: 4,
                tc: TimeControl::Depth(1),
                concurrency: 2,
                sprt: None,
                seed: 1,
                move_timeout: Duration::from_secs(10),
                stderr_logs: None,
                shard: crate::tools::arena::Shard::WHOLE,
                done: Default::default(),
                run: None,
            },
            openings,
        };
        let mut games = Vec::new();
        let tally = run_variant(&m, |g, _| games.push(g.clone())).unwrap();
        assert_eq!((tally.games(), tally.pairs()), (4, 2));
        for g in &games {
            assert!(g.failure.is_none(), "{:?}", g.failure);
            let moves: Vec<VariantMove> = g.record.moves.iter().map(|(_, m)| *m).collect();
            let end = replay(&g.record.start, &moves).expect("legal record");
            assert!(end.is_over());
            assert_eq!(end.disc_difference(Colour::White), g.record.white_score);
            let line = g.record.to_string();
            assert!(line.starts_with("(;GM[Othello variant]"), "{line}");
            assert!(line.ends_with(";)"), "{line}");
        }
    }
}
