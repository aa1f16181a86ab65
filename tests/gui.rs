//! The browser board's API (`wedge gui`), over HTTP: the game's commands, the errors that leave
//! the game as it was, the tabs, and the door (Host, Origin, sizes). The page itself is tested in
//! a real browser by tests/browser.rs.

mod common;

use common::gui::GuiServer;
use serde_json::Value;
use wedge::board::ggf::GgfGame;
use wedge::board::{Move, Position};
use wedge::book::Book;

const HUMANS: &str =
    r#"{"black":"human","white":"human","level":10,"time":{"kind":"per_move","ms":200}}"#;

fn new_game(g: &GuiServer, token: &str, settings: &str) -> Value {
    let (status, state) = g.command(token, &format!(r#"{{"type":"new","settings":{settings}}}"#));
    assert_eq!(status, 200, "{state}");
    state
}

fn play(g: &GuiServer, token: &str, square: &str) -> (u16, Value) {
    g.command(token, &format!(r#"{{"type":"move","square":"{square}"}}"#))
}

/// The part of the state that a refused command must not change.
fn game_of(s: &Value) -> (Value, Value, Value) {
    (s["board"].clone(), s["moves"].clone(), s["ply"].clone())
}

#[test]
fn a_game_is_played_taken_back_and_replayed() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let s = new_game(&g, &token, HUMANS);
    assert_eq!(s["legal"].as_array().unwrap().len(), 4);
    assert_eq!(
        (s["black"].as_u64(), s["white"].as_u64()),
        (Some(2), Some(2))
    );
    let (status, s) = play(&g, &token, "f5");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["side"], "white");
    assert_eq!(s["last"]["square"], "f5");
    assert_eq!(s["last"]["flips"], serde_json::json!(["e5"]));
    assert_eq!(
        (s["black"].as_u64(), s["white"].as_u64()),
        (Some(4), Some(1))
    );
    let (_, s) = play(&g, &token, "d6");
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    // Undo between two people takes back one move; redo replays it; goto shows any position.
    let (_, s) = g.command(&token, r#"{"type":"undo"}"#);
    assert_eq!(
        (s["ply"].as_u64(), s["side"].as_str()),
        (Some(1), Some("white"))
    );
    assert_eq!(
        s["moves"].as_array().unwrap().len(),
        2,
        "the move taken back is kept"
    );
    let (_, s) = g.command(&token, r#"{"type":"redo"}"#);
    assert_eq!(s["ply"], 2);
    let (_, s) = g.command(&token, r#"{"type":"goto","ply":0}"#);
    assert_eq!(s["board"].as_str().unwrap(), board(Position::START));
    // A different move from an earlier position starts a new line there.
    let (_, s) = play(&g, &token, "d3");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    assert_eq!(s["moves"][0]["text"], "d3");
}

fn board(p: Position) -> String {
    wedge::protocol::gui::board_string(p)
}

#[test]
fn bad_commands_are_refused_and_change_nothing() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    new_game(&g, &token, HUMANS);
    play(&g, &token, "f5");
    // Swapping two people changes nothing, and says so.
    let (status, s) = g.command(&token, r#"{"type":"swap"}"#);
    assert_eq!(status, 200);
    assert!(
        s["message"].as_str().unwrap().contains("changes nothing"),
        "{s}"
    );
    let before = game_of(&g.state(&token));
    for (body, status) in [
        (r#"{"type":"move","square":"a1"}"#, 422),
        (r#"{"type":"move","square":"z9"}"#, 400),
        (r#"{"type":"move"}"#, 400),
        (r#"{"type":"fly"}"#, 400),
        ("not json", 400),
        (r#"{"type":"goto","ply":7}"#, 400),
        (r#"{"type":"redo"}"#, 422),
        (r#"{"type":"load","text":"(;GM[Othello]B[Z9];)"}"#, 400),
        (r#"{"type":"load","text":"f5f5"}"#, 400),
        (r#"{"type":"load","text":""}"#, 400),
        (
            r#"{"type":"new","settings":{"black":"human","white":"human","level":11,"time":{"kind":"per_move","ms":100}}}"#,
            400,
        ),
        (
            r#"{"type":"new","settings":{"black":"human","white":"human","level":3,"time":{"kind":"per_move","ms":100}},"position":"XO"}"#,
            400,
        ),
    ] {
        let (got, answer) = g.command(&token, body);
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
        assert_eq!(game_of(&g.state(&token)), before, "{body} changed the game");
    }
    // A body over the cap is refused before it is read; the game is as it was.
    let huge = format!(r#"{{"type":"load","text":"{}"}}"#, "f5".repeat(200_000));
    let (status, _) = g.command(&token, &huge);
    assert_eq!(status, 413);
    let request = format!(
        "POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Wedge-Token: {token}\r\nContent-Length: 100000000\r\n\r\n{{",
        g.port
    );
    assert_eq!(g.raw(request.as_bytes()), 413);
    assert_eq!(game_of(&g.state(&token)), before);
    // Lengths no memory could hold, from anyone, plain or chunked: refused, and the server runs on.
    for request in [
        "POST /anything HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 99999999999\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 18446744073709551615\r\n\r\n",
        "POST /api/command HTTP/1.1\r\nHost: evil.example\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffff\r\n",
    ] {
        assert_eq!(g.raw(request.as_bytes()), 413, "{request}");
    }
    // Malformed heads get 400, two Host headers too (two readers could see two requests).
    let two_hosts = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{0}\r\nHost: 127.0.0.1:{0}\r\n\r\n",
        g.port
    );
    assert_eq!(g.raw(two_hosts.as_bytes()), 400);
    assert_eq!(g.raw(b"GET /\r\n\r\n"), 400);
    assert_eq!(game_of(&g.state(&token)), before);
}

#[test]
fn foreign_hosts_and_origins_are_refused() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let port = g.port;
    // A claim that is not the page's JSON is refused, and takes nothing from the tab.
    for body in ["force", r#"{"force":"yes"}"#] {
        let (status, answer) = g.post("/api/claim", None, body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("bad claim"),
            "{answer}"
        );
    }
    // The page from a name rebound to 127.0.0.1 (DNS rebinding) is not served.
    let rebound = format!("GET / HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n");
    assert_eq!(g.raw(rebound.as_bytes()), 403);
    let own = format!("GET / HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n");
    assert_eq!(g.raw(own.as_bytes()), 200);
    // Another site's page posting a command (the browser sends its Origin) is refused.
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        let body = r#"{"force":true}"#;
        let request = format!(
            "POST /api/claim HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        assert_eq!(g.raw(request.as_bytes()), 403, "{origin}");
    }
    let cross = format!(
        "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nSec-Fetch-Site: cross-site\r\nX-Wedge-Token: {token}\r\nConnection: close\r\n\r\n"
    );
    assert_eq!(g.raw(cross.as_bytes()), 403);
    // The tab that holds the engine still does: no refused request took it over.
    let (status, _) = g.command(&token, r#"{"type":"state"}"#);
    assert_eq!(status, 200);
    // Unknown pages and methods.
    let missing =
        format!("GET /etc/passwd HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    assert_eq!(g.raw(missing.as_bytes()), 404);
    let method = format!(
        "DELETE /api/command HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    );
    assert_eq!(g.raw(method.as_bytes()), 405);
}

/// Listening on every address, the server answers the page opened by any of the machine's
/// addresses (another machine's browser sends the address it used), and still refuses names.
#[test]
fn on_every_address_the_page_is_served_by_address_and_refused_by_name() {
    let g = GuiServer::start_with(&["--host", "0.0.0.0"]);
    let port = g.port;
    let get = |host: &str| {
        g.raw(format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes())
    };
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("192.0.2.7:{port}"),
    ] {
        assert_eq!(get(&host), 200, "{host}");
    }
    assert_eq!(get(&format!("rebound.example:{port}")), 403);
    assert_eq!(get(&format!("192.0.2.7:{}", port.wrapping_add(1))), 403);
    // A command from the page served at that address is accepted; from another site, refused.
    let claim = |origin: &str| {
        let body = r#"{"force":true}"#;
        g.raw(format!(
            "POST /api/claim HTTP/1.1\r\nHost: 192.0.2.7:{port}\r\nOrigin: {origin}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ).as_bytes())
    };
    assert_eq!(claim(&format!("http://192.0.2.7:{port}")), 200);
    assert_eq!(claim("http://evil.example"), 403);
    // A page at any other address, on the same port, is another site's page.
    assert_eq!(claim(&format!("http://203.0.113.9:{port}")), 403);
}

#[test]
fn the_server_keeps_serving_when_its_output_is_closed() {
    // A launcher that does not read the server's output (or read the address and went) must
    // not end it.
    let g = GuiServer::start_with_output_closed(&["--host", "0.0.0.0"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let request = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        g.port
    );
    assert_eq!(g.raw(request.as_bytes()), 200);
}

#[test]
fn one_tab_holds_the_engine_at_a_time() {
    let g = GuiServer::start();
    let first = g.claim(false).unwrap();
    let (status, busy) = g.claim(false).unwrap_err();
    assert_eq!((status, busy["kind"].as_str()), (409, Some("busy")));
    // A second tab takes over: the first is told so.
    let second = g.claim(true).unwrap();
    let (status, answer) = g.command(&first, r#"{"type":"state"}"#);
    assert_eq!((status, answer["kind"].as_str()), (409, Some("not_owner")));
    assert_eq!(g.command(&second, r#"{"type":"state"}"#).0, 200);
    assert_eq!(g.command("", r#"{"type":"state"}"#).0, 409);
    // A closed tab lets the engine go at once.
    g.post("/api/leave", None, &second);
    let third = g.claim(false).unwrap();
    assert_eq!(g.command(&third, r#"{"type":"state"}"#).0, 200);
}

/// A new game from a position out of the book, the engine black (to move) at `ms` a move.
fn engine_to_move_out_of_book(g: &GuiServer, token: &str, ms: u64) {
    let mut start = Position::START;
    for m in first_moves(Position::START).into_iter().take(10) {
        start = start.play(m).unwrap();
    }
    assert!(Book::embedded().unwrap().moves(start.board).is_empty());
    let (status, state) = g.command(
        token,
        &serde_json::json!({
            "type": "new",
            "position": start.to_string(),
            "settings": {"black": "engine", "white": "human", "level": 10,
                         "time": {"kind": "per_move", "ms": ms}},
        })
        .to_string(),
    );
    assert_eq!(status, 200, "{state}");
}

#[test]
fn the_engine_plays_its_side_and_stops_when_the_game_changes() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    // The engine plays black at once, thinking a long time: from a position out of its book.
    engine_to_move_out_of_book(&g, &token, 20000);
    let s = g.wait_for(&token, 10, |s| !s["thinking"].is_null());
    assert_eq!(s["thinking"]["kind"], "move");
    // A person cannot move for it.
    assert_eq!(play(&g, &token, "f5").0, 422);
    // Move now: it plays what it has.
    g.command(&token, r#"{"type":"stop"}"#);
    let s = g.wait_for(&token, 10, |s| s["moves"].as_array().unwrap().len() == 1);
    assert_eq!(s["side"], "white");
    assert!(
        s["graph"][0].is_number(),
        "the engine's move gives a graph point: {s}"
    );
    // Swap: the engine now plays white and answers at once... until a new game stops it.
    g.command(&token, r#"{"type":"swap"}"#);
    g.wait_for(&token, 10, |s| s["thinking"]["kind"] == "move");
    new_game(&g, &token, HUMANS);
    // The long search stopped: a hint search (the worker runs one search at a time) answers soon.
    let (_, s) = g.command(&token, r#"{"type":"hints","on":true}"#);
    assert_eq!(s["hints_on"], true);
    let s = g.wait_for(&token, 15, |s| s["hints"].as_array().unwrap().len() == 4);
    let hints = s["hints"].as_array().unwrap();
    let squares: Vec<&str> = hints
        .iter()
        .map(|h| h["square"].as_str().unwrap())
        .collect();
    for sq in ["d3", "c4", "f5", "e6"] {
        assert!(squares.contains(&sq), "{squares:?}");
    }
    assert!(hints
        .iter()
        .all(|h| h["score"]["discs"].is_number() && h["depth"].as_u64() > Some(0)));
    assert!(hints.iter().any(|h| h["best"] == true));
    // One search a position: once it has ended, the hints stay and nothing searches again.
    let s = g.wait_for(&token, 15, |s| s["thinking"].is_null());
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let later = g.state(&token);
    assert!(later["thinking"].is_null(), "{later}");
    assert_eq!(later["version"], s["version"], "{later}");
    assert_eq!(later["hints"], s["hints"]);
}

/// A tab silent for longer than the engine thinks (a background tab whose timers the browser
/// slowed down) finds the engine's move played when it speaks again, not a search started over.
#[test]
fn the_engine_moves_while_its_tab_is_silent() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    engine_to_move_out_of_book(&g, &token, 10000);
    g.wait_for(&token, 10, |s| s["thinking"]["kind"] == "move");
    // Silent past the tab timeout (8 s) and the engine's 10 s.
    std::thread::sleep(std::time::Duration::from_secs(12));
    let s = g.state(&token);
    assert_eq!(s["moves"].as_array().unwrap().len(), 1, "{s}");
    assert_eq!(s["side"], "white");
    assert!(s["thinking"].is_null(), "{s}");
}

/// Commands that change nothing the engine's search depends on (hints, going to the move shown,
/// the same settings) leave it thinking; new settings restart it. Undo with nothing of the
/// person's to take back is refused and keeps the game.
#[test]
fn the_engine_keeps_thinking_through_commands_that_change_nothing_for_it() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let mut start = Position::START;
    for m in first_moves(Position::START).into_iter().take(10) {
        start = start.play(m).unwrap();
    }
    let settings =
        r#"{"black":"engine","white":"human","level":10,"time":{"kind":"per_move","ms":30000}}"#;
    let (status, state) = g.command(
        &token,
        &format!(r#"{{"type":"new","position":"{start}","settings":{settings}}}"#),
    );
    assert_eq!(status, 200, "{state}");
    let ms = |s: &Value| s["thinking"]["ms"].as_u64().unwrap_or(0);
    let before = g.wait_for(&token, 10, |s| {
        s["thinking"]["kind"] == "move" && ms(s) >= 600
    });
    for command in [
        r#"{"type":"hints","on":true}"#.to_string(),
        r#"{"type":"goto","ply":0}"#.to_string(),
        r#"{"type":"pause","paused":false}"#.to_string(),
        format!(r#"{{"type":"settings","settings":{settings}}}"#),
    ] {
        let (status, s) = g.command(&token, &command);
        assert_eq!(status, 200, "{command}: {s}");
        assert_eq!(s["thinking"]["kind"], "move", "{command}: {s}");
        assert!(ms(&s) >= ms(&before), "{command} restarted the search: {s}");
    }
    // Another level: the search starts again.
    let level = settings.replace(r#""level":10"#, r#""level":9"#);
    let (status, s) = g.command(
        &token,
        &format!(r#"{{"type":"settings","settings":{level}}}"#),
    );
    assert_eq!(status, 200, "{s}");
    assert!(ms(&s) < ms(&before), "{s}");
    // The engine moves; taking back would land on its turn, with no move of the person's before
    // it: refused, and the game stays where it is.
    g.command(&token, r#"{"type":"stop"}"#);
    g.wait_for(&token, 10, |s| s["moves"].as_array().unwrap().len() == 1);
    let (status, s) = g.command(&token, r#"{"type":"undo"}"#);
    assert_eq!(status, 422, "{s}");
    let s = g.state(&token);
    assert_eq!(
        (s["ply"].as_u64(), s["side"].as_str()),
        (Some(1), Some("white")),
        "{s}"
    );
}

/// A game from `start` to its end, each side playing its first legal move.
fn first_moves(start: Position) -> Vec<Move> {
    let mut pos = start;
    let mut moves = Vec::new();
    while !pos.board.is_game_over() {
        let m = pos.legal_move_list().first().copied().unwrap_or(Move::PASS);
        moves.push(m);
        pos = pos.play(m).unwrap();
    }
    moves
}

#[test]
fn games_load_save_and_are_analysed() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    new_game(&g, &token, HUMANS);
    // A position with 14 empty squares, reached by first moves: the analysis solves it at once.
    let mut start = Position::START;
    for m in first_moves(Position::START) {
        if start.board.empty_count() <= 14 {
            break;
        }
        start = start.play(m).unwrap();
    }
    let moves = first_moves(start);
    let end = moves.iter().fold(start, |p, &m| p.play(m).unwrap());
    let written = GgfGame {
        place: "a test".into(),
        unix_time: 1_700_000_000,
        black: "Ann".into(),
        white: "Bob".into(),
        time_control: "15:00".into(),
        start,
        moves: moves.clone(),
        times: Vec::new(),
        black_score: end.black_final_score(),
        forfeit: None,
        name: Some("pair 3".into()),
    }
    .to_string();
    let load = serde_json::json!({ "type": "load", "text": written }).to_string();
    let (status, s) = g.command(&token, &load);
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), moves.len());
    assert_eq!(s["over"], true);
    // Saved back, it is the same game, byte for byte (its name tag included).
    let (_, saved) = g.command(&token, r#"{"type":"save"}"#);
    assert_eq!(saved["ggf"].as_str().unwrap(), written);
    // The analysis: every move's loss, and a graph point for each move.
    let (status, s) = g.command(&token, r#"{"type":"analyze"}"#);
    assert_eq!(status, 200, "{s}");
    let s = g.wait_for(&token, 60, |s| s["analysis"]["running"] == false);
    assert!(s["analysis"]["error"].is_null(), "{s}");
    let listed = s["moves"].as_array().unwrap();
    let chosen = moves.iter().zip(0..).filter(|(_, i)| {
        let p = moves[..*i].iter().fold(start, |p, &m| p.play(m).unwrap());
        p.board.can_move()
    });
    for (_, i) in chosen {
        assert!(
            listed[i]["loss"].is_number(),
            "move {}: {}",
            i + 1,
            listed[i]
        );
    }
    let graph = s["graph"].as_array().unwrap();
    assert_eq!(graph.len(), moves.len());
    assert!(graph.iter().all(Value::is_number), "{graph:?}");
    // The last point is the game's result.
    assert_eq!(
        graph.last().unwrap().as_f64(),
        Some(f64::from(end.black_final_score()))
    );
    // A transcript and a board load too; comments are skipped, as `wedge play` skips them.
    let (status, s) = g.command(&token, r#"{"type":"load","text":"f5d6c3"}"#);
    assert_eq!((status, s["moves"].as_array().unwrap().len()), (200, 3));
    let commented = r##"{"type":"load","text":"# a game\n% and a note\nf5d6\n"}"##;
    let (status, s) = g.command(&token, commented);
    assert_eq!(
        (status, s["moves"].as_array().unwrap().len()),
        (200, 2),
        "{s}"
    );
    let load = serde_json::json!({ "type": "load", "text": format!("{written}\n# saved\n") });
    let (status, s) = g.command(&token, &load.to_string());
    assert_eq!(status, 200, "{s}");
    // A transcript wrapped over lines is one game; two GGF games are refused at the second.
    let (status, s) = g.command(&token, r#"{"type":"load","text":"f5d6\nc3"}"#);
    assert_eq!((status, s["moves"].as_array().unwrap().len()), (200, 3));
    let two = serde_json::json!({ "type": "load", "text": format!("{written}\n{written}\n") });
    let (status, s) = g.command(&token, &two.to_string());
    assert_eq!(status, 400, "{s}");
    assert!(s.to_string().contains("line 2"), "{s}");
    let before = serde_json::json!({ "type": "load", "text": format!("Game 1: {written}") });
    let (status, s) = g.command(&token, &before.to_string());
    assert!(
        status == 400 && s.to_string().contains("'(;'"),
        "{status} {s}"
    );
    let text = serde_json::json!({"type": "load", "text": start.to_string()}).to_string();
    let (status, s) = g.command(&token, &text);
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["board"].as_str().unwrap(), board(start));
}

#[test]
fn a_game_clock_runs_out() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let s = new_game(
        &g,
        &token,
        r#"{"black":"human","white":"human","level":5,"time":{"kind":"clock","base_ms":1000,"inc_ms":0}}"#,
    );
    assert!(s["clocks"][0].as_i64().unwrap() <= 1000);
    let s = g.wait_for(&token, 10, |s| s["over"] == true);
    assert_eq!(s["result"], "White wins on time");
    assert_eq!(play(&g, &token, "f5").0, 422, "no move after the flag");
    // Saved, the game says who lost on time, and the result is a forfeit's.
    let (_, saved) = g.command(&token, r#"{"type":"save"}"#);
    let ggf = saved["ggf"].as_str().unwrap();
    assert!(ggf.contains("C[human: black lost on time]"), "{saved}");
    assert!(ggf.contains("RE[-64.000:t]"), "{saved}");
}

/// A message about the last move (a book move, a pass) is cleared when the person moves through
/// the game or changes the settings.
#[test]
fn a_move_message_goes_when_the_game_is_reviewed() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let settings =
        r#"{"black":"engine","white":"human","level":10,"time":{"kind":"per_move","ms":200}}"#;
    let (status, s) = g.command(
        &token,
        &format!(r#"{{"type":"new","settings":{settings}}}"#),
    );
    assert_eq!(status, 200, "{s}");
    let s = g.wait_for(&token, 10, |s| s["moves"].as_array().unwrap().len() == 1);
    assert!(
        s["message"]
            .as_str()
            .unwrap_or("")
            .contains("from its book"),
        "{s}"
    );
    let (status, s) = g.command(&token, r#"{"type":"goto","ply":0}"#);
    assert_eq!(status, 200, "{s}");
    assert!(s["message"].is_null(), "{s}");
}

/// Clients that announce a body and never send it hold up only themselves: the page is still
/// served, and the tab keeps the engine.
#[test]
fn a_body_that_never_comes_blocks_nothing_else() {
    use std::io::Write;
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let port = g.port;
    let mut silent = Vec::new();
    for _ in 0..3 {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(
            format!(
                "POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Wedge-Token: {token}\r\nContent-Length: 10\r\n\r\n"
            )
            .as_bytes(),
        )
        .unwrap();
        silent.push(s);
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let page = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    assert_eq!(g.raw(page.as_bytes()), 200);
    let (status, _) = g.command(&token, r#"{"type":"state"}"#);
    assert_eq!(status, 200);
    drop(silent);
}

/// The clocks are the game's: looking at an earlier move takes no increment back, and the clock
/// of a person to move runs on.
#[test]
fn reviewing_an_earlier_move_leaves_the_clocks_alone() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    new_game(
        &g,
        &token,
        r#"{"black":"human","white":"human","level":5,"time":{"kind":"clock","base_ms":600000,"inc_ms":60000}}"#,
    );
    for sq in ["f5", "d6", "c3", "d3"] {
        assert_eq!(play(&g, &token, sq).0, 200);
    }
    let clocks = |s: &Value| {
        [
            s["clocks"][0].as_i64().unwrap(),
            s["clocks"][1].as_i64().unwrap(),
        ]
    };
    let at_end = clocks(&g.state(&token));
    // Two increments each: at least 11 minutes left on both clocks.
    assert!(at_end.iter().all(|&c| c > 660_000 - 30_000), "{at_end:?}");
    let (_, s) = g.command(&token, r#"{"type":"goto","ply":0}"#);
    let back = clocks(&s);
    for c in 0..2 {
        assert!(
            (at_end[c] - back[c]).abs() < 30_000,
            "{at_end:?} then {back:?}"
        );
    }
    // Black, to move in the game, is a person: their clock runs on while they look back.
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let later = clocks(&g.state(&token));
    assert!(later[0] <= back[0] - 1000, "{back:?} then {later:?}");
    assert_eq!(later[1], back[1], "white's clock ran");
    // A new time control counts from here: the moves already made earn no increment.
    let (status, s) = g.command(
        &token,
        r#"{"type":"settings","settings":{"black":"human","white":"human","level":5,"time":{"kind":"clock","base_ms":60000,"inc_ms":10000}}}"#,
    );
    assert_eq!(status, 200, "{s}");
    let fresh = clocks(&s);
    assert!(fresh.iter().all(|&c| c <= 60_000), "{fresh:?}");
    g.command(&token, r#"{"type":"goto","ply":4}"#);
    assert_eq!(play(&g, &token, "c4").0, 200);
    let after = clocks(&g.state(&token));
    assert!(after[0] > 60_000 && after[0] <= 70_000, "{after:?}");
    // Saved, the clock is GGF's: 60 s + 10 s a move, no grace (a flag falls at once).
    let (_, saved) = g.command(&token, r#"{"type":"save"}"#);
    let ggf = saved["ggf"].as_str().unwrap();
    let ti = ggf.split("TI[").nth(1).unwrap().split(']').next().unwrap();
    let clock = wedge::board::ggf::GgfClock::parse(ti).map(|c| (c.time, c.increment, c.grace));
    assert_eq!(clock, Some((60.0, 10.0, 0.0)), "{ggf}");
}

/// After a flag, taking moves back shows them but gives no time back: playing on is refused until
/// a new time is applied.
#[test]
fn a_flag_stays_when_moves_are_taken_back() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let clock = r#"{"black":"human","white":"human","level":5,"time":{"kind":"clock","base_ms":1500,"inc_ms":0}}"#;
    new_game(&g, &token, clock);
    assert_eq!(play(&g, &token, "f5").0, 200);
    let s = g.wait_for(&token, 10, |s| s["over"] == true);
    assert_eq!(s["result"], "Black wins on time");
    let (status, s) = g.command(&token, r#"{"type":"undo"}"#);
    assert_eq!((status, s["ply"].as_u64()), (200, Some(0)), "{s}");
    let (status, s) = play(&g, &token, "d3");
    assert_eq!(status, 422, "{s}");
    let longer = clock.replace("1500", "600000");
    let (status, s) = g.command(
        &token,
        &format!(r#"{{"type":"settings","settings":{longer}}}"#),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(play(&g, &token, "d3").0, 200);
}

/// A move that comes after the mover's time ran out is refused, even before the server's clock
/// tick has seen the flag fall.
#[test]
fn a_move_after_the_flag_is_refused_at_once() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    new_game(
        &g,
        &token,
        r#"{"black":"human","white":"human","level":5,"time":{"kind":"clock","base_ms":1000,"inc_ms":5000}}"#,
    );
    std::thread::sleep(std::time::Duration::from_millis(1020));
    let (status, s) = play(&g, &token, "f5");
    assert_eq!(status, 422, "a late move was played: {s}");
    let s = g.state(&token);
    assert_eq!(s["result"], "White wins on time", "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 0);
}

/// A new game stops the engine's search of the old one, even from the same position: the old
/// search ran with the old level and time.
#[test]
fn a_new_game_from_the_same_position_stops_the_old_search() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    let position = "---------------------------OX------XXX------XXX-----OOO------OOO X";
    let start = |ms: u32| {
        let body = format!(
            r#"{{"type":"new","settings":{{"black":"engine","white":"human","level":10,"time":{{"kind":"per_move","ms":{ms}}}}},"position":"{position}"}}"#
        );
        let (status, s) = g.command(&token, &body);
        assert_eq!(status, 200, "{s}");
    };
    start(60_000);
    std::thread::sleep(std::time::Duration::from_millis(500));
    start(200);
    // The new game's search, of 200 ms, plays; the old one's would take a minute.
    let s = g.wait_for(&token, 20, |s| s["moves"].as_array().unwrap().len() == 1);
    assert_eq!(s["over"], false, "{s}");
}

/// A stopped analysis makes room for a new one at once, and a move that loses nothing names no
/// better move.
#[test]
fn an_analysis_starts_again_right_after_a_stop() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    new_game(&g, &token, HUMANS);
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        assert_eq!(play(&g, &token, m).0, 200);
    }
    let (status, s) = g.command(&token, r#"{"type":"analyze"}"#);
    assert_eq!(status, 200, "{s}");
    let (status, s) = g.command(&token, r#"{"type":"stop_analysis"}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["analysis"]["running"], false, "{s}");
    let (status, s) = g.command(&token, r#"{"type":"analyze"}"#);
    assert_eq!(status, 200, "a new analysis was refused: {s}");
    let s = g.wait_for(&token, 120, |s| s["analysis"]["running"] == false);
    assert!(s["analysis"]["error"].is_null(), "{s}");
    // f5 opens the game: every first move is as good, so none is named better.
    let first = &s["moves"][0];
    assert_eq!(first["loss"].as_f64(), Some(0.0), "{first}");
    assert!(first["best"].is_null(), "{first}");
}

/// Pause holds the engine, not the person: their clock runs on while they think.
#[test]
fn a_pause_leaves_the_persons_clock_running() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    new_game(
        &g,
        &token,
        r#"{"black":"human","white":"engine","level":5,"time":{"kind":"clock","base_ms":60000,"inc_ms":0}}"#,
    );
    let (status, s) = g.command(&token, r#"{"type":"pause","paused":true}"#);
    assert_eq!(status, 200, "{s}");
    let before = s["clocks"][0].as_i64().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let after = g.state(&token)["clocks"][0].as_i64().unwrap();
    assert!(
        after <= before - 1000,
        "black's clock stood: {before} -> {after}"
    );
}

/// Text shaped as a board gets the board's error, not a transcript's.
#[test]
fn a_bad_board_is_refused_as_a_board() {
    let g = GuiServer::start();
    let token = g.claim(false).unwrap();
    new_game(&g, &token, HUMANS);
    let load = |text: &str| {
        g.command(
            &token,
            &serde_json::json!({"type": "load", "text": text}).to_string(),
        )
    };
    let (status, s) = load("8/8/8/3ox3/3xo3/8/8/8");
    assert_eq!(status, 400, "{s}");
    assert!(s["error"].as_str().unwrap().starts_with("position"), "{s}");
    let (status, s) = load(&"-".repeat(63));
    assert_eq!(status, 400, "{s}");
    assert!(s["error"].as_str().unwrap().starts_with("position"), "{s}");
    // A transcript still gets the transcript's error.
    let (status, s) = load("f5d6c3x9");
    assert_eq!(status, 400, "{s}");
    assert!(!s["error"].as_str().unwrap().starts_with("position"), "{s}");
}
