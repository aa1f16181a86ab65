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

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "(;GM[Othello]PC[{}]DT[{}]PB[{}]PW[{}]RE[{:+}.000{}]TI[{}]TY[8]BO[8 ",
            clean(&self.place),
            ggf_date(self.unix_time),
            clean(&self.black),
            clean(&self.white),
            self.black_score,
            if self.forfeit.is_some() { ":r" } else { "" },
            clean(&self.time_control)
        )?;
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
        };
        let s = g.to_string();
        assert!(s.starts_with(
            "(;GM[Othello]PC[wedge match]DT[1970.01.01_00:00:00.UTC]PB[a]PW[b]RE[+12.000]"
        ));
        assert!(
            s.contains("BO[8 ---------------------------O*------*O--------------------------- *]")
        );
        assert!(s.ends_with("B[f5]W[PA];)"));
    }
}
