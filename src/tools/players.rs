//! Baseline players that need no search: `random` (a uniformly random legal move from a seeded
//! generator) and `greedy` (the move that flips the most discs; ties go to the lowest square). They
//! are opponents for strength checks and the match runner.

use crate::board::{Board, Move};

/// A small deterministic generator (xorshift64*), so games reproduce from a seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; 0 is replaced by a fixed constant).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

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
