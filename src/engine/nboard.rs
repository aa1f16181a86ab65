//! The NBoard front end (protocol version 2, as the NBoard GUI and NBoard-driven match tools speak
//! it): the game comes as GGF (`set game`) and moves (`move`), `go` answers `=== <move>/<eval>/<time>`
//! within the game's clock, `hint N` streams `search <pv> <eval> 0 <depth>` lines for the N best
//! moves between `status` lines, `analyze` searches every position of the game and answers
//! `analysis <ply> <eval>` lines, and `ping N` stops any search before answering `pong N`. Command
//! words are read in any case. Unknown commands are ignored, as the protocol asks, and logged on
//! stderr. Evaluations are in discs, side to move's view.

use super::core::{Core, Plan};
use super::{start_text_front_end, Event};
use crate::board::ggf::{parse_ggf_record, time_left, GgfClock};
use crate::board::text::Game;
use crate::board::{Color, Move, Position};
use crate::protocol::parser::GoParams;
use crate::search::{Info, Score, SearchResult};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The depth used until the GUI sends `set depth`.
const DEFAULT_DEPTH: u32 = 12;
/// The most time `analyze` gives one position, in milliseconds.
const ANALYZE_MS: u64 = 1000;
/// The status line for `go` on a finished game: the protocol has no "no move" answer, and a pass
/// is no move of a finished game either.
const GAME_OVER: &str = "status wedge: the game is over, there is no move to play";
/// The status line after `learned`: the protocol requires the answer, the status says what it
/// means here.
const NOT_LEARNED: &str = "status wedge does not learn games: its book is unchanged";

/// What the running search was started for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Go,
    Hint,
    /// One position of `analyze`: its ply, and whether the search ran on the position after a
    /// forced pass (its score is then negated).
    Analyze {
        ply: usize,
        after_pass: bool,
    },
}

struct Running {
    stop: Arc<AtomicBool>,
    purpose: Purpose,
    started: Instant,
    /// `pong` numbers to send once the search has stopped.
    pongs: Vec<String>,
}

struct Nboard<W: Write> {
    out: W,
    core: Core,
    game: Game,
    /// Seconds each move of `game` took, as the GUI wrote them.
    times: Vec<f64>,
    /// Black's and white's clocks from the GGF game, if it has them.
    clocks: [Option<GgfClock>; 2],
    depth: u32,
    running: Option<Running>,
    /// Positions `analyze` has still to search, the next one last: (ply, position).
    to_analyze: Vec<(usize, Position)>,
}

/// A move as NBoard writes it: upper-case square, `PA` for a pass.
fn nb_move(m: Move) -> String {
    match m.square() {
        Some(sq) => sq.to_string().to_uppercase(),
        None => "PA".to_string(),
    }
}

/// A score in discs for NBoard, and the depth field (`100%` exact, `100%W` win/loss/draw).
fn nb_score(score: Score, depth: u32) -> (String, String) {
    match score {
        Score::Eval(cd) => (format!("{:.2}", f64::from(cd) / 100.0), depth.to_string()),
        Score::Exact(d) => (format!("{d}.00"), "100%".to_string()),
        Score::Wld(w) => (format!("{}.00", 2 * w.signum()), "100%W".to_string()),
    }
}

/// The score of a position whose only move is a pass, from the score of the position after it.
fn negate(score: Score) -> Score {
    match score {
        Score::Eval(cd) => Score::Eval(-cd),
        Score::Exact(d) => Score::Exact(-d),
        Score::Wld(w) => Score::Wld(-w),
    }
}

/// The text after the first `n` words of `line`.
fn rest_after(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest
}

/// Runs the NBoard front end until `quit` or the end of the input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write) -> i32 {
    let Some((core, events)) = start_text_front_end(input) else {
        return 1;
    };
    let mut nb = Nboard {
        out: output,
        core,
        game: Game::new(Position::START),
        times: Vec::new(),
        clocks: [None, None],
        depth: DEFAULT_DEPTH,
        running: None,
        to_analyze: Vec::new(),
    };
    for event in events {
        match event {
            Event::Text(Ok(line)) => {
                if !nb.command(&line) {
                    if let Some(r) = &nb.running {
                        r.stop.store(true, Ordering::Relaxed);
                    }
                    return 0;
                }
            }
            Event::Text(Err(e)) => log::warn!("nboard: ignored input: {e}"),
            Event::Eof => return 0,
            Event::Info(info) => nb.info(&info),
            Event::Done(result) => nb.done(result),
            Event::Line(_) => {}
            Event::Resized(_, Err(e)) => log::error!("{e}"),
            Event::Resized(_, Ok(_)) | Event::Progress(..) | Event::Tool(_) | Event::Pong => {}
        }
    }
    0
}

impl<W: Write> Nboard<W> {
    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn position(&self) -> Position {
        self.game.position()
    }

