//! Reading one protocol line into a [`Command`].
//!
//! The line is split into whitespace-separated tokens and the first token picks the command; both steps
//! and every keyword and number are nom parsers over `&str`. The parser checks syntax only: that a
//! board or FEN is well formed, that moves are square names or passes, that numbers fit and lie in the
//! ranges the protocol fixes (`perft` 1..=20, `bench` 1..=60). Whether a move is legal, whether an option
//! exists and whether a command is allowed right now are decided by the engine loop.
//!
//! [`parse_command`] never panics: every input, however long or strange, gives a command, `None` (blank
//! line) or a [`ParseError`] whose one-line message says what was wrong and what was expected. User
//! text quoted in messages is shortened, so a huge token cannot flood the output.

use std::fmt;
use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::{tag_no_case, take_till1, take_while};
use nom::character::{digit1, one_of};
use nom::combinator::{all_consuming, opt, value};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Offset, Parser};

use crate::board::square::truncate;
use crate::board::text::ParseBoardError;
use crate::board::{Move, Position};
pub use crate::protocol::common::QueryKind;
use crate::protocol::variant::{self, VariantBase, VariantMove};

/// The longest line accepted, in bytes (64 KiB); longer lines are rejected as "line too long".
pub const MAX_LINE_BYTES: usize = 65536;

/// The largest depth `perft` accepts.
pub const MAX_PERFT_DEPTH: u32 = 20;

mod error;
pub use error::{Fault, NumberFault};
mod go;
mod position;

use go::parse_go;
use position::parse_position;

/// The largest depth `bench` accepts.
pub const MAX_BENCH_DEPTH: u32 = 60;

/// The base position of a `position` command, before its move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionSpec {
    /// `position startpos`: the standard start, black to move.
    StartPos,
    /// `position board <64 squares> <side>`.
    Board(Position),
    /// `position fen <rows> <side>`.
    Fen(Position),
}

impl PositionSpec {
    /// The position this base stands for.
    pub fn position(self) -> Position {
        match self {
            PositionSpec::StartPos => Position::START,
            PositionSpec::Board(p) | PositionSpec::Fen(p) => p,
        }
    }
}

/// The parameters of a `go` command. Times are in milliseconds; the UGI names map onto the UCI ones:
/// `p1time` → `btime`, `p2time` → `wtime`, `p1inc` → `binc`, `p2inc` → `winc` (player 1 is black).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth <n>`: the deepest iteration to search.
    pub depth: Option<u32>,
    /// `nodes <n>`: stop after about this many nodes.
    pub nodes: Option<u64>,
    /// `movetime <ms>`: time for this move.
    pub movetime: Option<u64>,
    /// `btime` / `p1time <ms>`: black's remaining clock (negative values read as 0).
    pub btime: Option<u64>,
    /// `wtime` / `p2time <ms>`: white's remaining clock (negative values read as 0).
    pub wtime: Option<u64>,
    /// `binc` / `p1inc <ms>`: black's increment (negative values read as 0).
    pub binc: Option<u64>,
    /// `winc` / `p2inc <ms>`: white's increment (negative values read as 0).
    pub winc: Option<u64>,
    /// `movestogo <n>`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `exact`: solve to the end of the game for the exact final score.
    pub exact: bool,
    /// `wld`: solve to the end of the game for win / loss / draw.
    pub wld: bool,
    /// `ponder`: search the position (the opponent's expected move already played) until
    /// `ponderhit` (then search it for real with the other limits) or `stop`.
    pub ponder: bool,
    /// `searchmoves <m>...`: only these root moves, as a set of squares.
    pub searchmoves: Option<u64>,
    /// `mate <n>`: read as a win/loss/draw solve (`wld`); Othello has no mate, `n` is not used.
    pub mate: Option<u32>,
    /// The clocks were named by colour (`btime`, `wtime`, `binc`, `winc`).
    pub by_colour: bool,
    /// The clocks were named by player (UGI's `p1time`, `p2time`, `p1inc`, `p2inc`; player 1 moves
    /// first): they are kept in the `btime`... fields, which are the first player's on 8 x 8.
    pub by_player: bool,
}

impl GoParams {
    /// The engine's search request for these parameters on the 8 x 8 board (`btime` is the first
    /// player's clock): `exact` a full solve, `wld` and `mate` a win/loss/draw solve; `ponder`
    /// stays with the front end.
    pub fn request(&self) -> crate::engine::request::SearchRequest {
        use crate::search::SolveKind;
        crate::engine::request::SearchRequest {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: self.movetime,
            clock_ms: [self.btime, self.wtime],
            inc_ms: [self.binc, self.winc],
            moves_to_go: self.movestogo,
            infinite: self.infinite,
            solve: if self.exact {
                Some(SolveKind::Exact)
            } else if self.wld || self.mate.is_some() {
                Some(SolveKind::Wld)
            } else {
                None
            },
            root_moves: self.searchmoves,
        }
    }

