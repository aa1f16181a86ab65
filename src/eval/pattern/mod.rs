//! The pattern (n-tuple) evaluation: the board is read through 11 pattern shapes (the edge with its
//! two X-squares, the corner 3x3 and 2x5 blocks, rows 2-4, the diagonals of length 4-8), each in all
//! its distinct placements under the 8 symmetries (46 placements), and every configuration of a
//! shape has a learned weight per game phase. Plus a mobility weight and a bias per phase. The
//! phases are weight sets over the empties counts ([`Phasing`]): steps of 10 empties in the first
//! files, anchors blended linearly between neighbours in the later ones.
//!
//! Reading a placement costs two bit extractions: the board is first mapped by the inverse of the
//! placement's symmetry, which brings the placement onto the shape's own squares; extracting those
//! squares' bits (PEXT where the CPU has BMI2) gives the cells in the shape's order, and a 1,024-entry
//! table turns the two bit masks into the base-3 index. So all placements share one table per shape.
//! The searches do not read the board at every node: they keep the indices up to date move by move
//! ([`PatternIndices`]), and evaluating is then only the table reads, from a [`PatternTable`]: the
//! weights laid out so that those reads need no bounds checks.
//!
//! Weights are 16-bit, in 1/32 disc; the file format (version header, checksum) is in docs/training.md.

use crate::board::movegen::{legal_moves, pext};
use crate::board::{Board, Square, Symmetry};
pub use crate::eval::phasing::Phasing;

pub mod net;
mod table;
mod weights;

use once_cell::sync::Lazy;
pub use table::PatternTable;
pub(crate) use weights::read_file;
pub use weights::{
    PatternFileError, PatternFileProblem, PatternWeights, FIRST_PHASING, MAGIC, MAGIC_PHASED,
};

/// A pattern shape: its squares in ascending order (the digit order of its index).
pub struct Shape {
    /// The name, for reports.
    pub name: &'static str,
    /// The squares (ascending indices) in the canonical placement.
    pub squares: &'static [u8],
}

