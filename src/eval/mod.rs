//! The static evaluation, in centidiscs (1/100 disc) from the side to move's point of view: the
//! trained pattern evaluation ([`pattern`]: the built-in network, the default, or tables), or the
//! hand evaluation, a phase-blended linear sum of named features.
//!
//! Hand terms: the four edges (looked up in the 3^8 edge table: corners, C-, A-, B-squares,
//! edge-stable discs), X-squares beside empty corners, mobility, potential mobility, disc difference
//! and parity. Each weight is named ([`weights`]) and can be set one at a time (`setoption`) or from
//! a file. With the trained evaluation every named weight adjusts it by its change from the default
//! times its feature, so the defaults reproduce the trained evaluation exactly. The
//! searches call [`Evaluator::evaluate_indexed`] with the pattern indices they keep move by move
//! ([`PatternIndices`]); [`Evaluator::evaluate`] reads a board from scratch, with the same value.

pub mod edge;
pub mod pattern;
pub mod phasing;
pub mod weights;

use crate::board::movegen::{legal_moves, neighbours};
use crate::board::Board;
use edge::EdgeTable;
use pattern::net::{NetTable, NetWeights};
pub use pattern::PatternIndices;
use pattern::{PatternTable, PatternWeights};
use std::sync::Arc;
use weights::{id, Weights};

/// Squares on the a-file.
/// The largest evaluation (centidiscs): every value is clamped to +-63 discs, inside the range of
/// final scores (+-64 discs), because no position can be worth more than a final score and so that
/// a search's proven win or loss by 64 outranks any evaluation.
pub const EVAL_LIMIT: i32 = 6300;

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

/// An evaluation function: the trained pattern evaluation adjusted by the named weights, or the hand
/// evaluation made of the named weights alone.
///
/// With patterns, every named weight adds its term times its change from the default (the hand
/// evaluation's formula applied to the weights minus their defaults), so the defaults give exactly
/// the trained evaluation and any setting is a small change on top of it.
#[derive(Clone)]
pub struct Evaluator {
    weights: Weights,
    /// The hand terms in use: all the weights (hand evaluation) or their changes from the
    /// defaults (with patterns).
    terms: HandTerms,
    /// The trained weights in use, laid out for the searches' reads (shared: 32 MB).
    pattern: Option<Arc<TrainedTable>>,
    /// With patterns: whether any named weight differs from its default.
    adjusted: bool,
}

/// A set of hand weights with the edge table built from them.
#[derive(Clone)]
struct HandTerms {
    weights: Weights,
    edges: EdgeTable,
}

impl HandTerms {
    fn new(weights: Weights) -> HandTerms {
        HandTerms {
            edges: EdgeTable::new(&weights),
            weights,
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
            m += self.edges.mid[i];
            e += self.edges.end[i];
        }
        (m, e)
    }

