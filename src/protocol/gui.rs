//! The browser board's API (docs/gui.md): the commands the page sends as JSON, the state it is
//! sent back, and the API's errors with their HTTP status. The engine front end
//! ([`crate::engine::gui`]) works on these types; the web server ([`crate::gui`]) only moves
//! them.

use crate::board::{Color, Move, Position};
use crate::search::Score;
use crossbeam_channel::Sender;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// A person at the board.
    Human,
    /// The engine.
    Engine,
}

/// The engine's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Time {
    /// At most this many milliseconds a move.
    PerMove {
        /// Milliseconds.
        ms: u64,
    },
    /// A game clock for each side: `base_ms`, and `inc_ms` more after each move.
    Clock {
        /// The time each side starts with, ms.
        base_ms: u64,
        /// The time added after each move, ms.
        inc_ms: u64,
    },
}

/// The longest a move or a clock may be: a day.
pub const MAX_TIME_MS: u64 = 86_400_000;

impl Time {
    /// Checks the values (a move takes at least 10 ms; nothing over a day).
    pub fn check(self) -> Result<Time, ApiError> {
        let ok = match self {
            Time::PerMove { ms } => (10..=MAX_TIME_MS).contains(&ms),
            Time::Clock { base_ms, inc_ms } => {
                (1000..=MAX_TIME_MS).contains(&base_ms) && inc_ms <= 600_000
            }
        };
        if ok {
            Ok(self)
        } else {
            Err(ApiError::Invalid(
                "time: a move takes 0.01 s to a day; a clock 1 s to a day with at most 600 s a move"
                    .into(),
            ))
        }
    }
}

/// The game's settings: who plays, how strong, how fast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Who plays black.
    pub black: Side,
    /// Who plays white.
    pub white: Side,
    /// The engine's level, 1 to 10 (docs/levels.md).
    pub level: u32,
    /// The engine's time.
    pub time: Time,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            black: Side::Human,
            white: Side::Engine,
            level: 10,
            time: Time::PerMove { ms: 2000 },
        }
    }
}

impl Settings {
    /// Checks the values.
    pub fn check(self) -> Result<Settings, ApiError> {
        if !(1..=10).contains(&self.level) {
            return Err(ApiError::Invalid(format!(
                "level must be 1 to 10, got {}",
                self.level
            )));
        }
        self.time.check()?;
        Ok(self)
    }

    /// Who plays `c`.
    pub fn side(&self, c: Color) -> Side {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// What the page asks for (the body of `POST /api/command`, tagged by `type`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// The current state (also `GET /api/state`).
    State,
    /// A new game from the start position, or from `position` (`<64 squares> <side>` or a FEN).
    New {
        /// Who plays, level, time.
        settings: Settings,
        /// The position to start from; the standard start when absent.
        #[serde(default)]
        position: Option<String>,
    },
    /// Changes who plays, the level or the time, keeping the game.
    Settings {
        /// The new settings.
        settings: Settings,
    },
    /// Plays a move (`d3`, or `pass` when there is none) at the position shown.
    Move {
        /// The square.
        square: String,
    },
    /// Takes back moves to the last position where a person is to move (one move when the engine
    /// plays both sides or nobody does).
    Undo,
    /// Replays a move taken back.
    Redo,
    /// Shows the position after `ply` moves of the game (0: the start); later moves are kept
    /// until a different move is played.
    Goto {
        /// Moves from the start.
        ply: usize,
    },
    /// The person and the engine change colours.
    Swap,
    /// The engine plays its best move so far now; a hint search ends.
    Stop,
    /// Pauses or resumes the engine's play (an engine-against-engine game).
    Pause {
        /// Whether the engine waits.
        paused: bool,
    },
    /// Hint mode: each legal move's score on its square while a person is to move.
    Hints {
        /// On or off.
        on: bool,
    },
    /// Analyses the whole game (every move's loss against the best move).
    Analyze,
    /// Stops the analysis.
    StopAnalysis,
    /// Loads a game or a position: GGF, a transcript (`f5d6c3`), or a board string.
    Load {
        /// The text.
        text: String,
    },
    /// The game as GGF, to be saved by the browser.
    Save,
}

/// Why a request was not done; the game is as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The request is not a command this API knows, or its values are wrong.
    Invalid(String),
    /// The move is not legal here, or not the person's to play.
    Refused(String),
    /// Another tab holds the engine.
    Busy,
    /// This tab no longer holds the engine (another took it, or it was idle too long).
    NotOwner,
    /// No tab holds the engine and the request's token is missing or unknown.
    NotClaimed,
    /// The engine is gone (the server is shutting down).
    Unavailable,
    /// The engine did not answer in time; the command is still queued and may yet apply.
    Slow,
}

