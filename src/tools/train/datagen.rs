//! `wedge datagen`: self-play games from openings, each position labelled by the game's exact
//! result, a deep search of its own or (siblings) its own exact solve, appended game by game to a
//! data file that an interrupted run resumes (docs/training.md).

use super::datafile::{self, Block, LabelKind, Record};
use crate::board::text::{FileError, FileProblem, Game};
use crate::board::{Board, Color, Move, Position, Square};
use crate::eval::Evaluator;
use crate::files::MAX_TEXT_BYTES;
use crate::rng::Rng;
use crate::search::selectivity::FULL_WIDTH;
use crate::search::{Limits, Score, Searcher, Solver};
use std::collections::HashSet;
use std::fmt;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How to generate data.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// Games to have in the file when done.
    pub games: usize,
    /// Search depth for the moves before the exact solve.
    pub depth: u32,
    /// Solve exactly from this many empties.
    pub exact_empties: u32,
    /// Root noise (centidiscs) for the moves, for variety.
    pub randomness: i32,
    /// Games played at once.
    pub threads: usize,
    /// Seed: game `n` always gets the same opening and noise.
    pub seed: u64,
    /// Label the positions before the exact solve with a search of this depth (deep-search labels)
    /// instead of the game's exact result. `None`: the game's result.
    pub label_depth: Option<u32>,
    /// Only positions with this many empties (inclusive range) are written.
    pub keep: (u32, u32),
    /// Also write the siblings of the exactly solved positions (the position after each legal
    /// move), each labelled by its own exact solve.
    pub siblings: bool,
    /// Selectivity level of the searches (moves and labels), a [`crate::search::selectivity`]
    /// level; [`FULL_WIDTH`] searches every move.
    pub selectivity: u8,
    /// Play only the games `n` with `n % shard.1 == shard.0` (part `shard.0 + 1` of `shard.1`
    /// disjoint parts of the same run); `(0, 1)` plays them all.
    pub shard: (usize, usize),
    /// The weaker side's blunders: one side of each game (black in even-numbered games, white
    /// in odd ones) plays a random legal move instead of its search's, before the exact solve,
    /// with a chance drawn for the game between 0 and this many percent. 0: both sides search
    /// every move. Games that leave the balance, as against a weaker player, give the lopsided
    /// positions that self-play seldom reaches.
    pub blunders: u32,
}

impl Default for DatagenOptions {
    fn default() -> DatagenOptions {
        DatagenOptions {
            games: 1000,
            depth: 6,
            exact_empties: 18,
            randomness: 200,
            threads: 1,
            seed: 1,
            label_depth: None,
            keep: (0, 60),
            siblings: false,
            selectivity: FULL_WIDTH,
            shard: (0, 1),
            blunders: 0,
        }
    }
}

