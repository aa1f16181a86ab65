//! The GTP front end (the Go Text Protocol, version 2, as Othello programs and their match scripts
//! use it): `[id] command args`, answered `=[id] result` or `?[id] error` and a blank line. Colours are
//! `b`/`w` (or `black`/`white`), moves are squares (`f5`) or `pass`. `genmove` searches on the shared
//! core, plays the move on its board and answers it; `pass` when forced. GTP has no `stop`, so every
//! search is bounded: by the clock from `time_settings` and `time_left`, else by a default time a
//! move. Commands that arrive during a search are answered after it, in order: GTP answers every
//! command in the order it came.

use super::core::{Core, Plan};
use super::{start_text_front_end, Event};
use crate::board::ggf::parse_ggf;
use crate::board::square::truncate;
use crate::board::text::Game;
use crate::board::{Color, Move, Position};
use crate::protocol::parser::GoParams;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The commands this front end knows, for `list_commands` and `known_command`.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "final_score",
    "time_settings",
    "time_left",
    "showboard",
    "loadggf",
    "set_game",
    "list_games",
    "set_option",
    "set_depth",
    "quit",
];

/// The longest time accepted from `time_settings` and `time_left`, in seconds (about 115 days):
/// more is a mistake, not a clock.
const MAX_SECONDS: f64 = 1e7;
/// Milliseconds a move when the controller gave no time at all.
const DEFAULT_MOVE_MS: u64 = 1000;
/// Milliseconds a move at most when `set_depth` bounds the search and no time was given: the
/// depth decides, this only guarantees an answer.
const DEPTH_SAFETY_MS: u64 = 60_000;

/// Time settings: main time, byo-yomi period (seconds) and stones per period.
#[derive(Clone, Copy, Debug, Default)]
struct TimeSettings {
    main: f64,
    byo: f64,
    stones: u32,
}

/// A search in progress and what to do with its move.
struct Pending {
    /// The id of the command that started it.
    id: String,
    /// Its stop flag (set to shorten it when `quit` is queued).
    stop: Arc<AtomicBool>,
    /// `genmove` plays the move on the board; `reg_genmove` does not.
    play: bool,
}

struct Gtp<W: Write> {
    out: W,
    core: Core,
    game: Game,
    settings: Option<TimeSettings>,
    /// Seconds left and stones to play in them for black and white (from `time_left`).
    left: [Option<(f64, u32)>; 2],
    /// The most plies a search may go (`set_depth`; `None`: no cap).
    depth: Option<u32>,
    pending: Option<Pending>,
    /// Lines received during the pending search (or why one could not be read), answered after
    /// it in order.
    queue: VecDeque<Result<String, String>>,
}

/// How `genmove` answers.
enum Answer {
    /// At once.
    Now(String),
    /// When the search started with this stop flag ends.
    Searching(Arc<AtomicBool>),
}

fn colour(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A time in seconds from GTP: finite, not negative and at most [`MAX_SECONDS`].
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() && (0.0..=MAX_SECONDS).contains(&t) => Ok(t),
        _ => Err(format!(
            "syntax error: '{}' is not a time in seconds (0 to {MAX_SECONDS})",
            truncate(text)
        )),
    }
}

/// A number of stones from GTP: an integer, not negative.
fn stones(text: &str) -> Result<u32, String> {
    text.parse::<u32>().map_err(|_| {
        format!(
            "syntax error: '{}' is not a number of stones",
            truncate(text)
        )
    })
}

/// Splits a line into its id (empty when none) and its words, after GTP's preprocessing: control
/// characters dropped, tabs made spaces, a comment (`#` to the end) removed. `None` for a line
/// with nothing left.
fn split_line(line: &str) -> Option<(String, Vec<String>)> {
    let clean: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return None;
    }
    let id = if words[0].bytes().all(|b| b.is_ascii_digit()) {
        words.remove(0)
    } else {
        String::new()
    };
    Some((id, words))
}

/// Whether `line` is a `quit` command.
fn is_quit(line: &str) -> bool {
    split_line(line).is_some_and(|(_, words)| words.first().is_some_and(|w| w == "quit"))
}

