//! The NBoard and GTP front ends, scripted as their specs' examples go: set game with passes, hints
//! with several moves, ping during a search, the game clock, analysis, options, genmove after undo,
//! passes both ways, answers in order, errors in the protocol's own form; and a match between an
//! NBoard and a GTP wedge through the match runner.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use wedge::board::ggf::{parse_ggf, GgfGame};
use wedge::board::{Move, Position};
use wedge::tools::arena::player::{EngineSpec, TimeControl};
use wedge::tools::arena::{run, MatchConfig};

const TIMEOUT: Duration = Duration::from_secs(60);

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(protocol: &str) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args(["--protocol", protocol])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().unwrap();
        Session {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Ends the engine's input, as a GUI that quits without a word does.
    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The exit status, once the engine has exited (within [`TIMEOUT`]).
    fn wait_exit(&mut self) -> i32 {
        let deadline = std::time::Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(std::time::Instant::now() < deadline, "engine did not exit");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(TIMEOUT)
                .unwrap_or_else(|_| panic!("no answer; so far {out:#?}"));
            let stop = done(&l);
            out.push(l);
            if stop {
                return out;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A game in which white must pass at the end: white to move has no square, black can play a1.
const PASS_GAME: &str = "(;GM[Othello]PC[test]TY[8]BO[8 -O******-------------------------------------------------------- O];)";

#[test]
fn nboard_session() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    assert_eq!(s.until(|_| true), vec!["set myname wedge"]);
    s.send("set depth 4");
    let game = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
    s.send(&format!("set game {game}"));
    s.send("set contempt 0");
    s.send("ping 1");
    s.until(|l| l == "pong 1");
    s.send("go");
    let lines = s.until(|l| l.starts_with("==="));
    let mv: Move = lines.last().unwrap()[4..]
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let pos = parse_ggf(game).unwrap().position();
    assert!(pos.play(mv).is_some(), "{lines:?}");
    s.until(|l| l == "status");

    // A hint for 3 moves: one search line per move at the last depth, between status lines (a
    // selective search writes its depth as `4@73%`).
    s.send("hint 3");
    let lines = s.until(|l| l == "status");
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("search") && (l.ends_with(" 4") || l.ends_with(" 4@73%")))
        .collect();
    let mut firsts: Vec<&str> = last_depth
        .iter()
        .map(|l| &l.split_whitespace().nth(1).unwrap()[..2])
        .collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{lines:#?}");

    // A played move, then a forced pass: the engine answers PA.
    s.send(&format!("set game {PASS_GAME}"));
    s.send("go");
    assert_eq!(s.until(|l| l.starts_with("===")).last().unwrap(), "=== PA");
    // A hint for the side that must pass: the pass, then the opponent's line, which wins all.
    s.send("hint 2");
    let lines = s.until(|l| l == "status");
    assert!(lines
        .iter()
        .all(|l| !l.starts_with("search ") || l.starts_with("search PA-A1 -64.00 0 ")));
    assert!(lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    // The GUI plays black's a1 without a pass: wedge inserts it; the game is then over.
    s.send("move a1");
    s.send("hint 1");
    assert_eq!(s.until(|l| l == "status").last().unwrap(), "status");

    // ping during a deep search stops it and answers pong.
    s.send("set depth 30");
    // A middle-game position (not in the book).
    s.send("set game (;GM[Othello]TY[8]BO[8 ----------*--------**O----*O*O---***OO---OOOOO-----O**------*--- *];)");
    s.send("hint 1");
    s.until(|l| l.starts_with("search"));
    s.send("ping 7");
    let lines = s.until(|l| l == "pong 7");
    assert!(!lines.iter().any(|l| l.starts_with("===")));
    s.send("learn");
    assert!(s.until(|_| true)[0].starts_with("status "));
    assert_eq!(s.until(|_| true), vec!["learned"]);
    assert!(s.until(|_| true)[0].starts_with("status "));
    s.send("unknown stuff here");
    s.send("ping 8");
    assert_eq!(s.until(|_| true), vec!["pong 8"]);
}

#[test]
fn gtp_session() {
    let mut s = Session::start("gtp");
    let ask = |s: &mut Session, cmd: &str| -> String {
        s.send(cmd);
        let lines = s.until(|l| l.is_empty());
        lines[..lines.len() - 1].join("\n")
    };
    assert_eq!(ask(&mut s, "1 protocol_version"), "=1 2");
    assert_eq!(ask(&mut s, "name"), "= wedge");
    assert_eq!(ask(&mut s, "known_command genmove"), "= true");
    assert_eq!(ask(&mut s, "known_command fly"), "= false");
    assert!(ask(&mut s, "boardsize 19").starts_with("? "));
    assert_eq!(ask(&mut s, "boardsize 8"), "=");
    assert_eq!(ask(&mut s, "clear_board"), "=");
    assert_eq!(ask(&mut s, "time_settings 0 0.05 1"), "=");
    assert_eq!(ask(&mut s, "play b f5"), "=");
    assert!(
        ask(&mut s, "play b d6").starts_with("? "),
        "not black's turn"
    );
    assert!(ask(&mut s, "play w a1").starts_with("? "), "illegal");
    assert!(ask(&mut s, "play w zz").starts_with("? "));
    let white = ask(&mut s, "7 genmove w");
    assert!(white.starts_with("=7 "), "{white}");
    let mv: Move = white[3..].parse().unwrap();
    let after_f5 = Position::START.play("f5".parse().unwrap()).unwrap();
    assert!(after_f5.play(mv).is_some());
    // Undo white's move and ask again: a legal move in the same position.
    assert_eq!(ask(&mut s, "undo"), "=");
    let again = ask(&mut s, "genmove white");
    let mv2: Move = again[2..].parse().unwrap();
    assert!(after_f5.play(mv2).is_some());
    assert!(ask(&mut s, "showboard").contains("a b c d e f g h"));
    assert!(ask(&mut s, "frobnicate").starts_with("? unknown command"));

    // Passes both ways: a position where white must pass.
    assert_eq!(ask(&mut s, "clear_board"), "=");
    // Black wipes white out quickly in this line? Use the rules instead: play to a forced pass.
    let mut pos = Position::START;
    let line = [
        "f5", "f6", "e6", "f4", "g5", "d6", "c5", "c4", "b4", "e3", "d3", "c3", "f3", "g4", "h3",
    ];
    for m in line {
        let mv: Move = m.parse().unwrap();
        if pos.play(mv).is_none() {
            break;
        }
        let c = if pos.side == wedge::Color::Black {
            "b"
        } else {
            "w"
        };
        assert_eq!(ask(&mut s, &format!("play {c} {m}")), "=");
        pos = pos.play(mv).unwrap();
    }
    let c = if pos.side == wedge::Color::Black {
        "b"
    } else {
        "w"
    };
    let answer = ask(&mut s, &format!("genmove {c}"));
    let mv: Move = answer[2..].parse().unwrap();
    if pos.board.must_pass() {
        assert_eq!(mv, Move::PASS);
    } else {
        assert!(pos.play(mv).is_some());
    }
    assert_eq!(ask(&mut s, "quit"), "=");
}

#[test]
fn gtp_pass_is_answered_and_accepted() {
    let mut s = Session::start("gtp");
    let ask = |s: &mut Session, cmd: &str| -> String {
        s.send(cmd);
        let lines = s.until(|l| l.is_empty());
        lines[..lines.len() - 1].join("\n")
    };
    // Reach a forced pass through play: the shortest wipe-out line leaves nobody to move, so
    // search a line where one side must pass using the library, then replay it.
    let mut rng = wedge::rng::Rng::new(3);
    let mut moves = Vec::new();
    let mut pos = Position::START;
    'outer: for _ in 0..2000 {
        pos = Position::START;
        moves.clear();
        while !pos.board.is_game_over() {
            if pos.board.must_pass() {
                break 'outer;
            }
            let list = pos.legal_move_list();
            let m = list[(rng.next_u64() % list.len() as u64) as usize];
            moves.push(m);
            pos = pos.play(m).unwrap();
        }
    }
    assert!(pos.board.must_pass());
    assert_eq!(ask(&mut s, "clear_board"), "=");
    let mut p = Position::START;
    for m in &moves {
        let c = if p.side == wedge::Color::Black {
            "b"
        } else {
            "w"
        };
        assert_eq!(ask(&mut s, &format!("play {c} {m}")), "=", "{m}");
        p = p.play(*m).unwrap();
    }
    let c = if p.side == wedge::Color::Black {
        "b"
    } else {
        "w"
    };
    let other = if c == "b" { "w" } else { "b" };
    // The engine passes for the side that must pass...
    assert_eq!(ask(&mut s, &format!("genmove {c}")), "= pass");
    // ...and a pass from the controller is accepted too (after undoing the engine's).
    assert_eq!(ask(&mut s, "undo"), "=");
    assert_eq!(ask(&mut s, &format!("play {c} pass")), "=");
    let answer = ask(&mut s, &format!("genmove {other}"));
    let mv: Move = answer[2..].parse().unwrap();
    assert!(p.play(Move::PASS).unwrap().play(mv).is_some());
}

/// Once the game is over, `genmove` passes for either colour, whichever moved last.
#[test]
fn gtp_genmove_on_a_finished_game_passes_for_both_colours() {
    let mut s = Session::start("gtp");
    let mut rng = wedge::rng::Rng::new(5);
    let mut pos = Position::START;
    while !pos.board.is_game_over() {
        let list = pos.legal_move_list();
        let m = if list.is_empty() {
            Move::PASS
        } else {
            list[(rng.next_u64() % list.len() as u64) as usize]
        };
        let c = if pos.side == wedge::Color::Black {
            "b"
        } else {
            "w"
        };
        assert_eq!(gtp_ask(&mut s, &format!("play {c} {m}")), "=", "{m}");
        pos = pos.play(m).unwrap();
    }
    for c in ["b", "w", "b"] {
        assert_eq!(gtp_ask(&mut s, &format!("genmove {c}")), "= pass", "{c}");
    }
    // The pass one engine answered, relayed to the other, is taken; a move is not.
    for c in ["w", "b"] {
        assert_eq!(gtp_ask(&mut s, &format!("play {c} pass")), "=", "{c}");
    }
    assert_eq!(gtp_ask(&mut s, "play b d3"), "? the game is over");
    // `undo` takes back those five passes first, then the move that ended the game.
    for _ in 0..5 {
        assert_eq!(gtp_ask(&mut s, "undo"), "=");
        assert!(gtp_ask(&mut s, "final_score").starts_with("= "));
    }
    assert_eq!(gtp_ask(&mut s, "undo"), "=");
    assert!(gtp_ask(&mut s, "final_score").starts_with("? "));
}

#[test]
fn match_between_nboard_and_gtp_front_ends() {
    let w = env!("CARGO_BIN_EXE_wedge");
    let config = MatchConfig {
        a: EngineSpec::parse(&format!(
            "name=nb cmd={w} arg=--protocol arg=nboard proto=nboard"
        ))
        .unwrap(),
        b: EngineSpec::parse(&format!(
            "name=gtp cmd={w} arg=--protocol arg=gtp proto=gtp"
        ))
        .unwrap(),
        openings: vec!["f5d6c3d3c4f4f6f3".parse().unwrap()],
        games: 2,
        tc: TimeControl::MoveTime(Duration::from_millis(20)),
        concurrency: 1,
        sprt: None,
        seed: 1,
        move_timeout: Duration::from_secs(20),
        stderr_logs: None,
        shard: wedge::tools::arena::Shard::WHOLE,
        done: Default::default(),
        run: None,
        interrupt: None,
    };
    let mut games = Vec::new();
    run(&config, |g, _| games.push(g.clone())).unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        assert!(g.failure.is_none(), "{:?}", g.failure);
        let mut pos = g.record.start;
        for m in &g.record.moves {
            pos = pos.play(*m).expect("legal");
        }
        assert!(pos.board.is_game_over());
        assert_eq!(pos.black_final_score(), g.record.black_score);
    }
}

#[test]
fn protocol_is_detected_from_the_first_line() {
    for (first, expect) in [
        ("nboard 2", "set myname wedge"),
        ("protocol_version", "= 2"),
        ("uci", "id name wedge"),
        // GTP reads its commands as written: an upper-case word is no GTP command, and the
        // wedge protocol names what it knows.
        ("NAME", "info string error: unknown command 'NAME'"),
    ] {
        let mut s = Session::start("auto");
        s.send("");
        s.send(first);
        let lines = s.until(|l| l.starts_with(expect.split(' ').next().unwrap()));
        assert!(
            lines.last().unwrap().starts_with(expect),
            "{first}: {lines:?}"
        );
    }
}

#[test]
fn nboard_commands_are_read_in_any_case() {
    let mut s = Session::start("auto");
    s.send("NBOARD 2");
    s.send("ping 1");
    let lines = s.until(|l| l == "pong 1");
    assert_eq!(lines, vec!["set myname wedge", "pong 1"]);

    let mut s = Session::start("nboard");
    s.send("NBoard 2");
    s.send("SET DEPTH 2");
    s.send("Set Game (;GM[Othello]PC[x]TY[8]B[F5];)");
    s.send("GO");
    let lines = s.until(|l| l.starts_with("==="));
    assert_eq!(lines[0], "set myname wedge");
    let answer = lines.last().unwrap();
    let mv: Move = answer[4..6].parse().unwrap();
    let after_f5 = Position::START.play("f5".parse().unwrap()).unwrap();
    assert!(after_f5.play(mv).is_some(), "{lines:?}");
    s.send("PING 3");
    assert_eq!(s.until(|l| l.starts_with("pong")).pop().unwrap(), "pong 3");
}

/// A GGF record of `moves` from `start`, as the match runner writes them.
fn ggf(start: Position, moves: &[Move]) -> String {
    GgfGame {
        place: "test".into(),
        unix_time: 0,
        black: "b".into(),
        white: "w".into(),
        time_control: "0".into(),
        start,
        moves: moves.to_vec(),
        times: Vec::new(),
        black_score: 0,
        forfeit: None,
        name: None,
    }
    .to_string()
}

/// Plays `n` moves from `pos`, each the `k`-th legal one for a varied but fixed line.
fn line_from(mut pos: Position, n: usize) -> (Vec<Move>, Position) {
    let mut moves = Vec::new();
    for i in 0..n {
        let list = pos.legal_move_list();
        if list.is_empty() {
            break;
        }
        let m = list[(i * 7 + 3) % list.len()];
        moves.push(m);
        pos = pos.play(m).unwrap();
    }
    (moves, pos)
}

/// Perfect-play final disc difference for the side to move (small endgames only).
fn solve(pos: Position) -> i32 {
    if pos.board.is_game_over() {
        return pos.board.final_score();
    }
    pos.legal_move_list()
        .into_iter()
        .map(|m| -solve(pos.play(m).unwrap()))
        .max()
        .unwrap()
}

/// A GTP command and its answer (without the blank line that ends it).
fn gtp_ask(s: &mut Session, cmd: &str) -> String {
    s.send(cmd);
    let lines = s.until(|l| l.is_empty());
    lines[..lines.len() - 1].join("\n")
}

/// The middle-game position of `nboard_session` (42 empties, black to move, not in the book).
const MIDGAME: &str = "----------*--------**O----*O*O---***OO---OOOOO-----O**------*--- X";

#[test]
fn nboard_go_is_limited_by_the_game_clock() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    // No depth limit to speak of: only the clock can end this search in time.
    s.send("set depth 60");
    let start: Position = MIDGAME.parse().unwrap();
    let (moves, _) = line_from(start, 4);
    // Black has 10 s; its first move took 4.8 s (in the game), its second 4.8 s (sent as a
    // move): 0.4 s are left for this one.
    let game = ggf(start, &moves[..2])
        .replace("TI[0]", "TI[0:10]")
        .replace(
            &format!("B[{}]", moves[0]),
            &format!("B[{}/0.5/4.8]", moves[0]),
        )
        .replace(
            &format!("W[{}]", moves[1]),
            &format!("W[{}//1.0]", moves[1]),
        );
    s.send(&format!("set game {game}"));
    s.send(&format!(
        "move {}//4.8",
        moves[2].to_string().to_uppercase()
    ));
    s.send(&format!("move {}/-1.0/0.1", moves[3]));
    s.send("ping 1");
    s.until(|l| l == "pong 1");
    let asked = Instant::now();
    s.send("go");
    let answer = s.until(|l| l.starts_with("===")).pop().unwrap();
    assert!(asked.elapsed() < Duration::from_secs(10), "{answer}");
    let fields: Vec<&str> = answer[4..].split('/').collect();
    let secs: f64 = fields[2].parse().unwrap();
    assert!(secs < 5.0, "{answer}");
    let mv: Move = fields[0].parse().unwrap();
    let mut pos = start;
    for m in &moves {
        pos = pos.play(*m).unwrap();
    }
    assert!(pos.play(mv).is_some(), "{answer}");
}