/// Plays game number `index` and returns its labelled positions.
fn play_game(
    opening: &Game,
    index: usize,
    options: &DatagenOptions,
    searcher: &mut Searcher,
    solver: &mut Solver,
) -> Vec<Record> {
    // Game `index` is a function of (seed, index) alone: no table state carries over from the
    // games this thread played before, so reruns, resumes and any thread count give the same games.
    searcher.clear();
    solver.clear();
    let game_seed = options.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    searcher.set_seed(game_seed);
    // The weaker side and its chance of a random move (per ten thousand), drawn for the game.
    let mut blunder_rng = Rng::new(game_seed ^ 0xB10D_E55E_D00D_F00D);
    let weak = if index.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let chance = blunder_rng.below(u64::from(options.blunders.min(100)) * 100 + 1);
    let mut pos = opening.position();
    let mut seen = vec![pos];
    let stop = Arc::new(AtomicBool::new(false));
    while !pos.board.is_game_over() && pos.board.empty_count() > options.exact_empties {
        let moves = pos.board.legal_moves().0;
        let mv = if pos.side == weak && moves != 0 && blunder_rng.below(10_000) < chance {
            random_move(moves, &mut blunder_rng)
        } else {
            let limits = Limits {
                depth: Some(options.depth),
                randomness: options.randomness,
                selectivity: options.selectivity,
                ..Limits::default()
            };
            let r = searcher.search(pos.board, &limits, stop.clone(), &mut |_| {});
            r.best_move.unwrap_or(Move::PASS)
        };
        pos = match pos.play(mv) {
            Some(p) => p,
            None => break,
        };
        seen.push(pos);
    }
    // The exact result of the position reached, from black's point of view.
    let exact = solver.solve_exact(pos.board);
    let black_value = match pos.side {
        Color::Black => exact.score,
        Color::White => -exact.score,
    };
    // The solved part of the game, along the perfect line.
    for &m in &exact.pv {
        match pos.play(m) {
            Some(p) => {
                pos = p;
                seen.push(p);
            }
            None => break,
        }
    }
    let (lo, hi) = options.keep;
    let keep = |p: &Position| !p.board.is_game_over() && (lo..=hi).contains(&p.board.empty_count());
    let mut siblings = Vec::new();
    if options.siblings {
        // The children of every position of the solved part, but the ones on the line itself.
        let line: HashSet<Board> = seen.iter().map(|p| p.board).collect();
        for p in seen
            .iter()
            .filter(|p| p.board.empty_count() <= options.exact_empties)
        {
            let mut moves = p.board.legal_moves().0;
            while moves != 0 {
                let sq = moves.trailing_zeros() as u8;
                moves &= moves - 1;
                let Some(child) = Square::new(sq).and_then(|s| p.play(Move::play(s))) else {
                    continue;
                };
                if keep(&child) && !line.contains(&child.board) {
                    siblings.push(Record::new(
                        child,
                        solver.solve_exact(child.board).score,
                        LabelKind::Exact,
                        0,
                    ));
                }
            }
        }
    }
    // The labels of one game share one table, cleared before the first: each search finds the
    // entries of the positions before it in the game (the next position is one ply down the
    // last one's tree), which takes about a quarter less time than a cleared table per label
    // and labels as well (docs/training.md, "Deep-search labels"). A label is then a function
    // of its game's kept positions up to it, so still of (seed, game number) alone.
    if options.label_depth.is_some() {
        searcher.clear();
    }
    seen.into_iter()
        .filter(keep)
        .map(|p| {
            let outcome = match p.side {
                Color::Black => black_value,
                Color::White => -black_value,
            };
            let solved = p.board.empty_count() <= options.exact_empties;
            let (label, kind) = match options.label_depth {
                Some(depth) if !solved => {
                    search_label(p.board, depth, options.selectivity, searcher, &stop)
                        .unwrap_or((outcome, LabelKind::Outcome))
                }
                // The solved part lies on the perfect line: each position's own exact value.
                _ if solved => (outcome, LabelKind::Exact),
                _ => (outcome, LabelKind::Outcome),
            };
            Record::new(p, label, kind, options.label_depth.unwrap_or(0))
        })
        .chain(siblings)
        .collect()
}

/// One of the moves in the bitboard `moves` (not empty), drawn uniformly.
fn random_move(moves: u64, rng: &mut Rng) -> Move {
    let mut m = moves;
    for _ in 0..rng.below(u64::from(moves.count_ones())) {
        m &= m - 1;
    }
    Square::new(m.trailing_zeros() as u8).map_or(Move::PASS, Move::play)
}

/// The score of a depth-`depth` search of `board` at selectivity level `selectivity` (no noise),
/// in whole discs for the side to move, and whether the search proved it exact; `None` if the
/// search gave no disc score. The search uses `searcher`'s table as it is: clear it first for a
/// label that depends on the position alone.
pub fn search_label(
    board: Board,
    depth: u32,
    selectivity: u8,
    searcher: &mut Searcher,
    stop: &Arc<AtomicBool>,
) -> Option<(i32, LabelKind)> {
    let limits = Limits {
        depth: Some(depth),
        selectivity,
        ..Limits::default()
    };
    let r = searcher.search(board, &limits, stop.clone(), &mut |_| {});
    match r.score {
        Score::Eval(cd) => Some((
            ((cd as f64 / 100.0).round() as i32).clamp(-64, 64),
            LabelKind::Search,
        )),
        Score::Exact(v) => Some((v, LabelKind::Exact)),
        Score::Wld(_) => None,
    }
}

/// A data file that cannot be read or written: which file, and why.
#[derive(Debug)]
pub struct DataFileError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub error: std::io::Error,
}

