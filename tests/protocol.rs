//! Whole sessions with the real binary over pipes: handshake, searches, passes, game over, stop, quit,
//! options, UGI queries, and every kind of bad input (one error line, state unchanged, still serving).
//! Timeouts here only fail a hung test; nothing asserts on speed.

mod common;

use common::{legal_in, Engine};
use std::time::Instant;
use wedge::board::Position;

#[test]
fn handshake_uci_and_ugi() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name wedge"));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for opt in [
        "Hash",
        "Threads",
        "MultiPV",
        "OwnBook",
        "EvalFile",
        "MobilityMid",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} type"))),
            "{opt} not advertised"
        );
    }
    e.send("ugi");
    let lines = e.until(|l| l == "ugiok");
    assert!(lines
        .iter()
        .any(|l| l.contains("option name Hash type spin default")));
    assert_eq!(e.sync(), Vec::<String>::new());
    // Lines sent with the handshake are applied after its last line, in order.
    e.send("uci\nsetoption name Hash value 8\nisready\nugi\nisready");
    let lines = e.until(|l| l == "readyok");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    assert_eq!(
        lines
            .iter()
            .filter(|l| !l.starts_with("option") && !l.starts_with("id"))
            .count(),
        2,
        "uciok, readyok: {lines:#?}"
    );
    assert!(lines.contains(&"uciok".to_string()));
    let lines = e.until(|l| l == "readyok");
    assert!(lines.contains(&"ugiok".to_string()), "{lines:#?}");
}

#[test]
fn go_depth_returns_a_legal_move_with_info() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5 d6 c3");
    e.send("go depth 5");
    let (lines, mv) = e.bestmove();
    let pos = "f5d6c3"
        .parse::<wedge::board::text::Game>()
        .unwrap()
        .position();
    assert!(legal_in(&pos, &mv), "{mv}");
    // One line per finished iteration; an aspiration window that fails adds a bound line first.
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter(|l| !l.contains("lowerbound") && !l.contains("upperbound"))
        .collect();
    assert_eq!(info.len(), 5);
    for l in lines.iter().filter(|l| l.contains("bound ")) {
        assert_eq!(l.matches(" score ").count(), 1, "{l}");
        assert!(l.contains(" score cp "), "{l}");
    }
    let last = info.last().unwrap();
    for field in ["score cp", "discs", "nodes", "time", "hashfull", "pv"] {
        assert!(last.contains(field), "{field} missing in {last}");
    }
    // Exactly one score, and nps only with a measurable time.
    for l in &info {
        assert_eq!(l.matches(" score ").count(), 1, "{l}");
        assert_eq!(l.contains(" nps "), !l.contains(" time 0 "), "{l}");
    }
    // The same `position` twice and `isready` in between is fine.
    e.send("position fen 8/8/8/3ox3/3xo3/8/8/8 x");
    e.send("position fen 8/8/8/3ox3/3xo3/8/8/8 x");
    assert!(e.sync().is_empty());
    e.send("go nodes 2000");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
    e.send("go movetime 100");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
}

#[test]
fn passes_in_uci_and_ugi_mode() {
    // White to move has no square, black can play a1.
    let board = "position board -OXXXXXX-------------------------------------------------------- O";
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send(board);
    e.send("go depth 4");
    assert_eq!(e.bestmove().1, "pass");
    // `searchmoves pass` names the one move there is.
    e.send("go depth 4 searchmoves pass");
    let (lines, mv) = e.bestmove();
    assert_eq!(mv, "pass");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("ugi");
    e.until(|l| l == "ugiok");
    e.send(board);
    e.send("go p1time 1000 p2time 1000");
    assert_eq!(e.bestmove().1, "0000");
    e.send("query gameover");
    assert_eq!(e.until(|_| true), vec!["response false"]);
    e.send("query p1turn");
    assert_eq!(e.until(|_| true), vec!["response false"]);
    // The forced pass is inserted before black's a1; that ends the game 8-0.
    e.send(&format!("{board} moves a1"));
    e.send("query gameover");
    assert_eq!(e.until(|_| true), vec!["response true"]);
    e.send("query result");
    assert_eq!(e.until(|_| true), vec!["response p1win"]);
    e.send("go depth 3");
    let (lines, mv) = e.bestmove();
    assert_eq!(mv, "0000");
    assert!(lines.contains(&"info string game over".to_string()));
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("go depth 3");
    assert_eq!(e.bestmove().1, "none");
    // An explicit pass in the list works too.
    e.send(&format!("{board} moves pass a1"));
    e.send("query result");
    assert_eq!(e.until(|_| true), vec!["response p1win"]);
}

