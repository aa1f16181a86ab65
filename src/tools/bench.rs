//! `wedge bench`: a fixed set of positions searched to a fixed depth with a fresh table. The total
//! node count is the search's fingerprint: a pure speed-up leaves it unchanged, any change to search or
//! evaluation changes it. Commits that touch either end with `Bench: <nodes>`.

use crate::board::{Board, Position};
use crate::eval::Evaluator;
use crate::search::midgame::probcut::MpcTable;
use crate::search::{Limits, Searcher, TableAllocError};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default depth.
pub const DEFAULT_DEPTH: u32 = 12;

/// The positions: the start, XOT openings continued by a fixed policy to various stages, and endgames
/// from the FFO set (some with white to move).
pub const POSITIONS: &[&str] = &[
    "---------------------------OX------XO--------------------------- X",
    "----------X------O-X-----OXXX----O-OXX-----O-------------------- X",
    "------------------X-X----OOOOO----XOXX----O--------------------- X",
    "----XO----XXO-----XOXX----OOXOOO-OOOXXO-----XX-------X---------- X",
    "--------------------OO-O--XXXXXO---XXXXO---XXXXO---X---O-------O X",
    "----------X--------XXO----XOXO---XXXOO---OOOOO-----OXX------X--- X",
    "----------------X--OX---XXOOXO--XOXOOX---XOOXX----OOX----OOOOO-- X",
    "------------------XX---X--XXXOXX-OOOOXOXXXXXXXXX--OXXX-X--XXX--- X",
    "----------------O--XXOXXOXXXXOXXOXXOXOXX-XXXOOXX--X-XO---------- X",
    "---XXXX----XXXO---XXXOOX--XXOOOO--XOOOO---OOOXO---OOXX----O-X--- X",
    "XXXXO-----OOXO----OOOOOO--OOXXXX-XOXXXXX-OOOOOOO---OO------O---- X",
    "XXXXXXX---OXXX---OXOXOX--OXXOOO--OXOXO--OOOOXX----OOO------OOO-- X",
    "------------X--OXXOXXXOOXXXOXOXOXXXXXOOOXXXXXOXO--XXXO----OOOO-- X",
    "--------X---OO--XOOXOOXOXXXXOXXOXXOOOXOOXOOOOOXOXOOOO---XXXX---- X",
    "--O-XXXX---OXXXX--XXOXOX-XOXXOOX-OOXXXOXOOOXOXXX--XXXX-X-XXXXX-- X",
    "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O",
    "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O",
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X",
    "----X------XXXO--OOOXXXXXOOOOXXO-XXOOXXOOOXOXXXXOOOXX---X-XXXX-- O",
    "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position.
    pub position: Position,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Searches every bench position to `depth` at Multi-ProbCut level `selectivity` (the engine's:
/// [`crate::search::selectivity::default_level`]) on `threads` threads with a fresh table, the
/// evaluation `evaluator` and the Multi-ProbCut table `mpc`, calling `progress` after each one.
/// Setting `stop` ends the run early (the lines finished so far come back); a table that cannot be
/// allocated is an error. With one thread the node count is the fingerprint; with more it varies
/// from run to run.
#[allow(clippy::too_many_arguments)]
pub fn run(
    evaluator: &Evaluator,
    mpc: &Arc<MpcTable>,
    depth: u32,
    selectivity: u8,
    hash_mb: usize,
    threads: usize,
    stop: Arc<AtomicBool>,
    mut progress: impl FnMut(&BenchLine),
) -> Result<Vec<BenchLine>, TableAllocError> {
    let mut out = Vec::new();
    for text in POSITIONS {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        // The list is fixed and tested; a bad entry would be skipped rather than abort a benchmark.
        let Ok(position) = text.parse::<Position>() else {
            continue;
        };
        let mut searcher = Searcher::try_new(hash_mb, evaluator.clone())?;
        searcher.set_mpc_table(mpc.clone());
        searcher.set_threads(threads);
        let limits = Limits {
            depth: Some(depth),
            selectivity,
            ..Limits::default()
        };
        let start = Instant::now();
        let board: Board = position.board;
        let r = searcher.search(board, &limits, stop.clone(), &mut |_| {});
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let line = BenchLine {
            position,
            nodes: r.nodes,
            time: start.elapsed(),
        };
        progress(&line);
        out.push(line);
    }
    Ok(out)
}

/// The closing summary lines: total nodes (the fingerprint), time and speed.
pub fn summary(lines: &[BenchLine]) -> String {
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.time.as_secs_f64()).sum();
    format!(
        "===========================\nTotal time (ms) : {}\nNodes searched  : {}\nNodes/second    : {:.0}\n",
        (secs * 1000.0) as u64,
        nodes,
        nodes as f64 / secs.max(1e-9)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_are_playable() {
        assert!(POSITIONS.len() >= 20);
        for p in POSITIONS {
            let pos: Position = p.parse().unwrap();
            assert!(!pos.board.is_game_over(), "{p}");
        }
    }
}
