//! The edge table: every one of the 3^8 = 6,561 configurations of an edge (own / opponent / empty on
//! each of its 8 squares) with its value.
//!
//! The features of each configuration (corners, C-squares by corner state, A- and B-squares, discs that
//! can never flip along the edge) are computed once, lazily, with `once_cell`. The weighted table is a
//! dot product of those features with the named weights, so rebuilding it after a `setoption` costs a
//! few microseconds. Lookup: the 8 bits of an edge for each side are turned into a base-3 index with
//! two 256-entry tables and one addition.

use super::weights::{id, Weights};
use once_cell::sync::Lazy;

/// Number of edge configurations.
pub const CONFIGS: usize = 6561;

/// Base-3 value of each 8-bit mask: bit `i` set contributes 3^i.
static BASE3: Lazy<[u16; 256]> = Lazy::new(|| {
    let mut t = [0u16; 256];
    for (mask, v) in t.iter_mut().enumerate() {
        let mut pow = 1u16;
        for i in 0..8 {
            if mask >> i & 1 == 1 {
                *v += pow;
            }
            pow *= 3;
        }
    }
    t
});

/// The index of an edge from the 8-bit masks of own and opponent discs along it (disjoint).
#[inline]
pub fn index(own: u8, opp: u8) -> usize {
    let t = &*BASE3;
    t[own as usize] as usize + 2 * t[opp as usize] as usize
}

/// Cell states of configuration `idx`: 0 empty, 1 own, 2 opponent, for cells 0..8.
fn cells(mut idx: usize) -> [u8; 8] {
    let mut c = [0u8; 8];
    for cell in c.iter_mut() {
        *cell = (idx % 3) as u8;
        idx /= 3;
    }
    c
}

/// Features of one configuration, each as own minus opponent.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct EdgeFeatures {
    /// Corners (cells 0 and 7).
    pub corners: i8,
    /// C-squares (cells 1 and 6) whose corner is empty.
    pub c_empty: i8,
    /// C-squares whose corner is occupied.
    pub c_taken: i8,
    /// A-squares (cells 2 and 5).
    pub a: i8,
    /// B-squares (cells 3 and 4).
    pub b: i8,
    /// Non-corner discs that no sequence of moves can flip along the edge.
    pub stable: i8,
}

/// Bit `i` set: cell `i` can be flipped along the edge by some sequence of future moves (any empty
/// cell may later be filled by either side, since a disc can reach an edge through other lines).
fn ever_flippable(idx: usize, memo: &mut [Option<u8>]) -> u8 {
    if let Some(v) = memo[idx] {
        return v;
    }
    let c = cells(idx);
    let mut result = 0u8;
    for e in 0..8 {
        if c[e] != 0 {
            continue;
        }
        for colour in [1u8, 2u8] {
            let other = 3 - colour;
            let mut next = c;
            next[e] = colour;
            // Flip along the line in both directions where bracketed.
            for dir in [-1i32, 1] {
                let mut j = e as i32 + dir;
                let mut run = 0u8;
                while (0..8).contains(&j) && c[j as usize] == other {
                    run |= 1 << j;
                    j += dir;
                }
                if (0..8).contains(&j) && c[j as usize] == colour && run != 0 {
                    for (k, cell) in next.iter_mut().enumerate() {
                        if run >> k & 1 == 1 {
                            *cell = colour;
                        }
                    }
                    result |= run;
                }
            }
            let next_idx = next
                .iter()
                .rev()
                .fold(0usize, |acc, &s| acc * 3 + s as usize);
            result |= ever_flippable(next_idx, memo);
        }
    }
    memo[idx] = Some(result);
    result
}

