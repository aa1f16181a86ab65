//! The GTP front end (the Go Text Protocol, version 2, as Othello programs and their match scripts
//! use it): `[id] command args`, answered `=[id] result` or `?[id] error` and a blank line. Colours are
//! `b`/`w` (or `black`/`white`), moves are squares (`f5`) or `pass`. `genmove` searches on the shared
//! core, plays the move on its board and answers it; `pass` when forced. The clock comes from
//! `time_settings` and `time_left`.

use super::core::Core;
use super::{start_text_front_end, Event};
use crate::board::text::Game;
use crate::board::{Color, Move, Position};
use crate::protocol::parser::GoParams;
use std::io::{BufRead, Write};
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
    "undo",
    "time_settings",
    "time_left",
    "showboard",
    "quit",
];

/// Time settings: main time, byo-yomi period and stones (seconds).
#[derive(Clone, Copy, Debug, Default)]
struct TimeSettings {
    main: f64,
    byo: f64,
    stones: u32,
}

struct Gtp<W: Write> {
    out: W,
    core: Core,
    game: Game,
    settings: Option<TimeSettings>,
    /// Seconds left for black and white (from `time_left`).
    left: [Option<f64>; 2],
    /// The id of a `genmove` in progress and its search's stop flag.
    pending: Option<(String, Arc<AtomicBool>)>,
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
        pending: None,
    };
    let mut quitting = false;
    for event in events {
        match event {
            Event::Text(Ok(line)) => {
                if !g.command(&line) {
                    quitting = true;
                    if g.pending.is_none() {
                        return 0;
                    }
                }
            }
            Event::Text(Err(e)) => g.reply("", Err(e.message)),
            Event::Eof => {
                if g.pending.is_none() {
                    return 0;
                }
                quitting = true;
            }
            Event::Done(result) => {
                if let Some((id, _)) = g.pending.take() {
                    let mv = result.best_move.unwrap_or(Move::PASS);
                    g.play_move(mv);
                    g.reply(&id, Ok(mv.to_string()));
                }
                if quitting {
                    return 0;
                }
            }
            Event::Info(_) | Event::Line(_) => {}
            Event::Resized(Err(e)) => log::error!("{e}"),
            Event::Resized(Ok(_)) | Event::Progress(..) | Event::Tool(_) | Event::Pong => {}
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

    /// Plays `mv` on the game board (assumed legal).
    fn play_move(&mut self, mv: Move) {
        if self.game.position().play(mv).is_some() {
            self.game.moves.push(mv);
        }
    }

    /// Brings the game to `c`'s turn, inserting the pass of a side that has no move. Errors if `c`
    /// cannot be the side to move.
    fn turn_of(&mut self, c: Color) -> Result<Position, String> {
        let pos = self.game.position();
        if pos.side == c {
            return Ok(pos);
        }
        if pos.board.must_pass() {
            self.game.moves.push(Move::PASS);
            return Ok(self.game.position());
        }
        Err(format!("it is {}'s turn", pos.side))
    }

    /// Handles one line; false ends the session (after answering `quit`).
    fn command(&mut self, line: &str) -> bool {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            return true;
        }
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) {
            words.remove(0).to_string()
        } else {
            String::new()
        };
        let Some(&cmd) = words.first() else {
            self.reply(&id, Err("empty command".into()));
            return true;
        };
        let args = &words[1..];
        if self.pending.is_some() && cmd != "quit" {
            self.reply(&id, Err("busy: a genmove is running".into()));
            return true;
        }
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
            "play" => self.cmd_play(args),
            "genmove" => match args.first().and_then(|c| colour(c)) {
                None => Err("syntax error: genmove b|w".into()),
                Some(c) => match self.genmove(c) {
                    Ok(Answer::Now(mv)) => Ok(mv),
                    Ok(Answer::Searching(stop)) => {
                        self.pending = Some((id.clone(), stop));
                        return true;
                    }
                    Err(e) => Err(e),
                },
            },
            "undo" => match self.game.moves.pop() {
                Some(_) => Ok(String::new()),
                None => Err("cannot undo".into()),
            },
            "time_settings" => {
                let nums: Vec<f64> = args.iter().filter_map(|a| a.parse().ok()).collect();
                if nums.len() == 3 && nums.iter().all(|&x| x >= 0.0) {
                    self.settings = Some(TimeSettings {
                        main: nums[0],
                        byo: nums[1],
                        stones: nums[2] as u32,
                    });
                    self.left = [None, None];
                    Ok(String::new())
                } else {
                    Err("syntax error: time_settings main byo_yomi stones".into())
                }
            }
            "time_left" => match (
                args.first().and_then(|c| colour(c)),
                args.get(1).and_then(|t| t.parse::<f64>().ok()),
            ) {
                (Some(c), Some(t)) if t >= 0.0 => {
                    self.left[c as usize] = Some(t);
                    Ok(String::new())
                }
                _ => Err("syntax error: time_left b|w seconds stones".into()),
            },
            "showboard" => {
                let pos = self.game.position();
                Ok(format!("\n{}{} to move", pos.diagram(), pos.side))
            }
            "quit" => {
                self.reply(&id, Ok(String::new()));
                if let Some((_, stop)) = &self.pending {
                    stop.store(true, Ordering::Relaxed);
                }
                return false;
            }
            other => Err(format!(
                "unknown command '{}'",
                crate::board::square::truncate(other)
            )),
        };
        self.reply(&id, result);
        true
    }

    fn cmd_play(&mut self, args: &[&str]) -> Result<String, String> {
        let (Some(c), Some(m)) = (args.first().and_then(|c| colour(c)), args.get(1)) else {
            return Err("syntax error: play b|w <move>".into());
        };
        let mv: Move = m.parse().map_err(|_| format!("illegal move '{m}'"))?;
        let saved = self.game.moves.len();
        let pos = self.turn_of(c)?;
        if pos.play(mv).is_none() {
            self.game.moves.truncate(saved);
            return Err(format!("illegal move {mv}"));
        }
        self.game.moves.push(mv);
        Ok(String::new())
    }

    /// Starts a search for `c`'s move, or answers at once (a forced pass, a book move).
    fn genmove(&mut self, c: Color) -> Result<Answer, String> {
        let saved = self.game.moves.len();
        let pos = self.turn_of(c)?;
        if pos.board.is_game_over() || !pos.board.can_move() {
            if !pos.board.is_game_over() {
                self.game.moves.push(Move::PASS);
            }
            return Ok(Answer::Now("pass".into()));
        }
        let params = self.go_params(c);
        if let Some(m) = self.core.book_move(pos, &params) {
            self.game.moves.push(m.mv);
            return Ok(Answer::Now(m.mv.to_string()));
        }
        let plan = self.core.plan(pos, &params);
        match self.core.start_search(pos.board, plan) {
            Ok(stop) => Ok(Answer::Searching(stop)),
            Err(e) => {
                self.game.moves.truncate(saved);
                Err(e)
            }
        }
    }

    /// The search limits from the GTP clock: the remaining time when `time_left` was given, byo-yomi
    /// per move when the main time is 0, else one second a move.
    fn go_params(&self, c: Color) -> GoParams {
        let ms = |s: f64| (s * 1000.0) as u64;
        let mut p = GoParams::default();
        match (self.left[c as usize], self.settings) {
            (Some(left), _) => {
                let t = Some(ms(left));
                match c {
                    Color::Black => p.btime = t,
                    Color::White => p.wtime = t,
                }
            }
            (None, Some(s)) if s.main <= 0.0 && s.byo > 0.0 => {
                p.movetime = Some(ms(s.byo / f64::from(s.stones.max(1))));
            }
            (None, Some(s)) if s.main > 0.0 => {
                let t = Some(ms(s.main));
                match c {
                    Color::Black => p.btime = t,
                    Color::White => p.wtime = t,
                }
            }
            _ => p.movetime = Some(1000),
        }
        p
    }
}
