//! `go` for wedge's own protocol: planning and starting a search (8 x 8 or a variant board),
//! the answers found without searching, `ponderhit`, and writing or holding the `bestmove`.

use super::{error, held_task, Active, Task, WedgeFrontEnd};
use crate::board::{Move, Position};
use crate::engine::core::CoreError;
use crate::engine::session::Session;
use crate::engine::variant;
use crate::protocol::output::{
    bestmove, bestmove_with_ponder, info_line, move_text, NO_CLOCK_WARNING,
};
use crate::protocol::parser::GoParams;
use crate::variant::board::Board as VariantBoard;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

impl WedgeFrontEnd {
    pub(super) fn go(&mut self, s: &mut Session<'_>, mut params: GoParams) {
        if let Some(board) = self.variant {
            self.go_variant(s, board, params);
            return;
        }
        // `go` before any `position` searches the start position.
        let pos = self.position.unwrap_or(Position::START);
        let ponder = params.ponder;
        params.ponder = false;
        // `searchmoves` asks for a search of those moves, even when none of them is legal.
        let named_moves = params.searchmoves.is_some();
        if let Some(set) = params.searchmoves {
            if set & pos.board.legal_moves().0 == 0 && pos.board.can_move() {
                error(
                    &mut s.out,
                    "go: searchmoves: none of these moves is legal here; searching all moves",
                );
                // All of them named: a restart after `ponderhit` is still a `searchmoves` search,
                // which the book does not answer.
                params.searchmoves = Some(pos.board.legal_moves().0);
            }
        }
        // A move found without a search, with its line (the book's, for the expected reply).
        let quick = if pos.board.is_game_over() {
            s.out.line("info string game over");
            Some((None, Vec::new()))
        } else if pos.board.must_pass() {
            Some((Some(Move::PASS), Vec::new()))
        } else if ponder || params.depth.is_some() || params.nodes.is_some() || named_moves {
            // `go depth`, `go nodes` and `go searchmoves` ask for a search: the book does not
            // answer.
            None
        } else {
            s.core.book_move(pos, &params.request()).map(|m| {
                s.out.line(&format!(
                    "info string book move {} score {:+}",
                    move_text(m.mv, self.mode),
                    m.score
                ));
                let info = s.core.book_info(pos.board, &m);
                s.out
                    .line(&info_line(&info, self.mode, s.core.options.multipv > 1));
                (Some(m.mv), info.pv)
            })
        };
        if let Some((mv, pv)) = quick {
            let line = bestmove_with_ponder(mv, &pv, s.core.options.ponder, self.mode);
            self.quick_answer(s, line, held_task(ponder, params));
            return;
        }
        let search_params = if ponder {
            GoParams {
                infinite: true,
                ..params
            }
        } else {
            params
        };
        let request = search_params.request();
        if request.lacks_clock_of(pos.side.into()) {
            s.out.line(NO_CLOCK_WARNING);
        }
        let plan = s.core.plan(pos, &request);
        if self.debug {
            s.out.line(&format!("info string {}", plan.describe()));
        }
        let started = s.core.start_search(pos, plan.limits, plan.hard);
        let bounded = params.request().has_limit(pos.side.into());
        self.started(s, started, params, ponder, bounded);
    }

    /// Answers a `go` without searching (game over, a forced pass, a book move): at once, or, for
    /// `go ponder` and `go infinite` (`hold`), held until `ponderhit` or `stop` as their searches'
    /// answers would be.
    pub(super) fn quick_answer(&mut self, s: &mut Session<'_>, line: String, hold: Option<Task>) {
        match hold {
            Some(task) => {
                self.active = Some(Active {
                    stop: Arc::new(AtomicBool::new(true)),
                    task,
                    held: Some(line),
                    stopped: false,
                    restart: None,
                    awaited: false,
                    bounded: false,
                });
            }
            None => s.out.line(&line),
        }
    }

    /// Records the search just sent to the worker (its stop flag; `bounded`: whether `params`
    /// end it without a `stop`, once not pondering), or answers "no move" if it could not be sent.
    pub(super) fn started(
        &mut self,
        s: &mut Session<'_>,
        started: Result<Arc<AtomicBool>, CoreError>,
        params: GoParams,
        ponder: bool,
        bounded: bool,
    ) {
        let stop = match started {
            Ok(stop) => stop,
            Err(e) => {
                error(&mut s.out, &e);
                s.out.line(&bestmove(None, self.mode));
                return;
            }
        };
        self.active = Some(Active {
            stop,
            task: if ponder {
                Task::Ponder(params)
            } else {
                Task::Search {
                    infinite: params.infinite,
                }
            },
            held: None,
            stopped: false,
            restart: None,
            awaited: false,
            bounded,
        });
    }

