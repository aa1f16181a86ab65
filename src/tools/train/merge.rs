//! `wedge data merge`: joins data files (the shards of one run, runs of several machines, text
//! files of either age) into binary files, checked and without duplicates: a position that occurs
//! more than once under any of the 8 symmetries is kept once, with its best label (exact, then the
//! deepest search, then the outcome; the first met among equals).

use super::datafile::{self, Block, LabelKind, Record};
use crate::board::text::{read_lines_with_comments, FileError};
use crate::board::Board;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// How text inputs' labels are recorded (the text format does not say what its labels are).
#[derive(Clone, Copy, Debug)]
pub struct TextLabels {
    /// The kind and depth of a label above `exact_empties`.
    pub kind: LabelKind,
    /// Its depth (searches).
    pub depth: u8,
    /// Positions with at most this many empties carry exact labels (the solved end of a game).
    pub exact_empties: u32,
}

/// Which positions of the inputs a merge keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// Empty squares, lowest and highest.
    pub empties: (u32, u32),
    /// Only exactly labelled positions.
    pub exact_only: bool,
}

impl Keep {
    /// Every position.
    pub const ALL: Keep = Keep {
        empties: (0, 60),
        exact_only: false,
    };

    fn admits(&self, r: &Record) -> bool {
        (self.empties.0..=self.empties.1).contains(&r.position.board.empty_count())
            && (!self.exact_only || r.kind == LabelKind::Exact)
    }
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Positions read from the inputs that the [`Keep`] filter admits (all of them by default).
    pub read: usize,
    /// Positions left out as repeats of another (under symmetry).
    pub duplicates: usize,
    /// Positions left out by the [`Keep`] filter.
    pub filtered: usize,
    /// Games written (blocks with at least one position).
    pub games: usize,
    /// Positions written.
    pub written: usize,
    /// The binary inputs that end in a torn block (an interrupted run), with its bytes, skipped.
    pub torn: Vec<(PathBuf, u64)>,
    /// The files written.
    pub files: Vec<PathBuf>,
    /// Parts of an earlier merge into the same output numbered after the last part written,
    /// removed so that `<stem>-*.wdb` holds this merge alone.
    pub removed: Vec<PathBuf>,
}

