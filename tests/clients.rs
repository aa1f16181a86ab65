//! What real clients (GUIs, match runners, scripts) rely on, through the binary over pipes: `readyok`
//! only once earlier commands have taken effect, memory that is not there reported as an error,
//! pondering, `searchmoves`, one UCI score per `info` line, progress lines during long iterations,
//! `perft` and `bench` that `stop` and `quit` interrupt, the end of input and a closed output, a
//! byte-order mark, and positions with more than 32 legal moves. Timeouts only fail a hung test.

mod common;

use common::{legal_in, Engine, TIMEOUT};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Instant;
use wedge::board::Position;

const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
/// A legal setup with 34 legal moves for black.
const MANY_MOVES: &str = "------X--O-OOXO--OXXXXO--OX-O----XX-O-X--OXXXXO---O-OXO--------- X";

#[test]
fn readyok_comes_after_the_hash_resize_and_a_failed_one_keeps_the_table() {
    let mut e = Engine::start();
    e.send("debug on");
    e.send("setoption name Hash value 16");
    let before = e.sync();
    assert!(
        before
            .iter()
            .any(|l| l == "info string Hash: 16 MB asked, a 16 MB search table in use"),
        "{before:?}"
    );
    // More memory than any machine has: one error line before readyok, and the engine plays on.
    e.send("setoption name Hash value 1048576");
    let before = e.sync();
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(
        before[0].starts_with("info string error: Hash ")
            && before[0].contains(": cannot allocate")
            && before[0].contains("16 MB table in use is kept"),
        "{before:?}"
    );
    // A size that is not a power of two: the error says what the tables would take (both are
    // checked together first: 524288 MB and a quarter of that).
    e.send("setoption name Hash value 1000000");
    let before = e.sync();
    assert!(
        before.len() == 1
            && before[0].starts_with("info string error: Hash 1000000: cannot allocate 655360 MB")
            && before[0].contains("largest power of two"),
        "{before:?}"
    );
    // A size that is not a power of two says what the table really takes.
    e.send("setoption name Hash value 100");
    let before = e.sync();
    assert!(
        before
            .iter()
            .any(|l| l == "info string Hash: 100 MB asked, a 64 MB search table in use"),
        "{before:?}"
    );
    // With debug on a search tells its plan in words (the book would answer instead).
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5");
    e.send("go movetime 100");
    let (lines, _) = e.bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string plan: depth ")
                && l.contains(", stop at ")
                && !l.contains("Some(")),
        "{lines:#?}"
    );
    // A move time with a longer clock share is spent in full (no soft limit); a shorter share
    // of a short clock stays the soft limit.
    let plan = |e: &mut Engine, go: &str| {
        e.send(go);
        let (lines, _) = e.bestmove();
        let plan = lines.iter().find(|l| l.starts_with("info string plan: "));
        plan.cloned().unwrap_or_default()
    };
    let long = plan(&mut e, "go movetime 200 wtime 100000 btime 100000");
    assert!(long.contains("no soft limit, stop at "), "{long}");
    let short = plan(&mut e, "go movetime 200 wtime 900 btime 900");
    assert!(short.contains(", soft limit "), "{short}");
    e.send("position startpos");
    e.send("go depth 4");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
    // Commands sent right after isready are applied after readyok, in order.
    e.send("isready\nuci");
    let lines = e.until(|l| l == "uciok");
    assert_eq!(lines[0], "readyok", "{lines:?}");
}

/// The `bestmove` line as tokens.
fn bestmove_tokens(e: &mut Engine) -> (Vec<String>, Vec<String>) {
    let lines = e.until(|l| l.starts_with("bestmove"));
    let tokens = lines
        .last()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    (lines, tokens)
}

