//! Stable discs: discs that no sequence of moves can ever flip. The endgame solver uses them for a
//! cut-off (the opponent's stable discs bound the side to move's best final score).
//!
//! The test is conservative (it may miss some stable discs, never claims a flippable one): a disc is
//! stable when, on each of its 4 axes, the line through it is full, or one of its two neighbours on
//! that axis is off the board or a stable disc of the same colour. Starting from nothing and applying
//! the test until nothing changes finds corners, edge runs from corners, and discs locked by full lines.

const A_FILE: u64 = 0x0101_0101_0101_0101;
const H_FILE: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const BORDER: u64 = A_FILE | H_FILE | ROW_1 | ROW_8;

/// The 15 diagonals of each orientation, as masks.
static DIAGONALS: [[u64; 15]; 2] = build_diagonals();

const fn build_diagonals() -> [[u64; 15]; 2] {
    let mut d = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        // a1-h8 direction: c - r is constant; a8-h1 direction: c + r is constant.
        d[0][c + 7 - r] |= 1 << sq;
        d[1][c + r] |= 1 << sq;
        sq += 1;
    }
    d
}

/// The squares whose line is full along each axis: (horizontal, vertical, a1-h8 diagonal, a8-h1
/// diagonal).
#[inline]
fn full_lines(filled: u64) -> (u64, u64, u64, u64) {
    let mut h = 0;
    for r in 0..8 {
        let row = ROW_1 << (8 * r);
        if filled & row == row {
            h |= row;
        }
    }
    let mut cols = filled;
    cols &= cols >> 32;
    cols &= cols >> 16;
    cols &= cols >> 8;
    let v = (cols & 0xFF).wrapping_mul(A_FILE);
    let mut d9 = 0;
    let mut d7 = 0;
    for (&m9, &m7) in DIAGONALS[0].iter().zip(&DIAGONALS[1]) {
        if filled & m9 == m9 {
            d9 |= m9;
        }
        if filled & m7 == m7 {
            d7 |= m7;
        }
    }
    (h, v, d9, d7)
}

/// The stable discs of `own` (with `other` the other side's discs).
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let (h, v, d9, d7) = full_lines(own | other);
    let (h, v, d9, d7) = (
        h | BORDER & (A_FILE | H_FILE),
        v | ROW_1 | ROW_8,
        d9 | BORDER,
        d7 | BORDER,
    );
    let mut stable = 0u64;
    loop {
        let h_ok = h | ((stable << 1) & !A_FILE) | ((stable >> 1) & !H_FILE);
        let v_ok = v | (stable << 8) | (stable >> 8);
        let d9_ok = d9 | ((stable << 9) & !A_FILE) | ((stable >> 9) & !H_FILE);
        let d7_ok = d7 | ((stable << 7) & !H_FILE) | ((stable >> 7) & !A_FILE);
        let next = own & h_ok & v_ok & d9_ok & d7_ok;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_edge_runs_are_stable() {
        // a1, b1, c1 own; d1 empty: the run from the corner is stable, a lone f1 is not.
        let own = 0b0010_0111;
        assert_eq!(stable_discs(own, 0), 0b0000_0111);
        // Nothing on an empty board apart from corners.
        assert_eq!(stable_discs(1 << 27, 0), 0);
        assert_eq!(stable_discs(1 << 63, 0), 1 << 63);
    }

    #[test]
    fn full_board_is_all_stable() {
        let own = 0x0F0F_0F0F_F0F0_F0F0;
        assert_eq!(stable_discs(own, !own), own);
        assert_eq!(stable_discs(!own, own), !own);
    }

    #[test]
    fn diagonals_partition_the_board() {
        for diagonals in &DIAGONALS {
            let all = diagonals.iter().fold(0u64, |a, &m| {
                assert_eq!(a & m, 0);
                a | m
            });
            assert_eq!(all, !0);
        }
    }
}
