//! `wedge data`: training-data files: `merge` joins shards and files of either format into checked
//! binary files without duplicates; `convert` rewrites a binary file in the current version as it
//! is; `info` counts what files hold; `positions` lists the positions of recorded games; `label`
//! labels a list of positions by deep searches.

use clap::Subcommand;
use std::path::PathBuf;
use wedge::protocol::play::counted;
use wedge::tools::train::{self, LabelKind};

/// What `wedge data` does.
#[derive(Subcommand)]
pub enum DataAction {
    /// Join data files (binary or text) into one binary file, or parts of --max-positions: every
    /// block checked, positions repeated under symmetry kept once with their best label.
    Merge {
        /// The input files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The output (`.wdb`); with --max-positions, parts `<stem>-000.wdb`, ... beside it.
        #[arg(long)]
        out: PathBuf,
        /// The most positions of a part, 1 or more (whole games: a longer game is a part alone).
        #[arg(long, value_parser = positive_count)]
        max_positions: Option<usize>,
        /// What the labels of text inputs are: `outcome`, `exact` or `search:D` (required with
        /// a text input: the text format does not record it).
        #[arg(long, value_parser = parse_label_kind)]
        text_labels: Option<(LabelKind, u8)>,
        /// In text inputs, positions with at most this many empties have exact labels (the
        /// solved end of each game; datagen's --exact-empties).
        #[arg(long)]
        text_exact_empties: Option<u32>,
        /// Join the data of different datagen runs (other seeds or arguments, recorded in each
        /// file's `.run`); without it they are refused, as shards of one run never differ.
        #[arg(long)]
        mixed_runs: bool,
        /// Keep only the positions with LO-HI empty squares (before repeats are left out).
        #[arg(long, default_value = "0-60", value_parser = super::training::parse_empties_range)]
        empties: (u32, u32),
        /// Keep only the positions with exact labels.
        #[arg(long)]
        exact_only: bool,
    },
    /// Rewrite a binary data file in the current (compact) format version, its games and
    /// positions as they are: same order, repeats kept (merge leaves repeats out).
    Convert {
        /// The binary data file.
        input: PathBuf,
        /// The output (`.wdb`); may not be the input.
        #[arg(long)]
        out: PathBuf,
    },
    /// List the positions of recorded games (WTHOR `.wtb`, GGF, transcripts, read as `wedge
    /// analyze` reads them) for `label`: `<64 squares> <side>` lines, those with --empties empty
    /// squares whose side to move has a move, each once under symmetry, in the games' order.
    Positions {
        /// The game files.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// The list to write (replaced).
        #[arg(long)]
        out: PathBuf,
        /// Empty squares of the positions listed, LO-HI.
        #[arg(long, default_value = "0-60", value_parser = super::training::parse_empties_range)]
        empties: (u32, u32),
        /// At most this many positions of each game, drawn at random (default: all of them).
        #[arg(long, value_parser = positive_count)]
        per_game: Option<usize>,
        /// Seed of the --per-game draws: the same games and seed give the same list.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Label a list of positions (`<64 squares> <side>` lines, anything after them ignored, so
    /// OBF lines and text data lines too; `#` or `%` comments) with a deep search of each, or its
    /// exact solve near the end, into a binary data file: e.g. every position of the first plies
    /// (scripts/early-positions.py).
    Label {
        /// The positions.
        positions: PathBuf,
        /// The output (`.wdb`, replaced).
        #[arg(long)]
        out: PathBuf,
        /// Depth of the label searches.
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Selectivity of the searches, percent as the `Selectivity` option: 73, 87, 95, 98, 99
        /// or 100 (full width).
        #[arg(long, default_value_t = 73, value_parser = super::selectivity_percent)]
        selectivity: u8,
        /// Solve positions with at most this many empties exactly instead.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=26))]
        exact_empties: u32,
        /// Positions labelled at once, 1 to 256.
        #[arg(long, value_parser = super::search_threads, default_value_t = 1)]
        threads: usize,
    },
    /// Count the games and positions of data files, by label kind and by empty squares.
    Info {
        /// The files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// A count of 1 or more.
fn positive_count(text: &str) -> Result<usize, String> {
    super::bounded_count(text, 1, usize::MAX)
}

/// Runs a `wedge data` action.
pub fn run(action: DataAction) -> Result<(), String> {
    match action {
        DataAction::Merge {
            inputs,
            out,
            max_positions,
            text_labels,
            text_exact_empties,
            mixed_runs,
            empties,
            exact_only,
        } => {
            super::check_output(&out)?;
            if !mixed_runs {
                let mut first: Option<(&PathBuf, String)> = None;
                for input in &inputs {
                    let Some(run) = wedge::tools::run::recorded_run(input) else {
                        continue;
                    };
                    match &first {
                        None => first = Some((input, run)),
                        Some((_, r)) if *r == run => {}
                        Some((path, r)) => {
                            return Err(format!(
                                "data merge: {} (run {r}) and {} (run {run}) come from different \
                                 datagen runs; give --mixed-runs to join them anyway",
                                path.display(),
                                input.display()
                            ))
                        }
                    }
                }
            }
            // Below --text-exact-empties the labels are exact: a text file does not say where its
            // solved end starts, and a guess would label solved positions as searched.
            if text_labels.is_some_and(|(kind, _)| kind != LabelKind::Exact)
                && text_exact_empties.is_none()
            {
                return Err("data merge: --text-labels outcome or search:D needs \
                            --text-exact-empties E (the run's --exact-empties)"
                    .into());
            }
            let labels = text_labels.map(|(kind, depth)| train::TextLabels {
                kind,
                depth,
                exact_empties: text_exact_empties.unwrap_or(0),
            });
            let keep = train::Keep {
                empties,
                exact_only,
            };
            let r = train::merge_kept(&inputs, labels, &out, max_positions, keep)
                .map_err(|e| format!("data merge: {e}"))?;
            let filtered = if r.filtered > 0 {
                format!("; {} outside --empties or --exact-only", r.filtered)
            } else {
                String::new()
            };
            outln!(
                "read {}{filtered}; {} left out; wrote {} of {}",
                counted(r.read + r.filtered, "position", "positions"),
                counted(r.duplicates, "repeat", "repeats"),
                counted(r.written, "position", "positions"),
                counted(r.games, "game", "games")
            );
            for (path, bytes) in &r.torn {
                eprintln!("{}", torn_warning(path, *bytes));
            }
            for f in &r.files {
                outln!("wrote {}", f.display());
            }
            for f in &r.removed {
                outln!(
                    "removed {} (a part of an earlier merge into the same output)",
                    f.display()
                );
            }
            Ok(())
        }
        DataAction::Convert { input, out } => {
            super::check_not_input("data convert", &out, [input.as_path()])?;
            let data = train::read_data_file(&input).map_err(|e| e.to_string())?;
            if data.torn_bytes > 0 {
                return Err(format!(
                    "data convert: {}: {} of an unfinished game at the end (resume its datagen \
                     run, or merge it, first)",
                    input.display(),
                    wedge::files::byte_count(data.torn_bytes)
                ));
            }
            train::write_data_file(&out, &data.blocks)
                .map_err(|e| format!("data convert: {}: {e}", out.display()))?;
            let positions: usize = data.blocks.iter().map(|b| b.records.len()).sum();
            outln!(
                "wrote {} of {} from version {} to version {} in {}",
                counted(positions, "position", "positions"),
                counted(data.blocks.len(), "game", "games"),
                data.version,
                train::VERSION,
                out.display()
            );
            Ok(())
        }
        DataAction::Positions {
            games,
            out,
            empties,
            per_game,
            seed,
        } => list_positions(&games, &out, empties, per_game, seed),
        DataAction::Label {
            positions,
            out,
            depth,
            selectivity,
            exact_empties,
            threads,
        } => {
            super::check_not_input("data label", &out, [positions.as_path()])?;
            if train::is_binary_data(&positions) {
                return Err(format!(
                    "data label: {}: a binary data file; give a text list of positions",
                    positions.display()
                ));
            }
            let list = wedge::board::text::read_lines(&positions, |line| {
                board_words(line).parse::<wedge::board::Position>()
            })
            .map_err(|e| e.to_string())?;
            if list.is_empty() {
                return Err(format!(
                    "data label: {}: no position in the file",
                    positions.display()
                ));
            }
            if list.iter().all(|p| p.board.is_game_over()) {
                return Err(format!(
                    "data label: {}: every position in it is a finished game; nothing to label",
                    positions.display()
                ));
            }
            let options = train::LabelOptions {
                depth,
                selectivity: wedge::search::selectivity::level_for_percent(selectivity),
                exact_empties,
                threads,
            };
            let blocks =
                train::label_positions(&list, &options, &super::progress_reporter("positions"))
                    .map_err(|e| format!("data label: {e} (fewer --threads need less)"))?;
            if blocks.is_empty() {
                return Err(format!(
                    "data label: no position of {} could be labelled; nothing written",
                    positions.display()
                ));
            }
            train::write_data_file(&out, &blocks)
                .map_err(|e| format!("data label: {}: {e}", out.display()))?;
            let written: usize = blocks.iter().map(|b| b.records.len()).sum();
            outln!(
                "labelled {written} of {} positions into {} (the others: game over, or no disc \
                 score)",
                list.len(),
                out.display()
            );
            Ok(())
        }
        DataAction::Info { files } => {
            for path in files {
                info(&path)?;
            }
            Ok(())
        }
    }
}

/// `wedge data positions`: reads every game file, draws the positions and writes the list.
fn list_positions(
    files: &[PathBuf],
    out: &std::path::Path,
    (min_empties, max_empties): (u32, u32),
    per_game: Option<usize>,
    seed: u64,
) -> Result<(), String> {
    super::check_not_input("data positions", out, files.iter().map(PathBuf::as_path))?;
    let mut games = Vec::new();
    for path in files {
        let named = wedge::tools::analyze::input::read_games(path)
            .map_err(|e| format!("data positions: {e}"))?;
        games.extend(named.into_iter().map(|g| g.game));
    }
    let options = train::DrawOptions {
        min_empties,
        max_empties,
        per_game,
        seed,
    };
    let drawn = train::draw_positions(&games, &options);
    if drawn.games == 0 {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        return Err(format!(
            "data positions: no game in {}; nothing written",
            names.join(", ")
        ));
    }
    if drawn.positions.is_empty() {
        return Err(format!(
            "data positions: no position of the {} has {min_empties}-{max_empties} empty \
             squares and a move; nothing written",
            counted(drawn.games, "game", "games")
        ));
    }
    let mut text = String::with_capacity(drawn.positions.len() * 67);
    for p in &drawn.positions {
        text.push_str(&p.to_string());
        text.push('\n');
    }
    wedge::files::write_whole(out, text.as_bytes())
        .map_err(|e| format!("data positions: {}: {e}", out.display()))?;
    outln!(
        "listed {} with {min_empties}-{max_empties} empties of {} in {} ({} left out)",
        counted(drawn.positions.len(), "position", "positions"),
        counted(drawn.games, "game", "games"),
        out.display(),
        counted(drawn.repeats, "repeat", "repeats")
    );
    Ok(())
}

/// The warning every reader of data files gives for a binary file whose last game was cut short
/// (an interrupted run): its positions are skipped, the rest is used.
pub fn torn_warning(path: &std::path::Path, bytes: u64) -> String {
    format!(
        "warning: {}: {} of an unfinished game at the end, skipped (an interrupted run; resuming \
         it with the same command completes the file)",
        path.display(),
        wedge::files::byte_count(bytes)
    )
}

/// Prints what one file holds: a binary file's games and label kinds, a text file's games and
/// positions (its labels' kinds are not recorded in the file).
fn info(path: &std::path::Path) -> Result<(), String> {
    if !train::is_binary_data(path) {
        let file = train::read_sample_file(path).map_err(|e| e.to_string())?;
        let games: std::collections::BTreeSet<u64> = file.samples.iter().map(|s| s.game).collect();
        outln!(
            "{}: text, {}, {} (label kinds are not recorded in text files; \
             `wedge data merge` converts it)",
            path.display(),
            counted(games.len(), "game", "games"),
            counted(file.samples.len(), "position", "positions")
        );
        print_by_empties(file.samples.iter().map(|s| s.board.empty_count()));
        return Ok(());
    }
    let data = train::read_data_file(path).map_err(|e| e.to_string())?;
    let mut kinds = [0usize; 3];
    let mut positions = 0;
    for r in data.blocks.iter().flat_map(|b| &b.records) {
        kinds[r.kind as usize] += 1;
        positions += 1;
    }
    outln!(
        "{}: format version {}, {}, {} ({} outcome, {} search, {} exact labels)",
        path.display(),
        data.version,
        counted(data.blocks.len(), "game", "games"),
        counted(positions, "position", "positions"),
        kinds[0],
        kinds[1],
        kinds[2],
    );
    if data.torn_bytes > 0 {
        eprintln!("{}", torn_warning(path, data.torn_bytes));
    }
    print_by_empties(
        data.blocks
            .iter()
            .flat_map(|b| &b.records)
            .map(|r| r.position.board.empty_count()),
    );
    Ok(())
}

/// The `by empties` line: positions by tens of empty squares.
fn print_by_empties(empties: impl Iterator<Item = u32>) {
    let mut decades = [0usize; 7];
    for e in empties {
        decades[(e / 10) as usize] += 1;
    }
    let by_empties: Vec<String> = decades
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(d, n)| format!("{}-{}: {n}", d * 10, (d * 10 + 9).min(64)))
        .collect();
    if !by_empties.is_empty() {
        outln!("  by empties: {}", by_empties.join(", "));
    }
}

/// Parses `outcome`, `exact` or `search:D`.
fn parse_label_kind(text: &str) -> Result<(LabelKind, u8), String> {
    match text {
        "outcome" => Ok((LabelKind::Outcome, 0)),
        "exact" => Ok((LabelKind::Exact, 0)),
        _ => text
            .strip_prefix("search:")
            .and_then(|d| d.parse::<u8>().ok())
            .map(|d| (LabelKind::Search, d))
            .ok_or_else(|| format!("'{text}': expected outcome, exact or search:D")),
    }
}

/// A position list line's board and side: the squares, spaces inside them allowed, then the side
/// word (an OBF line's side carries the `;` before its move scores); anything after is not read.
/// Words that run past 64 squares are the line as written, for the board's reader to judge.
fn board_words(line: &str) -> String {
    let mut words = line.split_whitespace();
    let mut text = String::new();
    let mut squares = 0;
    for word in words.by_ref() {
        text.push_str(word);
        squares += word.chars().count();
        if squares >= 64 {
            break;
        }
    }
    match squares {
        64 => {
            text.push(' ');
            text.push_str(words.next().unwrap_or(""));
        }
        65.. => return line.trim().trim_end_matches(';').to_string(),
        _ => {}
    }
    text.trim_end_matches(';').to_string()
}
