//! The state of the game as the page sees it ([`crate::protocol::gui::State`]).

use super::tasks::Kind;
use super::GuiFrontEnd;
use crate::board::{Color, Move};
use crate::protocol::gui::{
    board_string, colour_key, levels, AnalysisView, LastMove, MoveView, ScoreView, State, Thinking,
};
use crate::protocol::play::{colour_name, win_probability, LEVELS};

impl GuiFrontEnd {
    /// Everything the page shows.
    pub(super) fn view(&self) -> State {
        let pos = self.position();
        let over = self.over();
        let result = over.then(|| self.result_text());
        let mut colour = self.start.side;
        let marks = self.analysis.as_ref().and_then(|a| a.report.as_ref());
        let moves = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let analysed = marks.and_then(|r| r.moves.iter().find(|x| x.number == i + 1));
                let view = MoveView {
                    text: m.to_string(),
                    colour: colour_key(colour),
                    loss: analysed.map(|a| a.loss),
                    best: analysed
                        .filter(|a| a.best != a.played && a.loss > 0.0)
                        .map(|a| a.best.clone()),
                    mark: analysed.and_then(|a| a.mark).map(|m| m.symbol()),
                };
                colour = colour.opposite();
                view
            })
            .collect();
        let last = self.cursor.checked_sub(1).map(|n| {
            let before = self.position_at(n);
            let mv = self.moves[n];
            let flips = mv.square().map_or(0, |sq| before.board.flips(sq).0);
            LastMove {
                square: mv.square().map(|sq| Move::play(sq).to_string()),
                flips: squares(flips),
                colour: colour_key(before.side),
            }
        });
        let thinking = self.live_search().map(|search| {
            let ms = search.started.elapsed().as_millis() as u64;
            Thinking {
                kind: search.kind.name(),
                side: colour_key(search.position.side),
                depth: search.depth,
                score: search.score.map(ScoreView::of),
                pv: search.pv.iter().map(Move::to_string).collect(),
                nodes: search.nodes,
                nps: (search.nodes as u128 * 1000 / u128::from(ms.max(1))) as u64,
                ms,
            }
        });
        let value = self.values.get(self.cursor).copied().flatten();
        let black_win = value.map(|v| {
            if pos.board.is_game_over() {
                match v {
                    v if v > 0.0 => 1.0,
                    v if v < 0.0 => 0.0,
                    _ => 0.5,
                }
            } else {
                win_probability(v, pos.board.empty_count())
            }
        });
        let analysis = self.analysis.as_ref().map(|a| AnalysisView {
            running: a.running(),
            done: a.done.load(std::sync::atomic::Ordering::Relaxed),
            total: a.total,
            mean_loss: a
                .report
                .as_ref()
                .map(|r| [r.black_summary.mean_loss, r.white_summary.mean_loss]),
            error: a.error.clone(),
        });
        let hints = if self.hints_on {
            self.hints()
        } else {
            Vec::new()
        };
        State {
            version: self.version,
            board: board_string(pos),
            side: colour_key(pos.side),
            black: pos.black().count_ones(),
            white: pos.white().count_ones(),
            legal: if over {
                Vec::new()
            } else {
                squares(pos.board.legal_moves().0)
            },
            last,
            over,
            result,
            moves,
            ply: self.cursor,
            settings: self.settings,
            level_name: LEVELS[(self.settings.level.clamp(1, 10) - 1) as usize].0,
            levels: levels(),
            clocks: matches!(self.settings.time, crate::protocol::gui::Time::Clock { .. }).then(
                || {
                    [
                        self.time_left(Color::Black).unwrap_or(0),
                        self.time_left(Color::White).unwrap_or(0),
                    ]
                },
            ),
            paused: self.paused,
            hints_on: self.hints_on,
            thinking: thinking.filter(|t| t.kind != Kind::Value.name() || t.depth > 0),
            hints,
            graph: self.values.iter().skip(1).copied().collect(),
            black_win,
            analysis,
            message: self.message.clone(),
        }
    }

    /// `Black wins 36-28`, `White wins on time`, `Draw 32-32`.
    fn result_text(&self) -> String {
        let pos = self.position();
        if let Some(c) = self.flag.filter(|_| self.at_end()) {
            return format!("{} wins on time", colour_name(c.opposite()));
        }
        let (b, w) = (pos.black().count_ones(), pos.white().count_ones());
        match pos.black_final_score() {
            d if d > 0 => format!("Black wins {b}-{w}"),
            d if d < 0 => format!("White wins {w}-{b}"),
            _ => format!("Draw {b}-{w}"),
        }
    }
}

/// The squares of a set, a1 first, by name.
fn squares(set: u64) -> Vec<String> {
    (0..64u8)
        .filter(|i| set >> i & 1 == 1)
        .filter_map(crate::board::Square::new)
        .map(|sq| Move::play(sq).to_string())
        .collect()
}
