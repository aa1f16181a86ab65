//! The board in a real browser: a headless Chromium driven over WebDriver plays a whole game by
//! clicks, takes moves back and replays them, shows hints, loads a GGF game and saves it back
//! identical, analyses it and draws one graph point a move; and a page from another origin cannot
//! drive the engine. With `WEDGE_SCREENSHOTS=DIR` the screenshots of docs/gui.md are written to
//! DIR.
//!
//! Needs `chromium` and `chromedriver` (Debian: `apt-get install chromium chromium-driver`).
//! Without them the test says so in one line and passes, unless `WEDGE_BROWSER_TESTS=require`
//! (CI sets it), when it fails.

mod common;

use common::gui::GuiServer;
use common::webdriver::Browser;
use serde_json::json;
use wedge::board::ggf::GgfGame;
use wedge::board::{Move, Position};

fn browser() -> Option<Browser> {
    match Browser::start() {
        Ok(b) => Some(b),
        Err(e) if std::env::var("WEDGE_BROWSER_TESTS").as_deref() == Ok("require") => {
            panic!("the browser tests cannot run: {e}")
        }
        Err(e) => {
            println!(
                "browser tests not run: {e} (Debian: apt-get install chromium chromium-driver)"
            );
            None
        }
    }
}

fn screenshot(b: &Browser, name: &str) {
    if let Some(dir) = std::env::var_os("WEDGE_SCREENSHOTS") {
        let path = std::path::Path::new(&dir).join(name);
        std::fs::write(&path, b.screenshot()).unwrap();
        println!("wrote {}", path.display());
    } else {
        // Taken anyway: a page that cannot be drawn fails here.
        assert!(b.screenshot().starts_with(b"\x89PNG"));
    }
}

fn count(b: &Browser, css: &str) -> u64 {
    b.run(
        &format!("return document.querySelectorAll('{css}').length"),
        json!([]),
    )
    .as_u64()
    .unwrap()
}

fn status(b: &Browser) -> String {
    b.run(
        "return document.getElementById('status').textContent",
        json!([]),
    )
    .as_str()
    .unwrap()
    .to_string()
}

fn board(b: &Browser) -> String {
    b.run(
        "return Array.from(document.querySelectorAll('#board .square')).map(s => \
         s.querySelector('.piece.black') ? 'X' : s.querySelector('.piece.white') ? 'O' : '-').join('')",
        json!([]),
    )
    .as_str()
    .unwrap()
    .to_string()
}

/// Sets the game form and starts a new game with the button.
fn new_game(b: &Browser, black: &str, white: &str, level: u32, seconds: f64) {
    b.run(
        "const [black, white, level, secs] = arguments;
         document.getElementById('black-side').value = black;
         document.getElementById('white-side').value = white;
         document.getElementById('level').value = String(level);
         document.getElementById('time-kind').value = 'per_move';
         document.getElementById('time-kind').dispatchEvent(new Event('change'));
         document.getElementById('move-seconds').value = String(secs);",
        json!([black, white, level, seconds]),
    );
    b.click("#new-game");
    b.wait(
        10,
        "the new game",
        "return document.querySelectorAll('#moves li').length === 0",
    );
}

