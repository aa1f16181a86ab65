//! Growing a book where games go. A book grown here is a minimax tree: every inner position holds
//! all its children, every leaf is scored by a deep search (or solved), and every inner score is the
//! negamax of its children, so a book move is the best move by the book's own searches and a bad
//! move's refutation is in the book beside it.
//!
//! Three ways in, one operation underneath (*expanding* a position: adding every child it lacks as a
//! scored leaf):
//! - [`extend`]: one deviation step. From the start, follow every move within `window` discs of the
//!   best at its position (the moves a reasonable player makes), cheapest lines first (by the discs
//!   lost along the way, then by ply); expand the leaves reached, up to a number of new positions.
//! - [`grow`]: deviation steps until the book holds a number of positions (`build` from the start
//!   is one expansion of the start position followed by this).
//! - [`learn`]: expand every position along played games, so each game's line and the best
//!   deviation at each of its positions are in the book; the side that lost deviates where its
//!   line turns out worse than another move.

use super::build::{add_leaves, key, negamax_scores, read_journal, score_leaves, Key};
use super::build::{BuildError, BuildOptions};
use super::{Book, Entry, FLAG_LEAF};
use crate::board::text::Game;
use crate::board::{Board, Color, Position};
use crate::tools::shard::Shard;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::path::Path;

/// Where a deviation step looks.
#[derive(Clone, Debug)]
pub struct GrowOptions {
    /// Follow moves within this many discs of the best move at their position.
    pub window: i32,
    /// Expand positions at most this many plies (discs placed) from the start.
    pub max_ply: u32,
}

/// The board of a key (keys are canonical boards, always valid).
fn board_of(k: Key) -> Board {
    Board::new(k.0, k.1).unwrap_or(Board::START)
}

/// The positions a move leads to, a forced pass included.
pub(super) fn children(board: Board) -> Vec<Board> {
    let pos = Position {
        board,
        side: Color::Black,
    };
    pos.legal_move_list()
        .into_iter()
        .filter_map(|m| board.play_move(m))
        .collect()
}

/// Whether expanding `board` could change anything: the game goes on and the position is not
/// solved exactly as a leaf.
fn expandable(board: Board, options: &BuildOptions) -> bool {
    !board.is_game_over() && board.empty_count() > options.exact_empties
}

/// The positions to expand, most likely first: from the start, along every move within the window
/// of the best at its position, the first leaves (or positions lacking a child) reached, ordered by
/// the discs lost on the cheapest way there, then by ply, then by key (so the order is the same on
/// every machine). A book without the start position is expanded at the start.
pub fn frontier(
    entries: &HashMap<Key, Entry>,
    grow: &GrowOptions,
    options: &BuildOptions,
) -> Vec<Key> {
    let start = key(Board::START);
    if !entries.contains_key(&start) {
        return vec![start];
    }
    let mut out = Vec::new();
    let mut seen: HashSet<Key> = HashSet::new();
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0i32, 0u32, start)));
    while let Some(Reverse((loss, ply, k))) = heap.pop() {
        if !seen.insert(k) {
            continue;
        }
        let Some(e) = entries.get(&k) else { continue };
        let board = board_of(k);
        if !expandable(board, options) {
            continue;
        }
        let kids = children(board);
        let complete = kids.iter().all(|c| entries.contains_key(&key(*c)));
        if e.flags & FLAG_LEAF != 0 || !complete {
            if ply <= grow.max_ply {
                out.push(k);
            }
            continue;
        }
        let scores: Vec<(Key, i32)> = kids
            .iter()
            .map(|c| {
                let ck = key(*c);
                (ck, -i32::from(entries[&ck].score))
            })
            .collect();
        let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
        for (ck, s) in scores {
            if best - s <= grow.window {
                let discs = (ck.0 | ck.1).count_ones().saturating_sub(4);
                heap.push(Reverse((loss + best - s, discs, ck)));
            }
        }
    }
    out
}

/// Marks `nodes` inner and returns the children they lack, sorted and each once (a node that is a
/// child of another node is inner, not a new leaf).
fn expand(entries: &mut HashMap<Key, Entry>, nodes: &[Key]) -> Vec<Key> {
    for &k in nodes {
        let e = entries.entry(k).or_insert(Entry {
            player: k.0,
            opponent: k.1,
            score: 0,
            depth: 0,
            flags: 0,
        });
        e.flags &= !FLAG_LEAF;
    }
    let mut new: HashSet<Key> = HashSet::new();
    for &k in nodes {
        for c in children(board_of(k)) {
            let ck = key(c);
            if !entries.contains_key(&ck) {
                new.insert(ck);
            }
        }
    }
    let mut new: Vec<Key> = new.into_iter().collect();
    new.sort_unstable();
    new
}

