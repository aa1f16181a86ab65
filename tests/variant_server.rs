//! The course's game server and client (docs/formats.md, "The game server's wire format") over real sockets on
//! localhost, each side checked against an independent other side written here from the page
//! alone: raw `TcpStream`/`TcpListener`, the page's byte layout parsed by splitting on spaces, and
//! a tiny board of wire digits with its own flipping code.
//!
//! (a) `wedge server` against the test's client: a full game (every position the server sends is
//! checked against the test's own replay), passes from a position file, technical losses, a
//! silent client losing on time, a client crash, Ctrl-C. (b) `wedge client` against the test's
//! server: moves, the pass, a new game, ABORT, malformed messages, a board that is not square.
//! (c) two `wedge client`s through `wedge server` on random layouts, records and summary.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const WEDGE: &str = env!("CARGO_BIN_EXE_wedge");

/// The longest any single step waits before the test fails.
const STEP: Duration = Duration::from_secs(30);

const WHITE: u8 = 0;
const RED: u8 = 1;
const EMPTY: u8 = 2;
const BLOCKED: u8 = 3;

// ---------------------------------------------------------------------------------------------
// A tiny independent board: cells are wire digits, row after row.

#[derive(Clone, Debug, PartialEq, Eq)]
struct TBoard {
    rows: i32,
    cols: i32,
    cells: Vec<u8>,
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl TBoard {
    fn at(&self, r: i32, c: i32) -> u8 {
        if r < 0 || c < 0 || r >= self.rows || c >= self.cols {
            BLOCKED
        } else {
            self.cells[(r * self.cols + c) as usize]
        }
    }

    /// The discs `colour` flips by playing (r, c).
    fn flips(&self, colour: u8, r: i32, c: i32) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        if self.at(r, c) != EMPTY {
            return out;
        }
        for (dr, dc) in DIRS {
            let mut line = Vec::new();
            let (mut rr, mut cc) = (r + dr, c + dc);
            while self.at(rr, cc) == 1 - colour {
                line.push((rr, cc));
                rr += dr;
                cc += dc;
            }
            if !line.is_empty() && self.at(rr, cc) == colour {
                out.extend(line);
            }
        }
        out
    }

