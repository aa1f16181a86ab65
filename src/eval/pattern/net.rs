//! The pattern network: the pattern evaluation's configurations, each mapped to a vector of
//! [`HIDDEN`] numbers instead of one weight. The 46 placements' vectors are summed into an
//! accumulator, and a head per empties count reads it: a linear part (the accumulator times a
//! vector, which makes the additive tables a special case) plus a part through clipped ReLUs
//! (each channel cut to 0..1), which lets board regions weigh each other. Mobility and a bias are
//! added as in the tables.
//!
//! Integers throughout, so the value is the same to the bit on every CPU: vectors are i16 in
//! 1/[`ACC_SCALE`] of a channel unit, summed in i32 (46 x 32,767 cannot overflow); the head's
//! weights are i32 in 1/[`HEAD_SCALE`] disc per channel unit, multiplied and summed in i64 (each
//! product stays below 2^52). The heads of the file's anchors are blended per empties count once,
//! when the table is built. The searches pass the pattern indices they keep move by move
//! ([`PatternIndices`]), so an evaluation is 46 vector reads and a 16-channel dot product.

use super::{
    features, legal_moves, PatternFileError, PatternFileProblem, PatternIndices, Phasing,
    LANE_OFFSETS, PLACEMENTS, SHAPE_WEIGHTS, TABLE_SIZE,
};
use crate::board::Board;
use crate::files::checksum as fnv;
use std::path::Path;

/// Channels of the accumulator.
pub const HIDDEN: usize = 16;

/// Accumulator units per channel unit: the clipped ReLU's range is 0..ACC_SCALE.
pub const ACC_SCALE: i32 = 1024;

/// Head weight units per disc and channel unit.
pub const HEAD_SCALE: i32 = 1024;

/// The largest value (in magnitude, centidiscs) the network returns; the sums of extreme weights
/// are cut to it (the searches cut values far below this).
pub const VALUE_LIMIT: i32 = 1 << 24;

/// The first bytes of a pattern network file.
pub const MAGIC_NET: &[u8; 8] = b"WEDGENN1";

/// Bytes of a file's header: magic, hidden, rows, anchors, spacing, checksum.
const HEADER: usize = 32;

/// The largest head weight a file may hold (in magnitude): 16,384 discs per channel unit, far
/// beyond any fit, and small enough that blending two anchors stays inside an i32.
pub const HEAD_LIMIT: i32 = 1 << 24;

/// One head: the weights that read the accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// Weights of the accumulator's channels.
    pub linear: [i32; HIDDEN],
    /// Weights of the channels cut to 0..1.
    pub clipped: [i32; HIDDEN],
    /// Weight of the mobility difference.
    pub mobility: i32,
    /// Constant.
    pub bias: i32,
}

impl Head {
    const WORDS: usize = 2 * HIDDEN + 2;

    /// The head's words in the file's order: linear, clipped, mobility, bias.
    pub fn words(&self) -> impl Iterator<Item = i32> + '_ {
        self.linear
            .iter()
            .chain(&self.clipped)
            .copied()
            .chain([self.mobility, self.bias])
    }

    fn from_words(w: &[i32]) -> Head {
        let mut h = Head {
            linear: [0; HIDDEN],
            clipped: [0; HIDDEN],
            mobility: w[2 * HIDDEN],
            bias: w[2 * HIDDEN + 1],
        };
        h.linear.copy_from_slice(&w[..HIDDEN]);
        h.clipped.copy_from_slice(&w[HIDDEN..2 * HIDDEN]);
        h
    }

    /// The value of an accumulator and mobility difference, in centidiscs.
    #[inline]
    fn value(&self, acc: &[i32; HIDDEN], mobility: i32) -> i32 {
        let mut y = (i64::from(self.mobility) * i64::from(mobility) + i64::from(self.bias))
            * i64::from(ACC_SCALE);
        for ((&a, &l), &c) in acc.iter().zip(&self.linear).zip(&self.clipped) {
            y += i64::from(l) * i64::from(a) + i64::from(c) * i64::from(a.clamp(0, ACC_SCALE));
        }
        let centidiscs = (y * 100).div_euclid(i64::from(ACC_SCALE) * i64::from(HEAD_SCALE));
        centidiscs.clamp(-i64::from(VALUE_LIMIT), i64::from(VALUE_LIMIT)) as i32
    }
}

