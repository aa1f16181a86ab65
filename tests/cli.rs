//! The command line as a user types it: board strings that start with `-` (an empty a1), counts
//! that must be positive, and output into a pipe that closes early.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

const START: &str = "---------------------------OX------XO--------------------------- X";

fn wedge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run wedge")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that a run failed with `expected` in its error and without a panic.
fn assert_refused(out: &Output, expected: &str, what: &str) {
    assert!(!out.status.success(), "{what} was accepted");
    let err = text(&out.stderr);
    assert!(err.contains(expected), "{what}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Runs `wedge args...` with an openings file holding `openings` (its path replaces `{}`).
fn wedge_with_openings(tag: &str, openings: &str, args: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("wedge-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("o.txt");
    std::fs::write(&file, openings).unwrap();
    let path = file.to_str().unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|&a| if a == "{}" { path } else { a })
        .collect();
    let out = wedge(&args);
    std::fs::remove_dir_all(&dir).ok();
    out
}

#[test]
fn board_strings_starting_with_a_dash_are_values() {
    let out = wedge(&["perft", "5", "--board", START]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("perft 5: 1396 leaves"));
    let out = wedge(&["perft", "3", "--divide", "--board", START]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("perft 3: 56 leaves"));
    let out = wedge(&["book", "probe", START]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("d3"), "{}", text(&out.stdout));
}

#[test]
fn variant_perft_divide_names_its_squares() {
    let out = wedge(&["variant", "perft", "--depth", "2", "--divide"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let parts: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("perft 2:"))
        .skip(1)
        .collect();
    // The 10 x 10 start position's four moves, each named as the engine names squares.
    assert_eq!(parts, ["f4 3", "g5 3", "d6 3", "e7 3"], "{stdout}");
}

#[test]
fn zero_threads_and_zero_hash_are_refused() {
    for args in [
        &["bench", "--hash", "0"][..],
        &["solve", "nofile.obf", "--hash", "0"],
        &["solve", "nofile.obf", "--threads", "0"],
        &["solve", "nofile.obf", "--jobs", "0"],
        &["solve", "nofile.obf", "--hash", "100000000"],
    ] {
        let out = wedge(args);
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = text(&out.stderr);
        assert!(err.contains("must be 1 to"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_closed_pipe_ends_a_tool_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["book", "export"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wedge");
    let mut first = String::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    reader.read_line(&mut first).unwrap();
    assert!(!first.is_empty());
    drop(reader);
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert!(
            out.status.success() || out.status.signal() == Some(13),
            "{:?}",
            out.status
        );
    }
}

#[test]
fn a_terminal_gets_one_line_of_greeting_and_a_pipe_none() {
    // On a pipe: nothing before the first command's answer.
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run wedge");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"isready\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(text(&out.stdout), "readyok\n");
    // On a terminal (a pseudo-terminal made by util-linux `script`): one line naming the engine.
    let script = format!("{} --protocol wedge", env!("CARGO_BIN_EXE_wedge"));
    let mut child = Command::new("script")
        .args(["-qec", &script, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("util-linux script");
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let shown = text(&out.stdout);
    assert!(
        shown.contains("an Othello engine: type 'help'") && shown.contains("wedge --help"),
        "{shown}"
    );
}

/// The built-in Multi-ProbCut table is what `wedge mpc fit` makes from the committed values, line
/// for line (the header's comments aside): the fit reproduces.
#[test]
fn the_built_in_mpc_table_reproduces_from_the_committed_values() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out_path = std::env::temp_dir().join(format!("wedge-mpc-table-{}.txt", std::process::id()));
    let out = wedge(&[
        "mpc",
        "fit",
        "--scores",
        &format!("{root}/data/mpc/scores-d12.txt"),
        "--out",
        &out_path.to_string_lossy(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let made = std::fs::read_to_string(&out_path).unwrap();
    std::fs::remove_file(&out_path).ok();
    let built_in = std::fs::read_to_string(format!("{root}/src/search/midgame/mpc.txt")).unwrap();
    let data = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert!(data(&built_in).len() > 40);
    assert_eq!(data(&made), data(&built_in));
}

#[test]
fn numbers_out_of_range_are_refused_before_anything_is_allocated() {
    // A book these refusals must never write (a path of this process alone).
    let never_path =
        std::env::temp_dir().join(format!("wedge-cli-never-{}.book", std::process::id()));
    let never = never_path.to_str().unwrap();
    let huge = "18446744073709551615";
    for (args, expected) in [
        (
            &["book", "extend", "--out", never, "--max", "0"][..],
            "0 is not in 1..",
        ),
        (
            &[
                "match",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--move-timeout",
                huge,
            ][..],
            "must be 1 to 86400",
        ),
        (
            &[
                "match",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--games",
                "1000000000000",
            ],
            "must be 1 to 10000000",
        ),
        (
            &[
                "match", "--engine", "random", "--engine", "greedy", "--games", "2", "--rounds",
                huge,
            ],
            "must be 1 to 100000",
        ),
        (
            &[
                "match",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--variant",
                "8x8",
                "--random-moves",
                "1000000000000",
            ],
            "must be 0 to 1000",
        ),
        (
            &[
                "tune",
                "--engine",
                "random",
                "--param",
                "Hash,16,1,64,4",
                "--state",
                "s",
                "--pairs",
                huge,
            ],
            "must be 1 to 10000000",
        ),
        (
            &[
                "datagen",
                "--openings",
                "o.txt",
                "--out",
                "d.wdb",
                "--games",
                huge,
            ],
            "must be 1 to 10000000",
        ),
        (
            &[
                "mpc",
                "fit",
                "--data",
                "d.wdb",
                "--out",
                "t.txt",
                "--depth",
                "4294967295",
            ],
            "not in 1..=56",
        ),
        (
            &[
                "book",
                "extend",
                "--out",
                "b.book",
                "--window",
                "2147483647",
            ],
            "not in 0..=64",
        ),
        (
            &["train", "--data", "d.wdb", "--out", "w.bin", "--smooth=-1"],
            "not a number of at least 0",
        ),
        (
            &[
                "train", "--data", "d.wdb", "--out", "w.bin", "--lambda", "NaN",
            ],
            "not a number of at least 0",
        ),
        (
            &["train", "--data", "d.wdb", "--out", "w.bin", "--lr", "0"],
            "not a number above 0",
        ),
        (
            &[
                "train",
                "--data",
                "d.wdb",
                "--out",
                "w.bin",
                "--held-out",
                "5000",
            ],
            "must be 0 to 900",
        ),
        (
            &[
                "datagen",
                "--openings",
                "o.txt",
                "--out",
                "d.wdb",
                "--depth",
                "31",
            ],
            "not in 1..=30",
        ),
        (
            &[
                "datagen",
                "--openings",
                "o.txt",
                "--out",
                "d.wdb",
                "--exact-empties",
                "27",
            ],
            "not in 0..=26",
        ),
        (
            &[
                "datagen",
                "--openings",
                "o.txt",
                "--out",
                "d.wdb",
                "--randomness",
                "2001",
            ],
            "not in 0..=2000",
        ),
        (
            &[
                "datagen",
                "--openings",
                "o.txt",
                "--out",
                "d.wdb",
                "--label-depth",
                "0",
            ],
            "not in 1..=30",
        ),
        // A variant match is played whole (its records are not read back).
        (
            &[
                "match",
                "--engine",
                "random",
                "--engine",
                "greedy",
                "--variant",
                "10x10",
                "--depth",
                "1",
                "--shard",
                "1/2",
                "--out",
                "v.ggf",
            ],
            "cannot be split into shards",
        ),
        // A selectivity between the levels is refused, not rounded to the next one.
        (&["bench", "--selectivity", "90"], "is not one of 73, 87"),
        (
            &["evaltest", "--data", "d.wdb", "--selectivity", "101"],
            "is not one of 73, 87",
        ),
        (
            &[
                "data",
                "merge",
                "d.wdb",
                "--out",
                "m.wdb",
                "--max-positions",
                "0",
            ],
            "must be 1 to",
        ),
    ] {
        assert_refused(&wedge(args), expected, &format!("{args:?}"));
    }
    assert!(!never_path.exists());
}

#[test]
fn many_openings_times_many_rounds_is_refused_not_allocated() {
    let args = [
        "match",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--depth",
        "1",
        "--openings",
        "{}",
        "--rounds",
        "100000",
    ];
    let out = wedge_with_openings("rounds", &"f5d6\nf5f6\nf5f4\n".repeat(20), &args);
    assert_refused(&out, "give --games", "60 openings x 100000 rounds");
}

/// `wedge tune` of the built-in random player's `Hash`: the start of the tune commands here.
const TUNE_RANDOM: [&str; 5] = ["tune", "--engine", "random", "--param", "Hash,16,1,64,4"];

/// An openings file with no opening is refused by name before datagen claims its output, and
/// `tune --iterations 0` as a bad value (exit 2) before any file is written.
#[test]
fn empty_plans_are_refused_before_anything_is_written() {
    let dir = std::env::temp_dir().join(format!("wedge-cli-plans-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("d.wdb");
    let o = out_file.to_str().unwrap();
    let datagen = ["datagen", "--openings", "{}", "--games", "2", "--out", o];
    let out = wedge_with_openings("empty", "# only a comment\n", &datagen);
    assert_refused(&out, "o.txt: no openings", "datagen without openings");
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "a file was written"
    );
    let log = dir.join("t.csv");
    let state = dir.join("t.state");
    let mut tune = TUNE_RANDOM.to_vec();
    tune.extend(["--iterations", "0", "--depth", "1", "--state"]);
    tune.extend([state.to_str().unwrap(), "--log", log.to_str().unwrap()]);
    let out = wedge(&tune);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(!log.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(target_os = "linux")]
#[test]
fn a_device_is_not_read_as_a_data_or_state_file() {
    // /dev/zero never ends: reading it whole would run until memory does.
    let expected = "only regular files";
    assert_refused(
        &wedge(&["data", "info", "/dev/zero"]),
        expected,
        "data info",
    );
    let mut tune = TUNE_RANDOM.to_vec();
    tune.extend(["--state", "/dev/zero", "--depth", "1"]);
    assert_refused(&wedge(&tune), expected, "tune --state");
    let datagen = ["datagen", "--openings", "{}", "--out", "/dev/zero"];
    let out = wedge_with_openings("device", "f5d6\n", &datagen);
    assert_refused(&out, expected, "datagen --out");
}

#[test]
fn bench_reads_a_multi_probcut_table_and_names_a_bad_line() {
    let mpc = concat!(env!("CARGO_MANIFEST_DIR"), "/src/search/midgame/mpc.txt");
    let nodes = |args: &[&str]| {
        let out = wedge(args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let line = stdout
            .lines()
            .find(|l| l.starts_with("Nodes searched"))
            .unwrap();
        line.split(':').nth(1).unwrap().trim().to_string()
    };
    // The built-in table read from its file searches as the built-in table does.
    let built_in = nodes(&["bench", "--depth", "6"]);
    assert_eq!(
        nodes(&["bench", "--depth", "6", "--mpc-file", mpc]),
        built_in
    );
    // A table of wide deviations cuts less: more nodes. Its JSON names the file.
    let dir = temp_dir("mpc-wide");
    let wide = dir.join("wide.txt");
    std::fs::write(&wide, "model 3000 0 0 0\n").unwrap();
    let json = dir.join("bench.json");
    let wide_nodes = nodes(&[
        "bench",
        "--depth",
        "6",
        "--mpc-file",
        wide.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(
        wide_nodes.parse::<u64>().unwrap() > built_in.parse::<u64>().unwrap(),
        "{wide_nodes} {built_in}"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["mpc_file"].as_str(), wide.to_str());
    assert!(doc["eval_file"].is_null());
    std::fs::remove_dir_all(&dir).ok();
    let out = wedge_with_openings(
        "mpc",
        "model 300 -5 20 -30\nrow 12 19 3 1 0.9 -1 300 oops\n",
        &["bench", "--depth", "1", "--mpc-file", "{}"],
    );
    assert_refused(&out, "o.txt:2: 'oops' is not a number", "a bad table");
    assert_refused(&out, "--mpc-file: ", "a bad table, the option named");
}

#[test]
fn a_problem_file_without_positions_is_an_error() {
    let out = wedge_with_openings("solve-empty", "% a comment only\n\n", &["solve", "{}"]);
    assert_refused(&out, "no positions in this file", "an empty problem file");
}

#[test]
fn long_runs_refuse_an_output_they_cannot_write_before_starting() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data/test/exact-20-24.wdb");
    let folder = std::env::temp_dir();
    let folder = folder.to_str().unwrap();
    let missing = format!("{folder}/wedge-no-such-folder-{}/w.bin", std::process::id());
    for out in [folder, missing.as_str()] {
        let run = wedge(&["train", "--data", data, "--out", out, "--epochs", "1"]);
        assert_refused(&run, out, "train into an unwritable path");
        // Refused before reading the data: no fit's output at all.
        assert!(
            !text(&run.stdout).contains("positions"),
            "{}",
            text(&run.stdout)
        );
        let run = wedge(&["mpc", "fit", "--data", data, "--out", out]);
        assert_refused(&run, out, "mpc fit into an unwritable path");
    }
    let run = wedge(&["bench", "--depth", "61"]);
    assert_refused(&run, "61", "bench deeper than 60");
}

/// Runs `wedge args...` and kills it after `limit`: `None` when it did not finish in time (a read
/// that blocks forever is the failure these tests look for).
fn wedge_within(args: &[&str], limit: std::time::Duration) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wedge");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_fifo_is_refused_at_once_by_every_data_reader() {
    let dir = temp_dir("fifo-data");
    let fifo = dir.join("f");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let f = fifo.to_str().unwrap();
    let weights = dir.join("y.w");
    let merged = dir.join("m.wdb");
    let data = dir.join("d.txt");
    std::fs::write(
        &data,
        "---------------------------OX------XO--------------------------- X 0\n",
    )
    .unwrap();
    let data = data.to_str().unwrap();
    // A book build's journal (the book's name with `.journal`) is read before the build starts.
    let book = dir.join("b.book");
    std::fs::rename(&fifo, dir.join("b.book.journal")).unwrap();
    let out = wedge_within(
        &[
            "book",
            "build",
            "--out",
            book.to_str().unwrap(),
            "--positions",
            "1",
        ],
        std::time::Duration::from_secs(20),
    )
    .expect("book build blocked on a FIFO journal");
    assert_refused(&out, "only regular files are read", "book build");
    std::fs::rename(dir.join("b.book.journal"), &fifo).unwrap();
    let runs: [Vec<&str>; 4] = [
        vec!["evaltest", "--data", f],
        vec!["train", "--data", f, "--out", weights.to_str().unwrap()],
        vec!["data", "merge", f, "--out", merged.to_str().unwrap()],
        vec![
            "train",
            "--net",
            "--data",
            data,
            "--init",
            f,
            "--out",
            weights.to_str().unwrap(),
        ],
    ];
    for args in runs {
        let out = wedge_within(&args, std::time::Duration::from_secs(20))
            .unwrap_or_else(|| panic!("wedge {args:?} blocked on a FIFO"));
        assert_refused(&out, "only regular files are read", &format!("{args:?}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_data_reader_warns_of_a_torn_tail_and_data_info_reads_text() {
    let dir = temp_dir("torn");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xot-sample.txt");
    let text = dir.join("d.txt");
    let binary = dir.join("d.wdb");
    for out in [&text, &binary] {
        let run = wedge(&[
            "datagen",
            "--openings",
            openings,
            "--out",
            out.to_str().unwrap(),
            "--games",
            "3",
            "--depth",
            "2",
            "--exact-empties",
            "8",
        ]);
        assert!(run.status.success(), "{}", text_of(&run));
    }
    // datagen's default output, text, is counted by `data info` like a binary file.
    let info = wedge(&["data", "info", text.to_str().unwrap()]);
    assert!(info.status.success(), "{}", text_of(&info));
    let said = String::from_utf8_lossy(&info.stdout);
    assert!(said.contains("text, 3 games"), "{said}");
    assert!(said.contains("by empties"), "{said}");
    // Merging text needs its labels named: the text format does not say what they are.
    let unnamed = dir.join("unnamed.wdb");
    let out = wedge(&[
        "data",
        "merge",
        text.to_str().unwrap(),
        "--out",
        unnamed.to_str().unwrap(),
    ]);
    assert_refused(&out, "--text-labels", "data merge of text without labels");
    assert!(!unnamed.exists());

    // Cut the binary file inside its last game: each reader uses the rest and says what it skipped.
    let bytes = std::fs::read(&binary).unwrap();
    let torn = dir.join("torn.wdb");
    std::fs::write(&torn, &bytes[..bytes.len() - 25]).unwrap();
    let t = torn.to_str().unwrap();
    let weights = dir.join("w.bin");
    let merged = dir.join("m.wdb");
    let runs: [Vec<&str>; 4] = [
        vec!["data", "info", t],
        vec!["evaltest", "--data", t],
        vec![
            "train",
            "--data",
            t,
            "--out",
            weights.to_str().unwrap(),
            "--epochs",
            "1",
            "--held-out",
            "0",
        ],
        vec!["data", "merge", t, "--out", merged.to_str().unwrap()],
    ];
    for args in runs {
        let out = wedge(&args);
        assert!(out.status.success(), "{args:?}: {}", text_of(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("warning: ")
                && err.contains("bytes of an unfinished game at the end, skipped"),
            "{args:?} did not warn of the torn tail: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn text_of(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_file_of_one_huge_token_is_quoted_short_by_the_tools() {
    let dir = temp_dir("huge");
    let huge = dir.join("huge.txt");
    std::fs::write(&huge, format!("{}\n", "x".repeat(2_000_000))).unwrap();
    let h = huge.to_str().unwrap();
    let runs: [(Vec<&str>, &str); 2] = [
        (vec!["weights", "dump", "--from", h], "2000000 bytes"),
        (tune_with_state(h), "not a wedge tune state"),
    ];
    for (args, expected) in runs {
        let out = wedge(&args);
        assert_refused(&out, expected, &format!("{args:?}"));
        assert!(
            out.stderr.len() < 400,
            "{args:?}: {} bytes of error",
            out.stderr.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_and_bench_write_their_figures_as_json() {
    let dir = temp_dir("json");
    let solved = dir.join("solve.json");
    let obf = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fforum-1-19.obf");
    let out = wedge(&["solve", obf, "--json", solved.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text_of(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&solved).unwrap()).unwrap();
    let positions = doc["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 19);
    assert!(positions
        .iter()
        .all(|p| p["ok"] == true && p["score"] == p["expected"]));
    let sum: u64 = positions.iter().map(|p| p["nodes"].as_u64().unwrap()).sum();
    assert_eq!(doc["nodes"].as_u64().unwrap(), sum);
    assert!(text(&out.stdout).contains(&format!("{sum} nodes")));

    let benched = dir.join("bench.json");
    let out = wedge(&["bench", "--depth", "4", "--json", benched.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text_of(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&benched).unwrap()).unwrap();
    assert_eq!(doc["depth"], 4);
    let nodes = doc["nodes"].as_u64().unwrap();
    assert!(text(&out.stdout).contains(&format!("Nodes searched  : {nodes}")));
    assert_eq!(doc["positions"].as_array().unwrap().len(), 22);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn evaltest_reports_the_error_by_the_size_of_the_score_too() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data/test/exact-20-24.wdb");
    let out = wedge(&["evaltest", "--data", data]);
    assert!(out.status.success(), "{}", text_of(&out));
    let said = text(&out.stdout);
    let (by_empties, by_score) = said.split_once("|score|").expect("a table by score");
    let positions = |table: &str, first: &str| -> Vec<u64> {
        table
            .lines()
            .filter(|l| {
                l.split_whitespace()
                    .next()
                    .is_some_and(|w| w.starts_with(first))
            })
            .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect()
    };
    let all = positions(by_empties, "all");
    let bands: Vec<u64> = ["0-5", "6-11", "12-19", "20-29", "30-64"]
        .iter()
        .flat_map(|b| positions(by_score, b))
        .collect();
    assert_eq!(all.len(), 1, "{said}");
    assert!(bands.len() >= 3, "{said}");
    assert_eq!(
        bands.iter().sum::<u64>(),
        all[0],
        "every position in one band: {said}"
    );
}

#[test]
fn evaltest_of_several_files_reports_each_as_it_would_alone() {
    let files = [
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/test/other-play-20-24.wdb"
        ),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/test/varied-play-20-24.wdb"
        ),
    ];
    // The "all" row of one file alone: its positions and errors.
    let alone = |file: &str| -> String {
        let out = wedge(&["evaltest", "--data", file]);
        assert!(out.status.success(), "{}", text_of(&out));
        let said = text(&out.stdout);
        let row = said
            .lines()
            .find(|l| l.trim_start().starts_with("all "))
            .unwrap_or_else(|| panic!("an all row: {said}"));
        row.split_whitespace().skip(1).collect::<Vec<_>>().join(" ")
    };
    let out = wedge(&["evaltest", "--data", files[0], "--data", files[1]]);
    assert!(out.status.success(), "{}", text_of(&out));
    let said = text(&out.stdout);
    let (_, by_file) = said.split_once("by file:").expect("a table by file");
    for file in files {
        let row = by_file
            .lines()
            .find(|l| l.ends_with(file))
            .unwrap_or_else(|| panic!("a row for {file}: {said}"));
        let columns: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            columns[..columns.len() - 1].join(" "),
            alone(file),
            "{said}"
        );
    }
    // One file: no such table.
    assert!(!text(&wedge(&["evaltest", "--data", files[0]]).stdout).contains("by file"));
}

#[test]
fn a_filtered_merge_keeps_the_empties_asked_for_and_says_what_it_left_out() {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/test/other-play-20-24.wdb"
    );
    // The positions at 20 empties, as evaltest counts them.
    let said = text(&wedge(&["evaltest", "--data", data]).stdout);
    let at_20: usize = said
        .lines()
        .find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some("20")).then(|| w.next().unwrap().parse().unwrap())
        })
        .unwrap_or_else(|| panic!("a row for 20 empties: {said}"));
    let dir = temp_dir("merge-keep");
    let merge = |out: &std::path::Path, filters: &[&str]| {
        let mut args = vec!["data", "merge", data, "--out", out.to_str().unwrap()];
        args.extend_from_slice(filters);
        wedge(&args)
    };
    let out = dir.join("at-20.wdb");
    let merged = merge(&out, &["--empties", "20-20", "--exact-only"]);
    assert!(merged.status.success(), "{}", text_of(&merged));
    let said = text(&merged.stdout);
    assert!(
        said.contains(&format!(
            "read 380 positions; {} outside --empties or --exact-only; 0 repeats left out; \
             wrote {at_20} positions",
            380 - at_20
        )),
        "{said}"
    );
    // The file written holds them: evaltest counts them all at 20 empties.
    let said = text(&wedge(&["evaltest", "--data", out.to_str().unwrap()]).stdout);
    assert!(
        said.lines()
            .any(|l| l.split_whitespace().take(2).eq(["20", &at_20.to_string()])),
        "{said}"
    );
    assert!(
        said.lines().all(|l| !l.trim_start().starts_with("21 ")),
        "{said}"
    );
    // Nothing within the filter: an error, no file.
    let none = dir.join("none.wdb");
    let refused = merge(&none, &["--empties", "40-50"]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("no position of the inputs is within"));
    assert!(!none.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_keeps_to_its_own_run_and_merge_to_one_run() {
    let dir = temp_dir("runs");
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let datagen = |file: &str, seed: &str, games: &str| {
        wedge(&[
            "datagen",
            "--openings",
            "tests/data/xot-sample.txt",
            "--out",
            &out(file),
            "--games",
            games,
            "--depth",
            "1",
            "--exact-empties",
            "6",
            "--seed",
            seed,
        ])
    };
    assert!(datagen("a.wdb", "1", "2").status.success());
    // The same run goes on (more games); another seed into the same file is refused.
    assert!(datagen("a.wdb", "1", "3").status.success());
    let other = datagen("a.wdb", "2", "4");
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("another run"));
    assert!(datagen("b.wdb", "2", "2").status.success());
    let (a, b, merged) = (out("a.wdb"), out("b.wdb"), out("m.wdb"));
    let merge = |extra: &[&str]| {
        let mut args = vec!["data", "merge", &a, &b, "--out", &merged];
        args.extend_from_slice(extra);
        wedge(&args)
    };
    let refused = merge(&[]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("different datagen runs"));
    let mixed = merge(&["--mixed-runs"]);
    assert!(
        mixed.status.success(),
        "{}",
        String::from_utf8_lossy(&mixed.stderr)
    );
    // A merge over a run's file makes it no run's: the run's next datagen does not resume there.
    let over = wedge(&["data", "merge", &b, "--out", &a]);
    assert!(over.status.success(), "{over:?}");
    assert!(!dir.join("a.wdb.run").exists());
    let resumed = datagen("a.wdb", "1", "6");
    assert!(!resumed.status.success(), "a run resumed in merged data");
    // A file holds one shard of its run: another shard of the same run is refused.
    let shard = |part: &str| {
        wedge(&[
            "datagen",
            "--openings",
            "tests/data/xot-sample.txt",
            "--out",
            &out("c.wdb"),
            "--games",
            "4",
            "--depth",
            "1",
            "--exact-empties",
            "6",
            "--seed",
            "3",
            "--shard",
            part,
        ])
    };
    assert!(shard("1/2").status.success());
    let other = shard("1/3");
    assert!(!other.status.success());
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("part 1/2"),
        "{other:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_that_is_an_input_or_another_file_is_refused_and_kept() {
    let dir = std::env::temp_dir().join(format!("wedge-cli-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    let notes = dir.join("notes.txt");
    std::fs::write(&openings, "f5d6c3d3c4f4\n").unwrap();
    std::fs::write(&notes, "my notes\nlast line without newline").unwrap();
    let p = |path: &std::path::Path| path.to_str().unwrap().to_string();
    let (o, n) = (p(&openings), p(&notes));
    let gen = [
        "datagen",
        "--games",
        "1",
        "--depth",
        "1",
        "--exact-empties",
        "4",
    ];
    // datagen into its own openings, or into a file that no datagen run wrote.
    for out in [&o, &n] {
        let mut args = gen.to_vec();
        args.extend(["--openings", &o, "--out", out]);
        assert_refused(&wedge(&args), out, "datagen into another file");
    }
    // train and data label into their inputs.
    let wdb = dir.join("d.wdb");
    let mut args = gen.to_vec();
    args.extend(["--openings", &o, "--out", wdb.to_str().unwrap()]);
    assert!(wedge(&args).status.success());
    let data = std::fs::read(&wdb).unwrap();
    let w = p(&wdb);
    let train = ["train", "--data", &w, "--out", &w, "--epochs", "1"];
    assert_refused(&wedge(&train), "one of the inputs", "train into its data");
    assert_eq!(std::fs::read(&wdb).unwrap(), data);
    let label = ["data", "label", &o, "--out", &o, "--depth", "1"];
    assert_refused(
        &wedge(&label),
        "one of the inputs",
        "data label into its positions",
    );
    // match into a file of something else: refused before any game, the file untouched.
    let m = [
        "match", "--engine", "random", "--engine", "greedy", "--games", "2", "--out", &n,
    ];
    assert_refused(&wedge(&m), "notes.txt:1", "match into notes");
    // Outputs in folders that do not exist are refused before the work.
    let nowhere = p(&dir.join("no/such/folder/b.book"));
    let book = ["book", "build", "--out", &nowhere, "--positions", "5"];
    assert_refused(&wedge(&book), "does not exist", "book build into nowhere");
    // A path ending in a slash names a folder, even one that does not exist yet.
    let slash = format!("{}/", p(&dir.join("new-folder")));
    let train = ["train", "--data", &w, "--out", &slash, "--epochs", "1000"];
    assert_refused(&wedge(&train), "a folder", "train into a folder to be");
    // So are outputs in a folder no file can be made in (even by root: /sys is the kernel's),
    // before a fit of many passes rather than after it.
    if cfg!(target_os = "linux") && std::path::Path::new("/sys").is_dir() {
        let train = [
            "train",
            "--data",
            &w,
            "--out",
            "/sys/t.bin",
            "--epochs",
            "1000",
        ];
        assert_refused(
            &wedge(&train),
            "cannot write in the folder /sys",
            "train into /sys",
        );
    }
    for (file, text) in [
        (&openings, "f5d6c3d3c4f4\n"),
        (&notes, "my notes\nlast line without newline"),
    ] {
        assert_eq!(std::fs::read_to_string(file).unwrap(), text);
    }
    // A datagen that failed (no openings) does not block the run that follows.
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let fresh = p(&dir.join("fresh.txt"));
    let mut args = gen.to_vec();
    args.extend(["--openings", empty.to_str().unwrap(), "--out", &fresh]);
    assert!(!wedge(&args).status.success());
    let mut args = gen.to_vec();
    args.extend(["--openings", &o, "--out", &fresh]);
    let out = wedge(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn datagen_refuses_a_finished_game_as_an_opening() {
    let mut pos = wedge::board::Position::START;
    let mut game = wedge::board::text::Game::new(pos);
    while !pos.board.is_game_over() {
        let mv = pos.legal_move_list()[0];
        game.moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    let dir = std::env::temp_dir().join(format!("wedge-cli-finished-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (file, out) = (dir.join("o.txt"), dir.join("d.txt"));
    std::fs::write(&file, format!("f5d6c3\n{}\n", game.transcript())).unwrap();
    let args = [
        "datagen",
        "--openings",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--games",
        "2",
        "--depth",
        "1",
    ];
    assert_refused(
        &wedge(&args),
        &format!("{}:2:", file.display()),
        "a finished opening",
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_file_of_no_games_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("wedge-cli-nogames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# only a comment\n").unwrap();
    let e = empty.to_str().unwrap();
    let book = dir.join("l.book");
    let learn = ["book", "learn", e, "--out", book.to_str().unwrap()];
    assert_refused(
        &wedge(&learn),
        &format!("{e}: no game"),
        "book learn of nothing",
    );
    assert!(!book.exists());
    assert_refused(
        &wedge(&["analyze", e]),
        &format!("{e}: no game"),
        "analyze of nothing",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn book_stats_counts_the_built_in_book_in_plain_words() {
    let out = wedge(&["book", "stats"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let positions: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("positions: "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a positions line");
    let by_discs = stdout
        .lines()
        .find_map(|l| l.strip_prefix("positions by disc count (discs:positions): "))
        .expect("a by-disc-count line");
    let mut total = 0;
    for item in by_discs.split_whitespace() {
        let (discs, n) = item.split_once(':').expect(item);
        assert!((4..=64).contains(&discs.parse::<u32>().unwrap()), "{item}");
        total += n.parse::<usize>().unwrap();
    }
    assert_eq!(total, positions, "{stdout}");
    assert!(positions > 0 && !stdout.contains('{'), "{stdout}");
}

/// A one-iteration `wedge tune` of the random player resuming from `state`.
fn tune_with_state(state: &str) -> Vec<&str> {
    vec![
        "tune",
        "--engine",
        "random",
        "--param",
        "A,1,0,2,1",
        "--iterations",
        "1",
        "--state",
        state,
    ]
}

#[test]
fn a_tune_state_with_a_field_of_another_file_names_that_field() {
    let out = wedge_with_openings("tune-state", "{\"commit\": 1}\n", &tune_with_state("{}"));
    assert_refused(
        &out,
        "line 1: not a wedge tune state: unknown field `commit`",
        "state",
    );
    assert!(
        !text(&out.stderr).contains("expected one of"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn tools_name_the_eval_file_flag_in_its_errors() {
    for tool in [
        &["bench", "--depth", "1"][..],
        &["solve", "tests/data/fforum-1-19.obf"][..],
    ] {
        let mut args = tool.to_vec();
        args.extend(["--eval-file", "/nonexistent/w.bin"]);
        let out = wedge(&args);
        assert_refused(&out, "--eval-file: /nonexistent/w.bin: ", tool[0]);
        assert!(
            !text(&out.stderr).contains("EvalFile"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn weights_dump_names_its_own_flags_in_errors() {
    let out = wedge(&["weights", "dump", "--from", "/nonexistent/w.bin"]);
    assert_refused(&out, "--from: /nonexistent/w.bin: ", "a missing --from");
    assert!(
        !text(&out.stderr).contains("EvalFile"),
        "{}",
        text(&out.stderr)
    );
    let out = wedge(&["weights", "dump", "--set", "MobilityMid=abc"]);
    assert_refused(&out, "--set: 'MobilityMid' needs an integer", "a bad --set");
    assert!(
        !text(&out.stderr).contains("setoption"),
        "{}",
        text(&out.stderr)
    );
}
