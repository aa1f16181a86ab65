//! Formatting the engine's answers as protocol lines: `info` lines from search reports, `bestmove`,
//! error lines. Pure functions from values to strings; the engine's single writer
//! prints them.

use crate::board::Move;
use crate::search::{Bound, Info, ProgressSnapshot, Score};
use std::time::Duration;

/// How passes and "no move" are written: after `uci` (`pass`, `none`) or after `ugi` (`0000`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// UCI mode (the start-up mode).
    Uci,
    /// UGI mode.
    Ugi,
}

/// An error line: `info string error: <message>` (protocol.md: every refusal is one such line).
pub fn error_line(message: impl std::fmt::Display) -> String {
    format!("info string error: {message}")
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

/// The score of an `info` line as UCI readers take it: `score cp N` (centidiscs, side to move's
/// view), with `lowerbound` or `upperbound` when the score is only a bound. A proven score is
/// written in centidiscs too: an exact result of `n` discs is `100 n`, a WLD win 200, a loss -200.
pub fn score_text(score: Score, bound: Bound) -> String {
    let cp = match score {
        Score::Eval(cd) => cd,
        Score::Exact(d) => 100 * d,
        Score::Wld(w) => 200 * w.signum(),
    };
    match bound {
        Bound::Exact => format!("score cp {cp}"),
        Bound::Lower => format!("score cp {cp} lowerbound"),
        Bound::Upper => format!("score cp {cp} upperbound"),
    }
}

/// wedge's own field for the score, which UCI readers skip as an unknown token: `discs +N.NN` for
/// a heuristic score, `exact +N` for a proven disc difference, `wld win|draw|loss` for a proven
/// result.
pub fn discs_text(score: Score) -> String {
    match score {
        Score::Eval(cd) => {
            let sign = if cd < 0 { '-' } else { '+' };
            let a = cd.unsigned_abs();
            format!("discs {sign}{}.{:02}", a / 100, a % 100)
        }
        Score::Exact(d) => format!("exact {d:+}"),
        Score::Wld(w) => match w.signum() {
            1 => "wld win".to_string(),
            0 => "wld draw".to_string(),
            _ => "wld loss".to_string(),
        },
    }
}

/// ` nps N` when the time is long enough to measure, else nothing.
fn nps_text(nodes: u64, time: Duration) -> String {
    let ms = time.as_millis() as u64;
    match (nodes * 1000).checked_div(ms) {
        Some(nps) => format!(" nps {nps}"),
        None => String::new(),
    }
}

/// An `info` line for one finished iteration, or for a bound found on the way (with `multipv k`
/// when `show_multipv`).
pub fn info_line(info: &Info, mode: Mode, show_multipv: bool) -> String {
    let mut line = String::from("info");
    if show_multipv {
        line.push_str(&format!(" multipv {}", info.multipv));
    }
    line.push_str(&format!(
        " depth {} seldepth {} {} nodes {}{} time {} hashfull {} {}",
        info.depth,
        info.seldepth,
        score_text(info.score, info.bound),
        info.nodes,
        nps_text(info.nodes, info.time),
        info.time.as_millis(),
        info.hashfull,
        discs_text(info.score),
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

/// A progress line during a long iteration: `info depth D currmove M currmovenumber K nodes N
/// [nps N] time T` (the move parts only once the iteration has started on a root move).
pub fn progress_line(p: &ProgressSnapshot, time: Duration, mode: Mode) -> String {
    let mut line = String::from("info");
    if p.depth > 0 {
        line.push_str(&format!(" depth {}", p.depth));
    }
    if let Some((mv, number)) = p.current {
        line.push_str(&format!(
            " currmove {} currmovenumber {number}",
            move_text(mv, mode)
        ));
    }
    line.push_str(&format!(
        " nodes {}{} time {}",
        p.nodes,
        nps_text(p.nodes, time),
        time.as_millis()
    ));
    line
}

/// The `bestmove` line with the expected reply: `bestmove X ponder Y` when `with_ponder` and the
/// principal variation has a second move; else as [`bestmove`].
pub fn bestmove_with_ponder(
    mv: Option<Move>,
    pv: &[Move],
    with_ponder: bool,
    mode: Mode,
) -> String {
    let mut line = bestmove(mv, mode);
    if with_ponder && mv.is_some() && pv.first() == mv.as_ref() {
        if let Some(reply) = pv.get(1) {
            line.push_str(&format!(" ponder {}", move_text(*reply, mode)));
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
        let cp = |s| score_text(s, Bound::Exact);
        assert_eq!(cp(Score::Eval(125)), "score cp 125");
        assert_eq!(cp(Score::Exact(-4)), "score cp -400");
        assert_eq!(cp(Score::Wld(1)), "score cp 200");
        assert_eq!(
            score_text(Score::Eval(-50), Bound::Lower),
            "score cp -50 lowerbound"
        );
        assert_eq!(
            score_text(Score::Eval(7), Bound::Upper),
            "score cp 7 upperbound"
        );
        assert_eq!(discs_text(Score::Eval(125)), "discs +1.25");
        assert_eq!(discs_text(Score::Eval(-50)), "discs -0.50");
        assert_eq!(discs_text(Score::Eval(0)), "discs +0.00");
        assert_eq!(discs_text(Score::Exact(-4)), "exact -4");
        assert_eq!(discs_text(Score::Wld(0)), "wld draw");
        assert_eq!(bestmove(Some(Move::PASS), Mode::Ugi), "bestmove 0000");
        assert_eq!(bestmove(Some(Move::PASS), Mode::Uci), "bestmove pass");
        assert_eq!(bestmove(None, Mode::Uci), "bestmove none");
        assert_eq!(bestmove(None, Mode::Ugi), "bestmove 0000");
        let mut info = Info {
            multipv: 2,
            depth: 3,
            seldepth: 4,
            score: Score::Eval(7),
            bound: Bound::Exact,
            nodes: 100,
            time: Duration::from_millis(10),
            hashfull: 1,
            pv: vec![Move::PASS],
        };
        assert_eq!(
            info_line(&info, Mode::Ugi, true),
            "info multipv 2 depth 3 seldepth 4 score cp 7 nodes 100 nps 10000 time 10 hashfull 1 discs +0.07 pv 0000"
        );
        // No nps when no time can be measured.
        info.time = Duration::ZERO;
        assert_eq!(
            info_line(&info, Mode::Uci, false),
            "info depth 3 seldepth 4 score cp 7 nodes 100 time 0 hashfull 1 discs +0.07 pv pass"
        );
        let f5: Move = "f5".parse().unwrap();
        let d6: Move = "d6".parse().unwrap();
        assert_eq!(
            bestmove_with_ponder(Some(f5), &[f5, d6], true, Mode::Uci),
            "bestmove f5 ponder d6"
        );
        assert_eq!(
            bestmove_with_ponder(Some(f5), &[f5, d6], false, Mode::Uci),
            "bestmove f5"
        );
        assert_eq!(
            bestmove_with_ponder(Some(f5), &[d6], true, Mode::Uci),
            "bestmove f5"
        );
        let p = ProgressSnapshot {
            nodes: 5000,
            depth: 14,
            current: Some((d6, 3)),
        };
        assert_eq!(
            progress_line(&p, Duration::from_millis(1000), Mode::Uci),
            "info depth 14 currmove d6 currmovenumber 3 nodes 5000 nps 5000 time 1000"
        );
    }
}
