//! What a session leaves behind: each game's record (its moves, how it ended, the GGF-like line
//! of docs/formats.md, "Variant game records") and the session's report with each colour's totals.

use super::idx;
use crate::variant::board::{Board, Side, SideNames, Square};
use crate::variant::wire::WireMove;
use std::net::SocketAddr;
use std::time::Duration;

/// A move of a finished record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Who played it.
    pub colour: Side,
    /// The square, or `None` for a pass.
    pub square: Option<Square>,
    /// The time it took, from the server's message to the whole move read.
    pub used: Duration,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Neither side could move: the discs decide.
    Finished,
    /// `loser`'s clock ran out.
    Time {
        /// Who ran out of time.
        loser: Side,
    },
    /// `loser` sent an illegal move, a wrong pass or a malformed move.
    Illegal {
        /// Who lost.
        loser: Side,
        /// What was wrong, with what was sent.
        what: Foul,
    },
    /// `loser`'s connection closed or failed.
    Disconnected {
        /// Who went away.
        loser: Side,
    },
    /// The server was stopped (Ctrl-C) during the game: no result.
    Interrupted,
}

/// A move that loses the game at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Foul {
    /// Bytes that are not a move.
    Malformed(crate::variant::wire::DecodeError),
    /// A move sent by a side that had to pass.
    MoveWhenPassing(WireMove),
    /// A pass while a legal move was there.
    NeedlessPass,
    /// A move that is not legal (or names no square of the board).
    Illegal(WireMove),
}

impl std::fmt::Display for Foul {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Foul::Malformed(e) => write!(f, "malformed move: {e}"),
            Foul::MoveWhenPassing(mv) => write!(f, "sent {mv} when it had to pass"),
            Foul::NeedlessPass => f.write_str("passed while it had a legal move"),
            Foul::Illegal(mv) => write!(f, "illegal move {mv}"),
        }
    }
}

/// One game as the server saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Its number in the session, from 1.
    pub number: u32,
    /// Games in the session.
    pub of: u32,
    /// The start position (layout, discs, side to move).
    pub start: Board,
    /// The moves and passes, in order.
    pub moves: Vec<PlayedMove>,
    /// The last position.
    pub end: Board,
    /// How it ended.
    pub ending: Ending,
    /// Each player's budget for the game.
    pub time: Duration,
    /// Time left at the end: white's, red's.
    pub time_left: [Duration; 2],
    /// The clients' addresses: white's, red's.
    pub peers: [SocketAddr; 2],
    /// When the game started, in seconds since 1970.
    pub started: u64,
}

/// A square's name as the records (and the engine protocol) write it: the column's letter `a`-`p`
/// then the row from 1, so the wire's (r, c) is letter c, number r + 1: (0, 0) is `a1`, (3, 5)
/// is `f4`, (9, 9) is `j10`.
pub fn square_text(sq: Square) -> String {
    format!(
        "{}{}",
        char::from(b'a' + sq.col.min(25)),
        u32::from(sq.row) + 1
    )
}

/// The board in one line: `RxC` then the rows (cells `.`, `W`, `R`, `#`) joined by `/`, then the
/// side to move (`W` or `R`). E.g. `4x4 #..#/.WR./.RW./#..# W`.
pub fn board_line(board: &Board) -> String {
    let mut rows = Vec::with_capacity(board.rows());
    for row in 0..board.rows() {
        let mut text = String::with_capacity(board.cols());
        for col in 0..board.cols() {
            text.push(board.cell(Square::new(row as u8, col as u8)).symbol());
        }
        rows.push(text);
    }
    format!(
        "{}x{} {} {}",
        board.rows(),
        board.cols(),
        rows.join("/"),
        board.to_move().letter()
    )
}

/// Seconds with two decimals.
/// A client's address as a record shows it: without the brackets of an IPv6 address, which
/// would close the record's `[...]` field (`::1:40312`: the port after the last colon).
fn peer_text(addr: SocketAddr) -> String {
    addr.to_string().replace(['[', ']'], "")
}

