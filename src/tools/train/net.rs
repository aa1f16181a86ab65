//! Fitting the pattern network: the pattern evaluation's configurations, each mapped to a vector
//! of `hidden` numbers instead of one weight, summed over the 46 placements into an accumulator,
//! and read by a small head per weight set: a linear part (the accumulator times a vector: tables
//! of rank `hidden` shared by all phases) plus a part through clipped ReLUs, which lets regions of
//! the board weigh each other (an edge worth less when the diagonals are lost). The fit starts from
//! a linear pattern weights file: its anchors become the first channels, so the network starts as
//! that evaluation and can only move from it where the data says so.

use super::{AtomicF32, Sample, WeightCell};
use crate::board::Board;
use crate::eval::pattern::net::{self, NetWeights};
use crate::eval::pattern::{self, PatternWeights, Phasing, SCALE};
use crate::rng::Rng;

/// Most hidden channels.
pub const MAX_HIDDEN: usize = 64;

/// Scale of the channels taken from the starting tables: a channel holds the anchor's shape sum
/// divided by this, so that the clipped ReLU's range (0 to 1) covers a few discs of it.
const CHANNEL_SCALE: f32 = 16.0;

/// How to fit the network.
#[derive(Clone, Debug)]
pub struct NetOptions {
    /// Hidden channels (at least the starting weights' sets, at most [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// Adagrad step of the configuration vectors.
    pub learning_rate: f32,
    /// Adagrad step of the heads.
    pub head_rate: f32,
    /// Seed of the shuffles and the extra channels' starting values.
    pub seed: u64,
    /// Threads that fit at once (sharing the weights without locks).
    pub threads: usize,
}

/// A fitted network in floats.
#[derive(Clone, Debug)]
pub struct Net {
    /// Hidden channels.
    pub hidden: usize,
    /// The heads' phasing (that of the starting weights).
    pub phasing: Phasing,
    /// Heads (weight sets).
    pub sets: usize,
    /// Configuration vectors, `hidden` a configuration (rows of the tied configurations).
    pub embed: Vec<f32>,
    /// Per set: `hidden` linear weights, `hidden` weights of the clipped channels, mobility,
    /// bias.
    pub head: Vec<f32>,
    /// Maps every configuration to the row it shares.
    canon: Vec<u32>,
}

impl Net {
    fn stride(&self) -> usize {
        2 * self.hidden + 2
    }

    /// The value in discs for the side to move.
    pub fn evaluate(&self, board: Board) -> f32 {
        let h = self.hidden;
        let mut a = [0f32; MAX_HIDDEN];
        let (empties, mob) = pattern::features(board, |i| {
            let r = self.canon[i] as usize * h;
            for (x, &e) in a[..h].iter_mut().zip(&self.embed[r..r + h]) {
                *x += e;
            }
        });
        let b = self.phasing.blend(empties, self.sets);
        let t = b.num as f32 / b.den as f32;
        let y = |k: usize| {
            let hd = &self.head[k * self.stride()..(k + 1) * self.stride()];
            let mut y = hd[2 * h] * mob as f32 + hd[2 * h + 1];
            for j in 0..h {
                y += hd[j] * a[j] + hd[h + j] * a[j].clamp(0.0, 1.0);
            }
            y
        };
        (1.0 - t) * y(b.lo) + t * y(b.hi)
    }
}

