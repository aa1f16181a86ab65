//! Reading the games to analyse from a file: WTHOR (`.wtb`, by its extension), GGF (one or many
//! games, `(;GM[Othello]...;)`, as NBoard, game servers, `wedge match --out` and `wedge play` save
//! them) or transcripts (`f5d6c3...`, one game a line, `#` comments). A byte-order mark and comment
//! lines before the first game are skipped in both.

use super::NamedGame;
use crate::board::text::{FileError, FileProblem, Game};
use crate::board::Position;
use std::path::Path;

/// A game's name in reports: the file's alone, or with the game's number (from 1) when the file
/// holds several.
fn source(name: &str, many: bool, index: usize) -> String {
    if many {
        format!("{name}:game {}", index + 1)
    } else {
        name.to_string()
    }
}

/// The games of `path`, each named by the file (and its number in the file when there are several).
pub fn read_games(path: &Path) -> Result<Vec<NamedGame>, FileError> {
    let err = |line: usize, problem: FileProblem| FileError::new(path, line, problem);
    let found = |line: usize, e: GameFileError| err(line, FileProblem::Found(Box::new(e)));
    let bytes = crate::files::read_regular(path, crate::files::MAX_TEXT_BYTES)
        .map_err(|e| err(0, FileProblem::Read(e)))?;
    let name = path.display().to_string();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
    {
        let games = crate::board::wthor::parse_wthor(&bytes)
            .map_err(|e| found(0, GameFileError::Wthor(e)))?;
        let many = games.len() > 1;
        return Ok(games
            .into_iter()
            .enumerate()
            .map(|(i, g)| NamedGame {
                source: source(&name, many, i),
                black: format!("player {}", g.black),
                white: format!("player {}", g.white),
                game: g.game,
                recorded: None,
            })
            .collect());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        // The line of the first byte that is not UTF-8 (lines count from 1).
        let bad = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..bad].iter().filter(|&&b| b == b'\n').count();
        err(line, crate::board::text::not_text(e.as_bytes()))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let first = text.lines().map(str::trim).find(|l| !is_comment(l));
    if first.is_some_and(|l| l.starts_with("(;")) {
        read_ggf_games(text, &name).map_err(|(line, e)| found(line, e))
    } else {
        read_transcripts(text, &name).map_err(|(line, e)| found(line, e))
    }
}

/// What is wrong with a file of games to analyse (with [`FileProblem::Found`]).
#[derive(Debug)]
pub enum GameFileError {
    /// A WTHOR file that cannot be read.
    Wthor(crate::board::wthor::WthorError),
    /// Text that cannot be split into GGF games (between games, or in a game's tags).
    Ggf(crate::board::ggf::GgfError),
    /// A GGF game (its 1-based number in the file) that cannot be read.
    Game {
        /// The game's number in the file.
        number: usize,
        /// What is wrong with it.
        error: crate::board::ggf::GgfError,
    },
    /// A transcript that cannot be read, and the line.
    Transcript {
        /// What is wrong with it.
        error: crate::board::text::TranscriptError,
        /// The line.
        text: String,
    },
}

impl std::fmt::Display for GameFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameFileError::Wthor(e) => write!(f, "{e}"),
            GameFileError::Ggf(e) => write!(f, "{e}"),
            GameFileError::Game { number, error } => write!(f, "game {number}: {error}"),
            GameFileError::Transcript { error, text } => {
                write!(f, "{error} in '{}'", crate::files::Excerpt(text))
            }
        }
    }
}

impl std::error::Error for GameFileError {}

/// Whether a line holds no game: blank, or a `#` or `%` comment.
fn is_comment(line: &str) -> bool {
    line.is_empty() || line.starts_with('#') || line.starts_with('%')
}

/// Every `(;...;)` game of a GGF text; an error gives the line its game starts on.
fn read_ggf_games(text: &str, name: &str) -> Result<Vec<NamedGame>, (usize, GameFileError)> {
    let spans =
        crate::board::ggf::split_games(text).map_err(|(line, e)| (line, GameFileError::Ggf(e)))?;
    let many = spans.len() > 1;
    let mut games = Vec::new();
    for (n, span) in spans.iter().enumerate() {
        let record = crate::board::ggf::parse_ggf_record(span.text).map_err(|error| {
            let number = n + 1;
            (span.line, GameFileError::Game { number, error })
        })?;
        let player = |i: usize, default: &str| {
            record.players[i]
                .clone()
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| default.to_string())
        };
        games.push(NamedGame {
            source: source(name, many, n),
            black: player(0, "black"),
            white: player(1, "white"),
            recorded: record.early_result(),
            game: record.game,
        });
    }
    Ok(games)
}

/// One transcript a line from the start position (`#` and `%` lines are comments).
fn read_transcripts(text: &str, name: &str) -> Result<Vec<NamedGame>, (usize, GameFileError)> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !is_comment(l))
        .collect();
    let many = lines.len() > 1;
    lines
        .iter()
        .enumerate()
        .map(|(n, &(line, l))| {
            let game = Game::from_transcript(Position::START, l).map_err(|error| {
                let text = l.to_string();
                (line, GameFileError::Transcript { error, text })
            })?;
            Ok(NamedGame {
                source: source(name, many, n),
                black: "black".into(),
                white: "white".into(),
                game,
                recorded: None,
            })
        })
        .collect()
}
