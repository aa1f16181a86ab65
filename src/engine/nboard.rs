//! The NBoard front end (protocol version 2, as the NBoard GUI and NBoard-driven match tools speak
//! it): the game comes as GGF (`set game`) and moves (`move`), `go` answers `=== <move>/<eval>/<time>`
//! within the game's clock, `hint N` streams `search <pv> <eval> 0 <depth>` lines for the N best
//! moves between `status` lines, `analyze` searches every position of the game and answers
//! `analysis <ply> <eval>` lines, and `ping N` stops any search before answering `pong N`; what
//! comes after a `ping` waits until the stopped search has reported, so a GUI need not wait for
//! the `pong` before its next `go`. `learn` runs on the worker: what comes after it waits for
//! `learned`, but `quit` ends the session at once. Unknown commands are ignored, as the protocol
//! asks, and logged on stderr. At the end of the input a running `go` or `analyze` still answers
//! (a `hint` is cut short) before the session ends. The text is read and written by
//! [`crate::protocol::nboard`].

use super::core::Plan;
use super::report::{GameEvent, Report, SearchEvent, ToolReport};
use super::session::{FrontEnd, Session, EOF_GRACE};
use crate::board::ggf::{parse_ggf_record, time_left, GgfClock};
use crate::board::text::Game;
use crate::board::{Color, Move, Position};
use crate::engine::request::SearchRequest;
use crate::protocol::nboard::{self as text, parse_line, Command};
use crate::protocol::LineError;
use crate::search::{Bound, Info, Score, SearchResult};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The depth used until the GUI sends `set depth`.
const DEFAULT_DEPTH: u32 = 12;
/// The most time `analyze` gives one position, in milliseconds.
const ANALYZE_MS: u64 = 1000;

/// What the running search was started for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Go,
    /// `hint`: whether the search runs on the position after a forced pass (its lines then start
    /// with the pass and their scores are negated).
    Hint {
        after_pass: bool,
    },
    /// One position of `analyze`: its ply, and whether the search ran on the position after a
    /// forced pass (its score is then negated).
    Analyze {
        ply: usize,
        after_pass: bool,
    },
}

struct Running {
    stop: Arc<AtomicBool>,
    purpose: Purpose,
    started: Instant,
    /// `pong` numbers to send once the search has stopped.
    pongs: Vec<String>,
    /// A `ping` queued behind other lines stopped it: its result is dropped, and the `pong`
    /// comes in its turn.
    dropped: bool,
}

/// The state of an NBoard session.
pub struct NboardFrontEnd {
    game: Game,
    /// Seconds each move of `game` took, as the GUI wrote them.
    times: Vec<f64>,
    /// Black's and white's clocks from the GGF game, if it has them.
    clocks: [Option<GgfClock>; 2],
    depth: u32,
    running: Option<Running>,
    /// Positions `analyze` has still to search, the next one last: (ply, position).
    to_analyze: Vec<(usize, Position)>,
    /// Lines that came after a `ping` while the search it stopped winds down, while a new `Hash`
    /// size is allocated or while a `learn` runs, applied in order once that has reported (so
    /// that an allocation's error comes before the `pong` of a later `ping`).
    queued: VecDeque<Result<String, LineError>>,
    /// A `learn` runs on the worker: lines wait behind it (all but `quit`).
    learning: bool,
    /// The input has ended: the session ends once no search runs and nothing is queued.
    input_ended: bool,
    /// When it ended: an analysis answers within [`EOF_GRACE`] of it, not that long a position.
    ended_at: Option<Instant>,
}

impl Default for NboardFrontEnd {
    fn default() -> Self {
        NboardFrontEnd::new()
    }
}