#[test]
fn infinite_then_stop_and_quit_mid_search() {
    stop_and_quit_mid_search(Engine::start());
}

/// An infinite search from the start answers isready and queries, ends on `stop` with a legal
/// move, and a `quit` during the next one exits with status 0.
fn stop_and_quit_mid_search(mut e: Engine) {
    e.send("position startpos");
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth 6"));
    // isready and queries are answered during the search.
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("query p1turn");
    e.until(|l| l == "response true");
    e.send("stop");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
    // quit during a search stops it: its bestmove is written, then the process exits with 0.
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth 3"));
    e.send("quit");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn what_follows_stop_waits_for_the_stopped_search() {
    // A GUI's usual sequence after a ponder miss or an analysis: stop, the new position, go at once.
    // Each go gets its bestmove, the second one for the new position, and nothing is refused.
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    for first in ["go infinite", "go ponder", "go depth 30"] {
        e.send("position startpos");
        e.send(first);
        e.until(|l| l.starts_with("info depth 3"));
        e.send("stop");
        e.send("position startpos moves f5");
        e.send("go depth 2");
        let (lines, mv) = e.bestmove();
        assert!(legal_in(&Position::START, &mv), "{first}: {mv}");
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        let (lines, mv) = e.bestmove();
        let after_f5 = "f5".parse::<wedge::board::text::Game>().unwrap().position();
        assert!(legal_in(&after_f5, &mv), "{first}: {mv}");
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    }
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn go_infinite_without_a_search_holds_its_answer_until_stop() {
    // A finished game and a forced pass need no search; `go infinite` still answers on `stop`.
    let mut e = Engine::start();
    for (board, expected) in [
        (
            "-OXXXXXX-------------------------------------------------------- O",
            "pass",
        ),
        (
            "XOOOOOOO-------------------------------------------------------- X",
            "none",
        ),
    ] {
        e.send(&format!("position board {board}"));
        e.send("go infinite");
        let before = e.sync();
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "{board}: {before:?}"
        );
        e.send("stop");
        assert_eq!(e.bestmove().1, expected, "{board}");
    }
    // `quit` answers a held one too.
    e.send("go infinite");
    e.send("quit");
    assert_eq!(e.bestmove().1, "none");
    assert_eq!(e.wait_exit(), 0);
}

/// The whole output of `wedge` given `input` at once (as `printf ... | wedge` does), and its status.
fn piped_session(input: &str) -> (Vec<String>, i32) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    // Kept open until the process ends: the answers must come from `quit`, not from the end of input.
    let out = std::thread::spawn(move || child.wait_with_output().unwrap());
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while !out.is_finished() {
        assert!(Instant::now() < deadline, "no exit after quit: {input:?}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    drop(stdin);
    let out = out.join().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    (lines, out.status.code().unwrap_or(-1))
}

#[test]
fn quit_comes_after_the_answers_to_the_lines_before_it() {
    let (lines, status) = piped_session("uci\nisready\nquit\n");
    assert_eq!(status, 0);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );

    let (lines, status) = piped_session("position startpos\ngo depth 1\nquit\nisready\n");
    assert_eq!(status, 0);
    let last = lines.last().cloned().unwrap_or_default();
    let mv = last
        .strip_prefix("bestmove ")
        .expect("the go's bestmove comes last");
    assert!(legal_in(&Position::START, mv), "{lines:?}");
    assert!(
        !lines.contains(&"readyok".to_string()),
        "a line after quit was read: {lines:?}"
    );

    // A deep search is stopped by quit and still answers.
    let (lines, status) = piped_session("position startpos\ngo depth 40\nquit\n");
    assert_eq!(status, 0);
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

#[test]
fn a_file_of_one_huge_token_is_quoted_short() {
    let dir = std::env::temp_dir().join(format!("wedge-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.txt");
    std::fs::write(&huge, format!("{}\n", "x".repeat(5_000_000))).unwrap();
    let mut e = Engine::start();
    e.send(&format!("setoption name EvalFile value {}", huge.display()));
    let lines = e.sync();
    let error = lines
        .iter()
        .find(|l| l.starts_with("info string error"))
        .expect("an error line");
    assert!(error.len() < 300, "an error line of {} bytes", error.len());
    assert!(
        error.contains("huge.txt:1") && error.contains("5000000 bytes"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// More `Threads` than the machine runs at once is set, with a warning that searches may end
/// late; a count within the cores, or another option, gets none.
#[test]
fn threads_beyond_the_cores_are_warned_of() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut e = Engine::start();
    // Beyond the cores where the option's range allows it; a machine of 256 cores or more cannot
    // be given more, and gets no warning.
    let asked = (cores + 1).min(256);
    e.send(&format!("setoption name threads value {asked}"));
    let said = e.sync();
    let warning = format!(
        "info string warning: Threads {asked} is more than the {cores} this machine runs at once: \
         searches and stop may end late"
    );
    assert_eq!(
        said.iter().any(|l| l == &warning),
        asked > cores,
        "{said:?}"
    );
    e.send("setoption name MultiPV value 2");
    e.send(&format!("setoption name Threads value {cores}"));
    let said = e.sync();
    assert!(said.is_empty(), "{said:?}");
}

/// `Threads` runs the midgame search on helper threads too: searches end with a legal move, a
/// stop and a quit work as with one thread, and the reported nodes (all threads) keep growing.
#[test]
fn midgame_search_with_helper_threads() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("setoption name Threads value 4");
    e.send("position startpos moves f5 d6 c3");
    e.send("go depth 10");
    let (lines, mv) = e.bestmove();
    let after = ["f5", "d6", "c3"]
        .iter()
        .fold(Position::START, |p, m| p.play(m.parse().unwrap()).unwrap());
    assert!(legal_in(&after, &mv), "{mv}");
    let nodes: Vec<u64> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|&x| x == "nodes")?;
            w.get(i + 1)?.parse().ok()
        })
        .collect();
    assert!(
        nodes.len() >= 10 && nodes.windows(2).all(|w| w[0] <= w[1]),
        "{lines:#?}"
    );
    stop_and_quit_mid_search(e);
}

#[test]
fn a_go_without_the_movers_clock_warns_and_searches_until_stop() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    // White to move; only black's clock, or only increments: no time limit for white.
    e.send("position startpos moves f5");
    for go in ["go btime 1000", "go winc 100 binc 100", "go movestogo 10"] {
        e.send(go);
        let lines = e.until(|l| l.starts_with("info string"));
        assert!(
            lines.last().unwrap()
                == "info string warning: go names no clock for the side to move: no time limit (send stop)",
            "{go}: {lines:#?}"
        );
        e.send("stop");
        let (_, mv) = e.bestmove();
        assert!(["d6", "f6", "f4"].contains(&mv.as_str()), "{go}: {mv}");
    }
    // The mover's clock, or another limit: no warning.
    for go in [
        "go wtime 200",
        "go btime 1000 depth 3",
        "go btime 1000 movetime 100",
    ] {
        e.send(go);
        let (lines, _) = e.bestmove();
        assert!(
            !lines.iter().any(|l| l.contains("warning")),
            "{go}: {lines:#?}"
        );
    }
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves f5");
    e.send("go depth 3");
    let (lines, _) = e.bestmove();
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("info multipv {k} depth 3"))),
            "multipv {k}: {lines:#?}"
        );
    }
}

