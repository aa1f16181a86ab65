//! The front end for wedge's own protocol (UCI-shaped, a superset of UGI; protocol.md): the one
//! owner of the session's state (position, mode, the search in progress). It applies commands in
//! order, refuses what is not allowed now with one `info string error: ...` line (the state stays
//! exactly as it was), and starts and stops searches and tools on the worker. Lines are read by
//! [`crate::protocol::parser`] and answers written by [`crate::protocol::output`]. A variant board
//! (protocol.md, 3.1) replaces the 8 x 8 position while it is set; what differs for it is in
//! [`super::variant`] (engine side) and [`crate::protocol::variant`] (text).

use super::options::declarations;
use super::report::{GameEvent, Report, SearchEvent, ToolReport};
use super::session::{FrontEnd, Session, StartProblem, Writer};
use super::variant;
use crate::board::{Move, Position};
use crate::protocol::output::{
    bench_line, bestmove, bestmove_with_ponder, display_lines, error_line, eval_lines,
    handshake_lines, info_line, move_text, option_lines, perft_move_line, progress_line,
    response_line, threads_warning, Mode, HELP,
};
use crate::protocol::parser::{
    parse_command, Command, Fault, GoParams, ParseError, PositionSpec, QueryKind,
};
use crate::protocol::variant::{self as variant_text, move_name, VariantBase, VariantMove};
use crate::protocol::LineError;
use crate::tools::{bench, perft};
use crate::variant::board::Board as VariantBoard;
use std::collections::VecDeque;
use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

mod go;

/// Writes `info string error: <message>`.
fn error(out: &mut Writer<'_>, message: impl Display) {
    out.line(&error_line(message));
}

/// What is running on the worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// A search; `infinite` holds its `bestmove` back until `stop`.
    Search { infinite: bool },
    /// `go ponder`: like an infinite search until `ponderhit` (then searched for real with these
    /// parameters) or `stop`.
    Ponder(GoParams),
    /// `perft` or `bench`: ends with its own report, never with `bestmove`.
    Tool,
}

/// The task that holds back a `go`'s answer found without searching: a ponder search's (with its
/// parameters) or an infinite search's; `None` when the answer goes out at once.
fn held_task(ponder: bool, params: GoParams) -> Option<Task> {
    if ponder {
        Some(Task::Ponder(params))
    } else if params.infinite {
        Some(Task::Search { infinite: true })
    } else {
        None
    }
}

/// A search or tool in progress.
struct Active {
    stop: Arc<AtomicBool>,
    task: Task,
    /// The `bestmove` line, when the search ended before `stop` in infinite or ponder mode (held
    /// back).
    held: Option<String>,
    /// Whether `stop` arrived.
    stopped: bool,
    /// `ponderhit` arrived during a ponder search: when it ends, search again with these.
    restart: Option<GoParams>,
    /// A command that needs the engine idle came while this search or tool ran toward its own
    /// end: it and every later line wait for the answer.
    awaited: bool,
    /// The search has a limit (depth, nodes, time, the side to move's clock, a solve), so it ends
    /// without a `stop`; a plain `go` searches until `stop` or the game is solved.
    bounded: bool,
}

/// Whether `input` waits for a search that ends on its own: a command that needs the engine idle
/// (it would change what the search or its `bestmove` depends on, the position, the options, the
/// notation, or start another), and a line that cannot be read, whose error (and a `go`'s
/// `bestmove none`) then comes in its turn.
fn waits_for_idle(input: &Input) -> bool {
    match input {
        Input::Line(Ok(Some(cmd))) => matches!(
            cmd,
            Command::Uci
                | Command::Ugi
                | Command::NewGame
                | Command::Position { .. }
                | Command::VariantPosition { .. }
                | Command::SetOption { .. }
                | Command::Go(_)
                | Command::Perft(_)
                | Command::Bench(_)
        ),
        Input::Line(Err(_)) => true,
        Input::Line(Ok(None)) | Input::Eof => false,
    }
}

/// Input as this front end applies it, in order: a parsed line or the end of the input.
enum Input {
    /// A line: a command, `None` for a blank line, or why it is not a command.
    Line(Result<Option<Command>, ParseError>),
    /// The input has ended.
    Eof,
}

