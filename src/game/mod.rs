//! The seam between the games wedge plays and the plumbing they share. Two games plug in: the
//! standard 8 x 8 game ([`crate::board::Position`]) and variant boards of any size with blocked
//! squares ([`crate::variant::board::Board`]). Each implements [`Rules`]; everything that needs no
//! more than the rules is written once, here or over this trait:
//!
//! - [`Side`]: which player, by the order of play. The 8 x 8 game names them black and white, the
//!   variant white and red: those names are words of each game's text, never of the plumbing.
//! - [`players`]: the baseline players (random, greedy) of every game.
//! - [`clock`]: how long a move may take on a game clock.
//! - [`table`]: how a search table of a size in MB is allocated, and what its failure is;
//!   [`memory`]: how much memory there is for one (the system's and a control group's limit).
//! - The match runner plays any [`Rules`] game ([`crate::tools::arena`]); the engine's worker runs
//!   either game's search ([`crate::engine::worker`]).
//!
//! The hot code stays each game's own: the 8 x 8 bitboards, pattern evaluation and Multi-ProbCut
//! are not made generic; a new game brings its board, its search and an `impl Rules`.

pub mod clock;
pub mod memory;
pub mod players;
pub mod table;

use std::fmt::Debug;

/// Which player, by the order of play: the one who moves first in the game's start position, or
/// the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Moves first from the standard start (black on 8 x 8, white on a variant board).
    First,
    /// Moves second from the standard start (white on 8 x 8, red on a variant board).
    Second,
}

impl Side {
    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `value` for [`Side::First`], `-value` for [`Side::Second`]: a score from the first
    /// player's point of view seen from this side's, or back.
    pub const fn sign(self, value: i32) -> i32 {
        match self {
            Side::First => value,
            Side::Second => -value,
        }
    }
}

/// The rules of a two-player game of flips and passes, as the shared plumbing sees it: the moves,
/// playing one, the end. Positions are small `Copy` values; a position may know its side to move
/// only relatively (the 8 x 8 [`crate::board::Board`]): [`Game`] adds the side and the score.
pub trait Rules: Copy + Eq + Debug + Send + Sync + 'static {
    /// A move: a square or a pass.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// The pass.
    const PASS: Self::Move;

    /// The squares the side to move may play, in the game's square order; empty when it must
    /// pass or the game is over.
    fn moves(&self) -> Vec<Self::Move>;

    /// The number of discs `mv` flips (0 for a pass or an illegal move).
    fn flips(&self, mv: Self::Move) -> u32;

    /// The position after `mv`; `None` if `mv` is illegal (a pass is legal only when forced).
    fn play(&self, mv: Self::Move) -> Option<Self>;

    /// Whether neither side can move.
    fn is_over(&self) -> bool;

    /// Whether the side to move has no move but the game goes on.
    fn must_pass(&self) -> bool {
        !self.is_over() && self.moves().is_empty()
    }

    /// The squares that can hold a disc: a forfeit gives all of them to the winner.
    fn squares(&self) -> i32;
}

/// A position that knows who is to move: what a game between two players (the match runner, the
/// engine's front ends) needs beyond the [`Rules`].
pub trait Game: Rules {
    /// Who is to move.
    fn side(&self) -> Side;

    /// The final score from the first player's point of view (the game's own counting rule);
    /// meaningful once the game is over.
    fn first_score(&self) -> i32;
}

impl Rules for crate::board::Board {
    type Move = crate::board::Move;

    const PASS: crate::board::Move = crate::board::Move::PASS;

    fn moves(&self) -> Vec<crate::board::Move> {
        self.legal_moves().map(crate::board::Move::play).collect()
    }

    fn flips(&self, mv: crate::board::Move) -> u32 {
        match mv.square() {
            Some(sq) if self.legal_moves().contains(sq) => {
                crate::board::Board::flips(*self, sq).count()
            }
            _ => 0,
        }
    }

    fn play(&self, mv: crate::board::Move) -> Option<Self> {
        self.play_move(mv)
    }

    fn is_over(&self) -> bool {
        self.is_game_over()
    }

    fn squares(&self) -> i32 {
        64
    }
}

impl Rules for crate::board::Position {
    type Move = crate::board::Move;

    const PASS: crate::board::Move = crate::board::Move::PASS;

    fn moves(&self) -> Vec<crate::board::Move> {
        self.board.moves()
    }

    fn flips(&self, mv: crate::board::Move) -> u32 {
        Rules::flips(&self.board, mv)
    }

    fn play(&self, mv: crate::board::Move) -> Option<Self> {
        crate::board::Position::play(*self, mv)
    }

    fn is_over(&self) -> bool {
        self.board.is_game_over()
    }

    fn squares(&self) -> i32 {
        64
    }
}

impl Game for crate::board::Position {
    fn side(&self) -> Side {
        self.side.into()
    }

    fn first_score(&self) -> i32 {
        self.black_final_score()
    }
}

impl Rules for crate::variant::board::Board {
    type Move = crate::variant::board::VariantMove;

    const PASS: crate::variant::board::VariantMove = None;

    fn moves(&self) -> Vec<crate::variant::board::VariantMove> {
        self.legal_moves().into_iter().map(Some).collect()
    }

    fn flips(&self, mv: crate::variant::board::VariantMove) -> u32 {
        mv.map_or(0, |sq| crate::variant::board::Board::flips(self, sq))
    }

    fn play(&self, mv: crate::variant::board::VariantMove) -> Option<Self> {
        match mv {
            Some(sq) => crate::variant::board::Board::play(self, sq),
            None => (!self.is_over() && self.must_pass()).then(|| self.pass()),
        }
    }

    fn is_over(&self) -> bool {
        crate::variant::board::Board::is_over(self)
    }

    fn must_pass(&self) -> bool {
        !self.is_over() && crate::variant::board::Board::must_pass(self)
    }

    fn squares(&self) -> i32 {
        self.playable().count() as i32
    }
}

impl Game for crate::variant::board::Board {
    fn side(&self) -> Side {
        self.to_move()
    }

    fn first_score(&self) -> i32 {
        self.disc_difference(Side::First)
    }
}

/// A start position and the moves played from it: an opening, or a game so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<G: Rules> {
    /// The position before the first move.
    pub start: G,
    /// The moves, passes included.
    pub moves: Vec<G::Move>,
}

impl<G: Rules> Line<G> {
    /// The position after the moves (`None` if one is illegal).
    pub fn position(&self) -> Option<G> {
        replay(&self.start, &self.moves)
    }
}

/// The position after `moves` from `start`, passes included (`None`: an illegal move or pass).
pub fn replay<G: Rules>(start: &G, moves: &[G::Move]) -> Option<G> {
    moves.iter().try_fold(*start, |g, &mv| g.play(mv))
}