#[test]
fn weight_change_changes_eval() {
    let mut e = Engine::start();
    e.send("position startpos moves f5 d6 c3 d3 c4");
    e.send("eval");
    let before = e.until(|l| l.starts_with("total"));
    e.send("setoption name mobilitymid value 900");
    e.send("eval");
    let after = e.until(|l| l.starts_with("total"));
    assert_ne!(before.last(), after.last());
    // Out of range: error, and the evaluation stays.
    e.send("setoption name MobilityMid value 99999999");
    let err = e.until(|_| true);
    assert!(err[0].starts_with("info string error:"), "{err:?}");
    e.send("eval");
    assert_eq!(e.until(|l| l.starts_with("total")).last(), after.last());
}

#[test]
fn eval_file_loads_and_bad_files_name_the_line() {
    let dir = std::env::temp_dir().join(format!("wedge-proto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good weights.txt");
    std::fs::write(&good, "# test\nMobilityMid 900\n").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "MobilityMid 10\nNoSuchWeight 3\n").unwrap();
    let mut e = Engine::start();
    e.send("position startpos moves f5 d6 c3 d3 c4");
    e.send("eval");
    let before = e.until(|l| l.starts_with("total"));
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    let err = e.until(|_| true);
    assert!(err[0].contains("bad.txt:2"), "{err:?}");
    e.send("eval");
    assert_eq!(e.until(|l| l.starts_with("total")), before);
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.send("eval");
    assert_ne!(e.until(|l| l.starts_with("total")), before);
}

