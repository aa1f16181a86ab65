//! Formatting wedge's answers as protocol lines: `info` lines from search reports, `bestmove`,
//! error lines, the handshake, and the answers to `query`, `d`, `eval`, `perft`, `bench` and
//! `help`. Pure functions from values to strings; the engine's single writer prints them.

use crate::board::{Color, Move, Position};
use crate::eval::Term;
use crate::protocol::common::QueryKind;
use crate::search::{Bound, Info, ProgressSnapshot, Score};
use std::time::Duration;

pub use super::common::Mode;

/// An error line: `info string error: <message>` (protocol.md: every refusal is one such line).
pub fn error_line(message: impl std::fmt::Display) -> String {
    let message = super::common::short_words(&message.to_string());
    format!("info string error: {message}")
}

/// Written before a search whose `go` names clocks but not the side to move's, and no other limit.
pub const NO_CLOCK_WARNING: &str =
    "info string warning: go names no clock for the side to move: no time limit (send stop)";

/// Written when `Threads` is set above the threads the machine runs at once.
pub fn threads_warning(threads: usize, cores: usize) -> String {
    format!(
        "info string warning: Threads {threads} is more than the {cores} this machine runs at \
         once: searches and stop may end late"
    )
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
    if info.selectivity < 100 {
        line.push_str(&format!(" selectivity {}", info.selectivity));
    }
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

/// The `option name ...` lines of the handshake, one per declared option.
pub fn option_lines(options: &[crate::engine::options::Declaration]) -> Vec<String> {
    use crate::engine::options::Kind;
    options
        .iter()
        .map(|d| {
            let name = d.name;
            match &d.kind {
                Kind::Spin { default, min, max } => {
                    format!("option name {name} type spin default {default} min {min} max {max}")
                }
                Kind::Check { default } => {
                    format!("option name {name} type check default {default}")
                }
                Kind::Combo { default, values } => {
                    let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                    format!("option name {name} type combo default {default}{vars}")
                }
                Kind::Text { default } => {
                    let d = if default.is_empty() {
                        "<empty>"
                    } else {
                        default
                    };
                    format!("option name {name} type string default {d}")
                }
                Kind::Button => format!("option name {name} type button"),
            }
        })
        .collect()
}

/// The handshake's answer to `uci` or `ugi` (`ugi`: true): the engine's name and author, the
/// `option` lines given, and `uciok` or `ugiok`.
pub fn handshake_lines(ugi: bool, options: Vec<String>) -> Vec<String> {
    let mut lines = vec![
        format!("id name wedge {}", env!("CARGO_PKG_VERSION")),
        "id author the wedge developers".to_string(),
    ];
    lines.extend(options);
    lines.push(if ugi { "ugiok" } else { "uciok" }.to_string());
    lines
}

/// The answer to a UGI `query` about `pos`: `response true|false` or `response
/// p1win|p2win|draw|none`.
pub fn response_line(kind: QueryKind, pos: Position) -> String {
    let answer = match kind {
        QueryKind::GameOver => pos.board.is_game_over().to_string(),
        QueryKind::P1Turn => (pos.side == Color::Black).to_string(),
        QueryKind::Result => {
            if !pos.board.is_game_over() {
                "none".to_string()
            } else {
                let diff = pos.black().count_ones() as i32 - pos.white().count_ones() as i32;
                match diff.signum() {
                    1 => "p1win".to_string(),
                    -1 => "p2win".to_string(),
                    _ => "draw".to_string(),
                }
            }
        }
    };
    format!("response {answer}")
}

/// The answer to `d`: the board, the side to move, the legal moves, and the position as FEN, as a
/// 64-character board and as a hash.
pub fn display_lines(pos: Position, mode: Mode) -> Vec<String> {
    let mut lines: Vec<String> = pos.diagram().lines().map(str::to_string).collect();
    let side = match pos.side {
        Color::Black => "black (X)",
        Color::White => "white (O)",
    };
    lines.push(format!("side to move: {side}"));
    let moves: Vec<String> = pos
        .legal_move_list()
        .into_iter()
        .map(|m| move_text(m, mode))
        .collect();
    lines.push(format!(
        "legal moves: {}",
        if moves.is_empty() {
            "none (game over)".to_string()
        } else {
            moves.join(" ")
        }
    ));
    lines.push(format!("fen: {}", pos.to_fen()));
    lines.push(format!("board: {pos}"));
    lines.push(format!("hash: {:016x}", pos.board.hash()));
    lines
}

/// The answer to `eval`: one line per term of the evaluation, then the total (centidiscs, side to
/// move's view), in discs.
pub fn eval_lines(terms: &[Term], total: i32) -> Vec<String> {
    let mut lines: Vec<String> = terms
        .iter()
        .map(|t| {
            format!(
                "{:<20} feature {:>4}  {:>+8.2}",
                t.name,
                t.feature,
                f64::from(t.value) / 100.0
            )
        })
        .collect();
    lines.push(format!(
        "total                              {:>+8.2} discs (side to move)",
        f64::from(total) / 100.0
    ));
    lines
}

/// One root move's `perft` count: `<move> <count>`.
pub fn perft_move_line(mv: Move, count: u64, mode: Mode) -> String {
    format!("{} {count}", move_text(mv, mode))
}

/// The end of a `bench` run: `<nodes> nodes <nps> nps`, and how many positions were searched
/// when `stop` ended it early.
pub fn bench_line(nodes: u64, time: Duration, positions: usize, stopped: bool) -> String {
    let nps = nodes as f64 / time.as_secs_f64().max(1e-9);
    let note = if stopped {
        format!(" (stopped after {positions} positions)")
    } else {
        String::new()
    };
    format!("{nodes} nodes {nps:.0} nps{note}")
}

/// The answer to `help`: the commands, in two `info string` lines.
pub const HELP: [&str; 2] = [
    "info string wedge speaks a UCI-shaped protocol (protocol.md): uci|ugi, isready, \
     ucinewgame|uginewgame, position startpos|board|fen|variant|variantfile [moves ...], go \
     [depth|nodes|movetime|btime|wtime|binc|winc|p1time|p2time|p1inc|p2inc|movestogo|infinite|\
     exact|wld|mate|ponder|searchmoves ...], stop, ponderhit, setoption name N [value V], quit",
    "info string also: d (show the board), eval, perft <depth>, bench [depth], query \
     gameover|p1turn|result, debug on|off, help; 'wedge --help' lists the command-line tools",
];

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
            selectivity: 100,
            pv: vec![Move::PASS],
        };
        assert_eq!(
            info_line(&info, Mode::Ugi, true),
            "info multipv 2 depth 3 seldepth 4 score cp 7 nodes 100 nps 10000 time 10 hashfull 1 discs +0.07 pv 0000"
        );
        // No nps when no time can be measured; the selectivity of a selective search.
        info.time = Duration::ZERO;
        info.selectivity = 87;
        assert_eq!(
            info_line(&info, Mode::Uci, false),
            "info depth 3 seldepth 4 score cp 7 nodes 100 time 0 hashfull 1 discs +0.07 selectivity 87 pv pass"
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
