//! `wedge book`: builds, extends, inspects and exports opening books ([docs/book.md](../../docs/book.md)).

use super::{hash_mb, progress_reporter, thread_count};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use wedge::board::text::read_openings_file;
use wedge::board::Position;

/// How book leaves are scored.
#[derive(clap::Args, Clone)]
pub struct LeafArgs {
    /// Search depth for leaf positions.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Leaves with at most this many empty squares are solved exactly.
    #[arg(long, default_value_t = 18)]
    pub exact_empties: u32,
    /// Leaves scored at once.
    #[arg(long, value_parser = thread_count, default_value_t = 1)]
    pub threads: usize,
    /// Hash table per thread, MB.
    #[arg(long, value_parser = hash_mb, default_value_t = 32)]
    pub hash: usize,
}

/// What `wedge book` does.
#[derive(Subcommand)]
pub enum BookAction {
    /// Build a book from opening lines (transcripts, one a line). Finished leaves are kept in
    /// OUT.journal, so an interrupted build resumes when run again.
    Build {
        /// The opening lines.
        #[arg(long)]
        openings: PathBuf,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        leaf: LeafArgs,
        /// Score only part I of N of the leaves (`--shard 2/4`), for several processes or
        /// machines; `wedge book merge` of the N books is the book of the whole build.
        #[arg(long, value_parser = super::parse_shard, default_value = "1/1")]
        shard: (usize, usize),
    },
    /// Merge the books of the shards of one build (`book build --shard I/N`) into one.
    Merge {
        /// The shards' books.
        #[arg(required = true, num_args = 1..)]
        books: Vec<PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Extend a book along its near-best lines: expand leaves and add missing moves.
    Extend {
        /// The book to extend (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        /// Follow moves within this many discs of the best (0 to 128).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(i32).range(0..=128))]
        margin: i32,
        /// At most this many new positions.
        #[arg(long, default_value_t = 1000)]
        max: usize,
        #[command(flatten)]
        leaf: LeafArgs,
    },
    /// Print the book's size and depth statistics.
    Stats {
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Print the book moves of a position: a transcript from the start, or "<64 squares> <side>".
    Probe {
        /// The position (a board string may start with `-`, an empty a1).
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Print every book move as text: `<position> <move> <score> <depth>` per line.
    Export {
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
    },
}

fn load_book(path: Option<&Path>) -> Result<wedge::book::Book, String> {
    match path {
        Some(p) => wedge::book::Book::load(p),
        None => wedge::book::Book::embedded(),
    }
    .map_err(|e| e.to_string())
}

/// Runs one book action.
pub fn run(action: BookAction) -> Result<(), String> {
    use wedge::book::build::{build, extend, BuildOptions};
    let options = |l: &LeafArgs| BuildOptions {
        depth: l.depth.clamp(1, 60),
        exact_empties: l.exact_empties.min(30),
        threads: l.threads.clamp(1, 256),
        hash_mb: l.hash.clamp(1, 4096),
    };
    let journal_of = |out: &Path| {
        let mut j = out.as_os_str().to_owned();
        j.push(".journal");
        PathBuf::from(j)
    };
    match action {
        BookAction::Build {
            openings,
            out,
            leaf,
            shard,
        } => {
            let games = read_openings_file(&openings).map_err(|e| e.to_string())?;
            if games.is_empty() {
                return Err(format!(
                    "{}: no opening lines in it: a book built from it would be empty",
                    openings.display()
                ));
            }
            let journal = journal_of(&out);
            let book = build(
                &games,
                &options(&leaf),
                Some(&journal),
                wedge::tools::arena::Shard {
                    part: shard.0,
                    parts: shard.1,
                },
                &progress_reporter("leaves"),
            )
            .map_err(|e| e.to_string())?;
            book.save(&out)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            let _ = std::fs::remove_file(&journal);
            println!("wrote {} positions to {}", book.len(), out.display());
            Ok(())
        }
        BookAction::Merge { books, out } => {
            let books = books
                .iter()
                .map(|p| wedge::book::Book::load(p).map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            let book = wedge::book::build::merge(&books).map_err(|e| format!("book merge: {e}"))?;
            book.save(&out)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            println!("wrote {} positions to {}", book.len(), out.display());
            Ok(())
        }
        BookAction::Extend {
            book,
            out,
            margin,
            max,
            leaf,
        } => {
            let b = load_book(book.as_deref())?;
            let journal = journal_of(&out);
            let before = b.len();
            let extended = extend(
                &b,
                margin.max(0),
                max,
                &options(&leaf),
                Some(&journal),
                &progress_reporter("new positions"),
            )
            .map_err(|e| e.to_string())?;
            extended
                .save(&out)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            let _ = std::fs::remove_file(&journal);
            println!(
                "{} -> {} positions, wrote {}",
                before,
                extended.len(),
                out.display()
            );
            Ok(())
        }
        BookAction::Stats { book } => {
            let b = load_book(book.as_deref())?;
            let leaves = b
                .entries()
                .iter()
                .filter(|e| e.flags & wedge::book::FLAG_LEAF != 0)
                .count();
            let exact = b
                .entries()
                .iter()
                .filter(|e| e.depth == wedge::book::DEPTH_EXACT)
                .count();
            let mut by_discs = std::collections::BTreeMap::new();
            for e in b.entries() {
                *by_discs
                    .entry((e.player | e.opponent).count_ones())
                    .or_insert(0usize) += 1;
            }
            println!(
                "positions: {} ({} leaves, {} inner, {} exact)",
                b.len(),
                leaves,
                b.len() - leaves,
                exact
            );
            println!("size: {} bytes", b.to_bytes().len());
            if let Some(e) = b.get(Position::START.board) {
                println!("start position: score {:+}, depth {}", e.score, e.depth);
            }
            println!("positions by disc count: {:?}", by_discs);
            Ok(())
        }
        BookAction::Probe { position, book } => {
            let b = load_book(book.as_deref())?;
            let pos = if position.chars().filter(|c| !c.is_whitespace()).count() >= 64 {
                position.parse::<Position>().map_err(|e| e.to_string())?
            } else {
                position
                    .parse::<wedge::board::text::Game>()
                    .map_err(|e| e.to_string())?
                    .position()
            };
            match b.get(pos.board) {
                Some(e) => println!(
                    "in book: score {:+} depth {}{}",
                    e.score,
                    e.depth,
                    if e.flags & wedge::book::FLAG_LEAF != 0 {
                        " (leaf)"
                    } else {
                        ""
                    }
                ),
                None => println!("not in book"),
            }
            for m in b.moves(pos.board) {
                println!("{} {:+} depth {}", m.mv, m.score, m.depth);
            }
            Ok(())
        }
        BookAction::Export { book } => {
            use std::io::Write;
            let b = load_book(book.as_deref())?;
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            for e in b.entries() {
                let Ok(board) = wedge::Board::new(e.player, e.opponent) else {
                    continue;
                };
                let pos = Position {
                    board,
                    side: wedge::Color::Black,
                };
                for m in b.moves(board) {
                    if writeln!(out, "{} {} {:+} {}", pos, m.mv, m.score, m.depth).is_err() {
                        return Ok(());
                    }
                }
            }
            Ok(())
        }
    }
}
