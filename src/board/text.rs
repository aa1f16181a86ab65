//! Text formats for positions and games, each with a typed parse error and a `Display` that reads
//! back: the 64-character board string with the side to move, UGI Othello FEN, OBF problem lines,
//! transcripts (`f5d6c3...`, passes implicit when forced) and XOT opening files. Also the line-by-line
//! file reader whose errors name the file and line.

use super::square::{is_pass_token, truncate, Color, Move, ParseSquareError};
use super::{Board, Position};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Why a board string or FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// Not 64 square characters and a side (the count of characters found is given).
    WrongLength(usize),
    /// A word of squares that is not 64 long (the count found is given); the side follows it.
    WrongSquareCount(usize),
    /// A character that is not a disc or an empty square, at the given square index (0 = a1).
    BadSquareChar {
        /// Index of the square, 0 = a1.
        index: usize,
        /// The character found.
        found: char,
    },
    /// The side to move is missing.
    MissingSide,
    /// The side to move is not X/B/* (black) or O/W (white).
    BadSide(String),
    /// A FEN row does not describe exactly 8 squares (row number 1-8 given).
    BadFenRow(usize),
    /// A FEN square holds something other than a disc (`x`, `o`) or a run of empties (a digit).
    BadFenChar {
        /// Index of the square (0 = a1).
        index: usize,
        /// The character found.
        found: char,
    },
    /// A FEN does not have 8 rows.
    WrongFenRows(usize),
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::WrongLength(n) => write!(
                f,
                "a board needs 64 squares (X/O/-), a1 to h8 row by row, then the side to move (65 \
                 characters); found {n}"
            ),
            ParseBoardError::WrongSquareCount(n) => write!(
                f,
                "a board needs 64 squares (X/O/-), a1 to h8 row by row, in one word; found {n}"
            ),
            ParseBoardError::BadSquareChar { index, found } => write!(
                f,
                "square {} holds '{}' (expected X, O, *, B, W for discs or -, ., _ for empty)",
                super::Square::ALL[*index % 64],
                found.escape_default()
            ),
            ParseBoardError::MissingSide => {
                write!(f, "the side to move is missing after the board (expected X or O)")
            }
            ParseBoardError::BadSide(s) => {
                write!(f, "'{s}' is not a side to move (expected X/B/* for black or O/W for white)")
            }
            ParseBoardError::BadFenRow(r) => {
                write!(
                    f,
                    "FEN row {r} does not describe exactly 8 squares (x, o, and one digit 1-8 \
                     for each run of empty squares)"
                )
            }
            ParseBoardError::BadFenChar { index, found } => write!(
                f,
                "FEN square {} holds '{}' (expected x or o for a disc, a digit 1-8 for empty squares)",
                super::Square::ALL[*index % 64],
                found.escape_default()
            ),
            ParseBoardError::WrongFenRows(n) => {
                write!(f, "a FEN needs 8 rows separated by '/', found {n}")
            }
        }
    }
}

impl std::error::Error for ParseBoardError {}

