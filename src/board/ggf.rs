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

/// Why a GGF game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfError(pub String);

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GGF: {}", self.0)
    }
}

impl std::error::Error for GgfError {}

/// Reads one GGF game: the set-up board (`BO[8 <64 squares> <side>]`, default the standard start)
/// and the moves (`B[..]`, `W[..]`; a move may carry `/eval/time`; `PA` is a pass). A missing pass
/// is inserted where the tag's colour shows the other side had to pass. Other tags are ignored.
pub fn parse_ggf(text: &str) -> Result<crate::board::text::Game, GgfError> {
    use crate::board::text::Game;
    let err = |m: String| GgfError(m);
    let body = text.trim();
    let start = body
        .find("(;")
        .ok_or_else(|| err("no '(;' opening the game".into()))?;
    let body = &body[start + 2..];
    let end = body.find(";)").unwrap_or(body.len());
    let body = &body[..end];
    let mut tags: Vec<(&str, &str)> = Vec::new();
    let mut rest = body;
    while let Some(open) = rest.find('[') {
        let name = rest[..open].trim();
        let close = rest[open..].find(']').ok_or_else(|| {
            err(format!(
                "tag '{}' has no closing ']'",
                crate::board::square::truncate(name)
            ))
        })?;
        tags.push((name, &rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    if !rest.trim().is_empty() {
        return Err(err(format!(
            "unexpected '{}'",
            crate::board::square::truncate(rest.trim())
        )));
    }
    let mut position = Position::START;
    if let Some((_, bo)) = tags.iter().find(|(n, _)| *n == "BO") {
        let mut parts = bo.split_whitespace();
        if parts.next() != Some("8") {
            return Err(err(
                "only 8x8 boards are supported (BO must start with 8)".into()
            ));
        }
        let squares: String = parts.collect::<Vec<_>>().join(" ");
        position = squares
            .parse::<Position>()
            .map_err(|e| err(format!("BO: {e}")))?;
    }
    let mut game = Game::new(position);
    let mut pos = position;
    for (i, (name, value)) in tags.iter().enumerate() {
        let colour = match *name {
            "B" => Color::Black,
            "W" => Color::White,
            _ => continue,
        };
        let mv_text = value.split('/').next().unwrap_or("").trim();
        let mv: Move = mv_text
            .parse()
            .map_err(|e| err(format!("tag {} ({name}[{value}]): {e}", i + 1)))?;
        if colour != pos.side && !mv.is_pass() && pos.board.must_pass() {
            game.moves.push(Move::PASS);
            pos = pos.play(Move::PASS).unwrap_or(pos);
        }
        if colour != pos.side {
            return Err(err(format!("{name}[{value}]: it is not {colour}'s turn")));
        }
        pos = pos
            .play(mv)
            .ok_or_else(|| err(format!("{name}[{value}]: illegal move")))?;
        game.moves.push(mv);
    }
    Ok(game)
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
}
