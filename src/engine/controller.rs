//! The controller: the one owner of the engine's state (position, options, mode, the search in
//! progress). It applies commands in order, refuses what is not allowed now with one
//! `info string error: ...` line (the state stays exactly as it was), starts and stops searches on the
//! worker, and is the only place that writes to the output.

use super::core::Core;
use super::options::option_lines;
use super::worker::ToolReport;
use super::{read_input, Event};
use crate::board::{Color, Move, Position};
use crate::protocol::output::{
    bestmove, bestmove_with_ponder, info_line, move_text, progress_line, Mode,
};
use crate::protocol::parser::{Command, GoParams, PositionSpec, QueryKind};
use crate::search::SearchResult;
use crate::tools::{bench, perft};
use crossbeam_channel::unbounded;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long a search or tool may go on after the input has closed before it is stopped: long
/// enough for a piped script's `go depth 12` or `perft 10` to answer, short enough that an engine
/// whose GUI died does not search on for minutes (protocol.md, 2).
pub const EOF_GRACE: Duration = Duration::from_secs(10);

/// The single writer: every line goes out here, flushed at once.
struct Writer<W: Write> {
    out: W,
    /// A write failed: the reader of the output (the GUI) is gone.
    closed: bool,
}

impl<W: Write> Writer<W> {
    fn line(&mut self, text: &str) {
        if self.closed {
            return;
        }
        if writeln!(self.out, "{text}")
            .and_then(|()| self.out.flush())
            .is_err()
        {
            // Nobody reads any more: the engine ends cleanly at the next event.
            self.closed = true;
        }
    }