impl FrontEnd for NboardFrontEnd {
    fn line(&mut self, s: &mut Session<'_>, line: Result<String, LineError>) -> bool {
        if self.waiting(s) {
            let command = line
                .as_ref()
                .ok()
                .and_then(|l| parse_line(l).ok().flatten());
            // `quit` ends the session at once, whatever waits (a learning's journal keeps what
            // was scored).
            if matches!(command, Some(Command::Quit)) {
                return false;
            }
            // A `ping` stops the running search even while lines wait (a `Hash` change or a
            // `learn` waits for the worker, which is busy with the search): its `pong` comes
            // once everything before it is done.
            if matches!(command, Some(Command::Ping(_))) {
                if let Some(r) = &mut self.running {
                    r.dropped = true;
                    r.stop.store(true, Ordering::Relaxed);
                }
            }
            self.queued.push_back(line);
            return true;
        }
        self.apply(s, line)
    }

    fn report(&mut self, s: &mut Session<'_>, report: Report) -> bool {
        match report {
            Report::Game(GameEvent::Standard(SearchEvent::Info(info))) => self.info(s, &info),
            Report::Game(GameEvent::Standard(SearchEvent::Done(result))) => {
                self.done(s, result);
                if !self.apply_queued(s) {
                    return false;
                }
            }
            Report::Resized(mb, result) => {
                // The core keeps the table size in use; a refused size is answered as a refused
                // `set option` is.
                if let Err(e) = s.core.hash_resized(mb, result) {
                    s.out.line(&text::error_line(e));
                }
                if !self.apply_queued(s) {
                    return false;
                }
            }
            Report::Tool(ToolReport::Learned(result)) => {
                self.learning = false;
                let outcome = s.core.learned(*result);
                s.out.line(text::LEARNED);
                s.out.line(&text::learned_status(outcome));
                if !self.apply_queued(s) {
                    return false;
                }
            }
            // This front end starts no other game's search nor tool.
            Report::Game(_) | Report::Progress(..) | Report::Tool(_) | Report::Pong => {}
        }
        self.go_on()
    }

    fn end_of_input(&mut self, s: &mut Session<'_>) -> bool {
        self.input_ended = true;
        self.ended_at = Some(Instant::now());
        if let Some(r) = &self.running {
            Self::stop_for_end_of_input(s, r.purpose, &r.stop);
        }
        self.go_on()
    }

    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl NboardFrontEnd {
    /// A session at the start position, searching `DEFAULT_DEPTH` plies.
    pub fn new() -> NboardFrontEnd {
        NboardFrontEnd {
            game: Game::new(Position::START),
            times: Vec::new(),
            clocks: [None, None],
            depth: DEFAULT_DEPTH,
            running: None,
            to_analyze: Vec::new(),
            queued: VecDeque::new(),
            learning: false,
            input_ended: false,
            ended_at: None,
        }
    }

    /// Whether a `ping` has stopped the running search and it has not reported yet.
    fn stopping(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.pongs.is_empty())
    }

    /// Whether lines wait: behind a `ping` that stopped a search, a `Hash` change or a `learn`.
    fn waiting(&self, s: &Session<'_>) -> bool {
        self.stopping() || s.core.resizing() || self.learning
    }

    /// False once the input has ended and nothing is left to answer.
    fn go_on(&self) -> bool {
        !(self.input_ended && self.running.is_none() && !self.learning && self.queued.is_empty())
    }

    /// Applies one line of input; false ends the session.
    fn apply(&mut self, s: &mut Session<'_>, line: Result<String, LineError>) -> bool {
        match line {
            Ok(line) => self.command(s, &line),
            Err(e) => {
                log::warn!("nboard: ignored input: {e}");
                true
            }
        }
    }

    /// Applies the lines queued behind a `ping`, a `Hash` change or a `learn`, in order, until
    /// one more `ping` stops a search they started, another `Hash` change is being allocated or
    /// another `learn` runs; false when one ended the session.
    fn apply_queued(&mut self, s: &mut Session<'_>) -> bool {
        while !self.waiting(s) {
            let Some(line) = self.queued.pop_front() else {
                break;
            };
            if !self.apply(s, line) {
                return false;
            }
        }
        true
    }