/// A pattern network's weights as its file holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetWeights {
    /// How the heads cover the empties counts: linear anchors (the file holds their spacing).
    pub phasing: Phasing,
    /// One vector per configuration of every shape (the shape tables' order).
    pub rows: Vec<[i16; HIDDEN]>,
    /// One head per anchor.
    pub heads: Vec<Head>,
}

impl NetWeights {
    /// The head of a position with `empties` empty squares: its anchors' heads blended.
    fn head(&self, empties: u32) -> Head {
        let b = self.phasing.blend(empties, self.heads.len());
        let (lo, hi) = (self.heads[b.lo], self.heads[b.hi]);
        let words: Vec<i32> = lo
            .words()
            .zip(hi.words())
            .map(|(a, c)| Phasing::mix(b, a, c))
            .collect();
        Head::from_words(&words)
    }

    /// The evaluation in centidiscs for the side to move, read from scratch: the reference that
    /// [`NetTable`] must agree with.
    pub fn evaluate(&self, board: Board) -> i32 {
        let mut acc = [0i32; HIDDEN];
        let (empties, mobility) = features(board, |i| {
            for (a, &r) in acc.iter_mut().zip(&self.rows[i]) {
                *a += i32::from(r);
            }
        });
        self.head(empties.min(60)).value(&acc, mobility)
    }