#[test]
fn nboard_go_on_a_finished_game_says_so() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send("set depth 2");
    // White must pass, black plays a1 and wins 64-0: the game is over.
    s.send(&format!("set game {}", PASS_GAME.replace(";)", "B[A1];)")));
    s.send("go");
    s.send("ping 3");
    let lines = s.until(|l| l == "pong 3");
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[1].starts_with("status ") && lines[1].contains("game is over"),
        "{lines:?}"
    );
}

/// A book of the start's moves, its leaves searched to depth 2.
fn small_book() -> wedge::book::Book {
    use wedge::book::build::{build, BuildOptions};
    let options = BuildOptions {
        depth: 2,
        exact_empties: 10,
        threads: 1,
        hash_mb: 1,
    };
    build(&[], &options, None, Default::default(), &|_, _| {}).unwrap()
}

#[test]
fn nboard_learn_is_refused_for_the_built_in_book_and_learns_into_a_book_file() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send("learn");
    s.send("ping 2");
    let lines = s.until(|l| l == "pong 2");
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[2], "learned");
    assert!(
        lines[3].starts_with("status ") && lines[3].contains("built-in book is read-only"),
        "{lines:?}"
    );
    // A book file: learnt into, written back, and played from.
    use wedge::book::{Book, FLAG_LEAF};
    let book = small_book();
    let path = std::env::temp_dir().join(format!("wedge-learn-{}.book", std::process::id()));
    book.save(&path).unwrap();
    let game = "(;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7];)";
    s.send(&format!("set option BookFile {}", path.display()));
    s.send(&format!("set game {game}"));
    s.send("learn");
    s.send("ping 3");
    let lines = s.until(|l| l == "pong 3");
    assert!(lines.iter().any(|l| l == "learned"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("learnt the game")),
        "{lines:?}"
    );
    let learnt = Book::load(&path).unwrap();
    assert!(learnt.len() > book.len() + 20);
    let played = parse_ggf(game).unwrap();
    let mut pos = played.start;
    for &mv in &played.moves {
        let e = learnt
            .get(pos.board)
            .expect("the game's positions are in the book");
        assert_eq!(e.flags & FLAG_LEAF, 0);
        assert_eq!(learnt.moves(pos.board).len(), pos.legal_move_list().len());
        pos = pos.play(mv).unwrap();
    }
    let _ = std::fs::remove_file(path);
}

