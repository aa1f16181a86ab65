//! The GTP front end (the Go Text Protocol, version 2, as Othello programs and their match scripts
//! use it). `genmove` searches on the shared core, plays the move on its board and answers it;
//! `pass` when forced. GTP has no `stop`, so every search is bounded: by the clock from
//! `time_settings` and `time_left`, else by a default time a move. Commands that arrive during a
//! search are answered after it, in order: GTP answers every command in the order it came. The
//! text is read and written by [`crate::protocol::gtp`].

use super::core::Plan;
use super::report::{GameEvent, Report, SearchEvent};
use super::session::{FrontEnd, Session};
use crate::board::ggf::{first_game, parse_ggf};
use crate::board::text::Game;
use crate::board::{Color, Move, Position};
use crate::engine::request::SearchRequest;
use crate::protocol::gtp::{
    answer, board_text, command_list, final_score_text, is_quit, parse_line, Command, Error,
    LoadError, Request, TimeSettings, GAME, NAME, PROTOCOL_VERSION,
};
use crate::protocol::LineError;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Milliseconds a move when the controller gave no time at all.
const DEFAULT_MOVE_MS: u64 = 1000;
/// Milliseconds a move at most when `set_depth` bounds the search and no time was given: the
/// depth decides, this only guarantees an answer.
const DEPTH_SAFETY_MS: u64 = 60_000;

/// A command whose answer waits for the worker: a search, or a `Hash` size being allocated.
struct Pending {
    /// The id of the command.
    id: String,
    /// What it waits for.
    waiting: Waiting,
}

/// What a pending command waits for.
enum Waiting {
    /// A search's move.
    Move {
        /// Its stop flag (set to shorten it when `quit` is queued).
        stop: Arc<AtomicBool>,
        /// `genmove` plays the move on the board; `reg_genmove` does not.
        play: bool,
        /// The side whose move it is, and when its search started: a played move's time counts
        /// on its clock.
        colour: Color,
        started: Instant,
    },
    /// The worker's word on a new table size: `=` once it is allocated, `?` when it cannot be.
    Resize,
}

impl Pending {
    /// Shortens what it waits for, if that can be shortened (a search can; an allocation not).
    fn hurry(&self) {
        if let Waiting::Move { stop, .. } = &self.waiting {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The state of a GTP session.
pub struct GtpFrontEnd {
    game: Game,
    /// Passes taken after the game ended (by `play` or `genmove`): a finished game's record has
    /// no place for them, and `undo` takes them back before the game's own moves.
    passes_after_end: usize,
    settings: Option<TimeSettings>,
    /// Black's and white's last `time_left`.
    left: [Option<TimeLeft>; 2],
    /// The time black's and white's played searches took since `time_settings` (or a new game):
    /// what is gone from the main time when no `time_left` says how much is left.
    used: [Duration; 2],
    /// Black's and white's moves played by `genmove` since then.
    played: [u32; 2],
    /// The most plies a search may go (`set_depth`; `None`: no cap).
    depth: Option<u32>,
    pending: Option<Pending>,
    /// Lines received during the pending search (or why one could not be read), answered after
    /// it in order.
    queue: VecDeque<Result<String, LineError>>,
    /// The input has ended: the session ends once no search is pending.
    input_ended: bool,
}

/// What a `time_left` said of one side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeLeft {
    /// Seconds left.
    seconds: f64,
    /// Stones to play in them (0: the rest of the game).
    stones: u32,
    /// The side's searches' time ([`GtpFrontEnd::used`]) and moves ([`GtpFrontEnd::played`])
    /// when it came: what they took since is gone from it, when the controller does not send
    /// another before the next move.
    used: Duration,
    /// See `used`.
    played: u32,
}

/// What bounds a move's search under GTP's time commands.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Limit {
    /// A clock: seconds left, seconds added after each move, moves to play in it (`None`: the
    /// rest of the game).
    Clock {
        left: f64,
        inc: f64,
        moves: Option<u32>,
    },
    /// This many seconds for the move.
    MoveTime(f64),
    /// No time given: [`DEFAULT_MOVE_MS`], or [`DEPTH_SAFETY_MS`] under `set_depth`.
    Default,
}

/// How `genmove` answers.
enum Answer {
    /// At once.
    Now(String),
    /// When the search started (at this instant) with this stop flag ends.
    Searching(Arc<AtomicBool>, Instant),
}

impl Default for GtpFrontEnd {
    fn default() -> Self {
        GtpFrontEnd::new()
    }
}

impl FrontEnd for GtpFrontEnd {
    fn line(&mut self, s: &mut Session<'_>, line: Result<String, LineError>) -> bool {
        let go_on = match (&self.pending, line) {
            (Some(p), line) => {
                // Answered in order once the search is done; a queued quit shortens it.
                if line.as_deref().is_ok_and(is_quit) {
                    p.hurry();
                }
                self.queue.push_back(line);
                true
            }
            (None, Ok(line)) => self.command(s, &line),
            (None, Err(e)) => {
                reply(s, e.leading_id().unwrap_or(""), Err(Error::Unreadable(e)));
                true
            }
        };
        self.go_on(go_on)
    }

