//! Counting a match again from its games: the GGF lines that `wedge match --out` wrote, from one
//! run or several (an interrupted run, runs on several machines), give the same W/D/L, disc
//! average, pentanomial pairs and Elo as the runner's own report. Two games pair when they come
//! from the same file and carry the same pair in their `GN[pair N game G]` tag (the runner writes
//! it; game 1 is the one with engine A black); games without it (files from elsewhere) are counted
//! as single games, and the interval then comes from games.

use super::stats::{Outcome, Tally};
use super::{GAME_INFIX, PAIR_PREFIX};
use crate::board::ggf::parse_ggf_record;
use std::collections::HashMap;
use std::fmt;

/// The games of one or more files, counted for the first game's black player (engine A).
#[derive(Clone, Debug, PartialEq)]
pub struct Recount {
    /// Engine A: black in the first game of a pair, else in the first game read.
    pub a: String,
    /// Engine B: the other player.
    pub b: String,
    /// The games and pairs, from A's point of view.
    pub tally: Tally,
    /// Games whose result carries a flag (`RE[-64.000:r]`): lost by a forfeit, a resignation or
    /// on time rather than played out.
    pub forfeits: u32,
}

/// Why the games could not be counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecountError {
    /// A line that is not a finished two-player game of this match.
    Line {
        /// The file, as the caller named it.
        file: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// No game in any of the files.
    NoGames,
}

impl fmt::Display for RecountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecountError::Line {
                file,
                line,
                message,
            } => write!(f, "{file}:{line}: {message}"),
            RecountError::NoGames => write!(f, "no games to count (the files hold no GGF line)"),
        }
    }
}

impl std::error::Error for RecountError {}

/// One game as read: where it is, its players, black's disc difference, and its pair.
struct Read {
    file: usize,
    line: usize,
    black: String,
    white: String,
    black_score: i32,
    flagged: bool,
    /// The pair's number and the game's number in it (1: engine A black), from `GN`.
    pair: Option<(String, u32)>,
}

/// Counts the games of `files`, each given as (name for errors, contents): one GGF game a line,
/// blank lines skipped. Every game must be between the same two players and carry a disc result.
/// Engine A is the black player of the first game of a pair (`GN[pair N game 1]`), else the black
/// player of the first game read.
pub fn recount(files: &[(String, String)]) -> Result<Recount, RecountError> {
    let mut games = Vec::new();
    for (index, (file, text)) in files.iter().enumerate() {
        for (number, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                games.push(read(index, number + 1, line).map_err(|message| {
                    RecountError::Line {
                        file: file.clone(),
                        line: number + 1,
                        message,
                    }
                })?);
            }
        }
    }
    let first = games
        .iter()
        .find(|g| matches!(g.pair, Some((_, 1))))
        .or(games.first())
        .ok_or(RecountError::NoGames)?;
    let (a, b) = (first.black.clone(), first.white.clone());
    let mut tally = Tally::default();
    let mut forfeits = 0;
    // The first game counted of each pair, keyed by file and pair.
    let mut halves: HashMap<(usize, &str), Outcome> = HashMap::new();
    for g in &games {
        let a_discs = if (&g.black, &g.white) == (&a, &b) {
            g.black_score
        } else if (&g.black, &g.white) == (&b, &a) {
            -g.black_score
        } else {
            return Err(RecountError::Line {
                file: files[g.file].0.clone(),
                line: g.line,
                message: format!(
                    "the players '{}' and '{}' are not the match's ('{a}' and '{b}')",
                    g.black, g.white
                ),
            });
        };
        let outcome = Outcome::from_discs(a_discs);
        tally.add_game(outcome, a_discs);
        forfeits += u32::from(g.flagged);
        if let Some((pair, _)) = &g.pair {
            match halves.remove(&(g.file, pair.as_str())) {
                Some(other) => tally.add_pair(other, outcome),
                None => {
                    halves.insert((g.file, pair.as_str()), outcome);
                }
            }
        }
    }
    Ok(Recount {
        a,
        b,
        tally,
        forfeits,
    })
}