#[test]
fn the_board_in_a_real_browser() {
    let Some(b) = browser() else {
        return;
    };
    let g = GuiServer::start();
    b.goto(&format!("{}/", g.base));
    b.wait(
        20,
        "the start position",
        "return document.querySelectorAll('.square.legal').length === 4",
    );
    assert_eq!(
        board(&b),
        wedge::protocol::gui::board_string(Position::START)
    );

    // A whole game by clicks: a person as black against level 1 at 0.05 s a move.
    new_game(&b, "human", "engine", 1, 0.05);
    let mut clicks = 0;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(240);
    loop {
        // The status and the moves shown, read at one moment.
        let seen = b.run(
            "return [document.getElementById('status').textContent,
                     Array.from(document.querySelectorAll('.square.legal')).map(s => s.dataset.square)]",
            json!([]),
        );
        let s = seen[0].as_str().unwrap();
        if s.starts_with("Game over") {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the game did not end: {s}"
        );
        if s.ends_with("Black to move.") {
            if let Some(first) = seen[1].as_array().and_then(|l| l.first()) {
                if clicks == 12 {
                    screenshot(&b, "gui-game.png");
                }
                b.click(&format!("[data-square=\"{}\"]", first.as_str().unwrap()));
                clicks += 1;
                continue;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(clicks >= 5, "{clicks} clicks");
    let moves = count(&b, "#moves li");
    assert!(moves >= 50, "a whole game has more than {moves} moves");
    let discs = b.run(
        "return Number(document.getElementById('black-count').textContent) + \
         Number(document.getElementById('white-count').textContent)",
        json!([]),
    );
    assert!(discs.as_u64().unwrap() <= 64);
    // One graph point a move.
    b.wait(60, "a graph point for every move", "return document.querySelectorAll('#graph circle.point').length === document.querySelectorAll('#moves li').length");

    // Undo and redo by the buttons.
    let end = board(&b);
    b.click("#undo");
    b.wait(
        10,
        "the undo",
        "return !document.getElementById('status').textContent.startsWith('Game over')",
    );
    assert_ne!(board(&b), end);
    let mut redos = 0;
    while board(&b) != end {
        b.click("#redo");
        redos += 1;
        assert!(redos <= 4, "redo did not come back to the end");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert!(status(&b).starts_with("Game over"));

    // Hints: a score on each legal square.
    new_game(&b, "human", "human", 10, 1.0);
    b.click("#hints");
    b.wait(
        30,
        "the hints",
        "return document.querySelectorAll('.square .hint').length === 4",
    );
    screenshot(&b, "gui-hints.png");
    b.click("#hints");
    b.wait(
        10,
        "the hints to go",
        "return document.querySelectorAll('.square .hint').length === 0",
    );

    // A GGF game pasted, saved back identical, analysed.
    let ggf = endgame_ggf();
    b.run(
        "document.getElementById('paste').value = arguments[0]",
        json!([ggf]),
    );
    b.click("#load");
    b.wait(10, "the loaded game", "return document.querySelectorAll('#moves li').length > 0 && document.getElementById('status').textContent.startsWith('Game over')");
    // The download is caught where the page hands it to the browser.
    b.run(
        "window.savedGame = null;
         const make = URL.createObjectURL;
         URL.createObjectURL = (blob) => { window.savedGame = blob; return make(blob); };",
        json!([]),
    );
    b.click("#save");
    let saved = b.run_async(
        "const done = arguments[arguments.length - 1];
         const wait = () => window.savedGame ? window.savedGame.text().then(done) : setTimeout(wait, 50);
         wait();",
    );
    assert_eq!(saved.as_str().unwrap().trim_end(), ggf);
    b.click("#analyze");
    b.wait(
        90,
        "the analysis",
        "return document.getElementById('analysis-text').textContent.startsWith('Mean loss')",
    );
    b.wait(10, "a graph point for every move", "return document.querySelectorAll('#graph circle.point').length === document.querySelectorAll('#moves li').length");
    screenshot(&b, "gui-analysis.png");

    // Swap changes the sides on the server: the form follows, so Apply does not swap them back.
    new_game(&b, "human", "engine", 1, 0.05);
    let sides = "return document.getElementById('black-side').value + ' ' + document.getElementById('white-side').value";
    b.click("#swap");
    b.wait(
        10,
        "the form after Swap",
        &format!("{sides} === 'engine human'"),
    );
    b.click("#apply");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(b.run(sides, json!([])), json!("engine human"));

    // A narrow (phone) screen: nothing wider than the screen.
    b.set_window(400, 900);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let fits = b.run(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1",
        json!([]),
    );
    assert_eq!(fits, json!(true), "the page is wider than a phone's screen");
    screenshot(&b, "gui-phone.png");
    b.set_window(1400, 1000);

    // A page of another origin (a second server) cannot drive this one: its requests are refused
    // and the tab that holds the engine keeps it.
    let token = g.claim(true).unwrap();
    let other = GuiServer::start();
    b.goto(&format!("{}/", other.base));
    b.wait(
        20,
        "the other page",
        "return document.querySelectorAll('.square.legal').length === 4",
    );
    let outcome = b.run_async(&format!(
        "const done = arguments[arguments.length - 1];
         const target = '{}';
         fetch(target + '/api/claim', {{ method: 'POST', mode: 'no-cors', body: '{{\"force\":true}}' }})
           .then(() => fetch(target + '/api/state'))
           .then(r => done('read ' + r.status), e => done('blocked'));",
        g.base
    ));
    assert_eq!(outcome, json!("blocked"));
    assert_eq!(
        g.command(&token, r#"{"type":"state"}"#).0,
        200,
        "the foreign page took the engine"
    );
}

/// A GGF game as wedge writes it, from a position with 14 empty squares to its end.
fn endgame_ggf() -> String {
    let first = |p: Position| p.legal_move_list().first().copied().unwrap_or(Move::PASS);
    let mut start = Position::START;
    while start.board.empty_count() > 14 {
        start = start.play(first(start)).unwrap();
    }
    let mut pos = start;
    let mut moves = Vec::new();
    while !pos.board.is_game_over() {
        let m = first(pos);
        moves.push(m);
        pos = pos.play(m).unwrap();
    }
    GgfGame {
        place: "wedge gui test".into(),
        unix_time: 1_700_000_000,
        black: "Ann".into(),
        white: "Bob".into(),
        time_control: "5:00".into(),
        start,
        moves,
        times: Vec::new(),
        black_score: pos.black_final_score(),
        forfeit: None,
        name: None,
    }
    .to_string()
}