/// The state of a wedge-protocol session.
pub struct WedgeFrontEnd {
    mode: Mode,
    debug: bool,
    position: Option<Position>,
    /// When set, the current position is this variant board (protocol.md, 3.1) and `position` is
    /// not used; a standard `position` command clears it.
    variant: Option<VariantBoard>,
    active: Option<Active>,
    /// The input has ended, or `quit` came: exit once the running search has answered.
    eof: bool,
    /// A ping was passed to the worker (for `isready`, or the handshake's last line); this line
    /// (`readyok`, `uciok` or `ugiok`) is written when it answers.
    awaiting_pong: Option<&'static str>,
    /// Input that came while waiting for the worker's answer, applied after `readyok` in order.
    deferred: VecDeque<Input>,
}

impl Default for WedgeFrontEnd {
    fn default() -> Self {
        WedgeFrontEnd::new()
    }
}

impl FrontEnd for WedgeFrontEnd {
    fn start_problem(&mut self, out: &mut Writer<'_>, problem: &StartProblem) {
        error(out, problem);
    }

    fn line(&mut self, s: &mut Session<'_>, line: Result<String, LineError>) -> bool {
        let parsed = match line {
            Ok(text) => parse_command(&text),
            Err(e) => {
                let mut error: ParseError = Fault::Input(e).into();
                // A `go` whose line cannot be read still owes its `bestmove`.
                error.is_go = e.first_word_is("go");
                Err(error)
            }
        };
        let go_on = self.input(s, Input::Line(parsed));
        self.go_on(s, go_on)
    }

    fn report(&mut self, s: &mut Session<'_>, report: Report) -> bool {
        let go_on = self.worker_report(s, report);
        self.go_on(s, go_on)
    }

    fn end_of_input(&mut self, s: &mut Session<'_>) -> bool {
        let go_on = self.input(s, Input::Eof);
        self.go_on(s, go_on)
    }

