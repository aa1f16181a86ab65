//! `wedge data positions`: the positions of recorded games (a game database, another engine's or
//! players' games, `wedge match` records) as a list for `wedge data label`, so training and test
//! data can come from play that is not wedge's own.
//!
//! A game gives the positions before its moves whose empties count lies in a range and whose side
//! to move has a legal square (a forced pass or a finished game has nothing to learn). Each
//! position is listed once under the board's symmetries, across all the games, and a game may give
//! all its positions or a number drawn at random from a seed.

use crate::board::text::Game;
use crate::board::{Board, Position};
use crate::rng::Rng;
use std::collections::HashSet;

/// Which positions of each game to list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawOptions {
    /// The fewest empty squares a listed position may have.
    pub min_empties: u32,
    /// The most empty squares a listed position may have.
    pub max_empties: u32,
    /// At most this many positions of a game, drawn at random; `None`: all of them.
    pub per_game: Option<usize>,
    /// The seed of the draws: the same games and seed give the same list.
    pub seed: u64,
}

/// What [`draw_positions`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawnPositions {
    /// The positions listed, game by game, each game's in the order they were played.
    pub positions: Vec<Position>,
    /// The games read.
    pub games: usize,
    /// Positions in the empties range left out because an earlier game (or a symmetric image in
    /// one) gave them already.
    pub repeats: usize,
}

/// The positions of `games` that `options` selects, each once under symmetry.
pub fn draw_positions<'a>(
    games: impl IntoIterator<Item = &'a Game>,
    options: &DrawOptions,
) -> DrawnPositions {
    let mut rng = Rng::new(options.seed);
    let mut seen: HashSet<Board> = HashSet::new();
    let mut out = DrawnPositions::default();
    for game in games {
        out.games += 1;
        let mut fresh = Vec::new();
        let mut pos = game.start;
        for &mv in &game.moves {
            consider(pos, options, &mut seen, &mut fresh, &mut out.repeats);
            // Every stored move was checked legal when the game was read.
            match pos.play(mv) {
                Some(next) => pos = next,
                None => break,
            }
        }
        consider(pos, options, &mut seen, &mut fresh, &mut out.repeats);
        if let Some(n) = options.per_game.filter(|&n| n < fresh.len()) {
            // A partial Fisher-Yates draw of n, then back into the order of play.
            let mut order: Vec<usize> = (0..fresh.len()).collect();
            for i in 0..n {
                let j = i + rng.below((order.len() - i) as u64) as usize;
                order.swap(i, j);
            }
            let mut chosen = order[..n].to_vec();
            chosen.sort_unstable();
            // Those not drawn may come again in a later game.
            for (k, p) in fresh.iter().enumerate() {
                if chosen.binary_search(&k).is_err() {
                    seen.remove(&p.board.canonical().0);
                }
            }
            fresh = chosen.into_iter().map(|k| fresh[k]).collect();
        }
        out.positions.extend(fresh);
    }
    out
}

/// Adds `pos` to `fresh` when it is in range, has a legal move and is new.
fn consider(
    pos: Position,
    options: &DrawOptions,
    seen: &mut HashSet<Board>,
    fresh: &mut Vec<Position>,
    repeats: &mut usize,
) {
    let empties = pos.board.empty_count();
    if !(options.min_empties..=options.max_empties).contains(&empties) || !pos.board.can_move() {
        return;
    }
    if seen.insert(pos.board.canonical().0) {
        fresh.push(pos);
    } else {
        *repeats += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Symmetry};

    fn game(transcript: &str) -> Game {
        transcript.parse().expect("a legal transcript")
    }

    fn all(min: u32, max: u32) -> DrawOptions {
        DrawOptions {
            min_empties: min,
            max_empties: max,
            per_game: None,
            seed: 1,
        }
    }

    /// Every position of a game before each move and at its end.
    fn replay(g: &Game) -> Vec<Position> {
        let mut out = vec![g.start];
        let mut pos = g.start;
        for &mv in &g.moves {
            pos = pos.play(mv).expect("legal");
            out.push(pos);
        }
        out
    }

    const GAMES: [&str; 3] = [
        "f5f4g3g4e3d2g5e6c4h5h6d3d1b4b3f3b5c6",
        "f5f4c3c4e3f6b4c5d6e2",
        "f5f4g3f6f3e3f7d6",
    ];

    #[test]
    fn every_position_in_range_with_a_move_once_in_play_order() {
        let games: Vec<Game> = GAMES.iter().map(|t| game(t)).collect();
        let d = draw_positions(&games, &all(52, 60));
        assert_eq!(d.games, 3);
        let mut expected = Vec::new();
        let mut seen = HashSet::new();
        let mut repeats = 0;
        for g in &games {
            for p in replay(g) {
                let e = p.board.empty_count();
                if (52..=60).contains(&e) && p.board.can_move() {
                    if seen.insert(p.board.canonical().0) {
                        expected.push(p);
                    } else {
                        repeats += 1;
                    }
                }
            }
        }
        assert_eq!(d.positions, expected);
        assert_eq!(d.repeats, repeats);
        // The three games share their first positions: the start, f5, f5 f4 (and f5 f4 g3).
        assert_eq!(d.repeats, 7);
    }

    #[test]
    fn a_symmetric_image_of_a_game_adds_nothing() {
        let g = game(GAMES[0]);
        let mirrored = Game {
            start: g.start,
            moves: g
                .moves
                .iter()
                .map(|m| match m.square() {
                    Some(sq) => Move::play(Symmetry::Rotate180.apply_square(sq)),
                    None => *m,
                })
                .collect(),
        };
        // The start is symmetric under a half turn, so the turned game is legal from it.
        assert_eq!(
            replay(&mirrored).len(),
            replay(&g).len(),
            "the image is a whole game"
        );
        let d = draw_positions([&g, &mirrored], &all(0, 60));
        let alone = draw_positions([&g], &all(0, 60));
        assert_eq!(d.positions, alone.positions);
        assert_eq!(d.repeats, alone.positions.len());
    }

    #[test]
    fn a_draw_per_game_is_reproducible_and_keeps_the_order_of_play() {
        let games: Vec<Game> = GAMES.iter().map(|t| game(t)).collect();
        let full = draw_positions(&games, &all(0, 60));
        let draw = |seed| {
            let options = DrawOptions {
                per_game: Some(2),
                seed,
                ..all(0, 60)
            };
            draw_positions(&games, &options)
        };
        let a = draw(7);
        assert_eq!(a.positions.len(), 6);
        assert_eq!(a, draw(7));
        assert_ne!(a.positions, draw(8).positions);
        // Each drawn position is one the full list has, in the same relative order.
        let place: Vec<usize> = a
            .positions
            .iter()
            .map(|p| {
                full.positions
                    .iter()
                    .position(|q| q == p)
                    .expect("a position of the games")
            })
            .collect();
        for pair in place.windows(2) {
            assert!(pair[0] < pair[1], "{place:?}");
        }
    }

    #[test]
    fn passes_and_the_finished_game_are_left_out() {
        // A whole game of 9 moves that leaves one colour only.
        let g = game("d3c3b3d2e1d6d7e3f4");
        let d = draw_positions([&g], &all(0, 60));
        assert!(replay(&g).last().is_some_and(|p| p.board.is_game_over()));
        assert_eq!(d.positions.len(), replay(&g).len() - 1);
        assert!(d.positions.iter().all(|p| p.board.can_move()));
    }
}