/// `learn` runs on the worker: `quit` ends the session at once, the book file as it was (what was
/// scored stays in the journal).
#[test]
fn nboard_quit_ends_a_learning_at_once() {
    use wedge::book::build::journal_path;
    use wedge::book::{Book, DEPTH_EXACT, FLAG_LEAF};
    let book = small_book();
    // Leaves marked as depth-30 searches: learning scores new leaves so, for minutes.
    let entries = book.entries().iter().map(|e| {
        let mut e = *e;
        if e.flags & FLAG_LEAF != 0 && e.depth != DEPTH_EXACT {
            e.depth = 30;
        }
        e
    });
    let book = Book::from_entries(entries.collect());
    let path = std::env::temp_dir().join(format!("wedge-learn-quit-{}.book", std::process::id()));
    book.save(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send(&format!("set option BookFile {}", path.display()));
    s.send("set game (;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5];)");
    s.send("learn");
    s.send("ping 1");
    s.send("quit");
    assert_eq!(s.wait_exit(), 0);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the book is as it was"
    );
    let _ = std::fs::remove_file(journal_path(&path));
    let _ = std::fs::remove_file(path);
}

#[test]
fn nboard_set_option() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send("set depth 2");
    s.send("set option Hash 2");
    s.send("set option Clear Hash");
    s.send("set option Hash 0");
    s.send("set option Frobnicate 3");
    s.send("ping 5");
    let lines = s.until(|l| l == "pong 5");
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[1].starts_with("error set option: ") && lines[1].contains("1..1048576"));
    assert_eq!(lines[2], "error unknown option 'Frobnicate'");
    // Without the book, the start position is searched, not looked up.
    s.send("set option ownbook FALSE");
    s.send("hint 1");
    let lines = s.until(|l| l == "status");
    assert!(lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("book ")), "{lines:?}");
}

