//! The variant player's evaluation: a linear combination of features that do not depend on the
//! board's size or layout, with named integer weights (the `VariantMobility`, ... spin options).
//!
//! The layout is read once ([`Layout::new`]): which squares can never be flipped once taken
//! ("corner-like": on each of the 4 lines through the square, at least one neighbour is blocked or
//! off the board, so no line can flank it), which are edge-like (3 of the 4 lines closed on one
//! side, as on an edge of the plain board), and on which lines each square is closed. The features
//! are then set algebra on the discs; everything is from the side to move's point of view, in units
//! where a weight of 100 is worth about one disc.

use super::bits::Bits;
use super::board::moves;
use std::fmt;

/// One evaluation weight: its option name, default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightSpec {
    /// The option name (`setoption name VariantMobility value 30`).
    pub name: &'static str,
    /// The default value.
    pub default: i32,
    /// The smallest value accepted.
    pub min: i32,
    /// The largest value accepted.
    pub max: i32,
    /// What the feature measures (per unit of the weight).
    pub help: &'static str,
}

/// Every weight, in the order of [`Weights::values`]: names, defaults and ranges.
pub const WEIGHT_SPECS: [WeightSpec; 9] = [
    WeightSpec {
        name: "VariantMobility",
        default: 40,
        min: -1000,
        max: 1000,
        help: "legal moves of the side to move minus the opponent's",
    },
    WeightSpec {
        name: "VariantPotentialMobility",
        default: 12,
        min: -1000,
        max: 1000,
        help: "empty squares next to opponent discs minus empty squares next to own discs (frontier)",
    },
    WeightSpec {
        name: "VariantCorners",
        default: 400,
        min: -5000,
        max: 5000,
        help: "discs on corner-like squares (never flippable once taken)",
    },
    WeightSpec {
        name: "VariantXSquares",
        default: -200,
        min: -5000,
        max: 5000,
        help: "discs diagonally next to an empty corner-like square",
    },
    WeightSpec {
        name: "VariantCSquares",
        default: -60,
        min: -5000,
        max: 5000,
        help: "discs orthogonally next to an empty corner-like square",
    },
    WeightSpec {
        name: "VariantEdges",
        default: 20,
        min: -1000,
        max: 1000,
        help: "discs on edge-like squares (three of four lines closed on one side)",
    },
    WeightSpec {
        name: "VariantStability",
        default: 80,
        min: -1000,
        max: 1000,
        help: "discs proven stable from the corner-like squares outwards",
    },
    WeightSpec {
        name: "VariantParity",
        default: 40,
        min: -1000,
        max: 1000,
        help: "+1 when the number of empty squares is odd (the side to move would get the last move), else -1",
    },
    WeightSpec {
        name: "VariantDiscs",
        default: 0,
        min: -1000,
        max: 1000,
        help: "discs of the side to move minus the opponent's (the plain disc-count evaluation)",
    },
];

/// Why a weight could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightError {
    /// No weight has this name.
    UnknownName(String),
    /// The value is outside the weight's range.
    OutOfRange {
        /// The weight.
        name: &'static str,
        /// The value given.
        value: i32,
        /// The smallest value accepted.
        min: i32,
        /// The largest value accepted.
        max: i32,
    },
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightError::UnknownName(name) => write!(f, "no variant weight is named '{name}'"),
            WeightError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{name} must be {min} to {max}, got {value}"),
        }
    }
}

impl std::error::Error for WeightError {}

/// The evaluation's weights, one per feature (see [`WEIGHT_SPECS`] for names and meanings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// `VariantMobility`.
    pub mobility: i32,
    /// `VariantPotentialMobility`.
    pub potential_mobility: i32,
    /// `VariantCorners`.
    pub corners: i32,
    /// `VariantXSquares`.
    pub x_squares: i32,
    /// `VariantCSquares`.
    pub c_squares: i32,
    /// `VariantEdges`.
    pub edges: i32,
    /// `VariantStability`.
    pub stability: i32,
    /// `VariantParity`.
    pub parity: i32,
    /// `VariantDiscs`.
    pub discs: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        let d = |i: usize| WEIGHT_SPECS[i].default;
        Weights {
            mobility: d(0),
            potential_mobility: d(1),
            corners: d(2),
            x_squares: d(3),
            c_squares: d(4),
            edges: d(5),
            stability: d(6),
            parity: d(7),
            discs: d(8),
        }
    }
}

impl Weights {
    /// The plain disc-count evaluation (every weight 0 but `VariantDiscs`), the baseline that the
    /// default weights must beat.
    pub fn disc_count() -> Weights {
        Weights {
            mobility: 0,
            potential_mobility: 0,
            corners: 0,
            x_squares: 0,
            c_squares: 0,
            edges: 0,
            stability: 0,
            parity: 0,
            discs: 100,
        }
    }

    /// The weights in the order of [`WEIGHT_SPECS`].
    pub fn values(&self) -> [i32; 9] {
        [
            self.mobility,
            self.potential_mobility,
            self.corners,
            self.x_squares,
            self.c_squares,
            self.edges,
            self.stability,
            self.parity,
            self.discs,
        ]
    }

