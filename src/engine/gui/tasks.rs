//! The engine's work for the board in the browser: its moves (book or search), hints (every legal
//! move scored by one MultiPV search), quick searches that give the evaluation graph a point for
//! each move, and the whole-game analysis on a thread of its own; and what their reports change.

use super::{GuiFrontEnd, TAB_TIMEOUT};
use crate::board::{Color, Move, Position};
use crate::engine::report::{GameEvent, Report, SearchEvent};
use crate::engine::request::SearchRequest;
use crate::engine::session::Session;
use crate::protocol::gui::{Hint, ScoreView, Side, Time};
use crate::search::{Bound, Info, Score, SearchResult};
use crate::tools::analyze::{
    Analysts, AnalyzeError, GameReport, NamedGame, Settings as AnalyzeSettings,
};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The longest a hint search runs.
const HINT_MS: u64 = 3000;
/// The time of a quick search for a graph point.
const VALUE_MS: u64 = 150;
/// The analysis' table, MB.
const ANALYSIS_HASH_MB: usize = 64;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// The engine's move.
    Move,
    /// Every legal move's score.
    Hint,
    /// A graph point.
    Value,
}

impl Kind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Move => "move",
            Kind::Hint => "hint",
            Kind::Value => "value",
        }
    }
}

/// A search sent to the worker.
pub(super) struct Search {
    pub(super) kind: Kind,
    pub(super) stop: Arc<AtomicBool>,
    /// The moves that lead to its position.
    pub(super) ply: usize,
    pub(super) position: Position,
    pub(super) started: Instant,
    /// Still wanted: the position has not changed since it started.
    pub(super) live: bool,
    /// The last finished iteration's depth.
    pub(super) depth: u32,
    /// The best line's score and moves.
    pub(super) score: Option<Score>,
    pub(super) pv: Vec<Move>,
    /// Nodes so far.
    pub(super) nodes: u64,
    /// Each root move's latest score and depth (hints).
    pub(super) lines: Vec<(Move, Score, u32)>,
}

/// The whole-game analysis, running on its own thread.
pub(super) struct Analysis {
    stop: Arc<AtomicBool>,
    pub(super) done: Arc<AtomicUsize>,
    pub(super) total: usize,
    result: Arc<Mutex<Option<Result<GameReport, AnalyzeError>>>>,
    /// The report, once read back.
    pub(super) report: Option<GameReport>,
    pub(super) error: Option<String>,
}

impl Analysis {
    /// Stops the analysis (its thread ends at once). It no longer runs: a new one may start while
    /// its thread winds down, and what that thread still writes is its own.
    pub(super) fn cancel(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if self.running() {
            self.error = Some(AnalyzeError::Interrupted.to_string());
        }
    }

    /// Whether it still runs.
    pub(super) fn running(&self) -> bool {
        self.report.is_none() && self.error.is_none()
    }
}

