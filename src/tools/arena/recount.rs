//! Counting a match again from its games: the GGF lines that `wedge match --out` wrote, from one
//! run or several (an interrupted run, runs on several machines), give the same W/D/L, disc
//! average, pentanomial pairs and Elo as the runner's own report. Two games pair when they come
//! from the same file and carry the same pair in their `GN[pair N game G]` tag (the runner writes
//! it; game 1 is the one with engine A black); games without it (files from elsewhere) are counted
//! as single games, and the interval then comes from games.

use super::stats::{Outcome, Tally};
use super::{GAME_INFIX, PAIR_PREFIX, RUN_INFIX};
use crate::board::ggf::parse_ggf_record;
use crate::board::text::{read_lines, FileError};
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;

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
#[derive(Debug)]
pub enum RecountError {
    /// A file that cannot be read, or a line of it that is not a finished game of this match
    /// (named by file and line).
    File(FileError),
    /// No game in any of the files.
    NoGames,
    /// The files hold games of two different runs (other engines, options, openings, time,
    /// seed or version): their figures are not one match's.
    MixedRuns {
        /// One run and where its first game is.
        first: (String, String),
        /// Another run and where its first game is.
        other: (String, String),
    },
    /// One file given twice: its games would count twice.
    SameFile(String),
    /// One game of a run (the same pair and game number) read twice, in these files (the same
    /// one when a file holds it twice): a copy of a file, or games appended again.
    RepeatedGame {
        /// The game: `pair N game G`.
        game: String,
        /// The file of its first copy.
        first: String,
        /// The file of the other.
        second: String,
    },
}

impl fmt::Display for RecountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecountError::File(e) => write!(f, "{e}"),
            RecountError::NoGames => write!(f, "no games to count (the files hold no GGF line)"),
            RecountError::MixedRuns { first, other } => write!(
                f,
                "the files hold games of different runs: run {} ({}) and run {} ({}); the shards \
                 of one match are the same command with another --shard",
                first.0, first.1, other.0, other.1
            ),
            RecountError::SameFile(path) => {
                write!(f, "{path} is given twice: its games would be counted twice")
            }
            RecountError::RepeatedGame {
                game,
                first,
                second,
            } => {
                if first == second {
                    write!(f, "{first} holds the game '{game}' twice")
                } else {
                    write!(
                        f,
                        "the game '{game}' of one run is in both {first} and {second} (a copy?): \
                         it would be counted twice"
                    )
                }
            }
        }
    }
}

impl std::error::Error for RecountError {}

/// One game as read: its file, its players, black's disc difference, and its pair.
struct Read {
    file: usize,
    black: String,
    white: String,
    black_score: i32,
    flagged: bool,
    /// The pair's number and the game's number in it (1: engine A black), from `GN`.
    pair: Option<(String, u32)>,
    /// The run it belongs to, from `GN`, when the runner wrote one.
    run: Option<String>,
}

/// Counts the games of the files at `paths`: one GGF game a line (blank lines and `#` comments
/// skipped), every one finished, with a disc result, between the two players of the first game.
/// Engine A is the black player of the first game of a pair (`GN[pair N game 1]`), else the black
/// player of the first game read.
pub fn recount(paths: &[PathBuf]) -> Result<Recount, RecountError> {
    let mut players = None;
    let mut games = Vec::new();
    let mut first_run: Option<(String, String)> = None;
    let mut seen_files = Vec::new();
    // Each numbered game once: keyed by its run (or its file, without one), pair and number.
    let mut seen_games: HashMap<(String, String, u32), usize> = HashMap::new();
    for (index, path) in paths.iter().enumerate() {
        let here = path.display().to_string();
        let same = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if seen_files.contains(&same) {
            return Err(RecountError::SameFile(here));
        }
        seen_files.push(same);
        let read_games =
            read_lines(path, |line| read(index, line, &mut players)).map_err(RecountError::File)?;
        for g in &read_games {
            if let Some((pair, number)) = &g.pair {
                let run = g.run.clone().unwrap_or_else(|| format!("file {index}"));
                if let Some(&before) = seen_games.get(&(run.clone(), pair.clone(), *number)) {
                    return Err(RecountError::RepeatedGame {
                        game: format!("{PAIR_PREFIX}{pair}{GAME_INFIX}{number}"),
                        first: paths[before].display().to_string(),
                        second: here.clone(),
                    });
                }
                seen_games.insert((run, pair.clone(), *number), index);
            }
            let Some(run) = &g.run else { continue };
            match &first_run {
                None => first_run = Some((run.clone(), here.clone())),
                Some((r, _)) if r == run => {}
                Some(first) => {
                    return Err(RecountError::MixedRuns {
                        first: first.clone(),
                        other: (run.clone(), here.clone()),
                    })
                }
            }
        }
        games.extend(read_games);
    }
    count(&games).ok_or(RecountError::NoGames)
}

