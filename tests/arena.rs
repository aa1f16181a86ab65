//! The match runner end to end: wedge processes against each other and against the built-in greedy
//! player with consistent records, and deliberately broken engines (an illegal move, an exit, a
//! hang) losing their games while the match goes on. Then `wedge match` run as a process: engines
//! that cannot start or refuse their options, GTP and NBoard engines (small `sh` fakes, or `sh`
//! wrappers around wedge), exact game counts, the JSON report, openings from recorded games, stale
//! answers, and engines that must die with a killed runner.

mod common;

#[cfg(target_os = "linux")]
use common::procs::{alive, children_of, exits_within, family, survivors};
use std::path::PathBuf;
use std::time::Duration;
use wedge::board::text::Game;
use wedge::tools::arena::player::{EngineSpec, Failure, TimeControl};
use wedge::tools::arena::stats::Outcome;
use wedge::tools::arena::{run, GameResult, MatchConfig};

fn wedge_spec(name: &str, extra: &str) -> EngineSpec {
    EngineSpec::parse(&format!(
        "name={name} cmd={} option.Hash=4 {extra}",
        env!("CARGO_BIN_EXE_wedge")
    ))
    .unwrap()
}

fn openings() -> Vec<Game> {
    ["f5d6c3d3c4f4f6f3", "f5f6e6f4e3c5c4e7", "c4c3d3c5b4"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn play(a: EngineSpec, b: EngineSpec, tc: TimeControl) -> Vec<GameResult> {
    play_at(a, b, tc, 2, 7)
}

/// [`play`] with `concurrency` games at a time and the match seed `seed`.
fn play_at(
    a: EngineSpec,
    b: EngineSpec,
    tc: TimeControl,
    concurrency: usize,
    seed: u64,
) -> Vec<GameResult> {
    let config = MatchConfig {
        a,
        b,
        openings: openings(),
        games: 6,
        tc,
        concurrency,
        sprt: None,
        seed,
        move_timeout: Duration::from_secs(20),
        stderr_logs: None,
        shard: wedge::tools::arena::Shard::WHOLE,
        done: Default::default(),
        run: None,
        interrupt: None,
    };
    let mut games = Vec::new();
    let tally = run(&config, |g, _| games.push(g.clone())).unwrap();
    assert_eq!(tally.games() as usize, games.len());
    assert_eq!(games.len(), 6);
    assert_eq!(tally.pentanomial.iter().sum::<u32>(), 3);
    games
}

#[test]
fn noisy_games_replay_whichever_process_plays_them() {
    // Level 1 draws +-20 discs of noise a move; depth 1 plays fast. The runner gives each game its
    // own seed, so the same match played one game at a time (one process for each engine, which
    // plays every game in turn) and two at a time (each game to whichever processes are free)
    // plays the same games; another match seed draws other noise.
    let spec =
        |name: &str, seed: u32| wedge_spec(name, &format!("option.Level=1 option.Seed={seed}"));
    let moves = |games: &[GameResult]| {
        let mut m: Vec<(usize, bool, String)> = games
            .iter()
            .map(|g| {
                let line: Vec<String> = g.record.moves.iter().map(|m| m.to_string()).collect();
                (g.pair, g.a_first, line.join(""))
            })
            .collect();
        m.sort();
        m
    };
    let first = play_at(spec("a", 3), spec("b", 4), TimeControl::Depth(1), 1, 7);
    check_consistent(&first);
    let second = play_at(spec("a", 3), spec("b", 4), TimeControl::Depth(1), 2, 7);
    check_consistent(&second);
    assert_eq!(moves(&first), moves(&second));
    let other = play_at(spec("a", 3), spec("b", 4), TimeControl::Depth(1), 2, 8);
    assert_ne!(moves(&other), moves(&first));
}

/// Every move replays legally and the recorded score is the final position's.
fn check_consistent(games: &[GameResult]) {
    for g in games {
        assert!(g.failure.is_none(), "{:?}", g.failure);
        let mut pos = g.record.start;
        for m in &g.record.moves {
            pos = pos.play(*m).expect("legal move in record");
        }
        assert!(pos.board.is_game_over());
        assert_eq!(pos.black_final_score(), g.record.black_score);
        let a = if g.a_first {
            g.record.black_score
        } else {
            -g.record.black_score
        };
        assert_eq!(a, g.a_discs);
        let text = g.record.to_string();
        assert!(text.starts_with("(;GM[Othello]") && text.ends_with(";)"));
    }
}

#[test]
fn wedge_against_wedge_and_greedy() {
    let games = play(
        wedge_spec("deep", ""),
        wedge_spec("shallow", "option.Level=3"),
        TimeControl::Depth(3),
    );
    check_consistent(&games);
    let games = play(
        wedge_spec("wedge", ""),
        EngineSpec::parse("greedy").unwrap(),
        TimeControl::MoveTime(Duration::from_millis(20)),
    );
    check_consistent(&games);
    let wins = games.iter().filter(|g| g.outcome == Outcome::Win).count();
    assert!(wins >= 5, "wedge won only {wins} of 6 against greedy");
}

fn script(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn broken(name: &str, on_go: &str) -> EngineSpec {
    let body = format!(
        "while read line; do\n  case \"$line\" in\n    uci) echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    let path = script(&format!("{name}.sh"), &body);
    EngineSpec::parse(&format!("name={name} cmd={}", path.display())).unwrap()
}

#[test]
fn broken_engines_lose_and_the_match_goes_on() {
    // Each failure is told apart by its kind, not by reading its text.
    type Kind = fn(&Failure) -> bool;
    let kinds: [(&str, &str, Kind); 4] = [
        (
            "illegal",
            "echo bestmove a1",
            |f| matches!(f, Failure::Illegal(m) if m == "a1"),
        ),
        ("crasher", "exit 3", |f| {
            matches!(
                f,
                Failure::Exited {
                    what: "exited",
                    status: Some(_),
                    ..
                }
            )
        }),
        (
            "garbage",
            "echo bestmove zz",
            |f| matches!(f, Failure::Malformed(line) if line == "bestmove zz"),
        ),
        // Past its flag the wait ends (the answer would come too late anyway).
        ("sleeper", "sleep 5", |f| {
            matches!(f, Failure::Timeout | Failure::Flag { .. })
        }),
    ];
    for (name, on_go, kind) in kinds {
        let tc = if name == "sleeper" {
            TimeControl::Clock {
                base: Duration::from_millis(300),
                increment: Duration::ZERO,
            }
        } else {
            TimeControl::Depth(1)
        };
        let config = MatchConfig {
            a: broken(name, on_go),
            b: EngineSpec::parse("greedy").unwrap(),
            openings: openings(),
            games: 6,
            tc,
            concurrency: 1,
            sprt: None,
            seed: 1,
            move_timeout: Duration::from_secs(5),
            stderr_logs: None,
            shard: wedge::tools::arena::Shard::WHOLE,
            done: Default::default(),
            run: None,
            interrupt: None,
        };
        let mut games = Vec::new();
        let tally = run(&config, |g, _| games.push(g.clone())).unwrap();
        assert_eq!(tally.games(), 6, "{name}: the match must go on");
        assert_eq!(tally.losses, 6, "{name}");
        for g in &games {
            let (who, why) = g.failure.clone().expect("failure recorded");
            assert_eq!(who, name);
            assert!(kind(&why), "{name}: {why:?}");
            assert_eq!(g.a_discs, -64);
            assert!(g.record.to_string().contains("C["));
        }
    }
}

// ---- The command line: `wedge match` run as a process ----------------------------------------------

use std::process::{Command, Output, Stdio};
use std::time::Instant;

const WEDGE: &str = env!("CARGO_BIN_EXE_wedge");

/// A fresh folder for one test's files, removed when the test passes (kept for a look when it fails).
struct TestDir(PathBuf);

impl std::ops::Deref for TestDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn test_dir(test: &str) -> TestDir {
    let dir = std::env::temp_dir().join(format!("wedge-arena-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TestDir(dir)
}

/// Writes an executable `sh` script (globbing off, so GGF text with `*` stays as it is).
fn sh_script(dir: &std::path::Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\nset -f\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// Runs `wedge match ARGS`, killing it (and failing the test) after `limit_s` seconds.
fn wedge_match(args: &[&str], limit_s: u64) -> Output {
    let mut child = Command::new(WEDGE)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(limit_s);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "wedge match {args:?} ran past {limit_s} s\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Runs `wedge match --engine greedy --engine random ARGS` as [`wedge_match`] does.
fn greedy_vs_random(args: &[&str], limit_s: u64) -> Output {
    let mut all = vec!["--engine", "greedy", "--engine", "random"];
    all.extend_from_slice(args);
    wedge_match(&all, limit_s)
}

/// The run stopped with a failure status and its error names every one of `needles`.
fn assert_refused(out: &Output, needles: &[&str]) {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "exit status {}", out.status);
    assert!(needles.iter().all(|n| err.contains(n)), "{err}");
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A wedge-protocol engine that answers every `go` by running `on_go` in the shell.
const FAKE_WEDGE: &str = "while read -r line; do\n  case \"$line\" in\n    uci) echo uciok ;;\n    isready) echo readyok ;;\n    go*) ON_GO ;;\n    quit) exit 0 ;;\n  esac\ndone\n";

#[test]
fn unstartable_engine_stops_the_run() {
    let out = wedge_match(
        &[
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            "greedy",
            "--games",
            "2",
        ],
        20,
    );
    assert_refused(&out, &["/nonexistent/engine", "cannot start"]);
    assert!(
        !text(&out.stdout).contains("games,"),
        "no report after a failed start"
    );

    // A program that starts but never completes the handshake.
    let dir = test_dir("unstartable");
    let quitter = sh_script(&dir, "quitter.sh", "echo 'no handshake here' >&2\nexit 0\n");
    let engine = format!("name=quitter cmd={}", quitter.display());
    let out = wedge_match(
        &["--engine", &engine, "--engine", "greedy", "--games", "2"],
        20,
    );
    assert_refused(&out, &["quitter", "handshake"]);
}

#[test]
fn misspelt_option_stops_the_run() {
    let engine = format!("name=typo cmd={WEDGE} option.Hsh=3");
    let out = wedge_match(
        &[
            "--engine", &engine, "--engine", "greedy", "--games", "2", "--depth", "1",
        ],
        30,
    );
    assert_refused(&out, &["typo", "Hsh"]);
}

/// A GTP engine in `sh` (`gtp.sh` in `dir`) that answers every numbered command with an empty
/// success, except `quit` (which ends it) and what the extra `case` arm `special` answers (the
/// command's number is in `$id`, its arguments in `$2`...).
fn fake_gtp(dir: &std::path::Path, special: &str) -> PathBuf {
    let body = format!(
        "while read -r line; do\n  set -- $line\n  id=''\n  case \"$1\" in [0-9]*) id=$1; shift ;; esac\n  case \"$1\" in\n    {special}\n    quit) printf '=%s\\n\\n' \"$id\"; exit 0 ;;\n    *) printf '=%s\\n\\n' \"$id\" ;;\n  esac\ndone\n"
    );
    sh_script(dir, "gtp.sh", &body)
}

#[test]
fn gtp_and_nboard_option_errors_stop_the_run() {
    let dir = test_dir("option-errors");
    let gtp = fake_gtp(
        &dir,
        "set_option) printf '?%s unknown option %s\\n\\n' \"$id\" \"$2\" ;;",
    );
    let nboard = sh_script(
        &dir,
        "nboard.sh",
        "while read -r line; do\n  set -- $line\n  case \"$1\" in\n    set) if [ \"$2\" = option ]; then echo \"error unknown option $3\"; fi ;;\n    ping) echo \"pong $2\" ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
    );
    for (proto, path) in [("gtp", &gtp), ("nboard", &nboard)] {
        let engine = format!(
            "name=fake-{proto} cmd={} proto={proto} option.Hsh=3",
            path.display()
        );
        let out = wedge_match(
            &[
                "--engine",
                &engine,
                "--engine",
                "greedy",
                "--games",
                "2",
                "--movetime",
                "10",
            ],
            30,
        );
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{proto}: exit status {}", out.status);
        assert!(
            err.contains(&format!("fake-{proto}")) && err.contains("Hsh"),
            "{proto}: {err}"
        );
    }
}

#[test]
fn engine_stderr_is_kept_next_to_out() {
    let dir = test_dir("stderr-log");
    let noisy = sh_script(
        &dir,
        "noisy.sh",
        &format!("echo 'stderr-marker-1234' >&2\nexec {WEDGE} \"$@\"\n"),
    );
    let out_file = dir.join("games.ggf");
    let engine = format!("name=noisy cmd={} option.Hash=4", noisy.display());
    let out = wedge_match(
        &[
            "--engine",
            &engine,
            "--engine",
            "greedy",
            "--games",
            "2",
            "--depth",
            "1",
            "--out",
            out_file.to_str().unwrap(),
        ],
        30,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = dir.join("games.ggf.noisy.stderr.log");
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        logged.contains("stderr-marker-1234"),
        "{}: '{logged}'",
        log.display()
    );
}

/// A GTP engine in front of wedge's GTP front end that knows `set_depth` (logged, not passed on) and
/// answers `time_settings` and `time_left` with the case arm `times` (logged, not passed on); wedge
/// itself is set to 10 ms a move before the session.
fn gtp_wrapper(dir: &std::path::Path, times: &str) -> (PathBuf, PathBuf) {
    let log = dir.join("gtp-commands.log");
    let body = format!(
        "d=$(mktemp -d)\nmkfifo \"$d/in\"\n{WEDGE} --protocol gtp < \"$d/in\" &\nexec 3> \"$d/in\"\nprintf '0 time_settings 0 0.01 1\\n' >&3\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> {log}\n  set -- $line\n  id=''\n  case \"$1\" in [0-9]*) id=$1; shift ;; esac\n  case \"$1 $2\" in\n    'known_command set_depth') printf '=%s true\\n\\n' \"$id\" ;;\n    set_depth*) printf '=%s\\n\\n' \"$id\" ;;\n    {times}\n    *) printf '%s\\n' \"$line\" >&3 ;;\n  esac\ndone\nexec 3>&-\nwait\nrm -rf \"$d\"\n",
        log = log.display()
    );
    (sh_script(dir, "gtp-wrapper.sh", &body), log)
}

#[test]
fn gtp_fixed_depth_needs_set_depth() {
    let dir = test_dir("gtp-depth-refused");
    let gtp = fake_gtp(&dir, "known_command) printf '=%s false\\n\\n' \"$id\" ;;");
    let engine = format!("name=nodepth cmd={} proto=gtp", gtp.display());
    let out = wedge_match(
        &[
            "--engine", &engine, "--engine", "greedy", "--games", "2", "--depth", "2",
        ],
        30,
    );
    assert_refused(&out, &["nodepth", "set_depth"]);
}

#[test]
fn gtp_engine_plays_fixed_depth_and_clock_without_time_commands() {
    let dir = test_dir("gtp-depth");
    let refuse = "time_settings*|time_left*) printf '?%s unknown command\\n\\n' \"$id\" ;;";
    let (wrapper, log) = gtp_wrapper(&dir, refuse);
    let engine = format!("name=gtp cmd={} proto=gtp", wrapper.display());
    for limit in [["--depth", "2"], ["--tc", "30+0.1"]] {
        let games = dir.join(format!("{}.ggf", limit[0].trim_start_matches('-')));
        let games_arg = games.display().to_string();
        let mut args = vec!["--engine", &engine, "--engine", "greedy", "--games", "2"];
        args.extend(limit);
        args.extend(["--out", &games_arg]);
        let out = wedge_match(&args, 60);
        let report = text(&out.stdout);
        assert!(out.status.success(), "{limit:?}: {}", text(&out.stderr));
        assert!(report.contains("failures: none"), "{limit:?}: {report}");
        // The records' TI is GGF's clock: 30 s + 0.1 s a move, no grace; none at a depth.
        let written = std::fs::read_to_string(&games).unwrap();
        let ti = written
            .split("TI[")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap();
        let clock = wedge::board::ggf::GgfClock::parse(ti);
        let read = clock.map(|c| (c.time, c.increment, c.grace));
        let want = (limit[0] == "--tc").then_some((30.0, 0.1, 0.0));
        assert_eq!(read, want, "{written}");
    }
    let commands = std::fs::read_to_string(&log).unwrap();
    assert!(commands.contains("set_depth 2"), "{commands}");
    // `time_settings` was refused in both forms, so no `time_left` followed.
    assert!(commands.contains("time_settings 30.000 0 0"), "{commands}");
    assert!(commands.contains("time_settings 30 0 0"), "{commands}");
    assert!(!commands.contains("time_left"), "{commands}");
}

/// An engine that takes GTP's whole seconds only: after one refusal it gets them.
#[test]
fn gtp_engine_that_refuses_fractions_gets_whole_seconds() {
    let dir = test_dir("gtp-whole");
    let whole = "time_settings*|time_left*) case \"$line\" in\n      \
                 *.*) printf '?%s integers only\\n\\n' \"$id\" ;;\n      \
                 *) printf '=%s\\n\\n' \"$id\" ;;\n    esac ;;";
    let (wrapper, log) = gtp_wrapper(&dir, whole);
    let engine = format!("name=gtp cmd={} proto=gtp", wrapper.display());
    for limit in [["--tc", "30+0.1"], ["--movetime", "100"]] {
        let mut args = vec!["--engine", &engine, "--engine", "greedy", "--games", "2"];
        args.extend(limit);
        let out = wedge_match(&args, 60);
        assert!(out.status.success(), "{limit:?}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("failures: none"), "{limit:?}");
    }
    let commands = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = commands.lines().collect();
    // Each run: the fractions once, then whole seconds only (a byo-yomi of at least 1 s).
    for (fractions, whole) in [
        ("time_settings 30.000 0 0", "time_settings 30 0 0"),
        ("time_settings 0 0.100 1", "time_settings 0 1 1"),
    ] {
        let at = |text: &str| lines.iter().filter(|l| l.ends_with(text)).count();
        assert_eq!((at(fractions), at(whole)), (1, 2), "{commands}");
    }
    let left: Vec<&&str> = lines.iter().filter(|l| l.contains("time_left")).collect();
    assert!(!left.is_empty(), "{commands}");
    assert!(left.iter().all(|l| !l.contains('.')), "{left:?}");
}

/// The report's counts: `N games,` on the first line, then `total P; unpaired games: U` after the
/// pentanomial list.
fn report_counts(report: &str) -> (u32, u32, u32) {
    let number_after = |word: &str| -> u32 {
        let at = report
            .find(word)
            .unwrap_or_else(|| panic!("no '{word}' in {report}"))
            + word.len();
        let digits: String = report[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("no number after '{word}' in {report}"))
    };
    let games_at = report
        .find(" games,")
        .unwrap_or_else(|| panic!("no ' games,' in {report}"));
    let games = report[..games_at]
        .split_whitespace()
        .last()
        .unwrap()
        .parse()
        .unwrap();
    (
        games,
        number_after("total "),
        number_after("unpaired games: "),
    )
}

#[test]
fn games_flag_plays_exactly_that_many_games() {
    for (n, pairs, unpaired) in [(3, 1, 1), (4, 2, 0), (1, 0, 1)] {
        let out = greedy_vs_random(&["--games", &n.to_string()], 30);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(report_counts(&text(&out.stdout)), (n, pairs, unpaired));
    }
    let out = greedy_vs_random(&["--games", "0"], 30);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--games"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn sprt_stop_reports_counts_that_agree() {
    let out = greedy_vs_random(
        &[
            "--games",
            "400",
            "--concurrency",
            "3",
            "--sprt",
            "elo0=0 elo1=100 alpha=0.1 beta=0.1",
        ],
        60,
    );
    let report = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (games, pairs, unpaired) = report_counts(&report);
    assert!(games < 400, "the SPRT should decide early: {report}");
    assert_eq!(games, 2 * pairs + unpaired, "{report}");
    assert!(report.contains("accepted"), "{report}");
}

#[test]
fn progress_and_report_agree_on_a_perfect_score() {
    let dir = test_dir("perfect-score");
    let illegal = sh_script(
        &dir,
        "illegal.sh",
        &FAKE_WEDGE.replace("ON_GO", "echo bestmove a1"),
    );
    let engine = format!("name=illegal cmd={}", illegal.display());
    let out = wedge_match(
        &[
            "--engine", &engine, "--engine", "greedy", "--games", "2", "--depth", "1",
        ],
        30,
    );
    let (report, progress) = (text(&out.stdout), text(&out.stderr));
    // Every game ended in the engine's illegal move: a failure, so the status says so.
    assert_eq!(out.status.code(), Some(3), "{progress}");
    assert!(report.contains("unbounded"), "{report}");
    let last = progress.lines().rfind(|l| l.contains("Elo")).unwrap_or("");
    assert!(
        last.contains("unbounded") && !last.contains("2400"),
        "{progress}"
    );
}

#[test]
fn json_report_has_the_figures() {
    let dir = test_dir("json");
    let json_file = dir.join("report.json");
    let out = greedy_vs_random(
        &[
            "--games",
            "5",
            "--sprt",
            "elo0=0 elo1=5",
            "--json",
            json_file.to_str().unwrap(),
        ],
        30,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_file).unwrap()).unwrap();
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or_else(|| panic!("{v} in {json}"));
    assert_eq!(n(&json["games"]["played"]), 5);
    assert_eq!(n(&json["games"]["planned"]), 5);
    let wdl = n(&json["wins"]) + n(&json["draws"]) + n(&json["losses"]);
    assert_eq!(wdl, 5);
    let penta: u64 = json["pentanomial"].as_array().unwrap().iter().map(n).sum();
    assert_eq!(penta, n(&json["pairs"]));
    assert_eq!(2 * n(&json["pairs"]) + n(&json["unpaired_games"]), 5);
    assert_eq!(json["engines"][0]["name"], "greedy");
    assert_eq!(json["engines"][1]["name"], "random");
    assert!(json["los"].is_number() && json["elo"].is_object(), "{json}");
    assert!(
        json["sprt"]["llr"].is_number() && json["sprt"]["state"].is_string(),
        "{json}"
    );
    assert!(json["failures"].as_array().unwrap().is_empty());
    assert_eq!(json["tc"]["kind"], "movetime");
}

#[test]
fn ggf_output_can_be_reused_as_openings() {
    let dir = test_dir("ggf-openings");
    let ggf = dir.join("games.ggf");
    let ggf_arg = ggf.to_str().unwrap();
    let out = greedy_vs_random(&["--games", "2", "--out", ggf_arg], 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The games are finished: as they are, they are refused; cut to their first 12 plies they are
    // openings.
    let out = greedy_vs_random(&["--openings", ggf_arg], 30);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains(&format!("{ggf_arg}:1:")),
        "{}",
        text(&out.stderr)
    );
    let out = greedy_vs_random(&["--openings", ggf_arg, "--opening-plies", "12"], 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(report_counts(&text(&out.stdout)).0, 4);
}

#[test]
fn finished_game_is_not_an_opening() {
    let dir = test_dir("finished-opening");
    let mut pos = wedge::board::Position::START;
    let mut game = Game::new(pos);
    while !pos.board.is_game_over() {
        let mv = pos.legal_move_list()[0];
        game.moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    let file = dir.join("openings.txt");
    std::fs::write(&file, format!("f5d6c3\n{}\n", game.transcript())).unwrap();
    let out = greedy_vs_random(&["--openings", file.to_str().unwrap()], 30);
    let err = text(&out.stderr);
    assert!(
        !out.status.success(),
        "a finished game was played: {}",
        text(&out.stdout)
    );
    assert!(err.contains(&format!("{}:2:", file.display())), "{err}");
    assert!(err.contains("over"), "{err}");
}

#[test]
fn a_second_bestmove_is_a_protocol_violation_and_failures_set_the_exit_status() {
    let dir = test_dir("double-bestmove");
    // wedge with every answer to `go` written twice: `bestmove` in its own protocol, `===` in
    // NBoard's (its front end).
    for (args, answer, proto) in [
        ("\"$@\"", "bestmove", ""),
        ("--protocol nboard", "===", "nboard"),
    ] {
        let doubler = sh_script(
            &dir,
            &format!("doubler-{answer}.sh"),
            &format!(
                "{WEDGE} {args} | while IFS= read -r line; do\n  printf '%s\\n' \"$line\"\n  case \"$line\" in {answer}*) printf '%s\\n' \"$line\" ;; esac\ndone\n"
            ),
        );
        let mut engine = format!("name=doubler cmd={}", doubler.display());
        if !proto.is_empty() {
            engine.push_str(&format!(" proto={proto}"));
        }
        let out = wedge_match(
            &[
                "--engine", &engine, "--engine", "greedy", "--games", "2", "--depth", "1",
            ],
            30,
        );
        let report = text(&out.stdout);
        // Every game is lost by the engine that answered one `go` twice, and the run's status
        // says that games ended in failures (docs/match.md), with the report written as always.
        assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
        assert!(report.contains("failures: 2"), "{report}");
        let violation = format!("protocol violation: a second answer ('{answer}");
        assert!(report.contains(&violation), "{report}");
        assert!(report.contains("2 games, +0 =0 -2"), "{report}");
    }
}

/// Under a clock an engine that does not answer by its flag loses on time, said so.
#[test]
fn no_answer_by_the_flag_is_a_loss_on_time() {
    let dir = test_dir("flag");
    let engine = sh_script(&dir, "sleeper.sh", &FAKE_WEDGE.replace("ON_GO", "sleep 30"));
    let spec = format!("name=sleeper cmd={}", engine.display());
    let out = wedge_match(
        &[
            "--engine", &spec, "--engine", "greedy", "--games", "2", "--tc", "0.5+0",
        ],
        60,
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(
        report.matches("sleeper: lost on time").count(),
        2,
        "{report}"
    );
    assert!(!report.contains("hung"), "{report}");
}

/// An engine that no longer starts after a crash forfeits at most three restarts, then the match
/// stops with an error naming it, the games played reported and written.
#[test]
fn an_engine_that_cannot_be_restarted_stops_the_match() {
    let dir = test_dir("gave-up");
    let marker = dir.join("started-once");
    // Plays its handshake and crashes at its first `go` the first time; exits at once after.
    let body = format!(
        "if [ -e {m} ]; then echo 'cannot start again' >&2; exit 1; fi\ntouch {m}\n{}",
        FAKE_WEDGE.replace("ON_GO", "exit 7"),
        m = marker.display()
    );
    let engine = sh_script(&dir, "once.sh", &body);
    let spec = format!("name=once cmd={}", engine.display());
    let out_file = dir.join("games.ggf");
    let out = wedge_match(
        &[
            "--engine",
            &spec,
            "--engine",
            "greedy",
            "--games",
            "20",
            "--movetime",
            "20",
            "--out",
            out_file.to_str().unwrap(),
        ],
        60,
    );
    assert_refused(
        &out,
        &[
            "'once' could not be restarted 3 times in a row",
            "cannot start again",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    // The report of the games played comes first, as for any match.
    let report = text(&out.stdout);
    assert!(report.contains("4 games, +0 =0 -4"), "{report}");
    assert!(report.contains("failures: 4"), "{report}");
    // The crash and the three failed restarts: four games, each a forfeit of `once`.
    let games = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(games.lines().count(), 4, "{games}");
    assert!(games.lines().all(|l| l.contains("C[once: ")), "{games}");
}

#[cfg(target_os = "linux")]
#[test]
fn killed_runner_takes_its_engines_with_it() {
    let dir = test_dir("orphans");
    // Engines that stop reading their input while they "think", so only a signal ends them.
    let sleeper = sh_script(
        &dir,
        "sleeper.sh",
        &FAKE_WEDGE.replace("ON_GO", "exec sleep 30"),
    );
    let engine = |name: &str| format!("name={name} cmd={}", sleeper.display());
    let mut runner = Command::new(WEDGE)
        .args([
            "match",
            "--engine",
            &engine("s1"),
            "--engine",
            &engine("s2"),
        ])
        .args(["--games", "2", "--depth", "20", "--move-timeout", "60"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut children = Vec::new();
    while children.len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        children = children_of(runner.id());
    }
    assert_eq!(
        children.len(),
        2,
        "the runner did not start its two engines"
    );
    // Let the first `go` reach an engine, so one of them is deaf to its input.
    std::thread::sleep(Duration::from_millis(300));
    runner.kill().unwrap();
    runner.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
    while children.iter().any(|&p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = survivors(&children);
    assert!(left.is_empty(), "engines outlived the runner: {left:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn interrupted_runner_reports_and_ends_wrapped_engines() {
    use std::os::unix::process::CommandExt;
    let dir = test_dir("interrupted");
    // An engine that "thinks" for 30 s without reading its input, behind a wrapper script that does
    // not `exec` it: runner -> wrapper -> engine -> sleep.
    let sleeper = sh_script(&dir, "sleeper.sh", &FAKE_WEDGE.replace("ON_GO", "sleep 30"));
    let wrapper = sh_script(&dir, "wrapper.sh", &format!("'{}'\n", sleeper.display()));
    let engine = |name: &str| format!("name={name} cmd={}", wrapper.display());
    // Ctrl-C at a terminal (SIGINT to the runner's process group), then SIGTERM to the runner.
    for (signal, group, status) in [("-INT", true, 130), ("-TERM", false, 143)] {
        let games = dir.join(format!("games{signal}.ggf"));
        let mut runner = Command::new(WEDGE)
            .args([
                "match",
                "--engine",
                &engine("w1"),
                "--engine",
                &engine("w2"),
            ])
            .args([
                "--games",
                "2",
                "--depth",
                "20",
                "--move-timeout",
                "60",
                "--out",
            ])
            .arg(&games)
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The whole family: both wrappers, their engines and the `sleep` of the one asked to move.
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut started = Vec::new();
        while started.len() < 5 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            started = family(runner.id());
        }
        assert_eq!(
            started.len(),
            5,
            "{signal}: the family never formed: {started:?}"
        );
        let target = if group {
            format!("-{}", runner.id())
        } else {
            runner.id().to_string()
        };
        let sent = Command::new("kill").args([signal, "--", &target]).status();
        assert!(sent.unwrap().success());
        let ended = exits_within(&mut runner, Duration::from_secs(10));
        let _ = runner.kill();
        let out = runner.wait_with_output().unwrap();
        let left = survivors(&started);
        assert!(ended, "{signal}: the runner did not end");
        assert!(left.is_empty(), "{signal}: outlived the runner: {left:?}");
        assert_eq!(
            out.status.code(),
            Some(status),
            "{signal}: {}",
            text(&out.stderr)
        );
        // The report of the games counted (none): no failure, though the engines were ended
        // mid-game.
        let report = text(&out.stdout);
        assert!(report.contains("failures: none"), "{signal}: {report}");
        let err = text(&out.stderr);
        assert!(err.contains("interrupted after 0 games"), "{signal}: {err}");
        assert!(
            err.contains(&games.display().to_string()),
            "{signal}: {err}"
        );
    }
}

/// Outputs that cannot take the match: a FIFO where an engine's stderr log goes is refused at once
/// (no reader would ever come), and a report that cannot be written (a full device) fails the
/// run, where a closed pipe (`| head`) does not.
#[cfg(target_os = "linux")]
#[test]
fn unwritable_logs_and_reports_fail_the_match() {
    let dir = test_dir("unwritable");
    let games = dir.join("g.ggf");
    let made = Command::new("mkfifo")
        .arg(dir.join("g.ggf.w.stderr.log"))
        .status();
    assert!(made.unwrap().success());
    let engine = format!("name=w cmd={WEDGE} option.Hash=4");
    let games_arg = games.display().to_string();
    let out = wedge_match(
        &[
            "--engine", &engine, "--engine", "greedy", "--games", "2", "--depth", "1", "--out",
            &games_arg,
        ],
        20,
    );
    assert_refused(&out, &["g.ggf.w.stderr.log", "regular"]);

    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(WEDGE)
        .args([
            "match", "--engine", "greedy", "--engine", "random", "--games", "2",
        ])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot write to standard output"),
        "{}",
        text(&out.stderr)
    );
}

/// SIGTERM while an engine that never answers its handshake is being started: the runner does
/// not wait out the handshake's 20 s.
#[cfg(target_os = "linux")]
#[test]
fn interrupted_start_ends_at_once() {
    let dir = test_dir("interrupted-start");
    let mute = sh_script(&dir, "mute.sh", "while read -r line; do :; done\n");
    let engine = format!("name=mute cmd={}", mute.display());
    let mut runner = Command::new(WEDGE)
        .args([
            "match", "--engine", &engine, "--engine", "greedy", "--games", "2",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while children_of(runner.id()).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Command::new("kill")
        .args(["-TERM", &runner.id().to_string()])
        .status();
    assert!(sent.unwrap().success());
    let ended = exits_within(&mut runner, Duration::from_secs(15));
    let _ = runner.kill();
    let out = runner.wait_with_output().unwrap();
    assert!(ended, "the runner waited out the handshake");
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("interrupted after 0 games"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn recount_of_the_written_games_gives_the_report_again() {
    let dir = test_dir("recount");
    let ggf = dir.join("games.ggf");
    let ggf_arg = ggf.to_str().unwrap();
    let out = greedy_vs_random(
        &[
            "--openings",
            "tests/data/xot-sample.txt",
            "--games",
            "7",
            "--concurrency",
            "2",
            "--seed",
            "5",
            "--out",
            ggf_arg,
        ],
        30,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played = text(&out.stdout);
    let out = wedge_match(&["--recount", ggf_arg], 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let counted = text(&out.stdout);
    // The same first line (engines, W/D/L, discs), pairs and Elo, whatever order the games
    // finished in.
    let lines = |report: &str| -> Vec<String> {
        report
            .lines()
            .filter(|l| {
                l.starts_with("greedy vs random") || l.starts_with("pairs") || l.starts_with("Elo")
            })
            .map(str::to_string)
            .collect()
    };
    assert_eq!(lines(&played).len(), 3, "{played}");
    assert_eq!(lines(&counted), lines(&played), "{counted}");
    assert_eq!(report_counts(&counted), (7, 3, 1));
    // One file given twice, or a copy of it, would count its games twice: refused.
    let out = wedge_match(&["--recount", ggf_arg, ggf_arg], 30);
    assert_refused(&out, &["given twice"]);
    let copy = dir.join("copy.ggf");
    std::fs::copy(&ggf, &copy).unwrap();
    let out = wedge_match(&["--recount", ggf_arg, copy.to_str().unwrap()], 30);
    assert_refused(&out, &["copy.ggf", "counted twice"]);
    assert!(text(&out.stdout).is_empty());
    // A line that is no game is named by file and line, and nothing is reported.
    let bad = dir.join("bad.ggf");
    let first_game = std::fs::read_to_string(&ggf).unwrap();
    let first_game = first_game.lines().next().unwrap();
    std::fs::write(&bad, format!("{first_game}\nnot a game\n")).unwrap();
    let out = wedge_match(&["--recount", bad.to_str().unwrap()], 30);
    let needle = format!("{}:2:", bad.display());
    assert_refused(&out, &[needle.as_str()]);
    assert!(text(&out.stdout).is_empty());
    // Engines and a recount do not mix.
    let out = wedge_match(&["--recount", ggf_arg, "--engine", "greedy"], 30);
    assert!(!out.status.success());
}

#[test]
fn shards_of_a_match_count_as_the_whole_match() {
    let dir = test_dir("shards");
    let openings = "tests/data/xot-sample.txt";
    let run = |extra: &[&str]| {
        let mut args = vec!["--openings", openings, "--games", "12"];
        if !extra.contains(&"--seed") {
            args.extend(["--seed", "7"]);
        }
        args.extend_from_slice(extra);
        let out = greedy_vs_random(&args, 60);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    };
    let whole = dir.join("whole.ggf");
    run(&["--out", whole.to_str().unwrap()]);
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("shard{i}.ggf"))).collect();
    for (i, path) in shards.iter().enumerate() {
        run(&[
            "--shard",
            &format!("{}/3", i + 1),
            "--out",
            path.to_str().unwrap(),
        ]);
    }
    let recount = |files: &[&PathBuf]| {
        let mut args = vec!["--recount"];
        args.extend(files.iter().map(|p| p.to_str().unwrap()));
        args.extend(["--sprt", "elo0=0 elo1=50 alpha=0.05 beta=0.05"]);
        let out = wedge_match(&args, 30);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let merged = recount(&shards.iter().collect::<Vec<_>>());
    // The same games, pairs, Elo and SPRT as one process (one game at a time: the built-in
    // random player's choices then depend only on the seed and the game).
    assert_eq!(merged, recount(&[&whole]));
    assert!(
        merged.contains("12 games") && merged.contains("SPRT"),
        "{merged}"
    );
    // A shard run again plays nothing more: its file holds its games.
    let before = std::fs::read_to_string(&shards[1]).unwrap();
    let out = run(&["--shard", "2/3", "--out", shards[1].to_str().unwrap()]);
    assert!(
        text(&out.stderr).contains("every game of this shard is in")
            && text(&out.stderr).contains("nothing left to play"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&shards[1]).unwrap(), before);
    // A run cut short after 5 games and run again plays the other 7 and reports all 12, as
    // the count of the whole run does.
    let cut = dir.join("cut.ggf");
    let first5: String = std::fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&cut, first5).unwrap();
    let resumed_json = dir.join("resumed.json");
    let resumed_run = run(&[
        "--out",
        cut.to_str().unwrap(),
        "--json",
        resumed_json.to_str().unwrap(),
    ]);
    assert!(
        text(&resumed_run.stderr).contains("5 games of this run are in")
            && text(&resumed_run.stderr).contains("playing the other 7"),
        "{}",
        text(&resumed_run.stderr)
    );
    let resumed = text(&resumed_run.stdout);
    let counted = text(&wedge_match(&["--recount", cut.to_str().unwrap()], 30).stdout);
    assert!(resumed.contains("12 games"), "{resumed}");
    assert!(!resumed.contains("stopped after"), "{resumed}");
    // The JSON counts the whole run, the games found in the file included.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&resumed_json).unwrap()).unwrap();
    assert_eq!(json["games"]["planned"], 12, "{json}");
    assert_eq!(json["games"]["played"], 12, "{json}");
    assert_eq!(json["games"]["stopped_early"], false, "{json}");
    // The same tally, pairs and Elo (the last line differs: failures against forfeits).
    let head = |t: &str| t.lines().take(3).collect::<Vec<_>>().join("\n");
    assert_eq!(head(&resumed), head(&counted));
    // A shard of another run (another seed) is refused, by the runner and by the count.
    let other = dir.join("other.ggf");
    run(&[
        "--seed",
        "8",
        "--shard",
        "1/3",
        "--out",
        other.to_str().unwrap(),
    ]);
    let mut args = vec!["--openings", openings, "--games", "12", "--seed", "8"];
    args.extend(["--shard", "1/3", "--out", shards[0].to_str().unwrap()]);
    assert_refused(
        &greedy_vs_random(&args, 30),
        &["another run", "shard1.ggf:1"],
    );
    let out = wedge_match(
        &[
            "--recount",
            shards[0].to_str().unwrap(),
            other.to_str().unwrap(),
        ],
        30,
    );
    assert_refused(&out, &["different runs", "other.ggf"]);
    // A shard alone cannot take the SPRT, and needs --out.
    let out = greedy_vs_random(
        &["--games", "4", "--shard", "1/2", "--sprt", "elo0=0 elo1=5"],
        30,
    );
    assert_refused(&out, &["--recount"]);
    let out = greedy_vs_random(&["--games", "4", "--shard", "1/2"], 30);
    assert_refused(&out, &["--out"]);
}

#[test]
fn a_match_file_ending_without_its_newline_is_resumed_or_refused_as_its_last_line_says() {
    let dir = test_dir("torn-tail");
    let ggf = dir.join("games.ggf");
    let g = ggf.to_str().unwrap();
    let args = ["--games", "4", "--out", g];
    let out = greedy_vs_random(&args, 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let whole = std::fs::read_to_string(&ggf).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    assert_eq!(lines.len(), 4);
    // The last record whole but without its newline: kept, and the run has nothing left to play.
    std::fs::write(&ggf, whole.trim_end()).unwrap();
    let out = greedy_vs_random(&args, 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&ggf).unwrap(), whole);
    // Cut short inside the record: cut, and that game played again.
    std::fs::write(&ggf, &whole[..whole.len() - 20]).unwrap();
    let out = greedy_vs_random(&args, 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&ggf).unwrap().lines().count(), 4);
    // A record of another run (another seed) at the end: refused, the file kept.
    let other = dir.join("other.ggf");
    let o = other.to_str().unwrap();
    let out = greedy_vs_random(&["--games", "2", "--seed", "9", "--out", o], 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let foreign = format!(
        "{}{}",
        lines[..3].join("\n") + "\n",
        std::fs::read_to_string(&other)
            .unwrap()
            .lines()
            .next()
            .unwrap()
    );
    std::fs::write(&ggf, &foreign).unwrap();
    assert_refused(
        &greedy_vs_random(&args, 30),
        &[&format!("{g}:4:"), "another run"],
    );
    assert_eq!(std::fs::read_to_string(&ggf).unwrap(), foreign);
    // Two whole records on one line, no newline: no record cut short, so refused, not cut.
    let two = lines[0].to_string() + lines[1];
    std::fs::write(&ggf, &two).unwrap();
    assert_refused(&greedy_vs_random(&args, 30), &[&format!("{g}:1:")]);
    assert_eq!(std::fs::read_to_string(&ggf).unwrap(), two);
    // Another run's record cut short after its GN tag: refused too.
    let cut = &foreign[foreign.len() - 20..];
    let cut = foreign.strip_suffix(cut).unwrap();
    std::fs::write(&ggf, cut).unwrap();
    assert_refused(&greedy_vs_random(&args, 30), &[&format!("{g}:4:")]);
    assert_eq!(std::fs::read_to_string(&ggf).unwrap(), cut);
}

/// A resumed match counts the failures of the games it played before, as the report and the exit
/// status of a match played whole would (and a recount's exit status); a shard's file holds only
/// that shard's games.
#[test]
fn a_resumed_match_keeps_its_failures_and_shards_keep_their_own_files() {
    let dir = test_dir("resume-failures");
    let crash = sh_script(&dir, "crash.sh", &FAKE_WEDGE.replace("ON_GO", "exit 5"));
    let engine = format!("name=crash cmd={}", crash.display());
    let ggf = dir.join("games.ggf");
    let g = ggf.to_str().unwrap();
    let args = [
        "--engine", &engine, "--engine", "random", "--games", "4", "--out", g,
    ];
    let out = wedge_match(&args, 30);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let whole = std::fs::read_to_string(&ggf).unwrap();
    let kept: String = whole
        .lines()
        .take(2)
        .map(|l| l.to_string() + "\n")
        .collect();
    std::fs::write(&ggf, &kept).unwrap();
    let json = dir.join("report.json");
    let mut resumed = args.to_vec();
    resumed.extend(["--json", json.to_str().unwrap()]);
    let out = wedge_match(&resumed, 30);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["failures"].as_array().unwrap().len(), 4, "{report}");
    // A recount of games with forfeits exits as the match did.
    let out = wedge_match(&["--recount", g], 30);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    // Shard 2 of 4 does not take shard 1's file.
    let shard = dir.join("shard.ggf");
    let s = shard.to_str().unwrap();
    let shard_args = |part: &'static str| ["--games", "16", "--shard", part, "--out", s];
    let out = greedy_vs_random(&shard_args("1/4"), 30);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_refused(
        &greedy_vs_random(&shard_args("2/4"), 30),
        &["another shard"],
    );
}

/// An output that is not a regular file is refused before any game, and `--json` may not name the
/// `--layout` file it reads.
#[cfg(target_os = "linux")]
#[test]
fn outputs_must_be_regular_files_and_no_input() {
    assert_refused(
        &greedy_vs_random(&["--games", "2", "--out", "/dev/null"], 30),
        &["/dev/null", "not a regular file"],
    );
    assert_refused(
        &greedy_vs_random(&["--games", "2", "--json", "/dev/null"], 30),
        &["/dev/null", "not a regular file"],
    );
    let dir = test_dir("layout-json");
    let layout = dir.join("layout.txt");
    let board = "......\n......\n..WR..\n..RW..\n......\n......\n";
    std::fs::write(&layout, board).unwrap();
    let l = layout.to_str().unwrap();
    let args = [
        "--variant",
        "6x6",
        "--layout",
        l,
        "--games",
        "2",
        "--json",
        l,
    ];
    assert_refused(
        &greedy_vs_random(&args, 30),
        &["--json is one of the inputs"],
    );
    assert_eq!(std::fs::read_to_string(&layout).unwrap(), board);
}

#[test]
fn a_reader_that_stops_reading_does_not_stop_the_match() {
    // As `wedge match ... 2>&1 | head -1`: both outputs closed after the first line; the match
    // still plays every game into --out and exits 0 instead of dying on the closed pipe.
    use std::io::BufRead;
    let dir = test_dir("closed-pipe");
    let out_file = dir.join("games.ggf");
    let mut child = Command::new(WEDGE)
        .args(["match", "--engine", "greedy", "--engine", "random"])
        .args(["--games", "4000", "--depth", "1", "--out"])
        .arg(&out_file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut first = String::new();
    std::io::BufReader::new(stderr)
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("games"), "{first}");
    drop(child.stdout.take());
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the match did not end");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let games = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(games.lines().count(), 4000);
}