    fn report(&mut self, s: &mut Session<'_>, report: Report) -> bool {
        let go_on = match report {
            Report::Game(GameEvent::Standard(SearchEvent::Done(result))) => {
                if let Some(Pending {
                    id,
                    waiting:
                        Waiting::Move {
                            play,
                            colour,
                            started,
                            ..
                        },
                }) = self
                    .pending
                    .take_if(|p| matches!(p.waiting, Waiting::Move { .. }))
                {
                    let mv = result.best_move.unwrap_or(Move::PASS);
                    if play {
                        self.used[colour as usize] += started.elapsed();
                        self.played[colour as usize] += 1;
                        self.play_move(mv);
                    }
                    reply(s, &id, Ok(mv.to_string()));
                }
                self.answer_queue(s)
            }
            Report::Resized(mb, result) => {
                // The core keeps the table size in use; the `set_option` that asked for it is
                // answered now (GTP has no unsolicited line, so an earlier size's failure is
                // only logged).
                let resized = s
                    .core
                    .hash_resized(mb, result)
                    .map(|()| String::new())
                    .map_err(|e| Error::Refused(e.to_string()));
                match self
                    .pending
                    .take_if(|p| matches!(p.waiting, Waiting::Resize))
                {
                    Some(p) if !s.core.resizing() => {
                        reply(s, &p.id, resized);
                        self.answer_queue(s)
                    }
                    other => {
                        self.pending = other;
                        if let Err(e) = resized {
                            log::error!("{e}");
                        }
                        true
                    }
                }
            }
            // Iterations are not shown; this front end starts no other game's search nor tool.
            Report::Game(_) | Report::Progress(..) | Report::Tool(_) | Report::Pong => true,
        };
        self.go_on(go_on)
    }

    fn end_of_input(&mut self, s: &mut Session<'_>) -> bool {
        self.input_ended = true;
        // A move is still answered, within the grace time (a clock may allow days).
        if let Some(Pending {
            waiting: Waiting::Move { stop, .. },
            ..
        }) = &self.pending
        {
            s.stop_after_grace(stop.clone());
        }
        self.go_on(true)
    }

    fn stop(&mut self) {
        if let Some(p) = &self.pending {
            p.hurry();
        }
    }
}

/// Writes the answer to the command with this id.
fn reply(s: &mut Session<'_>, id: &str, result: Result<String, Error>) {
    s.out.line(&answer(id, &result));
}

impl GtpFrontEnd {
    /// A session at the start position, with no clock and no depth cap.
    pub fn new() -> GtpFrontEnd {
        GtpFrontEnd {
            game: Game::new(Position::START),
            passes_after_end: 0,
            settings: None,
            left: [None, None],
            used: [Duration::ZERO; 2],
            played: [0; 2],
            depth: None,
            pending: None,
            queue: VecDeque::new(),
            input_ended: false,
        }
    }

    /// A game's clocks start afresh (a new game or time setting): the time and moves used are
    /// forgotten, and so is `time_left`, which told of the last game's clock.
    fn new_clocks(&mut self) {
        self.left = [None, None];
        self.used = [Duration::ZERO; 2];
        self.played = [0; 2];
    }

    /// Whether the session goes on after an event: nothing said quit, and the input is open or a
    /// search still owes its answer.
    fn go_on(&self, go_on: bool) -> bool {
        go_on && !(self.input_ended && self.pending.is_none())
    }

