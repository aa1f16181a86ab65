//! The training pipeline's data side: `datagen` output, resumption, label kinds, and the error
//! measures `evaltest` and `train` report.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wedge::board::text::read_openings_file;
use wedge::eval::Evaluator;
use wedge::search::selectivity::default_level;
use wedge::search::{Searcher, Solver};
use wedge::tools::train::{
    datagen, read_samples, search_label, DatagenError, DatagenOptions, EmptiesErrors, Sample,
};

fn temp_path(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("wedge-training-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn openings() -> Vec<wedge::board::text::Game> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/xot-sample.txt");
    read_openings_file(&path).expect("the vendored XOT sample parses")
}

/// Runs datagen into a fresh temporary file and reads the samples back.
/// A small run of the exact-12 recipe with depth-3 search labels: `games` games, seed `seed`.
fn small_labelled(games: usize, seed: u64) -> DatagenOptions {
    DatagenOptions {
        games,
        depth: 2,
        exact_empties: 12,
        seed,
        label_depth: Some(3),
        ..DatagenOptions::default()
    }
}

/// Labels for text inputs of a merge (none of these tests merges text).
const OUTCOME_LABELS: wedge::tools::train::TextLabels = wedge::tools::train::TextLabels {
    kind: wedge::tools::train::LabelKind::Outcome,
    depth: 0,
    exact_empties: 0,
};

fn generate(name: &str, options: &DatagenOptions) -> (PathBuf, Vec<Sample>) {
    let out = temp_path(name);
    let played = datagen(&openings(), options, &out, &|_, _| {}).expect("datagen runs");
    assert_eq!(played, options.games);
    let samples = read_samples(&out).expect("datagen output reads back");
    (out, samples)
}

#[test]
fn datagen_writes_exact_labels_and_resumes() {
    let options = DatagenOptions {
        games: 2,
        depth: 2,
        exact_empties: 12,
        seed: 3,
        ..DatagenOptions::default()
    };
    let (out, samples) = generate("exact.txt", &options);
    assert!(samples.len() > 40, "{} positions", samples.len());
    // Positions in the solved part carry their exact score.
    let mut solver = Solver::new(16);
    let mut checked = 0;
    for s in samples.iter().filter(|s| s.board.empty_count() <= 12) {
        assert_eq!(s.label as i32, solver.solve_exact(s.board).score);
        checked += 1;
    }
    assert!(checked >= 10, "{checked} solved positions");
    // Asking for 3 games plays only the missing one.
    let more = DatagenOptions {
        games: 3,
        ..options
    };
    assert_eq!(datagen(&openings(), &more, &out, &|_, _| {}).unwrap(), 1);
    let text = std::fs::read_to_string(&out).unwrap();
    for n in 0..3 {
        assert_eq!(
            text.matches(&format!("# game {n}\n")).count(),
            1,
            "game {n}"
        );
    }
    let _ = std::fs::remove_file(&out);
}

#[test]
fn datagen_deep_search_labels_and_empties_filter() {
    let options = DatagenOptions {
        games: 6,
        depth: 2,
        exact_empties: 10,
        seed: 5,
        label_depth: Some(6),
        keep: (20, 30),
        selectivity: default_level(),
        ..DatagenOptions::default()
    };
    let (out, samples) = generate("deep.txt", &options);
    assert!(samples.len() >= 10, "{} positions", samples.len());
    let mut searcher = Searcher::new(16, Evaluator::default());
    let stop = Arc::new(AtomicBool::new(false));
    // A game's labels share one table, cleared before its first: replayed in the file's order,
    // with the table cleared where a new game starts. (With this seed a replay that clears the
    // table before every label gets a label wrong.)
    let mut last = None;
    let mut games = 0;
    for s in &samples {
        let n = s.board.empty_count();
        assert!((20..=30).contains(&n), "{n} empties kept");
        if last != Some(s.game) {
            searcher.clear();
            games += 1;
        }
        last = Some(s.game);
        let label = search_label(s.board, 6, default_level(), &mut searcher, &stop)
            .expect("a disc score")
            .0;
        assert_eq!(s.label as i32, label, "{:?}", s.board);
    }
    assert_eq!(games, 6);
    let _ = std::fs::remove_file(&out);
}

