//! The `wedge gui` front end: the game behind the board in the browser, on the same session loop
//! and engine core as the protocols. The web server ([`crate::gui`]) turns each HTTP request into
//! a [`Request`] and waits for the answer; this front end owns the game (its moves, the position
//! shown, who plays, the clocks), the one tab that holds the engine, and what runs for it: the
//! engine's move, the hints, the quick searches that fill the evaluation graph, and the
//! whole-game analysis (the `wedge analyze` engine, on a thread of its own).
//!
//! Every command that is refused leaves the game as it was. A search never outlives what asked
//! for it: a change of position, a new game, a closed or silent tab stops it.
//!
//! This file: the state, the requests, the commands. `tasks`: the searches and what they
//! report, the analysis. `view`: the state as the page sees it.

mod tasks;
mod view;

use super::session::{FrontEnd, Session};
use super::worker::Report;
use crate::board::ggf::{now_unix, GgfGame};
use crate::board::text::Game;
use crate::board::{Color, Move, Position};
pub use crate::protocol::gui::Request;
use crate::protocol::gui::{Answer, ApiError, Command, Settings, Side, Time};
use crate::protocol::LineError;
use crate::rng::Rng;
use std::time::{Duration, Instant};
use tasks::{Analysis, Search};

/// A tab that has not asked for anything for this long has been closed: its searches stop and
/// another tab may take the engine.
pub const TAB_TIMEOUT: Duration = Duration::from_secs(8);

/// Names, place, date, time control and game name a loaded GGF game carried, written back when it
/// is saved.
#[derive(Clone, Debug, Default)]
struct Record {
    /// Black's and White's names.
    names: [Option<String>; 2],
    tags: crate::engine::play::SavedTags,
}

/// The tab that holds the engine.
struct Owner {
    token: String,
    seen: Instant,
}

/// The state of the board in the browser.
pub struct GuiFrontEnd {
    settings: Settings,
    start: Position,
    /// The game's moves, passes included; those after `cursor` were taken back or skipped over.
    moves: Vec<Move>,
    /// How many moves lead to the position shown.
    cursor: usize,
    record: Record,
    /// Milliseconds black and white have used under a game clock.
    used: [u64; 2],
    /// Moves black and white had made when the clock was set (a loaded game's, or those before
    /// a new time control): they earn no increment.
    clock_from: [usize; 2],
    /// The side whose clock runs, and since when.
    running_clock: Option<(Color, Instant)>,
    /// The side whose time ran out.
    flag: Option<Color>,
    paused: bool,
    hints_on: bool,
    /// Searches sent to the worker, oldest first (the worker answers them in order).
    searches: std::collections::VecDeque<Search>,
    /// The last hint search that finished, shown while its position is.
    finished_hints: Option<Search>,
    /// The value of the position after each number of moves, black's view (index 0: the start).
    values: Vec<Option<f64>>,
    analysis: Option<Analysis>,
    owner: Option<Owner>,
    /// The token of the tab let go for its silence.
    let_go: Option<String>,
    message: Option<String>,
    version: u64,
    rng: Rng,
}

impl Default for GuiFrontEnd {
    fn default() -> GuiFrontEnd {
        GuiFrontEnd::new()
    }
}

