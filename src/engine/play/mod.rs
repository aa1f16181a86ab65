//! The `wedge play` front end: a practice game in the terminal against the engine core (levels,
//! book, search, solver), on the same session loop as the protocols. It owns the game (the moves,
//! the moves taken back, who plays which colour, the clocks) and one engine task at a time: the
//! engine's move, a hint, or the analysis of the game. The text (commands, board, read-outs) is
//! [`crate::protocol::play`].
//!
//! Every error leaves the game as it was; the game is saved (GGF) after every move and on exit,
//! so `wedge play --resume` continues it.
//!
//! This file: the state, the turn order (passes, the engine's move, the prompt) and the commands'
//! dispatch. `clock`: the moves' times and the clocks they make. `history`: undo, redo, edit,
//! load, save. `tasks`: hints, analysis, and what the engine's searches report.

mod clock;
mod history;
mod saved;
mod tasks;

pub use saved::{content_lines, read_game, read_saved, GameTextError, SavedGame, SavedTags};

use super::report::{GameEvent, Report, SearchEvent};
use super::session::{FrontEnd, Session};
use crate::board::ggf::now_unix;
use crate::board::text::Game;
use crate::board::{Color, Move, Position};
use crate::engine::request::SearchRequest;
use crate::protocol::play::{
    board_lines, colour_name, colour_symbol, level_text, parse, Marks, PlayCommand, Players, Style,
    TimeSetting, HELP, LEVELS,
};
use crate::protocol::LineError;
use crate::search::Score;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What can follow a loss on time.
const AFTER_FLAG: &str = "new starts another game, undo goes back, time sets a new clock";

/// The engine's time a move unless told otherwise: level 10 thinks at most 5 s.
pub const DEFAULT_MOVE_MS: u64 = 5000;
/// The time of each position's search in `analyze`.
const ANALYZE_MS: u64 = 500;
/// A move is called a mistake in `analyze` when the best one scores this much more: two searches
/// of neighbouring positions, each with its own depth, differ by about a disc on their own.
const MISTAKE_DISCS: f64 = 1.0;

/// How a game session starts.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Who plays which colour.
    pub players: Players,
    /// The engine's level, 1..=10.
    pub level: u32,
    /// The engine's time.
    pub time: TimeSetting,
    /// How the board is drawn.
    pub style: Style,
    /// Whether the input is a person at a terminal (thinking is shown as it goes).
    pub interactive: bool,
    /// Where the game is saved after every move and on exit (`None`: not saved).
    pub autosave: Option<PathBuf>,
    /// A game to continue (from `--resume` or a file): its moves, the time each took, and
    /// whether a side lost on time.
    pub resume: Option<SavedGame>,
    /// The opening book.
    pub book: bool,
    /// Root noise with this seed (`None`: deterministic).
    pub random: Option<u64>,
}

/// What the engine is doing for the game.
enum Task {
    /// Choosing its move.
    Move {
        stop: Arc<AtomicBool>,
        started: Instant,
    },
    /// The best moves for the side to move.
    Hint {
        stop: Arc<AtomicBool>,
        /// The lines kept: multipv, score, first move, the depth they come from.
        lines: Vec<(usize, Score, Option<Move>, u32)>,
        count: usize,
    },
    /// Searching every position of the game in turn.
    Analyze {
        /// The current position's search (its timer sets it too).
        stop: Arc<AtomicBool>,
        /// Set by the person: report what is done.
        cancelled: bool,
        positions: Vec<Position>,
        scores: Vec<(Score, Option<Move>)>,
    },
}

