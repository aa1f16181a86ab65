//! Variant boards over wedge's protocol with the real binary (protocol.md, 3.1): positions of any
//! size with blocked squares, every `go` form on them, errors that keep the position, `stop`,
//! passes, the variant player's options, and a short variant match between two wedge engines.
//! Timeouts here only fail a hung test; the one timing asserted (`stop` answered promptly) has a
//! wide margin.

mod common;

use common::Engine;
use std::time::{Duration, Instant};
use wedge::protocol::variant::parse_move;
use wedge::variant::board::{Board, Square};

const CORNERS_10: &str = "position variant 10x10 blocked a1,j1,a10,j10";

/// The board of `position variant RxC blocked ...` after `moves` (names as the protocol writes).
fn replay(rows: usize, cols: usize, blocked: &[Square], moves: &[&str]) -> Board {
    let mut b = Board::start(rows, cols, blocked).unwrap();
    for m in moves {
        b = match parse_move(m).unwrap() {
            Some(sq) => {
                if b.must_pass() {
                    b = b.pass();
                }
                b.play(sq).unwrap()
            }
            None => b.pass(),
        };
    }
    b
}

fn corners10() -> Vec<Square> {
    [(0, 0), (0, 9), (9, 0), (9, 9)]
        .map(|(r, c)| Square::new(r, c))
        .to_vec()
}

/// The `position:` line of `d`: the whole current variant position.
fn variant_position(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.until(|l| l.starts_with("position:") || l.starts_with("hash:"));
    lines.last().unwrap().clone()
}

/// The `info depth` lines of a search, and its move.
fn search(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let (lines, mv) = e.bestmove();
    let info = lines
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    (info, mv)
}

/// The value after `name` in an info line.
fn field<'a>(line: &'a str, name: &str) -> &'a str {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == name {
            return words.next().unwrap_or("");
        }
    }
    panic!("no {name} in {line}")
}

#[test]
fn variant_d_says_the_side_to_move_once() {
    let mut e = Engine::start();
    e.send("position variant 6x6 moves d2");
    e.send("d");
    let lines = e.until(|l| l.starts_with("position:"));
    let sides: Vec<&String> = lines.iter().filter(|l| l.contains("to move")).collect();
    assert_eq!(sides.len(), 1, "{lines:#?}");
    assert!(sides[0].starts_with("side to move: red"), "{lines:#?}");
}

#[test]
fn variant_position_and_go_depth_give_a_legal_move() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 4");
    e.send(&format!("{CORNERS_10} moves f4 e4"));
    let (info, mv) = search(&mut e, "go depth 3");
    let board = replay(10, 10, &corners10(), &["f4", "e4"]);
    let sq = parse_move(&mv).unwrap().expect("a square");
    assert!(board.is_legal(sq), "{mv} not legal");
    assert_eq!(info.len(), 3, "{info:#?}");
    for (i, l) in info.iter().enumerate() {
        assert_eq!(field(l, "depth"), (i + 1).to_string(), "{l}");
        assert_eq!(l.matches(" score ").count(), 1, "{l}");
        field(l, "cp").parse::<i32>().unwrap();
        field(l, "nodes").parse::<u64>().unwrap();
        field(l, "time").parse::<u64>().unwrap();
        assert!(l.contains(" discs ") || l.contains(" exact "), "{l}");
    }
    let last = info.last().unwrap();
    assert_eq!(field(last, "pv"), mv, "{last}");
    // The PV replays legally, move after move.
    let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!(pv.len(), 3, "{last}");
    let mut b = board;
    for m in pv {
        let sq = parse_move(m).unwrap().unwrap();
        if b.must_pass() {
            b = b.pass();
        }
        b = b.play(sq).expect("legal PV move");
    }
    // Boards up to 16 x 16, not square, with a set-up board and the side to move.
    e.send("position variant 16x16");
    let (_, mv) = search(&mut e, "go depth 2");
    let sq = parse_move(&mv).unwrap().unwrap();
    assert!(Board::start(16, 16, &[]).unwrap().is_legal(sq), "{mv}");
    e.send(
        "position variant 6x9 board ........./....#..../...WR..../...RW..../........./......... R",
    );
    let (_, mv) = search(&mut e, "go depth 2");
    let b = Board::parse_printed(
        ".........\n....#....\n...WR....\n...RW....\n.........\n.........\nto move: R",
    )
    .unwrap();
    assert!(b.is_legal(parse_move(&mv).unwrap().unwrap()), "{mv}");
    // A standard position replaces the variant board.
    e.send("position startpos");
    assert!(e.board().starts_with("board: "));
}

