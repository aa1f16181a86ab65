//! Scoring, joining and merging books: a leaf is scored by a search (or an exact solve when it is
//! small enough) with fresh tables, so its score depends on the position alone; every inner
//! position gets the negamax of its children in the book; leaf results are appended to a journal
//! file as they finish, so an interrupted build resumes where it stopped; the books of a build's
//! shards merge into the whole build's. Which positions a book holds is decided in
//! [`super::grow`].

use super::{Book, Entry, DEPTH_EXACT, FLAG_LEAF};
use crate::board::text::Game;
use crate::board::{Board, Color, Move, Position};
use crate::eval::Evaluator;
use crate::search::{Limits, Score, Searcher, Solver};
use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How to score leaves.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Midgame search depth for leaves.
    pub depth: u32,
    /// Leaves with at most this many empties are solved exactly instead.
    pub exact_empties: u32,
    /// Leaves scored at once.
    pub threads: usize,
    /// Hash size per thread, MB.
    pub hash_mb: usize,
}

/// A position's canonical key: (player, opponent) of its canonical orientation.
pub(super) type Key = (u64, u64);

/// The key of `board`.
pub(super) fn key(board: Board) -> Key {
    let c = board.canonical().0;
    (c.player(), c.opponent())
}

/// Scores one leaf: an exact solve when small, else a depth-limited search (rounded to discs).
fn score_leaf(
    board: Board,
    options: &BuildOptions,
    searcher: &mut Searcher,
    solver: &mut Solver,
) -> (i8, u8) {
    if board.is_game_over() {
        return (board.final_score() as i8, DEPTH_EXACT);
    }
    if board.empty_count() <= options.exact_empties {
        let r = solver.solve_exact(board);
        return (r.score.clamp(-64, 64) as i8, DEPTH_EXACT);
    }
    // The engine's own selectivity: the leaves are scored as the engine would search them, and a
    // full-width search of the same depth costs about ten times as much.
    let limits = Limits {
        depth: Some(options.depth),
        selectivity: crate::search::selectivity::default_level(),
        ..Limits::default()
    };
    let r = searcher.search(
        board,
        &limits,
        Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    let discs = match r.score {
        Score::Eval(cp) => (f64::from(cp) / 100.0).round() as i32,
        Score::Exact(d) | Score::Wld(d) => d,
    };
    (discs.clamp(-64, 64) as i8, options.depth.min(254) as u8)
}

/// Why a book could not be built or extended.
#[derive(Debug)]
pub enum BuildError {
    /// The journal could not be read (or is no regular file) or written.
    Journal {
        /// The journal file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The journal was written by a build with other arguments (its header's and the ones now).
    OtherArguments {
        /// The journal file.
        path: PathBuf,
        /// The arguments it was written with.
        then: String,
        /// The arguments of this build.
        now: String,
    },
    /// The search tables of the scoring threads could not be allocated.
    Memory(crate::search::TableAllocError),
    /// An opening line plays an illegal move.
    IllegalOpening {
        /// The opening, as a transcript.
        opening: String,
        /// The move.
        mv: Move,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Journal { path, error } => write!(f, "{}: {error}", path.display()),
            BuildError::OtherArguments { path, then, now } => write!(
                f,
                "{}:1: this journal was written by a build with other arguments ('{then}', now \
                 '{now}'): resume with the same --depth and --exact-empties, or delete it to \
                 start again",
                path.display()
            ),
            BuildError::Memory(e) => write!(f, "{e}: try a smaller --hash or fewer --threads"),
            BuildError::IllegalOpening { opening, mv } => {
                write!(f, "opening {opening}: illegal move {mv}")
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// The journal of the book written to `book`: `BOOK.journal` beside it.
pub fn journal_path(book: &Path) -> PathBuf {
    let mut j = book.as_os_str().to_owned();
    j.push(".journal");
    PathBuf::from(j)
}

/// The journal's first line: the arguments that decide a leaf's score. A journal is resumed only
/// with the same ones (a depth-10 build resumed at depth 4 would mix depths silently).
fn journal_header(options: &BuildOptions) -> String {
    format!(
        "# wedge book journal: depth {} exact-empties {} selectivity {}",
        options.depth,
        options.exact_empties,
        crate::search::selectivity::DEFAULT_PERCENT
    )
}

/// The longest journal line read: a leaf's is about 72 bytes.
const JOURNAL_LINE: u64 = 4096;

/// Reads a journal of finished leaves: its header, then `<board> <side> <score> <depth>` per line.
/// Unreadable lines (a line cut by an interruption, bytes that are no text) are skipped: their
/// leaves are scored again. No journal is an empty one; a journal that is no regular file (a FIFO
/// would block the build), is larger than a book may be or cannot be read is an error, as is
/// one written with other arguments (it names them).
pub(super) fn read_journal(
    path: &Path,
    options: &BuildOptions,
) -> Result<HashMap<Key, (i8, u8)>, BuildError> {
    let mut done = HashMap::new();
    let failed = |error| BuildError::Journal {
        path: path.to_path_buf(),
        error,
    };
    // Read line by line: a journal grows with the book (about 72 bytes a leaf), past what is
    // worth holding whole.
    let file = match crate::files::check_regular(path, crate::files::MAX_DATA_BYTES)
        .and_then(|_| std::fs::File::open(path))
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(failed(e)),
    };
    let want = journal_header(options);
    let mut reader = std::io::BufReader::new(file);
    let mut line = Vec::new();
    for i in 0.. {
        // A line longer than any leaf's is damage: its first bytes are kept (they do not read as
        // a leaf), the rest skipped, so that no line is held whole.
        line.clear();
        let read = (&mut reader)
            .take(JOURNAL_LINE)
            .read_until(b'\n', &mut line)
            .map_err(failed)?;
        if read == 0 {
            break;
        }
        if !line.ends_with(b"\n") {
            let mut rest = Vec::new();
            while (&mut reader)
                .take(JOURNAL_LINE)
                .read_until(b'\n', &mut rest)
                .map_err(failed)?
                == JOURNAL_LINE as usize
                && !rest.ends_with(b"\n")
            {
                rest.clear();
            }
        }
        // A header that is no text is no header of this build's.
        let line = match std::str::from_utf8(&line) {
            Ok(text) => text,
            Err(_) if i == 0 && line.starts_with(b"#") => "# (not text)",
            Err(_) => "",
        };
        if i == 0 && line.starts_with('#') {
            if line.trim() != want {
                return Err(BuildError::OtherArguments {
                    path: path.to_path_buf(),
                    then: line
                        .trim()
                        .trim_start_matches("# wedge book journal: ")
                        .to_string(),
                    now: want
                        .trim_start_matches("# wedge book journal: ")
                        .to_string(),
                });
            }
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts.len() != 4 {
            continue;
        }
        let (Ok(pos), Ok(score), Ok(depth)) = (
            format!("{} {}", parts[0], parts[1]).parse::<Position>(),
            parts[2].parse::<i8>(),
            parts[3].parse::<u8>(),
        ) else {
            continue;
        };
        // A score no game can end with is not a result of this build: the leaf is scored again.
        if !(-64..=64).contains(&score) {
            continue;
        }
        done.insert(key(pos.board), (score, depth));
    }
    Ok(done)
}

/// Scores `leaves` (canonical keys), `threads` at a time, appending each result to `journal` and
/// reporting `(done, total)` to `progress`. Leaves already in `done` are skipped.
pub(super) fn score_leaves(
    leaves: &[Key],
    mut done: HashMap<Key, (i8, u8)>,
    options: &BuildOptions,
    journal: Option<&Path>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<HashMap<Key, (i8, u8)>, BuildError> {
    let todo: Vec<Key> = leaves
        .iter()
        .copied()
        .filter(|k| !done.contains_key(k))
        .collect();
    let total = leaves.len();
    let already = total - todo.len();
    // Every thread's tables are checked together, then allocated before any starts, so that memory
    // that is not there is an error of the build rather than an abort in one of its threads; and
    // before the journal is opened, so that such an error leaves no journal to refuse the next
    // command.
    let threads = options.threads.clamp(1, 256);
    let per_thread = Searcher::tables_mb(options.hash_mb) + options.hash_mb.max(1);
    crate::game::table::check_room(threads, per_thread).map_err(BuildError::Memory)?;
    let mut tables = Vec::new();
    for _ in 0..threads {
        let searcher =
            Searcher::try_new(options.hash_mb, Evaluator::default()).map_err(BuildError::Memory)?;
        let solver = Solver::try_new(options.hash_mb).map_err(BuildError::Memory)?;
        tables.push((searcher, solver));
    }
    let journal = match journal {
        Some(p) => {
            let err = |error| BuildError::Journal {
                path: p.to_path_buf(),
                error,
            };
            let mut open = std::fs::OpenOptions::new();
            open.create(true).append(true);
            let mut file = crate::files::open_output(&mut open, p).map_err(err)?;
            let is_new = file.metadata().map(|m| m.len() == 0).unwrap_or(false);
            if is_new {
                writeln!(file, "{}", journal_header(options)).map_err(err)?;
            }
            // The file, while its writes succeed: after a failed one (a full disk) nothing more
            // is written, so no line is glued to a cut one.
            Some((Mutex::new(Some(file)), p))
        }
        None => None,
    };
    let results = Mutex::new(Vec::with_capacity(todo.len()));
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(already);
    progress(already, total);
    std::thread::scope(|scope| {
        for (mut searcher, mut solver) in tables {
            let (next, todo, journal, results, finished) =
                (&next, &todo, &journal, &results, &finished);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&k) = todo.get(i) else { break };
                let Ok(board) = Board::new(k.0, k.1) else {
                    continue;
                };
                // Fresh tables for each leaf: a leaf's score depends on the leaf alone, not on which
                // thread scored it after which other leaf, so builds, resumes and shards agree.
                searcher.clear();
                solver.clear();
                let (score, depth) = score_leaf(board, options, &mut searcher, &mut solver);
                if let Some((j, path)) = &journal {
                    let mut j = j.lock().unwrap_or_else(|p| p.into_inner());
                    if let Some(f) = j.as_mut() {
                        let pos = Position {
                            board,
                            side: Color::Black,
                        };
                        if let Err(e) = writeln!(f, "{pos} {score} {depth}").and_then(|_| f.flush())
                        {
                            *j = None;
                            log::warn!(
                                "cannot write the journal {}: {e}; the build goes on, and a \
                                 resumed build scores the leaves from here on again",
                                path.display()
                            );
                        }
                    }
                }
                if let Ok(mut r) = results.lock() {
                    r.push((k, (score, depth)));
                }
                let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                progress(n, total);
            });
        }
    });
    done.extend(results.into_inner().unwrap_or_default());
    Ok(done)
}

/// Recomputes every inner position's score as the negamax of its children in the book; leaves keep
/// theirs. Returns the completed book.
pub fn negamax(mut entries: HashMap<Key, Entry>) -> Book {
    negamax_scores(&mut entries);
    Book::from_entries(entries.into_values().collect())
}

/// [`negamax`] in place.
pub(super) fn negamax_scores(entries: &mut HashMap<Key, Entry>) {
    fn value(k: Key, entries: &HashMap<Key, Entry>, memo: &mut HashMap<Key, (i8, u8)>) -> (i8, u8) {
        if let Some(&v) = memo.get(&k) {
            return v;
        }
        let e = entries[&k];
        let v = if e.flags & FLAG_LEAF != 0 {
            (e.score, e.depth)
        } else {
            // Placeholder against cycles (none in Othello: every move adds a disc, a pass cannot
            // repeat).
            memo.insert(k, (e.score, e.depth));
            let board = Board::new(k.0, k.1).unwrap_or(Board::START);
            let pos = Position {
                board,
                side: Color::Black,
            };
            let mut best: Option<(i8, u8)> = None;
            for mv in pos.legal_move_list() {
                let Some(child) = board.play_move(mv) else {
                    continue;
                };
                let ck = key(child);
                if !entries.contains_key(&ck) {
                    continue;
                }
                let (s, d) = value(ck, entries, memo);
                let s = -s;
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, d));
                }
            }
            best.unwrap_or((e.score, e.depth))
        };
        memo.insert(k, v);
        v
    }
    let mut memo = HashMap::with_capacity(entries.len());
    let keys: Vec<Key> = entries.keys().copied().collect();
    for k in &keys {
        value(*k, entries, &mut memo);
    }
    for (k, e) in entries.iter_mut() {
        let (score, depth) = memo[k];
        e.score = score;
        e.depth = depth;
    }
}