#[test]
fn bad_input_gets_one_error_and_changes_nothing() {
    let mut e = Engine::start();
    // `go` before any `position` searches the start position.
    e.send("go depth 2");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv), "{mv}");

    e.send("position startpos moves f5 d6");
    let board = e.board();
    let bad_lines: Vec<Vec<u8>> = vec![
        b"hello".to_vec(),
        b"position".to_vec(),
        b"position board ----".to_vec(),
        b"position startpos moves f5 f5".to_vec(),
        b"position startpos moves f5 z9".to_vec(),
        b"position fen 8/8/8 x".to_vec(),
        b"go depth x".to_vec(),
        b"go depth -3".to_vec(),
        b"go wibble".to_vec(),
        b"setoption name Hash value 0".to_vec(),
        b"setoption name Hash value big".to_vec(),
        b"setoption name NoSuchOption value 1".to_vec(),
        b"perft 99".to_vec(),
        vec![b'g', b'o', b' ', 0xff, 0xfe],
        vec![b'x'; 70_000],
        // A `go` too long to read still owes its `bestmove`.
        b"go "
            .iter()
            .chain(b"depth 1 ".repeat(10_000).iter())
            .copied()
            .collect(),
        // So does one whose first 64 KiB are blanks.
        b" ".repeat(200_000)
            .iter()
            .chain(b"go depth 1".iter())
            .copied()
            .collect(),
    ];
    for bad in &bad_lines {
        let mut line = bad.clone();
        line.push(b'\n');
        e.send_bytes(&line);
        let mut out = e.sync();
        // Every `go` ends with `bestmove`: one that cannot search (or be read) answers "no move".
        if bad.trim_ascii_start().starts_with(b"go ") {
            assert_eq!(out.pop().as_deref(), Some("bestmove none"), "{out:?}");
        }
        assert_eq!(
            out.len(),
            1,
            "{:?}: {out:?}",
            String::from_utf8_lossy(&bad[..bad.len().min(40)])
        );
        assert!(out[0].starts_with("info string error: "), "{out:?}");
        assert!(out[0].len() < 400);
    }
    assert_eq!(e.board(), board);

    // During a search: position, setoption, go, ucinewgame are refused; the search goes on.
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth 2"));
    for cmd in [
        "position startpos",
        "setoption name Hash value 8",
        "go depth 3",
        "ucinewgame",
    ] {
        e.send(cmd);
        let out = e.sync();
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(errors.len(), 1, "{cmd}: {out:?}");
    }
    e.send("stop");
    e.bestmove();
    assert_eq!(e.board(), board);
}

#[test]
fn random_lines_never_break_the_engine() {
    let words = [
        "uci",
        "go",
        "position",
        "startpos",
        "moves",
        "fen",
        "board",
        "depth",
        "setoption",
        "name",
        "value",
        "Hash",
        "f5",
        "pass",
        "0000",
        "-1",
        "99999999999999999999",
        "query",
        "result",
        "eval",
        "d",
        "perft",
        "x",
        "o",
        "8/8/8/3ox3/3xo3/8/8/8",
        "MultiPV",
        "wld",
        "\u{e9}",
    ];
    let mut state = 0x0123_4567_89AB_CDEF_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut e = Engine::start();
    e.send("position startpos");
    for _ in 0..300 {
        let n = (next() % 6) as usize;
        let line: Vec<&str> = (0..n)
            .map(|_| words[(next() % words.len() as u64) as usize])
            .filter(|w| !matches!(*w, "go" | "perft" | "quit"))
            .collect();
        e.send(&line.join(" "));
    }
    e.sync();
    e.send("position startpos");
    e.send("go depth 3");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
}

