//! The variant player's search: iterative-deepening negamax with alpha-beta (or plain minimax on
//! request), a transposition table, move ordering, an exact solve near the end, node counting and
//! one report per finished iteration.
//!
//! Values are from the side to move's point of view: evaluations in units of about a hundredth of
//! a disc (see `eval`), finished games as `WIN + d`, `-WIN + d` or `0` for a final disc difference
//! `d` (so any win beats any evaluation and a bigger win a smaller one). A pass costs no depth
//! (only a move fills a square), so a search `empties` plies deep sees every game to its end: it is
//! the exact solve, which the iterations jump to once few enough squares are empty.
//!
//! For the course's demonstration the options turn alpha-beta off (every node searched with the
//! full window, no cut-off, no table) and order moves by scanline instead of TT move, corner-like
//! squares and the opponent's mobility: [`Searcher::search_depth`] with both then gives the plain
//! minimax value and node count at one depth.

use super::bits::Bits;
use super::board::{flips, moves, Board, Square};
use super::eval::{evaluate, Layout, Weights};
use super::time::{plan, Limits, TimePlan};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The value of a won game before its disc difference is added.
pub const WIN: i32 = 1_000_000;
/// Larger than any value.
const INFINITY: i32 = 2 * WIN;
/// Evaluations are clamped to this, far from `WIN`.
const EVAL_LIMIT: i32 = WIN / 2;
/// The time and the stop flag are looked at every this many nodes (a power of two).
const CHECK_EVERY: u64 = 1024;
/// With few empties, the iterations jump to the exact solve after this depth.
const SOLVE_AFTER_DEPTH: u32 = 4;
/// The default table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Nodes at least this far from the leaves order their moves by the opponent's mobility after
/// each move (which costs a move generation per move); nearer the leaves by square class alone.
const MOBILITY_ORDER_DEPTH: u32 = 3;

/// The disc difference of a decided value (`WIN + d`, `-WIN + d`, or the draw `0` when `exact`),
/// or `None` for an evaluation.
pub fn decided(value: i32) -> Option<i32> {
    if value >= WIN - 256 {
        Some(value - WIN)
    } else if value <= -WIN + 256 {
        Some(value + WIN)
    } else {
        None
    }
}

/// How the search runs: the switches of the course's demonstration and the solve threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Alpha-beta pruning; off: plain minimax (full window everywhere, no table).
    pub alpha_beta: bool,
    /// Try moves in scanline order (row by row, left to right) instead of the ordering heuristics.
    pub scanline_order: bool,
    /// Use the transposition table (values and best moves); only with alpha-beta.
    pub transposition_table: bool,
    /// With this many empty squares or fewer, jump to the exact solve after a few shallow
    /// iterations (only when the depth is not limited).
    pub solve_empties: u32,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            alpha_beta: true,
            scanline_order: false,
            transposition_table: true,
            solve_empties: 14,
        }
    }
}

/// What one iteration (or the whole search) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Plies searched (for an exact solve: the number of empty squares).
    pub depth: u32,
    /// The value for the side to move (see [`decided`]).
    pub value: i32,
    /// The best move (`None`: the side to move must pass, or the game is over).
    pub best: Option<Square>,
    /// The principal variation from the table, the best move first (passes left out).
    pub pv: Vec<Square>,
    /// Nodes searched so far in this search (every position visited, leaves included).
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The value is the exact final disc difference (every line was searched to the end).
    pub exact: bool,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Bound kinds of table entries.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// No best move in a table entry.
const NO_MOVE: u16 = u16::MAX;

/// One transposition table entry (16 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    key: u64,
    value: i32,
    best: u16,
    depth: u8,
    bound: u8,
}