#[test]
fn every_go_form_answers_on_a_variant_board() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 4");
    e.send(&format!("{CORNERS_10} moves f4"));
    let board = replay(10, 10, &corners10(), &["f4"]);
    let legal = |mv: &str| board.is_legal(parse_move(mv).unwrap().unwrap());
    for go in [
        "go movetime 150",
        "go nodes 300",
        "go wtime 3000 btime 3000 winc 0 binc 0",
        "go btime 2000",
        "go p1time 2000 p2time 2000",
        "go depth 2 movetime 5000",
    ] {
        let (info, mv) = search(&mut e, go);
        assert!(legal(&mv), "{go}: {mv}");
        assert!(!info.is_empty(), "{go}: no info line");
    }
    // A node budget: iterations until one ends with at least that many nodes.
    let (info, _) = search(&mut e, "go nodes 300");
    let nodes: Vec<u64> = info
        .iter()
        .map(|l| field(l, "nodes").parse().unwrap())
        .collect();
    assert!(*nodes.last().unwrap() >= 300, "{info:#?}");
    assert!(
        nodes[..nodes.len() - 1].iter().all(|&n| n < 300),
        "{info:#?}"
    );
    // searchmoves names 8x8 squares: an error line, and the search goes on.
    e.send("go depth 1 searchmoves f5");
    let (lines, mv) = e.bestmove();
    assert!(
        lines[0].starts_with("info string error: go: searchmoves"),
        "{lines:#?}"
    );
    assert!(legal(&mv));
    // Clocks named by colour and by player at once (white is player 1): a malformed go.
    e.send("go wtime 3000 p1time 3000");
    let (lines, mv) = e.bestmove();
    assert!(
        lines[0].starts_with("info string error: go: on a variant board name the clocks"),
        "{lines:#?}"
    );
    assert_eq!(mv, "none");
    // Only the other side's clock (red is to move): a warning, then a search until `stop`.
    e.send("go wtime 1000");
    let lines = e.until(|l| l.starts_with("info string"));
    assert!(
        lines
            .last()
            .unwrap()
            .contains("warning: go names no clock for the side to move"),
        "{lines:#?}"
    );
    e.send("stop");
    let (_, mv) = e.bestmove();
    assert!(legal(&mv));
    // An exact solve near the end of a small game: the score is the final disc difference.
    e.send("position variant 4x4 board W.R./WWRR/RWW./.RR. W");
    let (info, mv) = search(&mut e, "go exact");
    let last = info.last().unwrap();
    assert!(last.contains(" exact "), "{last}");
    let b = Board::parse_printed("W.R.\nWWRR\nRWW.\n.RR.\nto move: W").unwrap();
    assert!(b.is_legal(parse_move(&mv).unwrap().unwrap()));
    // `go ponder` holds its answer until `ponderhit`.
    e.send(&format!("{CORNERS_10} moves f4"));
    e.send("go ponder depth 2");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ponderhit");
    let (_, mv) = e.bestmove();
    assert!(legal(&mv));
    assert!(e.sync().is_empty());
}