impl Task {
    /// Ends the task early: the engine moves now, the hint is the best so far, the analysis
    /// reports the positions done.
    fn stop(&mut self) {
        match self {
            Task::Move { stop, .. } | Task::Hint { stop, .. } => {
                stop.store(true, Ordering::Relaxed)
            }
            Task::Analyze {
                stop, cancelled, ..
            } => {
                *cancelled = true;
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The state of a game session.
pub struct PlayFrontEnd {
    config: PlayConfig,
    game: Game,
    /// Moves taken back, the next to replay last, with the milliseconds each took.
    redo: Vec<(Move, u64)>,
    /// Whether a human plays black, white.
    human: [bool; 2],
    task: Option<Task>,
    /// Milliseconds each move of `game` took, written in the saved record: the clocks are what
    /// they add up to (a move taken back takes its time with it, a replayed one brings it back).
    times: Vec<u64>,
    /// When the side to move's turn began.
    turn_started: Instant,
    /// The side whose time ran out: the game is lost on time (undo, a new time control, a new
    /// or loaded game plays on).
    flag: Option<Color>,
    /// The game has been announced as over.
    over_announced: bool,
    /// The input has ended: the session ends once the engine has nothing left to do.
    input_ended: bool,
    /// Lines typed while the engine was busy, applied in order when it is done (a script's
    /// next move, or a person typing ahead).
    queue: std::collections::VecDeque<String>,
    /// Whether a line of `queue` is being applied (the lines after it then wait for the engine).
    draining: bool,
    /// The game changed in this session (only then is it saved over the last one).
    dirty: bool,
    /// `quit` was applied: the session ends.
    quit: bool,
    /// The last autosave failed: the session ends with status 1 unless a later one succeeds.
    unsaved: bool,
}

impl PlayFrontEnd {
    /// A session with this configuration; the game starts when the session does.
    pub fn new(config: PlayConfig) -> PlayFrontEnd {
        let (game, times, flag) = match config.resume.clone() {
            Some(saved) => (saved.game, saved.times, saved.lost_on_time),
            None => (Game::new(Position::START), Vec::new(), None),
        };
        let mut front = PlayFrontEnd {
            flag,
            human: [false; 2],
            config,
            game,
            redo: Vec::new(),
            task: None,
            times: Vec::new(),
            turn_started: Instant::now(),
            over_announced: false,
            input_ended: false,
            queue: std::collections::VecDeque::new(),
            draining: false,
            dirty: false,
            quit: false,
            unsaved: false,
        };
        front.set_players(front.config.players);
        front.set_times(times);
        front
    }

    fn set_players(&mut self, players: Players) {
        self.config.players = players;
        self.human = match players {
            Players::Human(Color::Black) => [true, false],
            Players::Human(Color::White) => [false, true],
            Players::BothHuman => [true, true],
            Players::BothEngine => [false, false],
        };
    }

    fn position(&self) -> Position {
        self.game.position()
    }

    /// Sends the settings to the core before the first move.
    fn start(&mut self, s: &mut Session<'_>) {
        let level = self.config.level.to_string();
        let book = self.config.book.to_string();
        for (name, value) in [("Level", level.as_str()), ("OwnBook", book.as_str())] {
            if let Err(e) = s.core.set_option(name, Some(value)) {
                s.out.line(&format!("error: {e}"));
            }
        }
        self.apply_random(s, self.config.random);
        s.out.line(&format!(
            "wedge play: you are {}; the engine plays at {}, {}. Type help for the commands.",
            self.players_text(),
            level_text(self.config.level),
            self.time_text()
        ));
    }

    fn apply_random(&mut self, s: &mut Session<'_>, random: Option<u64>) {
        self.config.random = random;
        let (noise, seed) = match random {
            Some(seed) => ("150", seed.to_string()),
            None => ("0", "0".to_string()),
        };
        for (name, value) in [("Randomness", noise), ("Seed", seed.as_str())] {
            if let Err(e) = s.core.set_option(name, Some(value)) {
                s.out.line(&format!("error: {e}"));
            }
        }
    }

    fn players_text(&self) -> String {
        match self.config.players {
            Players::Human(c) => format!("{} ({})", colour_name(c), colour_symbol(c)),
            Players::BothHuman => "both sides".into(),
            Players::BothEngine => "watching the engine play itself".into(),
        }
    }

    /// The board with the last move and its flips marked, and what comes next.
    fn show(&self, s: &mut Session<'_>) {
        let pos = self.position();
        let mut marks = Marks::default();
        if let Some((&last, before)) = self.game.moves.split_last() {
            let prev = Game {
                start: self.game.start,
                moves: before.to_vec(),
            }
            .position();
            if let Some(sq) = last.square() {
                marks.last = Some(sq);
                marks.flipped = prev.board.flips(sq).0;
            }
        }
        if self.human[pos.side as usize] && !pos.board.is_game_over() {
            marks.legal = pos.board.legal_moves().0;
        }
        for line in board_lines(pos, marks, self.config.style) {
            s.out.line(&line);
        }
        let (black, white) = (pos.black().count_ones(), pos.white().count_ones());
        let clocks = self.clock_line();
        s.out.line(&format!(
            "Black (X) {black} - White (O) {white}   moves: {}   {clocks}",
            self.move_list()
        ));
    }

    fn move_list(&self) -> String {
        if self.game.moves.is_empty() {
            return "(none)".into();
        }
        self.game
            .moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Plays `mv` for the side to move (checked by the caller), charging its time.
    fn push_move(&mut self, mv: Move) {
        let took = self.turn_started.elapsed().as_millis() as u64;
        self.game.moves.push(mv);
        self.times.push(took);
        // The moves taken back stay replayable only while the game follows them.
        if self.redo.last().is_some_and(|&(m, _)| m == mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.turn_started = Instant::now();
        self.over_announced = false;
        self.dirty = true;
    }

    /// Moves the game on: automatic passes, the end of the game, the engine's turn, or the prompt
    /// for a human.
    fn advance(&mut self, s: &mut Session<'_>) {
        if self.flag.is_some() {
            if !self.over_announced {
                self.over_announced = true;
                self.show(s);
                self.prompt(s);
            }
            self.autosave(s);
            return;
        }
        loop {
            let pos = self.position();
            if pos.board.is_game_over() {
                if !self.over_announced {
                    self.over_announced = true;
                    self.show(s);
                    self.announce_result(s, pos);
                }
                self.autosave(s);
                return;
            }
            if !pos.board.can_move() {
                s.out.line(&format!(
                    "{} has no move and passes.",
                    colour_name(pos.side)
                ));
                self.push_move(Move::PASS);
                continue;
            }
            break;
        }
        self.autosave(s);
        let pos = self.position();
        self.show(s);
        if self.human[pos.side as usize] {
            self.prompt(s);
        } else {
            // Lines that waited for the engine's last search (a person's, typed while the engine
            // played itself) take effect before it thinks again. A line taken from the queue that
            // gives the engine its turn (a move) starts the search at once: the lines after it
            // wait for that search in turn.
            if !self.draining {
                self.drain_queue(s);
            }
            // Once the input has ended, an engine that plays both sides thinks no more: it would
            // play the game out unasked. Against a person it answers every line sent.
            let pos = self.position();
            if !self.quit
                && (!self.input_ended || self.human.contains(&true))
                && self.task.is_none()
                && !pos.board.is_game_over()
                && pos.board.can_move()
                && !self.human[pos.side as usize]
            {
                self.engine_move(s);
            }
        }
    }

    /// The human's prompt: whose turn, and the legal moves.
    pub(super) fn prompt(&self, s: &mut Session<'_>) {
        if let Some(c) = self.flag {
            s.out.line(&format!("{}.", Self::lost_text(c)));
            return;
        }
        let pos = self.position();
        let legal: Vec<String> = pos.board.legal_moves().map(|m| m.to_string()).collect();
        s.out.line(&format!(
            "{} ({}) to move; legal: {}",
            colour_name(pos.side),
            colour_symbol(pos.side),
            legal.join(" ")
        ));
    }

    /// Replaces the game (a new one, an edited position, a loaded file, whose moves took `times`
    /// and whose `flag` fell or not): nothing to redo, the clocks as the moves' times leave them,
    /// fresh tables, then `message` and the game goes on.
    pub(super) fn start_from(
        &mut self,
        s: &mut Session<'_>,
        (game, times, flag): (Game, Vec<u64>, Option<Color>),
        message: &str,
    ) {
        self.game = game;
        self.set_times(times);
        self.flag = flag;
        self.redo.clear();
        self.over_announced = false;
        self.dirty = true;
        self.turn_started = Instant::now();
        s.core.new_game();
        s.out.line(message);
        self.advance(s);
    }

    /// Applies the lines typed ahead, in order, until one starts the engine or ends the session.
    fn drain_queue(&mut self, s: &mut Session<'_>) {
        let outer = std::mem::replace(&mut self.draining, true);
        while self.task.is_none() && !self.quit {
            let Some(line) = self.queue.pop_front() else {
                break;
            };
            if !self.apply_line(s, &line) {
                self.quit = true;
            }
        }
        self.draining = outer;
    }

    fn announce_result(&self, s: &mut Session<'_>, pos: Position) {
        let score = pos.black_final_score();
        let (b, w) = (pos.black().count_ones(), pos.white().count_ones());
        let result = match score.cmp(&0) {
            std::cmp::Ordering::Greater => format!("Black wins by {score}"),
            std::cmp::Ordering::Less => format!("White wins by {}", -score),
            std::cmp::Ordering::Equal => "a draw".to_string(),
        };
        let who = match (self.config.players, score.signum()) {
            (Players::Human(c), x) if x != 0 => {
                let human_won = (c == Color::Black) == (x > 0);
                if human_won {
                    " - you win"
                } else {
                    " - the engine wins"
                }
            }
            _ => "",
        };
        s.out.line(&format!(
            "Game over: {result} ({b}-{w}){who}. {}. Type new for another game, undo to go back, analyze to review it.",
            crate::protocol::play::counted(
                self.game.moves.iter().filter(|m| !m.is_pass()).count(),
                "move",
                "moves"
            )
        ));
    }

    /// The search limits of the engine's move.
    fn go_params(&self, side: Color) -> SearchRequest {
        match self.config.time {
            TimeSetting::PerMove(ms) => SearchRequest::move_time(ms),
            TimeSetting::Game(base, inc) => {
                // What this turn has taken already (the autosave, the board) is spent.
                let spent = self.turn_started.elapsed().as_millis() as u64;
                let left = self.left(side as usize, base, inc).saturating_sub(spent);
                SearchRequest::on_clock(side.into(), left.max(1), inc)
            }
        }
    }

    fn engine_move(&mut self, s: &mut Session<'_>) {
        // A clock with nothing left searches no more: the flag has fallen.
        if self.check_flag(s) {
            self.advance(s);
            return;
        }
        let pos = self.position();
        let params = self.go_params(pos.side);
        if let Some(book) = s.core.book_move(pos, &params) {
            let score = s.core.book_info(pos.board, &book).score;
            let empties = pos.board.empty_count();
            s.out.line(&format!(
                "wedge ({}) plays {} from its book ({}).",
                colour_symbol(pos.side),
                book.mv,
                crate::protocol::play::confidence(score, empties)
            ));
            self.push_move(book.mv);
            self.advance(s);
            return;
        }
        let plan = s.core.plan(pos, &params);
        match s.core.start_search(pos, plan.limits, plan.hard) {
            Ok(stop) => {
                self.task = Some(Task::Move {
                    stop,
                    started: Instant::now(),
                });
                if self.config.interactive {
                    s.out
                        .status("wedge is thinking... (stop or Enter makes it move now)");
                }
            }
            Err(e) => s.out.line(&format!("error: {e}")),
        }
    }

    /// Applies a line typed while nothing runs.
    fn command(&mut self, s: &mut Session<'_>, command: PlayCommand) -> bool {
        match command {
            PlayCommand::Quit => {
                self.autosave(s);
                self.quit = true;
                return false;
            }
            PlayCommand::Help => HELP.iter().for_each(|l| s.out.line(l)),
            PlayCommand::Board => {
                self.show(s);
                self.show_turn_quietly(s);
            }
            PlayCommand::Stop => {}
            PlayCommand::Move(mv) => return self.human_move(s, mv),
            PlayCommand::Undo(n) => self.undo(s, n),
            PlayCommand::Redo(n) => self.redo_moves(s, n),
            PlayCommand::Hint(n) => self.hint(s, n),
            PlayCommand::New => {
                let new = (Game::new(Position::START), Vec::new(), None);
                self.start_from(s, new, "New game.")
            }
            PlayCommand::Level(l) => match s.core.set_option("Level", Some(&l.to_string())) {
                Ok(()) => {
                    self.config.level = l;
                    s.out
                        .line(&format!("The engine now plays at {}.", level_text(l)));
                }
                Err(e) => s.out.line(&format!("error: {e}")),
            },
            PlayCommand::Levels => {
                for level in 1..=LEVELS.len() as u32 {
                    s.out.line(&level_text(level));
                }
            }
            PlayCommand::Swap => {
                let players = match self.config.players {
                    Players::Human(c) => Players::Human(c.opposite()),
                    other => other,
                };
                self.set_players(players);
                s.out.line(&format!("You are now {}.", self.players_text()));
                self.advance(s);
            }
            PlayCommand::Players(p) => {
                self.set_players(p);
                s.out.line(&format!("You are now {}.", self.players_text()));
                self.advance(s);
            }
            PlayCommand::Time(t) => {
                self.config.time = t;
                s.out
                    .line(&format!("The engine now thinks {}.", self.time_text()));
                // A new time control plays on after a flag: the turn starts again.
                if self.flag.take().is_some() {
                    self.turn_started = Instant::now();
                    self.over_announced = false;
                    self.dirty = true;
                    self.advance(s);
                }
            }
            PlayCommand::Save(file) => {
                // A FIFO or device would block the game (or be replaced): only files are written.
                let path = std::path::Path::new(&file);
                // The save replaces the file: one that holds anything but one saved game (a
                // match's records, notes) is not overwritten, as for `--autosave`.
                let other = |why: String| {
                    Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        format!("it holds {why}, and saving would replace it; give another file"),
                    ))
                };
                let written = match std::fs::metadata(path) {
                    Ok(m) if !m.is_file() => Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        "not a regular file",
                    )),
                    Ok(m) if m.len() > 0 => {
                        match crate::files::read_regular(path, crate::files::MAX_TEXT_BYTES) {
                            Err(e) => Err(e),
                            Ok(bytes) => {
                                match saved::read_saved(&String::from_utf8_lossy(&bytes)) {
                                    Err(e) => other(format!("no saved game ({e})")),
                                    Ok(_) => crate::files::write_whole(
                                        path,
                                        format!("{}\n", self.record()).as_bytes(),
                                    ),
                                }
                            }
                        }
                    }
                    _ => crate::files::write_whole(path, format!("{}\n", self.record()).as_bytes()),
                };
                match written {
                    Ok(()) => s.out.line(&format!("Saved to {file}.")),
                    Err(e) => s.out.line(&format!("error: cannot save to {file}: {e}")),
                }
            }
            PlayCommand::Load(file) => self.load(s, &file),
            PlayCommand::Edit(edit) => self.edit(s, edit),
            PlayCommand::Book(on) => match s.core.set_option("OwnBook", Some(&on.to_string())) {
                Ok(()) => {
                    self.config.book = on;
                    s.out
                        .line(&format!("Opening book {}.", if on { "on" } else { "off" }));
                }
                Err(e) => s.out.line(&format!("error: {e}")),
            },
            PlayCommand::Random(seed) => {
                let seed = seed.unwrap_or_else(|| now_unix() % 2_147_483_647);
                self.apply_random(s, Some(seed));
                s.out.line(&format!(
                    "The engine varies its moves (seed {seed}: 'random on {seed}' replays them)."
                ));
            }
            PlayCommand::RandomOff => {
                self.apply_random(s, None);
                s.out.line("The engine plays its best move every time.");
            }
            PlayCommand::Analyze => self.analyze(s),
        }
        true
    }

    fn human_move(&mut self, s: &mut Session<'_>, mv: Move) -> bool {
        let pos = self.position();
        // A move that waited behind a hint or an analysis comes as late as it is.
        self.check_flag(s);
        if let Some(c) = self.flag {
            s.out.line(&format!("error: {}", Self::lost_text(c)));
            return true;
        }
        if pos.board.is_game_over() {
            s.out
                .line("error: the game is over (new starts another, undo goes back)");
            return true;
        }
        if !self.human[pos.side as usize] {
            s.out.line("error: it is the engine's turn");
            return true;
        }
        if pos.play(mv).is_none() {
            let legal: Vec<String> = pos.board.legal_moves().map(|m| m.to_string()).collect();
            let why = if mv.is_pass() {
                "you have a move, so you cannot pass".to_string()
            } else if (pos.black() | pos.white()) & mv.square().map_or(0, |q| 1u64 << q.index())
                != 0
            {
                format!("{mv}: the square is taken")
            } else {
                format!("{mv}: not a legal move here")
            };
            s.out
                .line(&format!("error: {why}; legal: {}", legal.join(" ")));
            return true;
        }
        self.push_move(mv);
        self.advance(s);
        true
    }
}

impl PlayFrontEnd {
    /// Applies one typed line while the engine is idle; whether the session goes on.
    fn apply_line(&mut self, s: &mut Session<'_>, line: &str) -> bool {
        match parse(line) {
            Ok(command) => self.command(s, command),
            Err(e) => {
                s.out.line(&format!("error: {e}"));
                true
            }
        }
    }
}

impl FrontEnd for PlayFrontEnd {
    fn begin(&mut self, s: &mut Session<'_>) {
        // The engine's start is not the first turn's time.
        self.turn_started = Instant::now();
        self.start(s);
        self.advance(s);
    }

    fn line(&mut self, s: &mut Session<'_>, line: Result<String, LineError>) -> bool {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                s.out.line(&format!("error: {e}"));
                return true;
            }
        };
        // Enter alone is `stop` for a person at the keyboard; a script's blank line is nothing.
        if !self.config.interactive && line.trim().is_empty() {
            return true;
        }
        // A person's clock runs until they type: a line that comes after their time ran out
        // finds the flag fallen (the engine's flag is looked at when its move comes).
        if self.task.is_none() {
            self.check_flag(s);
        }
        if let Some(task) = &mut self.task {
            // Only stop, and quit when nothing was typed ahead of it, act at once; anything else
            // waits for the engine (a script's lines all arrive at once and keep their order).
            return match parse(&line) {
                Ok(PlayCommand::Stop) => {
                    task.stop();
                    true
                }
                Ok(PlayCommand::Quit) if self.queue.is_empty() => {
                    task.stop();
                    self.autosave(s);
                    false
                }
                _ => {
                    self.queue.push_back(line);
                    true
                }
            };
        }
        self.apply_line(s, &line)
    }