/// The features of every configuration, computed once.
pub static FEATURES: Lazy<Vec<EdgeFeatures>> = Lazy::new(|| {
    let mut memo = vec![None; CONFIGS];
    (0..CONFIGS)
        .map(|idx| {
            let c = cells(idx);
            let flippable = ever_flippable(idx, &mut memo);
            let sign = |s: u8| match s {
                1 => 1i8,
                2 => -1,
                _ => 0,
            };
            let mut f = EdgeFeatures {
                corners: sign(c[0]) + sign(c[7]),
                a: sign(c[2]) + sign(c[5]),
                b: sign(c[3]) + sign(c[4]),
                ..EdgeFeatures::default()
            };
            for (cs, corner) in [(1, 0), (6, 7)] {
                if c[corner] == 0 {
                    f.c_empty += sign(c[cs]);
                } else {
                    f.c_taken += sign(c[cs]);
                }
            }
            for (i, &s) in c.iter().enumerate().take(7).skip(1) {
                if flippable >> i & 1 == 0 {
                    f.stable += sign(s);
                }
            }
            f
        })
        .collect()
});

/// The weighted edge table for both phases.
#[derive(Clone)]
pub struct EdgeTable {
    /// Value of each configuration in the midgame, centidiscs (32-bit: weights up to 10,000 times
    /// six stable discs do not fit in 16).
    pub mid: Vec<i32>,
    /// Value of each configuration in the endgame, centidiscs.
    pub end: Vec<i32>,
}

impl EdgeTable {
    /// Builds the table from the weights (a dot product per configuration).
    pub fn new(w: &Weights) -> EdgeTable {
        let mut mid = Vec::with_capacity(CONFIGS);
        let mut end = Vec::with_capacity(CONFIGS);
        let common = |f: &EdgeFeatures| {
            i32::from(f.c_taken) * w.get(id::C_TAKEN)
                + i32::from(f.a) * w.get(id::A_SQUARE)
                + i32::from(f.b) * w.get(id::B_SQUARE)
        };
        for f in FEATURES.iter() {
            let m = i32::from(f.corners) * w.get(id::CORNER_MID)
                + i32::from(f.c_empty) * w.get(id::C_EMPTY_MID)
                + i32::from(f.stable) * w.get(id::EDGE_STABLE_MID)
                + common(f);
            let e = i32::from(f.corners) * w.get(id::CORNER_END)
                + i32::from(f.c_empty) * w.get(id::C_EMPTY_END)
                + i32::from(f.stable) * w.get(id::EDGE_STABLE_END)
                + common(f);
            mid.push(m);
            end.push(e);
        }
        EdgeTable { mid, end }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_covers_all_configurations_once() {
        let mut seen = vec![false; CONFIGS];
        for own in 0..256usize {
            for opp in 0..256usize {
                if own & opp != 0 {
                    continue;
                }
                let i = index(own as u8, opp as u8);
                assert!(!seen[i]);
                seen[i] = true;
                let c = cells(i);
                for (k, &cell) in c.iter().enumerate() {
                    let expect = if own >> k & 1 == 1 {
                        1
                    } else if opp >> k & 1 == 1 {
                        2
                    } else {
                        0
                    };
                    assert_eq!(cell, expect);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn edge_stability() {
        // Own corner and the two discs next to it: stable. Opponent run from the other corner too.
        let f = FEATURES[index(0b0000_0111, 0b1100_0000)];
        assert_eq!(f.stable, 2 - 1);
        // A lone disc in the middle of an empty edge can be flipped.
        assert_eq!(FEATURES[index(0b0001_0000, 0)].stable, 0);
        // A full edge: every disc is stable.
        assert_eq!(FEATURES[index(0b0101_0101, 0b1010_1010)].stable, 0);
        assert_eq!(FEATURES[index(0b0111_1111, 0b1000_0000)].stable, 6);
        // Symmetry: own and opponent swapped negates every feature.
        for own in [0b0000_0111u8, 0b0010_0100, 0b1000_0001] {
            let a = FEATURES[index(own, 0)];
            let b = FEATURES[index(0, own)];
            assert_eq!(
                (a.corners, a.stable, a.c_empty),
                (-b.corners, -b.stable, -b.c_empty)
            );
        }
    }

    #[test]
    fn c_squares_depend_on_the_corner() {
        let f = FEATURES[index(0b0000_0010, 0)];
        assert_eq!((f.c_empty, f.c_taken), (1, 0));
        let f = FEATURES[index(0b0000_0010, 0b0000_0001)];
        assert_eq!((f.c_empty, f.c_taken), (0, 1));
    }
}
