//! `wedge book`: builds, extends, inspects and exports opening books ([docs/book.md](../../docs/book.md)).

use super::{bounded_count, progress_reporter};

/// Leaves scored at once: 1 to 256.
fn leaf_threads(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 256)
}

/// A leaf search's table, MB: 1 to 4096 (one per thread).
fn leaf_hash_mb(text: &str) -> Result<usize, String> {
    bounded_count(text, 1, 4096)
}
use clap::Subcommand;
use std::path::{Path, PathBuf};
use wedge::board::text::read_openings_file;
use wedge::board::Position;

/// Which lines a deviation step follows.
#[derive(clap::Args, Clone)]
pub struct GrowArgs {
    /// Follow moves within this many discs of the best at their position (0 to 64).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(i32).range(0..=64))]
    pub window: i32,
    /// Expand positions at most this many plies from the start.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub max_ply: u32,
}

/// How book leaves are scored.
#[derive(clap::Args, Clone)]
pub struct LeafArgs {
    /// Search depth for leaf positions (1 to 60).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Leaves with at most this many empty squares are solved exactly (0 to 30).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,
    /// Leaves scored at once (1 to 256).
    #[arg(long, value_parser = leaf_threads, default_value_t = 1)]
    pub threads: usize,
    /// Hash table per thread, MB (1 to 4096).
    #[arg(long, value_parser = leaf_hash_mb, default_value_t = 32)]
    pub hash: usize,
}

