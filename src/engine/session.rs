//! The one event loop every front end runs on. It owns the event channel, the reader thread, the
//! shared [`Core`] and the single [`Writer`]; a [`FrontEnd`] owns its protocol's state machine and
//! is told, one event at a time, that a line arrived, that the worker reported, or that the input
//! ended. Each answer says whether to go on; when one says no, the loop stops whatever the front
//! end has running and the session ends. No locks: the loop's thread is the only one that touches
//! the game state.

use super::core::{Core, CoreError};
use super::input::read_lines;
use super::worker::Report;
use super::Event;
use crate::protocol::LineError;
use crossbeam_channel::{unbounded, Sender};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long a search or tool may go on after the input has closed before it is stopped: long
/// enough for a piped script's `go depth 12` or `perft 10` to answer, short enough that an engine
/// whose GUI died does not search on for minutes (protocol.md, 2).
pub const EOF_GRACE: Duration = Duration::from_secs(10);

/// The single writer: every line goes out here, flushed at once.
pub struct Writer<'a> {
    out: &'a mut dyn Write,
    /// A write failed: the reader of the output (the GUI) is gone.
    closed: bool,
    /// A status line (see [`Writer::status`]) is on the screen, to be cleared by the next line.
    status_shown: bool,
}

/// The width of the terminal on standard output, when it is a terminal that says.
fn terminal_columns() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut size = libc::winsize {
            ws_row: 0,
            ws_col: 0,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: TIOCGWINSZ writes one `winsize` through its pointer argument, which points at
        // a live, writable, properly aligned `winsize` for the whole call; on an error (not a
        // terminal) it writes nothing and returns -1.
        let got = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
        (got == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
    }
    #[cfg(not(unix))]
    None
}

impl<'a> Writer<'a> {
    /// A writer on `out`.
    pub fn new(out: &'a mut dyn Write) -> Writer<'a> {
        Writer {
            out,
            closed: false,
            status_shown: false,
        }
    }

    /// Writes `text` and a line ending, and flushes; nothing once a write has failed.
    pub fn line(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let clear = if std::mem::take(&mut self.status_shown) {
            "\r\x1b[K"
        } else {
            ""
        };
        if writeln!(self.out, "{clear}{text}")
            .and_then(|()| self.out.flush())
            .is_err()
        {
            // Nobody reads any more.
            self.closed = true;
        }
    }

    /// Shows `text` on the terminal's current line in place of the previous status (carriage
    /// return, clear to the end of the line, no line ending); the next [`Writer::line`] replaces
    /// it. Only for a person's terminal: protocols never use it.
    pub fn status(&mut self, text: &str) {
        if self.closed {
            return;
        }
        self.status_shown = true;
        // A line longer than the terminal would wrap, and the next status would clear only its
        // last row: it is cut to fit.
        let fit: String = match terminal_columns() {
            Some(columns) => text.chars().take(columns.saturating_sub(1)).collect(),
            None => text.to_string(),
        };
        if write!(self.out, "\r\x1b[K{fit}")
            .and_then(|()| self.out.flush())
            .is_err()
        {
            self.closed = true;
        }
    }

    /// Whether a write has failed: nobody reads the output any more.
    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

/// What a front end works with while it handles an event: the shared core and the writer.
pub struct Session<'a> {
    /// Options, book, evaluation and the search worker.
    pub core: Core,
    /// Where every line goes.
    pub out: Writer<'a>,
}

impl Session<'_> {
    /// Stops the work behind `stop` after [`EOF_GRACE`]: the input has ended, and what runs may
    /// answer if it does so soon.
    pub fn stop_after_grace(&self, stop: Arc<AtomicBool>) {
        let _ = std::thread::Builder::new()
            .name("eof-grace".into())
            .spawn(move || {
                std::thread::sleep(EOF_GRACE);
                stop.store(true, Ordering::Relaxed);
            });
    }
}

/// What went wrong as a session started.
#[derive(Debug)]
pub enum StartProblem {
    /// The core could not start: the session ends.
    NoCore(CoreError),
    /// The core started without something (the built-in book): a warning.
    Warning(CoreError),
    /// The input could not be started: the session ends.
    NoInput(std::io::Error),
}

impl StartProblem {
    /// Whether the session ends before it starts.
    pub fn is_fatal(&self) -> bool {
        !matches!(self, StartProblem::Warning(_))
    }
}

