//! Reading data files back as training samples, from either format: text (`<64 squares> <side>
//! <label>` lines, a `# game <n>` line after each game) or binary ([`super::datafile`], one block
//! a game), so that samples know which game they come from.

use crate::board::text::{FileError, FileProblem, ParseBoardError};
use crate::board::{Board, Position};
use std::fmt;
use std::path::Path;

/// Why a line of a data file is not a sample.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleError {
    /// The line is not `<64 squares> <side> <label>`.
    Form,
    /// The board and its side, without a label.
    NoLabel,
    /// The position is not a board.
    Board(ParseBoardError),
    /// The label is not a number (as written).
    NotANumber(String),
    /// The label lies outside -64..64.
    OutOfRange(f32),
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Form => f.write_str("expected '<64 squares> <side> <label>'"),
            SampleError::NoLabel => {
                f.write_str("the label (a score in discs, -64..64) is missing after the side")
            }
            SampleError::Board(e) => write!(f, "{e}"),
            SampleError::NotANumber(label) => write!(f, "'{label}' is not a number"),
            SampleError::OutOfRange(label) => write!(f, "label {label} is outside -64..64"),
        }
    }
}

impl std::error::Error for SampleError {}

/// One training sample.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// The label, discs for the side to move.
    pub label: f32,
    /// Which game it comes from (an opaque id, the same for all positions of one game of one file),
    /// so that a held-out split keeps each game on one side.
    pub game: u64,
}

/// The samples of one data file, and the bytes of an unfinished game at its end that were skipped.
#[derive(Clone, Debug, Default)]
pub struct SampleFile {
    /// The positions of its complete games.
    pub samples: Vec<Sample>,
    /// Bytes of a game cut short at the end of a binary file (an interrupted run leaves one),
    /// skipped; 0 for a text file, whose torn last line is an error.
    pub torn_bytes: u64,
}

/// [`read_sample_file`]'s samples alone.
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, FileError> {
    read_sample_file(path).map(|f| f.samples)
}

/// Reads a data file: binary (it starts with the binary magic; a torn last block, as an interrupted
/// run leaves, is skipped and counted) or text (`<64 squares> <side> <label>` lines; `#` comments;
/// a `# game <n>` line closes each game's positions).
pub fn read_sample_file(path: &Path) -> Result<SampleFile, FileError> {
    // Games are told apart by the file's name (not its directory, so the split does not depend on
    // where the file lies) and the number of `# game` lines before them.
    let salt = path
        .file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .bytes()
        .fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        });
    let game_id = |n: u64| (salt ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    if super::datafile::is_binary_data(path) {
        let data = super::datafile::read_data_file(path)
            .map_err(|e| FileError::new(path, 0, FileProblem::Found(Box::new(e.error))))?;
        let samples = data
            .blocks
            .iter()
            .flat_map(|b| {
                b.records.iter().map(|r| Sample {
                    board: r.position.board,
                    label: f32::from(r.label),
                    game: game_id(b.game),
                })
            })
            .collect();
        return Ok(SampleFile {
            samples,
            torn_bytes: data.torn_bytes,
        });
    }
    let games_closed = std::cell::Cell::new(0u64);
    let samples = crate::board::text::read_lines_with_comments(
        path,
        |comment| {
            if super::game_marker(comment).is_some() {
                games_closed.set(games_closed.get() + 1);
            }
        },
        |line| -> Result<Sample, SampleError> {
            let (pos, label) = parse_line(line)?;
            Ok(Sample {
                board: pos.board,
                label,
                game: game_id(games_closed.get()),
            })
        },
    )?;
    Ok(SampleFile {
        samples,
        torn_bytes: 0,
    })
}

/// The error of a line whose board and side read but that is not `<board> <side> <label>`: the
/// label missing, or words after it.
fn form_error(line: &str) -> Option<SampleError> {
    // A board and its side are at most 65 words (a square or the side each).
    let mut words = line.split_whitespace();
    let head: Vec<&str> = words.by_ref().take(65).collect();
    let read = (1..=head.len()).find(|&k| head[..k].concat().parse::<Position>().is_ok())?;
    Some(if read == head.len() && words.next().is_none() {
        SampleError::NoLabel
    } else {
        SampleError::Form
    })
}

/// One position line of the text format: `<64 squares> <side> <label>`, the label within -64..64.
pub fn parse_line(line: &str) -> Result<(Position, f32), SampleError> {
    let (board, label) = line.rsplit_once(' ').ok_or(SampleError::Form)?;
    let pos: Position = board
        .parse()
        .map_err(|e| form_error(line).unwrap_or(SampleError::Board(e)))?;
    let label: f32 = label
        .parse()
        .map_err(|_| SampleError::NotANumber(label.to_string()))?;
    if !(-64.0..=64.0).contains(&label) {
        return Err(SampleError::OutOfRange(label));
    }
    Ok((pos, label))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_says_which_part_is_missing_or_extra() {
        let side = Position::START.to_string();
        let board = side.trim_end_matches(" X");
        assert!(matches!(parse_line(&format!("{side} -3")), Ok((_, l)) if l == -3.0));
        assert_eq!(parse_line(&side), Err(SampleError::NoLabel));
        assert_eq!(parse_line(&format!("{side} 2 3")), Err(SampleError::Form));
        assert_eq!(
            parse_line(&format!("{side} x")),
            Err(SampleError::NotANumber("x".into()))
        );
        assert!(matches!(
            parse_line(&format!("{board}- X 2")),
            Err(SampleError::Board(_))
        ));
        // A line of many words is judged by its first ones.
        let long = format!("{side} 1{}", " 2".repeat(200_000));
        assert_eq!(parse_line(&long), Err(SampleError::Form));
        let junk = "a ".repeat(200_000);
        assert!(matches!(parse_line(&junk), Err(SampleError::Board(_))));
    }
}
