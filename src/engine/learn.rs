//! Learning a game into the opening book file in use (NBoard's `learn`): the job, which the search
//! worker runs so that the session stays free to answer `quit` ([`LearnJob::run`]), what it
//! makes, and why it can fail. The core prepares the job and takes the learnt book back
//! ([`super::core::Core::learn`], [`super::core::Core::learned`]).

use crate::board::text::Game;
use crate::book::build::{BuildError, BuildOptions};
use crate::book::Book;
use std::fmt;
use std::path::PathBuf;

/// The leaf depth for learning into a book that has no searched leaves.
const LEARN_DEPTH: usize = 20;
/// Learnt positions with at most this many empties are solved exactly.
const LEARN_EXACT_EMPTIES: u32 = 20;

/// Why a game could not be learnt into the book.
#[derive(Debug)]
pub enum LearnError {
    /// The book in use is the built-in one, which is read-only.
    BuiltIn,
    /// The leaves could not be scored (tables, journal).
    Build(BuildError),
    /// The learnt book could not be written.
    Save {
        /// The book file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
}

impl fmt::Display for LearnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearnError::BuiltIn => f.write_str(
                "the built-in book is read-only: set BookFile to a book file to learn into",
            ),
            LearnError::Build(e) => write!(f, "{e}"),
            LearnError::Save { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for LearnError {}

/// A game to learn into a book file.
#[derive(Debug)]
pub struct LearnJob {
    book: Book,
    path: PathBuf,
    game: Game,
    options: BuildOptions,
}

/// A learnt book, written to its file.
#[derive(Debug)]
pub struct Learnt {
    /// The book as written.
    pub book: Book,
    /// Positions it has that the book before it had not.
    pub added: usize,
}

impl LearnJob {
    /// Learning `game` into `book`, read from `path`, with `threads` searches at a time: new
    /// positions are scored as the book's own leaves were (the most common depth of its searched
    /// leaves), and solved exactly from `LEARN_EXACT_EMPTIES`.
    pub fn new(book: Book, path: PathBuf, game: Game, threads: usize) -> LearnJob {
        let mut counts = [0usize; 256];
        for e in book.entries() {
            if e.flags & crate::book::FLAG_LEAF != 0 && e.depth != crate::book::DEPTH_EXACT {
                counts[e.depth as usize] += 1;
            }
        }
        let depth = (1..255)
            .max_by_key(|&d| (counts[d], d))
            .filter(|&d| counts[d] > 0)
            .unwrap_or(LEARN_DEPTH);
        let options = BuildOptions {
            depth: depth as u32,
            exact_empties: LEARN_EXACT_EMPTIES,
            threads: threads.max(1),
            hash_mb: 16,
        };
        LearnJob {
            book,
            path,
            game,
            options,
        }
    }

    /// Learns the game ([`crate::book::grow::learn`]: every position along it gets all its
    /// moves) and writes the book file. The leaves scored so far are kept in the book's journal,
    /// so a learning cut short goes on from them next time; the journal goes once the book is
    /// written. Takes a game's worth of leaf searches.
    pub fn run(self) -> Result<Learnt, LearnError> {
        let journal = crate::book::build::journal_path(&self.path);
        let learnt = crate::book::grow::learn(
            &self.book,
            std::slice::from_ref(&self.game),
            &self.options,
            Some(&journal),
            crate::tools::shard::Shard::WHOLE,
            &|_, _| {},
        )
        .map_err(LearnError::Build)?;
        learnt.save(&self.path).map_err(|error| LearnError::Save {
            path: self.path.clone(),
            error,
        })?;
        let _ = std::fs::remove_file(&journal);
        Ok(Learnt {
            added: learnt.len() - self.book.len(),
            book: learnt,
        })
    }
}
