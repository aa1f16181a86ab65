//! The binary training-data format (`.wdb`), written one game a block, each block with its own
//! checksum, so that a file cut anywhere (a `kill -9`, a full disk) loses at most the game being
//! written, and a damaged block is found and named on reading. Two versions, both read:
//!
//! Layout (all little-endian):
//! - file header, 16 bytes: magic `WEDGEDB1`, format version u32 (1 or 2), record size u32 (20 in
//!   version 1, 0 in version 2: records of varying size);
//! - then blocks, one per game: game number u64, record count u32, a u32 (0 in version 1; the
//!   records' byte count in version 2), FNV-1a 64 checksum u64 of the 16 bytes before it and of
//!   the records, then the records;
//! - a version 1 record, 20 bytes: black's discs u64, white's discs u64, side to move u8 (0 black,
//!   1 white), label i8 (final disc difference for the side to move, -64..=64), label depth u8 (0
//!   for an outcome or an exact solve), label kind u8 ([`LabelKind`]);
//! - a version 2 record, 3 bytes as a rule: how the position follows from the record before it (a
//!   square 0-63: the move that side to move played there; 64: a pass; 255: none, and the position
//!   follows in 17 bytes, black's discs u64, white's discs u64, side u8), the label i8, and the
//!   label kind times 64 plus the depth (a depth above 63 is 255 followed by depth u8 and kind u8).
//!   The positions of a game follow one another by moves, so a position costs 3 bytes instead of
//!   20 (the committed training data: [docs/training.md](../../../docs/training.md)).

use crate::board::{Board, Color, Position};
use crate::files::{checksum as fnv, checksum_parts, FileFault};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The first bytes of a binary data file.
pub const DATA_MAGIC: &[u8; 8] = b"WEDGEDB1";
/// The format version new files are written in (version 1 files are read, and appended to in
/// their own version).
pub const VERSION: u32 = 2;
/// Bytes per record of version 1.
pub const RECORD_BYTES: usize = 20;
/// Version 2's step code of a position given whole.
const STEP_RAW: u8 = 255;
/// Version 2's step code of a pass.
const STEP_PASS: u8 = 64;
/// Version 2's label byte that says the depth and kind follow whole.
const META_WHOLE: u8 = 255;
/// The fewest and the most bytes a version 2 record takes: a step, the label and kind/depth; a
/// whole position and the depth and kind whole.
const COMPACT_RECORD_BYTES: (usize, usize) = (3, 1 + 17 + 1 + 3);
/// Bytes of the file header.
pub const FILE_HEADER: usize = 16;
/// Bytes of a block header.
const BLOCK_HEADER: usize = 24;
/// The most records a block may hold (a game has at most a few hundred positions with siblings;
/// a larger count is damage, not data).
pub const MAX_BLOCK_RECORDS: u32 = 1 << 16;

/// What a label is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LabelKind {
    /// The result the game reached (the solved end of the game played out).
    Outcome = 0,
    /// A search of the position itself, of the record's depth.
    Search = 1,
    /// The position's exact solve.
    Exact = 2,
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position.
    pub position: Position,
    /// Final disc difference for the side to move.
    pub label: i8,
    /// Depth of a search label (0 otherwise).
    pub depth: u8,
    /// What the label is.
    pub kind: LabelKind,
}

impl Record {
    /// A record of `position` labelled `label` discs (clamped to -64..=64) of `kind`; `search_depth`
    /// is kept for a search label only, the other kinds record depth 0.
    pub fn new(position: Position, label: i32, kind: LabelKind, search_depth: u32) -> Record {
        Record {
            position,
            label: label.clamp(-64, 64) as i8,
            depth: if kind == LabelKind::Search {
                search_depth.min(255) as u8
            } else {
                0
            },
            kind,
        }
    }

    /// How much a label is worth against another of the same position: exact, then deeper searches,
    /// then outcomes.
    pub fn quality(&self) -> (LabelKind, u8) {
        (self.kind, self.depth)
    }

