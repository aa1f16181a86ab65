//! The opening book: positions keyed by their canonical form under the 8 symmetries, each with a score
//! (final disc difference estimate for the side to move) and the depth it came from. A move's book
//! score is the negated score of the position it leads to, so the book needs no per-move records and
//! a position and its mirror images share one entry. The file format is documented in docs/book.md.

pub mod build;
pub mod grow;

use crate::board::{Board, Move, Position};
use crate::files::checksum;
use crate::rng::Rng;
use std::fmt;
use std::path::{Path, PathBuf};

/// The first 8 bytes of a book file.
pub const MAGIC: &[u8; 8] = b"WEDGEBK1";
/// The format version written after the magic.
pub const VERSION: u32 = 1;
/// Bytes per entry: player u64, opponent u64, score i8, depth u8, flags u8, reserved u8.
pub const ENTRY_BYTES: usize = 20;
/// Bytes of the header: magic, version u32, count u32, checksum u64.
pub const HEADER_BYTES: usize = 24;
/// `flags` bit: the score comes from a search of this position (a leaf), not from its children.
pub const FLAG_LEAF: u8 = 1;
/// The depth recorded for exactly solved positions.
pub const DEPTH_EXACT: u8 = 255;

/// The book that ships with the engine.
pub static EMBEDDED: &[u8] = include_bytes!("../../book/wedge.book");

/// One position of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Side to move's discs, canonical orientation.
    pub player: u64,
    /// Opponent's discs, canonical orientation.
    pub opponent: u64,
    /// Score in discs for the side to move.
    pub score: i8,
    /// Depth of the search behind the score (255: exact).
    pub depth: u8,
    /// [`FLAG_LEAF`] or 0.
    pub flags: u8,
}

/// A book move with its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in the probed position's orientation.
    pub mv: Move,
    /// Its score for the side to move, in discs.
    pub score: i32,
    /// Depth behind the score.
    pub depth: u8,
}

/// Why a book file could not be read.
#[derive(Debug)]
pub struct BookError {
    /// The file (or `<embedded>`).
    pub source: PathBuf,
    /// What is wrong.
    pub problem: BookProblem,
}

/// What is wrong with a book file.
#[derive(Debug)]
pub enum BookProblem {
    /// The file could not be read.
    Read(std::io::Error),
    /// Fewer bytes than a header.
    TooShort(usize),
    /// Not a wedge book.
    BadMagic,
    /// A format version this build does not read.
    Version(u32),
    /// The body's size does not match the header's entry count.
    Size {
        /// Entries the header counts.
        entries: usize,
        /// Bytes after the header.
        bytes: usize,
    },
    /// The body's checksum does not match.
    Checksum,
    /// Entry `n` (from 0) is no position, or its score is out of range.
    Invalid(usize),
    /// Entry `n` is not in its canonical orientation (it would never be looked up).
    NotCanonical(usize),
    /// Entry `n` repeats the one before.
    Repeat(usize),
    /// Entry `n` sorts before the one before.
    OutOfOrder(usize),
}

impl fmt::Display for BookProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookProblem::Read(e) => write!(f, "{e}"),
            BookProblem::TooShort(n) => write!(
                f,
                "too short for a book header ({n} bytes, need {HEADER_BYTES})"
            ),
            BookProblem::BadMagic => f.write_str("not a wedge book (bad magic bytes)"),
            BookProblem::Version(v) => write!(f, "book version {v}, this wedge reads {VERSION}"),
            BookProblem::Size { entries, bytes } => write!(
                f,
                "truncated or padded: header says {entries} entries ({} bytes), file has {bytes} \
                 bytes after the header",
                entries * ENTRY_BYTES
            ),
            BookProblem::Checksum => f.write_str("checksum mismatch (the file is corrupt)"),
            BookProblem::Invalid(n) => write!(f, "entry {n} is not a valid position"),
            BookProblem::NotCanonical(n) => {
                write!(f, "entry {n} is not in its canonical orientation")
            }
            BookProblem::Repeat(n) => write!(f, "entry {n} repeats the one before"),
            BookProblem::OutOfOrder(n) => write!(f, "entries out of order at {n}"),
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source.display(), self.problem)
    }
}

impl std::error::Error for BookError {}

/// An opening book: entries sorted by key for binary search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

