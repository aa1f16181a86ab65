//! Variant boards in the engine (protocol.md, 3.1): what the wedge front end needs beyond the
//! 8 x 8 game to play on a board of any size with blocked squares. It builds the position of a
//! `position variant ...` command, turns a `go` into the variant search's plan with the variant
//! player's options, and keeps the worker's variant searcher. Searches and `perft` counts run as
//! the worker's game jobs ([`super::game`]), with the same stop flag as every search, so that
//! `stop` and `quit` are answered at once.
//!
//! The 8 x 8 search never sees any of this: the variant has its own searcher
//! ([`crate::variant::search::Searcher`]), made at the first variant search.

use super::options::{Options, VariantOptions};
use crate::engine::request::SearchRequest;
use crate::game::clock::Clock;
use crate::protocol::variant::VariantBase;
use crate::variant::board::{Board, VariantError, VariantMove};
use crate::variant::eval::{evaluate_position, Layout};
use crate::variant::player::Limits;
use crate::variant::search::{Report, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Why a variant `position` could not be set (the caller keeps its position); the front end
/// says it in its protocol's words.
#[derive(Debug)]
pub enum PositionError {
    /// The size and blocked squares, or the cells, do not make a board (`cells`: the base was a
    /// list of cells, not a layout).
    Board {
        /// The base was cells rather than a layout.
        cells: bool,
        /// What is wrong.
        error: VariantError,
    },
    /// The board file could not be read, or holds no printed board.
    File {
        /// The file as given.
        path: String,
        /// What is wrong.
        error: BoardFileError,
    },
    /// Move `index` (from 0) comes after the end of the game.
    GameOver {
        /// Its place in the list, from 0.
        index: usize,
        /// The move.
        mv: VariantMove,
    },
    /// Move `index` is not legal there (a square), or a pass where there is a move (`None`).
    Illegal {
        /// Its place in the list, from 0.
        index: usize,
        /// The move.
        mv: VariantMove,
    },
}

/// Why a board file could not be read.
#[derive(Debug)]
pub enum BoardFileError {
    /// Not a regular readable file of a sane size.
    Io(std::io::Error),
    /// Not UTF-8 text.
    NotText,
    /// Not a printed board.
    Board(VariantError),
}

/// Builds the position of a variant `position` command: the base (a layout's start, cells, or a
/// printed board read from a file), then the moves, each legal in turn; a forced pass may be left
/// out of the list (it is inserted before the next square), as on 8 x 8.
pub fn position(base: &VariantBase, moves: &[VariantMove]) -> Result<Board, PositionError> {
    let mut board = match base {
        VariantBase::Start {
            rows,
            cols,
            blocked,
        } => Board::start(*rows, *cols, blocked).map_err(|error| PositionError::Board {
            cells: false,
            error,
        })?,
        VariantBase::Cells {
            rows,
            cols,
            cells,
            to_move,
        } => Board::from_cells(*rows, *cols, cells, *to_move)
            .map_err(|error| PositionError::Board { cells: true, error })?,
        VariantBase::File(path) => read_board(path).map_err(|error| PositionError::File {
            path: path.clone(),
            error,
        })?,
    };
    for (index, &mv) in moves.iter().enumerate() {
        if board.is_over() {
            return Err(PositionError::GameOver { index, mv });
        }
        if mv.is_some() && board.must_pass() {
            board = board.pass();
        }
        board = match mv {
            Some(sq) => board.play(sq).ok_or(PositionError::Illegal { index, mv })?,
            None if board.must_pass() => board.pass(),
            None => return Err(PositionError::Illegal { index, mv }),
        };
    }
    Ok(board)
}

/// Reads a printed board (`Board::parse_printed`) from a regular file of a sane size.
fn read_board(path: &str) -> Result<Board, BoardFileError> {
    let bytes =
        crate::files::read_regular(std::path::Path::new(path), crate::files::MAX_TEXT_BYTES)
            .map_err(BoardFileError::Io)?;
    let text = String::from_utf8(bytes).map_err(|_| BoardFileError::NotText)?;
    Board::parse_printed(&text).map_err(BoardFileError::Board)
}

/// A variant search ready to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantPlan {
    /// The limits the variant search honours itself (depth, move time, the game clock).
    pub limits: Limits,
    /// Iterations are searched until one ends with at least this many nodes.
    pub nodes: Option<u64>,
}

impl VariantPlan {
    /// A one-line description for debug output.
    pub fn describe(&self) -> String {
        let l = &self.limits;
        let depth = l.depth.map_or("any".to_string(), |d| d.to_string());
        let movetime = l
            .movetime
            .map_or("none".to_string(), |t| format!("{} ms", t.as_millis()));
        let clock = l.clock.map_or("none".to_string(), |c| {
            let to_go = c
                .moves_to_go
                .map_or(String::new(), |n| format!(", {n} moves to go"));
            format!(
                "{} ms + {} ms a move{to_go}",
                c.remaining.as_millis(),
                c.increment.as_millis()
            )
        });
        let nodes = self.nodes.map_or("any".to_string(), |n| n.to_string());
        format!("variant plan: depth {depth}, movetime {movetime}, clock {clock}, nodes {nodes}")
    }
}

/// Turns `go` into the variant search's limits: `depth`; `movetime` less `MoveOverhead`; the side
/// to move's game clock ([`SearchRequest::clock`]: on a variant board `wtime` is white's, the
/// first player's) less `MoveOverhead`, which the search budgets itself; `exact`, `wld` and `mate`
/// search to the end of the game (as many plies as empty squares, which sees every game to its end
/// since a pass costs no ply); `infinite` drops every limit.
pub fn plan(board: &Board, params: &SearchRequest, options: &Options) -> VariantSearch {
    VariantSearch {
        plan: limits(board, params, options),
        options: options.variant,
        hash_mb: options.hash_mb,
    }
}

