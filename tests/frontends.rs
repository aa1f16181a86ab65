//! The NBoard and GTP front ends, scripted as their specs' examples go: set game with passes, hints
//! with several moves, ping during a search, genmove after undo, passes both ways, errors in the
//! protocol's own form; and a match between an NBoard and a GTP wedge through the match runner.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;
use wedge::board::ggf::parse_ggf;
use wedge::board::{Move, Position};
use wedge::tools::arena::player::{EngineSpec, TimeControl};
use wedge::tools::arena::{run, MatchConfig};

const TIMEOUT: Duration = Duration::from_secs(60);

struct Session {
    child: Child,
    stdin: ChildStdin,
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
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
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

    // A hint for 3 moves: one search line per move at the last depth, between status lines.
    s.send("hint 3");
    let lines = s.until(|l| l == "status");
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("search") && l.ends_with(" 4"))
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
    assert_eq!(s.until(|_| true), vec!["learned"]);
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