    fn position(&self) -> Position {
        self.game.position()
    }

    /// Applies one line; false ends the session.
    fn command(&mut self, s: &mut Session<'_>, line: &str) -> bool {
        let command = match parse_line(line) {
            Ok(Some(command)) => command,
            Ok(None) => return true,
            Err(e) => {
                log::warn!("nboard: {e}");
                return true;
            }
        };
        match command {
            Command::Hello => s.out.line(text::HELLO),
            Command::SetDepth(d) => self.depth = d,
            Command::SetGame(ggf) => self.set_game(s, ggf),
            Command::SetContempt => {} // wedge plays for the disc count; contempt is ignored
            Command::SetOption(option) => {
                if let Err(e) = s.core.set_option_text(option) {
                    s.out.line(&text::error_line(e.in_command("set option")));
                }
            }
            Command::Move { mv, seconds, text } => self.play(mv, seconds, text),
            Command::Hint(n) => self.hint(s, n),
            Command::Go => self.go(s),
            Command::Ping(n) => {
                self.to_analyze.clear();
                match &mut self.running {
                    Some(r) => {
                        r.stop.store(true, Ordering::Relaxed);
                        r.pongs.push(n);
                    }
                    None => s.out.line(&text::pong_line(&n)),
                }
            }
            Command::Learn => {
                s.out.line(text::LEARNING);
                match s.core.learn(&self.game) {
                    Ok(()) => self.learning = true,
                    Err(e) => {
                        s.out.line(text::LEARNED);
                        s.out.line(&text::learned_status(Err(e)));
                    }
                }
            }
            Command::Analyze => self.analyze(s),
            Command::Quit => return false,
        }
        true
    }

    /// `set game <GGF>`: the game so far, with its clocks and move times.
    fn set_game(&mut self, s: &mut Session<'_>, ggf: &str) {
        match parse_ggf_record(ggf) {
            Ok(record) => {
                if record.game.moves.is_empty() || record.game.start != self.game.start {
                    s.core.new_game();
                }
                self.game = record.game;
                self.times = record.times;
                self.clocks = record.clocks;
            }
            Err(e) => log::warn!("nboard: {e}"),
        }
    }

    /// `move <sq>[/eval/time]`: a move of the game that took `seconds` (a forced pass may be left
    /// out).
    fn play(&mut self, mv: Move, seconds: f64, text: &str) {
        let mut pos = self.position();
        let pass_first = !mv.is_pass() && pos.board.must_pass();
        if pass_first {
            pos = pos.play(Move::PASS).unwrap_or(pos);
        }
        if pos.play(mv).is_some() {
            if pass_first {
                self.game.moves.push(Move::PASS);
                self.times.push(0.0);
            }
            self.game.moves.push(mv);
            self.times.push(seconds);
        } else {
            // Nothing is added, not even a pass inserted for it.
            log::warn!("nboard: illegal move '{text}' ignored");
        }
    }

    /// A depth-limited plan with no time limit (the engine is not constrained by the clock): the
    /// endgame is solved outright when it is within reach of the depth.
    fn depth_plan(&self, s: &Session<'_>, pos: Position) -> Plan {
        let mut params = SearchRequest {
            depth: Some(self.depth),
            ..SearchRequest::default()
        };
        if pos.board.empty_count() <= (self.depth + 8).min(22) {
            params.depth = None;
            params.solve = Some(crate::search::SolveKind::Exact);
        }
        s.core.plan(pos, &params)
    }

    /// Whether a search may start now (only one runs at a time).
    fn idle(&self) -> bool {
        if self.running.is_some() {
            log::warn!("nboard: a search is already running; command ignored");
        }
        self.running.is_none()
    }

