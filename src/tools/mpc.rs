//! `wedge mpc fit`: fitting the midgame search's Multi-ProbCut table. Positions of self-play games
//! are searched full width to a fixed depth with iterative deepening, which gives each position's
//! value at every depth in one search; for each depth `d` and its shallow depth `s`, the values
//! at `s` predict those at `d` by a least-squares line per range of empty squares, whose residual
//! deviation is the `sigma` of the cut. A linear model of `sigma` over all rows covers the depths
//! the fit did not search.

use crate::board::text::{read_lines_with_comments, FileError};
use crate::board::{Board, Position};
use crate::search::midgame::probcut::{self, Fit, Row, SigmaModel};
use crate::search::{Bound, Limits, Score, Searcher, TableAllocError, FULL_WIDTH};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Empty squares per row of the fitted table.
pub const EMPTIES_PER_ROW: u32 = 8;
/// Fewest empty squares of a fitted row (below, the endgame solver takes over).
pub const EMPTIES_MIN: u32 = 12;

/// A position with its full-width search value at depths 1, 2, ... (centidiscs, side to move's
/// view).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthScores {
    /// The position.
    pub board: Board,
    /// `scores[d - 1]`: the value of the depth-`d` search.
    pub scores: Vec<i32>,
}

/// Searches every position full width to `depth` plies with `eval` (a fresh table each, so that a
/// value depends on the position alone), `jobs` at once; `progress(done, total)` after each.
pub fn measure(
    eval: &crate::eval::Evaluator,
    positions: &[Board],
    depth: u32,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<DepthScores>, TableAllocError> {
    // No more searchers (16 MB tables) than positions.
    let searchers = (0..jobs.min(positions.len()).clamp(1, 256))
        .map(|_| Searcher::try_new(16, eval.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    let finished = AtomicUsize::new(0);
    let limits = Limits {
        depth: Some(depth),
        selectivity: FULL_WIDTH,
        ..Limits::default()
    };
    let search = |searcher: &mut Searcher, &board: &Board| {
        searcher.clear();
        let mut scores = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        searcher.search(board, &limits, stop, &mut |info| {
            if let (Score::Eval(v), Bound::Exact, 1) = (info.score, info.bound, info.multipv) {
                if info.depth as usize == scores.len() + 1 {
                    scores.push(v);
                }
            }
        });
        DepthScores { board, scores }
    };
    let report = |_: usize, _: &DepthScores| {
        progress(
            finished.fetch_add(1, Ordering::Relaxed) + 1,
            positions.len(),
        );
    };
    Ok(super::in_parallel(positions, searchers, search, report))
}

/// The rows of the table (one per range of empties and depth from [`probcut::MIN_DEPTH`]), and the
/// model of `sigma` fitted on them (weighted by their samples); `None` for the model when the rows
/// do not determine it (too few, or all of one depth and one shallow depth).
pub fn fit(data: &[DepthScores]) -> (Option<SigmaModel>, Vec<Row>) {
    let max_depth = data
        .iter()
        .map(|d| d.scores.len() as u32)
        .max()
        .unwrap_or(0);
    let mut rows = Vec::new();
    let mut lo = EMPTIES_MIN;
    while lo <= 60 {
        let hi = (lo + EMPTIES_PER_ROW - 1).min(60);
        for depth in probcut::MIN_DEPTH..=max_depth.min(60) {
            let shallow = probcut::shallow_depth(depth);
            let pairs: Vec<(f64, f64)> = data
                .iter()
                .filter(|d| (lo..=hi).contains(&d.board.empty_count()))
                .filter_map(|d| {
                    let x = *d.scores.get(shallow as usize - 1)?;
                    let y = *d.scores.get(depth as usize - 1)?;
                    Some((f64::from(x), f64::from(y)))
                })
                .collect();
            // Only rows a table can hold, and no nearly flat lines or vanishing deviations.
            if let Some(fit) =
                line_fit(&pairs).filter(|f| f.plausible() && f.a >= 0.05 && f.sigma >= 1.0)
            {
                rows.push(Row {
                    empties_lo: lo,
                    empties_hi: hi,
                    depth,
                    shallow,
                    fit,
                    samples: pairs.len() as u32,
                });
            }
        }
        lo += EMPTIES_PER_ROW;
    }
    (sigma_model(&rows), rows)
}

/// The least-squares line `y = a x + b` through `pairs` and the deviation of its residuals; `None`
/// for fewer than 10 pairs or no spread in `x`.
fn line_fit(pairs: &[(f64, f64)]) -> Option<Fit> {
    let n = pairs.len() as f64;
    if pairs.len() < 10 {
        return None;
    }
    let mx = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let sse: f64 = pairs.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
    Some(Fit {
        a,
        b,
        sigma: (sse / (n - 2.0)).sqrt(),
    })
}

/// Weighted least squares of `sigma ~ c0 + c1 * empties + c2 * depth + c3 * shallow` over the rows
/// (each at the middle of its empties, weighted by its samples); `None` when the rows do not
/// determine it or a table could not hold it.
fn sigma_model(rows: &[Row]) -> Option<SigmaModel> {
    let mut ata = [[0.0f64; 4]; 4];
    let mut atb = [0.0f64; 4];
    for r in rows {
        let x = [
            1.0,
            f64::from(r.empties_lo + r.empties_hi) / 2.0,
            f64::from(r.depth),
            f64::from(r.shallow),
        ];
        let w = f64::from(r.samples);
        for i in 0..4 {
            for j in 0..4 {
                ata[i][j] += w * x[i] * x[j];
            }
            atb[i] += w * x[i] * r.fit.sigma;
        }
    }
    // A model a table cannot hold (sigma far beyond the rows' at some corner) counts as none.
    solve4(ata, atb).filter(probcut::plausible_model)
}

/// Solves the 4x4 system `m x = v` by Gaussian elimination with partial pivoting; `None` when it
/// is singular.
fn solve4(mut m: [[f64; 4]; 4], mut v: [f64; 4]) -> Option<[f64; 4]> {
    for col in 0..4 {
        let pivot = (col..4).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        v.swap(col, pivot);
        let (top, below) = m.split_at_mut(col + 1);
        let pivot_row = top[col];
        for (k, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row.iter_mut().zip(pivot_row).skip(col) {
                *x -= f * p;
            }
            v[col + 1 + k] -= f * v[col];
        }
    }
    let mut x = [0.0; 4];
    for r in (0..4).rev() {
        let s: f64 = (r + 1..4).map(|c| m[r][c] * x[c]).sum();
        x[r] = (v[r] - s) / m[r][r];
    }
    Some(x)
}

/// The text of measured values: `<64 squares> <side> <value at depth 1> <at depth 2> ...` a line.
pub fn format_scores(data: &[DepthScores]) -> String {
    let mut out = String::from(
        "# position, then its full-width search value (centidiscs) at depths 1, 2, ...\n",
    );
    for d in data {
        let pos = Position {
            board: d.board,
            side: crate::board::Color::Black,
        };
        // The side does not matter to the values (they are the side to move's); write the
        // board as the mover's discs being X.
        out.push_str(&pos.to_string());
        for v in &d.scores {
            out.push_str(&format!(" {v}"));
        }
        out.push('\n');
    }
    out
}

/// Why a line of a scores file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreLineError {
    /// Fewer than two words.
    Shape,
    /// The squares and side are not a position.
    Position(crate::board::text::ParseBoardError),
    /// A value that is not a whole number.
    NotANumber(String),
}

impl std::fmt::Display for ScoreLineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreLineError::Shape => f.write_str("expected '<64 squares> <side> <values...>'"),
            ScoreLineError::Position(e) => write!(f, "{e}"),
            ScoreLineError::NotANumber(w) => write!(f, "'{w}' is not a whole number"),
        }
    }
}

