//! Variant players: the engine's search (iterative deepening alpha-beta, or plain minimax on
//! request), and the random and greedy baselines, behind one type that a client, the protocol or
//! the match runner asks for a move.
//!
//! The engine's search lives in `search` (with its evaluation in `eval` and its time plan in
//! `time`); a [`Player`] of kind [`PlayerKind::Engine`] owns one [`Searcher`] and hands it the
//! limits. The baselines are every game's ([`crate::game::players`]): random picks uniformly
//! with the player's seeded generator, greedy the move that flips most (ties drawn from the same
//! generator), so that games reproduce.

use super::board::{Board, Square};
use super::search::{Report, Searcher};
pub use super::time::Limits;
use crate::game::players::Baseline;
use crate::rng::Rng;
use std::sync::atomic::AtomicBool;

/// The depth the engine searches when [`Limits`] sets nothing at all.
pub const DEFAULT_DEPTH: u32 = 6;

/// Which player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// wedge's variant search.
    Engine,
    /// A uniformly random legal move.
    Random,
    /// The move that flips the most discs, ties at random.
    Greedy,
}

impl std::str::FromStr for PlayerKind {
    type Err = UnknownPlayer;

    /// `wedge` (or `engine`), `random` or `greedy`.
    fn from_str(s: &str) -> Result<PlayerKind, UnknownPlayer> {
        match s.to_ascii_lowercase().as_str() {
            "wedge" | "engine" => Ok(PlayerKind::Engine),
            "random" => Ok(PlayerKind::Random),
            "greedy" => Ok(PlayerKind::Greedy),
            _ => Err(UnknownPlayer(s.to_string())),
        }
    }
}

/// A player's name that is none of wedge, random and greedy (the name given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPlayer(pub String);

impl std::fmt::Display for UnknownPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown player '{}' (wedge, random or greedy)", self.0)
    }
}

impl std::error::Error for UnknownPlayer {}

/// A player of variant games.
pub struct Player {
    kind: PlayerKind,
    seed: u64,
    rng: Rng,
    searcher: Searcher,
    last: Option<Report>,
}

impl Player {
    /// A player of `kind`; `seed` makes the random choices reproducible.
    pub fn new(kind: PlayerKind, seed: u64) -> Player {
        Player {
            kind,
            seed,
            rng: Rng::new(seed),
            searcher: Searcher::default(),
            last: None,
        }
    }

    /// Forgets what was learnt in the last game (tables), before a new one.
    pub fn new_game(&mut self) {
        self.searcher.clear();
        self.last = None;
    }

    /// The move to play in `board` (`None` when the side to move has no legal move: pass).
    pub fn choose(&mut self, board: &Board, limits: &Limits) -> Option<Square> {
        self.choose_with(board, limits, &AtomicBool::new(false), |_| {})
    }

    /// [`Player::choose`] that can be stopped (`stop`: the engine returns the best move found so
    /// far) and reports each finished iteration of the engine's search to `on_iteration` (the
    /// protocol's `info` lines). Baselines answer at once and report nothing.
    pub fn choose_with(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Report),
    ) -> Option<Square> {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        match self.kind {
            PlayerKind::Random => Baseline::Random.choose(board, &mut self.rng).flatten(),
            PlayerKind::Greedy => Baseline::Greedy.choose(board, &mut self.rng).flatten(),
            PlayerKind::Engine => {
                let mut limits = *limits;
                if limits.depth.is_none() && limits.movetime.is_none() && limits.clock.is_none() {
                    limits.depth = Some(DEFAULT_DEPTH);
                }
                let report = self.searcher.search(board, &limits, stop, on_iteration);
                let best = report
                    .best
                    .filter(|&m| board.is_legal(m))
                    .or(Some(moves[0]));
                self.last = Some(report);
                best
            }
        }
    }

    /// The kind of player.
    pub fn kind(&self) -> PlayerKind {
        self.kind
    }

    /// The seed the player was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The engine's search: its options (alpha-beta, scanline order, table, solve threshold) and
    /// evaluation weights are set here.
    pub fn searcher(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// The engine's report of its last move (`None` before the first, after [`Player::new_game`],
    /// and for the baselines).
    pub fn last_report(&self) -> Option<&Report> {
        self.last.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baselines_reproduce_from_their_seed() {
        let start = Board::start(10, 10, &[]).unwrap();
        for kind in [PlayerKind::Random, PlayerKind::Greedy] {
            let game = |seed| {
                let mut p = Player::new(kind, seed);
                let mut b = start;
                let mut moves = Vec::new();
                while !b.is_over() {
                    let m = p.choose(&b, &Limits::default());
                    moves.push(m);
                    b = m.and_then(|m| b.play(m)).unwrap_or_else(|| b.pass());
                }
                moves
            };
            assert_eq!(game(3), game(3));
            assert_ne!(game(3), game(4), "{kind:?}");
        }
        assert_eq!("greedy".parse(), Ok(PlayerKind::Greedy));
        assert_eq!("wedge".parse(), Ok(PlayerKind::Engine));
        assert!("minimax".parse::<PlayerKind>().is_err());
    }

    #[test]
    fn the_engine_reports_its_move() {
        let board = Board::start(8, 8, &[]).unwrap();
        let mut p = Player::new(PlayerKind::Engine, 1);
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let m = p.choose(&board, &limits);
        let report = p.last_report().unwrap();
        assert_eq!(report.best, m);
        assert_eq!(report.depth, 3);
        p.new_game();
        assert!(p.last_report().is_none());
    }
}
