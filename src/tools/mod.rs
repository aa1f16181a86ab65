//! Tools that drive the library directly (no protocol text): perft, bench, solve, the match runner
//! (arena), the SPSA tuner, the training pipeline (datagen, train) and the Multi-ProbCut
//! fit. The command line (`src/cli/`) calls them and prints their results.

pub mod analyze;
pub mod arena;
pub mod bench;
pub mod mpc;
pub mod perft;
pub mod run;
pub mod shard;
pub mod solve;
pub mod train;
pub mod tune;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs `work` over `items` on one thread per worker state in `states` (made by the caller before
/// any work starts, so that memory that is not there is an error before the run, not in it). Items
/// are handed out in order to whichever thread is free; `done(index, &result)` is called as each
/// finishes (in completion order, one at a time); the results come back in item order.
pub fn in_parallel<T: Sync, S: Send, R: Send>(
    items: &[T],
    states: Vec<S>,
    work: impl Fn(&mut S, &T) -> R + Sync,
    done: impl Fn(usize, &R) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    assert!(!states.is_empty(), "in_parallel needs at least one worker");
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for mut state in states {
            let (next, results, work, done) = (&next, &results, &work, &done);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = work(&mut state, item);
                if let Ok(mut all) = results.lock() {
                    done(i, &r);
                    all[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn in_parallel_keeps_the_order_and_calls_done_once_each() {
        let items: Vec<u32> = (0..100).collect();
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let out = super::in_parallel(
            &items,
            vec![0u32; 3],
            |count, x| {
                *count += 1;
                x * 2
            },
            |i, r| {
                assert_eq!(*r, 2 * i as u32);
                calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            },
        );
        assert_eq!(out, (0..100).map(|x| 2 * x).collect::<Vec<u32>>());
        assert_eq!(calls.into_inner(), 100);
    }
}
