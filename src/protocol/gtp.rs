//! GTP's text (the Go Text Protocol, version 2, as Othello programs and their match scripts use
//! it): reading a line `[id] command args` into a [`Request`] and writing answers, `=[id] result`
//! or `?[id] error` and a blank line. Colours are `b`/`w` (or `black`/`white`), moves are squares
//! (`f5`) or `pass`. Every refusal is an [`Error`] whose text is the answer after `?`.

use crate::board::square::truncate;
use crate::board::{Color, Move, Position};
use crate::protocol::LineError;
use std::fmt;

/// The commands this engine knows, for `list_commands` and `known_command`.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "final_score",
    "time_settings",
    "time_left",
    "showboard",
    "loadggf",
    "set_game",
    "list_games",
    "set_option",
    "set_depth",
    "quit",
];

/// The answer to `protocol_version`.
pub const PROTOCOL_VERSION: &str = "2";
/// The answer to `name`.
pub const NAME: &str = "wedge";
/// The answer to `list_games`: the one game played.
pub const GAME: &str = "Othello";

/// The longest time accepted from `time_settings` and `time_left`, in seconds (about 115 days):
/// more is a mistake, not a clock.
pub const MAX_SECONDS: f64 = 1e7;

/// `time_settings`: main time, byo-yomi period (seconds) and stones per period.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeSettings {
    /// Main time, seconds.
    pub main: f64,
    /// Byo-yomi period, seconds.
    pub byo: f64,
    /// Stones to play in each period.
    pub stones: u32,
}

/// One GTP command with its arguments checked for form (not against the game).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command <name>`: whether the name is known.
    KnownCommand(bool),
    /// `list_commands`.
    ListCommands,
    /// `boardsize 8` (no other size is accepted).
    BoardSize,
    /// `clear_board`: a new game.
    ClearBoard,
    /// `komi <k>`: read and ignored.
    Komi,
    /// `set_game othello` (no other game is accepted).
    SetGame,
    /// `list_games`.
    ListGames,
    /// `play <colour> <move>`.
    Play(Color, Move),
    /// `genmove <colour>` (`play`: the move goes on the board) or `reg_genmove <colour>`.
    GenMove {
        /// The side to move.
        colour: Color,
        /// `genmove` (true) or `reg_genmove` (false).
        play: bool,
    },
    /// `undo`.
    Undo,
    /// `final_score`.
    FinalScore,
    /// `time_settings main byo_yomi stones`.
    TimeSettings(TimeSettings),
    /// `time_left colour seconds [stones]`.
    TimeLeft {
        /// Whose clock.
        colour: Color,
        /// Seconds left.
        seconds: f64,
        /// Stones to play in them (0: the main time).
        stones: u32,
    },
    /// `showboard`.
    ShowBoard,
    /// `loadggf FILE [move_number]`.
    LoadGgf {
        /// The file.
        path: String,
        /// Replay up to the position before this move (1 = the set-up position).
        move_number: Option<usize>,
    },
    /// `set_option <name> [<value>]`: the text after the command word.
    SetOption(String),
    /// `set_depth <plies>`: the depth cap (`None`: `set_depth 0`, no cap).
    SetDepth(Option<u32>),
    /// `quit`.
    Quit,
}

/// One line read: its id (empty when none) and its command, or why the command is refused.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The id the answer repeats.
    pub id: String,
    /// The command.
    pub command: Result<Command, Error>,
}

/// Why a file named by `loadggf` gives no game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// It cannot be read (the reason).
    File(String),
    /// It is not UTF-8 text.
    NotUtf8,
    /// No line of it opens a GGF game.
    NoGame,
    /// The game that opens on this line (from 1) is not valid GGF (the reason).
    Ggf(usize, String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::File(e) => f.write_str(e),
            LoadError::NotUtf8 => f.write_str("the file is not UTF-8 text"),
            LoadError::NoGame => f.write_str("no GGF game in it"),
            LoadError::Ggf(line, e) => write!(f, "line {line}: {e}"),
        }
    }
}

