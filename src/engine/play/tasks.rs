//! The engine's work for `wedge play` besides its own moves: hints (the best moves at full
//! strength), the analysis of the game, and what its searches report.

use super::{PlayFrontEnd, Task, ANALYZE_MS, DEFAULT_MOVE_MS, MISTAKE_DISCS};
use crate::engine::request::SearchRequest;
use crate::engine::session::Session;
use crate::protocol::play::{
    colour_name, colour_symbol, confidence, score_discs, score_text, TimeSetting,
};
use crate::search::{Bound, Score};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

impl PlayFrontEnd {
    pub(super) fn hint(&mut self, s: &mut Session<'_>, count: usize) {
        let pos = self.position();
        if pos.board.is_game_over() {
            s.out.line("error: the game is over");
            return;
        }
        if !pos.board.can_move() {
            s.out.line("Hint: pass (there is no move).");
            return;
        }
        // Full strength and `count` lines, whatever the opponent's level; set back after.
        let count = count.min(pos.board.legal_moves().count() as usize);
        let ms = match self.config.time {
            TimeSetting::PerMove(ms) => ms.min(DEFAULT_MOVE_MS),
            TimeSetting::Game(..) => 2000,
        };
        match self.full_strength_search(s, pos, ms, count) {
            Ok(stop) => {
                s.out.line("Thinking about a hint...");
                self.task = Some(Task::Hint {
                    stop,
                    lines: Vec::new(),
                    count,
                });
            }
            Err(e) => s.out.line(&format!("error: {e}")),
        }
    }

    /// Starts a search of `pos` for `ms` at full strength, without noise, with `lines` best
    /// moves, whatever the opponent's settings (set back at once: the search has its limits).
    fn full_strength_search(
        &mut self,
        s: &mut Session<'_>,
        pos: crate::board::Position,
        ms: u64,
        lines: usize,
    ) -> Result<Arc<AtomicBool>, crate::engine::core::CoreError> {
        let _ = s.core.set_option("Level", Some("10"));
        let _ = s.core.set_option("MultiPV", Some(&lines.to_string()));
        let _ = s.core.set_option("Randomness", Some("0"));
        let params = SearchRequest {
            movetime_ms: Some(ms),
            ..SearchRequest::default()
        };
        let plan = s.core.plan(pos, &params);
        let started = s.core.start_search(pos, plan.limits, plan.hard);
        self.restore_engine(s);
        started
    }

    /// Puts the engine's own settings back after a hint or analysis (the search has its limits
    /// already).
    pub(super) fn restore_engine(&mut self, s: &mut Session<'_>) {
        let _ = s.core.set_option("MultiPV", Some("1"));
        let _ = s
            .core
            .set_option("Level", Some(&self.config.level.to_string()));
        let noise = if self.config.random.is_some() {
            "150"
        } else {
            "0"
        };
        let _ = s.core.set_option("Randomness", Some(noise));
    }

    pub(super) fn analyze(&mut self, s: &mut Session<'_>) {
        let mut positions = vec![self.game.start];
        let mut pos = self.game.start;
        for &mv in &self.game.moves {
            match pos.play(mv) {
                Some(next) => pos = next,
                None => break,
            }
            positions.push(pos);
        }
        if self.game.moves.is_empty() {
            s.out.line("error: there is no move to analyze");
            return;
        }
        s.out.line(&format!(
            "Analyzing {} ({:.1} s each; stop ends it)...",
            crate::protocol::play::counted(positions.len(), "position", "positions"),
            ANALYZE_MS as f64 / 1000.0
        ));
        self.task = Some(Task::Analyze {
            stop: Arc::new(AtomicBool::new(false)),
            cancelled: false,
            positions,
            scores: Vec::new(),
        });
        self.analyze_next(s);
    }

    /// Starts the search of the next position to analyze, or reports when all are done.
    pub(super) fn analyze_next(&mut self, s: &mut Session<'_>) {
        let Some(Task::Analyze {
            positions, scores, ..
        }) = &self.task
        else {
            return;
        };
        let Some(&pos) = positions.get(scores.len()) else {
            self.analyze_report(s);
            return;
        };
        if pos.board.is_game_over() || !pos.board.can_move() {
            // A forced pass is not searched (the report reads the position after it); the
            // placeholder keeps the scores in step with the positions.
            let score = if pos.board.is_game_over() {
                Score::Exact(pos.board.final_score())
            } else {
                Score::Eval(0)
            };
            if let Some(Task::Analyze { scores, .. }) = &mut self.task {
                scores.push((score, None));
            }
            return self.analyze_next(s);
        }
        match self.full_strength_search(s, pos, ANALYZE_MS, 1) {
            Ok(stop) => {
                if let Some(Task::Analyze { stop: s0, .. }) = &mut self.task {
                    *s0 = stop;
                }
            }
            Err(e) => {
                self.task = None;
                s.out.line(&format!("error: {e}"));
            }
        }
    }