    /// The search request on a variant board, where white moves first (protocol.md, 3.1): as
    /// [`GoParams::request`] with `wtime`/`winc` the first player's clock, or `p1time`/`p1inc`
    /// when the clocks are named by player only.
    pub fn variant_request(&self) -> crate::engine::request::SearchRequest {
        let mut r = self.request();
        if self.by_colour || !self.by_player {
            r.clock_ms.reverse();
            r.inc_ms.reverse();
        }
        r
    }
}

/// One protocol command, as read from a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: handshake; UCI mode (passes written `pass`).
    Uci,
    /// `ugi`: handshake; UGI mode (passes written `0000`).
    Ugi,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame` or `uginewgame`: clear the hash table and game state.
    NewGame,
    /// `debug on` (true) or `debug off` (false).
    Debug(bool),
    /// `position startpos|board ...|fen ... [moves ...]`: the base position and the moves to play
    /// from it (not yet checked for legality).
    Position {
        /// The position before the moves.
        base: PositionSpec,
        /// The listed moves, in order; passes may be missing where forced.
        moves: Vec<Move>,
    },
    /// `position variant ...|variantfile ... [moves ...]`: a variant board (protocol.md, 3.1) and
    /// the moves to play from it (not yet checked for legality).
    VariantPosition {
        /// The position before the moves, as described (the board is built by the front end).
        base: VariantBase,
        /// The listed moves, in order (`None`: a pass); passes may be missing where forced.
        moves: Vec<VariantMove>,
    },
    /// `go ...`: start a search.
    Go(GoParams),
    /// `stop`: end the search and answer `bestmove`.
    Stop,
    /// `quit`: end the process.
    Quit,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name: the tokens between `name` and `value`, joined by single spaces (the case
        /// is as sent; matching is the engine's job).
        name: String,
        /// The rest of the line after `value`, trimmed (`Some("")` when `value` ends the line);
        /// `None` when there is no `value`.
        value: Option<String>,
    },
    /// `query gameover|p1turn|result`.
    Query(QueryKind),
    /// `d`: show the board and details.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `help`: a short list of the commands.
    Help,
    /// `perft <n>` with `n` in 1..=20.
    Perft(u32),
    /// `bench [<depth>]` with an optional depth in 1..=60.
    Bench(Option<u32>),
    /// `ponderhit`: the opponent played the expected move; a `go ponder` search goes on for real.
    PonderHit,
}

/// Why a line is not a valid command: what is wrong ([`Fault`]), and whether the line was a `go`
/// (the front end still owes it a `bestmove`). Its text is one line, meant to follow `error: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub fault: Fault,
    /// The line was a `go` command.
    pub is_go: bool,
}

impl From<Fault> for ParseError {
    fn from(fault: Fault) -> ParseError {
        ParseError {
            fault,
            is_go: false,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fault)
    }
}

impl std::error::Error for ParseError {}

/// Reads one line (without or with its line ending) into a command.
///
/// Returns `Ok(None)` for an empty or whitespace-only line, `Ok(Some(command))` for a well-formed
/// command and `Err` for anything else, including lines over [`MAX_LINE_BYTES`].
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(Fault::TooLong(line.len()).into());
    }
    let tokens = tokenize(line)?;
    let Some((&first, args)) = tokens.split_first() else {
        return Ok(None);
    };
    let Some(verb) = verb(first) else {
        return Err(Fault::UnknownCommand(truncate(first)).into());
    };
    let command = match verb {
        Verb::Uci => no_args(verb, args, Command::Uci)?,
        Verb::Ugi => no_args(verb, args, Command::Ugi)?,
        Verb::IsReady => no_args(verb, args, Command::IsReady)?,
        Verb::UciNewGame | Verb::UgiNewGame => no_args(verb, args, Command::NewGame)?,
        Verb::Stop => no_args(verb, args, Command::Stop)?,
        Verb::PonderHit => no_args(verb, args, Command::PonderHit)?,
        Verb::Quit => no_args(verb, args, Command::Quit)?,
        Verb::Display => no_args(verb, args, Command::Display)?,
        Verb::Help => no_args(verb, args, Command::Help)?,
        Verb::Eval => no_args(verb, args, Command::Eval)?,
        Verb::Debug => parse_debug(args)?,
        Verb::Position => parse_position(line, args)?,
        Verb::Go => Command::Go(parse_go(args).map_err(|e| ParseError { is_go: true, ..e })?),
        Verb::SetOption => parse_setoption(line, args)?,
        Verb::Query => parse_query(args)?,
        Verb::Perft => parse_perft(args)?,
        Verb::Bench => parse_bench(args)?,
    };
    Ok(Some(command))
}

