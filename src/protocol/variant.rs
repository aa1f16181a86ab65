//! The text of variant boards in wedge's protocol (protocol.md, 3.1): square names, the
//! `position variant ...` and `position variantfile ...` commands, and the lines that answer a
//! search or `d` on a variant board. Pure translation between text and the values of
//! [`crate::variant::board`]; whether a move is legal, and reading a position file, are the front
//! end's business.
//!
//! Squares are named as on the 8 x 8 board, extended: the column letter `a`-`p`, then the row
//! number `1`-`16`, row 1 at the top (the course's row 0). One letter is enough for 16 columns, so
//! the letter always ends at the first digit and `a10` cannot be read as anything but column a,
//! row 10; an 8 x 8 board without blocked squares names its squares exactly as the standard board.

use super::common::{Mode, QueryKind};
use crate::board::square::truncate;
use crate::variant::board::{Board, Cell, Side, SideNames, Square, MAX_SIDE};
use crate::variant::search::{decided, Report};

pub use crate::variant::board::VariantMove;

/// The base of a variant `position` command, before its move list (checked for syntax only: the
/// board is built, and checked, by the front end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantBase {
    /// `variant <rows>x<cols> [blocked <squares>]`: the start position of that layout, white to
    /// move.
    Start {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// The blocked squares, as listed.
        blocked: Vec<Square>,
    },
    /// `variant <rows>x<cols> board <cells> <side>`: any position.
    Cells {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// The cells, row after row from the upper left (`rows * cols` of them).
        cells: Vec<Cell>,
        /// The side to move.
        to_move: Side,
    },
    /// `variantfile <path>`: a printed board read from this file.
    File(String),
}

/// The name of `sq`: column letter, then row number from 1 (`(0, 0)` is `a1`, `(9, 9)` is `j10`).
pub fn square_name(sq: Square) -> String {
    let col = char::from(b'a' + sq.col.min(25));
    format!("{col}{}", u32::from(sq.row) + 1)
}

/// The text of a move: a square's name, or the pass as the mode writes it (`pass` or `0000`).
pub fn move_name(mv: VariantMove, mode: Mode) -> String {
    match (mv, mode) {
        (Some(sq), _) => square_name(sq),
        (None, Mode::Uci) => "pass".to_string(),
        (None, Mode::Ugi) => "0000".to_string(),
    }
}

/// Why a variant position or move could not be read; its text names the token and what was
/// expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantTextError {
    /// Not a square name (the token).
    NotASquare(String),
    /// Not a board size (the token).
    NotASize(String),
    /// `position variant` without a size.
    NoSize,
    /// `board` without its cells.
    NoCells,
    /// `board` without the side to move.
    NoSide,
    /// Rows separated by `/`: how many, and the board's rows.
    RowCount(usize, usize),
    /// A `/`-separated row of the wrong length: the row (from 1), its cells, the board's columns.
    RowLength(usize, usize, usize),
    /// A character that is no cell.
    NotACell(char),
    /// The wrong number of cells: given, rows, columns.
    CellCount(usize, usize, usize),
    /// Not a side to move (the token).
    NotASide(String),
    /// Both `blocked` and `board`.
    BlockedAndBoard,
    /// A blocked square outside the board: the square, rows, columns.
    OffBoard(Square, usize, usize),
    /// A blocked square that is not a square name (the token).
    BadBlocked(String),
    /// `blocked` without squares.
    NoBlocked,
    /// `position variantfile` without a file name.
    NoFileName,
    /// A move of the list that is not one: its number (from 1) and the token.
    BadMove(usize, String),
}