fn square_char(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' => Some(Some(Color::White)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

fn side_from_str(s: &str) -> Result<Color, ParseBoardError> {
    match s {
        "X" | "x" | "B" | "b" | "*" => Ok(Color::Black),
        "O" | "o" | "W" | "w" => Ok(Color::White),
        "" => Err(ParseBoardError::MissingSide),
        other => Err(ParseBoardError::BadSide(truncate(other))),
    }
}

impl FromStr for Position {
    type Err = ParseBoardError;

    /// Reads `<64 squares> <side>`: squares a1, b1, ..., h8 as `X`/`O`/`-` (also `*`, `B`, `W`,
    /// `.`, `_`, lower case), then the side to move. Whitespace anywhere is ignored, so boards pasted
    /// as 8 lines of 8 also read.
    fn from_str(s: &str) -> Result<Position, ParseBoardError> {
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.len() < 64 {
            return Err(ParseBoardError::WrongLength(chars.len()));
        }
        if chars.len() > 65 {
            // 64 squares and a last word that is not a side (`... XO`): the side is what is wrong.
            let words: Vec<&str> = s.split_whitespace().collect();
            if let Some((last, squares)) = words.split_last() {
                if squares.iter().map(|w| w.chars().count()).sum::<usize>() == 64 {
                    return Err(ParseBoardError::BadSide(truncate(last)));
                }
            }
            return Err(ParseBoardError::WrongLength(chars.len()));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (index, &c) in chars[..64].iter().enumerate() {
            match square_char(c) {
                Some(Some(Color::Black)) => black |= 1 << index,
                Some(Some(Color::White)) => white |= 1 << index,
                Some(None) => {}
                None => return Err(ParseBoardError::BadSquareChar { index, found: c }),
            }
        }
        let side: String = chars[64..].iter().collect();
        let side = side_from_str(&side)?;
        // Disjoint by construction: each square sets at most one of the two.
        Position::from_colors(black, white, side).map_err(|_| ParseBoardError::WrongLength(64))
    }
}

impl fmt::Display for Position {
    /// Writes `<64 squares> <side>` with `X`, `O`, `-`, e.g. the start is
    /// `---------------------------OX------XO--------------------------- X`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = (self.black(), self.white());
        let mut s = String::with_capacity(66);
        for i in 0..64 {
            s.push(if black >> i & 1 == 1 {
                'X'
            } else if white >> i & 1 == 1 {
                'O'
            } else {
                '-'
            });
        }
        s.push(' ');
        s.push(self.side.letter());
        f.write_str(&s)
    }
}

impl Position {
    /// Reads a UGI Othello FEN: 8 rows from row 1 to row 8 separated by `/`, each with `x` (black),
    /// `o` (white) and digits for runs of empty squares, then the side to move `x` or `o`.
    /// The start position is `8/8/8/3ox3/3xo3/8/8/8 x`.
    pub fn from_fen(s: &str) -> Result<Position, ParseBoardError> {
        let mut parts = s.split_whitespace();
        let rows_text = parts.next().unwrap_or("");
        let side = side_from_str(parts.next().unwrap_or(""))?;
        if let Some(extra) = parts.next() {
            return Err(ParseBoardError::BadSide(truncate(extra)));
        }
        let rows: Vec<&str> = rows_text.split('/').collect();
        if rows.len() != 8 {
            return Err(ParseBoardError::WrongFenRows(rows.len()));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (r, row) in rows.iter().enumerate() {
            let mut col = 0usize;
            let mut after_digit = false;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    // A run of empty squares is one digit: "44" is not a way to write 8.
                    if n == 0 || after_digit {
                        return Err(ParseBoardError::BadFenRow(r + 1));
                    }
                    col += n as usize;
                    after_digit = true;
                } else {
                    after_digit = false;
                    if col >= 8 {
                        return Err(ParseBoardError::BadFenRow(r + 1));
                    }
                    let bit = 1u64 << (r * 8 + col);
                    match c {
                        'x' | 'X' => black |= bit,
                        'o' | 'O' => white |= bit,
                        _ => {
                            return Err(ParseBoardError::BadFenChar {
                                index: r * 8 + col,
                                found: c,
                            })
                        }
                    }
                    col += 1;
                }
                if col > 8 {
                    return Err(ParseBoardError::BadFenRow(r + 1));
                }
            }
            if col != 8 {
                return Err(ParseBoardError::BadFenRow(r + 1));
            }
        }
        Position::from_colors(black, white, side).map_err(|_| ParseBoardError::WrongLength(64))
    }

    /// Writes the position as a UGI Othello FEN (see [`Position::from_fen`]).
    pub fn to_fen(self) -> String {
        let (black, white) = (self.black(), self.white());
        let mut out = String::new();
        for r in 0..8 {
            if r > 0 {
                out.push('/');
            }
            let mut run = 0;
            for c in 0..8 {
                let bit = 1u64 << (r * 8 + c);
                let ch = if black & bit != 0 {
                    'x'
                } else if white & bit != 0 {
                    'o'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push(ch);
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
        }
        out.push(' ');
        out.push(match self.side {
            Color::Black => 'x',
            Color::White => 'o',
        });
        out
    }

    /// A human-readable diagram (8 rows with coordinates, `X`, `O`, `.` and `*` on legal moves).
    pub fn diagram(self) -> String {
        let legal = self.board.legal_moves().0;
        let (black, white) = (self.black(), self.white());
        let mut out = String::from("  a b c d e f g h\n");
        for r in 0..8 {
            out.push_str(&format!("{}", r + 1));
            for c in 0..8 {
                let bit = 1u64 << (r * 8 + c);
                let ch = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if legal & bit != 0 {
                    '*'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(ch);
            }
            out.push('\n');
        }
        out
    }
}

/// A problem line of an OBF file: a position and, for some or all moves, their exact scores (final
/// disc difference for the side to move under perfect play), best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfLine {
    /// The position to solve.
    pub position: Position,
    /// `(move, score)` pairs in file order; may be empty.
    pub scores: Vec<(Move, i32)>,
}

/// Why an OBF line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseObfError {
    /// The board part was malformed.
    Board(ParseBoardError),
    /// A `MOVE:score` item was malformed (the item is quoted).
    BadItem(String),
    /// A move in an item was not a square or pass.
    BadMove(ParseSquareError),
    /// A move in an item is not legal in the line's position (the move, as written).
    IllegalMove(String),
    /// A score beyond what a game can end with, ±64 (the item is quoted).
    ScoreOutOfRange(String),
    /// A move given a score twice in one line (the move, as written the second time).
    RepeatedMove(String),
}

impl fmt::Display for ParseObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseObfError::Board(e) => e.fmt(f),
            ParseObfError::BadItem(s) => {
                write!(f, "'{s}' is not a MOVE:SCORE item (expected e.g. G8:+18)")
            }
            ParseObfError::BadMove(e) => e.fmt(f),
            ParseObfError::IllegalMove(m) => {
                write!(f, "'{m}' is not a legal move in this position")
            }
            ParseObfError::ScoreOutOfRange(s) => {
                write!(f, "'{s}': a final score is -64 to +64 discs")
            }
            ParseObfError::RepeatedMove(m) => write!(f, "move '{m}' is listed twice"),
        }
    }
}