    /// Applies one command; false ends the session. Command words and `set` keys are read in any
    /// case (`NBOARD 2`, `Set Depth 8`); moves too (`f5`, `F5`).
    fn command(&mut self, line: &str) -> bool {
        // A byte-order mark some Windows programs put before their first line.
        let line = line.trim_start_matches('\u{feff}');
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else {
            return true;
        };
        let verb = first.to_ascii_lowercase();
        let key = words.get(1).map(|w| w.to_ascii_lowercase());
        match (verb.as_str(), key.as_deref()) {
            ("nboard", _) => self.line("set myname wedge"),
            ("set", Some("depth")) => match words.get(2).and_then(|d| d.parse::<u32>().ok()) {
                Some(d) => self.depth = d.clamp(1, 60),
                None => log::warn!("nboard: bad depth in '{line}'"),
            },
            ("set", Some("game")) => self.set_game(rest_after(line, 2)),
            ("set", Some("contempt")) => {} // wedge plays for the disc count; contempt is ignored
            ("set", Some("option")) => {
                if let Err(e) = self.core.set_option_text(rest_after(line, 2)) {
                    self.line(&format!("error {e}"));
                }
            }
            ("move", Some(_)) => self.play(words[1]),
            ("hint", n) => {
                let n = n.and_then(|n| n.parse::<usize>().ok()).unwrap_or(1);
                self.hint(n.clamp(1, 64));
            }
            ("go", _) => self.go(),
            ("ping", n) => {
                let n = n.unwrap_or("0").to_string();
                self.to_analyze.clear();
                match &mut self.running {
                    Some(r) => {
                        r.stop.store(true, Ordering::Relaxed);
                        r.pongs.push(n);
                    }
                    None => self.line(&format!("pong {n}")),
                }
            }
            ("learn", _) => {
                self.line("learned");
                self.line(NOT_LEARNED);
            }
            ("analyze", _) => self.analyze(),
            ("quit", _) => return false,
            // Protocol version 1 sent a move alone ("F5" for "move F5").
            _ if words.len() == 1 && first.len() == 2 && first.parse::<Move>().is_ok() => {
                self.play(first)
            }
            _ => log::warn!("nboard: ignored unknown command '{line}'"),
        }
        true
    }

    /// `set game <GGF>`: the game so far, with its clocks and move times.
    fn set_game(&mut self, text: &str) {
        match parse_ggf_record(text) {
            Ok(record) => {
                if record.game.moves.is_empty() || record.game.start != self.game.start {
                    self.core.new_game();
                }
                self.game = record.game;
                self.times = record.times;
                self.clocks = record.clocks;
            }
            Err(e) => log::warn!("nboard: {e}"),
        }
    }

