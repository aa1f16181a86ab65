//! `wedge tune` through the binary: SPSA on a tiny budget moves a badly set weight towards the
//! better region, writes its state and log, and a rerun of a finished run only reports.

mod common;

use std::process::Command;

#[test]
fn spsa_moves_a_bad_weight_towards_the_better_region() {
    let dir = std::env::temp_dir().join(format!("wedge-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (state, log) = (dir.join("state.txt"), dir.join("log.csv"));
    let _ = std::fs::remove_file(&state);
    let _ = std::fs::remove_file(&log);
    let exe = env!("CARGO_BIN_EXE_wedge");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xot-sample.txt");
    let engine = format!("name=w cmd={exe} option.OwnBook=false option.Hash=4");
    let run = || {
        let out = Command::new(exe)
            .args([
                "tune",
                "--engine",
                &engine,
                "--depth",
                "2",
                "--openings",
                openings,
            ])
            // Mobility counted against the side to move: a weight that games punish at once.
            .args(["--param", "MobilityMid,-500,-2000,2000,150,0.02"])
            .args(["--iterations", "16", "--seed", "1", "--state"])
            .arg(&state)
            .arg("--log")
            .arg(&log)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let report = run();
    let tuned: f64 = report
        .lines()
        .find_map(|l| l.strip_prefix("tuned: option.MobilityMid="))
        .expect("the report names the tuned value")
        .parse()
        .unwrap();
    assert!(
        tuned > -440.0,
        "MobilityMid only went from -500 to {tuned}\n{report}"
    );
    assert!(
        report.starts_with("16 of 16 iterations, 32 games"),
        "{report}"
    );
    let csv = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        csv.lines().count(),
        17,
        "a header and a line per iteration:\n{csv}"
    );
    assert!(csv
        .starts_with("iteration,wins,draws,losses,MobilityMid_plus,MobilityMid_minus,MobilityMid"));
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("\"done\": 16"), "{saved}");
    // A finished run is resumed with nothing to play: the same report, nothing appended.
    assert_eq!(run(), report);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), csv);
}

/// `wedge tune` of the built binary at depth 1 for `iterations`, with `params` and `state`.
fn tune_command(iterations: usize, params: &[&str], state: &std::path::Path) -> Command {
    let exe = env!("CARGO_BIN_EXE_wedge");
    let mut c = Command::new(exe);
    c.args([
        "tune",
        "--engine",
        &format!("name=w cmd={exe}"),
        "--depth",
        "1",
    ])
    .args(["--iterations", &iterations.to_string()]);
    for p in params {
        c.args(["--param", p]);
    }
    c.arg("--state").arg(state);
    c
}

#[test]
fn bad_parameters_and_a_state_of_another_run_are_refused() {
    let dir = std::env::temp_dir().join(format!("wedge-tune-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state.txt");
    std::fs::write(
        &state,
        r#"{"format": "wedge tune state 2", "iterations": 99, "seed": 1, "pairs": 1, "done": 0,
            "plus": [0, 0, 0], "params": [{"spec": "MobilityMid,0,-100,100,10",
            "name": "MobilityMid", "value": 0}], "history": []}"#,
    )
    .unwrap();
    let tune = |param: &str| tune_command(5, &[param], &state).output().unwrap();
    let out = tune("MobilityMid,0,-100");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME,START,MIN,MAX,C_END"));
    let out = tune("MobilityMid,0,-100,100,10");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("state.txt") && err.contains("iterations 99"),
        "{err}"
    );
    // An option the engine does not have stops the run with the engine's refusal.
    std::fs::remove_file(&state).unwrap();
    let out = tune("NoSuchOption,0,-100,100,10");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("NoSuchOption"),
        "{out:?}"
    );
    // A range beyond the option's is refused before any game, naming the bound and the value.
    let out = tune("MobilityMid,9990,-10000,20000,50");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("at its MAX") && err.contains("MobilityMid=20000"),
        "{err}"
    );
    assert!(!err.contains("iteration"), "{err}");
    assert!(err.contains("give a range the engine takes"), "{err}");
    // A parameter given twice is named.
    let twice = ["MobilityMid,0,-100,100,10", "mobilitymid,0,-100,100,10"];
    let out = tune_command(5, &twice, &state).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the parameter mobilitymid is given twice"),
        "{err}"
    );
    // A program that cannot run is not blamed on the range.
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args([
            "tune",
            "--engine",
            "name=x cmd=/nonexistent/engine",
            "--depth",
            "1",
        ])
        .args(["--param", "MobilityMid,0,-100,100,10", "--state"])
        .arg(&state)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("could not be started") && !err.contains("give a range"),
        "{err}"
    );
}

