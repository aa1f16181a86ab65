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
pub mod options;
pub mod worker;

use crate::protocol::parser::{parse_command, Command, ParseError, MAX_LINE_BYTES};
use crate::search::{Info, SearchResult};
use crossbeam_channel::Sender;
use std::io::{BufRead, Write};

/// Everything the controller reacts to.
pub enum Event {
    /// A line from the input, parsed (`Ok(None)`: blank line).
    Line(Result<Option<Command>, ParseError>),
    /// The input is closed.
    Eof,
    /// Search progress from the worker.
    Info(Info),
    /// The worker finished a search.
    Done(SearchResult),
}

/// Reads lines from `input` and sends them, parsed, as events, until the input ends or the
/// controller is gone. Lines longer than [`MAX_LINE_BYTES`] are skipped whole (never buffered in
/// full) and reported as errors; so are lines that are not UTF-8.
pub fn read_input(mut input: impl BufRead, events: Sender<Event>) {
    let mut line = Vec::new();
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
        let parsed = if too_long || line.len() > MAX_LINE_BYTES {
            Err(ParseError {
                message: format!("line too long (at most {MAX_LINE_BYTES} bytes)"),
            })
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => parse_command(text),
                Err(_) => Err(ParseError {
                    message: "the line is not valid UTF-8".to_string(),
                }),
            }
        };
        if events.send(Event::Line(parsed)).is_err() {
            return;
        }
        if !saw_newline {
            let _ = events.send(Event::Eof);
            return;
        }
    }
}

/// Runs the engine on `input` and `output` until `quit` or the end of the input; returns the process
/// exit status.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write) -> i32 {
    controller::Controller::run(input, output)
}
