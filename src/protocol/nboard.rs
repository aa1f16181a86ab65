//! The NBoard protocol's text (version 2, as the NBoard GUI and NBoard-driven match tools speak
//! it): reading a line into a [`Command`] and writing the engine's answers. Command words and `set`
//! keys are read in any case (`NBOARD 2`, `Set Depth 8`), moves too (`f5`, `F5`); a byte-order mark
//! before the line is dropped. Moves are written in upper case (`PA` for a pass), evaluations in
//! discs from the side to move's view.

use crate::board::Move;
use crate::search::Score;
use std::fmt;

/// The handshake's answer to `nboard <version>`.
pub const HELLO: &str = "set myname wedge";
/// The status line while a search runs for `go` or `hint`.
pub const THINKING: &str = "status wedge is thinking";
/// The status line when `analyze` starts.
pub const ANALYSING: &str = "status wedge is analysing the game";
/// The status line before book moves answer `hint`.
pub const BOOK: &str = "status wedge: book";
/// The empty status line that ends a search, a hint or an analysis.
pub const STATUS: &str = "status";
/// The answer to `go` when the only move is a pass.
pub const PASS: &str = "=== PA";
/// The status line for `go` on a finished game: the protocol has no "no move" answer, and a pass
/// is no move of a finished game either.
pub const GAME_OVER: &str = "status wedge: the game is over, there is no move to play";
/// The answer to `learn`: the protocol requires it.
pub const LEARNED: &str = "learned";
/// The status line while `learn` runs (it answers `learned` when the book is written).
pub const LEARNING: &str = "status wedge is learning the game into its book";

/// The status line after `learned`: what was learnt, or why nothing was.
pub fn learned_status(outcome: Result<usize, crate::engine::learn::LearnError>) -> String {
    match outcome {
        Ok(added) => format!("status wedge learnt the game: {added} new book positions"),
        Err(e) => format!("status wedge did not learn the game: {e}"),
    }
}

/// One NBoard command, as read from a line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command<'a> {
    /// `nboard <version>`: the handshake.
    Hello,
    /// `set depth <n>`: the search depth, brought into 1..=60.
    SetDepth(u32),
    /// `set game <GGF>`: the game so far, as GGF text.
    SetGame(&'a str),
    /// `set contempt <n>`: read and ignored (wedge plays for the disc count).
    SetContempt,
    /// `set option <name> [<value>]`: the option text after `set option`.
    SetOption(&'a str),
    /// `move <sq>[/eval/time]`, or a move alone (protocol version 1): a move of the game.
    Move {
        /// The move.
        mv: Move,
        /// Seconds it took, as the GUI wrote them (0 when absent or not a time).
        seconds: f64,
        /// The move as written, for messages.
        text: &'a str,
    },
    /// `hint <n>`: the `n` best moves, `n` brought into 1..=64 (1 when absent).
    Hint(usize),
    /// `go`: the move to play.
    Go,
    /// `ping <n>`: stop, then answer `pong <n>` (the number as written, in lower case; 0 when
    /// absent).
    Ping(String),
    /// `learn`: learn the game into the book file in use.
    Learn,
    /// `analyze`: evaluate every position of the game.
    Analyze,
    /// `quit`.
    Quit,
}

/// Why a line is not an NBoard command the engine follows; the protocol asks for such lines to be
/// ignored, so these messages go to the log, never to the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// `set depth` without a depth that is a number (the line).
    BadDepth(String),
    /// `hint` with a count that is not a number (the line).
    BadHint(String),
    /// `move` with something that is not a move (the text after `move`).
    NotAMove(String),
    /// `move` without a move.
    NoMove,
    /// A command this engine does not know (the line).
    Unknown(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::BadDepth(line) => write!(f, "bad depth in '{line}'"),
            ParseError::BadHint(line) => write!(f, "bad move count in '{line}'"),
            ParseError::NotAMove(text) => write!(f, "'{text}' is not a move"),
            ParseError::NoMove => write!(f, "'move' needs a square (or PA for a pass)"),
            ParseError::Unknown(line) => write!(f, "ignored unknown command '{line}'"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The text after the first `n` words of `line`.
fn rest_after(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest
}

/// `<sq>[/eval/time]`: the move and the seconds it took.
fn parse_move(text: &str) -> Result<Command<'_>, ParseError> {
    let mut parts = text.split('/');
    let mv = parts
        .next()
        .unwrap_or("")
        .parse::<Move>()
        .map_err(|_| ParseError::NotAMove(text.to_string()))?;
    let seconds = parts
        .nth(1)
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|t| t.is_finite() && *t >= 0.0)
        .unwrap_or(0.0);
    Ok(Command::Move { mv, seconds, text })
}

/// A whole number (`set depth`'s, `hint`'s) brought into `lo..=hi`, however large or negative it
/// is; `None` when it is not a whole number.
fn in_range(text: &str, lo: u32, hi: u32) -> Option<u32> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match text.parse::<i64>() {
        Ok(d) => d.clamp(i64::from(lo), i64::from(hi)) as u32,
        Err(_) if text.starts_with('-') => lo,
        Err(_) => hi,
    })
}

