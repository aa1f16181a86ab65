//! Reading GGF: a file's games one by one ([`split_games`]), and one game's board, moves, clocks and
//! names ([`parse_ggf_record`]). A tag's value may hold any text, `(;`, `;)` and `[` included, with
//! `\]` and `\\` escaping a bracket and a backslash.

use super::ggf_date;
use crate::board::square::truncate;
use crate::board::{Color, Move, Position};
use std::borrow::Cow;
use std::fmt;

/// Why a GGF game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgfError {
    /// No `(;` opens a game.
    NoGame,
    /// The game has no `;)` closing it (before the text's end or the next game's `(;`).
    NotClosed,
    /// Text after the game's `;)` (the start of it).
    AfterEnd(String),
    /// A game type (`TY`) other than standard Othello on 8 x 8 (anti-Othello, another board).
    Type(String),
    /// A tag (its name) has no closing `]`.
    Unclosed(String),
    /// Text that is not a tag (the start of it).
    Unexpected(String),
    /// The board is not 8 x 8 (`BO` does not start with 8).
    NotEightByEight,
    /// The `BO` board is not a board.
    Board(crate::board::text::ParseBoardError),
    /// Move tag number `index` (from 1), `name[value]`, names no move.
    BadMove {
        /// The tag's number, from 1.
        index: usize,
        /// Its name (`B`, `W`).
        name: String,
        /// Its value.
        value: String,
        /// Why.
        error: crate::board::square::ParseSquareError,
    },
    /// A move tag of the side not to move.
    NotTheirTurn {
        /// The tag's name and value.
        tag: String,
        /// The side whose tag it is.
        colour: Color,
    },
    /// An illegal move (the tag, `name[value]`).
    Illegal(String),
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GGF: ")?;
        match self {
            GgfError::NoGame => f.write_str("no '(;' opening the game"),
            GgfError::NotClosed => f.write_str("no ';)' closing the game"),
            GgfError::AfterEnd(text) => write!(f, "'{text}' after the game's ';)'"),
            GgfError::Type(ty) => write!(
                f,
                "TY[{ty}]: only Othello on 8x8 is read (with a random start or komi at most)"
            ),
            GgfError::Unclosed(name) => write!(f, "tag '{name}' has no closing ']'"),
            GgfError::Unexpected(text) => write!(f, "unexpected '{text}'"),
            GgfError::NotEightByEight => {
                f.write_str("only 8x8 boards are supported (BO must start with 8)")
            }
            GgfError::Board(e) => write!(f, "BO: {e}"),
            GgfError::BadMove {
                index,
                name,
                value,
                error,
            } => write!(f, "tag {index} ({name}[{value}]): {error}"),
            GgfError::NotTheirTurn { tag, colour } => {
                write!(f, "{tag}: it is not {colour}'s turn")
            }
            GgfError::Illegal(tag) => write!(f, "{tag}: illegal move"),
        }
    }
}

impl std::error::Error for GgfError {}

/// A GGF clock (`TI[..]` for both players, `TB[..]`/`TW[..]` for one), in seconds: the time on
/// the clock before the first move, the increment added after each move, and the grace period
/// added once when the time first runs out (GGS's extension; 120 s when not written).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfClock {
    /// Time before the first move.
    pub time: f64,
    /// Added after every move.
    pub increment: f64,
    /// Added once, when the time first runs out.
    pub grace: f64,
}

/// GGS's grace period when a clock does not write one.
const DEFAULT_GRACE: f64 = 120.0;

/// `TI` of a game without a clock (NBoard's way; [`GgfClock::parse`] reads it as none).
pub const NO_CLOCK: &str = "0";

/// Writes `time/increment/grace` in seconds, as [`GgfClock::parse`] reads it back (`600/2/0`).
impl std::fmt::Display for GgfClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}/{}", self.time, self.increment, self.grace)
    }
}