impl std::error::Error for ParseObfError {}

impl FromStr for ObfLine {
    type Err = ParseObfError;

    /// Reads `<64 squares> <side>; MOVE:+score; MOVE:score; ...`.
    fn from_str(s: &str) -> Result<ObfLine, ParseObfError> {
        let mut items = s.split(';');
        let position: Position = items
            .next()
            .unwrap_or("")
            .parse()
            .map_err(ParseObfError::Board)?;
        let mut scores = Vec::new();
        for item in items {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (mv, score) = item
                .split_once(':')
                .ok_or_else(|| ParseObfError::BadItem(truncate(item)))?;
            let mv_text = mv.trim();
            let mv: Move = mv_text.parse().map_err(ParseObfError::BadMove)?;
            let score: i32 = score
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| ParseObfError::BadItem(truncate(item)))?;
            if !(-64..=64).contains(&score) {
                return Err(ParseObfError::ScoreOutOfRange(truncate(item)));
            }
            if position.play(mv).is_none() {
                return Err(ParseObfError::IllegalMove(truncate(mv_text)));
            }
            if scores.iter().any(|&(seen, _)| seen == mv) {
                return Err(ParseObfError::RepeatedMove(truncate(mv_text)));
            }
            scores.push((mv, score));
        }
        Ok(ObfLine { position, scores })
    }
}

impl fmt::Display for ObfLine {
    /// Writes `<64 squares> <side>; F5:+2; ...` (moves in upper case, as the FFO files do).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.position)?;
        for (mv, score) in &self.scores {
            let name = mv.to_string().to_uppercase();
            write!(f, " {name}:{score:+};")?;
        }
        Ok(())
    }
}

/// A game: a start position and the moves played from it, passes included explicitly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position before the first move.
    pub start: Position,
    /// The moves, each legal in turn; passes appear as [`Move::PASS`].
    pub moves: Vec<Move>,
}

/// Why a transcript could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TranscriptError {
    /// A token that is neither a square nor a pass, at the given move number (1-based).
    BadToken {
        /// 1-based number of the move in the transcript.
        number: usize,
        /// The offending text.
        token: String,
    },
    /// A move that is not legal in its position.
    Illegal {
        /// 1-based number of the move in the transcript.
        number: usize,
        /// The move.
        mv: Move,
    },
    /// A move after the game had ended.
    AfterGameOver {
        /// 1-based number of the move in the transcript.
        number: usize,
    },
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::BadToken { number, token } => {
                write!(
                    f,
                    "move {number}: '{token}' is not a square (a1..h8) or pass"
                )
            }
            TranscriptError::Illegal { number, mv } => {
                write!(f, "move {number}: {mv} is not legal in that position")
            }
            TranscriptError::AfterGameOver { number } => {
                write!(f, "move {number}: the game is already over")
            }
        }
    }
}

impl std::error::Error for TranscriptError {}