    fn to_bytes(self) -> [u8; RECORD_BYTES] {
        let (black, white) = match self.position.side {
            Color::Black => (self.position.board.player(), self.position.board.opponent()),
            Color::White => (self.position.board.opponent(), self.position.board.player()),
        };
        let mut out = [0u8; RECORD_BYTES];
        out[..8].copy_from_slice(&black.to_le_bytes());
        out[8..16].copy_from_slice(&white.to_le_bytes());
        out[16] = u8::from(self.position.side == Color::White);
        out[17] = self.label as u8;
        out[18] = self.depth;
        out[19] = self.kind as u8;
        out
    }

    /// Appends the version 2 encoding of this record, which follows `prev` (the block's record
    /// before it, if any).
    fn encode_compact(self, prev: Option<Position>, out: &mut Vec<u8>) {
        let pos = self.position;
        let step = prev.and_then(|p| {
            let side = p.side.opposite();
            if pos.side != side {
                return None;
            }
            if pos.board == p.board.pass() && p.board.must_pass() {
                return Some(STEP_PASS);
            }
            let (was, now) = (!p.board.empties(), !pos.board.empties());
            let added = now & !was;
            if added.count_ones() != 1 || was & !now != 0 {
                return None;
            }
            let sq = crate::board::Square::new(added.trailing_zeros() as u8)?;
            (p.board.play(sq) == Some(pos.board)).then_some(sq.index() as u8)
        });
        match step {
            Some(s) => out.push(s),
            None => {
                let whole = self.to_bytes();
                out.push(STEP_RAW);
                out.extend_from_slice(&whole[..17]);
            }
        }
        out.push(self.label as u8);
        if self.depth < 64 {
            out.push((self.kind as u8) << 6 | self.depth);
        } else {
            out.extend_from_slice(&[META_WHOLE, self.depth, self.kind as u8]);
        }
    }

    /// Decodes one version 2 record from the front of `b` (which it advances), following `prev`.
    fn decode_compact(b: &mut &[u8], prev: Option<Position>) -> Option<Record> {
        let (&step, rest) = b.split_first()?;
        let (position, rest) = match step {
            STEP_RAW => (position_from_bytes(rest)?, &rest[17..]),
            STEP_PASS => {
                let p = prev.filter(|p| p.board.must_pass())?;
                let pos = Position {
                    board: p.board.pass(),
                    side: p.side.opposite(),
                };
                (pos, rest)
            }
            s => {
                let p = prev?;
                let sq = crate::board::Square::new(s)?;
                let pos = Position {
                    board: p.board.play(sq)?,
                    side: p.side.opposite(),
                };
                (pos, rest)
            }
        };
        let (&label, rest) = rest.split_first()?;
        let (&meta, rest) = rest.split_first()?;
        let (depth, kind, rest) = if meta == META_WHOLE {
            let (dk, rest) = (rest.get(..2)?, &rest[2..]);
            (dk[0], dk[1], rest)
        } else {
            (meta & 63, meta >> 6, rest)
        };
        let record = Record::checked(position, label, depth, kind)?;
        *b = rest;
        Some(record)
    }

    fn from_bytes(b: &[u8]) -> Option<Record> {
        Record::checked(position_from_bytes(b)?, b[17], b[18], b[19])
    }

    /// The record of `position` with a label, depth and kind as stored; `None` where the label or
    /// the kind is out of range (damage).
    fn checked(position: Position, label: u8, depth: u8, kind: u8) -> Option<Record> {
        let kind = match kind {
            0 => LabelKind::Outcome,
            1 => LabelKind::Search,
            2 => LabelKind::Exact,
            _ => return None,
        };
        let label = label as i8;
        (-64..=64).contains(&label).then_some(Record {
            position,
            label,
            depth,
            kind,
        })
    }
}