/// Adds the scored ones of `leaves` to `entries` as leaf entries.
pub(super) fn add_leaves(
    entries: &mut HashMap<Key, Entry>,
    leaves: &[Key],
    scored: &HashMap<Key, (i8, u8)>,
) {
    for &k in leaves {
        if let Some(&(score, depth)) = scored.get(&k) {
            entries.insert(
                k,
                Entry {
                    player: k.0,
                    opponent: k.1,
                    score,
                    depth,
                    flags: FLAG_LEAF,
                },
            );
        }
    }
}

/// Builds a book from lines (games or opening transcripts; none: the start position alone): every
/// position along each line is expanded ([`super::grow::learn`] into an empty book), so each holds
/// all its children, scored. With a `shard` other than the whole, only that part of the new leaves
/// (sorted, every `parts`-th) is scored: the book holds every inner position and those leaves, and
/// [`merge`] of all the parts is the book of the whole build.
pub fn build(
    lines: &[Game],
    options: &BuildOptions,
    journal: Option<&Path>,
    shard: crate::tools::shard::Shard,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Book, BuildError> {
    let start = [Game {
        start: Position::START,
        moves: Vec::new(),
    }];
    let lines = if lines.is_empty() { &start[..] } else { lines };
    super::grow::learn(&Book::default(), lines, options, journal, shard, progress)
}

/// Why shard books could not be merged.
#[derive(Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No book to merge.
    Empty,
    /// Two shards hold different inner positions: they come from builds of different opening
    /// lines (numbered from 1 in the order given).
    OtherOpenings {
        /// The first shard.
        first: usize,
        /// The shard that differs from it.
        other: usize,
    },
    /// A position is a leaf of two shards with different scores or depths: other `--depth`,
    /// `--exact-empties` or another engine.
    OtherScores {
        /// The shards (from 1).
        shards: (usize, usize),
        /// The position, as `<64 squares> <side>`.
        position: String,
    },
    /// The leaves only one shard scored show other leaf settings than another shard's: other
    /// `--depth`, or other `--exact-empties` (a leaf solved in one shard at as many empties as a
    /// leaf searched in the other).
    OtherSettings {
        /// The shards (from 1).
        shards: (usize, usize),
    },
    /// After the merge an inner position lacks the positions after some of its moves: a shard
    /// of the build is missing (or one was given in place of another).
    Incomplete {
        /// Inner positions that lack a move's position.
        positions: usize,
        /// One of them, as `<64 squares> <side>`.
        example: String,
    },
}

