//! The parser's unit tests: every command, every kind of bad input, and the error messages.

use super::*;

fn ok(line: &str) -> Command {
    match parse_command(line) {
        Ok(Some(c)) => c,
        other => panic!("{line:?} should parse, got {other:?}"),
    }
}

fn err(line: &str) -> String {
    match parse_command(line) {
        Err(e) => e.to_string(),
        other => panic!("{line:?} should be an error, got {other:?}"),
    }
}

fn go(line: &str) -> GoParams {
    match ok(line) {
        Command::Go(g) => g,
        other => panic!("{line:?} should be a go, got {other:?}"),
    }
}

const START_BOARD: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn blank_lines_are_none() {
    for line in ["", " ", "\t", "\r\n", "  \t \n", "\u{a0}\u{2003}"] {
        assert_eq!(parse_command(line), Ok(None), "{line:?}");
    }
}

#[test]
fn simple_commands_parse_in_any_case() {
    let cases = [
        ("uci", Command::Uci),
        ("UCI", Command::Uci),
        ("ugi", Command::Ugi),
        ("isready", Command::IsReady),
        ("IsReady\r\n", Command::IsReady),
        ("ucinewgame", Command::NewGame),
        ("uginewgame", Command::NewGame),
        ("debug on", Command::Debug(true)),
        ("Debug OFF", Command::Debug(false)),
        ("stop", Command::Stop),
        ("quit", Command::Quit),
        ("  quit  ", Command::Quit),
        ("ponderhit", Command::PonderHit),
        ("d", Command::Display),
        ("help", Command::Help),
        ("D", Command::Display),
        ("eval", Command::Eval),
        ("perft 1", Command::Perft(1)),
        ("perft 20", Command::Perft(20)),
        ("bench", Command::Bench(None)),
        ("bench 12", Command::Bench(Some(12))),
        ("query gameover", Command::Query(QueryKind::GameOver)),
        ("query P1TURN", Command::Query(QueryKind::P1Turn)),
        ("query result", Command::Query(QueryKind::Result)),
    ];
    for (line, want) in cases {
        assert_eq!(ok(line), want, "{line:?}");
    }
}