type NomError<'a> = nom::error::Error<&'a str>;

fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// Splits a line into its whitespace-separated tokens (slices of `line`).
fn tokenize(line: &str) -> Result<Vec<&str>, ParseError> {
    let token = preceded(take_while(is_space), take_till1(is_space));
    let mut tokens = all_consuming(terminated(many0(token), take_while(is_space)));
    let result: IResult<&str, Vec<&str>, NomError<'_>> = tokens.parse_complete(line);
    // An error cannot happen (every character is whitespace or part of a token); it is kept as an
    // error rather than a panic.
    result
        .map(|(_, tokens)| tokens)
        .map_err(|_| Fault::Tokens.into())
}

/// A parser matching exactly the whole token `w`, in any case.
fn word<'a>(w: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = NomError<'a>> {
    all_consuming(tag_no_case(w))
}

/// Whether `token` is the keyword `w` (any case).
fn is_word(token: &str, w: &'static str) -> bool {
    word(w).parse_complete(token).is_ok()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Uci,
    Ugi,
    IsReady,
    UciNewGame,
    UgiNewGame,
    Debug,
    Position,
    Go,
    Stop,
    PonderHit,
    Quit,
    SetOption,
    Query,
    Display,
    Help,
    Eval,
    Perft,
    Bench,
}

impl Verb {
    fn name(self) -> &'static str {
        match self {
            Verb::Uci => "uci",
            Verb::Ugi => "ugi",
            Verb::IsReady => "isready",
            Verb::UciNewGame => "ucinewgame",
            Verb::UgiNewGame => "uginewgame",
            Verb::Debug => "debug",
            Verb::Position => "position",
            Verb::Go => "go",
            Verb::Stop => "stop",
            Verb::PonderHit => "ponderhit",
            Verb::Quit => "quit",
            Verb::SetOption => "setoption",
            Verb::Query => "query",
            Verb::Display => "d",
            Verb::Help => "help",
            Verb::Eval => "eval",
            Verb::Perft => "perft",
            Verb::Bench => "bench",
        }
    }
}

fn verb(token: &str) -> Option<Verb> {
    let mut parser = alt((
        value(Verb::Uci, word("uci")),
        value(Verb::Ugi, word("ugi")),
        value(Verb::IsReady, word("isready")),
        value(Verb::UciNewGame, word("ucinewgame")),
        value(Verb::UgiNewGame, word("uginewgame")),
        value(Verb::Debug, word("debug")),
        value(Verb::Position, word("position")),
        value(Verb::Go, word("go")),
        value(Verb::Stop, word("stop")),
        value(Verb::PonderHit, word("ponderhit")),
        value(Verb::Quit, word("quit")),
        value(Verb::SetOption, word("setoption")),
        value(Verb::Query, word("query")),
        value(Verb::Display, word("d")),
        value(Verb::Help, word("help")),
        value(Verb::Eval, word("eval")),
        value(Verb::Perft, word("perft")),
        value(Verb::Bench, word("bench")),
    ));
    parser.parse_complete(token).ok().map(|(_, v)| v)
}

fn no_args(verb: Verb, args: &[&str], command: Command) -> Result<Command, ParseError> {
    match args.first() {
        None => Ok(command),
        Some(extra) => Err(Fault::NoArguments {
            command: verb.name(),
            extra: truncate(extra),
        }
        .into()),
    }
}

/// A token read as a decimal integer with an optional sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Number {
    Value(u64),
    Negative,
    Overflow,
    Invalid,
}

fn read_number(token: &str) -> Number {
    let mut parser = all_consuming((opt(one_of("+-")), digit1()));
    let result: IResult<&str, (Option<char>, &str), NomError<'_>> = parser.parse_complete(token);
    match result {
        Ok((_, (sign, digits))) => {
            if sign == Some('-') && digits.bytes().any(|b| b != b'0') {
                Number::Negative
            } else {
                match digits.parse::<u64>() {
                    Ok(v) => Number::Value(v),
                    Err(_) => Number::Overflow,
                }
            }
        }
        Err(_) => Number::Invalid,
    }
}

