//! Perfect solves over the protocol: `go exact`, `go wld` and `go mate`, their selective passes,
//! a depth short of the end, helper threads, and a solve cut short by its time or by `stop`.
//! Timeouts here only fail a hung test; nothing asserts on speed.

mod common;

use common::{legal_in, Engine};
use wedge::board::Position;

#[test]
fn exact_and_wld_solves() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
    let mut e = Engine::start();
    e.send(&format!("position board {ffo1} X"));
    e.send("go exact");
    let (lines, mv) = e.bestmove();
    assert_eq!(mv, "g8");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score cp 1800 ") && l.contains(" exact +18 ")),
        "{lines:#?}"
    );
    e.send("go wld");
    let (lines, _) = e.bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score cp 200 ") && l.contains(" wld win ")),
        "{lines:#?}"
    );
}

#[test]
fn a_solve_with_a_depth_short_of_the_end_is_that_search() {
    // 55 empties: a solve would take hours; depth 6 makes it a depth-6 search that answers.
    let mut e = Engine::start();
    e.send("position startpos moves f5 d6 c3 d3 c4");
    for go in ["go exact depth 6", "go wld depth 6", "go mate 3 depth 5"] {
        e.send(go);
        let (lines, mv) = e.bestmove();
        let depths: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let last = depths.last().expect("info lines");
        let deepest = if go.contains("depth 6") { 6 } else { 5 };
        assert!(
            last.starts_with(&format!("info depth {deepest} ")),
            "{go}: {lines:#?}"
        );
        assert!(
            !last.contains(" exact ") && !last.contains(" wld "),
            "{last}"
        );
        assert!(!mv.is_empty() && mv != "none", "{go}: {mv}");
    }
    // A depth that reaches the end still proves: FFO #1 has 14 empties.
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
    e.send(&format!("position board {ffo1} X"));
    e.send("go exact depth 14");
    let (lines, mv) = e.bestmove();
    assert_eq!(mv, "g8");
    assert!(
        lines.iter().any(|l| l.contains(" exact +18 ")),
        "{lines:#?}"
    );
}

#[test]
fn a_solve_reports_its_selective_passes_first() {
    // FFO #40, 20 empties: two selective passes (probable scores) before the exact score.
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";
    let mut e = Engine::start();
    e.send(&format!("position board {ffo40} X"));
    e.send("go exact");
    let (lines, mv) = e.bestmove();
    assert_eq!(mv, "a2");
    // The solver's lines (a short midgame search may come before them).
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 20 "))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:#?}");
    for l in &infos[..2] {
        assert!(
            l.starts_with("info depth 20 seldepth 20 score cp ") && l.contains(" discs "),
            "{l}"
        );
        assert!(l.contains(" pv "), "{l}");
    }
    assert!(
        infos[2].contains("score cp 3800 ") && infos[2].contains(" exact +38 "),
        "{lines:#?}"
    );
}

#[test]
fn solves_with_helper_threads_and_stops_them() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
    // FFO #45: seconds of solving even with several threads.
    let ffo45 = "---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO--";
    let solve_ffo1 = |e: &mut Engine| {
        e.send(&format!("position board {ffo1} X"));
        e.send("go exact");
        let (lines, mv) = e.bestmove();
        assert_eq!(mv, "g8");
        assert!(
            lines.iter().any(|l| l.contains(" exact +18 ")),
            "{lines:#?}"
        );
    };
    let mut e = Engine::start();
    e.send("setoption name Threads value 3");
    solve_ffo1(&mut e);
    // A stop reaches the helpers too: the answer comes at once and the engine goes on serving.
    e.send(&format!("position board {ffo45} X"));
    e.send("go exact");
    // Long enough for the helpers to be deep in the solve (this is no timing assertion).
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("stop");
    let (_, mv) = e.bestmove();
    let ffo45_pos: Position = format!("{ffo45} X").parse().unwrap();
    assert!(legal_in(&ffo45_pos, &mv), "{mv}");
    solve_ffo1(&mut e);
    e.send("setoption name Threads value 1");
    e.send(&format!("position board {ffo1} X"));
    e.send("go wld");
    let (lines, _) = e.bestmove();
    assert!(lines.iter().any(|l| l.contains(" wld win ")), "{lines:#?}");
}

#[test]
fn a_solve_cut_short_answers_with_a_scored_line_and_a_searched_move() {
    // 55 empties: no solve finishes in 300 ms, yet the answer has a heuristic score and the move
    // of a midgame search.
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5 d6 c3 d3 c4");
    // With helper threads and with a level's noise too: the move is still the line's, and the
    // node counts of the lines never go back.
    for (setup, go) in [
        ("", "go wld movetime 300"),
        ("", "go exact movetime 300"),
        ("", "go exact nodes 100000"),
        ("setoption name Threads value 2", "go exact nodes 300000"),
        ("setoption name Level value 1", "go exact movetime 300"),
    ] {
        if !setup.is_empty() {
            e.send(setup);
        }
        e.send(go);
        let (lines, mv) = e.bestmove();
        let last = lines
            .iter()
            .rfind(|l| l.starts_with("info depth") && l.contains(" score cp "))
            .unwrap_or_else(|| panic!("{go}: no scored line: {lines:#?}"));
        assert!(
            last.contains(" discs ") && !last.contains(" exact ") && !last.contains(" wld "),
            "{go}: {last}"
        );
        // The move is the scored line's first move, not merely the first legal square.
        let pv_first = last.split(" pv ").nth(1).and_then(|p| p.split(' ').next());
        assert_eq!(pv_first, Some(mv.as_str()), "{go}: {lines:#?}");
        let nodes: Vec<u64> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .filter_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
            .collect();
        assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{go}: {nodes:?}");
    }
}
