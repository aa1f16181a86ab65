//! The search worker: a long-lived thread that owns the searcher (transposition table, evaluation,
//! endgame solver) and runs one job at a time. It reports progress and results as events to the
//! controller; it never touches text. A per-search timer thread sets the job's stop flag when the hard
//! time limit is reached, so the search itself only ever looks at one atomic flag.

use super::Event;
use crate::board::Board;
use crate::eval::Evaluator;
use crate::search::{Limits, Searcher};
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// Work for the worker.
pub enum Job {
    /// Search a position.
    Search {
        /// The position.
        board: Board,
        /// The limits.
        limits: Limits,
        /// This search's stop flag (set by `stop`, `quit` or the timer).
        stop: Arc<AtomicBool>,
        /// When to stop at the latest.
        deadline: Option<Instant>,
    },
    /// Use this evaluation from now on.
    SetEvaluator(Evaluator),
    /// Resize the hash table (MB).
    ResizeHash(usize),
    /// Forget everything learnt (new game, `Clear Hash`).
    Clear,
    /// Reseed the random generator behind `Randomness`.
    SetSeed(u64),
    /// Search with this many threads.
    SetThreads(usize),
}

/// Starts the worker; it sends its reports to `events` and ends when the job channel closes.
pub fn spawn(
    jobs: Receiver<Job>,
    events: Sender<Event>,
    hash_mb: usize,
    eval: Evaluator,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("search".into())
        .spawn(move || {
            let mut searcher = Searcher::new(hash_mb, eval);
            for job in jobs {
                match job {
                    Job::Search {
                        board,
                        limits,
                        stop,
                        deadline,
                    } => {
                        // The timer ends when `_done` is dropped at the end of the search.
                        let (_done, done_rx) = bounded::<()>(0);
                        if let Some(deadline) = deadline {
                            let stop = stop.clone();
                            let wait = deadline.saturating_duration_since(Instant::now());
                            let _ =
                                std::thread::Builder::new()
                                    .name("timer".into())
                                    .spawn(move || {
                                        if let Err(RecvTimeoutError::Timeout) =
                                            done_rx.recv_timeout(wait)
                                        {
                                            stop.store(true, Ordering::Relaxed);
                                        }
                                    });
                        }
                        let result = searcher.search(board, &limits, stop, &mut |info| {
                            let _ = events.send(Event::Info(info));
                        });
                        let _ = events.send(Event::Done(result));
                    }
                    Job::SetEvaluator(e) => searcher.set_evaluator(e),
                    Job::ResizeHash(mb) => searcher.resize_hash(mb),
                    Job::Clear => searcher.clear(),
                    Job::SetSeed(seed) => searcher.set_seed(seed),
                    Job::SetThreads(n) => searcher.set_threads(n),
                }
            }
        })
}
