//! `wedge data label`: labels a list of positions from any source (the first plies of the game,
//! positions of recorded games) with a deep search of each, or its exact solve near the end, as
//! training data (docs/training.md, "The first plies").
//!
//! Each label is a function of its position alone (a cleared table for every search, no noise),
//! so the same list gives the same file at any thread count.

use super::datafile::{Block, LabelKind, Record};
use super::datagen::{label_tables, search_label};
use crate::board::Position;
use crate::search::{Searcher, Solver, TableAllocError};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How to label.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    /// Depth of the label searches.
    pub depth: u32,
    /// Selectivity level of the searches (a [`crate::search::selectivity`] level).
    pub selectivity: u8,
    /// Positions with at most this many empties are solved exactly instead.
    pub exact_empties: u32,
    /// Positions labelled at once.
    pub threads: usize,
}

/// Positions a block of the output holds: blocks stand for games in the data format (a held-out
/// split keeps each block on one side), so a small block keeps such a split fine-grained.
pub const LABEL_BLOCK: usize = 64;

/// Labels `positions` (those with the game over are left out) and returns them as blocks of
/// [`LABEL_BLOCK`] records in list order, block `k` numbered `k`. `progress(done, total)` is
/// called after each position. Fails before any search when the threads' tables cannot be had.
pub fn label_positions(
    positions: &[Position],
    options: &LabelOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Block>, TableAllocError> {
    let todo: Vec<Position> = positions
        .iter()
        .copied()
        .filter(|p| !p.board.is_game_over())
        .collect();
    let labels: Vec<Mutex<Option<Record>>> = todo.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let tables = label_tables(options.threads.min(todo.len()).clamp(1, 256))?;
    std::thread::scope(|scope| {
        for (mut searcher, mut solver) in tables {
            let (todo, labels, next, done) = (&todo, &labels, &next, &done);
            scope.spawn(move || {
                let stop = Arc::new(AtomicBool::new(false));
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&p) = todo.get(k) else { break };
                    let record = label_one(p, options, &mut searcher, &mut solver, &stop);
                    if let Ok(mut slot) = labels[k].lock() {
                        *slot = record;
                    }
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, todo.len());
                }
            });
        }
    });
    let records: Vec<Record> = labels
        .into_iter()
        .filter_map(|m| m.into_inner().ok().flatten())
        .collect();
    Ok(records
        .chunks(LABEL_BLOCK)
        .enumerate()
        .map(|(k, chunk)| Block {
            game: k as u64,
            records: chunk.to_vec(),
        })
        .collect())
}

/// One position's label: its exact solve at `exact_empties` or fewer empties, else a search of
/// `depth` with a cleared table (exact where the search proves it); `None` where the search
/// gives no disc score.
fn label_one(
    p: Position,
    options: &LabelOptions,
    searcher: &mut Searcher,
    solver: &mut Solver,
    stop: &Arc<AtomicBool>,
) -> Option<Record> {
    let (label, kind) = if p.board.empty_count() <= options.exact_empties {
        solver.clear();
        (solver.solve_exact(p.board).score, LabelKind::Exact)
    } else {
        searcher.clear();
        search_label(p.board, options.depth, options.selectivity, searcher, stop)?
    };
    Some(Record::new(p, label, kind, options.depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::search::selectivity::FULL_WIDTH;
    use crate::search::Limits;

    fn positions() -> Vec<Position> {
        // The start, a few plies in, and an endgame position of 14 empties.
        let mut list = vec![Position::START];
        let mut p = Position::START;
        for _ in 0..6 {
            p = p.play(p.legal_move_list()[0]).unwrap();
            list.push(p);
        }
        list.push(
            "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X"
                .parse()
                .unwrap(),
        );
        list
    }

    #[test]
    fn labels_are_each_positions_own_search_or_solve_in_list_order_at_any_thread_count() {
        let list = positions();
        let options = LabelOptions {
            depth: 4,
            selectivity: FULL_WIDTH,
            exact_empties: 14,
            threads: 1,
        };
        let one = label_positions(&list, &options, &|_, _| {}).unwrap();
        let three = label_positions(
            &list,
            &LabelOptions {
                threads: 3,
                ..options.clone()
            },
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(one, three);
        let records: Vec<Record> = one.iter().flat_map(|b| b.records.clone()).collect();
        assert_eq!(records.len(), list.len());
        let mut searcher = Searcher::new(1, Evaluator::default());
        let stop = Arc::new(AtomicBool::new(false));
        for (r, p) in records.iter().zip(&list) {
            assert_eq!(r.position, *p);
            if p.board.empty_count() <= 14 {
                let exact = Solver::new(1).solve_exact(p.board).score;
                assert_eq!(
                    (r.kind, i32::from(r.label), r.depth),
                    (LabelKind::Exact, exact, 0)
                );
            } else {
                searcher.clear();
                let limits = Limits {
                    depth: Some(4),
                    selectivity: FULL_WIDTH,
                    ..Limits::default()
                };
                let s = searcher.search(p.board, &limits, stop.clone(), &mut |_| {});
                let want = match s.score {
                    crate::search::Score::Eval(cd) => (cd as f64 / 100.0).round() as i32,
                    other => panic!(
                        "a 4-ply search from {} empties gave {other:?}",
                        p.board.empty_count()
                    ),
                };
                assert_eq!(
                    (r.kind, i32::from(r.label), r.depth),
                    (LabelKind::Search, want, 4)
                );
            }
        }
    }

    #[test]
    fn finished_games_are_left_out_and_blocks_are_numbered_in_order() {
        let over: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X"
            .parse()
            .unwrap();
        let mut list = vec![over];
        list.extend(std::iter::repeat_n(positions()[3], LABEL_BLOCK + 1));
        let blocks = label_positions(
            &list,
            &LabelOptions {
                depth: 2,
                selectivity: FULL_WIDTH,
                exact_empties: 0,
                threads: 2,
            },
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!((blocks[0].game, blocks[0].records.len()), (0, LABEL_BLOCK));
        assert_eq!((blocks[1].game, blocks[1].records.len()), (1, 1));
        assert!(blocks
            .iter()
            .flat_map(|b| &b.records)
            .all(|r| r.position == positions()[3]));
    }
}
