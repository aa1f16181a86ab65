//! The text of `wedge play`, the practice game in the terminal: the commands a person types (with
//! errors that say exactly what is wrong), the board as it is drawn (coloured or plain), and the
//! win-probability read-out. Pure translation between lines and values; the game itself is in
//! `engine::play`.

use crate::board::{Color, Move, Position, Square};
use crate::search::Score;

/// A command typed in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayCommand {
    /// Play this move (a square, or `pass` when the player has no move).
    Move(Move),
    /// Take back moves: `undo` alone goes back to the human's previous turn.
    Undo(Option<usize>),
    /// Play again moves that were taken back.
    Redo(Option<usize>),
    /// The N best moves with scores, at full strength.
    Hint(usize),
    /// A new game from the start position.
    New,
    /// The engine's level, 1..=10.
    Level(u32),
    /// List the levels.
    Levels,
    /// Change sides with the engine.
    Swap,
    /// Who plays black and white.
    Players(Players),
    /// The engine's time: per move, or a game clock.
    Time(TimeSetting),
    /// Save the game (GGF).
    Save(String),
    /// Load a game: GGF, or a transcript such as `f5d6c3`.
    Load(String),
    /// Change the position.
    Edit(Edit),
    /// Opening book on or off.
    Book(bool),
    /// Root noise on (with an optional seed) or off.
    Random(Option<u64>),
    /// Deterministic play.
    RandomOff,
    /// Score each move of the game so far against the best alternative.
    Analyze,
    /// Show the board again.
    Board,
    /// The commands.
    Help,
    /// Make the engine move now.
    Stop,
    /// End the program.
    Quit,
}

/// Who plays which colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Players {
    /// The human plays this colour, the engine the other.
    Human(Color),
    /// Humans on both sides (the engine only gives hints).
    BothHuman,
    /// The engine plays both sides (watch).
    BothEngine,
}

/// How long the engine thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSetting {
    /// At most this many milliseconds a move.
    PerMove(u64),
    /// A clock for the whole game: milliseconds, and an increment per move.
    Game(u64, u64),
}

/// A change to the position (the game then starts from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Put discs of this colour on the squares (`None`: empty them).
    Place(Option<Color>, Vec<Square>),
    /// Set the side to move.
    Side(Color),
    /// Empty the board but for the four centre discs.
    Clear,
}

/// The commands, for `help`.
pub const HELP: &[&str] = &[
    "moves: type a square (f5 or F5); 'pass' only when you have no move (passes are automatic)",
    "undo [N] / redo [N]    take back or replay moves (alone: to your previous / next turn)",
    "hint [N]               the N best moves with scores, at full strength",
    "new                    a new game from the start",
    "level N                the engine's level, 1 (weakest) to 10 (full strength); level alone lists them",
    "swap                   change sides with the engine",
    "play black|white|both|none   you play black, white, both sides, or watch",
    "time N                 the engine thinks at most N seconds a move",
    "time game M[+I]        a game clock of M minutes (and I seconds a move) for each side",
    "save FILE / load FILE  save the game (GGF) / load a GGF game or a transcript (f5d6c3...)",
    "edit black|white|empty SQUARES...   put discs on (or empty) squares; edit side black|white;",
    "                       edit clear (only the four centre discs). The game starts from there",
    "book on|off            the opening book",
    "random on [SEED]|off   vary the engine's moves (a seed replays the same game)",
    "analyze                each move of the game with its score and the best alternative",
    "board                  show the board again;   help;   quit (the game is saved for --resume)",
    "while the engine thinks: stop (or an empty line) makes it move now",
];

/// A number a command takes, for [`PlayError::BadNumber`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberOf {
    /// `undo N`: moves, 1..120.
    Undo,
    /// `redo N`: moves, 1..120.
    Redo,
    /// `hint N`: moves, 1..32.
    Hint,
    /// `level N`: 1..10.
    Level,
    /// `random on SEED`: 0..2147483647.
    Seed,
    /// `time S`: seconds, 0.01 to 86400.
    Seconds,
    /// `time game M+I`: the increment, seconds, 0 to 86400.
    Increment,
    /// `time game M`: minutes, up to 600.
    Minutes,
}

