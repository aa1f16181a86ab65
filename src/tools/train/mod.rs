//! Training the pattern evaluation (a folder: `datagen` plays and labels games, `label` labels a
//! given list of positions, `samples` reads them back, this file fits the weights): `wedge datagen`
//! plays self-play games from openings and writes labelled positions; `wedge train` fits the
//! pattern weights to them by least squares.
//!
//! Labels: each game is played by a depth-limited search (with bounded noise for variety) until the
//! endgame is small enough to solve, then solved exactly; the solved positions are labelled with their
//! exact result, the earlier ones with that result too (the outcome of the game) or, with a label
//! depth, with a deep search of their own (from their side to move's point of view). An empties range
//! keeps only some positions (e.g. a test set at 30-40 empties). With siblings, every position after
//! each legal move of the solved positions is written too, labelled by its own exact solve: data on
//! ranking a position's moves, which is what the endgame solver's ordering asks of the evaluation.
//! Data format: one position a line,
//! `<64 squares> <side> <label>`, and a `# game <n>` line after each game, which lets an interrupted
//! run resume without repeating games (docs/training.md).

mod datafile;
mod datagen;
mod label;
mod merge;
mod net;
mod positions;
mod samples;
mod tempo;

pub use datafile::*;
pub use datagen::*;
pub use label::*;
pub use merge::*;
pub use net::*;
pub use positions::*;
pub use samples::*;
pub use tempo::*;

use crate::board::Board;
use crate::eval::pattern::{self, PatternWeights, Phasing, PHASES, SCALE};
use crate::rng::Rng;
use std::cell::Cell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};

/// How to fit.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Passes over the data.
    pub epochs: usize,
    /// Adagrad base step size.
    pub learning_rate: f32,
    /// L2 pull towards the starting weights (0, or `init`): keeps rare configurations near them.
    pub lambda: f32,
    /// L2 pull of each weight towards the same weight of the neighbouring sets (the anchors or
    /// steps either side), applied at each step that touches the weight: a narrow phase's
    /// weights then lean on what its neighbours learnt instead of on its own few positions
    /// alone (a weight its own positions never reach keeps its starting value). 0: no pull.
    pub smooth: f32,
    /// Seed for shuffling and the held-out split.
    pub seed: u64,
    /// Fit one value per group of mirror-image configurations ([`pattern::tied_indices`]).
    pub tie_symmetric: bool,
    /// Weights to start from (continued training) instead of zeros, and that the regularisation
    /// pulls towards: a phase without training positions keeps them unchanged.
    pub init: Option<PatternWeights>,
    /// How the fitted weight sets cover the empties counts.
    pub phasing: Phasing,
    /// Threads that fit at once, sharing the weights without locks; 1 gives the same weights
    /// on every run, more give about as good ones (not bit for bit) in less time.
    pub threads: usize,
}

/// Mean absolute errors per phase (discs) and sample counts.
#[derive(Clone, Debug, Default)]
pub struct PhaseErrors {
    /// Mean absolute error per phase.
    pub mae: [f64; PHASES],
    /// Samples per phase.
    pub count: [usize; PHASES],
}

impl PhaseErrors {
    /// Errors of `predict` on `samples`.
    pub fn measure(samples: &[Sample], predict: impl Fn(Board) -> f64) -> PhaseErrors {
        let mut e = PhaseErrors::default();
        for s in samples {
            let ph = pattern::phase(s.board.empty_count());
            e.mae[ph] += (predict(s.board) - f64::from(s.label)).abs();
            e.count[ph] += 1;
        }
        for ph in 0..PHASES {
            if e.count[ph] > 0 {
                e.mae[ph] /= e.count[ph] as f64;
            }
        }
        e
    }

    /// The mean over all samples.
    pub fn overall(&self) -> f64 {
        let n: usize = self.count.iter().sum();
        if n == 0 {
            return 0.0;
        }
        (0..PHASES)
            .map(|p| self.mae[p] * self.count[p] as f64)
            .sum::<f64>()
            / n as f64
    }
}

/// Mean absolute errors (discs) by number of empty squares, and the mean signed errors (the bias);
/// or, made by [`EmptiesErrors::measure_pairs_by_score`], by the size of the label in whole discs
/// (0..=64), where the same ranges read as score bands.
#[derive(Clone, Debug)]
pub struct EmptiesErrors {
    sum: [f64; 65],
    signed: [f64; 65],
    count: [usize; 65],
}

