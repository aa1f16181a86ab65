//! `wedge play` through a pipe, as a script (or a person) uses it: a whole game against the engine,
//! undo and redo, hints, save and load, editing the board, errors that keep the game, and the game
//! saved on exit and resumed.

mod common;

use common::Engine;

/// A game with a fast engine, saving to `autosave`.
fn play(extra: &[&str], autosave: &std::path::Path) -> Engine {
    let path = autosave.to_str().unwrap();
    let mut args = vec!["play", "--time", "0.05", "--autosave", path];
    args.extend_from_slice(extra);
    Engine::start_with(&args)
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Lines up to the next prompt for the human (`... to move; legal: ...`) or the end of the game.
fn to_prompt(e: &mut Engine) -> Vec<String> {
    e.until(|l| l.contains("to move; legal:") || l.starts_with("Game over"))
}

fn legal(prompt: &str) -> Vec<String> {
    prompt
        .split("legal: ")
        .nth(1)
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The moves list of the last status line.
fn moves(lines: &[String]) -> String {
    let status = lines
        .iter()
        .rev()
        .find(|l| l.contains("moves: "))
        .expect("a status line");
    let rest = status.split("moves: ").nth(1).unwrap();
    rest.split("   ").next().unwrap().to_string()
}

#[test]
fn a_whole_game_against_the_engine_ends_with_a_result() {
    let save = temp("whole.ggf");
    let mut e = play(&["--level", "3"], &save);
    let mut lines = to_prompt(&mut e);
    let mut engine_moves = 0;
    let draw;
    loop {
        engine_moves += lines
            .iter()
            .filter(|l| l.starts_with("wedge (O) plays"))
            .count();
        let last = lines.last().unwrap().clone();
        if last.starts_with("Game over") {
            assert!(
                last.contains("wins by") || last.contains("a draw"),
                "{last}"
            );
            draw = last.contains("a draw");
            break;
        }
        // The human plays the last legal move (not the engine's choice) every turn.
        let mv = legal(&last).pop().expect("a legal move");
        e.send(&mv);
        lines = to_prompt(&mut e);
    }
    assert!(engine_moves >= 20, "the engine played {engine_moves} moves");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    // The finished game was saved with its result.
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.starts_with("(;GM[Othello]"), "{saved}");
    assert_eq!(saved.contains("RE[+0.000]"), draw, "{saved}");
}

#[test]
fn undo_redo_hint_and_errors_keep_the_game() {
    // With the book (the default) the engine answers f5 from it; without, it searches.
    let save = temp("undo-book.ggf");
    let mut e = play(&[], &save);
    to_prompt(&mut e);
    e.send("f5");
    let after = to_prompt(&mut e);
    assert!(
        after
            .iter()
            .any(|l| l.contains("from its book (evaluation") && l.contains("% to win")),
        "{after:?}"
    );
    e.send("quit");
    let save = temp("undo.ggf");
    let mut e = play(&["--no-book"], &save);
    let first = to_prompt(&mut e);
    assert!(
        first.last().unwrap().contains("legal: d3 c4 f5 e6"),
        "{first:?}"
    );
    e.send("f5");
    let after = to_prompt(&mut e);
    let reply = after
        .iter()
        .find(|l| l.starts_with("wedge (O) plays"))
        .expect("the engine replies");
    assert!(
        reply.contains("% to win") || reply.contains("proven"),
        "{reply}"
    );
    let two = moves(&after);
    assert_eq!(two.split_whitespace().count(), 2, "{two}");
    // Errors say what is wrong and change nothing.
    for (bad, message) in [
        ("g9", "error: g9: there is no row 9"),
        ("a1", "error: a1: not a legal move here; legal:"),
        ("level 12", "error: level must be 1..10, got '12'"),
        ("fly", "error: unknown command 'fly'"),
        (
            "load /nonexistent/game.ggf",
            "error: cannot load /nonexistent/game.ggf",
        ),
    ] {
        e.send(bad);
        let got = e.until(|l| l.starts_with("error:"));
        assert!(got.last().unwrap().starts_with(message), "{bad}: {got:?}");
    }
    e.send("board");
    assert_eq!(moves(&to_prompt(&mut e)), two);
    // Undo goes back to the human's turn before their move; redo replays.
    e.send("undo");
    let back = to_prompt(&mut e);
    assert!(
        back.iter().any(|l| l.starts_with("Took back 2 move")),
        "{back:?}"
    );
    assert_eq!(moves(&back), "(none)");
    e.send("redo 2");
    assert_eq!(moves(&to_prompt(&mut e)), two);
    // A bare redo replays what a bare undo took back: forward to the human's turn.
    e.send("undo");
    assert_eq!(moves(&to_prompt(&mut e)), "(none)");
    e.send("redo");
    let again = to_prompt(&mut e);
    assert!(
        again.iter().any(|l| l.starts_with("Replayed 2 move")),
        "{again:?}"
    );
    assert_eq!(moves(&again), two);
    // A hint names the best moves with scores.
    e.send("hint 2");
    let hint = e.until(|l| l.starts_with("Hint"));
    let text = hint.last().unwrap();
    assert_eq!(text.matches(',').count(), 1, "two moves: {text}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn save_load_edit_and_resume() {
    let save = temp("resume.ggf");
    let record = temp("saved.ggf");
    let mut e = play(&["--level", "2"], &save);
    to_prompt(&mut e);
    e.send("f5");
    let lines = to_prompt(&mut e);
    let played = moves(&lines);
    e.send(&format!("save {}", record.display()));
    e.until(|l| l.starts_with("Saved to"));
    // A FIFO (nothing reads it) is refused at once rather than blocking the game.
    let fifo = temp("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    e.send(&format!("save {}", fifo.display()));
    let refused = e.until(|l| l.starts_with("error") || l.starts_with("Saved to"));
    assert!(
        refused.last().unwrap().contains("not a regular file"),
        "{refused:?}"
    );
    // A file of something else is not replaced; a saved game is.
    let notes = temp("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    e.send(&format!("save {}", notes.display()));
    let refused = e.until(|l| l.starts_with("error") || l.starts_with("Saved to"));
    assert!(
        refused.last().unwrap().contains("saving would replace it"),
        "{refused:?}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    e.send(&format!("save {}", record.display()));
    e.until(|l| l.starts_with("Saved to"));
    e.send("new");
    assert_eq!(moves(&to_prompt(&mut e)), "(none)");
    e.send(&format!("load {}", record.display()));
    assert_eq!(moves(&to_prompt(&mut e)), played);
    // A transcript loads too.
    let transcript = temp("line.txt");
    std::fs::write(&transcript, "f5d6c3d3c4\n").unwrap();
    e.send(&format!("load {}", transcript.display()));
    let lines = to_prompt(&mut e);
    // White is the engine: after the loaded black move c4 it replies at once.
    assert!(moves(&lines).starts_with("f5 d6 c3 d3 c4"), "{lines:?}");
    // Editing: a black disc on a1, then the game starts from there.
    e.send("edit black a1");
    let lines = to_prompt(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("1 [") || l.starts_with("1  X")),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.contains("starts from this position")));
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    // The game was saved on exit and resumes where it was.
    let mut again = play(&["--level", "2", "--resume"], &save);
    let lines = to_prompt(&mut again);
    let first_board = lines.iter().find(|l| l.starts_with("1 ")).unwrap();
    assert!(first_board.starts_with("1  X"), "{lines:?}");
    again.send("quit");
    assert_eq!(again.wait_exit(), 0);
}

#[test]
fn a_replayed_reply_empties_the_redo_stack_and_watching_can_be_interrupted() {
    let save = temp("redo.ggf");
    let mut e = play(&["--level", "2"], &save);
    to_prompt(&mut e);
    e.send("f5");
    let two = moves(&to_prompt(&mut e));
    // Taking back only the engine's reply gives it the move again: it plays the same reply,
    // which is then no longer there to replay.
    e.send("undo 1");
    assert_eq!(moves(&to_prompt(&mut e)), two);
    e.send("redo");
    let got = e.until(|l| l.starts_with("error:"));
    assert!(got.last().unwrap().contains("no move to replay"), "{got:?}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let saved = std::fs::read_to_string(&save).unwrap();
    assert_eq!(
        wedge::engine::play::read_game(&saved).unwrap().moves.len(),
        2
    );

    // Starting a session does not overwrite the saved game; watching stops at `quit`.
    let mut watch = play(&["--play", "none"], &save);
    watch.send("board");
    watch.send("quit");
    let lines = watch.until(|l| l.contains("moves: "));
    assert_eq!(watch.wait_exit(), 0);
    assert!(
        !lines.iter().any(|l| l.starts_with("Game over")),
        "{lines:?}"
    );
    let _ = std::fs::remove_file(&save);
    let mut idle = play(&[], &save);
    std::fs::write(&save, saved.as_bytes()).unwrap();
    idle.send("quit");
    assert_eq!(idle.wait_exit(), 0);
    assert_eq!(std::fs::read_to_string(&save).unwrap(), saved);
}

#[test]
fn a_redo_onto_the_engines_turn_lets_it_move_and_an_unfinished_game_has_no_result() {
    let save = temp("unfinished.ggf");
    let mut e = play(&["--level", "3"], &save);
    to_prompt(&mut e);
    e.send("f5");
    let two = moves(&to_prompt(&mut e));
    e.send("undo");
    assert_eq!(moves(&to_prompt(&mut e)), "(none)");
    // Replaying the human's move alone gives the engine the turn: it moves without being asked,
    // and whatever was typed ahead (here a hint) waits for it and does not stop it.
    e.send("redo 1");
    e.send("hint");
    let lines = to_prompt(&mut e);
    assert!(
        lines.iter().any(|l| l.starts_with("wedge (O) plays")),
        "{lines:?}"
    );
    // The same human move, then the engine's reply (a timed search: near-equal replies may differ).
    let again = moves(&lines);
    assert_eq!(
        again.split(' ').next(),
        two.split(' ').next(),
        "{again} vs {two}"
    );
    assert_eq!(again.split(' ').count(), 2, "{again}");
    e.until(|l| l.starts_with("Hint"));
    // Saved in the middle: GGF's unfinished result, not a score that reads as a finished draw.
    let file = temp("middle.ggf");
    e.send(&format!("save {}", file.display()));
    e.until(|l| l.starts_with("Saved to"));
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("RE[?]"), "{saved}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let autosaved = std::fs::read_to_string(&save).unwrap();
    assert!(autosaved.contains("RE[?]"), "{autosaved}");
}

/// A script's moves arrive while the engine thinks: each waits for the engine's reply and none is
/// refused as played on the engine's turn.
#[test]
fn moves_sent_ahead_wait_for_the_engines_replies() {
    // Level 9 without the book: a deterministic depth-12 search, long enough to be interrupted
    // by the lines that follow. A first game learns the engine's replies.
    let args = ["--level", "9", "--no-book", "--time", "30", "--no-autosave"];
    let mut e = Engine::start_with(&[&["play"][..], &args].concat());
    let mut lines = to_prompt(&mut e);
    let mut script = Vec::new();
    for _ in 0..3 {
        let mv = legal(lines.last().unwrap()).pop().expect("a legal move");
        e.send(&mv);
        script.push(mv);
        lines = to_prompt(&mut e);
    }
    let expected = moves(&lines);
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    // The same moves at once; then with blank lines between them, which a script's engine does
    // not take for Enter (stop): every reply is still the full depth-12 search.
    for blank in ["", "\n"] {
        let mut e = Engine::start_with(&[&["play"][..], &args].concat());
        let text: String = script.iter().map(|m| format!("{m}\n{blank}")).collect();
        e.send_bytes(format!("{text}quit\n").as_bytes());
        let out = e.until(|l| l.contains(&format!("moves: {expected}   ")));
        assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
        let depths: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("wedge (O) plays "))
            .collect();
        assert_eq!(depths.len(), 3, "{out:?}");
        assert!(depths.iter().all(|l| l.contains(", depth 12:")), "{out:?}");
        assert_eq!(e.wait_exit(), 0);
    }
}

/// `--resume` continues a game with the sides and the level it was played with; `--play` and
/// `--level` given again take precedence.
#[test]
fn resume_restores_the_sides_and_the_level() {
    let save = temp("sides.ggf");
    let mut e = play(&["--play", "white", "--level", "4"], &save);
    // The engine opens as Black; the person answers once.
    let lines = to_prompt(&mut e);
    let mv = legal(lines.last().unwrap()).pop().unwrap();
    e.send(&mv);
    to_prompt(&mut e);
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let mut again = play(&["--resume"], &save);
    let lines = to_prompt(&mut again);
    assert!(lines[0].contains("you are White (O)"), "{}", lines[0]);
    assert!(lines[0].contains("at level 4"), "{}", lines[0]);
    assert!(
        lines.last().unwrap().starts_with("White (O) to move"),
        "{lines:?}"
    );
    again.send("quit");
    assert_eq!(again.wait_exit(), 0);
    let mut both = play(&["--resume", "--play", "both", "--level", "6"], &save);
    let lines = to_prompt(&mut both);
    assert!(lines[0].contains("both sides"), "{}", lines[0]);
    both.send("quit");
    assert_eq!(both.wait_exit(), 0);
}

/// A saved game writes its clock as GGF readers read one (`TI`), and no clock for a time a move.
#[test]
fn a_saved_game_writes_its_clock_as_ggf_does() {
    for (args, clock) in [
        (&["--clock", "10+2"][..], Some((600.0, 2.0))),
        (&["--time", "0.3"][..], None),
    ] {
        let record = temp("clock.ggf");
        let mut e = Engine::start_with(&[&["play", "--no-autosave"][..], args].concat());
        to_prompt(&mut e);
        e.send(&format!("save {}", record.display()));
        e.until(|l| l.starts_with("Saved to"));
        e.send("quit");
        assert_eq!(e.wait_exit(), 0);
        let text = std::fs::read_to_string(&record).unwrap();
        let ti = text.split("TI[").nth(1).unwrap().split(']').next().unwrap();
        let read = wedge::board::ggf::GgfClock::parse(ti).map(|c| (c.time, c.increment));
        assert_eq!(read, clock, "{text}");
    }
}

/// When the only move recorded is the engine's forced pass, there is nothing to take back.
#[test]
fn a_forced_pass_alone_is_not_taken_back() {
    let mut e = Engine::start_with(&["play", "--no-autosave", "--time", "0.05"]);
    to_prompt(&mut e);
    // White (the engine) to move with no square: it passes; Black's d1 is the only move.
    for line in [
        "edit empty d4 e4 d5 e5",
        "edit black a1 b1",
        "edit white c1",
    ] {
        e.send(line);
        to_prompt(&mut e);
    }
    e.send("edit side white");
    let lines = to_prompt(&mut e);
    assert_eq!(moves(&lines), "pass", "{lines:?}");
    e.send("undo");
    let lines = e.until(|l| l.starts_with("error") || l.starts_with("Took back"));
    assert_eq!(
        lines.last().unwrap(),
        "error: there is no move to take back",
        "{lines:?}"
    );
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
}

/// A bare `undo` before the person's first move has no turn of theirs to go back to: refused,
/// the engine's opening move kept; `undo 1` still takes it back.
#[test]
fn a_bare_undo_before_your_first_move_is_refused() {
    let mut e = Engine::start_with(&["play", "--play", "white", "--no-autosave", "--time", "0.05"]);
    let first = moves(&to_prompt(&mut e));
    e.send("undo");
    let lines = e.until(|l| l.starts_with("error") || l.starts_with("Took back"));
    assert_eq!(
        lines.last().unwrap(),
        "error: you have made no move to take back (undo N takes back N moves)"
    );
    e.send("board");
    assert_eq!(moves(&to_prompt(&mut e)), first);
    e.send("undo 1");
    let lines = e.until(|l| l.starts_with("error") || l.starts_with("Took back"));
    assert_eq!(lines.last().unwrap(), "Took back 1 move(s).");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
}

/// A new session (no `--resume`) saves over the last game: an unfinished one is copied aside
/// first, and the player is told where.
#[test]
fn an_unfinished_game_is_kept_aside_when_a_new_one_starts() {
    let save = temp("aside.ggf");
    let aside = save.with_extension("previous.ggf");
    let _ = std::fs::remove_file(&aside);
    let mut e = play(&["--level", "1"], &save);
    to_prompt(&mut e);
    e.send("f5");
    to_prompt(&mut e);
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let first = std::fs::read_to_string(&save).unwrap();
    let mut e = play(&["--level", "1"], &save);
    let lines = to_prompt(&mut e);
    assert!(
        lines[0].starts_with("Your unfinished game (2 moves) is kept in")
            && lines[0].contains("previous.ggf"),
        "{lines:?}"
    );
    e.send("e6");
    to_prompt(&mut e);
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), first);
    assert_ne!(std::fs::read_to_string(&save).unwrap(), first);
}

/// A move that ends the game is reported with its proven result, and the count of moves agrees
/// with it in number.
#[test]
fn a_move_that_ends_the_game_is_proven() {
    let mut e = Engine::start_with(&["play", "--no-autosave", "--time", "0.05"]);
    to_prompt(&mut e);
    for line in ["edit empty d4 e4 d5 e5", "edit white a1"] {
        e.send(line);
        to_prompt(&mut e);
    }
    // Black has no move and passes; White's c1 takes Black's last disc.
    e.send("edit black b1");
    let lines = e.until(|l| l.starts_with("Game over") && l.contains("(0-3)"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("plays c1") && l.contains("wins by 64 (proven)")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().contains(". 1 move. "), "{lines:?}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn a_seed_out_of_range_is_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["play", "--seed", "2147483648", "--no-autosave"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--seed"), "{err}");
}

/// An --autosave file that holds something other than one saved game (here a match's two
/// records) is refused untouched rather than replaced by the first save.
#[test]
fn an_autosave_file_that_is_not_a_saved_game_is_not_overwritten() {
    let path = temp("not-a-save.ggf");
    let records = "(;GM[Othello]PC[m]PB[a]PW[b]RE[+0.000]TY[8]B[f5];)\n\
                   (;GM[Othello]PC[m]PB[b]PW[a]RE[+0.000]TY[8]B[f5];)\n";
    std::fs::write(&path, records).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["play", "--autosave", path.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a saved game"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), records);
    let _ = std::fs::remove_file(&path);
}

/// A time a move outside 0.01..86400 seconds is refused, as the in-game `time` command refuses it.
#[test]
fn a_time_out_of_range_is_refused() {
    for t in ["0.001", "1e-9", "0", "-1", "86401"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args(["play", &format!("--time={t}"), "--no-autosave"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "--time {t}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("0.01..86400"), "--time {t}: {err}");
    }
}

/// Playing again the move that was taken back keeps the moves after it to replay; another move
/// drops them.
#[test]
fn replaying_the_taken_back_move_keeps_the_rest_to_redo() {
    let save = temp("replay.ggf");
    let mut e = play(&["--play", "both"], &save);
    to_prompt(&mut e);
    for mv in ["f5", "d6", "c3"] {
        e.send(mv);
        to_prompt(&mut e);
    }
    e.send("undo 3");
    assert_eq!(moves(&to_prompt(&mut e)), "(none)");
    e.send("f5");
    to_prompt(&mut e);
    e.send("redo 2");
    assert_eq!(moves(&to_prompt(&mut e)), "f5 d6 c3");
    e.send("undo 2");
    to_prompt(&mut e);
    e.send("f6");
    to_prompt(&mut e);
    e.send("redo");
    let got = e.until(|l| l.starts_with("error:"));
    assert!(got.last().unwrap().contains("no move to replay"), "{got:?}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
}

/// A script that hands the engine both sides and ends gets the engine's one answer, not a whole
/// game played out unasked.
#[test]
fn watching_ends_with_the_input() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["play", "--time", "0.05", "--no-book", "--no-autosave"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"play none\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(moves_played(&text), 1, "{text}");
}

/// A script's moves sent at once, the input then closed: the engine answers each of them.
#[test]
fn a_script_of_moves_gets_every_reply() {
    let run = |script: &str| {
        use std::io::Write;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args([
                "play",
                "--level",
                "1",
                "--seed",
                "3",
                "--no-book",
                "--no-autosave",
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The engine's reply to f5 (level 1 and a seed: the same every run), and a move of black's
    // after it.
    let first = run("f5\n");
    let prompt = first
        .lines()
        .rfind(|l| l.contains("to move; legal:"))
        .unwrap_or_else(|| panic!("no prompt: {first}"));
    let second = legal(prompt)[0].clone();
    let text = run(&format!("f5\n{second}\n"));
    assert_eq!(moves_played(&text), 4, "{text}");
}

/// The number of moves on the last board a session printed (its `moves:` line).
fn moves_played(text: &str) -> usize {
    let last = text
        .lines()
        .rfind(|l| l.contains("moves:"))
        .unwrap_or_else(|| panic!("no board: {text}"));
    let played = last.split("moves:").nth(1).unwrap_or("");
    played
        .split("time used")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .count()
}

/// A game whose save on exit fails (the save file's place taken by a folder during the session)
/// says so and ends with status 1: a script must not take the game for saved.
#[test]
fn a_failed_save_on_exit_ends_with_status_1() {
    let path = temp("taken.ggf");
    let _ = std::fs::remove_dir_all(&path);
    let mut e = play(&["--no-book"], &path);
    to_prompt(&mut e);
    std::fs::create_dir_all(path.join("inside")).unwrap();
    e.send("f5");
    e.send("quit");
    let lines = e.until(|l| l.starts_with("error: cannot save the game to"));
    assert_eq!(e.wait_exit(), 1, "{lines:#?}");
    // A save that fails during the game and succeeds on exit: status 0, the game saved.
    std::fs::remove_dir_all(&path).unwrap();
    let mut e = play(&["--no-book"], &path);
    to_prompt(&mut e);
    std::fs::create_dir_all(path.join("inside")).unwrap();
    e.send("f5");
    e.until(|l| l.starts_with("error: cannot save the game to"));
    std::fs::remove_dir_all(&path).unwrap();
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    assert!(std::fs::read_to_string(&path).unwrap().contains("B[f5"));
    std::fs::remove_file(&path).unwrap();
}

/// The status line's clocks: `clock: Black 4:04 White 5:02` or `time used: ...`.
fn clocks(lines: &[String]) -> String {
    let status = lines.iter().rev().find(|l| l.contains("moves: ")).unwrap();
    status.rsplit("   ").next().unwrap().to_string()
}

/// A loaded or resumed game goes on with its clock, each side charged the times its moves took
/// (written again when it is saved), unless `--time` or `--clock` say otherwise.
#[test]
fn a_loaded_game_keeps_its_clock_and_its_moves_times() {
    let file = temp("timed.ggf");
    std::fs::write(
        &file,
        "(;GM[Othello]PB[human]PW[wedge level 3]TI[5:00/2]RE[?]\
         B[f5//40.00]W[d6//1.00]B[c3//20.00]W[d3//0.50];)\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let mut e = Engine::start_with(&["play", "--no-autosave", "--load", path]);
    let lines = to_prompt(&mut e);
    // Black: 300 s + 2 increments - 60 s; White: 300 + 4 - 1.5.
    assert_eq!(clocks(&lines), "clock: Black 4:04 White 5:02", "{lines:?}");
    // A move taken back takes its time with it; replayed, it brings it back.
    e.send("undo");
    let lines = to_prompt(&mut e);
    assert_eq!(clocks(&lines), "clock: Black 4:22 White 5:01", "{lines:?}");
    e.send("redo");
    let lines = to_prompt(&mut e);
    assert_eq!(clocks(&lines), "clock: Black 4:04 White 5:02", "{lines:?}");
    let copy = temp("timed-copy.ggf");
    e.send(&format!("save {}", copy.display()));
    e.until(|l| l.starts_with("Saved to"));
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let text = std::fs::read_to_string(&copy).unwrap();
    assert!(
        text.contains("B[f5//40.00]W[d6//1.00]B[c3//20.00]W[d3//0.50]"),
        "{text}"
    );
    let mut e = Engine::start_with(&["play", "--no-autosave", "--load", path, "--time", "1"]);
    let lines = to_prompt(&mut e);
    assert_eq!(clocks(&lines), "time used: Black 1:00 White 0:01");
    // `load` in a session goes on with the record's clock too; a move time past a day counts
    // as a day.
    let huge = temp("huge.ggf");
    std::fs::write(
        &huge,
        "(;GM[Othello]TI[5:00/2]B[f5//1e300]W[d6//1.00]B[c3//20.00]W[d3//0.50];)\n",
    )
    .unwrap();
    e.send(&format!("load {}", huge.display()));
    let lines = to_prompt(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("its clock: 5:00 a game + 2.0 s a move")),
        "{lines:?}"
    );
    assert_eq!(clocks(&lines), "clock: Black 0:00 White 5:02", "{lines:?}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);

    // wedge play's own autosave, resumed: the clock it was played with.
    let save = temp("clock-resume.ggf");
    let save = save.to_str().unwrap();
    let mut e = Engine::start_with(&[
        "play",
        "--clock",
        "10+2",
        "--level",
        "1",
        "--autosave",
        save,
    ]);
    let lines = to_prompt(&mut e);
    e.send(&legal(lines.last().unwrap())[0]);
    to_prompt(&mut e);
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let mut again = Engine::start_with(&["play", "--resume", "--autosave", save]);
    let lines = to_prompt(&mut again);
    assert!(clocks(&lines).starts_with("clock: Black 10:"), "{lines:?}");
    again.send("quit");
    assert_eq!(again.wait_exit(), 0);
}

/// A side whose clock runs out loses on time: its late move is refused, the saved record says
/// so (and `--resume` keeps it), and undo or a new clock plays on.
#[test]
fn a_clock_that_runs_out_loses_the_game_on_time() {
    let save = temp("flag.ggf");
    let path = save.to_str().unwrap();
    // 0.6 s for the whole game.
    let args = [
        "play",
        "--clock",
        "0.01",
        "--level",
        "1",
        "--autosave",
        path,
    ];
    let mut e = Engine::start_with(&args);
    let lines = to_prompt(&mut e);
    let first = legal(lines.last().unwrap())[0].clone();
    std::thread::sleep(std::time::Duration::from_millis(900));
    e.send(&first);
    let lines = e.until(|l| l.starts_with("error:"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Black's time is up: White wins on time")),
        "{lines:?}"
    );
    assert!(
        lines.last().unwrap().contains("Black lost on time"),
        "{lines:?}"
    );
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("RE[-64.000:t]"), "{text}");
    assert!(text.contains("black lost on time"), "{text}");
    assert!(!text.contains("]B["), "{text}");

    // Loaded with a time control given, it plays on at once.
    let mut e = Engine::start_with(&["play", "--load", path, "--clock", "10", "--no-autosave"]);
    let lines = to_prompt(&mut e);
    assert!(legal(lines.last().unwrap()).contains(&first), "{lines:?}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);

    // Resumed, the game is still lost; a new clock plays on, and the move is taken.
    let mut e = Engine::start_with(&["play", "--resume", "--autosave", path]);
    e.until(|l| l.contains("Black lost on time ("));
    e.send(&first);
    e.until(|l| l.starts_with("error: Black lost on time"));
    e.send("time game 10");
    let lines = to_prompt(&mut e);
    assert!(legal(lines.last().unwrap()).contains(&first), "{lines:?}");
    e.send(&first);
    let lines = to_prompt(&mut e);
    assert!(moves(&lines).starts_with(&first), "{lines:?}");
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(!text.contains("lost on time"), "{text}");
}