#[test]
fn datagen_siblings_are_every_move_of_the_solved_positions_with_exact_labels() {
    let base = DatagenOptions {
        games: 1,
        depth: 2,
        exact_empties: 11,
        seed: 5,
        keep: (0, 10),
        ..DatagenOptions::default()
    };
    let (plain_out, plain) = generate("plain.txt", &base);
    // The whole game line (every empties count), to find each sibling's parent in.
    let (line_out, line) = generate(
        "line.txt",
        &DatagenOptions {
            keep: (0, 60),
            ..base.clone()
        },
    );
    let (out, samples) = generate(
        "siblings.txt",
        &DatagenOptions {
            siblings: true,
            ..base
        },
    );
    // The same game: its positions come first, unchanged, then the siblings, each once.
    assert!(
        samples.len() > 2 * plain.len(),
        "{} positions",
        samples.len()
    );
    for (a, b) in plain.iter().zip(&samples) {
        assert_eq!((a.board, a.label), (b.board, b.label));
    }
    let mut boards = std::collections::HashSet::new();
    for s in &samples {
        assert!(boards.insert(s.board), "{:?} written twice", s.board);
    }
    let mut solver = Solver::new(16);
    for s in &samples[plain.len()..] {
        assert!(s.board.empty_count() <= 10);
        assert_eq!(
            s.label as i32,
            solver.solve_exact(s.board).score,
            "{:?}",
            s.board
        );
        // A sibling is one move away from a position of the line with one empty more.
        let has_parent = line.iter().any(|p| {
            let moves = p.board.legal_moves().0;
            (0..64u8).filter(|&sq| moves >> sq & 1 == 1).any(|sq| {
                wedge::board::Square::new(sq)
                    .and_then(|sq| p.board.play_move(wedge::board::Move::play(sq)))
                    == Some(s.board)
            })
        });
        assert!(has_parent, "{:?} has no parent", s.board);
    }
    for path in [out, plain_out, line_out] {
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn empties_errors_by_hand() {
    let out = temp_path("errors.txt");
    // Two positions with 60 empties, one with 59: labels 2, -4 and 10 against a constant 1.
    let start = "---------------------------OX------XO--------------------------- X";
    let after = "-------------------X-------XX------XO--------------------------- O";
    std::fs::write(&out, format!("{start} 2\n{start} -4\n{after} 10\n")).unwrap();
    let samples = read_samples(&out).unwrap();
    let e = EmptiesErrors::measure(&samples, |_| 1.0);
    assert_eq!(e.count(60, 60), 2);
    assert_eq!(e.count(59, 59), 1);
    assert_eq!(e.mae(60, 60), Some(3.0));
    assert_eq!(e.mae(59, 60), Some(5.0));
    assert_eq!(e.mae(0, 58), None);
    assert_eq!(e.count(60, 59), 0);
    assert_eq!(e.mae(60, 59), None);
    // The signed mean: 1 - 2 and 1 + 4 at 60 empties, 1 - 10 at 59.
    assert_eq!(e.bias(60, 60), Some(2.0));
    assert_eq!(e.bias(59, 59), Some(-9.0));
    assert!((e.bias(59, 60).unwrap() + 5.0 / 3.0).abs() < 1e-12);
    assert_eq!(e.bias(0, 58), None);
    let _ = std::fs::remove_file(&out);
}

/// `wedge train --init` with a file that does not exist is refused, naming the file.
#[test]
fn train_init_file_must_exist() {
    let data = temp_path("init-data.txt");
    std::fs::write(
        &data,
        "---------------------------XO------OX--------------------------- X 0\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["train", "--data"])
        .arg(&data)
        .args(["--out"])
        .arg(temp_path("init-out.bin"))
        .args(["--init", "no-such-init.bin"])
        .output()
        .expect("the wedge binary runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-init.bin"));
}

/// Game `n` of a data file depends on the seed and `n` alone: 1 or 2 threads, one run or a run
/// resumed after a write cut mid-line (as a `kill -9` leaves it) give the same file, game by game.
#[test]
fn datagen_games_are_reproducible_and_a_torn_tail_is_cut_on_resume() {
    let options = DatagenOptions {
        games: 4,
        depth: 2,
        exact_empties: 10,
        randomness: 300,
        seed: 9,
        ..DatagenOptions::default()
    };
    let games_of = |path: &PathBuf| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut games: Vec<String> = Vec::new();
        let mut current = String::new();
        for line in text.lines() {
            current.push_str(line);
            current.push('\n');
            if line.starts_with("# game ") {
                games.push(std::mem::take(&mut current));
            }
        }
        assert!(current.is_empty(), "a torn game at the end: {current:?}");
        games.sort();
        games
    };
    let (one, _) = generate("repro-1.txt", &options);
    let two_threads = DatagenOptions {
        threads: 2,
        ..options
    };
    let (two, _) = generate("repro-2.txt", &two_threads);
    assert_eq!(games_of(&one), games_of(&two));

    // Two games, then a write cut in the middle of a third game's lines.
    let resumed = temp_path("repro-resumed.txt");
    let first = DatagenOptions {
        games: 2,
        ..options
    };
    datagen(&openings(), &first, &resumed, &|_, _| {}).unwrap();
    let whole = std::fs::read(&one).unwrap();
    let mut torn = std::fs::read(&resumed).unwrap();
    torn.extend_from_slice(&whole[..40]); // part of some game's first line
    std::fs::write(&resumed, &torn).unwrap();
    // A process that another test of this binary spawns holds a copy of every open file (the
    // lock of the first run's file included) from its fork until its exec: wait that moment out.
    let mut again = datagen(&openings(), &options, &resumed, &|_, _| {});
    for _ in 0..100 {
        if !matches!(again, Err(DatagenError::Busy(_))) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        again = datagen(&openings(), &options, &resumed, &|_, _| {});
    }
    assert_eq!(again.unwrap(), 2);
    assert!(read_samples(&resumed).is_ok());
    assert_eq!(games_of(&resumed), games_of(&one));

    // A line damaged before the end is no torn tail: the run refuses the file, naming the line,
    // and leaves it as it was rather than appending to it.
    let mut damaged = std::fs::read(&resumed).unwrap();
    let second_line = damaged.iter().position(|&b| b == b'\n').unwrap() + 1;
    damaged[second_line] = 0xff;
    std::fs::write(&resumed, &damaged).unwrap();
    let more = DatagenOptions {
        games: 6,
        ..options
    };
    let refused = datagen(&openings(), &more, &resumed, &|_, _| {});
    let Err(DatagenError::Text(e)) = refused else {
        panic!("a damaged text file was resumed: {refused:?}");
    };
    assert_eq!((e.path.as_path(), e.line), (resumed.as_path(), 2));
    assert_eq!(std::fs::read(&resumed).unwrap(), damaged);
    for p in [one, two, resumed] {
        let _ = std::fs::remove_file(p);
    }
}

fn wedge(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(args)
        .output()
        .expect("the wedge binary runs")
}

/// Empty inputs are errors that name the file, not an all-zero result with exit status 0.
#[test]
fn empty_data_openings_and_weights_are_errors() {
    let empty = temp_path("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let e = empty.to_str().unwrap();
    let out_file = temp_path("empty-out.bin");
    let o = out_file.to_str().unwrap();
    for args in [
        vec!["train", "--data", e, "--out", o],
        vec!["evaltest", "--data", e],
        vec!["book", "build", "--openings", e, "--out", o],
        vec!["weights", "dump", "--from", e],
    ] {
        let out = wedge(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} exited 0");
        assert!(err.contains(e), "{args:?}: {err}");
    }
    assert!(!out_file.exists(), "nothing is written from nothing");
    let _ = std::fs::remove_file(empty);
}

/// A book build's journal remembers the arguments that decide its scores: resuming with others is
/// refused, naming both.
#[test]
fn a_book_journal_is_resumed_only_with_its_own_arguments() {
    let openings = temp_path("journal-openings.txt");
    std::fs::write(&openings, "f5d6c3d3c4\nf5f6e6f4\n").unwrap();
    let book = temp_path("journal.book");
    let journal = PathBuf::from(format!("{}.journal", book.display()));
    let header = "# wedge book journal: depth 6 exact-empties 14 selectivity 73\n";
    std::fs::write(&journal, header).unwrap();
    let (op, bk) = (openings.to_str().unwrap(), book.to_str().unwrap());
    let args = ["book", "build", "--openings", op, "--out", bk];
    let out = wedge(&[&args[..], &["--depth", "4"]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("depth 6 exact-empties 14") && err.contains("depth 4 exact-empties"),
        "{err}"
    );
    // The same arguments resume (and finish) the build.
    let out = wedge(&[&args[..], &["--depth", "6", "--exact-empties", "14"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(book.exists());
    for p in [openings, book, journal] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn binary_datagen_resumes_after_a_cut_and_shards_merge_into_the_whole_run() {
    use wedge::tools::train::{merge, read_data_file, LabelKind};
    let options = small_labelled(4, 21);
    let whole = temp_path("whole.wdb");
    datagen(&openings(), &options, &whole, &|_, _| {}).unwrap();
    let data = read_data_file(&whole).unwrap();
    assert_eq!(data.blocks.len(), 4);
    // The solved part carries exact labels, the rest depth-3 search labels (a depth-3 search
    // from more than 12 empties cannot see the end of these games).
    for r in data.blocks.iter().flat_map(|b| &b.records) {
        let expected = if r.position.board.empty_count() <= 12 {
            (LabelKind::Exact, 0)
        } else {
            (LabelKind::Search, 3)
        };
        assert_eq!((r.kind, r.depth), expected, "{r:?}");
    }

    // Cut in the middle of the last game's block: the resumed run plays that game again only.
    let cut = temp_path("cut.wdb");
    let bytes = std::fs::read(&whole).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 25]).unwrap();
    assert_eq!(datagen(&openings(), &options, &cut, &|_, _| {}).unwrap(), 1);
    let resumed = read_data_file(&cut).unwrap();
    assert_eq!(resumed.torn_bytes, 0);
    let mut a = data.blocks.clone();
    let mut b = resumed.blocks.clone();
    a.sort_by_key(|x| x.game);
    b.sort_by_key(|x| x.game);
    assert_eq!(a, b);

    // Shards 1/2 and 2/2, merged, give what the whole run gives, merged.
    let (s1, s2) = (temp_path("s1.wdb"), temp_path("s2.wdb"));
    for (path, part) in [(&s1, 0), (&s2, 1)] {
        let shard = DatagenOptions {
            shard: (part, 2),
            ..options.clone()
        };
        assert_eq!(datagen(&openings(), &shard, path, &|_, _| {}).unwrap(), 2);
    }
    let (m1, m2) = (temp_path("m1.wdb"), temp_path("m2.wdb"));
    merge(&[s2.clone(), s1.clone()], Some(OUTCOME_LABELS), &m1, None).unwrap();
    merge(
        std::slice::from_ref(&whole),
        Some(OUTCOME_LABELS),
        &m2,
        None,
    )
    .unwrap();
    assert_eq!(std::fs::read(&m1).unwrap(), std::fs::read(&m2).unwrap());
    // Training reads the binary file.
    assert_eq!(
        read_samples(&m2).unwrap().len(),
        read_data_file(&m2)
            .unwrap()
            .blocks
            .iter()
            .map(|b| b.records.len())
            .sum::<usize>()
    );
    for p in [whole, cut, s1, s2, m1, m2] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn a_version_1_data_file_is_resumed_in_version_1_and_merges_into_version_2() {
    use wedge::tools::train::{file_header, merge, read_data_file};
    let options = small_labelled(3, 23);
    let fresh = temp_path("fresh.wdb");
    datagen(&openings(), &options, &fresh, &|_, _| {}).unwrap();
    let data = read_data_file(&fresh).unwrap();
    assert_eq!((data.version, data.blocks.len()), (2, 3));
    // The same first game in a version 1 file: the run plays
    // the other two and writes them in the file's own version.
    let old = temp_path("old.wdb");
    let first = data.blocks.iter().find(|b| b.game == 0).unwrap();
    let mut bytes = file_header(1).to_vec();
    bytes.extend_from_slice(&first.to_bytes(1));
    std::fs::write(&old, &bytes).unwrap();
    assert_eq!(datagen(&openings(), &options, &old, &|_, _| {}).unwrap(), 2);
    let resumed = read_data_file(&old).unwrap();
    assert_eq!(resumed.version, 1);
    let sorted = |mut v: Vec<wedge::tools::train::Block>| {
        v.sort_by_key(|b| b.game);
        v
    };
    assert_eq!(sorted(resumed.blocks), sorted(data.blocks.clone()));
    // Merged, both give the same version 2 file, smaller than version 1 by far.
    let (m1, m2) = (temp_path("m-old.wdb"), temp_path("m-fresh.wdb"));
    merge(std::slice::from_ref(&old), Some(OUTCOME_LABELS), &m1, None).unwrap();
    merge(
        std::slice::from_ref(&fresh),
        Some(OUTCOME_LABELS),
        &m2,
        None,
    )
    .unwrap();
    let merged = std::fs::read(&m1).unwrap();
    assert_eq!(merged, std::fs::read(&m2).unwrap());
    assert_eq!(read_data_file(&m1).unwrap().version, 2);
    assert!(merged.len() * 3 < std::fs::metadata(&old).unwrap().len() as usize);
    // `wedge data convert` rewrites the version 1 file as it is, and refuses to overwrite it.
    let conv = temp_path("conv.wdb");
    let (o, c) = (old.to_str().unwrap(), conv.to_str().unwrap());
    let out = wedge(&["data", "convert", o, "--out", c]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let converted = read_data_file(&conv).unwrap();
    assert_eq!(converted.version, 2);
    assert_eq!(converted.blocks, read_data_file(&old).unwrap().blocks);
    let info = wedge(&["data", "info", c]);
    assert!(String::from_utf8_lossy(&info.stdout).contains("format version 2, 3 games"));
    let same = wedge(&["data", "convert", o, "--out", o]);
    assert!(!same.status.success());
    assert!(String::from_utf8_lossy(&same.stderr).contains("--out is one of the inputs"));
    assert_eq!(read_data_file(&old).unwrap().version, 1);
    for p in [fresh, old, m1, m2, conv] {
        let _ = std::fs::remove_file(p);
    }
}

/// `wedge evaltest --data FILE --depth D --selectivity S`.
fn evaltest_search(data: &str, depth: &str, percent: &str) -> std::process::Output {
    wedge(&[
        "evaltest",
        "--data",
        data,
        "--depth",
        depth,
        "--selectivity",
        percent,
    ])
}

/// The columns of evaltest's `all` row: all, positions, then one error per column.
fn all_row(out: &std::process::Output) -> Vec<String> {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find(|l| l.trim_start().starts_with("all"))
        .unwrap_or_else(|| panic!("no 'all' row: {text}"))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// `evaltest --depth`: a full-width search that reaches the end of the game is exact, so against
/// exact labels its column reads 0.00, while the static evaluations' do not.
#[test]
fn evaltest_measures_searches_of_a_depth() {
    let options = DatagenOptions {
        games: 2,
        depth: 2,
        exact_empties: 10,
        keep: (4, 10),
        seed: 5,
        ..DatagenOptions::default()
    };
    let (path, samples) = generate("evaltest-depth.txt", &options);
    assert!(samples.len() >= 10);
    let p = path.to_str().unwrap();
    let out = evaltest_search(p, "12", "100");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("depth 12"), "{text}");
    // all, positions, hand, trained, depth 12, the last one's bias
    let all = all_row(&out);
    assert_eq!(all.len(), 6, "{text}");
    assert_eq!(all[4], "0.00", "{text}");
    assert_eq!(all[5], "+0.00", "{text}");
    assert_ne!(all[3], "0.00", "{text}");
    assert!(!evaltest_search(p, "4", "50").status.success());
    let _ = std::fs::remove_file(path);

    // In the midgame the selectivity is the search's: Multi-ProbCut at 73% and a full-width
    // search of the same depth disagree on some positions.
    let options = DatagenOptions {
        games: 4,
        keep: (30, 40),
        seed: 6,
        ..options
    };
    let (path, samples) = generate("evaltest-selectivity.txt", &options);
    assert!(samples.len() >= 20);
    let p = path.to_str().unwrap();
    let column = |percent: &str| all_row(&evaltest_search(p, "8", percent)).get(4).cloned();
    assert_ne!(column("73"), column("100"));
    let _ = std::fs::remove_file(path);
}

/// `wedge data label` labels a text list (or OBF lines; spaces inside the squares allowed) into a
/// data file (game-over positions left out, the small endgame solved exactly); a bad line is refused naming file and line, and a list
/// with no position, or only finished games, is refused, writing nothing.
#[test]
fn data_label_writes_a_list_of_positions_and_names_a_bad_line() {
    use wedge::tools::train::{read_data_file, LabelKind};
    let list = temp_path("label-list.txt");
    std::fs::write(
        &list,
        "# the start (spaced as 8 rows, words after the side), a finished game, an endgame of 14 empties\n\
         -------- -------- -------- ---OX--- ---XO--- -------- -------- -------- X 1/2 of a game\n\
         XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O\n\
         -XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X; H8:+0;\n",
    )
    .unwrap();
    let out_file = temp_path("label-out.wdb");
    let (l, o) = (list.to_str().unwrap(), out_file.to_str().unwrap());
    let out = wedge(&["data", "label", l, "--out", o, "--depth", "3"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = read_data_file(&out_file).unwrap();
    let records: Vec<_> = data.blocks.iter().flat_map(|b| &b.records).collect();
    assert_eq!(records.len(), 2, "the finished game is left out");
    assert_eq!((records[0].kind, records[0].depth), (LabelKind::Search, 3));
    assert_eq!(records[0].position.board.empty_count(), 60);
    // The endgame position is a draw with best play (exact score 0).
    assert_eq!((records[1].kind, records[1].label), (LabelKind::Exact, 0));
    let _ = std::fs::remove_file(&out_file);

    // Each bad list is refused naming the file, and nothing is written.
    let refused = |text: &str| {
        std::fs::write(&list, text).unwrap();
        let out = wedge(&["data", "label", l, "--out", o]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "{err}");
        assert!(!out_file.exists(), "a refused list wrote {o}");
        err
    };
    let err = refused(
        "---------------------------OX------XO--------------------------- X\nnot a board X\n",
    );
    assert!(err.contains(&format!("{l}:2")), "{err}");
    // A stray square past the 64 is no side to move: refused, not read as one.
    let err = refused("---------------------------OX------XO---------------------------O X\n");
    assert!(err.contains(&format!("{l}:1")), "{err}");
    let err = refused("# nothing but a comment\n");
    assert!(err.contains(l) && err.contains("no position"), "{err}");
    let err = refused("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O\n");
    assert!(err.contains(l) && err.contains("finished game"), "{err}");
    let _ = std::fs::remove_file(list);
}

#[test]
fn a_fitted_network_is_written_loaded_by_eval_file_and_a_damaged_one_refused() {
    // A network fitted (one pass) on datagen positions from the built-in tables, written as its
    // file: `EvalFile` loads it and evaluates exactly as the file's reference reading; a file
    // with one byte changed is refused and the network in use stays.
    use wedge::engine::options::Options;
    use wedge::eval::pattern::net::NetWeights;
    use wedge::tools::train::{train_net, NetOptions};
    let (data, samples) = generate("net-data.txt", &small_labelled(3, 31));
    let init = wedge::eval::built_in_patterns().expect("built-in tables");
    let options = NetOptions {
        hidden: wedge::eval::pattern::net::HIDDEN,
        epochs: 1,
        learning_rate: 0.05,
        head_rate: 0.01,
        seed: 2,
        threads: 1,
    };
    let net = train_net(&samples, &init, &options, |_, _, _| {});
    let (weights, cut) = net.quantize().expect("16 channels");
    assert_eq!(cut, 0);
    let (good, bad) = (temp_path("net.bin"), temp_path("bad.bin"));
    let mut bytes = weights.to_bytes();
    std::fs::write(&good, &bytes).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&bad, &bytes).unwrap();
    let mut o = Options::default();
    let built_in = o.evaluator();
    o.set("EvalFile", Some(&good.to_string_lossy()))
        .expect("loads");
    let loaded = NetWeights::load(&good).expect("reads back");
    assert_eq!(loaded, weights);
    let mut differ = 0;
    for s in &samples {
        assert_eq!(o.evaluator().evaluate(s.board), loaded.evaluate(s.board));
        differ += usize::from(built_in.evaluate(s.board) != loaded.evaluate(s.board));
    }
    assert!(
        differ > samples.len() / 2,
        "the fit moved too little to tell"
    );
    let err = o.set("EvalFile", Some(&bad.to_string_lossy())).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    assert_eq!(
        o.evaluator().evaluate(samples[0].board),
        loaded.evaluate(samples[0].board)
    );
    // `train --net --init` a network file goes on from it: its errors are the start's, and a
    // damaged one is refused for what it is.
    let (d, g, b) = (data.to_str(), good.to_str(), bad.to_str());
    let (d, g, b) = (d.unwrap(), g.unwrap(), b.unwrap());
    let cont = temp_path("continued.bin");
    let c = cont.to_str().unwrap();
    let args = ["train", "--net", "--data", d, "--out", c, "--epochs", "1"];
    let out = wedge(&[&args[..], &["--held-out", "0", "--test", d, "--init", g]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("start on {d}")), "{text}");
    assert_ne!(NetWeights::load(&cont).expect("written"), weights);
    let out = wedge(&[&args[..], &["--init", b]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("checksum"), "{err}");
    for path in [data, good, bad, cont] {
        let _ = std::fs::remove_file(path);
    }
}

/// A network fitted on no positions of the first plies says that its values there drift: its
/// vectors are shared by every empties count.
#[test]
fn a_network_fit_without_the_first_plies_warns() {
    let root = env!("CARGO_MANIFEST_DIR");
    let exact = format!("{root}/data/test/exact-20-24.wdb");
    let early = format!("{root}/data/train/early-p7.wdb");
    let out_path = temp_path("no-first-plies.bin");
    let o = out_path.to_str().unwrap();
    let fit = |extra: &[&str]| {
        let args = [
            "train", "--net", "--data", &exact, "--out", o, "--epochs", "1",
        ];
        wedge(&[&args[..], &["--held-out", "0"], extra].concat())
    };
    let out = fit(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: no training position has more than 24 empty squares"),
        "{err}"
    );
    let out = fit(&["--data", &early]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !err.contains("warning"), "{err}");
    let _ = std::fs::remove_file(out_path);
}

/// The final result of every game of a text data file written with outcome labels, for the side
/// `weak` names (black in even-numbered games, white in odd ones).
fn weak_side_results(text: &str) -> Vec<i32> {
    let mut results = Vec::new();
    let mut first: Option<(char, i32)> = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("# game ") {
            let n: usize = n.trim().parse().expect("a game number");
            let (side, label) = first.take().expect("a game has positions");
            let black = if side == 'X' { label } else { -label };
            results.push(if n.is_multiple_of(2) { black } else { -black });
        } else if !line.starts_with('#') && first.is_none() {
            let mut f = line.split_whitespace();
            let (_, side, label) = (f.next(), f.next(), f.next());
            let side = side.and_then(|s| s.chars().next()).expect("a side");
            let label: f32 = label.and_then(|l| l.parse().ok()).expect("a label");
            first = Some((side, label as i32));
        }
    }
    results
}

#[test]
fn datagen_blunders_make_the_weaker_side_lose() {
    let run = |name: &str, blunders: u32| {
        let options = DatagenOptions {
            games: 12,
            depth: 2,
            exact_empties: 12,
            seed: 9,
            blunders,
            ..DatagenOptions::default()
        };
        let (out, _) = generate(name, &options);
        let text = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        weak_side_results(&text)
    };
    let even = run("even.txt", 0);
    let weak = run("blunders.txt", 100);
    assert_eq!((even.len(), weak.len()), (12, 12));
    let mean = |r: &[i32]| r.iter().sum::<i32>() as f64 / r.len() as f64;
    // Random moves at up to every move (half of them on average) lose games that equal searches
    // split: the weaker side loses most games, and by far more than without blunders.
    assert!(weak.iter().filter(|&&r| r < 0).count() >= 8, "{weak:?}");
    assert!(
        mean(&weak) < mean(&even) - 10.0,
        "{weak:?} against {even:?}"
    );
}

/// An output that is one of the inputs is refused before anything is read or written, a fit
/// that the held-out split leaves without positions writes nothing, and a Multi-ProbCut fit too
/// shallow to determine its model of sigma is an error, not a table of zeros.
#[test]
fn outputs_that_are_inputs_and_fits_of_nothing_are_refused() {
    let options = DatagenOptions {
        games: 1,
        ..small_labelled(1, 1)
    };
    let (generated, _) = generate("refuse.wdb", &options);
    // The held-out split tells games apart by their file's name, so the name is fixed (not the
    // process's temporary one) and the one game is one that `--held-out 900` holds out.
    let dir = temp_path("refuse-dir");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("one-game.wdb");
    std::fs::rename(&generated, &data).unwrap();
    let d = data.to_str().unwrap();
    let before = std::fs::read(&data).unwrap();
    let other = temp_path("refuse.txt");
    std::fs::write(&other, "not read\n").unwrap();
    let t = other.to_str().unwrap();
    let out_file = temp_path("refuse-out.bin");
    let o = out_file.to_str().unwrap();
    let same = format!(
        "{}/./{}",
        data.parent().unwrap().display(),
        data.file_name().unwrap().to_str().unwrap()
    );
    for (args, says) in [
        (
            vec!["data", "merge", d, "--out", &same],
            "one of the inputs",
        ),
        (
            vec!["mpc", "fit", "--scores", t, "--out", t],
            "one of the inputs",
        ),
        (
            vec!["mpc", "fit", "--data", d, "--out", o, "--scores-out", d],
            "--scores-out is one of",
        ),
        (
            vec!["weights", "dump", "--from", t, "--tables", t],
            "--tables is one of",
        ),
        (
            vec!["train", "--data", d, "--out", o, "--held-out", "900"],
            "no training positions",
        ),
        (
            vec![
                "train",
                "--net",
                "--data",
                d,
                "--out",
                o,
                "--held-out",
                "900",
            ],
            "no training positions",
        ),
        (
            vec![
                "mpc",
                "fit",
                "--data",
                d,
                "--depth",
                "4",
                "--positions",
                "30",
                "--out",
                o,
            ],
            "model of sigma",
        ),
        (vec!["evaltest", "--data", d, "--depth", "0"], "1..=30"),
        (
            vec!["train", "--net", "--data", d, "--out", o, "--lr", "0.1"],
            "cannot be used with",
        ),
    ] {
        let out = wedge(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} exited 0");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read(&data).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "not read\n");
    assert!(!out_file.exists(), "nothing is written");
    let _ = std::fs::remove_file(other);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mpc_fit_measures_with_the_evaluation_file_it_is_given() {
    let dir = std::env::temp_dir().join(format!("wedge-mpc-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data/train/v5-test.wdb");
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/data/weights/v9-init.bin");
    let scores = |name: &str, eval: Option<&str>| {
        let out = dir.join(format!("{name}.txt"));
        let values = dir.join(format!("{name}-scores.txt"));
        let mut args = vec![
            "mpc",
            "fit",
            "--data",
            data,
            "--depth",
            "6",
            "--positions",
            "120",
            "--out",
            out.to_str().unwrap(),
            "--scores-out",
            values.to_str().unwrap(),
        ];
        args.extend(eval.iter().flat_map(|e| ["--eval-file", *e]));
        let run = wedge(&args);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        std::fs::read_to_string(values).unwrap()
    };
    // The same positions, searched with the built-in network and with version 9's tables.
    let built_in = scores("built-in", None);
    let with_tables = scores("tables", Some(tables));
    assert_eq!(built_in.lines().count(), with_tables.lines().count());
    assert_ne!(built_in, with_tables);
    assert_eq!(scores("again", None), built_in);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn data_positions_lists_the_positions_of_game_files_for_data_label() {
    use wedge::board::text::Game;
    let one = "e6f6g6d6c6g7g8b6c4h8f7e3f2e7f5c3d3h5b2g5h7c5a6a7b4d7h4a1c2a3b5h6a2a4d8h3f8d2b3c8\
               a5e8c1f4f3g1c7g3g4b1a8b7e2e1b8g2d1f1h1h2";
    let two = "e6d6c7f7c4d3f6b3c5c6b4d7b7b8d2a7a2c3f8f3f4g3b5d1e7a5c2e8c8b6d8g7a8c1b1a1g8f5g5a4\
               f2e3g6f1a6h6e2h8h3h4g2e1g4a3h5h2h1h7b2g1";
    let transcripts = temp_path("positions-games.txt");
    std::fs::write(&transcripts, format!("# one game\n{one}\n")).unwrap();
    // The second game as GGF, one tag a move.
    let ggf = temp_path("positions-games.ggf");
    let moves: String = (0..two.len() / 2)
        .map(|i| {
            let side = if i % 2 == 0 { 'B' } else { 'W' };
            format!("{side}[{}]", two[2 * i..2 * i + 2].to_uppercase())
        })
        .collect();
    let start = "---------------------------O*------*O---------------------------";
    let record = format!("(;GM[Othello]PC[test]PB[a]PW[b]TY[8]BO[8 {start} *]{moves};)\n");
    std::fs::write(&ggf, record).unwrap();
    let list = temp_path("positions-list.txt");
    let (t, g, l) = (
        transcripts.to_str().unwrap(),
        ggf.to_str().unwrap(),
        list.to_str().unwrap(),
    );
    let listed = |args: &[&str]| {
        let out = wedge(&[&["data", "positions", t, g, "--out", l], args].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&list).unwrap();
        text.lines().map(String::from).collect::<Vec<_>>()
    };

    // Every position at 10-14 empties with a move, in the order of play.
    let mut expected = Vec::new();
    for transcript in [one, two] {
        let game: Game = transcript.parse().unwrap();
        let mut pos = game.start;
        for &mv in &game.moves {
            let e = pos.board.empty_count();
            if (10..=14).contains(&e) && pos.board.can_move() {
                expected.push(pos.to_string());
            }
            pos = pos.play(mv).unwrap();
        }
    }
    assert!(expected.len() >= 8, "{expected:?}");
    assert_eq!(listed(&["--empties", "10-14"]), expected);

    // Two of each game, drawn; then labelled exactly.
    let drawn = listed(&["--empties", "10-14", "--per-game", "2", "--seed", "5"]);
    assert_eq!(drawn.len(), 4);
    assert!(drawn.iter().all(|p| expected.contains(p)), "{drawn:?}");
    let labelled = temp_path("positions-labelled.wdb");
    let o = labelled.to_str().unwrap();
    let out = wedge(&["data", "label", l, "--out", o, "--exact-empties", "14"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = wedge::tools::train::read_data_file(&labelled).unwrap();
    let records: Vec<_> = data.blocks.iter().flat_map(|b| &b.records).collect();
    assert_eq!(records.len(), 4);
    assert!(records
        .iter()
        .all(|r| r.kind == wedge::tools::train::LabelKind::Exact));

    // A bad game names its file and line, and the list written before stays as it was.
    std::fs::write(&transcripts, format!("{one}\nf5f5\n")).unwrap();
    let out = wedge(&["data", "positions", t, "--out", l]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&format!("{t}:2")), "{err}");
    assert_eq!(std::fs::read_to_string(&list).unwrap().lines().count(), 4);

    // A file of comments alone has no game: an error naming it.
    std::fs::write(&transcripts, "# nothing yet\n").unwrap();
    let out = wedge(&["data", "positions", t, "--out", l]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("no game") && err.contains(t), "{err}");
    for f in [transcripts, ggf, list, labelled] {
        let _ = std::fs::remove_file(f);
    }
}
