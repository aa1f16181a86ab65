//! [`PatternTable`]: the pattern weights laid out for the searches' reads.

use super::{
    legal_moves, PatternIndices, PatternWeights, LANES, LANE_OFFSETS, PLACEMENTS, SCALE,
    SHAPE_WEIGHTS, TABLE_SIZE,
};
use crate::board::Board;

/// [`PatternWeights`] laid out for the searches: one table per distinct weight set the empties
/// counts 0..=60 use (the phases themselves in steps, one blended table per count with linear
/// phases), each padded to a power of two, so that an index masked to `TABLE_SIZE` is in bounds by
/// construction and the 46 reads of an evaluation need no bounds checks; mobility and bias kept
/// apart. It evaluates exactly as the weights it was built from.
#[derive(Clone, Debug)]
pub struct PatternTable {
    /// Tables of `TABLE_SIZE` weights (the padding is zero and never read).
    shapes: Vec<[i16; TABLE_SIZE]>,
    /// The table of each empties count 0..=60.
    table_of: [u8; 61],
    /// Mobility weight by empties count.
    mobility: [i32; 61],
    /// Bias by empties count.
    bias: [i32; 61],
    /// [`LANE_OFFSETS`], copied here so that an evaluation reads them without going through the
    /// lazy static's initialisation check (bench +0.5 to +1.3% in three pairs taken in turn).
    offsets: [u32; LANES],
}

impl PatternTable {
    /// The table of `weights`.
    pub fn new(weights: &PatternWeights) -> PatternTable {
        let mut shapes: Vec<[i16; TABLE_SIZE]> = Vec::new();
        let mut table_of = [0u8; 61];
        let (mut mobility, mut bias) = ([0; 61], [0; 61]);
        let mut made: Vec<(usize, usize, i32, i32)> = Vec::new();
        for e in 0..=60u32 {
            let b = weights.blend(e);
            // Counts with the same blend share a table (all the counts of a step).
            let key = (b.lo, b.hi, b.num, b.den);
            let t = match made.iter().position(|&k| k == key) {
                Some(t) => t,
                None => {
                    made.push(key);
                    let mut table = [0i16; TABLE_SIZE];
                    // Every phase vector holds `per_phase()` = SHAPE_WEIGHTS + 2 weights (files
                    // are checked on loading); a shorter one would only leave zeros here.
                    for (i, slot) in table.iter_mut().enumerate().take(SHAPE_WEIGHTS) {
                        *slot = weights.mixed(b, i) as i16;
                    }
                    shapes.push(table);
                    shapes.len() - 1
                }
            };
            table_of[e as usize] = t as u8;
            mobility[e as usize] = weights.mixed(b, SHAPE_WEIGHTS);
            bias[e as usize] = weights.mixed(b, SHAPE_WEIGHTS + 1);
        }
        PatternTable {
            shapes,
            table_of,
            mobility,
            bias,
            offsets: *LANE_OFFSETS,
        }
    }

    /// The evaluation in centidiscs for the side to move.
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        let (p, o) = (board.player(), board.opponent());
        self.evaluate_indexed(p, o, &PatternIndices::new(p, o), legal_moves(p, o))
    }

    /// [`PatternTable::evaluate`] with the indices and the legal moves of `p` already known
    /// (`p`, `o`, `indices` and `moves` must describe the same position).
    #[inline]
    pub fn evaluate_indexed(&self, p: u64, o: u64, indices: &PatternIndices, moves: u64) -> i32 {
        let e = ((!(p | o)).count_ones() as usize).min(60);
        // One check here (every table index is below the tables' count); none in the loop.
        let w = &self.shapes[self.table_of[e] as usize];
        let mut sum = 0i32;
        for k in 0..PLACEMENTS {
            let i = (self.offsets[k] as usize + indices.me[k] as usize) & (TABLE_SIZE - 1);
            sum += i32::from(w[i]);
        }
        let mobility = moves.count_ones() as i32 - legal_moves(o, p).count_ones() as i32;
        sum += mobility * self.mobility[e] + self.bias[e];
        sum * 100 / SCALE
    }
}