    /// The sum of the terms for `board` (centidiscs, side to move).
    fn value(&self, board: Board) -> i32 {
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

    /// The terms one by one, named from `names` (in the order of [`TERM_NAMES`]); `only_set`
    /// keeps only the terms with a non-zero weight (the adjustments that are in force).
    fn breakdown(&self, board: Board, names: &[&'static str; 6], only_set: bool) -> Vec<Term> {
        let (p, o) = (board.player(), board.opponent());
        let w = &self.weights;
        let n = board.empty_count() as i32;
        let f = Evaluator::features(p, o);
        let (em, ee) = self.edges(p, o);
        // (feature, midgame weight, endgame weight); parity has an endgame weight only.
        let weighted = [
            (f.x, w.get(id::X_EMPTY_MID), w.get(id::X_EMPTY_END)),
            (f.mobility, w.get(id::MOBILITY_MID), w.get(id::MOBILITY_END)),
            (
                f.potential,
                w.get(id::POTENTIAL_MID),
                w.get(id::POTENTIAL_END),
            ),
            (f.discs, w.get(id::DISCS_MID), w.get(id::DISCS_END)),
            (f.parity, 0, w.get(id::PARITY_END)),
        ];
        let edges_set = EDGE_WEIGHTS.iter().any(|&i| w.get(i) != 0);
        let mut terms = Vec::with_capacity(6);
        if edges_set || !only_set {
            terms.push(Term {
                name: names[0],
                feature: 0,
                value: Evaluator::blend(em, ee, n),
            });
        }
        for (&name, (feature, mid, end)) in names[1..].iter().zip(weighted) {
            if mid != 0 || end != 0 || !only_set {
                terms.push(Term {
                    name,
                    feature,
                    value: Evaluator::blend(feature * mid, feature * end, n),
                });
            }
        }
        terms
    }
}

/// The hand evaluation's terms, as `eval` names them.
const TERM_NAMES: [&str; 6] = [
    "edges",
    "x-squares",
    "mobility",
    "potential mobility",
    "discs",
    "parity",
];

/// The same terms as adjustments of the trained evaluation.
const ADJUSTMENT_NAMES: [&str; 6] = [
    "adjust edges",
    "adjust x-squares",
    "adjust mobility",
    "adjust potential mobility",
    "adjust discs",
    "adjust parity",
];

/// The weights the edge table folds in.
const EDGE_WEIGHTS: [usize; 9] = [
    id::CORNER_MID,
    id::CORNER_END,
    id::C_EMPTY_MID,
    id::C_EMPTY_END,
    id::C_TAKEN,
    id::A_SQUARE,
    id::B_SQUARE,
    id::EDGE_STABLE_MID,
    id::EDGE_STABLE_END,
];

/// The trained pattern tables compiled into the binary (docs/training.md has the recipe): the
/// network's starting point and the evaluation if the network fails to load.
static EMBEDDED_PATTERNS: &[u8] = include_bytes!("patterns.bin");

/// The trained pattern network compiled into the binary, the default evaluation
/// (docs/training.md has the recipe).
static EMBEDDED_NET: &[u8] = include_bytes!("net.bin");

/// A checksum of the evaluation compiled into the binary (its network and tables): what tells one
/// build's games from another's (a datagen run records it, so a rebuilt binary with new weights
/// does not resume another engine's run).
pub fn built_in_checksum() -> u64 {
    crate::files::checksum(EMBEDDED_NET) ^ crate::files::checksum(EMBEDDED_PATTERNS).rotate_left(1)
}

/// The embedded pattern tables, read once; `None` if they do not load.
static BUILT_IN_PATTERNS: once_cell::sync::Lazy<Option<Arc<PatternWeights>>> =
    once_cell::sync::Lazy::new(|| {
        PatternWeights::from_bytes(
            EMBEDDED_PATTERNS,
            std::path::Path::new("<embedded patterns>"),
        )
        .ok()
        .map(Arc::new)
    });

/// The embedded pattern network, read once; `None` if it does not load.
static BUILT_IN_NET: once_cell::sync::Lazy<Option<Arc<NetWeights>>> =
    once_cell::sync::Lazy::new(|| {
        NetWeights::from_bytes(EMBEDDED_NET, std::path::Path::new("<embedded network>"))
            .ok()
            .map(Arc::new)
    });

/// The built-in trained pattern tables, if they load.
pub fn built_in_patterns() -> Option<Arc<PatternWeights>> {
    BUILT_IN_PATTERNS.clone()
}

/// The built-in pattern network, if it loads.
pub fn built_in_net() -> Option<Arc<NetWeights>> {
    BUILT_IN_NET.clone()
}

/// The default trained evaluation: the built-in network, else the built-in tables, if either
/// loads (else the hand evaluation is the default).
pub fn built_in_trained() -> Option<Trained> {
    built_in_net()
        .map(Trained::Net)
        .or_else(|| built_in_patterns().map(Trained::Tables))
}

/// The searches' layout of the built-in tables, built once and shared by every evaluator that
/// uses them.
static BUILT_IN_TABLE: once_cell::sync::Lazy<Option<Arc<TrainedTable>>> =
    once_cell::sync::Lazy::new(|| {
        BUILT_IN_PATTERNS
            .as_deref()
            .map(|w| Arc::new(TrainedTable::Tables(PatternTable::new(w))))
    });

/// The searches' layout of the built-in network, built once and shared likewise.
static BUILT_IN_NET_TABLE: once_cell::sync::Lazy<Option<Arc<TrainedTable>>> =
    once_cell::sync::Lazy::new(|| {
        BUILT_IN_NET
            .as_deref()
            .map(|w| Arc::new(TrainedTable::Net(NetTable::new(w))))
    });

/// Trained weights: additive pattern tables or a pattern network over the same configurations.
#[derive(Clone, Debug)]
pub enum Trained {
    /// Additive tables ([`PatternWeights`]).
    Tables(Arc<PatternWeights>),
    /// A pattern network ([`NetWeights`]).
    Net(Arc<NetWeights>),
}

impl Trained {
    /// The file image.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Trained::Tables(w) => w.to_bytes(),
            Trained::Net(w) => w.to_bytes(),
        }
    }