impl Net {
    /// The network in integers, as its file holds it; `None` unless it has
    /// [`net::HIDDEN`] channels. Values beyond an i16 row or [`net::HEAD_LIMIT`] are cut (the
    /// count is returned).
    pub fn quantize(&self) -> Option<(NetWeights, usize)> {
        let h = self.hidden;
        if h != net::HIDDEN {
            return None;
        }
        let mut cut = 0;
        let rows = (0..self.canon.len() - 2)
            .map(|c| {
                let r = self.canon[c] as usize * h;
                let mut row = [0i16; net::HIDDEN];
                for (q, &x) in row.iter_mut().zip(&self.embed[r..r + h]) {
                    let v = (x * net::ACC_SCALE as f32).round();
                    if v.abs() > 32767.0 {
                        cut += 1;
                    }
                    *q = v.clamp(-32767.0, 32767.0) as i16;
                }
                row
            })
            .collect();
        let limit = net::HEAD_LIMIT as f32;
        let mut cut_heads = 0;
        let mut q = |x: f32| {
            let v = (x * net::HEAD_SCALE as f32).round();
            if v.abs() > limit {
                cut_heads += 1;
            }
            v.clamp(-limit, limit) as i32
        };
        let heads = self
            .head
            .chunks_exact(self.stride())
            .map(|w| {
                let mut head = net::Head {
                    linear: [0; net::HIDDEN],
                    clipped: [0; net::HIDDEN],
                    mobility: q(w[2 * h]),
                    bias: q(w[2 * h + 1]),
                };
                for j in 0..h {
                    head.linear[j] = q(w[j]);
                    head.clipped[j] = q(w[h + j]);
                }
                head
            })
            .collect();
        Some((
            NetWeights {
                phasing: self.phasing,
                rows,
                heads,
            },
            cut + cut_heads,
        ))
    }
}

/// Fits a network that starts as `init` (linear phasing, no more sets than `hidden`).
pub fn train_net(
    samples: &[Sample],
    init: &PatternWeights,
    options: &NetOptions,
    progress: impl FnMut(usize, f64, &Net),
) -> Net {
    let h = options.hidden.clamp(init.phases.len(), MAX_HIDDEN);
    let n = pattern::per_phase();
    let configs = n - 2;
    let sets = init.phases.len();
    let stride = 2 * h + 2;
    let mut rng = Rng::new(options.seed);
    let mut embed = vec![0f32; configs * h];
    for c in 0..configs {
        for j in 0..h {
            embed[c * h + j] = if j < sets {
                f32::from(init.phases[j][c]) / SCALE as f32 / CHANNEL_SCALE
            } else {
                (rng.below(2001) as f32 - 1000.0) * 2e-5
            };
        }
    }
    let mut head = vec![0f32; sets * stride];
    for k in 0..sets {
        head[k * stride + k] = CHANNEL_SCALE;
        head[k * stride + 2 * h] = f32::from(init.phases[k][n - 2]) / SCALE as f32;
        head[k * stride + 2 * h + 1] = f32::from(init.phases[k][n - 1]) / SCALE as f32;
    }
    let net = Net {
        hidden: h,
        phasing: init.phasing,
        sets,
        embed,
        head,
        canon: pattern::tied_indices(),
    };
    fit_net(net, rng, samples, options, progress)
}

/// Fits on from a network's file: its rows and heads are the start, in floats (mirror-image
/// configurations share a row, as in every file the fit writes). A side-to-move term in its biases
/// is fitted like the rest of them.
pub fn train_net_from(
    samples: &[Sample],
    start: &NetWeights,
    options: &NetOptions,
    progress: impl FnMut(usize, f64, &Net),
) -> Net {
    let h = net::HIDDEN;
    let canon = pattern::tied_indices();
    let mut embed = vec![0f32; (canon.len() - 2) * h];
    for (c, row) in start.rows.iter().enumerate() {
        let r = canon[c] as usize * h;
        for (x, &v) in embed[r..r + h].iter_mut().zip(row) {
            *x = f32::from(v) / net::ACC_SCALE as f32;
        }
    }
    let scale = net::HEAD_SCALE as f32;
    let head = start
        .heads
        .iter()
        .flat_map(|k| k.words().map(|w| w as f32 / scale).collect::<Vec<_>>())
        .collect();
    let net = Net {
        hidden: h,
        phasing: start.phasing,
        sets: start.heads.len(),
        embed,
        head,
        canon,
    };
    fit_net(net, Rng::new(options.seed), samples, options, progress)
}