/// The position of the first 17 bytes of `b` (black's discs u64, white's u64, side u8), as both
/// versions store a whole position; `None` where they cannot be one.
fn position_from_bytes(b: &[u8]) -> Option<Position> {
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(b.get(at..at + 8)?);
        Some(u64::from_le_bytes(w))
    };
    let (black, white) = (word(0)?, word(8)?);
    let (side, board) = match b.get(16)? {
        0 => (Color::Black, Board::new(black, white)),
        1 => (Color::White, Board::new(white, black)),
        _ => return None,
    };
    Some(Position {
        board: board.ok()?,
        side,
    })
}

/// The records of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The game's number in the run that made it.
    pub game: u64,
    /// Its positions.
    pub records: Vec<Record>,
}

impl Block {
    /// The block's bytes in format `version` (1 or 2): header with checksum, then the records.
    pub fn to_bytes(&self, version: u32) -> Vec<u8> {
        let mut records = Vec::with_capacity(self.records.len() * RECORD_BYTES);
        let mut prev = None;
        for r in &self.records {
            if version == 1 {
                records.extend_from_slice(&r.to_bytes());
            } else {
                r.encode_compact(prev, &mut records);
                prev = Some(r.position);
            }
        }
        let size = if version == 1 {
            0
        } else {
            records.len() as u32
        };
        let mut body = Vec::with_capacity(16 + records.len());
        body.extend_from_slice(&self.game.to_le_bytes());
        body.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        body.extend_from_slice(&size.to_le_bytes());
        body.extend_from_slice(&records);
        let sum = fnv(&body);
        let mut out = Vec::with_capacity(body.len() + 8);
        out.extend_from_slice(&body[..16]);
        out.extend_from_slice(&sum.to_le_bytes());
        out.extend_from_slice(&body[16..]);
        out
    }
}

/// The file header of a binary data file of format `version` (1 or 2).
pub fn file_header(version: u32) -> [u8; FILE_HEADER] {
    let mut h = [0u8; FILE_HEADER];
    h[..8].copy_from_slice(DATA_MAGIC);
    h[8..12].copy_from_slice(&version.to_le_bytes());
    let size = if version == 1 { RECORD_BYTES as u32 } else { 0 };
    h[12..16].copy_from_slice(&size.to_le_bytes());
    h
}

/// Whether `path` starts as a binary data file. Only a regular file is opened (a FIFO would block
/// the open until someone writes to it); anything else is "not binary", and the text reader then
/// refuses it with the reason.
pub fn is_binary_data(path: &Path) -> bool {
    let mut head = [0u8; 8];
    crate::files::check_regular(path, crate::files::MAX_DATA_BYTES).is_ok()
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
        && &head == DATA_MAGIC
}

/// A binary data file read back: its sound blocks, and where the sound part ends.
#[derive(Debug)]
pub struct DataFile {
    /// Its format version (1 or 2).
    pub version: u32,
    /// The blocks, in file order.
    pub blocks: Vec<Block>,
    /// Bytes of the sound part (header and complete blocks).
    pub sound_bytes: u64,
    /// Bytes after it: a block cut short at the end of the file (an interrupted write).
    pub torn_bytes: u64,
}

/// Why a binary data file cannot be read.
#[derive(Debug)]
pub enum DataFormatError {
    /// It cannot be read.
    Io(std::io::Error),
    /// It is not a binary data file of this version.
    Header,
    /// A complete block at this byte offset fails its checksum or holds an impossible record.
    Corrupt {
        /// Byte offset of the block.
        offset: u64,
        /// Block number (from 0).
        block: usize,
    },
    /// The block at this byte offset runs past the end of the bytes, and what follows it holds
    /// too many would-be blocks to check whether any is whole (a damaged or crafted file).
    Unsure {
        /// Byte offset of the block.
        offset: u64,
        /// Block number (from 0).
        block: usize,
    },
    /// The memory for the decoded positions cannot be had: this many bytes.
    Memory {
        /// The bytes the positions take in memory.
        needed: u64,
    },
}

