//! The selectivity levels shared by the midgame search's and the endgame solver's Multi-ProbCut:
//! how many standard deviations of a shallow search's error a prediction must clear the window by
//! for a node to be cut off, and the confidence each level stands for.

/// Cut thresholds of the selectivity levels, in standard deviations of the shallow search's error:
/// the normal distribution's central 73%, 87%, 95%, 98% and 99%. The endgame solver's selective
/// passes use these.
pub const MPC_T: [f64; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];
/// The midgame search's thresholds: [`MPC_T`]'s, except that its most selective level cuts at
/// 0.9 standard deviations instead of 1.1, which measured better in self-play (docs/search.md,
/// "What it buys and what it costs": +25.9 +- 20.4 Elo at 100 ms a move, SPRT H1; 300 games at
/// 1 s, +117 =82 -101).
pub const MIDGAME_T: [f64; 5] = {
    let mut t = MPC_T;
    t[0] = 0.9;
    t
};
/// The confidence of each level, in percent.
pub const MPC_CONFIDENCE: [u8; 5] = [73, 87, 95, 98, 99];
/// The level that cuts nothing (a full-width search).
pub const FULL_WIDTH: u8 = MPC_T.len() as u8;

/// The confidence of `level`, percent (100 for [`FULL_WIDTH`]).
pub fn percent(level: u8) -> u8 {
    MPC_CONFIDENCE.get(level as usize).copied().unwrap_or(100)
}

/// The engine's default confidence, percent (the `Selectivity` option).
pub const DEFAULT_PERCENT: u8 = 73;

/// The level of [`DEFAULT_PERCENT`].
pub fn default_level() -> u8 {
    level_for_percent(DEFAULT_PERCENT)
}

/// The level for a confidence of `percent`: the most selective level at least that sure (73, 87,
/// 95, 98, 99), [`FULL_WIDTH`] above 99.
pub fn level_for_percent(percent: u8) -> u8 {
    MPC_CONFIDENCE
        .iter()
        .position(|&c| c >= percent)
        .map_or(FULL_WIDTH, |i| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_midgame_levels_grow_surer_like_the_solvers() {
        for t in [MPC_T, MIDGAME_T] {
            assert!(t.windows(2).all(|w| w[0] < w[1]), "{t:?}");
        }
    }

    #[test]
    fn percentages_map_to_the_level_at_least_that_sure() {
        assert_eq!(level_for_percent(87), 1);
        assert_eq!(level_for_percent(90), 2);
        assert_eq!(level_for_percent(100), FULL_WIDTH);
        assert_eq!(level_for_percent(0), 0);
        assert_eq!(percent(FULL_WIDTH), 100);
        assert_eq!(percent(default_level()), DEFAULT_PERCENT);
    }
}