impl MergeError {
    /// The books the error names (from 1, in the order given to [`merge`]).
    pub fn books(&self) -> Vec<usize> {
        match *self {
            MergeError::OtherOpenings { first, other } => vec![first, other],
            MergeError::OtherScores { shards, .. } | MergeError::OtherSettings { shards } => {
                vec![shards.0, shards.1]
            }
            MergeError::Empty | MergeError::Incomplete { .. } => Vec::new(),
        }
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => f.write_str("no books to merge"),
            MergeError::Incomplete { positions, example } => write!(
                f,
                "the merged book lacks the positions after some moves of {positions} inner \
                 positions (e.g. {example}): a shard of the build is missing; give every shard once"
            ),
            MergeError::OtherOpenings { first, other } => write!(
                f,
                "book {other} holds other positions than book {first}: shards of different \
                 builds (other --openings) cannot be merged"
            ),
            MergeError::OtherScores { shards, position } => write!(
                f,
                "books {} and {} score the leaf {position} differently: shards of different \
                 builds (other --depth, --exact-empties or engine) cannot be merged",
                shards.0, shards.1
            ),
            MergeError::OtherSettings { shards } => write!(
                f,
                "books {} and {} scored their leaves with other settings (--depth or \
                 --exact-empties): shards of different builds cannot be merged",
                shards.0, shards.1
            ),
        }
    }
}

