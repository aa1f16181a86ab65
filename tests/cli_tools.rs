//! The tools' command lines against mistakes a user makes: an output that names an input (or the
//! other output), counts and numbers out of range, an SPRT of NaN, options that do not go
//! together, and a failed start that must leave earlier files alone. Each refusal is checked to
//! leave the files as they were.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn wedge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run wedge")
}

/// Asserts that a run failed with `expected` in its error and without a panic.
fn assert_refused(out: &Output, expected: &str, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{what} was accepted: {err}");
    assert!(err.contains(expected), "{what}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-tools-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn an_output_that_names_an_input_or_the_other_output_is_refused() {
    let dir = temp_dir("outputs");
    let obf = dir.join("one.obf");
    let ffo = std::fs::read_to_string("tests/data/fforum-1-19.obf").unwrap();
    std::fs::write(&obf, ffo.lines().next().unwrap()).unwrap();
    let games = dir.join("games.txt");
    std::fs::write(&games, "f5d6c3d3c4f4f6f3e6e7\n").unwrap();
    let weights = dir.join("w.txt");
    std::fs::write(&weights, "MobilityMid 3\n").unwrap();
    let kept: Vec<(PathBuf, Vec<u8>)> = [&obf, &games, &weights]
        .iter()
        .map(|p| (p.to_path_buf(), std::fs::read(p).unwrap()))
        .collect();
    let (o, g, w) = (s(&obf), s(&games), s(&weights));
    let report = dir.join("report.json");
    let r = s(&report);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["solve", o, "--json", o], "--json is one of the inputs"),
        (
            vec!["bench", "--depth", "1", "--eval-file", w, "--json", w],
            "--json is one of the inputs",
        ),
        (
            vec!["analyze", g, "--depth", "1", "--exact", "0", "--json", g],
            "--json is one of the inputs",
        ),
        (
            vec!["analyze", g, "--depth", "1", "--exact", "0", "--svg", g],
            "--svg is one of the inputs",
        ),
        (
            vec!["analyze", g, "--json", r, "--svg", r],
            "--svg and --json name the same file",
        ),
        (
            vec!["book", "build", "--openings", g, "--out", g, "--depth", "1"],
            "--out is one of the inputs",
        ),
        (
            vec!["book", "learn", g, "--out", g, "--depth", "1"],
            "--out is one of the inputs",
        ),
        (
            vec![
                "match", "--engine", "random", "--engine", "greedy", "--games", "2", "--out", r,
                "--json", r,
            ],
            "--json and --out name the same file",
        ),
        (
            vec![
                "match",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--games",
                "2",
                "--openings",
                g,
                "--json",
                g,
            ],
            "--json is one of the inputs",
        ),
    ];
    for (args, expected) in &cases {
        assert_refused(&wedge(args), expected, &args.join(" "));
        for (path, bytes) in &kept {
            assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", args.join(" "));
        }
        assert!(!report.exists(), "{}", args.join(" "));
    }
    // The same flags into files of their own still work.
    let out = wedge(&["solve", o, "--json", r]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&report)
        .unwrap()
        .contains("\"nodes\""));
    std::fs::remove_dir_all(&dir).ok();
}