/// A refused command: the text after `?` in the answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The line could not be read.
    Unreadable(LineError),
    /// An id with no command after it.
    Empty,
    /// A command this engine does not know (its name, shortened).
    Unknown(String),
    /// The arguments do not have the command's form: what was wrong or the expected form.
    Syntax(String),
    /// `boardsize` other than 8.
    BoardSize,
    /// `set_game` other than Othello.
    Game,
    /// `play` with something that is not a move (as written).
    NotAMove(String),
    /// A move of this side is asked for, but the other side is to move (the side to move).
    NotTurn(Color),
    /// The move is not legal here.
    Illegal(Move),
    /// `undo` with no move to take back.
    CannotUndo,
    /// `final_score` during the game.
    NotOver,
    /// A move after the end of the game.
    Over,
    /// `loadggf` found no game in the file.
    CannotLoad {
        /// The file as named.
        path: String,
        /// Why.
        reason: LoadError,
    },
    /// The engine refused (an option value, a search it cannot start): its message.
    Refused(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unreadable(e) => write!(f, "{e}"),
            Error::Empty => f.write_str("empty command"),
            Error::Unknown(name) => write!(f, "unknown command '{name}'"),
            Error::Syntax(form) => write!(f, "syntax error: {form}"),
            Error::BoardSize => f.write_str("unacceptable size (only 8)"),
            Error::Game => f.write_str("unsupported game (only Othello)"),
            Error::NotAMove(m) => write!(f, "illegal move '{m}'"),
            Error::NotTurn(side) => write!(f, "it is {side}'s turn"),
            Error::Illegal(mv) => write!(f, "illegal move '{mv}'"),
            Error::CannotUndo => f.write_str("cannot undo"),
            Error::NotOver => f.write_str("cannot score: the game is not over"),
            Error::Over => f.write_str("the game is over"),
            Error::CannotLoad { path, reason } => write!(f, "cannot load '{path}': {reason}"),
            Error::Refused(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

/// A colour: `b`, `w`, `black` or `white`, in any case.
fn colour(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A time in seconds: finite, not negative and at most [`MAX_SECONDS`].
fn seconds(text: &str) -> Result<f64, Error> {
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() && (0.0..=MAX_SECONDS).contains(&t) => Ok(t),
        _ => Err(Error::Syntax(format!(
            "'{}' is not a time in seconds (0 to {MAX_SECONDS})",
            truncate(text)
        ))),
    }
}

/// A number of stones: an integer, not negative.
fn stones(text: &str) -> Result<u32, Error> {
    text.parse::<u32>()
        .map_err(|_| Error::Syntax(format!("'{}' is not a number of stones", truncate(text))))
}

/// Splits a line into its id (empty when none) and its words, after GTP's preprocessing: control
/// characters dropped, tabs made spaces, a comment (`#` to the end) removed. `None` for a line
/// with nothing left.
fn split_line(line: &str) -> Option<(String, Vec<String>)> {
    let clean: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return None;
    }
    let id = if words[0].bytes().all(|b| b.is_ascii_digit()) {
        words.remove(0)
    } else {
        String::new()
    };
    Some((id, words))
}

/// Whether `line` is a `quit` command.
pub fn is_quit(line: &str) -> bool {
    // As `parse_line` reads it: `quit` with more words is a syntax error, not a quit.
    split_line(line).is_some_and(|(_, words)| words == ["quit"])
}

/// Reads one line into a request; `None` for a line with no command (blank, or a comment).
pub fn parse_line(line: &str) -> Option<Request> {
    let (id, words) = split_line(line)?;
    let Some((cmd, args)) = words.split_first() else {
        // An id alone.
        return Some(Request {
            id,
            command: Err(Error::Empty),
        });
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    Some(Request {
        id,
        command: parse_command(cmd, &args),
    })
}

/// The command `cmd` with its arguments `args`.
fn parse_command(cmd: &str, args: &[&str]) -> Result<Command, Error> {
    let syntax = |form: &str| Error::Syntax(form.to_string());
    // Words beyond a command's arguments are refused rather than dropped: `play b d3 c4` must not
    // play d3 alone. The commands with several forms check their own counts below.
    let most = match cmd {
        "protocol_version" | "name" | "version" | "list_commands" | "clear_board"
        | "list_games" | "undo" | "final_score" | "showboard" | "quit" => Some(0),
        "known_command" | "boardsize" | "komi" | "set_game" | "genmove" | "reg_genmove" => Some(1),
        "play" => Some(2),
        _ => None,
    };
    if let Some(most) = most.filter(|&m| args.len() > m) {
        let s = if most == 1 { "" } else { "s" };
        return Err(Error::Syntax(format!(
            "{cmd} takes {most} argument{s}, not {}",
            args.len()
        )));
    }
    Ok(match cmd {
        "protocol_version" => Command::ProtocolVersion,
        "name" => Command::Name,
        "version" => Command::Version,
        "known_command" => match args.first() {
            Some(c) => Command::KnownCommand(COMMANDS.contains(c)),
            None => return Err(syntax("known_command <command>")),
        },
        "list_commands" => Command::ListCommands,
        "boardsize" => match args.first().map(|s| s.parse::<u32>()) {
            Some(Ok(8)) => Command::BoardSize,
            Some(Ok(_)) => return Err(Error::BoardSize),
            _ => return Err(syntax("boardsize <size>")),
        },
        "clear_board" => Command::ClearBoard,
        "komi" => match args.first().map(|k| k.parse::<f64>()) {
            Some(Ok(k)) if k.is_finite() => Command::Komi,
            _ => return Err(syntax("komi <number>")),
        },
        "set_game" => match args.first() {
            Some(g) if g.eq_ignore_ascii_case("othello") => Command::SetGame,
            _ => return Err(Error::Game),
        },
        "list_games" => Command::ListGames,
        "play" => {
            let (Some(c), Some(m)) = (args.first().and_then(|c| colour(c)), args.get(1)) else {
                return Err(syntax("play b|w <move>"));
            };
            let mv: Move = m.parse().map_err(|_| Error::NotAMove(truncate(m)))?;
            Command::Play(c, mv)
        }
        "genmove" | "reg_genmove" => match args.first().and_then(|c| colour(c)) {
            None => return Err(Error::Syntax(format!("{cmd} b|w"))),
            Some(colour) => Command::GenMove {
                colour,
                play: cmd == "genmove",
            },
        },
        "undo" => Command::Undo,
        "final_score" => Command::FinalScore,
        "time_settings" => {
            let [main, byo, n] = args else {
                return Err(syntax("time_settings main byo_yomi stones"));
            };
            Command::TimeSettings(TimeSettings {
                main: seconds(main)?,
                byo: seconds(byo)?,
                stones: stones(n)?,
            })
        }
        "time_left" => {
            let form = || syntax("time_left b|w seconds stones");
            let colour = args.first().and_then(|c| colour(c)).ok_or_else(form)?;
            let seconds = seconds(args.get(1).ok_or_else(form)?)?;
            let stones = args.get(2).map_or(Ok(0), |n| stones(n))?;
            if args.len() > 3 {
                return Err(form());
            }
            Command::TimeLeft {
                colour,
                seconds,
                stones,
            }
        }
        "showboard" => Command::ShowBoard,
        "loadggf" => match args {
            [path] => Command::LoadGgf {
                path: path.to_string(),
                move_number: None,
            },
            [path, n] => match n.parse::<usize>() {
                Ok(n) if n >= 1 => Command::LoadGgf {
                    path: path.to_string(),
                    move_number: Some(n),
                },
                _ => {
                    return Err(Error::Syntax(format!(
                        "'{}' is not a move number",
                        truncate(n)
                    )))
                }
            },
            _ => return Err(syntax("loadggf <file> [move_number]")),
        },
        "set_option" => Command::SetOption(args.join(" ")),
        "set_depth" => match args.first().and_then(|d| d.parse::<u32>().ok()) {
            Some(0) if args.len() == 1 => Command::SetDepth(None),
            Some(d) if args.len() == 1 && d <= 60 => Command::SetDepth(Some(d)),
            _ => return Err(syntax("set_depth <plies 0..60> (0: no cap)")),
        },
        "quit" => Command::Quit,
        other => return Err(Error::Unknown(truncate(other))),
    })
}

/// The answer to a command with this id: `=[id] result` or `?[id] error`, and the blank line that
/// ends every answer.
pub fn answer(id: &str, result: &Result<String, Error>) -> String {
    match result {
        Ok(r) if r.is_empty() => format!("={id}\n"),
        Ok(r) => format!("={id} {r}\n"),
        Err(e) => format!("?{id} {}\n", super::common::short_words(&e.to_string())),
    }
}

/// The answer to `list_commands`: one command a line.
pub fn command_list() -> String {
    COMMANDS.join("\n")
}

/// The answer to `final_score` from black's disc lead (the empty squares already given to the
/// winner): `B+n`, `W+n` or `0`.
pub fn final_score_text(black_lead: i32) -> String {
    match black_lead {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

/// The answer to `showboard`: the board on the lines after the `=`, then the side to move.
pub fn board_text(pos: Position) -> String {
    format!("\n{}{} to move", pos.diagram(), pos.side)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Result<Command, Error> {
        parse_line(line).unwrap().command
    }

    #[test]
    fn lines_split_into_ids_and_commands() {
        let r = parse_line("12 genmove B # a comment").unwrap();
        assert_eq!(r.id, "12");
        assert_eq!(
            r.command,
            Ok(Command::GenMove {
                colour: Color::Black,
                play: true
            })
        );
        assert_eq!(parse_line("  # only a comment"), None);
        assert_eq!(command("7"), Err(Error::Empty));
        assert!(is_quit("3 quit"));
        assert!(!is_quit("name"));
        assert!(!is_quit("quit now"));
    }

    #[test]
    fn refusals_read_as_gtp_errors() {
        let text = |line: &str| command(line).unwrap_err().to_string();
        assert_eq!(text("boardsize 19"), "unacceptable size (only 8)");
        assert_eq!(text("boardsize"), "syntax error: boardsize <size>");
        assert_eq!(text("boardsize x"), "syntax error: boardsize <size>");
        assert_eq!(text("play b zz"), "illegal move 'zz'");
        assert_eq!(text("play"), "syntax error: play b|w <move>");
        assert_eq!(text("reg_genmove x"), "syntax error: reg_genmove b|w");
        assert_eq!(
            text("time_left b 1 2 3"),
            "syntax error: time_left b|w seconds stones"
        );
        assert_eq!(
            text("time_settings 1 inf 2"),
            "syntax error: 'inf' is not a time in seconds (0 to 10000000)"
        );
        assert_eq!(text("frob"), "unknown command 'frob'");
        assert_eq!(
            text("play b d3 c4"),
            "syntax error: play takes 2 arguments, not 3"
        );
        assert_eq!(
            text("genmove b w"),
            "syntax error: genmove takes 1 argument, not 2"
        );
        assert_eq!(
            text("showboard now"),
            "syntax error: showboard takes 0 arguments, not 1"
        );
        assert!(command("komi 6.5").is_ok());
        assert_eq!(text("komi abc"), "syntax error: komi <number>");
        assert_eq!(text("komi"), "syntax error: komi <number>");
        assert_eq!(
            text("known_command"),
            "syntax error: known_command <command>"
        );
        // A long word is quoted short; an illegal square is quoted as a bad one is.
        assert!(text(&format!("play b {}", "z".repeat(5000))).len() < 200);
        assert_eq!(
            Error::Illegal("c5".parse().unwrap()).to_string(),
            "illegal move 'c5'"
        );
        assert_eq!(answer("4", &Err(Error::CannotUndo)), "?4 cannot undo\n");
        assert_eq!(answer("", &Ok(String::new())), "=\n");
        assert_eq!(final_score_text(-3), "W+3");
    }
}