#[test]
fn nboard_analyze_searches_every_position() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send("set depth 2");
    // An endgame of 9 empties and two moves of it: within reach of depth 2, so every position is
    // solved exactly, which a static evaluation would not give.
    let mut start = Position::START;
    for i in 0.. {
        if start.board.empty_count() == 9 {
            break;
        }
        let list = start.legal_move_list();
        start = start.play(list[(i * 7 + 3) % list.len()]).unwrap();
    }
    assert!(!start.board.is_game_over());
    let (moves, _) = line_from(start, 2);
    s.send(&format!("set game {}", ggf(start, &moves)));
    s.send("analyze");
    let lines = s.until(|l| l == "status");
    let mut pos = start;
    let mut expected = vec![(0, solve(pos))];
    for (i, m) in moves.iter().enumerate() {
        pos = pos.play(*m).unwrap();
        expected.push((i + 1, solve(pos)));
    }
    let mut got: Vec<(usize, i32)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| {
            let (ply, eval) = l.split_once(' ').unwrap();
            let eval: f64 = eval.parse().unwrap();
            (ply.parse().unwrap(), eval as i32)
        })
        .collect();
    got.sort();
    assert_eq!(got, expected, "{lines:#?}");

    // ping stops a long analysis at once; nothing of it comes after the pong.
    s.send("set depth 20");
    let (moves, _) = line_from(Position::START, 30);
    s.send(&format!("set game {}", ggf(Position::START, &moves)));
    s.send("analyze");
    s.until(|l| l.starts_with("analysis"));
    s.send("ping 9");
    let lines = s.until(|l| l == "pong 9");
    assert!(lines.len() < 5, "{lines:#?}");
    // The analysing status is cleared before the pong, so a GUI shows nothing running.
    assert_eq!(lines[lines.len() - 2], "status", "{lines:#?}");
    s.send("ping 10");
    assert_eq!(s.until(|_| true), vec!["pong 10"]);
}