/// Reads the number after keyword `name` of command `cmd`, at most `max`. With `clock` (a clock
/// value, which a GUI computes), a negative value (however large) reads as 0 and one beyond 64
/// bits as `max`; otherwise both are errors.
fn number_arg(
    cmd: &'static str,
    name: &'static str,
    token: Option<&str>,
    max: u64,
    clock: bool,
) -> Result<u64, ParseError> {
    let fault = |fault| {
        ParseError::from(Fault::Number {
            command: cmd,
            name,
            fault,
        })
    };
    let Some(token) = token else {
        return Err(fault(NumberFault::Missing));
    };
    match read_number(token) {
        Number::Value(v) if v <= max => Ok(v),
        Number::Overflow if clock => Ok(max),
        Number::Value(_) | Number::Overflow => {
            Err(fault(NumberFault::TooLarge(truncate(token), max)))
        }
        Number::Negative if clock => Ok(0),
        Number::Negative => Err(fault(NumberFault::Negative(truncate(token)))),
        Number::Invalid => Err(fault(NumberFault::NotANumber(truncate(token)))),
    }
}

/// Reads a depth-like number in `min..=max` for `cmd`.
fn ranged_u32(
    cmd: &'static str,
    token: Option<&str>,
    min: u32,
    max: u32,
) -> Result<u32, ParseError> {
    let v = number_arg(cmd, "depth", token, u64::from(u32::MAX), false)?;
    match u32::try_from(v) {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(Fault::Depth {
            command: cmd,
            min,
            max,
            got: v,
        }
        .into()),
    }
}

fn parse_debug(args: &[&str]) -> Result<Command, ParseError> {
    let mut parser = alt((value(true, word("on")), value(false, word("off"))));
    match args {
        [arg] => match parser.parse_complete(*arg) {
            Ok((_, on)) => Ok(Command::Debug(on)),
            Err(_) => Err(Fault::Debug(Some(truncate(arg))).into()),
        },
        [] => Err(Fault::Debug(None).into()),
        [_, extra, ..] => Err(Fault::DebugExtra(truncate(extra)).into()),
    }
}

fn parse_query(args: &[&str]) -> Result<Command, ParseError> {
    let mut parser = alt((
        value(QueryKind::GameOver, word("gameover")),
        value(QueryKind::P1Turn, word("p1turn")),
        value(QueryKind::Result, word("result")),
    ));
    match args {
        [arg] => match parser.parse_complete(*arg) {
            Ok((_, kind)) => Ok(Command::Query(kind)),
            Err(_) => Err(Fault::Query(Some(truncate(arg))).into()),
        },
        [] => Err(Fault::Query(None).into()),
        [_, extra, ..] => Err(Fault::QueryExtra(truncate(extra)).into()),
    }
}

fn parse_perft(args: &[&str]) -> Result<Command, ParseError> {
    if let Some(extra) = args.get(1) {
        return Err(Fault::PerftExtra(truncate(extra)).into());
    }
    ranged_u32("perft", args.first().copied(), 1, MAX_PERFT_DEPTH).map(Command::Perft)
}

fn parse_bench(args: &[&str]) -> Result<Command, ParseError> {
    if let Some(extra) = args.get(1) {
        return Err(Fault::BenchExtra(truncate(extra)).into());
    }
    match args.first() {
        None => Ok(Command::Bench(None)),
        Some(&depth) => {
            ranged_u32("bench", Some(depth), 1, MAX_BENCH_DEPTH).map(|d| Command::Bench(Some(d)))
        }
    }
}

fn parse_setoption(line: &str, args: &[&str]) -> Result<Command, ParseError> {
    let Some((&first, rest)) = args.split_first() else {
        return Err(Fault::SetOption(None).into());
    };
    if !is_word(first, "name") {
        return Err(Fault::SetOption(Some(truncate(first))).into());
    }
    let value_at = rest.iter().position(|t| is_word(t, "value"));
    let name_tokens = match value_at {
        Some(i) => rest.get(..i).unwrap_or(&[]),
        None => rest,
    };
    if name_tokens.is_empty() {
        return Err(Fault::SetOptionName.into());
    }
    let name = name_tokens.join(" ");
    // Every token is a slice of `line`, so the value is the text after the `value` keyword.
    let value = value_at.and_then(|i| rest.get(i)).map(|&keyword| {
        let start = line.offset(keyword) + keyword.len();
        line.get(start..).unwrap_or("").trim().to_string()
    });
    Ok(Command::SetOption { name, value })
}

#[cfg(test)]
mod tests;