/// The shapes.
pub const SHAPES: &[Shape] = &[
    Shape {
        name: "edge+2X",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Shape {
        name: "corner 3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Shape {
        name: "corner 2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Shape {
        name: "row 2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Shape {
        name: "row 3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Shape {
        name: "row 4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Shape {
        name: "diagonal 8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Shape {
        name: "diagonal 7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Shape {
        name: "diagonal 6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Shape {
        name: "diagonal 5",
        squares: &[3, 12, 21, 30, 39],
    },
    Shape {
        name: "diagonal 4",
        squares: &[4, 13, 22, 31],
    },
];

/// Number of ranges of 10 empties (0..=5) that training reports and the first weight files use.
pub const PHASES: usize = 6;

/// The range of 10 empties of a position with `empties` empty squares (the first files' phase).
#[inline]
pub fn phase(empties: u32) -> usize {
    (empties as usize / 10).min(PHASES - 1)
}

/// Fixed-point scale of the weights: units per disc.
pub const SCALE: i32 = 32;

/// Precomputed reading plan: the shapes' masks and offsets, each placement's symmetry.
struct Layout {
    /// For each shape, the inverse symmetries of its distinct placements.
    placements: Vec<Vec<Symmetry>>,
    /// Weights per phase: all shape tables, then mobility, then bias.
    per_phase: usize,
    /// Every placement flattened, in shape order: (shape mask, table offset, inverse symmetry
    /// index), the loop `features` runs.
    flat: Vec<(u64, usize, usize)>,
}

static LAYOUT: Lazy<Layout> = Lazy::new(|| {
    let mut masks = Vec::new();
    let mut offsets = Vec::new();
    let mut placements = Vec::new();
    let mut offset = 0;
    for shape in SHAPES {
        let mask = shape.squares.iter().fold(0u64, |m, &s| m | 1 << s);
        let mut seen: Vec<u64> = Vec::new();
        let mut syms = Vec::new();
        for s in Symmetry::ALL {
            let image = s.apply(mask);
            if !seen.contains(&image) {
                seen.push(image);
                syms.push(s.inverse());
            }
        }
        masks.push(mask);
        offsets.push(offset);
        placements.push(syms);
        offset += 3usize.pow(shape.squares.len() as u32);
    }
    let flat: Vec<(u64, usize, usize)> = placements
        .iter()
        .enumerate()
        .flat_map(|(k, syms)| syms.iter().map(move |s| (k, s.index())))
        .map(|(k, i)| (masks[k], offsets[k], i))
        .collect();
    debug_assert_eq!(flat.len(), PLACEMENTS);
    debug_assert_eq!(offset, SHAPE_WEIGHTS);
    Layout {
        placements,
        per_phase: offset + 2,
        flat,
    }
});

/// Base-3 value of a bit mask of up to 10 bits (bit i contributes 3^i).
static BASE3: Lazy<Vec<u32>> = Lazy::new(|| {
    (0..1024u32)
        .map(|m| {
            (0..10)
                .filter(|i| m >> i & 1 == 1)
                .map(|i| 3u32.pow(i))
                .sum()
        })
        .collect()
});

/// Calls `f(weight index)` for every active feature of `board` (one per placement), and returns
/// the empties count and the mobility feature.
pub fn features(board: Board, mut f: impl FnMut(usize)) -> (u32, i32) {
    let (p, o) = (board.player(), board.opponent());
    let idx = PatternIndices::new(p, o);
    for (&offset, &i) in LANE_OFFSETS.iter().zip(&idx.me).take(PLACEMENTS) {
        f(offset as usize + i as usize);
    }
    let mobility = legal_moves(p, o).count_ones() as i32 - legal_moves(o, p).count_ones() as i32;
    (board.empty_count(), mobility)
}

/// Number of placements (of all shapes).
pub const PLACEMENTS: usize = 46;

/// Lanes of [`PatternIndices`]: the 46 placements, padded to a multiple of 16 so the updates
/// vectorise (the padding lanes stay zero and are never read).
const LANES: usize = 48;

/// For each square, its digit value (3^position) in every placement that holds it, 0 elsewhere:
/// the index of a placement is the sum of these over the mover's discs plus twice the sum over the
/// opponent's.
static SQUARE_DIGITS: Lazy<Vec<[u16; LANES]>> = Lazy::new(|| {
    let layout = &*LAYOUT;
    let b3 = &*BASE3;
    (0..64)
        .map(|sq| {
            let images = Symmetry::apply_all(1u64 << sq);
            let mut lane = [0u16; LANES];
            for (k, &(mask, _, i)) in layout.flat.iter().enumerate() {
                lane[k] = b3[pext(images[i & 7], mask) as usize] as u16;
            }
            lane
        })
        .collect()
});

/// Table offset of each placement's shape, by lane.
static LANE_OFFSETS: Lazy<[u32; LANES]> = Lazy::new(|| {
    let mut offsets = [0u32; LANES];
    for (k, &(_, offset, _)) in LAYOUT.flat.iter().enumerate() {
        offsets[k] = offset as u32;
    }
    offsets
});

/// The pattern indices of a position, kept up to date move by move so that evaluating it is only
/// the table reads. Both points of view are kept (`me`: the side to move's discs are digit 1, the
/// opponent's 2; `them`: the other way round), because a move hands the turn over: the child's `me`
/// is the parent's `them` plus the changed squares. A move then costs one vector add per changed
/// square and side instead of the 92 bit extractions of reading the board from scratch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
pub struct PatternIndices {
    me: [u16; LANES],
    them: [u16; LANES],
}

impl PatternIndices {
    /// The indices of a position (`p` to move, `o` the opponent), read from scratch.
    pub fn new(p: u64, o: u64) -> PatternIndices {
        let layout = &*LAYOUT;
        let b3 = &*BASE3;
        // Every symmetry is used by some placement: all images at once, sharing the work.
        let (tp, to) = (Symmetry::apply_all(p), Symmetry::apply_all(o));
        let mut out = PatternIndices {
            me: [0; LANES],
            them: [0; LANES],
        };
        for (k, &(mask, _, i)) in layout.flat.iter().enumerate() {
            let (mine, theirs) = (
                b3[pext(tp[i & 7], mask) as usize],
                b3[pext(to[i & 7], mask) as usize],
            );
            out.me[k] = (mine + 2 * theirs) as u16;
            out.them[k] = (theirs + 2 * mine) as u16;
        }
        out
    }

    /// The indices after the side to move plays `sq` flipping `flipped` (the child position, seen
    /// by the side then to move). Indices stay below 3^10 < 2^16; the arithmetic wraps only in
    /// intermediate sums.
    #[inline]
    pub fn play(&self, sq: usize, flipped: u64) -> PatternIndices {
        let digits = &*SQUARE_DIGITS;
        let mut flip_sum = [0u16; LANES];
        let mut f = flipped;
        while f != 0 {
            let d = &digits[f.trailing_zeros() as usize & 63];
            f &= f - 1;
            for k in 0..LANES {
                flip_sum[k] = flip_sum[k].wrapping_add(d[k]);
            }
        }
        let placed = &digits[sq & 63];
        let mut out = PatternIndices {
            me: [0; LANES],
            them: [0; LANES],
        };
        for k in 0..LANES {
            // The new mover's view: the placed disc and the flipped ones are the opponent's (2);
            // the flipped ones were digit 1 (the new mover's) in `them`.
            out.me[k] = self.them[k]
                .wrapping_add(placed[k].wrapping_mul(2))
                .wrapping_add(flip_sum[k]);
            // The other view: the placed disc is 1, the flipped ones go from 2 to 1.
            out.them[k] = self.me[k].wrapping_add(placed[k]).wrapping_sub(flip_sum[k]);
        }
        out
    }

    /// The indices after a pass: the same discs, the other side to move.
    #[inline]
    pub fn pass(&self) -> PatternIndices {
        PatternIndices {
            me: self.them,
            them: self.me,
        }
    }
}

/// Weights per phase.
pub fn per_phase() -> usize {
    LAYOUT.per_phase
}

/// For every weight of a phase, the weight whose value it must share: a symmetry that maps a shape
/// onto itself (the edge's mirror, the corner block's diagonal, a diagonal's half turn) shows the same
/// configuration with its cells permuted, so the two indices describe one situation. Each index maps
/// to the smallest index of its group; mobility and bias map to themselves. The trainer fits one value
/// per group, which makes the evaluation the same on all eight images of a board.
pub fn tied_indices() -> Vec<u32> {
    let mut canon: Vec<u32> = (0..per_phase() as u32).collect();
    let mut offset = 0;
    for shape in SHAPES {
        let len = shape.squares.len();
        let size = 3usize.pow(len as u32);
        // The digit permutations of the symmetries that map the shape's squares onto themselves.
        let mut perms: Vec<Vec<usize>> = Vec::new();
        for sym in Symmetry::ALL {
            let perm: Option<Vec<usize>> = shape
                .squares
                .iter()
                .map(|&q| {
                    let image = sym.apply(1u64 << q).trailing_zeros() as u8;
                    shape.squares.iter().position(|&x| x == image)
                })
                .collect();
            if let Some(perm) = perm {
                if perm.iter().enumerate().any(|(d, &to)| d != to) && !perms.contains(&perm) {
                    perms.push(perm);
                }
            }
        }
        let powers: Vec<usize> = (0..len).map(|d| 3usize.pow(d as u32)).collect();
        for idx in 0..size {
            let mut smallest = idx;
            for perm in &perms {
                let image: usize = (0..len)
                    .map(|d| (idx / powers[d] % 3) * powers[perm[d]])
                    .sum();
                smallest = smallest.min(image);
            }
            canon[offset + idx] = (offset + smallest) as u32;
        }
        offset += size;
    }
    canon
}

/// Weights per phase of the shape tables alone (without mobility and bias), known at compile time.
const SHAPE_WEIGHTS: usize = {
    let mut total = 0;
    let mut k = 0;
    while k < SHAPES.len() {
        total += 3usize.pow(SHAPES[k].squares.len() as u32);
        k += 1;
    }
    total
};

/// Bits of a phase's table in [`PatternTable`]: the shape tables padded to a power of two.
const TABLE_BITS: u32 = 18;

/// Entries of a phase's table in [`PatternTable`].
const TABLE_SIZE: usize = 1 << TABLE_BITS;

const _: () = assert!(SHAPE_WEIGHTS <= TABLE_SIZE);

/// The squares of every placement of shape `k` (for tests and docs).
pub fn placements(k: usize) -> Vec<Vec<Square>> {
    LAYOUT.placements[k]
        .iter()
        .map(|s| {
            let forward = s.inverse();
            SHAPES[k]
                .squares
                .iter()
                .map(|&q| forward.apply_square(Square::ALL[q as usize]))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn tied_weights_evaluate_all_images_alike() {
        // Random weights, then each set to its group's value: every board and its 8 images must get
        // the same evaluation (without the ties they do not).
        let canon = tied_indices();
        let mut rng = crate::rng::Rng::new(5);
        let mut w = PatternWeights::zero();
        for phase in &mut w.phases {
            for v in phase.iter_mut() {
                *v = rng.below(2001) as i16 - 1000;
            }
        }
        let untied = w.clone();
        for phase in &mut w.phases {
            for i in 0..phase.len() {
                phase[i] = phase[canon[i] as usize];
            }
        }
        let mut asymmetric = 0;
        let mut b = Board::START;
        for _ in 0..40 {
            let Some(m) = crate::game::players::random_move(&b, &mut rng) else {
                break;
            };
            b = b.play_move(m).unwrap_or(b);
            for sym in Symmetry::ALL {
                let image = Board::new(sym.apply(b.player()), sym.apply(b.opponent())).unwrap();
                assert_eq!(w.evaluate(image), w.evaluate(b), "{sym:?}");
                if untied.evaluate(image) != untied.evaluate(b) {
                    asymmetric += 1;
                }
            }
        }
        assert!(asymmetric > 0, "the test would not notice missing ties");
        // Ties exist (every shape but the 2x5 block has a self-symmetry) and point downwards.
        assert!(canon.iter().enumerate().all(|(i, &c)| c as usize <= i));
        assert!(
            canon
                .iter()
                .enumerate()
                .filter(|&(i, &c)| c as usize != i)
                .count()
                > 50_000
        );
    }

    #[test]
    fn indices_kept_move_by_move_and_the_padded_table_match_reading_from_scratch() {
        // Random weights so that a wrong index changes the value; whole random games, passes too;
        // both phasings (linear anchors blend two phases in between).
        let mut rng = crate::rng::Rng::new(11);
        let mut passes = 0;
        for g in 0..30 {
            let phasing = if g % 2 == 0 {
                FIRST_PHASING
            } else {
                Phasing::Linear { spacing: 3 }
            };
            let mut w = PatternWeights::zero_with(phasing);
            for phase in &mut w.phases {
                for v in phase.iter_mut() {
                    *v = rng.below(2001) as i16 - 1000;
                }
            }
            let table = PatternTable::new(&w);
            let mut b = Board::START;
            let mut idx = PatternIndices::new(b.player(), b.opponent());
            while !b.is_game_over() {
                let (p, o) = (b.player(), b.opponent());
                assert_eq!(idx, PatternIndices::new(p, o), "{b:?}");
                // The searches' padded table, read through the kept indices, gives the value
                // read from scratch.
                assert_eq!(
                    table.evaluate_indexed(p, o, &idx, legal_moves(p, o)),
                    w.evaluate(b),
                    "{b:?}"
                );
                let moves = legal_moves(p, o);
                if moves == 0 {
                    passes += 1;
                    idx = idx.pass();
                    b = b.pass();
                    continue;
                }
                let mut pick = rng.below(u64::from(moves.count_ones()));
                let mut m = moves;
                while pick > 0 {
                    m &= m - 1;
                    pick -= 1;
                }
                let sq = m.trailing_zeros() as usize;
                let f = crate::board::movegen::flips(sq, p, o);
                idx = idx.play(sq, f);
                b = Board::new(o ^ f, p | f | (1 << sq)).unwrap();
            }
            assert_eq!(idx, PatternIndices::new(b.player(), b.opponent()));
        }
        assert!(passes > 0, "no pass was exercised");
    }

    #[test]
    fn placement_counts() {
        let counts: Vec<usize> = (0..SHAPES.len()).map(|k| placements(k).len()).collect();
        assert_eq!(counts, vec![4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(counts.iter().sum::<usize>(), 46);
    }

    #[test]
    fn features_read_cells_in_shape_order() {
        // Reading each placement square by square must give the same index as the fast path.
        let b = crate::board::text::board_after("f5d6c3d3c4f4f6f3e6e7c6").unwrap();
        let mut fast = Vec::new();
        features(b, |i| fast.push(i));
        let mut slow = Vec::new();
        let mut offset = 0;
        for (k, shape) in SHAPES.iter().enumerate() {
            for squares in placements(k) {
                let mut idx = 0usize;
                for (d, sq) in squares.iter().enumerate() {
                    let cell = if b.player() & sq.bit() != 0 {
                        1
                    } else if b.opponent() & sq.bit() != 0 {
                        2
                    } else {
                        0
                    };
                    idx += cell * 3usize.pow(d as u32);
                }
                assert!(idx < 3usize.pow(shape.squares.len() as u32));
                slow.push(offset + idx);
            }
            offset += 3usize.pow(shape.squares.len() as u32);
        }
        assert_eq!(fast, slow);
    }

    #[test]
    fn weights_file_round_trip_and_errors() {
        let p = Path::new("w.bin");
        let mut w = PatternWeights::zero_with(Phasing::Linear { spacing: 4 });
        w.phases[15][5] = -7;
        let bytes = w.to_bytes();
        assert_eq!(&bytes[..8], MAGIC_PHASED);
        assert_eq!(PatternWeights::from_bytes(&bytes, p).unwrap(), w);
        let mut w = PatternWeights::zero();
        w.phases[2][5] = -7;
        let bytes = w.to_bytes();
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(PatternWeights::from_bytes(&bytes, p).unwrap(), w);
        assert!(PatternWeights::from_bytes(&bytes[..100], p).is_err());
        let mut bad = bytes.clone();
        bad[30] ^= 1;
        assert!(PatternWeights::from_bytes(&bad, p)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        assert!(PatternWeights::from_bytes(b"WEDGEBK1xxxxxxxxxxxxxxxxxx", p).is_err());
    }
}