#[test]
fn gtp_set_option_and_set_depth() {
    let mut s = Session::start("gtp");
    let commands = gtp_ask(&mut s, "list_commands");
    for c in [
        "set_option",
        "set_depth",
        "reg_genmove",
        "final_score",
        "loadggf",
    ] {
        assert!(
            commands.lines().any(|l| l == c || l == format!("= {c}")),
            "{c}"
        );
        assert_eq!(gtp_ask(&mut s, &format!("known_command {c}")), "= true");
    }
    assert_eq!(gtp_ask(&mut s, "set_option OwnBook false"), "=");
    assert_eq!(gtp_ask(&mut s, "set_option Clear Hash"), "=");
    let e = gtp_ask(&mut s, "set_option Hash 0");
    assert!(
        e.starts_with("? set_option: ") && e.contains("1..1048576"),
        "{e}"
    );
    assert!(gtp_ask(&mut s, "set_option Frobnicate 1").starts_with("? unknown option"));
    assert!(gtp_ask(&mut s, "set_depth x").starts_with("? "));
    assert!(gtp_ask(&mut s, "set_depth 61").starts_with("? "));
    assert_eq!(gtp_ask(&mut s, "set_depth 1"), "=");
    // 30 s a move, but one ply is asked for: the answer comes at once.
    assert_eq!(gtp_ask(&mut s, "time_settings 0 30 1"), "=");
    let asked = Instant::now();
    let answer = gtp_ask(&mut s, "genmove b");
    assert!(asked.elapsed() < Duration::from_secs(10), "{answer}");
    let mv: Move = answer[2..].parse().unwrap();
    assert!(Position::START.play(mv).is_some());
}