/// Splits a transcript into move tokens: squares are two characters, passes are `pass`, `ps`, `pa`
/// or `--`; whitespace between tokens is ignored.
fn transcript_tokens(s: &str) -> Result<Vec<Move>, TranscriptError> {
    // A game has at most 60 moves and a pass before each and after the last: a longer transcript
    // fails by its 122nd token, so no more are read (a huge line costs nothing), and tokens being
    // at most 4 characters, as many characters hold them all.
    const MAX_TOKENS: usize = 122;
    let chars: Vec<char> = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(4 * MAX_TOKENS)
        .collect();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < chars.len() && moves.len() < MAX_TOKENS {
        let number = moves.len() + 1;
        let take = |n: usize| -> String { chars[i..(i + n).min(chars.len())].iter().collect() };
        let four = take(4);
        if four.eq_ignore_ascii_case("pass") {
            moves.push(Move::PASS);
            i += 4;
            continue;
        }
        let two = take(2);
        if is_pass_token(&two) {
            moves.push(Move::PASS);
        } else {
            let mv = two.parse::<Move>().map_err(|_| TranscriptError::BadToken {
                number,
                token: truncate(&two),
            })?;
            moves.push(mv);
        }
        i += 2;
    }
    Ok(moves)
}

impl Game {
    /// An empty game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
        }
    }

    /// Replays a transcript from `start`. Passes may be written or left out: when the side to move
    /// has no legal square and the game is not over, a pass is inserted before the next move.
    pub fn from_transcript(start: Position, s: &str) -> Result<Game, TranscriptError> {
        let mut game = Game::new(start);
        let mut pos = start;
        for (i, mv) in transcript_tokens(s)?.into_iter().enumerate() {
            let number = i + 1;
            if pos.board.is_game_over() {
                return Err(TranscriptError::AfterGameOver { number });
            }
            if !mv.is_pass() && pos.board.must_pass() {
                game.moves.push(Move::PASS);
                pos = Position {
                    board: pos.board.pass(),
                    side: pos.side.opposite(),
                };
            }
            pos = pos
                .play(mv)
                .ok_or(TranscriptError::Illegal { number, mv })?;
            game.moves.push(mv);
        }
        Ok(game)
    }

    /// The position after all the moves.
    pub fn position(&self) -> Position {
        let mut pos = self.start;
        for &mv in &self.moves {
            // Every stored move was checked legal when it was added.
            pos = pos.play(mv).unwrap_or(pos);
        }
        pos
    }

    /// The transcript: squares concatenated, passes left out (they are implied).
    pub fn transcript(&self) -> String {
        self.moves
            .iter()
            .filter(|m| !m.is_pass())
            .map(|m| m.to_string())
            .collect()
    }
}

impl FromStr for Game {
    type Err = TranscriptError;

    /// A transcript from the standard start position.
    fn from_str(s: &str) -> Result<Game, TranscriptError> {
        Game::from_transcript(Position::START, s)
    }
}

/// An error in a file, naming the file and the 1-based line (0 for the file as a whole).
#[derive(Debug)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line number, or 0 for an error of the file as a whole.
    pub line: usize,
    /// What was wrong.
    pub problem: FileProblem,
}

impl FileError {
    /// An error of `path` at `line` (0: the whole file).
    pub fn new(path: &Path, line: usize, problem: FileProblem) -> FileError {
        FileError {
            path: path.to_path_buf(),
            line,
            problem,
        }
    }

    /// The error the file's reader found (in a line, or in the whole file), if it is one of type
    /// `E`.
    pub fn found<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match &self.problem {
            FileProblem::Found(e) => e.downcast_ref(),
            _ => None,
        }
    }
}