    /// Reads a trained weights file of either kind (told apart by its magic).
    pub fn load(path: &std::path::Path) -> Result<Trained, pattern::PatternFileError> {
        let bytes = pattern::read_file(path)?;
        if NetWeights::is_net(&bytes) {
            NetWeights::from_bytes(&bytes, path).map(|w| Trained::Net(Arc::new(w)))
        } else {
            PatternWeights::from_bytes(&bytes, path).map(|w| Trained::Tables(Arc::new(w)))
        }
    }
}

/// [`Trained`] weights laid out for the searches (held in an [`Arc`], so the variants' sizes do
/// not matter).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
enum TrainedTable {
    Tables(PatternTable),
    Net(NetTable),
}

impl TrainedTable {
    fn new(trained: &Trained) -> TrainedTable {
        match trained {
            Trained::Tables(w) => TrainedTable::Tables(PatternTable::new(w)),
            Trained::Net(w) => TrainedTable::Net(NetTable::new(w)),
        }
    }

    #[inline]
    fn evaluate(&self, board: Board) -> i32 {
        let (p, o) = (board.player(), board.opponent());
        self.evaluate_indexed(p, o, &PatternIndices::new(p, o), legal_moves(p, o))
    }

    #[inline]
    fn evaluate_indexed(&self, p: u64, o: u64, indices: &PatternIndices, moves: u64) -> i32 {
        match self {
            TrainedTable::Tables(t) => t.evaluate_indexed(p, o, indices, moves),
            TrainedTable::Net(t) => t.evaluate_indexed(p, o, indices, moves),
        }
    }
}

impl Default for Evaluator {
    /// The built-in evaluation: the trained patterns (the hand evaluation if they failed to load).
    fn default() -> Evaluator {
        Evaluator::with_trained(Weights::default(), built_in_trained())
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

    /// An evaluator that uses trained pattern weights, adjusted by `weights`' changes from the
    /// defaults, when given (else the hand evaluation with `weights`). The built-in weights' table
    /// is shared; other weights get a table of their own (built here).
    pub fn with_pattern(weights: Weights, pattern: Option<Arc<PatternWeights>>) -> Evaluator {
        Evaluator::with_trained(weights, pattern.map(Trained::Tables))
    }

    /// [`Evaluator::with_pattern`] for trained weights of either kind.
    pub fn with_trained(weights: Weights, trained: Option<Trained>) -> Evaluator {
        let shared = |t: &Trained| match t {
            Trained::Tables(w) => match (&*BUILT_IN_PATTERNS, &*BUILT_IN_TABLE) {
                (Some(b), Some(table)) if Arc::ptr_eq(w, b) => Some(Arc::clone(table)),
                _ => None,
            },
            Trained::Net(w) => match (&*BUILT_IN_NET, &*BUILT_IN_NET_TABLE) {
                (Some(b), Some(table)) if Arc::ptr_eq(w, b) => Some(Arc::clone(table)),
                _ => None,
            },
        };
        let pattern =
            trained.map(|t| shared(&t).unwrap_or_else(|| Arc::new(TrainedTable::new(&t))));
        let (terms, adjusted) = match pattern {
            Some(_) => {
                let delta = weights.minus_defaults();
                let adjusted = delta != Weights::zero();
                (HandTerms::new(delta), adjusted)
            }
            None => (HandTerms::new(weights.clone()), false),
        };
        Evaluator {
            weights,
            terms,
            pattern,
            adjusted,
        }
    }

    /// The evaluation the endgame solver orders its moves with: the built-in tables (with the
    /// same named weights) where this is the built-in network, else this one. Ordering needs
    /// fast estimates more than close ones: the tables solve the FFO positions in less time than
    /// the network, for a few more nodes (measured in docs/dev/evaluation.md, version 9).
    pub fn for_ordering(&self) -> Evaluator {
        let built_in_net = match (&self.pattern, &*BUILT_IN_NET_TABLE) {
            (Some(p), Some(net)) => Arc::ptr_eq(p, net),
            _ => false,
        };
        match &*BUILT_IN_TABLE {
            Some(tables) if built_in_net => Evaluator {
                pattern: Some(Arc::clone(tables)),
                ..self.clone()
            },
            _ => self.clone(),
        }
    }

    /// Whether a trained pattern evaluation is in use.
    pub fn is_pattern(&self) -> bool {
        self.pattern.is_some()
    }

    /// The named weights in use.
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

    /// Blends a midgame and an endgame value by the number of empty squares.
    #[inline]
    fn blend(mid: i32, end: i32, empties: i32) -> i32 {
        let e = empties.min(60);
        (mid * e + end * (60 - e)) / 60
    }

    /// The evaluation of `board` in centidiscs for the side to move, within +-[`EVAL_LIMIT`].
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        let value = match &self.pattern {
            Some(pattern) if self.adjusted => pattern.evaluate(board) + self.terms.value(board),
            Some(pattern) => pattern.evaluate(board),
            None => self.terms.value(board),
        };
        value.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// [`Evaluator::evaluate`] of the position `p` to move against `o`, whose pattern indices
    /// (kept up to date by the search, move by move) are `indices`: the same value before its clamp,
    /// without reading the patterns from scratch. Unclamped, it keeps the order among lopsided
    /// positions for move ordering (the solver needs 3% more nodes on FFO #20-#39 with the clamp);
    /// a search clamps the values it returns to +-[`EVAL_LIMIT`].
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
        match &self.pattern {
            Some(pattern) if !self.adjusted => pattern.evaluate_indexed(p, o, indices, moves),
            Some(pattern) => {
                pattern.evaluate_indexed(p, o, indices, moves)
                    + Board::new(p, o).map_or(0, |b| self.terms.value(b))
            }
            None => Board::new(p, o).map_or(0, |b| self.terms.value(b)),
        }
    }