#[test]
fn pondering_as_uci_defines_it() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("setoption name OwnBook value false");
    // The GUI ponders on the expected reply: nothing is answered until ponderhit.
    e.send("position startpos moves f5 d6");
    e.send("go ponder movetime 300");
    std::thread::sleep(std::time::Duration::from_millis(400));
    let so_far = e.sync();
    assert!(
        so_far.iter().all(|l| !l.starts_with("bestmove")),
        "{so_far:?}"
    );
    e.send("ponderhit");
    let (_, tokens) = bestmove_tokens(&mut e);
    let pos = "f5d6"
        .parse::<wedge::board::text::Game>()
        .unwrap()
        .position();
    assert!(legal_in(&pos, &tokens[1]), "{tokens:?}");
    // With Ponder on, the expected reply follows: legal after the move.
    assert_eq!(tokens.len(), 4, "{tokens:?}");
    assert_eq!(tokens[2], "ponder");
    let after = pos.play(tokens[1].parse().unwrap()).unwrap();
    assert!(legal_in(&after, &tokens[3]), "{tokens:?}");

    // `stop` during pondering answers at once.
    e.send("go ponder wtime 10000 btime 10000");
    e.send("stop");
    let (_, tokens) = bestmove_tokens(&mut e);
    assert!(legal_in(&pos, &tokens[1]), "{tokens:?}");

    // A book move names the book line's reply too.
    e.send("setoption name OwnBook value true");
    e.send("position startpos");
    e.send("go movetime 200");
    let (lines, tokens) = bestmove_tokens(&mut e);
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
    assert_eq!(tokens.len(), 4, "{tokens:?}");
    assert_eq!(tokens[2], "ponder");
    let after = Position::START.play(tokens[1].parse().unwrap()).unwrap();
    assert!(legal_in(&after, &tokens[3]), "{tokens:?}");
    e.send("setoption name OwnBook value false");

    // Off by default: bestmove alone.
    e.send("setoption name Ponder value false");
    e.send("go depth 3");
    let (_, tokens) = bestmove_tokens(&mut e);
    assert_eq!(tokens.len(), 2, "{tokens:?}");
}

#[test]
fn the_handshake_waits_for_the_search_to_end() {
    // `ugi` during a search would switch the notation of the `bestmove` the search owes.
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go infinite");
    e.send("ugi");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: a search is running")),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| l != "ugiok" && l != "uciok"),
        "{lines:?}"
    );
    e.send("stop");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv), "{mv}");
    e.send("ugi");
    let lines = e.until(|l| l == "ugiok");
    assert!(lines.iter().any(|l| l.starts_with("id name")), "{lines:?}");
}

#[test]
fn searchmoves_and_mate_restrict_and_solve() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 5 searchmoves c4 e6");
    let (_, mv) = e.bestmove();
    assert!(mv == "c4" || mv == "e6", "{mv}");
    // FFO #1: g8 wins by 18; restricted to another move, the solve proves that move's score.
    let ffo1: Position = FFO1.parse().unwrap();
    let other = ffo1
        .legal_move_list()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| m != "g8")
        .unwrap();
    e.send(&format!("position board {FFO1}"));
    e.send(&format!("go exact searchmoves {other}"));
    let (lines, mv) = e.bestmove();
    assert_eq!(mv, other);
    let exact = lines.iter().find(|l| l.contains(" exact ")).unwrap();
    assert!(!exact.contains(" exact +18 "), "{exact}");
    e.send("go exact searchmoves g8");
    let (lines, mv) = e.bestmove();
    assert_eq!(mv, "g8");
    assert!(lines.iter().any(|l| l.contains(" exact +18 ")), "{lines:?}");
    // Othello has no mate: `go mate` proves the win.
    e.send("go mate 5");
    let (lines, mv) = e.bestmove();
    assert!(legal_in(&ffo1, &mv), "{mv}");
    assert!(lines.iter().any(|l| l.contains(" wld win ")), "{lines:?}");
    // Beyond 16 empties a restricted or multi-line solve starts with the quick midgame search,
    // as a plain solve does: its lines come first, and a solve cut short plays its move.
    let far = "XXXXXXXXXOOOOOOXXOXXXXOXXOXOOXOXXOOOOOOX------------------------ X";
    let far_pos: Position = far.parse().unwrap();
    let two: Vec<String> = far_pos
        .legal_move_list()
        .into_iter()
        .take(2)
        .map(|m| m.to_string())
        .collect();
    e.send(&format!("position board {far}"));
    e.send(&format!(
        "go exact searchmoves {} {} movetime 60",
        two[0], two[1]
    ));
    let (lines, mv) = e.bestmove();
    assert!(two.contains(&mv), "{mv} not in {two:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" depth ") && l.contains(" pv ")),
        "{lines:?}"
    );
    e.send("setoption name MultiPV value 2");
    e.send("go wld movetime 60");
    let (lines, mv) = e.bestmove();
    assert!(legal_in(&far_pos, &mv), "{mv}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" multipv 2 ") && l.contains(" pv ")),
        "{lines:?}"
    );
    e.send("setoption name MultiPV value 1");
    // No listed move is legal: an error, then all moves are searched.
    e.send("position startpos");
    e.send("go depth 2 searchmoves a1");
    let (lines, mv) = e.bestmove();
    assert!(lines[0].starts_with("info string error: go: searchmoves"));
    assert!(legal_in(&Position::START, &mv));
}