impl std::fmt::Display for StartProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartProblem::NoCore(e) | StartProblem::Warning(e) => write!(f, "{e}"),
            StartProblem::NoInput(e) => write!(f, "cannot start the input: {e}"),
        }
    }
}

/// One protocol's state machine, driven by [`run`]. Each method returns whether the session goes
/// on.
pub trait FrontEnd {
    /// Says a problem at start-up in the protocol's way: a fatal one ends the session before it
    /// starts (the engine cannot run), any other is a warning. By default it goes to the log
    /// (stderr), for protocols with no line of their own for it.
    fn start_problem(&mut self, _out: &mut Writer<'_>, problem: &StartProblem) {
        if problem.is_fatal() {
            log::error!("{problem}");
        } else {
            log::warn!("{problem}");
        }
    }

    /// The session has started (the core is ready), before any input: a front end that speaks
    /// first (an interactive game) does it here. By default nothing.
    fn begin(&mut self, _s: &mut Session<'_>) {}

    /// A line of input arrived (without its line ending), or a line that could not be read.
    fn line(&mut self, s: &mut Session<'_>, line: Result<String, LineError>) -> bool;

    /// The worker reported.
    fn report(&mut self, s: &mut Session<'_>, report: Report) -> bool;

    /// The input ended: nothing more will come but the worker's reports.
    fn end_of_input(&mut self, s: &mut Session<'_>) -> bool;

    /// A request from the browser board's server ([`super::gui`]). Front ends that do not serve
    /// the browser drop it, which answers the request with an error.
    fn gui(&mut self, _s: &mut Session<'_>, _request: crate::protocol::gui::Request) -> bool {
        true
    }

    /// Stops what runs on the worker for this front end: the session is ending.
    fn stop(&mut self);

    /// The process exit status once the session has ended: 0, or 1 where the front end failed at
    /// something it was asked to keep (a game it could not save).
    fn exit_status(&self) -> i32 {
        0
    }

    /// Whether the session ends once its output cannot be written, nobody reading it any more
    /// (protocol.md, 2): yes for the engine protocols and the terminal game, whose output is
    /// their whole answer.
    fn needs_output(&self) -> bool {
        true
    }
}

/// Runs `front` on `input` and `output` until it ends the session; returns the process exit status
/// (1 when the session could not start, else [`FrontEnd::exit_status`]).
pub fn run(front: impl FrontEnd, input: impl BufRead + Send + 'static, output: impl Write) -> i32 {
    let reader = move |events: Sender<Event>| {
        std::thread::Builder::new()
            .name("reader".into())
            .spawn(move || read_lines(input, events))
            .map(drop)
    };
    run_with(front, reader, output)
}

/// Runs `front` with events from a source of its own: `start_input` is handed the event channel
/// once the core is ready and starts whatever feeds it (a reader thread, a web server).
pub fn run_with(
    mut front: impl FrontEnd,
    start_input: impl FnOnce(Sender<Event>) -> std::io::Result<()>,
    mut output: impl Write,
) -> i32 {
    let (events_tx, events) = unbounded::<Event>();
    let mut out = Writer::new(&mut output);
    let (core, warning) = match Core::start(events_tx.clone()) {
        Ok(c) => c,
        Err(e) => {
            front.start_problem(&mut out, &StartProblem::NoCore(e));
            return 1;
        }
    };
    if let Some(w) = warning {
        front.start_problem(&mut out, &StartProblem::Warning(w));
    }
    // The worker builds its tables first (0.1-0.3 s for the default Hash): input is read once
    // it has, so a protocol without a handshake that waits for it (GTP, NBoard) does not pay for
    // it out of its first timed search.
    core.ping();
    let mut early = Vec::new();
    for event in &events {
        match event {
            Event::Worker(Report::Pong) => break,
            other => early.push(other),
        }
    }
    if let Err(e) = start_input(events_tx) {
        front.start_problem(&mut out, &StartProblem::NoInput(e));
        return 1;
    }
    let mut s = Session { core, out };
    front.begin(&mut s);
    for event in early.into_iter().chain(events) {
        let go_on = match event {
            Event::Line(line) => front.line(&mut s, line),
            Event::Eof => front.end_of_input(&mut s),
            Event::Worker(report) => front.report(&mut s, report),
            Event::Gui(request) => front.gui(&mut s, request),
        };
        if !go_on || (front.needs_output() && s.out.is_closed()) {
            front.stop();
            return front.exit_status();
        }
    }
    front.exit_status()
}