/// What `wedge book` does.
#[derive(Subcommand)]
pub enum BookAction {
    /// Build a book by the engine's own searches: from the start position (or along the lines of
    /// --openings), then deviation steps until it holds --positions positions. Finished leaves are
    /// kept in OUT.journal, so an interrupted build resumes when run again.
    Build {
        /// Lines to expand first (transcripts, one a line); default: the start position.
        #[arg(long)]
        openings: Option<PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        /// Grow the book to this many positions (default: 2000 from the start, the lines alone
        /// with --openings; not with --shard).
        #[arg(long, value_parser = super::at_least_one::<usize>)]
        positions: Option<usize>,
        #[command(flatten)]
        grow: GrowArgs,
        /// New positions per deviation step (the same value gives the same book).
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        batch: u64,
        #[command(flatten)]
        leaf: LeafArgs,
        /// Score only part I of N of the leaves (`--shard 2/4`), for several processes or
        /// machines; `wedge book merge` of the N books is the book of the whole build. A shard
        /// expands the lines only: grow the merged book with `book extend --shard`.
        #[arg(long, value_parser = super::parse_shard, default_value = "1/1")]
        shard: (usize, usize),
    },
    /// Merge the books of the shards of one build or extension (`--shard I/N`) into one.
    Merge {
        /// The shards' books.
        #[arg(required = true, num_args = 1..)]
        books: Vec<PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// One deviation step: from the start, follow the moves within --window discs of the best and
    /// expand the positions reached, cheapest lines first, up to --max new positions.
    Extend {
        /// The book to extend (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
        /// At most this many new positions (at least the new children of one position).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
        max: u32,
        #[command(flatten)]
        grow: GrowArgs,
        #[command(flatten)]
        leaf: LeafArgs,
        /// Score only part I of N of the new positions; `wedge book merge` of the N books is the
        /// book of the whole step.
        #[arg(long, value_parser = super::parse_shard, default_value = "1/1")]
        shard: (usize, usize),
    },
    /// Learn games (GGF or transcripts): every position along each game gets all its moves,
    /// scored, so the side that lost deviates where its line was worse than another move.
    Learn {
        /// The game files.
        #[arg(required = true, num_args = 1..)]
        games: Vec<PathBuf>,
        /// The book to learn into (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The book file to write (may be the --book file).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        leaf: LeafArgs,
    },
    /// Print the book's positions, leaves, exact entries, size, the start's score and depth, and
    /// the positions by disc count.
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
    /// Print the book's main lines as transcripts: every line of book moves within --window
    /// discs of the best for the first --plies moves, each followed by the book's best moves to
    /// the end of the book.
    Lines {
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<PathBuf>,
        /// Branch on moves within this many discs of the best (0 to 64).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i32).range(0..=64))]
        window: i32,
        /// Branch during this many first moves (0 to 10).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=10))]
        plies: u32,
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
    use wedge::book::build::{build, BuildOptions};
    use wedge::book::grow::{extend, grow, learn, GrowOptions};
    // The parsers keep every field in range.
    let options = |l: &LeafArgs| BuildOptions {
        depth: l.depth,
        exact_empties: l.exact_empties,
        threads: l.threads,
        hash_mb: l.hash,
    };
    let journal_of = wedge::book::build::journal_path;
    let shard_of = |(part, parts): (usize, usize)| wedge::tools::shard::Shard { part, parts };
    let grow_of = |g: &GrowArgs| GrowOptions {
        window: g.window,
        max_ply: g.max_ply,
    };
    let save = |book: &wedge::book::Book, out: &Path, journal: &Path| -> Result<(), String> {
        book.save(out)
            .map_err(|e| format!("{}: {e}", out.display()))?;
        let _ = std::fs::remove_file(journal);
        Ok(())
    };
    match action {
        BookAction::Build {
            openings,
            out,
            positions,
            grow: g,
            batch,
            leaf,
            shard,
        } => {
            super::check_outputs("book build", &[("--out", &out)], openings.as_deref())?;
            check_not_other("book build", &out)?;
            let shard = shard_of(shard);
            if shard != wedge::tools::shard::Shard::WHOLE && positions.is_some() {
                return Err(
                    "book build: a shard (--shard) expands the lines only; build them, \
                            merge the shards, then grow with `book extend --shard`"
                        .into(),
                );
            }
            let lines = match &openings {
                Some(path) => {
                    let games = read_openings_file(path).map_err(|e| e.to_string())?;
                    if games.is_empty() {
                        return Err(format!(
                            "{}: no opening lines in it: a book built from it would be empty",
                            path.display()
                        ));
                    }
                    games
                }
                None => Vec::new(),
            };
            let journal = journal_of(&out);
            let options = options(&leaf);
            let mut book = build(
                &lines,
                &options,
                Some(&journal),
                shard,
                &progress_reporter("leaves"),
            )
            .map_err(|e| e.to_string())?;
            // From the start the book grows to --positions (default 2000); along --openings
            // lines it holds the lines alone unless --positions is given.
            let target = match (&openings, positions) {
                (_, Some(n)) => n,
                (None, None) => 2000,
                (Some(_), None) => 0,
            };
            if shard == wedge::tools::shard::Shard::WHOLE && target > book.len() {
                book = grow(
                    &book,
                    &grow_of(&g),
                    target,
                    batch as usize,
                    &options,
                    Some(&journal),
                    &progress_reporter("positions"),
                )
                .map_err(|e| e.to_string())?;
            }
            save(&book, &out, &journal)?;
            outln!("wrote {} positions to {}", book.len(), out.display());
            Ok(())
        }
        BookAction::Merge { books, out } => {
            super::check_outputs(
                "book merge",
                &[("--out", &out)],
                books.iter().map(|p| p.as_path()),
            )?;
            check_not_other("book merge", &out)?;
            let paths = books;
            let books = paths
                .iter()
                .map(|p| wedge::book::Book::load(p).map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            let book = wedge::book::build::merge(&books).map_err(|e| {
                let named: Vec<String> = (e.books().iter())
                    .filter_map(|&i| Some(format!("book {i}: {}", paths.get(i - 1)?.display())))
                    .collect();
                match named.is_empty() {
                    true => format!("book merge: {e}"),
                    false => format!("book merge: {e} ({})", named.join(", ")),
                }
            })?;
            book.save(&out)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            outln!("wrote {} positions to {}", book.len(), out.display());
            Ok(())
        }
        BookAction::Extend {
            book,
            out,
            max,
            grow: g,
            leaf,
            shard,
        } => {
            super::check_output(&out)?;
            check_not_other("book extend", &out)?;
            let b = load_book(book.as_deref())?;
            let journal = journal_of(&out);
            let extended = extend(
                &b,
                &grow_of(&g),
                max as usize,
                &options(&leaf),
                Some(&journal),
                shard_of(shard),
                &progress_reporter("new positions"),
            )
            .map_err(|e| e.to_string())?;
            save(&extended, &out, &journal)?;
            outln!(
                "{} -> {} positions, wrote {}",
                b.len(),
                extended.len(),
                out.display()
            );
            Ok(())
        }
        BookAction::Learn {
            games,
            book,
            out,
            leaf,
        } => {
            // The book may be updated in place (it is read whole first); the games may not.
            super::check_outputs(
                "book learn",
                &[("--out", &out)],
                games.iter().map(|p| p.as_path()),
            )?;
            check_not_other("book learn", &out)?;
            let b = load_book(book.as_deref())?;
            let mut lines = Vec::new();
            for path in &games {
                let named =
                    wedge::tools::analyze::input::read_games(path).map_err(|e| e.to_string())?;
                if named.is_empty() {
                    return Err(format!("book learn: {}: no game in it", path.display()));
                }
                lines.extend(named.into_iter().map(|g| g.game));
            }
            let journal = journal_of(&out);
            let learnt = learn(
                &b,
                &lines,
                &options(&leaf),
                Some(&journal),
                wedge::tools::shard::Shard::WHOLE,
                &progress_reporter("new positions"),
            )
            .map_err(|e| e.to_string())?;
            save(&learnt, &out, &journal)?;
            outln!(
                "learnt {}: {} -> {} positions, wrote {}",
                wedge::protocol::play::counted(lines.len(), "game", "games"),
                b.len(),
                learnt.len(),
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
            outln!(
                "positions: {} ({} leaves, {} inner, {} exact)",
                b.len(),
                leaves,
                b.len() - leaves,
                exact
            );
            outln!("size: {} bytes", b.to_bytes().len());
            if let Some(e) = b.get(Position::START.board) {
                outln!("start position: score {:+}, depth {}", e.score, e.depth);
            }
            let counts: Vec<String> = by_discs
                .iter()
                .map(|(discs, n)| format!("{discs}:{n}"))
                .collect();
            outln!(
                "positions by disc count (discs:positions): {}",
                counts.join(" ")
            );
            Ok(())
        }
        BookAction::Probe { position, book } => {
            let b = load_book(book.as_deref())?;
            // A transcript first (one of 32 moves or more is as long as a board); then a board,
            // whose error is the one shown for text as long as a board.
            let transcript = position.parse::<wedge::board::text::Game>();
            let pos = match transcript {
                Ok(game) => game.position(),
                // Long text holding no disc or empty square (`X`, `O`, `*`, `-`, `.`) is a
                // transcript, and its error is the one shown.
                Err(e) if !position.contains(['X', 'x', 'O', 'o', '*', '-', '.']) => {
                    return Err(e.to_string())
                }
                Err(_) if position.chars().filter(|c| !c.is_whitespace()).count() >= 64 => {
                    position.parse::<Position>().map_err(|e| e.to_string())?
                }
                Err(e) => return Err(e.to_string()),
            };
            match b.get(pos.board) {
                Some(e) => outln!(
                    "in book: score {:+} depth {}{}",
                    e.score,
                    e.depth,
                    if e.flags & wedge::book::FLAG_LEAF != 0 {
                        " (leaf)"
                    } else {
                        ""
                    }
                ),
                None => outln!("not in book"),
            }
            for m in b.moves(pos.board) {
                outln!("{} {:+} depth {}", m.mv, m.score, m.depth);
            }
            Ok(())
        }
        BookAction::Lines {
            book,
            window,
            plies,
        } => {
            let b = load_book(book.as_deref())?;
            for line in b.main_lines(wedge::Board::START, window, plies as usize) {
                let text: Vec<String> = line.iter().map(|m| m.to_string()).collect();
                outln!("{}", text.join(""));
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
                    writeln!(out, "{} {} {:+} {}", pos, m.mv, m.score, m.depth)
                        .map_err(|e| format!("cannot write to standard output: {e}"))?;
                }
            }
            out.flush()
                .map_err(|e| format!("cannot write to standard output: {e}"))
        }
    }
}

/// Refuses an `--out` that holds something other than a book (games, notes): the book written
/// replaces the file, and a mistyped name must not cost it. A book is replaced (that is what
/// rebuilding or learning into it means), as is an empty file.
fn check_not_other(command: &str, out: &Path) -> Result<(), String> {
    let mut head = [0u8; 8];
    let read = std::fs::File::open(out).and_then(|mut f| {
        use std::io::Read;
        let mut n = 0;
        while n < head.len() {
            match f.read(&mut head[n..])? {
                0 => break,
                k => n += k,
            }
        }
        Ok(n)
    });
    match read {
        Ok(0) | Err(_) => Ok(()),
        Ok(n) if n == head.len() && head == *wedge::book::MAGIC => Ok(()),
        Ok(_) => Err(format!(
            "{command}: {}: holds something other than a book, and writing would replace it; \
             give another file",
            out.display()
        )),
    }
}