impl GuiFrontEnd {
    /// A new game at the start position: a person plays black against the engine at level 10.
    pub fn new() -> GuiFrontEnd {
        let seed = now_unix() ^ u64::from(std::process::id()).rotate_left(32);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::from(d.subsec_nanos()));
        GuiFrontEnd {
            settings: Settings::default(),
            start: Position::START,
            moves: Vec::new(),
            cursor: 0,
            record: Record::default(),
            used: [0; 2],
            clock_from: [0; 2],
            running_clock: None,
            flag: None,
            paused: false,
            hints_on: false,
            searches: Default::default(),
            finished_hints: None,
            values: vec![None],
            analysis: None,
            owner: None,
            let_go: None,
            message: None,
            version: 0,
            rng: Rng::new(seed ^ nanos.rotate_left(17)),
        }
    }

    /// The position after the first `n` moves.
    fn position_at(&self, n: usize) -> Position {
        let mut pos = self.start;
        for &m in &self.moves[..n.min(self.moves.len())] {
            match pos.play(m) {
                Some(next) => pos = next,
                None => break,
            }
        }
        pos
    }

    /// The position shown.
    fn position(&self) -> Position {
        self.position_at(self.cursor)
    }

    /// Whether the game goes on at its last move (the clock runs, the engine may move).
    fn at_end(&self) -> bool {
        self.cursor == self.moves.len()
    }

    /// The game is over at the position shown.
    fn over(&self) -> bool {
        self.position().board.is_game_over() || (self.at_end() && self.flag.is_some())
    }

    /// Milliseconds `c` has left under a game clock.
    fn time_left(&self, c: Color) -> Option<i64> {
        let Time::Clock { base_ms, inc_ms } = self.settings.time else {
            return None;
        };
        let own_moves = self.moves_of(c).saturating_sub(self.clock_from[c as usize]) as u64;
        let mut used = self.used[c as usize];
        if let Some((side, since)) = self.running_clock {
            if side == c {
                used += since.elapsed().as_millis() as u64;
            }
        }
        Some((base_ms + inc_ms * own_moves) as i64 - used as i64)
    }

    /// Moves `c` has made in the game (passes included), whatever position is shown: the clock is
    /// the game's, as the time used is.
    fn moves_of(&self, c: Color) -> usize {
        let first = usize::from(self.start.side != c);
        (first..self.moves.len()).step_by(2).count()
    }

    /// The moves black and white have made in the game.
    fn moves_made(&self) -> [usize; 2] {
        [self.moves_of(Color::Black), self.moves_of(Color::White)]
    }

    /// Stops the running clock, adding its time to its side.
    fn settle_clock(&mut self) {
        if let Some((side, since)) = self.running_clock.take() {
            self.used[side as usize] += since.elapsed().as_millis() as u64;
        }
    }

    /// Starts the clock of the game's side to move when the game goes on, a clock is set and a
    /// tab holds the game. A person's clock runs while they look at earlier moves too; the
    /// engine's only while it can think (at the game's last position).
    fn start_clock(&mut self) {
        self.settle_clock();
        let last = self.position_at(self.moves.len());
        let person = self.settings.side(last.side) == Side::Human;
        if matches!(self.settings.time, Time::Clock { .. })
            && self.owner.is_some()
            && (self.at_end() || person)
            && !last.board.is_game_over()
            && self.flag.is_none()
            // Pause holds the engine: a person's own clock runs on.
            && (!self.paused || person)
        {
            self.running_clock = Some((last.side, Instant::now()));
        }
    }

    /// Adds `mv` at the position shown: the next move of the game when it is the same, else the
    /// game goes on from here with it (later moves dropped).
    fn push_move(&mut self, mv: Move) {
        self.settle_clock();
        if self.moves.get(self.cursor) == Some(&mv) {
            self.cursor += 1;
        } else {
            self.moves.truncate(self.cursor);
            self.values.truncate(self.cursor + 1);
            self.moves.push(mv);
            self.cursor += 1;
            if let Some(a) = &mut self.analysis {
                a.cancel();
            }
            self.analysis = None;
        }
        if self.values.len() < self.moves.len() + 1 {
            self.values.resize(self.moves.len() + 1, None);
        }
    }

    /// After any change of the game or the position shown: what ran for the old position stops,
    /// forced passes are played, the clocks and the engine go on.
    fn changed(&mut self, s: &mut Session<'_>) {
        self.version += 1;
        // A side with no move passes at once (the game's last position only: a pass in the middle
        // is part of the moves already).
        while self.at_end() && self.flag.is_none() {
            let pos = self.position();
            if !pos.board.must_pass() || pos.board.is_game_over() {
                break;
            }
            self.message = Some(format!(
                "{} has no move and passes.",
                crate::protocol::play::colour_name(pos.side)
            ));
            self.push_move(Move::PASS);
        }
        let pos = self.position();
        if pos.board.is_game_over() {
            self.values[self.cursor] = Some(f64::from(pos.black_final_score()));
        }
        self.stop_unwanted();
        self.start_clock();
        self.next_work(s);
    }

    /// Refuses a command when `token` is not the owner's; marks the owner as seen. A tab let go
    /// for its silence (a background tab whose timers the browser slowed down) gets the engine
    /// back when it speaks again, unless another tab has taken it: `Ok(true)` then.
    fn check_owner(&mut self, token: &str) -> Result<bool, ApiError> {
        match &mut self.owner {
            Some(o) if o.token == token => {
                o.seen = Instant::now();
                Ok(false)
            }
            None if !token.is_empty() && self.let_go.as_deref() == Some(token) => {
                self.owner = Some(Owner {
                    token: token.to_string(),
                    seen: Instant::now(),
                });
                self.let_go = None;
                Ok(true)
            }
            Some(_) => Err(ApiError::NotOwner),
            None => Err(ApiError::NotClaimed),
        }
    }

    fn claim(&mut self, force: bool) -> Result<String, ApiError> {
        let held = self
            .owner
            .as_ref()
            .is_some_and(|o| o.seen.elapsed() < TAB_TIMEOUT);
        if held && !force {
            return Err(ApiError::Busy);
        }
        let token = format!("{:016x}{:016x}", self.rng.next_u64(), self.rng.next_u64());
        self.owner = Some(Owner {
            token: token.clone(),
            seen: Instant::now(),
        });
        self.let_go = None;
        self.version += 1;
        Ok(token)
    }

    /// The tab is gone (`closed`) or silent: what runs for it stops, and the game waits for the
    /// next tab (or for the silent one to speak again). A silent tab's engine move goes on, with
    /// the engine's clock: it needs nobody, ends by its own time, and a background tab (whose
    /// timers the browser slows to one a minute) finds it played when it speaks again.
    fn release(&mut self, closed: bool) {
        self.let_go = match self.owner.take() {
            Some(o) if !closed => Some(o.token),
            _ => None,
        };
        let moving = if closed {
            self.stop_searches();
            false
        } else {
            self.stop_all_but_move()
        };
        if let Some(a) = &mut self.analysis {
            a.cancel();
        }
        if !moving {
            self.settle_clock();
        }
        self.version += 1;
    }

    /// Applies one command.
    fn command(&mut self, s: &mut Session<'_>, command: Command) -> Result<Answer, ApiError> {
        match command {
            Command::State => {}
            Command::New { settings, position } => {
                let settings = settings.check()?;
                let start = match position.as_deref().map(str::trim) {
                    None | Some("") => Position::START,
                    Some(text) => read_position(text)?,
                };
                self.new_game(
                    s,
                    settings,
                    Game::new(start),
                    Record::default(),
                    "New game.",
                );
            }
            Command::Settings { settings } => {
                let settings = settings.check()?;
                self.settle_clock();
                if settings.time != self.settings.time {
                    self.used = [0; 2];
                    self.clock_from = self.moves_made();
                    self.flag = None;
                }
                if settings != self.settings {
                    // The engine's search ran with the old level or time.
                    self.stop_searches();
                }
                self.settings = settings;
                self.apply_level(s);
                self.message = None;
                self.changed(s);
            }
            Command::Move { square } => self.human_move(s, &square)?,
            Command::Undo => {
                if self.cursor == 0 {
                    return Err(ApiError::Refused("there is no move to take back".into()));
                }
                self.cursor -= 1;
                // Back to where a person is to move, when one plays.
                let humans = [Color::Black, Color::White]
                    .iter()
                    .any(|&c| self.settings.side(c) == Side::Human);
                let back_from = self.cursor + 1;
                let not_theirs = |g: &Self| {
                    g.settings.side(g.position().side) == Side::Engine
                        || g.position().board.must_pass()
                };
                while humans && self.cursor > 0 && not_theirs(self) {
                    self.cursor -= 1;
                }
                if humans && not_theirs(self) {
                    // The engine opened the game: no turn of a person's to go back to.
                    self.cursor = back_from;
                    return Err(ApiError::Refused(
                        "there is no move of yours to take back".into(),
                    ));
                }
                self.message = None;
                self.changed(s);
            }
            Command::Redo => {
                if self.at_end() {
                    return Err(ApiError::Refused("there is no move to replay".into()));
                }
                self.cursor += 1;
                self.message = None;
                self.changed(s);
            }
            Command::Goto { ply } => {
                if ply > self.moves.len() {
                    return Err(ApiError::Invalid(format!(
                        "the game has {}, not {ply}",
                        crate::protocol::play::counted(self.moves.len(), "move", "moves")
                    )));
                }
                self.cursor = ply;
                self.message = None;
                self.changed(s);
            }
            Command::Swap => {
                let Settings { black, white, .. } = self.settings;
                self.settings.black = white;
                self.settings.white = black;
                self.message = (black == white).then(|| {
                    "Both sides are played the same way: swapping changes nothing (New game \
                     chooses who plays each side)."
                        .to_string()
                });
                self.changed(s);
            }
            Command::Stop => self.move_now(),
            Command::Pause { paused } => {
                self.paused = paused;
                self.message = None;
                self.changed(s);
            }
            Command::Hints { on } => {
                self.hints_on = on;
                self.message = None;
                self.changed(s);
            }
            Command::Analyze => self.analyze()?,
            Command::StopAnalysis => {
                if let Some(a) = &mut self.analysis {
                    a.cancel();
                }
            }
            Command::Load { text } => {
                let (game, record) = read_game(&text)?;
                let moves = crate::protocol::play::counted(game.moves.len(), "move", "moves");
                let message = format!("Loaded a game of {moves}.");
                let settings = Settings {
                    black: Side::Human,
                    white: Side::Human,
                    ..self.settings
                };
                self.new_game(s, settings, game, record, &message);
            }
            Command::Save => return Ok(Answer::Ggf(self.ggf().to_string())),
        }
        Ok(Answer::State(Box::new(self.view())))
    }

    fn new_game(
        &mut self,
        s: &mut Session<'_>,
        settings: Settings,
        game: Game,
        record: Record,
        message: &str,
    ) {
        if let Some(a) = &mut self.analysis {
            a.cancel();
        }
        self.analysis = None;
        self.settings = settings;
        self.start = game.start;
        self.cursor = game.moves.len();
        self.moves = game.moves;
        self.values = vec![None; self.moves.len() + 1];
        self.record = record;
        self.used = [0; 2];
        self.clock_from = self.moves_made();
        self.running_clock = None;
        self.flag = None;
        self.paused = false;
        self.message = Some(message.to_string());
        // A search of the old game is not the new one's, even of the same position: it ran with
        // the old level and time.
        self.stop_searches();
        s.core.new_game();
        self.apply_level(s);
        self.changed(s);
    }

    /// Sends the level to the core (the engine's own settings; hints set theirs for one search).
    fn apply_level(&mut self, s: &mut Session<'_>) {
        let _ = s
            .core
            .set_option("Level", Some(&self.settings.level.to_string()));
    }

    fn human_move(&mut self, s: &mut Session<'_>, square: &str) -> Result<(), ApiError> {
        let pos = self.position();
        if self.over() {
            return Err(ApiError::Refused("the game is over".into()));
        }
        let mv: Move = square
            .trim()
            .parse()
            .map_err(|_| ApiError::Invalid(format!("'{}' is not a square", clip(square))))?;
        if pos.play(mv).is_none() {
            return Err(ApiError::Refused(format!("{mv} is not a legal move here")));
        }
        // A move that arrives after the mover's time ran out, before the tick saw it, is late.
        if self.check_flag() {
            self.changed(s);
        }
        if let Some(c) = self.flag {
            // Taking moves back gives no time back: the game stays lost on time.
            return Err(ApiError::Refused(format!(
                "{} lost on time; a new time (Apply) plays on",
                crate::protocol::play::colour_name(c)
            )));
        }
        if self.at_end() && self.settings.side(pos.side) == Side::Engine && !self.paused {
            return Err(ApiError::Refused(format!(
                "it is the engine's move ({}); Move now makes it play, or pause it",
                crate::protocol::play::colour_name(pos.side)
            )));
        }
        self.message = None;
        self.push_move(mv);
        self.changed(s);
        Ok(())
    }

    /// The game as GGF: the loaded game's names, place and tags, or who plays here.
    fn ggf(&self) -> GgfGame {
        let name = |c: Color| match self.settings.side(c) {
            Side::Human => "human".to_string(),
            Side::Engine => format!("wedge level {}", self.settings.level),
        };
        // A flag falls at once: no grace.
        let time = match self.settings.time {
            Time::PerMove { .. } => crate::board::ggf::NO_CLOCK.to_string(),
            Time::Clock { base_ms, inc_ms } => crate::board::ggf::GgfClock {
                time: base_ms as f64 / 1000.0,
                increment: inc_ms as f64 / 1000.0,
                grace: 0.0,
            }
            .to_string(),
        };
        let end = self.position_at(self.moves.len());
        let players = [
            self.record.names[0]
                .clone()
                .unwrap_or_else(|| name(Color::Black)),
            self.record.names[1]
                .clone()
                .unwrap_or_else(|| name(Color::White)),
        ];
        GgfGame {
            place: self
                .record
                .tags
                .place
                .clone()
                .unwrap_or_else(|| "wedge gui".into()),
            unix_time: self.record.tags.date.unwrap_or_else(now_unix),
            black: players[0].clone(),
            white: players[1].clone(),
            time_control: self.record.tags.time_control.clone().unwrap_or(time),
            start: self.start,
            moves: self.moves.clone(),
            times: Vec::new(),
            // A game lost on time: every square to the other side, as a forfeit is written.
            black_score: match self.flag {
                Some(Color::Black) => -64,
                Some(Color::White) => 64,
                None => end.black_final_score(),
            },
            forfeit: self.flag.map(|c| {
                format!(
                    "{}: {} lost on time",
                    players[c as usize],
                    crate::protocol::play::colour_name(c).to_lowercase()
                )
            }),
            name: self.record.tags.name.clone(),
        }
    }
}

