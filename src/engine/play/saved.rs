//! A saved game's text, as `wedge play` loads it (`--load`, `--resume`, `load`): one GGF game or
//! one transcript, with comments and a byte-order mark skipped.

use crate::board::ggf::{parse_ggf_record, split_games, GgfClock};
use crate::board::text::Game;
use crate::board::Color;
use crate::protocol::play::Players;

/// A game from a file's text: one GGF game, or one transcript from the start (`f5d6c3...`) on a
/// line; blank lines, `#` and `%` comments and a byte-order mark are skipped. A second game is an
/// error (a saved game is one game), as is a file with none.
pub fn read_game(text: &str) -> Result<Game, GameTextError> {
    read_saved(text).map(|saved| saved.game)
}

/// A saved game and what its record says of it (none of it for a transcript).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The game.
    pub game: Game,
    /// Black's and White's names (`PB`, `PW`), when the record has them.
    pub names: [Option<String>; 2],
    /// The game's name (`GN`), place (`PC`), date (`DT`, Unix time) and time control (`TI`), as
    /// written.
    pub tags: SavedTags,
    /// Milliseconds each move took (`B[f5//1.25]`; 0 where not written, all 0 for a transcript;
    /// at most a day).
    pub times: Vec<u64>,
    /// The side that lost on time, when the record says so (a result of ±64 with a flag, and
    /// `lost on time` in its comment, as wedge writes a game whose clock ran out).
    pub lost_on_time: Option<Color>,
}

/// A GGF record's name, place, date and time control, kept to be written again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavedTags {
    /// `GN`.
    pub name: Option<String>,
    /// `PC`.
    pub place: Option<String>,
    /// `DT`, when in the form wedge writes.
    pub date: Option<u64>,
    /// `TI`.
    pub time_control: Option<String>,
}

impl SavedGame {
    /// The sides a person played, when the record is `wedge play`'s own (`human` against `wedge
    /// level N`), and the engine's level: what `--resume` restores.
    pub fn sides(&self) -> Option<(Players, Option<u32>)> {
        let level = |n: &str| n.strip_prefix("wedge level ").and_then(|l| l.parse().ok());
        let [Some(black), Some(white)] = &self.names else {
            return None;
        };
        let engine_level = level(black).or_else(|| level(white));
        let players = match (black == "human", white == "human") {
            (true, true) => Players::BothHuman,
            (true, false) if level(white).is_some() => Players::Human(Color::Black),
            (false, true) if level(black).is_some() => Players::Human(Color::White),
            (false, false) if level(black).is_some() && level(white).is_some() => {
                Players::BothEngine
            }
            _ => return None,
        };
        Some((players, engine_level))
    }

    /// The game clock its `TI` gives both sides (milliseconds, and an increment a move), when it
    /// has one that `wedge play` can keep: 1 s to 600 minutes, as `time game` takes (a grace
    /// period is not kept: a flag falls at once).
    pub fn clock(&self) -> Option<(u64, u64)> {
        let clock = GgfClock::parse(self.tags.time_control.as_deref()?)?;
        let ms = |secs: f64| (secs * 1000.0).round() as u64;
        let fits = (1.0..=36_000.0).contains(&clock.time) && clock.increment <= 86_400.0;
        fits.then(|| (ms(clock.time), ms(clock.increment)))
    }
}

/// Whether a record's result is a loss on time: GGF's `:t` flag, or wedge's reason in the
/// comment.
fn lost_on_time(record: &crate::board::ggf::GgfRecord) -> bool {
    let flag = record.result.as_deref().and_then(|r| r.split_once(':'));
    let comment = record.comment.as_deref().unwrap_or("");
    flag.is_some_and(|(_, f)| f.trim() == "t") || comment.contains(crate::board::ggf::LOST_ON_TIME)
}

/// The longest time a move is read as taking: a day.
const MOST_MOVE_MS: f64 = 86_400_000.0;

/// The lines of a saved game's text that hold something (numbered from 0): blank lines, `#` and
/// `%` comments and a byte-order mark left out.
pub fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().enumerate().filter(|(_, l)| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#') && !l.starts_with('%')
    })
}