    fn moves(&self, colour: u8) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if !self.flips(colour, r, c).is_empty() {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn play(&mut self, colour: u8, r: i32, c: i32) {
        let flips = self.flips(colour, r, c);
        assert!(!flips.is_empty(), "({r}, {c}) is not legal for {colour}");
        for (rr, cc) in flips.into_iter().chain([(r, c)]) {
            self.cells[(rr * self.cols + cc) as usize] = colour;
        }
    }

    fn count(&self, colour: u8) -> u32 {
        self.cells.iter().filter(|&&x| x == colour).count() as u32
    }

    /// The 10 x 10 start with the given squares blocked (white on (4,4) and (5,5)).
    fn start10(blocked: &[(i32, i32)]) -> TBoard {
        let mut b = TBoard {
            rows: 10,
            cols: 10,
            cells: vec![EMPTY; 100],
        };
        for &(r, c) in blocked {
            b.cells[(r * 10 + c) as usize] = BLOCKED;
        }
        for (r, c, x) in [(4, 4, WHITE), (5, 5, WHITE), (4, 5, RED), (5, 4, RED)] {
            b.cells[(r * 10 + c) as usize] = x;
        }
        b
    }
}

const CORNERS: [(i32, i32); 4] = [(0, 0), (0, 9), (9, 0), (9, 9)];

// ---------------------------------------------------------------------------------------------
// The page's messages, built and parsed here without wedge's code.

#[derive(Clone, Debug)]
struct Msg {
    status: u8,
    time: f64,
    last: (i32, i32),
    white: u32,
    red: u32,
    board: TBoard,
}

/// Parses a server message of a `rows` x `cols` board (whole, terminator included).
fn parse_msg(bytes: &[u8], rows: i32, cols: i32) -> Msg {
    assert_eq!(
        bytes.len(),
        27 + 2 * (rows * cols) as usize + 1,
        "{bytes:?}"
    );
    let last = bytes[bytes.len() - 1];
    assert!(last == 0 || last == b' ', "terminator {last}");
    let text = std::str::from_utf8(&bytes[..bytes.len() - 1]).unwrap();
    let fields: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(fields.len(), 6 + (rows * cols) as usize, "{text:?}");
    Msg {
        status: fields[0].parse().unwrap(),
        time: fields[1].parse().unwrap(),
        last: (fields[2].parse().unwrap(), fields[3].parse().unwrap()),
        white: fields[4].parse().unwrap(),
        red: fields[5].parse().unwrap(),
        board: TBoard {
            rows,
            cols,
            cells: fields[6..].iter().map(|f| f.parse().unwrap()).collect(),
        },
    }
}

/// A server message as the page shows it: `zero` pads numbers with zeros (else spaces); `nul`
/// ends it with `\0` (else a second space).
fn build_msg(
    status: u8,
    time: f64,
    last: (i32, i32),
    board: &TBoard,
    zero: bool,
    nul: bool,
) -> Vec<u8> {
    let num = |n: i32| {
        if zero {
            format!("{n:03}")
        } else {
            format!("{n:>3}")
        }
    };
    let t = if zero {
        format!("{time:08.2}")
    } else {
        format!("{time:>8.2}")
    };
    let mut s = format!(
        "{status} {t} {} {} {} {} ",
        num(last.0),
        num(last.1),
        num(board.count(WHITE) as i32),
        num(board.count(RED) as i32)
    );
    for &c in &board.cells {
        s.push_str(&format!("{c} "));
    }
    let mut bytes = s.into_bytes();
    bytes.push(if nul { 0 } else { b' ' });
    bytes
}

/// A move as the page shows it (`zero`: `003 007 `, else `  3   7 `), ended by `\0`.
fn build_move(r: i32, c: i32, zero: bool) -> Vec<u8> {
    let s = if zero {
        format!("{r:03} {c:03} ")
    } else {
        format!("{r:>3} {c:>3} ")
    };
    let mut bytes = s.into_bytes();
    bytes.push(0);
    bytes
}

fn parse_move(bytes: &[u8]) -> (i32, i32) {
    assert_eq!(bytes.len(), 9);
    assert!(bytes[8] == 0 || bytes[8] == b' ', "{bytes:?}");
    let text = std::str::from_utf8(&bytes[..8]).unwrap();
    let f: Vec<i32> = text
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(f.len(), 2, "{text:?}");
    (f[0], f[1])
}

// ---------------------------------------------------------------------------------------------
// Processes.

/// A child process killed when the test ends; its stdout read line by line on a thread.
struct Proc {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Proc {
    fn spawn(args: &[&str]) -> Proc {
        let mut child = Command::new(WEDGE)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start wedge");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proc {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// The first line (from now on) that contains `needle`.
    fn wait_line(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + STEP;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no line with {needle:?}; so far: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("exited without {needle:?}; output: {:#?}", self.seen)
                }
            }
        }
    }

    /// Waits for the exit (at most `STEP`); returns the status, all of stdout and stderr.
    fn finish(mut self) -> (std::process::ExitStatus, String, String) {
        let deadline = Instant::now() + STEP;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "still running; output: {:#?}",
                self.seen
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        (status, self.seen.join("\n"), err)
    }
}

/// `wedge server --port 0 ARGS`; returns it and the port it printed.
fn server(args: &[&str]) -> (Proc, u16) {
    let mut all = vec!["server", "--port", "0"];
    all.extend_from_slice(args);
    let mut proc = Proc::spawn(&all);
    let line = proc.wait_line("listening on ");
    let port = line
        .rsplit(':')
        .next()
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (proc, port)
}

/// A fresh folder for one test's files, removed when the test passes.
struct TestDir(PathBuf);