    /// The evaluation term by term (the values add up to [`Evaluator::evaluate`] up to rounding and
    /// its clamp to +-[`EVAL_LIMIT`]).
    /// With patterns: the trained value, then each adjustment in force (the terms whose weights
    /// differ from their defaults), named `adjust <term>`.
    pub fn breakdown(&self, board: Board) -> Vec<Term> {
        let Some(pattern) = &self.pattern else {
            return self.terms.breakdown(board, &TERM_NAMES, false);
        };
        let mut terms = vec![Term {
            name: "patterns (trained)",
            feature: 0,
            value: pattern.evaluate(board),
        }];
        terms.extend(self.terms.breakdown(board, &ADJUSTMENT_NAMES, true));
        terms
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
        let tuned = Evaluator::with_trained(w.clone(), built_in_trained());
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
        let back = Evaluator::with_trained(w, built_in_trained());
        assert_eq!(back.evaluate(b), base.evaluate(b));
        assert_eq!(back.breakdown(b).len(), 1);
    }

    #[test]
    fn every_named_weight_adjusts_the_trained_evaluation_as_the_hand_one() {
        // Every position of a few random games: corners, X- and C-squares, stable edges, both
        // parities and all phases occur.
        let mut rng = crate::rng::Rng::new(5);
        let mut boards = Vec::new();
        for _ in 0..6 {
            let mut b = Board::START;
            while !b.is_game_over() {
                if !b.can_move() {
                    b = b.pass();
                    continue;
                }
                let moves: Vec<_> = b.legal_moves().collect();
                let sq = moves[rng.below(moves.len() as u64) as usize];
                b = b.play(sq).unwrap();
                boards.push(b);
            }
        }
        let trained = Evaluator::default();
        let hand = Evaluator::new(Weights::default());
        for (i, spec) in weights::SPECS.iter().enumerate() {
            let mut w = Weights::default();
            w.set_by_name(spec.name, &(spec.default + 300).to_string())
                .unwrap();
            let (t, h) = (
                Evaluator::with_trained(w.clone(), built_in_trained()),
                Evaluator::new(w),
            );
            assert!(
                t.is_pattern(),
                "{} must keep the trained evaluation",
                spec.name
            );
            let mut changed = 0;
            for &b in &boards {
                // The values before the clamp (a random game's lopsided positions reach it).
                let idx = PatternIndices::new(b.player(), b.opponent());
                let raw = |e: &Evaluator| e.evaluate_indexed(b.player(), b.opponent(), &idx);
                let dt = raw(&t) - raw(&trained);
                let dh = raw(&h) - raw(&hand);
                assert!((dt - dh).abs() <= 1, "{}: {dt} vs {dh}", spec.name);
                changed += (dt != 0) as usize;
                assert_eq!(raw(&t).clamp(-EVAL_LIMIT, EVAL_LIMIT), t.evaluate(b));
            }
            assert!(changed > 0, "weight {i} ({}) changes nothing", spec.name);
        }
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
            Evaluator::with_pattern(tuned.clone(), built_in_patterns()),
            Evaluator::with_trained(tuned, built_in_trained()),
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
    fn the_built_in_network_and_tables_load_and_the_network_is_the_default() {
        assert!(built_in_patterns().is_some());
        assert!(matches!(built_in_trained(), Some(Trained::Net(_))));
        assert!(Evaluator::default().is_pattern());
        assert!(!Evaluator::new(Weights::default()).is_pattern());
        // The default evaluator is the network's, and shares the one built-in layout.
        let net = built_in_net().unwrap();
        let b = crate::board::text::board_after("f5d6c3d3c4f4f6").unwrap();
        assert_eq!(Evaluator::default().evaluate(b), net.evaluate(b));
        // The solver's ordering reads the built-in tables instead, with the same named weights;
        // other evaluations order with themselves.
        let tables = Evaluator::with_pattern(Weights::default(), built_in_patterns());
        assert_eq!(
            Evaluator::default().for_ordering().evaluate(b),
            tables.evaluate(b)
        );
        assert_ne!(tables.evaluate(b), net.evaluate(b));
        let mut w = Weights::default();
        w.set_by_name("MobilityMid", "500").unwrap();
        let adjusted = Evaluator::with_trained(w.clone(), built_in_trained());
        let adjusted_tables = Evaluator::with_pattern(w, built_in_patterns());
        assert_eq!(
            adjusted.for_ordering().evaluate(b),
            adjusted_tables.evaluate(b)
        );
        let hand = Evaluator::new(Weights::default());
        assert_eq!(hand.for_ordering().evaluate(b), hand.evaluate(b));
        let (a, c) = (Evaluator::default(), Evaluator::default());
        assert!(Arc::ptr_eq(
            a.pattern.as_ref().unwrap(),
            c.pattern.as_ref().unwrap()
        ));
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

    #[test]
    fn every_evaluation_stays_within_the_limit() {
        // A lopsided position of a game between a level and a weaker player (23 empty squares, won
        // by 64): the network reads it beyond any final score.
        let b = Board::new(0xFFFF_0F03_0301_0101, 0x0000_70FC_1C1E_0000).unwrap();
        let raw = built_in_net().unwrap().evaluate(b);
        assert!(raw > EVAL_LIMIT, "{raw}");
        let e = Evaluator::default();
        for (board, limit) in [(b, EVAL_LIMIT), (b.pass(), -EVAL_LIMIT)] {
            let (p, o) = (board.player(), board.opponent());
            assert_eq!(e.evaluate(board), limit);
            let indexed = e.evaluate_indexed(p, o, &PatternIndices::new(p, o));
            assert_eq!(indexed.clamp(-EVAL_LIMIT, EVAL_LIMIT), limit);
        }
        // Named weights that add to the network's value: still within the limit.
        let mut w = Weights::default();
        w.set_by_name("MobilityMid", "10000").unwrap();
        let adjusted = Evaluator::with_trained(w, built_in_trained());
        for board in [b, b.pass()] {
            let (p, o) = (board.player(), board.opponent());
            let v = adjusted.evaluate(board);
            assert!(v.abs() <= EVAL_LIMIT, "{v}");
            let indexed = adjusted.evaluate_indexed(p, o, &PatternIndices::new(p, o));
            assert_eq!(indexed.clamp(-EVAL_LIMIT, EVAL_LIMIT), v);
        }
    }
}