    /// `move <sq>[/eval/time]`: a move of the game (a forced pass may be left out).
    fn play(&mut self, text: &str) {
        let mut parts = text.split('/');
        let mv_text = parts.next().unwrap_or("");
        let Ok(mv) = mv_text.parse::<Move>() else {
            log::warn!("nboard: '{text}' is not a move");
            return;
        };
        let time = parts
            .nth(1)
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|t| t.is_finite() && *t >= 0.0)
            .unwrap_or(0.0);
        let mut pos = self.position();
        if !mv.is_pass() && pos.board.must_pass() {
            self.game.moves.push(Move::PASS);
            self.times.push(0.0);
            pos = pos.play(Move::PASS).unwrap_or(pos);
        }
        if pos.play(mv).is_some() {
            self.game.moves.push(mv);
            self.times.push(time);
        } else {
            log::warn!("nboard: illegal move '{text}' ignored");
        }
    }

    /// A depth-limited plan with no time limit (the engine is not constrained by the clock): the
    /// endgame is solved outright when it is within reach of the depth.
    fn depth_plan(&self, pos: Position) -> Plan {
        let mut params = GoParams {
            depth: Some(self.depth),
            ..GoParams::default()
        };
        if pos.board.empty_count() <= (self.depth + 8).min(22) {
            params.depth = None;
            params.exact = true;
        }
        self.core.plan(pos, &params)
    }

    /// Whether a search may start now (only one runs at a time).
    fn idle(&self) -> bool {
        if self.running.is_some() {
            log::warn!("nboard: a search is already running; command ignored");
        }
        self.running.is_none()
    }

    /// `go`: the move to play, within the side to move's clock when the game has one (protocol
    /// version 2), at most `set depth` plies in the midgame.
    fn go(&mut self) {
        if !self.idle() {
            return;
        }
        let pos = self.position();
        let started = Instant::now();
        if pos.board.is_game_over() {
            self.line(GAME_OVER);
            return;
        }
        if pos.board.must_pass() {
            self.line("=== PA");
            return;
        }
        let mut params = GoParams::default();
        let clock = time_left(&self.game, &self.times, self.clocks);
        if let Some(left) = clock {
            // Seconds to milliseconds; `as` saturates an absurdly long clock.
            let ms = (left * 1000.0) as u64;
            let inc = self.clocks[pos.side as usize].map(|c| (c.increment * 1000.0) as u64);
            match pos.side {
                Color::Black => (params.btime, params.binc) = (Some(ms), inc),
                Color::White => (params.wtime, params.winc) = (Some(ms), inc),
            }
        }
        if let Some(m) = self.core.book_move(pos, &params) {
            self.line(&format!("=== {}/{}.00/0.0", nb_move(m.mv), m.score));
            return;
        }
        let mut plan = match clock {
            Some(_) => self.core.plan_capped(pos, &params, self.depth),
            None => self.depth_plan(pos),
        };
        plan.limits.multipv = 1;
        log::debug!("nboard: go: {}", plan.describe());
        self.line("status wedge is thinking");
        self.start(pos, plan, Purpose::Go, started);
    }

    /// `hint N`: the N best moves, from the book or by a search not limited by the clock.
    fn hint(&mut self, n: usize) {
        if !self.idle() {
            return;
        }
        let pos = self.position();
        let started = Instant::now();
        if pos.board.is_game_over() {
            self.line("status");
            return;
        }
        if pos.board.must_pass() {
            self.line("status");
            self.line("search PA 0.00 0 0");
            self.line("status");
            return;
        }
        let book: Vec<_> = self
            .core
            .book_moves(pos.board)
            .into_iter()
            .take(n)
            .collect();
        if !book.is_empty() {
            self.line("status wedge: book");
            for m in book {
                self.line(&format!(
                    "book {} {}.00 0 {}",
                    nb_move(m.mv),
                    m.score,
                    m.depth
                ));
            }
            self.line("status");
            return;
        }
        let mut plan = self.depth_plan(pos);
        plan.limits.multipv = n;
        self.line("status wedge is thinking");
        self.start(pos, plan, Purpose::Hint, started);
    }

    fn start(&mut self, pos: Position, plan: Plan, purpose: Purpose, started: Instant) {
        match self.core.start_search(pos.board, plan) {
            Ok(stop) => {
                self.running = Some(Running {
                    stop,
                    purpose,
                    started,
                    pongs: Vec::new(),
                })
            }
            Err(e) => log::error!("nboard: {e}"),
        }
    }

    fn info(&mut self, info: &Info) {
        let Some(r) = &self.running else { return };
        if r.purpose != Purpose::Hint || !r.pongs.is_empty() {
            return;
        }
        let pv: Vec<String> = info.pv.iter().map(|m| nb_move(*m)).collect();
        if pv.is_empty() {
            return;
        }
        let (eval, depth) = nb_score(info.score, info.depth);
        self.line(&format!("search {} {eval} 0 {depth}", pv.join("-")));
    }

    fn done(&mut self, result: SearchResult) {
        let Some(r) = self.running.take() else { return };
        if !r.pongs.is_empty() {
            // Interrupted by ping: the analysis no longer relates to the position.
            for n in r.pongs {
                self.line(&format!("pong {n}"));
            }
            return;
        }
        match r.purpose {
            Purpose::Go => {
                let mv = result.best_move.unwrap_or(Move::PASS);
                let (eval, _) = nb_score(result.score, result.depth);
                let secs = r.started.elapsed().as_secs_f64();
                self.line(&format!("=== {}/{eval}/{secs:.1}", nb_move(mv)));
                self.line("status");
            }
            Purpose::Hint => self.line("status"),
            Purpose::Analyze { ply, after_pass } => {
                let score = if after_pass {
                    negate(result.score)
                } else {
                    result.score
                };
                let (eval, _) = nb_score(score, result.depth);
                self.line(&format!("analysis {ply} {eval}"));
                self.analyze_next();
            }
        }
    }

    /// `analyze`: a retrograde analysis of the game. Every position, from the last to the first,
    /// is searched to the depth set (solved exactly within reach of it), at most [`ANALYZE_MS`]
    /// each, and answered `analysis <ply> <eval>` (ply 0 is the start, passes count, the side to
    /// move's view) as soon as it is done; a final `status` ends the analysis. `ping` stops it.
    fn analyze(&mut self) {
        if !self.idle() {
            return;
        }
        let mut pos = self.game.start;
        self.to_analyze = vec![(0, pos)];
        for (i, &mv) in self.game.moves.iter().enumerate() {
            match pos.play(mv) {
                Some(p) => pos = p,
                None => break,
            }
            self.to_analyze.push((i + 1, pos));
        }
        self.line("status wedge is analysing the game");
        self.analyze_next();
    }

    /// Answers the finished positions of the analysis and starts the search of the next one; a
    /// `status` line when none is left.
    fn analyze_next(&mut self) {
        while let Some((ply, pos)) = self.to_analyze.pop() {
            if pos.board.is_game_over() {
                self.line(&format!("analysis {ply} {}.00", pos.board.final_score()));
                continue;
            }
            // A position whose only move is a pass is worth minus the position after it.
            let after_pass = pos.board.must_pass();
            let searched = if after_pass {
                pos.play(Move::PASS).unwrap_or(pos)
            } else {
                pos
            };
            let params = GoParams {
                movetime: Some(ANALYZE_MS),
                ..GoParams::default()
            };
            let mut plan = self.core.plan_capped(searched, &params, self.depth);
            plan.limits.multipv = 1;
            let purpose = Purpose::Analyze { ply, after_pass };
            self.start(searched, plan, purpose, Instant::now());
            if self.running.is_some() {
                return;
            }
        }
        self.line("status");
    }
}
