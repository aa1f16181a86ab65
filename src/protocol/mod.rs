//! The text of the protocols the engine speaks; one module per protocol, each a pure translation
//! between lines and values (no engine state, no search):
//!
//! - wedge's own protocol (UCI-shaped, a strict superset of UGI; specified in `protocol.md`):
//!   [`parser`] reads one command line into a typed [`Command`], every malformed line becoming a
//!   [`ParseError`] whose message is ready to be written after `info string error: `; [`output`]
//!   formats the engine's answers.
//! - [`nboard`]: the NBoard protocol, version 2.
//! - [`gtp`]: GTP as Othello programs use it.
//! - [`play`]: the commands, board and read-outs of `wedge play`, the game for people.
//! - [`gui`]: the JSON API of the board in the browser (`wedge gui`): commands, state, errors.
//! - [`common`]: the output mode and the query kinds, shared by [`parser`], [`output`] and [`variant`].
//! - [`variant`]: variant boards (any size, blocked squares) in wedge's protocol: square names,
//!   `position variant ...`, and the answers on such boards.
//!
//! This module also holds what they share: why a line could not be read at all ([`LineError`]) and
//! the guess of the protocol from a session's first line ([`detect_protocol`]). Checking a command
//! against the engine's state (legality of moves, option names and ranges, "not during a search")
//! is the job of the engine's front ends (`src/engine/`), not of these modules.

pub mod common;
pub mod gtp;
pub mod gui;
pub mod nboard;
pub mod output;
pub mod parser;
pub mod play;
pub mod variant;

pub use parser::{
    parse_command, Command, GoParams, ParseError, PositionSpec, QueryKind, MAX_LINE_BYTES,
};
use std::fmt;

/// Why a line of input could not be read as text, whatever the protocol, with the line's first
/// bytes, so that a front end can still tell what the line was meant to be (a `go` owes a
/// `bestmove` even when its line cannot be read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineError {
    /// What was wrong.
    pub kind: LineFault,
    /// The line's first [`LINE_HEAD_BYTES`] bytes (fewer when it is shorter).
    head: [u8; LINE_HEAD_BYTES],
    head_len: u8,
}

/// The line bytes a [`LineError`] keeps.
pub const LINE_HEAD_BYTES: usize = 16;

/// What was wrong with a line of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineFault {
    /// Longer than [`MAX_LINE_BYTES`] (skipped whole, never buffered in full).
    TooLong,
    /// Not UTF-8.
    NotUtf8,
}

impl LineError {
    /// The error `kind` for a line that starts with `start` (only its first bytes from the first
    /// word on are kept).
    pub fn new(kind: LineFault, start: &[u8]) -> LineError {
        let start = skip_blanks(start);
        let mut head = [0u8; LINE_HEAD_BYTES];
        let n = start.len().min(LINE_HEAD_BYTES);
        head[..n].copy_from_slice(&start[..n]);
        LineError {
            kind,
            head,
            head_len: n as u8,
        }
    }

    /// Whether the line's first word (after any blanks) is `word`, in any case as command words
    /// are, as far as its kept bytes show: the word must end within them.
    pub fn first_word_is(&self, word: &str) -> bool {
        let rest = skip_blanks(&self.head[..self.head_len as usize]);
        rest.get(..word.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(word.as_bytes()))
            && blank_len(&rest[word.len()..]) > 0
    }

    /// The line's first word when it is all digits and a blank follows it within the bytes kept:
    /// a GTP command's id, which the answer to the line repeats.
    pub fn leading_id(&self) -> Option<&str> {
        let rest = skip_blanks(&self.head[..self.head_len as usize]);
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 || blank_len(&rest[n..]) == 0 {
            return None;
        }
        std::str::from_utf8(&rest[..n]).ok()
    }
}

/// The length in bytes of the blank `bytes` starts with: a white-space character as the command
/// parser splits words (Unicode's, so a no-break space too); 0 for anything else, bytes that are
/// not UTF-8 included.
fn blank_len(bytes: &[u8]) -> usize {
    let first = &bytes[..bytes.len().min(4)];
    let text = match std::str::from_utf8(first) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&first[..e.valid_up_to()]).unwrap_or_default(),
    };
    text.chars()
        .next()
        .filter(|c| c.is_whitespace())
        .map_or(0, char::len_utf8)
}

/// `bytes` after the blanks it starts with (`blank_len`'s).
pub fn skip_blanks(mut bytes: &[u8]) -> &[u8] {
    loop {
        match blank_len(bytes) {
            0 => return bytes,
            n => bytes = &bytes[n..],
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            LineFault::TooLong => write!(f, "line too long (at most {MAX_LINE_BYTES} bytes)"),
            LineFault::NotUtf8 => f.write_str("the line is not valid UTF-8"),
        }
    }
}

