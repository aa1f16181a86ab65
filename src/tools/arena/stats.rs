//! Match statistics: Elo difference with a 95% interval, likelihood of superiority, pentanomial pair
//! counts, and the sequential probability ratio test (SPRT) on paired games.
//!
//! Games are played in pairs (the same opening with colours swapped), so the pair, not the game, is
//! the independent sample: its score (0, 1/4, 1/2, 3/4 or 1 after dividing by 2) is what the variance
//! and the SPRT are computed from. This removes the opening's bias from the error estimate.

use std::fmt;

/// One game's result from engine A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A won.
    Win,
    /// A draw.
    Draw,
    /// A lost.
    Loss,
}

impl Outcome {
    /// The outcome of a game that A finished `a_discs` discs ahead (negative: behind).
    pub fn from_discs(a_discs: i32) -> Outcome {
        match a_discs.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    /// The game score: 1, 1/2 or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}

/// The running tally of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
    /// Sum of A's final disc differences.
    pub disc_sum: i64,
    /// Pair counts by pair score 0, 1/2, 1, 3/2, 2 (A's points in the two games of an opening).
    pub pentanomial: [u32; 5],
}

impl Tally {
    /// Adds one game.
    pub fn add_game(&mut self, outcome: Outcome, discs: i32) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
        self.disc_sum += i64::from(discs);
    }

    /// Adds a finished pair (both games of one opening).
    pub fn add_pair(&mut self, a: Outcome, b: Outcome) {
        let points = ((a.score() + b.score()) * 2.0).round() as usize;
        self.pentanomial[points.min(4)] += 1;
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Finished pairs (both games of an opening played).
    pub fn pairs(&self) -> u32 {
        self.pentanomial.iter().sum()
    }

    /// Games outside a finished pair: the lone game of an odd `--games`, or the first half of a pair
    /// whose second game was not played because the match stopped.
    pub fn unpaired_games(&self) -> u32 {
        self.games().saturating_sub(2 * self.pairs())
    }

    /// A's score fraction (0..1).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Average final disc difference for A.
    pub fn average_discs(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.disc_sum as f64 / f64::from(n)
        }
    }

    /// What the Elo estimate, its interval and the SPRT are computed from: finished pairs once there
    /// are two, else single games; `None` below two samples of either.
    pub fn basis(&self) -> Option<Basis> {
        if self.pairs() >= 2 {
            Some(Basis::Pairs(self.pairs()))
        } else if self.games() >= 2 {
            Some(Basis::Games(self.games()))
        } else {
            None
        }
    }

    /// Mean and variance of the sample scores (in 0..1) on [`Tally::basis`], and the sample count.
    fn sample_stats(&self) -> Option<(f64, f64, f64)> {
        if self.pairs() >= 2 {
            return Some(pair_stats(self.pentanomial.map(f64::from)));
        }
        let n = f64::from(self.games());
        if n < 2.0 {
            return None;
        }
        let mean = self.score();
        let var = (f64::from(self.wins) * (1.0 - mean).powi(2)
            + f64::from(self.draws) * (0.5 - mean).powi(2)
            + f64::from(self.losses) * mean.powi(2))
            / n;
        Some((mean, var, n))
    }

    /// The Elo difference as it should be shown: unknown below two samples, unbounded when every
    /// sample scored all or nothing (the logistic curve has no finite point there, and no spread to
    /// build an interval from), else the estimate with its 95% half-width.
    pub fn elo_estimate(&self) -> EloEstimate {
        match self.sample_stats() {
            None => EloEstimate::Unknown,
            Some((mean, _, _)) if mean >= 1.0 => EloEstimate::Unbounded {
                a_won: true,
                pairs: self.pairs() >= 2,
            },
            Some((mean, _, _)) if mean <= 0.0 => EloEstimate::Unbounded {
                a_won: false,
                pairs: self.pairs() >= 2,
            },
            // Every sample scored the same: an estimate, but no spread to build an interval from.
            Some((mean, var, _)) if var <= 0.0 => EloEstimate::NoSpread {
                elo: elo_from_score(mean),
            },
            Some((mean, var, n)) => {
                // An end of the interval past a perfect score has no Elo: that side is open.
                let se = (var / n).sqrt();
                let (lo, hi) = (mean - 1.959_964 * se, mean + 1.959_964 * se);
                if lo > 0.0 && hi < 1.0 {
                    let (elo, half_width) = self.elo();
                    EloEstimate::Finite { elo, half_width }
                } else {
                    EloEstimate::Open {
                        elo: elo_from_score(mean),
                        at_least: (lo > 0.0).then(|| elo_from_score(lo)),
                        at_most: (hi < 1.0).then(|| elo_from_score(hi)),
                    }
                }
            }
        }
    }

