//! Whole-game analysis (`wedge analyze`): every move of a game scored against the best move of its
//! position, the loss in discs, a mark for an inaccuracy, a mistake or a blunder, and each side's
//! totals. [`input`] reads the games (GGF, transcripts, WTHOR), [`svg`] draws the evaluation graph.
//!
//! Each position where the side to move has a choice is searched once: to `depth` plies (or for a
//! time), or exactly from `exact_empties` empty squares on. A move that was not the best is scored
//! by a second search of the same position, at the same depth, limited to that move: a midgame
//! score depends on the depth's parity, so the next position's own search (one ply more from here)
//! would charge or credit the move with the parity's difference. From `exact_empties` on the played
//! move's score is the next position's exact value (the final score at the end). Every search
//! starts from a cleared table with one thread: a given depth gives the same analysis on any
//! machine and with any number of `jobs`.

pub mod input;
pub mod svg;

use crate::board::text::Game;
use crate::board::{Board, Color, Move, Position};
use crate::eval::Evaluator;
use crate::search::{Limits, Score, SearchResult, Searcher, SolveKind, TableAllocError};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The losses, in discs, from which a move is marked.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Thresholds {
    /// An inaccuracy loses at least this much (default 2 discs).
    pub inaccuracy: f64,
    /// A mistake (default 4 discs).
    pub mistake: f64,
    /// A blunder (default 8 discs).
    pub blunder: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 2.0,
            mistake: 4.0,
            blunder: 8.0,
        }
    }
}

impl Thresholds {
    /// The mark of a move that loses `loss` discs.
    pub fn mark(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// How bad a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// At least the inaccuracy threshold.
    Inaccuracy,
    /// At least the mistake threshold.
    Mistake,
    /// At least the blunder threshold.
    Blunder,
}

impl Mark {
    /// The mark's sign in tables: `?!`, `?`, `??` as in game annotation.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// What to search each position with.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Depth of the midgame searches (plies); not used when `time` is given.
    pub depth: u32,
    /// A time per position instead of a depth (results then depend on the machine).
    pub time: Option<Duration>,
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// Selectivity of the midgame searches (the engine's `Selectivity`: 73..100).
    pub selectivity: u8,
    /// The marks' thresholds.
    pub thresholds: Thresholds,
}

/// The settings as the JSON document states them: the depth, or `null` when a time was given
/// instead (the depth is then not what limited the searches), and the time in seconds.
impl serde::Serialize for Settings {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Stated<'a> {
            depth: Option<u32>,
            time: Option<f64>,
            exact_empties: u32,
            selectivity: u8,
            thresholds: &'a Thresholds,
        }
        Stated {
            depth: self.time.is_none().then_some(self.depth),
            time: self.time.map(|t| t.as_secs_f64()),
            exact_empties: self.exact_empties,
            selectivity: self.selectivity,
            thresholds: &self.thresholds,
        }
        .serialize(s)
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            depth: 18,
            time: None,
            exact_empties: 22,
            selectivity: 73,
            thresholds: Thresholds::default(),
        }
    }
}

/// One move of a game, analysed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MoveReport {
    /// The move's number in the game (1 for the first; passes count, as in GGF).
    pub number: usize,
    /// Who played it: `black` or `white`.
    pub colour: &'static str,
    /// The move played.
    pub played: String,
    /// The best move found.
    pub best: String,
    /// The best move's score, in discs, from the mover's view.
    pub best_score: f64,
    /// The played move's score, in discs, from the mover's view.
    pub played_score: f64,
    /// `best_score - played_score`, at least 0 (0 when the best move was played).
    pub loss: f64,
    /// Whether both scores are exact (perfect play from there).
    pub exact: bool,
    /// Depth of the search that scored the position (its empties when exact).
    pub depth: u32,
    /// The mark of the loss, if any.
    pub mark: Option<Mark>,
    /// The position's value after the move, in discs, from Black's view (the graph's point).
    pub black_after: f64,
}

/// One side's totals over a game.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SideSummary {
    /// Moves this side chose (passes left out).
    pub moves: usize,
    /// The sum of the losses.
    pub total_loss: f64,
    /// The mean loss a move.
    pub mean_loss: f64,
    /// Moves marked as inaccuracies.
    pub inaccuracies: usize,
    /// Moves marked as mistakes.
    pub mistakes: usize,
    /// Moves marked as blunders.
    pub blunders: usize,
    /// The biggest loss: the move's number, the move and the loss.
    pub biggest: Option<(usize, String, f64)>,
}