impl DataFileError {
    /// Makes the errors of `path` (for `map_err`).
    fn at(path: &Path) -> impl Fn(std::io::Error) -> DataFileError + Copy + '_ {
        move |error| DataFileError {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl fmt::Display for DataFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for DataFileError {}

/// Why `datagen` could not play its games.
#[derive(Debug)]
pub enum DatagenError {
    /// There is no opening to start games from.
    NoOpenings,
    /// The data file could not be repaired, opened or written.
    File(DataFileError),
    /// The binary data file to resume is not one, or is damaged before its end.
    Format(datafile::DataFormatFileError),
    /// A line of the text data file to resume is damaged.
    Text(FileError),
    /// The shard is not one of the parts (part, parts; from 0).
    Shard(usize, usize),
    /// Another process (another `wedge datagen`) holds the data file's lock: two runs appending to
    /// one file would write games twice.
    Busy(std::path::PathBuf),
    /// A thread's search and solver tables could not be allocated.
    Memory(crate::search::TableAllocError),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::NoOpenings => f.write_str("no openings"),
            DatagenError::File(e) => write!(f, "{e}"),
            DatagenError::Format(e) => write!(f, "{e}"),
            DatagenError::Text(e) => write!(f, "{e}"),
            DatagenError::Shard(part, parts) => {
                write!(f, "shard {}/{parts} is not one of 1..={parts}", part + 1)
            }
            DatagenError::Busy(path) => write!(
                f,
                "{}: another process is writing this file (a wedge datagen run holds its lock); \
                 wait for it to end or write another file",
                path.display()
            ),
            DatagenError::Memory(e) => write!(f, "{e} (fewer --threads need less)"),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<DataFileError> for DatagenError {
    fn from(e: DataFileError) -> Self {
        DatagenError::File(e)
    }
}

/// Cuts a data file back to its last complete game (the end of its last `# game <n>` line), so that
/// a write cut by an interruption (a `kill -9`, a full disk) leaves no torn line or half game for
/// the resumed run to append after. A file with no complete game is cut to nothing; a large file
/// with no game marker in its last megabyte (not this format) loses only a torn last line.
/// Returns how many bytes were cut.
pub fn repair_data_tail(path: &Path) -> Result<u64, DataFileError> {
    use std::io::{Read, Seek, SeekFrom};
    let err = DataFileError::at(path);
    let Ok(mut f) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
    else {
        return Ok(0); // nothing to resume
    };
    let len = f.metadata().map_err(err)?.len();
    // A game is a few kilobytes: its marker is always within the last megabyte of a sound file.
    let window = len.min(1 << 20);
    f.seek(SeekFrom::Start(len - window)).map_err(err)?;
    let mut tail = Vec::with_capacity(window as usize);
    Read::by_ref(&mut f)
        .take(window)
        .read_to_end(&mut tail)
        .map_err(err)?;
    // The end of the last complete marker line: `# game <n>` at a line start, with its newline.
    let mut end = tail.len();
    let mut keep_in_tail = None;
    while let Some(i) = tail[..end].windows(7).rposition(|w| w == b"# game ") {
        if i == 0 || tail[i - 1] == b'\n' {
            if let Some(j) = tail[i..].iter().position(|&b| b == b'\n') {
                keep_in_tail = Some(i + j + 1);
                break;
            }
        }
        end = i;
    }
    let keep_in_tail = match keep_in_tail {
        Some(k) => k,
        // No complete game in the whole file: nothing in it is worth keeping.
        None if window == len => 0,
        // None in the last megabyte of a larger file: not this format's tail; cut only a torn line.
        None => tail.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
    };
    let keep = len - window + keep_in_tail as u64;
    if keep < len {
        f.set_len(keep).map_err(err)?;
        f.sync_all().map_err(err)?;
    }
    Ok(len - keep)
}

/// The game numbers already in a text data file (its `# game <n>` lines), every other line checked
/// as the data readers check it: a damaged file is refused, naming the line, rather than resumed
/// (appended to, or its games after the damage played again). Read line by line, without
/// holding the file in memory.
fn games_done(path: &Path) -> Result<HashSet<usize>, FileError> {
    /// A line longer than this is damage (a position line is some 70 bytes).
    const MAX_LINE: u64 = 1 << 16;
    let mut done = HashSet::new();
    let mut number = 0;
    let at = |line: usize, problem: FileProblem| FileError::new(path, line, problem);
    let file = std::fs::File::open(path).map_err(|e| at(0, FileProblem::Read(e)))?;
    let mut reader = std::io::BufReader::new(file);
    let mut raw = Vec::new();
    loop {
        raw.clear();
        let read = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut raw)
            .map_err(|e| at(number + 1, FileProblem::Read(e)))?;
        if read == 0 {
            return Ok(done);
        }
        number += 1;
        if raw.len() as u64 > MAX_LINE {
            return Err(at(number, FileProblem::LineTooLong(MAX_LINE)));
        }
        let line = std::str::from_utf8(&raw).map_err(|_| at(number, FileProblem::NotUtf8))?;
        let line = line.strip_prefix('\u{feff}').unwrap_or(line).trim();
        if let Some(n) = line.strip_prefix("# game ") {
            if let Ok(n) = n.trim().parse() {
                done.insert(n);
            }
        } else if !(line.is_empty() || line.starts_with('#') || line.starts_with('%')) {
            super::samples::parse_line(line)
                .map_err(|e| at(number, FileProblem::Found(Box::new(e))))?;
        }
    }
}

/// Whether `out` is written in the binary format (its name ends in `.wdb`); text otherwise.
pub fn is_binary_path(out: &Path) -> bool {
    out.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wdb"))
}

/// Opens a binary data file for appending: a new or empty file gets the header (of the current
/// version); an existing one is checked block by block and cut back to its last complete block.
/// Returns the games it holds and the version its blocks are to be written in.
fn open_binary(out: &Path) -> Result<(HashSet<usize>, u32), DatagenError> {
    let err = DataFileError::at(out);
    let len = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        std::fs::write(out, datafile::file_header(datafile::VERSION)).map_err(err)?;
        return Ok((HashSet::new(), datafile::VERSION));
    }
    let data = datafile::read_data_file(out).map_err(DatagenError::Format)?;
    if data.torn_bytes > 0 {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .map_err(err)?;
        f.set_len(data.sound_bytes).map_err(err)?;
        f.sync_all().map_err(err)?;
        log::warn!(
            "{}: cut {} of an unfinished game from the end (an interrupted run)",
            out.display(),
            crate::files::byte_count(data.torn_bytes)
        );
    }
    Ok((
        data.blocks.iter().map(|b| b.game as usize).collect(),
        data.version,
    ))
}

/// Tables for `threads` labelling threads, each a search (16 MB) and an exact solver (64 MB), all
/// allocated before any work starts so that a shortage is an error, not an abort halfway.
pub(super) fn label_tables(
    threads: usize,
) -> Result<Vec<(Searcher, Solver)>, crate::search::TableAllocError> {
    (0..threads)
        .map(|_| {
            Ok((
                Searcher::try_new(16, Evaluator::default())?,
                Solver::try_new(64)?,
            ))
        })
        .collect()
}

/// Generates the games of `0..options.games` in this run's shard that are not yet in `out`,
/// appending each as it finishes (one block of the binary format for a `.wdb` file, lines of text
/// otherwise); returns how many games were played now. `progress(done, total)` is called after
/// each game, counting the shard's games.
pub fn datagen(
    openings: &[Game],
    options: &DatagenOptions,
    out: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<usize, DatagenError> {
    if openings.is_empty() {
        return Err(DatagenError::NoOpenings);
    }
    let (part, parts) = options.shard;
    if parts == 0 || part >= parts {
        return Err(DatagenError::Shard(part, parts));
    }
    // A FIFO or device would block or never end; only a regular file (or a new one) is written.
    let binary = is_binary_path(out);
    if out.exists() {
        let limit = if binary {
            crate::files::MAX_DATA_BYTES
        } else {
            MAX_TEXT_BYTES
        };
        crate::files::check_regular(out, limit).map_err(DataFileError::at(out))?;
    }
    // Held until the run ends: a second run on the same file (a resume started while the first is
    // still finishing) would append the same games again.
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(DataFileError::at(out))?;
    if !datafile::lock_for_writing(&file, out) {
        return Err(DatagenError::Busy(out.to_path_buf()));
    }
    let (done, version) = if binary {
        open_binary(out)?
    } else {
        let cut = repair_data_tail(out)?;
        if cut > 0 {
            log::warn!(
                "{}: cut {} of an unfinished game from the end (an interrupted run)",
                out.display(),
                crate::files::byte_count(cut)
            );
        }
        (games_done(out).map_err(DatagenError::Text)?, 0)
    };
    let mine: Vec<usize> = (0..options.games).filter(|i| i % parts == part).collect();
    let todo: Vec<usize> = mine.iter().copied().filter(|i| !done.contains(i)).collect();
    // The file and when it was last forced to disk: blocks reach the page cache at once (a killed
    // process loses nothing written), and the disk every few seconds (a crash of the machine
    // loses at most those seconds; reopening finds any torn block).
    let file = Mutex::new((file, std::time::Instant::now()));
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(mine.len() - todo.len());
    let failed: Mutex<Option<DataFileError>> = Mutex::new(None);
    // Openings are drawn by a seeded shuffle, so game n always starts from the same one.
    let mut order: Vec<usize> = (0..openings.len()).collect();
    let mut rng = Rng::new(options.seed);
    rng.shuffle(&mut order);
    let tables = label_tables(options.threads.min(todo.len()).clamp(1, 256))
        .map_err(DatagenError::Memory)?;
    std::thread::scope(|scope| {
        for (mut searcher, mut solver) in tables {
            let (next, todo, order, file, failed, finished, mine) =
                (&next, &todo, &order, &file, &failed, &finished, &mine);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&index) = todo.get(k) else { break };
                let opening = &openings[order[index % order.len()]];
                let records = play_game(opening, index, options, &mut searcher, &mut solver);
                let bytes = if binary {
                    Block {
                        game: index as u64,
                        records,
                    }
                    .to_bytes(version)
                } else {
                    let mut text = String::new();
                    for r in records {
                        text.push_str(&format!("{} {}\n", r.position, r.label));
                    }
                    text.push_str(&format!("# game {index}\n"));
                    text.into_bytes()
                };
                if let Ok(mut guard) = file.lock() {
                    // After a failed write nothing more is appended: the file ends at its last
                    // whole game, which a resume continues from.
                    if failed.lock().map_or(true, |slot| slot.is_some()) {
                        break;
                    }
                    let (f, synced) = &mut *guard;
                    let written = f.metadata().map(|m| m.len()).and_then(|len| {
                        let result = if !binary && len + bytes.len() as u64 > MAX_TEXT_BYTES {
                            Err(crate::files::FileFault::TextDataFull(MAX_TEXT_BYTES).into())
                        } else {
                            f.write_all(&bytes).and_then(|_| f.flush())
                        };
                        if result.is_err() {
                            // A partial write cut back, so the file holds whole games only.
                            let _ = f.set_len(len);
                        }
                        result
                    });
                    let written = written.and_then(|_| {
                        if synced.elapsed().as_secs() >= 2 {
                            *synced = std::time::Instant::now();
                            f.sync_data()
                        } else {
                            Ok(())
                        }
                    });
                    if let Err(e) = written {
                        if let Ok(mut slot) = failed.lock() {
                            slot.get_or_insert(DataFileError::at(out)(e));
                        }
                        break;
                    }
                }
                let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                progress(n, mine.len());
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or(None) {
        return Err(e.into());
    }
    if let Ok((f, _)) = file.into_inner() {
        f.sync_data().map_err(DataFileError::at(out))?;
    }
    Ok(todo.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run refuses a file that another run is writing (holds the lock of), and leaves it as it
    /// was; once the lock is gone the same call writes.
    #[test]
    fn a_file_another_run_writes_is_refused() {
        let path = std::env::temp_dir().join(format!("wedge-busy-{}.wdb", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let other = std::fs::File::create(&path).unwrap();
        other.lock().unwrap();
        let openings = vec![Game::new(Position::START)];
        let options = DatagenOptions {
            games: 1,
            depth: 1,
            exact_empties: 8,
            ..DatagenOptions::default()
        };
        let busy = datagen(&openings, &options, &path, &|_, _| {});
        assert!(
            matches!(&busy, Err(DatagenError::Busy(p)) if p == &path),
            "{busy:?}"
        );
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        // Nor may a merge replace it meanwhile.
        let merged = datafile::write_data_file(&path, &[]);
        assert_eq!(
            merged.map_err(|e| e.kind()),
            Err(std::io::ErrorKind::WouldBlock)
        );
        drop(other);
        assert_eq!(datagen(&openings, &options, &path, &|_, _| {}).unwrap(), 1);
        assert!(std::fs::metadata(&path).unwrap().len() > 0);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_torn_tail_is_cut_back_to_the_last_complete_game() {
        let path = std::env::temp_dir().join(format!("wedge-tail-{}.txt", std::process::id()));
        let game0 =
            "---------------------------OX------XO--------------------------- X 2\n# game 0\n";
        for (tail, kept) in [
            ("", game0.len()),
            ("--------", game0.len()),
            ("A X 3\n# game 1", game0.len()),
            ("A X 3\n# game 1\n", game0.len() + 15),
        ] {
            std::fs::write(&path, format!("{game0}{tail}")).unwrap();
            let len = game0.len() + tail.len();
            assert_eq!(
                repair_data_tail(&path).unwrap(),
                (len - kept) as u64,
                "{tail:?}"
            );
            assert_eq!(std::fs::metadata(&path).unwrap().len(), kept as u64);
        }
        // No complete game at all: nothing is kept.
        std::fs::write(&path, "A X 3\nB O 1\n# gam").unwrap();
        repair_data_tail(&path).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        std::fs::remove_file(&path).unwrap();
    }
}