/// Reads one line into a command; `Ok(None)` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<Command<'_>>, ParseError> {
    // A byte-order mark some Windows programs put before their first line.
    let line = line.trim_start_matches('\u{feff}');
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Ok(None);
    };
    let verb = first.to_ascii_lowercase();
    let key = words.get(1).map(|w| w.to_ascii_lowercase());
    let command = match (verb.as_str(), key.as_deref()) {
        ("nboard", _) => Command::Hello,
        ("set", Some("depth")) => match words.get(2).and_then(|d| in_range(d, 1, 60)) {
            Some(d) => Command::SetDepth(d),
            None => return Err(ParseError::BadDepth(line.to_string())),
        },
        ("set", Some("game")) => Command::SetGame(rest_after(line, 2)),
        ("set", Some("contempt")) => Command::SetContempt,
        ("set", Some("option")) => Command::SetOption(rest_after(line, 2)),
        ("move", Some(_)) => parse_move(words[1])?,
        ("move", None) => return Err(ParseError::NoMove),
        ("hint", None) => Command::Hint(1),
        ("hint", Some(_)) => match in_range(words[1], 1, 64) {
            Some(n) => Command::Hint(n as usize),
            None => return Err(ParseError::BadHint(line.to_string())),
        },
        ("go", _) => Command::Go,
        ("ping", n) => Command::Ping(n.unwrap_or("0").to_string()),
        ("learn", _) => Command::Learn,
        ("analyze", _) => Command::Analyze,
        ("quit", _) => Command::Quit,
        // Protocol version 1 sent a move alone ("F5" for "move F5").
        _ if words.len() == 1 && first.len() == 2 && first.parse::<Move>().is_ok() => {
            parse_move(first)?
        }
        _ => return Err(ParseError::Unknown(line.to_string())),
    };
    Ok(Some(command))
}

/// A move as NBoard writes it: upper-case square, `PA` for a pass.
pub fn move_text(m: Move) -> String {
    match m.square() {
        Some(sq) => sq.to_string().to_uppercase(),
        None => "PA".to_string(),
    }
}

/// A score in discs for NBoard, and the depth field: `<depth>` for a full-width search,
/// `<depth>@<selectivity>%` for a selective one, `100%` exact, `100%W` win/loss/draw.
pub fn score_text(score: Score, depth: u32, selectivity: u8) -> (String, String) {
    match score {
        Score::Eval(cd) => (
            format!("{:.2}", f64::from(cd) / 100.0),
            if selectivity < 100 {
                format!("{depth}@{selectivity}%")
            } else {
                depth.to_string()
            },
        ),
        Score::Exact(d) => (format!("{d}.00"), "100%".to_string()),
        Score::Wld(w) => (format!("{}.00", 2 * w.signum()), "100%W".to_string()),
    }
}

/// The answer to `go`: `=== <move>/<eval>/<seconds>`.
pub fn move_line(mv: Move, eval: &str, seconds: f64) -> String {
    format!("=== {}/{eval}/{seconds:.1}", move_text(mv))
}

/// The answer to `go` from the book: the book's score in whole discs, no time.
pub fn book_move_line(mv: Move, score: i32) -> String {
    format!("=== {}/{score}.00/0.0", move_text(mv))
}

/// One book move answering `hint`: `book <move> <eval> 0 <depth>`, the depth `100%` for a solved
/// line (the book's [`crate::book::DEPTH_EXACT`]) as for a search's exact result.
pub fn book_line(mv: Move, score: i32, depth: u8) -> String {
    if depth == crate::book::DEPTH_EXACT {
        format!("book {} {score}.00 0 100%", move_text(mv))
    } else {
        format!("book {} {score}.00 0 {depth}", move_text(mv))
    }
}

