//! The engine core shared by every front end (wedge's protocol, NBoard, GTP): options, evaluation,
//! opening book, the search worker, and the policy that turns a request (limits, clocks) into a
//! search plan. Front ends own their game state and their text; the core owns everything else, so
//! search, book and options are never duplicated.

use super::game::{EngineGame, PerftTask, SearchTask};
use super::learn::{LearnError, LearnJob, Learnt};
use super::options::{level_limits, Effect, OptionError, OptionFileError, Options};
use super::worker::{self, Job};
use super::Event;
use crate::board::Position;
use crate::book::{Book, BookError, BookMove};
use crate::engine::request::SearchRequest;
use crate::eval::Evaluator;
use crate::rng::Rng;
use crate::search::{time_budget, HashResizeError, HashTableKind, Limits};
use crossbeam_channel::{unbounded, Sender};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Levels below this one do not use the opening book.
pub const BOOK_MIN_LEVEL: u32 = 7;

/// A search ready to start: its limits and its hard time limit.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The limits the search honours itself.
    pub limits: Limits,
    /// When the timer stops the search, counted from its start.
    pub hard: Option<Duration>,
}

impl Plan {
    /// A one-line description for debug output, e.g. `plan: depth any, soft limit 480 ms, stop at
    /// 1940 ms, solve from 20 empties` (the soft limit as [`Limits::soft_time`]).
    pub fn describe(&self) -> String {
        let depth = self
            .limits
            .depth
            .map_or("any".to_string(), |d| d.to_string());
        let soft = self
            .limits
            .soft_time
            .map_or("no soft limit".to_string(), |d| {
                format!("soft limit {} ms", d.as_millis())
            });
        let hard = self.hard.map_or("no time limit".to_string(), |d| {
            format!("stop at {} ms", d.as_millis())
        });
        let solve = match self.limits.solve_empties {
            0 => "no solve".to_string(),
            n => format!("solve from {n} empties"),
        };
        format!("plan: depth {depth}, {soft}, {hard}, {solve}")
    }
}

/// What the core could not do; the front end says it in its protocol's form.
#[derive(Debug)]
pub enum CoreError {
    /// The search thread could not be started.
    NoWorker(std::io::Error),
    /// The built-in book could not be read (the engine plays without one).
    NoBook(BookError),
    /// The search thread has stopped (only while the process exits).
    WorkerStopped,
    /// A hash resize failed; the table of `in_use` MB is kept.
    HashKept {
        /// The size asked for, MB.
        asked: usize,
        /// Which table could not be had, and why.
        error: HashResizeError,
        /// The size of the table in use, MB.
        in_use: usize,
    },
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::NoWorker(e) => write!(f, "cannot start the search thread: {e}"),
            CoreError::NoBook(e) => write!(f, "{e}; playing without a book"),
            CoreError::WorkerStopped => f.write_str("the search thread has stopped"),
            CoreError::HashKept {
                asked,
                error,
                in_use,
            } => {
                write!(f, "Hash {asked}: {error}")?;
                let failed = error.error.bytes.div_ceil(1 << 20);
                match error.table {
                    HashTableKind::Search if failed != *asked => {
                        f.write_str(" (the largest power of two of MB not above the size asked)")?
                    }
                    HashTableKind::Search => {}
                    HashTableKind::Solver => f.write_str(
                        " (the endgame solver's table, a quarter of the size asked rounded down to \
                         a power of two)",
                    )?,
                    HashTableKind::Both => f.write_str(
                        " (the search's table, the largest power of two of MB not above the size \
                         asked, and the endgame solver's, a quarter of that, together beside the \
                         tables in use)",
                    )?,
                }
                // The table in use is the largest power of two of MB not above its own Hash.
                let real = match *in_use {
                    0 => 0,
                    n => 1usize << (usize::BITS - 1 - n.leading_zeros()),
                };
                if real == *in_use {
                    write!(f, "; the {in_use} MB table in use is kept")
                } else {
                    write!(f, "; the table in use (Hash {in_use}: {real} MB) is kept")
                }
            }
        }
    }
}

impl std::error::Error for CoreError {}

/// The shared core.
pub struct Core {
    /// Current option values.
    pub options: Options,
    /// The evaluation built from the current weights (for `eval`-style commands).
    pub evaluator: Evaluator,
    book: Option<Book>,
    /// The file of the book in use (`BookFile`); `None` for the built-in book.
    book_path: Option<std::path::PathBuf>,
    book_rng: Rng,
    jobs: Sender<Job>,
    /// The hash size the worker last allocated (what `Hash` falls back to when a resize fails).
    hash_in_use: usize,
    /// `Hash` changes sent to the worker and not yet answered.
    resizes: usize,
}