    fn stop(&mut self) {
        if let Some(a) = &self.active {
            a.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl WedgeFrontEnd {
    /// A session in UCI mode, at the start position, with nothing running.
    pub fn new() -> WedgeFrontEnd {
        WedgeFrontEnd {
            mode: Mode::Uci,
            debug: false,
            position: None,
            variant: None,
            active: None,
            eof: false,
            awaiting_pong: None,
            deferred: VecDeque::new(),
        }
    }

    /// After an event: applies the input held back while the worker caught up, in order, until
    /// one waits again; the session goes on while nothing said quit and the output is read.
    fn go_on(&mut self, s: &mut Session<'_>, mut go_on: bool) -> bool {
        while go_on && !self.holding() {
            let Some(input) = self.deferred.pop_front() else {
                break;
            };
            go_on = self.apply(s, input);
        }
        go_on && !s.out.is_closed()
    }

    /// Takes one line or the end of the input as it arrives: applied now, or queued behind what
    /// waits; returns false to end the session.
    fn input(&mut self, s: &mut Session<'_>, input: Input) -> bool {
        if self.eof {
            // After `quit` (waiting for the search it stopped), nothing more is applied.
            return true;
        }
        if self.holding() || !self.deferred.is_empty() {
            self.act_early(s, &input);
            self.deferred.push_back(input);
            return true;
        }
        self.apply(s, input)
    }

    /// While lines wait for a search or tool that ends on its own (which may take long: `go depth
    /// 40`, `perft 20`), a `stop` or `quit` behind them stops it at once, and the end of the input
    /// starts its grace time; each still applies again in its turn, to what the lines start.
    fn act_early(&mut self, s: &mut Session<'_>, input: &Input) {
        if !self.awaited() {
            return;
        }
        match input {
            Input::Line(Ok(Some(Command::Stop | Command::Quit))) => {
                self.command(s, Command::Stop);
            }
            Input::Eof => {
                if let Some(a) = &self.active {
                    s.stop_after_grace(a.stop.clone());
                }
            }
            _ => {}
        }
    }

    /// Applies one line or the end of the input in its turn; returns false to end the session.
    fn apply(&mut self, s: &mut Session<'_>, input: Input) -> bool {
        match input {
            _ if self.eof => true,
            input if waits_for_idle(&input) && self.ends_on_its_own() => {
                // A script that sends its next `position` and `go` without waiting for the
                // `bestmove`: they apply after it, in order, as a GUI's would after `stop`. The
                // line goes back to the front; what is queued behind it may act at once.
                if let Some(a) = &mut self.active {
                    a.awaited = true;
                }
                self.deferred.push_front(input);
                let early: Vec<Input> = (self.deferred.iter().skip(1))
                    .filter_map(|queued| match queued {
                        Input::Eof => Some(Input::Eof),
                        Input::Line(Ok(Some(Command::Stop | Command::Quit))) => {
                            Some(Input::Line(Ok(Some(Command::Stop))))
                        }
                        _ => None,
                    })
                    .collect();
                for input in &early {
                    self.act_early(s, input);
                }
                true
            }
            Input::Line(Ok(Some(Command::Quit))) => self.quit(s),
            Input::Line(Ok(Some(cmd))) => self.command(s, cmd),
            Input::Line(Ok(None)) => true,
            Input::Line(Err(e)) => {
                error(&mut s.out, e.to_string());
                if e.is_go && !self.search_running() {
                    // Every `go` ends with `bestmove`: one that cannot search answers "no move".
                    s.out.line(&bestmove(None, self.mode));
                }
                true
            }
            Input::Eof => {
                // End of input: let a running search or tool finish (an infinite or ponder search
                // is stopped at once, any other after the grace time) and write its answer, so
                // that piped scripts get their move; then exit.
                let Some(a) = &mut self.active else {
                    return false;
                };
                self.eof = true;
                if matches!(a.task, Task::Search { infinite: true } | Task::Ponder(_)) {
                    a.stopped = true;
                    a.stop.store(true, Ordering::Relaxed);
                    if let Some(line) = a.held.take() {
                        self.finish(s, line);
                        return false;
                    }
                } else {
                    s.stop_after_grace(a.stop.clone());
                }
                true
            }
        }
    }

    /// Handles one report of the worker; returns false to end the session.
    fn worker_report(&mut self, s: &mut Session<'_>, report: Report) -> bool {
        match report {
            Report::Game(GameEvent::Standard(SearchEvent::Info(info))) => {
                let line = info_line(&info, self.mode, s.core.options.multipv > 1);
                s.out.line(&line);
                true
            }
            Report::Progress(p, time) => {
                if matches!(&self.active, Some(a) if a.task != Task::Tool) {
                    s.out.line(&progress_line(&p, time, self.mode));
                }
                true
            }
            Report::Game(GameEvent::Standard(SearchEvent::Done(result))) => {
                let line = bestmove_with_ponder(
                    result.best_move,
                    &result.pv,
                    s.core.options.ponder,
                    self.mode,
                );
                self.search_done(s, line);
                !(self.eof && self.active.is_none())
            }
            Report::Game(GameEvent::Standard(SearchEvent::PerftMove(mv, n))) => {
                s.out.line(&perft_move_line(mv, n, self.mode));
                true
            }
            Report::Game(GameEvent::Variant(SearchEvent::Info(info))) => {
                s.out.line(&variant_text::info_line(&info, self.mode));
                true
            }
            Report::Game(GameEvent::Variant(SearchEvent::PerftMove(mv, n))) => {
                s.out.line(&format!("{} {n}", move_name(mv, self.mode)));
                true
            }
            Report::Game(GameEvent::Variant(SearchEvent::Done(result))) => {
                let line = variant_text::bestmove_line(
                    &result,
                    self.variant.as_ref(),
                    s.core.options.ponder,
                    self.mode,
                );
                self.search_done(s, line);
                !(self.eof && self.active.is_none())
            }
            Report::Tool(report) => {
                self.tool_report(s, report);
                !(self.eof && self.active.is_none())
            }
            Report::Pong => {
                if let Some(line) = self.awaiting_pong.take() {
                    s.out.line(line);
                }
                true
            }
            Report::Resized(mb, result) => {
                match s.core.hash_resized(mb, result) {
                    Err(e) => error(&mut s.out, e),
                    Ok(()) if self.debug => {
                        // The search's table takes the largest power of two of MB not above it.
                        let used = 1usize << mb.max(1).ilog2();
                        s.out.line(&format!(
                            "info string Hash: {mb} MB asked, a {used} MB search table in use"
                        ));
                    }
                    Ok(()) => {}
                }
                true
            }
        }
    }

    /// `quit`, once every earlier line has been answered (an `isready` before it defers it): a
    /// running search is stopped and its `bestmove` written before the session ends; a tool
    /// (`perft`, `bench`) owes no answer and ends with the process. Returns false to end now.
    fn quit(&mut self, s: &mut Session<'_>) -> bool {
        let Some(a) = &mut self.active else {
            return false;
        };
        if a.task == Task::Tool {
            return false;
        }
        self.eof = true;
        a.stopped = true;
        a.restart = None;
        a.stop.store(true, Ordering::Relaxed);
        match a.held.take() {
            Some(line) => {
                self.finish(s, line);
                false
            }
            None => true,
        }
    }

    /// Whether input is held back: until the worker has caught up with an `isready`, and from a
    /// `stop` until the stopped search or tool has answered, so that what follows a `stop` (a new
    /// position, the next `go`) applies after its `bestmove` as a GUI expects.
    fn holding(&self) -> bool {
        self.awaiting_pong.is_some() || self.active.as_ref().is_some_and(|a| a.stopped || a.awaited)
    }

    /// Whether lines wait for the end of what runs, which has not been stopped.
    fn awaited(&self) -> bool {
        self.active
            .as_ref()
            .is_some_and(|a| a.awaited && !a.stopped)
    }

    /// Whether what runs (a search with a limit, one after `ponderhit`, `perft` or `bench`) ends
    /// without a `stop`.
    fn ends_on_its_own(&self) -> bool {
        self.active.as_ref().is_some_and(|a| {
            !a.stopped
                && match a.task {
                    Task::Tool => true,
                    Task::Search { infinite: false } => a.bounded,
                    Task::Search { infinite: true } | Task::Ponder(_) => false,
                }
        })
    }

    /// Whether a search (not a tool) is running: it owes a `bestmove` of its own.
    fn search_running(&self) -> bool {
        self.active.as_ref().is_some_and(|a| a.task != Task::Tool)
    }

    /// Applies one command; returns false to end the process.
    fn command(&mut self, s: &mut Session<'_>, cmd: Command) -> bool {
        let busy = self.active.is_some();
        match cmd {
            Command::IsReady => {
                if busy {
                    // During a search the answer cannot wait for it.
                    s.out.line("readyok");
                } else {
                    // Once the worker has done every earlier job (a resize, a new evaluation).
                    self.awaiting_pong = Some("readyok");
                    s.core.ping();
                }
            }
            Command::Debug(on) => self.debug = on,
            Command::PonderHit => self.ponderhit(s),
            Command::Quit => return self.quit(s),
            Command::Stop => {
                if let Some(a) = &mut self.active {
                    a.stopped = true;
                    a.restart = None;
                    a.stop.store(true, Ordering::Relaxed);
                    if let Some(line) = a.held.take() {
                        self.finish(s, line);
                    }
                }
            }
            Command::Query(kind) => self.query(s, kind),
            Command::Display => self.display(s),
            Command::Eval => self.eval(s),
            Command::Help => self.help(s),
            Command::Go(_) if self.search_running() => {
                // The running search still owes its own `bestmove`; this `go` gets none.
                error(
                    &mut s.out,
                    "go: a search is running: send 'stop' first (this go is ignored; the running \
                     search answers bestmove)",
                );
            }
            _ if busy => {
                error(
                    &mut s.out,
                    "a search is running: send 'stop' first (allowed now: isready, stop, quit, \
                     ponderhit, query, d, eval, debug, help)",
                );
            }
            // Not during a search: the handshake switches the move notation its `bestmove` uses.
            Command::Uci | Command::Ugi => {
                let ugi = cmd == Command::Ugi;
                self.mode = if ugi { Mode::Ugi } else { Mode::Uci };
                let mut lines = handshake_lines(ugi, option_lines(&declarations()));
                // The last line (`uciok`/`ugiok`) waits until the worker has done every earlier
                // job (its start-up, a table's allocation): a `go` sent right after the handshake
                // then gets its whole time.
                let last = lines.pop();
                for l in lines {
                    s.out.line(&l);
                }
                self.awaiting_pong = Some(if ugi { "ugiok" } else { "uciok" });
                debug_assert_eq!(last.as_deref(), self.awaiting_pong);
                s.core.ping();
            }
            Command::NewGame => {
                s.core.new_game();
            }
            Command::Position { base, moves } => self.set_position(s, base, &moves),
            Command::VariantPosition { base, moves } => self.set_variant_position(s, base, &moves),
            Command::SetOption { name, value } => self.set_option(s, &name, value.as_deref()),
            Command::Go(params) => self.go(s, params),
            Command::Perft(depth) => self.perft(s, depth),
            Command::Bench(depth) => self.bench(s, depth),
        }
        true
    }

    fn set_position(&mut self, s: &mut Session<'_>, base: PositionSpec, moves: &[Move]) {
        let mut pos = base.position();
        for (i, &mv) in moves.iter().enumerate() {
            if pos.board.is_game_over() {
                error(
                    &mut s.out,
                    format!(
                        "position: move {} ({}): the game is already over; position unchanged",
                        i + 1,
                        move_text(mv, self.mode)
                    ),
                );
                return;
            }
            // A forced pass may be left out of the list.
            if !mv.is_pass() && pos.board.must_pass() {
                pos = Position {
                    board: pos.board.pass(),
                    side: pos.side.opposite(),
                };
            }
            match pos.play(mv) {
                Some(next) => pos = next,
                None => {
                    error(
                        &mut s.out,
                        format!(
                            "position: move {} ({}) is not legal; position unchanged",
                            i + 1,
                            move_text(mv, self.mode)
                        ),
                    );
                    return;
                }
            }
        }
        self.position = Some(pos);
        self.variant = None;
    }

    /// `position variant ...` or `position variantfile ...`: on any error one line, and the
    /// position (variant or not) stays as it was.
    fn set_variant_position(
        &mut self,
        s: &mut Session<'_>,
        base: VariantBase,
        moves: &[VariantMove],
    ) {
        match variant::position(&base, moves) {
            Ok(board) => {
                if self.variant.is_none() {
                    s.core.prepare_variant();
                }
                self.variant = Some(board);
            }
            Err(e) => error(
                &mut s.out,
                format!(
                    "{}; position unchanged",
                    crate::protocol::variant::position_error_text(&e, self.mode)
                ),
            ),
        }
    }

    fn set_option(&mut self, s: &mut Session<'_>, name: &str, value: Option<&str>) {
        if let Err(e) = s.core.set_option(name, value) {
            error(&mut s.out, e);
        } else if let Some((threads, cores)) = s.core.threads_beyond_cores(name) {
            s.out.line(&threads_warning(threads, cores));
        }
    }

    fn query(&mut self, s: &mut Session<'_>, kind: QueryKind) {
        if let Some(board) = &self.variant {
            s.out.line(&variant_text::response_line(kind, board));
            return;
        }
        let pos = self.position.unwrap_or(Position::START);
        s.out.line(&response_line(kind, pos));
    }

    fn display(&mut self, s: &mut Session<'_>) {
        if let Some(board) = &self.variant {
            for l in variant_text::display_lines(board, self.mode) {
                s.out.line(&l);
            }
            return;
        }
        let pos = self.position.unwrap_or(Position::START);
        for l in display_lines(pos, self.mode) {
            s.out.line(&l);
        }
    }

    fn eval(&mut self, s: &mut Session<'_>) {
        if let Some(board) = &self.variant {
            let figures = variant::evaluate(board, &s.core.options.variant);
            for l in crate::protocol::variant::eval_lines(&figures) {
                s.out.line(&l);
            }
            return;
        }
        let pos = self.position.unwrap_or(Position::START);
        let total = s.core.evaluator.evaluate(pos.board);
        for l in eval_lines(&s.core.evaluator.breakdown(pos.board), total) {
            s.out.line(&l);
        }
    }

    fn perft(&mut self, s: &mut Session<'_>, depth: u32) {
        if let Some(board) = self.variant {
            let stop = s.core.start_perft(board, depth);
            self.start_tool(stop);
            return;
        }
        let pos = self.position.unwrap_or(Position::START);
        let stop = s.core.start_perft(pos, depth);
        self.start_tool(stop);
    }

    fn bench(&mut self, s: &mut Session<'_>, depth: Option<u32>) {
        let stop = s.core.start_bench(depth.unwrap_or(bench::DEFAULT_DEPTH));
        self.start_tool(stop);
    }

    fn start_tool(&mut self, stop: Arc<AtomicBool>) {
        self.active = Some(Active {
            stop,
            task: Task::Tool,
            held: None,
            stopped: false,
            restart: None,
            awaited: false,
            bounded: true,
        });
    }

    fn tool_report(&mut self, s: &mut Session<'_>, report: ToolReport) {
        match report {
            ToolReport::PerftDone {
                depth,
                total,
                time,
                stopped,
            } => {
                self.active = None;
                if stopped {
                    s.out.line(&format!("info string perft {depth} stopped"));
                    return;
                }
                s.out.line(&perft::summary(depth, total, time));
            }
            ToolReport::BenchDone(figures) => {
                self.active = None;
                match figures {
                    Err(e) => error(&mut s.out, format!("bench: {e}")),
                    Ok(f) => s
                        .out
                        .line(&bench_line(f.nodes, f.time, f.positions, f.stopped)),
                }
            }
            ToolReport::Learned(_) => {} // this protocol sends no `learn`
        }
    }

    fn help(&mut self, s: &mut Session<'_>) {
        for l in HELP {
            s.out.line(l);
        }
    }
}