/// [`read_game`], with the players' names.
pub fn read_saved(text: &str) -> Result<SavedGame, GameTextError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = content_lines(text);
    let Some((first, line)) = lines.next() else {
        return Err(GameTextError::NoGame);
    };
    if line.trim_start().starts_with("(;") {
        // The game from its first line on (a comment before it may say anything).
        let from = line.as_ptr() as usize - text.as_ptr() as usize;
        let games =
            split_games(&text[from..]).map_err(|(at, e)| GameTextError::Ggf(first + at, e))?;
        if let Some(second) = games.get(1) {
            return Err(GameTextError::Several(first + second.line));
        }
        let game = games.first().ok_or(GameTextError::NoGame)?;
        let record =
            parse_ggf_record(game.text).map_err(|e| GameTextError::Ggf(first + game.line, e))?;
        let times = record
            .times
            .iter()
            .map(|&secs| (secs * 1000.0).round().min(MOST_MOVE_MS) as u64)
            .collect();
        let lost_on_time = match record.early_result() {
            Some(r) if r != 0 && lost_on_time(&record) => {
                Some(if r < 0 { Color::Black } else { Color::White })
            }
            _ => None,
        };
        return Ok(SavedGame {
            lost_on_time,
            game: record.game,
            names: record.players,
            times,
            tags: SavedTags {
                name: record.name,
                place: record.place,
                date: record.date,
                time_control: record.time_control,
            },
        });
    }
    // The first line is read before any second one is looked at: a file that is no game at all
    // is refused at its first line, not as a second game.
    let game = line
        .trim()
        .parse::<Game>()
        .map_err(|e| GameTextError::Transcript(first + 1, e))?;
    if let Some((second, _)) = lines.next() {
        return Err(GameTextError::Several(second + 1));
    }
    Ok(SavedGame {
        lost_on_time: None,
        times: vec![0; game.moves.len()],
        game,
        names: [None, None],
        tags: SavedTags::default(),
    })
}

/// Why a saved game could not be read (the lines count from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameTextError {
    /// A GGF game that cannot be read, starting on this line.
    Ggf(usize, crate::board::ggf::GgfError),
    /// A transcript that cannot be read, on this line.
    Transcript(usize, crate::board::text::TranscriptError),
    /// The text holds no game.
    NoGame,
    /// A second game starts on this line.
    Several(usize),
}

impl std::fmt::Display for GameTextError {
    /// `<line>: <what>`, so that `<file>:` before it names the place.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameTextError::Ggf(line, e) => write!(f, "{line}: {e}"),
            GameTextError::Transcript(line, e) => write!(f, "{line}: {e}"),
            GameTextError::NoGame => f.write_str(" no game in it"),
            GameTextError::Several(line) => {
                write!(f, "{line}: a second game (a saved game file holds one)")
            }
        }
    }
}

impl std::error::Error for GameTextError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_read_from_ggf_and_transcripts() {
        let g = read_game("f5d6c3\n").unwrap();
        assert_eq!(g.moves.len(), 3);
        assert!(read_game("f5f5").is_err());
        // Comments and a byte-order mark are skipped; a second game, or none, is an error with
        // its line.
        assert_eq!(
            read_game("\u{feff}# my game\n\nf5d6\n")
                .unwrap()
                .moves
                .len(),
            2
        );
        assert_eq!(read_game("f5d6\nc3d3\n"), Err(GameTextError::Several(2)));
        // Text that is not a game (JSON here) is refused at its first line for what it is.
        let e = read_game("{\"a\": 1,\n \"b\": 2}\n").unwrap_err();
        assert!(matches!(e, GameTextError::Transcript(1, _)), "{e}");
        assert_eq!(read_game("# nothing\n"), Err(GameTextError::NoGame));
        let ggf = "(;GM[Othello]PC[x]PB[a]PW[b]RE[+0.000]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
        let commented = format!("# saved from (; somewhere\r\n{ggf}\r\n");
        assert_eq!(read_game(&commented).unwrap().moves.len(), 2);
        assert_eq!(
            read_game(&format!("{ggf}\n\n{ggf}\n")),
            Err(GameTextError::Several(3))
        );
        let e = read_game("# c\nf5zz\n").unwrap_err();
        assert!(e.to_string().starts_with("2: "), "{e}");
        let ggf = "(;GM[Othello]PC[x]PB[a]PW[b]RE[+0.000]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
        assert_eq!(read_game(ggf).unwrap().moves.len(), 2);
    }

    #[test]
    fn wedge_plays_own_records_give_the_sides_and_the_level() {
        let sides = |b: &str, w: &str| {
            read_saved(&format!("(;GM[Othello]PB[{b}]PW[{w}]B[f5];)"))
                .unwrap()
                .sides()
        };
        let human = "human";
        assert_eq!(
            sides(human, "wedge level 7"),
            Some((Players::Human(Color::Black), Some(7)))
        );
        assert_eq!(
            sides("wedge level 3", human),
            Some((Players::Human(Color::White), Some(3)))
        );
        assert_eq!(sides(human, human), Some((Players::BothHuman, None)));
        assert_eq!(
            sides("wedge level 10", "wedge level 10"),
            Some((Players::BothEngine, Some(10)))
        );
        assert_eq!(sides("Ann", "Bo"), None);
        assert_eq!(sides(human, "Bo"), None);
        assert_eq!(read_saved("f5d6\n").unwrap().sides(), None);
    }
}