    /// The file image: magic `WEDGENN1`, then u32s hidden channels, rows, anchors, anchor spacing,
    /// a u64 checksum of the body, then the body: the rows (i16 little-endian) and the heads (i32:
    /// linear, clipped, mobility, bias).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.rows.len() * HIDDEN * 2 + self.heads.len() * 136);
        for r in &self.rows {
            for v in r {
                body.extend_from_slice(&v.to_le_bytes());
            }
        }
        for h in &self.heads {
            for v in h.words() {
                body.extend_from_slice(&v.to_le_bytes());
            }
        }
        let spacing = match self.phasing {
            Phasing::Linear { spacing } | Phasing::Steps { width: spacing } => spacing,
        };
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(MAGIC_NET);
        for v in [HIDDEN, self.rows.len(), self.heads.len(), spacing as usize] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        out.extend_from_slice(&fnv(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a network file image; `name` is used in errors.
    pub fn from_bytes(bytes: &[u8], name: &Path) -> Result<NetWeights, PatternFileError> {
        let err = |problem| PatternFileError {
            path: name.to_path_buf(),
            problem,
        };
        if bytes.len() < HEADER || &bytes[..8] != MAGIC_NET {
            return Err(err(PatternFileProblem::BadMagic));
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
        };
        let (hidden, rows, anchors, spacing) = (word(8), word(12), word(16), word(20));
        let phasing = Phasing::Linear {
            spacing: spacing.clamp(1, 60) as u32,
        };
        if hidden != HIDDEN || rows != SHAPE_WEIGHTS || anchors != phasing.sets() {
            return Err(err(PatternFileProblem::NetShape {
                hidden,
                rows,
                anchors,
            }));
        }
        let body = &bytes[HEADER..];
        if body.len() != rows * HIDDEN * 2 + anchors * Head::WORDS * 4 {
            return Err(err(PatternFileProblem::Truncated));
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[HEADER - 8..HEADER]);
        if fnv(body) != u64::from_le_bytes(sum) {
            return Err(err(PatternFileProblem::Checksum));
        }
        let (row_bytes, head_bytes) = body.split_at(rows * HIDDEN * 2);
        let rows = row_bytes
            .chunks_exact(HIDDEN * 2)
            .map(|c| {
                let mut r = [0i16; HIDDEN];
                for (v, b) in r.iter_mut().zip(c.chunks_exact(2)) {
                    *v = i16::from_le_bytes([b[0], b[1]]);
                }
                r
            })
            .collect();
        let words: Vec<i32> = head_bytes
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(&w) = words.iter().find(|w| w.unsigned_abs() > HEAD_LIMIT as u32) {
            return Err(err(PatternFileProblem::NetHeadRange(w)));
        }
        let heads = words
            .chunks_exact(Head::WORDS)
            .map(Head::from_words)
            .collect();
        Ok(NetWeights {
            phasing,
            rows,
            heads,
        })
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<NetWeights, PatternFileError> {
        NetWeights::from_bytes(&super::read_file(path)?, path)
    }

    /// Whether `bytes` starts as a network file.
    pub fn is_net(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC_NET)
    }
}

/// [`NetWeights`] laid out for the searches: the rows padded to a power of two (an index masked
/// to `TABLE_SIZE` is in bounds by construction, so the 46 reads need no bounds checks) and one
/// blended head per empties count 0..=60. It evaluates exactly as the weights it was built from.
#[derive(Clone, Debug)]
pub struct NetTable {
    rows: Vec<[i16; HIDDEN]>,
    heads: Vec<Head>,
    offsets: [u32; super::LANES],
}

impl NetTable {
    /// The table of `weights`.
    pub fn new(weights: &NetWeights) -> NetTable {
        let mut rows = vec![[0i16; HIDDEN]; TABLE_SIZE];
        rows[..weights.rows.len()].copy_from_slice(&weights.rows);
        NetTable {
            rows,
            heads: (0..=60).map(|e| weights.head(e)).collect(),
            offsets: *LANE_OFFSETS,
        }
    }

    /// [`NetWeights::evaluate`] with the indices and the legal moves of `p` already known (`p`,
    /// `o`, `indices` and `moves` must describe the same position).
    #[inline]
    pub fn evaluate_indexed(&self, p: u64, o: u64, indices: &PatternIndices, moves: u64) -> i32 {
        let e = ((!(p | o)).count_ones() as usize).min(60);
        let mut acc = [0i32; HIDDEN];
        for k in 0..PLACEMENTS {
            let i = (self.offsets[k] as usize + indices.me[k] as usize) & (TABLE_SIZE - 1);
            for (a, &r) in acc.iter_mut().zip(&self.rows[i]) {
                *a += i32::from(r);
            }
        }
        let mobility = moves.count_ones() as i32 - legal_moves(o, p).count_ones() as i32;
        self.heads[e].value(&acc, mobility)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A network of random weights (rows up to +-`row` and heads up to +-`head`) with anchors
    /// every `spacing` empties.
    fn random_net(rng: &mut Rng, spacing: u32, row: u64, head: u64) -> NetWeights {
        let phasing = Phasing::Linear { spacing };
        let mut r = |m: u64| rng.below(2 * m + 1) as i64 - m as i64;
        let rows = (0..SHAPE_WEIGHTS)
            .map(|_| {
                let mut x = [0i16; HIDDEN];
                x.iter_mut().for_each(|v| *v = r(row) as i16);
                x
            })
            .collect();
        let heads = (0..phasing.sets())
            .map(|_| {
                let w: Vec<i32> = (0..Head::WORDS).map(|_| r(head) as i32).collect();
                Head::from_words(&w)
            })
            .collect();
        NetWeights {
            phasing,
            rows,
            heads,
        }
    }

    #[test]
    fn the_searches_table_through_kept_indices_matches_reading_from_scratch() {
        // Random weights, so that a wrong row or head changes the value; whole random games with
        // the indices kept move by move, passes included; values well past the clipped range.
        let mut rng = Rng::new(21);
        let mut clipped = [0usize; 3];
        for g in 0..12 {
            let w = random_net(&mut rng, [8, 3, 5][g % 3], 400, 3000);
            let table = NetTable::new(&w);
            let mut b = Board::START;
            let mut idx = PatternIndices::new(b.player(), b.opponent());
            while !b.is_game_over() {
                let (p, o) = (b.player(), b.opponent());
                let moves = legal_moves(p, o);
                assert_eq!(
                    table.evaluate_indexed(p, o, &idx, moves),
                    w.evaluate(b),
                    "{b:?}"
                );
                let mut acc = [0i32; HIDDEN];
                features(b, |i| {
                    for (a, &r) in acc.iter_mut().zip(&w.rows[i]) {
                        *a += i32::from(r);
                    }
                });
                for a in acc {
                    clipped[if a <= 0 {
                        0
                    } else if a < ACC_SCALE {
                        1
                    } else {
                        2
                    }] += 1;
                }
                if moves == 0 {
                    idx = idx.pass();
                    b = b.pass();
                    continue;
                }
                let mut m = moves;
                for _ in 0..rng.below(u64::from(moves.count_ones())) {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros() as usize;
                let f = crate::board::movegen::flips(sq, p, o);
                idx = idx.play(sq, f);
                b = Board::new(o ^ f, p | f | (1 << sq)).expect("a legal move");
            }
        }
        // The channels were seen below, inside and above the clipped range.
        assert!(clipped.iter().all(|&n| n > 100), "{clipped:?}");
    }

    #[test]
    fn a_head_blends_its_anchors_and_adds_mobility_and_bias() {
        let mut rng = Rng::new(3);
        let mut w = random_net(&mut rng, 8, 0, 0);
        // Anchor k: bias k discs, mobility 0.5 disc a move; channel 0 read linearly at 2 discs a
        // unit, channel 1 through the clip at 4 discs.
        for (k, h) in w.heads.iter_mut().enumerate() {
            h.bias = k as i32 * HEAD_SCALE;
            h.mobility = HEAD_SCALE / 2;
        }
        let b = Board::START;
        // 60 empties: between anchors 7 (56) and 8 (64), half way: 7.5 discs; mobility 4 - 4.
        assert_eq!(w.evaluate(b), 750);
        w.rows.iter_mut().for_each(|r| {
            r[0] = ACC_SCALE as i16 / 8;
            r[1] = ACC_SCALE as i16 / 4;
        });
        for h in &mut w.heads {
            h.linear[0] = 2 * HEAD_SCALE;
            h.clipped[1] = 4 * HEAD_SCALE;
        }
        // 46 placements: channel 0 at 46/8 units (11.5 discs), channel 1 at 11.5 units, cut to 1
        // (4 discs).
        assert_eq!(w.evaluate(b), 750 + 1150 + 400);
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let mut rng = Rng::new(8);
        let w = random_net(&mut rng, 8, 2000, 100_000);
        let bytes = w.to_bytes();
        let name = Path::new("n.bin");
        assert_eq!(NetWeights::from_bytes(&bytes, name).expect("loads"), w);
        let problem = |b: &[u8]| {
            NetWeights::from_bytes(b, name)
                .expect_err("refused")
                .problem
        };
        assert!(matches!(
            problem(&bytes[..bytes.len() - 1]),
            PatternFileProblem::Truncated
        ));
        let mut flipped = bytes.clone();
        flipped[HEADER + 1000] ^= 4;
        assert!(matches!(problem(&flipped), PatternFileProblem::Checksum));
        let mut other = bytes.clone();
        other[8] = 32;
        assert!(matches!(
            problem(&other),
            PatternFileProblem::NetShape { hidden: 32, .. }
        ));
        assert!(matches!(
            problem(b"WEDGEPT2xxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
            PatternFileProblem::BadMagic
        ));
        assert!(NetWeights::is_net(&bytes) && !NetWeights::is_net(b"WEDGEPT2"));
        // Read as tables, a network is named as one; a tables header cut short is truncated.
        let tables = |b: &[u8]| {
            super::super::PatternWeights::from_bytes(b, name)
                .expect_err("refused")
                .problem
        };
        assert!(matches!(
            tables(&bytes),
            PatternFileProblem::NetworkNotTables
        ));
        assert!(matches!(
            tables(b"WEDGEPT2xxxxxxxxxxxx"),
            PatternFileProblem::Truncated
        ));
        assert!(matches!(tables(b"WEDGEPT9"), PatternFileProblem::BadMagic));
        // A head weight beyond the limit (the blend would overflow) is refused, checksum or not.
        let mut wild = w.clone();
        wild.heads[1].clipped[3] = HEAD_LIMIT + 1;
        assert!(matches!(
            problem(&wild.to_bytes()),
            PatternFileProblem::NetHeadRange(v) if v == HEAD_LIMIT + 1
        ));
        // Extreme weights within the limits give a value cut to VALUE_LIMIT, not a wrapped one.
        let mut extreme = w.clone();
        extreme.heads.iter_mut().for_each(|h| {
            h.linear = [HEAD_LIMIT; HIDDEN];
            h.bias = -HEAD_LIMIT;
        });
        extreme
            .rows
            .iter_mut()
            .for_each(|r| *r = [i16::MAX; HIDDEN]);
        let loaded = NetWeights::from_bytes(&extreme.to_bytes(), name).expect("within the limits");
        assert_eq!(loaded.evaluate(Board::START), VALUE_LIMIT);
        let table = NetTable::new(&loaded);
        let (p, o) = (Board::START.player(), Board::START.opponent());
        let idx = PatternIndices::new(p, o);
        assert_eq!(
            table.evaluate_indexed(p, o, &idx, legal_moves(p, o)),
            VALUE_LIMIT
        );
    }
}
