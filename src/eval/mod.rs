//! The static evaluation: a phase-blended linear sum of features, in centidiscs (1/100 disc) from
//! the side to move's point of view.
//!
//! Terms: the four edges (looked up in the 3^8 edge table: corners, C-, A-, B-squares, edge-stable
//! discs), X-squares beside empty corners, mobility, potential mobility, disc difference and parity.
//! Each weight is named ([`weights`]) and can be set one at a time (`setoption`) or from a file. A
//! trained pattern evaluation ([`pattern`]) replaces the board terms, and the global terms' weights
//! (mobility, potential mobility, discs, parity) adjust it by their change from the defaults. The
//! searches call [`Evaluator::evaluate_indexed`] with the pattern indices they keep move by move
//! ([`PatternIndices`]); [`Evaluator::evaluate`] reads a board from scratch, with the same value.

pub mod edge;
pub mod pattern;
pub mod phasing;
pub mod weights;

use crate::board::movegen::{legal_moves, neighbours};
use crate::board::Board;
use edge::EdgeTable;
pub use pattern::PatternIndices;
use pattern::{PatternTable, PatternWeights};
use std::sync::Arc;
use weights::{id, Weights};

/// Squares on the a-file.
const A_FILE: u64 = 0x0101_0101_0101_0101;
/// Multiplier that gathers the 8 bits of the a-file into the top byte (row 8 in bit 56, ...).
const FILE_GATHER: u64 = 0x8040_2010_0804_0201;

/// The 8 bits of the a-file of `b` as a byte (row 1 ends up in bit 7, row 8 in bit 0: reversed, which
/// the symmetric edge table does not mind).
#[inline]
fn file_a(b: u64) -> u8 {
    ((b & A_FILE).wrapping_mul(FILE_GATHER) >> 56) as u8
}

/// The X-squares and their corners: (b2, a1), (g2, h1), (b7, a8), (g7, h8).
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

/// One term of the evaluation, for the `eval` command.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// The term's name.
    pub name: &'static str,
    /// The feature's value (own minus opponent, or the parity sign).
    pub feature: i32,
    /// Its contribution in centidiscs after blending the phases.
    pub value: i32,
}

/// An evaluation function: the hand weights and the tables built from them, or a trained pattern
/// evaluation when one is loaded. The patterns replace the hand evaluation's board terms (edges,
/// corners, X-squares); its global terms ([`GLOBAL_TERMS`]) still apply on top of them by as much as
/// their weights differ from the defaults, so a tuner can adjust them with the trained evaluation.
#[derive(Clone)]
pub struct Evaluator {
    weights: Weights,
    edges: EdgeTable,
    /// The trained weights in use, laid out for the searches' reads (shared: 3 MB).
    pattern: Option<Arc<PatternTable>>,
    /// With patterns: each global term's weight minus its default, when any is non-zero.
    global_delta: Option<[i32; 7]>,
}

/// The weights of the global terms (mobility, potential mobility, discs, parity): not board shapes,
/// so they keep working with the trained pattern evaluation. Order: the `global_delta` order.
pub const GLOBAL_TERMS: [usize; 7] = [
    id::MOBILITY_MID,
    id::MOBILITY_END,
    id::POTENTIAL_MID,
    id::POTENTIAL_END,
    id::DISCS_MID,
    id::DISCS_END,
    id::PARITY_END,
];

/// The trained pattern weights compiled into the binary (docs/training.md has the recipe).
static EMBEDDED_PATTERNS: &[u8] = include_bytes!("patterns.bin");

/// The embedded pattern weights, read once; `None` if they do not load (then the hand evaluation is
/// the default).
static BUILT_IN_PATTERNS: once_cell::sync::Lazy<Option<Arc<PatternWeights>>> =
    once_cell::sync::Lazy::new(|| {
        PatternWeights::from_bytes(
            EMBEDDED_PATTERNS,
            std::path::Path::new("<embedded patterns>"),
        )
        .ok()
        .map(Arc::new)
    });

/// The built-in trained pattern weights, if they load.
pub fn built_in_patterns() -> Option<Arc<PatternWeights>> {
    BUILT_IN_PATTERNS.clone()
}

