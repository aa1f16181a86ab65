//! perft for variant boards: counts the move paths of a given length, the move generator's test.
//!
//! The convention is that of wedge's 8 x 8 perft (`crate::tools::perft`) and the public tables: a
//! pass is a move and uses a ply; a game that ends before the last ply counts as one leaf at every
//! deeper depth. The last ply is bulk-counted: a node at depth 1 contributes its number of legal
//! moves (1 if it must pass or the game is over) without playing them.

use super::bits::Bits;
use super::board::{flips, moves, Board, Square};
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of leaves `depth` plies below `board` (1 at depth 0).
pub fn perft(board: &Board, depth: u32) -> u64 {
    // A flag never raised: the count always finishes. It is read only above the last 3 plies.
    perft_stoppable(board, depth, &AtomicBool::new(false)).unwrap_or(0)
}

/// [`perft`] that gives up when `stop` is raised (looked at in every node three or more plies above
/// the leaves, so a stop is seen within milliseconds): `None` when stopped.
pub fn perft_stoppable(board: &Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    rec_stoppable(
        board.player_discs(),
        board.opponent_discs(),
        board.playable(),
        depth,
        stop,
    )
}

/// [`rec`] with the stop flag, down to the plies where [`rec`] takes over.
fn rec_stoppable(p: Bits, o: Bits, playable: Bits, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= 3 {
        return Some(rec(p, o, playable, depth));
    }
    let empty = playable & !(p | o);
    let mine = moves(p, o, empty);
    if mine.is_empty() {
        if moves(o, p, empty).is_empty() {
            return Some(1);
        }
        return rec_stoppable(o, p, playable, depth - 1, stop);
    }
    let mut total = 0;
    for sq in mine {
        let f = flips(sq, p, o);
        total += rec_stoppable(o ^ f, p | f | Bits::square(sq), playable, depth - 1, stop)?;
    }
    Some(total)
}

/// The count below each legal move of `board` (`depth >= 1`), in scanline order: the `--divide`
/// breakdown. A forced pass appears as a single `None` entry; a finished game gives an empty list.
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(Option<Square>, u64)> {
    let depth = depth.max(1);
    let moves = board.legal_moves();
    if moves.is_empty() {
        if board.is_over() {
            return Vec::new();
        }
        return vec![(None, perft(&board.pass(), depth - 1))];
    }
    moves
        .into_iter()
        .map(|sq| {
            let child = board.play(sq).unwrap_or(*board);
            (Some(sq), perft(&child, depth - 1))
        })
        .collect()
}

/// The count on raw sets: `p` to move against `o`, on the `playable` squares.
fn rec(p: Bits, o: Bits, playable: Bits, depth: u32) -> u64 {
    let empty = playable & !(p | o);
    let mine = moves(p, o, empty);
    if mine.is_empty() {
        // Pass, or game over: either way a single path, which ends here if the game is over.
        if depth == 1 || moves(o, p, empty).is_empty() {
            return 1;
        }
        return rec(o, p, playable, depth - 1);
    }
    if depth == 1 {
        return u64::from(mine.count());
    }
    let mut total = 0;
    for sq in mine {
        let f = flips(sq, p, o);
        let placed = f | Bits::square(sq);
        let (np, no) = (o ^ f, p | placed);
        if depth == 2 {
            // Bulk count: each child contributes its number of moves (1 if it must pass or is over).
            let n = moves(np, no, playable & !(np | no)).count();
            total += u64::from(n.max(1));
        } else {
            total += rec(np, no, playable, depth - 1);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stoppable_count_agrees_and_stops() {
        let board = Board::start(10, 10, &[]).unwrap();
        let go = AtomicBool::new(false);
        for depth in 0..=6 {
            assert_eq!(
                perft_stoppable(&board, depth, &go),
                Some(perft(&board, depth))
            );
        }
        let stop = AtomicBool::new(true);
        assert_eq!(perft_stoppable(&board, 6, &stop), None);
    }

    #[test]
    fn the_8x8_board_gives_the_8x8_counts() {
        let b = Board::start(8, 8, &[]).unwrap();
        let counts = [1, 4, 12, 56, 244, 1396, 8200];
        for (depth, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&b, depth as u32), n, "depth {depth}");
        }
        let divide: u64 = perft_divide(&b, 5).iter().map(|(_, n)| n).sum();
        assert_eq!(divide, 1396);
    }
}