#[test]
fn long_iterations_report_progress_once_a_second() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go infinite");
    let lines = e.until(|l| l.contains(" currmove "));
    let progress = lines.last().unwrap();
    let tokens: Vec<&str> = progress.split_whitespace().collect();
    for key in ["currmove", "currmovenumber", "nodes", "time"] {
        assert!(tokens.contains(&key), "{progress}");
    }
    assert!(!progress.contains(" score "), "{progress}");
    e.send("stop");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
}

#[test]
fn perft_and_bench_answer_stop_isready_and_quit() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("perft 20");
    // isready during the count is answered at once; stop ends it.
    let during = e.sync();
    assert!(during.iter().all(|l| !l.starts_with("perft")), "{during:?}");
    e.send("stop");
    e.until(|l| l == "info string perft 20 stopped");
    e.send("perft 5");
    let lines = e.until(|l| l.starts_with("perft 5:"));
    assert!(lines.last().unwrap().starts_with("perft 5: 1396 leaves"));
    e.send("bench 40");
    e.send("stop");
    let lines = e.until(|l| l.contains(" nodes "));
    assert!(lines.last().unwrap().contains("stopped"), "{lines:?}");
    e.send("perft 20");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn the_engine_and_the_command_line_count_perft_alike() {
    // A forced pass and a finished game as well as an ordinary position: the engine's count and
    // `wedge perft` (with and without --divide) agree.
    let finished = format!("{}O X", "X".repeat(63));
    // White to move has no square; black can play a1.
    let pass = format!("-OXXXXXX{} O", "-".repeat(56));
    let mut e = Engine::start();
    for board in [Position::START.to_string(), pass, finished] {
        e.send(&format!("position board {board}"));
        e.send("perft 3");
        let engine = e.until(|l| l.starts_with("perft 3:")).pop().unwrap();
        let engine = engine.split(',').next().unwrap().to_string();
        for divide in [false, true] {
            let mut args = vec!["perft", "3", "--board", &board];
            if divide {
                args.push("--divide");
            }
            let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
                .args(&args)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            let cli = text.lines().find(|l| l.starts_with("perft 3:")).unwrap();
            assert_eq!(
                cli.split(',').next().unwrap(),
                engine,
                "{board} {divide}: {text}"
            );
        }
    }
}

#[test]
fn end_of_input_ends_a_long_search_with_its_move() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 60");
    e.stdin = None; // the GUI is gone
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv));
    assert_eq!(e.wait_exit(), 0);
}

/// Runs `wedge args`, sends `opener` and reads a first answer, closes the engine's output and
/// sends `later` (which asks for more output): the engine must end, with status 0.
fn ends_when_its_output_closes(args: &[&str], opener: &[u8], later: &[u8]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    use std::io::Write;
    stdin.write_all(opener).unwrap();
    stdin.flush().unwrap();
    let mut first = [0u8; 8];
    let mut out = child.stdout.take().unwrap();
    out.read_exact(&mut first).unwrap();
    drop(out); // the GUI closed its end; the engine's input stays open
    let deadline = Instant::now() + TIMEOUT;
    loop {
        // Ignored once the engine has gone: its input is closed then.
        let _ = stdin.write_all(later).and_then(|()| stdin.flush());
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{args:?}: {status:?}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{args:?}: the engine kept running"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_closed_output_ends_the_engine() {
    ends_when_its_output_closes(&[], b"position startpos\ngo infinite\n", b"isready\n");
    ends_when_its_output_closes(
        &["--protocol", "nboard"],
        b"nboard 2\nping 1\n",
        b"ping 2\n",
    );
    ends_when_its_output_closes(&["--protocol", "gtp"], b"name\n", b"name\n");
}

#[test]
fn a_byte_order_mark_before_the_first_command_is_ignored() {
    let mut e = Engine::start();
    e.send_bytes("\u{feff}uci\n".as_bytes());
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name wedge"), "{lines:?}");
}

#[test]
fn a_line_of_only_a_byte_order_mark_does_not_choose_the_protocol() {
    let mut e = Engine::start();
    e.send_bytes("\u{feff}\nnboard 2\nping 1\n".as_bytes());
    let lines = e.until(|l| l == "pong 1");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
}

#[test]
fn multipv_ranks_all_34_moves() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 64");
    e.send(&format!("position board {MANY_MOVES}"));
    e.send("go depth 2");
    let (lines, mv) = e.bestmove();
    let pos: Position = MANY_MOVES.parse().unwrap();
    assert!(legal_in(&pos, &mv));
    let mut firsts: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("info multipv ") && l.contains(" depth 2 "))
        .filter_map(|l| l.split(" pv ").nth(1))
        .filter_map(|pv| pv.split_whitespace().next())
        .collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 34, "{lines:#?}");
    // The solver's move lists take all 34 too: a bounded solve answers a legal move.
    e.send("setoption name MultiPV value 1");
    for kind in ["exact", "wld"] {
        e.send(&format!("go {kind} nodes 300000"));
        let (_, mv) = e.bestmove();
        assert!(legal_in(&pos, &mv), "{kind}: {mv}");
    }
}