#[test]
fn eof_ends_cleanly_after_answering() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 4");
    drop(e.stdin.take());
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn stop_ends_a_deep_search_within_a_second() {
    // `stop` is answered at once: the search polls its flag every few thousand nodes. A second
    // is hundreds of times the usual latency (docs/benchmarks.md measures it), so only a search
    // that ignores the flag until its iteration ends, which takes many seconds at this depth,
    // trips it; a loaded machine does not.
    let mut e = Engine::start();
    e.send("position startpos moves f5 d6 c3 d3 c4 f4");
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth 12"));
    let t = Instant::now();
    e.send("stop");
    let (_, mv) = e.bestmove();
    let latency = t.elapsed();
    assert!(!mv.is_empty());
    assert!(
        latency < std::time::Duration::from_secs(1),
        "stop took {latency:?}"
    );
}

#[test]
fn pattern_eval_files_load_and_corrupt_ones_are_refused() {
    use wedge::eval::pattern::PatternWeights;
    let dir = std::env::temp_dir().join(format!("wedge-pattern-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut w = PatternWeights::zero();
    let bias = w.phases[5].len() - 1;
    w.phases[5][bias] = 64; // +2 discs for the side to move at 50-59 empties
    let good = dir.join("p.bin");
    std::fs::write(&good, w.to_bytes()).unwrap();
    let mut bytes = w.to_bytes();
    bytes.truncate(bytes.len() - 2);
    let bad = dir.join("cut.bin");
    std::fs::write(&bad, &bytes).unwrap();

    let mut e = Engine::start();
    e.send("position startpos");
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    let err = e.until(|_| true);
    assert!(
        err[0].contains("cut.bin") && err[0].contains("truncated"),
        "{err:?}"
    );
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.send("eval");
    let lines = e.until(|l| l.starts_with("total"));
    assert!(
        lines.iter().any(|l| l.starts_with("patterns (trained)")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().contains("+2.00"), "{lines:?}");
    // Back to the built-in (trained) evaluation.
    e.send("setoption name EvalFile value <empty>");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("total"));
    assert!(lines.iter().any(|l| l.starts_with("patterns (trained)")));
    assert!(!lines.last().unwrap().contains("+2.00"), "{lines:?}");
    // Every named weight adjusts the trained evaluation, which stays in use.
    e.send("position startpos moves f5 d6 c3 d3 c4");
    e.send("setoption name MobilityMid value 170");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("total"));
    assert!(lines.iter().any(|l| l.starts_with("patterns (trained)")));
    assert!(
        lines.iter().any(|l| l.starts_with("adjust mobility")),
        "{lines:?}"
    );
    e.send("setoption name CornerMid value 600");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("total"));
    assert!(lines.iter().any(|l| l.starts_with("patterns (trained)")));
    assert!(
        lines.iter().any(|l| l.starts_with("adjust edges")),
        "{lines:?}"
    );
    // The hand evaluation is chosen explicitly, and the choice is checked.
    e.send("setoption name Evaluation value handmade");
    let err = e.until(|_| true);
    assert!(err[0].contains("trained or hand"), "{err:?}");
    e.send("setoption name Evaluation value hand");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("total"));
    assert!(lines.iter().any(|l| l.starts_with("mobility")), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("patterns")),
        "{lines:?}"
    );
    // An empty EvalFile restores the whole default evaluation, the trained one included.
    e.send("setoption name EvalFile value");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("total"));
    assert!(
        lines.iter().any(|l| l.starts_with("patterns (trained)")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("adjust")), "{lines:?}");
}