    fn report(&mut self, s: &mut Session<'_>, report: Report) -> bool {
        match report {
            Report::Game(GameEvent::Standard(SearchEvent::Done(result))) => {
                self.search_done(s, result);
                // Lines that waited for the engine, until one starts it again.
                self.drain_queue(s);
                if self.quit {
                    return false;
                }
            }
            Report::Game(GameEvent::Standard(SearchEvent::Info(info))) => self.info(s, info),
            Report::Resized(mb, result) => {
                if let Err(e) = s.core.hash_resized(mb, result) {
                    s.out.line(&format!("error: {e}"));
                }
            }
            // This front end starts no other game's search nor tool.
            Report::Game(_) | Report::Progress(..) | Report::Tool(_) | Report::Pong => {}
        }
        if self.input_ended && self.task.is_none() {
            self.autosave(s);
            return false;
        }
        true
    }

    fn end_of_input(&mut self, s: &mut Session<'_>) -> bool {
        // A script's last engine move (or hint) is answered; then the session ends.
        self.input_ended = true;
        if self.task.is_some() {
            return true;
        }
        self.autosave(s);
        false
    }

    fn stop(&mut self) {
        if let Some(task) = &mut self.task {
            task.stop();
        }
    }

    fn exit_status(&self) -> i32 {
        i32::from(self.unsaved)
    }
}

/// Where a game is saved between sessions: `$XDG_STATE_HOME/wedge/play.ggf`, else
/// `~/.local/state/wedge/play.ggf` (`None` when neither is known).
pub fn default_autosave() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("wedge").join("play.ggf"));
    }
    std::env::var_os("HOME")
        .filter(|d| !d.is_empty())
        .map(|h| PathBuf::from(h).join(".local/state/wedge/play.ggf"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::options::level_limits;

    #[test]
    fn level_notes_say_what_the_levels_do() {
        for (i, (_, note)) in LEVELS.iter().enumerate() {
            let level = i as u32 + 1;
            let limits = level_limits(level);
            match limits.solve_empties {
                Some(n) if n > 0 => {
                    assert!(
                        note.contains(&format!("last {n} squares")),
                        "{level}: {note}"
                    )
                }
                _ => assert!(!note.contains("exact in"), "{level}: {note}"),
            }
            assert_eq!(
                note.contains("random errors"),
                limits.randomness > 0,
                "{level}"
            );
        }
    }
}