/// What a shard's own leaves (those no other shard holds) show of its leaf settings: the depths
/// of its searched leaves, the most empties of a solved one (not a finished game) and the fewest
/// of a searched one.
#[derive(Default)]
struct LeafSettings {
    depths: std::collections::BTreeSet<u8>,
    most_solved: Option<u32>,
    fewest_searched: Option<u32>,
}

impl LeafSettings {
    fn of(book: &Book, count: &HashMap<Key, usize>) -> LeafSettings {
        let mut s = LeafSettings::default();
        for e in book.entries() {
            let key = (e.player, e.opponent);
            if e.flags & FLAG_LEAF == 0 || count.get(&key) != Some(&1) {
                continue;
            }
            let Ok(board) = Board::new(e.player, e.opponent) else {
                continue;
            };
            let empties = board.empty_count();
            if e.depth == DEPTH_EXACT {
                if !board.is_game_over() {
                    s.most_solved = s.most_solved.max(Some(empties));
                }
            } else {
                s.depths.insert(e.depth);
                s.fewest_searched = Some(s.fewest_searched.map_or(empties, |f| f.min(empties)));
            }
        }
        s
    }

    /// Whether the two could come from the same settings: one search depth, and every solved
    /// leaf with fewer empties than every searched one.
    fn agree(&self, other: &LeafSettings) -> bool {
        let depths_agree = self.depths.len() <= 1
            && other.depths.len() <= 1
            && (self.depths.is_empty() || other.depths.is_empty() || self.depths == other.depths);
        let below = |solved: Option<u32>, searched: Option<u32>| match (solved, searched) {
            (Some(a), Some(b)) => a < b,
            _ => true,
        };
        depths_agree
            && below(self.most_solved, other.fewest_searched)
            && below(other.most_solved, self.fewest_searched)
    }
}