/// Why a merge failed.
#[derive(Debug)]
pub enum MergeError {
    /// A text input has a bad line (file and line named).
    Text(FileError),
    /// A binary input is damaged or not one.
    Binary(datafile::DataFormatFileError),
    /// An output file could not be written.
    Write(PathBuf, std::io::Error),
    /// An output file is one of the inputs (writing it would destroy what the merge reads).
    OutputIsInput(PathBuf),
    /// A text input was given without saying what its labels are (the text format does not).
    TextLabelsUnnamed(PathBuf),
    /// The inputs hold no positions: nothing is written, so no output is replaced by an empty
    /// file.
    Empty,
    /// The inputs hold positions, but none the [`Keep`] filter admits (nothing is written).
    NoneKept,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Text(e) => write!(f, "{e}"),
            MergeError::Binary(e) => write!(f, "{e}"),
            MergeError::Write(path, e) => write!(f, "{}: {e}", path.display()),
            MergeError::OutputIsInput(path) => {
                write!(
                    f,
                    "{}: one of the inputs, and a file the output is written to or through",
                    path.display()
                )
            }
            MergeError::TextLabelsUnnamed(path) => write!(
                f,
                "{}: a text data file; name what its labels are (--text-labels outcome, exact \
                 or search:D, and --text-exact-empties E)",
                path.display()
            ),
            MergeError::Empty => write!(f, "the inputs hold no positions; nothing written"),
            MergeError::NoneKept => write!(
                f,
                "no position of the inputs is within --empties and --exact-only; nothing written"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// The games of a text data file as blocks, numbered as its `# game N` markers say: a marker closes
/// the game whose positions come before it, with datagen's game number (a run with several
/// threads writes its games out of order), so that a text file merges as the binary file of the
/// same run does. Lines after the last marker (a game cut short), and files without markers,
/// number on from the last.
fn read_text_blocks(path: &Path, labels: TextLabels) -> Result<Vec<Block>, FileError> {
    let blocks = std::cell::RefCell::new(vec![Block {
        game: 0,
        records: Vec::new(),
    }]);
    read_lines_with_comments(
        path,
        |comment| {
            if let Some(number) = super::game_marker(comment) {
                let mut b = blocks.borrow_mut();
                if let Some(closed) = b.last_mut() {
                    if let Some(n) = number {
                        closed.game = n;
                    }
                }
                let next = b.last().map_or(0, |l| l.game + 1);
                b.push(Block {
                    game: next,
                    records: Vec::new(),
                });
            }
        },
        |line| -> Result<(), super::SampleError> {
            let (position, label) = super::parse_line(line)?;
            let (kind, depth) = if position.board.empty_count() <= labels.exact_empties {
                (LabelKind::Exact, 0)
            } else {
                (labels.kind, labels.depth)
            };
            let mut blocks = blocks.borrow_mut();
            // Lines without `# game` markers: cut into blocks of the most a block may hold.
            if blocks
                .last()
                .is_some_and(|b| b.records.len() >= datafile::MAX_BLOCK_RECORDS as usize)
            {
                let n = blocks.last().map_or(0, |l| l.game + 1);
                blocks.push(Block {
                    game: n,
                    records: Vec::new(),
                });
            }
            if let Some(b) = blocks.last_mut() {
                b.records.push(Record {
                    position,
                    label: label.round() as i8,
                    depth,
                    kind,
                });
            }
            Ok(())
        },
    )?;
    let mut blocks = blocks.into_inner();
    blocks.retain(|b| !b.records.is_empty());
    Ok(blocks)
}

/// Merges `inputs` (binary or text; text labels recorded as `text_labels` says, a text input
/// without them refused) into `out`, or into numbered parts `<stem>-000.wdb`, ... of at most
/// `max_positions` positions each (whole games: a game longer than that is a part alone).
pub fn merge(
    inputs: &[PathBuf],
    text_labels: Option<TextLabels>,
    out: &Path,
    max_positions: Option<usize>,
) -> Result<MergeReport, MergeError> {
    merge_kept(inputs, text_labels, out, max_positions, Keep::ALL)
}

/// [`merge`] of the positions `keep` admits alone (a game left without any is left out); the
/// others count as [`MergeReport::filtered`], not as read.
pub fn merge_kept(
    inputs: &[PathBuf],
    text_labels: Option<TextLabels>,
    out: &Path,
    max_positions: Option<usize>,
    keep: Keep,
) -> Result<MergeReport, MergeError> {
    let mut report = MergeReport::default();
    let mut games: Vec<Block> = Vec::new();
    for path in inputs {
        if datafile::is_binary_data(path) {
            let data = datafile::read_data_file(path).map_err(MergeError::Binary)?;
            if data.torn_bytes > 0 {
                report.torn.push((path.clone(), data.torn_bytes));
            }
            games.extend(data.blocks);
        } else {
            // Read once whatever the labels are, so that a file that is not text (or not data)
            // says so before its labels are asked for; one without positions needs none.
            let labels = text_labels.unwrap_or(TextLabels {
                kind: LabelKind::Outcome,
                depth: 0,
                exact_empties: 0,
            });
            let blocks = read_text_blocks(path, labels).map_err(MergeError::Text)?;
            if text_labels.is_none() && blocks.iter().any(|b| !b.records.is_empty()) {
                return Err(MergeError::TextLabelsUnnamed(path.clone()));
            }
            games.extend(blocks);
        }
    }
    for block in &mut games {
        let before = block.records.len();
        block.records.retain(|r| keep.admits(r));
        report.filtered += before - block.records.len();
    }
    // In game-number order (stable: inputs in the order given among equal numbers), so that the
    // shards of one run merge into what the whole run would give, whatever order they come in.
    games.sort_by_key(|b| b.game);
    // The best record of each position (by canonical form): (game, record) of the first best.
    let mut best: HashMap<Board, (usize, usize)> = HashMap::new();
    for (g, block) in games.iter().enumerate() {
        for (i, r) in block.records.iter().enumerate() {
            report.read += 1;
            let key = r.position.board.canonical().0;
            match best.get(&key) {
                Some(&(bg, bi)) if games[bg].records[bi].quality() >= r.quality() => {}
                _ => {
                    best.insert(key, (g, i));
                }
            }
        }
    }
    let mut kept: Vec<Block> = Vec::new();
    for (g, block) in games.iter().enumerate() {
        let records: Vec<Record> = block
            .records
            .iter()
            .enumerate()
            .filter(|&(i, r)| best.get(&r.position.board.canonical().0) == Some(&(g, i)))
            .map(|(_, r)| *r)
            .collect();
        if !records.is_empty() {
            kept.push(Block {
                game: kept.len() as u64,
                records,
            });
        }
    }
    report.written = kept.iter().map(|b| b.records.len()).sum();
    report.duplicates = report.read - report.written;
    report.games = kept.len();
    // Whole games per part, each part up to the limit (a game alone over it still goes whole).
    let mut parts: Vec<&[Block]> = Vec::new();
    match max_positions {
        None => parts.push(&kept),
        Some(max) => {
            let (mut from, mut size) = (0, 0);
            for (i, b) in kept.iter().enumerate() {
                if size > 0 && size + b.records.len() > max {
                    parts.push(&kept[from..i]);
                    (from, size) = (i, 0);
                }
                size += b.records.len();
            }
            if from < kept.len() || parts.is_empty() {
                parts.push(&kept[from..]);
            }
        }
    }
    if kept.is_empty() {
        return Err(if report.filtered > 0 {
            MergeError::NoneKept
        } else {
            MergeError::Empty
        });
    }
    let paths: Vec<PathBuf> = match max_positions {
        None => vec![out.to_path_buf()],
        Some(_) => (0..parts.len()).map(|k| part_path(out, k)).collect(),
    };
    let inputs: Vec<PathBuf> = inputs
        .iter()
        .filter_map(|i| std::fs::canonicalize(i).ok())
        .collect();
    // Each output, and the files its write goes through (`.new` for parts, `.partial` for all),
    // which replace a file of their name.
    for path in &paths {
        let mut through = vec![path.clone(), crate::files::partial_path(path)];
        if max_positions.is_some() {
            let fresh = new_path(path);
            through.push(crate::files::partial_path(&fresh));
            through.push(fresh);
        }
        for p in &through {
            if std::fs::canonicalize(p).is_ok_and(|c| inputs.contains(&c)) {
                return Err(MergeError::OutputIsInput(p.clone()));
            }
        }
    }
    // Parts of an earlier merge into more parts are removed after the write; one that is an
    // input is refused before anything is written.
    let stale: Vec<PathBuf> = match max_positions {
        None => Vec::new(),
        Some(_) => (parts.len()..)
            .map(|k| part_path(out, k))
            .take_while(|p| p.is_file())
            .collect(),
    };
    for path in &stale {
        if std::fs::canonicalize(path).is_ok_and(|p| inputs.contains(&p)) {
            return Err(MergeError::OutputIsInput(path.clone()));
        }
    }
    if max_positions.is_none() {
        datafile::write_data_file(out, parts[0]).map_err(|e| MergeError::Write(out.into(), e))?;
        report.files.push(out.to_path_buf());
    } else {
        write_parts(&paths, &parts)?;
        report.files = paths;
    }
    for path in stale {
        if std::fs::remove_file(&path).is_err() {
            break;
        }
        report.removed.push(path);
    }
    Ok(report)
}

/// Writes `parts` as the files `paths`: each goes to `<path>.new` first, and only when every one
/// is written are they renamed into place. A failed write (a full disk) removes the new files and
/// leaves the parts of an earlier merge as they were, not a mix of the two. The new parts and the
/// old are on the disk together until the renames.
fn write_parts(paths: &[PathBuf], parts: &[&[Block]]) -> Result<(), MergeError> {
    let fresh: Vec<PathBuf> = paths.iter().map(|p| new_path(p)).collect();
    let undo = |upto: usize| {
        for f in &fresh[..upto] {
            let _ = std::fs::remove_file(f);
        }
    };
    let undo_from = |from: usize| {
        for f in &fresh[from..] {
            let _ = std::fs::remove_file(f);
        }
    };
    for (k, part) in parts.iter().enumerate() {
        if let Err(e) = datafile::write_data_file(&fresh[k], part) {
            undo(k + 1);
            return Err(MergeError::Write(fresh[k].clone(), e));
        }
    }
    // A part a datagen run is writing to is not replaced (the run would go on in the old file).
    let mut held = Vec::new();
    for path in paths {
        let file = crate::files::open_output(std::fs::OpenOptions::new().write(true), path);
        let file = match file {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                undo(fresh.len());
                return Err(MergeError::Write(path.clone(), e));
            }
        };
        if !datafile::lock_for_writing(&file, path) {
            undo(fresh.len());
            let busy = crate::files::FileFault::Locked.into();
            return Err(MergeError::Write(path.clone(), busy));
        }
        held.push(file);
    }
    for (k, (new, path)) in fresh.iter().zip(paths).enumerate() {
        // The part is no run's data (as write_data_file says of the file it writes): its run file
        // goes first, so that no part is left that a datagen run would resume in.
        let run = crate::tools::run::run_file(path);
        let renamed = match std::fs::remove_file(&run) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(MergeError::Write(run, e)),
            _ => std::fs::rename(new, path).map_err(|e| MergeError::Write(path.clone(), e)),
        };
        // A rename within one folder fails only with the folder itself: the parts renamed before
        // are the new merge's, the new files left are removed, and the error names the part.
        if renamed.is_err() {
            undo_from(k);
            return renamed;
        }
    }
    Ok(())
}