    /// Elo difference (A minus B) and the half-width of its 95% confidence interval, as numbers
    /// (a perfect score gives the clamped ±2400 and 0; [`Tally::elo_estimate`] says so instead).
    pub fn elo(&self) -> (f64, f64) {
        let Some((mean, var, n)) = self.sample_stats() else {
            return (0.0, f64::INFINITY);
        };
        let se = (var / n).sqrt();
        let lo = elo_from_score(mean - 1.959_964 * se);
        let hi = elo_from_score(mean + 1.959_964 * se);
        (elo_from_score(mean), (hi - lo) / 2.0)
    }

    /// Likelihood of superiority: the probability that A is stronger, from wins and losses.
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The SPRT log-likelihood ratio for H1 (Elo = `elo1`) against H0 (Elo = `elo0`) on the pair
    /// scores (generalised SPRT with the normal approximation).
    ///
    /// The pair counts carry a prior of [`SPRT_PRIOR_PAIRS`] in each of the five outcomes. Without
    /// it, a handful of alike pairs has a tiny sample variance and the ratio runs off: four pairs of
    /// one loss and one draw each (and one of two losses) gave -3.21 at elo1 = 20, past the bound of
    /// -2.94, after 8 games. The prior leaves the variance of a few pairs near that of an even
    /// match, and its weight (5 pairs) fades against the hundreds that decide a real test.
    ///
    /// Below two pairs (games of files without pair tags) it is the same test on the single
    /// games' win, draw and loss counts, as [`Tally::basis`] says, with a prior of the same weight
    /// (ten games, a third in each outcome), so a streak of unpaired games early in a match
    /// decides no more than the pairs would.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (mean, var, n) = if self.pairs() >= 2 {
            pair_stats(self.pentanomial.map(|c| f64::from(c) + SPRT_PRIOR_PAIRS))
        } else if self.games() >= 2 {
            let prior = 10.0 * SPRT_PRIOR_PAIRS / 3.0;
            let [l, d, w] = [self.losses, self.draws, self.wins].map(|c| f64::from(c) + prior);
            let n = l + d + w;
            let mean = (w + 0.5 * d) / n;
            let var = (w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)) / n;
            (mean, var, n)
        } else {
            return 0.0;
        };
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// Mean and variance of the pair scores (0, 1/4, .. 1 for 0 to 2 points) of pentanomial counts
/// (which may be fractional), and the number of pairs.
fn pair_stats(counts: [f64; 5]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().sum();
    let score = |i: usize| i as f64 / 4.0;
    let mean = (0..5).map(|i| score(i) * counts[i]).sum::<f64>() / n;
    let var = (0..5)
        .map(|i| (score(i) - mean).powi(2) * counts[i])
        .sum::<f64>()
        / n;
    (mean, var, n)
}

/// Pseudo-pairs added to each pentanomial count in the SPRT's ratio ([`Tally::llr`]).
pub const SPRT_PRIOR_PAIRS: f64 = 1.0;

/// The samples behind the Elo figures, with their count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Finished pairs (the normal case).
    Pairs(u32),
    /// Single games, while fewer than two pairs are finished.
    Games(u32),
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Basis::Pairs(n) => write!(f, "{n} pairs"),
            Basis::Games(n) => write!(f, "{n} games"),
        }
    }
}

