//! Formatting the engine's answers as protocol lines: `info` lines from search reports, `bestmove`,
//! the handshake's option lines. Pure functions from values to strings; the engine's single writer
//! prints them.

use crate::board::Move;
use crate::search::{Info, Score};

/// How passes and "no move" are written: after `uci` (`pass`, `none`) or after `ugi` (`0000`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// UCI mode (the start-up mode).
    Uci,
    /// UGI mode.
    Ugi,
}

/// A move as written in the current mode.
pub fn move_text(mv: Move, mode: Mode) -> String {
    match (mv.is_pass(), mode) {
        (true, Mode::Ugi) => "0000".to_string(),
        _ => mv.to_string(),
    }
}

/// The `bestmove` line; `None` means the game is over.
pub fn bestmove(mv: Option<Move>, mode: Mode) -> String {
    match (mv, mode) {
        (Some(m), _) => format!("bestmove {}", move_text(m, mode)),
        (None, Mode::Uci) => "bestmove none".to_string(),
        (None, Mode::Ugi) => "bestmove 0000".to_string(),
    }
}

/// The score part of an `info` line: `score disc +N.NN score cp N`, `score exact +N score cp N` or
/// `score wld win|draw|loss score cp N`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Eval(cd) => {
            let sign = if cd < 0 { '-' } else { '+' };
            let a = cd.unsigned_abs();
            format!("score disc {sign}{}.{:02} score cp {cd}", a / 100, a % 100)
        }
        Score::Exact(d) => format!("score exact {d:+} score cp {}", d * 100),
        Score::Wld(s) => {
            let (word, cp) = match s.signum() {
                1 => ("win", 200),
                0 => ("draw", 0),
                _ => ("loss", -200),
            };
            format!("score wld {word} score cp {cp}")
        }
    }
}

/// An `info` line for one finished iteration (with `multipv k` when `show_multipv`).
pub fn info_line(info: &Info, mode: Mode, show_multipv: bool) -> String {
    let ms = info.time.as_millis() as u64;
    let nps = (info.nodes * 1000)
        .checked_div(ms)
        .unwrap_or(info.nodes * 1000);
    let mut line = String::from("info");
    if show_multipv {
        line.push_str(&format!(" multipv {}", info.multipv));
    }
    line.push_str(&format!(
        " depth {} seldepth {} {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        nps,
        ms,
        info.hashfull
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            line.push(' ');
            line.push_str(&move_text(*m, mode));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn scores_and_moves() {
        assert_eq!(
            score_text(Score::Eval(125)),
            "score disc +1.25 score cp 125"
        );
        assert_eq!(
            score_text(Score::Eval(-50)),
            "score disc -0.50 score cp -50"
        );
        assert_eq!(score_text(Score::Eval(0)), "score disc +0.00 score cp 0");
        assert_eq!(score_text(Score::Exact(-4)), "score exact -4 score cp -400");
        assert_eq!(score_text(Score::Wld(1)), "score wld win score cp 200");
        assert_eq!(bestmove(Some(Move::PASS), Mode::Ugi), "bestmove 0000");
        assert_eq!(bestmove(Some(Move::PASS), Mode::Uci), "bestmove pass");
        assert_eq!(bestmove(None, Mode::Uci), "bestmove none");
        assert_eq!(bestmove(None, Mode::Ugi), "bestmove 0000");
        let info = Info {
            multipv: 2,
            depth: 3,
            seldepth: 4,
            score: Score::Eval(7),
            nodes: 100,
            time: Duration::from_millis(10),
            hashfull: 1,
            pv: vec![Move::PASS],
        };
        assert_eq!(
            info_line(&info, Mode::Ugi, true),
            "info multipv 2 depth 3 seldepth 4 score disc +0.07 score cp 7 nodes 100 nps 10000 time 10 hashfull 1 pv 0000"
        );
    }
}
