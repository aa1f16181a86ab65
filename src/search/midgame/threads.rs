//! The midgame search on several threads: lazy SMP. Every helper runs its own iterative deepening
//! of the same root, and all of them share one transposition table: what one thread stores (bounds,
//! best moves) cuts off or orders the others' searches. The search's own thread reports and
//! returns; the helpers fill the table, and stop when it is done. Then the deepest finished
//! iteration decides: a helper's, if it finished one deeper than the search's own thread did (with
//! one principal line; MultiPV and `Randomness` need the search's own scored root list).
//!
//! Helpers diversify by leaving out some depths (each helper its own pattern of [`Skip`]), so that
//! at any time some threads are one iteration ahead of the others and their deeper results are in
//! the table when the others arrive. The young-brothers-wait scheme of the endgame solver
//! ([`crate::search::endgame`]) was the alternative; lazy SMP needs no split points in the midgame
//! tree, keeps Multi-ProbCut's shallow searches (which have no useful split points) on one thread
//! each, and costs a thread nothing when it finds nothing useful to do. Measured in
//! docs/search.md (Threads).
//!
//! Besides the table, the threads share "being searched" marks ([`super::busy`], as in ABDADA): a
//! node of 4 plies or more marks itself while its moves are searched, and a thread that meets a
//! marked child after its node's first move leaves it for last, so two threads at one node take
//! different children first.
//!
//! Shared between the threads: the table (lock-free entries, racy on purpose: see
//! [`super::table`]), the marks (lock-free, racy on purpose: a lost or stale mark changes
//! only the order of moves), the evaluation's read-only weight table and the Multi-ProbCut table
//! (each an `Arc`), the flag that stops the helpers (set once, by the search's thread, when it has its result), and a counter of the
//! helpers' nodes (each adds its count in steps, relaxed: it is a report and a node limit, not a
//! synchronisation). Nothing else is shared: each helper has its own counters, root list and
//! evaluation copy. Scoped threads end before the search returns, so no helper outlives the
//! table or the position it was given.

use super::busy::Busy;
use super::{Deepened, Plan, RootMove, Tree};
use crate::search::{Info, Progress};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Which depths a helper leaves out: depth `d` when `(d + phase) / size` is odd. Helper 1 searches
/// only even depths, helper 2 the odd ones, the next four skip pairs at four phases, and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Skip {
    size: u32,
    phase: u32,
}

impl Skip {
    /// The pattern of helper `i` (from 1): block sizes 1 (two helpers), 2 (four), 3 (six),
    /// 4 (eight), at every phase of their block, then again.
    pub fn for_helper(i: usize) -> Skip {
        let k = (i.max(1) - 1) % 20;
        let (size, first) = match k {
            0..=1 => (1, 0),
            2..=5 => (2, 2),
            6..=11 => (3, 6),
            _ => (4, 12),
        };
        Skip {
            size,
            phase: (k - first) as u32,
        }
    }

    /// Whether the helper leaves depth `depth` out.
    pub fn skips(&self, depth: u32) -> bool {
        ((depth + self.phase) / self.size) % 2 == 1
    }
}

