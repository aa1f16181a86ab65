//! Every text format: round trips, and a clear error (never a panic) for each kind of bad input.

use wedge::board::text::{
    read_obf_file, read_openings_file, FileError, Game, ObfLine, ParseBoardError, ParseObfError,
    TranscriptError,
};
use wedge::board::{Color, Move, Position, Square};

const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn board_strings_accept_the_common_alphabets() {
    let alt = "...........................OX......XO........................... B";
    assert_eq!(alt.parse::<Position>(), Ok(Position::START));
    let alt = "___________________________ox______xo___________________________ *";
    assert_eq!(alt.parse::<Position>(), Ok(Position::START));
    let alt = "---------------------------WB------BW--------------------------- b";
    assert_eq!(alt.parse::<Position>(), Ok(Position::START));
    // Eight lines of eight, as pasted from a diagram.
    let rows = "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\nX";
    assert_eq!(rows.parse::<Position>(), Ok(Position::START));
    let white = START.replace(" X", " O").parse::<Position>().unwrap();
    assert_eq!(white.side, Color::White);
    assert_eq!(white.to_string(), START.replace(" X", " O"));
}

#[test]
fn board_string_errors() {
    assert_eq!("".parse::<Position>(), Err(ParseBoardError::WrongLength(0)));
    assert_eq!(
        "---".parse::<Position>(),
        Err(ParseBoardError::WrongLength(3))
    );
    assert_eq!(
        START[..64].parse::<Position>(),
        Err(ParseBoardError::MissingSide)
    );
    assert!(matches!(
        START.replace(" X", " Z").parse::<Position>(),
        Err(ParseBoardError::BadSide(_))
    ));
    let bad = START.replacen('-', "?", 1);
    assert_eq!(
        bad.parse::<Position>(),
        Err(ParseBoardError::BadSquareChar {
            index: 0,
            found: '?'
        })
    );
    assert!(format!("{START}XX").parse::<Position>().is_err());
    let huge = "-".repeat(1_000_000);
    let err = huge.parse::<Position>().unwrap_err().to_string();
    assert!(err.len() < 200, "{err}");
}

#[test]
fn fen_round_trips_and_errors() {
    for t in ["f5d6c3d3c4", "f5f6e6f4e3c5c4e7", "c4c3"] {
        let pos = t.parse::<Game>().unwrap().position();
        assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos), "{t}");
    }
    assert_eq!(
        Position::from_fen("8/8/8/3ox3/3xo3/8/8 x"),
        Err(ParseBoardError::WrongFenRows(7))
    );
    assert_eq!(
        Position::from_fen("8/8/8/3ox4/3xo3/8/8/8 x"),
        Err(ParseBoardError::BadFenRow(4))
    );
    assert_eq!(
        Position::from_fen("8/8/8/3ox3/3xo3/8/8/8"),
        Err(ParseBoardError::MissingSide)
    );
    let bad = Position::from_fen("8/8/8/3oW3/3xo3/8/8/8 x");
    assert_eq!(
        bad,
        Err(ParseBoardError::BadFenChar {
            index: 28,
            found: 'W'
        })
    );
    assert!(
        bad.unwrap_err()
            .to_string()
            .contains("holds 'W' (expected x or o"),
        "a FEN names its own characters"
    );
    assert!(Position::from_fen("8/8/8/3ox3/3xo3/8/8/08 x").is_err());
    // A run of empty squares is one digit.
    assert_eq!(
        Position::from_fen("8/8/8/3ox3/3xo3/8/8/44 x"),
        Err(ParseBoardError::BadFenRow(8))
    );
    assert_eq!(
        Position::from_fen("8/8/8/3ox3/3xo3/8/8/8 x"),
        Ok(Position::START)
    );
    assert!(Position::from_fen("8/8/8/3ox3/3xo3/8/8/8 x extra").is_err());
    assert!(Position::from_fen("").is_err());
}

#[test]
fn obf_lines_round_trip() {
    let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; B1:-4;";
    let obf: ObfLine = line.parse().unwrap();
    assert_eq!(obf.scores.len(), 3);
    assert_eq!(
        obf.scores[0],
        (Move::play("g8".parse::<Square>().unwrap()), 18)
    );
    assert_eq!(obf.scores[2].1, -4);
    assert_eq!(obf.to_string(), line);
    assert_eq!(obf.to_string().parse::<ObfLine>(), Ok(obf));
    // No scores at all is fine: a problem to solve.
    let bare: ObfLine = format!("{START};").parse().unwrap();
    assert!(bare.scores.is_empty());
}