/// Reads one time of a clock: `[[[days.]hours:]minutes:]seconds`, seconds possibly with a
/// fraction; text after a comma (GGS flags) is ignored. `None` for anything else.
fn clock_time(text: &str) -> Option<f64> {
    let text = text.split(',').next().unwrap_or("").trim();
    if text.is_empty() {
        return Some(0.0);
    }
    let (days, rest) = match text.split_once('.') {
        // A '.' before a ':' separates days; a '.' after the last ':' is a fraction of a second.
        Some((d, r)) if r.contains(':') => (d.parse::<u32>().ok()?, r),
        _ => (0, text),
    };
    let mut parts: Vec<&str> = rest.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let seconds: f64 = parts.pop()?.parse().ok()?;
    if seconds.is_nan() || seconds < 0.0 {
        return None;
    }
    let mut total = seconds;
    let mut unit = 60.0;
    for p in parts.iter().rev() {
        total += f64::from(p.parse::<u32>().ok()?) * unit;
        unit *= 60.0;
    }
    total += f64::from(days) * 86_400.0;
    (total.is_finite() && total >= 0.0).then_some(total)
}

impl GgfClock {
    /// Reads a clock, `time[/increment[/grace]]` (e.g. `15:00`, `5:00/2`, `10:00//1:00`; an empty
    /// part is 0, a missing grace is GGS's 120 s). `None` when it cannot be read, or when its time
    /// is 0: NBoard writes `TI[0]` for a game without a clock.
    pub fn parse(text: &str) -> Option<GgfClock> {
        let mut parts = text.split('/');
        let time = clock_time(parts.next()?)?;
        let increment = parts.next().map_or(Some(0.0), clock_time)?;
        let grace = parts.next().map_or(Some(DEFAULT_GRACE), clock_time)?;
        if parts.next().is_some() || time <= 0.0 {
            return None;
        }
        Some(GgfClock {
            time,
            increment,
            grace,
        })
    }

    /// The time left after moves that took `elapsed` seconds each, counted as GGS and NBoard
    /// count: each move's time is taken off, the grace period is added the first time the clock
    /// goes below zero, a clock still below zero stays at zero (and gets no more increments), and
    /// the increment is added after every move.
    pub fn remaining(&self, elapsed: impl IntoIterator<Item = f64>) -> f64 {
        let mut left = self.time;
        let mut timeouts = 0;
        for t in elapsed {
            left -= t.max(0.0);
            if left < 0.0 && timeouts == 0 {
                left += self.grace;
                timeouts = 1;
            }
            if left < 0.0 {
                left = 0.0;
                timeouts = 2;
            }
            if timeouts < 2 {
                left += self.increment;
            }
        }
        left
    }
}

/// A GGF game with what it says of time: the clocks and the time each move took.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfRecord {
    /// The set-up position and the moves (a missing pass inserted).
    pub game: crate::board::text::Game,
    /// Seconds each move of `game.moves` took (`B[f5/eval/time]`; 0 when not written and for an
    /// inserted pass).
    pub times: Vec<f64>,
    /// Black's and white's clocks (`TB`, `TW`, else `TI`), indexed by [`Color`]; `None` when the
    /// game has none, or one that cannot be read.
    pub clocks: [Option<GgfClock>; 2],
    /// The players' names (`PB`, `PW`), as written.
    pub players: [Option<String>; 2],
    /// The result (`RE`) as written, e.g. `+4.000` or `-64.000:r`.
    pub result: Option<String>,
    /// The game's name (`GN`), as written.
    pub name: Option<String>,
    /// Where it was played (`PC`), as written.
    pub place: Option<String>,
    /// When, as a Unix time, when `DT` is in the form wedge writes.
    pub date: Option<u64>,
    /// The time control (`TI`), as written.
    pub time_control: Option<String>,
    /// The comment (`C`), as written: wedge writes why a game was forfeited there.
    pub comment: Option<String>,
}

impl GgfRecord {
    /// Black's disc difference as the result (`RE`) gives it, when the result carries a flag
    /// (`-64.000:r`, `:t`): a game that ended before its moves did.
    pub fn early_result(&self) -> Option<i32> {
        let (_, flag) = self.result.as_deref()?.split_once(':')?;
        (!flag.trim().is_empty())
            .then(|| self.black_result())
            .flatten()
    }

    /// Black's disc difference as the result (`RE`) gives it (`+4.000`, `-64.000:r`), when it is
    /// a number of discs.
    pub fn black_result(&self) -> Option<i32> {
        let result = self.result.as_deref()?.split(':').next()?.trim();
        let discs = result.parse::<f64>().ok()?;
        (discs.is_finite() && discs.abs() <= 64.0).then(|| discs.round() as i32)
    }