/// One line of a `hint` search: `search <pv> <eval> 0 <depth>`, the moves joined by `-` and the
/// depth as [`score_text`] writes it; `None` for an empty principal variation.
pub fn search_line(pv: &[Move], score: Score, depth: u32, selectivity: u8) -> Option<String> {
    if pv.is_empty() {
        return None;
    }
    let pv: Vec<String> = pv.iter().map(|m| move_text(*m)).collect();
    let (eval, depth) = score_text(score, depth, selectivity);
    Some(format!("search {} {eval} 0 {depth}", pv.join("-")))
}

/// One position of `analyze`: `analysis <ply> <eval>`.
pub fn analysis_line(ply: usize, eval: &str) -> String {
    format!("analysis {ply} {eval}")
}

/// The answer to `ping <n>`.
pub fn pong_line(n: &str) -> String {
    format!("pong {n}")
}

/// A refused `set option`: `error <message>`.
pub fn error_line(message: impl fmt::Display) -> String {
    let message = super::common::short_words(&message.to_string());
    format!("error {message}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_in_any_case() {
        let f5: Move = "f5".parse().unwrap();
        assert_eq!(parse_line("NBOARD 2"), Ok(Some(Command::Hello)));
        assert_eq!(
            parse_line("\u{feff}Set Depth 80"),
            Ok(Some(Command::SetDepth(60)))
        );
        for (line, depth) in [
            ("set depth -3", 1),
            ("set depth 0", 1),
            ("set depth 99999999999", 60),
            ("set depth -99999999999999999999999", 1),
            ("set depth +7", 7),
        ] {
            assert_eq!(
                parse_line(line),
                Ok(Some(Command::SetDepth(depth))),
                "{line}"
            );
        }
        assert_eq!(
            parse_line("set depth -"),
            Err(ParseError::BadDepth("set depth -".into()))
        );
        assert_eq!(
            book_line("c4".parse().unwrap(), 2, crate::book::DEPTH_EXACT),
            "book C4 2.00 0 100%"
        );
        assert_eq!(
            parse_line("set depth x"),
            Err(ParseError::BadDepth("set depth x".into()))
        );
        assert_eq!(
            parse_line("set option Hash 16"),
            Ok(Some(Command::SetOption("Hash 16")))
        );
        assert_eq!(
            parse_line("move F5/1.5/2.5"),
            Ok(Some(Command::Move {
                mv: f5,
                seconds: 2.5,
                text: "F5/1.5/2.5"
            }))
        );
        assert_eq!(
            parse_line("F5"),
            Ok(Some(Command::Move {
                mv: f5,
                seconds: 0.0,
                text: "F5"
            }))
        );
        assert_eq!(
            parse_line("move zz"),
            Err(ParseError::NotAMove("zz".into()))
        );
        assert_eq!(parse_line("move"), Err(ParseError::NoMove));
        assert_eq!(parse_line("hint"), Ok(Some(Command::Hint(1))));
        for (line, n) in [
            ("hint 3", 3),
            ("hint 0", 1),
            ("hint -3", 1),
            ("hint 999", 64),
        ] {
            assert_eq!(parse_line(line), Ok(Some(Command::Hint(n))), "{line}");
        }
        assert_eq!(
            parse_line("hint 99999999999999999999"),
            Ok(Some(Command::Hint(64)))
        );
        assert_eq!(
            parse_line("hint abc"),
            Err(ParseError::BadHint("hint abc".into()))
        );
        assert_eq!(parse_line("PING 7"), Ok(Some(Command::Ping("7".into()))));
        assert_eq!(parse_line("   "), Ok(None));
        assert_eq!(
            parse_line("frobnicate"),
            Err(ParseError::Unknown("frobnicate".into()))
        );
    }

    #[test]
    fn answers() {
        let f5: Move = "f5".parse().unwrap();
        assert_eq!(move_text(Move::PASS), "PA");
        assert_eq!(move_line(f5, "1.25", 0.26), "=== F5/1.25/0.3");
        assert_eq!(score_text(Score::Wld(-1), 3, 100).0, "-2.00");
        assert_eq!(
            search_line(&[f5, Move::PASS], Score::Exact(4), 9, 100).as_deref(),
            Some("search F5-PA 4.00 0 100%")
        );
        assert_eq!(
            search_line(&[f5], Score::Eval(-125), 18, 73).as_deref(),
            Some("search F5 -1.25 0 18@73%")
        );
        assert_eq!(search_line(&[], Score::Eval(0), 1, 100), None);
    }
}
