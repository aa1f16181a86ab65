//! Variant matches (`wedge match --variant RxC`): games on boards of any size with blocked
//! squares ([`crate::variant`]), played by the same pairing loop, statistics and report as 8 x 8
//! matches. Each opening is a layout (the four corners blocked, none, `K` squares drawn at random,
//! or a printed board from a file) plus optional random moves; it is played twice with colours
//! swapped, engine A white (moving first) in the first game. Engines are driven over wedge's
//! protocol with `position variant ...` (protocol.md, 3.1), or are the built-in random and greedy
//! players; NBoard and GTP know no variant boards and are refused before the match.

use super::game::{run_games, Finished, GameResult, MatchGame};
use super::player::{
    baseline, EngineKind, EngineSpec, Failure, Launch, Player, ProcessPlayer, Proto, Unsupported,
    WedgeText,
};
use super::{MatchConfig, MatchError};
use crate::board::ggf::now_unix;
use crate::game::{replay, Line};
use crate::protocol::variant::{cells_text, side_text, square_name, VariantMove};
use crate::rng::Rng;
use crate::variant::board::{Board, Side, StartLayout, VariantError};
use std::fmt;

use super::stats::Tally;

/// One opening: a start position and the moves played from it before the engines take over
/// (`None`: a pass).
pub type VariantOpening = Line<Board>;

/// Why the openings of a variant match could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsError {
    /// The layout does not fit the board.
    Layout(VariantError),
    /// The layout's start position has no move to play.
    StartOver,
    /// No draw in a hundred left a move to play after the random moves.
    NoPlayable {
        /// The random moves asked for.
        random_moves: usize,
    },
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Layout(e) => write!(f, "--layout: {e}"),
            OpeningsError::StartOver => {
                f.write_str("--layout: the start position has no move to play")
            }
            OpeningsError::NoPlayable { random_moves } => write!(
                f,
                "--layout, --random-moves {random_moves}: no playable opening in 100 draws"
            ),
        }
    }
}

impl std::error::Error for OpeningsError {}

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
) -> Result<Vec<VariantOpening>, OpeningsError> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(pairs);
    for _ in 0..pairs {
        let mut found = None;
        for _ in 0..100 {
            let start = layout
                .start(rows, cols, &mut rng)
                .map_err(OpeningsError::Layout)?;
            if start.is_over() {
                // A random layout may wall the centre in: draw again. A fixed one never changes.
                if matches!(layout, StartLayout::Random(_)) {
                    continue;
                }
                return Err(OpeningsError::StartOver);
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
                found = Some(Line { start, moves });
                break;
            }
        }
        out.push(found.ok_or(OpeningsError::NoPlayable { random_moves })?);
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
pub type VariantGameResult = GameResult<Board>;

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
    pub moves: Vec<(Side, VariantMove)>,
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

/// Variant boards over wedge's protocol (protocol.md 3.1).
impl WedgeText for Board {
    /// `position variant RxC [blocked ...]` when `start` is its layout's start position, else
    /// `position variant RxC board <cells> <side>`; then the moves, passes written `0000`.
    fn position_command(start: &Board, moves: &[VariantMove]) -> String {
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
            for &mv in moves {
                line.push(' ');
                line.push_str(&Self::move_text(mv));
            }
        }
        line
    }

    /// White's clock (`wtime`) is the first player's, red's `btime`.
    const CLOCK_LETTERS: [char; 2] = ['w', 'b'];

    fn parse_move(word: &str) -> Option<VariantMove> {
        crate::protocol::variant::parse_move(word).ok()
    }

    fn move_text(mv: VariantMove) -> String {
        mv.map_or_else(|| "0000".to_string(), square_name)
    }
}

/// Variant boards in a match: the built-in players and engines over wedge's protocol (NBoard and
/// GTP know no variant boards), records in the game server's form.
impl MatchGame for Board {
    type Record = VariantRecord;

    fn start_player(spec: &EngineSpec, launch: &Launch) -> Result<Box<dyn Player<Board>>, Failure> {
        if let Some(player) = baseline(spec, launch) {
            return Ok(player);
        }
        match &spec.kind {
            EngineKind::Process {
                cmd,
                args,
                options,
                proto: Proto::Wedge,
            } => Ok(Box::new(ProcessPlayer::start(cmd, args, options, launch)?)),
            EngineKind::Process { proto, .. } => {
                Err(Failure::Unsupported(Unsupported::Variant(*proto)))
            }
            EngineKind::Random | EngineKind::Greedy => {
                Err(Failure::Unsupported(Unsupported::NotBuiltIn))
            }
        }
    }

    fn refuses(spec: &EngineSpec, _: &Line<Board>) -> Option<Unsupported> {
        match spec.kind {
            EngineKind::Process { proto, .. } if proto != Proto::Wedge => {
                Some(Unsupported::Variant(proto))
            }
            _ => None,
        }
    }

    fn record(game: Finished<Board>) -> VariantRecord {
        // Who played each move, replayed from the start.
        let mut board = game.start;
        let mut moves = Vec::with_capacity(game.moves.len());
        for &mv in &game.moves {
            moves.push((board.to_move(), mv));
            board = replay(&board, &[mv]).unwrap_or(board);
        }
        let [white, red] = game.names;
        VariantRecord {
            unix_time: now_unix(),
            white,
            red,
            time_control: game.tc.describe(),
            start: game.start,
            moves,
            white_score: game.first_score,
            forfeit: game.forfeit,
        }
    }
}

/// Plays the variant match, calling `on_game` for each counted game with the tally so far, and
/// returns the final tally ([`run_games`] with the match's openings).
pub fn run_variant(
    m: &VariantMatch,
    on_game: impl FnMut(&VariantGameResult, &Tally),
) -> Result<Tally, MatchError> {
    run_games(&m.config, &m.openings, on_game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::arena::player::{Clocks, TimeControl};
    use crate::variant::board::Square;
    use std::time::Duration;

    #[test]
    fn commands_name_squares_and_clocks() {
        let start = StartLayout::Corners
            .start(10, 10, &mut Rng::new(1))
            .expect("corners");
        let e = start.legal_moves()[0];
        assert_eq!(
            Board::position_command(&start, &[Some(e), None]),
            format!(
                "position variant 10x10 blocked a1,j1,a10,j10 moves {} 0000",
                square_name(e)
            )
        );
        let moved = start.play(e).expect("legal");
        let line = Board::position_command(&moved, &[]);
        assert!(line.starts_with("position variant 10x10 board #"), "{line}");
        assert!(line.ends_with(" R"), "{line}");
        let clocks = Clocks {
            left: [Duration::from_millis(1500), Duration::from_millis(2500)],
            increment: Duration::ZERO,
        };
        let tc = TimeControl::Clock {
            base: Duration::from_secs(3),
            increment: Duration::ZERO,
        };
        assert_eq!(
            Board::go_command(tc, clocks),
            "go wtime 1500 btime 2500 winc 0 binc 0"
        );
        assert_eq!(Board::parse_move("j10"), Some(Some(Square::new(9, 9))));
        assert_eq!(Board::parse_move("0000"), Some(None));
        assert_eq!(Board::parse_move("zz"), None);
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
                interrupt: None,
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
            assert_eq!(end.disc_difference(Side::First), g.record.white_score);
            let line = g.record.to_string();
            assert!(line.starts_with("(;GM[Othello variant]"), "{line}");
            assert!(line.ends_with(";)"), "{line}");
        }
    }
}