/// At most 40 characters of what a person sent, for an error message.
fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// A position from a board string (`<64 squares> <side>`) or a FEN.
fn read_position(text: &str) -> Result<Position, ApiError> {
    let pos = if text.contains('/') {
        Position::from_fen(text).map_err(|e| ApiError::Invalid(format!("position: {e}")))?
    } else {
        text.parse::<Position>()
            .map_err(|e| ApiError::Invalid(format!("position: {e}")))?
    };
    Ok(pos)
}

/// A game from pasted or uploaded text: GGF or a transcript from the start, each read as `wedge
/// play` reads a saved game (one game, comments skipped), except that a transcript may wrap over
/// several lines (pasted from a page); or a position.
fn read_game(text: &str) -> Result<(Game, Record), ApiError> {
    use crate::engine::play::{content_lines, read_saved, GameTextError};
    let content = content_lines(text)
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n");
    let ggf = content.contains("(;");
    let error = match read_saved(text) {
        Ok(saved) => {
            let record = Record {
                names: saved.names,
                tags: saved.tags,
            };
            return Ok((saved.game, record));
        }
        Err(GameTextError::NoGame) => {
            return Err(ApiError::Invalid(
                "nothing to load: paste a GGF game, a transcript or a board".into(),
            ))
        }
        Err(GameTextError::Several(_)) if !ggf => match content.parse::<Game>() {
            Ok(game) => return Ok((game, Record::default())),
            Err(e) => e.to_string(),
        },
        Err(GameTextError::Several(line)) => {
            return Err(ApiError::Invalid(format!(
                "line {line}: a second game (load one game at a time)"
            )))
        }
        Err(GameTextError::Ggf(line, e)) => {
            return Err(ApiError::Invalid(format!("line {line}: {e}")))
        }
        Err(GameTextError::Transcript(line, e)) => format!("line {line}: {e}"),
    };
    if ggf {
        return Err(ApiError::Invalid(
            "a GGF game must start its line with '(;' (only comment lines before it)".into(),
        ));
    }
    let text = content.trim();
    match read_position(text) {
        Ok(pos) => Ok((Game::new(pos), Record::default())),
        // Text shaped as a board (a FEN's `/`, or some 64 squares and no digit, which every move
        // of a transcript has) gets the board's error.
        Err(board)
            if text.contains('/')
                || text
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| w.len() >= 60 && !w.bytes().any(|c| c.is_ascii_digit())) =>
        {
            Err(board)
        }
        Err(_) => Err(ApiError::Invalid(format!(
            "not a GGF game, a transcript or a board: {error}"
        ))),
    }
}