    pub(super) fn analyze_report(&mut self, s: &mut Session<'_>) {
        let Some(Task::Analyze {
            positions, scores, ..
        }) = self.task.take()
        else {
            return;
        };
        s.out.line("move  player  played          best");
        let mut number = 0;
        for (i, &mv) in self.game.moves.iter().enumerate() {
            if mv.is_pass() {
                continue;
            }
            number += 1;
            // The played move's value for the mover: the score of the next position where
            // someone can move (a forced pass is skipped), negated when the opponent moves there.
            let mut j = i + 1;
            while positions
                .get(j)
                .is_some_and(|p| !p.board.can_move() && !p.board.is_game_over())
            {
                j += 1;
            }
            let (Some(&(best, best_move)), Some(&(after, _))) = (scores.get(i), scores.get(j))
            else {
                break;
            };
            let side = positions[i].side;
            let played = if positions[j].side == side {
                after
            } else {
                after.negated()
            };
            let loss = score_discs(best) - score_discs(played);
            let best_text = match best_move {
                Some(b) if b != mv && loss > MISTAKE_DISCS => {
                    format!("{b} {}  (loses {loss:.1})", score_text(best))
                }
                _ => "best".to_string(),
            };
            s.out.line(&format!(
                "{number:>3}. {:<6} {mv} {:<12} {best_text}",
                colour_name(side),
                score_text(played)
            ));
        }
        self.show_turn_quietly(s);
    }

    /// The prompt again after a task, without redrawing the board.
    pub(super) fn show_turn_quietly(&mut self, s: &mut Session<'_>) {
        let pos = self.position();
        if !pos.board.is_game_over() && self.human[pos.side as usize] {
            self.prompt(s);
        } else if !pos.board.is_game_over() {
            self.advance(s);
        }
    }

    pub(super) fn search_done(&mut self, s: &mut Session<'_>, result: crate::search::SearchResult) {
        let Some(task) = self.task.take() else {
            return;
        };
        match task {
            Task::Move { started, .. } => {
                // A move that comes after the engine's time ran out is not played.
                if self.check_flag(s) {
                    self.advance(s);
                    return;
                }
                let pos = self.position();
                let mv = match result.best_move {
                    Some(m) if pos.play(m).is_some() => m,
                    _ => match pos.legal_move_list().first() {
                        Some(&m) => m,
                        None => return,
                    },
                };
                let empties = pos.board.empty_count();
                // A move that ends the game has its result proven, whatever the search said.
                let score = match pos.play(mv) {
                    Some(next) if next.board.is_game_over() => {
                        crate::search::Score::Exact(-next.board.final_score())
                    }
                    _ => result.score,
                };
                s.out.line(&format!(
                    "wedge ({}) plays {mv} after {:.1} s, depth {}: {}.",
                    colour_symbol(pos.side),
                    started.elapsed().as_secs_f64(),
                    result.depth,
                    confidence(score, empties)
                ));
                self.push_move(mv);
                self.advance(s);
            }
            Task::Hint {
                mut lines, count, ..
            } => {
                lines.sort_by_key(|l| l.0);
                if lines.is_empty() {
                    if let Some(m) = result.best_move {
                        lines.push((1, result.score, Some(m), result.depth));
                    }
                }
                let shown = &lines[..lines.len().min(count)];
                let text: Vec<String> = shown
                    .iter()
                    .filter_map(|(_, score, mv, _)| {
                        mv.map(|m| format!("{m} {}", score_text(*score)))
                    })
                    .collect();
                // The depth every line shown was searched to: an iteration cut short by the time
                // counts for none of them.
                let depth = shown.iter().map(|l| l.3).min().unwrap_or(result.depth);
                s.out
                    .line(&format!("Hint (depth {depth}): {}", text.join(", ")));
                self.show_turn_quietly(s);
            }
            Task::Analyze {
                stop,
                cancelled,
                positions,
                mut scores,
            } => {
                scores.push((result.score, result.best_move));
                self.task = Some(Task::Analyze {
                    stop,
                    cancelled,
                    positions,
                    scores,
                });
                if cancelled {
                    self.analyze_report(s);
                } else {
                    self.analyze_next(s);
                }
            }
        }
    }

    pub(super) fn info(&mut self, s: &mut Session<'_>, info: crate::search::Info) {
        match &mut self.task {
            Some(Task::Hint { lines, .. }) if info.bound == Bound::Exact => {
                let entry = (
                    info.multipv,
                    info.score,
                    info.pv.first().copied(),
                    info.depth,
                );
                match lines.iter_mut().find(|l| l.0 == info.multipv) {
                    Some(l) => *l = entry,
                    None => lines.push(entry),
                }
            }
            Some(Task::Move { started, .. }) if self.config.interactive && info.multipv == 1 => {
                let best = info.pv.first().map_or(String::new(), |m| m.to_string());
                s.out.status(&format!(
                    "wedge is thinking: depth {} score {} best {best}  ({:.1} s; stop or Enter moves now)",
                    info.depth,
                    score_text(info.score),
                    started.elapsed().as_secs_f64()
                ));
            }
            _ => {}
        }
    }
}