/// Reads one line: a finished game with both players' names and a disc result.
fn read(file: usize, line: usize, text: &str) -> Result<Read, String> {
    let record = parse_ggf_record(text.trim()).map_err(|e| e.to_string())?;
    let [Some(black), Some(white)] = record.players else {
        return Err("a player's name (PB or PW) is missing".into());
    };
    let result = record.result.ok_or("the result (RE) is missing")?;
    let (score, flag) = result.split_once(':').unwrap_or((result.as_str(), ""));
    let black_score = score
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && s.abs() <= 64.0)
        .ok_or_else(|| format!("result '{result}' is not a disc difference"))?
        .round() as i32;
    let pair = record.name.as_deref().and_then(|name| {
        let (pair, game) = name.strip_prefix(PAIR_PREFIX)?.split_once(GAME_INFIX)?;
        Some((pair.trim().to_string(), game.trim().parse().ok()?))
    });
    Ok(Read {
        file,
        line,
        black,
        white,
        black_score,
        flagged: !flag.trim().is_empty(),
        pair,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::ggf::GgfGame;
    use crate::board::Position;

    /// A game line as the runner writes it: `black` beats `white` by `score` discs (negative: loses).
    fn line(
        black: &str,
        white: &str,
        score: i32,
        pair: Option<(u32, u32)>,
        forfeit: bool,
    ) -> String {
        GgfGame {
            place: "wedge match".into(),
            unix_time: 0,
            black: black.into(),
            white: white.into(),
            time_control: "movetime 100ms".into(),
            start: Position::START,
            moves: Vec::new(),
            black_score: score,
            forfeit: forfeit.then(|| format!("{white}: illegal move")),
            name: pair.map(|(p, g)| format!("{PAIR_PREFIX}{p}{GAME_INFIX}{g}")),
        }
        .to_string()
    }

    #[test]
    fn counts_games_and_pairs_for_the_first_black_player() {
        let one = [
            line("old", "new", 10, Some((2, 2)), false),
            line("new", "old", 4, Some((1, 1)), false),
            line("old", "new", -2, Some((1, 2)), false),
            String::new(),
            line("new", "old", 0, Some((2, 1)), false),
        ]
        .join("\n");
        // A second run of the same match: its pair 1 is another pair than the first file's.
        let two = [
            line("old", "new", 64, Some((1, 2)), true),
            line("new", "old", -6, None, false),
        ]
        .join("\n");
        let r = recount(&[("one".into(), one), ("two".into(), two)]).unwrap();
        assert_eq!((r.a.as_str(), r.b.as_str()), ("new", "old"));
        let t = &r.tally;
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 3));
        assert_eq!(t.disc_sum, -10 + 4 + 2 - 64 - 6);
        // Pair 1 of "one": two wins (2 points); pair 2: a loss and a draw (1/2 point).
        assert_eq!(t.pentanomial, [0, 1, 0, 0, 1]);
        assert_eq!(t.unpaired_games(), 2);
        assert_eq!(r.forfeits, 1);
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let text = format!(
            "{}\n{}",
            line("a", "b", 2, None, false),
            line("a", "c", 2, None, false)
        );
        let e = recount(&[("games.ggf".into(), text)]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("games.ggf:2: the players 'a' and 'c'"),
            "{e}"
        );
        // Without pair tags, A is the first game's black player.
        let r = recount(&[("x".into(), line("b", "a", 2, None, false))]).unwrap();
        assert_eq!((r.a.as_str(), r.tally.wins), ("b", 1));
        let unfinished = line("a", "b", 2, None, false).replace("RE[+2.000]", "RE[?]");
        let e = recount(&[("x".into(), unfinished)]).unwrap_err();
        assert!(e.to_string().contains("x:1: result '?'"), "{e}");
        let e = recount(&[("x".into(), "(;GM[Othello]B[zz];)".into())]).unwrap_err();
        assert!(e.to_string().starts_with("x:1: GGF"), "{e}");
        assert_eq!(
            recount(&[("x".into(), "\n \n".into())]),
            Err(RecountError::NoGames)
        );
    }
}