#[test]
fn the_ponder_reply_is_the_opponents_move_or_none() {
    // The variant PV leaves passes out: after white's c1 here red must pass, and the PV's next
    // move is white's own, which is no reply to ponder on.
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    for (position, text) in [
        (
            "WR../..../..../WR.. W",
            "WR..\n....\n....\nWR..\nto move: W",
        ),
        (
            "..../.WR./.RW./.... R",
            "....\n.WR.\n.RW.\n....\nto move: R",
        ),
    ] {
        e.send(&format!("position variant 4x4 board {position}"));
        e.send("go depth 3");
        let lines = e.until(|l| l.starts_with("bestmove"));
        let tokens: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
        let b = Board::parse_printed(text).unwrap();
        let after = b.play(parse_move(tokens[1]).unwrap().unwrap()).unwrap();
        if after.must_pass() || after.is_over() {
            assert_eq!(tokens.len(), 2, "{tokens:?}");
        } else {
            assert_eq!(tokens.len(), 4, "{tokens:?}");
            assert_eq!(tokens[2], "ponder");
            assert!(
                after.is_legal(parse_move(tokens[3]).unwrap().unwrap()),
                "{tokens:?}"
            );
        }
    }
}

#[test]
fn a_bad_variant_position_keeps_the_previous_one() {
    let dir = std::env::temp_dir().join(format!("wedge-pv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board 1.txt");
    std::fs::write(
        &file,
        "   0 1 2 3 4 5\n 0 # . . . . .\n 1 . . . . . .\n 2 . . W R . .\n 3 . . R W . .\n 4 . . . . . .\n 5 . . . . . #\nto move: R\n",
    )
    .unwrap();
    // One column: a board's sides are 2 to 16.
    let narrow = dir.join("narrow.txt");
    std::fs::write(&narrow, "W\nR\nto move: W\n").unwrap();
    let mut e = Engine::start();
    // A variant position after a standard one, then bad ones.
    e.send("position startpos moves f5");
    let standard = e.board();
    for bad in [
        "position variant 10x10 blocked k1",
        "position variant 1x10",
        "position variant 10x10 blocked e5",
        "position variant 10x10 moves a1",
        "position variant 10x10 moves e4 e4",
        "position variant 10x10 board ...W R",
        "position variant 2x2 board WR/RZ W",
        "position variant 10x10 extra",
        "position variantfile /nonexistent/board.txt",
        "position variantfile /dev/zero",
        &format!("position variantfile {}", narrow.display()),
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:#?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{bad}: {lines:#?}"
        );
        assert_eq!(e.board(), standard, "{bad} changed the position");
    }
    // A printed board from a file (spaces in its name kept), then moves on it.
    e.send(&format!("position variantfile {} moves c2", file.display()));
    assert!(e.sync().is_empty());
    let good = variant_position(&mut e);
    assert_eq!(
        good,
        "position: position variant 6x6 board #...../..R.../..RR../..RW../....../.....# W"
    );
    for bad in [
        "position variant 10x10 blocked z1",
        "position variant 10x10 moves pass",
        &format!("position variantfile {} moves c2 c2", file.display()),
        "position fen 8/8/8/3ox3/3xo3/8/8/8 x moves a1",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:#?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{bad}: {lines:#?}"
        );
        assert_eq!(variant_position(&mut e), good, "{bad} changed the position");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn variant_perft_stops_at_once() {
    let mut e = Engine::start();
    e.send(CORNERS_10);
    // Minutes of counting below each of the four root moves (about 20 M leaves a second).
    e.send("perft 13");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    e.send("stop");
    let lines = e.until(|l| l.contains("perft 13 stopped") || l.starts_with("perft 13:"));
    let took = sent.elapsed();
    assert!(lines.last().unwrap().contains("stopped"), "{lines:?}");
    assert!(took < Duration::from_secs(2), "stop took {took:?}");
    // The engine goes on: a small count afterwards is complete and right.
    e.send("perft 2");
    let lines = e.until(|l| l.starts_with("perft 2:"));
    let board = Board::start(10, 10, &corners10()).unwrap();
    let total = wedge::variant::perft::perft(&board, 2);
    let last = lines.last().unwrap();
    assert!(
        last.starts_with(&format!("perft 2: {total} leaves")),
        "{lines:?}"
    );
    e.send("quit");
}

#[test]
fn go_infinite_on_10x10_stops_at_once() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 4");
    e.send(CORNERS_10);
    e.send("go infinite");
    // At least one iteration, then stop in the middle of a deep one.
    e.until(|l| l.starts_with("info depth"));
    std::thread::sleep(Duration::from_millis(500));
    // isready is answered during the search.
    e.send("isready");
    e.until(|l| l == "readyok");
    let sent = Instant::now();
    e.send("stop");
    let (_, mv) = e.bestmove();
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(2), "stop took {took:?}");
    let board = Board::start(10, 10, &corners10()).unwrap();
    assert!(board.is_legal(parse_move(&mv).unwrap().unwrap()), "{mv}");
    // quit during an infinite search ends the process at once.
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth"));
    e.send("quit");
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn a_pass_position_answers_the_pass() {
    let mut e = Engine::start();
    // Red's one disc cannot flank white's; white can still play.
    e.send("position variant 2x4 board WR../.... R");
    e.send("query gameover");
    e.send("query p1turn");
    assert_eq!(
        e.until(|l| l.starts_with("response")),
        vec!["response false"]
    );
    assert_eq!(
        e.until(|l| l.starts_with("response")),
        vec!["response false"]
    );
    let (_, mv) = search(&mut e, "go depth 3");
    assert_eq!(mv, "pass");
    e.send("ugi");
    e.until(|l| l == "ugiok");
    let (_, mv) = search(&mut e, "go wtime 1000 btime 1000");
    assert_eq!(mv, "0000");
    // The forced pass may be left out of the move list; the game then ends.
    e.send("position variant 2x4 board WR../.... R moves c1");
    e.send("query gameover");
    assert_eq!(
        e.until(|l| l.starts_with("response")),
        vec!["response true"]
    );
    e.send("query result");
    assert_eq!(
        e.until(|l| l.starts_with("response")),
        vec!["response p1win"]
    );
    e.send("go depth 3");
    let (lines, mv) = e.bestmove();
    assert!(lines.contains(&"info string game over".to_string()));
    assert_eq!(mv, "0000");
    // Written explicitly, the pass is the same position.
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("position variant 2x4 board WR../.... R moves pass c1");
    e.send("go depth 1");
    assert_eq!(e.bestmove().1, "none");
}

