//! The `position` command's arguments: the base (`startpos`, `board`, `fen`, `variant`,
//! `variantfile`) and the move list.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    StartPos,
    Board,
    Fen,
    Variant,
    VariantFile,
}

pub(super) fn parse_position(line: &str, args: &[&str]) -> Result<Command, ParseError> {
    let Some((&kind, rest)) = args.split_first() else {
        return Err(Fault::Position(None).into());
    };
    let mut base_parser = alt((
        value(Base::StartPos, word("startpos")),
        value(Base::Board, word("board")),
        value(Base::Fen, word("fen")),
        value(Base::Variant, word("variant")),
        value(Base::VariantFile, word("variantfile")),
    ));
    let base = match base_parser.parse_complete(kind) {
        Ok((_, base)) => base,
        Err(_) => return Err(Fault::Position(Some(truncate(kind))).into()),
    };
    let (base, rest) = match base {
        Base::Variant | Base::VariantFile => return parse_variant_position(line, base, rest),
        Base::StartPos => (PositionSpec::StartPos, rest),
        Base::Board => {
            let (squares, side, rest) = two_tokens("board", "the 64 squares", rest)?;
            let count = squares.chars().count();
            if count != 64 {
                return Err(Fault::Board("board", ParseBoardError::WrongSquareCount(count)).into());
            }
            let pos = Position::from_str(&format!("{squares} {side}"))
                .map_err(|e| ParseError::from(Fault::Board("board", e)))?;
            (PositionSpec::Board(pos), rest)
        }
        Base::Fen => {
            let (rows, side, rest) = two_tokens("fen", "the FEN rows", rest)?;
            let pos = Position::from_fen(&format!("{rows} {side}"))
                .map_err(|e| ParseError::from(Fault::Board("fen", e)))?;
            (PositionSpec::Fen(pos), rest)
        }
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&keyword, list)) if is_word(keyword, "moves") => parse_moves(list)?,
        Some((&other, _)) => {
            return Err(Fault::AfterPosition {
                text: truncate(other),
                variant: false,
            }
            .into())
        }
    };
    Ok(Command::Position { base, moves })
}

/// The rest of `position variant ...` or `position variantfile ...` (protocol.md, 3.1).
fn parse_variant_position(line: &str, base: Base, rest: &[&str]) -> Result<Command, ParseError> {
    let (base, rest) = match base {
        Base::VariantFile => variant::parse_variant_file(line, rest),
        _ => variant::parse_variant(rest),
    }
    .map_err(|e| ParseError::from(Fault::Variant(e)))?;
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&keyword, list)) if is_word(keyword, "moves") => {
            variant::parse_moves(list).map_err(|e| ParseError::from(Fault::Variant(e)))?
        }
        Some((&other, _)) => {
            return Err(Fault::AfterPosition {
                text: truncate(other),
                variant: true,
            }
            .into())
        }
    };
    Ok(Command::VariantPosition { base, moves })
}

/// The two tokens of a `board` or `fen` base (what, then the side to move) and the tokens after them.
fn two_tokens<'t, 'a>(
    kind: &'static str,
    what: &'static str,
    rest: &'t [&'a str],
) -> Result<(&'a str, &'a str, &'t [&'a str]), ParseError> {
    let first = match rest.first() {
        Some(&t) if !is_word(t, "moves") => t,
        _ => return Err(Fault::BoardMissing(kind, what).into()),
    };
    let side = match rest.get(1) {
        Some(&t) if !is_word(t, "moves") => t,
        _ => return Err(Fault::SideMissing(kind, what).into()),
    };
    if side.chars().count() != 1 {
        return Err(Fault::Board(kind, ParseBoardError::BadSide(truncate(side))).into());
    }
    Ok((first, side, rest.get(2..).unwrap_or(&[])))
}

fn parse_moves(list: &[&str]) -> Result<Vec<Move>, ParseError> {
    list.iter()
        .enumerate()
        .map(|(i, token)| {
            Move::from_str(token).map_err(|e| ParseError::from(Fault::Move(i + 1, e)))
        })
        .collect()
}