/// A log of another run (other columns) is refused untouched, and a run refused for its
/// parameters writes no log.
#[test]
fn a_log_of_another_run_is_refused_and_a_refused_run_writes_none() {
    let dir = std::env::temp_dir().join(format!("wedge-tune-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (state, log) = (dir.join("state.txt"), dir.join("log.csv"));
    let tune = |params: &[&str]| {
        let mut c = tune_command(2, params, &state);
        c.arg("--log").arg(&log);
        c.output().unwrap()
    };
    let other = "iteration,wins,draws,losses,A_plus,A_minus,A\n1,1,0,1,5,-5,0.000\n";
    std::fs::write(&log, other).unwrap();
    let out = tune(&["MobilityMid,0,-100,100,10"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("another run"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), other);
    std::fs::remove_file(&log).unwrap();
    let out = tune(&["MobilityMid,0,-100,100,10", "MobilityMid,0,-100,100,10"]);
    assert!(!out.status.success());
    assert!(!log.exists(), "a refused run wrote its log");
    std::fs::remove_dir_all(&dir).ok();
}

/// An engine that crashes in a game stops the run: its forfeit measures nothing, so the
/// iteration is not counted, and the state keeps what came before.
#[cfg(unix)]
#[test]
fn an_engine_failure_stops_the_run_uncounted() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("wedge-tune-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = dir.join("crash.sh");
    let body = "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n\
        uci) echo uciok;; isready) echo readyok;; go*) exit 5;; quit) exit 0;;\n\
        esac; done\n";
    std::fs::write(&engine, body).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let state = dir.join("state.json");
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["tune", "--engine"])
        .arg(format!("name=c cmd={}", engine.display()))
        .args(["--param", "MobilityMid,70,-500,700,25", "--iterations", "3"])
        .args(["--depth", "1", "--state"])
        .arg(&state)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("iteration 1") && err.contains("failed") && err.contains("not counted"),
        "{err}"
    );
    // No iteration was counted: the state, if written, holds none.
    if let Ok(text) = std::fs::read_to_string(&state) {
        assert!(text.contains("\"done\": 0"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM in the middle of an iteration: the run ends in order with status 143, the iteration
/// uncounted, and the engines go with what they started (here each engine's `sleep`).
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_run_ends_its_engines_and_keeps_its_state() {
    use common::procs::{exits_within, family, survivors};
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("wedge-tune-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = dir.join("sleeper.sh");
    let body = "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n\
        uci) echo 'option name MobilityMid type spin default 0 min -500 max 700'; echo uciok;;\n\
        isready) echo readyok;; go*) sleep 30;; quit) exit 0;;\n\
        esac; done\n";
    std::fs::write(&engine, body).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let state = dir.join("state.json");
    let mut tune = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["tune", "--engine"])
        .arg(format!("name=s cmd={}", engine.display()))
        .args(["--param", "MobilityMid,70,-500,700,25", "--iterations", "3"])
        .args(["--depth", "1", "--move-timeout", "60", "--state"])
        .arg(&state)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let sleeping = |pids: &[u32]| {
        pids.iter().any(|p| {
            std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.trim() == "sleep")
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut started = Vec::new();
    while !sleeping(&started) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
        started = family(tune.id());
    }
    assert!(
        sleeping(&started),
        "no engine was asked to move: {started:?}"
    );
    let sent = Command::new("kill")
        .args(["-TERM", &tune.id().to_string()])
        .status();
    assert!(sent.unwrap().success());
    let ended = exits_within(&mut tune, std::time::Duration::from_secs(10));
    let _ = tune.kill();
    let out = tune.wait_with_output().unwrap();
    let left = survivors(&started);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(ended, "the run did not end: {err}");
    assert!(left.is_empty(), "outlived the run: {left:?}");
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert!(err.contains("interrupted in iteration 1"), "{err}");
    // The values so far are no result: a script reading `tuned:` must not take them.
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("\npartial: option."), "{report}");
    assert!(!report.contains("tuned:"), "{report}");
    if let Ok(text) = std::fs::read_to_string(&state) {
        assert!(text.contains("\"done\": 0"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
