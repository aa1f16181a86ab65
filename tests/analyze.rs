//! `wedge analyze` as a user runs it: exact scores checked against the solver, a deliberate blunder
//! flagged at its move, GGF from `wedge match --out`, transcripts and WTHOR files read, the JSON
//! agreeing with the table, the SVG well-formed with one point per move, the same results whatever
//! the number of jobs, and bad files refused with their file and line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use wedge::board::text::Game;
use wedge::board::{Board, Move, Position};
use wedge::search::Solver;

const WEDGE: &str = env!("CARGO_BIN_EXE_wedge");

fn dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wedge-analyze-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn wedge(args: &[&str]) -> Output {
    Command::new(WEDGE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run wedge")
}

fn ok(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The exact value of `pos` for its side to move (the final score when the game is over).
fn exact(solver: &mut Solver, board: Board) -> i32 {
    if board.is_game_over() {
        board.final_score()
    } else {
        solver.solve_exact(board).score
    }
}

/// A game from the start: the first legal move each turn down to 14 empties, then at 14 empties
/// the move that loses the most (at least 8 discs against the best), then perfect play to the end.
/// Returns the game and the blunder's move number.
fn game_with_a_blunder(solver: &mut Solver) -> (Game, usize) {
    let mut pos = Position::START;
    let mut game = Game::new(pos);
    let mut blunder = None;
    while !pos.board.is_game_over() {
        let moves = pos.legal_move_list();
        let mv = if moves.is_empty() {
            Move::PASS
        } else if pos.board.empty_count() > 14 {
            moves[0]
        } else if blunder.is_none() {
            let best = exact(solver, pos.board);
            let worst = moves
                .iter()
                .map(|&m| (-exact(solver, pos.play(m).unwrap().board), m))
                .min_by_key(|&(v, _)| v)
                .unwrap();
            if best - worst.0 >= 8 {
                blunder = Some(game.moves.len() + 1);
                worst.1
            } else {
                solver.solve_exact(pos.board).best_move.unwrap()
            }
        } else {
            solver.solve_exact(pos.board).best_move.unwrap()
        };
        game.moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    (
        game,
        blunder.expect("a move losing 8 discs at 14 empties or fewer"),
    )
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The game of [`game_with_a_blunder`] analysed with `args` (and `--json`): the game, the
/// blunder's move number, every position (the start, then after each move), the JSON document and
/// the table.
struct Analysed {
    game: Game,
    blunder: usize,
    positions: Vec<Position>,
    doc: serde_json::Value,
    table: String,
}

fn analyse_the_blunder_game(tag: &str, solver: &mut Solver, args: &[&str]) -> Analysed {
    let d = dir(tag);
    let (game, blunder) = game_with_a_blunder(solver);
    let file = d.join("game.txt");
    std::fs::write(&file, format!("{}\n", game.transcript())).unwrap();
    let out_json = d.join("a.json");
    let mut all = vec!["analyze", file.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend(["--json", out_json.to_str().unwrap()]);
    let table = ok(&wedge(&all));
    let doc = json(&out_json);
    let mut positions = vec![game.start];
    for &m in &game.moves {
        positions.push(positions.last().unwrap().play(m).unwrap());
    }
    let _ = std::fs::remove_dir_all(&d);
    Analysed {
        game,
        blunder,
        positions,
        doc,
        table,
    }
}

#[test]
fn exact_scores_are_the_solvers_and_a_blunder_is_flagged() {
    let mut solver = Solver::new(64);
    let Analysed {
        game,
        blunder,
        positions,
        doc,
        table,
    } = analyse_the_blunder_game("exact", &mut solver, &["--depth", "4", "--exact", "14"]);
    let moves = doc["games"][0]["moves"].as_array().unwrap();
    let mut checked = 0;
    for m in moves {
        let number = m["number"].as_u64().unwrap() as usize;
        let before = positions[number - 1];
        assert_eq!(m["played"], game.moves[number - 1].to_string());
        if !m["exact"].as_bool().unwrap() {
            assert!(before.board.empty_count() > 14, "{m}");
            continue;
        }
        checked += 1;
        let best = exact(&mut solver, before.board);
        let after = positions[number];
        // The played move's value for the mover: the next position's, negated unless the
        // opponent passes there (then the position after the pass is the mover's again).
        let played = if after.board.is_game_over() {
            let s = after.black_final_score();
            if before.side == wedge::board::Color::Black {
                s
            } else {
                -s
            }
        } else if after.board.must_pass() {
            exact(&mut solver, after.board.pass())
        } else {
            -exact(&mut solver, after.board)
        };
        assert_eq!(m["best_score"].as_f64().unwrap(), f64::from(best), "{m}");
        assert_eq!(
            m["played_score"].as_f64().unwrap(),
            f64::from(played),
            "{m}"
        );
        assert_eq!(m["loss"].as_f64().unwrap(), f64::from(best - played), "{m}");
    }
    assert!(checked >= 10, "only {checked} exact moves");
    let flagged: Vec<u64> = moves
        .iter()
        .filter(|m| m["mark"] == "blunder" && m["exact"] == true)
        .map(|m| m["number"].as_u64().unwrap())
        .collect();
    assert_eq!(flagged, vec![blunder as u64], "{table}");
    // The table says the same: the blunder's line carries its mark.
    let line = table
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{blunder} ")))
        .unwrap();
    assert!(line.ends_with("??"), "{line}");
}

/// A minimal XML well-formedness check: tags nest and close, attributes are quoted.
fn well_formed(xml: &str) -> bool {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            return false;
        };
        let tag = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if !tag.matches('"').count().is_multiple_of(2) {
            return false;
        }
        if let Some(name) = tag.strip_prefix('/') {
            if stack.pop().as_deref() != Some(name.trim()) {
                return false;
            }
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    stack.is_empty()
}

#[test]
fn match_records_transcripts_and_wthor_files_analyse_with_json_and_svg() {
    let d = dir("roundtrip");
    // Games written by `wedge match --out`.
    let ggf = d.join("games.ggf");
    let m = wedge(&[
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--games",
        "2",
        "--out",
        ggf.to_str().unwrap(),
    ]);
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    // A transcript and a WTHOR file the test makes.
    let transcript = d.join("t.txt");
    std::fs::write(&transcript, "# a comment\nf5d6c3d3c4f4f6f3e6e7\n").unwrap();
    let wtb = d.join("archive.wtb");
    let game: Game = "f5d6c3d3c4f4f6f3e6e7".parse().unwrap();
    let record = wedge::board::wthor::WthorGame {
        tournament: 1,
        black: 10,
        white: 20,
        black_discs: 0,
        game,
    };
    std::fs::write(&wtb, wedge::board::wthor::write_wthor(&[record], 2026)).unwrap();
    let out_json = d.join("all.json");
    let out_svg = d.join("graph.svg");
    let files = [&ggf, &transcript, &wtb];
    let analyze = |jobs: &str, json: &Path, svg: Option<&Path>| {
        let mut args: Vec<&str> = vec!["analyze"];
        args.extend(files.iter().map(|f| f.to_str().unwrap()));
        args.extend(["--depth", "3", "--exact", "10", "--jobs", jobs]);
        args.extend(["--json", json.to_str().unwrap()]);
        if let Some(svg) = svg {
            args.extend(["--svg", svg.to_str().unwrap()]);
        }
        ok(&wedge(&args))
    };
    let table = analyze("2", &out_json, Some(&out_svg));
    let doc = json(&out_json);
    let games = doc["games"].as_array().unwrap();
    assert_eq!(
        games.len(),
        4,
        "two match games, a transcript, a WTHOR game"
    );
    assert_eq!(games[3]["black"], "player 10");
    // A file of one game is named alone, whatever its format; of several, with the number.
    assert_eq!(
        games[1]["source"],
        ggf.to_str().map(|f| format!("{f}:game 2")).unwrap()
    );
    assert_eq!(games[2]["source"], transcript.to_str().unwrap());
    assert_eq!(games[3]["source"], wtb.to_str().unwrap());
    assert!(games[2]["result"].is_null(), "the transcript stops early");
    // The JSON and the table agree: a row per move with the same loss, the same totals.
    for (n, g) in games.iter().enumerate() {
        let moves = g["moves"].as_array().unwrap();
        let header = table
            .lines()
            .filter(|l| l.contains(" (black) vs "))
            .nth(n)
            .unwrap();
        assert!(
            header.starts_with(g["source"].as_str().unwrap()),
            "{header}"
        );
        let block: Vec<&str> = table
            .split("\n\n")
            .nth(n)
            .unwrap()
            .lines()
            .filter(|l| {
                l.trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            })
            .collect();
        assert_eq!(block.len(), moves.len(), "{header}");
        for (row, m) in block.iter().zip(moves) {
            let loss: f64 = row.split_whitespace().nth(6).unwrap().parse().unwrap();
            assert!(
                (loss - m["loss"].as_f64().unwrap()).abs() < 0.051,
                "{row} / {m}"
            );
        }
        // One SVG a game, one point per move.
        let svg = std::fs::read_to_string(d.join(format!("graph-{}.svg", n + 1))).unwrap();
        assert!(well_formed(&svg), "{svg}");
        assert_eq!(svg.matches(r#"class="move""#).count(), moves.len());
        let marked = moves.iter().filter(|m| !m["mark"].is_null()).count();
        assert_eq!(svg.matches(r#"class="mark""#).count(), marked);
    }
    // The same analysis with one job: the same document.
    let one = d.join("one.json");
    analyze("1", &one, None);
    assert_eq!(json(&one), doc);
    // A numbered graph that would be an input, or the JSON report, is refused before the work.
    let t_svg = d.join("t.txt");
    let input = d.join("t-1.txt");
    std::fs::copy(&transcript, &input).unwrap();
    let both = [transcript.to_str().unwrap(), input.to_str().unwrap()];
    let svg = wedge(&[
        "analyze",
        both[0],
        both[1],
        "--svg",
        t_svg.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&svg.stderr);
    assert!(
        !svg.status.success() && err.contains("--svg (game 1)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read(&transcript).unwrap()
    );
    let r1 = d.join("r-1.svg");
    let clash = wedge(&[
        "analyze",
        both[0],
        both[1],
        "--svg",
        d.join("r.svg").to_str().unwrap(),
        "--json",
        r1.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&clash.stderr);
    assert!(
        !clash.status.success() && err.contains("name the same file"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_game_files_are_refused_with_their_file_and_line() {
    let d = dir("bad");
    let t = d.join("bad.txt");
    std::fs::write(&t, "f5d6\nf5a1\n").unwrap();
    let out = wedge(&["analyze", t.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt:2:"), "{err}");
    let g = d.join("bad.ggf");
    std::fs::write(&g, "(;GM[Othello]BO[8 nonsense];)\n").unwrap();
    let out = wedge(&["analyze", g.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.ggf:1:"));
    let w = d.join("bad.wtb");
    std::fs::write(&w, [0u8; 20]).unwrap();
    let out = wedge(&["analyze", w.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.wtb"));
    // A byte that is not UTF-8 (a Latin-1 name) is refused with its line.
    let l = d.join("latin1.ggf");
    std::fs::write(&l, b"(;GM[Othello]\nPB[Andr\xe9]\nB[f5];)\n").unwrap();
    let out = wedge(&["analyze", l.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("latin1.ggf:2:"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_the_finished_games_written() {
    let d = dir("interrupt");
    // Three short games at half a second a position with one job: two seconds a game.
    let file = d.join("three.txt");
    std::fs::write(&file, "f5d6c3d3\nf5f6e6f4\nf5d6c5f4\n").unwrap();
    let out_json = d.join("partial.json");
    let mut child = Command::new(WEDGE)
        .args([
            "analyze",
            file.to_str().unwrap(),
            "--time",
            "0.5",
            "--jobs",
            "1",
        ])
        .args(["--json", out_json.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first game is written, Ctrl-C.
    let start = std::time::Instant::now();
    while !out_json.exists() {
        assert!(start.elapsed().as_secs() < 60, "no game written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: kill only sends a signal to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let games = json(&out_json)["games"].as_array().unwrap().len();
    assert!((1..3).contains(&games), "{games} games written");
    let _ = std::fs::remove_dir_all(&d);
}

/// A midgame move that was not the best is scored from its own position at the analysis' depth
/// (a search limited to it), so the loss compares two scores of one depth; the best move's score is
/// the position's.
#[test]
fn a_midgame_move_is_scored_at_the_depth_of_the_best_one() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use wedge::eval::Evaluator;
    use wedge::search::{Limits, Score, Searcher, FULL_WIDTH};
    let mut solver = Solver::new(16);
    let Analysed {
        game,
        positions,
        doc,
        ..
    } = analyse_the_blunder_game(
        "parity",
        &mut solver,
        &["--depth", "4", "--exact", "14", "--selectivity", "100"],
    );
    assert_eq!(
        doc["settings"]["depth"].as_u64(),
        Some(4),
        "{}",
        doc["settings"]
    );
    assert!(doc["settings"]["time"].is_null(), "{}", doc["settings"]);
    let mut searcher = Searcher::new(16, Evaluator::default());
    let (mut others, mut bests) = (0, 0);
    for m in doc["games"][0]["moves"].as_array().unwrap() {
        if m["exact"].as_bool().unwrap() {
            continue;
        }
        let number = m["number"].as_u64().unwrap() as usize;
        let board = positions[number - 1].board;
        let (best, played) = (
            m["best_score"].as_f64().unwrap(),
            m["played_score"].as_f64().unwrap(),
        );
        if m["played"] == m["best"] {
            bests += 1;
            assert_eq!(played, best, "{m}");
        } else {
            others += 1;
            let square = game.moves[number - 1].square().unwrap();
            searcher.clear();
            let limits = Limits {
                depth: Some(4),
                root_moves: Some(square.bit()),
                selectivity: FULL_WIDTH,
                ..Limits::default()
            };
            let r = searcher.search(
                board,
                &limits,
                Arc::new(AtomicBool::new(false)),
                &mut |_| {},
            );
            assert_eq!(r.best_move, Some(game.moves[number - 1]), "{m}");
            let Score::Eval(cd) = r.score else {
                panic!("a midgame score: {:?}", r.score)
            };
            assert_eq!(played, f64::from(cd) / 100.0, "{m}");
        }
        // In tenths, as the table shows it and the marks are given.
        let loss = ((best - played).max(0.0) * 10.0).round() / 10.0;
        assert_eq!(m["loss"].as_f64().unwrap(), loss, "{m}");
    }
    assert!(
        others >= 10 && bests >= 3,
        "{others} other moves, {bests} best moves"
    );
}

/// With a time a position, the exact part still runs every solve to its end: the scores from
/// `--exact` empties on are the solver's, however short the time.
#[test]
fn a_time_limit_does_not_cut_the_exact_solves() {
    let mut solver = Solver::new(16);
    let Analysed { positions, doc, .. } =
        analyse_the_blunder_game("time", &mut solver, &["--time", "0.001", "--exact", "16"]);
    // The settings state the time that limited the searches, and no depth.
    assert_eq!(
        doc["settings"]["time"].as_f64(),
        Some(0.001),
        "{}",
        doc["settings"]
    );
    assert!(doc["settings"]["depth"].is_null(), "{}", doc["settings"]);
    let mut solved = 0;
    for m in doc["games"][0]["moves"].as_array().unwrap() {
        let number = m["number"].as_u64().unwrap() as usize;
        let board = positions[number - 1].board;
        if board.empty_count() > 16 {
            continue;
        }
        solved += 1;
        assert_eq!(
            m["depth"].as_u64().unwrap(),
            u64::from(board.empty_count()),
            "{m}"
        );
        assert!(m["exact"].as_bool().unwrap(), "{m}");
        let best = exact(&mut solver, board);
        assert_eq!(m["best_score"].as_f64().unwrap(), f64::from(best), "{m}");
    }
    assert!(solved >= 12, "{solved} solved positions");
}

/// GGF files as other programs write them: a byte-order mark, comment lines before the games, a
/// comment tag holding `(;` and an escaped bracket; games cut short, text between games and
/// anti-Othello refused with their line.
#[test]
fn ggf_files_with_marks_comments_and_escapes_are_read_and_broken_ones_refused() {
    let d = dir("ggf");
    let g = d.join("games.ggf");
    std::fs::write(
        &g,
        "\u{feff}# exported games\n\
         (;GM[Othello]PB[Ann]PW[Bo]RE[+4.000]TY[8]C[from (;GM[Othello\\] \\] ;)]B[f5]W[d6];)\n\
         \n\
         (;GM[Othello]PB[Cy]PW[Di]RE[-64.000:r]B[f5]W[f6];)\n",
    )
    .unwrap();
    let json_path = d.join("a.json");
    let args = ["--depth", "2", "--exact", "0", "--json"];
    let run = |file: &Path| {
        let mut a = vec!["analyze", file.to_str().unwrap()];
        a.extend(args);
        a.push(json_path.to_str().unwrap());
        wedge(&a)
    };
    let table = ok(&run(&g));
    // A forfeited game (RE[...:r]) has the record's result; one whose result has no flag is
    // unfinished while its moves do not end it.
    assert!(
        table.contains("Ann (black) vs Bo (white), unfinished"),
        "{table}"
    );
    assert!(
        table.contains("Cy (black) vs Di (white), result -64 (as recorded"),
        "{table}"
    );
    let doc = json(&json_path);
    let games = doc["games"].as_array().unwrap();
    let results: Vec<_> = games
        .iter()
        .map(|g| (&g["result"], &g["ended_early"]))
        .collect();
    assert_eq!(results[0], (&serde_json::Value::Null, &false.into()));
    assert_eq!(results[1], (&(-64).into(), &true.into()));
    let names: Vec<(&str, &str, usize)> = games
        .iter()
        .map(|g| {
            let moves = g["moves"].as_array().unwrap();
            (
                g["black"].as_str().unwrap(),
                g["white"].as_str().unwrap(),
                moves.len(),
            )
        })
        .collect();
    assert_eq!(names, vec![("Ann", "Bo", 2), ("Cy", "Di", 2)]);
    for (name, text, line) in [
        (
            "cut.ggf",
            "(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5]\n(;GM[Othello];)\n",
            2,
        ),
        ("between.ggf", "(;GM[Othello]B[f5];)\nnot a game\n", 2),
        ("anti.ggf", "# c\n(;GM[Othello]TY[8a]B[f5];)\n", 2),
    ] {
        let bad = d.join(name);
        std::fs::write(&bad, text).unwrap();
        let out = run(&bad);
        assert!(!out.status.success(), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("{name}:{line}:")), "{err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// In a file of many games an error is reported at its own line (the games before it are read).
#[test]
fn an_error_in_the_last_of_many_games_has_its_line() {
    let d = dir("large");
    let g = d.join("many.ggf");
    let one = "(;GM[Othello]PB[a]PW[b]TY[8]B[f5]W[d6]B[c3];)\n";
    let mut text = one.repeat(20_000);
    text.push_str("(;GM[Othello]B[a1];)\n");
    std::fs::write(&g, &text).unwrap();
    let out = wedge(&["analyze", g.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("many.ggf:20001:"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