impl std::fmt::Display for VariantTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use VariantTextError as E;
        let square = |f: &mut std::fmt::Formatter<'_>, t: &str| {
            write!(
                f,
                "'{}' is not a variant square (expected a column a-p then a row 1-16, e.g. j10)",
                truncate(t)
            )
        };
        match self {
            E::NotASquare(t) => square(f, t),
            E::NotASize(t) => write!(
                f,
                "position variant: '{}' is not a board size (expected <rows>x<cols>, each \
                 2-{MAX_SIDE}, e.g. 10x10)",
                truncate(t)
            ),
            E::NoSize => f.write_str(
                "position variant: the board size is missing (e.g. 'position variant 10x10 \
                 blocked a1,j1,a10,j10')",
            ),
            E::NoCells => f.write_str("position variant board: the cells are missing"),
            E::NoSide => f.write_str(
                "position variant board: the side to move is missing after the cells (expected \
                 W or R)",
            ),
            E::RowCount(got, rows) => write!(
                f,
                "position variant board: {got} rows separated by '/', the board has {rows}"
            ),
            E::RowLength(row, got, cols) => write!(
                f,
                "position variant board: row {row} has {got} cells, the board has {cols} columns"
            ),
            E::NotACell(c) => write!(
                f,
                "position variant board: '{}' is not a cell (W or 0 white, R or 1 red, . - or 2 \
                 empty, # or 3 blocked)",
                truncate(&c.to_string())
            ),
            E::CellCount(got, rows, cols) => write!(
                f,
                "position variant board: {got} cells, a {rows}x{cols} board has {}",
                rows * cols
            ),
            E::NotASide(t) => write!(
                f,
                "position variant board: the side to move must be W or R, got '{}'",
                truncate(t)
            ),
            E::BlockedAndBoard => f.write_str(
                "position variant: blocked squares are '#' cells of 'board': give either \
                 'blocked' or 'board', not both",
            ),
            E::OffBoard(sq, rows, cols) => write!(
                f,
                "position variant: blocked square {} is off the {rows}x{cols} board",
                square_name(*sq)
            ),
            E::BadBlocked(t) => {
                f.write_str("position variant: ")?;
                square(f, t)
            }
            E::NoBlocked => {
                f.write_str("position variant: 'blocked' needs squares (e.g. blocked a1,j1)")
            }
            E::NoFileName => f.write_str("position variantfile: the file name is missing"),
            E::BadMove(i, t) => {
                write!(f, "position: move {i}: ")?;
                square(f, t)
            }
        }
    }
}

impl std::error::Error for VariantTextError {}

/// Reads a square name (any case): a column letter `a`-`p`, then a row `1`-`16` without leading
/// zeros. Whether it lies on a given board is not checked here.
pub fn parse_square(text: &str) -> Result<Square, VariantTextError> {
    let bad = || VariantTextError::NotASquare(text.to_string());
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
    let digits = chars.as_str();
    if !('a'..='p').contains(&letter)
        || digits.is_empty()
        || digits.len() > 2
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let row: usize = digits.parse().map_err(|_| bad())?;
    if !(1..=MAX_SIDE).contains(&row) {
        return Err(bad());
    }
    Ok(Square {
        row: (row - 1) as u8,
        col: letter as u8 - b'a',
    })
}

/// Reads a move of a variant move list: a square, or a pass in any of the protocol's spellings
/// (`pass`, `0000`, `ps`, `pa`, `--`).
pub fn parse_move(text: &str) -> Result<VariantMove, VariantTextError> {
    let lower = text.to_ascii_lowercase();
    if ["pass", "0000", "ps", "pa", "--"].contains(&lower.as_str()) {
        return Ok(None);
    }
    parse_square(text).map(Some)
}

/// Reads `<rows>x<cols>` (each 2..=16; `10x10`, `8X12`).
fn parse_size(text: &str) -> Result<(usize, usize), VariantTextError> {
    let bad = || VariantTextError::NotASize(text.to_string());
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let side = |t: &str| -> Result<usize, VariantTextError> {
        if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        match t.parse::<usize>() {
            Ok(n) if (2..=MAX_SIDE).contains(&n) => Ok(n),
            _ => Err(bad()),
        }
    };
    Ok((side(r)?, side(c)?))
}

/// Reads one cell character: `W`/`0` white, `R`/`1` red, `.`/`-`/`2` empty, `#`/`3` blocked (any
/// case).
fn parse_cell(c: char) -> Option<Cell> {
    match c.to_ascii_uppercase() {
        'W' | '0' => Some(Cell::Disc(Side::First)),
        'R' | '1' => Some(Cell::Disc(Side::Second)),
        '.' | '-' | '2' => Some(Cell::Empty),
        '#' | '3' => Some(Cell::Blocked),
        _ => None,
    }
}