/// What is wrong with a file.
#[derive(Debug)]
pub enum FileProblem {
    /// The file could not be read.
    Read(std::io::Error),
    /// A line (or the text) is not valid UTF-8.
    NotUtf8,
    /// The file is one of wedge's binary files (what it holds), not text.
    Binary(&'static str),
    /// A line longer than this many bytes (damage: the format's lines are short).
    LineTooLong(u64),
    /// Nothing but blank lines and comments where data was expected: what the file should name.
    Empty(&'static str),
    /// What the file's reader found wrong: a line's parse error, or the whole file's at line 0.
    Found(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::Read(e) => write!(f, "{e}"),
            FileProblem::NotUtf8 => f.write_str("the line is not valid UTF-8"),
            FileProblem::Binary(kind) => write!(f, "a binary file ({kind}), not text"),
            FileProblem::LineTooLong(max) => write!(f, "a line longer than {max} bytes"),
            FileProblem::Empty(what) => {
                write!(f, "the file names no {what} (it is empty or all comments)")
            }
            FileProblem::Found(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for FileError {
    /// `path:line: problem`; a problem longer than 1,000 characters (one quoting a huge token of
    /// the file) is cut there, so the error stays one line of bounded length.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let problem = self.problem.to_string();
        let problem = match problem.char_indices().nth(1000) {
            None => problem,
            Some((cut, _)) => format!("{}... ({} bytes)", &problem[..cut], problem.len()),
        };
        if self.line == 0 {
            write!(f, "{}: {problem}", self.path.display())
        } else {
            write!(f, "{}:{}: {problem}", self.path.display(), self.line)
        }
    }
}

impl std::error::Error for FileError {}

/// What is wrong with a file that is not valid UTF-8 (`bytes` from its start): one of wedge's
/// binary files, named by its first eight bytes (docs/formats.md), or a line
/// that is not UTF-8.
pub fn not_text(bytes: &[u8]) -> FileProblem {
    let kind = match bytes.get(..8) {
        Some(b"WEDGEBK1") => "an opening book",
        Some(b"WEDGEPT1" | b"WEDGEPT2") => "pattern weights",
        Some(b"WEDGENN1") => "a pattern network",
        Some(b"WEDGEDB1") => "training data, .wdb",
        _ => return FileProblem::NotUtf8,
    };
    FileProblem::Binary(kind)
}

/// Reads a text file line by line, skipping blank lines and comments (`#` or `%` first), and parses
/// each remaining line with `parse`. The first failure is returned with the file and line.
pub fn read_lines<T, E: std::error::Error + Send + Sync + 'static>(
    path: &Path,
    parse: impl FnMut(&str) -> Result<T, E>,
) -> Result<Vec<T>, FileError> {
    read_lines_with_comments(path, |_| {}, parse)
}

/// [`read_lines`], also handing each comment line (`#` or `%` first, trimmed) to `comment` as it is
/// met, so a reader can follow markers between the data lines.
pub fn read_lines_with_comments<T, E: std::error::Error + Send + Sync + 'static>(
    path: &Path,
    mut comment: impl FnMut(&str),
    mut parse: impl FnMut(&str) -> Result<T, E>,
) -> Result<Vec<T>, FileError> {
    let text = crate::files::read_regular(path, crate::files::MAX_TEXT_BYTES)
        .map_err(|e| FileError::new(path, 0, FileProblem::Read(e)))?;
    // A byte-order mark (some Windows editors write one) is no part of the first line.
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&text);
    let mut out = Vec::new();
    for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line =
            std::str::from_utf8(raw).map_err(|_| FileError::new(path, i + 1, not_text(text)))?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('#') || line.starts_with('%') {
            comment(line);
            continue;
        }
        out.push(
            parse(line).map_err(|e| FileError::new(path, i + 1, FileProblem::Found(e.into())))?,
        );
    }
    Ok(out)
}

/// Reads an OBF file (one problem a line).
pub fn read_obf_file(path: &Path) -> Result<Vec<ObfLine>, FileError> {
    read_lines(path, str::parse::<ObfLine>)
}

/// Reads a file of openings (transcripts from the start position, one a line, e.g. the XOT set).
pub fn read_openings_file(path: &Path) -> Result<Vec<Game>, FileError> {
    read_lines(path, str::parse::<Game>)
}

/// The board after a transcript from the start, for tests and tools.
pub fn board_after(transcript: &str) -> Result<Board, TranscriptError> {
    Ok(transcript.parse::<Game>()?.position().board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_that_is_not_one_is_named_as_the_side() {
        let squares = "---------------------------OX------XO---------------------------";
        let e = format!("{squares} XO").parse::<Position>().unwrap_err();
        assert_eq!(e, ParseBoardError::BadSide("XO".into()));
        // Too many squares is still a length.
        let e = format!("{squares}-- X").parse::<Position>().unwrap_err();
        assert_eq!(e, ParseBoardError::WrongLength(67));
    }

    /// A finished game followed by a huge tail fails as it does with a short one, at the first move
    /// after the end.
    #[test]
    fn moves_after_the_end_fail_alike_however_many_follow() {
        let mut pos = Position::START;
        let mut line = String::new();
        let mut played = 0;
        while !pos.board.is_game_over() {
            let mv = *pos.legal_move_list().first().unwrap();
            line.push_str(&mv.to_string());
            pos = pos.play(mv).unwrap();
            played += 1;
        }
        for tail in [1, 1_000_000] {
            let text = format!("{line}{}", "f5".repeat(tail));
            let e = Game::from_transcript(Position::START, &text).unwrap_err();
            assert_eq!(e, TranscriptError::AfterGameOver { number: played + 1 });
        }
    }

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_board_string_round_trips() {
        let p: Position = START.parse().unwrap();
        assert_eq!(p, Position::START);
        assert_eq!(p.to_string(), START);
        assert_eq!(
            Position::from_fen("8/8/8/3ox3/3xo3/8/8/8 x"),
            Ok(Position::START)
        );
        assert_eq!(Position::START.to_fen(), "8/8/8/3ox3/3xo3/8/8/8 x");
    }
}