#[test]
fn gtp_reg_genmove_final_score_and_loadggf() {
    let mut s = Session::start("gtp");
    assert_eq!(gtp_ask(&mut s, "set_option OwnBook false"), "=");
    assert_eq!(gtp_ask(&mut s, "set_depth 2"), "=");
    // reg_genmove chooses without playing: black can still play its choice.
    let answer = gtp_ask(&mut s, "reg_genmove b");
    let mv: Move = answer[2..].parse().unwrap();
    assert!(Position::START.play(mv).is_some(), "{answer}");
    assert_eq!(gtp_ask(&mut s, &format!("play b {mv}")), "=");
    assert!(gtp_ask(&mut s, "final_score").starts_with("? "), "not over");

    let dir = std::env::temp_dir();
    let good = dir.join(format!("wedge-gtp-{}-good.ggf", std::process::id()));
    let bad = dir.join(format!("wedge-gtp-{}-bad.ggf", std::process::id()));
    std::fs::write(&good, format!("\n{}\n", PASS_GAME.replace(";)", "B[A1];)"))).unwrap();
    std::fs::write(&bad, "# two games\n(;GM[Othello]TY[8]B[Z9];)\n").unwrap();
    let (good_path, bad_path) = (good.display().to_string(), bad.display().to_string());
    assert_eq!(gtp_ask(&mut s, &format!("loadggf {good_path}")), "=");
    assert_eq!(gtp_ask(&mut s, "final_score"), "= B+64");
    // Only the first game is read: a broken one after it does not refuse it.
    let more = dir.join(format!("wedge-gtp-{}-more.ggf", std::process::id()));
    let first = PASS_GAME.replace(";)", "B[A1];)");
    std::fs::write(&more, format!("{first}\n(;GM[Othello]B[F5\n")).unwrap();
    assert_eq!(gtp_ask(&mut s, &format!("loadggf {}", more.display())), "=");
    assert_eq!(gtp_ask(&mut s, "final_score"), "= B+64");
    let _ = std::fs::remove_file(&more);
    // Up to the position before move 1: white to move must pass.
    assert_eq!(gtp_ask(&mut s, &format!("loadggf {good_path} 1")), "=");
    assert!(gtp_ask(&mut s, "final_score").starts_with("? "));
    assert_eq!(gtp_ask(&mut s, "genmove w"), "= pass");
    let e = gtp_ask(&mut s, &format!("loadggf {bad_path}"));
    assert!(
        e.starts_with("? ") && e.contains(&bad_path) && e.contains("line 2"),
        "{e}"
    );
    let e = gtp_ask(&mut s, &format!("loadggf {bad_path}.missing"));
    assert!(e.starts_with("? ") && e.contains(&bad_path), "{e}");
    assert!(gtp_ask(&mut s, &format!("loadggf {good_path} 0")).starts_with("? "));
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}