/// The Elo difference of a tally, in the one form both the progress line and the report print.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloEstimate {
    /// Fewer than two samples.
    Unknown,
    /// Every sample was won by A (`a_won`) or every sample lost: no finite estimate.
    Unbounded {
        /// Whether A scored everything (else nothing).
        a_won: bool,
        /// Whether the samples are pairs (a game outside them may have gone the other way).
        pairs: bool,
    },
    /// Every sample scored the same (not all or nothing): an estimate with no interval.
    NoSpread {
        /// Elo difference, A minus B.
        elo: f64,
    },
    /// An estimate whose 95% interval reaches a perfect score on one side or both (few samples,
    /// nearly all one way): the ends that have an Elo.
    Open {
        /// Elo difference, A minus B.
        elo: f64,
        /// The lower end, where it is above a score of 0.
        at_least: Option<f64>,
        /// The upper end, where it is below a score of 1.
        at_most: Option<f64>,
    },
    /// An estimate and the half-width of its 95% interval.
    Finite {
        /// Elo difference, A minus B.
        elo: f64,
        /// Half-width of the 95% confidence interval.
        half_width: f64,
    },
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EloEstimate::Unknown => write!(f, "unknown (too few games)"),
            EloEstimate::Unbounded { a_won, pairs } => match (a_won, pairs) {
                (true, true) => write!(f, "unbounded (A won every pair)"),
                (false, true) => write!(f, "unbounded (B won every pair)"),
                (true, false) => write!(f, "unbounded (A scored every point)"),
                (false, false) => write!(f, "unbounded (A scored no point)"),
            },
            EloEstimate::Finite { elo, half_width } => {
                write!(f, "{:+.1} +/- {half_width:.1}", rounded(*elo))
            }
            EloEstimate::Open {
                elo,
                at_least,
                at_most,
            } => match (at_least, at_most) {
                (Some(lo), None) => write!(
                    f,
                    "{:+.1}, at least {:+.1} (95%; no upper bound)",
                    rounded(*elo),
                    rounded(*lo)
                ),
                (None, Some(hi)) => write!(
                    f,
                    "{:+.1}, at most {:+.1} (95%; no lower bound)",
                    rounded(*elo),
                    rounded(*hi)
                ),
                _ => write!(f, "{:+.1}, no 95% bound (too few games)", rounded(*elo)),
            },
            EloEstimate::NoSpread { elo } => write!(
                f,
                "{:+.1}, no interval (every sample scored the same)",
                rounded(*elo)
            ),
        }
    }
}

/// `elo` rounded to tenths, with 0.0 added so that a tiny negative estimate reads +0.0, not -0.0.
fn rounded(elo: f64) -> f64 {
    (elo * 10.0).round() / 10.0 + 0.0
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score (clamped away from 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    // As a sum of logarithms, an even score is +0.0, never the -0.0 a report would print.
    400.0 * (s.log10() - (1.0 - s).log10())
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    // The approximation is 1e-9 off at 0: an even match is exactly even.
    if x == 0.0 {
        return 0.0;
    }
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// The SPRT settings and its decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H1 accepted (A is better by about `elo1`).
    AcceptH1,
    /// H0 accepted.
    AcceptH0,
}

impl Sprt {
    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for the tally.
    pub fn state(&self, tally: &Tally) -> SprtState {
        let llr = tally.llr(self.elo0, self.elo1);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; missing keys take these defaults).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for item in text.split(|c: char| c.is_whitespace() || c == ',') {
            if item.is_empty() {
                continue;
            }
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(item.to_string()))?;
            // NaN or infinity would make every comparison below false and the test meaningless.
            let v: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| SprtError::NotANumber(v.to_string()))?;
            match k {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" if v > 0.0 && v < 0.5 => s.alpha = v,
                "beta" if v > 0.0 && v < 0.5 => s.beta = v,
                "alpha" | "beta" => return Err(SprtError::BadErrorRate(k.to_string())),
                _ => return Err(SprtError::UnknownKey(k.to_string())),
            }
        }
        if s.elo1 <= s.elo0 {
            return Err(SprtError::Elo1NotAbove);
        }
        Ok(s)
    }
}

/// Why an SPRT's description could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtError {
    /// An item is not `key=value`.
    NotKeyValue(String),
    /// A value is not a number.
    NotANumber(String),
    /// `alpha` or `beta` (named) is not in (0, 0.5).
    BadErrorRate(String),
    /// A key other than elo0, elo1, alpha, beta.
    UnknownKey(String),
    /// elo1 is not above elo0.
    Elo1NotAbove,
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::NotKeyValue(item) => write!(f, "--sprt: '{item}' is not key=value"),
            SprtError::NotANumber(v) => write!(f, "--sprt: '{v}' is not a number"),
            SprtError::BadErrorRate(k) => write!(f, "--sprt: {k} must be in (0, 0.5)"),
            SprtError::UnknownKey(k) => {
                write!(f, "--sprt: unknown key '{k}' (elo0, elo1, alpha, beta)")
            }
            SprtError::Elo1NotAbove => f.write_str("--sprt: elo1 must be above elo0"),
        }
    }
}

