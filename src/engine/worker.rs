//! The search worker: a long-lived thread that owns the searcher (transposition table, evaluation,
//! endgame solver) and runs one job at a time: searches, and the long tools (`perft`, `bench`) so
//! that the thread reading commands stays free to pass on `stop` and `quit`. It reports progress
//! and results as events to the session loop; it never touches text.
//!
//! A per-search timer thread sets the job's stop flag when the hard time limit is reached (the
//! search itself only ever looks at one atomic flag) and, once a second, sends a progress snapshot
//! (nodes, iteration, the root move being searched) read from the searcher's shared figures.
//!
//! Variant boards (protocol.md, 3.1) have their own search and perft jobs, run by
//! [`super::variant`] with the same stop flag; the 8 x 8 searcher is not involved in them.
//!
//! Jobs run in the order they were sent, so a `Ping` is answered only once every earlier job (a
//! hash resize, a new evaluation) has taken effect: that is what `readyok` promises.

pub use super::report::{BenchFigures, Report, ToolReport};
use super::variant::{VariantJob, VariantWorker};
use super::Event;
use crate::board::Board;
use crate::eval::Evaluator;
use crate::search::{Limits, ProgressSnapshot, Searcher};
use crate::tools::{bench, perft};
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a running search reports its progress.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);

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
    /// Count move paths (`perft`), below each root move.
    Perft {
        /// The position.
        board: Board,
        /// Plies.
        depth: u32,
        /// Ends the count early.
        stop: Arc<AtomicBool>,
    },
    /// The bench positions with a fresh table of `hash_mb`.
    Bench {
        /// Depth of each search.
        depth: u32,
        /// Table size, MB.
        hash_mb: usize,
        /// The `Selectivity` level of the searches.
        selectivity: u8,
        /// Ends the run early.
        stop: Arc<AtomicBool>,
    },
    /// Search a variant board.
    VariantSearch(VariantJob),
    /// Count move paths on a variant board, below each root move.
    VariantPerft {
        /// The position.
        board: crate::variant::board::Board,
        /// Plies.
        depth: u32,
        /// Ends the count between two root moves.
        stop: Arc<AtomicBool>,
    },
    /// Answer [`Report::Pong`] (every earlier job is done).
    Ping,
    /// Use this evaluation from now on.
    SetEvaluator(Evaluator),
    /// Resize the hash table (MB); answered by [`Report::Resized`].
    ResizeHash(usize),
    /// Forget everything learnt (new game, `Clear Hash`).
    Clear,
    /// Reseed the random generator behind `Randomness`.
    SetSeed(u64),
    /// Search with this many threads.
    SetThreads(usize),
}

/// Sends `report` to the front end; a send fails only while the process exits.
fn report(events: &Sender<Event>, report: Report) {
    let _ = events.send(Event::Worker(report));
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
            let mut searcher = match Searcher::try_new(hash_mb, eval.clone()) {
                Ok(s) => s,
                // The default size failed: a minimal table still plays.
                Err(_) => Searcher::new(1, eval),
            };
            let mut variant = VariantWorker::default();
            for job in jobs {
                match job {
                    Job::Search {
                        board,
                        limits,
                        stop,
                        deadline,
                    } => {
                        // The timer ends when `done` is dropped at the end of the search.
                        let (done, done_rx) = bounded::<()>(0);
                        let progress = searcher.progress();
                        let (stop2, events2) = (stop.clone(), events.clone());
                        let timer =
                            std::thread::Builder::new()
                                .name("timer".into())
                                .spawn(move || {
                                    let mut deadline = deadline;
                                    let start = Instant::now();
                                    let mut next_report = start + PROGRESS_EVERY;
                                    loop {
                                        let mut wake = next_report;
                                        if let Some(d) = deadline {
                                            wake = wake.min(d);
                                        }
                                        let wait = wake.saturating_duration_since(Instant::now());
                                        match done_rx.recv_timeout(wait) {
                                            Err(RecvTimeoutError::Timeout) => {}
                                            _ => return,
                                        }
                                        let now = Instant::now();
                                        if deadline.is_some_and(|d| now >= d) {
                                            stop2.store(true, Ordering::Relaxed);
                                            // Done: from now on it wakes for progress lines only.
                                            deadline = None;
                                        }
                                        if now >= next_report {
                                            let snapshot: ProgressSnapshot = progress.snapshot();
                                            report(
                                                &events2,
                                                Report::Progress(snapshot, now - start),
                                            );
                                            next_report += PROGRESS_EVERY;
                                        }
                                    }
                                });
                        let result = searcher.search(board, &limits, stop, &mut |info| {
                            report(&events, Report::Info(info));
                        });
                        // The timer's last progress line comes before `Done`, never after it.
                        drop(done);
                        if let Ok(handle) = timer {
                            let _ = handle.join();
                        }
                        report(&events, Report::Done(result));
                    }
                    Job::Perft { board, depth, stop } => {
                        let start = Instant::now();
                        let total = perft::perft_divide_stoppable(board, depth, &stop, |mv, n| {
                            report(&events, Report::Tool(ToolReport::PerftMove(mv, n)));
                        });
                        report(
                            &events,
                            Report::Tool(ToolReport::PerftDone {
                                depth,
                                total: total.unwrap_or(0),
                                time: start.elapsed(),
                                stopped: total.is_none(),
                            }),
                        );
                    }
                    Job::Bench {
                        depth,
                        hash_mb,
                        selectivity,
                        stop,
                    } => {
                        let lines = bench::run(
                            searcher.evaluator(),
                            depth,
                            selectivity,
                            hash_mb,
                            1,
                            stop.clone(),
                            |_| {},
                        );
                        let figures = lines.map(|lines| BenchFigures {
                            nodes: lines.iter().map(|l| l.nodes).sum(),
                            time: lines.iter().map(|l| l.time).sum(),
                            positions: lines.len(),
                            stopped: stop.load(Ordering::Relaxed),
                        });
                        report(&events, Report::Tool(ToolReport::BenchDone(figures)));
                    }
                    Job::VariantSearch(job) => variant.search(job, &events),
                    Job::VariantPerft { board, depth, stop } => {
                        super::variant::perft(&board, depth, &stop, &events);
                    }
                    Job::Ping => {
                        report(&events, Report::Pong);
                    }
                    Job::SetEvaluator(e) => searcher.set_evaluator(e),
                    Job::ResizeHash(mb) => {
                        let result = searcher.resize_hash(mb);
                        report(&events, Report::Resized(mb, result));
                    }
                    Job::Clear => {
                        searcher.clear();
                        variant.clear();
                    }
                    Job::SetSeed(seed) => searcher.set_seed(seed),
                    Job::SetThreads(n) => searcher.set_threads(n),
                }
            }
        })
}