impl Drop for TestDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn test_dir(test: &str) -> TestDir {
    let dir = std::env::temp_dir().join(format!("wedge-vserver-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TestDir(dir)
}

// ---------------------------------------------------------------------------------------------
// (a) The test's client against `wedge server`.

/// A client written from the page: connects, says hello, reads whole 10 x 10 messages.
struct TClient {
    stream: TcpStream,
    colour: u8,
    /// Pads its moves with zeros (white) or spaces (red).
    zero: bool,
    /// The position after its own last move, to check the next message against.
    expected: Option<TBoard>,
}

impl TClient {
    fn connect(port: u16, colour: u8) -> TClient {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_read_timeout(Some(STEP)).unwrap();
        stream.write_all(&[b'0' + colour]).unwrap();
        TClient {
            stream,
            colour,
            zero: colour == WHITE,
            expected: None,
        }
    }

    fn read(&mut self) -> Msg {
        let mut bytes = vec![0u8; 228];
        self.stream.read_exact(&mut bytes).unwrap();
        parse_msg(&bytes, 10, 10)
    }

    fn send(&mut self, r: i32, c: i32) {
        self.stream.write_all(&build_move(r, c, self.zero)).unwrap();
    }

    /// Reads a message and checks it: a position the test's own replay agrees with, GIVE MOVE
    /// exactly when there is a legal move, counts that match the cells.
    fn next(&mut self) -> Msg {
        let msg = self.read();
        assert_eq!(msg.white, msg.board.count(WHITE));
        assert_eq!(msg.red, msg.board.count(RED));
        if msg.status <= 1 {
            if let Some(mut b) = self.expected.take() {
                if msg.last != (-1, -1) {
                    b.play(1 - self.colour, msg.last.0, msg.last.1);
                }
                assert_eq!(
                    b, msg.board,
                    "the server's position differs from the replay"
                );
            }
            let moves = msg.board.moves(self.colour);
            assert_eq!(
                msg.status == 0,
                !moves.is_empty(),
                "status {} with moves {moves:?}",
                msg.status
            );
        } else {
            self.expected = None;
        }
        msg
    }

    /// Answers a message: the first legal move in scanline order (white) or the last (red), or
    /// the pass.
    fn answer(&mut self, msg: &Msg) {
        let moves = msg.board.moves(self.colour);
        let mut b = msg.board.clone();
        match if self.colour == WHITE {
            moves.first()
        } else {
            moves.last()
        } {
            Some(&(r, c)) => {
                b.play(self.colour, r, c);
                self.send(r, c);
            }
            None => self.send(-1, -1),
        }
        self.expected = Some(b);
    }

    /// Plays until ABORT; returns every message.
    fn play_out(mut self) -> Vec<Msg> {
        let mut all = Vec::new();
        loop {
            let msg = self.next();
            if msg.status <= 1 {
                self.answer(&msg);
            }
            let status = msg.status;
            all.push(msg);
            if status == 3 {
                return all;
            }
        }
    }
}

fn statuses(msgs: &[Msg]) -> Vec<u8> {
    msgs.iter().map(|m| m.status).collect()
}

#[test]
fn a_session_against_an_independent_client() {
    let (mut srv, port) = server(&["--games", "2", "--time", "60"]);
    // Refused: a bad hello, then a second white.
    let mut bad = TcpStream::connect(("127.0.0.1", port)).unwrap();
    bad.write_all(b"x").unwrap();
    srv.wait_line("refused");
    let mut white = TClient::connect(port, WHITE);
    srv.wait_line("white seated");
    let mut second = TcpStream::connect(("127.0.0.1", port)).unwrap();
    second.write_all(b"0").unwrap();
    second.set_read_timeout(Some(STEP)).unwrap();
    let mut buf = [0u8; 1];
    assert_eq!(
        second.read(&mut buf).unwrap_or(0),
        0,
        "a second white is closed"
    );
    srv.wait_line("white is already taken");
    let red = TClient::connect(port, RED);

    let first = white.next();
    assert_eq!(first.status, 0);
    assert!(first.time <= 60.0 && first.time > 59.0, "{}", first.time);
    assert_eq!(first.last, (-1, -1));
    assert_eq!(first.board, TBoard::start10(&CORNERS));
    white.answer(&first);
    let w = std::thread::spawn(move || white.play_out());
    let r = std::thread::spawn(move || red.play_out());
    let (w, r) = (w.join().unwrap(), r.join().unwrap());
    for msgs in [&w, &r] {
        let ends: Vec<&Msg> = msgs.iter().filter(|m| m.status == 2).collect();
        assert_eq!(ends.len(), 2, "{:?}", statuses(msgs));
        assert_eq!(msgs.last().unwrap().status, 3);
        for end in ends {
            assert!(end.board.moves(WHITE).is_empty() && end.board.moves(RED).is_empty());
        }
    }
    // Both see the same final positions.
    let finals = |m: &[Msg]| {
        m.iter()
            .filter(|m| m.status == 2)
            .map(|m| m.board.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(finals(&w), finals(&r));
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(
        out.contains("session: 2 of 2 games played (all games played)"),
        "{out}"
    );
    assert!(out.contains("(;GM[Othello variant]"), "{out}");
}

/// The position file of the pass test: white to move has no move; red's only move (4,0) gives
/// white (3,0) among others, after which red must pass.
const PASS_POSITION: &str = "\
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. W R # . . . . . .
W . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
to move: W
";

#[test]
fn passes_from_a_position_file_and_a_wrong_answer_to_a_pass() {
    let dir = test_dir("passes");
    let file = dir.0.join("pass.txt");
    std::fs::write(&file, PASS_POSITION).unwrap();
    let (srv, port) = server(&["--games", "2", "--position", file.to_str().unwrap()]);
    let mut white = TClient::connect(port, WHITE);
    let red = TClient::connect(port, RED);
    let first = white.next();
    assert_eq!(first.status, 1, "white must pass first");
    white.answer(&first);
    let red_thread = std::thread::spawn(move || red.play_out());
    let mut w = vec![first];
    // Game 1 played out; game 2: white answers its CAN NOT MOVE with a move.
    loop {
        let msg = white.next();
        let status = msg.status;
        w.push(msg.clone());
        if status == 2 {
            break;
        }
        white.answer(&msg);
    }
    let again = white.next();
    assert_eq!(again.status, 1);
    white.send(4, 0);
    let end = white.next();
    assert_eq!(end.status, 2);
    assert_eq!(white.next().status, 3);
    let r = red_thread.join().unwrap();
    assert!(
        statuses(&r).contains(&1),
        "red passes in game 1: {:?}",
        statuses(&r)
    );
    assert_eq!(r.iter().filter(|m| m.status == 2).count(), 2);
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(
        out.contains("technical loss of white: sent (4, 0) when it had to pass"),
        "{out}"
    );
    assert!(out.contains("R:illegal"), "{out}");
}

#[test]
fn illegal_moves_wrong_passes_and_garbage_lose() {
    let dir = test_dir("illegal");
    let records = dir.0.join("records");
    let (srv, port) = server(&["--games", "3", "--records", records.to_str().unwrap()]);
    let mut white = TClient::connect(port, WHITE);
    let mut red = TClient::connect(port, RED);
    let answers: [&[u8]; 3] = [b"000 000 \0", b" -1  -1 \0", b"abcdefgh\0"];
    for answer in answers {
        let msg = white.next();
        assert_eq!(msg.status, 0);
        white.stream.write_all(answer).unwrap();
        assert_eq!(white.next().status, 2);
        let end = red.next();
        assert_eq!(end.status, 2, "red hears of the end without having moved");
    }
    assert_eq!(white.next().status, 3);
    assert_eq!(red.next().status, 3);
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(out.contains("illegal move (0, 0)"), "{out}");
    assert!(out.contains("passed while it had a legal move"), "{out}");
    assert!(out.contains("malformed move"), "{out}");
    assert!(
        out.contains("3 losses, 0 draws, 6 discs (lost on time 0, by illegal moves 3"),
        "{out}"
    );
    let ggf = std::fs::read_to_string(records.join("games.ggf")).unwrap();
    assert_eq!(ggf.lines().count(), 3, "{ggf}");
    assert!(
        ggf.lines()
            .all(|l| l.contains("RE[R:illegal]") && l.contains("BO[10x10 #........#/")),
        "{ggf}"
    );
    let summary = std::fs::read_to_string(records.join("summary.txt")).unwrap();
    assert!(summary.contains("3 of 3 games played"), "{summary}");
}

#[test]
fn bytes_left_from_one_game_are_not_read_in_the_next() {
    let (srv, port) = server(&["--games", "2"]);
    let mut white = TClient::connect(port, WHITE);
    let red = TClient::connect(port, RED);
    let r = std::thread::spawn(move || red.play_out());
    // Game 1: a malformed move and garbage after it, in one write. The move loses game 1; the
    // garbage was not asked for and must not be read as the first move of game 2.
    assert_eq!(white.next().status, 0);
    white.stream.write_all(b"abcdefgh\0zzzzzzzz\0").unwrap();
    assert_eq!(white.next().status, 2);
    // Game 2, played properly to its end.
    let first = white.next();
    assert_eq!(first.status, 0);
    white.answer(&first);
    let msgs = white.play_out();
    assert_eq!(msgs.iter().filter(|m| m.status == 2).count(), 1);
    r.join().unwrap();
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert_eq!(out.matches("technical loss of white").count(), 1, "{out}");
    assert!(out.contains("2 of 2 games played"), "{out}");
}

#[test]
fn a_move_sent_after_a_loss_on_time_is_not_read_in_the_next_game() {
    let (srv, port) = server(&["--games", "2", "--time", "0.5"]);
    let mut white = TClient::connect(port, WHITE);
    let red = TClient::connect(port, RED);
    let r = std::thread::spawn(move || red.play_out());
    let first = white.next();
    assert_eq!(first.status, 0);
    // It thinks past its clock and then answers: game 1 is lost on time, and that answer (a
    // move that is also legal at game 2's start) must not be taken as its first move there.
    // The late move is another than the one it answers game 2's start with, so the replay
    // check of its next message sees which of the two the server played.
    std::thread::sleep(Duration::from_millis(900));
    let moves = first.board.moves(WHITE);
    assert!(moves.len() >= 2, "{moves:?}");
    let (row, col) = moves[moves.len() - 1];
    white.send(row, col);
    assert_eq!(white.next().status, 2);
    // Game 2's first GIVE MOVE: its start, not a position after the late move.
    let second = white.next();
    assert_eq!(second.status, 0);
    assert_eq!((second.last, &second.board), ((-1, -1), &first.board));
    white.answer(&second);
    let msgs = white.play_out();
    assert_eq!(msgs.iter().filter(|m| m.status == 2).count(), 1);
    r.join().unwrap();
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert_eq!(out.matches("white ran out of time").count(), 1, "{out}");
    assert!(!out.contains("technical loss"), "{out}");
    assert!(out.contains("2 of 2 games played"), "{out}");
}

#[test]
fn a_seat_whose_client_left_before_the_games_is_free_again() {
    let (mut srv, port) = server(&["--games", "1"]);
    let gone = TClient::connect(port, WHITE);
    srv.wait_line("white seated");
    drop(gone);
    let white = TClient::connect(port, WHITE);
    let red = TClient::connect(port, RED);
    let r = std::thread::spawn(move || red.play_out());
    let msgs = white.play_out();
    assert_eq!(msgs.last().map(|m| m.status), Some(3));
    r.join().unwrap();
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(out.contains("is free again"), "{out}");
    assert!(!out.contains("already taken"), "{out}");
    assert!(out.contains("1 of 1 games played"), "{out}");
}

/// A seated client that left frees its seat even when no other asks for that colour before the
/// other seat is taken: the games do not start with the departed client.
#[test]
fn a_seat_whose_client_left_is_freed_before_the_games_start() {
    let (mut srv, port) = server(&["--games", "1"]);
    let gone = TClient::connect(port, WHITE);
    srv.wait_line("white seated");
    drop(gone);
    srv.wait_line("is free again");
    let red = TClient::connect(port, RED);
    srv.wait_line("red seated");
    let white = TClient::connect(port, WHITE);
    let r = std::thread::spawn(move || red.play_out());
    assert_eq!(white.play_out().last().map(|m| m.status), Some(3));
    r.join().unwrap();
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(!out.contains("disconnected"), "{out}");
    assert!(out.contains("1 of 1 games played"), "{out}");
}

/// A connection that never says hello holds up no other: the clients behind it are seated and
/// play while it waits for its hello's deadline.
#[test]
fn a_connection_without_a_hello_holds_up_no_other() {
    let (mut srv, port) = server(&["--games", "1"]);
    let silent = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let white = TClient::connect(port, WHITE);
    let red = TClient::connect(port, RED);
    srv.wait_line("red seated");
    let r = std::thread::spawn(move || red.play_out());
    assert_eq!(white.play_out().last().map(|m| m.status), Some(3));
    r.join().unwrap();
    drop(silent);
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    let seated = out.find("white seated").unwrap();
    assert!(
        out.find("no hello in time")
            .is_none_or(|refused| refused > seated),
        "{out}"
    );
}

#[test]
fn a_silent_client_loses_on_time() {
    let (srv, port) = server(&["--games", "1", "--time", "0.8"]);
    let mut white = TClient::connect(port, WHITE);
    let mut red = TClient::connect(port, RED);
    let first = white.next();
    let asked = Instant::now();
    assert_eq!(first.status, 0);
    assert_eq!(first.time, 0.8);
    // Silence.
    let end = white.next();
    let waited = asked.elapsed();
    assert_eq!(end.status, 2);
    assert_eq!(end.time, 0.0);
    assert!(
        waited >= Duration::from_millis(700) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    assert_eq!(red.next().status, 2);
    assert_eq!(red.next().status, 3);
    assert_eq!(white.next().status, 3);
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(out.contains("white ran out of time"), "{out}");
    assert!(out.contains("RE[R:time]"), "{out}");
}

#[test]
fn a_client_crash_aborts_the_session() {
    // Red vanishes on its own turn.
    let (srv, port) = server(&["--games", "3"]);
    let mut white = TClient::connect(port, WHITE);
    let mut red = TClient::connect(port, RED);
    for _ in 0..3 {
        let msg = white.next();
        white.answer(&msg);
        let msg = red.next();
        assert_eq!(msg.status, 0);
        red.answer(&msg);
    }
    let msg = white.next();
    white.answer(&msg);
    let _ = red.next();
    drop(red);
    let rest: Vec<u8> = std::iter::from_fn(|| Some(white.next().status))
        .take_while(|&s| s != 3)
        .collect();
    assert_eq!(rest, vec![2], "GAME ENDED, then ABORT");
    let (status, out, err) = srv.finish();
    assert!(!status.success());
    assert!(err.contains("red disconnected in game 1"), "{err}");
    assert!(out.contains("white wins: red disconnected"), "{out}");

    // White vanishes while red thinks.
    let (srv, port) = server(&["--games", "3"]);
    let mut white = TClient::connect(port, WHITE);
    let mut red = TClient::connect(port, RED);
    let msg = white.next();
    white.answer(&msg);
    let msg = red.next();
    drop(white);
    std::thread::sleep(Duration::from_millis(100));
    red.answer(&msg);
    let rest: Vec<u8> = std::iter::from_fn(|| Some(red.next().status))
        .take_while(|&s| s != 3)
        .collect();
    assert_eq!(rest, vec![2]);
    let (status, _, err) = srv.finish();
    assert!(!status.success());
    assert!(err.contains("white disconnected in game 1"), "{err}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_aborts_the_clients_and_frees_the_port() {
    let interrupt = |proc: &Proc| {
        let ok = Command::new("kill")
            .args(["-INT", &proc.child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    };
    // Before anyone connects.
    let (srv, port) = server(&["--games", "2"]);
    interrupt(&srv);
    let (status, out, err) = srv.finish();
    assert!(
        !status.success() && err.contains("interrupted"),
        "{out}\n{err}"
    );
    drop(TcpListener::bind(("127.0.0.1", port)).expect("the port is free again"));

    // In the middle of a game, while white thinks.
    let (mut srv, port) = server(&["--games", "2", "--time", "60"]);
    let mut white = TClient::connect(port, WHITE);
    let mut red = TClient::connect(port, RED);
    let msg = white.next();
    white.answer(&msg);
    let msg = red.next();
    red.answer(&msg);
    assert_eq!(white.next().status, 0);
    srv.wait_line("red seated");
    interrupt(&srv);
    let started = Instant::now();
    assert_eq!(white.next().status, 3);
    assert_eq!(red.next().status, 3);
    assert!(started.elapsed() < Duration::from_secs(3));
    let (status, out, err) = srv.finish();
    assert!(
        !status.success() && err.contains("interrupted"),
        "{out}\n{err}"
    );
    assert!(
        out.contains("session: 0 of 2 games played (interrupted)"),
        "{out}"
    );
    assert!(out.contains("?:interrupted"), "{out}");
    drop(TcpListener::bind(("127.0.0.1", port)).expect("the port is free again"));
}

// ---------------------------------------------------------------------------------------------
// (b) `wedge client` against the test's server.

/// Listens on a free port, starts `wedge client --port P ARGS`, accepts it and checks its hello.
fn client_session(args: &[&str], hello: u8) -> (Proc, TcpStream) {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let mut all = vec!["client", "--port", &port];
    all.extend_from_slice(args);
    let proc = Proc::spawn(&all);
    listener.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + STEP;
    let mut stream = loop {
        match listener.accept() {
            Ok((s, _)) => break s,
            Err(_) => {
                assert!(Instant::now() < deadline, "the client did not connect");
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    };
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(STEP)).unwrap();
    let mut byte = [0u8; 1];
    stream.read_exact(&mut byte).unwrap();
    assert_eq!(byte[0], hello);
    (proc, stream)
}

fn read_move(stream: &mut TcpStream) -> (i32, i32) {
    let mut bytes = [0u8; 9];
    stream.read_exact(&mut bytes).unwrap();
    parse_move(&bytes)
}

#[test]
fn the_wedge_client_against_an_independent_server() {
    let (proc, mut s) = client_session(&["--colour", "red", "--player", "greedy"], b'1');
    // Game 1: white opened at (3,5); red to move.
    let mut b = TBoard::start10(&CORNERS);
    b.play(WHITE, 3, 5);
    s.write_all(&build_msg(0, 100.0, (3, 5), &b, true, true))
        .unwrap();
    let (r, c) = read_move(&mut s);
    assert!(b.moves(RED).contains(&(r, c)), "({r}, {c}) is not legal");
    b.play(RED, r, c);
    // Red has no move here: CAN NOT MOVE, space-padded, two-space terminator.
    let mut lone = TBoard::start10(&CORNERS);
    lone.cells
        .iter_mut()
        .filter(|x| **x == RED)
        .for_each(|x| *x = WHITE);
    lone.cells[1] = RED; // (0, 1)
    s.write_all(&build_msg(1, 99.5, (-1, -1), &lone, false, false))
        .unwrap();
    assert_eq!(read_move(&mut s), (-1, -1));
    s.write_all(&build_msg(2, 99.0, (-1, -1), &lone, true, true))
        .unwrap();
    // Game 2 starts with red to move again (a new game after GAME ENDED), then ABORT mid-game.
    let mut b = TBoard::start10(&[]);
    b.play(WHITE, 3, 5);
    s.write_all(&build_msg(0, 120.0, (3, 5), &b, false, true))
        .unwrap();
    let mv = read_move(&mut s);
    assert!(b.moves(RED).contains(&mv), "{mv:?}");
    s.write_all(&build_msg(3, 119.0, (-1, -1), &b, true, true))
        .unwrap();
    let (status, out, err) = proc.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(out.contains("game 1: lost, 1-4 (mine-theirs)"), "{out}");
    assert!(
        out.contains("session over (ABORT in the middle of a game): 1 games, 0 won, 1 lost"),
        "{out}"
    );
}

#[test]
fn the_wedge_engine_moves_within_its_clock_on_any_size() {
    // 8 x 10 needs --size (80 cells are not a square board).
    let (proc, mut s) = client_session(
        &["--colour", "white", "--player", "wedge", "--size", "8x10"],
        b'0',
    );
    let mut b = TBoard {
        rows: 8,
        cols: 10,
        cells: vec![EMPTY; 80],
    };
    for (r, c, x) in [
        (3, 4, WHITE),
        (4, 5, WHITE),
        (3, 5, RED),
        (4, 4, RED),
        (0, 0, BLOCKED),
        (7, 9, BLOCKED),
    ] {
        b.cells[r * 10 + c] = x;
    }
    for _ in 0..3 {
        let sent = Instant::now();
        s.write_all(&build_msg(0, 1.5, (-1, -1), &b, true, true))
            .unwrap();
        let mv = read_move(&mut s);
        assert!(
            sent.elapsed() < Duration::from_millis(1500),
            "{:?}",
            sent.elapsed()
        );
        assert!(b.moves(WHITE).contains(&mv), "{mv:?}");
        b.play(WHITE, mv.0, mv.1);
        let reply = b.moves(RED)[0];
        b.play(RED, reply.0, reply.1);
    }
    s.write_all(&build_msg(3, 1.0, (-1, -1), &b, true, true))
        .unwrap();
    let (status, out, err) = proc.finish();
    assert!(status.success(), "{out}\n{err}");

    // Without --size, 80 cells are refused with the message's bytes.
    let (proc, mut s) = client_session(&["--colour", "white", "--player", "random"], b'0');
    s.write_all(&build_msg(0, 1.5, (-1, -1), &b, true, true))
        .unwrap();
    let (status, out, err) = proc.finish();
    assert!(!status.success(), "{out}");
    assert!(
        err.contains("not a square board")
            && err.contains("--size")
            && err.contains("bytes: \"0 00001.50"),
        "{err}"
    );
}

#[test]
fn a_malformed_server_message_ends_the_client_with_its_bytes() {
    let (proc, mut s) = client_session(&["--colour", "white", "--player", "random"], b'0');
    s.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\nand more text to fill the header")
        .unwrap();
    let (status, out, err) = proc.finish();
    assert!(!status.success(), "{out}");
    assert!(
        err.contains("malformed server message") && err.contains("HTTP/1.1 400"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    // A cell that is not 0-3.
    let (proc, mut s) = client_session(&["--colour", "white", "--player", "random"], b'0');
    let mut msg = build_msg(0, 10.0, (-1, -1), &TBoard::start10(&CORNERS), true, true);
    msg[27 + 2 * 11] = b'7';
    s.write_all(&msg).unwrap();
    let (status, _, err) = proc.finish();
    assert!(!status.success());
    assert!(
        err.contains("a cell must be 0 to 3") && err.contains("3 2 2 2 2 2 2 2 2 3 2 7"),
        "{err}"
    );

    // A server that goes away without ABORT.
    let (proc, s) = client_session(&["--colour", "white", "--player", "random"], b'0');
    drop(s);
    let (status, _, err) = proc.finish();
    assert!(!status.success());
    assert!(err.contains("without ABORT"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// (c) Two `wedge client`s through `wedge server`.

fn client(port: u16, colour: &str, extra: &[&str]) -> Proc {
    let port = port.to_string();
    let mut args = vec!["client", "--port", &port, "--colour", colour];
    args.extend_from_slice(extra);
    Proc::spawn(&args)
}

fn session_of_clients(
    server_args: &[&str],
    white: &[&str],
    red: &[&str],
) -> (String, String, String) {
    let (srv, port) = server(server_args);
    let w = client(port, "white", white);
    let r = client(port, "red", red);
    let (ws, wout, werr) = w.finish();
    let (rs, rout, rerr) = r.finish();
    let (status, out, err) = srv.finish();
    assert!(status.success(), "{out}\n{err}");
    assert!(ws.success(), "{wout}\n{werr}");
    assert!(rs.success(), "{rout}\n{rerr}");
    (out, wout, rout)
}

/// `W+12` and the like from a records file: the decided games.
fn results(ggf: &str) -> Vec<String> {
    ggf.lines()
        .map(|l| {
            let at = l.find("RE[").unwrap() + 3;
            l[at..at + l[at..].find(']').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn random_and_greedy_clients_play_a_session_on_random_layouts() {
    let dir = test_dir("baselines");
    let records = dir.0.join("rec");
    let (out, wout, rout) = session_of_clients(
        &[
            "--games",
            "4",
            "--layout",
            "random:6",
            "--seed",
            "5",
            "--time",
            "60",
            "--watch",
            "--records",
            records.to_str().unwrap(),
        ],
        &["--player", "random", "--seed", "3"],
        &["--player", "greedy"],
    );
    assert!(out.contains("10x10, layout random:6, seed 5"), "{out}");
    assert!(
        out.contains("to move: R") && out.contains("game 4: W"),
        "{out}"
    );
    let ggf = std::fs::read_to_string(records.join("games.ggf")).unwrap();
    let layouts: Vec<&str> = ggf
        .lines()
        .map(|l| &l[l.find("BO[").unwrap()..l.find(" W]").unwrap()])
        .collect();
    assert_eq!(layouts.len(), 4, "{ggf}");
    for layout in &layouts {
        assert_eq!(layout.matches('#').count(), 6, "{layout}");
    }
    assert_ne!(layouts[0], layouts[1], "a new layout each game");
    let res = results(&ggf);
    assert!(res.iter().all(|r| !r.contains(':')), "no forfeits: {res:?}");
    let summary = std::fs::read_to_string(records.join("summary.txt")).unwrap();
    assert!(summary.contains("4 of 4 games played"), "{summary}");
    assert!(wout.contains("session over (ABORT): 4 games"), "{wout}");
    assert!(rout.contains("session over (ABORT): 4 games"), "{rout}");
}

#[test]
fn two_wedge_engines_play_ten_games_on_a_random_layout() {
    let dir = test_dir("engines");
    let records = dir.0.join("rec");
    let (out, wout, _) = session_of_clients(
        &[
            "--games",
            "10",
            "--layout",
            "random:8",
            "--seed",
            "11",
            "--time",
            "60",
            "--records",
            records.to_str().unwrap(),
        ],
        &["--player", "wedge", "--level", "2"],
        &["--player", "wedge", "--level", "1"],
    );
    let ggf = std::fs::read_to_string(records.join("games.ggf")).unwrap();
    let res = results(&ggf);
    assert_eq!(res.len(), 10, "{ggf}");
    assert!(
        res.iter()
            .all(|r| r == "draw" || r.starts_with("W+") || r.starts_with("R+")),
        "{res:?}"
    );
    assert!(
        out.contains("session: 10 of 10 games played (all games played)"),
        "{out}"
    );
    assert!(
        wout.contains("session over (ABORT): 10 games") && wout.contains("0 ended early"),
        "{wout}"
    );
}