impl EmptiesErrors {
    /// Errors of `predict` (discs) on `samples`.
    pub fn measure(samples: &[Sample], predict: impl Fn(Board) -> f64) -> EmptiesErrors {
        EmptiesErrors::measure_pairs(samples.iter().map(|s| (s, predict(s.board))))
    }

    /// Errors of predictions (discs) given with their samples.
    pub fn measure_pairs<'a>(pairs: impl IntoIterator<Item = (&'a Sample, f64)>) -> EmptiesErrors {
        EmptiesErrors::measure_keyed(pairs, |s| s.board.empty_count() as usize)
    }

    /// Errors of predictions given with their samples, by the size of the label (`|label|`
    /// rounded to whole discs): how an evaluation does on close, clear and lopsided positions.
    pub fn measure_pairs_by_score<'a>(
        pairs: impl IntoIterator<Item = (&'a Sample, f64)>,
    ) -> EmptiesErrors {
        EmptiesErrors::measure_keyed(pairs, |s| s.label.abs().round() as usize)
    }

    fn measure_keyed<'a>(
        pairs: impl IntoIterator<Item = (&'a Sample, f64)>,
        key: impl Fn(&Sample) -> usize,
    ) -> EmptiesErrors {
        let mut e = EmptiesErrors {
            sum: [0.0; 65],
            signed: [0.0; 65],
            count: [0; 65],
        };
        for (s, predicted) in pairs {
            let n = key(s).min(64);
            e.sum[n] += (predicted - f64::from(s.label)).abs();
            e.signed[n] += predicted - f64::from(s.label);
            e.count[n] += 1;
        }
        e
    }

    /// The indices of `lo..=hi` empty squares (empty when `lo > hi`).
    fn range(lo: u32, hi: u32) -> std::ops::RangeInclusive<usize> {
        let hi = hi.min(64) as usize;
        (lo as usize).min(hi + 1)..=hi
    }

    /// Samples with `lo..=hi` empty squares.
    pub fn count(&self, lo: u32, hi: u32) -> usize {
        self.count[EmptiesErrors::range(lo, hi)].iter().sum()
    }

    /// The mean absolute error over samples with `lo..=hi` empty squares (`None` if there are none).
    pub fn mae(&self, lo: u32, hi: u32) -> Option<f64> {
        self.mean(&self.sum, lo, hi)
    }

    /// The mean signed error (prediction less label, side to move) over samples with `lo..=hi`
    /// empty squares (`None` if there are none): positive where the predictions are too high.
    pub fn bias(&self, lo: u32, hi: u32) -> Option<f64> {
        self.mean(&self.signed, lo, hi)
    }

    /// `totals` (one of the sums by empties count) over samples with `lo..=hi` empty squares, per
    /// sample (`None` if there are none).
    fn mean(&self, totals: &[f64; 65], lo: u32, hi: u32) -> Option<f64> {
        let n = self.count(lo, hi);
        let sum: f64 = totals[EmptiesErrors::range(lo, hi)].iter().sum();
        (n > 0).then(|| sum / n as f64)
    }
}

/// Splits samples into (training, held-out) with about `held_out_per_mille`/1000 of the games held
/// out, whole: the positions of one game are alike and share their outcome, so a split by position
/// would let the training side see most of each held-out game and flatter the held-out error.
/// Positions that also occur in a held-out game (say, from a common opening) leave the training
/// side.
pub fn split(samples: Vec<Sample>, held_out_per_mille: u64) -> (Vec<Sample>, Vec<Sample>) {
    let (training, held_out): (Vec<Sample>, Vec<Sample>) = samples
        .into_iter()
        .partition(|s| (s.game >> 32) % 1000 >= held_out_per_mille);
    let seen: HashSet<Board> = held_out.iter().map(|s| s.board.canonical().0).collect();
    let training = training
        .into_iter()
        .filter(|s| !seen.contains(&s.board.canonical().0))
        .collect();
    (training, held_out)
}

/// A weight (or its accumulated squared gradient) as the fitting loop reads and writes it:
/// [`Cell`] for one thread, [`AtomicF32`] for threads sharing the weights without locks.
trait WeightCell {
    fn new(x: f32) -> Self;
    fn get(&self) -> f32;
    fn set(&self, x: f32);
}