    /// The time left on the clock of the side to move after the game's moves, in seconds; `None`
    /// when that side has no clock.
    pub fn time_left(&self) -> Option<f64> {
        time_left(&self.game, &self.times, self.clocks)
    }
}

/// The time left on the clock of the side to move in `game`, whose moves took `times` seconds
/// each; `None` when that side has no clock in `clocks` (indexed by [`Color`]).
pub fn time_left(
    game: &crate::board::text::Game,
    times: &[f64],
    clocks: [Option<GgfClock>; 2],
) -> Option<f64> {
    let side = game.position().side;
    let clock = clocks[side as usize]?;
    // Moves alternate from the start's side to move, passes included.
    let first = usize::from(game.start.side != side);
    let own = times.iter().skip(first).step_by(2).copied();
    Some(clock.remaining(own))
}

/// Reads one GGF game: the set-up board (`BO[8 <64 squares> <side>]`, default the standard start)
/// and the moves (`B[..]`, `W[..]`; a move may carry `/eval/time`; `PA` is a pass). A missing pass
/// is inserted where the tag's colour shows the other side had to pass. Other tags are ignored.
pub fn parse_ggf(text: &str) -> Result<crate::board::text::Game, GgfError> {
    parse_ggf_record(text).map(|r| r.game)
}

/// Reads one GGF game as [`parse_ggf`] does, and also its clocks (`TI`, `TB`, `TW`) and the time
/// each move took (the third part of `B[f5/eval/time]`).
pub fn parse_ggf_record(text: &str) -> Result<GgfRecord, GgfError> {
    use crate::board::text::Game;
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if !text.starts_with("(;") {
        return Err(match text.find("(;") {
            Some(at) => GgfError::Unexpected(truncate(text[..at].trim())),
            None => GgfError::NoGame,
        });
    }
    let (tags, len) = read_tags(text)?;
    let after = text[len..].trim();
    if !after.is_empty() {
        return Err(GgfError::AfterEnd(truncate(after)));
    }
    let tag = |name: &str| tags.iter().find(|(n, _)| *n == name).map(|(_, v)| &**v);
    if let Some(ty) = tag("TY") {
        if !is_plain_othello(ty) {
            return Err(GgfError::Type(truncate(ty)));
        }
    }
    let mut position = Position::START;
    if let Some(bo) = tag("BO") {
        let mut parts = bo.split_whitespace();
        if parts.next() != Some("8") {
            return Err(GgfError::NotEightByEight);
        }
        let squares: String = parts.collect::<Vec<_>>().join(" ");
        position = squares.parse::<Position>().map_err(GgfError::Board)?;
    }
    let clock = |name: &str| tag(name).and_then(GgfClock::parse);
    let both = clock("TI");
    let clocks = [clock("TB").or(both), clock("TW").or(both)];
    let mut game = Game::new(position);
    let mut times = Vec::new();
    let mut pos = position;
    for (i, (name, value)) in tags.iter().enumerate() {
        let colour = match *name {
            "B" => Color::Black,
            "W" => Color::White,
            _ => continue,
        };
        let mut parts = value.split('/');
        let mv_text = parts.next().unwrap_or("").trim();
        let mv: Move = mv_text.parse().map_err(|error| GgfError::BadMove {
            index: i + 1,
            name: name.to_string(),
            value: value.to_string(),
            error,
        })?;
        let time = parts
            .nth(1)
            .and_then(|t| t.trim().parse::<f64>().ok())
            .filter(|t| t.is_finite() && *t >= 0.0)
            .unwrap_or(0.0);
        if colour != pos.side && !mv.is_pass() && pos.board.must_pass() {
            game.moves.push(Move::PASS);
            times.push(0.0);
            pos = pos.play(Move::PASS).unwrap_or(pos);
        }
        if colour != pos.side {
            return Err(GgfError::NotTheirTurn {
                tag: format!("{name}[{value}]"),
                colour,
            });
        }
        pos = pos
            .play(mv)
            .ok_or_else(|| GgfError::Illegal(format!("{name}[{value}]")))?;
        game.moves.push(mv);
        times.push(time);
    }
    let text_of = |name: &str| tag(name).map(str::to_string);
    Ok(GgfRecord {
        game,
        times,
        clocks,
        players: [text_of("PB"), text_of("PW")],
        result: text_of("RE"),
        name: text_of("GN"),
        place: text_of("PC"),
        date: tag("DT").and_then(parse_ggf_date),
        time_control: text_of("TI"),
        comment: text_of("C"),
    })
}