impl GuiFrontEnd {
    /// Stops every search: none is wanted any more.
    pub(super) fn stop_searches(&mut self) {
        for search in &mut self.searches {
            search.live = false;
            search.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops every search but a live engine move; returns whether one goes on.
    pub(super) fn stop_all_but_move(&mut self) -> bool {
        let mut moving = false;
        for search in &mut self.searches {
            if search.live && search.kind == Kind::Move {
                moving = true;
            } else {
                search.live = false;
                search.stop.store(true, Ordering::Relaxed);
            }
        }
        moving
    }

    /// The running search, if one is wanted.
    pub(super) fn live_search(&self) -> Option<&Search> {
        self.searches.iter().rev().find(|s| s.live)
    }

    /// The engine moves now (its best so far); a hint search ends with what it has.
    pub(super) fn move_now(&mut self) {
        if let Some(search) = self.searches.iter().rev().find(|s| s.live) {
            search.stop.store(true, Ordering::Relaxed);
        }
    }

    /// What the position shown needs the worker for: the engine's move or the hints, with the
    /// ply and the position (`None`: only graph points).
    pub(super) fn wanted(&self) -> Option<(Kind, usize, Position)> {
        self.owner.as_ref()?;
        let pos = self.position();
        if pos.board.is_game_over() || (self.at_end() && self.flag.is_some()) {
            return None;
        }
        let engine_to_move = self.settings.side(pos.side) == Side::Engine;
        if self.at_end() && engine_to_move && !self.paused {
            Some((Kind::Move, self.cursor, pos))
        } else if self.hints_on
            && !(self.at_end() && engine_to_move)
            && pos.board.can_move()
            && !self.hints_done(self.cursor, pos)
        {
            Some((Kind::Hint, self.cursor, pos))
        } else {
            None
        }
    }

    /// Whether the hints of `pos` at `ply` are found already: one search a position.
    fn hints_done(&self, ply: usize, pos: Position) -> bool {
        self.finished_hints
            .as_ref()
            .is_some_and(|h| h.ply == ply && h.position == pos)
    }

    /// Stops the searches that are no longer wanted: all but a live one that is still what
    /// [`wanted`](Self::wanted) asks for (a command that changed nothing it depends on leaves the
    /// engine thinking).
    pub(super) fn stop_unwanted(&mut self) {
        let wanted = self.wanted();
        for search in &mut self.searches {
            let same = wanted.is_some_and(|(kind, ply, pos)| {
                search.kind == kind && search.ply == ply && search.position == pos
            });
            if !(search.live && same) {
                search.live = false;
                search.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Starts what the position shown needs: the engine's move, the hints, or a graph point.
    pub(super) fn next_work(&mut self, s: &mut Session<'_>) {
        if self.owner.is_none() || self.live_search().is_some() {
            return;
        }
        match self.wanted() {
            Some((Kind::Move, _, pos)) => self.engine_move(s, pos),
            Some((kind, ply, pos)) => self.start(s, kind, pos, ply),
            None => self.fill_graph(s),
        }
    }

    /// A quick search of the first position of the game whose value is not known yet.
    fn fill_graph(&mut self, s: &mut Session<'_>) {
        let wanted = (1..=self.moves.len()).find(|&n| self.values[n].is_none());
        let Some(n) = wanted else {
            return;
        };
        let pos = self.position_at(n);
        if pos.board.is_game_over() {
            self.values[n] = Some(f64::from(pos.black_final_score()));
            self.version += 1;
            return self.fill_graph(s);
        }
        self.start(s, Kind::Value, pos, n);
    }

    fn engine_move(&mut self, s: &mut Session<'_>, pos: Position) {
        let request = self.request(pos.side);
        if let Some(book) = s.core.book_move(pos, &request) {
            let value = f64::from(book.score);
            self.set_value(self.cursor + 1, pos.side, value);
            self.message = Some(format!("wedge plays {} from its book.", book.mv));
            self.push_move(book.mv);
            self.changed(s);
            return;
        }
        self.start(s, Kind::Move, pos, self.cursor);
    }

    /// The engine's limits: its time a move, or its clock.
    fn request(&self, side: Color) -> SearchRequest {
        match self.settings.time {
            Time::PerMove { ms } => SearchRequest::move_time(ms),
            Time::Clock { inc_ms, .. } => {
                let left = self.time_left(side).unwrap_or(0).max(50) as u64;
                SearchRequest::on_clock(side.into(), left, inc_ms)
            }
        }
    }

    /// Sends a search of `pos`, the position after `ply` moves of the game, to the worker.
    fn start(&mut self, s: &mut Session<'_>, kind: Kind, pos: Position, ply: usize) {
        let plan = match kind {
            Kind::Move => s.core.plan(pos, &self.request(pos.side)),
            Kind::Hint | Kind::Value => {
                // Full strength whatever the opponent's level, set back at once.
                let _ = s.core.set_option("Level", Some("10"));
                let ms = if kind == Kind::Hint {
                    match self.settings.time {
                        Time::PerMove { ms } => ms.clamp(VALUE_MS, HINT_MS),
                        Time::Clock { .. } => HINT_MS,
                    }
                } else {
                    VALUE_MS
                };
                let request = SearchRequest {
                    movetime_ms: Some(ms),
                    ..SearchRequest::default()
                };
                let mut plan = s.core.plan(pos, &request);
                if kind == Kind::Hint {
                    plan.limits.multipv = pos.board.legal_moves().count() as usize;
                }
                self.apply_level(s);
                plan
            }
        };
        match s.core.start_search(pos, plan.limits, plan.hard) {
            Ok(stop) => self.searches.push_back(Search {
                kind,
                stop,
                ply,
                position: pos,
                started: Instant::now(),
                live: true,
                depth: 0,
                score: None,
                pv: Vec::new(),
                nodes: 0,
                lines: Vec::new(),
            }),
            Err(e) => self.message = Some(format!("the engine cannot search: {e}")),
        }
    }

    /// Records the value `score` (from `side`'s view) of the position after `n` moves.
    fn set_value(&mut self, n: usize, side: Color, score: f64) {
        if let Some(v) = self.values.get_mut(n) {
            *v = Some(match side {
                Color::Black => score,
                Color::White => -score,
            });
        }
    }

    /// What the worker reports belongs to the oldest search it was sent.
    pub(super) fn worker_report(&mut self, s: &mut Session<'_>, report: Report) {
        match report {
            Report::Game(GameEvent::Standard(SearchEvent::Info(info))) => {
                if let Some(search) = self.searches.front_mut() {
                    record_info(search, &info);
                    self.version += 1;
                }
            }
            Report::Progress(snapshot, _) => {
                if let Some(search) = self.searches.front_mut() {
                    search.nodes = search.nodes.max(snapshot.nodes);
                    if search.depth == 0 {
                        search.depth = snapshot.depth.saturating_sub(1);
                    }
                }
            }
            Report::Game(GameEvent::Standard(SearchEvent::Done(result))) => {
                if let Some(search) = self.searches.pop_front() {
                    self.search_done(s, search, result);
                }
            }
            Report::Resized(mb, result) => {
                if let Err(e) = s.core.hash_resized(mb, result) {
                    self.message = Some(e.to_string());
                }
            }
            _ => {}
        }
    }

    fn search_done(&mut self, s: &mut Session<'_>, mut search: Search, result: SearchResult) {
        self.version += 1;
        search.nodes = search.nodes.max(result.nodes);
        let side = search.position.side;
        let score = crate::protocol::play::score_discs(result.score);
        // The value of the searched position, whatever asked for it, while the game still has
        // that position there (a new game or another line may have replaced it).
        if result.best_move.is_some()
            && search.ply <= self.moves.len()
            && self.position_at(search.ply) == search.position
        {
            self.set_value(search.ply, side, score);
        }
        if !search.live {
            self.next_work(s);
            return;
        }
        match search.kind {
            Kind::Move => {
                if self.check_flag() {
                    // The engine's time ran out before its move came.
                    self.changed(s);
                    return;
                }
                let pos = search.position;
                let mv = match result.best_move {
                    Some(m) if pos.play(m).is_some() => m,
                    _ => pos.legal_move_list().first().copied().unwrap_or(Move::PASS),
                };
                self.message = None;
                self.push_move(mv);
                if self.values.get(search.ply + 1) == Some(&None) {
                    self.set_value(search.ply + 1, side, score);
                }
                self.changed(s);
            }
            Kind::Hint => {
                // The hints stay on the board until the position changes.
                search.live = false;
                search.stop.store(true, Ordering::Relaxed);
                self.finished_hints = Some(search);
                self.next_work(s);
            }
            Kind::Value => self.next_work(s),
        }
    }

    /// The hints of the position shown: the running hint search's, or the last finished one's.
    pub(super) fn hints(&self) -> Vec<Hint> {
        let search = self
            .searches
            .iter()
            .rev()
            .find(|s| s.live && s.kind == Kind::Hint)
            .or(self.finished_hints.as_ref())
            .filter(|s| s.ply == self.cursor && s.position == self.position());
        let Some(search) = search else {
            return Vec::new();
        };
        let best = search
            .lines
            .iter()
            .map(|l| crate::protocol::play::score_discs(l.1))
            .fold(f64::NEG_INFINITY, f64::max);
        search
            .lines
            .iter()
            .map(|&(mv, score, depth)| Hint {
                square: mv.to_string(),
                score: ScoreView::of(score),
                depth,
                best: crate::protocol::play::score_discs(score) >= best,
            })
            .collect()
    }

    /// Starts the analysis of the whole game.
    pub(super) fn analyze(&mut self) -> Result<(), crate::protocol::gui::ApiError> {
        use crate::protocol::gui::ApiError;
        if self.analysis.as_ref().is_some_and(Analysis::running) {
            return Err(ApiError::Refused("the game is being analysed".into()));
        }
        if self.moves.is_empty() {
            return Err(ApiError::Refused("there is no move to analyse".into()));
        }
        let game = crate::board::text::Game {
            start: self.start,
            moves: self.moves.clone(),
        };
        let total = Analysts::positions(&game);
        let mut analysts = Analysts::new(1, ANALYSIS_HASH_MB)
            .map_err(|e| ApiError::Refused(format!("cannot analyse: {e}")))?;
        let named = NamedGame {
            source: "the game".into(),
            black: String::new(),
            white: String::new(),
            game,
            recorded: None,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicUsize::new(0));
        let result = Arc::new(Mutex::new(None));
        let (thread_stop, thread_done, thread_result) =
            (stop.clone(), done.clone(), result.clone());
        std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || {
                let progress = move |d: usize, _t: usize| thread_done.store(d, Ordering::Relaxed);
                let report =
                    analysts.analyze(&named, &AnalyzeSettings::default(), &thread_stop, &progress);
                if let Ok(mut slot) = thread_result.lock() {
                    *slot = Some(report);
                }
            })
            .map_err(|e| ApiError::Refused(format!("cannot start the analysis: {e}")))?;
        self.analysis = Some(Analysis {
            stop,
            done,
            total,
            result,
            report: None,
            error: None,
        });
        self.version += 1;
        Ok(())
    }

    /// Raises the flag of the side whose clock runs when its time is up; whether it fell now.
    pub(super) fn check_flag(&mut self) -> bool {
        if self.flag.is_some() {
            return false;
        }
        let side = self.running_clock.map(|(c, _)| c);
        let Some(c) = side.filter(|&c| self.time_left(c).is_some_and(|t| t <= 0)) else {
            return false;
        };
        self.flag = Some(c);
        self.message = Some(format!(
            "{}'s time is up: {} wins.",
            crate::protocol::play::colour_name(c),
            crate::protocol::play::colour_name(c.opposite())
        ));
        true
    }

    /// Time passes: a silent tab is let go, a flag falls, a finished analysis is read back.
    pub(super) fn tick(&mut self, s: &mut Session<'_>) {
        if self
            .owner
            .as_ref()
            .is_some_and(|o| o.seen.elapsed() > TAB_TIMEOUT)
        {
            self.release(false);
        }
        if self.check_flag() {
            self.changed(s);
        }
        let finished = self
            .analysis
            .as_ref()
            .and_then(|a| a.result.lock().ok().and_then(|mut r| r.take()));
        if let (Some(result), Some(analysis)) = (finished, self.analysis.as_mut()) {
            match result {
                Ok(report) => {
                    for m in &report.moves {
                        if let Some(v) = self.values.get_mut(m.number) {
                            *v = Some(m.black_after);
                        }
                    }
                    analysis.report = Some(report);
                    self.message = Some("The analysis is done.".into());
                }
                Err(e) => analysis.error = Some(e.to_string()),
            }
            self.version += 1;
        }
    }
}

/// Adds what an iteration found to its search.
fn record_info(search: &mut Search, info: &Info) {
    search.nodes = search.nodes.max(info.nodes);
    if info.bound != Bound::Exact {
        return;
    }
    if let Some(&first) = info.pv.first() {
        match search.lines.iter_mut().find(|l| l.0 == first) {
            Some(l) => *l = (first, info.score, info.depth),
            None => search.lines.push((first, info.score, info.depth)),
        }
    }
    if info.multipv == 1 {
        search.depth = info.depth;
        search.score = Some(info.score);
        search.pv = info.pv.clone();
    }
}