/// `<path>.new`: where [`write_parts`] writes a part before the renames.
fn new_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".new");
    PathBuf::from(name)
}

/// `<dir>/<stem>-<k as 3 digits>.wdb` for output `<dir>/<stem>.wdb`.
fn part_path(out: &Path, k: usize) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "data".to_string(), |s| s.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}-{k:03}.wdb"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Position, Square};

    /// A record as the file holds it.
    fn rec(position: Position, label: i8, kind: LabelKind, depth: u8) -> Record {
        Record {
            position,
            label,
            depth,
            kind,
        }
    }

    /// Writes `games` as a binary data file, numbered 0, 1, ... in order.
    fn write_games(path: &Path, games: Vec<Vec<Record>>) {
        let blocks: Vec<Block> = games
            .into_iter()
            .enumerate()
            .map(|(g, records)| Block {
                game: g as u64,
                records,
            })
            .collect();
        datafile::write_data_file(path, &blocks).unwrap();
    }

    /// A fresh folder of this process for the test named `tag`.
    fn test_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("wedge-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn symmetric_repeats_keep_the_best_label_and_parts_hold_whole_games() {
        let start = Position::START;
        // The four first moves are one position under symmetry.
        let children: Vec<Position> = ["d3", "c4", "f5", "e6"]
            .iter()
            .filter_map(|m| m.parse::<Square>().ok())
            .filter_map(|s| start.play(Move::play(s)))
            .collect();
        assert_eq!(children.len(), 4);
        let dir = test_dir("merge");
        let a = dir.join("a.wdb");
        write_games(
            &a,
            vec![
                vec![
                    rec(start, 0, LabelKind::Outcome, 0),
                    rec(children[0], 2, LabelKind::Search, 8),
                ],
                vec![rec(children[1], 3, LabelKind::Search, 12)],
            ],
        );
        let b = dir.join("b.txt");
        std::fs::write(
            &b,
            format!("{} -4\n# game 0\n{} 0\n# game 1\n", children[2], start),
        )
        .unwrap();
        let out = dir.join("all.wdb");
        // A text input whose labels are not named is refused, nothing written.
        let unnamed = merge(&[a.clone(), b.clone()], None, &out, None);
        assert!(matches!(&unnamed, Err(MergeError::TextLabelsUnnamed(p)) if *p == b));
        assert!(!out.exists());
        // A file that is not text says so first; an empty one needs no labels.
        let junk = dir.join("junk.dat");
        std::fs::write(&junk, [0xffu8, 0xfe, 0x00, 0x9c]).unwrap();
        let not_text = merge(&[a.clone(), junk], None, &out, None);
        assert!(
            matches!(&not_text, Err(MergeError::Text(e)) if e.line == 1),
            "{not_text:?}"
        );
        assert!(!out.exists());
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "").unwrap();
        let with_empty = merge(&[a.clone(), empty], None, &out, None).unwrap();
        std::fs::remove_file(&out).unwrap();
        let alone = merge(std::slice::from_ref(&a), None, &out, None).unwrap();
        std::fs::remove_file(&out).unwrap();
        assert_eq!((with_empty.read, with_empty.written), (3, 2));
        assert_eq!(with_empty, alone);
        let labels = Some(TextLabels {
            kind: LabelKind::Outcome,
            depth: 0,
            exact_empties: 0,
        });
        let report = merge(&[a.clone(), b.clone()], labels, &out, None).unwrap();
        assert_eq!((report.read, report.duplicates, report.written), (5, 3, 2));
        let data = datafile::read_data_file(&out).unwrap();
        let all: Vec<Record> = data.blocks.iter().flat_map(|b| b.records.clone()).collect();
        // The start once (the first of two outcome labels), the opening move once with the
        // depth-12 label.
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].position, all[0].kind), (start, LabelKind::Outcome));
        assert_eq!((all[1].label, all[1].depth), (3, 12));
        // Parts of at most one position: two files, each a whole game.
        let report = merge(&[a.clone(), b.clone()], labels, &out, Some(1)).unwrap();
        assert_eq!(report.files.len(), 2);
        assert!(report.files[0].ends_with("all-000.wdb"));
        for f in &report.files {
            assert_eq!(datafile::read_data_file(f).unwrap().blocks.len(), 1);
        }
        // Parts of two positions: one file, and the earlier second part goes.
        let report = merge(&[a.clone(), b.clone()], labels, &out, Some(2)).unwrap();
        assert_eq!(report.files, vec![dir.join("all-000.wdb")]);
        assert_eq!(report.removed, vec![dir.join("all-001.wdb")]);
        assert!(!dir.join("all-001.wdb").exists());
        // A merge into two parts whose second cannot be written (a folder where its new file
        // goes) writes neither: the one part of the last merge stays as it was.
        let last = std::fs::read(dir.join("all-000.wdb")).unwrap();
        std::fs::create_dir_all(dir.join("all-001.wdb.new")).unwrap();
        let failed = merge(&[a.clone(), b.clone()], labels, &out, Some(1));
        assert!(matches!(failed, Err(MergeError::Write(..))), "{failed:?}");
        assert_eq!(std::fs::read(dir.join("all-000.wdb")).unwrap(), last);
        assert!(!dir.join("all-001.wdb").exists());
        assert!(!dir.join("all-000.wdb.new").exists());
        std::fs::remove_dir(dir.join("all-001.wdb.new")).unwrap();
        // An output that is an input, under another name or as a part, is refused untouched.
        let before = std::fs::read(&a).unwrap();
        let same = dir.join(".").join("a.wdb");
        let refused = merge(&[a.clone(), b.clone()], labels, &same, None);
        assert!(
            matches!(refused, Err(MergeError::OutputIsInput(_))),
            "{refused:?}"
        );
        let part = dir.join("all-000.wdb");
        let refused = merge(&[part.clone(), b.clone()], labels, &out, Some(1));
        assert!(matches!(refused, Err(MergeError::OutputIsInput(p)) if p == part));
        // A further part of an earlier merge, the merge would remove, is refused as an input too.
        let extra = dir.join("all-001.wdb");
        std::fs::copy(&a, &extra).unwrap();
        let refused = merge(&[extra.clone(), b.clone()], labels, &out, Some(2));
        assert!(matches!(refused, Err(MergeError::OutputIsInput(p)) if p == extra));
        assert_eq!(std::fs::read(&extra).unwrap(), before);
        std::fs::remove_file(&extra).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), before);
        // Inputs without positions replace nothing.
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "# nothing\n").unwrap();
        let kept = std::fs::read(&out).unwrap();
        assert!(matches!(
            merge(&[empty], labels, &out, None),
            Err(MergeError::Empty)
        ));
        assert_eq!(std::fs::read(&out).unwrap(), kept);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_filtered_merge_keeps_the_empties_and_labels_asked_for() {
        let start = Position::START;
        let child = start.play(Move::play("f5".parse().unwrap())).unwrap();
        let grandchild = child.play(Move::play("d6".parse().unwrap())).unwrap();
        let other = child.play(Move::play("f6".parse().unwrap())).unwrap();
        let dir = test_dir("merge-keep");
        let a = dir.join("a.wdb");
        write_games(
            &a,
            vec![
                vec![
                    rec(start, 0, LabelKind::Outcome, 0),
                    rec(child, 1, LabelKind::Exact, 0),
                    rec(grandchild, 2, LabelKind::Exact, 0),
                ],
                vec![
                    rec(start, 0, LabelKind::Exact, 0),
                    rec(other, 3, LabelKind::Search, 12),
                ],
            ],
        );
        let out = dir.join("kept.wdb");
        let read = |keep: Keep| {
            let report = merge_kept(std::slice::from_ref(&a), None, &out, None, keep).unwrap();
            let data = datafile::read_data_file(&out).unwrap();
            let labels: Vec<Vec<i8>> = data
                .blocks
                .iter()
                .map(|b| b.records.iter().map(|r| r.label).collect())
                .collect();
            (report.filtered, report.read, labels)
        };
        // 58-59 empties: the child and both grandchildren, whatever their labels.
        let keep = Keep {
            empties: (58, 59),
            exact_only: false,
        };
        assert_eq!(read(keep), (2, 3, vec![vec![1, 2], vec![3]]));
        // The file twice: what the filter leaves is read twice, and its repeats are left out.
        let report = merge_kept(&[a.clone(), a.clone()], None, &out, None, keep).unwrap();
        assert_eq!(
            (
                report.filtered,
                report.read,
                report.duplicates,
                report.written,
                report.games
            ),
            (4, 6, 3, 3, 2)
        );
        // Exact labels alone: the second game keeps the start's exact label, not the search's.
        let keep = Keep {
            empties: (0, 60),
            exact_only: true,
        };
        assert_eq!(read(keep), (2, 3, vec![vec![1, 2], vec![0]]));
        // Both: the second game has nothing left and is left out whole.
        let keep = Keep {
            empties: (58, 59),
            exact_only: true,
        };
        assert_eq!(read(keep), (3, 2, vec![vec![1, 2]]));
        // Nothing admitted: an error, nothing replaced.
        let before = std::fs::read(&out).unwrap();
        let keep = Keep {
            empties: (10, 20),
            exact_only: false,
        };
        let none = merge_kept(std::slice::from_ref(&a), None, &out, None, keep);
        assert!(matches!(none, Err(MergeError::NoneKept)), "{none:?}");
        assert_eq!(std::fs::read(&out).unwrap(), before);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn text_games_keep_the_numbers_of_their_markers() {
        let dir = test_dir("merge-marks");
        // Games written out of order, as datagen's threads finish them.
        let game = |n: u32| {
            let mut pos = Position::START;
            for _ in 0..=n {
                pos = pos.play(pos.legal_move_list()[0]).unwrap();
            }
            format!("{pos} +{n}\n# game {n}\n")
        };
        let text: String = [0, 1, 3, 2].map(game).concat();
        let input = dir.join("marks.txt");
        std::fs::write(&input, &text).unwrap();
        let labels = TextLabels {
            kind: LabelKind::Outcome,
            depth: 0,
            exact_empties: 0,
        };
        let games: Vec<u64> = read_text_blocks(&input, labels)
            .unwrap()
            .iter()
            .map(|b| b.game)
            .collect();
        assert_eq!(games, [0, 1, 3, 2]);
        // Merged, they come in game order, as the binary file of the same run would.
        let out = dir.join("marks.wdb");
        merge(&[input], Some(labels), &out, None).unwrap();
        let labels: Vec<i8> = datafile::read_data_file(&out)
            .unwrap()
            .blocks
            .iter()
            .map(|b| b.records[0].label)
            .collect();
        assert_eq!(labels, [0, 1, 2, 3]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_text_file_without_game_markers_is_cut_into_blocks_a_reader_accepts() {
        let dir = test_dir("merge-text");
        // Random boards (distinct with all but certainty), one more than a block holds.
        let count = datafile::MAX_BLOCK_RECORDS as usize + 1;
        let mut rng = crate::rng::Rng::new(7);
        let mut text = String::with_capacity(count * 70);
        for _ in 0..count {
            for _ in 0..64 {
                text.push(['X', 'O', '-'][rng.below(3) as usize]);
            }
            text.push_str(" X 0\n");
        }
        let input = dir.join("nomarks.txt");
        std::fs::write(&input, text).unwrap();
        let out = dir.join("nomarks.wdb");
        let labels = Some(TextLabels {
            kind: LabelKind::Outcome,
            depth: 0,
            exact_empties: 0,
        });
        let report = merge(&[input], labels, &out, None).unwrap();
        let data = datafile::read_data_file(&out).unwrap();
        let sizes: Vec<usize> = data.blocks.iter().map(|b| b.records.len()).collect();
        assert!(sizes.len() >= 2, "{sizes:?}");
        assert!(sizes
            .iter()
            .all(|&n| n <= datafile::MAX_BLOCK_RECORDS as usize));
        assert_eq!(sizes.iter().sum::<usize>(), report.written);
        // A block too large to read back is refused by the writer, not written.
        let big = Block {
            game: 0,
            records: vec![data.blocks[0].records[0]; count],
        };
        let bad = dir.join("big.wdb");
        assert!(datafile::write_data_file(&bad, &[big]).is_err());
        assert!(!bad.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
