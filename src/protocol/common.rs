//! What the text modules of wedge's protocol share (the parser, the answers, variant boards): how
//! passes are written in the session's mode, and what a UGI `query` asks. Its own file so that
//! those modules import it and not each other.

/// How passes and "no move" are written: after `uci` (`pass`, `none`) or after `ugi` (`0000`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// UCI mode (the start-up mode).
    Uci,
    /// UGI mode.
    Ugi,
}

/// What a UGI `query` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryKind {
    /// `query gameover`: is the game over? (`response true|false`)
    GameOver,
    /// `query p1turn`: is black (player 1) to move? (`response true|false`)
    P1Turn,
    /// `query result`: `response p1win|p2win|draw|none`.
    Result,
}
