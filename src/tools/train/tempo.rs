//! The side-to-move term: how far 1-ply values lie from static ones at each empties count (the
//! parity offset, the odd/even swing of iterative deepening), and the bias that cancels it, for
//! tables and networks alike.

use super::Sample;
use crate::board::Board;
use crate::eval::pattern::{PatternWeights, Phasing, SCALE};

/// The evaluation's parity offset at each empties count 0..=60: the mean over `samples` of the
/// 1-ply search value minus the static value (discs, side to move), and the positions measured.
/// Positive: a search whose last ply the side to move chooses scores higher than one whose last
/// ply the opponent chooses, the odd/even swing of iterative deepening.
pub fn parity_offsets(evaluate: impl Fn(Board) -> i32, samples: &[Sample]) -> Vec<(f64, usize)> {
    let mut sum = vec![(0f64, 0usize); 61];
    for s in samples {
        let b = s.board;
        let mut moves = b.legal_moves().0;
        if moves == 0 {
            continue;
        }
        let mut best = i32::MIN;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            if let Some(child) = crate::board::Square::new(sq).and_then(|q| b.play(q)) {
                best = best.max(-evaluate(child));
            }
        }
        let e = (b.empty_count() as usize).min(60);
        sum[e].0 += f64::from(best - evaluate(b)) / 100.0;
        sum[e].1 += 1;
    }
    sum.into_iter()
        .map(|(x, n)| (if n > 0 { x / n as f64 } else { 0.0 }, n))
        .collect()
}

/// Adds a side-to-move term to `weights`: `scale` times half the parity offset
/// ([`parity_offsets`]) to the bias of each phase, averaged over the empties counts the phase
/// covers (weighted by positions and by the phase's share in each count's blend). The leaves of a
/// fixed-depth search all have the same side to move, so the term moves every leaf of one search
/// alike and changes no choice; what it changes is that searches of consecutive depths, and the
/// shallow and deep searches that Multi-ProbCut compares, agree. A `scale` of 1 cancels the offset
/// between 1-ply and static values; a search's deeper plies add a little more of the same sign
/// (each side's choice is a maximum over noisy values), which a `scale` somewhat above 1 takes out
/// too. Returns the term of each phase (discs).
pub fn add_tempo(weights: &mut PatternWeights, offsets: &[(f64, usize)], scale: f64) -> Vec<f64> {
    let terms = tempo_terms(weights.phasing, weights.phases.len(), offsets, scale);
    for (ph, tempo) in weights.phases.iter_mut().zip(&terms) {
        if let Some(bias) = ph.last_mut() {
            *bias = (f64::from(*bias) + tempo * f64::from(SCALE))
                .round()
                .clamp(-32000.0, 32000.0) as i16;
        }
    }
    terms
}

/// The side-to-move term of each of `sets` weight sets of `phasing` ([`add_tempo`]), in discs.
pub fn tempo_terms(
    phasing: Phasing,
    sets: usize,
    offsets: &[(f64, usize)],
    scale: f64,
) -> Vec<f64> {
    let mut acc = vec![(0f64, 0f64); sets];
    for (e, &(off, n)) in offsets.iter().enumerate() {
        let b = phasing.blend(e as u32, sets);
        let t = b.num as f64 / b.den as f64;
        for (k, share) in [(b.lo, 1.0 - t), (b.hi, t)] {
            if share > 0.0 && k < sets {
                acc[k].0 += share * n as f64 * off * scale / 2.0;
                acc[k].1 += share * n as f64;
            }
        }
    }
    // A phase without measured positions (the ends of the game the data does not reach) takes
    // the term of the nearest phase that has them.
    let measured: Vec<usize> = (0..sets).filter(|&k| acc[k].1 > 0.0).collect();
    (0..sets)
        .map(|k| {
            measured
                .iter()
                .min_by_key(|&&m| m.abs_diff(k))
                .map_or(0.0, |&m| acc[m].0 / acc[m].1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn the_side_to_move_term_cancels_the_parity_offset() {
        // The shipped weights on random-play positions: 1-ply values exceed static ones on
        // average; with the term added, the offset falls to a fraction of itself.
        let Some(init) = crate::eval::built_in_patterns() else {
            panic!("the embedded weights must load");
        };
        let mut rng = Rng::new(8);
        let mut samples = Vec::new();
        while samples.len() < 3000 {
            let plies = 8 + rng.below(40);
            let b = super::super::tests::random_board(&mut rng, plies);
            if !b.is_game_over() {
                samples.push(Sample {
                    board: b,
                    label: 0.0,
                    game: 0,
                });
            }
        }
        let mean = |o: &[(f64, usize)]| {
            let n: usize = o.iter().map(|x| x.1).sum();
            o.iter().map(|&(x, k)| x * k as f64).sum::<f64>() / n as f64
        };
        let mut w = (*init).clone();
        let mut twice = (*init).clone();
        let offsets = parity_offsets(|b| w.evaluate(b), &samples);
        let before = mean(&offsets);
        let terms = add_tempo(&mut w, &offsets, 1.0);
        let after = mean(&parity_offsets(|b| w.evaluate(b), &samples));
        assert!(before > 1.0, "offset {before:.2}");
        assert!(after.abs() < before / 4.0, "{before:.2} -> {after:.2}");
        assert_eq!(terms.len(), w.phases.len());
        assert!(terms.iter().all(|&t| t > 0.0), "{terms:?}");
        // Twice the term moves the offset twice as far (the bias shifts static values up and
        // 1-ply values down alike, up to the weights' rounding).
        let doubled = add_tempo(&mut twice, &offsets, 2.0);
        for (d, t) in doubled.iter().zip(&terms) {
            assert!((d - 2.0 * t).abs() < 1e-9, "{d} vs 2 x {t}");
        }
        let overshot = mean(&parity_offsets(|b| twice.evaluate(b), &samples));
        let expected = before + 2.0 * (after - before);
        assert!(
            (overshot - expected).abs() < 0.1,
            "{before:.2} -> {after:.2}, twice: {overshot:.2}"
        );
    }
}