/// Reads the cells token of `board`: `rows * cols` cells in one run, or `rows` groups of `cols`
/// cells separated by `/`.
fn parse_cells(text: &str, rows: usize, cols: usize) -> Result<Vec<Cell>, VariantTextError> {
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() > 1 {
        if groups.len() != rows {
            return Err(VariantTextError::RowCount(groups.len(), rows));
        }
        if let Some((i, g)) = groups
            .iter()
            .enumerate()
            .find(|(_, g)| g.chars().count() != cols)
        {
            return Err(VariantTextError::RowLength(i + 1, g.chars().count(), cols));
        }
    }
    let mut cells = Vec::with_capacity(rows * cols);
    for c in text.chars().filter(|&c| c != '/') {
        let cell = parse_cell(c).ok_or(VariantTextError::NotACell(c))?;
        cells.push(cell);
    }
    if cells.len() != rows * cols {
        return Err(VariantTextError::CellCount(cells.len(), rows, cols));
    }
    Ok(cells)
}

/// Reads the side to move: `W`, `R`, `white`, `red`, `0` or `1` (any case).
fn parse_side(text: &str) -> Result<Side, VariantTextError> {
    match text.to_ascii_lowercase().as_str() {
        "w" | "white" | "0" => Ok(Side::First),
        "r" | "red" | "1" => Ok(Side::Second),
        _ => Err(VariantTextError::NotASide(text.to_string())),
    }
}

fn is_word(token: &str, w: &str) -> bool {
    token.eq_ignore_ascii_case(w)
}

/// Reads the tokens after `position variant` into the base and the tokens left (the move list's
/// part, starting with `moves` if any).
pub fn parse_variant<'t, 'a>(
    args: &'t [&'a str],
) -> Result<(VariantBase, &'t [&'a str]), VariantTextError> {
    let Some((&size, mut rest)) = args.split_first() else {
        return Err(VariantTextError::NoSize);
    };
    let (rows, cols) = parse_size(size)?;
    let on_board = |sq: Square| -> Result<Square, VariantTextError> {
        if usize::from(sq.row) < rows && usize::from(sq.col) < cols {
            Ok(sq)
        } else {
            Err(VariantTextError::OffBoard(sq, rows, cols))
        }
    };
    match rest.first() {
        Some(&t) if is_word(t, "board") => {
            let cells = match rest.get(1) {
                Some(&c) if !is_word(c, "moves") => c,
                _ => return Err(VariantTextError::NoCells),
            };
            let side = match rest.get(2) {
                Some(&s) if !is_word(s, "moves") => s,
                _ => return Err(VariantTextError::NoSide),
            };
            let cells = parse_cells(cells, rows, cols)?;
            let to_move = parse_side(side)?;
            rest = rest.get(3..).unwrap_or(&[]);
            if rest.first().is_some_and(|t| is_word(t, "blocked")) {
                return Err(VariantTextError::BlockedAndBoard);
            }
            Ok((
                VariantBase::Cells {
                    rows,
                    cols,
                    cells,
                    to_move,
                },
                rest,
            ))
        }
        Some(&t) if is_word(t, "blocked") => {
            rest = rest.get(1..).unwrap_or(&[]);
            let mut blocked = Vec::new();
            while let Some((&token, tail)) = rest.split_first() {
                if is_word(token, "moves") || is_word(token, "board") {
                    break;
                }
                for name in token.split(',').filter(|n| !n.is_empty()) {
                    let sq = parse_square(name)
                        .map_err(|_| VariantTextError::BadBlocked(name.to_string()))?;
                    blocked.push(on_board(sq)?);
                }
                rest = tail;
            }
            if blocked.is_empty() {
                return Err(VariantTextError::NoBlocked);
            }
            if rest.first().is_some_and(|t| is_word(t, "board")) {
                return Err(VariantTextError::BlockedAndBoard);
            }
            Ok((
                VariantBase::Start {
                    rows,
                    cols,
                    blocked,
                },
                rest,
            ))
        }
        _ => Ok((
            VariantBase::Start {
                rows,
                cols,
                blocked: Vec::new(),
            },
            rest,
        )),
    }
}

