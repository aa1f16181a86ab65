//! A match's openings: transcripts or GGF games from a file (a finished game is refused), cut to
//! a number of plies if asked, and sampled reproducibly into pairs.

use super::*;

/// Reads an openings file: one opening a line, either a transcript from the standard start
/// (`f5d6c3...`, the XOT format) or a GGF game (`(;GM[Othello]...;)`, as `--out` writes them, set-up
/// boards included). With `plies`, each opening is cut to its first `plies` moves (passes count).
/// An opening after which the game is over is an error naming the file and line: no move would be
/// played, and the game would be scored as if it had been.
pub fn read_openings(path: &Path, plies: Option<usize>) -> Result<Vec<Game>, FileError> {
    read_lines(path, |line| parse_opening(line, plies))
}

/// Why a line of an openings file is not an opening.
#[derive(Debug)]
pub enum OpeningError {
    /// A GGF game that cannot be read.
    Ggf(crate::board::ggf::GgfError),
    /// A transcript that cannot be read.
    Transcript(crate::board::text::TranscriptError),
    /// The game is over after the opening (`Some(n)`: within its first `n` moves): no move would be
    /// played.
    Over(Option<usize>),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Ggf(e) => write!(f, "{e}"),
            OpeningError::Transcript(e) => write!(f, "{e}"),
            OpeningError::Over(None) => {
                f.write_str("the game is over: an opening must leave a move to play")
            }
            OpeningError::Over(Some(n)) => write!(
                f,
                "the game is over within its first {n} moves: an opening must leave a move to play"
            ),
        }
    }
}

impl std::error::Error for OpeningError {}

/// One line of an openings file (see [`read_openings`]).
pub(super) fn parse_opening(line: &str, plies: Option<usize>) -> Result<Game, OpeningError> {
    let mut game = if line.starts_with("(;") {
        parse_ggf(line).map_err(OpeningError::Ggf)?
    } else {
        line.parse::<Game>().map_err(OpeningError::Transcript)?
    };
    if let Some(n) = plies {
        game.moves.truncate(n);
    }
    if game.position().board.is_game_over() {
        return Err(OpeningError::Over(plies));
    }
    Ok(game)
}

/// Picks `pairs` openings from `all`, shuffled reproducibly by `seed` (cycling if there are fewer),
/// each repeated `rounds` times.
pub fn sample_openings(all: &[Game], pairs: usize, rounds: usize, seed: u64) -> Vec<Game> {
    if all.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    let mut rng = crate::rng::Rng::new(seed);
    rng.shuffle(&mut order);
    let picked: Vec<Game> = (0..pairs)
        .map(|i| all[order[i % order.len()]].clone())
        .collect();
    let mut out = Vec::with_capacity(picked.len() * rounds.max(1));
    for _ in 0..rounds.max(1) {
        out.extend(picked.iter().cloned());
    }
    out
}
