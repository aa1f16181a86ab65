//! The endgame solver's helper threads: young-brothers-wait parallel search.
//!
//! A node with enough empties searches its first move alone; if that does not cut off, the rest of
//! its moves become a [`Split`] that idle helpers join. Every thread at a split takes the next
//! unsearched move, searches it against the split's current alpha and reports back; a fail-high
//! raises the split's cut-off flag, which makes everyone under it return early. The thread that
//! made the split works on it too, and while it waits for its helpers to finish it takes jobs from
//! splits under its own (never others: it must be free the moment its helpers are).
//!
//! This module owns the threads and the shared split records; the searching itself is the
//! solver's ([`super`]). All threads share one transposition table
//! ([`super::shared_table::EndTable`]).

use crate::search::movelist::MAX_MOVES;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The flags that, once any is set, make a thread's search return early: the solve's stop flag and
/// the cut-off flags of every split the thread's current work lies under.
pub(super) type AbortChain = Vec<Arc<AtomicBool>>;

/// A node whose remaining moves are searched by several threads.
pub(super) struct Split {
    /// The side to move's discs.
    pub p: u64,
    /// The other side's discs.
    pub o: u64,
    /// Empty squares.
    pub n: u32,
    /// The node's upper bound (a score reaching it cuts off).
    pub beta: i32,
    /// The node's lower bound, raised as moves are found to be better.
    pub alpha: AtomicI32,
    /// The best score and move found so far (the first move's, searched before the split).
    pub best: Mutex<(i32, u8)>,
    /// Set on a cut-off: the work under this split is no longer needed.
    pub cutoff: Arc<AtomicBool>,
    /// The flags that abort work under this split (its own cut-off flag last).
    pub chain: AbortChain,
    /// The solve's table generation, for the helpers' stores.
    pub generation: u8,
    /// The probable-cut level the node is searched at.
    pub selectivity: u8,
    /// Helpers still working on it.
    pub workers: AtomicUsize,
    /// Nodes searched by the helpers.
    pub nodes: AtomicU64,
    moves: [u8; MAX_MOVES],
    len: usize,
    next: AtomicUsize,
}