impl Book {
    /// A book from entries (any order; the last of duplicate keys wins).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| (e.player, e.opponent));
        entries.dedup_by(|later, earlier| {
            if (later.player, later.opponent) == (earlier.player, earlier.opponent) {
                *earlier = *later;
                true
            } else {
                false
            }
        });
        Book { entries }
    }

    /// Reads a book from bytes; `source` names it in errors.
    pub fn from_bytes(bytes: &[u8], source: &Path) -> Result<Book, BookError> {
        let err = |problem| BookError {
            source: source.to_path_buf(),
            problem,
        };
        if bytes.len() < HEADER_BYTES {
            return Err(err(BookProblem::TooShort(bytes.len())));
        }
        if &bytes[..8] != MAGIC {
            return Err(err(BookProblem::BadMagic));
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(err(BookProblem::Version(version)));
        }
        let count = u32_at(bytes, 12) as usize;
        let body = &bytes[HEADER_BYTES..];
        if body.len() != count * ENTRY_BYTES {
            return Err(err(BookProblem::Size {
                entries: count,
                bytes: body.len(),
            }));
        }
        if checksum(body) != u64_at(bytes, 16) {
            return Err(err(BookProblem::Checksum));
        }
        let mut entries = Vec::with_capacity(count);
        for chunk in body.chunks_exact(ENTRY_BYTES) {
            let e = Entry {
                player: u64_at(chunk, 0),
                opponent: u64_at(chunk, 8),
                score: chunk[16] as i8,
                depth: chunk[17],
                flags: chunk[18],
            };
            let Some(board) = Board::new(e.player, e.opponent)
                .ok()
                .filter(|_| (-64..=64).contains(&e.score))
            else {
                return Err(err(BookProblem::Invalid(entries.len())));
            };
            // Positions are kept in their canonical orientation: another one is never looked up.
            if board.canonical().0 != board {
                return Err(err(BookProblem::NotCanonical(entries.len())));
            }
            if let Some(prev) = entries.last() {
                let prev: &Entry = prev;
                let (was, is) = ((prev.player, prev.opponent), (e.player, e.opponent));
                if was == is {
                    return Err(err(BookProblem::Repeat(entries.len())));
                }
                if was > is {
                    return Err(err(BookProblem::OutOfOrder(entries.len())));
                }
            }
            entries.push(e);
        }
        Ok(Book { entries })
    }

    /// Reads a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes =
            crate::files::read_regular(path, crate::files::MAX_BOOK_BYTES).map_err(|e| {
                BookError {
                    source: path.to_path_buf(),
                    problem: BookProblem::Read(e),
                }
            })?;
        Book::from_bytes(&bytes, path)
    }

    /// The book compiled into the binary.
    pub fn embedded() -> Result<Book, BookError> {
        Book::from_bytes(EMBEDDED, Path::new("<embedded book>"))
    }

    /// The file image of the book.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for e in &self.entries {
            body.extend_from_slice(&e.player.to_le_bytes());
            body.extend_from_slice(&e.opponent.to_le_bytes());
            body.push(e.score as u8);
            body.push(e.depth);
            body.push(e.flags);
            body.push(0);
        }
        let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.extend_from_slice(&checksum(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Writes the book file through `PATH.partial`, synced before it is renamed, so a crash never
    /// leaves half a book and no other file is touched.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::files::write_whole(path, &self.to_bytes())
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry of `board` (any orientation).
    pub fn get(&self, board: Board) -> Option<Entry> {
        let (c, _) = board.canonical();
        let key = (c.player(), c.opponent());
        self.entries
            .binary_search_by_key(&key, |e| (e.player, e.opponent))
            .ok()
            .map(|i| self.entries[i])
    }

    /// The book moves of `board` with their scores, best first: the legal moves whose resulting
    /// position is in the book (a forced pass counts as a move). Only an inner position has book
    /// moves: a leaf's children may be in the book by transposition, but not all of them, and the
    /// best of a few is no book move.
    pub fn moves(&self, board: Board) -> Vec<BookMove> {
        if self.get(board).is_none_or(|e| e.flags & FLAG_LEAF != 0) {
            return Vec::new();
        }
        let pos = Position {
            board,
            side: crate::board::Color::Black,
        };
        let mut out: Vec<BookMove> = pos
            .legal_move_list()
            .into_iter()
            .filter_map(|mv| {
                let child = board.play_move(mv)?;
                let e = self.get(child)?;
                Some(BookMove {
                    mv,
                    score: -i32::from(e.score),
                    depth: e.depth,
                })
            })
            .collect();
        out.sort_by_key(|m| -m.score);
        out
    }

    /// The book's line after playing `first` in `board`: `first`, then the book's best move at each
    /// position while the book has one, at most `max` moves in all.
    pub fn line(&self, board: Board, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut at = board.play_move(first);
        while let Some(b) = at {
            if line.len() >= max {
                break;
            }
            let Some(best) = self.moves(b).first().map(|m| m.mv) else {
                break;
            };
            line.push(best);
            at = b.play_move(best);
        }
        line.truncate(max);
        line
    }

    /// The book's main lines from `board`: each line of book moves within `window` discs of the
    /// best at its position during the first `plies` moves, then the book's best move at each
    /// position to the end of the book. A move whose position is a symmetric image or a
    /// transposition of one already listed is left out.
    pub fn main_lines(&self, board: Board, window: i32, plies: usize) -> Vec<Vec<Move>> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<(Board, Vec<Move>)> = vec![(board, Vec::new())];
        while let Some((b, prefix)) = stack.pop() {
            let moves = self.moves(b);
            let Some(best) = moves.first() else {
                if !prefix.is_empty() {
                    out.push(prefix);
                }
                continue;
            };
            if prefix.len() >= plies {
                let mut line = prefix;
                let rest = self.line(b, best.mv, 60);
                line.extend(rest);
                out.push(line);
                continue;
            }
            let near: Vec<&BookMove> = moves
                .iter()
                .filter(|m| m.score >= best.score - window)
                .filter(|m| {
                    b.play_move(m.mv)
                        .is_some_and(|n| seen.insert(n.canonical().0))
                })
                .collect();
            for m in near.into_iter().rev() {
                if let Some(next) = b.play_move(m.mv) {
                    let mut p = prefix.clone();
                    p.push(m.mv);
                    stack.push((next, p));
                }
            }
        }
        out
    }

    /// Picks a book move: the best, or with `randomness` > 0 one of those within `randomness` discs
    /// of the best, uniformly. `None` when the position has no book move.
    pub fn pick(&self, board: Board, randomness: i32, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.moves(board);
        let best = moves.first()?.score;
        let near: Vec<&BookMove> = moves
            .iter()
            .filter(|m| m.score >= best - randomness.max(0))
            .collect();
        let k = rng.below(near.len() as u64) as usize;
        near.get(k).copied().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Book {
        let b = Board::START;
        let mut entries = vec![Entry {
            player: b.canonical().0.player(),
            opponent: b.canonical().0.opponent(),
            score: 0,
            depth: 4,
            flags: 0,
        }];
        for sq in b.legal_moves() {
            let c = b.play(sq).unwrap().canonical().0;
            entries.push(Entry {
                player: c.player(),
                opponent: c.opponent(),
                score: 0,
                depth: 4,
                flags: FLAG_LEAF,
            });
        }
        Book::from_entries(entries)
    }

    #[test]
    fn round_trip_and_symmetric_first_moves() {
        let book = sample();
        // The four first moves are symmetric images: one canonical child.
        assert_eq!(book.len(), 2);
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes, Path::new("x")).unwrap(), book);
        assert_eq!(book.moves(Board::START).len(), 4);
    }

    #[test]
    fn corrupt_files_are_rejected() {
        let bytes = sample().to_bytes();
        let p = Path::new("b.book");
        let problem = |bytes: &[u8]| Book::from_bytes(bytes, p).unwrap_err().problem;
        assert!(matches!(problem(&bytes[..10]), BookProblem::TooShort(10)));
        assert!(matches!(
            problem(&bytes[..bytes.len() - 1]),
            BookProblem::Size { .. }
        ));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(matches!(problem(&bad), BookProblem::BadMagic));
        let mut bad = bytes.clone();
        let last = bad.len() - 3;
        bad[last] ^= 1;
        assert!(matches!(problem(&bad), BookProblem::Checksum));
        let mut bad = bytes;
        bad[8] = 9;
        assert!(matches!(problem(&bad), BookProblem::Version(9)));
        // Checksums right, entries wrong: a repeat, and a position the engine never looks up.
        let first = sample().entries[0];
        let twice = Book {
            entries: vec![first, first],
        };
        let e = Book::from_bytes(&twice.to_bytes(), p).unwrap_err();
        assert!(matches!(e.problem, BookProblem::Repeat(1)), "{e}");
        assert!(e.to_string().contains("entry 1 repeats"), "{e}");
        let turned = Board::START
            .legal_moves()
            .map(|sq| Board::START.play(sq).unwrap())
            .find(|b| b.canonical().0 != *b)
            .unwrap();
        let other = Book {
            entries: vec![Entry {
                player: turned.player(),
                opponent: turned.opponent(),
                ..first
            }],
        };
        assert!(matches!(
            problem(&other.to_bytes()),
            BookProblem::NotCanonical(0)
        ));
    }
}