impl ApiError {
    /// The HTTP status that goes with the error.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::Invalid(_) => 400,
            ApiError::Refused(_) => 422,
            ApiError::Busy | ApiError::NotOwner | ApiError::NotClaimed => 409,
            ApiError::Unavailable | ApiError::Slow => 503,
        }
    }

    /// A short machine-readable name of the kind.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::Invalid(_) => "invalid",
            ApiError::Refused(_) => "refused",
            ApiError::Busy => "busy",
            // The page treats both alike: it offers to take the engine.
            ApiError::NotOwner | ApiError::NotClaimed => "not_owner",
            ApiError::Unavailable => "unavailable",
            ApiError::Slow => "slow",
        }
    }

    /// The error as the JSON body of a response.
    pub fn to_json(&self) -> String {
        serde_json::json!({ "error": self.to_string(), "kind": self.kind() }).to_string()
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Invalid(m) | ApiError::Refused(m) => f.write_str(m),
            ApiError::Busy => f.write_str(
                "another tab is using the engine; take it over to play here (the other tab stops)",
            ),
            ApiError::NotOwner => f.write_str(
                "another tab has taken over the engine (or this page's token is unknown); take it \
                 back to play here",
            ),
            ApiError::NotClaimed => f.write_str(
                "no tab holds the engine and this request's token is missing or unknown; claim \
                 the engine first (reload the page)",
            ),
            ApiError::Unavailable => f.write_str("the engine is shutting down"),
            ApiError::Slow => f.write_str(
                "the engine did not answer within 10 s; the command may still be applied (the \
                 state shows whether it was)",
            ),
        }
    }
}

impl std::error::Error for ApiError {}

/// The `force` of a claim's body: `{"force": true}` or `{"force": false}`; an empty body or
/// object is `false`. Anything else (not JSON, another field, a force that is not a boolean) is
/// refused, so that a mistyped claim does not take the engine from another tab, or fail to.
pub fn parse_claim(body: &str) -> Result<bool, ApiError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Claim {
        #[serde(default)]
        force: bool,
    }
    if body.trim().is_empty() {
        return Ok(false);
    }
    let bad = |e: String| ApiError::Invalid(format!("bad claim: {e}"));
    let value: serde_json::Value = serde_json::from_str(body).map_err(|e| bad(e.to_string()))?;
    // serde would also read a struct from an array (`[true]`); a claim is an object.
    if !value.is_object() {
        return Err(bad("expected an object such as {\"force\": false}".into()));
    }
    serde_json::from_value::<Claim>(value)
        .map(|c| c.force)
        .map_err(|e| bad(e.to_string()))
}

/// A command from the body of a request.
pub fn parse_command(body: &str) -> Result<Command, ApiError> {
    let bad = |e: serde_json::Error| ApiError::Invalid(format!("bad command: {e}"));
    let value: serde_json::Value = serde_json::from_str(body).map_err(bad)?;
    // serde would also read a command from an array (`["move", "f5"]`); a command is an object.
    if !value.is_object() {
        return Err(ApiError::Invalid(
            "bad command: expected an object such as {\"type\": \"state\"}".into(),
        ));
    }
    // serde refuses unknown fields of the commands that have fields; those without any are
    // checked here, so that a misspelt request is never half understood.
    const BARE: [&str; 8] = [
        "state",
        "undo",
        "redo",
        "swap",
        "stop",
        "analyze",
        "stop_analysis",
        "save",
    ];
    if let Some(object) = value.as_object() {
        let kind = object.get("type").and_then(serde_json::Value::as_str);
        if let Some(kind) = kind.filter(|k| BARE.contains(k)) {
            if object.len() > 1 {
                return Err(ApiError::Invalid(format!(
                    "bad command: '{kind}' takes no other field than type"
                )));
            }
        }
    }
    serde_json::from_value(value).map_err(bad)
}

/// A square's name (`d3`), `pass` for a pass.
pub fn move_name(m: Move) -> String {
    m.to_string()
}