#[test]
fn files_that_are_not_regular_or_are_empty_are_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("wedge-clients-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let mut e = Engine::start();
    for (option, file) in [
        ("BookFile", fifo.to_str().unwrap()),
        ("EvalFile", fifo.to_str().unwrap()),
        ("BookFile", "/dev/zero"),
        ("EvalFile", "/dev/zero"),
        ("EvalFile", "/dev/stdin"),
        ("EvalFile", "/dev/null"),
        ("EvalFile", empty.to_str().unwrap()),
    ] {
        e.send(&format!("setoption name {option} value {file}"));
        let out = e.sync();
        assert_eq!(out.len(), 1, "{option} {file}: {out:?}");
        assert!(
            out[0].starts_with(&format!("info string error: {option}: ")) && out[0].contains(file),
            "{out:?}"
        );
    }
    // The engine still plays with its own book and evaluation.
    e.send("setoption name OwnBook value true");
    e.send("position startpos");
    e.send("go movetime 50");
    let (lines, mv) = e.bestmove();
    assert!(lines.iter().any(|l| l.starts_with("info string book move")));
    assert!(legal_in(&Position::START, &mv));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The engine's resident memory (Linux), in kB.
#[cfg(target_os = "linux")]
fn rss_kb(e: &Engine) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Helper threads' memory goes back to the system when `Threads` goes down (glibc would keep
/// their arenas' free pages otherwise: about 90% of what 64 helpers added stayed).
#[cfg(target_os = "linux")]
#[test]
fn fewer_threads_give_their_memory_back() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("isready");
    e.until(|l| l == "readyok");
    let base = rss_kb(&e);
    e.send("setoption name Threads value 64");
    e.send("position board O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X");
    e.send("go exact movetime 3000");
    e.bestmove();
    let peak = rss_kb(&e);
    e.send("setoption name Threads value 1");
    e.sync();
    let after = rss_kb(&e);
    assert!(
        peak > base + 8_000,
        "64 helpers added only {} kB",
        peak - base
    );
    assert!(
        (after - base) * 4 < (peak - base) * 3,
        "base {base} kB, with 64 threads {peak} kB, back to 1 thread {after} kB"
    );
}

#[test]
fn a_go_during_perft_waits_for_it_and_stop_ends_both() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("perft 20");
    e.send("go depth 60");
    // `perft 20` would run for days, `go depth 60` long: the stop ends the first at once and the
    // second as it starts.
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let stopped = lines
        .iter()
        .position(|l| l == "info string perft 20 stopped");
    assert!(stopped.is_some(), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(legal_in(&Position::START, mv), "{lines:?}");
}

#[test]
fn a_script_need_not_wait_for_bestmove() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 6");
    e.send("position startpos moves f5");
    e.send("go depth 2");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let first = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
    let mv = first.split_whitespace().nth(1).unwrap();
    assert!(legal_in(&Position::START, mv), "{lines:?}");
    // The second search is of the position sent after the first `go`.
    let (_, mv) = e.bestmove();
    let after = "f5".parse::<wedge::board::text::Game>().unwrap().position();
    assert!(legal_in(&after, &mv), "{mv}");
}

/// Several pairs sent at once apply in order, each `go` to the position before it, and each gets
/// its `bestmove`, with the end of the input right behind them.
#[test]
fn waiting_lines_apply_in_order_and_each_go_answers() {
    let lines = ["f5", "f5 d6", "f5 d6 c3", "f5 d6 c3 d3", "f5 d6 c3 d3 c4"];
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 5");
    for moves in lines {
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 3");
    }
    e.send("go depth x");
    e.stdin = None;
    let (_, first) = e.bestmove();
    assert!(legal_in(&Position::START, &first), "{first}");
    for moves in lines {
        let (_, mv) = e.bestmove();
        let pos = moves
            .parse::<wedge::board::text::Game>()
            .unwrap()
            .position();
        assert!(legal_in(&pos, &mv), "{moves}: {mv}");
    }
    // The unreadable `go` waits its turn too, and answers "no move".
    let rest = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(rest.last().map(String::as_str), Some("bestmove none"));
    assert!(
        rest.iter().any(|l| l.contains("'depth' needs a number")),
        "{rest:?}"
    );
    assert_eq!(e.wait_exit(), 0);
}