impl fmt::Display for DataFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataFormatError::Io(e) => write!(f, "{e}"),
            DataFormatError::Header => {
                f.write_str("not a wedge binary data file (expected WEDGEDB1, version 1 or 2)")
            }
            DataFormatError::Corrupt { offset, block } => {
                write!(
                    f,
                    "block {block} at byte {offset} is corrupt (checksum or record)"
                )
            }
            DataFormatError::Unsure { offset, block } => write!(
                f,
                "block {block} at byte {offset} runs past the end, and the bytes after it hold too \
                 many would-be blocks to tell a torn tail from damage; cut the file at byte \
                 {offset} to keep the blocks before it"
            ),
            DataFormatError::Memory { needed } => write!(
                f,
                "not enough memory to hold its positions: {} MB ({} bytes a position)",
                needed.div_ceil(1 << 20),
                std::mem::size_of::<Record>()
            ),
        }
    }
}

impl std::error::Error for DataFormatError {}

/// A binary data file that cannot be used: which file, and why.
#[derive(Debug)]
pub struct DataFormatFileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub error: DataFormatError,
}

impl fmt::Display for DataFormatFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for DataFormatFileError {}

/// Reads and checks a binary data file. A block cut short at the end is reported as torn (not an
/// error: an interrupted write leaves one); a complete block that fails its check is an error.
pub fn read_data_file(path: &Path) -> Result<DataFile, DataFormatFileError> {
    let err = |error| DataFormatFileError {
        path: path.to_path_buf(),
        error,
    };
    let bytes = crate::files::read_regular(path, crate::files::MAX_DATA_BYTES)
        .map_err(|e| err(DataFormatError::Io(e)))?;
    parse_data(&bytes).map_err(err)
}

/// [`read_data_file`] on bytes in memory.
pub fn parse_data(bytes: &[u8]) -> Result<DataFile, DataFormatError> {
    let Some(version) = [1, 2]
        .into_iter()
        .find(|&v| bytes.len() >= FILE_HEADER && bytes[..FILE_HEADER] == file_header(v))
    else {
        return Err(DataFormatError::Header);
    };
    // The positions' memory, from the whole blocks' counts, checked before any is decoded: a file
    // of gigabytes decodes into several times its size, which the system would grant and then
    // kill the process for.
    let (mut positions, mut at) = (0usize, FILE_HEADER);
    while let BlockAt::Whole { count, end } = block_span(bytes, at, version) {
        positions += count;
        at = end;
    }
    let needed = (positions as u64).saturating_mul(std::mem::size_of::<Record>() as u64);
    let memory = DataFormatError::Memory { needed };
    if needed >= 1 << 20 && crate::game::memory::available_memory().is_some_and(|a| needed > a) {
        return Err(memory);
    }
    let mut at = FILE_HEADER;
    let mut blocks = Vec::new();
    while at < bytes.len() {
        let corrupt = DataFormatError::Corrupt {
            offset: at as u64,
            block: blocks.len(),
        };
        let (count, end) = match block_at(bytes, at, version) {
            BlockAt::Whole { count, end } => (count, end),
            BlockAt::Corrupt => return Err(corrupt),
            // An interrupted write leaves one block cut short, and nothing after it. A whole
            // block further on means this one's length was damaged: taken as torn, the blocks
            // after it would be cut off with it.
            BlockAt::Torn => match scan_after_torn(bytes, at, version).0 {
                AfterTorn::Nothing => break,
                AfterTorn::WholeBlock => return Err(corrupt),
                AfterTorn::TooCostly => {
                    return Err(DataFormatError::Unsure {
                        offset: at as u64,
                        block: blocks.len(),
                    })
                }
            },
        };
        let h = &bytes[at..at + BLOCK_HEADER];
        let mut game = [0u8; 8];
        game.copy_from_slice(&h[..8]);
        let encoded = &bytes[at + BLOCK_HEADER..end];
        // Memory the system refuses is an error, not an abort.
        let mut records = Vec::new();
        if records.try_reserve_exact(count).is_err() || blocks.try_reserve(1).is_err() {
            return Err(memory);
        }
        let decoded = if version == 1 {
            encoded
                .chunks_exact(RECORD_BYTES)
                .all(|r| match Record::from_bytes(r) {
                    Some(record) => {
                        records.push(record);
                        true
                    }
                    None => false,
                })
        } else {
            decode_compact_records(encoded, count, &mut records)
        };
        if !decoded {
            return Err(corrupt);
        }
        blocks.push(Block {
            game: u64::from_le_bytes(game),
            records,
        });
        at = end;
    }
    Ok(DataFile {
        version,
        blocks,
        sound_bytes: at as u64,
        torn_bytes: (bytes.len() - at) as u64,
    })
}

