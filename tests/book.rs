//! The shipped opening book: legal moves, symmetry, negamax consistency; the engine's use of it
//! (on/off, randomness) and the documented errors for bad book files.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use wedge::board::{Board, Move, Position, Symmetry};
use wedge::book::build::{build, merge, BuildOptions, MergeError};
use wedge::book::{Book, FLAG_LEAF};
use wedge::tools::arena::Shard;

fn book() -> Book {
    Book::embedded().expect("the embedded book loads")
}

#[test]
fn shipped_book_is_sizeable_and_starts_at_the_start() {
    let b = book();
    assert!(b.len() > 10_000, "{} positions", b.len());
    assert_eq!(b.moves(Board::START).len(), 4);
}

#[test]
fn every_book_move_is_legal_and_inner_scores_negamax() {
    let b = book();
    let mut inner = 0;
    for e in b.entries() {
        let board = Board::new(e.player, e.opponent).unwrap();
        let moves = b.moves(board);
        for m in &moves {
            assert!(board.is_legal(m.mv), "{m:?} in {board:?}");
        }
        if e.flags & FLAG_LEAF == 0 {
            inner += 1;
            assert!(!moves.is_empty(), "inner position without book moves");
            let best = moves.iter().map(|m| m.score).max().unwrap();
            assert_eq!(i32::from(e.score), best, "{board:?}");
        }
    }
    assert!(inner > 100);
}

#[test]
fn symmetric_images_give_transformed_moves() {
    let b = book();
    for e in b.entries().iter().step_by(97) {
        let board = Board::new(e.player, e.opponent).unwrap();
        let moves = b.moves(board);
        for s in Symmetry::ALL {
            let t = b.moves(board.transform(s));
            let mut expected: Vec<(Move, i32)> = moves
                .iter()
                .map(|m| {
                    let mv = match m.mv.square() {
                        Some(sq) => Move::play(s.apply_square(sq)),
                        None => Move::PASS,
                    };
                    (mv, m.score)
                })
                .collect();
            let mut got: Vec<(Move, i32)> = t.iter().map(|m| (m.mv, m.score)).collect();
            expected.sort_by_key(|&(m, s)| (s, m.code()));
            got.sort_by_key(|&(m, s)| (s, m.code()));
            assert_eq!(got, expected);
        }
    }
}

#[test]
fn build_negamaxes_a_small_tree() {
    let games: Vec<wedge::board::text::Game> = ["f5d6c3", "f5d6c5", "f5f6", "d3"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    let options = BuildOptions {
        depth: 3,
        exact_empties: 0,
        threads: 1,
        hash_mb: 1,
    };
    let b = build(&games, &options, None, Shard::WHOLE, &|_, _| {}).unwrap();
    // Root, f5 (= d3 by symmetry), f5d6, and leaves f5d6c3, f5d6c5, f5f6.
    assert_eq!(b.len(), 6);
    let after_f5: Board = wedge::board::text::board_after("f5").unwrap();
    let moves = b.moves(after_f5);
    assert_eq!(moves.len(), 2);
    assert_eq!(i32::from(b.get(after_f5).unwrap().score), moves[0].score);
    assert_eq!(
        i32::from(b.get(Board::START).unwrap().score),
        -i32::from(b.get(after_f5).unwrap().score)
    );
}

#[test]
fn the_shards_of_a_build_merge_into_the_whole_build() {
    let games: Vec<wedge::board::text::Game> = std::fs::read_to_string("tests/data/xot-sample.txt")
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(12)
        .map(|t| t.parse().unwrap())
        .collect();
    let options = BuildOptions {
        depth: 4,
        exact_empties: 0,
        threads: 2,
        hash_mb: 1,
    };
    let whole = build(&games, &options, None, Shard::WHOLE, &|_, _| {}).unwrap();
    let shards: Vec<Book> = (0..3)
        .map(|part| {
            let shard = Shard { part, parts: 3 };
            build(&games, &options, None, shard, &|_, _| {}).unwrap()
        })
        .collect();
    let merged = merge(&shards).unwrap();
    assert_eq!(merged.to_bytes(), whole.to_bytes(), "byte for byte");
    // Shards of another build are refused: other openings, or other leaf scores.
    let fewer = build(
        &games[..6],
        &options,
        None,
        Shard { part: 0, parts: 3 },
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(
        merge(&[shards[0].clone(), fewer]),
        Err(MergeError::OtherOpenings { first: 1, other: 2 })
    );
    let deeper = BuildOptions {
        depth: 5,
        ..options
    };
    let other = build(&games, &deeper, None, Shard::WHOLE, &|_, _| {}).unwrap();
    assert!(matches!(
        merge(&[whole, other]),
        Err(MergeError::OtherScores { shards: (1, 2), .. })
    ));
}

fn session(lines: &[&str], until: usize) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    let out: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .collect();
    let _ = child.wait();
    assert!(
        out.iter().filter(|l| l.starts_with("bestmove")).count() >= until,
        "{out:#?}"
    );
    out
}

#[test]
fn book_on_and_off() {
    let on = session(
        &[
            "setoption name OwnBook value true",
            "position startpos",
            "go movetime 50",
        ],
        1,
    );
    assert!(
        on.iter().any(|l| l.starts_with("info string book move")),
        "{on:?}"
    );
    // Off by default.
    let off = session(&["position startpos", "go depth 2"], 1);
    assert!(!off.iter().any(|l| l.contains("book move")));
    assert!(off.iter().any(|l| l.starts_with("info depth 2")));
    // Book moves are legal.
    let mv: Move = on
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(Position::START.play(mv).is_some());
}

#[test]
fn bad_book_files_are_rejected_with_the_file_named() {
    let dir = std::env::temp_dir().join(format!("wedge-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("broken.book");
    let mut bytes = book().to_bytes();
    bytes.truncate(bytes.len() - 7);
    std::fs::write(&bad, &bytes).unwrap();
    let err = Book::load(&bad).unwrap_err().to_string();
    assert!(
        err.contains("broken.book") && err.contains("truncated"),
        "{err}"
    );
    let out = session(
        &[
            "setoption name OwnBook value true",
            &format!("setoption name BookFile value {}", bad.display()),
            "position startpos",
            "go movetime 50",
        ],
        1,
    );
    assert!(out
        .iter()
        .any(|l| l.starts_with("info string error: BookFile:") && l.contains("broken.book")));
    // The previous (built-in) book stays in use.
    assert!(out.iter().any(|l| l.starts_with("info string book move")));
}