#[test]
fn obf_errors() {
    assert!(matches!(
        format!("{START}; G8+18;").parse::<ObfLine>(),
        Err(ParseObfError::BadItem(_))
    ));
    assert!(matches!(
        format!("{START}; Z9:+18;").parse::<ObfLine>(),
        Err(ParseObfError::BadMove(_))
    ));
    assert!(matches!(
        format!("{START}; G8:+x;").parse::<ObfLine>(),
        Err(ParseObfError::BadItem(_))
    ));
    let beyond = format!("{START}; F5:+99;").parse::<ObfLine>();
    assert_eq!(beyond, Err(ParseObfError::ScoreOutOfRange("F5:+99".into())));
    assert!(beyond.unwrap_err().to_string().contains("-64 to +64"));
    // One move with two scores: which one to check against would be a guess.
    let twice = format!("{START}; F5:+0; f5:+2;").parse::<ObfLine>();
    assert_eq!(twice, Err(ParseObfError::RepeatedMove("f5".into())));
    assert!(twice.unwrap_err().to_string().contains("listed twice"));
    // A score for a move that cannot be played there (black's moves are d3 c4 f5 e6).
    let illegal = format!("{START}; F5:+0; A1:+0;").parse::<ObfLine>();
    assert_eq!(illegal, Err(ParseObfError::IllegalMove("A1".into())));
    assert_eq!(
        illegal.unwrap_err().to_string(),
        "'A1' is not a legal move in this position"
    );
    assert!(matches!(
        "XO; G8:+1;".parse::<ObfLine>(),
        Err(ParseObfError::Board(_))
    ));
}

#[test]
fn transcripts_round_trip_with_implicit_passes() {
    let g: Game = "f5d6c3d3c4".parse().unwrap();
    assert_eq!(g.moves.len(), 5);
    assert_eq!(g.transcript(), "f5d6c3d3c4");
    assert_eq!("F5 D6 C3 D3 C4".parse::<Game>(), Ok(g.clone()));
    // Play a whole game by always taking the first legal move; it has passes somewhere or not, but
    // the transcript without passes must replay to the identical game.
    let mut pos = Position::START;
    let mut moves = Vec::new();
    while !pos.board.is_game_over() {
        let m = pos.legal_move_list()[0];
        moves.push(m);
        pos = pos.play(m).unwrap();
    }
    let game = Game {
        start: Position::START,
        moves,
    };
    let replayed: Game = game.transcript().parse().unwrap();
    assert_eq!(replayed, game);
    assert_eq!(replayed.position(), pos);
    // Explicit passes in the text are accepted where they are forced.
    let with_passes: String = game.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(with_passes.parse::<Game>(), Ok(game));
}

#[test]
fn transcript_errors() {
    assert_eq!(
        "f5d6z9".parse::<Game>(),
        Err(TranscriptError::BadToken {
            number: 3,
            token: "z9".into()
        })
    );
    assert!(matches!(
        "f5f5".parse::<Game>(),
        Err(TranscriptError::Illegal { number: 2, .. })
    ));
    assert!(matches!(
        "a1".parse::<Game>(),
        Err(TranscriptError::Illegal { number: 1, .. })
    ));
    assert!(matches!(
        "f5pass".parse::<Game>(),
        Err(TranscriptError::Illegal { number: 2, .. })
    ));
    assert!(matches!(
        "d3c3b3d2e1d6d7e3f4a1".parse::<Game>(),
        Err(TranscriptError::AfterGameOver { number: 10 })
    ));
    assert!(matches!(
        "f5d".parse::<Game>(),
        Err(TranscriptError::BadToken { number: 2, .. })
    ));
}

fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn files_report_the_file_and_line() {
    let path = temp_file(
        "bad.obf",
        format!("% comment\n{START}; F5:+0;\n\n{START}; F5+0;\n").as_bytes(),
    );
    let err: FileError = read_obf_file(&path).unwrap_err();
    assert_eq!(err.line, 4);
    assert!(err.to_string().contains("bad.obf:4:"), "{err}");

    let path = temp_file("openings.txt", b"f5d6c3\n# c\nf5f6e6\nf5zz\n");
    let err = read_openings_file(&path).unwrap_err();
    assert_eq!(err.line, 4);

    let path = temp_file("binary.txt", b"f5d6\n\xff\xfe\n");
    let err = read_openings_file(&path).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.to_string().contains("UTF-8"));

    // A byte-order mark before the first line is skipped; one elsewhere is an error.
    let path = temp_file("bom.txt", b"\xEF\xBB\xBFf5d6\nf5f6\n");
    assert_eq!(read_openings_file(&path).unwrap().len(), 2);
    let path = temp_file("bom2.txt", b"f5d6\n\xEF\xBB\xBFf5f6\n");
    assert_eq!(read_openings_file(&path).unwrap_err().line, 2);

    let missing = std::path::Path::new("/nonexistent/wedge/file.obf");
    let err = read_obf_file(missing).unwrap_err();
    assert_eq!(err.line, 0);
    assert!(err.to_string().contains("/nonexistent/wedge/file.obf"));
}

#[test]
fn shipped_data_files_parse() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut total = 0;
    for f in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"] {
        let lines = read_obf_file(&dir.join(f)).unwrap();
        assert!(lines.iter().all(|l| !l.scores.is_empty()));
        total += lines.len();
    }
    assert_eq!(total, 59);
}

/// A position from two disc sets (white's overlap with black dropped) and a side.
fn any_position(black: u64, white: u64, white_to_move: bool) -> Option<Position> {
    let (black, white) = (black, white & !black);
    let (p, o) = if white_to_move {
        (white, black)
    } else {
        (black, white)
    };
    let board = wedge::Board::new(p, o).ok()?;
    let side = if white_to_move {
        wedge::Color::White
    } else {
        wedge::Color::Black
    };
    Some(Position { board, side })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    /// Board strings and FEN read back to the same position, whatever the layout.
    #[test]
    fn board_strings_and_fen_round_trip(black: u64, white: u64, white_to_move: bool) {
        let Some(pos) = any_position(black, white, white_to_move) else {
            return Ok(());
        };
        let text = pos.to_string();
        proptest::prop_assert_eq!(text.parse::<Position>().ok(), Some(pos));
        proptest::prop_assert_eq!(Position::from_fen(&pos.to_fen()).ok(), Some(pos));
    }

    /// Any text is either a position or an error, never a panic; one that reads is written back
    /// the same way after normalising.
    #[test]
    fn any_text_reads_or_fails_cleanly(text in "\\PC{0,80}") {
        if let Ok(p) = text.parse::<Position>() {
            proptest::prop_assert_eq!(p.to_string().parse::<Position>().ok(), Some(p));
        }
        let _ = Position::from_fen(&text);
        let _ = text.parse::<wedge::board::text::Game>();
        let _ = wedge::board::ggf::parse_ggf(&text);
    }

    /// Games played at random from the start: transcript and GGF record read back to the same moves.
    #[test]
    fn transcripts_and_ggf_round_trip(seed: u64) {
        let mut rng = wedge::rng::Rng::new(seed);
        let mut pos = Position::START;
        let mut moves = Vec::new();
        while !pos.board.is_game_over() {
            let legal = pos.legal_move_list();
            let mv = if legal.is_empty() {
                wedge::Move::PASS
            } else {
                legal[rng.below(legal.len() as u64) as usize]
            };
            moves.push(mv);
            pos = pos.play(mv).unwrap();
        }
        let mut game = wedge::board::text::Game::new(Position::START);
        game.moves = moves.clone();
        let again: wedge::board::text::Game = game.transcript().parse().unwrap();
        proptest::prop_assert_eq!(again.position(), pos);
        let record = wedge::board::ggf::GgfGame {
            place: "test".into(),
            unix_time: seed % 4_000_000_000,
            black: "a".into(),
            white: "b".into(),
            time_control: "60//0.5".into(),
            start: Position::START,
            moves: moves.clone(),
            times: Vec::new(),
            black_score: pos.black_final_score(),
            forfeit: None,
            name: None,
        };
        let read = wedge::board::ggf::parse_ggf(&record.to_string()).unwrap();
        proptest::prop_assert_eq!(read.moves, moves);
    }
}