/// A game, analysed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameReport {
    /// Where the game comes from (`file`, `file:game N`).
    pub source: String,
    /// Black's name, as the file gives it.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The start position (`<64 squares> <side>`).
    pub start: String,
    /// Black's final disc difference when the game is over, or the record's for a game that
    /// ended before its moves did; else `None`.
    pub result: Option<i32>,
    /// The result is the record's: the moves do not end the game.
    pub ended_early: bool,
    /// Every move that was a choice (passes left out).
    pub moves: Vec<MoveReport>,
    /// Black's totals.
    pub black_summary: SideSummary,
    /// White's totals.
    pub white_summary: SideSummary,
}

/// A game to analyse, with where it comes from and its players.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedGame {
    /// Where it comes from (`file`, `file:game N`).
    pub source: String,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The game.
    pub game: Game,
    /// Black's disc difference as the record gives it for a game that ended before its moves did
    /// (GGF's `RE` with a flag: a forfeit, a resignation, a loss on time).
    pub recorded: Option<i32>,
}

/// Why an analysis did not finish.
#[derive(Debug)]
pub enum AnalyzeError {
    /// The search's table could not be allocated.
    Memory(TableAllocError),
    /// The stop flag was raised (Ctrl-C): the game was not finished.
    Interrupted,
}

impl fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeError::Memory(e) => write!(f, "{e}"),
            AnalyzeError::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for AnalyzeError {}

/// A position's value: the best move and its score from the side to move's view.
#[derive(Clone, Copy, Debug)]
struct Value {
    best: Move,
    discs: f64,
    exact: bool,
    depth: u32,
    /// The played move's score at the same depth, when it was not the best (midgame only).
    played: Option<f64>,
}

/// The analysts: one searcher per job, made before any work (memory that is not there is an error
/// before the run).
pub struct Analysts {
    searchers: Vec<Searcher>,
}

