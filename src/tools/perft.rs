//! perft: counts the move paths of a given length, the standard correctness and speed test of move
//! generation.
//!
//! Convention (that of `tests/data/perft.txt` and the public tables): a pass is a move and uses a
//! ply; a game that ends before the last ply counts as one leaf at every deeper depth. The last ply is
//! bulk-counted: a node at depth 1 contributes its number of legal moves without playing them.

use crate::board::movegen::{flips, legal_moves};
use crate::board::{Board, Move};
use std::sync::atomic::{AtomicBool, Ordering};

/// Subtrees at most this deep are counted without looking at the stop flag: a depth-6 subtree
/// takes well under a millisecond, so a stop is seen within about that long.
const UNCHECKED_DEPTH: u32 = 6;

/// Number of leaves `depth` plies below `board` (1 at depth 0).
pub fn perft(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_rec(board.player(), board.opponent(), depth)
}

/// The count below each legal move of `board`: the `--divide` breakdown (empty at depth 0). A forced
/// pass appears as a single `Move::PASS` entry; a finished game gives an empty list (and counts
/// one leaf: [`perft_divide_stoppable`] gives the total).
pub fn perft_divide(board: Board, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    // Never stopped, so the count is always complete.
    let _ = perft_divide_stoppable(board, depth, &AtomicBool::new(false), |m, n| {
        out.push((m, n))
    });
    out
}

/// The closing line of a count: `perft <depth>: <total> leaves, <s> s, <rate> leaves/s`.
pub fn summary(depth: u32, total: u64, time: std::time::Duration) -> String {
    let secs = time.as_secs_f64();
    format!(
        "perft {depth}: {total} leaves, {secs:.3} s, {:.0} leaves/s",
        total as f64 / secs.max(1e-9)
    )
}

/// [`perft_divide`] that can be stopped: `on_move` gets each root move's count as soon as it is
/// known; returns the total (1 for a finished game, as [`perft`]), or `None` if `stop` was set
/// before the count was complete.
pub fn perft_divide_stoppable(
    board: Board,
    depth: u32,
    stop: &AtomicBool,
    mut on_move: impl FnMut(Move, u64),
) -> Option<u64> {
    if depth == 0 {
        // The position itself is the one path of length 0; no move is below it.
        return Some(1);
    }
    let mut total = 0;
    let moves = board.legal_moves();
    if moves.is_empty() {
        if board.must_pass() {
            let n = perft_stoppable(board.pass(), depth - 1, stop)?;
            on_move(Move::PASS, n);
            total = n;
        } else {
            total = 1;
        }
        return Some(total);
    }
    for sq in moves {
        let child = board.play(sq).unwrap_or(board);
        let n = perft_stoppable(child, depth - 1, stop)?;
        on_move(Move::play(sq), n);
        total += n;
    }
    Some(total)
}

/// [`perft`] that gives up (`None`) once `stop` is set.
pub fn perft_stoppable(board: Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= UNCHECKED_DEPTH {
        return (!stop.load(Ordering::Relaxed)).then(|| perft(board, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        if !board.must_pass() {
            return Some(1);
        }
        return perft_stoppable(board.pass(), depth - 1, stop);
    }
    let mut total = 0;
    for sq in moves {
        total += perft_stoppable(board.play(sq).unwrap_or(board), depth - 1, stop)?;
    }
    Some(total)
}

fn perft_rec(p: u64, o: u64, depth: u32) -> u64 {
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        // Pass, or game over: either way a single path, which ends here if the game is over.
        if depth == 1 || legal_moves(o, p) == 0 {
            return 1;
        }
        return perft_rec(o, p, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    if depth == 2 {
        // Bulk count: each child contributes its number of moves (1 if it must pass or is over).
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let n = legal_moves(o ^ f, p | f | (1 << sq)).count_ones();
            total += u64::from(n + (n == 0) as u32);
        }
        return total;
    }
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(sq, p, o);
        total += perft_rec(o ^ f, p | f | (1 << sq), depth - 1);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stoppable_count_is_the_count_and_stops() {
        let go = AtomicBool::new(false);
        for depth in [1, 3, 8, 9] {
            let mut sum = 0;
            let total = perft_divide_stoppable(Board::START, depth, &go, |_, n| sum += n);
            assert_eq!(total, Some(perft(Board::START, depth)));
            assert_eq!(sum, perft(Board::START, depth));
        }
        // Depth 0: the position itself, with no move below it, as the plain count says.
        let mut moves = 0;
        let total = perft_divide_stoppable(Board::START, 0, &go, |_, _| moves += 1);
        assert_eq!((total, moves), (Some(perft(Board::START, 0)), 0));
        let stop = AtomicBool::new(true);
        assert_eq!(
            perft_divide_stoppable(Board::START, 20, &stop, |_, _| {}),
            None
        );
    }

    #[test]
    fn a_finished_game_is_one_leaf_in_every_count() {
        let full: crate::board::Position = format!("{}O X", "X".repeat(63)).parse().unwrap();
        assert!(full.board.is_game_over());
        for depth in 1..4 {
            let mut moves = 0;
            let total =
                perft_divide_stoppable(full.board, depth, &AtomicBool::new(false), |_, _| {
                    moves += 1
                });
            assert_eq!((total, moves), (Some(1), 0));
            assert_eq!(perft(full.board, depth), 1);
        }
    }
}
