//! The reader thread: reads the input line by line and passes each line on as an event, so that the
//! front end's loop never blocks on the input and sees `stop` or `quit` as soon as they arrive.
//! Line endings (`\n`, `\r\n`) and a leading byte-order mark are dropped; lines that are too long or
//! not UTF-8 become errors; what the line means is the front end's business.

use super::Event;
use crate::protocol::{skip_blanks, LineError, LineFault, LINE_HEAD_BYTES, MAX_LINE_BYTES};
use crossbeam_channel::Sender;
use std::io::BufRead;

/// Reads lines from `input` and sends each as [`Event::Line`], then [`Event::Eof`], until the input
/// ends or the receiver is gone. Lines longer than [`MAX_LINE_BYTES`] are skipped whole (never
/// buffered in full) and given as errors; so are lines that are not UTF-8.
pub fn read_lines(mut input: impl BufRead, events: Sender<Event>) {
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        let mut too_long = false;
        // The first bytes of a line too long to keep, for its error.
        let mut head = Vec::new();
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
            if too_long {
                extend_head(&mut head, chunk);
            } else if line.len() + chunk.len() > MAX_LINE_BYTES + 1 {
                too_long = true;
                extend_head(&mut head, &line);
                extend_head(&mut head, chunk);
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
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
        let text = if too_long {
            Err(LineError::new(LineFault::TooLong, &head))
        } else if line.len() > MAX_LINE_BYTES {
            Err(LineError::new(LineFault::TooLong, &line))
        } else {
            std::str::from_utf8(&line)
                .map(str::to_string)
                .map_err(|_| LineError::new(LineFault::NotUtf8, &line))
        };
        if events.send(Event::Line(text)).is_err() {
            return;
        }
        if !saw_newline {
            let _ = events.send(Event::Eof);
            return;
        }
    }
}

/// Adds `bytes` to the head kept of a line too long to keep: the head starts at the line's first
/// word (however many blanks come before it, so that a `go` after them is still seen) and holds at
/// most [`LINE_HEAD_BYTES`].
fn extend_head(head: &mut Vec<u8>, bytes: &[u8]) {
    let bytes = if head.is_empty() {
        match skip_blanks(bytes) {
            [] => return,
            rest => rest,
        }
    } else {
        bytes
    };
    let room = LINE_HEAD_BYTES - head.len();
    head.extend_from_slice(&bytes[..bytes.len().min(room)]);
}