    fn slot(&mut self, i: usize) -> &mut i32 {
        match i {
            0 => &mut self.mobility,
            1 => &mut self.potential_mobility,
            2 => &mut self.corners,
            3 => &mut self.x_squares,
            4 => &mut self.c_squares,
            5 => &mut self.edges,
            6 => &mut self.stability,
            7 => &mut self.parity,
            _ => &mut self.discs,
        }
    }

    /// Every weight with its name and current value, in the order of [`WEIGHT_SPECS`].
    pub fn list(&self) -> Vec<(&'static str, i32)> {
        WEIGHT_SPECS
            .iter()
            .zip(self.values())
            .map(|(spec, v)| (spec.name, v))
            .collect()
    }

    /// The value of the weight called `name` (case-insensitive), if there is one.
    pub fn get(&self, name: &str) -> Option<i32> {
        let i = index_of(name)?;
        Some(self.values()[i])
    }

    /// Sets the weight called `name` (case-insensitive) to `value`; errors on an unknown name or a
    /// value outside the weight's range.
    pub fn set_weight(&mut self, name: &str, value: i32) -> Result<(), WeightError> {
        let i = index_of(name).ok_or_else(|| WeightError::UnknownName(name.to_string()))?;
        let spec = WEIGHT_SPECS[i];
        if value < spec.min || value > spec.max {
            return Err(WeightError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        *self.slot(i) = value;
        Ok(())
    }
}

/// The index in [`WEIGHT_SPECS`] of the weight called `name` (case-insensitive).
fn index_of(name: &str) -> Option<usize> {
    WEIGHT_SPECS
        .iter()
        .position(|s| s.name.eq_ignore_ascii_case(name))
}

/// What the evaluation needs to know about a layout, found once from its playable squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The playable squares the rest was computed from.
    pub playable: Bits,
    /// Squares that can never be flipped once taken: every line through them is closed on one side.
    pub corners: Bits,
    /// Edge-like squares: not corner-like, and exactly 3 of the 4 lines closed on one side.
    pub edges: Bits,
    /// Squares diagonally next to a corner-like square (not corner-like themselves).
    pub x_zone: Bits,
    /// Squares orthogonally next to a corner-like square (neither corner-like nor in `x_zone`).
    pub c_zone: Bits,
    /// Per line (east-west, north-south, the two diagonals): the squares closed on that line, one
    /// of their two neighbours on it being blocked or off the board.
    pub closed: [Bits; 4],
}

impl Layout {
    /// Reads a layout from its playable squares.
    pub fn new(playable: Bits) -> Layout {
        // A square's neighbour in direction D is playable exactly when the square is in
        // `playable.step::<-D>()` (the playable set moved one step back).
        let open = |a: Bits, b: Bits| playable & a & b;
        let closed = [
            playable & !open(playable.step::<-1>(), playable.step::<1>()),
            playable & !open(playable.step::<-16>(), playable.step::<16>()),
            playable & !open(playable.step::<-17>(), playable.step::<17>()),
            playable & !open(playable.step::<-15>(), playable.step::<15>()),
        ];
        let corners = closed[0] & closed[1] & closed[2] & closed[3];
        let mut edges = Bits::EMPTY;
        for sq in playable & !corners {
            if closed.iter().filter(|c| c.contains(sq)).count() == 3 {
                edges |= Bits::square(sq);
            }
        }
        let x_zone = diagonal_neighbours(corners) & playable & !corners;
        let c_zone = orthogonal_neighbours(corners) & playable & !corners & !x_zone;
        Layout {
            playable,
            corners,
            edges,
            x_zone,
            c_zone,
            closed,
        }
    }