impl std::error::Error for LineError {}

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

/// Reads the input up to its first command and guesses the protocol from it
/// ([`detect_protocol`]). Blank lines and `#` comment lines (GTP's) before it are dropped; of
/// the command's line at most [`MAX_LINE_BYTES`] + 2 bytes are read. So neither endless blank
/// lines nor a huge first line can exhaust memory. Returns the protocol and the bytes read that
/// the protocol must still see (the first command's line, or nothing at the end of the input).
pub fn read_first_command(input: &mut impl std::io::BufRead) -> (Protocol, Vec<u8>) {
    use std::io::{BufRead, Read};
    let mut first = Vec::new();
    loop {
        first.clear();
        let limit = (MAX_LINE_BYTES + 2) as u64;
        match input.by_ref().take(limit).read_until(b'\n', &mut first) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&first);
                let text = line.trim_start_matches('\u{feff}').trim();
                let blank = text.is_empty() || text.starts_with('#');
                if !blank || !line.ends_with('\n') {
                    break;
                }
            }
        }
    }
    let protocol = detect_protocol(&String::from_utf8_lossy(&first));
    (protocol, first)
}

/// Guesses the protocol from the first line a controller sends, after a byte-order mark:
/// `nboard ...` in any case is NBoard (its commands are read in any case); a GTP command as GTP
/// writes it, in lower case (GTP's commands are read as written), or a numeric GTP id, is GTP;
/// anything else is wedge's protocol.
pub fn detect_protocol(first_line: &str) -> Protocol {
    let word = first_line
        .trim_start_matches('\u{feff}')
        .split_whitespace()
        .next()
        .unwrap_or("");
    if word.eq_ignore_ascii_case("nboard") {
        Protocol::Nboard
    } else if (gtp::COMMANDS.contains(&word) && word != "quit")
        || (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
    {
        Protocol::Gtp
    } else {
        Protocol::Wedge
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    #[test]
    fn an_unreadable_line_is_known_by_its_first_word_in_any_case_after_any_blanks() {
        let go = |line: &[u8]| LineError::new(LineFault::NotUtf8, line).first_word_is("go");
        assert!(go(b"go depth \xff"));
        assert!(go(b"GO depth \xff"));
        assert!(go(b"Go\tdepth \xff"));
        assert!(go(b"                    go depth \xff"));
        assert!(!go(b"gorilla \xff"));
        assert!(!go(b"position \xff go"));
        assert!(!go(b"go"));
        // Blanks as the parser reads them: a vertical tab, a no-break space.
        assert!(go(b"go\x0bdepth \xff"));
        assert!(go(b"\xc2\xa0go\xc2\xa0depth \xff"));
        assert!(!go(b"go\xc2depth"));
    }

    #[test]
    fn comment_lines_before_the_first_command_are_dropped() {
        let mut input = BufReader::new(&b"# a GTP script\n  # more\n\nboardsize 8\n"[..]);
        let (protocol, kept) = read_first_command(&mut input);
        assert_eq!(protocol, Protocol::Gtp);
        assert_eq!(kept, b"boardsize 8\n");
    }

    #[test]
    fn an_unreadable_lines_gtp_id_is_kept() {
        let id = |line: &[u8]| {
            let e = LineError::new(LineFault::NotUtf8, line);
            e.leading_id().map(str::to_string)
        };
        assert_eq!(id(b"6 play b \xff").as_deref(), Some("6"));
        assert_eq!(id(b"  42\tgenmove \xff").as_deref(), Some("42"));
        assert_eq!(id(b"play b \xff"), None);
        assert_eq!(id(b"6x play \xff"), None);
        // Digits that run past the bytes kept are not known to be the whole id.
        assert_eq!(id(b"12345678901234567890 play \xff"), None);
    }

    #[test]
    fn blank_lines_before_the_first_command_are_dropped_and_the_command_kept() {
        let mut text = " \n\r\n\t\n".repeat(100_000);
        text.push_str("nboard 2\nping 1\n");
        let mut input = BufReader::new(text.as_bytes());
        let (protocol, kept) = read_first_command(&mut input);
        assert_eq!(protocol, Protocol::Nboard);
        assert_eq!(kept, b"nboard 2\n");
        let mut rest = String::new();
        input.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "ping 1\n");
        // Only blank lines: nothing kept, wedge's protocol.
        let mut input = BufReader::new(&b"\n \n"[..]);
        assert_eq!(
            read_first_command(&mut input),
            (Protocol::Wedge, Vec::new())
        );
        // A huge first line: only the first bytes of it are read here.
        let huge = vec![b'x'; 10 * MAX_LINE_BYTES];
        let mut input = BufReader::new(&huge[..]);
        let (_, kept) = read_first_command(&mut input);
        assert_eq!(kept.len(), MAX_LINE_BYTES + 2);
    }
}
