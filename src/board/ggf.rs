//! Writing game records in GGF (the Generic Game Format of the GGS server, read by NBoard and most
//! Othello tools): one game per line, `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TI[..]TY[8]BO[..]B[f5]W[d6]...;)`.

use super::{Color, Move, Position};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A finished (or forfeited) game, ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfGame {
    /// Where it was played (the `PC` tag).
    pub place: String,
    /// Seconds since 1970 (written as a UTC date in `DT`).
    pub unix_time: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The time control as text (`TI`), e.g. `60//0.5` or `movetime 100ms`.
    pub time_control: String,
    /// The position before the first move.
    pub start: Position,
    /// The moves, passes included.
    pub moves: Vec<Move>,
    /// Black's final disc difference (empties to the winner); for a forfeit, ±64.
    pub black_score: i32,
    /// Why the game ended early, if it did (a comment `C[...]`).
    pub forfeit: Option<String>,
    /// The game's name (the `GN` tag), if any: `wedge match` writes the pair of games it belongs to
    /// (`pair 17`), so that a recount of the file can pair the games again.
    pub name: Option<String>,
}

/// The current time in seconds since 1970 (0 if the clock is before it).
pub fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `YYYY.MM.DD_hh:mm:ss.UTC` for a Unix time (proleptic Gregorian calendar).
fn ggf_date(t: u64) -> String {
    let days = (t / 86_400) as i64;
    let secs = t % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}.{m:02}.{d:02}_{:02}:{:02}:{:02}.UTC",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Removes the characters that would break a GGF tag value.
fn clean(s: &str) -> String {
    s.chars()
        .filter(|&c| c != ']' && c != '[' && c != '\n' && c != '\r')
        .collect()
}