    /// A bonus for trying square `index` early in move ordering: corner-like squares first, squares
    /// next to them last, edges a little early.
    pub fn order_bonus(&self, index: usize) -> i32 {
        if self.corners.contains(index) {
            400
        } else if self.x_zone.contains(index) {
            -300
        } else if self.c_zone.contains(index) {
            -100
        } else if self.edges.contains(index) {
            50
        } else {
            0
        }
    }
}

/// Squares diagonally next to a square of `set`.
fn diagonal_neighbours(set: Bits) -> Bits {
    set.step::<17>() | set.step::<-17>() | set.step::<15>() | set.step::<-15>()
}

/// Squares orthogonally next to a square of `set`.
fn orthogonal_neighbours(set: Bits) -> Bits {
    set.step::<1>() | set.step::<-1>() | set.step::<16>() | set.step::<-16>()
}

/// The discs of `discs` that can never be flipped, as far as this estimate sees: those on
/// corner-like squares, then, repeatedly, discs whose every line is closed on one side or has a
/// stable disc of the same colour next to it on one side (a line that flanked such a disc would
/// have to flip that stable neighbour too).
pub fn stable_discs(discs: Bits, layout: &Layout) -> Bits {
    let mut stable = discs & layout.corners;
    if stable.is_empty() {
        return stable;
    }
    loop {
        let ew = layout.closed[0] | stable.step::<1>() | stable.step::<-1>();
        let ns = layout.closed[1] | stable.step::<16>() | stable.step::<-16>();
        let d1 = layout.closed[2] | stable.step::<17>() | stable.step::<-17>();
        let d2 = layout.closed[3] | stable.step::<15>() | stable.step::<-15>();
        let next = stable | (discs & ew & ns & d1 & d2);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The value of a position for the side to move (discs `p`) against `o`, whose legal-move counts
/// are `p_moves` and `o_moves` (the search has them already). Not for finished games.
pub fn evaluate(p: Bits, o: Bits, p_moves: u32, o_moves: u32, layout: &Layout, w: &Weights) -> i32 {
    let empty = layout.playable & !(p | o);
    let diff = |a: Bits, b: Bits| a.count() as i32 - b.count() as i32;
    let mut value = w.mobility * (p_moves as i32 - o_moves as i32);
    if w.potential_mobility != 0 {
        value += w.potential_mobility * diff(o.neighbours() & empty, p.neighbours() & empty);
    }
    value += w.corners * diff(p & layout.corners, o & layout.corners);
    let open_corners = layout.corners & empty;
    if !open_corners.is_empty() {
        let x = diagonal_neighbours(open_corners) & layout.x_zone;
        let c = orthogonal_neighbours(open_corners) & layout.c_zone;
        value += w.x_squares * diff(p & x, o & x);
        value += w.c_squares * diff(p & c, o & c);
    }
    value += w.edges * diff(p & layout.edges, o & layout.edges);
    if w.stability != 0 {
        value += w.stability * diff(stable_discs(p, layout), stable_discs(o, layout));
    }
    value += if empty.count() % 2 == 1 {
        w.parity
    } else {
        -w.parity
    };
    value + w.discs * diff(p, o)
}

/// [`evaluate`] computing the move counts itself.
pub fn evaluate_position(p: Bits, o: Bits, layout: &Layout, w: &Weights) -> i32 {
    let empty = layout.playable & !(p | o);
    let pm = moves(p, o, empty).count();
    let om = moves(o, p, empty).count();
    evaluate(p, o, pm, om, layout, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::board::{Board, Square};

    fn corners10() -> Board {
        let b = [(0, 0), (0, 9), (9, 0), (9, 9)].map(|(r, c)| Square::new(r, c));
        Board::start(10, 10, &b).unwrap()
    }

    #[test]
    fn corner_like_squares_come_from_the_layout() {
        let open = Layout::new(Board::start(8, 8, &[]).unwrap().playable());
        let idx = |r: usize, c: usize| r * 16 + c;
        let found: Vec<usize> = open.corners.iter().collect();
        assert_eq!(found, vec![idx(0, 0), idx(0, 7), idx(7, 0), idx(7, 7)]);
        assert!(open.x_zone.contains(idx(1, 1)) && open.c_zone.contains(idx(0, 1)));
        assert_eq!(open.edges.count(), 24);
        // With the corners of a 10 x 10 board blocked, the squares beside them take their role.
        let blocked = Layout::new(corners10().playable());
        for (r, c) in [(0, 1), (1, 0), (0, 8), (8, 9), (9, 8)] {
            assert!(blocked.corners.contains(idx(r, c)), "({r}, {c})");
        }
        assert_eq!(blocked.corners.count(), 8);
        assert!(!blocked.corners.contains(idx(0, 2)));
    }

    #[test]
    fn weights_are_set_by_name_and_checked() {
        let mut w = Weights::default();
        assert_eq!(w.get("VariantMobility"), Some(40));
        w.set_weight("variantmobility", 7).unwrap();
        assert_eq!(w.mobility, 7);
        assert!(matches!(
            w.set_weight("VariantCorners", 99_999),
            Err(WeightError::OutOfRange { .. })
        ));
        assert_eq!(
            w.set_weight("Nope", 1),
            Err(WeightError::UnknownName("Nope".into()))
        );
        assert_eq!(w.list().len(), WEIGHT_SPECS.len());
        assert_eq!(w.list()[0], ("VariantMobility", 7));
    }

    #[test]
    fn stable_discs_grow_from_corners() {
        // A full top row of white on an open 4 x 4 board is stable; a lone centre disc is not.
        let b = Board::parse_printed("W W W W\n. R W .\n. W R .\n. . . .").unwrap();
        let layout = Layout::new(b.playable());
        let white = b.discs(crate::variant::board::Side::First);
        let stable = stable_discs(white, &layout);
        assert_eq!(stable.count(), 4);
        let b = corners10();
        let layout = Layout::new(b.playable());
        assert!(stable_discs(b.player_discs(), &layout).is_empty());
    }

    #[test]
    fn the_start_is_balanced() {
        let b = corners10();
        let layout = Layout::new(b.playable());
        let w = Weights::default();
        let v = evaluate_position(b.player_discs(), b.opponent_discs(), &layout, &w);
        let v2 = evaluate_position(b.opponent_discs(), b.player_discs(), &layout, &w);
        // Symmetric position: only parity tells the sides apart.
        assert_eq!(v, v2);
    }
}