/// A write goes through `<out>.partial` (and a merge's parts through `<part>.new`), which replaces
/// a file of that name: an input so named is refused, not lost.
#[test]
fn an_input_named_as_a_file_the_output_goes_through_is_refused() {
    let dir = temp_dir("partial");
    let games = dir.join("list.txt.partial");
    std::fs::write(&games, "f5d6c3d3c4f4f6f3e6e7\n").unwrap();
    let data = dir.join("d.wdb.partial");
    std::fs::copy("data/test/exact-20-24.wdb", &data).unwrap();
    let part = dir.join("z-000.wdb.new");
    std::fs::copy("data/test/exact-20-24.wdb", &part).unwrap();
    let list = dir.join("list.txt");
    let (d, z) = (dir.join("d.wdb"), dir.join("z.wdb"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["data", "positions", s(&games), "--out", s(&list)],
            "list.txt.partial: an input",
        ),
        (
            vec!["data", "merge", s(&data), "--out", s(&d)],
            "d.wdb.partial: one of the inputs",
        ),
        (
            vec!["data", "convert", s(&data), "--out", s(&d)],
            "d.wdb.partial: an input",
        ),
        (
            vec![
                "data",
                "merge",
                s(&part),
                "--out",
                s(&z),
                "--max-positions",
                "100000",
            ],
            "z-000.wdb.new: one of the inputs",
        ),
    ];
    let kept: Vec<(PathBuf, Vec<u8>)> = [&games, &data, &part]
        .iter()
        .map(|p| (p.to_path_buf(), std::fs::read(p).unwrap()))
        .collect();
    for (args, expected) in &cases {
        assert_refused(&wedge(args), expected, &args.join(" "));
        for (path, bytes) in &kept {
            assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", args.join(" "));
        }
    }
    assert!(!list.exists() && !d.exists() && !z.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn counts_and_tests_out_of_range_are_refused_not_bent() {
    // A book these refusals must never write (a path of this process alone).
    let never_path =
        std::env::temp_dir().join(format!("wedge-tools-never-{}.book", std::process::id()));
    let never = never_path.to_str().unwrap();
    let m = [
        "match", "--engine", "random", "--engine", "greedy", "--games", "2",
    ];
    let with = |extra: &[&'static str]| {
        let mut a = m.to_vec();
        a.extend(extra);
        wedge(&a)
    };
    for (extra, expected) in [
        (&["--concurrency", "0"][..], "--concurrency"),
        (&["--concurrency", "100000"][..], "--concurrency"),
        (&["--depth", "0"][..], "--depth"),
        (
            &["--movetime", "0"][..],
            "'0' is not a whole number of at least 1",
        ),
        (&["--nodes", "0"][..], "--nodes"),
        (&["--sprt", "elo0=nan elo1=5"][..], "nan"),
        (&["--sprt", "elo0=0 elo1=inf"][..], "inf"),
        (&["--sprt", "foo"][..], "--sprt"),
        (&["--tc", "abc"][..], "--tc"),
        (&["--games", "0"][..], "--games"),
    ] {
        let out = with(extra);
        assert_refused(&out, expected, &extra.join(" "));
        // A bad command line (docs/match.md): exit status 2.
        assert_eq!(out.status.code(), Some(2), "{}", extra.join(" "));
    }
    for (args, expected) in [
        (
            &["book", "build", "--out", never, "--depth", "0"][..],
            "--depth",
        ),
        (
            &["book", "build", "--out", never, "--exact-empties", "31"][..],
            "--exact-empties",
        ),
        (
            &["book", "build", "--out", never, "--hash", "999999"][..],
            "--hash",
        ),
        (
            &["book", "build", "--out", never, "--positions", "0"][..],
            "--positions",
        ),
        (&["perft", "0"][..], "1..=20"),
        (&["perft", "21"][..], "1..=20"),
        (&["variant", "perft", "--depth", "0"][..], "--depth"),
        (&["variant", "minimax", "--depth", "21"][..], "--depth"),
        (&["client", "--movetime", "0"][..], "--movetime"),
        (
            &[
                "solve",
                "tests/data/fforum-1-19.obf",
                "--first",
                "18446744073709551615",
            ][..],
            "--first",
        ),
    ] {
        assert_refused(&wedge(args), expected, &args.join(" "));
    }
    assert!(!never_path.exists());
}

#[test]
fn mpc_fit_from_scores_refuses_the_options_of_a_measurement() {
    let never = std::env::temp_dir().join(format!("wedge-tools-mpc-{}.txt", std::process::id()));
    for extra in [
        &["--depth", "3"][..],
        &["--positions", "5"][..],
        &["--seed", "2"][..],
        &["--jobs", "2"][..],
        &["--scores-out", "s.txt"][..],
    ] {
        let mut args = vec!["mpc", "fit", "--scores", "scores.txt", "--out", s(&never)];
        args.extend(extra);
        assert_refused(&wedge(&args), "cannot be used with", &extra.join(" "));
    }
    assert!(!never.exists());
}

#[test]
fn a_recount_refuses_the_options_that_plan_a_match() {
    let dir = temp_dir("recount");
    let games = dir.join("g.ggf");
    let played = wedge(&[
        "match",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--out",
        s(&games),
    ]);
    assert!(played.status.success());
    for extra in [
        &["--tc", "5+0"][..],
        &["--concurrency", "9"][..],
        &["--seed", "5"][..],
        &["--rounds", "3"][..],
    ] {
        let mut args = vec!["match", "--recount", s(&games)];
        args.extend(extra);
        assert_refused(&wedge(&args), "cannot be used with", &extra.join(" "));
    }
    let counted = wedge(&["match", "--recount", s(&games)]);
    assert!(counted.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn book_probe_reads_a_transcript_as_long_as_a_board() {
    // 32 moves (each side's last legal move in turn): 64 characters, as many as a board string.
    let mut pos = wedge::board::Position::START;
    let mut line = String::new();
    let mut written = 0;
    while written < 32 {
        if pos.board.must_pass() {
            // A transcript leaves forced passes out.
            pos = pos.play(wedge::board::Move::PASS).unwrap();
            continue;
        }
        let mv = *pos.legal_move_list().last().expect("a move");
        line.push_str(&mv.to_string());
        pos = pos.play(mv).unwrap();
        written += 1;
    }
    assert_eq!(line.len(), 64, "{line}");
    let out = wedge(&["book", "probe", &line]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("in book") || text.contains("not in"),
        "{text}"
    );
    // The same line with an illegal last move (a1, not legal there in this line): the
    // transcript's error, not a board's.
    let bad = format!("{}a1", &line[..line.len() - 2]);
    let out = wedge(&["book", "probe", &bad]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("move 32"), "{err}");
}

#[test]
fn a_server_that_cannot_listen_leaves_the_last_records() {
    let dir = temp_dir("records");
    let games = dir.join("games.ggf");
    std::fs::write(&games, "(;GM[Othello variant]RE[draw];)\n").unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = wedge(&["server", "2", "--port", &port, "--records", s(&dir)]);
    assert_refused(&out, "listening on", "a server on a port in use");
    assert_eq!(
        std::fs::read_to_string(&games).unwrap(),
        "(;GM[Othello variant]RE[draw];)\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_refuses_an_autosave_it_cannot_write_before_the_game() {
    let dir = temp_dir("autosave");
    let out = wedge(&["play", "--autosave", s(&dir)]);
    assert_refused(&out, "a folder", "--autosave into a folder");
    let out = wedge(&["play", "--resume", "--no-autosave"]);
    assert_refused(&out, "cannot be used with", "--resume --no-autosave");
    let never_saved = dir.join("never.ggf");
    let out = wedge(&["play", "--resume", "--autosave", s(&never_saved)]);
    assert_refused(&out, "no saved game to resume", "--resume before any game");
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `wedge args...` with its standard output on `/dev/full`, where every write fails.
#[cfg(target_os = "linux")]
fn wedge_into_a_full_disk(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .expect("run wedge")
}

#[test]
#[cfg(target_os = "linux")]
fn output_that_cannot_be_written_is_an_error_and_the_files_are_kept() {
    let dir = temp_dir("full");
    let games = dir.join("games.txt");
    std::fs::write(&games, "f5d6c3\nf5f6\n").unwrap();
    let json = dir.join("a.json");
    let out = wedge_into_a_full_disk(&[
        "analyze",
        s(&games),
        "--depth",
        "2",
        "--exact",
        "8",
        "--jobs",
        "1",
        "--json",
        s(&json),
    ]);
    assert_refused(
        &out,
        "cannot write to standard output",
        "analyze into a full disk",
    );
    let doc = std::fs::read_to_string(&json).expect("the JSON is written");
    assert!(doc.contains("\"games\""), "{doc}");
    for args in [
        &["book", "export"][..],
        &["book", "stats"],
        &["perft", "3", "--divide"],
    ] {
        let out = wedge_into_a_full_disk(args);
        assert_refused(&out, "cannot write to standard output", &args.join(" "));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg(target_os = "linux")]
fn tables_that_cannot_fit_together_are_refused_before_any_is_made() {
    // 256 threads of 9 GB of tables each: 2.3 TB, more than any machine here holds, refused as a
    // whole (one thread's tables alone may fit).
    let dir = temp_dir("room");
    let book = dir.join("b.book");
    let out = wedge(&[
        "book",
        "build",
        "--out",
        s(&book),
        "--threads",
        "256",
        "--hash",
        "4096",
        "--depth",
        "1",
        "--positions",
        "3",
    ]);
    // Linux says what memory there is; elsewhere nothing is refused in advance.
    assert_refused(&out, "tables together", "book build of 256 x 9 GB");
    assert!(!dir.join("b.book.journal").exists(), "a journal was left");
    assert!(!book.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_merge_names_the_files_that_do_not_go_together() {
    let dir = temp_dir("merge");
    let (a, b) = (dir.join("a.book"), dir.join("b.book"));
    for (path, depth) in [(&a, "2"), (&b, "3")] {
        let out = wedge(&[
            "book",
            "build",
            "--out",
            s(path),
            "--depth",
            depth,
            "--positions",
            "5",
        ]);
        assert!(out.status.success(), "{out:?}");
    }
    let merged = dir.join("m.book");
    let out = wedge(&["book", "merge", s(&a), s(&b), "--out", s(&merged)]);
    assert_refused(
        &out,
        &format!("book 1: {}, book 2: {}", s(&a), s(&b)),
        "merge",
    );
    assert!(!merged.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A binary file of wedge's given where text is read is named for what it is, not reported as a
/// line that is not UTF-8.
#[test]
fn a_binary_file_where_text_is_read_is_named() {
    let root = env!("CARGO_MANIFEST_DIR");
    let net = format!("{root}/src/eval/net.bin");
    let out = wedge(&["data", "info", &net]);
    assert_refused(
        &out,
        "net.bin:1: a binary file (a pattern network), not text",
        "data info",
    );
    let book = format!("{root}/book/wedge.book");
    let out = wedge(&["analyze", &book]);
    assert_refused(
        &out,
        "wedge.book:1: a binary file (an opening book), not text",
        "analyze",
    );
}

/// A book's `--out` that holds something else (a mistyped game file, notes) is not replaced; a
/// book there is rebuilt.
#[test]
fn a_book_out_that_is_not_a_book_is_not_replaced() {
    let dir = temp_dir("book-out");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let build = |out: &std::path::Path| {
        wedge(&[
            "book",
            "build",
            "--out",
            s(out),
            "--depth",
            "2",
            "--positions",
            "3",
        ])
    };
    let out = build(&notes);
    assert_refused(
        &out,
        "holds something other than a book",
        "book build over notes",
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    let book = dir.join("b.book");
    for _ in 0..2 {
        let out = build(&book);
        assert!(out.status.success(), "{out:?}");
    }
    let out = wedge(&["book", "merge", s(&book), "--out", s(&notes)]);
    assert_refused(
        &out,
        "holds something other than a book",
        "book merge over notes",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `variant` with a board file takes the file's size: `--size` is not read then, a bad one
/// included, as its help says.
#[test]
fn a_variant_board_file_sets_the_size() {
    let dir = temp_dir("variant-file");
    let file = dir.join("board.txt");
    std::fs::write(&file, "W R .\n. . .\n. . .\nto move: R\n").unwrap();
    let out = wedge(&[
        "variant",
        "perft",
        "--size",
        "1x1",
        "--blocked",
        s(&file),
        "--depth",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("3x3 from"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