fn seconds(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

impl GameRecord {
    /// The winner (`None`: a draw, or an interrupted game).
    pub fn winner(&self) -> Option<Side> {
        match &self.ending {
            Ending::Finished => {
                let (w, r) = (self.end.count(Side::First), self.end.count(Side::Second));
                match w.cmp(&r) {
                    std::cmp::Ordering::Greater => Some(Side::First),
                    std::cmp::Ordering::Less => Some(Side::Second),
                    std::cmp::Ordering::Equal => None,
                }
            }
            Ending::Time { loser } | Ending::Disconnected { loser } => Some(loser.other()),
            Ending::Illegal { loser, .. } => Some(loser.other()),
            Ending::Interrupted => None,
        }
    }

    /// The result as the record writes it: `W+12`, `R+4`, `draw` for a finished game; the winner's
    /// letter and the reason for a forfeit (`R:time`, `W:illegal`, `W:disconnect`); `?:interrupted`.
    pub fn result(&self) -> String {
        let diff = self.end.count(Side::First) as i64 - self.end.count(Side::Second) as i64;
        let winner = self.winner().map(SideNames::letter).unwrap_or('?');
        match &self.ending {
            Ending::Finished if diff == 0 => "draw".to_string(),
            Ending::Finished => format!("{winner}+{}", diff.abs()),
            Ending::Time { .. } => format!("{winner}:time"),
            Ending::Illegal { .. } => format!("{winner}:illegal"),
            Ending::Disconnected { .. } => format!("{winner}:disconnect"),
            Ending::Interrupted => "?:interrupted".to_string(),
        }
    }

    /// A sentence for people: `white wins 56-40`, `red wins: white ran out of time`, ...
    pub fn describe(&self) -> String {
        let (w, r) = (self.end.count(Side::First), self.end.count(Side::Second));
        match &self.ending {
            Ending::Finished => match self.winner() {
                Some(c) => format!("{} wins {w}-{r} (white-red)", c.name()),
                None => format!("draw {w}-{r}"),
            },
            Ending::Time { loser } => format!(
                "{} wins: {} ran out of time ({w}-{r} on the board)",
                loser.other().name(),
                loser.name()
            ),
            Ending::Illegal { loser, what } => format!(
                "{} wins: technical loss of {}: {what}",
                loser.other().name(),
                loser.name()
            ),
            Ending::Disconnected { loser } => {
                format!(
                    "{} wins: {} disconnected",
                    loser.other().name(),
                    loser.name()
                )
            }
            Ending::Interrupted => "interrupted, no result".to_string(),
        }
    }

    /// The game as one GGF-like line (docs/formats.md, "Variant game records"):
    /// `(;GM[Othello variant]PC[wedge server]DT[..]GN[1/10]TI[120.00]PW[addr]PR[addr]
    /// BO[10x10 ... W]W[g5//0.12]R[PA//0.01]...RE[W+12]SC[56-40]TL[101.22 98.07];)` with `CM[..]`
    /// naming a technical loss.
    pub fn ggf(&self) -> String {
        let mut out = format!(
            "(;GM[Othello variant]PC[wedge server]DT[{}]GN[{}/{}]TI[{}]PW[{}]PR[{}]BO[{}]",
            self.started,
            self.number,
            self.of,
            seconds(self.time),
            peer_text(self.peers[0]),
            peer_text(self.peers[1]),
            board_line(&self.start)
        );
        for mv in &self.moves {
            let square = mv.square.map(square_text).unwrap_or_else(|| "PA".into());
            out.push_str(&format!(
                "{}[{square}//{}]",
                mv.colour.letter(),
                seconds(mv.used)
            ));
        }
        out.push_str(&format!(
            "RE[{}]SC[{}-{}]TL[{} {}]",
            self.result(),
            self.end.count(Side::First),
            self.end.count(Side::Second),
            seconds(self.time_left[0]),
            seconds(self.time_left[1])
        ));
        if let Ending::Illegal { what, .. } = &self.ending {
            out.push_str(&format!("CM[{}]", what.to_string().replace([']', '['], "")));
        }
        out.push_str(";)");
        out
    }
}

/// Why a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// Every game was played.
    Complete,
    /// A client went away during game `game` (the session stops there).
    Disconnected {
        /// Who went away.
        colour: Side,
        /// In which game (from 1).
        game: u32,
    },
    /// The server was stopped (before or during the games).
    Interrupted,
}

/// What a session produced.
#[derive(Clone, Debug)]
pub struct SessionReport {
    /// Games planned.
    pub planned: u32,
    /// The games played (an interrupted game included, without a result).
    pub games: Vec<GameRecord>,
    /// Why the session ended.
    pub end: SessionEnd,
    /// The clients' addresses, white's and red's (`None` for a seat never taken).
    pub peers: [Option<SocketAddr>; 2],
}

/// One colour's totals over a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Discs at the end of every game.
    pub discs: u32,
    /// Games lost on time.
    pub time_losses: u32,
    /// Games lost by an illegal or malformed move or a wrong pass.
    pub illegal_losses: u32,
    /// Games lost by going away.
    pub disconnects: u32,
}

impl SessionReport {
    /// The totals of `colour` (an interrupted game counts for nothing).
    pub fn totals(&self, colour: Side) -> Totals {
        let mut t = Totals::default();
        for game in &self.games {
            if game.ending == Ending::Interrupted {
                continue;
            }
            t.discs += game.end.count(colour);
            match game.winner() {
                Some(c) if c == colour => t.wins += 1,
                Some(_) => {
                    t.losses += 1;
                    match game.ending {
                        Ending::Time { .. } => t.time_losses += 1,
                        Ending::Illegal { .. } => t.illegal_losses += 1,
                        Ending::Disconnected { .. } => t.disconnects += 1,
                        Ending::Finished | Ending::Interrupted => {}
                    }
                }
                None => t.draws += 1,
            }
        }
        t
    }

    /// The summary for people: games played, why the session ended, then one line a colour.
    pub fn summary(&self) -> String {
        let decided = self
            .games
            .iter()
            .filter(|g| g.ending != Ending::Interrupted)
            .count();
        let why = match &self.end {
            SessionEnd::Complete => "all games played".to_string(),
            SessionEnd::Disconnected { colour, game } => {
                format!("{} disconnected in game {game}", colour.name())
            }
            SessionEnd::Interrupted => "interrupted".to_string(),
        };
        let mut out = format!(
            "session: {decided} of {} games played ({why})\n",
            self.planned
        );
        for colour in [Side::First, Side::Second] {
            let t = self.totals(colour);
            let peer = self.peers[idx(colour)]
                .map(|p| p.to_string())
                .unwrap_or_else(|| "-".into());
            out.push_str(&format!(
                "{:<5} {peer}: {} wins, {} losses, {} draws, {} discs (lost on time {}, by illegal moves {}, by disconnecting {})\n",
                colour.name(),
                t.wins,
                t.losses,
                t.draws,
                t.discs,
                t.time_losses,
                t.illegal_losses,
                t.disconnects
            ));
        }
        out
    }
}