/// What the bytes at a block's start hold.
enum BlockAt {
    /// A block whose checksum holds: `count` records, ending at byte `end`.
    Whole { count: usize, end: usize },
    /// A block cut short by the end of the bytes.
    Torn,
    /// A block that cannot be one: a count or length out of range, or a failed checksum.
    Corrupt,
}

/// Reads the block header at `at` of a version-`version` file and checks the block.
fn block_at(bytes: &[u8], at: usize, version: u32) -> BlockAt {
    match block_span(bytes, at, version) {
        BlockAt::Whole { count, end } if sum_holds(bytes, at, end) => BlockAt::Whole { count, end },
        BlockAt::Whole { .. } => BlockAt::Corrupt,
        other => other,
    }
}

/// The most bytes of candidate blocks [`scan_after_torn`] checksums. A candidate is checksummed
/// only when its header is in range and its first record reads as one, which the bytes inside a
/// torn block seldom give; only a crafted file comes near this.
const TORN_SCAN_BYTES: usize = 64 << 20;

/// What follows a block cut short by the end of the bytes.
#[derive(Debug, PartialEq, Eq)]
enum AfterTorn {
    /// No whole block: the block is a torn tail, left by an interrupted write.
    Nothing,
    /// A whole block: the torn block's length was damaged, and the blocks after it must not be
    /// cut off with it.
    WholeBlock,
    /// More candidates than [`TORN_SCAN_BYTES`] of checksums can tell.
    TooCostly,
}

/// Looks for a whole block (with records) at every offset after the torn block at `at`, and
/// returns the answer with the bytes checksummed. Candidates are first read without the checksum
/// (header, first record), so that a torn tail costs little; the checksums are bounded, so that a
/// crafted file costs a bounded time rather than the square of its length.
fn scan_after_torn(bytes: &[u8], at: usize, version: u32) -> (AfterTorn, usize) {
    let mut checked = 0;
    for j in at + 1..bytes.len() {
        let BlockAt::Whole { count, end } = block_span(bytes, j, version) else {
            continue;
        };
        if count == 0 || !first_record_reads(&bytes[j + BLOCK_HEADER..end], version) {
            continue;
        }
        if checked + (end - j) > TORN_SCAN_BYTES {
            return (AfterTorn::TooCostly, checked);
        }
        checked += end - j;
        if sum_holds(bytes, j, end) {
            return (AfterTorn::WholeBlock, checked);
        }
    }
    (AfterTorn::Nothing, checked)
}

/// Whether the first record of a block's `records` reads as one (a version 2 block starts with a
/// whole position).
fn first_record_reads(mut records: &[u8], version: u32) -> bool {
    match version {
        1 => records
            .get(..RECORD_BYTES)
            .and_then(Record::from_bytes)
            .is_some(),
        _ => Record::decode_compact(&mut records, None).is_some(),
    }
}

/// Whether the checksum in the header of the block at `at`, ending at `end`, holds: it covers the
/// header's first 16 bytes and the records.
fn sum_holds(bytes: &[u8], at: usize, end: usize) -> bool {
    let h = &bytes[at..at + BLOCK_HEADER];
    let mut sum = [0u8; 8];
    sum.copy_from_slice(&h[16..24]);
    checksum_parts(&[&h[..16], &bytes[at + BLOCK_HEADER..end]]) == u64::from_le_bytes(sum)
}