/// One game of a GGF text: the line it starts on (from 1) and its text, `(;` to `;)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GgfSpan<'a> {
    /// The line of its `(;`, from 1.
    pub line: usize,
    /// The game's text.
    pub text: &'a str,
}

/// The games of a GGF file, in order. A byte-order mark, blank space and comment lines (`#`, `%`)
/// may stand between games; anything else there is an error, as is a game without its `;)`, each
/// with the line it is on.
pub fn split_games(text: &str) -> Result<Vec<GgfSpan<'_>>, (usize, GgfError)> {
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut line = 1;
    let mut games = Vec::new();
    loop {
        let trimmed = rest.trim_start();
        line += rest[..rest.len() - trimmed.len()].matches('\n').count();
        rest = trimmed;
        if rest.is_empty() {
            return Ok(games);
        }
        if rest.starts_with('#') || rest.starts_with('%') {
            rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
            continue;
        }
        if !rest.starts_with("(;") {
            let first = rest.lines().next().unwrap_or("");
            return Err((line, GgfError::Unexpected(truncate(first.trim()))));
        }
        let (_, len) = read_tags(rest).map_err(|e| (line, e))?;
        games.push(GgfSpan {
            line,
            text: &rest[..len],
        });
        line += rest[..len].matches('\n').count();
        rest = &rest[len..];
    }
}

/// The text of the game that `text` opens (it starts with `(;`), through its `;)`; what follows
/// is not read (a reader of the first game alone is not refused for a broken later one).
pub fn first_game(text: &str) -> Result<&str, GgfError> {
    read_tags(text).map(|(_, len)| &text[..len])
}

/// A tag: its name and its value, escapes read.
type Tag<'a> = (&'a str, Cow<'a, str>);

/// The tags of the game that `text` opens (it starts with `(;`), and the length of the game's text
/// through its `;)`.
fn read_tags(text: &str) -> Result<(Vec<Tag<'_>>, usize), GgfError> {
    let bytes = text.as_bytes();
    let mut at = 2;
    let mut tags = Vec::new();
    loop {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let rest = &text[at..];
        if rest.is_empty() || rest.starts_with("(;") {
            return Err(GgfError::NotClosed);
        }
        if rest.starts_with(";)") {
            return Ok((tags, at + 2));
        }
        let open = match rest.find('[') {
            Some(open)
                if rest[..open]
                    .trim()
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric()) =>
            {
                at + open
            }
            _ => return Err(GgfError::Unexpected(truncate(rest))),
        };
        let name = text[at..open].trim();
        // The value runs to the first ']' that no backslash escapes. Only ASCII bytes are looked
        // at, so every index where the scan stops is a character boundary.
        let mut end = open + 1;
        let mut escaped = false;
        loop {
            match bytes.get(end) {
                None => return Err(GgfError::Unclosed(truncate(name))),
                Some(b'\\') => {
                    escaped = true;
                    end += 2;
                    continue;
                }
                Some(b']') => break,
                Some(_) => end += 1,
            }
        }
        let raw = text.get(open + 1..end).unwrap_or("");
        let value = if escaped {
            Cow::Owned(unescape(raw))
        } else {
            Cow::Borrowed(raw)
        };
        tags.push((name, value));
        at = end + 1;
    }
}

/// A value with its escapes read: a backslash stands for the character after it.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a game type (`TY`) is Othello as wedge plays it: an 8 x 8 board (GGS's synchro prefix
/// `s` allowed), with at most a random start (`r` and a count) or komi (`k`). Anti-Othello (`a`)
/// and other boards are not.
fn is_plain_othello(ty: &str) -> bool {
    let ty = ty.trim();
    let ty = ty.strip_prefix('s').unwrap_or(ty);
    let Some(rest) = ty.strip_prefix('8') else {
        return false;
    };
    !rest.starts_with(|c: char| c.is_ascii_digit())
        && rest
            .chars()
            .all(|c| c == 'r' || c == 'k' || c.is_ascii_digit())
}