/// Why a typed square is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// The letter is past `h`.
    NoColumn(char),
    /// The number is not 1..8 (as typed).
    NoRow(String),
    /// Neither a square nor a command.
    NotASquare,
}

/// Why a line of a game could not be read; its text says what is wrong, in words a player
/// understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// A command that takes nothing got something after it.
    TakesNothing(String),
    /// A number that is not one, or out of its range (as typed).
    BadNumber(NumberOf, String),
    /// `play` with a word other than black, white, both or none.
    NotAPlayer(String),
    /// `edit` with a word other than black, white, empty, side or clear.
    NotAnEdit(String),
    /// `edit side` with a word other than black or white.
    NotASide(String),
    /// `edit black|white|empty` without squares (the word typed).
    NoSquares(String),
    /// A word where a square was expected (an `edit` square list; as typed).
    NotASquare(String),
    /// `save` or `load` without a file name (the command).
    NoFile(String),
    /// The arguments do not fit the command's form: the form, as help shows it.
    Usage(&'static str),
    /// A typed square that is not one (as typed).
    Square(String, SquareError),
    /// A command that does not exist (its first word).
    Unknown(String),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::TakesNothing(verb) => write!(f, "'{verb}' takes nothing after it"),
            PlayError::BadNumber(what, got) => match what {
                NumberOf::Undo | NumberOf::Redo => {
                    let verb = if *what == NumberOf::Undo {
                        "undo"
                    } else {
                        "redo"
                    };
                    write!(f, "{verb} needs a number of moves 1..120, got '{got}'")
                }
                NumberOf::Hint => write!(f, "hint needs a number of moves 1..32, got '{got}'"),
                NumberOf::Level => write!(f, "level must be 1..10, got '{got}'"),
                NumberOf::Seed => write!(f, "the seed must be a number 0..2147483647, got '{got}'"),
                NumberOf::Seconds => {
                    write!(f, "'{got}' is not a number of seconds (0.01 to 86400)")
                }
                NumberOf::Increment => {
                    write!(f, "'{got}' is not an increment in seconds (0 to 86400)")
                }
                NumberOf::Minutes => write!(f, "'{got}' is not a number of minutes (up to 600)"),
            },
            PlayError::NotAPlayer(w) => {
                write!(f, "play takes black, white, both or none, got '{w}'")
            }
            PlayError::NotAnEdit(w) => {
                write!(
                    f,
                    "edit takes black, white, empty, side or clear, got '{w}'"
                )
            }
            PlayError::NotASide(w) => write!(f, "edit side takes black or white, got '{w}'"),
            PlayError::NoSquares(w) => write!(f, "edit {w} needs squares, e.g. 'edit {w} a1 h8'"),
            PlayError::NoFile(verb) => {
                write!(f, "{verb} needs a file name, e.g. '{verb} game.ggf'")
            }
            PlayError::NotASquare(text) => {
                let shown = crate::board::square::truncate(text);
                write!(f, "'{shown}' is not a square (a1..h8)")
            }
            PlayError::Usage(form) => f.write_str(form),
            PlayError::Unknown(word) => {
                write!(f, "unknown command '{word}' (type help for the commands)")
            }
            PlayError::Square(text, e) => match e {
                SquareError::NoColumn(c) => write!(f, "{text}: there is no column {c}"),
                SquareError::NoRow(r) => write!(f, "{text}: there is no row {r}"),
                SquareError::NotASquare => {
                    let shown = crate::board::square::truncate(text);
                    write!(
                        f,
                        "unknown command '{shown}' (a move is a square a1..h8; type help for the \
                         commands)"
                    )
                }
            },
        }
    }
}

impl std::error::Error for PlayError {}

