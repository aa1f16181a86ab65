//! The referee of one game: it sends each position to the side to move, reads its move against
//! that player's clock, and judges it (a late move loses on time; a malformed move, an illegal
//! one or a wrong pass is a technical loss; a closed connection loses the game).

use super::record::{Ending, Foul, GameRecord, PlayedMove};
use super::seating::{read_exact_by, ReadFailure, Seat};
use super::{idx, Event, SessionConfig};
use crate::variant::board::{Board, Side, Square};
use crate::variant::wire::{ServerMessage, Status, WireMove, MOVE_LEN};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long a client that lost on time may still take to send the move it was thinking of, which
/// is then dropped before the next game.
const LATE_ANSWER_GRACE: Duration = Duration::from_secs(2);

/// The message to `colour` about `board`.
pub(super) fn message(
    status: Status,
    time_left: Duration,
    last_move: Option<Square>,
    board: &Board,
) -> ServerMessage {
    let mut cells = Vec::with_capacity(board.rows() * board.cols());
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            cells.push(board.cell(Square {
                row: row as u8,
                col: col as u8,
            }));
        }
    }
    ServerMessage {
        status,
        time_left,
        last_move,
        white: board.count(Side::First),
        red: board.count(Side::Second),
        cells,
    }
}

/// Seconds since 1970 (0 if the clock is before it).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Referees one game from `start` and sends GAME ENDED to both clients (not ABORT).
pub(super) fn play_game(
    seats: &mut [Seat; 2],
    number: u32,
    start: Board,
    config: &SessionConfig,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> GameRecord {
    on_event(Event::GameStarted {
        number,
        board: &start,
    });
    let started = unix_now();
    let mut board = start;
    let mut clocks = [config.time; 2];
    let mut last: [Option<Square>; 2] = [None, None];
    let mut moves = Vec::new();
    // The seat whose read timed out: its move may still come, and must not be read next game.
    let mut late_answer = None;
    let ending = loop {
        if board.is_over() {
            break Ending::Finished;
        }
        let colour = board.to_move();
        let me = idx(colour);
        let must_pass = board.must_pass();
        let status = if must_pass {
            Status::CanNotMove
        } else {
            Status::GiveMove
        };
        let msg = message(status, clocks[me], last[idx(colour.other())], &board);
        let dropped = seats[me].drain();
        if dropped > 0 {
            log::info!("dropped {dropped} bytes {colour:?} sent unasked");
        }
        if !seats[me].send(&msg) {
            break Ending::Disconnected { loser: colour };
        }
        let sent = Instant::now();
        let mut bytes = [0u8; MOVE_LEN];
        let read = read_exact_by(&mut seats[me].stream, &mut bytes, sent + clocks[me], stop);
        let used = sent.elapsed();
        match read {
            Ok(()) => {}
            Err(ReadFailure::Timeout) => {
                clocks[me] = Duration::ZERO;
                late_answer = Some(me);
                break Ending::Time { loser: colour };
            }
            Err(ReadFailure::Gone) => {
                seats[me].alive = false;
                break Ending::Disconnected { loser: colour };
            }
            Err(ReadFailure::Stopped) => {
                clocks[me] = clocks[me].saturating_sub(used);
                break Ending::Interrupted;
            }
        }
        if used > clocks[me] {
            clocks[me] = Duration::ZERO;
            break Ending::Time { loser: colour };
        }
        clocks[me] -= used;
        let illegal = |what: Foul| Ending::Illegal {
            loser: colour,
            what,
        };
        let sent_move = match WireMove::decode(&bytes) {
            Ok(mv) => mv,
            Err(e) => break illegal(Foul::Malformed(e)),
        };
        let square = if must_pass {
            if !sent_move.is_pass() {
                break illegal(Foul::MoveWhenPassing(sent_move));
            }
            board = board.pass();
            None
        } else {
            if sent_move.is_pass() {
                break illegal(Foul::NeedlessPass);
            }
            let next = sent_move
                .square(board.rows(), board.cols())
                .and_then(|sq| board.play(sq).map(|b| (sq, b)));
            let Some((sq, next)) = next else {
                break illegal(Foul::Illegal(sent_move));
            };
            board = next;
            Some(sq)
        };
        last[me] = square;
        let mv = PlayedMove {
            colour,
            square,
            used,
        };
        moves.push(mv);
        on_event(Event::Played {
            number,
            mv,
            time_left: clocks[me],
            board: &board,
        });
    };
    if ending != Ending::Interrupted {
        for colour in [Side::First, Side::Second] {
            let me = idx(colour);
            let msg = message(
                Status::GameEnded,
                clocks[me],
                last[idx(colour.other())],
                &board,
            );
            seats[me].send(&msg);
        }
    }
    if let Some(me) = late_answer {
        seats[me].drop_late_answer(LATE_ANSWER_GRACE, stop);
    }
    GameRecord {
        number,
        of: config.games,
        start,
        moves,
        end: board,
        ending,
        time: config.time,
        time_left: clocks,
        peers: [seats[0].peer, seats[1].peer],
        started,
    }
}