/// The passes of Adagrad over `samples` from `net`, shuffled by `rng`.
fn fit_net(
    mut net: Net,
    mut rng: Rng,
    samples: &[Sample],
    options: &NetOptions,
    mut progress: impl FnMut(usize, f64, &Net),
) -> Net {
    let (h, sets) = (net.hidden, net.sets);
    let configs = net.canon.len() - 2;
    const K: usize = pattern::PLACEMENTS;
    let mut indices: Vec<u32> = Vec::with_capacity(samples.len() * K);
    let prepared: Vec<(usize, usize, f32, i32, f32)> = samples
        .iter()
        .map(|s| {
            let (empties, mob) = pattern::features(s.board, |i| indices.push(net.canon[i]));
            let b = net.phasing.blend(empties, sets);
            (b.lo, b.hi, b.num as f32 / b.den as f32, mob, s.label)
        })
        .collect();
    let fit = NetFit {
        h,
        prepared: &prepared,
        indices: &indices,
        lr: options.learning_rate,
        head_lr: options.head_rate,
    };
    let mut order: Vec<usize> = (0..prepared.len()).collect();
    let threads = options.threads.max(1);
    let (e, hd) = (
        net.embed
            .iter()
            .map(|&x| AtomicF32::new(x))
            .collect::<Vec<_>>(),
        net.head
            .iter()
            .map(|&x| AtomicF32::new(x))
            .collect::<Vec<_>>(),
    );
    let (ge, gh) = (
        (0..configs * h)
            .map(|_| AtomicF32::new(0.0))
            .collect::<Vec<_>>(),
        (0..net.head.len())
            .map(|_| AtomicF32::new(0.0))
            .collect::<Vec<_>>(),
    );
    for epoch in 0..options.epochs {
        rng.shuffle(&mut order);
        let chunk = order.len().div_ceil(threads).max(1);
        let abs_sum: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = order
                .chunks(chunk)
                .map(|part| scope.spawn(|| fit.pass(&e, &hd, &ge, &gh, part)))
                .collect();
            handles
                .into_iter()
                .map(|t| t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .sum()
        });
        net.embed = e.iter().map(WeightCell::get).collect();
        net.head = hd.iter().map(WeightCell::get).collect();
        progress(epoch + 1, abs_sum / prepared.len().max(1) as f64, &net);
    }
    net
}

struct NetFit<'a> {
    h: usize,
    prepared: &'a [(usize, usize, f32, i32, f32)],
    indices: &'a [u32],
    lr: f32,
    head_lr: f32,
}