/// Iterative deepening of `plan` on `main` (the search's own thread, which reports through
/// `report` and whose result is returned) with `threads - 1` helpers beside it. The helpers start
/// with `main`'s root order, search with one principal line each, and are stopped and joined when
/// `main` has finished (or panicked); their node counts end in `main`'s `helper_nodes`. A helper
/// that cannot be started is left out (the search goes on with fewer); one that panicked counts no
/// nodes and is logged.
pub(super) fn deepen_with_helpers(
    main: &mut Tree,
    threads: usize,
    p: u64,
    o: u64,
    plan: &Plan,
    roots: &mut [RootMove],
    report: &mut dyn FnMut(Info),
) -> Deepened {
    let done = Arc::new(AtomicBool::new(false));
    main.busy = Some(Arc::new(Busy::new()));
    let found = std::thread::scope(|scope| {
        // Sets the flag when this closure leaves, by a return or a panic: the scope then waits for
        // the helpers, and nothing else would stop them.
        let _stop_helpers = StopOnDrop(done.clone());
        let mut helpers = Vec::with_capacity(threads.saturating_sub(1));
        for i in 1..threads {
            let mut tree = helper_tree(main, &done);
            let plan = Plan {
                multipv: 1,
                width: 1,
                soft_time: None,
                skip: Some(Skip::for_helper(i)),
                // Its result is then that of its last finished iteration.
                whole_iterations: true,
                // Only the search's own thread hands over to the solver.
                solve_at_end: false,
                ..*plan
            };
            let mut roots = roots.to_vec();
            let spawned = std::thread::Builder::new()
                .name(format!("search-helper-{i}"))
                .spawn_scoped(scope, move || {
                    let found = tree.deepen(p, o, &plan, &mut roots, &mut |_| {});
                    (found, tree.nodes)
                });
            match spawned {
                Ok(handle) => helpers.push(handle),
                Err(e) => {
                    log::warn!("search helper {i} could not start: {e}");
                    break;
                }
            }
        }
        let mut found = main.deepen(p, o, plan, roots, report);
        done.store(true, Ordering::Relaxed);
        let mut nodes = 0;
        let mut deepest: Option<Deepened> = None;
        for h in helpers {
            match h.join() {
                Ok((helper, n)) => {
                    nodes += n;
                    if deepest
                        .as_ref()
                        .is_none_or(|d| helper.finished_at > d.finished_at)
                    {
                        deepest = Some(helper);
                    }
                }
                Err(_) => log::error!("a search helper panicked; its work is lost"),
            }
        }
        // The helpers' exact counts replace the steps they reported while searching.
        main.helper_nodes.store(nodes, Ordering::Relaxed);
        // A helper that finished a deeper iteration than this thread knows the better move (with
        // one principal line: MultiPV and noise need this thread's scored root list).
        if let Some(helper) = deepest {
            if plan.width == 1 && helper.finished_at > found.finished_at {
                main.report_adopted(&helper, report);
                // The solver still proves what the helper found, unless the helper proved it.
                let wants_solve = found.wants_solve && !helper.proven;
                found = Deepened {
                    wants_solve,
                    ..helper
                };
            }
        }
        found
    });
    main.busy = None;
    found
}

/// A helper's tree for `main`'s search: the same table, evaluation, settings (table use,
/// Multi-ProbCut level and table, start time) and shared counters and marks, its own progress and
/// node count, stopped by `done`.
fn helper_tree(main: &Tree, done: &Arc<AtomicBool>) -> Tree {
    let mut tree = Tree::new(
        main.tt.clone(),
        main.eval.clone(),
        Arc::new(Progress::default()),
    );
    tree.stop = done.clone();
    tree.use_tt = main.use_tt;
    tree.selectivity = main.selectivity;
    tree.mpc = main.mpc.clone();
    tree.started = main.started;
    tree.helper_nodes = main.helper_nodes.clone();
    tree.helper = true;
    tree.busy = main.busy.clone();
    tree
}

/// Sets its flag when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_searches_with_the_main_threads_settings_and_tables() {
        use super::super::probcut::MpcTable;
        let mut searcher = super::super::Searcher::new(1, crate::eval::Evaluator::default());
        // A table equal to the built-in one but another allocation: the helper must hold this one.
        let table = Arc::new(MpcTable::parse(include_str!("mpc.txt")).expect("table"));
        searcher.set_mpc_table(table.clone());
        searcher.set_use_tt(false);
        let main = &mut searcher.tree;
        main.selectivity = 2;
        main.busy = Some(Arc::new(Busy::new()));
        let done = Arc::new(AtomicBool::new(false));
        let helper = helper_tree(main, &done);
        assert!(
            Arc::ptr_eq(&helper.mpc, &table),
            "the helper cuts with the table set"
        );
        assert!(Arc::ptr_eq(&helper.tt, &main.tt));
        assert!(Arc::ptr_eq(&helper.stop, &done));
        assert!(Arc::ptr_eq(&helper.helper_nodes, &main.helper_nodes));
        assert!(Arc::ptr_eq(
            helper.busy.as_ref().expect("marks"),
            main.busy.as_ref().expect("marks")
        ));
        assert!(!Arc::ptr_eq(&helper.progress, &main.progress));
        assert_eq!(
            (
                helper.use_tt,
                helper.selectivity,
                helper.started,
                helper.helper
            ),
            (false, 2, main.started, true)
        );
    }

    #[test]
    fn helpers_skip_different_depths() {
        let searched = |i: usize| -> Vec<u32> {
            (1..=12)
                .filter(|&d| !Skip::for_helper(i).skips(d))
                .collect()
        };
        assert_eq!(searched(1), vec![2, 4, 6, 8, 10, 12]);
        assert_eq!(searched(2), vec![1, 3, 5, 7, 9, 11]);
        assert_eq!(searched(3), vec![1, 4, 5, 8, 9, 12]);
        assert_eq!(searched(4), vec![3, 4, 7, 8, 11, 12]);
        // Every helper searches about half the depths, and the patterns repeat after 20.
        for i in 1..=40 {
            let n = searched(i).len();
            assert!((4..=8).contains(&n), "helper {i}: {n}");
            assert_eq!(Skip::for_helper(i), Skip::for_helper(i + 20));
        }
    }
}