impl std::error::Error for SprtError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_conversions() {
        // An even score is exactly +0 (a report prints no "-0.0"), its LOS exactly one half.
        assert_eq!(elo_from_score(0.5).to_bits(), 0f64.to_bits());
        let even = Tally {
            wins: 1,
            losses: 1,
            ..Tally::default()
        };
        assert_eq!(even.los(), 0.5);
        // 3/4 score: -400 log10(1/3) = 190.85.
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((score_from_elo(190.848) - 0.75).abs() < 1e-5);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 1e-6);
    }

    #[test]
    fn tally_by_hand() {
        let mut t = Tally::default();
        // Pairs: (W, W) (W, L) (D, L): 6 games, 3 wins, 1 draw, 2 losses.
        for (a, b) in [
            (Outcome::Win, Outcome::Win),
            (Outcome::Win, Outcome::Loss),
            (Outcome::Draw, Outcome::Loss),
        ] {
            t.add_game(a, 10);
            t.add_game(b, -4);
            t.add_pair(a, b);
        }
        assert_eq!((t.wins, t.draws, t.losses), (3, 1, 2));
        assert_eq!(t.pentanomial, [0, 1, 1, 0, 1]);
        assert!((t.score() - 3.5 / 6.0).abs() < 1e-12);
        assert!((t.average_discs() - 3.0).abs() < 1e-12);
        // LOS with 3 wins, 2 losses: 0.5 (1 + erf(1 / sqrt(10))) = 0.5 (1 + 0.345 29) = 0.672 64.
        assert!((t.los() - 0.672_64).abs() < 1e-4);
        // Pair scores 1, 1/2, 1/4: mean 7/12, variance (25 + 1 + 16) / 144 / 3 = 42/432.
        let (mean, var, n) = t.sample_stats().unwrap();
        assert!((mean - 7.0 / 12.0).abs() < 1e-12);
        assert!((var - 42.0 / 432.0).abs() < 1e-12);
        assert_eq!(n, 3.0);
        let (elo, ci) = t.elo();
        assert!((elo - elo_from_score(7.0 / 12.0)).abs() < 1e-9);
        assert!(ci > 0.0);
    }

    #[test]
    fn pairs_that_all_score_the_same_give_no_interval() {
        let mut t = Tally::default();
        for _ in 0..2 {
            t.add_game(Outcome::Win, 2);
            t.add_game(Outcome::Loss, -2);
            t.add_pair(Outcome::Win, Outcome::Loss);
        }
        assert_eq!(t.elo_estimate(), EloEstimate::NoSpread { elo: 0.0 });
        assert!(t.elo_estimate().to_string().contains("no interval"));
    }

    #[test]
    fn counts_and_estimates_agree() {
        let mut t = Tally::default();
        assert_eq!(t.elo_estimate(), EloEstimate::Unknown);
        // Two won pairs and a lone won game: every point to A.
        for _ in 0..2 {
            t.add_game(Outcome::Win, 64);
            t.add_game(Outcome::Win, 64);
            t.add_pair(Outcome::Win, Outcome::Win);
        }
        t.add_game(Outcome::Win, 64);
        assert_eq!((t.games(), t.pairs(), t.unpaired_games()), (5, 2, 1));
        assert_eq!(t.basis(), Some(Basis::Pairs(2)));
        assert_eq!(
            t.elo_estimate(),
            EloEstimate::Unbounded {
                a_won: true,
                pairs: true
            }
        );
        assert_eq!(t.elo_estimate().to_string(), "unbounded (A won every pair)");
        // A lone game lost is outside the pairs, and the wording says what was counted.
        let mut lost = t;
        lost.add_game(Outcome::Loss, -64);
        assert_eq!(lost.basis(), Some(Basis::Pairs(2)));
        assert_eq!(
            lost.elo_estimate().to_string(),
            "unbounded (A won every pair)"
        );
        // One pair only: the figures come from the games.
        let mut t = Tally::default();
        t.add_game(Outcome::Loss, -2);
        t.add_game(Outcome::Win, 2);
        t.add_pair(Outcome::Loss, Outcome::Win);
        assert_eq!(t.basis(), Some(Basis::Games(2)));
        // Two games, one each way: an estimate whose interval reaches both ends.
        assert!(matches!(
            t.elo_estimate(),
            EloEstimate::Open { elo, at_least: None, at_most: None } if elo.abs() < 1e-9
        ));
    }

    #[test]
    fn an_interval_past_a_perfect_score_is_open_on_that_side() {
        // 10 pairs, 9 won twice and one drawn: the upper end lies past a score of 1.
        let mut t = Tally::default();
        for k in 0..10 {
            let b = if k == 0 { Outcome::Loss } else { Outcome::Win };
            t.add_game(Outcome::Win, 10);
            t.add_game(b, 0);
            t.add_pair(Outcome::Win, b);
        }
        let EloEstimate::Open {
            elo,
            at_least: Some(lo),
            at_most: None,
        } = t.elo_estimate()
        else {
            panic!("{:?}", t.elo_estimate());
        };
        // Pair scores: nine 1s and one 1/2: mean 0.95, se sqrt(0.0225 / 10) = 0.047 43.
        assert!((elo - elo_from_score(0.95)).abs() < 1e-9);
        assert!((lo - elo_from_score(0.95 - 1.959_964 * 0.047_434)).abs() < 0.5);
        assert!(t.elo_estimate().to_string().contains("no upper bound"));
        // Two games, one each way: no end has an Elo.
        let mut two = Tally::default();
        two.add_game(Outcome::Win, 2);
        two.add_game(Outcome::Loss, -2);
        assert!(two.elo_estimate().to_string().contains("no 95% bound"));
    }

    #[test]
    fn the_sprt_of_games_without_pairs_decides_on_the_games() {
        // 550 single games (a file without pair tags), +300 =50 -200: far above elo1 = 20.
        let mut t = Tally::default();
        for (outcome, count) in [
            (Outcome::Win, 300),
            (Outcome::Draw, 50),
            (Outcome::Loss, 200),
        ] {
            for _ in 0..count {
                t.add_game(outcome, 0);
            }
        }
        let sprt = Sprt::parse("elo0=0 elo1=20 alpha=0.05 beta=0.05").unwrap();
        assert!(t.llr(0.0, 20.0) > 5.0, "{}", t.llr(0.0, 20.0));
        assert_eq!(sprt.state(&t), SprtState::AcceptH1);
        // Fifteen unpaired wins (the first games of a match at high concurrency) decide nothing.
        let mut streak = Tally::default();
        for _ in 0..15 {
            streak.add_game(Outcome::Win, 2);
        }
        assert_eq!(sprt.state(&streak), SprtState::Continue);
    }

    #[test]
    fn sprt_decides() {
        let sprt = Sprt::parse("elo0=0 elo1=50 alpha=0.05 beta=0.05").unwrap();
        let (lo, hi) = sprt.bounds();
        assert!((hi - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((lo + hi).abs() < 1e-12);
        let mut strong = Tally::default();
        for i in 0..200 {
            let b = if i % 3 == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            strong.add_pair(Outcome::Win, b);
        }
        assert_eq!(sprt.state(&strong), SprtState::AcceptH1);
        let mut weak = Tally::default();
        for i in 0..200 {
            let b = if i % 2 == 0 {
                Outcome::Loss
            } else {
                Outcome::Draw
            };
            weak.add_pair(Outcome::Win, b);
            weak.add_pair(Outcome::Loss, Outcome::Draw);
        }
        assert_eq!(sprt.state(&weak), SprtState::AcceptH0);
        // A few alike pairs decide nothing (their sample variance is near zero).
        let mut few = Tally::default();
        few.add_pair(Outcome::Loss, Outcome::Loss);
        for _ in 0..3 {
            few.add_pair(Outcome::Loss, Outcome::Draw);
        }
        let sprt20 = Sprt::parse("elo0=0 elo1=20 alpha=0.05 beta=0.05").unwrap();
        assert_eq!(sprt20.state(&few), SprtState::Continue);
        // Sixty more of them do.
        let mut lopsided = few.clone();
        for _ in 0..60 {
            lopsided.add_pair(Outcome::Loss, Outcome::Draw);
        }
        assert_eq!(sprt20.state(&lopsided), SprtState::AcceptH0);
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("elo2=5").is_err());
        for bad in [
            "elo0=nan elo1=5",
            "elo0=0 elo1=inf",
            "elo0=-inf",
            "alpha=nan",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }
}