/// The Unix time of a date as [`GgfGame`](super::GgfGame) writes it (`YYYY.MM.DD_hh:mm:ss.UTC`);
/// `None` for any other form (other programs write dates their own way).
pub fn parse_ggf_date(text: &str) -> Option<u64> {
    let (date, time) = text.strip_suffix(".UTC")?.split_once('_')?;
    let mut d = date.split('.').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':').map(|p| p.parse::<u64>().ok());
    let (hh, mm, ss) = (t.next()??, t.next()??, t.next()??);
    if d.next().is_some()
        || t.next().is_some()
        || !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
    {
        return None;
    }
    // Years past 9999 are refused (no record is dated there): the sums below cannot overflow.
    if hh > 23 || mm > 59 || ss > 59 || !(1970..=9999).contains(&y) {
        return None;
    }
    // Days since 1970-01-01 from a civil date (the inverse of `ggf_date`'s algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = u64::try_from(era * 146_097 + doe - 719_468).ok()?;
    let unix = days * 86_400 + hh * 3600 + mm * 60 + ss;
    // A day that the month does not have (31 June) comes back as another date: refused.
    (ggf_date(unix) == text).then_some(unix)
}

#[cfg(test)]
mod parse_tests {
    use super::super::{first_move_game, GgfGame};
    use super::*;

