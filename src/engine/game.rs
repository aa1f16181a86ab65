//! The games the engine process searches, behind one seam: what the worker needs from a game to
//! search it and count its moves ([`EngineGame`]), the jobs that do it for any game
//! ([`SearchTask`], [`PerftTask`]: the hard-limit timer, the progress lines, the `perft` divide are
//! written once), and what they report ([`SearchEvent`]).
//!
//! Two games plug in: the 8 x 8 game ([`crate::board::Position`], with the pattern evaluation and
//! Multi-ProbCut search) and variant boards ([`crate::variant::board::Board`], with their own
//! searcher, made at the first variant search). [`GameEvent`] is the one list of them that the
//! front ends match on. A new game implements [`EngineGame`], adds an arm to [`GameEvent`] and a
//! searcher to [`Searchers`], and its front end words its reports in `src/protocol/`.

use super::report::{Report, ToolReport};
use super::Event;
use crate::board::Position;
use crate::game::Game;
use crate::search::{Info, Limits, ProgressSnapshot, SearchResult};
use crate::variant::board::Board as VariantBoard;
use crossbeam_channel::{bounded, RecvTimeoutError, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a running search reports its progress.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);
/// The least time a timed search gets from its start, however late it starts: a few plies.
const LATE_START_GRACE: Duration = Duration::from_millis(10);

/// The deadline of a search that starts `now`: a search that starts at or after its deadline (it
/// waited behind a table's clearing or resizing, which the `go`'s time pays for) still gets
/// [`LATE_START_GRACE`], so that its move is a searched one, not the first legal.
fn late_start(deadline: Instant, now: Instant) -> Instant {
    if now >= deadline {
        now + LATE_START_GRACE
    } else {
        deadline
    }
}

/// What a search or a `perft` count of a game reports, in the game's own types.
pub enum SearchEvent<G: EngineGame> {
    /// A finished iteration, or a bound found on the way.
    Info(G::Info),
    /// The search finished.
    Done(G::Outcome),
    /// One root move's `perft` count.
    PerftMove(G::Move, u64),
}

/// The reports of every game the engine plays, one arm each.
pub enum GameEvent {
    /// The 8 x 8 game.
    Standard(SearchEvent<Position>),
    /// A variant board.
    Variant(SearchEvent<VariantBoard>),
}

/// The searchers the worker keeps from job to job, one per game.
pub struct Searchers {
    /// The 8 x 8 searcher (tables, evaluation, helper threads).
    pub standard: crate::search::Searcher,
    /// The variant searcher, made at the first variant search.
    pub variant: super::variant::VariantWorker,
}

impl Searchers {
    /// The 8 x 8 searcher `standard`; the other games' searchers are made at their first search.
    pub fn new(standard: crate::search::Searcher) -> Searchers {
        Searchers {
            standard,
            variant: Default::default(),
        }
    }
}

/// A game the engine's worker can search and count.
pub trait EngineGame: Game {
    /// What one search is given: limits, and whatever else the game's searcher needs.
    type Plan: Send;
    /// A search's report on the way (a finished iteration).
    type Info: Send;
    /// A search's result.
    type Outcome: Send;

    /// Searches `self` with `plan` until it is done or `stop` is set; each report goes to `info`.
    fn search(
        &self,
        searchers: &mut Searchers,
        plan: &Self::Plan,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(Self::Info),
    ) -> Self::Outcome;

    /// The live figures of the game's searcher, read once a second while it searches (`None`: the
    /// game has none).
    fn progress(searchers: &Searchers) -> Option<Arc<crate::search::Progress>>;

    /// The leaves `depth` plies below `self` (a pass is a ply); `None` once `stop` is set.
    fn leaves(&self, depth: u32, stop: &AtomicBool) -> Option<u64>;

    /// The report of this game's event.
    fn report(event: SearchEvent<Self>) -> GameEvent;
}

impl EngineGame for Position {
    type Plan = Limits;
    type Info = Info;
    type Outcome = SearchResult;

    fn search(
        &self,
        searchers: &mut Searchers,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(Info),
    ) -> SearchResult {
        searchers
            .standard
            .search(self.board, limits, stop.clone(), &mut |i| info(i))
    }

    fn progress(searchers: &Searchers) -> Option<Arc<crate::search::Progress>> {
        Some(searchers.standard.progress())
    }

    fn leaves(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        crate::tools::perft::perft_stoppable(self.board, depth, stop)
    }

    fn report(event: SearchEvent<Position>) -> GameEvent {
        GameEvent::Standard(event)
    }
}

impl EngineGame for VariantBoard {
    type Plan = super::variant::VariantSearch;
    type Info = crate::variant::search::Report;
    type Outcome = crate::variant::search::Report;

