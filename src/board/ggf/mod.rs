//! Game records in GGF (the Generic Game Format of the GGS server, read by NBoard and most Othello
//! tools). This module writes them, one game per line,
//! `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TI[..]TY[8]BO[..]B[f5]W[d6]...;)`; `read` reads
//! them.

mod read;

pub use read::{
    first_game, parse_ggf, parse_ggf_date, parse_ggf_record, split_games, time_left, GgfClock,
    GgfError, GgfRecord, GgfSpan, NO_CLOCK,
};

use super::{Color, Move, Position};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// What the reason of a forfeit on time says (the match runner's, the browser board's and
/// `wedge play`'s): the result is then written with GGF's time-out flag, `:t`.
pub const LOST_ON_TIME: &str = "lost on time";

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
    /// The clock (`TI`), as [`GgfClock`] writes it (`60/0.5/0`), or [`NO_CLOCK`].
    pub time_control: String,
    /// The position before the first move.
    pub start: Position,
    /// The moves, passes included.
    pub moves: Vec<Move>,
    /// Milliseconds each move took, written in seconds as `B[f5//1.25]` when there is one for
    /// every move (empty: none written).
    pub times: Vec<u64>,
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

/// A tag value as GGF writes it: `]` and `\\` escaped with a backslash (the reader takes them
/// back), line breaks as spaces (a record is one line).
fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
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
                match &self.forfeit {
                    Some(why) if why.contains(LOST_ON_TIME) => ":t",
                    Some(_) => ":r",
                    None => "",
                }
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
        let timed = self.times.len() == self.moves.len();
        for (i, m) in self.moves.iter().enumerate() {
            let tag = match colour {
                Color::Black => 'B',
                Color::White => 'W',
            };
            if m.is_pass() {
                write!(f, "{tag}[PA")?;
            } else {
                write!(f, "{tag}[{m}")?;
            }
            if timed {
                let centis = self.times[i].saturating_add(5) / 10;
                write!(f, "//{}.{:02}", centis / 100, centis % 100)?;
            }
            f.write_str("]")?;
            colour = colour.opposite();
        }
        if let Some(reason) = &self.forfeit {
            write!(f, "C[{}]", clean(reason))?;
        }
        write!(f, ";)")
    }
}

/// A whole game from the start, each side playing its first legal move (passing when it must),
/// between `a` and `b`: the tests' record.
#[cfg(test)]
fn first_move_game() -> GgfGame {
    let mut pos = Position::START;
    let mut moves = Vec::new();
    while !pos.board.is_game_over() {
        let m = pos.legal_move_list().first().copied().unwrap_or(Move::PASS);
        moves.push(m);
        pos = pos.play(m).unwrap_or(pos);
    }
    GgfGame {
        place: "t".into(),
        unix_time: 0,
        black: "a".into(),
        white: "b".into(),
        time_control: String::new(),
        start: Position::START,
        moves,
        times: Vec::new(),
        black_score: pos.black_final_score(),
        forfeit: None,
        name: None,
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
            // Years whose day count overflows (a panic in a checked build).
            "9999999999999.01.01_00:00:00.UTC",
            "9223372036854775807.12.31_23:59:59.UTC",
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
            time_control: "60/0.5/0".into(),
            start: Position::START,
            moves: vec!["f5".parse().unwrap(), Move::PASS],
            times: Vec::new(),
            black_score: 12,
            forfeit: None,
            name: None,
        };
        let s = g.to_string();
        assert!(s.starts_with(
            "(;GM[Othello]PC[wedge match]DT[1970.01.01_00:00:00.UTC]PB[a]PW[b\\]]RE[?]"
        ));
        assert!(
            s.contains("BO[8 ---------------------------O*------*O--------------------------- *]")
        );
        assert!(s.ends_with("B[f5]W[PA];)"));
        // Each move's time, when every move has one, after an empty evaluation; read back.
        let timed = GgfGame {
            times: vec![1234, 0],
            ..g.clone()
        };
        let s = timed.to_string();
        assert!(s.ends_with("B[f5//1.23]W[PA//0.00];)"), "{s}");
        let legal = GgfGame {
            moves: vec!["f5".parse().unwrap(), "d6".parse().unwrap()],
            times: vec![1234, 5],
            ..g.clone()
        };
        let times = parse_ggf_record(&legal.to_string()).unwrap().times;
        assert_eq!(times, [1.23, 0.01]);
        let partly = GgfGame {
            times: vec![1000],
            ..g.clone()
        };
        assert!(partly.to_string().ends_with("B[f5]W[PA];)"));
        // A name, a forfeit: written, and read back with the players and the result.
        let named = GgfGame {
            name: Some("pair 3 game 2".into()),
            forfeit: Some("b: illegal move".into()),
            black_score: -64,
            moves: vec!["f5".parse().unwrap()],
            ..g
        };
        let s = named.to_string();
        assert!(s.contains("TI[60/0.5/0]GN[pair 3 game 2]TY[8]BO[8 "), "{s}");
        let r = parse_ggf_record(&s).unwrap();
        assert_eq!(r.players, [Some("a".into()), Some("b]".into())]);
        assert_eq!(r.result.as_deref(), Some("-64.000:r"));
        assert_eq!(r.name.as_deref(), Some("pair 3 game 2"));
        assert_eq!(r.comment.as_deref(), Some("b: illegal move"));
        // Brackets and backslashes in a value are escaped and read back as they were.
        let odd = GgfGame {
            black: "a]b\\c[d".into(),
            ..named
        };
        let r = parse_ggf_record(&odd.to_string()).unwrap();
        assert_eq!(r.players[0].as_deref(), Some("a]b\\c[d"));
        assert_eq!(r.game.moves.len(), 1);
    }

    #[test]
    fn only_a_finished_game_has_a_score_for_its_result() {
        let g = first_move_game();
        assert!(g.is_finished());
        let result = parse_ggf_record(&g.to_string()).unwrap().result.unwrap();
        assert_eq!(result, format!("{:+}.000", g.black_score));
        // The same game saved one move before its end has no result yet.
        let mut moves = g.moves.clone();
        moves.pop();
        let unfinished = GgfGame { moves, ..g };
        assert!(!unfinished.is_finished());
        let record = parse_ggf_record(&unfinished.to_string()).unwrap();
        assert_eq!(record.result.as_deref(), Some("?"));
    }
}