impl std::error::Error for MergeError {}

/// Merges the books of the shards of one build ([`build`] with each `shard` of the same `parts`)
/// into the book of the whole build: the inner positions (the same in every shard), every shard's
/// leaves, and the negamax recomputed.
pub fn merge(books: &[Book]) -> Result<Book, MergeError> {
    let first = books.first().ok_or(MergeError::Empty)?;
    let inner_of = |b: &Book| -> Vec<Key> {
        b.entries()
            .iter()
            .filter(|e| e.flags & FLAG_LEAF == 0)
            .map(|e| (e.player, e.opponent))
            .collect()
    };
    let inner = inner_of(first);
    let mut entries: HashMap<Key, Entry> = HashMap::new();
    let mut leaf_of: HashMap<Key, usize> = HashMap::new();
    for (i, book) in books.iter().enumerate() {
        if inner_of(book) != inner {
            return Err(MergeError::OtherOpenings {
                first: 1,
                other: i + 1,
            });
        }
        for e in book.entries() {
            let k = (e.player, e.opponent);
            if e.flags & FLAG_LEAF == 0 {
                entries.insert(
                    k,
                    Entry {
                        score: 0,
                        depth: 0,
                        ..*e
                    },
                );
                continue;
            }
            if let Some(&j) = leaf_of.get(&k) {
                let known = entries[&k];
                if (known.score, known.depth) != (e.score, e.depth) {
                    let board = Board::new(k.0, k.1).unwrap_or(Board::START);
                    return Err(MergeError::OtherScores {
                        shards: (j + 1, i + 1),
                        position: Position {
                            board,
                            side: Color::Black,
                        }
                        .to_string(),
                    });
                }
            }
            leaf_of.insert(k, i);
            entries.insert(k, *e);
        }
    }
    // Leaves are scored by one shard each (a shared one is a transposition, or the base book's
    // in an extension); a shard's own leaves show its settings, which must be every shard's.
    let mut count: HashMap<Key, usize> = HashMap::new();
    for book in books {
        for e in book.entries().iter().filter(|e| e.flags & FLAG_LEAF != 0) {
            *count.entry((e.player, e.opponent)).or_default() += 1;
        }
    }
    let settings: Vec<LeafSettings> = books.iter().map(|b| LeafSettings::of(b, &count)).collect();
    for (j, a) in settings.iter().enumerate() {
        if let Some(i) = settings[j + 1..].iter().position(|b| !a.agree(b)) {
            return Err(MergeError::OtherSettings {
                shards: (j + 1, j + i + 2),
            });
        }
    }
    // Every inner position holds each move's position: a missing shard leaves some out.
    let lacking: Vec<Key> = entries
        .iter()
        .filter(|(_, e)| e.flags & FLAG_LEAF == 0)
        .map(|(&k, _)| k)
        .filter(|&k| {
            let board = Board::new(k.0, k.1).unwrap_or(Board::START);
            super::grow::children(board)
                .into_iter()
                .any(|child| !entries.contains_key(&key(child)))
        })
        .collect();
    if let Some(&k) = lacking.iter().min() {
        return Err(MergeError::Incomplete {
            positions: lacking.len(),
            example: Position {
                board: Board::new(k.0, k.1).unwrap_or(Board::START),
                side: Color::Black,
            }
            .to_string(),
        });
    }
    Ok(negamax(entries))
}