    #[test]
    fn reads_nboard_games() {
        let g = parse_ggf("(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3/1.5/2.0]W[C5]B[E6]W[F7]B[E7]W[F4];)").unwrap();
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.transcript(), "f5f6d3c5e6f7e7f4");
        // Round trip with the writer, passes included.
        let record = first_move_game();
        assert_eq!(parse_ggf(&record.to_string()).unwrap().moves, record.moves);
    }

    #[test]
    fn bad_games_are_errors() {
        assert!(parse_ggf("GM[Othello]").is_err());
        assert!(parse_ggf("(;GM[Othello]B[Z9];)").is_err());
        assert!(parse_ggf("(;GM[Othello]B[A1];)").is_err());
        assert!(parse_ggf("(;GM[Othello]W[F5];)").is_err());
        assert!(parse_ggf("(;BO[10 --];)").is_err());
        assert!(parse_ggf("(;GM[Othello;)").is_err());
        // A game cut short, text after its end, two games where one is read, another game type.
        assert_eq!(parse_ggf("(;GM[Othello]B[f5]"), Err(GgfError::NotClosed));
        assert_eq!(
            parse_ggf("(;GM[Othello]B[f5];)x"),
            Err(GgfError::AfterEnd("x".into()))
        );
        assert_eq!(
            parse_ggf("(;GM[Othello]B[f5];)(;GM[Othello];)"),
            Err(GgfError::AfterEnd("(;GM[Othello];)".into()))
        );
        assert_eq!(
            parse_ggf("(;GM[Othello]B[f5](;;)"),
            Err(GgfError::NotClosed)
        );
        assert_eq!(
            parse_ggf("(;GM[Othello]TY[8a]B[f5];)"),
            Err(GgfError::Type("8a".into()))
        );
        assert!(matches!(
            parse_ggf("(;GM[Othello] x B[f5];)"),
            Err(GgfError::Unexpected(_))
        ));
        for ty in ["10", "s8a", "88", "8x"] {
            assert!(parse_ggf(&format!("(;TY[{ty}];)")).is_err(), "{ty}");
        }
        for ty in ["8", "s8", "8r20", "8k", " 8 "] {
            assert!(parse_ggf(&format!("(;TY[{ty}]B[f5];)")).is_ok(), "{ty}");
        }
    }

    #[test]
    fn values_hold_any_text_with_escapes() {
        let r = parse_ggf_record(
            "\u{feff}(;GM[Othello]PB[a \\] b\\\\]C[next: (;GM[Othello\\] ;) [x\\]]B[f5]W[d6];)",
        )
        .unwrap();
        assert_eq!(r.players[0].as_deref(), Some("a ] b\\"));
        assert_eq!(r.game.transcript(), "f5d6");
        // A backslash before the text's end leaves the tag open.
        assert_eq!(
            parse_ggf("(;PB[a\\];)"),
            Err(GgfError::Unclosed("PB".into()))
        );
        // The writer escapes what the reader unescapes.
        let g = GgfGame {
            black: "back\\".into(),
            ..first_move_game()
        };
        let r = parse_ggf_record(&g.to_string()).unwrap();
        assert_eq!(r.players[0].as_deref(), Some("back\\"));
        assert_eq!(r.game.moves, g.moves);
    }

    #[test]
    fn a_file_splits_into_its_games_with_their_lines() {
        let text = "\u{feff}# saved games\n\n(;GM[Othello]B[f5];)\n% note\n(;GM[Othello]\nC[a (; b ;) c]\nB[d3];) (;B[c4];)\n";
        let games = split_games(text).unwrap();
        let lines: Vec<usize> = games.iter().map(|g| g.line).collect();
        assert_eq!(lines, vec![3, 5, 7]);
        assert_eq!(games[1].text, "(;GM[Othello]\nC[a (; b ;) c]\nB[d3];)");
        assert_eq!(parse_ggf(games[1].text).unwrap().transcript(), "d3");
        assert_eq!(split_games("").unwrap(), vec![]);
        // Text between games, a game without its end: the line where it is.
        assert!(matches!(
            split_games("(;B[f5];)\nhello\n"),
            Err((2, GgfError::Unexpected(_)))
        ));
        assert_eq!(
            split_games("(;B[f5];)\n(;B[f5]\n(;B[f5];)\n"),
            Err((2, GgfError::NotClosed))
        );
        assert_eq!(
            split_games("\n\n(;B[f5]C[open"),
            Err((3, GgfError::Unclosed("C".into())))
        );
    }

    #[test]
    fn reads_clocks_and_move_times() {
        let clock = |t| GgfClock::parse(t);
        assert_eq!(clock("15:00").map(|c| c.time), Some(900.0));
        assert_eq!(clock("1:02:03").map(|c| c.time), Some(3723.0));
        assert_eq!(clock("1.00:00:10").map(|c| c.time), Some(86_410.0));
        assert_eq!(clock("2.5").map(|c| c.time), Some(2.5));
        let c = clock("5:00/2/1:00").unwrap();
        assert_eq!((c.time, c.increment, c.grace), (300.0, 2.0, 60.0));
        let c = clock("10//30").unwrap();
        assert_eq!((c.time, c.increment, c.grace), (10.0, 0.0, 30.0));
        assert_eq!(clock("10").unwrap().grace, 120.0);
        // Written as it is read.
        for c in [
            (600.0, 2.0, 0.0),
            (0.25, 0.0, 120.0),
            (86_410.0, 0.125, 30.0),
        ] {
            let written = GgfClock {
                time: c.0,
                increment: c.1,
                grace: c.2,
            };
            assert_eq!(GgfClock::parse(&written.to_string()), Some(written));
        }
        assert_eq!(clock(NO_CLOCK), None);
        // No clock, or one that cannot be read.
        for bad in [
            "0",
            "",
            "x",
            "movetime 100ms",
            "1:2:3:4",
            "1/2/3/4",
            "-5",
            "inf",
        ] {
            assert_eq!(clock(bad), None, "{bad}");
        }
        // Time off, increment on; grace once; then stuck at zero.
        let c = GgfClock {
            time: 10.0,
            increment: 1.0,
            grace: 5.0,
        };
        assert_eq!(c.remaining([3.0, 2.0]), 7.0);
        assert_eq!(c.remaining([12.0]), 4.0);
        assert_eq!(c.remaining([12.0, 10.0]), 0.0);

        let r = parse_ggf_record("(;GM[Othello]TI[0:10]TY[8]B[F5/1.5/4.5]W[F6//1.0]B[D3//2.5];)")
            .unwrap();
        assert_eq!(r.times, vec![4.5, 1.0, 2.5]);
        // White to move: 10 - 1 s.
        assert_eq!(r.time_left(), Some(9.0));
        let r = parse_ggf_record("(;GM[Othello]TB[0:10]TY[8]B[F5//4.5]W[F6//1.0];)").unwrap();
        assert_eq!(r.time_left(), Some(5.5));
        let r = parse_ggf_record("(;GM[Othello]TB[0:10]TY[8]B[F5//4.5];)").unwrap();
        assert_eq!(r.time_left(), None, "white has no clock");
        let r = parse_ggf_record("(;GM[Othello]TI[0]TY[8]B[F5];)").unwrap();
        assert_eq!(r.clocks, [None, None]);
    }
}
