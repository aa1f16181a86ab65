//! Training the pattern evaluation: `wedge datagen` plays self-play games from openings and writes
//! labelled positions; `wedge train` fits the pattern weights to them by least squares.
//!
//! Labels: each game is played by a depth-limited search (with bounded noise for variety) until the
//! endgame is small enough to solve, then solved exactly; the solved positions are labelled with their
//! exact result, the earlier ones with that result too (the outcome of the game) or, with a label
//! depth, with a deep search of their own (from their side to move's point of view). An empties range
//! keeps only some positions (e.g. a test set at 30-40 empties). With siblings, every position after
//! each legal move of the solved positions is written too, labelled by its own exact solve: data on
//! ranking a position's moves, which is what the endgame solver's ordering asks of the evaluation.
//! Data format: one position a line,
//! `<64 squares> <side> <label>`, and a `# game <n>` line after each game, which lets an interrupted
//! run resume without repeating games (docs/training.md).

use crate::board::text::{FileError, Game, ParseBoardError};
use crate::board::{Board, Color, Move, Position, Square};
use crate::eval::pattern::{self, PatternWeights, PHASES, SCALE};
use crate::eval::Evaluator;
use crate::rng::Rng;
use crate::search::{Limits, Score, Searcher, Solver};
use std::collections::HashSet;
use std::fmt;
use std::io::{BufRead, Write};
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
) -> Vec<(Position, i32)> {
    // Game `index` is a function of (seed, index) alone: no table state carries over from the
    // games this thread played before, so reruns, resumes and any thread count give the same games.
    searcher.clear();
    solver.clear();
    searcher.set_seed(options.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut pos = opening.position();
    let mut seen = vec![pos];
    let stop = Arc::new(AtomicBool::new(false));
    while !pos.board.is_game_over() && pos.board.empty_count() > options.exact_empties {
        let limits = Limits {
            depth: Some(options.depth),
            randomness: options.randomness,
            ..Limits::default()
        };
        let r = searcher.search(pos.board, &limits, stop.clone(), &mut |_| {});
        let mv = r.best_move.unwrap_or(Move::PASS);
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
                    siblings.push((child, solver.solve_exact(child.board).score));
                }
            }
        }
    }
    seen.into_iter()
        .filter(keep)
        .map(|p| {
            let outcome = match p.side {
                Color::Black => black_value,
                Color::White => -black_value,
            };
            let label = match options.label_depth {
                Some(depth) if p.board.empty_count() > options.exact_empties => {
                    search_label(p.board, depth, searcher, &stop).unwrap_or(outcome)
                }
                _ => outcome,
            };
            (p, label)
        })
        .chain(siblings)
        .collect()
}

/// The score of a depth-`depth` search of `board` (no noise, from an empty table), in whole discs
/// for the side to move; `None` if the search gave no disc score.
pub fn search_label(
    board: Board,
    depth: u32,
    searcher: &mut Searcher,
    stop: &Arc<AtomicBool>,
) -> Option<i32> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    // A cleared table makes the label a function of the position alone (not of what this thread
    // searched before), so labels are reproducible.
    searcher.clear();
    let r = searcher.search(board, &limits, stop.clone(), &mut |_| {});
    match r.score {
        Score::Eval(cd) => Some(((cd as f64 / 100.0).round() as i32).clamp(-64, 64)),
        Score::Exact(v) => Some(v),
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
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::NoOpenings => f.write_str("no openings"),
            DatagenError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<DataFileError> for DatagenError {
    fn from(e: DataFileError) -> Self {
        DatagenError::File(e)
    }
}

/// Why a line of a data file is not a sample.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleError {
    /// The line is not `<64 squares> <side> <label>`.
    Form,
    /// The position is not a board.
    Board(ParseBoardError),
    /// The label is not a number (as written).
    NotANumber(String),
    /// The label lies outside -64..64.
    OutOfRange(f32),
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Form => f.write_str("expected '<64 squares> <side> <label>'"),
            SampleError::Board(e) => write!(f, "{e}"),
            SampleError::NotANumber(label) => write!(f, "'{label}' is not a number"),
            SampleError::OutOfRange(label) => write!(f, "label {label} is outside -64..64"),
        }
    }
}