/// The last iteration's score and nodes of `go depth <depth>` on the current position.
fn score_and_nodes(e: &mut Engine, depth: u32) -> (i32, u64, String) {
    let (info, mv) = search(e, &format!("go depth {depth}"));
    let last = info.last().unwrap();
    assert_eq!(field(last, "depth"), depth.to_string());
    (
        field(last, "cp").parse().unwrap(),
        field(last, "nodes").parse().unwrap(),
        mv,
    )
}

#[test]
fn minimax_gives_the_alpha_beta_score_with_more_nodes() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    for opt in [
        "option name AlphaBeta type check default true",
        "option name MoveOrder type combo default best var best var scanline",
        "option name VariantMobility type spin default",
        "option name VariantCorners type spin default",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(opt)), "{opt} not listed");
    }
    e.send("setoption name Hash value 4");
    e.send(&format!("{CORNERS_10} moves f4 e4 d5"));
    let (ab, ab_nodes, _) = score_and_nodes(&mut e, 4);
    e.send("setoption name AlphaBeta value false");
    let (mm, mm_nodes, _) = score_and_nodes(&mut e, 4);
    assert_eq!(ab, mm, "alpha-beta and minimax disagree");
    assert!(
        mm_nodes > ab_nodes,
        "minimax {mm_nodes} vs alpha-beta {ab_nodes}"
    );
    // The course's demonstration: scanline order, both ways.
    e.send("setoption name MoveOrder value scanline");
    let (mm_scan, mm_scan_nodes, _) = score_and_nodes(&mut e, 4);
    e.send("setoption name AlphaBeta value true");
    let (ab_scan, ab_scan_nodes, _) = score_and_nodes(&mut e, 4);
    assert_eq!((mm_scan, ab_scan), (ab, ab));
    assert_eq!(
        mm_scan_nodes, mm_nodes,
        "minimax visits every node in any order"
    );
    assert!(ab_scan_nodes < mm_scan_nodes);
    // Bad values change nothing; a weight changes the evaluation.
    for bad in [
        "setoption name AlphaBeta value maybe",
        "setoption name MoveOrder value random",
        "setoption name VariantCorners value 999999",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:#?}");
        assert!(
            lines[0].starts_with("info string error: setoption"),
            "{lines:#?}"
        );
    }
    e.send("setoption name MoveOrder value best");
    assert_eq!(score_and_nodes(&mut e, 4).0, ab);
    e.send("setoption name VariantMobility value 300");
    assert_ne!(score_and_nodes(&mut e, 4).0, ab);
}