/// The table of the built-in weights, built once and shared by every evaluator that uses them.
static BUILT_IN_TABLE: once_cell::sync::Lazy<Option<Arc<PatternTable>>> =
    once_cell::sync::Lazy::new(|| {
        BUILT_IN_PATTERNS
            .as_deref()
            .map(|w| Arc::new(PatternTable::new(w)))
    });

impl Default for Evaluator {
    /// The built-in evaluation: the trained patterns (the hand evaluation if they failed to load).
    fn default() -> Evaluator {
        Evaluator::with_pattern(Weights::default(), built_in_patterns())
    }
}

/// The midgame and endgame sums of the non-edge terms, with each feature.
struct Features {
    x: i32,
    mobility: i32,
    potential: i32,
    discs: i32,
    parity: i32,
}

impl Evaluator {
    /// The hand evaluation with the given weights.
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator::with_pattern(weights, None)
    }

    /// An evaluator that uses trained pattern weights when given (else the hand weights). The
    /// built-in weights' table is shared; other weights get a table of their own (built here).
    pub fn with_pattern(weights: Weights, pattern: Option<Arc<PatternWeights>>) -> Evaluator {
        let edges = EdgeTable::new(&weights);
        let delta = GLOBAL_TERMS.map(|i| weights.get(i) - weights::SPECS[i].default);
        Evaluator {
            global_delta: delta.iter().any(|&d| d != 0).then_some(delta),
            weights,
            edges,
            pattern: pattern.map(|w| match (&*BUILT_IN_PATTERNS, &*BUILT_IN_TABLE) {
                (Some(built_in), Some(table)) if Arc::ptr_eq(&w, built_in) => Arc::clone(table),
                _ => Arc::new(PatternTable::new(&w)),
            }),
        }
    }

    /// Whether a trained pattern evaluation is in use.
    pub fn is_pattern(&self) -> bool {
        self.pattern.is_some()
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    fn features(p: u64, o: u64) -> Features {
        let empty = !(p | o);
        let mut x = 0;
        for &(xs, corner) in &X_SQUARES {
            if empty & corner != 0 {
                x += (p & xs != 0) as i32 - (o & xs != 0) as i32;
            }
        }
        let empties = empty.count_ones() as i32;
        Features {
            x,
            mobility: legal_moves(p, o).count_ones() as i32 - legal_moves(o, p).count_ones() as i32,
            potential: (neighbours(o) & empty).count_ones() as i32
                - (neighbours(p) & empty).count_ones() as i32,
            discs: p.count_ones() as i32 - o.count_ones() as i32,
            parity: if empties % 2 == 1 { 1 } else { -1 },
        }
    }

    /// The sums of the four edges' table values (midgame, endgame).
    #[inline]
    fn edges(&self, p: u64, o: u64) -> (i32, i32) {
        let idx = [
            edge::index(p as u8, o as u8),
            edge::index((p >> 56) as u8, (o >> 56) as u8),
            edge::index(file_a(p), file_a(o)),
            edge::index(file_a(p >> 7), file_a(o >> 7)),
        ];
        let (mut m, mut e) = (0, 0);
        for i in idx {
            m += i32::from(self.edges.mid[i]);
            e += i32::from(self.edges.end[i]);
        }
        (m, e)
    }

    /// Blends a midgame and an endgame value by the number of empty squares.
    #[inline]
    fn blend(mid: i32, end: i32, empties: i32) -> i32 {
        let e = empties.min(60);
        (mid * e + end * (60 - e)) / 60
    }

    /// The evaluation of `board` in centidiscs for the side to move.
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        if let Some(pattern) = &self.pattern {
            return match &self.global_delta {
                None => pattern.evaluate(board),
                Some(delta) => pattern.evaluate(board) + Evaluator::adjustment(delta, board),
            };
        }
        let (p, o) = (board.player(), board.opponent());
        let w = &self.weights;
        let f = Evaluator::features(p, o);
        let (em, ee) = self.edges(p, o);
        let mid = em
            + f.x * w.get(id::X_EMPTY_MID)
            + f.mobility * w.get(id::MOBILITY_MID)
            + f.potential * w.get(id::POTENTIAL_MID)
            + f.discs * w.get(id::DISCS_MID);
        let end = ee
            + f.x * w.get(id::X_EMPTY_END)
            + f.mobility * w.get(id::MOBILITY_END)
            + f.potential * w.get(id::POTENTIAL_END)
            + f.discs * w.get(id::DISCS_END)
            + f.parity * w.get(id::PARITY_END);
        Evaluator::blend(mid, end, board.empty_count() as i32)
    }

    /// [`Evaluator::evaluate`] of the position `p` to move against `o`, whose pattern indices
    /// (kept up to date by the search, move by move) are `indices`: the same value, without reading
    /// the patterns from scratch.
    #[inline]
    pub fn evaluate_indexed(&self, p: u64, o: u64, indices: &PatternIndices) -> i32 {
        self.evaluate_indexed_moves(p, o, indices, legal_moves(p, o))
    }

    /// [`Evaluator::evaluate_indexed`] when the caller already has the legal moves of `p`
    /// (`moves`): one move generation fewer at each leaf of the searches that order moves.
    #[inline]
    pub fn evaluate_indexed_moves(
        &self,
        p: u64,
        o: u64,
        indices: &PatternIndices,
        moves: u64,
    ) -> i32 {
        match (&self.pattern, &self.global_delta) {
            (Some(pattern), None) => pattern.evaluate_indexed(p, o, indices, moves),
            _ => Board::new(p, o).map_or(0, |b| self.evaluate(b)),
        }
    }

    /// The global terms' adjustment to the pattern evaluation (centidiscs): each term's feature times
    /// its weight's change from the default, blended by phase.
    fn adjustment(delta: &[i32; 7], board: Board) -> i32 {
        let f = Evaluator::features(board.player(), board.opponent());
        let mid = f.mobility * delta[0] + f.potential * delta[2] + f.discs * delta[4];
        let end = f.mobility * delta[1]
            + f.potential * delta[3]
            + f.discs * delta[5]
            + f.parity * delta[6];
        Evaluator::blend(mid, end, board.empty_count() as i32)
    }

    /// The evaluation term by term (the values add up to [`Evaluator::evaluate`] up to rounding).
    pub fn breakdown(&self, board: Board) -> Vec<Term> {
        if let Some(pattern) = &self.pattern {
            let mut terms = vec![Term {
                name: "patterns (trained)",
                feature: 0,
                value: pattern.evaluate(board),
            }];
            if let Some(delta) = &self.global_delta {
                terms.push(Term {
                    name: "global term changes",
                    feature: 0,
                    value: Evaluator::adjustment(delta, board),
                });
            }
            return terms;
        }
        let (p, o) = (board.player(), board.opponent());
        let w = &self.weights;
        let n = board.empty_count() as i32;
        let f = Evaluator::features(p, o);
        let (em, ee) = self.edges(p, o);
        let term = |name, feature: i32, mid: i32, end: i32| Term {
            name,
            feature,
            value: Evaluator::blend(feature * mid, feature * end, n),
        };
        vec![
            Term {
                name: "edges",
                feature: 0,
                value: Evaluator::blend(em, ee, n),
            },
            term(
                "x-squares",
                f.x,
                w.get(id::X_EMPTY_MID),
                w.get(id::X_EMPTY_END),
            ),
            term(
                "mobility",
                f.mobility,
                w.get(id::MOBILITY_MID),
                w.get(id::MOBILITY_END),
            ),
            term(
                "potential mobility",
                f.potential,
                w.get(id::POTENTIAL_MID),
                w.get(id::POTENTIAL_END),
            ),
            term("discs", f.discs, w.get(id::DISCS_MID), w.get(id::DISCS_END)),
            term("parity", f.parity, 0, w.get(id::PARITY_END)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Symmetry;

    #[test]
    fn global_terms_adjust_the_pattern_evaluation() {
        // The first position of a game where the mobility difference is not 0.
        let game = "f5d6c3d3c4f4f6f3e6e7d7c5";
        let b = (2..=game.len() / 2)
            .filter_map(|k| crate::board::text::board_after(&game[..2 * k]).ok())
            .find(|b| {
                legal_moves(b.player(), b.opponent()).count_ones()
                    != legal_moves(b.opponent(), b.player()).count_ones()
            })
            .expect("some position of the game has unequal mobility");
        let base = Evaluator::default();
        assert!(base.is_pattern());
        let mut w = Weights::default();
        let default_mob = w.get(id::MOBILITY_MID);
        w.set_by_name("MobilityMid", &(default_mob + 100).to_string())
            .unwrap();
        let tuned = Evaluator::with_pattern(w.clone(), built_in_patterns());
        let mobility = legal_moves(b.player(), b.opponent()).count_ones() as i32
            - legal_moves(b.opponent(), b.player()).count_ones() as i32;
        let expected = Evaluator::blend(100 * mobility, 0, b.empty_count() as i32);
        assert_eq!(tuned.evaluate(b), base.evaluate(b) + expected);
        let terms = tuned.breakdown(b);
        assert_eq!(
            terms.iter().map(|t| t.value).sum::<i32>(),
            tuned.evaluate(b)
        );
        // Back at the default: exactly the trained evaluation.
        w.set_by_name("MobilityMid", &default_mob.to_string())
            .unwrap();
        let back = Evaluator::with_pattern(w, built_in_patterns());
        assert_eq!(back.evaluate(b), base.evaluate(b));
        assert_eq!(back.breakdown(b).len(), 1);
    }

    #[test]
    fn indexed_evaluation_equals_reading_from_scratch_for_every_kind() {
        let mut tuned = Weights::default();
        let mob = tuned.get(id::MOBILITY_MID);
        tuned
            .set_by_name("MobilityMid", &(mob + 50).to_string())
            .unwrap();
        let evaluators = [
            Evaluator::default(),
            Evaluator::with_pattern(tuned, built_in_patterns()),
            Evaluator::new(Weights::default()),
        ];
        let mut b = Board::START;
        for m in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
            b = b.play(m.parse().unwrap()).unwrap();
            let idx = PatternIndices::new(b.player(), b.opponent());
            for e in &evaluators {
                assert_eq!(
                    e.evaluate_indexed(b.player(), b.opponent(), &idx),
                    e.evaluate(b)
                );
            }
        }
    }

    #[test]
    fn file_gather_reads_the_a_file() {
        for row in 0..8 {
            assert_eq!(file_a(1u64 << (8 * row)), 0x80 >> row);
        }
        assert_eq!(file_a(!A_FILE), 0);
    }

    #[test]
    fn evaluation_is_symmetric_and_antisymmetric_at_the_start() {
        let ev = Evaluator::new(Weights::default());
        let b = crate::board::text::board_after("f5d6c3d3c4f4").unwrap();
        let v = ev.evaluate(b);
        for s in Symmetry::ALL {
            assert_eq!(ev.evaluate(b.transform(s)), v, "{s:?}");
        }
        assert_eq!(ev.evaluate(Board::START), 0);
    }

    #[test]
    fn breakdown_sums_to_the_evaluation() {
        let ev = Evaluator::new(Weights::default());
        for t in ["f5d6c3d3c4f4f6", "f5f6e6f4e3c5c4e7c6e2", "c4c3d3c5b4"] {
            let b = crate::board::text::board_after(t).unwrap();
            let sum: i32 = ev.breakdown(b).iter().map(|t| t.value).sum();
            assert!(
                (sum - ev.evaluate(b)).abs() <= 6,
                "{t}: {sum} vs {}",
                ev.evaluate(b)
            );
        }
    }

    #[test]
    fn built_in_patterns_load_and_are_the_default() {
        assert!(built_in_patterns().is_some());
        assert!(Evaluator::default().is_pattern());
        assert!(!Evaluator::new(Weights::default()).is_pattern());
    }

    #[test]
    fn a_weight_change_changes_the_evaluation() {
        let b = crate::board::text::board_after("f5d6c3d3c4f4f6").unwrap();
        let before = Evaluator::new(Weights::default()).evaluate(b);
        let mut w = Weights::default();
        w.set_by_name("MobilityMid", "500").unwrap();
        let after = Evaluator::new(w).evaluate(b);
        assert_ne!(before, after);
    }
}