impl WeightCell for Cell<f32> {
    fn new(x: f32) -> Self {
        Cell::new(x)
    }
    fn get(&self) -> f32 {
        Cell::get(self)
    }
    fn set(&self, x: f32) {
        Cell::set(self, x)
    }
}

/// An f32 in an atomic cell, read and written with relaxed loads and stores (plain moves on x86
/// and ARM). Threads share the weights this way without locks (Hogwild): two threads may update
/// one weight at once, and one of the two steps is then lost. A position touches 48 of some
/// 167,000 weights a set, so that is rare except for mobility and bias, whose steps are small and
/// many; the fit comes out about as good, not bit for bit the same from run to run.
struct AtomicF32(AtomicU32);

impl WeightCell for AtomicF32 {
    fn new(x: f32) -> Self {
        AtomicF32(AtomicU32::new(x.to_bits()))
    }
    fn get(&self) -> f32 {
        f32::from_bits(self.0.load(Ordering::Relaxed))
    }
    fn set(&self, x: f32) {
        self.0.store(x.to_bits(), Ordering::Relaxed)
    }
}

fn cells<C: WeightCell>(w: &[Vec<f32>]) -> Vec<Vec<C>> {
    w.iter()
        .map(|ph| ph.iter().map(|&x| C::new(x)).collect())
        .collect()
}

/// `sets` vectors of `n` zeros.
fn w0(n: usize, sets: usize) -> Vec<Vec<f32>> {
    vec![vec![0.0; n]; sets]
}

fn values<C: WeightCell>(w: &[Vec<C>]) -> Vec<Vec<f32>> {
    w.iter().map(|ph| ph.iter().map(C::get).collect()).collect()
}

/// What a pass of the fit reads: the positions' features, the weights regularisation pulls
/// towards, and the step sizes.
struct Fit<'a> {
    /// Per position: lower and upper weight set, blend, mobility, label.
    prepared: &'a [(usize, usize, f32, i32, f32)],
    /// Per position, its `PLACEMENTS` weight indices.
    indices: &'a [u32],
    prior: &'a [Vec<f32>],
    lr: f32,
    lambda: f32,
    smooth: f32,
}

impl Fit<'_> {
    /// One pass over the positions `part` names, an Adagrad step after each; the sum of the
    /// absolute errors before the steps.
    fn pass<C: WeightCell>(&self, w: &[Vec<C>], g2: &[Vec<C>], part: &[usize]) -> f64 {
        const K: usize = pattern::PLACEMENTS;
        let n = self.prior.first().map_or(0, Vec::len);
        // One Adagrad step of weight `i` of set `ph` along gradient `g` (before regularisation):
        // each weight's step shrinks with its own accumulated gradient, so frequent
        // configurations settle while rare ones still move.
        let step = |ph: usize, i: usize, g: f32| {
            let (wi, gi) = (&w[ph][i], &g2[ph][i]);
            let x = wi.get();
            let mut g = g + self.lambda * (x - self.prior[ph][i]);
            if self.smooth > 0.0 {
                // The gradient of smooth / 2 * (x - neighbour)^2 for each neighbouring set.
                for nb in [ph.wrapping_sub(1), ph + 1] {
                    if let Some(v) = w.get(nb) {
                        g += self.smooth * (x - v[i].get());
                    }
                }
            }
            let acc = gi.get() + g * g;
            gi.set(acc);
            wi.set(x - self.lr * g / (acc + 1e-6).sqrt());
        };
        let mut abs_sum = 0f64;
        for &k in part {
            let (lo, hi, t, mob, label) = self.prepared[k];
            let idx = &self.indices[k * K..k * K + K];
            let value = |wp: &[C]| {
                idx.iter().map(|&i| wp[i as usize].get()).sum::<f32>()
                    + mob as f32 * wp[n - 2].get()
                    + wp[n - 1].get()
            };
            let pred = if t == 0.0 {
                value(&w[lo])
            } else {
                (1.0 - t) * value(&w[lo]) + t * value(&w[hi])
            };
            let err = pred - label;
            abs_sum += f64::from(err.abs());
            for (ph, share) in [(lo, 1.0 - t), (hi, t)] {
                if share == 0.0 {
                    continue;
                }
                let e = err * share;
                for &i in idx {
                    step(ph, i as usize, e);
                }
                step(ph, n - 2, e * mob as f32);
                step(ph, n - 1, e);
            }
        }
        abs_sum
    }
}