/// The node count of `bench 6` in engine `e`.
fn bench_nodes(e: &mut Engine) -> u64 {
    e.send("bench 6");
    let lines = e.until(|l| l.contains(" nodes "));
    let last = lines.last().unwrap();
    last.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn mpc_file_sets_the_cuts_and_bad_files_name_the_line() {
    let dir = std::env::temp_dir().join(format!("wedge-mpc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let built_in = include_str!("../src/search/midgame/mpc.txt");
    let same = dir.join("same.txt");
    std::fs::write(&same, built_in).unwrap();
    // One wide deviation everywhere: fewer cuts, more nodes.
    let wide = "model 3000 0 0 0\n";
    let wide_file = dir.join("wide.txt");
    std::fs::write(&wide_file, wide).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "# a table\nmodel 300 -5 20 -30\nrow 12 19 3 1 0.9 x 300 241\n",
    )
    .unwrap();

    let mut e = Engine::start();
    let built_in_nodes = bench_nodes(&mut e);
    e.send(&format!("setoption name MpcFile value {}", same.display()));
    assert_eq!(bench_nodes(&mut e), built_in_nodes);
    e.send(&format!(
        "setoption name MpcFile value {}",
        wide_file.display()
    ));
    let wide_nodes = bench_nodes(&mut e);
    assert!(wide_nodes > built_in_nodes, "{wide_nodes} {built_in_nodes}");
    // A bad file is refused with its line, and the table in use stays.
    e.send(&format!("setoption name MpcFile value {}", bad.display()));
    let err = e.until(|_| true);
    assert!(
        err[0].starts_with("info string error: MpcFile: ") && err[0].contains("bad.txt:3"),
        "{err:?}"
    );
    assert_eq!(bench_nodes(&mut e), wide_nodes);
    // Empty: the built-in table again.
    e.send("setoption name MpcFile value");
    assert_eq!(bench_nodes(&mut e), built_in_nodes);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn setting_every_option_to_its_default_changes_nothing() {
    let mut fresh = Engine::start();
    let expected = bench_nodes(&mut fresh);
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    let mut set = 0;
    for line in &lines {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let Some((name, kind)) = rest.split_once(" type ") else {
            continue;
        };
        let Some(default) = kind.split(" default ").nth(1) else {
            continue; // a button
        };
        let default = default.split(" min ").next().unwrap();
        let default = default.split(" var ").next().unwrap();
        e.send(&format!("setoption name {name} value {default}"));
        set += 1;
    }
    assert!(set > 30, "only {set} options set");
    assert_eq!(
        e.sync(),
        Vec::<String>::new(),
        "an option refused its default"
    );
    assert_eq!(bench_nodes(&mut e), expected);
    // A real change does change the search (the test can fail).
    e.send("setoption name XSquareMid value -900");
    assert_ne!(bench_nodes(&mut e), expected);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    /// Any line is a command or an error: the parser never panics.
    #[test]
    fn the_parser_never_panics(line in "\\PC{0,200}") {
        let _ = wedge::protocol::parser::parse_command(&line);
    }
}

/// Words the engine knows, and near misses, for lines that look like commands.
const WORDS: &[&str] = &[
    "position",
    "startpos",
    "moves",
    "board",
    "fen",
    "f5",
    "d6",
    "c3",
    "z9",
    "pass",
    "0000",
    "setoption",
    "name",
    "value",
    "Hash",
    "MultiPV",
    "8",
    "0",
    "-1",
    "x",
    "query",
    "result",
    "debug",
    "on",
    "d",
    "eval",
    "uci",
    "depth",
    "go",
    "perft",
    "99",
    "8/8/8",
    "X",
    "O",
    "---------------------------OX------XO---------------------------",
    "ucinewgame",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Through the binary: a batch of command-like lines; every line that gets an error line
    /// leaves the position exactly as it was, and the engine keeps serving.
    #[test]
    fn errors_keep_the_state(lines in proptest::collection::vec(
        (0..WORDS.len() - 3, proptest::collection::vec(0..WORDS.len(), 0..6)),
        1..12,
    )) {
        let mut e = Engine::start();
        e.send("position startpos moves f5 d6");
        for (first, rest) in lines {
            // Not a search or tool as the first word: those are tested elsewhere.
            if matches!(WORDS[first], "go" | "perft") {
                continue;
            }
            let line: Vec<&str> = std::iter::once(WORDS[first])
                .chain(rest.iter().map(|&i| WORDS[i]))
                .collect();
            let before = e.board();
            e.send(&line.join(" "));
            let out = e.sync();
            if out.iter().any(|l| l.starts_with("info string error")) {
                proptest::prop_assert_eq!(e.board(), before, "{:?}", line);
            }
        }
    }
}

/// The `eval` lines of `e` at a few positions.
fn evals(e: &mut Engine) -> Vec<String> {
    let mut all = Vec::new();
    for moves in [
        "f5 d6 c3 d3 c4",
        "f5 f6 e6 f4 e3 c5 c4 e7 c6 e2",
        "c4 c3 d3 c5 b4",
    ] {
        e.send(&format!("position startpos moves {moves}"));
        e.send("eval");
        all.extend(e.until(|l| l.starts_with("total")));
    }
    all
}

#[test]
fn a_dumped_evaluation_loads_back_the_same() {
    let dir = std::env::temp_dir().join(format!("wedge-dump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Patterns other than the built-in ones, and named weights on top.
    let mut p = (*wedge::eval::built_in_patterns().unwrap()).clone();
    let bias = p.phases[3].len() - 1;
    p.phases[3][bias] += 40;
    let patterns = dir.join("p.bin");
    std::fs::write(&patterns, p.to_bytes()).unwrap();
    let tuned = dir.join("tuned.txt");
    std::fs::write(&tuned, "MobilityMid 150\nCornerMid 700\nParityEnd 60\n").unwrap();
    let dumped_patterns = dir.join("p2.bin");
    let dump = |evaluation: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args(["weights", "dump", "--evaluation", evaluation, "--from"])
            .arg(&patterns)
            .arg("--from")
            .arg(&tuned)
            .arg("--patterns")
            .arg(&dumped_patterns)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let file = dir.join(format!("dumped-{evaluation}.txt"));
        std::fs::write(&file, &out.stdout).unwrap();
        file
    };
    let load = |files: &[&std::path::Path], hand: bool| {
        let mut e = Engine::start();
        for f in files {
            e.send(&format!("setoption name EvalFile value {}", f.display()));
        }
        if hand {
            e.send("setoption name Evaluation value hand");
        }
        assert_eq!(e.sync(), Vec::<String>::new());
        let lines = evals(&mut e);
        (lines, bench_nodes(&mut e))
    };
    let trained = dump("trained");
    assert_eq!(
        std::fs::read(&dumped_patterns).unwrap(),
        std::fs::read(&patterns).unwrap()
    );
    let original = load(&[&patterns, &tuned], false);
    assert!(original.0.iter().any(|l| l.starts_with("adjust parity")));
    assert_eq!(load(&[&dumped_patterns, &trained], false), original);
    assert_ne!(load(&[], false), original, "the test must see the changes");
    // The hand evaluation's dump says so, and loads as the hand evaluation.
    let hand = dump("hand");
    let original = load(&[&tuned], true);
    assert!(original.0.iter().any(|l| l.starts_with("mobility")));
    assert_eq!(load(&[&hand], false), original);
}

/// The moves of one game's searches from `ucinewgame` on: five positions of one line, each searched
/// to depth 2 with wide root noise.
fn noisy_game(e: &mut Engine) -> Vec<String> {
    e.send("ucinewgame");
    let line = ["f5", "d6", "c3", "d3", "c4"];
    (0..line.len())
        .map(|k| {
            e.send(&format!("position startpos moves {}", line[..k].join(" ")));
            e.send("go depth 2");
            e.bestmove().1
        })
        .collect()
}

#[test]
fn setting_the_seed_restarts_the_noise() {
    // What the match runner relies on to replay each game: `Seed` set before a game restarts the
    // noise, whatever the process drew before; without it the noise runs on.
    let mut e = Engine::start();
    e.send("setoption name Randomness value 2000");
    e.send("setoption name Seed value 7");
    let first = noisy_game(&mut e);
    let runs_on = noisy_game(&mut e);
    e.send("setoption name Seed value 7");
    assert_eq!(noisy_game(&mut e), first);
    assert_ne!(runs_on, first, "the noise runs on from game to game");
}

/// `searchmoves` asks for a search, even when none of its moves is legal: the book does not answer
/// it, nor the search that `ponderhit` starts after pondering.
#[test]
fn searchmoves_of_no_legal_move_is_searched_after_ponderhit_too() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("position startpos");
    e.send("go ponder btime 2000 wtime 2000 searchmoves a1");
    e.until(|l| l.starts_with("info depth"));
    e.send("ponderhit");
    let (lines, mv) = e.bestmove();
    assert!(
        !lines.iter().any(|l| l.contains("book move")),
        "the book answered: {lines:?}"
    );
    assert!(["d3", "c4", "f5", "e6"].contains(&mv.as_str()), "{mv}");
}