impl Core {
    /// Starts the search worker, which reports to `events`. Returns the core and, if the built-in
    /// book could not be read, [`CoreError::NoBook`] (the engine then plays without a book).
    pub fn start(events: Sender<Event>) -> Result<(Core, Option<CoreError>), CoreError> {
        let options = Options::default();
        let hash_mb = options.hash_mb;
        let evaluator = options.evaluator();
        let (jobs, jobs_rx) = unbounded::<Job>();
        worker::spawn(jobs_rx, events, hash_mb, evaluator.clone()).map_err(CoreError::NoWorker)?;
        let (book, warning) = match Book::embedded() {
            Ok(b) => ((!b.is_empty()).then_some(b), None),
            Err(e) => (None, Some(CoreError::NoBook(e))),
        };
        Ok((
            Core {
                options,
                evaluator,
                book,
                book_path: None,
                book_rng: Rng::new(0),
                jobs,
                hash_in_use: hash_mb,
                resizes: 0,
            },
            warning,
        ))
    }

    /// After `name` was set: the `Threads` set and the threads this machine runs at once, when
    /// it is `Threads` and asks for more. Each helper must be given a core to see that the search
    /// has ended, so far more threads than cores make searches end late (docs/options.md).
    pub fn threads_beyond_cores(&self, name: &str) -> Option<(usize, usize)> {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let threads = self.options.threads;
        (name.trim().eq_ignore_ascii_case("Threads") && threads > cores).then_some((threads, cores))
    }

