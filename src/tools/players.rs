//! Baseline players that need no search: `random` (a uniformly random legal move from a seeded
//! generator) and `greedy` (the move that flips the most discs; ties go to the lowest square). They
//! are opponents for strength checks and the match runner.

use crate::board::{Board, Move};
pub use crate::rng::Rng;

/// A random legal move; `Move::PASS` when forced, `None` when the game is over.
pub fn random_move(board: Board, rng: &mut Rng) -> Option<Move> {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return (!board.is_game_over()).then_some(Move::PASS);
    }
    let k = rng.below(u64::from(moves.count())) as usize;
    moves.into_iter().nth(k).map(Move::play)
}

/// The move flipping the most discs; `Move::PASS` when forced, `None` when the game is over.
pub fn greedy_move(board: Board) -> Option<Move> {
    let moves = board.legal_moves();
    if moves.is_empty() {
        return (!board.is_game_over()).then_some(Move::PASS);
    }
    let mut best: Option<(u32, Move)> = None;
    for sq in moves {
        let n = board.flips(sq).count();
        if best.is_none_or(|(b, _)| n > b) {
            best = Some((n, Move::play(sq)));
        }
    }
    best.map(|(_, m)| m)
}