/// A colour's name as the API writes it.
pub fn colour_key(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A position's squares, a1 to h8: `X` black, `O` white, `-` empty.
pub fn board_string(p: Position) -> String {
    (0..64)
        .map(|i| {
            if p.black() >> i & 1 == 1 {
                'X'
            } else if p.white() >> i & 1 == 1 {
                'O'
            } else {
                '-'
            }
        })
        .collect()
}

/// A score for the page: its text, its value in discs (a proven win as +1) and whether it is
/// proven.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreView {
    /// As the terminal game writes it: `+2.4`, `+6 (exact)`, `win`.
    pub text: String,
    /// In discs.
    pub discs: f64,
    /// Proven by the solver.
    pub exact: bool,
}

impl ScoreView {
    /// The view of `score`.
    pub fn of(score: Score) -> ScoreView {
        ScoreView {
            text: super::play::score_text(score),
            discs: super::play::score_discs(score),
            exact: !matches!(score, Score::Eval(_)),
        }
    }
}

/// The search that runs, as it goes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thinking {
    /// `move` (the engine's move), `hint` or `value` (a quick search for the graph).
    pub kind: &'static str,
    /// The colour the search is for.
    pub side: &'static str,
    /// The last finished iteration's depth (0 before the first).
    pub depth: u32,
    /// The best line's score from the side to move's view, once there is one.
    pub score: Option<ScoreView>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// Milliseconds since it started.
    pub ms: u64,
}

/// A legal move's hint: its score from the mover's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    /// The square.
    pub square: String,
    /// The score.
    pub score: ScoreView,
    /// The depth of the search that scored it.
    pub depth: u32,
    /// Whether it is (one of) the best.
    pub best: bool,
}

/// One move of the game for the move list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveView {
    /// `d3`, or `pass`.
    pub text: String,
    /// Who played it.
    pub colour: &'static str,
    /// What the analysis found: the loss in discs against the best move, if analysed.
    pub loss: Option<f64>,
    /// The analysis' best move there, if another.
    pub best: Option<String>,
    /// The analysis' mark (`?!`, `?`, `??`), if any.
    pub mark: Option<&'static str>,
}

/// The last move and what it turned.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LastMove {
    /// The square played, or `None` for a pass.
    pub square: Option<String>,
    /// The discs it flipped.
    pub flips: Vec<String>,
    /// Who played it.
    pub colour: &'static str,
}

/// The whole-game analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisView {
    /// Still running.
    pub running: bool,
    /// Positions searched.
    pub done: usize,
    /// Positions to search.
    pub total: usize,
    /// Black's and white's mean loss a move, once done.
    pub mean_loss: Option<[f64; 2]>,
    /// Why it ended early, if it did.
    pub error: Option<String>,
}

/// A level's name and what it does.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelView {
    /// 1 to 10.
    pub level: u32,
    /// Its name (`beginner` ... `perfect`).
    pub name: &'static str,
    /// What it does.
    pub note: &'static str,
}

/// The levels for the page's menu.
pub fn levels() -> Vec<LevelView> {
    super::play::LEVELS
        .iter()
        .zip(1..)
        .map(|(&(name, note), level)| LevelView { level, name, note })
        .collect()
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    /// Goes up whenever the state changes.
    pub version: u64,
    /// The position shown: squares a1..h8 (`X`, `O`, `-`).
    pub board: String,
    /// The side to move there.
    pub side: &'static str,
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// The legal moves.
    pub legal: Vec<String>,
    /// The move that led here.
    pub last: Option<LastMove>,
    /// The game is over at the position shown (no moves, or a flag fell).
    pub over: bool,
    /// The result, once over: `Black wins 36-28`.
    pub result: Option<String>,
    /// The game's moves, passes included.
    pub moves: Vec<MoveView>,
    /// How many of them lead to the position shown.
    pub ply: usize,
    /// Who plays, level, time.
    pub settings: Settings,
    /// The level's name.
    pub level_name: &'static str,
    /// Every level's name and note.
    pub levels: Vec<LevelView>,
    /// Black's and white's time left, ms, under a game clock.
    pub clocks: Option<[i64; 2]>,
    /// The engine waits (paused).
    pub paused: bool,
    /// Hint mode is on.
    pub hints_on: bool,
    /// The search that runs, if any.
    pub thinking: Option<Thinking>,
    /// The legal moves' scores at the position shown (hint mode).
    pub hints: Vec<Hint>,
    /// The value of the position after each move, in discs from Black's view, where known (one
    /// entry a move).
    pub graph: Vec<Option<f64>>,
    /// Black's chance to win at the position shown, where known.
    pub black_win: Option<f64>,
    /// The whole-game analysis, if one was asked for.
    pub analysis: Option<AnalysisView>,
    /// Something to tell the player: a pass, the end, a loaded game.
    pub message: Option<String>,
}