#[cfg(test)]
mod tests {
    use super::{journal_header, key, read_journal, BuildOptions, LeafSettings};
    use crate::board::Position;

    #[test]
    fn a_journal_score_no_game_can_end_with_is_scored_again() {
        let options = BuildOptions {
            depth: 4,
            exact_empties: 10,
            threads: 1,
            hash_mb: 1,
        };
        let dir = std::env::temp_dir().join(format!("wedge-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.book.journal");
        let start = Position::START.to_string();
        let after = Position::START.play("f5".parse().unwrap()).unwrap();
        let text = format!(
            "{}\n{start} 100 4\n{after} -3 4\n",
            journal_header(&options)
        );
        std::fs::write(&path, text).unwrap();
        let done = read_journal(&path, &options).unwrap();
        assert_eq!(done.len(), 1);
        assert_eq!(done.get(&key(after.board)), Some(&(-3, 4)));
        // A line of bytes that are no text is skipped; the lines after it are still read.
        let other = after.play("d6".parse().unwrap()).unwrap();
        let mut bytes = format!("{}\n{after} -3 4\n", journal_header(&options)).into_bytes();
        bytes.extend_from_slice(b"\xff\xfe 1 4\n");
        // So is a line far longer than a leaf's.
        bytes.extend(std::iter::repeat_n(b'x', 10_000));
        bytes.push(b'\n');
        bytes.extend_from_slice(format!("{other} 5 4\n").as_bytes());
        std::fs::write(&path, bytes).unwrap();
        let done = read_journal(&path, &options).unwrap();
        assert_eq!(done.len(), 2);
        assert_eq!(done.get(&key(other.board)), Some(&(5, 4)));
        // A header that is no text is another build's.
        std::fs::write(&path, b"# wedge book journal: \xff\n").unwrap();
        assert!(matches!(
            read_journal(&path, &options),
            Err(super::BuildError::OtherArguments { .. })
        ));
        // Another build's header is quoted without its line break.
        std::fs::write(&path, "# wedge book journal: depth 6\r\n").unwrap();
        let other = read_journal(&path, &options).unwrap_err().to_string();
        assert!(other.contains("('depth 6', now"), "{other}");
        // No journal is an empty one; a folder where the journal goes is an error.
        assert!(read_journal(&dir.join("none"), &options)
            .unwrap()
            .is_empty());
        assert!(read_journal(&dir, &options).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn leaves(
        depths: &[u8],
        most_solved: Option<u32>,
        fewest_searched: Option<u32>,
    ) -> LeafSettings {
        LeafSettings {
            depths: depths.iter().copied().collect(),
            most_solved,
            fewest_searched,
        }
    }

    #[test]
    fn leaf_settings_agree_only_when_one_build_could_show_both() {
        let a = leaves(&[20], Some(20), Some(24));
        assert!(a.agree(&leaves(&[20], Some(18), Some(21))));
        assert!(
            a.agree(&leaves(&[], None, None)),
            "a part with no leaf of its own"
        );
        // Another depth, or two depths in one part.
        assert!(!a.agree(&leaves(&[18], Some(18), Some(21))));
        assert!(!a.agree(&leaves(&[18, 20], None, Some(30))));
        // Solved at 22 empties in one part, searched at 21 in the other: other --exact-empties.
        let searched_at_21 = leaves(&[20], Some(20), Some(21));
        let solved_at_22 = leaves(&[20], Some(22), Some(26));
        assert!(!searched_at_21.agree(&solved_at_22));
        assert!(!solved_at_22.agree(&searched_at_21));
    }
}
