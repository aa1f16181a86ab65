//! The `go` command's arguments: limits, clocks and flags, each given at most once.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GoWord {
    Depth,
    Nodes,
    MoveTime,
    BTime,
    WTime,
    BInc,
    WInc,
    MovesToGo,
    P1Time,
    P2Time,
    P1Inc,
    P2Inc,
    Infinite,
    Exact,
    Wld,
    Ponder,
    SearchMoves,
    Mate,
}

impl GoWord {
    fn name(self) -> &'static str {
        match self {
            GoWord::Depth => "depth",
            GoWord::Nodes => "nodes",
            GoWord::MoveTime => "movetime",
            GoWord::BTime => "btime",
            GoWord::WTime => "wtime",
            GoWord::BInc => "binc",
            GoWord::WInc => "winc",
            GoWord::MovesToGo => "movestogo",
            GoWord::P1Time => "p1time",
            GoWord::P2Time => "p2time",
            GoWord::P1Inc => "p1inc",
            GoWord::P2Inc => "p2inc",
            GoWord::Infinite => "infinite",
            GoWord::Exact => "exact",
            GoWord::Wld => "wld",
            GoWord::Ponder => "ponder",
            GoWord::SearchMoves => "searchmoves",
            GoWord::Mate => "mate",
        }
    }
}

pub(super) const GO_WORDS: &str =
    "depth, nodes, movetime, btime, wtime, binc, winc, movestogo, p1time, \
                        p2time, p1inc, p2inc, infinite, exact, wld, ponder, searchmoves, mate";

fn go_word(token: &str) -> Option<GoWord> {
    let mut parser = alt((
        value(GoWord::Depth, word("depth")),
        value(GoWord::Nodes, word("nodes")),
        value(GoWord::MoveTime, word("movetime")),
        value(GoWord::BTime, word("btime")),
        value(GoWord::WTime, word("wtime")),
        value(GoWord::BInc, word("binc")),
        value(GoWord::WInc, word("winc")),
        value(GoWord::MovesToGo, word("movestogo")),
        value(GoWord::P1Time, word("p1time")),
        value(GoWord::P2Time, word("p2time")),
        value(GoWord::P1Inc, word("p1inc")),
        value(GoWord::P2Inc, word("p2inc")),
        value(GoWord::Infinite, word("infinite")),
        value(GoWord::Exact, word("exact")),
        value(GoWord::Wld, word("wld")),
        value(GoWord::Ponder, word("ponder")),
        value(GoWord::SearchMoves, word("searchmoves")),
        value(GoWord::Mate, word("mate")),
    ));
    parser.parse_complete(token).ok().map(|(_, w)| w)
}

fn twice(w: GoWord) -> ParseError {
    Fault::Twice(w.name()).into()
}

fn set_once<T>(slot: &mut Option<T>, v: T, w: GoWord) -> Result<(), ParseError> {
    if slot.is_some() {
        return Err(twice(w));
    }
    *slot = Some(v);
    Ok(())
}

fn set_flag(flag: &mut bool, w: GoWord) -> Result<(), ParseError> {
    if *flag {
        return Err(twice(w));
    }
    *flag = true;
    Ok(())
}

pub(super) fn parse_go(args: &[&str]) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut tokens = args.iter().copied().peekable();
    while let Some(token) = tokens.next() {
        let Some(w) = go_word(token) else {
            return Err(Fault::GoParameter(truncate(token)).into());
        };
        let name = w.name();
        let small = |t: Option<&str>| {
            number_arg("go", name, t, u64::from(u32::MAX), false)
                .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
        };
        let large = |t: Option<&str>| number_arg("go", name, t, u64::MAX, false);
        let clock = |t: Option<&str>| number_arg("go", name, t, u64::MAX, true);
        match w {
            GoWord::BTime | GoWord::WTime | GoWord::BInc | GoWord::WInc => go.by_colour = true,
            GoWord::P1Time | GoWord::P2Time | GoWord::P1Inc | GoWord::P2Inc => go.by_player = true,
            _ => {}
        }
        match w {
            GoWord::Depth => set_once(&mut go.depth, small(tokens.next())?, w)?,
            GoWord::MovesToGo => set_once(&mut go.movestogo, small(tokens.next())?, w)?,
            GoWord::Nodes => set_once(&mut go.nodes, large(tokens.next())?, w)?,
            GoWord::MoveTime => set_once(&mut go.movetime, large(tokens.next())?, w)?,
            GoWord::BTime | GoWord::P1Time => set_once(&mut go.btime, clock(tokens.next())?, w)?,
            GoWord::WTime | GoWord::P2Time => set_once(&mut go.wtime, clock(tokens.next())?, w)?,
            GoWord::BInc | GoWord::P1Inc => set_once(&mut go.binc, clock(tokens.next())?, w)?,
            GoWord::WInc | GoWord::P2Inc => set_once(&mut go.winc, clock(tokens.next())?, w)?,
            GoWord::Infinite => set_flag(&mut go.infinite, w)?,
            GoWord::Exact => set_flag(&mut go.exact, w)?,
            GoWord::Wld => set_flag(&mut go.wld, w)?,
            GoWord::Ponder => set_flag(&mut go.ponder, w)?,
            GoWord::Mate => set_once(&mut go.mate, small(tokens.next())?, w)?,
            GoWord::SearchMoves => {
                let mut set = 0u64;
                // A pass names no square: where the side must pass it is the answer anyway, and
                // elsewhere it is a move that is not legal.
                let mut named = false;
                while let Some(&t) = tokens.peek() {
                    if go_word(t).is_some() {
                        break;
                    }
                    tokens.next();
                    let mv =
                        Move::from_str(t).map_err(|e| ParseError::from(Fault::SearchMove(e)))?;
                    named = true;
                    if let Some(sq) = mv.square() {
                        set |= 1u64 << sq.index();
                    }
                }
                if !named {
                    return Err(Fault::SearchNothing.into());
                }
                set_once(&mut go.searchmoves, set, w)?;
            }
        }
    }
    if go.mate.is_some() && go.exact {
        return Err(Fault::MateAndExact.into());
    }
    if go.exact && go.wld {
        return Err(Fault::ExactAndWld.into());
    }
    Ok(go)
}