impl NetFit<'_> {
    fn pass<C: WeightCell>(&self, e: &[C], hd: &[C], ge: &[C], gh: &[C], part: &[usize]) -> f64 {
        const K: usize = pattern::PLACEMENTS;
        let h = self.h;
        let stride = 2 * h + 2;
        let mut abs_sum = 0f64;
        let mut a = [0f32; MAX_HIDDEN];
        let mut ga = [0f32; MAX_HIDDEN];
        for &k in part {
            let (lo, hi, t, mob, label) = self.prepared[k];
            let idx = &self.indices[k * K..k * K + K];
            a[..h].fill(0.0);
            for &i in idx {
                let r = i as usize * h;
                for (x, c) in a[..h].iter_mut().zip(&e[r..r + h]) {
                    *x += c.get();
                }
            }
            let y = |k: usize| {
                let w = &hd[k * stride..(k + 1) * stride];
                let mut y = w[2 * h].get() * mob as f32 + w[2 * h + 1].get();
                for j in 0..h {
                    y += w[j].get() * a[j] + w[h + j].get() * a[j].clamp(0.0, 1.0);
                }
                y
            };
            let pred = if t == 0.0 {
                y(lo)
            } else {
                (1.0 - t) * y(lo) + t * y(hi)
            };
            let err = pred - label;
            abs_sum += f64::from(err.abs());
            ga[..h].fill(0.0);
            for (set, share) in [(lo, 1.0 - t), (hi, t)] {
                if share == 0.0 {
                    continue;
                }
                let s = err * share;
                let base = set * stride;
                let step = |i: usize, g: f32| {
                    let acc = gh[i].get() + g * g;
                    gh[i].set(acc);
                    hd[i].set(hd[i].get() - self.head_lr * g / (acc + 1e-6).sqrt());
                };
                for j in 0..h {
                    let live = a[j] > 0.0 && a[j] < 1.0;
                    ga[j] +=
                        s * (hd[base + j].get() + if live { hd[base + h + j].get() } else { 0.0 });
                    step(base + j, s * a[j]);
                    step(base + h + j, s * a[j].clamp(0.0, 1.0));
                }
                step(base + 2 * h, s * mob as f32);
                step(base + 2 * h + 1, s);
            }
            for &i in idx {
                let r = i as usize * h;
                for ((c, g2), &g) in e[r..r + h].iter().zip(&ge[r..r + h]).zip(&ga[..h]) {
                    let acc = g2.get() + g * g;
                    g2.set(acc);
                    c.set(c.get() - self.lr * g / (acc + 1e-6).sqrt());
                }
            }
        }
        abs_sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of random games, labelled by a function the tables cannot express exactly
    /// (the disc difference, cut, times the corner count's sign).
    fn samples(n: usize) -> Vec<Sample> {
        let mut rng = Rng::new(4);
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Board::START;
            for ply in 0..60 {
                let Some(m) = crate::game::players::random_move(&b, &mut rng) else {
                    break;
                };
                b = b.play_move(m).unwrap_or(b);
                if ply >= 10 && ply % 3 == 0 {
                    let corners = 0x8100_0000_0000_0081u64;
                    let c = (b.player() & corners).count_ones() as f32
                        - (b.opponent() & corners).count_ones() as f32;
                    let d = b.player().count_ones() as f32 - b.opponent().count_ones() as f32;
                    out.push(Sample {
                        board: b,
                        label: (d.clamp(-8.0, 8.0) * c.signum() + 3.0 * c).clamp(-64.0, 64.0),
                        game: out.len() as u64,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_network_starts_as_the_tables_and_fits_what_they_cannot() {
        let data = samples(6000);
        let init = crate::eval::built_in_patterns().expect("built-in weights");
        let options = NetOptions {
            hidden: net::HIDDEN,
            epochs: 1,
            learning_rate: 1e-12,
            head_rate: 1e-12,
            seed: 1,
            threads: 1,
        };
        // With steps too small to move it, the network is the tables: in floats and in integers.
        let still = train_net(&data, &init, &options, |_, _, _| {});
        let (ints, cut) = still.quantize().expect("16 channels");
        assert_eq!(cut, 0);
        // At an anchor's own empties count (no blend) the values agree to the tables' rounding of
        // the sum to a centidisc and the network's of its weights; between anchors the tables
        // round each blended weight to 1/32 disc (half-way cases upwards), a few tenths in all.
        let mut anchors = 0;
        for s in &data {
            let tables = f64::from(init.evaluate(s.board)) / 100.0;
            let f = (f64::from(still.evaluate(s.board)) - tables).abs();
            let i = (f64::from(ints.evaluate(s.board)) / 100.0 - tables).abs();
            if s.board.empty_count() % 8 == 0 {
                assert!(f < 0.02 && i < 0.03, "{f} {i}");
                anchors += 1;
            } else {
                assert!(f < 0.8 && i < 0.8, "{f} {i}");
            }
        }
        assert!(anchors > 100);
        // Fitted, the training error falls pass after pass.
        let mut errors = Vec::new();
        let options = NetOptions {
            epochs: 4,
            learning_rate: 0.05,
            head_rate: 0.01,
            ..options
        };
        let fitted = train_net(&data, &init, &options, |_, mae, _| errors.push(mae));
        assert!(errors.windows(2).all(|w| w[1] < w[0]), "{errors:?}");
        assert!(errors[3] < 0.8 * errors[0], "{errors:?}");

        // Going on from the fitted network's file: with steps too small to move it, it is that
        // file again, word for word; with steps, it fits closer than where it started.
        let (file, _) = fitted.quantize().expect("16 channels");
        let tiny = NetOptions {
            epochs: 1,
            learning_rate: 1e-12,
            head_rate: 1e-12,
            ..options.clone()
        };
        let again = train_net_from(&data, &file, &tiny, |_, _, _| {});
        assert_eq!(again.quantize().expect("16 channels").0, file);
        let mae = |n: &Net| {
            data.iter()
                .map(|s| (n.evaluate(s.board) - s.label).abs() as f64)
                .sum::<f64>()
                / data.len() as f64
        };
        let more = train_net_from(&data, &file, &options, |_, _, _| {});
        assert!(mae(&more) < mae(&again), "{} {}", mae(&more), mae(&again));
    }
}