/// Runs the GTP front end until `quit` or the end of the input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write) -> i32 {
    let Some((core, events)) = start_text_front_end(input) else {
        return 1;
    };
    let mut g = Gtp {
        out: output,
        core,
        game: Game::new(Position::START),
        settings: None,
        left: [None, None],
        depth: None,
        pending: None,
        queue: VecDeque::new(),
    };
    let mut input_ended = false;
    for event in events {
        match event {
            Event::Text(Ok(line)) => {
                if let Some(p) = &g.pending {
                    // Answered in order once the search is done; a queued quit shortens it.
                    if is_quit(&line) {
                        p.stop.store(true, Ordering::Relaxed);
                    }
                    g.queue.push_back(Ok(line));
                } else if !g.command(&line) {
                    return 0;
                }
            }
            Event::Text(Err(e)) => {
                if g.pending.is_some() {
                    g.queue.push_back(Err(e.message));
                } else {
                    g.reply("", Err(e.message));
                }
            }
            Event::Eof => input_ended = true,
            Event::Done(result) => {
                if let Some(p) = g.pending.take() {
                    let mv = result.best_move.unwrap_or(Move::PASS);
                    if p.play {
                        g.play_move(mv);
                    }
                    g.reply(&p.id, Ok(mv.to_string()));
                }
                if !g.answer_queue() {
                    return 0;
                }
            }
            Event::Info(_) | Event::Line(_) => {}
            Event::Resized(_, Err(e)) => log::error!("{e}"),
            Event::Resized(_, Ok(_)) | Event::Progress(..) | Event::Tool(_) | Event::Pong => {}
        }
        if input_ended && g.pending.is_none() {
            return 0;
        }
    }
    0
}

