//! The binary training-data format (`.wdb`): 20 bytes a position, written one game a block, each
//! block with its own checksum, so that a file cut anywhere (a `kill -9`, a full disk) loses at most
//! the game being written, and a damaged block is found and named on reading.
//!
//! Layout (all little-endian):
//! - file header, 16 bytes: magic `WEDGEDB1`, format version u32 (1), record size u32 (20);
//! - then blocks, one per game: game number u64, record count u32, flags u32 (0), FNV-1a 64
//!   checksum u64 of the 16 bytes before it and of the records, then the records;
//! - a record: black's discs u64, white's discs u64, side to move u8 (0 black, 1 white), label i8
//!   (final disc difference for the side to move, -64..=64), label depth u8 (0 for an outcome or an
//!   exact solve), label kind u8 ([`LabelKind`]).

use crate::board::{Board, Color, Position};
use crate::files::checksum as fnv;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The first bytes of a binary data file.
pub const DATA_MAGIC: &[u8; 8] = b"WEDGEDB1";
/// Format version.
const VERSION: u32 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 20;
/// Bytes of the file header.
const FILE_HEADER: usize = 16;
/// Bytes of a block header.
const BLOCK_HEADER: usize = 24;
/// The most records a block may hold (a game has at most a few hundred positions with siblings;
/// a larger count is damage, not data).
const MAX_BLOCK_RECORDS: u32 = 1 << 16;

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

    fn from_bytes(b: &[u8]) -> Option<Record> {
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let (black, white) = (word(0), word(8));
        let side = match b[16] {
            0 => Color::Black,
            1 => Color::White,
            _ => return None,
        };
        let label = b[17] as i8;
        let kind = match b[19] {
            0 => LabelKind::Outcome,
            1 => LabelKind::Search,
            2 => LabelKind::Exact,
            _ => return None,
        };
        if !(-64..=64).contains(&label) {
            return None;
        }
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        }
        .ok()?;
        Some(Record {
            position: Position { board, side },
            label,
            depth: b[18],
            kind,
        })
    }
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
    /// The block's bytes: header with checksum, then the records.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(16 + self.records.len() * RECORD_BYTES);
        body.extend_from_slice(&self.game.to_le_bytes());
        body.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        body.extend_from_slice(&0u32.to_le_bytes());
        for r in &self.records {
            body.extend_from_slice(&r.to_bytes());
        }
        let sum = fnv(&body);
        let mut out = Vec::with_capacity(body.len() + 8);
        out.extend_from_slice(&body[..16]);
        out.extend_from_slice(&sum.to_le_bytes());
        out.extend_from_slice(&body[16..]);
        out
    }
}

