//! The controller: the one owner of the engine's state (position, options, mode, the search in
//! progress). It applies commands in order, refuses what is not allowed now with one
//! `info string error: ...` line (the state stays exactly as it was), starts and stops searches on the
//! worker, and is the only place that writes to the output.

use super::core::Core;
use super::options::option_lines;
use super::{read_input, Event};
use crate::board::{Color, Move, Position};
use crate::protocol::output::{bestmove, info_line, move_text, Mode};
use crate::protocol::parser::{Command, GoParams, PositionSpec, QueryKind};
use crate::search::SearchResult;
use crate::tools::{bench, perft};
use crossbeam_channel::unbounded;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The single writer: every line goes out here, flushed at once.
struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    fn line(&mut self, text: &str) {
        // A closed output (the GUI went away) is not an error worth dying for: the next read of the
        // input will see EOF and end the process.
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn error(&mut self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// A search in progress.
struct Active {
    stop: Arc<AtomicBool>,
    infinite: bool,
    /// The result, when the search ended before `stop` in infinite mode (held back until `stop`).
    held: Option<SearchResult>,
    /// Whether `stop` arrived.
    stopped: bool,
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
}

impl<W: Write> Controller<W> {
    /// Runs the engine loop over `input` and `output`; returns the exit status.
    pub fn run(input: impl BufRead + Send + 'static, output: W) -> i32 {
        let (events_tx, events) = unbounded::<Event>();
        let mut out = Writer { out: output };
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
        };
        for event in events {
            let keep_going = match event {
                Event::Line(Ok(Some(cmd))) => c.command(cmd),
                Event::Line(Ok(None)) | Event::Text(_) => true,
                Event::Line(Err(e)) => {
                    c.out.error(&e.message);
                    true
                }
                Event::Eof => {
                    // End of input: let a running search finish (an infinite one is stopped) and
                    // answer its bestmove, so that piped scripts get their move; then exit.
                    match &mut c.active {
                        Some(a) => {
                            c.eof = true;
                            if a.infinite {
                                a.stopped = true;
                                a.stop.store(true, Ordering::Relaxed);
                            }
                            true
                        }
                        None => false,
                    }
                }
                Event::Info(info) => {
                    let line = info_line(&info, c.mode, c.core.options.multipv > 1);
                    c.out.line(&line);
                    true
                }
                Event::Done(result) => {
                    c.search_done(result);
                    !(c.eof && c.active.is_none())
                }
            };
            if !keep_going {
                if let Some(a) = &c.active {
                    a.stop.store(true, Ordering::Relaxed);
                }
                return 0;
            }
        }
        0
    }

    /// Applies one command; returns false to end the process.
    fn command(&mut self, cmd: Command) -> bool {
        let searching = self.active.is_some();
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
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(on) => self.debug = on,
            Command::PonderHit => {}
            Command::Quit => return false,
            Command::Stop => {
                if let Some(a) = &mut self.active {
                    a.stopped = true;
                    a.stop.store(true, Ordering::Relaxed);
                    if let Some(result) = a.held.take() {
                        self.finish(result);
                    }
                }
            }
            Command::Query(kind) => self.query(kind),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            _ if searching => {
                self.out.error(
                    "a search is running: send 'stop' first (allowed now: isready, stop, quit, \
                     query, d, eval, debug, ponderhit)",
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
            self.out.error(&e);
        }
    }

    fn go(&mut self, params: GoParams) {
        let Some(pos) = self.position else {
            self.out
                .error("go: no position set (send 'position startpos' first)");
            return;
        };
        if pos.board.is_game_over() {
            self.out.line("info string game over");
            self.out.line(&bestmove(None, self.mode));
            return;
        }
        if pos.board.must_pass() {
            self.out.line(&bestmove(Some(Move::PASS), self.mode));
            return;
        }
        if let Some(m) = self.core.book_move(pos, &params) {
            self.out.line(&format!(
                "info string book move {} score {:+}",
                move_text(m.mv, self.mode),
                m.score
            ));
            self.out.line(&bestmove(Some(m.mv), self.mode));
            return;
        }
        let plan = self.core.plan(pos, &params);
        if self.debug {
            self.out.line(&format!("info string {}", plan.describe()));
        }
        let stop = match self.core.start_search(pos.board, plan) {
            Ok(stop) => stop,
            Err(e) => {
                self.out.error(&e);
                return;
            }
        };
        self.active = Some(Active {
            stop,
            infinite: params.infinite,
            held: None,
            stopped: false,
        });
    }

    fn search_done(&mut self, result: SearchResult) {
        let Some(active) = &mut self.active else {
            return;
        };
        if active.infinite && !active.stopped {
            active.held = Some(result);
            return;
        }
        self.finish(result);
    }

    fn finish(&mut self, result: SearchResult) {
        self.active = None;
        self.out.line(&bestmove(result.best_move, self.mode));
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
        let start = Instant::now();
        let mut total = 0;
        for (mv, n) in perft::perft_divide(pos.board, depth) {
            self.out.line(&format!("{} {n}", move_text(mv, self.mode)));
            total += n;
        }
        let secs = start.elapsed().as_secs_f64();
        self.out.line(&format!(
            "perft {depth}: {total} leaves, {:.3} s, {:.0} leaves/s",
            secs,
            total as f64 / secs.max(1e-9)
        ));
    }

    fn bench(&mut self, depth: Option<u32>) {
        let lines = bench::run(
            depth.unwrap_or(bench::DEFAULT_DEPTH),
            self.core.options.hash_mb.min(256),
            |_| {},
        );
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        let secs: f64 = lines.iter().map(|l| l.time.as_secs_f64()).sum();
        self.out.line(&format!(
            "{nodes} nodes {:.0} nps",
            nodes as f64 / secs.max(1e-9)
        ));
    }
}