/// Reads one line of a game.
pub fn parse(line: &str) -> Result<PlayCommand, PlayError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(PlayCommand::Stop);
    };
    let verb = first.to_ascii_lowercase();
    let args = &words[1..];
    let no_args = |c: PlayCommand| {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(PlayError::TakesNothing(verb.clone()))
        }
    };
    let count = |what: NumberOf, usage: &'static str| -> Result<Option<usize>, PlayError> {
        match args {
            [] => Ok(None),
            [n] => n
                .parse::<usize>()
                .ok()
                .filter(|&n| (1..=120).contains(&n))
                .map(Some)
                .ok_or_else(|| PlayError::BadNumber(what, n.to_string())),
            _ => Err(PlayError::Usage(usage)),
        }
    };
    match verb.as_str() {
        "undo" | "u" => count(NumberOf::Undo, "undo takes one number").map(PlayCommand::Undo),
        "redo" | "r" => count(NumberOf::Redo, "redo takes one number").map(PlayCommand::Redo),
        "hint" => match args {
            [] => Ok(PlayCommand::Hint(3)),
            [n] => n
                .parse::<usize>()
                .ok()
                .filter(|&n| (1..=32).contains(&n))
                .map(PlayCommand::Hint)
                .ok_or_else(|| PlayError::BadNumber(NumberOf::Hint, n.to_string())),
            _ => Err(PlayError::Usage("hint takes one number")),
        },
        "new" => no_args(PlayCommand::New),
        "swap" => no_args(PlayCommand::Swap),
        "analyze" | "analyse" => no_args(PlayCommand::Analyze),
        "board" | "b" => no_args(PlayCommand::Board),
        "help" | "?" | "h" => Ok(PlayCommand::Help),
        "stop" => no_args(PlayCommand::Stop),
        "quit" | "exit" | "q" => Ok(PlayCommand::Quit),
        "level" => match args {
            [] => Ok(PlayCommand::Levels),
            [n] => n
                .parse::<u32>()
                .ok()
                .filter(|l| (1..=10).contains(l))
                .map(PlayCommand::Level)
                .ok_or_else(|| PlayError::BadNumber(NumberOf::Level, n.to_string())),
            _ => Err(PlayError::Usage(
                "level needs a number 1..10, e.g. 'level 6'",
            )),
        },
        "play" => match args {
            [who] => match who.to_ascii_lowercase().as_str() {
                "black" | "b" | "x" => Ok(PlayCommand::Players(Players::Human(Color::Black))),
                "white" | "w" | "o" => Ok(PlayCommand::Players(Players::Human(Color::White))),
                "both" => Ok(PlayCommand::Players(Players::BothHuman)),
                "none" | "watch" => Ok(PlayCommand::Players(Players::BothEngine)),
                other => Err(PlayError::NotAPlayer(other.to_string())),
            },
            _ => Err(PlayError::Usage("play takes black, white, both or none")),
        },
        "time" => parse_time(args).map(PlayCommand::Time),
        "save" | "load" => {
            let rest = line.trim()[first.len()..].trim();
            if rest.is_empty() {
                return Err(PlayError::NoFile(verb));
            }
            Ok(if verb == "save" {
                PlayCommand::Save(rest.to_string())
            } else {
                PlayCommand::Load(rest.to_string())
            })
        }
        "edit" => parse_edit(args).map(PlayCommand::Edit),
        "book" => on_off(args, "book takes on or off").map(PlayCommand::Book),
        "random" => match args {
            [x] if x.eq_ignore_ascii_case("off") => Ok(PlayCommand::RandomOff),
            [x] if x.eq_ignore_ascii_case("on") => Ok(PlayCommand::Random(None)),
            [x, seed] if x.eq_ignore_ascii_case("on") => seed
                .parse::<u64>()
                .ok()
                .filter(|&s| s <= 2_147_483_647)
                .map(|s| PlayCommand::Random(Some(s)))
                .ok_or_else(|| PlayError::BadNumber(NumberOf::Seed, seed.to_string())),
            _ => Err(PlayError::Usage("random takes 'on [SEED]' or 'off'")),
        },
        "pass" | "pa" => no_args(PlayCommand::Move(Move::PASS)),
        _ if words.len() == 1 => parse_square(first).map(|sq| PlayCommand::Move(Move::play(sq))),
        _ => Err(PlayError::Unknown(crate::board::square::truncate(first))),
    }
}