#[test]
fn gtp_rejects_times_that_are_not_clocks() {
    let mut s = Session::start("gtp");
    for bad in [
        "time_left b inf 0",
        "time_left w NaN 0",
        "time_left b -5 0",
        "time_left b 1e8 0",
        "time_settings 0 inf 1",
        "time_settings inf 0 0",
        "time_settings 0 1 -1",
        "time_settings 1e300 0 0",
    ] {
        assert!(gtp_ask(&mut s, bad).starts_with("? "), "{bad}");
    }
    // No clock was taken: genmove answers within its default time.
    assert_eq!(gtp_ask(&mut s, "set_option OwnBook false"), "=");
    let answer = gtp_ask(&mut s, "genmove b");
    let mv: Move = answer[2..].parse().unwrap();
    assert!(Position::START.play(mv).is_some());
}

#[test]
fn gtp_answers_in_order_during_genmove() {
    let mut s = Session::start("gtp");
    assert_eq!(gtp_ask(&mut s, "time_settings 0 2 1"), "=");
    // Out of the book: white searches for its 2 s.
    let mut pos = Position::START;
    for m in ["f5", "f4", "e3", "f6", "d3", "c5", "d6"] {
        let c = if pos.side == wedge::Color::Black {
            "b"
        } else {
            "w"
        };
        assert_eq!(gtp_ask(&mut s, &format!("play {c} {m}")), "=");
        pos = pos.play(m.parse().unwrap()).unwrap();
    }
    s.send("1 genmove w");
    s.send("2 name");
    s.send("3 quit");
    let mut lines = Vec::new();
    for _ in 0..6 {
        lines.push(s.until(|_| true).pop().unwrap());
    }
    assert!(lines[0].starts_with("=1 "), "{lines:?}");
    let mv: Move = lines[0][3..].parse().unwrap();
    assert!(pos.play(mv).is_some(), "{lines:?}");
    assert_eq!(lines[1..], ["", "=2 wedge", "", "=3", ""], "{lines:?}");
    // And then it exits.
    assert!(matches!(
        s.lines.recv_timeout(TIMEOUT),
        Err(RecvTimeoutError::Disconnected)
    ));
}

