//! The game's history for `wedge play`: taking moves back and replaying them, setting up a
//! position, loading and saving games (the autosave included).

use super::{read_saved, PlayFrontEnd};
use crate::board::ggf::{now_unix, GgfGame};
use crate::board::text::Game;
use crate::board::{Color, Position};
use crate::engine::session::Session;
use crate::protocol::play::{Edit, TimeSetting};
use std::time::Instant;

impl PlayFrontEnd {
    pub(super) fn undo(&mut self, s: &mut Session<'_>, n: Option<usize>) {
        // Passes alone are not moves to take back: the forced pass would only be played again.
        if self.game.moves.iter().all(|m| m.is_pass()) {
            s.out.line("error: there is no move to take back");
            return;
        }
        // A bare undo goes back to the person's previous turn: before their first move there is
        // none, and taking back the engine's opening move would only have it play again.
        if n.is_none() && self.human.contains(&true) && !self.human_has_moved() {
            s.out
                .line("error: you have made no move to take back (undo N takes back N moves)");
            return;
        }
        let mut taken = 0;
        while let Some(mv) = self.game.moves.pop() {
            let took = self.times.pop().unwrap_or(0);
            self.redo.push((mv, took));
            if !mv.is_pass() {
                taken += 1;
            }
            let pos = self.position();
            let done = match n {
                Some(n) => taken >= n,
                // Back to a human's turn, one of their moves undone.
                None => {
                    self.human[pos.side as usize] && !mv.is_pass() || !self.human.contains(&true)
                }
            };
            if done && !self.position().board.must_pass() {
                break;
            }
        }
        self.over_announced = false;
        self.dirty = true;
        self.turn_started = Instant::now();
        // The moves' time comes back with them: a game lost on time plays on.
        self.flag = None;
        s.out.line(&format!("Took back {taken} move(s)."));
        self.advance(s);
    }

    /// Whether a person has made a move (not a pass) in the game.
    fn human_has_moved(&self) -> bool {
        let mut pos = self.game.start;
        for &m in &self.game.moves {
            if self.human[pos.side as usize] && !m.is_pass() {
                return true;
            }
            match pos.play(m) {
                Some(next) => pos = next,
                None => return false,
            }
        }
        false
    }

    pub(super) fn redo_moves(&mut self, s: &mut Session<'_>, n: Option<usize>) {
        if let Some(c) = self.flag {
            s.out.line(&format!("error: {}", Self::lost_text(c)));
            return;
        }
        if self.redo.is_empty() {
            s.out.line("error: there is no move to replay");
            return;
        }
        let mut played = 0;
        // Enough replayed: `n` moves, or alone (undoing a bare `undo`) forward to a human's turn.
        let done = |front: &PlayFrontEnd, played: usize| match n {
            Some(n) => played >= n,
            None => {
                played >= 1
                    && (front.human[front.position().side as usize] || !front.human.contains(&true))
            }
        };
        // Each replayed move is checked: a stack that no longer fits the game is dropped.
        let replay = |front: &mut PlayFrontEnd| -> bool {
            let Some(&(mv, took)) = front.redo.last() else {
                return false;
            };
            if front.position().play(mv).is_none() {
                front.redo.clear();
                return false;
            }
            front.redo.pop();
            front.game.moves.push(mv);
            front.times.push(took);
            front.dirty = true;
            true
        };
        while !done(self, played) && replay(self) {
            if self.game.moves.last().is_some_and(|m| !m.is_pass()) {
                played += 1;
            }
        }
        // Passes that follow are replayed too.
        while self.redo.last().is_some_and(|(m, _)| m.is_pass()) && replay(self) {}
        self.turn_started = Instant::now();
        s.out.line(&format!("Replayed {played} move(s)."));
        self.advance(s);
    }

    pub(super) fn edit(&mut self, s: &mut Session<'_>, edit: Edit) {
        let pos = self.position();
        let (mut black, mut white, mut side) = (pos.black(), pos.white(), pos.side);
        match edit {
            Edit::Clear => {
                black = Position::START.black();
                white = Position::START.white();
            }
            Edit::Side(c) => side = c,
            Edit::Place(colour, squares) => {
                for sq in squares {
                    let bit = 1u64 << sq.index();
                    black &= !bit;
                    white &= !bit;
                    match colour {
                        Some(Color::Black) => black |= bit,
                        Some(Color::White) => white |= bit,
                        None => {}
                    }
                }
            }
        }
        let Ok(edited) = Position::from_colors(black, white, side) else {
            s.out
                .line("error: the edit would put two discs on one square");
            return;
        };
        self.start_from(
            s,
            (Game::new(edited), Vec::new(), None),
            "The game now starts from this position.",
        );
    }

    pub(super) fn load(&mut self, s: &mut Session<'_>, file: &str) {
        let text = match crate::files::read_regular(
            std::path::Path::new(file),
            crate::files::MAX_TEXT_BYTES,
        ) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                s.out.line(&format!("error: cannot load {file}: {e}"));
                return;
            }
        };
        match read_saved(&text) {
            Ok(saved) => {
                let played = saved.game.moves.iter().filter(|m| !m.is_pass()).count();
                let played = crate::protocol::play::counted(played, "move", "moves");
                // A record with a clock goes on with it, as `--load` does.
                let clock = match saved.clock() {
                    Some((ms, inc)) => {
                        self.config.time = TimeSetting::Game(ms, inc);
                        format!("; its clock: {}", self.time_text())
                    }
                    None => String::new(),
                };
                let message = format!("Loaded {file}: {played}{clock}.");
                let game = (saved.game, saved.times, saved.lost_on_time);
                self.start_from(s, game, &message);
            }
            Err(e) => s.out.line(&format!("error: {file}:{e}")),
        }
    }

    /// The game as a GGF record.
    pub(super) fn record(&self) -> GgfGame {
        let name = |c: usize| {
            if self.human[c] {
                "human".to_string()
            } else {
                format!("wedge level {}", self.config.level)
            }
        };
        let pos = self.position();
        GgfGame {
            place: "wedge play".into(),
            unix_time: now_unix(),
            black: name(0),
            white: name(1),
            time_control: self.clock_tag(),
            start: self.game.start,
            moves: self.game.moves.clone(),
            times: self.times.clone(),
            // A game lost on time: every square to the other side, as a forfeit is written.
            black_score: match self.flag {
                Some(Color::Black) => -64,
                Some(Color::White) => 64,
                None if pos.board.is_game_over() => pos.black_final_score(),
                None => 0,
            },
            forfeit: self.flag.map(|c| {
                format!(
                    "{}: {} {}",
                    name(c as usize),
                    crate::protocol::play::colour_name(c).to_lowercase(),
                    crate::board::ggf::LOST_ON_TIME
                )
            }),
            name: None,
        }
    }

    /// Saves the game where `--resume` finds it, once it has changed in this session (starting
    /// `wedge play` does not overwrite the last game), through a temporary file so a crash never
    /// leaves half a record.
    pub(super) fn autosave(&mut self, s: &mut Session<'_>) {
        let Some(path) = &self.config.autosave else {
            return;
        };
        if !self.dirty {
            return;
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let written = crate::files::write_whole(path, format!("{}\n", self.record()).as_bytes());
        self.unsaved = written.is_err();
        if let Err(e) = written {
            s.out.line(&format!(
                "error: cannot save the game to {}: {e}",
                path.display()
            ));
        }
    }
}