fn on_off(args: &[&str], usage: &'static str) -> Result<bool, PlayError> {
    match args {
        [x] if x.eq_ignore_ascii_case("on") => Ok(true),
        [x] if x.eq_ignore_ascii_case("off") => Ok(false),
        _ => Err(PlayError::Usage(usage)),
    }
}

fn parse_time(args: &[&str]) -> Result<TimeSetting, PlayError> {
    // Milliseconds from seconds in `min..=86400`.
    let seconds = |s: &str, min: f64, what: NumberOf| -> Result<u64, PlayError> {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= min && *v <= 86_400.0)
            .map(|v| (v * 1000.0).round() as u64)
            .ok_or_else(|| PlayError::BadNumber(what, s.to_string()))
    };
    match args {
        [s] => Ok(TimeSetting::PerMove(seconds(s, 0.01, NumberOf::Seconds)?)),
        [g, clock] if g.eq_ignore_ascii_case("game") => {
            let (m, inc) = clock.split_once('+').unwrap_or((clock, "0"));
            let minutes = m
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0 && *v <= 600.0)
                .ok_or_else(|| PlayError::BadNumber(NumberOf::Minutes, m.to_string()))?;
            let inc = seconds(inc, 0.0, NumberOf::Increment)?;
            Ok(TimeSetting::Game((minutes * 60_000.0).round() as u64, inc))
        }
        _ => Err(PlayError::Usage(
            "time takes seconds a move ('time 5') or a game clock ('time game 10+2')",
        )),
    }
}

fn parse_edit(args: &[&str]) -> Result<Edit, PlayError> {
    let Some((&what, squares)) = args.split_first() else {
        return Err(PlayError::Usage(
            "edit takes black|white|empty SQUARES..., side black|white, or clear",
        ));
    };
    let colour = |w: &str| match w.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Some(Color::Black),
        "white" | "w" | "o" => Some(Color::White),
        _ => None,
    };
    match what.to_ascii_lowercase().as_str() {
        "clear" if squares.is_empty() => Ok(Edit::Clear),
        "side" => match squares {
            [c] => colour(c)
                .map(Edit::Side)
                .ok_or_else(|| PlayError::NotASide(c.to_string())),
            _ => Err(PlayError::Usage("edit side takes black or white")),
        },
        w => {
            let target = match w {
                "empty" | "remove" | "-" => None,
                _ => Some(colour(w).ok_or_else(|| PlayError::NotAnEdit(w.to_string()))?),
            };
            if squares.is_empty() {
                return Err(PlayError::NoSquares(w.to_string()));
            }
            let squares = squares
                .iter()
                .map(|s| {
                    parse_square(s).map_err(|e| match e {
                        PlayError::Square(text, SquareError::NotASquare) => {
                            PlayError::NotASquare(text)
                        }
                        e => e,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Edit::Place(target, squares))
        }
    }
}

/// A square typed by a person: `f5` or `F5`, with an error that says which part is wrong.
pub fn parse_square(text: &str) -> Result<Square, PlayError> {
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let first = bytes.first().copied().unwrap_or(b' ');
    let err = |e| Err(PlayError::Square(text.to_string(), e));
    if bytes.len() == 2 && first.is_ascii_lowercase() && bytes[1].is_ascii_digit() {
        let (col, row) = (bytes[0], bytes[1]);
        if col > b'h' {
            return err(SquareError::NoColumn(col as char));
        }
        if !(b'1'..=b'8').contains(&row) {
            return err(SquareError::NoRow((row as char).to_string()));
        }
        if let Some(sq) = Square::from_coords(col - b'a', row - b'1') {
            return Ok(sq);
        }
    }
    if first.is_ascii_lowercase() && bytes.len() > 2 && bytes[1..].iter().all(u8::is_ascii_digit) {
        return err(SquareError::NoRow(lower[1..].to_string()));
    }
    err(SquareError::NotASquare)
}

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours (a terminal without `NO_COLOR`); otherwise plain characters.
    pub colour: bool,
}

/// What to mark on the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Marks {
    /// The last move's square.
    pub last: Option<Square>,
    /// The discs it flipped.
    pub flipped: u64,
    /// Legal moves to show (the human's turn).
    pub legal: u64,
}