/// The limits of [`plan`].
fn limits(board: &Board, params: &SearchRequest, options: &Options) -> VariantPlan {
    let overhead = Duration::from_millis(options.move_overhead_ms);
    let after_overhead = |ms: u64| {
        Duration::from_millis(ms)
            .saturating_sub(overhead)
            .max(Duration::from_millis(1))
    };
    let clock = params.clock(board.to_move()).map(|c| Clock {
        remaining: c
            .remaining
            .saturating_sub(overhead)
            .max(Duration::from_millis(1)),
        ..c
    });
    let mut depth = params.depth;
    if params.solve.is_some() {
        let end = board.empties().max(1);
        depth = Some(depth.map_or(end, |d| d.min(end)));
    }
    if params.infinite {
        return VariantPlan {
            limits: Limits {
                depth,
                ..Limits::default()
            },
            nodes: None,
        };
    }
    VariantPlan {
        limits: Limits {
            depth,
            movetime: params.movetime_ms.map(after_overhead),
            clock,
        },
        nodes: params.nodes,
    }
}

/// What a variant search is given: its limits, the variant player's options, the table size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantSearch {
    /// Its limits.
    pub plan: VariantPlan,
    /// The variant player's options.
    pub options: VariantOptions,
    /// The table size, MB (the `Hash` option).
    pub hash_mb: usize,
}

impl VariantSearch {
    /// A one-line description for debug output.
    pub fn describe(&self) -> String {
        self.plan.describe()
    }
}

/// The worker's variant searcher, made at the first variant search and kept (with its table)
/// from move to move.
#[derive(Default)]
pub struct VariantWorker {
    /// The searcher and its table size, MB.
    searcher: Option<(Searcher, usize)>,
    /// The options of the last search: the table is emptied when they change, since what it holds
    /// was found with another evaluation.
    last: Option<VariantOptions>,
}

impl VariantWorker {
    /// Searches `board` with `job`: each finished iteration to `info`; the result (its best move
    /// is legal, or `None` for a pass).
    pub fn search(
        &mut self,
        board: &Board,
        job: &VariantSearch,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(Report),
    ) -> Report {
        let last = self.last.replace(job.options);
        let searcher = self.made(job.hash_mb);
        if last.is_some_and(|last| last != job.options) {
            searcher.clear();
        }
        searcher.options = job.options.search_options();
        searcher.weights = job.options.weights;
        searcher.search(board, &job.plan.limits, stop, |report| {
            // The variant search counts nodes per search, and is stopped between iterations once
            // the node budget is spent.
            if job.plan.nodes.is_some_and(|n| report.nodes >= n) {
                stop.store(true, Ordering::Relaxed);
            }
            info(report.clone());
        })
    }

    /// Makes the searcher and its table of `hash_mb` MB now (a variant position was set), so that
    /// the first search's time is not spent allocating.
    pub fn prepare(&mut self, hash_mb: usize, options: &VariantOptions) {
        let searcher = self.made(hash_mb);
        searcher.options = options.search_options();
        searcher.prepare();
    }

    /// Resizes the table to `hash_mb` MB (the `Hash` option changed) if the searcher was made.
    pub fn resize(&mut self, hash_mb: usize) {
        if self.searcher.is_some() {
            self.made(hash_mb).prepare();
        }
    }

    /// The searcher, made now if it was not, with a table of `hash_mb` MB (emptied and freed when
    /// the size changes; allocated by its next search or [`Searcher::prepare`]).
    fn made(&mut self, hash_mb: usize) -> &mut Searcher {
        let (searcher, made_mb) = self
            .searcher
            .get_or_insert_with(|| (Searcher::new(hash_mb), hash_mb));
        if *made_mb != hash_mb {
            searcher.set_hash_mb(hash_mb);
            *made_mb = hash_mb;
        }
        searcher
    }

    /// Forgets what was learnt (a new game, `Clear Hash`).
    pub fn clear(&mut self) {
        if let Some((s, _)) = &mut self.searcher {
            s.clear();
        }
    }
}

/// The figures of `eval` on a variant board: the evaluation of the position for the side to move,
/// and what it is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantEval {
    /// The weights in use, by name.
    pub weights: Vec<(&'static str, i32)>,
    /// Squares the layout treats as corners.
    pub corners: u32,
    /// Squares the layout treats as edges.
    pub edges: u32,
    /// The value for the side to move, centidiscs (the final difference once the game is over).
    pub value: i32,
    /// The game is over.
    pub over: bool,
}

/// Evaluates `board` with the variant weights of `options`.
pub fn evaluate(board: &Board, options: &VariantOptions) -> VariantEval {
    let layout = Layout::new(board.playable());
    let value = if board.is_over() {
        100 * board.disc_difference(board.to_move())
    } else {
        evaluate_position(
            board.player_discs(),
            board.opponent_discs(),
            &layout,
            &options.weights,
        )
    };
    VariantEval {
        weights: options.weights.list(),
        corners: layout.corners.count(),
        edges: layout.edges.count(),
        value,
        over: board.is_over(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::Clock;
    use std::time::Duration;

    #[test]
    fn a_plan_reads_as_text_not_as_rust() {
        let plan = VariantPlan {
            limits: Limits {
                depth: None,
                movetime: None,
                clock: Some(Clock::sudden_death(Duration::from_millis(4970))),
            },
            nodes: Some(5000),
        };
        assert_eq!(
            plan.describe(),
            "variant plan: depth any, movetime none, clock 4970 ms + 0 ms a move, nodes 5000"
        );
    }
}
