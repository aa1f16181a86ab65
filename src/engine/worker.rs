//! The search worker: a long-lived thread that owns the searchers of the games (transposition
//! tables, evaluation, endgame solver) and runs one job at a time: searches and `perft` counts of
//! any game ([`super::game`]), and the long tools (`bench`, learning a game) so that the thread reading commands
//! stays free to pass on `stop` and `quit`. It reports progress and results as events to the
//! session loop; it never touches text.
//!
//! Jobs run in the order they were sent, so a `Ping` is answered only once every earlier job (a
//! hash resize, a new evaluation) has taken effect: that is what `readyok` promises.

pub use super::game::PROGRESS_EVERY;
use super::game::{send as report, Searchers, Task};
pub use super::report::{BenchFigures, Report, ToolReport};
use super::Event;
use crate::eval::Evaluator;
use crate::search::midgame::probcut::MpcTable;
use crate::search::Searcher;
use crate::tools::bench;
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Work for the worker.
pub enum Job {
    /// Search or count a position of one of the games ([`super::game::SearchTask`],
    /// [`super::game::PerftTask`]).
    Game(Box<dyn Task>),
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
    /// Learn a game into the book file ([`ToolReport::Learned`]).
    Learn(Box<super::learn::LearnJob>),
    /// Answer [`Report::Pong`] (every earlier job is done).
    Ping,
    /// Use this evaluation from now on.
    SetEvaluator(Evaluator),
    /// Search with this Multi-ProbCut table.
    SetMpcTable(Arc<MpcTable>),
    /// Resize the hash table (MB); answered by [`Report::Resized`].
    ResizeHash(usize),
    /// Make the variant searcher and its table now (a variant position was set), with this
    /// table size (MB) and these options.
    PrepareVariant(usize, crate::engine::options::VariantOptions),
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
            let standard = match Searcher::try_new(hash_mb, eval.clone()) {
                Ok(s) => s,
                // The default size failed: a minimal table still plays.
                Err(_) => Searcher::new(1, eval),
            };
            let mut searchers = Searchers::new(standard);
            for job in jobs {
                match job {
                    Job::Game(task) => task.run(&mut searchers, &events),
                    Job::Bench {
                        depth,
                        hash_mb,
                        selectivity,
                        stop,
                    } => {
                        let lines = bench::run(
                            searchers.standard.evaluator(),
                            searchers.standard.mpc_table(),
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
                    Job::Learn(job) => {
                        let result = Box::new(job.run());
                        report(&events, Report::Tool(ToolReport::Learned(result)));
                    }
                    Job::Ping => {
                        report(&events, Report::Pong);
                    }
                    Job::SetEvaluator(e) => searchers.standard.set_evaluator(e),
                    Job::SetMpcTable(t) => searchers.standard.set_mpc_table(t),
                    Job::ResizeHash(mb) => {
                        let result = searchers.standard.resize_hash(mb);
                        // A refused size keeps every table as it was, the variant one included.
                        if result.is_ok() {
                            searchers.variant.resize(mb);
                        }
                        report(&events, Report::Resized(mb, result));
                    }
                    Job::PrepareVariant(mb, options) => searchers.variant.prepare(mb, &options),
                    Job::Clear => {
                        searchers.standard.clear();
                        searchers.variant.clear();
                    }
                    Job::SetSeed(seed) => searchers.standard.set_seed(seed),
                    Job::SetThreads(n) => searchers.standard.set_threads(n),
                }
            }
        })
}