/// The board: coordinates, discs (`X` black, `O` white; coloured on a terminal), the last move in
/// brackets, flipped discs in lower case (plain) or dimmed (colour), legal moves as `.` among `-`.
pub fn board_lines(pos: Position, marks: Marks, style: Style) -> Vec<String> {
    let (black, white) = (pos.black(), pos.white());
    let mut lines = vec!["    a  b  c  d  e  f  g  h".to_string()];
    for r in 0..8u8 {
        let mut line = format!("{} ", r + 1);
        for c in 0..8u8 {
            let i = r * 8 + c;
            let bit = 1u64 << i;
            let last = marks.last.is_some_and(|s| s.index() == i as usize);
            let flipped = marks.flipped & bit != 0;
            let cell = if black & bit != 0 {
                disc('X', flipped, style, "\x1b[1;30;42m")
            } else if white & bit != 0 {
                disc('O', flipped, style, "\x1b[1;97;42m")
            } else if marks.legal & bit != 0 {
                paint(".", style, "\x1b[33;42m")
            } else {
                paint("-", style, "\x1b[32;42m")
            };
            let (open, close) = if last { ("[", "]") } else { (" ", " ") };
            line.push_str(&paint(open, style, "\x1b[31;42m"));
            line.push_str(&cell);
            line.push_str(&paint(close, style, "\x1b[31;42m"));
        }
        line.push_str(&format!(" {}", r + 1));
        lines.push(line);
    }
    lines.push("    a  b  c  d  e  f  g  h".to_string());
    lines
}

fn disc(ch: char, flipped: bool, style: Style, code: &str) -> String {
    if style.colour {
        let dim = if flipped { "\x1b[4m" } else { "" };
        format!("{code}{dim}{ch}\x1b[0m")
    } else if flipped {
        ch.to_ascii_lowercase().to_string()
    } else {
        ch.to_string()
    }
}

