//! How the pattern evaluation's weight sets cover the game: which set (or which two, blended) a
//! position with a given number of empty squares is evaluated with.
//!
//! Two layouts:
//! - [`Phasing::Steps`]: sets of `width` empties each (set `e / width`, the last one open-ended),
//!   the layout of the first weight files (6 sets of 10 empties).
//! - [`Phasing::Linear`]: sets anchored every `spacing` empties (anchor `k` at `k * spacing`
//!   empties), a position in between evaluated with the two anchors around it, blended linearly.
//!   Every anchor learns from the positions of `2 * spacing - 1` empties counts, so fine spacing
//!   is not starved of data, and the evaluation changes smoothly from one empties count to the
//!   next instead of jumping at a phase border.
//!
//! The blend is the same integer arithmetic in the searches' tables and in the trainer's reference
//! reading ([`Phasing::mix`]), so the two agree exactly.

/// How weight sets cover the empties counts 0..=60.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phasing {
    /// Sets of `width` empties each; the last set also takes every count above it.
    Steps {
        /// Empties counts per set.
        width: u32,
    },
    /// Anchors every `spacing` empties, blended linearly in between.
    Linear {
        /// Empties counts between anchors.
        spacing: u32,
    },
}

/// Where a position's value comes from: `(1 - t) * set[lo] + t * set[hi]` with `t = num / den`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blend {
    /// The first set.
    pub lo: usize,
    /// The second set (`lo` itself in [`Phasing::Steps`]).
    pub hi: usize,
    /// Weight of `hi`, numerator.
    pub num: i32,
    /// Weight of `hi`, denominator (positive).
    pub den: i32,
}

impl Phasing {
    /// The number of weight sets that cover 0..=60 empties (in steps, 60 empties joins the last set).
    pub fn sets(self) -> usize {
        match self {
            Phasing::Steps { width } => 60_usize.div_ceil(width.max(1) as usize),
            Phasing::Linear { spacing } => 60_usize.div_ceil(spacing.max(1) as usize) + 1,
        }
    }

    /// The sets a position with `empties` empty squares is evaluated with, for a layout of `sets`
    /// sets (a file may hold fewer than [`Phasing::sets`]: the last one then takes the rest).
    #[inline]
    pub fn blend(self, empties: u32, sets: usize) -> Blend {
        let last = sets.max(1) - 1;
        match self {
            Phasing::Steps { width } => {
                let k = (empties / width.max(1)) as usize;
                let k = k.min(last);
                Blend {
                    lo: k,
                    hi: k,
                    num: 0,
                    den: 1,
                }
            }
            Phasing::Linear { spacing } => {
                let s = spacing.max(1);
                let k = ((empties / s) as usize).min(last.saturating_sub(1));
                let r = (empties as i32 - (k as u32 * s) as i32).clamp(0, s as i32);
                Blend {
                    lo: k,
                    hi: (k + 1).min(last),
                    num: r,
                    den: s as i32,
                }
            }
        }
    }

    /// The blended integer weight of `a` (set `lo`) and `b` (set `hi`), rounded to nearest.
    #[inline]
    pub fn mix(blend: Blend, a: i32, b: i32) -> i32 {
        let x = a * (blend.den - blend.num) + b * blend.num;
        (2 * x + blend.den).div_euclid(2 * blend.den)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_match_the_first_files_phases() {
        let p = Phasing::Steps { width: 10 };
        assert_eq!(p.sets(), 6);
        for e in 0..=60 {
            let b = p.blend(e, p.sets());
            assert_eq!(b.lo, (e as usize / 10).min(5));
            assert_eq!(b.hi, b.lo);
            assert_eq!(Phasing::mix(b, 17, -900), 17);
        }
    }

    #[test]
    fn linear_blends_between_neighbouring_anchors() {
        let p = Phasing::Linear { spacing: 4 };
        assert_eq!(p.sets(), 16);
        let sets = p.sets();
        // On an anchor: that anchor alone.
        let b = p.blend(8, sets);
        assert_eq!((b.lo, b.num), (2, 0));
        assert_eq!(Phasing::mix(b, 40, 80), 40);
        // A quarter of the way from anchor 2 (8 empties) to anchor 3 (12).
        let b = p.blend(9, sets);
        assert_eq!((b.lo, b.hi, b.num, b.den), (2, 3, 1, 4));
        assert_eq!(Phasing::mix(b, 40, 80), 50);
        assert_eq!(Phasing::mix(b, -40, -80), -50);
        // Rounding to nearest, halves upwards.
        assert_eq!(Phasing::mix(p.blend(10, sets), 1, 2), 2);
        assert_eq!(Phasing::mix(p.blend(10, sets), -1, -2), -1);
        // The top anchor is 60 empties.
        let b = p.blend(60, sets);
        assert_eq!((b.lo, b.hi, b.num), (14, 15, 4));
        assert_eq!(Phasing::mix(b, 3, 7), 7);
        // Every count lies between two anchors, blended by its distance to them.
        for e in 0..=60 {
            let b = p.blend(e, sets);
            assert!(b.hi == b.lo + 1 && b.hi < sets);
            assert_eq!(b.lo as u32 * 4 + b.num as u32, e);
        }
    }

    #[test]
    fn spacing_that_does_not_divide_sixty() {
        let p = Phasing::Linear { spacing: 7 };
        assert_eq!(p.sets(), 10); // anchors at 0, 7, ..., 63
        let b = p.blend(60, p.sets());
        assert_eq!((b.lo, b.hi, b.num, b.den), (8, 9, 4, 7));
    }
}