    /// Answers the queued lines in order until one starts a search (which is stopped at once when
    /// a `quit` waits behind it); false once one was `quit`.
    fn answer_queue(&mut self, s: &mut Session<'_>) -> bool {
        while self.pending.is_none() {
            match self.queue.pop_front() {
                None => break,
                Some(Err(e)) => reply(s, e.leading_id().unwrap_or(""), Err(Error::Unreadable(e))),
                Some(Ok(line)) => {
                    if !self.command(s, &line) {
                        return false;
                    }
                }
            }
        }
        if let Some(p) = &self.pending {
            if self.queue.iter().any(|l| l.as_deref().is_ok_and(is_quit)) {
                p.hurry();
            }
        }
        true
    }

    /// Plays `mv` on the game board (assumed legal).
    fn play_move(&mut self, mv: Move) {
        if self.game.position().play(mv).is_some() {
            self.game.moves.push(mv);
        }
    }

    /// The position with `c` to move: the current one, or the one after the pass of a side that
    /// has no move. Errors if `c` cannot be the side to move.
    fn turn_of(&self, c: Color) -> Result<Position, Error> {
        let pos = self.game.position();
        if pos.side == c {
            return Ok(pos);
        }
        if pos.board.must_pass() {
            return pos.play(Move::PASS).ok_or(Error::NotTurn(pos.side));
        }
        Err(Error::NotTurn(pos.side))
    }

    /// Brings the game to `c`'s turn, inserting the pass of a side that has no move.
    fn take_turn(&mut self, c: Color) -> Result<Position, Error> {
        let pos = self.turn_of(c)?;
        if pos != self.game.position() {
            self.game.moves.push(Move::PASS);
        }
        Ok(pos)
    }

    /// Handles one line; false ends the session (after answering `quit`).
    fn command(&mut self, s: &mut Session<'_>, line: &str) -> bool {
        let Some(Request { id, command }) = parse_line(line) else {
            return true;
        };
        let result = match command {
            Err(e) => Err(e),
            Ok(Command::Quit) => {
                reply(s, &id, Ok(String::new()));
                return false;
            }
            Ok(Command::GenMove { colour, play }) => match self.genmove(s, colour, play) {
                Ok(Answer::Now(mv)) => Ok(mv),
                Ok(Answer::Searching(stop, started)) => {
                    if self.input_ended {
                        s.stop_after_grace(stop.clone());
                    }
                    self.pending = Some(Pending {
                        id,
                        waiting: Waiting::Move {
                            stop,
                            play,
                            colour,
                            started,
                        },
                    });
                    return true;
                }
                Err(e) => Err(e),
            },
            Ok(command) => {
                let result = self.apply(s, command);
                // A new `Hash` size is answered once the worker has allocated it (or could not).
                if result.is_ok() && s.core.resizing() {
                    self.pending = Some(Pending {
                        id,
                        waiting: Waiting::Resize,
                    });
                    return true;
                }
                result
            }
        };
        reply(s, &id, result);
        true
    }