fn paint(text: &str, style: Style, code: &str) -> String {
    if style.colour {
        format!("{code}{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Each level's name and what it does (docs/levels.md), for levels 1..=10.
pub const LEVELS: [(&str, &str); 10] = [
    ("beginner", "looks one move ahead, with large random errors"),
    ("novice", "one move ahead, with random errors"),
    ("casual", "two moves ahead, small random errors"),
    (
        "learner",
        "three moves ahead, slight random errors, exact in the last 4 squares",
    ),
    ("club", "four moves ahead, exact in the last 8 squares"),
    (
        "strong club",
        "six moves ahead, exact in the last 10 squares",
    ),
    ("expert", "eight moves ahead, exact in the last 12 squares"),
    (
        "strong expert",
        "ten moves ahead, exact in the last 14 squares",
    ),
    ("master", "twelve moves ahead, exact in the last 18 squares"),
    (
        "full strength",
        "as deep as its time allows, perfect endgames",
    ),
];

/// `level N (name: what it does)`.
pub fn level_text(level: u32) -> String {
    let (name, note) = LEVELS[(level.clamp(1, 10) - 1) as usize];
    format!("level {level} ({name}: {note})")
}

/// A colour's name.
pub fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The disc symbol of a colour on the board.
pub fn colour_symbol(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// The scale of the win-probability curve by empty squares: at `k` discs the side to move wins
/// 73% of games (1 / (1 + e^-1)). Fitted by maximum likelihood to the outcomes of the 31,222
/// self-play games of `data/train/s48.wdb` and `s49.wdb` (the shipped evaluation playing, solved
/// exactly from 20 empties) against their depth-12 selective search scores, per band of empties
/// (the band's centre here; read between them linearly, and at the ends beyond them):
/// `scripts/win_probability.py data/train/s48.wdb data/train/s49.wdb` (docs/play.md).
const WIN_SCALE: [(u32, f64); 7] = [
    (22, 2.05),
    (27, 2.88),
    (32, 3.51),
    (37, 3.81),
    (42, 4.29),
    (47, 4.52),
    (52, 5.68),
];

/// The chance (0..1) that the side to move wins, from a search score in discs at `empties`.
pub fn win_probability(discs: f64, empties: u32) -> f64 {
    let k = scale_at(empties);
    1.0 / (1.0 + (-discs / k).exp())
}

fn scale_at(empties: u32) -> f64 {
    let (first, last) = (WIN_SCALE[0], WIN_SCALE[WIN_SCALE.len() - 1]);
    if empties <= first.0 {
        return first.1;
    }
    if empties >= last.0 {
        return last.1;
    }
    for w in WIN_SCALE.windows(2) {
        let ((e0, k0), (e1, k1)) = (w[0], w[1]);
        if empties <= e1 {
            let t = f64::from(empties - e0) / f64::from(e1 - e0);
            return k0 + t * (k1 - k0);
        }
    }
    last.1
}

/// The confidence read-out of a score from the engine's point of view: its evaluation in discs and
/// the chance to win, or the exact result once the solver has proven it.
pub fn confidence(score: Score, empties: u32) -> String {
    match score {
        Score::Exact(d) if d > 0 => format!("wins by {d} (proven)"),
        Score::Exact(d) if d < 0 => format!("loses by {} (proven)", -d),
        Score::Exact(_) => "draws (proven)".to_string(),
        Score::Wld(w) if w > 0 => "wins (proven)".to_string(),
        Score::Wld(w) if w < 0 => "loses (proven)".to_string(),
        Score::Wld(_) => "draws (proven)".to_string(),
        Score::Eval(cd) => {
            let discs = f64::from(cd) / 100.0;
            format!(
                "evaluation {discs:+.1} discs, {:.0}% to win",
                100.0 * win_probability(discs, empties)
            )
        }
    }
}

/// `n` and the noun that goes with it: `1 move`, `2 moves`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A score for a list of moves: discs with a sign, or the proven result.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Eval(cd) => format!("{:+.1}", f64::from(cd) / 100.0),
        Score::Exact(d) => format!("{d:+} (exact)"),
        Score::Wld(w) if w > 0 => "win".to_string(),
        Score::Wld(w) if w < 0 => "loss".to_string(),
        Score::Wld(_) => "draw".to_string(),
    }
}

/// A score in discs for comparisons (proven results at their value, a proven win as +1).
pub fn score_discs(score: Score) -> f64 {
    match score {
        Score::Eval(cd) => f64::from(cd) / 100.0,
        Score::Exact(d) => f64::from(d),
        Score::Wld(w) => f64::from(w),
    }
}

/// A duration as `m:ss`.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// `ms` as seconds for a person: tenths (`1.5`), or as many decimals as a shorter time needs
/// (`0.05`), never shown as more or less than it is.
pub fn seconds_text(ms: u64) -> String {
    if ms.is_multiple_of(100) {
        format!("{:.1}", ms as f64 / 1000.0)
    } else {
        format!("{:.3}", ms as f64 / 1000.0)
            .trim_end_matches('0')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_shown_as_they_are() {
        assert_eq!(seconds_text(1000), "1.0");
        assert_eq!(seconds_text(1500), "1.5");
        assert_eq!(seconds_text(50), "0.05");
        assert_eq!(seconds_text(1234), "1.234");
        assert_eq!(seconds_text(0), "0.0");
    }

    #[test]
    fn moves_and_their_errors() {
        let f5 = Move::play("f5".parse().unwrap());
        assert_eq!(parse("f5"), Ok(PlayCommand::Move(f5)));
        assert_eq!(parse("  F5 "), Ok(PlayCommand::Move(f5)));
        assert_eq!(
            parse("g9").unwrap_err().to_string(),
            "g9: there is no row 9"
        );
        assert_eq!(
            parse("z3").unwrap_err().to_string(),
            "z3: there is no column z"
        );
        assert_eq!(
            parse("a10").unwrap_err().to_string(),
            "a10: there is no row 10"
        );
        assert!(parse("hello")
            .unwrap_err()
            .to_string()
            .contains("unknown command 'hello'"));
        assert!(parse("fly me")
            .unwrap_err()
            .to_string()
            .contains("unknown command 'fly'"));
        assert_eq!(parse(""), Ok(PlayCommand::Stop));
    }

    #[test]
    fn commands_read_their_arguments() {
        assert_eq!(parse("undo"), Ok(PlayCommand::Undo(None)));
        assert_eq!(parse("undo 3"), Ok(PlayCommand::Undo(Some(3))));
        assert!(parse("undo x").is_err());
        assert_eq!(parse("hint"), Ok(PlayCommand::Hint(3)));
        assert_eq!(parse("hint 5"), Ok(PlayCommand::Hint(5)));
        assert_eq!(parse("level 7"), Ok(PlayCommand::Level(7)));
        assert_eq!(
            parse("level 11").unwrap_err().to_string(),
            "level must be 1..10, got '11'"
        );
        assert_eq!(
            parse("time 2.5"),
            Ok(PlayCommand::Time(TimeSetting::PerMove(2500)))
        );
        assert_eq!(
            parse("time game 10+2"),
            Ok(PlayCommand::Time(TimeSetting::Game(600_000, 2000)))
        );
        // An increment of zero in any spelling; a time a move too short to think in is refused.
        for zero in ["time game 10+0.0", "time game 10+0", "time game 10"] {
            assert_eq!(
                parse(zero),
                Ok(PlayCommand::Time(TimeSetting::Game(600_000, 0))),
                "{zero}"
            );
        }
        assert_eq!(
            parse("time 0.001").unwrap_err().to_string(),
            "'0.001' is not a number of seconds (0.01 to 86400)"
        );
        assert!(parse("time game 10+-1").is_err());
        assert_eq!(
            parse("save my game.ggf"),
            Ok(PlayCommand::Save("my game.ggf".into()))
        );
        assert!(parse("load").is_err());
        assert_eq!(
            parse("edit black a1 h8"),
            Ok(PlayCommand::Edit(Edit::Place(
                Some(Color::Black),
                vec!["a1".parse().unwrap(), "h8".parse().unwrap()]
            )))
        );
        assert_eq!(
            parse("edit side white"),
            Ok(PlayCommand::Edit(Edit::Side(Color::White)))
        );
        assert_eq!(
            parse("edit black a9").unwrap_err().to_string(),
            "a9: there is no row 9"
        );
        assert_eq!(
            parse("edit white f5 zz").unwrap_err().to_string(),
            "'zz' is not a square (a1..h8)"
        );
        assert_eq!(parse("random on 42"), Ok(PlayCommand::Random(Some(42))));
        assert_eq!(parse("random off"), Ok(PlayCommand::RandomOff));
        assert_eq!(parse("book off"), Ok(PlayCommand::Book(false)));
        assert_eq!(
            parse("play none"),
            Ok(PlayCommand::Players(Players::BothEngine))
        );
    }

    #[test]
    fn win_probability_grows_with_the_score_and_is_even_at_zero() {
        assert!((win_probability(0.0, 30) - 0.5).abs() < 1e-12);
        assert!(win_probability(4.0, 30) > win_probability(2.0, 30));
        assert!(win_probability(4.0, 22) > win_probability(4.0, 50));
        assert!((win_probability(-3.0, 40) + win_probability(3.0, 40) - 1.0).abs() < 1e-12);
        assert_eq!(confidence(Score::Exact(6), 12), "wins by 6 (proven)");
    }

    #[test]
    fn the_plain_board_marks_the_last_move_flips_and_legal_moves() {
        let start = Position::START;
        let f5: Square = "f5".parse().unwrap();
        let after = start.play(Move::play(f5)).unwrap();
        let flipped = after.black() & start.white();
        let lines = board_lines(
            after,
            Marks {
                last: Some(f5),
                flipped,
                legal: after.board.legal_moves().0,
            },
            Style { colour: false },
        );
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[5], "5  -  -  -  X  x [X] -  -  5");
        assert!(lines.iter().all(|l| !l.contains('\x1b')));
        assert!(lines[4].contains(" . "), "{lines:?}");
    }
}