/// Fits the weights by stochastic gradient descent (Adagrad steps) on the squared error. A position
/// between two linear anchors ([`Phasing::Linear`]) is predicted by their blend, and each anchor's
/// weights take the gradient in proportion to its share.
pub fn train(
    samples: &[Sample],
    options: &TrainOptions,
    mut progress: impl FnMut(usize, f64),
) -> PatternWeights {
    let n = pattern::per_phase();
    let sets = options.phasing.sets();
    let mut w = w0(n, sets);
    // Features are computed once.
    let canon: Vec<u32> = if options.tie_symmetric {
        pattern::tied_indices()
    } else {
        (0..n as u32).collect()
    };
    if let Some(init) = &options.init {
        // Each set starts from the starting weights' values where it is centred (the same sets
        // when the phasings agree). A group takes its representative's value (the members are
        // equal in tied weights).
        for (k, wp) in w.iter_mut().enumerate() {
            let blend = if init.phasing == options.phasing && init.phases.len() == sets {
                crate::eval::phasing::Blend {
                    lo: k,
                    hi: k,
                    num: 0,
                    den: 1,
                }
            } else {
                init.blend(set_centre(options.phasing, k))
            };
            for (i, &c) in canon.iter().enumerate().rev() {
                wp[c as usize] = init.mixed(blend, i) as f32 / SCALE as f32;
            }
        }
    }
    // The regularisation pulls towards the starting weights (zeros without `init`).
    let prior = w.clone();
    const K: usize = pattern::PLACEMENTS;
    let mut indices = Vec::with_capacity(samples.len() * K);
    let prepared: Vec<(usize, usize, f32, i32, f32)> = samples
        .iter()
        .map(|s| {
            let before = indices.len();
            let (empties, mob) = pattern::features(s.board, |i| indices.push(canon[i]));
            debug_assert_eq!(indices.len() - before, K);
            let b = options.phasing.blend(empties, sets);
            (b.lo, b.hi, b.num as f32 / b.den as f32, mob, s.label)
        })
        .collect();
    let mut order: Vec<usize> = (0..prepared.len()).collect();
    let mut rng = Rng::new(options.seed);
    let fit = Fit {
        prepared: &prepared,
        indices: &indices,
        prior: &prior,
        lr: options.learning_rate,
        lambda: options.lambda,
        smooth: options.smooth,
    };
    let threads = options.threads.max(1);
    let mut epochs = |pass: &dyn Fn(&[usize]) -> f64| {
        for epoch in 0..options.epochs {
            rng.shuffle(&mut order);
            let abs_sum = pass(&order);
            progress(epoch + 1, abs_sum / prepared.len().max(1) as f64);
        }
    };
    let w: Vec<Vec<f32>> = if threads == 1 {
        let (w, g2) = (cells::<Cell<f32>>(&w), cells::<Cell<f32>>(&w0(n, sets)));
        epochs(&|order| fit.pass(&w, &g2, order));
        values(&w)
    } else {
        let (w, g2) = (cells::<AtomicF32>(&w), cells::<AtomicF32>(&w0(n, sets)));
        epochs(&|order| {
            let chunk = order.len().div_ceil(threads).max(1);
            std::thread::scope(|scope| {
                let handles: Vec<_> = order
                    .chunks(chunk)
                    .map(|part| scope.spawn(|| fit.pass(&w, &g2, part)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .sum::<f64>()
            })
        });
        values(&w)
    };
    PatternWeights {
        phasing: options.phasing,
        phases: w
            .into_iter()
            .map(|ph| {
                // Every weight takes its group's fitted value.
                canon
                    .iter()
                    .map(|&c| {
                        (ph[c as usize] * SCALE as f32)
                            .round()
                            .clamp(-32000.0, 32000.0) as i16
                    })
                    .collect()
            })
            .collect(),
    }
}

/// The empties count that set `k` of `phasing` stands for: an anchor's own count, a step's middle.
fn set_centre(phasing: Phasing, k: usize) -> u32 {
    let e = match phasing {
        Phasing::Steps { width } => k as u32 * width + width / 2,
        Phasing::Linear { spacing } => k as u32 * spacing,
    };
    e.min(60)
}

/// Whether a comment line of a text data file is the marker that closes a game (`# game N`, or
/// `# game` alone), and the game's number when it gives one; `# gameplay ...` is no marker.
pub(crate) fn game_marker(comment: &str) -> Option<Option<u64>> {
    let rest = comment.strip_prefix("# game")?;
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
        return None;
    }
    Some(rest.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Position};

    #[test]
    fn a_game_marker_is_the_word_game_not_a_prefix() {
        assert_eq!(game_marker("# game 12"), Some(Some(12)));
        assert_eq!(game_marker("# game"), Some(None));
        assert_eq!(game_marker("# game\t7 "), Some(Some(7)));
        assert_eq!(game_marker("# gameplay note"), None);
        assert_eq!(game_marker("# a comment"), None);
    }

    /// A board after `plies` random moves from the start (fewer if a side cannot move).
    pub(super) fn random_board(rng: &mut Rng, plies: u64) -> Board {
        let mut b = Board::START;
        for _ in 0..plies {
            match crate::game::players::random_move(&b, rng) {
                Some(m) => b = b.play_move(m).unwrap_or(b),
                None => break,
            }
        }
        b
    }

    /// Positions with their disc difference as the label (which the shapes together can express).
    fn disc_difference_samples() -> Vec<Sample> {
        let mut rng = Rng::new(9);
        let mut samples = Vec::new();
        while samples.len() < 3000 {
            let plies = 10 + rng.below(40);
            let b = random_board(&mut rng, plies);
            if !b.is_game_over() {
                samples.push(Sample {
                    board: b,
                    label: (b.disc_difference() as f32).clamp(-64.0, 64.0),
                    game: samples.len() as u64,
                });
            }
        }
        samples
    }

    fn fit_disc_difference(samples: &[Sample], threads: usize) -> PatternWeights {
        fit_with(samples, threads, pattern::FIRST_PHASING, 0.0)
    }

    fn fit_with(
        samples: &[Sample],
        threads: usize,
        phasing: Phasing,
        smooth: f32,
    ) -> PatternWeights {
        train(
            samples,
            &TrainOptions {
                epochs: 10,
                learning_rate: 0.5,
                lambda: 0.0,
                smooth,
                seed: 1,
                tie_symmetric: true,
                init: None,
                phasing,
                threads,
            },
            |_, _| {},
        )
    }

    #[test]
    fn smoothing_pulls_neighbouring_phases_together_and_still_fits() {
        let samples = disc_difference_samples();
        let phasing = Phasing::Linear { spacing: 2 };
        // Mean |difference| between the same weight of neighbouring sets, over the weights the
        // data moved in either.
        let roughness = |w: &PatternWeights| {
            let (mut sum, mut n) = (0f64, 0usize);
            for pair in w.phases.windows(2) {
                for (a, b) in pair[0].iter().zip(&pair[1]) {
                    if *a != 0 || *b != 0 {
                        sum += f64::from((i32::from(*a) - i32::from(*b)).abs());
                        n += 1;
                    }
                }
            }
            sum / n.max(1) as f64
        };
        let error = |w: &PatternWeights| {
            PhaseErrors::measure(&samples, |b| f64::from(w.evaluate(b)) / 100.0).overall()
        };
        let plain = fit_with(&samples, 1, phasing, 0.0);
        let smooth = fit_with(&samples, 1, phasing, 1.0);
        let (rp, rs) = (roughness(&plain), roughness(&smooth));
        assert!(rs < 0.8 * rp, "roughness {rp:.1} plain, {rs:.1} smoothed");
        // Closer neighbours, not weights shrunk towards zero (which would also be smoother).
        let size = |w: &PatternWeights| {
            let v: Vec<f64> = w
                .phases
                .iter()
                .flatten()
                .filter(|&&x| x != 0)
                .map(|&x| f64::from(x).abs())
                .collect();
            v.iter().sum::<f64>() / v.len().max(1) as f64
        };
        let (sp, ss) = (size(&plain), size(&smooth));
        assert!(
            ss > 0.8 * sp,
            "mean |weight| {sp:.1} plain, {ss:.1} smoothed"
        );
        let before = PhaseErrors::measure(&samples, |_| 0.0).overall();
        assert!(
            error(&smooth) < before / 3.0,
            "{before:.2} -> {:.2}",
            error(&smooth)
        );
    }

    #[test]
    fn training_fits_a_learnable_target() {
        let samples = disc_difference_samples();
        let before = PhaseErrors::measure(&samples, |_| 0.0).overall();
        let w = fit_disc_difference(&samples, 1);
        let after = PhaseErrors::measure(&samples, |b| f64::from(w.evaluate(b)) / 100.0).overall();
        assert!(after < before / 3.0, "before {before:.2}, after {after:.2}");
    }

    #[test]
    fn threads_sharing_the_weights_fit_as_well_as_one() {
        let samples = disc_difference_samples();
        let error = |w: &PatternWeights| {
            PhaseErrors::measure(&samples, |b| f64::from(w.evaluate(b)) / 100.0).overall()
        };
        let one = error(&fit_disc_difference(&samples, 1));
        for threads in [2, 4] {
            let many = error(&fit_disc_difference(&samples, threads));
            assert!(
                (many - one).abs() < 0.1 * one + 0.05,
                "{threads} threads: {many:.3} discs, one thread {one:.3}"
            );
        }
    }

    #[test]
    fn continued_training_keeps_phases_without_data_and_moves_the_others() {
        let Some(init) = crate::eval::built_in_patterns() else {
            panic!("the embedded weights must load");
        };
        // Positions with 10-19 empties only, labelled with a value the shipped weights do not
        // predict: only the phases that cover 10-19 empties may move.
        let mut rng = Rng::new(5);
        let mut samples = Vec::new();
        while samples.len() < 500 {
            let plies = 41 + rng.below(10);
            let b = random_board(&mut rng, plies);
            if !b.is_game_over() && pattern::phase(b.empty_count()) == 1 {
                samples.push(Sample {
                    board: b,
                    label: 30.0,
                    game: samples.len() as u64,
                });
            }
        }
        let w = train(
            &samples,
            &TrainOptions {
                epochs: 3,
                learning_rate: 0.3,
                lambda: 0.0,
                smooth: 0.0,
                seed: 1,
                tie_symmetric: true,
                init: Some((*init).clone()),
                phasing: init.phasing,
                threads: 1,
            },
            |_, _| {},
        );
        let covering: HashSet<usize> = (10..20)
            .flat_map(|e| {
                let b = init.blend(e);
                [b.lo, b.hi]
            })
            .collect();
        for ph in 0..init.phases.len() {
            if covering.contains(&ph) {
                continue;
            }
            assert!(w.phases[ph] == init.phases[ph], "phase {ph} changed");
        }
        assert!(covering.iter().any(|&ph| w.phases[ph] != init.phases[ph]));
        let err = |weights: &PatternWeights| {
            PhaseErrors::measure(&samples, |b| f64::from(weights.evaluate(b)) / 100.0).mae[1]
        };
        assert!(err(&w) < err(&init) / 2.0, "{} vs {}", err(&w), err(&init));
    }

    #[test]
    fn held_out_split_keeps_games_whole() {
        // 200 games of 5 positions, each game its own random line; the start position opens all.
        let mut rng = Rng::new(11);
        let mut text = String::new();
        for g in 0..200 {
            let mut b = Board::START;
            text.push_str(&format!(
                "{} 0\n",
                Position {
                    board: b,
                    side: Color::Black
                }
            ));
            for _ in 0..4 {
                let Some(m) = crate::game::players::random_move(&b, &mut rng) else {
                    break;
                };
                b = b.play_move(m).unwrap_or(b);
                text.push_str(&format!(
                    "{} {}\n",
                    Position {
                        board: b,
                        side: Color::Black
                    },
                    g % 64
                ));
            }
            text.push_str(&format!("# game {g}\n"));
        }
        // Game ids (and so the split) come from the file's name: a fixed name, in a folder of
        // this process's own, gives the same split on every run.
        let dir = std::env::temp_dir().join(format!("wedge-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.txt");
        std::fs::write(&path, text).unwrap();
        let samples = read_samples(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        // Positions of one game share an id, and no two games do.
        assert_eq!(samples.len(), 1000);
        let ids: HashSet<u64> = samples.chunks(5).map(|game| game[0].game).collect();
        assert_eq!(ids.len(), 200);
        for game in samples.chunks(5) {
            assert!(game.iter().all(|s| s.game == game[0].game));
        }
        let (training, held_out) = split(samples, 100);
        assert!(!held_out.is_empty() && training.len() > held_out.len());
        let held_games: HashSet<u64> = held_out.iter().map(|s| s.game).collect();
        let held_boards: HashSet<Board> = held_out.iter().map(|s| s.board.canonical().0).collect();
        for s in &training {
            assert!(!held_games.contains(&s.game));
            assert!(!held_boards.contains(&s.board.canonical().0));
        }
    }
}