#[test]
fn nboard_lines_after_ping_wait_for_the_stopped_search() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send("set depth 40");
    s.send("set option OwnBook false");
    s.send(&format!("set game {}", ggf(MIDGAME.parse().unwrap(), &[])));
    s.send("hint 1");
    s.until(|l| l.starts_with("search "));
    // A GUI that does not wait for the pong: the go after it is not lost.
    s.send("ping 2");
    s.send("set depth 2");
    s.send("go");
    let lines = s.until(|l| l.starts_with("==="));
    let pong = lines.iter().position(|l| l == "pong 2").expect("pong 2");
    let thinking = lines.iter().position(|l| l.contains("thinking")).unwrap();
    assert!(pong < thinking, "{lines:?}");
}

/// A `Hash` change during a long hint waits for the worker, which is busy with the search: a
/// `ping` behind it still stops the search and is answered, and a `quit` exits at once.
#[test]
fn nboard_ping_and_quit_behind_a_hash_change_are_answered() {
    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send("set depth 60");
    s.send("set option OwnBook false");
    s.send(&format!("set game {}", ggf(MIDGAME.parse().unwrap(), &[])));
    s.send("go");
    s.until(|l| l.contains("thinking"));
    s.send("set option Hash 16");
    s.send("ping 3");
    // The stopped search's move is dropped, as after any ping.
    let lines = s.until(|l| l == "pong 3");
    assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
    s.send("hint 1");
    s.until(|l| l.starts_with("search "));
    s.send("set option Hash 32");
    s.send("quit");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn nboard_answers_a_go_that_ends_the_input() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["--protocol", "nboard"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    write!(
        stdin,
        "nboard 2\nset option OwnBook false\nset depth 4\nset game {}\ngo\n",
        ggf(MIDGAME.parse().unwrap(), &[])
    )
    .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.lines().any(|l| l.starts_with("=== ")), "{text}");
}

/// The input ends during searches that alone would run for hours: each still answers (within the
/// grace time; the session's line timeout would fail the test long before the search's own end).
#[test]
fn end_of_input_bounds_searches_of_any_depth_or_clock() {
    let mut nb = Session::start("nboard");
    nb.send("nboard 2");
    nb.send("set option OwnBook false");
    nb.send("set depth 60");
    nb.send(&format!("set game {}", ggf(Position::START, &[])));
    nb.send("go");
    let mut gtp = Session::start("gtp");
    assert_eq!(gtp_ask(&mut gtp, "set_option OwnBook false"), "=");
    assert_eq!(gtp_ask(&mut gtp, "time_settings 10000000 0 0"), "=");
    gtp.send("genmove b");
    // The searches have begun before the input ends.
    nb.until(|l| l.starts_with("status"));
    std::thread::sleep(Duration::from_millis(300));
    nb.close_input();
    gtp.close_input();
    let moved = nb.until(|l| l.starts_with("=== "));
    assert!(moved.last().unwrap().len() > 4, "{moved:?}");
    let answer = gtp.until(|l| l.starts_with('=') || l.starts_with('?'));
    assert!(answer.last().unwrap().starts_with("= "), "{answer:?}");
}

#[test]
fn a_refused_hash_size_is_answered_as_refused() {
    let mut s = Session::start("gtp");
    let e = gtp_ask(&mut s, "set_option Hash 1048576");
    assert!(e.starts_with("? ") && e.contains("cannot allocate"), "{e}");
    assert_eq!(gtp_ask(&mut s, "set_option Hash 2"), "=");
    assert_eq!(gtp_ask(&mut s, "name"), "= wedge");

    let mut s = Session::start("nboard");
    s.send("nboard 2");
    s.send("set option Hash 1048576");
    s.send("ping 1");
    let lines = s.until(|l| l == "pong 1");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error ") && l.contains("cannot allocate")),
        "{lines:?}"
    );
}