    /// Sets an option by name; on error nothing changes.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        match self.options.set(name, value)? {
            Effect::None => {}
            Effect::ResizeHash(mb) => {
                self.resizes += 1;
                self.send(Job::ResizeHash(mb));
            }
            Effect::ClearHash => self.send(Job::Clear),
            Effect::Threads(n) => self.send(Job::SetThreads(n)),
            Effect::Seed(seed) => {
                self.book_rng = Rng::new(seed);
                self.send(Job::SetSeed(seed));
            }
            Effect::BookFile(path) => {
                let loaded = if path.is_empty() {
                    Book::embedded()
                } else {
                    Book::load(std::path::Path::new(&path))
                };
                // On failure the book in use stays.
                let book = loaded.map_err(|e| OptionError::File {
                    option: "BookFile",
                    error: OptionFileError::Book(e.into()),
                })?;
                self.book = (!book.is_empty()).then_some(book);
                self.book_path = (!path.is_empty()).then(|| path.into());
            }
            Effect::Weights => {
                self.evaluator = self.options.evaluator();
                self.send(Job::SetEvaluator(self.evaluator.clone()));
            }
            Effect::Mpc => self.send(Job::SetMpcTable(self.options.mpc.clone())),
        }
        Ok(())
    }

    /// Whether a `Hash` change is still being allocated by the worker ([`Core::hash_resized`]
    /// takes its answer).
    pub fn resizing(&self) -> bool {
        self.resizes > 0
    }

    /// Takes the worker's answer to a `Hash` change: on failure the option goes back to the size
    /// in use and the error says what happened.
    /// `mb` is the size that was asked for: the option goes back only if no other size was asked
    /// for since.
    pub fn hash_resized(
        &mut self,
        mb: usize,
        result: Result<(), HashResizeError>,
    ) -> Result<(), CoreError> {
        self.resizes = self.resizes.saturating_sub(1);
        match result {
            Ok(()) => {
                self.hash_in_use = mb;
                Ok(())
            }
            Err(e) => {
                if self.options.hash_mb == mb {
                    self.options.hash_mb = self.hash_in_use;
                }
                Err(CoreError::HashKept {
                    asked: mb,
                    error: e,
                    in_use: self.hash_in_use,
                })
            }
        }
    }

    /// Asks the worker to answer [`Report::Pong`](super::worker::Report::Pong) once every job sent before is done.
    pub fn ping(&self) {
        self.send(Job::Ping);
    }

    /// Starts a `perft` count of `position` (any game) on the worker; returns its stop flag.
    pub fn start_perft<G: EngineGame>(&self, position: G, depth: u32) -> Arc<AtomicBool> {
        let stop = Arc::new(AtomicBool::new(false));
        self.send(Job::Game(Box::new(PerftTask {
            position,
            depth,
            stop: stop.clone(),
        })));
        stop
    }

    /// Starts a bench run on the worker (its own fresh tables, at most 256 MB; the evaluation, the
    /// Multi-ProbCut table and `Selectivity` in use); returns its stop flag.
    pub fn start_bench(&self, depth: u32) -> Arc<AtomicBool> {
        let stop = Arc::new(AtomicBool::new(false));
        self.send(Job::Bench {
            depth,
            hash_mb: self.options.hash_mb.min(256),
            selectivity: self.options.selectivity,
            stop: stop.clone(),
        });
        stop
    }

    fn send(&self, job: Job) {
        // The worker lives as long as the process; a send can only fail while exiting.
        let _ = self.jobs.send(job);
    }

    /// Makes the variant searcher's table now (a variant position was set), so that the first
    /// search on it does not spend its time allocating; `isready` waits for it.
    pub fn prepare_variant(&self) {
        self.send(Job::PrepareVariant(
            self.options.hash_mb,
            self.options.variant,
        ));
    }

    /// Forgets what the search learnt (a new game).
    pub fn new_game(&self) {
        self.send(Job::Clear);
    }

    /// A book move for `pos`, if the book is on for this request and knows the position.
    pub fn book_move(&mut self, pos: Position, params: &SearchRequest) -> Option<BookMove> {
        if !self.options.own_book
            || self.options.level < BOOK_MIN_LEVEL
            || params.infinite
            || params.solve.is_some()
            || params.root_moves.is_some()
        {
            return None;
        }
        let book = self.book.as_ref()?;
        book.pick(pos.board, self.options.book_randomness, &mut self.book_rng)
    }

    /// Sends the worker the learning of `game` into the book file in use ([`LearnJob`]); it
    /// answers [`super::report::ToolReport::Learned`], for [`Core::learned`]. Refused at once
    /// for the built-in book.
    pub fn learn(&mut self, game: &crate::board::text::Game) -> Result<(), LearnError> {
        let path = self.book_path.clone().ok_or(LearnError::BuiltIn)?;
        let book = self.book.clone().unwrap_or_default();
        let job = LearnJob::new(book, path, game.clone(), self.options.threads);
        self.send(Job::Learn(Box::new(job)));
        Ok(())
    }

    /// Takes the worker's answer to [`Core::learn`]: plays from the learnt book from now on.
    /// Returns the positions added.
    pub fn learned(&mut self, result: Result<Learnt, LearnError>) -> Result<usize, LearnError> {
        let learnt = result?;
        self.book = (!learnt.book.is_empty()).then_some(learnt.book);
        Ok(learnt.added)
    }

    /// A book move told as a search would tell it: the book's depth and score, and its line (the
    /// book's best moves after it) as the principal variation.
    pub fn book_info(&self, board: crate::board::Board, m: &BookMove) -> crate::search::Info {
        use crate::search::{Bound, Info, Score};
        let exact = m.depth == crate::book::DEPTH_EXACT;
        let pv = self
            .book
            .as_ref()
            .map_or_else(|| vec![m.mv], |b| b.line(board, m.mv, 60));
        Info {
            multipv: 1,
            depth: if exact {
                board.empty_count()
            } else {
                u32::from(m.depth)
            },
            seldepth: pv.len() as u32,
            score: if exact {
                Score::Exact(m.score)
            } else {
                Score::Eval(100 * m.score)
            },
            bound: Bound::Exact,
            nodes: 0,
            time: Duration::ZERO,
            hashfull: 0,
            selectivity: if exact {
                100
            } else {
                crate::search::selectivity::DEFAULT_PERCENT
            },
            pv,
        }
    }

    /// All book moves of `board`, best first (empty when the book is off or does not know it).
    pub fn book_moves(&self, board: crate::board::Board) -> Vec<BookMove> {
        match &self.book {
            Some(b) if self.options.own_book && self.options.level >= BOOK_MIN_LEVEL => {
                b.moves(board)
            }
            _ => Vec::new(),
        }
    }

    /// Turns a request into a search plan: time from the side to move's clock or the move time
    /// (minus `MoveOverhead`), the exact-solve threshold the time allows, and the level's caps.
    pub fn plan(&self, pos: Position, params: &SearchRequest) -> Plan {
        let overhead = Duration::from_millis(self.options.move_overhead_ms);
        let empties = pos.board.empty_count();
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(clock) = params.clock(pos.side.into()) {
            let (s, h) = time_budget(clock, overhead, empties);
            soft = Some(s);
            hard = Some(h);
        }
        if let Some(mt) = params.movetime_ms {
            let h = Duration::from_millis(mt)
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            hard = Some(hard.map_or(h, |x| x.min(h)));
            // A fixed time a move is spent in full: time saved now is not given back later, and
            // an iteration cut short still improves the move (its first moves are searched
            // deeper). With a clock as well, the clock's share stays the limit where it is the
            // shorter; a longer share would only make the move time a soft limit.
            soft = soft.filter(|&x| x < h);
        }
        if params.infinite {
            soft = None;
            hard = None;
        }
        // How many empties the exact solver can take on in the time we have.
        let solve_empties = match hard {
            _ if params.depth.is_some() || params.nodes.is_some() => 0,
            None => 0,
            Some(h) => solve_threshold(h, self.options.threads),
        };
        let level = level_limits(self.options.level);
        let depth = match (params.depth, level.depth) {
            (Some(d), Some(l)) => Some(d.min(l)),
            (d, l) => d.or(l),
        };
        let solve_empties = level
            .solve_empties
            .map_or(solve_empties, |l| l.min(solve_empties));
        Plan {
            limits: Limits {
                depth,
                nodes: params.nodes,
                soft_time: soft,
                timed: hard.is_some(),
                infinite: params.infinite,
                // A depth too shallow to reach the end of the game makes the solve a search of
                // that depth: its score is a heuristic one, as when any other limit ends a solve
                // early (protocol.md, 4).
                solve: if params.depth.is_some_and(|d| d < empties) {
                    None
                } else {
                    params.solve
                },
                multipv: self.options.multipv,
                solve_empties,
                randomness: self.options.randomness.max(level.randomness),
                root_moves: params.root_moves,
                // Selective only where the level searches deeper than 4 plies: the weak levels'
                // ladder is measured full width.
                selectivity: if level.depth.is_none_or(|d| d > 4) {
                    self.options.selectivity
                } else {
                    crate::search::FULL_WIDTH
                },
            },
            hard,
        }
    }

    /// Starts a search of `position` (any game) with `plan` on the worker, stopped by the timer
    /// `hard` after its start at the latest; returns its stop flag.
    pub fn start_search<G: EngineGame>(
        &self,
        position: G,
        plan: G::Plan,
        hard: Option<Duration>,
    ) -> Result<Arc<AtomicBool>, CoreError> {
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job::Game(Box::new(SearchTask {
            position,
            plan,
            stop: stop.clone(),
            deadline: hard.map(|h| Instant::now() + h),
        }));
        self.jobs.send(job).map_err(|_| CoreError::WorkerStopped)?;
        Ok(stop)
    }
}

