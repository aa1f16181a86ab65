//! What the text modules of wedge's protocol share (the parser, the answers, variant boards): how
//! passes are written in the session's mode, what a UGI `query` asks, and how every front end's
//! error lines quote a word too long to repeat. Its own file so that those modules import it and
//! not each other.

/// Words of an error message longer than this many characters are quoted short.
pub const LONG_WORD: usize = 200;

/// `message` with every word longer than [`LONG_WORD`] characters cut to its start and its size
/// ([`crate::files::Excerpt`]): a 60,000-character path or move sent to the engine is not written
/// back whole in the error line that refuses it.
pub fn short_words(message: &str) -> String {
    if message.len() <= LONG_WORD {
        return message.to_string();
    }
    message
        .split(' ')
        .map(|w| {
            if w.chars().nth(LONG_WORD).is_some() {
                crate::files::Excerpt(w).to_string()
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_words_are_quoted_short_and_the_rest_kept() {
        let path = format!("/{}", "a".repeat(60_000));
        let message = format!("BookFile: {path}: No such file or directory (os error 2)");
        let short = short_words(&message);
        assert!(short.len() < 200, "{short}");
        assert!(short.starts_with("BookFile: /aaa"), "{short}");
        assert!(
            short.ends_with("bytes) No such file or directory (os error 2)"),
            "{short}"
        );
        let plain = "setoption: 'Hash' must be 1..1048576, got 0";
        assert_eq!(short_words(plain), plain);
    }
}