    /// `go`: the move to play, within the side to move's clock when the game has one (protocol
    /// version 2), at most `set depth` plies in the midgame.
    fn go(&mut self, s: &mut Session<'_>) {
        if !self.idle() {
            return;
        }
        let pos = self.position();
        let started = Instant::now();
        if pos.board.is_game_over() {
            s.out.line(text::GAME_OVER);
            return;
        }
        if pos.board.must_pass() {
            s.out.line(text::PASS);
            return;
        }
        let mut params = SearchRequest::default();
        let clock = time_left(&self.game, &self.times, self.clocks);
        if let Some(left) = clock {
            // Seconds to milliseconds; `as` saturates an absurdly long clock.
            let ms = (left * 1000.0) as u64;
            let inc = self.clocks[pos.side as usize].map(|c| (c.increment * 1000.0) as u64);
            match pos.side {
                Color::Black => (params.clock_ms[0], params.inc_ms[0]) = (Some(ms), inc),
                Color::White => (params.clock_ms[1], params.inc_ms[1]) = (Some(ms), inc),
            }
        }
        if let Some(m) = s.core.book_move(pos, &params) {
            s.out.line(&text::book_move_line(m.mv, m.score));
            return;
        }
        let mut plan = match clock {
            Some(_) => s.core.plan_capped(pos, &params, self.depth),
            None => self.depth_plan(s, pos),
        };
        plan.limits.multipv = 1;
        log::debug!("nboard: go: {}", plan.describe());
        s.out.line(text::THINKING);
        self.start(s, pos, plan, Purpose::Go, started);
    }

    /// `hint N`: the N best moves, from the book or by a search not limited by the clock.
    fn hint(&mut self, s: &mut Session<'_>, n: usize) {
        if !self.idle() {
            return;
        }
        let pos = self.position();
        let started = Instant::now();
        if pos.board.is_game_over() {
            s.out.line(text::STATUS);
            return;
        }
        if pos.board.must_pass() {
            // The only move is the pass: the hint is the opponent's best line after it.
            let after = pos.play(Move::PASS).unwrap_or(pos);
            let plan = self.depth_plan(s, after);
            s.out.line(text::THINKING);
            self.start(s, after, plan, Purpose::Hint { after_pass: true }, started);
            return;
        }
        let book: Vec<_> = s.core.book_moves(pos.board).into_iter().take(n).collect();
        if !book.is_empty() {
            s.out.line(text::BOOK);
            for m in book {
                s.out.line(&text::book_line(m.mv, m.score, m.depth));
            }
            s.out.line(text::STATUS);
            return;
        }
        let mut plan = self.depth_plan(s, pos);
        plan.limits.multipv = n;
        s.out.line(text::THINKING);
        self.start(s, pos, plan, Purpose::Hint { after_pass: false }, started);
    }

    fn start(
        &mut self,
        s: &mut Session<'_>,
        pos: Position,
        plan: Plan,
        purpose: Purpose,
        started: Instant,
    ) {
        match s.core.start_search(pos, plan.limits, plan.hard) {
            Ok(stop) => {
                if self.input_ended {
                    Self::stop_for_end_of_input(s, purpose, &stop);
                }
                self.running = Some(Running {
                    stop,
                    purpose,
                    started,
                    pongs: Vec::new(),
                    dropped: false,
                })
            }
            Err(e) => log::error!("nboard: {e}"),
        }
    }

    /// Once the input has ended: a `hint` (which runs until `ping`) stops at once and answers what
    /// it has; a `go` or `analyze` answers within the grace time, whatever depth or clock it has.
    fn stop_for_end_of_input(s: &Session<'_>, purpose: Purpose, stop: &Arc<AtomicBool>) {
        if matches!(purpose, Purpose::Hint { .. }) {
            stop.store(true, Ordering::Relaxed);
        } else {
            s.stop_after_grace(stop.clone());
        }
    }