/// What the NBoard and GTP front ends share beyond the wedge protocol's needs: options set from
/// free text, and plans capped at a depth.
impl Core {
    /// Sets an option from `<name> [<value>]` text, the names of protocol.md section 7: the name
    /// is the longest run of leading words that names an option (case-insensitive, so `Clear
    /// Hash` works), the value the rest of the text with outer whitespace removed (a path may
    /// contain spaces). On error nothing changes and the message says why.
    pub fn set_option_text(&mut self, text: &str) -> Result<(), OptionError> {
        let text = text.trim();
        let names: Vec<&str> = super::options::declarations()
            .iter()
            .map(|d| d.name)
            .collect();
        // Byte offsets of the ends of the leading words, as many as the longest name has words (so
        // a long line costs one pass, not one per word).
        let most = names
            .iter()
            .map(|n| n.split_whitespace().count())
            .max()
            .unwrap_or(1)
            .max(1);
        let mut ends = Vec::new();
        let mut in_word = false;
        for (i, c) in text.char_indices() {
            if ends.len() == most {
                break;
            }
            if c.is_whitespace() && in_word {
                ends.push(i);
            }
            in_word = !c.is_whitespace();
        }
        if in_word && ends.len() < most {
            ends.push(text.len());
        }
        let known = ends.iter().rev().copied().find(|&end| {
            let words: Vec<&str> = text[..end].split_whitespace().collect();
            let name = words.join(" ");
            names.iter().any(|n| n.eq_ignore_ascii_case(&name))
        });
        let end = known.or_else(|| ends.first().copied()).unwrap_or(0);
        if end == 0 {
            return Err(OptionError::NoName);
        }
        let name = text[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let value = text[end..].trim();
        self.set_option(&name, (!value.is_empty()).then_some(value))
    }

    /// [`Core::plan`] for `params` with its midgame iterations capped at `depth` plies, and the
    /// hand-over to the exact solver at most at `depth + 8` empties (and 22): the solver takes over
    /// where a `depth`-ply search nearly sees the end, and only when the time allows it.
    pub fn plan_capped(&self, pos: Position, params: &SearchRequest, depth: u32) -> Plan {
        let mut plan = self.plan(pos, params);
        let depth = depth.max(1);
        plan.limits.depth = Some(plan.limits.depth.map_or(depth, |d| d.min(depth)));
        plan.limits.solve_empties = plan.limits.solve_empties.min((depth + 8).min(22));
        plan
    }
}

/// The most empties the exact solver is handed in `time` with `threads` threads. One thread: 14 to
/// 24 empties from 0.2 to 20 s (each two more empties cost about four to five times the time). More
/// threads count as more time, at `threads^0.75`: 2 threads solved FFO #20-#59 1.5-1.9 times as
/// fast as one, and the gain per thread falls as they multiply.
pub fn solve_threshold(time: Duration, threads: usize) -> u32 {
    let time = time.mul_f64((threads.clamp(1, 256) as f64).powf(0.75));
    match time {
        t if t >= Duration::from_secs(20) => 24,
        t if t >= Duration::from_secs(5) => 22,
        t if t >= Duration::from_secs(1) => 20,
        t if t >= Duration::from_millis(200) => 18,
        _ => 14,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_threshold_grows_with_time_and_threads() {
        let ms = Duration::from_millis;
        assert_eq!(solve_threshold(ms(100), 1), 14);
        assert_eq!(solve_threshold(ms(200), 1), 18);
        assert_eq!(solve_threshold(ms(1000), 1), 20);
        assert_eq!(solve_threshold(ms(5000), 1), 22);
        assert_eq!(solve_threshold(ms(60_000), 1), 24);
        // 0.7 s with one thread is not enough for 20 empties; with two it is (x1.68).
        assert_eq!(solve_threshold(ms(700), 1), 18);
        assert_eq!(solve_threshold(ms(700), 2), 20);
        assert_eq!(solve_threshold(ms(3000), 4), 22);
        // Never more than 24, whatever the threads.
        assert_eq!(solve_threshold(ms(60_000), 256), 24);
    }

    #[test]
    fn a_failed_resize_names_the_table_that_failed() {
        let kept = |asked: usize, table, mb: usize| {
            let error = crate::search::TableAllocError::one(mb << 20);
            let error = HashResizeError { table, error };
            CoreError::HashKept {
                asked,
                error,
                in_use: 16,
            }
            .to_string()
        };
        let exact = kept(4096, HashTableKind::Search, 4096);
        assert!(
            exact.starts_with("Hash 4096: cannot allocate 4096 MB"),
            "{exact}"
        );
        assert!(!exact.contains("(the"), "{exact}");
        assert!(
            exact.ends_with("; the 16 MB table in use is kept"),
            "{exact}"
        );
        // A table in use whose Hash was no power of two is named by its real size.
        let error = HashResizeError {
            table: HashTableKind::Search,
            error: crate::search::TableAllocError::one(4096 << 20),
        };
        let odd = CoreError::HashKept {
            asked: 4096,
            error,
            in_use: 100,
        };
        assert!(
            odd.to_string()
                .ends_with("; the table in use (Hash 100: 64 MB) is kept"),
            "{odd}"
        );
        let rounded = kept(5000, HashTableKind::Search, 4096);
        assert!(rounded.contains("(the largest power of two"), "{rounded}");
        // Whatever the sizes, the solver's failure is named as the solver's.
        for (asked, mb) in [(4096, 1024), (16, 4), (5000, 1024)] {
            let solver = kept(asked, HashTableKind::Solver, mb);
            assert!(solver.contains("(the endgame solver's table"), "{solver}");
            assert!(!solver.contains("largest power"), "{solver}");
        }
        let both = kept(16384, HashTableKind::Both, 20480);
        assert!(both.contains("cannot allocate 20480 MB"), "{both}");
        assert!(both.contains("together beside the tables in use"), "{both}");
    }
}