impl std::error::Error for ScoreLineError {}

/// Reads a file that [`format_scores`] wrote.
pub fn read_scores(path: &Path) -> Result<Vec<DepthScores>, FileError> {
    read_lines_with_comments(
        path,
        |_| {},
        |line| -> Result<DepthScores, ScoreLineError> {
            let mut words = line.split_whitespace();
            let (Some(squares), Some(side)) = (words.next(), words.next()) else {
                return Err(ScoreLineError::Shape);
            };
            let pos: Position = format!("{squares} {side}")
                .parse()
                .map_err(ScoreLineError::Position)?;
            let scores = words
                .map(|w| {
                    w.parse::<i32>()
                        .map_err(|_| ScoreLineError::NotANumber(w.to_string()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(DepthScores {
                board: pos.board,
                scores,
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_exact_points_has_no_deviation() {
        let pairs: Vec<(f64, f64)> = (0..20).map(|i| (i as f64, 2.0 * i as f64 + 3.0)).collect();
        let f = line_fit(&pairs).unwrap();
        assert!((f.a - 2.0).abs() < 1e-9 && (f.b - 3.0).abs() < 1e-9 && f.sigma < 1e-6);
        assert!(line_fit(&pairs[..5]).is_none());
    }

    #[test]
    fn the_model_recovers_a_linear_sigma() {
        let mut rows = Vec::new();
        for lo in [12u32, 20, 28, 36] {
            for depth in 3..=10 {
                let shallow = probcut::shallow_depth(depth);
                let sigma = 100.0 + 2.0 * f64::from(lo + lo + 7) / 2.0 + 15.0 * f64::from(depth)
                    - 7.0 * f64::from(shallow);
                rows.push(Row {
                    empties_lo: lo,
                    empties_hi: lo + 7,
                    depth,
                    shallow,
                    fit: Fit {
                        a: 1.0,
                        b: 0.0,
                        sigma,
                    },
                    samples: 100,
                });
            }
        }
        let m = sigma_model(&rows).expect("rows of several depths determine the model");
        for (got, want) in m.iter().zip([100.0, 2.0, 15.0, -7.0]) {
            assert!((got - want).abs() < 1e-6, "{m:?}");
        }
    }

    #[test]
    fn measured_values_fit_and_round_trip() {
        let boards: Vec<Board> = [
            "f5 d6 c3 d3 c4",
            "f5 f6 e6 f4 e3",
            "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7",
        ]
        .iter()
        .map(|line| crate::board::text::board_after(&line.replace(' ', "")).unwrap())
        .collect();
        let data = measure(
            &crate::eval::Evaluator::default(),
            &boards,
            4,
            2,
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(data.len(), 3);
        assert!(data.iter().all(|d| d.scores.len() == 4));
        let dir = std::env::temp_dir().join(format!("wedge-mpc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("scores.txt");
        std::fs::write(&path, format_scores(&data)).unwrap();
        assert_eq!(read_scores(&path).unwrap(), data);
        std::fs::write(&path, "x 1 2\n").unwrap();
        assert_eq!(read_scores(&path).unwrap_err().line, 1);
        std::fs::remove_dir_all(&dir).ok();
    }
}