impl GgfGame {
    /// Whether the game has a result: its moves end it, or a side forfeited. An unfinished game
    /// (saved in the middle) is written with GGF's `RE[?]`, not a score that reads as a result.
    pub fn is_finished(&self) -> bool {
        if self.forfeit.is_some() {
            return true;
        }
        let mut pos = self.start;
        for &m in &self.moves {
            match pos.play(m) {
                Some(next) => pos = next,
                None => return false,
            }
        }
        pos.board.is_game_over()
    }
}

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = if self.is_finished() {
            format!(
                "{:+}.000{}",
                self.black_score,
                if self.forfeit.is_some() { ":r" } else { "" }
            )
        } else {
            "?".to_string()
        };
        write!(
            f,
            "(;GM[Othello]PC[{}]DT[{}]PB[{}]PW[{}]RE[{result}]TI[{}]",
            clean(&self.place),
            ggf_date(self.unix_time),
            clean(&self.black),
            clean(&self.white),
            clean(&self.time_control)
        )?;
        if let Some(name) = &self.name {
            write!(f, "GN[{}]", clean(name))?;
        }
        write!(f, "TY[8]BO[8 ")?;
        let (b, w) = (self.start.black(), self.start.white());
        for i in 0..64 {
            let c = if b >> i & 1 == 1 {
                '*'
            } else if w >> i & 1 == 1 {
                'O'
            } else {
                '-'
            };
            write!(f, "{c}")?;
        }
        let side = match self.start.side {
            Color::Black => '*',
            Color::White => 'O',
        };
        write!(f, " {side}]")?;
        let mut colour = self.start.side;
        for m in &self.moves {
            let tag = match colour {
                Color::Black => 'B',
                Color::White => 'W',
            };
            if m.is_pass() {
                write!(f, "{tag}[PA]")?;
            } else {
                write!(f, "{tag}[{m}]")?;
            }
            colour = colour.opposite();
        }
        if let Some(reason) = &self.forfeit {
            write!(f, "C[{}]", clean(reason))?;
        }
        write!(f, ";)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(ggf_date(0), "1970.01.01_00:00:00.UTC");
        assert_eq!(ggf_date(951_782_400), "2000.02.29_00:00:00.UTC");
        assert_eq!(ggf_date(1_700_000_000), "2023.11.14_22:13:20.UTC");
        for t in [0, 951_782_400, 1_700_000_000, 1_764_633_599, 4_102_444_800] {
            assert_eq!(parse_ggf_date(&ggf_date(t)), Some(t));
        }
        for bad in [
            "2023.06.31_00:00:00.UTC",
            "2023.11.14_24:00:00.UTC",
            "2014-02-21 20:52:27 GMT",
            "2023.11.14_22:13:20",
            "",
        ] {
            assert_eq!(parse_ggf_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn writes_a_game() {
        let g = GgfGame {
            place: "wedge match".into(),
            unix_time: 0,
            black: "a".into(),
            white: "b]".into(),
            time_control: "60//0.5".into(),
            start: Position::START,
            moves: vec!["f5".parse().unwrap(), Move::PASS],
            black_score: 12,
            forfeit: None,
            name: None,
        };
        let s = g.to_string();
        assert!(
            s.starts_with("(;GM[Othello]PC[wedge match]DT[1970.01.01_00:00:00.UTC]PB[a]PW[b]RE[?]")
        );
        assert!(
            s.contains("BO[8 ---------------------------O*------*O--------------------------- *]")
        );
        assert!(s.ends_with("B[f5]W[PA];)"));
        // A name, a forfeit: written, and read back with the players and the result.
        let named = GgfGame {
            name: Some("pair 3 game 2".into()),
            forfeit: Some("b: illegal move".into()),
            black_score: -64,
            moves: vec!["f5".parse().unwrap()],
            ..g
        };
        let s = named.to_string();
        assert!(s.contains("TI[60//0.5]GN[pair 3 game 2]TY[8]BO[8 "), "{s}");
        let r = parse_ggf_record(&s).unwrap();
        assert_eq!(r.players, [Some("a".into()), Some("b".into())]);
        assert_eq!(r.result.as_deref(), Some("-64.000:r"));
        assert_eq!(r.name.as_deref(), Some("pair 3 game 2"));
        assert_eq!(r.game.moves.len(), 1);
    }

    #[test]
    fn only_a_finished_game_has_a_score_for_its_result() {
        let mut pos = Position::START;
        let mut moves = Vec::new();
        while !pos.board.is_game_over() {
            let m = pos.legal_move_list().first().copied().unwrap_or(Move::PASS);
            moves.push(m);
            pos = pos.play(m).unwrap();
        }
        let g = GgfGame {
            place: "wedge play".into(),
            unix_time: 0,
            black: "a".into(),
            white: "b".into(),
            time_control: String::new(),
            start: Position::START,
            moves: moves.clone(),
            black_score: pos.black_final_score(),
            forfeit: None,
            name: None,
        };
        assert!(g.is_finished());
        let result = parse_ggf_record(&g.to_string()).unwrap().result.unwrap();
        assert_eq!(result, format!("{:+}.000", pos.black_final_score()));
        // The same game saved one move before its end has no result yet.
        moves.pop();
        let unfinished = GgfGame { moves, ..g };
        assert!(!unfinished.is_finished());
        let record = parse_ggf_record(&unfinished.to_string()).unwrap();
        assert_eq!(record.result.as_deref(), Some("?"));
    }
}

/// Why a GGF game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgfError {
    /// No `(;` opens a game.
    NoGame,
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
}

impl GgfRecord {
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
    let body = text.trim();
    let start = body.find("(;").ok_or(GgfError::NoGame)?;
    let body = &body[start + 2..];
    let end = body.find(";)").unwrap_or(body.len());
    let body = &body[..end];
    let mut tags: Vec<(&str, &str)> = Vec::new();
    let mut rest = body;
    while let Some(open) = rest.find('[') {
        let name = rest[..open].trim();
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| GgfError::Unclosed(crate::board::square::truncate(name)))?;
        tags.push((name, &rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    if !rest.trim().is_empty() {
        return Err(GgfError::Unexpected(crate::board::square::truncate(
            rest.trim(),
        )));
    }
    let tag = |name: &str| tags.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
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
    })
}

/// The Unix time of a date as [`GgfGame`] writes it (`YYYY.MM.DD_hh:mm:ss.UTC`); `None` for any
/// other form (other programs write dates their own way).
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
    if hh > 23 || mm > 59 || ss > 59 || y < 1970 {
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
    use super::*;

    #[test]
    fn reads_nboard_games() {
        let g = parse_ggf("(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3/1.5/2.0]W[C5]B[E6]W[F7]B[E7]W[F4];)").unwrap();
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.transcript(), "f5f6d3c5e6f7e7f4");
        // Round trip with the writer, passes included.
        let mut pos = Position::START;
        let mut moves = Vec::new();
        while !pos.board.is_game_over() {
            let m = pos.legal_move_list()[0];
            moves.push(m);
            pos = pos.play(m).unwrap();
        }
        let record = GgfGame {
            place: "t".into(),
            unix_time: 0,
            black: "a".into(),
            white: "b".into(),
            time_control: "x".into(),
            start: Position::START,
            moves: moves.clone(),
            black_score: pos.black_final_score(),
            forfeit: None,
            name: None,
        };
        assert_eq!(parse_ggf(&record.to_string()).unwrap().moves, moves);
    }

    #[test]
    fn bad_games_are_errors() {
        assert!(parse_ggf("GM[Othello]").is_err());
        assert!(parse_ggf("(;GM[Othello]B[Z9];)").is_err());
        assert!(parse_ggf("(;GM[Othello]B[A1];)").is_err());
        assert!(parse_ggf("(;GM[Othello]W[F5];)").is_err());
        assert!(parse_ggf("(;BO[10 --];)").is_err());
        assert!(parse_ggf("(;GM[Othello;)").is_err());
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