/// Reads the tokens after `position variantfile` (slices of `line`): the path is the text from
/// the first of them up to a `moves` token or the end of the line, with its inner spaces kept.
pub fn parse_variant_file<'t, 'a>(
    line: &'a str,
    args: &'t [&'a str],
) -> Result<(VariantBase, &'t [&'a str]), VariantTextError> {
    let end = args
        .iter()
        .position(|t| is_word(t, "moves"))
        .unwrap_or(args.len());
    let (Some(&first), Some(&last)) = (args.first(), end.checked_sub(1).and_then(|i| args.get(i)))
    else {
        return Err(VariantTextError::NoFileName);
    };
    let start = first.as_ptr() as usize - line.as_ptr() as usize;
    let stop = last.as_ptr() as usize - line.as_ptr() as usize + last.len();
    // The tokens are slices of `line`, so the range is inside it.
    let path = line.get(start..stop).ok_or(VariantTextError::NoFileName)?;
    Ok((
        VariantBase::File(path.to_string()),
        args.get(end..).unwrap_or(&[]),
    ))
}

/// Reads a variant move list (the tokens after `moves`).
pub fn parse_moves(list: &[&str]) -> Result<Vec<VariantMove>, VariantTextError> {
    list.iter()
        .enumerate()
        .map(|(i, t)| parse_move(t).map_err(|_| VariantTextError::BadMove(i + 1, t.to_string())))
        .collect()
}

/// The cells of a board as the `board` token writes them: rows separated by `/`, `W`, `R`, `.`
/// and `#`.
pub fn cells_text(rows: usize, cols: usize, cell: impl Fn(Square) -> Cell) -> String {
    let mut text = String::with_capacity(rows * (cols + 1));
    for row in 0..rows {
        if row > 0 {
            text.push('/');
        }
        for col in 0..cols {
            text.push(
                match cell(Square {
                    row: row as u8,
                    col: col as u8,
                }) {
                    Cell::Empty => '.',
                    Cell::Blocked => '#',
                    Cell::Disc(Side::First) => 'W',
                    Cell::Disc(Side::Second) => 'R',
                },
            );
        }
    }
    text
}

/// The side to move as `board` writes it: `W` or `R`.
pub fn side_text(colour: Side) -> &'static str {
    match colour {
        Side::First => "W",
        Side::Second => "R",
    }
}

/// The score of a variant search's report as `score cp N <wedge's score>`: an evaluation in
/// centidiscs with `discs +N.NN`; a proven result (every line searched to the end: `exact`) as
/// its final disc difference `d`, `score cp 100d` with `exact +d`. A depth-limited search whose
/// value is a decided game proves the win or the loss but only a bound on its margin (a line cut
/// at the horizon may end better): `score cp 100d lowerbound` for a win by at least `d`,
/// `upperbound` for a loss by at most `-d`, with `discs +d.00`.
fn score_text(value: i32, exact: bool) -> String {
    let discs = |v: i32| {
        let sign = if v < 0 { '-' } else { '+' };
        let a = v.unsigned_abs();
        format!("discs {sign}{}.{:02}", a / 100, a % 100)
    };
    match decided(value) {
        Some(d) if exact => format!("score cp {} exact {d:+}", 100 * d),
        None if exact && value == 0 => "score cp 0 exact +0".to_string(),
        Some(d) => {
            let bound = if value > 0 {
                "lowerbound"
            } else {
                "upperbound"
            };
            format!("score cp {} {bound} {}", 100 * d, discs(100 * d))
        }
        None => format!("score cp {value} {}", discs(value)),
    }
}

/// An `info` line for a finished iteration of the variant search: `info depth D score cp N
/// <wedge's score> nodes N [nps N] time T pv ...` (the PV leaves passes out).
pub fn info_line(report: &Report, mode: Mode) -> String {
    let ms = report.time.as_millis() as u64;
    let nps = (report.nodes * 1000)
        .checked_div(ms)
        .map_or(String::new(), |n| format!(" nps {n}"));
    let mut line = format!(
        "info depth {} {} nodes {}{nps} time {ms}",
        report.depth,
        score_text(report.value, report.exact),
        report.nodes,
    );
    if !report.pv.is_empty() {
        line.push_str(" pv");
        for sq in &report.pv {
            line.push(' ');
            line.push_str(&move_name(Some(*sq), mode));
        }
    }
    line
}