/// After `ponderhit` the restarted search has the `go ponder` limits: lines sent behind it wait
/// for its answer and apply in order.
#[test]
fn lines_after_ponderhit_wait_for_the_search() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go ponder depth 4");
    e.send("ponderhit");
    e.send("position startpos moves f5");
    e.send("go depth 2");
    let (_, first) = e.bestmove();
    assert!(legal_in(&Position::START, &first), "{first}");
    let (_, second) = e.bestmove();
    let after = "f5".parse::<wedge::board::text::Game>().unwrap().position();
    assert!(legal_in(&after, &second), "{second}");
}

/// `quit` behind waiting lines stops what runs at once, and the lines still apply before the exit.
#[test]
fn quit_behind_waiting_lines_ends_a_long_search() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go depth 3");
    e.send("position startpos");
    e.send("go depth 60");
    e.send("position startpos moves f5");
    e.send("quit");
    // Without the early stop `go depth 60` would run for hours and the test time out.
    let (_, first) = e.bestmove();
    let (_, second) = e.bestmove();
    assert!(legal_in(&Position::START, &first), "{first}");
    assert!(legal_in(&Position::START, &second), "{second}");
    assert_eq!(e.wait_exit(), 0);
}

/// A plain `go` searches until `stop`: a `position` during it is refused, not held.
#[test]
fn a_go_without_a_limit_still_refuses_a_position() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go");
    e.send("position startpos moves f5");
    let lines = e.until(|l| l.starts_with("info string error"));
    assert!(
        lines.last().unwrap().contains("a search is running"),
        "{lines:?}"
    );
    e.send("stop");
    let (_, mv) = e.bestmove();
    assert!(legal_in(&Position::START, &mv), "{mv}");
}

#[test]
fn end_of_input_after_ponderhit_still_answers_and_exits() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5");
    e.send("go ponder infinite");
    e.send("ponderhit");
    e.stdin = None;
    let (_, mv) = e.bestmove();
    let pos = "f5".parse::<wedge::board::text::Game>().unwrap().position();
    assert!(legal_in(&pos, &mv));
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn a_node_limit_ends_a_solve_with_helper_threads_honestly() {
    // FFO #40: a2 wins by 38. A solve cut by its node limit must not claim a proven score.
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let mut e = Engine::start();
    e.send("setoption name Threads value 4");
    e.send(&format!("position board {ffo40}"));
    for nodes in [20_000, 200_000, 2_000_000] {
        e.send(&format!("go exact nodes {nodes}"));
        let (lines, mv) = e.bestmove();
        assert!(legal_in(&ffo40.parse().unwrap(), &mv), "{mv}");
        for l in lines.iter().filter(|l| l.contains(" exact ")) {
            assert!(l.contains(" exact +38 "), "a wrong proof: {l}");
        }
    }
}

#[test]
fn info_lines_say_how_selective_the_search_is() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves f5 d6 c3 d3 c4");
    e.send("go depth 6");
    let (lines, mv) = e.bestmove();
    assert!(legal_in(
        &"f5d6c3d3c4"
            .parse::<wedge::board::text::Game>()
            .unwrap()
            .position(),
        &mv
    ));
    let depth_lines: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(depth_lines.len() >= 6, "{depth_lines:?}");
    // Probable cuts start below the root from depth 4: shallower iterations are full width.
    for l in &depth_lines {
        let depth: u32 = l.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert_eq!(l.contains(" selectivity 73 pv "), depth >= 4, "{l}");
    }
    // Full width: no selectivity field; a value between levels takes the next level.
    e.send("setoption name Selectivity value 100");
    e.send("go depth 6");
    let (lines, _) = e.bestmove();
    assert!(
        lines.iter().all(|l| !l.contains("selectivity")),
        "{lines:?}"
    );
    e.send("setoption name Selectivity value 90");
    e.send("go depth 6");
    let (lines, _) = e.bestmove();
    assert!(
        lines.iter().any(|l| l.contains(" selectivity 95 pv ")),
        "{lines:?}"
    );
    e.send("setoption name Selectivity value 50");
    let out = e.sync();
    assert!(
        out.iter()
            .any(|l| l.contains("'Selectivity' must be 73..100")),
        "{out:?}"
    );
}