impl<W: Write> Gtp<W> {
    fn reply(&mut self, id: &str, result: Result<String, String>) {
        let text = match result {
            Ok(r) if r.is_empty() => format!("={id}\n"),
            Ok(r) => format!("={id} {r}\n"),
            Err(e) => format!("?{id} {e}\n"),
        };
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    /// Answers the queued lines in order until one starts a search (which is stopped at once when
    /// a `quit` waits behind it); false once one was `quit`.
    fn answer_queue(&mut self) -> bool {
        while self.pending.is_none() {
            match self.queue.pop_front() {
                None => break,
                Some(Err(error)) => self.reply("", Err(error)),
                Some(Ok(line)) => {
                    if !self.command(&line) {
                        return false;
                    }
                }
            }
        }
        if let Some(p) = &self.pending {
            if self
                .queue
                .iter()
                .any(|l| l.as_ref().is_ok_and(|l| is_quit(l)))
            {
                p.stop.store(true, Ordering::Relaxed);
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
    fn turn_of(&self, c: Color) -> Result<Position, String> {
        let pos = self.game.position();
        if pos.side == c {
            return Ok(pos);
        }
        if pos.board.must_pass() {
            return pos
                .play(Move::PASS)
                .ok_or_else(|| format!("it is {}'s turn", pos.side));
        }
        Err(format!("it is {}'s turn", pos.side))
    }

    /// Brings the game to `c`'s turn, inserting the pass of a side that has no move.
    fn take_turn(&mut self, c: Color) -> Result<Position, String> {
        let pos = self.turn_of(c)?;
        if pos != self.game.position() {
            self.game.moves.push(Move::PASS);
        }
        Ok(pos)
    }

    /// Handles one line; false ends the session (after answering `quit`).
    fn command(&mut self, line: &str) -> bool {
        let Some((id, words)) = split_line(line) else {
            return true;
        };
        let Some(cmd) = words.first().map(String::as_str) else {
            self.reply(&id, Err("empty command".into()));
            return true;
        };
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let result: Result<String, String> = match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("wedge".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(args
                .first()
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => match args.first().and_then(|s| s.parse::<u32>().ok()) {
                Some(8) => Ok(String::new()),
                _ => Err("unacceptable size (only 8)".into()),
            },
            "clear_board" => {
                self.game = Game::new(Position::START);
                self.core.new_game();
                Ok(String::new())
            }
            "komi" => Ok(String::new()),
            "set_game" => match args.first() {
                Some(g) if g.eq_ignore_ascii_case("othello") => Ok(String::new()),
                _ => Err("unsupported game (only Othello)".into()),
            },
            "list_games" => Ok("Othello".into()),
            "play" => self.cmd_play(&args),
            "genmove" | "reg_genmove" => match args.first().and_then(|c| colour(c)) {
                None => Err(format!("syntax error: {cmd} b|w")),
                Some(c) => {
                    let play = cmd == "genmove";
                    match self.genmove(c, play) {
                        Ok(Answer::Now(mv)) => Ok(mv),
                        Ok(Answer::Searching(stop)) => {
                            self.pending = Some(Pending { id, stop, play });
                            return true;
                        }
                        Err(e) => Err(e),
                    }
                }
            },
            "undo" => match self.game.moves.pop() {
                Some(_) => Ok(String::new()),
                None => Err("cannot undo".into()),
            },
            "final_score" => self.final_score(),
            "time_settings" => self.time_settings(&args),
            "time_left" => self.time_left(&args),
            "showboard" => {
                let pos = self.game.position();
                Ok(format!("\n{}{} to move", pos.diagram(), pos.side))
            }
            "loadggf" => self.load_ggf(&args),
            "set_option" => {
                let text = args.join(" ");
                self.core
                    .set_option_text(&text)
                    .map(|()| String::new())
                    .map_err(|e| e.to_string())
            }
            "set_depth" => match args.first().and_then(|d| d.parse::<u32>().ok()) {
                Some(0) if args.len() == 1 => {
                    self.depth = None;
                    Ok(String::new())
                }
                Some(d) if args.len() == 1 && d <= 60 => {
                    self.depth = Some(d);
                    Ok(String::new())
                }
                _ => Err("syntax error: set_depth <plies 0..60> (0: no cap)".into()),
            },
            "quit" => {
                self.reply(&id, Ok(String::new()));
                return false;
            }
            other => Err(format!("unknown command '{}'", truncate(other))),
        };
        self.reply(&id, result);
        true
    }

    fn cmd_play(&mut self, args: &[&str]) -> Result<String, String> {
        let (Some(c), Some(m)) = (args.first().and_then(|c| colour(c)), args.get(1)) else {
            return Err("syntax error: play b|w <move>".into());
        };
        let mv: Move = m.parse().map_err(|_| format!("illegal move '{m}'"))?;
        let pos = self.turn_of(c)?;
        if pos.play(mv).is_none() {
            return Err(format!("illegal move {mv}"));
        }
        self.take_turn(c)?;
        self.game.moves.push(mv);
        Ok(String::new())
    }

    /// `final_score`: the result of a finished game, `B+n`, `W+n` or `0` (the empty squares go to
    /// the winner). A game still going has no final score: an error.
    fn final_score(&self) -> Result<String, String> {
        let pos = self.game.position();
        if !pos.board.is_game_over() {
            return Err("cannot score: the game is not over".into());
        }
        Ok(match pos.black_final_score() {
            0 => "0".to_string(),
            s if s > 0 => format!("B+{s}"),
            s => format!("W+{}", -s),
        })
    }

    /// `time_settings main byo_yomi stones`, seconds; a new setting forgets `time_left`.
    fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let [main, byo, n] = args else {
            return Err("syntax error: time_settings main byo_yomi stones".into());
        };
        self.settings = Some(TimeSettings {
            main: seconds(main)?,
            byo: seconds(byo)?,
            stones: stones(n)?,
        });
        self.left = [None, None];
        Ok(String::new())
    }

    /// `time_left colour seconds [stones]`: the clock of one side (stones > 0: a byo-yomi period
    /// with that many moves to play in the time).
    fn time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let syntax = || "syntax error: time_left b|w seconds stones".to_string();
        let c = args.first().and_then(|c| colour(c)).ok_or_else(syntax)?;
        let t = seconds(args.get(1).ok_or_else(syntax)?)?;
        let n = args.get(2).map_or(Ok(0), |n| stones(n))?;
        if args.len() > 3 {
            return Err(syntax());
        }
        self.left[c as usize] = Some((t, n));
        Ok(String::new())
    }

    /// `loadggf FILE [move_number]`: the first game of a GGF file, replayed up to the position
    /// before move `move_number` (1 = the set-up position; passes count as moves), or to its end.
    fn load_ggf(&mut self, args: &[&str]) -> Result<String, String> {
        let (path, number) = match args {
            [path] => (*path, None),
            [path, n] => match n.parse::<usize>() {
                Ok(n) if n >= 1 => (*path, Some(n)),
                _ => {
                    return Err(format!(
                        "syntax error: '{}' is not a move number",
                        truncate(n)
                    ))
                }
            },
            _ => return Err("syntax error: loadggf <file> [move_number]".into()),
        };
        let bytes = crate::files::read_regular(Path::new(path), crate::files::MAX_TEXT_BYTES)
            .map_err(|e| format!("cannot load '{path}': {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("cannot load '{path}': the file is not UTF-8 text"))?;
        // Games are one to a line; the first line that opens one is read, to its end.
        let Some((index, first)) = text.lines().enumerate().find(|(_, l)| l.contains("(;")) else {
            return Err(format!("cannot load '{path}': no GGF game in it"));
        };
        let mut record = first.to_string();
        if !first.contains(";)") {
            for l in text.lines().skip(index + 1) {
                record.push_str(l);
                if l.contains(";)") {
                    break;
                }
            }
        }
        let mut game = parse_ggf(&record)
            .map_err(|e| format!("cannot load '{path}': line {}: {e}", index + 1))?;
        if let Some(n) = number {
            game.moves.truncate(n - 1);
        }
        self.game = game;
        self.core.new_game();
        Ok(String::new())
    }

    /// Starts a search for `c`'s move, or answers at once (a forced pass, a book move). `play`:
    /// the move goes on the board (`genmove`), else the board stays as it is (`reg_genmove`).
    fn genmove(&mut self, c: Color, play: bool) -> Result<Answer, String> {
        let pos = self.turn_of(c)?;
        if pos.board.is_game_over() || !pos.board.can_move() {
            if play && !pos.board.is_game_over() {
                self.take_turn(c)?;
                self.game.moves.push(Move::PASS);
            }
            return Ok(Answer::Now("pass".into()));
        }
        let params = self.go_params(c);
        if let Some(m) = self.core.book_move(pos, &params) {
            if play {
                self.take_turn(c)?;
                self.game.moves.push(m.mv);
            }
            return Ok(Answer::Now(m.mv.to_string()));
        }
        let plan = self.plan(pos, &params);
        let stop = self.core.start_search(pos.board, plan)?;
        if play {
            // The move itself is played when the search answers.
            self.take_turn(c)?;
        }
        Ok(Answer::Searching(stop))
    }

    /// The plan for `params`, capped at the `set_depth` depth when there is one.
    fn plan(&self, pos: Position, params: &GoParams) -> Plan {
        match self.depth {
            Some(d) => self.core.plan_capped(pos, params, d),
            None => self.core.plan(pos, params),
        }
    }

    /// The time limits for `c`'s move: the clock from `time_left` (with stones, the moves to play
    /// in it); else from `time_settings`: the main time as a clock, or the byo-yomi period shared
    /// by its stones; else (no time given, or GTP's "no time limit": byo-yomi time with 0 stones)
    /// [`DEFAULT_MOVE_MS`] a move, or [`DEPTH_SAFETY_MS`] when `set_depth` bounds the search.
    fn go_params(&self, c: Color) -> GoParams {
        let ms = |s: f64| (s * 1000.0) as u64;
        let mut p = GoParams::default();
        let clock = match (self.left[c as usize], self.settings) {
            (Some((left, n)), _) => Some((ms(left), (n > 0).then_some(n))),
            (None, Some(s)) if s.main > 0.0 => Some((ms(s.main), None)),
            (None, Some(s)) if s.byo > 0.0 && s.stones > 0 => {
                p.movetime = Some(ms(s.byo / f64::from(s.stones)));
                None
            }
            _ => {
                p.movetime = Some(match self.depth {
                    Some(_) => DEPTH_SAFETY_MS,
                    None => DEFAULT_MOVE_MS,
                });
                None
            }
        };
        if let Some((t, moves)) = clock {
            match c {
                Color::Black => p.btime = Some(t),
                Color::White => p.wtime = Some(t),
            }
            p.movestogo = moves;
        }
        p
    }
}