/// The `bestmove` line of a finished variant search of `board` (with `ponder <reply>` when
/// `with_ponder` and the PV has the opponent's reply); a pass when the report has no move. The PV
/// leaves passes out, so its second move is the opponent's only if the opponent has a move after
/// the best one: when it must pass, no reply is named.
pub fn bestmove_line(
    report: &Report,
    board: Option<&Board>,
    with_ponder: bool,
    mode: Mode,
) -> String {
    let mut line = format!("bestmove {}", move_name(report.best, mode));
    let Some(best) = report.best else {
        return line;
    };
    let opponent_moves = board
        .and_then(|b| b.play(best))
        .is_some_and(|after| !after.must_pass() && !after.is_over());
    if with_ponder && opponent_moves && report.pv.first() == Some(&best) {
        if let Some(reply) = report.pv.get(1) {
            line.push_str(&format!(" ponder {}", square_name(*reply)));
        }
    }
    line
}

/// The answer to a UGI `query` on a variant board; player 1 is the side that moves first, white.
pub fn response_line(kind: QueryKind, board: &Board) -> String {
    let answer = match kind {
        QueryKind::GameOver => board.is_over().to_string(),
        QueryKind::P1Turn => (board.to_move() == Side::First).to_string(),
        QueryKind::Result if !board.is_over() => "none".to_string(),
        QueryKind::Result => match board.winner() {
            Some(Side::First) => "p1win".to_string(),
            Some(Side::Second) => "p2win".to_string(),
            None => "draw".to_string(),
        },
    };
    format!("response {answer}")
}

/// The answer to `d` on a variant board: the printed board (row and column numbers from 0, as the
/// game server prints it), the side to move, the legal moves, the discs, and the position as the
/// `board` form of `position variant`.
pub fn display_lines(board: &Board, mode: Mode) -> Vec<String> {
    // The printed format ends with its own "to move:" line; the side is said once, in words, below.
    let mut lines: Vec<String> = board
        .printed()
        .lines()
        .filter(|l| !l.starts_with("to move:"))
        .map(str::to_string)
        .collect();
    lines.push(format!(
        "side to move: {} ({})",
        board.to_move().name(),
        side_text(board.to_move())
    ));
    let moves: Vec<String> = board
        .legal_moves()
        .into_iter()
        .map(|sq| format!("{} ({},{})", square_name(sq), sq.row, sq.col))
        .collect();
    lines.push(format!(
        "legal moves: {}",
        if !moves.is_empty() {
            moves.join(" ")
        } else if board.is_over() {
            "none (game over)".to_string()
        } else {
            format!("none ({})", move_name(None, mode))
        }
    ));
    lines.push(format!(
        "discs: white {}, red {}, empty {}",
        board.count(Side::First),
        board.count(Side::Second),
        board.empties()
    ));
    lines.push(format!(
        "position: position variant {}x{} board {} {}",
        board.rows(),
        board.cols(),
        cells_text(board.rows(), board.cols(), |sq| board.cell(sq)),
        side_text(board.to_move())
    ));
    lines
}

/// The error line's text for a variant `position` that could not be set.
pub fn position_error_text(e: &crate::engine::variant::PositionError, mode: Mode) -> String {
    use crate::engine::variant::{BoardFileError, PositionError};
    let at = |index: usize, mv: VariantMove| {
        format!("position: move {} ({})", index + 1, move_name(mv, mode))
    };
    match e {
        PositionError::Board {
            cells: false,
            error,
        } => format!("position variant: {error}"),
        PositionError::Board { cells: true, error } => format!("position variant board: {error}"),
        PositionError::File { path, error } => {
            let why = match error {
                BoardFileError::Io(e) => e.to_string(),
                BoardFileError::NotText => "not UTF-8 text".to_string(),
                BoardFileError::Board(e) => e.to_string(),
            };
            format!("position variantfile: {path}: {why}")
        }
        PositionError::GameOver { index, mv } => {
            format!("{}: the game is already over", at(*index, *mv))
        }
        PositionError::Illegal {
            index,
            mv: Some(sq),
        } => {
            format!("{} is not legal", at(*index, Some(*sq)))
        }
        PositionError::Illegal { index, mv: None } => {
            format!("{}: a pass is not legal, there is a move", at(*index, None))
        }
    }
}

