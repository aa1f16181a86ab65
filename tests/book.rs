//! The shipped opening book: legal moves, symmetry, negamax consistency; the engine's use of it
//! (on/off, randomness) and the documented errors for bad book files.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use wedge::board::text::Game;
use wedge::board::{Board, Move, Position, Symmetry};
use wedge::book::build::{build, merge, BuildOptions, MergeError};
use wedge::book::grow::{extend, grow, learn, GrowOptions};
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
fn the_shipped_book_is_a_minimax_tree_from_the_start() {
    let b = book();
    assert!(assert_minimax_tree(&b) > 1000);
    assert!(b.line(Board::START, b.moves(Board::START)[0].mv, 60).len() >= 20);
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

fn small(depth: u32, exact_empties: u32) -> BuildOptions {
    BuildOptions {
        depth,
        exact_empties,
        threads: 2,
        hash_mb: 1,
    }
}

fn children(board: Board) -> Vec<Board> {
    let pos = Position {
        board,
        side: wedge::Color::Black,
    };
    pos.legal_move_list()
        .into_iter()
        .filter_map(|m| board.play_move(m))
        .collect()
}

/// Every inner position holds every child and scores their negamax; returns the inner count.
fn assert_minimax_tree(b: &Book) -> usize {
    let mut inner = 0;
    for e in b.entries() {
        if e.flags & FLAG_LEAF != 0 {
            continue;
        }
        inner += 1;
        let board = Board::new(e.player, e.opponent).unwrap();
        let kids = children(board);
        let mut best = i32::MIN;
        for c in &kids {
            let ce = b
                .get(*c)
                .unwrap_or_else(|| panic!("a child of {board:?} is missing"));
            best = best.max(-i32::from(ce.score));
        }
        assert_eq!(i32::from(e.score), best, "{board:?}");
        assert_eq!(b.moves(board).len(), kids.len());
    }
    inner
}

#[test]
fn a_book_grown_from_the_start_is_a_minimax_tree_of_likely_lines() {
    let options = small(3, 0);
    let seed = build(&[], &options, None, Shard::WHOLE, &|_, _| {}).unwrap();
    // The start and its one move up to symmetry.
    assert_eq!(seed.len(), 2);
    let grow_options = GrowOptions {
        window: 2,
        max_ply: 8,
    };
    let b = grow(&seed, &grow_options, 300, 40, &options, None, &|_, _| {}).unwrap();
    assert!((300..400).contains(&b.len()), "{} positions", b.len());
    assert!(assert_minimax_tree(&b) > 20);
    // The book's main line is held to its end by inner positions, and nothing past max_ply is
    // expanded.
    let line = b.line(Board::START, b.moves(Board::START)[0].mv, 60);
    assert!(line.len() >= 5, "{line:?}");
    for e in b.entries() {
        if e.flags & FLAG_LEAF == 0 {
            assert!((e.player | e.opponent).count_ones() - 4 <= 8);
        }
    }
    // Every expanded position but the start is a child of another expanded position.
    for e in b.entries().iter().filter(|e| e.flags & FLAG_LEAF == 0) {
        let board = Board::new(e.player, e.opponent).unwrap();
        if board.canonical().0 == Board::START.canonical().0 {
            continue;
        }
        let reached = b.entries().iter().any(|p| {
            let pb = Board::new(p.player, p.opponent).unwrap();
            p.flags & FLAG_LEAF == 0
                && children(pb)
                    .iter()
                    .any(|c| c.canonical().0 == board.canonical().0)
        });
        assert!(reached, "{board:?} is not connected to the start");
    }
}

#[test]
fn the_shards_of_an_extension_merge_into_the_whole_extension() {
    let options = small(2, 0);
    let grow_options = GrowOptions {
        window: 3,
        max_ply: 10,
    };
    let seed = build(&[], &options, None, Shard::WHOLE, &|_, _| {}).unwrap();
    let base = grow(&seed, &grow_options, 120, 30, &options, None, &|_, _| {}).unwrap();
    let step = |shard| extend(&base, &grow_options, 100, &options, None, shard, &|_, _| {});
    let whole = step(Shard::WHOLE).unwrap();
    assert!(whole.len() > base.len() && whole.len() <= base.len() + 100 + 20);
    assert_minimax_tree(&whole);
    let parts: Vec<Book> = (0..3)
        .map(|part| step(Shard { part, parts: 3 }).unwrap())
        .collect();
    assert!(parts.iter().all(|p| p.len() < whole.len()));
    assert_eq!(merge(&parts).unwrap().to_bytes(), whole.to_bytes());
    // One grow step of the same size is the same extension.
    let grown = grow(
        &base,
        &grow_options,
        whole.len(),
        100,
        &options,
        None,
        &|_, _| {},
    );
    assert_eq!(grown.unwrap().to_bytes(), whole.to_bytes());
}

/// A random legal game of `plies` moves from the start (passes included), by `seed`.
fn random_game(seed: u64, plies: usize) -> Game {
    let mut rng = wedge::rng::Rng::new(seed);
    let mut pos = Position::START;
    let mut moves = Vec::new();
    while moves.len() < plies && !pos.board.is_game_over() {
        let legal = pos.legal_move_list();
        let mv = legal[rng.below(legal.len() as u64) as usize];
        pos = pos.play(mv).unwrap();
        moves.push(mv);
    }
    Game {
        start: Position::START,
        moves,
    }
}

#[test]
fn a_learnt_game_is_in_the_book_with_every_deviation() {
    let options = small(2, 0);
    let seed = build(&[], &options, None, Shard::WHOLE, &|_, _| {}).unwrap();
    let game = random_game(7, 30);
    let learnt = learn(
        &seed,
        std::slice::from_ref(&game),
        &options,
        None,
        Shard::WHOLE,
        &|_, _| {},
    );
    let learnt = learnt.unwrap();
    assert_minimax_tree(&learnt);
    // Every position of the game is inner, with all its moves, the game's among them.
    let mut pos = game.start;
    for &mv in &game.moves {
        let e = learnt.get(pos.board).expect("the line is in the book");
        assert_eq!(e.flags & FLAG_LEAF, 0);
        let moves = learnt.moves(pos.board);
        assert_eq!(moves.len(), pos.legal_move_list().len());
        assert!(moves.iter().any(|m| m.mv == mv));
        pos = pos.play(mv).unwrap();
    }
    assert!(learnt.get(pos.board).is_some());
    // Learning the same game again adds nothing.
    let again = learn(&learnt, &[game], &options, None, Shard::WHOLE, &|_, _| {}).unwrap();
    assert_eq!(again.to_bytes(), learnt.to_bytes());
}

/// A position with 18 empties where learning a game along the book's choice corrects the choice:
/// the book (depth-1 leaves) picks a move, the game plays it, learning solves the position after
/// it exactly, and where the move turns out worse than another move's estimate, the book's choice
/// changes to that move.
#[test]
fn a_learnt_game_changes_the_choice_where_its_line_lost() {
    let options = small(1, 16);
    let mut solver = wedge::search::Solver::new(4);
    let mut changed = 0;
    for seed in 0..40 {
        let game = random_game(100 + seed, 42);
        let p = game.position();
        if p.board.empty_count() != 18 || !p.board.can_move() || p.board.must_pass() {
            continue;
        }
        let start = Game {
            start: p,
            moves: Vec::new(),
        };
        let before = learn(
            &Book::default(),
            &[start],
            &options,
            None,
            Shard::WHOLE,
            &|_, _| {},
        );
        let before = before.unwrap();
        let choice = before.moves(p.board)[0];
        let line = Game {
            start: p,
            moves: vec![choice.mv],
        };
        let after = learn(&before, &[line], &options, None, Shard::WHOLE, &|_, _| {}).unwrap();
        assert_minimax_tree(&after);
        // The learnt move's score is now its exact value.
        let child = p.board.play_move(choice.mv).unwrap();
        if child.must_pass() || child.is_game_over() {
            continue;
        }
        let exact = -solver.solve_exact(child).score;
        let learnt = after.moves(p.board);
        let m = learnt.iter().find(|m| m.mv == choice.mv).unwrap();
        assert_eq!(m.score, exact, "seed {seed}");
        // The others keep their estimates; the choice is the best of them all.
        let others = before
            .moves(p.board)
            .into_iter()
            .filter(|m| m.mv != choice.mv)
            .map(|m| m.score)
            .max();
        if others.is_some_and(|o| o > exact) {
            assert_ne!(learnt[0].mv, choice.mv, "seed {seed}");
            changed += 1;
        } else {
            assert_eq!(learnt[0].score, exact);
        }
    }
    assert!(changed > 0, "no learnt line changed the choice");
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
    // A shard left out, or given twice in place of another, leaves inner positions short of
    // their moves' positions: refused, not written as a smaller book.
    for partial in [
        vec![shards[0].clone(), shards[1].clone()],
        vec![shards[0].clone(), shards[0].clone(), shards[2].clone()],
    ] {
        assert!(
            matches!(merge(&partial), Err(MergeError::Incomplete { .. })),
            "{:?}",
            merge(&partial).map(|b| b.len())
        );
    }
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
    // Parts scored with other settings share no leaf, but their own leaves show it.
    let part = |options: &BuildOptions, part| {
        build(&games, options, None, Shard { part, parts: 3 }, &|_, _| {}).unwrap()
    };
    let mixed = [shards[0].clone(), part(&deeper, 1), shards[2].clone()];
    assert_eq!(
        merge(&mixed),
        Err(MergeError::OtherSettings { shards: (1, 2) })
    );
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
    // On by default: a timed go from the start is answered from the book, with an info line that
    // tells the book move as a search would (depth, score, the book's line as pv).
    let on = session(&["position startpos", "go movetime 50"], 1);
    assert!(
        on.iter().any(|l| l.starts_with("info string book move")),
        "{on:?}"
    );
    let info = on
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line for the book move");
    assert!(
        info.contains(" nodes 0 ") && info.contains(" pv "),
        "{info}"
    );
    let pv: Vec<Move> = info
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    assert!(pv.len() >= 10, "the book's line: {pv:?}");
    let mut pos = Position::START;
    for m in &pv {
        pos = pos.play(*m).expect("the book's line is legal");
    }
    let mv: Move = on
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(mv, pv[0]);
    // Off, and for go depth (a search of that size is asked for), no book move.
    let off = session(
        &[
            "setoption name OwnBook value false",
            "position startpos",
            "go movetime 50",
        ],
        1,
    );
    assert!(!off.iter().any(|l| l.contains("book move")), "{off:?}");
    let depth = session(&["position startpos", "go depth 2"], 1);
    assert!(!depth.iter().any(|l| l.contains("book move")));
    assert!(depth.iter().any(|l| l.starts_with("info depth 2")));
    // searchmoves asks for a search too, even when none of its moves is legal (all are searched).
    for go in [
        "go movetime 50 searchmoves f5",
        "go movetime 50 searchmoves a1",
    ] {
        let named = session(&["position startpos", go], 1);
        assert!(!named.iter().any(|l| l.contains("book move")), "{named:?}");
    }
    // With MultiPV above 1 the book's line is numbered as the first of the lines.
    let multipv = session(
        &[
            "setoption name MultiPV value 3",
            "position startpos",
            "go movetime 50",
        ],
        1,
    );
    assert!(
        multipv
            .iter()
            .any(|l| l.starts_with("info string book move")),
        "{multipv:?}"
    );
    assert!(
        multipv
            .iter()
            .any(|l| l.starts_with("info multipv 1 depth ") && l.contains(" nodes 0 ")),
        "{multipv:?}"
    );
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

/// A build killed (SIGKILL) in the middle loses no finished position: run again, it resumes from
/// its journal and writes the same book as a build that was never stopped.
#[test]
fn a_killed_build_resumes_from_its_journal_to_the_same_book() {
    let dir = std::env::temp_dir().join(format!("wedge-book-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = |out: &std::path::Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_wedge"));
        c.args(["book", "build", "--positions", "400", "--depth", "7"])
            .args(["--batch", "50", "--hash", "1", "--out"])
            .arg(out)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    let cut = dir.join("cut.book");
    let journal = dir.join("cut.book.journal");
    let mut child = args(&cut).spawn().unwrap();
    let lines = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let waited = std::time::Instant::now();
    while lines(&journal) < 100 && waited.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = lines(&journal);
    assert!(kept >= 100 && !cut.exists(), "{kept} journal lines");
    assert!(args(&cut).status().unwrap().success());
    let whole = dir.join("whole.book");
    assert!(args(&whole).status().unwrap().success());
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
    assert!(
        !journal.exists(),
        "the journal goes once the book is written"
    );
    let _ = std::fs::remove_dir_all(dir);
}