#[test]
fn a_short_variant_match_between_two_wedge_engines() {
    let dir = std::env::temp_dir().join(format!("wedge-vm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.ggf");
    let w = env!("CARGO_BIN_EXE_wedge");
    let run = |args: &[&str]| {
        let output = std::process::Command::new(w)
            .arg("match")
            .args(args)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).to_string(),
            String::from_utf8_lossy(&output.stderr).to_string(),
        )
    };
    let a = format!("name=a cmd={w} option.Hash=4");
    let b = format!("name=b cmd={w} option.Hash=4 option.VariantMobility=0");
    let (code, report, err) = run(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--variant",
        "10x10",
        "--layout",
        "random:6",
        "--random-moves",
        "4",
        "--games",
        "4",
        "--depth",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{report}{err}");
    assert!(report.starts_with("a vs b: 4 games"), "{report}");
    assert!(report.contains("failures: none"), "{report}");
    assert!(report.contains("total 2; unpaired games: 0"), "{report}");
    let records = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = records.lines().collect();
    assert_eq!(lines.len(), 4, "{records}");
    for l in &lines {
        assert!(l.starts_with("(;GM[Othello variant]PC[wedge match]"), "{l}");
        assert!(l.contains("BO[10x10 "), "{l}");
        assert!(l.contains("RE["), "{l}");
        // The variant format's TI says the limit in words.
        assert!(l.contains("TI[depth 1]"), "{l}");
    }
    // Colours swap within a pair: a is white in one game and red in the other.
    assert!(
        lines[..2].iter().any(|l| l.contains("PW[a]PR[b]")),
        "{records}"
    );
    assert!(
        lines[..2].iter().any(|l| l.contains("PW[b]PR[a]")),
        "{records}"
    );
    // A clock, the built-in greedy player, and the corners layout.
    let (code, report, err) = run(&[
        "--engine",
        &a,
        "--engine",
        "greedy",
        "--variant",
        "8x10",
        "--games",
        "2",
        "--tc",
        "10+0.1",
    ]);
    assert_eq!(code, Some(0), "{report}{err}");
    assert!(report.starts_with("a vs greedy: 2 games"), "{report}");
    assert!(report.contains("failures: none"), "{report}");
    // GTP engines know no variant boards.
    let (code, _, err) = run(&[
        "--engine",
        &format!("name=g cmd={w} proto=gtp"),
        "--engine",
        "random",
        "--variant",
        "10x10",
    ]);
    assert_eq!(code, Some(1));
    assert!(err.contains("variant"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_hash_size_keeps_the_variant_table_and_what_it_holds() {
    let mut e = Engine::start();
    e.send("position variant 8x8");
    let (_, first, _) = score_and_nodes(&mut e, 7);
    e.send("setoption name Hash value 1048576");
    let lines = e.sync();
    assert!(
        lines.len() == 1 && lines[0].contains("is kept"),
        "{lines:?}"
    );
    // The same search again finds the first one's entries.
    let (_, again, _) = score_and_nodes(&mut e, 7);
    assert!(again < first, "{again} nodes, {first} the first time");
}