    fn info(&mut self, s: &mut Session<'_>, info: &Info) {
        let Some(r) = &self.running else { return };
        // A bound (an aspiration window failed) is not the move's value: only exact lines show.
        let Purpose::Hint { after_pass } = r.purpose else {
            return;
        };
        if !r.pongs.is_empty() || info.bound != Bound::Exact || info.pv.is_empty() {
            return;
        }
        let (pv, score) = if after_pass {
            let pv = std::iter::once(Move::PASS).chain(info.pv.iter().copied());
            (pv.collect(), info.score.negated())
        } else {
            (info.pv.clone(), info.score)
        };
        if let Some(line) = text::search_line(&pv, score, info.depth, info.selectivity) {
            s.out.line(&line);
        }
    }

    fn done(&mut self, s: &mut Session<'_>, result: SearchResult) {
        let Some(r) = self.running.take() else { return };
        if !r.pongs.is_empty() {
            // Interrupted by ping: the analysis no longer relates to the position. The empty
            // status clears the "thinking" or "analysing" one shown when it started.
            s.out.line(text::STATUS);
            for n in r.pongs {
                s.out.line(&text::pong_line(&n));
            }
            return;
        }
        if r.dropped {
            // Stopped by a queued ping: as above, but its pong waits for the lines before it.
            s.out.line(text::STATUS);
            self.to_analyze.clear();
            return;
        }
        match r.purpose {
            Purpose::Go => {
                let mv = result.best_move.unwrap_or(Move::PASS);
                let (eval, _) = text::score_text(result.score, result.depth, 100);
                let secs = r.started.elapsed().as_secs_f64();
                s.out.line(&text::move_line(mv, &eval, secs));
                s.out.line(text::STATUS);
            }
            Purpose::Hint { .. } => s.out.line(text::STATUS),
            Purpose::Analyze { ply, after_pass } => {
                let score = if after_pass {
                    result.score.negated()
                } else {
                    result.score
                };
                let (eval, _) = text::score_text(score, result.depth, 100);
                s.out.line(&text::analysis_line(ply, &eval));
                self.analyze_next(s);
            }
        }
    }

    /// `analyze`: a retrograde analysis of the game. Every position, from the last to the first,
    /// is searched to the depth set (solved exactly within reach of it), at most [`ANALYZE_MS`]
    /// each, and answered `analysis <ply> <eval>` (ply 0 is the start, passes count, the side to
    /// move's view) as soon as it is done; a final `status` ends the analysis. `ping` stops it.
    fn analyze(&mut self, s: &mut Session<'_>) {
        if !self.idle() {
            return;
        }
        let mut pos = self.game.start;
        self.to_analyze = vec![(0, pos)];
        for (i, &mv) in self.game.moves.iter().enumerate() {
            match pos.play(mv) {
                Some(p) => pos = p,
                None => break,
            }
            self.to_analyze.push((i + 1, pos));
        }
        s.out.line(text::ANALYSING);
        self.analyze_next(s);
    }

    /// Answers the finished positions of the analysis and starts the search of the next one; a
    /// `status` line when none is left.
    fn analyze_next(&mut self, s: &mut Session<'_>) {
        // The input ended a grace time ago: the positions left are not searched.
        if self.ended_at.is_some_and(|t| t.elapsed() >= EOF_GRACE) {
            self.to_analyze.clear();
        }
        while let Some((ply, pos)) = self.to_analyze.pop() {
            if pos.board.is_game_over() {
                let (eval, _) = text::score_text(Score::Exact(pos.board.final_score()), 0, 100);
                s.out.line(&text::analysis_line(ply, &eval));
                continue;
            }
            // A position whose only move is a pass is worth minus the position after it.
            let after_pass = pos.board.must_pass();
            let searched = if after_pass {
                pos.play(Move::PASS).unwrap_or(pos)
            } else {
                pos
            };
            let params = SearchRequest {
                movetime_ms: Some(ANALYZE_MS),
                ..SearchRequest::default()
            };
            let mut plan = s.core.plan_capped(searched, &params, self.depth);
            plan.limits.multipv = 1;
            let purpose = Purpose::Analyze { ply, after_pass };
            self.start(s, searched, plan, purpose, Instant::now());
            if self.running.is_some() {
                return;
            }
        }
        s.out.line(text::STATUS);
    }
}