/// What a command answers: the state, or the game as GGF.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The state after the command.
    State(Box<State>),
    /// The game as a GGF line (`Save`).
    Ggf(String),
}

impl Answer {
    /// The answer as a JSON body.
    pub fn to_json(&self) -> String {
        match self {
            Answer::State(s) => serde_json::to_string(s).unwrap_or_else(|_| "{}".into()),
            Answer::Ggf(text) => serde_json::json!({ "ggf": text }).to_string(),
        }
    }
}

/// The answer to `POST /api/claim`: the token that this tab sends with each request.
pub fn token_json(token: &str) -> String {
    serde_json::json!({ "token": token }).to_string()
}

/// What the web server passes to the session loop (each request that wants an answer carries
/// the channel it goes back on).
pub enum Request {
    /// A tab asks to hold the engine (`force`: even when another holds it). Answered with the
    /// tab's token.
    Claim {
        /// Take it from another tab.
        force: bool,
        /// Where the answer goes.
        reply: Sender<Result<String, ApiError>>,
    },
    /// The tab with this token is closing.
    Leave {
        /// Its token.
        token: String,
    },
    /// A command from the tab with this token.
    Command {
        /// The tab's token.
        token: String,
        /// What it asks.
        command: Command,
        /// Where the answer goes.
        reply: Sender<Result<Answer, ApiError>>,
    },
    /// Time passes (a few times a second): clocks, silent tabs, the analysis.
    Tick,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_from_json_and_strangers_are_refused() {
        assert_eq!(
            parse_command(r#"{"type":"move","square":"d3"}"#),
            Ok(Command::Move {
                square: "d3".into()
            })
        );
        assert_eq!(parse_command(r#"{"type":"undo"}"#), Ok(Command::Undo));
        let new = parse_command(
            r#"{"type":"new","settings":{"black":"engine","white":"human","level":3,
                "time":{"kind":"clock","base_ms":60000,"inc_ms":1000}}}"#,
        )
        .unwrap();
        let Command::New { settings, position } = new else {
            panic!("not new: {new:?}");
        };
        assert_eq!(settings.black, Side::Engine);
        assert_eq!(position, None);
        for bad in [
            "",
            "{}",
            r#"{"type":"fly"}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"undo","extra":1}"#,
            r#"{"type":"goto","ply":-1}"#,
            r#"["move","f5"]"#,
            r#"["undo"]"#,
        ] {
            let e = parse_command(bad).unwrap_err();
            assert_eq!(e.status(), 400, "{bad}: {e}");
        }
    }

    #[test]
    fn a_claim_says_force_or_is_refused() {
        assert!(matches!(parse_claim(r#"{"force":true}"#), Ok(true)));
        assert!(matches!(parse_claim(r#"{"force":false}"#), Ok(false)));
        assert!(matches!(parse_claim("{}"), Ok(false)));
        assert!(matches!(parse_claim(""), Ok(false)));
        for bad in ["force", r#"{"force":"yes"}"#, r#"{"forse":true}"#, "[true]"] {
            assert!(
                matches!(parse_claim(bad), Err(ApiError::Invalid(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn settings_out_of_range_are_refused() {
        let mut s = Settings::default();
        assert!(s.check().is_ok());
        s.level = 11;
        assert!(s.check().is_err());
        s.level = 5;
        s.time = Time::PerMove { ms: 0 };
        assert!(s.check().is_err());
        s.time = Time::Clock {
            base_ms: 500,
            inc_ms: 0,
        };
        assert!(s.check().is_err());
    }

    #[test]
    fn the_start_board_string() {
        let b = board_string(Position::START);
        assert_eq!(&b[27..29], "OX");
        assert_eq!(&b[35..37], "XO");
        assert_eq!(b.chars().filter(|&c| c == '-').count(), 60);
    }
}
