//! The engine process: a reader thread turns stdin lines into commands, the controller (this thread)
//! owns the game state and options and applies commands in order, a worker thread searches, and one
//! writer prints every line. All three talk through one crossbeam channel of [`Event`]s, so the
//! controller is a single loop with no locks around the game state:
//!
//! ```text
//! stdin -> reader (nom parser) -> Event -> controller -> Job -> worker (search) -> Event -> controller
//!                                                   \-> writer -> stdout
//! ```

pub mod controller;
pub mod core;
pub mod gtp;
pub mod nboard;
pub mod options;
pub mod worker;

use crate::protocol::parser::{parse_command, Command, ParseError, MAX_LINE_BYTES};
use crate::search::{Info, ProgressSnapshot, SearchResult, TableAllocError};
use crossbeam_channel::Sender;
use std::io::{BufRead, Write};

/// Everything the controller reacts to.
pub enum Event {
    /// A line from the input, parsed (`Ok(None)`: blank line).
    Line(Result<Option<Command>, ParseError>),
    /// A raw line for the NBoard and GTP front ends (an error for an oversized or non-UTF-8 line).
    Text(Result<String, ParseError>),
    /// The input is closed.
    Eof,
    /// Search progress from the worker.
    Info(Info),
    /// The worker finished a search.
    Done(SearchResult),
    /// A running search's live figures, about once a second, with the time since it started.
    Progress(ProgressSnapshot, std::time::Duration),
    /// A long tool (`perft`, `bench`) run by the worker reports.
    Tool(worker::ToolReport),
    /// The worker has done every job sent before its `Ping`.
    Pong,
    /// The worker's answer to a hash resize to this many MB: done, or why it failed (the old
    /// table is kept).
    Resized(usize, Result<(), TableAllocError>),
}

/// Reads lines from `input` and sends them, parsed as wedge protocol commands, as events, until the
/// input ends or the controller is gone.
pub fn read_input(input: impl BufRead, events: Sender<Event>) {
    read_lines(input, events, |line| {
        Event::Line(line.and_then(parse_command))
    });
}

/// Reads lines from `input` and sends each as an event made by `to_event`, until the input ends or
/// the receiver is gone. Lines longer than [`MAX_LINE_BYTES`] are skipped whole (never buffered in
/// full) and given as errors; so are lines that are not UTF-8.
pub fn read_lines(
    mut input: impl BufRead,
    events: Sender<Event>,
    to_event: impl Fn(Result<&str, ParseError>) -> Event,
) {
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        let mut too_long = false;
        let mut saw_newline = false;
        let mut read_any = false;
        loop {
            let buf = match input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if buf.is_empty() {
                break;
            }
            read_any = true;
            let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            if !too_long {
                if line.len() + chunk.len() > MAX_LINE_BYTES + 1 {
                    too_long = true;
                    line.clear();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            input.consume(used);
            if done {
                saw_newline = true;
                break;
            }
        }
        if !read_any {
            let _ = events.send(Event::Eof);
            return;
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        // A UTF-8 byte-order mark (some editors and Windows tools write one) is not part of the
        // first command.
        if first && line.starts_with(b"\xEF\xBB\xBF") {
            line.drain(..3);
        }
        first = false;
        let text = if too_long || line.len() > MAX_LINE_BYTES {
            Err(ParseError::new(format!(
                "line too long (at most {MAX_LINE_BYTES} bytes)"
            )))
        } else {
            std::str::from_utf8(&line).map_err(|_| ParseError::new("the line is not valid UTF-8"))
        };
        if events.send(to_event(text)).is_err() {
            return;
        }
        if !saw_newline {
            let _ = events.send(Event::Eof);
            return;
        }
    }
}

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// wedge's own protocol (UCI-shaped, a superset of UGI): protocol.md.
    Wedge,
    /// The NBoard protocol, version 2.
    Nboard,
    /// GTP as Othello programs use it.
    Gtp,
}

/// Guesses the protocol from the first line a controller sends, in any case and after a byte-order
/// mark: `nboard ...` is NBoard; a GTP command (or a numeric GTP id) is GTP; anything else is
/// wedge's protocol.
pub fn detect_protocol(first_line: &str) -> Protocol {
    let word = first_line
        .trim_start_matches('\u{feff}')
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if word == "nboard" {
        Protocol::Nboard
    } else if (gtp::COMMANDS.contains(&word.as_str()) && word != "quit")
        || (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
    {
        Protocol::Gtp
    } else {
        Protocol::Wedge
    }
}

/// Starts the shared core and a reader thread that passes raw lines on (for the NBoard and GTP
/// front ends). Problems starting are logged; `None` means the front end cannot run.
pub fn start_text_front_end(
    input: impl BufRead + Send + 'static,
) -> Option<(core::Core, crossbeam_channel::Receiver<Event>)> {
    let (events_tx, events) = crossbeam_channel::unbounded::<Event>();
    let (core, warning) = match core::Core::start(events_tx.clone()) {
        Ok(c) => c,
        Err(e) => {
            log::error!("{e}");
            return None;
        }
    };
    if let Some(w) = warning {
        log::warn!("{w}");
    }
    let started = std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_lines(input, events_tx, |l| Event::Text(l.map(str::to_string))));
    if started.is_err() {
        log::error!("cannot start the input thread");
        return None;
    }
    Some((core, events))
}

/// Runs the engine on `input` and `output` in `protocol` until it is told to quit or the input ends;
/// returns the process exit status.
pub fn run(protocol: Protocol, input: impl BufRead + Send + 'static, output: impl Write) -> i32 {
    match protocol {
        Protocol::Wedge => controller::Controller::run(input, output),
        Protocol::Nboard => nboard::run(input, output),
        Protocol::Gtp => gtp::run(input, output),
    }
}