#[test]
fn positions_parse() {
    assert_eq!(
        ok("position startpos"),
        Command::Position {
            base: PositionSpec::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        ok("position startpos moves"),
        Command::Position {
            base: PositionSpec::StartPos,
            moves: vec![]
        }
    );
    let moves: Vec<Move> = ["f5", "d6", "c3", "pass", "0000", "PS", "pa", "--"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    assert_eq!(
        ok("Position StartPos Moves F5 d6 c3 pass 0000 PS pa --"),
        Command::Position {
            base: PositionSpec::StartPos,
            moves
        }
    );
    assert_eq!(
        ok(&format!("position board {START_BOARD}")),
        Command::Position {
            base: PositionSpec::Board(Position::START),
            moves: vec![]
        }
    );
    assert_eq!(
        ok("position fen 8/8/8/3ox3/3xo3/8/8/8 x moves f5"),
        Command::Position {
            base: PositionSpec::Fen(Position::START),
            moves: vec!["f5".parse().unwrap()]
        }
    );
    assert_eq!(PositionSpec::StartPos.position(), Position::START);
}

#[test]
fn position_strings_round_trip() {
    // Walk a few games, choosing moves with a fixed rule, and write every position back in both
    // formats with the moves that led there from the start.
    for seed in 0..6usize {
        let mut pos = Position::START;
        let mut played: Vec<Move> = Vec::new();
        for ply in 0..70 {
            let board_line = format!("position board {pos}");
            assert_eq!(
                ok(&board_line),
                Command::Position {
                    base: PositionSpec::Board(pos),
                    moves: vec![]
                }
            );
            let fen_line = format!("position fen {}", pos.to_fen());
            assert_eq!(
                ok(&fen_line),
                Command::Position {
                    base: PositionSpec::Fen(pos),
                    moves: vec![]
                }
            );
            let list: Vec<String> = played.iter().map(|m| m.to_string()).collect();
            let line = format!("position startpos moves {}", list.join(" "));
            assert_eq!(
                ok(&line),
                Command::Position {
                    base: PositionSpec::StartPos,
                    moves: played.clone()
                }
            );
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                break;
            }
            let mv = legal[(seed * 7 + ply * 3) % legal.len()];
            pos = pos.play(mv).unwrap();
            played.push(mv);
        }
    }
}

#[test]
fn go_parameters_parse_in_any_order() {
    assert_eq!(go("go"), GoParams::default());
    let g = go("go depth 12 nodes 1000000 movetime 500 movestogo 10 infinite");
    assert_eq!(g.depth, Some(12));
    assert_eq!(g.nodes, Some(1_000_000));
    assert_eq!(g.movetime, Some(500));
    assert_eq!(g.movestogo, Some(10));
    assert!(g.infinite && !g.exact && !g.wld);
    let g = go("GO winc 20 btime 1000 WTIME 2000 binc 10");
    assert_eq!(
        (g.btime, g.wtime, g.binc, g.winc),
        (Some(1000), Some(2000), Some(10), Some(20))
    );
    let g = go("go p1time 60000 p2time 59000 p1inc 1000 p2inc 900");
    assert_eq!(
        (g.btime, g.wtime, g.binc, g.winc),
        (Some(60000), Some(59000), Some(1000), Some(900))
    );
    // Player 1 moves first on every board; on a variant board white does, so `wtime` is its clock.
    use crate::game::Side;
    let first = |g: &GoParams| g.variant_request().clock(Side::First).map(|c| c.remaining);
    let ms = std::time::Duration::from_millis;
    assert_eq!(first(&g), Some(ms(60000)));
    assert_eq!(
        g.request().clock(Side::First).map(|c| c.remaining),
        Some(ms(60000))
    );
    assert_eq!(first(&go("go wtime 5 btime 7")), Some(ms(5)));
    assert_eq!(
        go("go wtime 5 btime 7")
            .request()
            .clock(Side::First)
            .map(|c| c.remaining),
        Some(ms(7))
    );
    assert!(go("go exact").exact);
    assert!(go("go wld movetime 100").wld);
    assert_eq!(go("go nodes 18446744073709551615").nodes, Some(u64::MAX));
    assert_eq!(go("go depth +7").depth, Some(7));
    assert_eq!(go("go depth -0").depth, Some(0));
}

#[test]
fn negative_clocks_read_as_zero() {
    let g = go("go btime -1500 wtime -99999999999999999999999 binc -1 p2inc -0");
    assert_eq!(
        (g.btime, g.wtime, g.binc, g.winc),
        (Some(0), Some(0), Some(0), Some(0))
    );
    // A clock beyond 64 bits is the largest there is, not an error that loses the move; other
    // numbers that large are still errors.
    let g = go("go wtime 99999999999999999999 btime 1000");
    assert_eq!((g.wtime, g.btime), (Some(u64::MAX), Some(1000)));
    assert!(err("go movetime 99999999999999999999").contains("movetime"));
}

#[test]
fn go_errors_are_clear() {
    assert_eq!(err("go depth x"), "go: 'depth' needs a number, got 'x'");
    assert_eq!(err("go depth"), "go: 'depth' needs a number, got nothing");
    assert!(err("go depth -1").contains("must not be negative"));
    assert!(err("go depth 4294967296").contains("too large"));
    assert!(err("go nodes 18446744073709551616").contains("too large"));
    assert!(err("go movestogo -3").contains("negative"));
    assert!(err("go movetime 1.5").contains("needs a number"));
    assert!(err("go ponder ponder").contains("given twice"));
    assert!(err("go searchmoves").contains("at least one move"));
    // A pass names the move of a side that must pass; it adds no square.
    assert_eq!(go("go searchmoves pass").searchmoves, Some(0));
    let c4 = 1u64 << "c4".parse::<crate::board::Square>().unwrap().index();
    assert_eq!(go("go searchmoves pass c4").searchmoves, Some(c4));
    assert!(err("go searchmoves z9").contains("searchmoves"));
    assert!(err("go mate").contains("mate"));
    assert!(parse_command("go depth x").unwrap_err().is_go);
    assert!(!parse_command("position x").unwrap_err().is_go);
    // The front end can tell the faults apart without reading their text.
    let fault = |line: &str| parse_command(line).unwrap_err().fault;
    assert_eq!(fault("go wtime 1 p2time 2"), Fault::Twice("p2time"));
    assert_eq!(fault("go exact wld"), Fault::ExactAndWld);
    assert_eq!(
        fault("perft 99"),
        Fault::Depth {
            command: "perft",
            min: 1,
            max: MAX_PERFT_DEPTH,
            got: 99
        }
    );
    assert_eq!(
        fault("go nodes -3"),
        Fault::Number {
            command: "go",
            name: "nodes",
            fault: NumberFault::Negative("-3".into())
        }
    );
    let g = go("go ponder searchmoves f5 D3 depth 3");
    assert!(g.ponder);
    assert_eq!(g.depth, Some(3));
    let f5 = 1u64 << "f5".parse::<crate::board::Square>().unwrap().index();
    let d3 = 1u64 << "d3".parse::<crate::board::Square>().unwrap().index();
    assert_eq!(g.searchmoves, Some(f5 | d3));
    assert_eq!(go("go mate 3").mate, Some(3));
    assert!(err("go depth 3 depth 4").contains("twice"));
    assert!(err("go btime 10 p1time 10").contains("name one value"));
    // On a variant board wtime and p2time are two clocks: the message says not to mix them.
    assert!(err("go wtime 10 p2time 10").contains("by colour or by player, not both"));
    assert!(err("go infinite infinite").contains("twice"));
    assert!(err("go exact wld").contains("exclude"));
    assert!(err("go 5").contains("unknown parameter '5'"));
}

#[test]
fn setoption_names_and_values() {
    let set = |line: &str| match ok(line) {
        Command::SetOption { name, value } => (name, value),
        other => panic!("{line:?}: {other:?}"),
    };
    assert_eq!(
        set("setoption name Hash value 128"),
        ("Hash".to_string(), Some("128".to_string()))
    );
    assert_eq!(
        set("SETOPTION NAME  Clear \t Hash "),
        ("Clear Hash".to_string(), None)
    );
    assert_eq!(
        set("setoption name BookFile value"),
        ("BookFile".to_string(), Some(String::new()))
    );
    assert_eq!(
        set("setoption name EvalFile VALUE  /tmp/my  weights.txt \r\n"),
        (
            "EvalFile".to_string(),
            Some("/tmp/my  weights.txt".to_string())
        )
    );
    assert_eq!(
        set("setoption name threads value 1"),
        ("threads".to_string(), Some("1".to_string()))
    );
    assert_eq!(
        set("setoption name a value b value c"),
        ("a".to_string(), Some("b value c".to_string()))
    );
}

#[test]
fn malformed_lines_are_errors() {
    let long_line = format!("go depth {}", "1".repeat(MAX_LINE_BYTES));
    let mut bad: Vec<String> = [
        "hello",
        "ucix",
        "uci now",
        "isready 1",
        "quit please",
        "debug",
        "debug maybe",
        "debug on off",
        "position",
        "position foo",
        "position startpos f5",
        "position startpos moves f5 z9",
        "position startpos moves f5 d6 moves",
        "position board",
        "position board moves f5",
        "position fen",
        "position fen 8/8/8/3ox3/3xo3/8/8/8",
        "position fen 8/8/8/3ox3/3xo3/8/8 x",
        "position fen 8/8/8/3ox3/3xo3/8/8/9 x",
        "position fen 8/8/8/3ox4/3xo3/8/8/8 x",
        "position fen 8/8/8/3oq3/3xo3/8/8/8 x",
        "position fen 8/8/8/3ox3/3xo3/8/8/8 y",
        "position fen 8/8/8/3ox3/3xo3/8/8/8 x f5",
        "setoption",
        "setoption Hash 32",
        "setoption name",
        "setoption name value 3",
        "query",
        "query score",
        "query result now",
        "perft",
        "perft 0",
        "perft 21",
        "perft -1",
        "perft x",
        "perft 3 4",
        "bench 0",
        "bench 61",
        "bench 3 4",
        "go depth",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    bad.extend([
        format!("position board {}", &START_BOARD[..64]),
        format!("position board {} moves f5", &START_BOARD[..64]),
        format!("position board {} XO", &START_BOARD[..64]),
        format!("position board {} Z", &START_BOARD[..64]),
        format!("position board {}- X", &START_BOARD[..64]),
        format!("position board {} X", &START_BOARD[..63]),
        format!("position board {}", START_BOARD.replace('O', "Q")),
        format!("position board {START_BOARD} extra"),
        long_line,
    ]);
    for line in &bad {
        let msg = err(line);
        assert!(!msg.is_empty());
        assert!(!msg.contains('\n') && !msg.contains('\r'), "{msg:?}");
        assert!(msg.len() < 400, "{}: {msg}", line.len());
    }
    assert!(err("hello").contains("unknown command 'hello'"));
    assert!(err("hello").contains("setoption"));
    assert!(err(&"x".repeat(MAX_LINE_BYTES + 1)).contains("line too long"));
    assert!(err("position startpos moves f5 z9").contains("move 2"));
    // The squares are one word and the side another: the count is of the squares alone.
    let short = err(&format!("position board {} X", &START_BOARD[..63]));
    assert!(
        short.contains("64 squares") && short.ends_with("found 63"),
        "{short}"
    );
    assert!(!short.contains("65"), "{short}");
}

#[test]
fn max_length_line_is_accepted() {
    let mut line = String::from("position startpos moves");
    while line.len() + 3 <= MAX_LINE_BYTES {
        line.push_str(" f5");
    }
    assert!(line.len() <= MAX_LINE_BYTES);
    assert!(matches!(
        parse_command(&line),
        Ok(Some(Command::Position { .. }))
    ));
}

/// Random lines built from protocol words, numbers, boards and garbage never panic, and every
/// error is a single line of bounded length.
#[test]
fn fuzz_never_panics() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let vocab: &[&str] = &[
        "uci",
        "UGI",
        "isready",
        "ucinewgame",
        "uginewgame",
        "debug",
        "on",
        "off",
        "position",
        "startpos",
        "board",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "btime",
        "wtime",
        "binc",
        "winc",
        "movestogo",
        "p1time",
        "p2time",
        "p1inc",
        "p2inc",
        "infinite",
        "exact",
        "wld",
        "stop",
        "quit",
        "setoption",
        "name",
        "value",
        "query",
        "gameover",
        "p1turn",
        "result",
        "d",
        "eval",
        "perft",
        "bench",
        "ponderhit",
        "f5",
        "d6",
        "A1",
        "h8",
        "i9",
        "pass",
        "0000",
        "--",
        "ps",
        "0",
        "1",
        "-1",
        "+3",
        "20",
        "21",
        "4294967296",
        "18446744073709551616",
        "-99999999999999999999",
        "x",
        "o",
        "X",
        "O",
        "8/8/8/3ox3/3xo3/8/8/8",
        "8/8/8",
        START_BOARD,
        "",
        "\t",
        "\r",
        "é",
        "\u{0}",
        "\u{2028}",
        "💥",
        "-",
        "+",
        "/",
    ];
    for _ in 0..5000 {
        let n = (next() % 12) as usize;
        let mut line = String::new();
        for _ in 0..n {
            match next() % 10 {
                0 => {
                    let len = (next() % 20) as usize;
                    let bytes: Vec<u8> = (0..len).map(|_| (next() & 0xff) as u8).collect();
                    line.push_str(&String::from_utf8_lossy(&bytes));
                }
                1 => line.push_str(&(next() as i64).to_string()),
                _ => line.push_str(vocab[(next() % vocab.len() as u64) as usize]),
            }
            if next() % 8 != 0 {
                line.push(' ');
            }
        }
        if let Err(e) = parse_command(&line) {
            assert!(!e.to_string().is_empty());
            assert!(
                !e.to_string().contains('\n') && !e.to_string().contains('\r'),
                "{line:?}: {e}"
            );
            assert!(e.to_string().len() < 600, "{line:?}: {e}");
        }
    }
}

#[test]
fn variant_positions_parse() {
    use crate::variant::board::Square;
    assert_eq!(
        ok("Position Variant 10x10 Blocked a1,J1 moves f4 PASS j10"),
        Command::VariantPosition {
            base: VariantBase::Start {
                rows: 10,
                cols: 10,
                blocked: vec![Square::new(0, 0), Square::new(0, 9)],
            },
            moves: vec![Some(Square::new(3, 5)), None, Some(Square::new(9, 9))],
        }
    );
    assert_eq!(
        ok("position variantfile boards/my board.txt"),
        Command::VariantPosition {
            base: VariantBase::File("boards/my board.txt".into()),
            moves: Vec::new(),
        }
    );
    assert!(err("position variant 10x10 moves q1").contains("not a variant square"));
    assert!(err("position variant 10x10 junk").contains("unexpected 'junk'"));
    assert!(err("position variant").contains("size is missing"));
    assert!(err("position variantfile").contains("file name is missing"));
}