    /// `go` on a variant board: the variant player's search on the worker, with the same stop flag,
    /// holding back and ponder handling as on 8 x 8 (protocol.md, 3.1).
    pub(super) fn go_variant(
        &mut self,
        s: &mut Session<'_>,
        board: VariantBoard,
        mut params: GoParams,
    ) {
        if params.by_colour && params.by_player {
            // White is player 1 here: `wtime` and `p1time` would name one clock twice, and the
            // two namings cannot be told apart once mixed. A malformed `go`: no search.
            error(
                &mut s.out,
                "go: on a variant board name the clocks by colour (wtime, btime, winc, binc) or by \
                 player (p1time, p2time, p1inc, p2inc), not both",
            );
            s.out.line(&bestmove(None, self.mode));
            return;
        }
        let ponder = params.ponder;
        params.ponder = false;
        // searchmoves names 8x8 squares: it has no meaning on a variant board.
        if params.searchmoves.is_some() {
            error(
                &mut s.out,
                "go: searchmoves names 8x8 squares: not used on a variant board",
            );
        }
        params.searchmoves = None;
        if board.is_over() {
            s.out.line("info string game over");
            self.quick_answer(s, bestmove(None, self.mode), held_task(ponder, params));
            return;
        }
        if board.must_pass() {
            let line = bestmove(Some(Move::PASS), self.mode);
            self.quick_answer(s, line, held_task(ponder, params));
            return;
        }
        let search_params = GoParams {
            infinite: params.infinite || ponder,
            ..params
        };
        let request = search_params.variant_request();
        if request.lacks_clock_of(board.to_move()) {
            s.out.line(NO_CLOCK_WARNING);
        }
        let plan = variant::plan(&board, &request, &s.core.options);
        if self.debug {
            s.out.line(&format!("info string {}", plan.describe()));
        }
        // The hard limit counts from now, as on 8 x 8: jobs queued before the search (a table
        // being filled for a new layout, a clear) would otherwise come out of the move's time.
        let hard = crate::variant::time::plan(&plan.plan.limits, board.empties()).hard;
        let started = s.core.start_search(board, plan, hard);
        let bounded = params.variant_request().has_limit(board.to_move());
        self.started(s, started, params, ponder, bounded);
    }

    /// `ponderhit`: the expected move was played. A ponder search that has already ended answers
    /// now; one still running is stopped and the position searched again with the `go ponder`
    /// command's own limits (the table keeps what the ponder search found, so the new search
    /// reaches the same depth at once).
    pub(super) fn ponderhit(&mut self, s: &mut Session<'_>) {
        let bounded = match (&self.active, self.variant) {
            (
                Some(Active {
                    task: Task::Ponder(p),
                    ..
                }),
                Some(board),
            ) => p.variant_request().has_limit(board.to_move()),
            (
                Some(Active {
                    task: Task::Ponder(p),
                    ..
                }),
                None,
            ) => {
                let side = self.position.unwrap_or(Position::START).side;
                p.request().has_limit(side.into())
            }
            _ => false,
        };
        let Some(a) = &mut self.active else {
            return;
        };
        let Task::Ponder(params) = a.task else {
            return;
        };
        // Until the restarted search answers, what it will be: bounded by the `go ponder` limits.
        a.task = Task::Search { infinite: false };
        a.bounded = bounded;
        if let Some(line) = a.held.take() {
            self.finish(s, line);
            return;
        }
        a.restart = Some(params);
        a.stop.store(true, Ordering::Relaxed);
    }

    /// A search ended with this `bestmove` line: written now, or held back (infinite, ponder), or
    /// replaced by the real search after `ponderhit`.
    pub(super) fn search_done(&mut self, s: &mut Session<'_>, line: String) {
        let Some(active) = &mut self.active else {
            return;
        };
        if let Some(params) = active.restart.take() {
            if self.eof {
                // The GUI is gone: answer with what pondering found rather than search again.
                self.finish(s, line);
                return;
            }
            self.active = None;
            self.go(s, params);
            return;
        }
        let holds = matches!(
            active.task,
            Task::Search { infinite: true } | Task::Ponder(_)
        );
        if holds && !active.stopped {
            active.held = Some(line);
            return;
        }
        self.finish(s, line);
    }

    /// The search is over: writes its `bestmove` line.
    pub(super) fn finish(&mut self, s: &mut Session<'_>, line: String) {
        self.active = None;
        s.out.line(&line);
    }
}