impl Analysts {
    /// `jobs` searchers with tables of `hash_mb` MB each.
    pub fn new(jobs: usize, hash_mb: usize) -> Result<Analysts, AnalyzeError> {
        crate::game::table::check_room(jobs.max(1), Searcher::tables_mb(hash_mb))
            .map_err(AnalyzeError::Memory)?;
        let searchers = (0..jobs.max(1))
            .map(|_| Searcher::try_new(hash_mb, Evaluator::default()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(AnalyzeError::Memory)?;
        Ok(Analysts { searchers })
    }

    /// The positions of `games` that will be searched (for a progress bar's total).
    pub fn positions(game: &Game) -> usize {
        plies(game).iter().filter(|p| p.board.can_move()).count()
    }

    /// Analyses one game; `progress(done, total)` after each position. A raised `stop` ends the
    /// searches at once and the game with [`AnalyzeError::Interrupted`].
    pub fn analyze(
        &mut self,
        named: &NamedGame,
        settings: &Settings,
        stop: &Arc<AtomicBool>,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<GameReport, AnalyzeError> {
        let positions = plies(&named.game);
        let choices: Vec<usize> = (0..positions.len())
            .filter(|&k| positions[k].board.can_move())
            .collect();
        let done = AtomicUsize::new(0);
        let work = |searcher: &mut &mut Searcher, &k: &usize| {
            let played = named.game.moves.get(k).copied();
            evaluate(searcher, positions[k].board, played, settings, stop)
        };
        // Positions skipped after a stop are not done: the progress stays where the stop found it.
        let report = |_: usize, _: &Value| {
            if !stop.load(Ordering::Relaxed) {
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, choices.len());
            }
        };
        let values =
            super::in_parallel(&choices, self.searchers.iter_mut().collect(), work, report);
        if stop.load(Ordering::Relaxed) {
            return Err(AnalyzeError::Interrupted);
        }
        let mut value_at: Vec<Option<Value>> = vec![None; positions.len()];
        for (&k, v) in choices.iter().zip(values) {
            value_at[k] = Some(v);
        }
        Ok(report_of(named, &positions, &value_at, settings))
    }
}

/// The positions of a game: the start, then after each move, with a pass added when the record
/// stops where the side to move must pass.
fn plies(game: &Game) -> Vec<Position> {
    let mut positions = vec![game.start];
    let mut pos = game.start;
    for &m in &game.moves {
        match pos.play(m) {
            Some(next) => pos = next,
            None => break,
        }
        positions.push(pos);
    }
    if pos.board.must_pass() && !pos.board.is_game_over() {
        positions.push(pos.play(Move::PASS).unwrap_or(pos));
    }
    positions
}

/// The search of one position, and of the move played there when it was not the best one.
fn evaluate(
    searcher: &mut Searcher,
    board: Board,
    played: Option<Move>,
    settings: &Settings,
    stop: &Arc<AtomicBool>,
) -> Value {
    // Once stopped, the positions still queued are skipped: the game's report is thrown away.
    if stop.load(Ordering::Relaxed) {
        return Value {
            best: Move::PASS,
            discs: 0.0,
            exact: false,
            depth: 0,
            played: None,
        };
    }
    searcher.clear();
    let empties = board.empty_count();
    let exact = empties <= settings.exact_empties;
    let selectivity = crate::search::selectivity::level_for_percent(settings.selectivity);
    let limits = if exact {
        Limits {
            solve: Some(SolveKind::Exact),
            ..Limits::default()
        }
    } else {
        Limits {
            depth: if settings.time.is_some() {
                None
            } else {
                Some(settings.depth)
            },
            soft_time: settings.time.map(|t| t / 2),
            timed: settings.time.is_some(),
            selectivity,
            ..Limits::default()
        }
    };
    // An exact solve runs to its end: a deadline would leave a midgame score marked as exact.
    let time = if exact { None } else { settings.time };
    let result = run(searcher, board, &limits, time, stop);
    let best = result.best_move.unwrap_or(Move::PASS);
    // A midgame score depends on the parity of the depth, so the played move is scored from this
    // position at the same depth rather than by the next position's own search; under `--time`
    // that is the depth the best move's search reached, with no deadline (one move searches no
    // longer than all of them did).
    let played = played
        .filter(|&m| !exact && m != best && result.depth > 0)
        .and_then(|m| m.square())
        .filter(|&sq| board.legal_moves().contains(sq))
        .map(|sq| {
            let only = Limits {
                root_moves: Some(sq.bit()),
                depth: Some(result.depth),
                soft_time: None,
                timed: false,
                ..limits.clone()
            };
            searcher.clear();
            discs_of(run(searcher, board, &only, None, stop).score)
        });
    Value {
        best,
        discs: discs_of(result.score),
        exact: exact && matches!(result.score, Score::Exact(_)),
        depth: if exact { empties } else { result.depth },
        played,
    }
}

/// A score in discs.
fn discs_of(score: Score) -> f64 {
    match score {
        Score::Eval(cd) => f64::from(cd) / 100.0,
        Score::Exact(d) | Score::Wld(d) => f64::from(d),
    }
}

/// One search, stopped by `stop` (Ctrl-C) or after `time`.
fn run(
    searcher: &mut Searcher,
    board: Board,
    limits: &Limits,
    time: Option<Duration>,
    stop: &Arc<AtomicBool>,
) -> SearchResult {
    let Some(time) = time else {
        return searcher.search(board, limits, stop.clone(), &mut |_| {});
    };
    // A flag of the search's own, raised by Ctrl-C or at the deadline.
    let own = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let (own, finished, stop) = (own.clone(), finished.clone(), stop.clone());
        let deadline = Instant::now() + time;
        std::thread::spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
                    own.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let result = searcher.search(board, limits, own, &mut |_| {});
    finished.store(true, Ordering::Relaxed);
    let _ = watchdog.join();
    result
}

/// The report of a game from the values of its positions.
fn report_of(
    named: &NamedGame,
    positions: &[Position],
    value_at: &[Option<Value>],
    settings: &Settings,
) -> GameReport {
    // Black's view of each position: searched, final, or the next position's after a forced pass.
    let mut black_view = vec![0.0; positions.len()];
    let mut exact_view = vec![false; positions.len()];
    for k in (0..positions.len()).rev() {
        let pos = positions[k];
        let sign = if pos.side == Color::Black { 1.0 } else { -1.0 };
        if pos.board.is_game_over() {
            black_view[k] = f64::from(pos.black_final_score());
            exact_view[k] = true;
        } else if let Some(v) = value_at[k] {
            black_view[k] = sign * v.discs;
            exact_view[k] = v.exact;
        } else if k + 1 < positions.len() {
            black_view[k] = black_view[k + 1];
            exact_view[k] = exact_view[k + 1];
        }
    }
    let mut moves = Vec::new();
    for k in 0..positions.len().saturating_sub(1) {
        let Some(v) = value_at[k] else { continue };
        let pos = positions[k];
        let Some(played) = named.game.moves.get(k).copied() else {
            continue;
        };
        let sign = if pos.side == Color::Black { 1.0 } else { -1.0 };
        let played_score = if played == v.best {
            v.discs
        } else {
            v.played.unwrap_or(sign * black_view[k + 1])
        };
        let loss = (v.discs - played_score).max(0.0);
        // Tenths of a disc, as the table shows them, so a mark always agrees with the figure.
        let loss = (loss * 10.0).round() / 10.0;
        moves.push(MoveReport {
            number: k + 1,
            colour: if pos.side == Color::Black {
                "black"
            } else {
                "white"
            },
            played: played.to_string(),
            best: v.best.to_string(),
            best_score: v.discs,
            played_score,
            loss,
            exact: v.exact && exact_view[k + 1],
            depth: v.depth,
            mark: settings.thresholds.mark(loss),
            black_after: black_view[k + 1],
        });
    }
    let last = positions[positions.len() - 1];
    GameReport {
        source: named.source.clone(),
        black: named.black.clone(),
        white: named.white.clone(),
        start: named.game.start.to_string(),
        result: if last.board.is_game_over() {
            Some(last.black_final_score())
        } else {
            named.recorded
        },
        ended_early: !last.board.is_game_over() && named.recorded.is_some(),
        black_summary: summary(&moves, "black"),
        white_summary: summary(&moves, "white"),
        moves,
    }
}

/// One side's totals.
fn summary(moves: &[MoveReport], colour: &str) -> SideSummary {
    let mut s = SideSummary::default();
    for m in moves.iter().filter(|m| m.colour == colour) {
        s.moves += 1;
        s.total_loss += m.loss;
        match m.mark {
            Some(Mark::Inaccuracy) => s.inaccuracies += 1,
            Some(Mark::Mistake) => s.mistakes += 1,
            Some(Mark::Blunder) => s.blunders += 1,
            None => {}
        }
        if m.loss > 0.0 && s.biggest.as_ref().is_none_or(|b| m.loss > b.2) {
            s.biggest = Some((m.number, m.played.clone(), m.loss));
        }
    }
    s.total_loss = (s.total_loss * 100.0).round() / 100.0;
    if s.moves > 0 {
        s.mean_loss = (s.total_loss / s.moves as f64 * 100.0).round() / 100.0;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        let t = Thresholds::default();
        assert_eq!(t.mark(1.99), None);
        assert_eq!(t.mark(2.0), Some(Mark::Inaccuracy));
        assert_eq!(t.mark(4.0), Some(Mark::Mistake));
        assert_eq!(t.mark(8.0), Some(Mark::Blunder));
        assert_eq!(t.mark(30.0), Some(Mark::Blunder));
    }

    #[test]
    fn a_record_that_stops_before_a_forced_pass_gets_the_pass() {
        // A game played to its end: every position is either a choice, a forced pass or the end.
        let mut pos = Position::START;
        let mut game = Game::new(pos);
        while !pos.board.is_game_over() {
            let m = pos.legal_move_list().last().copied().unwrap_or(Move::PASS);
            game.moves.push(m);
            pos = pos.play(m).unwrap();
        }
        let p = plies(&game);
        assert_eq!(p.len(), game.moves.len() + 1);
        assert!(p.last().unwrap().board.is_game_over());
    }

    /// After f5 d6 c3 (a 55-empties midgame position) and the move played there.
    fn midgame() -> (Board, Settings) {
        let mut pos = Position::START;
        for m in ["f5", "d6", "c3"] {
            pos = pos.play(m.parse().unwrap()).unwrap();
        }
        let settings = Settings {
            depth: 6,
            time: None,
            exact_empties: 14,
            selectivity: 100,
            thresholds: Thresholds::default(),
        };
        (pos.board, settings)
    }

    #[test]
    fn under_a_time_the_played_move_is_scored_at_the_depth_the_best_one_reached() {
        let (board, mut settings) = midgame();
        settings.time = Some(Duration::from_millis(60));
        let mut searcher = Searcher::try_new(4, Evaluator::default()).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let best = evaluate(&mut searcher, board, None, &settings, &stop).best;
        let other = board
            .legal_moves()
            .map(Move::play)
            .find(|&m| m != best)
            .unwrap();
        let v = evaluate(&mut searcher, board, Some(other), &settings, &stop);
        let at_depth = Limits {
            root_moves: other.square().map(|sq| sq.bit()),
            depth: Some(v.depth),
            selectivity: crate::search::selectivity::level_for_percent(100),
            ..Limits::default()
        };
        searcher.clear();
        let expected = discs_of(run(&mut searcher, board, &at_depth, None, &stop).score);
        assert!(v.depth > 0);
        assert_eq!(v.played, Some(expected));
    }

    #[test]
    fn a_stopped_analysis_searches_nothing_more() {
        let (board, settings) = midgame();
        let mut searcher = Searcher::try_new(4, Evaluator::default()).unwrap();
        let stop = Arc::new(AtomicBool::new(true));
        let v = evaluate(&mut searcher, board, None, &settings, &stop);
        assert_eq!((v.depth, v.played), (0, None));
    }
}