/// Why a line of a games file cannot be counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameLineError {
    /// Not a GGF game.
    Ggf(crate::board::ggf::GgfError),
    /// A player's name (`PB` or `PW`) is missing.
    NoPlayer,
    /// Other players than the first game's: these (black, white) and the first's.
    OtherPlayers((String, String), (String, String)),
    /// The result (`RE`) is missing.
    NoResult,
    /// The result is not a disc difference (its text).
    BadResult(String),
    /// The moves do not end the game and the result is no forfeit (`:r`).
    Unfinished,
}

impl fmt::Display for GameLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameLineError::Ggf(e) => write!(f, "{e}"),
            GameLineError::NoPlayer => f.write_str("a player's name (PB or PW) is missing"),
            GameLineError::OtherPlayers((b, w), (p, q)) => write!(
                f,
                "the players '{b}' and '{w}' are not the first game's ('{p}' and '{q}')"
            ),
            GameLineError::NoResult => f.write_str("the result (RE) is missing"),
            GameLineError::BadResult(r) => write!(f, "result '{r}' is not a disc difference"),
            GameLineError::Unfinished => {
                f.write_str("an unfinished game: its moves do not end it and RE is no forfeit")
            }
        }
    }
}

impl std::error::Error for GameLineError {}

/// Reads one line: a finished game between the `players` of the first line read (set by it).
fn read(
    file: usize,
    text: &str,
    players: &mut Option<(String, String)>,
) -> Result<Read, GameLineError> {
    let record = parse_ggf_record(text).map_err(GameLineError::Ggf)?;
    let [Some(black), Some(white)] = record.players.clone() else {
        return Err(GameLineError::NoPlayer);
    };
    let (p, q) = players.get_or_insert_with(|| (black.clone(), white.clone()));
    if !((&black, &white) == (p, q) || (&black, &white) == (q, p)) {
        return Err(GameLineError::OtherPlayers(
            (black, white),
            (p.clone(), q.clone()),
        ));
    }
    let result = record.result.clone().ok_or(GameLineError::NoResult)?;
    let black_score = record
        .black_result()
        .ok_or_else(|| GameLineError::BadResult(result.clone()))?;
    let flagged = record.early_result().is_some();
    if !flagged && !record.game.position().board.is_game_over() {
        return Err(GameLineError::Unfinished);
    }
    let (pair, run) = record.name.as_deref().map_or((None, None), game_name);
    Ok(Read {
        file,
        black,
        white,
        black_score,
        flagged,
        pair,
        run,
    })
}

/// The pair (its number as written, and the game's number in it) and the run of a `GN` tag as
/// the runner writes it: `pair 17 game 1`, or `pair 17 game 1 run 3fa2c1d0e4b59a77`.
pub fn game_name(name: &str) -> (Option<(String, u32)>, Option<String>) {
    let (name, run) = match name.split_once(RUN_INFIX) {
        Some((name, run)) => (name, Some(run.trim().to_string())),
        None => (name, None),
    };
    let pair = name.strip_prefix(PAIR_PREFIX).and_then(|rest| {
        let (pair, game) = rest.split_once(GAME_INFIX)?;
        Some((pair.trim().to_string(), game.trim().parse().ok()?))
    });
    (pair, run)
}

