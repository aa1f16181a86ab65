//! The server's own tests: square names, board lines, seeded layouts and record results (the
//! sessions over sockets are in tests/variant_server.rs).

use super::*;
use crate::variant::board::Square;

fn corners() -> Board {
    let sq = |row, col| Square { row, col };
    Board::start(10, 10, &[sq(0, 0), sq(0, 9), sq(9, 0), sq(9, 9)]).unwrap()
}

#[test]
fn squares_are_named_as_in_the_protocol() {
    assert_eq!(square_text(Square { row: 0, col: 0 }), "a1");
    assert_eq!(square_text(Square { row: 3, col: 5 }), "f4");
    assert_eq!(square_text(Square { row: 15, col: 15 }), "p16");
}

#[test]
fn board_lines_show_the_layout() {
    let line = board_line(&corners());
    assert!(line.starts_with("10x10 #........#/........../"), "{line}");
    assert!(line.contains("/....WR..../....RW..../"), "{line}");
    assert!(line.ends_with("#........# W"), "{line}");
}

#[test]
fn random_starts_follow_the_seed() {
    let starts = Starts::Random {
        rows: 10,
        cols: 10,
        blocked: 6,
        seed: 9,
    };
    let mut a = starts.generator();
    let mut b = starts.generator();
    let first: Vec<Board> = (0..3).map(|_| a().unwrap()).collect();
    let second: Vec<Board> = (0..3).map(|_| b().unwrap()).collect();
    assert_eq!(first, second);
    assert_ne!(first[0], first[1]);
    let too_many = Starts::Random {
        rows: 4,
        cols: 4,
        blocked: 20,
        seed: 1,
    };
    assert!(too_many.check().is_err());
}

#[test]
fn records_name_the_result() {
    let peer: SocketAddr = "127.0.0.1:1".parse().unwrap();
    let start = corners();
    let mv = start.legal_moves()[0];
    let end = start.play(mv).unwrap();
    let mut record = GameRecord {
        number: 1,
        of: 2,
        start,
        moves: vec![PlayedMove {
            colour: Side::First,
            square: Some(mv),
            used: Duration::from_millis(120),
        }],
        end,
        ending: Ending::Time {
            loser: Side::Second,
        },
        time: Duration::from_secs(120),
        time_left: [Duration::from_millis(119_880), Duration::ZERO],
        peers: [peer, peer],
        started: 0,
    };
    let line = record.ggf();
    assert!(line.starts_with("(;GM[Othello variant]"), "{line}");
    assert!(
        line.contains(&format!("W[{}//0.12]", square_text(mv))),
        "{line}"
    );
    assert!(
        line.contains("RE[W:time]SC[4-1]TL[119.88 0.00];)"),
        "{line}"
    );
    assert!(line.contains("PW[127.0.0.1:1]"), "{line}");
    // An IPv6 peer's brackets would close the field early.
    let v6: SocketAddr = "[::1]:40312".parse().unwrap();
    let mut six = record.clone();
    six.peers = [v6, peer];
    let line = six.ggf();
    assert!(line.contains("PW[::1:40312]PR[127.0.0.1:1]"), "{line}");
    record.ending = Ending::Finished;
    assert_eq!(record.result(), "W+3");
    assert_eq!(record.winner(), Some(Side::First));
    let report = SessionReport {
        planned: 2,
        games: vec![record],
        end: SessionEnd::Complete,
        peers: [Some(peer), None],
    };
    assert_eq!(report.totals(Side::First).wins, 1);
    assert_eq!(report.totals(Side::Second).discs, 1);
    assert!(report.summary().contains("1 of 2 games played"));
}