    /// Applies a command that answers at once; the text of the answer or why it is refused.
    fn apply(&mut self, s: &mut Session<'_>, command: Command) -> Result<String, Error> {
        let done = Ok(String::new());
        match command {
            Command::ProtocolVersion => Ok(PROTOCOL_VERSION.into()),
            Command::Name => Ok(NAME.into()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(known) => Ok(known.to_string()),
            Command::ListCommands => Ok(command_list()),
            Command::BoardSize | Command::Komi | Command::SetGame => done,
            Command::ClearBoard => {
                self.game = Game::new(Position::START);
                self.passes_after_end = 0;
                self.new_clocks();
                s.core.new_game();
                done
            }
            Command::ListGames => Ok(GAME.into()),
            Command::Play(c, mv) => self.play(c, mv).and(done),
            Command::Undo if self.passes_after_end > 0 => {
                self.passes_after_end -= 1;
                done
            }
            Command::Undo => match self.game.moves.pop() {
                Some(_) => done,
                None => Err(Error::CannotUndo),
            },
            Command::FinalScore => self.final_score(),
            Command::TimeSettings(settings) => {
                // A new setting forgets `time_left` and the time used.
                self.settings = Some(settings);
                self.new_clocks();
                done
            }
            Command::TimeLeft {
                colour,
                seconds,
                stones,
            } => {
                self.left[colour as usize] = Some(TimeLeft {
                    seconds,
                    stones,
                    used: self.used[colour as usize],
                    played: self.played[colour as usize],
                });
                done
            }
            Command::ShowBoard => Ok(board_text(self.game.position())),
            Command::LoadGgf { path, move_number } => {
                self.load_ggf(s, &path, move_number).and(done)
            }
            Command::SetOption(text) => s
                .core
                .set_option_text(&text)
                .map_err(|e| Error::Refused(e.in_command("set_option")))
                .and(done),
            Command::SetDepth(depth) => {
                self.depth = depth;
                done
            }
            // Answered by `command` itself: `quit` ends the session, `genmove` may wait.
            Command::Quit | Command::GenMove { .. } => done,
        }
    }

    /// `play c mv`: `c`'s move (after the pass of a side that has no move).
    fn play(&mut self, c: Color, mv: Move) -> Result<(), Error> {
        // A finished game has no turn: either colour's pass is taken, as `genmove` answers one
        // (a controller relays it to the other engine); any other move is refused.
        if self.game.position().board.is_game_over() {
            return if mv == Move::PASS {
                self.passes_after_end += 1;
                Ok(())
            } else {
                Err(Error::Over)
            };
        }
        let pos = self.turn_of(c)?;
        if pos.play(mv).is_none() {
            return Err(Error::Illegal(mv));
        }
        self.take_turn(c)?;
        self.game.moves.push(mv);
        Ok(())
    }

    /// `final_score`: the result of a finished game (the empty squares go to the winner). A game
    /// still going has no final score: an error.
    fn final_score(&self) -> Result<String, Error> {
        let pos = self.game.position();
        if !pos.board.is_game_over() {
            return Err(Error::NotOver);
        }
        Ok(final_score_text(pos.black_final_score()))
    }

    /// `loadggf FILE [move_number]`: the first game of a GGF file, replayed up to the position
    /// before move `move_number` (1 = the set-up position; passes count as moves), or to its end.
    fn load_ggf(
        &mut self,
        s: &mut Session<'_>,
        path: &str,
        move_number: Option<usize>,
    ) -> Result<(), Error> {
        let cannot = |reason| Error::CannotLoad {
            path: path.to_string(),
            reason,
        };
        let bytes = crate::files::read_regular(Path::new(path), crate::files::MAX_TEXT_BYTES)
            .map_err(|e| cannot(LoadError::File(e.to_string())))?;
        let text = String::from_utf8(bytes).map_err(|_| cannot(LoadError::NotUtf8))?;
        // The first game, from its '(;' (text before it may say anything).
        let Some(from) = text.find("(;") else {
            return Err(cannot(LoadError::NoGame));
        };
        let index = text[..from].matches('\n').count();
        // Only the first game is read: a broken later one does not refuse it.
        let first = first_game(&text[from..])
            .map_err(|e| cannot(LoadError::Ggf(index + 1, e.to_string())))?;
        let mut game =
            parse_ggf(first).map_err(|e| cannot(LoadError::Ggf(index + 1, e.to_string())))?;
        if let Some(n) = move_number {
            game.moves.truncate(n - 1);
        }
        self.game = game;
        self.passes_after_end = 0;
        self.new_clocks();
        s.core.new_game();
        Ok(())
    }

    /// Starts a search for `c`'s move, or answers at once (a forced pass, a book move). `play`:
    /// the move goes on the board (`genmove`), else the board stays as it is (`reg_genmove`).
    fn genmove(&mut self, s: &mut Session<'_>, c: Color, play: bool) -> Result<Answer, Error> {
        // A finished game has no turn: either colour passes.
        if self.game.position().board.is_game_over() {
            if play {
                self.passes_after_end += 1;
            }
            return Ok(Answer::Now(Move::PASS.to_string()));
        }
        let pos = self.turn_of(c)?;
        if !pos.board.can_move() {
            if play {
                self.take_turn(c)?;
                self.game.moves.push(Move::PASS);
            }
            return Ok(Answer::Now(Move::PASS.to_string()));
        }
        let params = self.go_params(c);
        if let Some(m) = s.core.book_move(pos, &params) {
            if play {
                self.take_turn(c)?;
                self.game.moves.push(m.mv);
            }
            return Ok(Answer::Now(m.mv.to_string()));
        }
        let plan = self.plan(s, pos, &params);
        let started = Instant::now();
        let stop = s
            .core
            .start_search(pos, plan.limits, plan.hard)
            .map_err(|e| Error::Refused(e.to_string()))?;
        if play {
            // The move itself is played when the search answers.
            self.take_turn(c)?;
        }
        Ok(Answer::Searching(stop, started))
    }

    /// The plan for `params`, capped at the `set_depth` depth when there is one.
    fn plan(&self, s: &Session<'_>, pos: Position, params: &SearchRequest) -> Plan {
        match self.depth {
            Some(d) => s.core.plan_capped(pos, params, d),
            None => s.core.plan(pos, params),
        }
    }

    /// What bounds `c`'s move. A `time_left` rules while it lasts: a byo-yomi period (stones >
    /// 0) for its stones, its seconds less what `c`'s searches took since; main time (stones 0)
    /// until those seconds are gone. Then (or with none) `time_settings`: while `c`'s searches
    /// have left some of the main time and no `time_left` has said it is over, the rest as a
    /// clock; then the byo-yomi period shared by its stones. A byo-yomi after main time adds a
    /// stone's share of its period to the main time and counts it as an increment (the period
    /// is there for the moves once the main time is gone). With no time (none given, or GTP's
    /// "no time limit": byo-yomi time with 0 stones), the default.
    fn limit(&self, c: Color) -> Limit {
        let (used, played) = (self.used[c as usize], self.played[c as usize]);
        let stone = self
            .settings
            .filter(|s| s.byo > 0.0 && s.stones > 0)
            .map_or(0.0, |s| s.byo / f64::from(s.stones));
        if let Some(l) = self.left[c as usize] {
            let done = played.saturating_sub(l.played);
            let rest = (l.seconds - used.saturating_sub(l.used).as_secs_f64()).max(0.0);
            if l.stones > done {
                return Limit::Clock {
                    left: rest,
                    inc: 0.0,
                    moves: Some(l.stones - done),
                };
            }
            if l.stones == 0 && (rest > 0.0 || stone == 0.0) {
                return Limit::Clock {
                    left: rest + stone,
                    inc: stone,
                    moves: None,
                };
            }
            // Its main time gone or its period played: the settings' byo-yomi, if any.
            if stone > 0.0 {
                return Limit::MoveTime(stone);
            }
        }
        match self.settings {
            // Byo-yomi time with no stones is GTP's "no time limit", whatever the main time.
            Some(s)
                if s.main > 0.0
                    && !(s.byo > 0.0 && s.stones == 0)
                    && (s.main > used.as_secs_f64() || s.byo == 0.0) =>
            {
                Limit::Clock {
                    left: (s.main - used.as_secs_f64()).max(0.0) + stone,
                    inc: stone,
                    moves: None,
                }
            }
            _ if stone > 0.0 => Limit::MoveTime(stone),
            _ => Limit::Default,
        }
    }

    /// The time limits for `c`'s move, as a search request ([`GtpFrontEnd::limit`]).
    fn go_params(&self, c: Color) -> SearchRequest {
        let ms = |s: f64| (s * 1000.0) as u64;
        let mut p = SearchRequest::default();
        let clock = match self.limit(c) {
            Limit::Clock { left, inc, moves } => {
                p.inc_ms[c as usize] = Some(ms(inc));
                Some((ms(left), moves))
            }
            Limit::MoveTime(seconds) => {
                p.movetime_ms = Some(ms(seconds));
                None
            }
            Limit::Default => {
                p.movetime_ms = Some(match self.depth {
                    Some(_) => DEPTH_SAFETY_MS,
                    None => DEFAULT_MOVE_MS,
                });
                None
            }
        };
        if let Some((t, moves)) = clock {
            match c {
                Color::Black => p.clock_ms[0] = Some(t),
                Color::White => p.clock_ms[1] = Some(t),
            }
            p.moves_to_go = moves;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byo_yomi_time_without_stones_is_no_time_limit() {
        let mut gtp = GtpFrontEnd::new();
        let settings = |main, byo, stones| Some(TimeSettings { main, byo, stones });
        // GTP's "no time limit", whatever the main time: the default time a move.
        gtp.settings = settings(600.0, 5.0, 0);
        let p = gtp.go_params(Color::Black);
        assert_eq!(p.movetime_ms, Some(DEFAULT_MOVE_MS));
        assert_eq!(p.clock_ms, [None, None]);
        // Main time with a byo-yomi of stones to come: the main time is the clock, a stone's
        // share of the period added to it and as an increment.
        gtp.settings = settings(600.0, 10.0, 5);
        let p = gtp.go_params(Color::White);
        assert_eq!((p.movetime_ms, p.clock_ms), (None, [None, Some(602_000)]));
        assert_eq!(p.inc_ms, [None, Some(2000)]);
        // Main time alone.
        gtp.settings = settings(60.0, 0.0, 0);
        let p = gtp.go_params(Color::Black);
        assert_eq!((p.movetime_ms, p.clock_ms), (None, [Some(60_000), None]));
    }

    #[test]
    fn the_main_time_is_used_up_by_the_moves_played() {
        let mut gtp = GtpFrontEnd::new();
        gtp.settings = Some(TimeSettings {
            main: 60.0,
            byo: 0.0,
            stones: 0,
        });
        gtp.used = [Duration::from_secs(45), Duration::from_secs(10)];
        let p = gtp.go_params(Color::Black);
        assert_eq!(p.clock_ms, [Some(15_000), None]);
        let p = gtp.go_params(Color::White);
        assert_eq!(p.clock_ms, [None, Some(50_000)]);
        // Gone: nothing left, not the whole main time again.
        gtp.used[0] = Duration::from_secs(61);
        assert_eq!(gtp.go_params(Color::Black).clock_ms, [Some(0), None]);
        // With byo-yomi after it, its period shared by its stones.
        gtp.settings = Some(TimeSettings {
            main: 60.0,
            byo: 10.0,
            stones: 5,
        });
        let p = gtp.go_params(Color::Black);
        assert_eq!((p.movetime_ms, p.clock_ms), (Some(2000), [None, None]));
        // `time_left` says what is left, whatever was used before it; what is used after it is
        // gone from it until the next one.
        // (In the byo-yomi of 10 s for 5 stones a `time_left` of the main time gets a stone's
        // share added.)
        gtp.left[0] = Some(TimeLeft {
            seconds: 30.0,
            stones: 0,
            used: gtp.used[0],
            played: 0,
        });
        assert_eq!(gtp.go_params(Color::Black).clock_ms, [Some(32_000), None]);
        gtp.used[0] += Duration::from_secs(12);
        assert_eq!(gtp.go_params(Color::Black).clock_ms, [Some(20_000), None]);
        // Its seconds gone, the byo-yomi: the main time is over, whatever the settings say.
        gtp.used[0] += Duration::from_secs(20);
        let p = gtp.go_params(Color::Black);
        assert_eq!((p.clock_ms, p.movetime_ms), ([None, None], Some(2000)));
    }

    #[test]
    fn a_time_left_in_byo_yomi_lasts_for_its_stones_and_a_new_game_forgets_it() {
        let mut gtp = GtpFrontEnd::new();
        gtp.settings = Some(TimeSettings {
            main: 0.0,
            byo: 10.0,
            stones: 5,
        });
        gtp.left[1] = Some(TimeLeft {
            seconds: 6.0,
            stones: 3,
            used: Duration::ZERO,
            played: 0,
        });
        let p = gtp.go_params(Color::White);
        assert_eq!((p.clock_ms, p.moves_to_go), ([None, Some(6000)], Some(3)));
        gtp.used[1] = Duration::from_secs(1);
        gtp.played[1] = 2;
        let p = gtp.go_params(Color::White);
        assert_eq!((p.clock_ms, p.moves_to_go), ([None, Some(5000)], Some(1)));
        // Its stones played, a new period of the settings' byo-yomi.
        gtp.played[1] = 3;
        let p = gtp.go_params(Color::White);
        assert_eq!((p.clock_ms, p.movetime_ms), ([None, None], Some(2000)));
        // With main time in the settings too: the period was the byo-yomi's, so the main time is
        // over, however little of it this side's searches used.
        gtp.settings = Some(TimeSettings {
            main: 60.0,
            byo: 10.0,
            stones: 5,
        });
        let p = gtp.go_params(Color::White);
        assert_eq!((p.clock_ms, p.movetime_ms), ([None, None], Some(2000)));
        // A new game starts from the settings: main time as a clock, a stone's share added.
        gtp.new_clocks();
        assert_eq!(gtp.left, [None, None]);
        assert_eq!((gtp.used, gtp.played), ([Duration::ZERO; 2], [0; 2]));
        let p = gtp.go_params(Color::White);
        assert_eq!((p.clock_ms, p.movetime_ms), ([None, Some(62_000)], None));
    }
}