    fn search(
        &self,
        searchers: &mut Searchers,
        plan: &super::variant::VariantSearch,
        stop: &Arc<AtomicBool>,
        info: &mut dyn FnMut(Self::Info),
    ) -> Self::Outcome {
        searchers.variant.search(self, plan, stop, info)
    }

    fn progress(_: &Searchers) -> Option<Arc<crate::search::Progress>> {
        None
    }

    fn leaves(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        crate::variant::perft::perft_stoppable(self, depth, stop)
    }

    fn report(event: SearchEvent<VariantBoard>) -> GameEvent {
        GameEvent::Variant(event)
    }
}

/// A job of the worker for some game: run on the worker's thread with its searchers, reporting to
/// the session loop.
pub trait Task: Send {
    /// Runs the job to its end (or its stop flag).
    fn run(self: Box<Self>, searchers: &mut Searchers, events: &Sender<Event>);
}

/// Sends `report` to the session loop; a send fails only while the process exits.
pub(super) fn send(events: &Sender<Event>, report: Report) {
    let _ = events.send(Event::Worker(report));
}

/// A search of a position of `G`.
pub struct SearchTask<G: EngineGame> {
    /// The position.
    pub position: G,
    /// What the search is given.
    pub plan: G::Plan,
    /// This search's stop flag (set by `stop`, `quit` or the timer).
    pub stop: Arc<AtomicBool>,
    /// When the timer stops the search at the latest.
    pub deadline: Option<Instant>,
}

impl<G: EngineGame> Task for SearchTask<G> {
    /// A timer thread sets the stop flag at the deadline (the search itself only ever looks at one
    /// atomic flag) and, once a second, sends a progress snapshot of the game's searcher; the
    /// search's reports follow as they come, then [`SearchEvent::Done`].
    fn run(self: Box<Self>, searchers: &mut Searchers, events: &Sender<Event>) {
        let task = *self;
        let deadline = task.deadline.map(|d| late_start(d, Instant::now()));
        // The timer ends when `done` is dropped at the end of the search.
        let (done, done_rx) = bounded::<()>(0);
        let progress = G::progress(searchers);
        let (stop, events2) = (task.stop.clone(), events.clone());
        let timer = std::thread::Builder::new()
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
                        stop.store(true, Ordering::Relaxed);
                        // Done: from now on it wakes for progress lines only.
                        deadline = None;
                    }
                    if now >= next_report {
                        if let Some(p) = &progress {
                            let snapshot: ProgressSnapshot = p.snapshot();
                            send(&events2, Report::Progress(snapshot, now - start));
                        }
                        next_report += PROGRESS_EVERY;
                    }
                }
            });
        let result = task
            .position
            .search(searchers, &task.plan, &task.stop, &mut |info| {
                send(events, Report::Game(G::report(SearchEvent::Info(info))));
            });
        // The timer's last progress line comes before `Done`, never after it.
        drop(done);
        if let Ok(handle) = timer {
            let _ = handle.join();
        }
        send(events, Report::Game(G::report(SearchEvent::Done(result))));
    }
}

/// A `perft` count of a position of `G`, below each root move.
pub struct PerftTask<G: EngineGame> {
    /// The position.
    pub position: G,
    /// Plies (at least 1).
    pub depth: u32,
    /// Ends the count between two root moves, or within one.
    pub stop: Arc<AtomicBool>,
}

impl<G: EngineGame> Task for PerftTask<G> {
    /// The count below each legal move (a forced pass is one move), each reported as soon as it is
    /// known, then the total (a finished game: no move, one leaf, as `wedge perft` counts it);
    /// `stop` ends it within milliseconds.
    fn run(self: Box<Self>, _: &mut Searchers, events: &Sender<Event>) {
        let start = Instant::now();
        let depth = self.depth.max(1);
        let pos = self.position;
        let moves = if pos.is_over() {
            Vec::new()
        } else if pos.must_pass() {
            vec![G::PASS]
        } else {
            pos.moves()
        };
        let mut total = u64::from(pos.is_over());
        let mut stopped = false;
        for mv in moves {
            let Some(child) = pos.play(mv) else { continue };
            let Some(n) = child.leaves(depth - 1, &self.stop) else {
                stopped = true;
                break;
            };
            total += n;
            send(
                events,
                Report::Game(G::report(SearchEvent::PerftMove(mv, n))),
            );
        }
        send(
            events,
            Report::Tool(ToolReport::PerftDone {
                depth,
                total,
                time: start.elapsed(),
                stopped,
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_that_starts_late_still_gets_a_moment() {
        let now = Instant::now();
        let later = now + Duration::from_secs(1);
        assert_eq!(late_start(later, now), later);
        // A deadline still ahead is kept, however close.
        let soon = now + Duration::from_millis(1);
        assert_eq!(late_start(soon, now), soon);
        let past = now.checked_sub(Duration::from_millis(500)).unwrap_or(now);
        assert_eq!(late_start(past, now), now + LATE_START_GRACE);
    }
}