/// The answer to `eval` on a variant board: the weights in use, the layout's corners and edges,
/// and the evaluation for the side to move.
pub fn eval_lines(e: &crate::engine::variant::VariantEval) -> Vec<String> {
    let mut lines: Vec<String> = e
        .weights
        .iter()
        .map(|(name, v)| format!("{name:<26} {v:>6}"))
        .collect();
    lines.push(format!(
        "corner-like squares {}, edge-like squares {}",
        e.corners, e.edges
    ));
    lines.push(format!(
        "total {:>+8.2} discs (side to move{})",
        f64::from(e.value) / 100.0,
        if e.over { ", game over" } else { "" }
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(row: u8, col: u8) -> Square {
        Square { row, col }
    }

    #[test]
    fn square_names_round_trip_to_16_by_16() {
        for row in 0..16 {
            for col in 0..16 {
                let s = sq(row, col);
                assert_eq!(parse_square(&square_name(s)), Ok(s));
                assert_eq!(parse_square(&square_name(s).to_uppercase()), Ok(s));
            }
        }
        assert_eq!(square_name(sq(0, 0)), "a1");
        assert_eq!(square_name(sq(9, 9)), "j10");
        assert_eq!(square_name(sq(15, 15)), "p16");
        for bad in ["", "a", "a0", "a17", "q1", "a01", "1a", "a1x", "aa1", "é1"] {
            assert!(parse_square(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_move("PASS"), Ok(None));
        assert_eq!(parse_move("pa"), Ok(None));
        assert_eq!(parse_move("p2"), Ok(Some(sq(1, 15))));
    }

    #[test]
    fn variant_bases_parse() {
        let (base, rest) =
            parse_variant(&["10x10", "blocked", "a1,j1", "a10,j10", "moves", "e4"]).unwrap();
        assert_eq!(
            base,
            VariantBase::Start {
                rows: 10,
                cols: 10,
                blocked: vec![sq(0, 0), sq(0, 9), sq(9, 0), sq(9, 9)]
            }
        );
        assert_eq!(rest, &["moves", "e4"]);
        let (base, rest) = parse_variant(&["4x3", "board", "#W./.RW/.../R#.", "r"]).unwrap();
        let VariantBase::Cells {
            rows,
            cols,
            cells,
            to_move,
        } = base
        else {
            panic!("{base:?}")
        };
        assert_eq!((rows, cols, to_move), (4, 3, Side::Second));
        assert_eq!(cells[0], Cell::Blocked);
        assert_eq!(cells[1], Cell::Disc(Side::First));
        assert_eq!(cells[4], Cell::Disc(Side::Second));
        assert!(rest.is_empty());
        assert!(parse_variant(&["4x3", "board", "#W..RW...R#.", "W"]).is_ok());
        for bad in [
            &["10x10", "blocked", "k1"][..],
            &["10x10", "blocked"],
            &["10x10", "blocked", "z9"],
            &["10"],
            &["0x10"],
            &["1x10"],
            &["10x1"],
            &["17x10"],
            &[],
            &["4x3", "board", "#W./.RW/...", "W"],
            &["4x3", "board", "#W..RW...R#", "W"],
            &["4x3", "board", "#W..RW...R#x", "W"],
            &["4x3", "board", "#W..RW...R#."],
            &["4x3", "board", "#W..RW...R#.", "X"],
            &["4x3", "board", "#W..RW...R#.", "W", "blocked", "a1"],
            &["4x4", "blocked", "a1", "board", "................", "W"],
        ] {
            assert!(parse_variant(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn variant_file_paths_keep_their_spaces() {
        let line = "position variantfile  my  boards/b.txt moves e4";
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (base, rest) = parse_variant_file(line, &tokens[2..]).unwrap();
        assert_eq!(base, VariantBase::File("my  boards/b.txt".into()));
        assert_eq!(rest, &["moves", "e4"]);
        assert!(parse_variant_file(line, &tokens[4..]).is_err());
    }
}
