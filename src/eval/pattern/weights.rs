//! [`PatternWeights`]: the trained weights as phases of one vector each, their reference reading
//! (the trainer's) and their file format.

use super::{features, per_phase, Phasing, PHASES, SCALE, SHAPE_WEIGHTS};
use crate::board::Board;
use crate::files::checksum as fnv;
use std::fmt;
use std::path::{Path, PathBuf};

/// The trained weights: one vector per phase (shape tables, then mobility, then bias).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// How the phases cover the empties counts.
    pub phasing: Phasing,
    /// One vector of `per_phase()` weights per phase (`phasing.sets()` of them).
    pub phases: Vec<Vec<i16>>,
}

/// The first bytes of a pattern weights file of 6 phases of 10 empties.
pub const MAGIC: &[u8; 8] = b"WEDGEPT1";

/// The first bytes of a pattern weights file that says its phasing.
pub const MAGIC_PHASED: &[u8; 8] = b"WEDGEPT2";

/// The phasing of [`MAGIC`] files.
pub const FIRST_PHASING: Phasing = Phasing::Steps { width: 10 };

impl PatternWeights {
    /// All zero, in the first files' phasing.
    pub fn zero() -> PatternWeights {
        PatternWeights::zero_with(FIRST_PHASING)
    }

    /// All zero, in `phasing`.
    pub fn zero_with(phasing: Phasing) -> PatternWeights {
        PatternWeights {
            phasing,
            phases: vec![vec![0; per_phase()]; phasing.sets()],
        }
    }

    /// The phases a position with `empties` empty squares is evaluated with.
    #[inline]
    pub fn blend(&self, empties: u32) -> crate::eval::phasing::Blend {
        self.phasing.blend(empties, self.phases.len())
    }

    /// Weight `i` under `blend` (0 where a phase vector is too short).
    #[inline]
    pub fn mixed(&self, blend: crate::eval::phasing::Blend, i: usize) -> i32 {
        let at = |ph: usize| {
            self.phases
                .get(ph)
                .and_then(|w| w.get(i))
                .map_or(0, |&v| i32::from(v))
        };
        Phasing::mix(blend, at(blend.lo), at(blend.hi))
    }

    /// The evaluation in centidiscs for the side to move, read from scratch through [`features`]
    /// (the trainer's reading): the reference that [`PatternTable`](super::table::PatternTable),
    /// the searches' layout, must agree with.
    pub fn evaluate(&self, board: Board) -> i32 {
        let b = self.blend(board.empty_count());
        let mut sum = 0i32;
        let (_, mobility) = features(board, |i| sum += self.mixed(b, i));
        sum += mobility * self.mixed(b, SHAPE_WEIGHTS) + self.mixed(b, SHAPE_WEIGHTS + 1);
        sum * 100 / SCALE
    }