/// The first positions of `frontier` whose missing children number at most `max_new` together
/// (at least one position, so that a step always makes progress).
fn take_within(entries: &HashMap<Key, Entry>, frontier: &[Key], max_new: usize) -> Vec<Key> {
    let mut taken = Vec::new();
    let mut new: HashSet<Key> = HashSet::new();
    for &k in frontier {
        let missing: Vec<Key> = children(board_of(k))
            .into_iter()
            .map(key)
            .filter(|c| !entries.contains_key(c) && !new.contains(c))
            .collect();
        if !taken.is_empty() && new.len() + missing.len() > max_new {
            break;
        }
        new.extend(missing);
        taken.push(k);
    }
    taken
}

/// Expands `nodes`, scores the new leaves this shard owns (every `parts`-th of them, sorted) and
/// recomputes the negamax. Returns the number of new leaves (of every shard).
fn expand_and_score(
    entries: &mut HashMap<Key, Entry>,
    nodes: &[Key],
    options: &BuildOptions,
    journal: Option<&Path>,
    shard: Shard,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<usize, BuildError> {
    let new = expand(entries, nodes);
    let owned: Vec<Key> = new
        .iter()
        .enumerate()
        .filter(|&(i, _)| shard.owns(i))
        .map(|(_, &k)| k)
        .collect();
    let done = match journal {
        Some(j) => read_journal(j, options)?,
        None => HashMap::new(),
    };
    let scored = score_leaves(&owned, done, options, journal, progress)?;
    add_leaves(entries, &owned, &scored);
    negamax_scores(entries);
    Ok(new.len())
}

fn entries_of(book: &Book) -> HashMap<Key, Entry> {
    book.entries()
        .iter()
        .map(|e| ((e.player, e.opponent), *e))
        .collect()
}

/// One deviation step: expands the first positions of the [`frontier`] until about `max_new` new
/// positions, scores them and recomputes the negamax. With a `shard` other than the whole, only
/// that part of the new positions is scored; [`super::build::merge`] of every part is the book of
/// the whole step.
pub fn extend(
    book: &Book,
    grow: &GrowOptions,
    max_new: usize,
    options: &BuildOptions,
    journal: Option<&Path>,
    shard: Shard,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Book, BuildError> {
    let mut entries = entries_of(book);
    let nodes = take_within(&entries, &frontier(&entries, grow, options), max_new);
    expand_and_score(&mut entries, &nodes, options, journal, shard, progress)?;
    Ok(Book::from_entries(entries.into_values().collect()))
}

/// Deviation steps of at most `batch` new positions each until the book holds `positions`
/// positions or nothing within the window is left to expand. `progress` gets (positions, target).
pub fn grow(
    book: &Book,
    grow: &GrowOptions,
    positions: usize,
    batch: usize,
    options: &BuildOptions,
    journal: Option<&Path>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Book, BuildError> {
    let mut entries = entries_of(book);
    while entries.len() < positions {
        let room = (positions - entries.len()).min(batch.max(1));
        let nodes = take_within(&entries, &frontier(&entries, grow, options), room);
        if nodes.is_empty() {
            break;
        }
        let before = entries.len();
        let step = |done: usize, _total: usize| progress(before + done, positions);
        expand_and_score(&mut entries, &nodes, options, journal, Shard::WHOLE, &step)?;
    }
    progress(entries.len(), positions);
    Ok(Book::from_entries(entries.into_values().collect()))
}

/// Expands every position along each game (up to the first that is solved as a leaf), so the game's
/// line and every deviation from it are in the book, scored, and the negamax sees the line's true
/// worth. Games may start anywhere; a game that plays an illegal move is an error.
pub fn learn(
    book: &Book,
    games: &[Game],
    options: &BuildOptions,
    journal: Option<&Path>,
    shard: Shard,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Book, BuildError> {
    let mut entries = entries_of(book);
    let mut nodes: Vec<Key> = Vec::new();
    let mut seen: HashSet<Key> = HashSet::new();
    for g in games {
        let mut pos = g.start;
        let mut moves = g.moves.iter();
        while expandable(pos.board, options) {
            if seen.insert(key(pos.board)) {
                nodes.push(key(pos.board));
            }
            let Some(&mv) = moves.next() else { break };
            pos = pos.play(mv).ok_or_else(|| BuildError::IllegalOpening {
                opening: g.transcript(),
                mv,
            })?;
        }
    }
    expand_and_score(&mut entries, &nodes, options, journal, shard, progress)?;
    Ok(Book::from_entries(entries.into_values().collect()))
}
