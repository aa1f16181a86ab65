//! Baseline players that need no search, for every game: `random` (a uniformly random legal move
//! from a seeded generator) and `greedy` (the move that flips the most discs; ties drawn from the
//! same generator, so that two greedy players do not replay one game). They are opponents for
//! strength checks, the match runner and the variant client.

use super::Rules;
use crate::rng::Rng;

/// A random legal move; the pass when forced (drawing nothing), `None` when the game is over.
pub fn random_move<G: Rules>(game: &G, rng: &mut Rng) -> Option<G::Move> {
    let moves = game.moves();
    if moves.is_empty() {
        return (!game.is_over()).then_some(G::PASS);
    }
    Some(moves[rng.below(moves.len() as u64) as usize])
}

/// A move flipping the most discs, drawn from `rng` among equals; the pass when forced (drawing
/// nothing), `None` when the game is over.
pub fn greedy_move<G: Rules>(game: &G, rng: &mut Rng) -> Option<G::Move> {
    let moves = game.moves();
    if moves.is_empty() {
        return (!game.is_over()).then_some(G::PASS);
    }
    let flips: Vec<u32> = moves.iter().map(|&m| game.flips(m)).collect();
    let most = flips.iter().copied().max().unwrap_or(0);
    let best: Vec<G::Move> = moves
        .into_iter()
        .zip(flips)
        .filter(|&(_, n)| n == most)
        .map(|(m, _)| m)
        .collect();
    Some(best[rng.below(best.len() as u64) as usize])
}

/// Which baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// [`random_move`].
    Random,
    /// [`greedy_move`].
    Greedy,
}

impl Baseline {
    /// The baseline's move in `game`, its draws from `rng`.
    pub fn choose<G: Rules>(self, game: &G, rng: &mut Rng) -> Option<G::Move> {
        match self {
            Baseline::Random => random_move(game, rng),
            Baseline::Greedy => greedy_move(game, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn baselines_play_legal_moves_to_the_end() {
        for kind in [Baseline::Random, Baseline::Greedy] {
            let mut rng = Rng::new(3);
            let mut pos = Position::START;
            let mut plies = 0;
            while let Some(mv) = kind.choose(&pos, &mut rng) {
                let most = pos.moves().iter().map(|&m| pos.flips(m)).max();
                if kind == Baseline::Greedy {
                    assert_eq!(Some(pos.flips(mv)), most.or(Some(0)));
                }
                pos = pos.play(mv).expect("a legal move");
                plies += 1;
            }
            assert!(pos.is_over() && plies >= 30, "{kind:?}: {plies}");
        }
    }
}