    /// The file image. Steps of 10 empties in 6 phases (the first files): magic `WEDGEPT1`, phases
    /// u32, weights per phase u32, checksum u64, then the weights (i16 little-endian). Any other
    /// phasing: magic `WEDGEPT2`, phases u32, weights per phase u32, kind u32 (0 steps, 1 linear),
    /// width or spacing u32, checksum u64, then the weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.phases.len() * per_phase() * 2);
        for ph in &self.phases {
            for w in ph {
                body.extend_from_slice(&w.to_le_bytes());
            }
        }
        let first = self.phasing == FIRST_PHASING && self.phases.len() == PHASES;
        let mut out = Vec::with_capacity(32 + body.len());
        out.extend_from_slice(if first { MAGIC } else { MAGIC_PHASED });
        out.extend_from_slice(&(self.phases.len() as u32).to_le_bytes());
        out.extend_from_slice(&(per_phase() as u32).to_le_bytes());
        if !first {
            let (kind, width) = match self.phasing {
                Phasing::Steps { width } => (0u32, width),
                Phasing::Linear { spacing } => (1u32, spacing),
            };
            out.extend_from_slice(&kind.to_le_bytes());
            out.extend_from_slice(&width.to_le_bytes());
        }
        out.extend_from_slice(&fnv(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a weights file image; `name` is used in errors.
    pub fn from_bytes(bytes: &[u8], name: &Path) -> Result<PatternWeights, PatternFileError> {
        let err = |problem| PatternFileError {
            path: name.to_path_buf(),
            problem,
        };
        let magic = bytes.get(..8);
        if magic == Some(&super::net::MAGIC_NET[..]) {
            return Err(err(PatternFileProblem::NetworkNotTables));
        }
        let phased = magic == Some(&MAGIC_PHASED[..]);
        if !phased && magic != Some(&MAGIC[..]) {
            return Err(err(PatternFileProblem::BadMagic));
        }
        if bytes.len() < if phased { 32 } else { 24 } {
            return Err(err(PatternFileProblem::Truncated));
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
        };
        let (phases, n) = (word(8), word(12));
        let (phasing, header) = if phased {
            let width = (word(20) as u32).clamp(1, 60);
            match word(16) {
                0 => (Phasing::Steps { width }, 32),
                1 => (Phasing::Linear { spacing: width }, 32),
                kind => return Err(err(PatternFileProblem::Phasing(kind))),
            }
        } else {
            (FIRST_PHASING, 24)
        };
        if phases != phasing.sets() || n != per_phase() {
            return Err(err(PatternFileProblem::Shape { phases, weights: n }));
        }
        let body = &bytes[header..];
        if body.len() != phases * n * 2 {
            return Err(err(PatternFileProblem::Truncated));
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[header - 8..header]);
        if fnv(body) != u64::from_le_bytes(sum) {
            return Err(err(PatternFileProblem::Checksum));
        }
        let values: Vec<i16> = body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(PatternWeights {
            phasing,
            phases: values.chunks(n).map(<[i16]>::to_vec).collect(),
        })
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<PatternWeights, PatternFileError> {
        PatternWeights::from_bytes(&read_file(path)?, path)
    }
}

/// A weights file's bytes.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, PatternFileError> {
    crate::files::read_regular(path, crate::files::MAX_TEXT_BYTES).map_err(|e| PatternFileError {
        path: path.to_path_buf(),
        problem: PatternFileProblem::Read(e),
    })
}

/// What is wrong with a pattern weights file.
#[derive(Debug)]
pub enum PatternFileProblem {
    /// It cannot be read.
    Read(std::io::Error),
    /// It does not start as a wedge pattern weights file.
    BadMagic,
    /// It is a pattern network, where tables are needed.
    NetworkNotTables,
    /// It was made for another layout: this many phases of this many weights.
    Shape {
        /// Phases in the file.
        phases: usize,
        /// Weights per phase in the file.
        weights: usize,
    },
    /// Its phasing kind is not one this wedge knows.
    Phasing(usize),
    /// A network file's head weight beyond [`super::net::HEAD_LIMIT`].
    NetHeadRange(i32),
    /// A network file made for another layout.
    NetShape {
        /// Hidden channels in the file.
        hidden: usize,
        /// Configuration rows in the file.
        rows: usize,
        /// Heads in the file.
        anchors: usize,
    },
    /// It ends before its weights do.
    Truncated,
    /// Its weights do not match its checksum.
    Checksum,
}

impl fmt::Display for PatternFileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternFileProblem::Read(e) => write!(f, "{e}"),
            PatternFileProblem::BadMagic => {
                f.write_str("not a wedge pattern weights file (bad magic)")
            }
            PatternFileProblem::NetworkNotTables => f.write_str(
                "a pattern network, where pattern tables are needed (`wedge weights dump \
                 --tables FILE` writes the built-in ones)",
            ),
            PatternFileProblem::Shape { phases, weights } => write!(
                f,
                "made for {phases} phases x {weights} weights; this wedge reads {} weights a \
                 phase, in as many phases as the file's phasing needs",
                per_phase()
            ),
            PatternFileProblem::Phasing(kind) => write!(f, "unknown phasing kind {kind}"),
            PatternFileProblem::NetHeadRange(w) => write!(
                f,
                "a head weight of {w}, beyond the +-{} a network may hold",
                super::net::HEAD_LIMIT
            ),
            PatternFileProblem::NetShape {
                hidden,
                rows,
                anchors,
            } => write!(
                f,
                "a network of {hidden} channels, {rows} rows and {anchors} heads; this wedge \
                 reads {} channels, {} rows and the heads its anchors need",
                super::net::HIDDEN,
                SHAPE_WEIGHTS
            ),
            PatternFileProblem::Truncated => f.write_str("truncated"),
            PatternFileProblem::Checksum => f.write_str("checksum mismatch (the file is corrupt)"),
        }
    }
}

/// A pattern weights file that cannot be used: which file, and why.
#[derive(Debug)]
pub struct PatternFileError {
    /// The file (or the name given for an image in memory).
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: PatternFileProblem,
}

impl fmt::Display for PatternFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for PatternFileError {}