impl FrontEnd for GuiFrontEnd {
    fn begin(&mut self, s: &mut Session<'_>) {
        self.apply_level(s);
        self.changed(s);
    }

    fn line(&mut self, _s: &mut Session<'_>, _line: Result<String, LineError>) -> bool {
        true
    }

    fn report(&mut self, s: &mut Session<'_>, report: Report) -> bool {
        self.worker_report(s, report);
        true
    }

    fn gui(&mut self, s: &mut Session<'_>, request: Request) -> bool {
        match request {
            Request::Claim { force, reply } => {
                let answer = self.claim(force);
                if answer.is_ok() {
                    self.changed(s);
                }
                let _ = reply.send(answer);
            }
            Request::Leave { token } => {
                if self.check_owner(&token).is_ok() {
                    self.release(true);
                }
            }
            Request::Command {
                token,
                command,
                reply,
            } => {
                let answer = self.check_owner(&token).and_then(|back| {
                    if back {
                        self.changed(s);
                    }
                    self.command(s, command)
                });
                let _ = reply.send(answer);
            }
            Request::Tick => self.tick(s),
        }
        true
    }

    fn end_of_input(&mut self, _s: &mut Session<'_>) -> bool {
        false
    }

    fn stop(&mut self) {
        self.stop_searches();
        if let Some(a) = &mut self.analysis {
            a.cancel();
        }
    }

    /// The page is the board's output; the process's own is only a log, so the board keeps
    /// serving when nobody reads that.
    fn needs_output(&self) -> bool {
        false
    }
}