/// The file header of a binary data file.
pub fn file_header() -> [u8; FILE_HEADER] {
    let mut h = [0u8; FILE_HEADER];
    h[..8].copy_from_slice(DATA_MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    h
}

/// Whether `path` starts as a binary data file.
pub fn is_binary_data(path: &Path) -> bool {
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == DATA_MAGIC
}

/// A binary data file read back: its sound blocks, and where the sound part ends.
#[derive(Debug)]
pub struct DataFile {
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
}

impl fmt::Display for DataFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataFormatError::Io(e) => write!(f, "{e}"),
            DataFormatError::Header => {
                f.write_str("not a wedge binary data file (expected WEDGEDB1, version 1)")
            }
            DataFormatError::Corrupt { offset, block } => {
                write!(
                    f,
                    "block {block} at byte {offset} is corrupt (checksum or record)"
                )
            }
        }
    }
}

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
    if bytes.len() < FILE_HEADER || bytes[..FILE_HEADER] != file_header() {
        return Err(DataFormatError::Header);
    }
    let mut at = FILE_HEADER;
    let mut blocks = Vec::new();
    loop {
        let rest = bytes.len() - at;
        if rest == 0 {
            break;
        }
        let corrupt = DataFormatError::Corrupt {
            offset: at as u64,
            block: blocks.len(),
        };
        if rest < BLOCK_HEADER {
            break; // torn header
        }
        let h = &bytes[at..at + BLOCK_HEADER];
        let count = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
        if count > MAX_BLOCK_RECORDS {
            return Err(corrupt);
        }
        let end = at + BLOCK_HEADER + count as usize * RECORD_BYTES;
        if end > bytes.len() {
            break; // torn records
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&h[16..24]);
        let mut body = Vec::with_capacity(end - at - 8);
        body.extend_from_slice(&h[..16]);
        body.extend_from_slice(&bytes[at + BLOCK_HEADER..end]);
        if fnv(&body) != u64::from_le_bytes(sum) {
            return Err(corrupt);
        }
        let mut game = [0u8; 8];
        game.copy_from_slice(&h[..8]);
        let records: Option<Vec<Record>> = bytes[at + BLOCK_HEADER..end]
            .chunks_exact(RECORD_BYTES)
            .map(Record::from_bytes)
            .collect();
        let Some(records) = records else {
            return Err(corrupt);
        };
        blocks.push(Block {
            game: u64::from_le_bytes(game),
            records,
        });
        at = end;
    }
    Ok(DataFile {
        blocks,
        sound_bytes: at as u64,
        torn_bytes: (bytes.len() - at) as u64,
    })
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
/// holds the lock of is refused before it is emptied (an error of kind `WouldBlock`).
pub fn write_data_file(path: &Path, blocks: &[Block]) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    if !lock_for_writing(&file, path) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::WouldBlock,
            "another process is writing this file (a wedge datagen run holds its lock)",
        ));
    }
    file.set_len(0)?;
    let mut f = std::io::BufWriter::new(file);
    f.write_all(&file_header())?;
    for b in blocks {
        f.write_all(&b.to_bytes())?;
    }
    let f = f.into_inner().map_err(|e| e.into_error())?;
    f.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_blocks() -> Vec<Block> {
        let start = Position::START;
        let next = start
            .board
            .legal_moves()
            .0
            .trailing_zeros()
            .try_into()
            .ok()
            .and_then(crate::board::Square::new)
            .and_then(|s| start.play(crate::board::Move::play(s)))
            .expect("the start has moves");
        vec![
            Block {
                game: 7,
                records: vec![
                    Record {
                        position: start,
                        label: 0,
                        depth: 12,
                        kind: LabelKind::Search,
                    },
                    Record {
                        position: next,
                        label: -64,
                        depth: 0,
                        kind: LabelKind::Exact,
                    },
                ],
            },
            Block {
                game: 3,
                records: vec![Record {
                    position: next,
                    label: 64,
                    depth: 0,
                    kind: LabelKind::Outcome,
                }],
            },
        ]
    }

    fn image(blocks: &[Block]) -> Vec<u8> {
        let mut bytes = file_header().to_vec();
        for b in blocks {
            bytes.extend_from_slice(&b.to_bytes());
        }
        bytes
    }

    #[test]
    fn blocks_round_trip_at_twenty_bytes_a_position() {
        let blocks = sample_blocks();
        let bytes = image(&blocks);
        assert_eq!(bytes.len(), 16 + 2 * 24 + 3 * RECORD_BYTES);
        let back = parse_data(&bytes).expect("sound");
        assert_eq!(back.blocks, blocks);
        assert_eq!((back.sound_bytes, back.torn_bytes), (bytes.len() as u64, 0));
    }

    #[test]
    fn a_cut_file_keeps_its_complete_blocks() {
        let blocks = sample_blocks();
        let bytes = image(&blocks);
        let first_end = 16 + 24 + 2 * RECORD_BYTES;
        for cut in first_end..bytes.len() {
            let back = parse_data(&bytes[..cut]).expect("a torn tail is not an error");
            assert_eq!(back.blocks, blocks[..1]);
            assert_eq!(back.sound_bytes, first_end as u64);
            assert_eq!(back.torn_bytes, (cut - first_end) as u64);
        }
    }

    #[test]
    fn a_damaged_block_is_named() {
        let blocks = sample_blocks();
        let mut bytes = image(&blocks);
        let first_end = 16 + 24 + 2 * RECORD_BYTES;
        // A flipped bit in the second block's record.
        bytes[first_end + 24 + 3] ^= 0x10;
        match parse_data(&bytes) {
            Err(DataFormatError::Corrupt { offset, block }) => {
                assert_eq!((offset, block), (first_end as u64, 1));
            }
            other => panic!("expected corruption, got {other:?}"),
        }
        assert!(matches!(
            parse_data(b"WEDGEDB2\x01\0\0\0\x14\0\0\0"),
            Err(DataFormatError::Header)
        ));
    }
}