impl Split {
    /// A split of `moves` (at most [`MAX_MOVES`]) at the given node, with the best result so far.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        p: u64,
        o: u64,
        n: u32,
        alpha: i32,
        beta: i32,
        best: (i32, u8),
        moves: &[u8],
        parent_chain: &[Arc<AtomicBool>],
        (generation, selectivity): (u8, u8),
    ) -> Split {
        let cutoff = Arc::new(AtomicBool::new(false));
        let mut chain = parent_chain.to_vec();
        chain.push(cutoff.clone());
        let mut list = [0u8; MAX_MOVES];
        let len = moves.len().min(MAX_MOVES);
        list[..len].copy_from_slice(&moves[..len]);
        Split {
            p,
            o,
            n,
            beta,
            alpha: AtomicI32::new(alpha),
            best: Mutex::new(best),
            cutoff,
            chain,
            generation,
            selectivity,
            workers: AtomicUsize::new(0),
            nodes: AtomicU64::new(0),
            moves: list,
            len,
            next: AtomicUsize::new(0),
        }
    }

    /// The next move nobody has taken yet, unless the split has cut off.
    pub fn next_move(&self) -> Option<u8> {
        if self.cutoff.load(Ordering::Relaxed) {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        (i < self.len).then(|| self.moves[i])
    }

    /// Records a move's score: a new best, a raised alpha, and the cut-off flag on a fail-high.
    pub fn report(&self, sq: u8, v: i32) {
        let Ok(mut best) = self.best.lock() else {
            return;
        };
        if v > best.0 {
            *best = (v, sq);
            self.alpha.fetch_max(v, Ordering::Relaxed);
            if v >= self.beta {
                self.cutoff.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The best score and move found.
    pub fn result(&self) -> (i32, u8) {
        match self.best.lock() {
            Ok(best) => *best,
            Err(poisoned) => *poisoned.into_inner(),
        }
    }
}

/// What a helper is asked to do.
pub(super) enum Job {
    /// Join this split.
    Help(Arc<Split>),
    /// Leave (the pool is being dropped).
    Quit,
}

/// What a thread of the pool is doing, as far as recruiting goes.
enum State {
    /// Searching: not available.
    Busy,
    /// Waiting for a job: available for any split.
    Idle,
    /// Waiting for the helpers of its own split (whose cut-off flag this is) to finish: available
    /// for splits under that one only, so it is always free again by the time they are done.
    Waiting(Arc<AtomicBool>),
}

/// One thread's place in the pool: its state and the queue its jobs arrive on.
struct Slot {
    state: Mutex<State>,
    sender: Sender<Job>,
}

/// What the threads of a pool share: every thread's slot (the owner's is slot 0) and how many of
/// them are available.
pub(super) struct PoolShared {
    slots: Vec<Slot>,
    available: AtomicUsize,
}

impl PoolShared {
    /// Whether some thread may be available right now (a hint: it may be taken by the time it is
    /// asked, or, waiting on its own split, accept only work under it).
    #[inline]
    pub fn has_idle(&self) -> bool {
        self.available.load(Ordering::Relaxed) != 0
    }

    /// Sends up to `max` available threads to `split`; returns how many went.
    pub fn recruit(&self, split: &Arc<Split>, max: usize) -> usize {
        let mut got = 0;
        for slot in &self.slots {
            if got == max {
                break;
            }
            // A slot whose thread is changing its own state is skipped, not waited for.
            let Ok(mut state) = slot.state.try_lock() else {
                continue;
            };
            let eligible = match &*state {
                State::Busy => false,
                State::Idle => true,
                State::Waiting(flag) => split.chain.iter().any(|f| Arc::ptr_eq(f, flag)),
            };
            if !eligible {
                continue;
            }
            split.workers.fetch_add(1, Ordering::AcqRel);
            if slot.sender.send(Job::Help(split.clone())).is_err() {
                // The thread has gone (cannot happen while the pool lives).
                split.workers.fetch_sub(1, Ordering::AcqRel);
                continue;
            }
            *state = State::Busy;
            self.available.fetch_sub(1, Ordering::Relaxed);
            got += 1;
        }
        got
    }

    /// Marks thread `slot` available: for any split (`None`) or for splits under the one with this
    /// cut-off flag.
    fn make_available(&self, slot: usize, under: Option<Arc<AtomicBool>>) {
        if let Some(s) = self.slots.get(slot) {
            let mut state = match s.state.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            if matches!(*state, State::Busy) {
                self.available.fetch_add(1, Ordering::Relaxed);
            }
            *state = match under {
                None => State::Idle,
                Some(flag) => State::Waiting(flag),
            };
        }
    }

    /// Marks thread `slot` busy again unless a job was sent to it meanwhile; returns whether it did
    /// (`false`: a job is in its queue).
    fn try_make_busy(&self, slot: usize) -> bool {
        let Some(s) = self.slots.get(slot) else {
            return true;
        };
        let mut state = match s.state.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if matches!(*state, State::Busy) {
            return false;
        }
        *state = State::Busy;
        self.available.fetch_sub(1, Ordering::Relaxed);
        true
    }
}

/// A thread's handle on the pool: the shared part, its own slot and its job queue.
#[derive(Clone)]
pub(super) struct Member {
    /// The shared part.
    pub shared: Arc<PoolShared>,
    slot: usize,
    jobs: Receiver<Job>,
}

impl Member {
    /// Serves jobs until told to quit (a helper thread's life). `help` does the work of one job.
    pub fn serve(&self, mut help: impl FnMut(&Split)) {
        loop {
            self.shared.make_available(self.slot, None);
            match self.jobs.recv() {
                Ok(Job::Help(split)) => {
                    help(&split);
                    split.workers.fetch_sub(1, Ordering::AcqRel);
                }
                Ok(Job::Quit) | Err(_) => break,
            }
        }
    }

    /// Waits until the helpers of `split` (this thread's own) are done, meanwhile doing jobs under
    /// it with `help`.
    pub fn wait(&self, split: &Split, mut help: impl FnMut(&Split)) {
        if split.workers.load(Ordering::Acquire) == 0 {
            return;
        }
        self.shared
            .make_available(self.slot, Some(split.cutoff.clone()));
        let mut spins = 0u32;
        loop {
            if let Ok(job) = self.jobs.try_recv() {
                if let Job::Help(sub) = job {
                    help(&sub);
                    sub.workers.fetch_sub(1, Ordering::AcqRel);
                }
                self.shared
                    .make_available(self.slot, Some(split.cutoff.clone()));
                continue;
            }
            if split.workers.load(Ordering::Acquire) == 0 && self.shared.try_make_busy(self.slot) {
                return;
            }
            if spins < 1000 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// The helper threads of one solver; dropping it stops and joins them.
pub(super) struct Pool {
    shared: Arc<PoolShared>,
    owner: Option<Receiver<Job>>,
    handles: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts `helpers` threads, each running `run(member)` (which should call [`Member::serve`])
    /// until it receives [`Job::Quit`]. Threads that fail to start are left out.
    pub fn start<F>(helpers: usize, run: F) -> Pool
    where
        F: Fn(Member) + Send + Clone + 'static,
    {
        let (mut slots, mut receivers) = (Vec::new(), Vec::new());
        for _ in 0..=helpers {
            let (sender, receiver) = unbounded();
            slots.push(Slot {
                state: Mutex::new(State::Busy),
                sender,
            });
            receivers.push(receiver);
        }
        let shared = Arc::new(PoolShared {
            slots,
            available: AtomicUsize::new(0),
        });
        let mut receivers = receivers.into_iter();
        let owner = receivers.next();
        let mut handles = Vec::new();
        for (i, jobs) in receivers.enumerate() {
            let member = Member {
                shared: shared.clone(),
                slot: i + 1,
                jobs,
            };
            let run = run.clone();
            match std::thread::Builder::new()
                .name(format!("solver-helper-{}", i + 1))
                .spawn(move || run(member))
            {
                Ok(h) => handles.push(h),
                Err(e) => {
                    log::warn!("cannot start solver helper thread: {e}");
                    break;
                }
            }
        }
        Pool {
            shared,
            owner,
            handles,
        }
    }

    /// The owning thread's handle (slot 0), taken once.
    pub fn owner(&mut self) -> Option<Member> {
        self.owner.take().map(|jobs| Member {
            shared: self.shared.clone(),
            slot: 0,
            jobs,
        })
    }

    /// Number of helper threads running.
    pub fn helpers(&self) -> usize {
        self.handles.len()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for slot in self.shared.slots.iter().skip(1) {
            let _ = slot.sender.send(Job::Quit);
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}