impl std::error::Error for SampleError {}

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

/// The game numbers already in a data file (from its `# game <n>` lines).
fn games_done(path: &Path) -> HashSet<usize> {
    let mut done = HashSet::new();
    if let Ok(f) = std::fs::File::open(path) {
        for line in std::io::BufReader::new(f).lines().map_while(Result::ok) {
            if let Some(n) = line.strip_prefix("# game ") {
                if let Ok(n) = n.trim().parse() {
                    done.insert(n);
                }
            }
        }
    }
    done
}

/// Generates games `0..options.games` that are not yet in `out`, appending them; returns how many
/// games were played now. `progress(done, total)` is called after each game.
pub fn datagen(
    openings: &[Game],
    options: &DatagenOptions,
    out: &Path,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<usize, DatagenError> {
    if openings.is_empty() {
        return Err(DatagenError::NoOpenings);
    }
    let cut = repair_data_tail(out)?;
    if cut > 0 {
        log::warn!(
            "{}: cut {cut} bytes of an unfinished game from the end (an interrupted run)",
            out.display()
        );
    }
    let done = games_done(out);
    let todo: Vec<usize> = (0..options.games).filter(|i| !done.contains(i)).collect();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(DataFileError::at(out))?;
    let file = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(options.games - todo.len());
    let failed: Mutex<Option<DataFileError>> = Mutex::new(None);
    // Openings are drawn by a seeded shuffle, so game n always starts from the same one.
    let mut order: Vec<usize> = (0..openings.len()).collect();
    let mut rng = Rng::new(options.seed);
    rng.shuffle(&mut order);
    std::thread::scope(|scope| {
        for _ in 0..options.threads.clamp(1, 256) {
            scope.spawn(|| {
                let mut searcher = Searcher::new(16, Evaluator::default());
                let mut solver = Solver::new(64);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = todo.get(k) else { break };
                    let opening = &openings[order[index % order.len()]];
                    let samples = play_game(opening, index, options, &mut searcher, &mut solver);
                    let mut text = String::new();
                    for (p, label) in samples {
                        text.push_str(&format!("{p} {label}\n"));
                    }
                    text.push_str(&format!("# game {index}\n"));
                    if let Ok(mut f) = file.lock() {
                        if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                            if let Ok(mut slot) = failed.lock() {
                                slot.get_or_insert(DataFileError::at(out)(e));
                            }
                            break;
                        }
                    }
                    let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(n, options.games);
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or(None) {
        return Err(e.into());
    }
    Ok(todo.len())
}

/// One training sample.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// The label, discs for the side to move.
    pub label: f32,
    /// Which game it comes from (an opaque id, the same for all positions of one game of one file),
    /// so that a held-out split keeps each game on one side.
    pub game: u64,
}

/// Reads data files (`<64 squares> <side> <label>` lines; `#` comments; a `# game <n>` line closes
/// each game's positions).
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, FileError> {
    // Games are told apart by the file's name (not its directory, so the split does not depend on
    // where the file lies) and the number of `# game` lines before them.
    let salt = path
        .file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .bytes()
        .fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        });
    let games_closed = std::cell::Cell::new(0u64);
    crate::board::text::read_lines_with_comments(
        path,
        |comment| {
            if comment.starts_with("# game") {
                games_closed.set(games_closed.get() + 1);
            }
        },
        |line| -> Result<Sample, SampleError> {
            let (board, label) = line.rsplit_once(' ').ok_or(SampleError::Form)?;
            let pos: Position = board.parse().map_err(SampleError::Board)?;
            let label: f32 = label
                .parse()
                .map_err(|_| SampleError::NotANumber(label.to_string()))?;
            if !(-64.0..=64.0).contains(&label) {
                return Err(SampleError::OutOfRange(label));
            }
            Ok(Sample {
                board: pos.board,
                label,
                game: (salt ^ games_closed.get()).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            })
        },
    )
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Passes over the data.
    pub epochs: usize,
    /// Adagrad base step size.
    pub learning_rate: f32,
    /// L2 pull towards the starting weights (0, or `init`): keeps rare configurations near them.
    pub lambda: f32,
    /// Seed for shuffling and the held-out split.
    pub seed: u64,
    /// Fit one value per group of mirror-image configurations ([`pattern::tied_indices`]).
    pub tie_symmetric: bool,
    /// Weights to start from (continued training) instead of zeros, and that the regularisation
    /// pulls towards: a phase without training positions keeps them unchanged.
    pub init: Option<PatternWeights>,
}

/// Mean absolute errors per phase (discs) and sample counts.
#[derive(Clone, Debug, Default)]
pub struct PhaseErrors {
    /// Mean absolute error per phase.
    pub mae: [f64; PHASES],
    /// Samples per phase.
    pub count: [usize; PHASES],
}

impl PhaseErrors {
    /// Errors of `predict` on `samples`.
    pub fn measure(samples: &[Sample], predict: impl Fn(Board) -> f64) -> PhaseErrors {
        let mut e = PhaseErrors::default();
        for s in samples {
            let ph = pattern::phase(s.board.empty_count());
            e.mae[ph] += (predict(s.board) - f64::from(s.label)).abs();
            e.count[ph] += 1;
        }
        for ph in 0..PHASES {
            if e.count[ph] > 0 {
                e.mae[ph] /= e.count[ph] as f64;
            }
        }
        e
    }

    /// The mean over all samples.
    pub fn overall(&self) -> f64 {
        let n: usize = self.count.iter().sum();
        if n == 0 {
            return 0.0;
        }
        (0..PHASES)
            .map(|p| self.mae[p] * self.count[p] as f64)
            .sum::<f64>()
            / n as f64
    }
}

/// Mean absolute errors (discs) by number of empty squares.
#[derive(Clone, Debug)]
pub struct EmptiesErrors {
    sum: [f64; 61],
    count: [usize; 61],
}

impl EmptiesErrors {
    /// Errors of `predict` (discs) on `samples`.
    pub fn measure(samples: &[Sample], predict: impl Fn(Board) -> f64) -> EmptiesErrors {
        let mut e = EmptiesErrors {
            sum: [0.0; 61],
            count: [0; 61],
        };
        for s in samples {
            let n = (s.board.empty_count() as usize).min(60);
            e.sum[n] += (predict(s.board) - f64::from(s.label)).abs();
            e.count[n] += 1;
        }
        e
    }

    /// The indices of `lo..=hi` empty squares (empty when `lo > hi`).
    fn range(lo: u32, hi: u32) -> std::ops::RangeInclusive<usize> {
        let hi = hi.min(60) as usize;
        (lo as usize).min(hi + 1)..=hi
    }

    /// Samples with `lo..=hi` empty squares.
    pub fn count(&self, lo: u32, hi: u32) -> usize {
        self.count[EmptiesErrors::range(lo, hi)].iter().sum()
    }

    /// The mean absolute error over samples with `lo..=hi` empty squares (`None` if there are none).
    pub fn mae(&self, lo: u32, hi: u32) -> Option<f64> {
        let n = self.count(lo, hi);
        let sum: f64 = self.sum[EmptiesErrors::range(lo, hi)].iter().sum();
        (n > 0).then(|| sum / n as f64)
    }
}

/// Splits samples into (training, held-out) with about `held_out_per_mille`/1000 of the games held
/// out, whole: the positions of one game are alike and share their outcome, so a split by position
/// would let the training side see most of each held-out game and flatter the held-out error.
/// Positions that also occur in a held-out game (say, from a common opening) leave the training
/// side.
pub fn split(samples: Vec<Sample>, held_out_per_mille: u64) -> (Vec<Sample>, Vec<Sample>) {
    let (training, held_out): (Vec<Sample>, Vec<Sample>) = samples
        .into_iter()
        .partition(|s| (s.game >> 32) % 1000 >= held_out_per_mille);
    let seen: HashSet<Board> = held_out.iter().map(|s| s.board.canonical().0).collect();
    let training = training
        .into_iter()
        .filter(|s| !seen.contains(&s.board.canonical().0))
        .collect();
    (training, held_out)
}

/// Fits the weights by stochastic gradient descent (Adagrad steps) on the squared error, one model
/// per phase.
pub fn train(
    samples: &[Sample],
    options: &TrainOptions,
    mut progress: impl FnMut(usize, f64),
) -> PatternWeights {
    let n = pattern::per_phase();
    let mut w = vec![vec![0f32; n]; PHASES];
    let mut g2 = vec![vec![0f32; n]; PHASES];
    // Features are computed once.
    let canon: Vec<u32> = if options.tie_symmetric {
        pattern::tied_indices()
    } else {
        (0..n as u32).collect()
    };
    if let Some(init) = &options.init {
        // A group takes its representative's value (the members are equal in tied weights).
        for (wp, ip) in w.iter_mut().zip(&init.phases) {
            for (i, &c) in canon.iter().enumerate().rev() {
                wp[c as usize] = f32::from(ip[i]) / SCALE as f32;
            }
        }
    }
    // The regularisation pulls towards the starting weights (zeros without `init`).
    let prior = w.clone();
    let prepared: Vec<(usize, i32, Vec<u32>, f32)> = samples
        .iter()
        .map(|s| {
            let mut idx = Vec::with_capacity(46);
            let (ph, mob) = pattern::features(s.board, |i| idx.push(canon[i]));
            (ph, mob, idx, s.label)
        })
        .collect();
    let mut order: Vec<usize> = (0..prepared.len()).collect();
    let mut rng = Rng::new(options.seed);
    for epoch in 0..options.epochs {
        rng.shuffle(&mut order);
        let lr = options.learning_rate;
        let mut abs_sum = 0f64;
        for &k in &order {
            let (ph, mob, idx, label) = &prepared[k];
            let wp = &mut w[*ph];
            let gp = &mut g2[*ph];
            let w0 = &prior[*ph];
            let mut pred = wp[n - 1] + *mob as f32 * wp[n - 2];
            for &i in idx {
                pred += wp[i as usize];
            }
            let err = pred - label;
            abs_sum += f64::from(err.abs());
            // Adagrad: each weight's step shrinks with its own accumulated gradient, so frequent
            // configurations settle while rare ones still move.
            for &i in idx {
                let i = i as usize;
                let g = err + options.lambda * (wp[i] - w0[i]);
                gp[i] += g * g;
                wp[i] -= lr * g / (gp[i] + 1e-6).sqrt();
            }
            for (j, g) in [(n - 2, err * *mob as f32), (n - 1, err)] {
                gp[j] += g * g;
                wp[j] -= lr * g / (gp[j] + 1e-6).sqrt();
            }
        }
        progress(epoch + 1, abs_sum / prepared.len().max(1) as f64);
    }
    PatternWeights {
        phases: w
            .into_iter()
            .map(|ph| {
                // Every weight takes its group's fitted value.
                canon
                    .iter()
                    .map(|&c| {
                        (ph[c as usize] * SCALE as f32)
                            .round()
                            .clamp(-32000.0, 32000.0) as i16
                    })
                    .collect()
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A board after `plies` random moves from the start (fewer if a side cannot move).
    fn random_board(rng: &mut Rng, plies: u64) -> Board {
        let mut b = Board::START;
        for _ in 0..plies {
            match crate::tools::players::random_move(b, rng) {
                Some(m) => b = b.play_move(m).unwrap_or(b),
                None => break,
            }
        }
        b
    }

    #[test]
    fn training_fits_a_learnable_target() {
        // Label = disc difference (which the shapes together can express): the fit must get close.
        let mut rng = Rng::new(9);
        let mut samples = Vec::new();
        while samples.len() < 3000 {
            let plies = 10 + rng.below(40);
            let b = random_board(&mut rng, plies);
            if !b.is_game_over() {
                samples.push(Sample {
                    board: b,
                    label: (b.disc_difference() as f32).clamp(-64.0, 64.0),
                    game: samples.len() as u64,
                });
            }
        }
        let before = PhaseErrors::measure(&samples, |_| 0.0).overall();
        let w = train(
            &samples,
            &TrainOptions {
                epochs: 10,
                learning_rate: 0.5,
                lambda: 0.0,
                seed: 1,
                tie_symmetric: true,
                init: None,
            },
            |_, _| {},
        );
        let after = PhaseErrors::measure(&samples, |b| f64::from(w.evaluate(b)) / 100.0).overall();
        assert!(after < before / 3.0, "before {before:.2}, after {after:.2}");
    }

    #[test]
    fn continued_training_keeps_phases_without_data_and_moves_the_others() {
        let Some(init) = crate::eval::built_in_patterns() else {
            panic!("the embedded weights must load");
        };
        // Positions with 10-19 empties only (phase 1), labelled with a value the shipped weights do
        // not predict.
        let mut rng = Rng::new(5);
        let mut samples = Vec::new();
        while samples.len() < 500 {
            let plies = 41 + rng.below(10);
            let b = random_board(&mut rng, plies);
            if !b.is_game_over() && pattern::phase(b.empty_count()) == 1 {
                samples.push(Sample {
                    board: b,
                    label: 30.0,
                    game: samples.len() as u64,
                });
            }
        }
        let w = train(
            &samples,
            &TrainOptions {
                epochs: 3,
                learning_rate: 0.3,
                lambda: 0.0,
                seed: 1,
                tie_symmetric: true,
                init: Some((*init).clone()),
            },
            |_, _| {},
        );
        for ph in (0..PHASES).filter(|&ph| ph != 1) {
            assert!(w.phases[ph] == init.phases[ph], "phase {ph} changed");
        }
        assert!(w.phases[1] != init.phases[1]);
        let err = |weights: &PatternWeights| {
            PhaseErrors::measure(&samples, |b| f64::from(weights.evaluate(b)) / 100.0).mae[1]
        };
        assert!(err(&w) < err(&init) / 2.0, "{} vs {}", err(&w), err(&init));
    }

    #[test]
    fn held_out_split_keeps_games_whole() {
        // 200 games of 5 positions, each game its own random line; the start position opens all.
        let mut rng = Rng::new(11);
        let mut text = String::new();
        for g in 0..200 {
            let mut b = Board::START;
            text.push_str(&format!(
                "{} 0\n",
                Position {
                    board: b,
                    side: Color::Black
                }
            ));
            for _ in 0..4 {
                let Some(m) = crate::tools::players::random_move(b, &mut rng) else {
                    break;
                };
                b = b.play_move(m).unwrap_or(b);
                text.push_str(&format!(
                    "{} {}\n",
                    Position {
                        board: b,
                        side: Color::Black
                    },
                    g % 64
                ));
            }
            text.push_str(&format!("# game {g}\n"));
        }
        let path = std::env::temp_dir().join(format!("wedge-split-{}.txt", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let samples = read_samples(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        // Positions of one game share an id, and no two games do.
        assert_eq!(samples.len(), 1000);
        let ids: HashSet<u64> = samples.chunks(5).map(|game| game[0].game).collect();
        assert_eq!(ids.len(), 200);
        for game in samples.chunks(5) {
            assert!(game.iter().all(|s| s.game == game[0].game));
        }
        let (training, held_out) = split(samples, 100);
        assert!(!held_out.is_empty() && training.len() > held_out.len());
        let held_games: HashSet<u64> = held_out.iter().map(|s| s.game).collect();
        let held_boards: HashSet<Board> = held_out.iter().map(|s| s.board.canonical().0).collect();
        for s in &training {
            assert!(!held_games.contains(&s.game));
            assert!(!held_boards.contains(&s.board.canonical().0));
        }
    }
}