/// The tally of games read (all between the same two players); `None` when there are none.
fn count(games: &[Read]) -> Option<Recount> {
    let first = games
        .iter()
        .find(|g| matches!(g.pair, Some((_, 1))))
        .or(games.first())?;
    let (a, b) = (first.black.clone(), first.white.clone());
    let mut tally = Tally::default();
    let mut forfeits = 0;
    // The first game counted of each pair, keyed by file and pair.
    let mut halves: HashMap<(usize, &str), Outcome> = HashMap::new();
    for g in games {
        let a_discs = if g.black == a {
            g.black_score
        } else {
            -g.black_score
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
    Some(Recount {
        a,
        b,
        tally,
        forfeits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::ggf::GgfGame;
    use crate::board::Position;

    /// The moves of a finished game (a record's result is written only for one).
    fn finished_moves() -> Vec<crate::board::Move> {
        let mut pos = Position::START;
        let mut moves = Vec::new();
        while !pos.board.is_game_over() {
            let m = pos
                .legal_move_list()
                .first()
                .copied()
                .unwrap_or(crate::board::Move::PASS);
            moves.push(m);
            pos = pos.play(m).unwrap();
        }
        moves
    }

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
            moves: finished_moves(),
            times: Vec::new(),
            black_score: score,
            forfeit: forfeit.then(|| format!("{white}: illegal move")),
            name: pair.map(|(p, g)| format!("{PAIR_PREFIX}{p}{GAME_INFIX}{g}")),
        }
        .to_string()
    }

    /// Reads and counts the lines of several files, as [`recount`] does with their contents.
    fn count_files(files: &[&str]) -> Result<Option<Recount>, GameLineError> {
        let mut players = None;
        let mut games = Vec::new();
        for (index, text) in files.iter().enumerate() {
            for l in text.lines().filter(|l| !l.trim().is_empty()) {
                games.push(read(index, l, &mut players)?);
            }
        }
        Ok(count(&games))
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
        let r = count_files(&[&one, &two]).unwrap().unwrap();
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
    fn bad_lines_are_refused() {
        let text = format!(
            "{}\n{}",
            line("a", "b", 2, None, false),
            line("a", "c", 2, None, false)
        );
        let e = count_files(&[&text]).unwrap_err();
        assert!(matches!(e, GameLineError::OtherPlayers(..)), "{e:?}");
        assert!(e.to_string().starts_with("the players 'a' and 'c'"), "{e}");
        // Without pair tags, A is the first game's black player.
        let r = count_files(&[&line("b", "a", 2, None, false)])
            .unwrap()
            .unwrap();
        assert_eq!((r.a.as_str(), r.tally.wins), ("b", 1));
        let unfinished = line("a", "b", 2, None, false).replace("RE[+2.000]", "RE[?]");
        let e = count_files(&[&unfinished]).unwrap_err();
        assert_eq!(e, GameLineError::BadResult("?".into()));
        assert!(e.to_string().starts_with("result '?'"), "{e}");
        let cut = "(;GM[Othello]PB[a]PW[b]RE[+10.000]B[f5];)";
        assert_eq!(count_files(&[cut]).unwrap_err(), GameLineError::Unfinished);
        let e = count_files(&["(;GM[Othello]B[zz];)"]).unwrap_err();
        assert!(matches!(e, GameLineError::Ggf(_)), "{e:?}");
        assert!(e.to_string().starts_with("GGF"), "{e}");
        assert!(count_files(&["\n \n"]).unwrap().is_none());
    }

    #[test]
    fn a_game_read_twice_is_refused() {
        let dir = std::env::temp_dir().join(format!("wedge-recount-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = |p: u32, g: u32| {
            line("new", "old", 2, Some((p, g)), false).replace(
                &format!("{GAME_INFIX}{g}]"),
                &format!("{GAME_INFIX}{g}{RUN_INFIX}abc]"),
            )
        };
        let one = dir.join("one.ggf");
        let copy = dir.join("copy.ggf");
        let other = dir.join("other.ggf");
        std::fs::write(&one, format!("{}\n{}\n", run(1, 1), run(1, 2))).unwrap();
        std::fs::write(&copy, format!("{}\n{}\n", run(1, 1), run(1, 2))).unwrap();
        std::fs::write(&other, format!("{}\n{}\n", run(2, 1), run(2, 2))).unwrap();
        // Two files of one run with other pairs count together.
        let r = recount(&[one.clone(), other.clone()]).unwrap();
        assert_eq!(r.tally.wins + r.tally.losses + r.tally.draws, 4);
        let e = recount(&[one.clone(), one.clone()]).unwrap_err();
        assert!(matches!(e, RecountError::SameFile(_)), "{e:?}");
        let e = recount(&[one.clone(), other.clone(), copy.clone()]).unwrap_err();
        assert!(
            e.to_string().contains("'pair 1 game 1'") && e.to_string().contains("copy.ggf"),
            "{e}"
        );
        std::fs::write(&copy, format!("{}\n{}\n", run(1, 1), run(1, 1))).unwrap();
        let e = recount(std::slice::from_ref(&copy)).unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