/// The search: its table, options and evaluation weights, reused from move to move.
pub struct Searcher {
    /// How the search runs.
    pub options: SearchOptions,
    /// The evaluation's weights.
    pub weights: Weights,
    table: Vec<Entry>,
    /// The table holds entries of a search (a cleared or new table does not, and clearing it
    /// again would only cost time).
    table_used: bool,
    hash_mb: usize,
    layout: Option<Layout>,
    nodes: u64,
    aborted: bool,
    start: Instant,
    hard: Option<Instant>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(DEFAULT_HASH_MB)
    }
}

/// The discs and sets of one node, the side to move first.
#[derive(Clone, Copy)]
struct Node {
    p: Bits,
    o: Bits,
}

impl Searcher {
    /// A searcher with a table of about `hash_mb` MB (allocated at the first search).
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            options: SearchOptions::default(),
            weights: Weights::default(),
            table: Vec::new(),
            table_used: false,
            hash_mb: hash_mb.max(1),
            layout: None,
            nodes: 0,
            aborted: false,
            start: Instant::now(),
            hard: None,
        }
    }

    /// Changes the table size (MB); the table is emptied.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb.max(1);
        self.table = Vec::new();
        self.table_used = false;
    }

    /// Allocates the table now if the options use one, so that the next search does not spend
    /// its time on it (a failed allocation falls back to a smaller table).
    pub fn prepare(&mut self) {
        if self.options.transposition_table && self.table.is_empty() {
            self.table = allocate_table(self.hash_mb);
            self.table_used = false;
        }
    }

    /// Empties the table (a new game).
    pub fn clear(&mut self) {
        if self.table_used {
            self.table.iter_mut().for_each(|e| *e = Entry::default());
            self.table_used = false;
        }
        self.layout = None;
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `board` within `limits` (no limit at all: until `stop` is set or the game is
    /// solved), calling `on_iteration` after each finished iteration, and returns the last report
    /// (whose `best` is a legal move whenever the side to move has one). `stop` ends the search at
    /// once; what the finished iterations found is kept.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Report),
    ) -> Report {
        let time_plan = plan(limits, board.empties());
        self.begin(board, time_plan);
        let root = Node {
            p: board.player_discs(),
            o: board.opponent_discs(),
        };
        let empties = board.empties();
        let mut last = self.unsearched(root);
        if last.best.is_none() {
            return last;
        }
        let one_move = board.mobility() == 1;
        let max_depth = limits.depth.unwrap_or(u32::MAX).clamp(1, empties.max(1));
        let solving = limits.depth.is_none() && empties <= self.options.solve_empties;
        let mut depth = 1;
        loop {
            // A few cheap iterations first give a move to fall back on if the solve runs out of
            // time.
            if solving && depth > SOLVE_AFTER_DEPTH {
                depth = max_depth;
            }
            let (value, best, complete) = self.root(root, depth, stop, last.best);
            match best {
                Some(best) if complete => {
                    last = Report {
                        depth,
                        value,
                        best: Some(best),
                        pv: self.principal_variation(root, best, depth),
                        nodes: self.nodes,
                        time: self.start.elapsed(),
                        exact: depth >= empties,
                    };
                    on_iteration(&last);
                }
                // An unfinished iteration: its best finished move beat the last iteration's best
                // (tried first unless in scanline order), so it is played; the report keeps the
                // last finished depth.
                Some(best) if !self.options.scanline_order && last.best != Some(best) => {
                    last.best = Some(best);
                    last.pv = vec![best];
                }
                _ => {}
            }
            if !complete || depth >= max_depth {
                break;
            }
            // A forced move under a time limit needs no deeper look.
            if one_move && (limits.clock.is_some() || limits.movetime.is_some()) {
                break;
            }
            if let Some(soft) = time_plan.soft {
                if self.start.elapsed() >= soft {
                    break;
                }
            }
            if self.out_of_time(stop) {
                break;
            }
            depth += 1;
        }
        last.nodes = self.nodes;
        last.time = self.start.elapsed();
        last
    }

    /// One search of `board` exactly `depth` plies deep (no iterative deepening, no time limit),
    /// with the table emptied first: the course's demonstration runs it with alpha-beta on and off.
    pub fn search_depth(&mut self, board: &Board, depth: u32) -> Report {
        self.begin(board, TimePlan::UNLIMITED);
        self.clear();
        self.layout = Some(Layout::new(board.playable()));
        let root = Node {
            p: board.player_discs(),
            o: board.opponent_discs(),
        };
        let mut report = self.unsearched(root);
        let never = AtomicBool::new(false);
        if report.best.is_none() && !report.exact && depth > 0 {
            // The side to move must pass: the value is the passed position's, searched to the
            // same depth (a pass costs no depth), and the move is the pass.
            let passed = Node {
                p: root.o,
                o: root.p,
            };
            report.value = -self.negamax(passed, depth, -INFINITY, INFINITY, &never);
            report.depth = depth;
            report.exact = depth >= board.empties();
        }
        if report.best.is_none() || depth == 0 {
            report.nodes = self.nodes;
            report.time = self.start.elapsed();
            return report;
        }
        let (value, best, _) = self.root(root, depth, &never, None);
        report.depth = depth;
        report.value = value;
        report.best = best;
        report.nodes = self.nodes;
        report.time = self.start.elapsed();
        report.exact = depth >= board.empties();
        if let Some(best) = best {
            report.pv = self.principal_variation(root, best, depth);
        }
        report
    }

    /// Resets the counters and clocks, reads a new layout (emptying the table) and allocates the
    /// table if needed.
    fn begin(&mut self, board: &Board, time_plan: TimePlan) {
        self.nodes = 0;
        self.aborted = false;
        self.start = Instant::now();
        self.hard = time_plan.hard.map(|h| self.start + h);
        if self.layout.map(|l| l.playable) != Some(board.playable()) {
            self.clear();
            self.layout = Some(Layout::new(board.playable()));
        }
        self.prepare();
        self.table_used = !self.table.is_empty();
    }

    /// The report before any search: the evaluation, or the final value of a finished game, and
    /// the first legal move (scanline) as a fallback best move.
    fn unsearched(&mut self, root: Node) -> Report {
        let empty = self.playable() & !(root.p | root.o);
        let mine = moves(root.p, root.o, empty);
        let theirs = moves(root.o, root.p, empty);
        let value = if mine.is_empty() && theirs.is_empty() {
            final_value(root)
        } else {
            self.eval(root, mine.count(), theirs.count())
        };
        Report {
            depth: 0,
            value,
            best: mine.first().map(Square::from_index),
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            exact: mine.is_empty() && theirs.is_empty(),
        }
    }

    fn playable(&self) -> Bits {
        self.layout.map_or(Bits::EMPTY, |l| l.playable)
    }

    fn eval(&self, n: Node, pm: u32, om: u32) -> i32 {
        match &self.layout {
            Some(layout) => {
                evaluate(n.p, n.o, pm, om, layout, &self.weights).clamp(-EVAL_LIMIT, EVAL_LIMIT)
            }
            None => 0,
        }
    }

    /// Searches the root's moves to `depth`, the move `first` (the last iteration's best) first.
    /// Returns the value, the best move and whether the iteration finished. An unfinished one
    /// still returns the best of the moves it finished (the first of them is the last iteration's
    /// best, so a move that beat it is better), or `None` if it finished none.
    fn root(
        &mut self,
        root: Node,
        depth: u32,
        stop: &AtomicBool,
        first: Option<Square>,
    ) -> (i32, Option<Square>, bool) {
        let empty = self.playable() & !(root.p | root.o);
        let set = moves(root.p, root.o, empty);
        let mut list = [(0i32, 0u8); 256];
        let n = self.order(root, set, depth, first.map(|s| s.index() as u16), &mut list);
        let alpha_beta = self.options.alpha_beta;
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best_value = -INFINITY;
        let mut best = None;
        for &(_, sq) in &list[..n] {
            let sq = usize::from(sq);
            let f = flips(sq, root.p, root.o);
            let child = Node {
                p: root.o ^ f,
                o: root.p | f | Bits::square(sq),
            };
            let value = -self.negamax(child, depth - 1, -beta, -alpha, stop);
            if self.aborted {
                return (best_value, best, false);
            }
            if value > best_value {
                best_value = value;
                best = Some(Square::from_index(sq));
                if alpha_beta && value > alpha {
                    alpha = value;
                }
            }
        }
        if let Some(b) = best {
            self.store(
                root,
                depth,
                best_value,
                -INFINITY,
                INFINITY,
                b.index() as u16,
            );
        }
        (best_value, best, true)
    }

    /// Negamax to `depth` plies in the window `alpha..beta` (fail-soft); the full window and no
    /// cut-off with alpha-beta off.
    fn negamax(
        &mut self,
        n: Node,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.out_of_time(stop) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let empty = self.playable() & !(n.p | n.o);
        let mine = moves(n.p, n.o, empty);
        if mine.is_empty() {
            let theirs = moves(n.o, n.p, empty);
            if theirs.is_empty() {
                return final_value(n);
            }
            if depth == 0 {
                return self.eval(n, 0, theirs.count());
            }
            // A pass fills no square and costs no depth.
            let passed = Node { p: n.o, o: n.p };
            return -self.negamax(passed, depth, -beta, -alpha, stop);
        }
        if depth == 0 {
            let theirs = moves(n.o, n.p, empty);
            return self.eval(n, mine.count(), theirs.count());
        }
        let alpha_beta = self.options.alpha_beta;
        let use_table = alpha_beta && self.options.transposition_table && !self.table.is_empty();
        let mut table_move = NO_MOVE;
        if use_table {
            if let Some(e) = self.probe(n) {
                table_move = e.best;
                if u32::from(e.depth) >= depth {
                    let cut = match e.bound {
                        EXACT => true,
                        LOWER => e.value >= beta,
                        _ => e.value <= alpha,
                    };
                    if cut {
                        return e.value;
                    }
                }
            }
        }
        let mut list = [(0i32, 0u8); 256];
        let count = self.order(n, mine, depth, Some(table_move), &mut list);
        let alpha_in = alpha;
        let mut best_value = -INFINITY;
        let mut best = NO_MOVE;
        for &(_, sq) in &list[..count] {
            let sq = usize::from(sq);
            let f = flips(sq, n.p, n.o);
            let child = Node {
                p: n.o ^ f,
                o: n.p | f | Bits::square(sq),
            };
            let value = -self.negamax(child, depth - 1, -beta, -alpha, stop);
            if self.aborted {
                return 0;
            }
            if value > best_value {
                best_value = value;
                best = sq as u16;
                if alpha_beta && value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            self.store(n, depth, best_value, alpha_in, beta, best);
        }
        best_value
    }

    /// Fills `list` with the moves of `set` in the order to try them and returns how many: the
    /// table move first, then by square class and (far from the leaves) the fewest replies; or
    /// scanline order when asked.
    fn order(
        &self,
        n: Node,
        set: Bits,
        depth: u32,
        first: Option<u16>,
        list: &mut [(i32, u8); 256],
    ) -> usize {
        let mut count = 0;
        let scanline = self.options.scanline_order;
        let layout = self.layout;
        let empty = self.playable() & !(n.p | n.o);
        for sq in set {
            let score = if scanline {
                0
            } else if first == Some(sq as u16) {
                i32::MAX
            } else {
                let bonus = layout.map_or(0, |l| l.order_bonus(sq));
                if depth >= MOBILITY_ORDER_DEPTH {
                    let f = flips(sq, n.p, n.o);
                    let (cp, co) = (n.o ^ f, n.p | f | Bits::square(sq));
                    let replies = moves(cp, co, empty & !Bits::square(sq)).count() as i32;
                    bonus - 64 * replies
                } else {
                    bonus
                }
            };
            list[count] = (score, sq as u8);
            count += 1;
        }
        if !scanline {
            // Stable, so equal scores keep scanline order: the search is deterministic.
            list[..count].sort_by_key(|e| std::cmp::Reverse(e.0));
        }
        count
    }

    fn out_of_time(&self, stop: &AtomicBool) -> bool {
        stop.load(Ordering::Relaxed) || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// The table slot of a node: the low bits of its hash.
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, n: Node) -> Option<Entry> {
        let key = node_hash(n);
        let e = self.table[self.slot(key)];
        (e.key == key).then_some(e)
    }

    /// Stores a result: the bound is from the window it was searched in. Replaces an entry of
    /// another position or one no deeper.
    fn store(&mut self, n: Node, depth: u32, value: i32, alpha: i32, beta: i32, best: u16) {
        if self.table.is_empty() || !self.options.transposition_table || !self.options.alpha_beta {
            return;
        }
        let key = node_hash(n);
        let slot = self.slot(key);
        let old = self.table[slot];
        let depth = depth.min(255) as u8;
        if old.key == key && old.depth > depth {
            return;
        }
        let bound = if value <= alpha {
            UPPER
        } else if value >= beta {
            LOWER
        } else {
            EXACT
        };
        self.table[slot] = Entry {
            key,
            value,
            best,
            depth,
            bound,
        };
    }

    /// The best line: `best`, then the table's best moves while they are legal (at most `depth`
    /// moves; passes are played but not listed).
    fn principal_variation(&self, root: Node, best: Square, depth: u32) -> Vec<Square> {
        let mut pv = vec![best];
        if self.table.is_empty() {
            return pv;
        }
        let mut n = root;
        let mut sq = best.index();
        for _ in 1..depth {
            let f = flips(sq, n.p, n.o);
            n = Node {
                p: n.o ^ f,
                o: n.p | f | Bits::square(sq),
            };
            let empty = self.playable() & !(n.p | n.o);
            let mut mine = moves(n.p, n.o, empty);
            if mine.is_empty() {
                n = Node { p: n.o, o: n.p };
                mine = moves(n.p, n.o, empty);
            }
            match self.probe(n) {
                Some(e) if e.best != NO_MOVE && mine.contains(usize::from(e.best)) => {
                    sq = usize::from(e.best);
                    pv.push(Square::from_index(sq));
                }
                _ => break,
            }
        }
        pv
    }
}

/// A table of the largest power of two of entries that fits in `hash_mb` MB (at least 1024), by
/// the one policy of every game's tables ([`crate::game::table`]): when the memory is not there,
/// the smallest table, so that a size from outside never aborts the engine nor leaves it without
/// a table. The refusal is not reported from here: the engine reports a refused `Hash` when it
/// resizes the 8 x 8 table, which it does first.
fn allocate_table(hash_mb: usize) -> Vec<Entry> {
    crate::game::table::alloc_or_smallest(hash_mb, 1024, Entry::default).0
}

/// The value of a finished game for the side to move.
fn final_value(n: Node) -> i32 {
    let d = n.p.count() as i32 - n.o.count() as i32;
    match d.signum() {
        1 => WIN + d,
        -1 => -WIN + d,
        _ => 0,
    }
}

/// A hash of a node's discs (the side to move's first; the layout is fixed for a table's life).
fn node_hash(n: Node) -> u64 {
    const K_P: u64 = 0x9E37_79B9_7F4A_7C15;
    const K_O: u64 = 0xC2B2_AE3D_27D4_EB4F;
    const K_MIX: u64 = 0xD6E8_FEB8_6659_FD93;
    let mut h: u64 = 0x2545_F491_4F6C_DD1D;
    for w in 0..4 {
        h ^= n.p.0[w].wrapping_mul(K_P);
        h = h.rotate_left(27).wrapping_mul(K_MIX);
        h ^= n.o.0[w].wrapping_mul(K_O);
        h = h.rotate_left(27).wrapping_mul(K_MIX);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(K_MIX);
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corners10() -> Board {
        let b = [(0, 0), (0, 9), (9, 0), (9, 9)].map(|(r, c)| Square::new(r, c));
        Board::start(10, 10, &b).unwrap()
    }

    #[test]
    fn decided_values_give_the_disc_difference() {
        assert_eq!(decided(WIN + 7), Some(7));
        assert_eq!(decided(-WIN - 3), Some(-3));
        assert_eq!(decided(-WIN), Some(0));
        assert_eq!(decided(EVAL_LIMIT), None);
        assert_eq!(decided(-120), None);
    }

    #[test]
    fn a_prepared_table_is_the_one_the_search_uses() {
        let board = corners10();
        let mut s = Searcher::new(2);
        assert!(s.table.is_empty());
        s.prepare();
        let made = s.table.as_ptr();
        assert!(!s.table.is_empty() && !s.table_used);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        s.search(&board, &limits, &AtomicBool::new(false), |_| {});
        assert_eq!(s.table.as_ptr(), made, "the search allocated again");
        assert!(s.table_used);
        assert!(s.table.iter().any(|e| *e != Entry::default()));
        s.clear();
        assert!(!s.table_used);
        assert!(s.table.iter().all(|e| *e == Entry::default()));
    }

    #[test]
    fn iterations_report_deeper_and_legal_lines() {
        let board = corners10();
        let mut s = Searcher::new(2);
        let mut depths = Vec::new();
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let report = s.search(&board, &limits, &AtomicBool::new(false), |r| {
            depths.push(r.depth);
            // The line is playable from the root (passes are left out, so stop at one).
            let mut b = board;
            for &m in &r.pv {
                match b.play(m) {
                    Some(next) => b = next,
                    None => {
                        assert!(b.must_pass());
                        break;
                    }
                }
            }
            assert_eq!(r.pv.first().copied(), r.best);
        });
        assert_eq!(depths, vec![1, 2, 3, 4, 5]);
        assert_eq!(report.depth, 5);
        assert!(board.is_legal(report.best.unwrap()));
        assert!(!report.exact);
        assert_eq!(report.nodes, s.nodes());
    }

    #[test]
    fn a_stopped_search_still_answers_a_legal_move() {
        let board = corners10();
        let mut s = Searcher::new(2);
        let stop = AtomicBool::new(true);
        let start = Instant::now();
        let report = s.search(&board, &Limits::default(), &stop, |_| {});
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(board.is_legal(report.best.unwrap()));
        // Nothing to search: a pass, or the end.
        let over = Board::parse_printed("W W .\nW . .\nto move: R").unwrap();
        let report = s.search(&over, &Limits::default(), &stop, |_| {});
        assert_eq!((report.best, report.exact), (None, true));
        assert_eq!(decided(report.value), Some(-3));
    }

    #[test]
    fn a_root_that_must_pass_is_searched_after_the_pass() {
        let white = Board::parse_printed("# . #\n. W R\n# R W\nto move: W").unwrap();
        let red = Board::parse_printed("# . #\n. W R\n# R W\nto move: R").unwrap();
        let mut s = Searcher::new(2);
        let passed = s.search_depth(&white, 3);
        let other = s.search_depth(&red, 3);
        assert_eq!(passed.best, None);
        assert!(decided(other.value).is_some(), "{}", other.value);
        assert_eq!(passed.value, -other.value);
    }

    #[test]
    fn a_movetime_is_kept() {
        let board = corners10();
        let mut s = Searcher::new(2);
        let limits = Limits {
            movetime: Some(Duration::from_millis(60)),
            ..Limits::default()
        };
        let start = Instant::now();
        let report = s.search(&board, &limits, &AtomicBool::new(false), |_| {});
        assert!(
            start.elapsed() < Duration::from_millis(500),
            "{:?}",
            start.elapsed()
        );
        assert!(board.is_legal(report.best.unwrap()));
        assert!(report.depth >= 1);
    }
}