    fn error(&mut self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
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

/// A search or tool in progress.
struct Active {
    stop: Arc<AtomicBool>,
    task: Task,
    /// The result, when the search ended before `stop` in infinite or ponder mode (held back).
    held: Option<SearchResult>,
    /// Whether `stop` arrived.
    stopped: bool,
    /// `ponderhit` arrived during a ponder search: when it ends, search again with these.
    restart: Option<GoParams>,
}

/// The engine state and its event loop.
pub struct Controller<W: Write> {
    out: Writer<W>,
    mode: Mode,
    debug: bool,
    position: Option<Position>,
    core: Core,
    active: Option<Active>,
    /// The input has ended; exit once the running search has answered.
    eof: bool,
    /// `isready` was passed to the worker; `readyok` is written when it answers.
    awaiting_pong: bool,
    /// Lines that came while waiting for the worker's answer, applied after `readyok` in order.
    deferred: VecDeque<Event>,
}

impl<W: Write> Controller<W> {
    /// Runs the engine loop over `input` and `output`; returns the exit status.
    pub fn run(input: impl BufRead + Send + 'static, output: W) -> i32 {
        let (events_tx, events) = unbounded::<Event>();
        let mut out = Writer {
            out: output,
            closed: false,
        };
        let (core, warning) = match Core::start(events_tx.clone()) {
            Ok(c) => c,
            Err(e) => {
                out.error(&e);
                return 1;
            }
        };
        if let Some(w) = warning {
            out.error(&w);
        }
        let reader_tx = events_tx.clone();
        if let Err(e) = std::thread::Builder::new()
            .name("reader".into())
            .spawn(move || read_input(input, reader_tx))
        {
            out.error(&format!("cannot start the input thread: {e}"));
            return 1;
        }
        drop(events_tx);
        let mut c = Controller {
            out,
            mode: Mode::Uci,
            debug: false,
            position: None,
            core,
            active: None,
            eof: false,
            awaiting_pong: false,
            deferred: VecDeque::new(),
        };
        for event in events {
            let mut keep_going = c.event(event);
            // Lines held back while the worker caught up, in order, until one waits again.
            while keep_going && !c.awaiting_pong {
                let Some(e) = c.deferred.pop_front() else {
                    break;
                };
                keep_going = c.event(e);
            }
            if !keep_going || c.out.closed {
                if let Some(a) = &c.active {
                    a.stop.store(true, Ordering::Relaxed);
                }
                return 0;
            }
        }
        0
    }

    /// Handles one event; returns false to end the process.
    fn event(&mut self, event: Event) -> bool {
        match event {
            Event::Line(Ok(Some(Command::Quit))) => false,
            e @ (Event::Line(_) | Event::Eof) if self.awaiting_pong => {
                self.deferred.push_back(e);
                true
            }
            Event::Line(Ok(Some(cmd))) => self.command(cmd),
            Event::Line(Ok(None)) | Event::Text(_) => true,
            Event::Line(Err(e)) => {
                self.out.error(&e.message);
                if e.is_go && !self.search_running() {
                    // Every `go` ends with `bestmove`: one that cannot search answers "no move".
                    self.out.line(&bestmove(None, self.mode));
                }
                true
            }
            Event::Eof => {
                // End of input: let a running search or tool finish (an infinite or ponder search
                // is stopped at once, any other after EOF_GRACE) and write its answer, so that
                // piped scripts get their move; then exit.
                let Some(a) = &mut self.active else {
                    return false;
                };
                self.eof = true;
                if matches!(a.task, Task::Search { infinite: true } | Task::Ponder(_)) {
                    a.stopped = true;
                    a.stop.store(true, Ordering::Relaxed);
                    if let Some(result) = a.held.take() {
                        self.finish(result);
                        return false;
                    }
                } else {
                    let stop = a.stop.clone();
                    let _ = std::thread::Builder::new()
                        .name("eof-grace".into())
                        .spawn(move || {
                            std::thread::sleep(EOF_GRACE);
                            stop.store(true, Ordering::Relaxed);
                        });
                }
                true
            }
            Event::Info(info) => {
                let line = info_line(&info, self.mode, self.core.options.multipv > 1);
                self.out.line(&line);
                true
            }
            Event::Progress(p, time) => {
                if matches!(&self.active, Some(a) if a.task != Task::Tool) {
                    self.out.line(&progress_line(&p, time, self.mode));
                }
                true
            }
            Event::Done(result) => {
                self.search_done(result);
                !(self.eof && self.active.is_none())
            }
            Event::Tool(report) => {
                self.tool_report(report);
                !(self.eof && self.active.is_none())
            }
            Event::Pong => {
                if self.awaiting_pong {
                    self.awaiting_pong = false;
                    self.out.line("readyok");
                }
                true
            }
            Event::Resized(mb, result) => {
                match self.core.hash_resized(mb, result) {
                    Err(e) => self.out.error(&e),
                    Ok(()) if self.debug => {
                        self.out
                            .line(&format!("info string Hash: {mb} MB table in use"));
                    }
                    Ok(()) => {}
                }
                true
            }
        }
    }

    /// Whether a search (not a tool) is running: it owes a `bestmove` of its own.
    fn search_running(&self) -> bool {
        self.active.as_ref().is_some_and(|a| a.task != Task::Tool)
    }

    /// Applies one command; returns false to end the process.
    fn command(&mut self, cmd: Command) -> bool {
        let busy = self.active.is_some();
        match cmd {
            Command::Uci | Command::Ugi => {
                let ugi = cmd == Command::Ugi;
                self.mode = if ugi { Mode::Ugi } else { Mode::Uci };
                self.out
                    .line(&format!("id name wedge {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the wedge developers");
                for l in option_lines() {
                    self.out.line(&l);
                }
                self.out.line(if ugi { "ugiok" } else { "uciok" });
            }
            Command::IsReady => {
                if busy {
                    // During a search the answer cannot wait for it.
                    self.out.line("readyok");
                } else {
                    // Once the worker has done every earlier job (a resize, a new evaluation).
                    self.awaiting_pong = true;
                    self.core.ping();
                }
            }
            Command::Debug(on) => self.debug = on,
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return false,
            Command::Stop => {
                if let Some(a) = &mut self.active {
                    a.stopped = true;
                    a.restart = None;
                    a.stop.store(true, Ordering::Relaxed);
                    if let Some(result) = a.held.take() {
                        self.finish(result);
                    }
                }
            }
            Command::Query(kind) => self.query(kind),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Help => self.help(),
            Command::Go(_) if self.search_running() => {
                // The running search still owes its own `bestmove`; this `go` gets none.
                self.out.error(
                    "go: a search is running: send 'stop' first (this go is ignored; the running \
                     search answers bestmove)",
                );
            }
            Command::Go(_) if busy => {
                // A `perft` or `bench` writes no `bestmove`: this `go` gets its own "no move".
                self.out
                    .error("go: perft or bench is running: send 'stop' first (no search started)");
                self.out.line(&bestmove(None, self.mode));
            }
            _ if busy => {
                self.out.error(
                    "a search is running: send 'stop' first (allowed now: isready, stop, quit, \
                     ponderhit, query, d, eval, debug, help)",
                );
            }
            Command::NewGame => {
                self.core.new_game();
            }
            Command::Position { base, moves } => self.set_position(base, &moves),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Go(params) => self.go(params),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => self.bench(depth),
        }
        true
    }

    fn set_position(&mut self, base: PositionSpec, moves: &[Move]) {
        let mut pos = base.position();
        for (i, &mv) in moves.iter().enumerate() {
            if pos.board.is_game_over() {
                self.out.error(&format!(
                    "position: move {} ({}): the game is already over; position unchanged",
                    i + 1,
                    move_text(mv, self.mode)
                ));
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
                    self.out.error(&format!(
                        "position: move {} ({}) is not legal; position unchanged",
                        i + 1,
                        move_text(mv, self.mode)
                    ));
                    return;
                }
            }
        }
        self.position = Some(pos);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if let Err(e) = self.core.set_option(name, value) {
            self.out.error(&e.to_string());
        }
    }

    fn go(&mut self, mut params: GoParams) {
        // `go` before any `position` searches the start position.
        let pos = self.position.unwrap_or(Position::START);
        let ponder = params.ponder;
        params.ponder = false;
        if let Some(set) = params.searchmoves {
            if set & pos.board.legal_moves().0 == 0 && pos.board.can_move() {
                self.out.error(
                    "go: searchmoves: none of these moves is legal here; searching all moves",
                );
                params.searchmoves = None;
            }
        }
        let quick = if pos.board.is_game_over() {
            self.out.line("info string game over");
            Some(None)
        } else if pos.board.must_pass() {
            Some(Some(Move::PASS))
        } else if ponder {
            None
        } else {
            self.core.book_move(pos, &params).map(|m| {
                self.out.line(&format!(
                    "info string book move {} score {:+}",
                    move_text(m.mv, self.mode),
                    m.score
                ));
                Some(m.mv)
            })
        };
        if let Some(mv) = quick {
            let result = SearchResult {
                best_move: mv,
                score: crate::search::Score::Eval(0),
                pv: mv.into_iter().collect(),
                nodes: 0,
                depth: 0,
            };
            if ponder {
                // Held until `ponderhit` or `stop`, as a ponder search's answer would be.
                self.active = Some(Active {
                    stop: Arc::new(AtomicBool::new(true)),
                    task: Task::Ponder(params),
                    held: Some(result),
                    stopped: false,
                    restart: None,
                });
            } else {
                self.out.line(&bestmove(mv, self.mode));
            }
            return;
        }
        let search_params = if ponder {
            GoParams {
                infinite: true,
                ..params
            }
        } else {
            params
        };
        let plan = self.core.plan(pos, &search_params);
        if self.debug {
            self.out.line(&format!("info string {}", plan.describe()));
        }
        let stop = match self.core.start_search(pos.board, plan) {
            Ok(stop) => stop,
            Err(e) => {
                self.out.error(&e);
                self.out.line(&bestmove(None, self.mode));
                return;
            }
        };
        self.active = Some(Active {
            stop,
            task: if ponder {
                Task::Ponder(params)
            } else {
                Task::Search {
                    infinite: params.infinite,
                }
            },
            held: None,
            stopped: false,
            restart: None,
        });
    }

    /// `ponderhit`: the expected move was played. A ponder search that has already ended answers
    /// now; one still running is stopped and the position searched again with the `go ponder`
    /// command's own limits (the table keeps what the ponder search found, so the new search
    /// reaches the same depth at once).
    fn ponderhit(&mut self) {
        let Some(a) = &mut self.active else {
            return;
        };
        let Task::Ponder(params) = a.task else {
            return;
        };
        a.task = Task::Search { infinite: false };
        if let Some(result) = a.held.take() {
            self.finish(result);
            return;
        }
        a.restart = Some(params);
        a.stop.store(true, Ordering::Relaxed);
    }

    fn search_done(&mut self, result: SearchResult) {
        let Some(active) = &mut self.active else {
            return;
        };
        if let Some(params) = active.restart.take() {
            if self.eof {
                // The GUI is gone: answer with what pondering found rather than search again.
                self.finish(result);
                return;
            }
            self.active = None;
            self.go(params);
            return;
        }
        let holds = matches!(
            active.task,
            Task::Search { infinite: true } | Task::Ponder(_)
        );
        if holds && !active.stopped {
            active.held = Some(result);
            return;
        }
        self.finish(result);
    }

    fn finish(&mut self, result: SearchResult) {
        self.active = None;
        let line = bestmove_with_ponder(
            result.best_move,
            &result.pv,
            self.core.options.ponder,
            self.mode,
        );
        self.out.line(&line);
    }

    fn query(&mut self, kind: QueryKind) {
        let pos = self.position.unwrap_or(Position::START);
        let answer = match kind {
            QueryKind::GameOver => pos.board.is_game_over().to_string(),
            QueryKind::P1Turn => (pos.side == Color::Black).to_string(),
            QueryKind::Result => {
                if !pos.board.is_game_over() {
                    "none".to_string()
                } else {
                    let diff = pos.black().count_ones() as i32 - pos.white().count_ones() as i32;
                    match diff.signum() {
                        1 => "p1win".to_string(),
                        -1 => "p2win".to_string(),
                        _ => "draw".to_string(),
                    }
                }
            }
        };
        self.out.line(&format!("response {answer}"));
    }

    fn display(&mut self) {
        let pos = self.position.unwrap_or(Position::START);
        for l in pos.diagram().lines() {
            self.out.line(l);
        }
        let side = match pos.side {
            Color::Black => "black (X)",
            Color::White => "white (O)",
        };
        self.out.line(&format!("side to move: {side}"));
        let moves: Vec<String> = pos
            .legal_move_list()
            .into_iter()
            .map(|m| move_text(m, self.mode))
            .collect();
        self.out.line(&format!(
            "legal moves: {}",
            if moves.is_empty() {
                "none (game over)".to_string()
            } else {
                moves.join(" ")
            }
        ));
        self.out.line(&format!("fen: {}", pos.to_fen()));
        self.out.line(&format!("board: {pos}"));
        self.out.line(&format!("hash: {:016x}", pos.board.hash()));
    }

    fn eval(&mut self) {
        let pos = self.position.unwrap_or(Position::START);
        let total = self.core.evaluator.evaluate(pos.board);
        for t in self.core.evaluator.breakdown(pos.board) {
            self.out.line(&format!(
                "{:<20} feature {:>4}  {:>+8.2}",
                t.name,
                t.feature,
                f64::from(t.value) / 100.0
            ));
        }
        self.out.line(&format!(
            "total                              {:>+8.2} discs (side to move)",
            f64::from(total) / 100.0
        ));
    }

    fn perft(&mut self, depth: u32) {
        let pos = self.position.unwrap_or(Position::START);
        let stop = self.core.start_perft(pos.board, depth);
        self.start_tool(stop);
    }

    fn bench(&mut self, depth: Option<u32>) {
        let stop = self.core.start_bench(depth.unwrap_or(bench::DEFAULT_DEPTH));
        self.start_tool(stop);
    }

    fn start_tool(&mut self, stop: Arc<AtomicBool>) {
        self.active = Some(Active {
            stop,
            task: Task::Tool,
            held: None,
            stopped: false,
            restart: None,
        });
    }

    fn tool_report(&mut self, report: ToolReport) {
        match report {
            ToolReport::PerftMove(mv, n) => {
                self.out.line(&format!("{} {n}", move_text(mv, self.mode)));
            }
            ToolReport::PerftDone {
                depth,
                total,
                time,
                stopped,
            } => {
                self.active = None;
                if stopped {
                    self.out.line(&format!("info string perft {depth} stopped"));
                    return;
                }
                self.out.line(&perft::summary(depth, total, time));
            }
            ToolReport::BenchDone(figures) => {
                self.active = None;
                match figures {
                    Err(e) => self.out.error(&format!("bench: {e}")),
                    Ok(f) => {
                        let nps = f.nodes as f64 / f.time.as_secs_f64().max(1e-9);
                        let note = if f.stopped {
                            format!(" (stopped after {} positions)", f.positions)
                        } else {
                            String::new()
                        };
                        self.out
                            .line(&format!("{} nodes {nps:.0} nps{note}", f.nodes));
                    }
                }
            }
        }
    }

    fn help(&mut self) {
        for l in [
            "info string wedge speaks a UCI-shaped protocol (protocol.md): uci, isready, \
             ucinewgame, position startpos|board|fen [moves ...], go [depth|nodes|movetime|\
             btime|wtime|binc|winc|movestogo|infinite|exact|wld|ponder|searchmoves ...], stop, \
             ponderhit, setoption name N [value V], quit",
            "info string also: d (show the board), eval, perft <depth>, bench [depth], query \
             gameover|p1turn|result, debug on|off; 'wedge --help' lists the command-line tools",
        ] {
            self.out.line(l);
        }
    }
}