/// The block header at `at` read without the checksum: `Whole` here means only that its counts
/// are in range and its end within the bytes.
fn block_span(bytes: &[u8], at: usize, version: u32) -> BlockAt {
    if bytes.len() - at < BLOCK_HEADER {
        return BlockAt::Torn;
    }
    let h = &bytes[at..at + BLOCK_HEADER];
    let count = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
    if count > MAX_BLOCK_RECORDS {
        return BlockAt::Corrupt;
    }
    let count = count as usize;
    let size = match version {
        1 => count * RECORD_BYTES,
        _ => u32::from_le_bytes([h[12], h[13], h[14], h[15]]) as usize,
    };
    // A byte count the record count rules out is damage: taken as it is, it could send the
    // block's end past the file's, and the rest of the file would read as one torn block.
    let (least, most) = COMPACT_RECORD_BYTES;
    if version == 2 && !(least * count..=most * count).contains(&size) {
        return BlockAt::Corrupt;
    }
    let end = at + BLOCK_HEADER + size;
    if end > bytes.len() {
        return BlockAt::Torn;
    }
    BlockAt::Whole { count, end }
}

/// Decodes a version 2 block's `count` records into `records` (empty, with room for them); false
/// unless they decode and use up `encoded` exactly.
fn decode_compact_records(mut encoded: &[u8], count: usize, records: &mut Vec<Record>) -> bool {
    for _ in 0..count {
        let prev = records.last().map(|r| r.position);
        match Record::decode_compact(&mut encoded, prev) {
            Some(record) => records.push(record),
            None => return false,
        }
    }
    encoded.is_empty()
}

/// Takes the advisory lock (`flock`) that a writer of the data file `path` holds while it writes;
/// false when another process holds it. On a file system without locks it warns and gives true:
/// the writer goes on unguarded.
pub fn lock_for_writing(file: &std::fs::File, path: &Path) -> bool {
    match file.try_lock() {
        Ok(()) => true,
        Err(std::fs::TryLockError::WouldBlock) => false,
        Err(std::fs::TryLockError::Error(e)) => {
            log::warn!(
                "{}: cannot lock the file ({e}); writing unguarded",
                path.display()
            );
            true
        }
    }
}

/// Writes blocks to a new binary data file (replacing `path`). A file that a `wedge datagen` run
/// holds the lock of is refused before anything is written (an error of kind `WouldBlock`). The
/// data goes to `<path>.partial` first and is renamed over `path` once whole and synced, so a
/// failed write (a full disk) leaves the old file as it was and no half-written one. The file is no
/// run's data any more: a `<path>.run` beside it is removed, so that no datagen run resumes in it.
pub fn write_data_file(path: &Path, blocks: &[Block]) -> std::io::Result<()> {
    if let Some(b) = blocks
        .iter()
        .find(|b| b.records.len() > MAX_BLOCK_RECORDS as usize)
    {
        let fault = FileFault::BlockTooLong(b.game, b.records.len(), MAX_BLOCK_RECORDS);
        return Err(fault.into());
    }
    // Held until the rename: no datagen run starts appending to the old file meanwhile.
    let existing = std::fs::OpenOptions::new().write(true).open(path).ok();
    if let Some(file) = &existing {
        if !lock_for_writing(file, path) {
            return Err(FileFault::Locked.into());
        }
    }
    let mut bytes = file_header(VERSION).to_vec();
    for b in blocks {
        bytes.extend_from_slice(&b.to_bytes(VERSION));
    }
    let written = crate::files::replace_whole(path, &bytes);
    if written.is_ok() {
        match std::fs::remove_file(crate::tools::run::run_file(path)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                drop(existing);
                return Err(e);
            }
            _ => {}
        }
    }
    drop(existing);
    written
}

#[cfg(test)]
mod tests;
