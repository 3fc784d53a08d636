//! The CodinGame Ataxx protocol, both sides, and the move of a UAI engine's
//! `bestmove` (for the referee's `uai:` seats). Standard library only.
//!
//! The statement says the rows come "from bottom to top", but its labels are
//! ambiguous; a bot reads both orders and keeps the one the action list
//! agrees with (a spawn target is empty and next to one of its pieces).

use super::rules::{square_name, Ataxx, AtaxxMove, AtaxxMoves, SIDE};
use crate::game::{Game, Player};
use crate::protocol::ProtocolError;
use crate::contest::{BadReply, OnFailure, ProcessModel, Protocol, TimeLimits, UaiNotation};

/// Which row the referee sends first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOrder {
    TopFirst,
    BottomFirst,
}

/// One turn's input: the rows, the opponent's last action and the actions.
pub fn turn_input(state: &Ataxx, last_action: &str, order: RowOrder) -> String {
    let mut rows = state.rows();
    if order == RowOrder::BottomFirst {
        rows.reverse();
    }
    let mut actions = AtaxxMoves::new();
    state.actions(state.side(), &mut actions);
    let mut out = rows.join("\n") + "\n";
    out.push_str(&format!("{last_action}\n{}\n", actions.len()));
    for m in actions.iter() {
        out.push_str(&format!("{m}\n"));
    }
    out
}

/// Parses a square name like `b7`.
pub fn parse_square(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    (b.len() == 2 && (b'a'..=b'g').contains(&b[0]) && (b'1'..=b'7').contains(&b[1]))
        .then(|| (b[1] - b'1') as usize * SIDE + (b[0] - b'a') as usize)
}

/// Parses an action: `b7` (spawn) or `a7c7` (jump); words after it are a message.
pub fn parse_action(line: &str) -> Option<AtaxxMove> {
    let word = line.split_whitespace().next()?;
    match word.len() {
        2 => parse_square(word).map(AtaxxMove::spawn),
        // `get`: a four-byte word may split a character that is not ASCII.
        4 => Some(AtaxxMove::jump(
            parse_square(word.get(..2)?)?,
            parse_square(word.get(2..)?)?,
        )),
        _ => None,
    }
}

/// Builds the position from rows read in `order`, for `me` to move.
pub fn board_from_rows(rows: &[&str], order: RowOrder, me: Player) -> Result<Ataxx, ProtocolError> {
    if rows.len() != SIDE {
        return Err(ProtocolError::new(1, format!("{} rows, expected 7", rows.len())));
    }
    let (mut pieces, mut walls) = ([0u64; 2], 0u64);
    for (i, row) in rows.iter().enumerate() {
        let rank = match order {
            RowOrder::TopFirst => SIDE - 1 - i,
            RowOrder::BottomFirst => i,
        };
        if row.len() != SIDE {
            return Err(ProtocolError::new(
                i + 1,
                format!("row `{row}` has {} squares, expected 7", row.len()),
            ));
        }
        for (file, ch) in row.bytes().enumerate() {
            let b = 1u64 << (rank * SIDE + file);
            match ch {
                b'.' => {}
                b'#' => walls |= b,
                b'0' => pieces[0] |= b,
                b'1' => pieces[1] |= b,
                _ => {
                    return Err(ProtocolError::new(
                        i + 1,
                        format!("unexpected `{}` in row `{row}`", ch as char),
                    ))
                }
            }
        }
    }
    Ok(Ataxx::new(pieces, walls, me, false))
}

/// Reads one turn: the 7 rows, then the listed actions; returns the position
/// in the row order the actions agree with (top first when both or neither
/// do) and the listed actions.
pub fn read_turn(rows: &[&str], actions: &[&str], me: Player) -> Result<(Ataxx, Vec<AtaxxMove>), ProtocolError> {
    let listed: Vec<AtaxxMove> = actions
        .iter()
        .enumerate()
        .map(|(i, a)| parse_action(a).ok_or_else(|| ProtocolError::new(10 + i, format!("unreadable action `{a}`"))))
        .collect::<Result<_, _>>()?;
    let mut best: Option<(usize, Ataxx)> = None;
    for order in [RowOrder::TopFirst, RowOrder::BottomFirst] {
        let state = board_from_rows(rows, order, me)?;
        let mut ours = AtaxxMoves::new();
        state.actions(me, &mut ours);
        let agree = listed.iter().filter(|m| ours.contains(m)).count();
        if best.as_ref().is_none_or(|(b, _)| agree > *b) {
            best = Some((agree, state));
        }
    }
    Ok((best.expect("two orders tried").1, listed))
}

/// A position for `gridtune move`/`perft`: a community FEN, or the
/// CodinGame turn input after an `id` line.
pub fn parse_position(text: &str) -> Result<(Ataxx, Player), ProtocolError> {
    let lines: Vec<&str> = text
        .lines()
        .map(crate::protocol::trim_input)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() == 1 {
        let state = Ataxx::from_fen(lines[0]).map_err(|e| ProtocolError::new(1, e.to_string()))?;
        let side = state.side();
        return Ok((state.with_draws(true), side));
    }
    let me: Player = match lines.first().copied() {
        Some("0") => 0,
        Some("1") => 1,
        Some(other) => {
            return Err(ProtocolError::new(
                1,
                format!("expected a FEN, or the id line 0 or 1; found `{other}`"),
            ))
        }
        None => {
            return Err(ProtocolError::new(
                1,
                "expected a FEN, or the id line 0 or 1; the file is empty",
            ))
        }
    };
    if lines.len() < 10 {
        return Err(ProtocolError::new(
            lines.len() + 1,
            "expected 7 rows, lastAction and actionsCount",
        ));
    }
    let count: usize = lines[9]
        .parse()
        .map_err(|_| ProtocolError::new(10, format!("expected actionsCount, found `{}`", lines[9])))?;
    let actions = &lines[10..];
    if actions.len() != count {
        return Err(ProtocolError::new(
            11,
            format!("{count} actions announced, {} given", actions.len()),
        ));
    }
    let (state, _) = read_turn(&lines[1..8], actions, me)?;
    Ok((state, me))
}

/// The action as a bot prints it.
pub fn action_text(m: AtaxxMove) -> String {
    if m.is_pass() {
        "random".into()
    } else if m.from == m.to {
        square_name(m.to as usize)
    } else {
        m.to_string()
    }
}

/// The move of a UAI engine's `bestmove`: `b7` (a spawn), `a7c7` (a jump)
/// or `0000` (the pass), which must be legal for `seat`.
pub fn uai_move(state: &Ataxx, seat: Player, word: &str) -> Result<AtaxxMove, BadReply> {
    let m = match word {
        "0000" => AtaxxMove::PASS,
        _ => parse_action(word).ok_or_else(|| {
            BadReply::Invalid(format!(
                "`{word}` is not a move: expected a square such as b7, two such as a7c7, or 0000"
            ))
        })?,
    };
    let mut legal = AtaxxMoves::new();
    state.legal_moves(seat, &mut legal);
    if !legal.contains(&m) {
        return Err(BadReply::Illegal(if m.is_pass() {
            "`0000` passes, but the side has moves".to_string()
        } else {
            format!("`{word}` is not a legal move here")
        }));
    }
    Ok(m)
}

impl Protocol for Ataxx {
    const PROCESS: ProcessModel = ProcessModel::PerGame;
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 100);
    const ON_FAILURE: OnFailure = OnFailure::Lose;
    const UAI: Option<UaiNotation<Self>> = Some(UaiNotation {
        fen: Ataxx::to_fen,
        read_move: uai_move,
    });

    fn greeting(_state: &Self, seat: Player) -> String {
        format!("{seat}\n")
    }

    /// Rows bottom first, as the statement says; `lastAction` is the
    /// opponent's move before this one.
    fn turn_input(state: &Self, _seat: Player, moves: &[AtaxxMove]) -> String {
        let last = match moves.last() {
            None => "null".to_string(),
            Some(m) if m.is_pass() => "pass".to_string(),
            Some(&m) => action_text(m),
        };
        turn_input(state, &last, RowOrder::BottomFirst)
    }

    /// A side with no action is not asked; the referee passes for it.
    fn asks(state: &Self, seat: Player) -> bool {
        state.can_move(seat)
    }

    /// One of the listed actions, or `random` (CodinGame then plays a random
    /// listed action); words after the action are a message.
    fn read_reply(
        state: &Self,
        seat: Player,
        line: &str,
        _newline: bool,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<AtaxxMove, BadReply> {
        let line = crate::protocol::clean(line);
        let mut listed = AtaxxMoves::new();
        state.actions(seat, &mut listed);
        if line.split_whitespace().next() == Some("random") {
            // The referee does not ask a side with no action, but a caller
            // that does must get a fault, not a panic.
            if listed.is_empty() {
                return Err(BadReply::Illegal(
                    "`random` with no listed action: the side must pass".into(),
                ));
            }
            return Ok(listed.as_slice()[pick(listed.len())]);
        }
        let m = parse_action(line).ok_or_else(|| {
            BadReply::Invalid(format!(
                "invalid line `{line}`: expected an action such as b7 or a7c7, or random"
            ))
        })?;
        if !listed.contains(&m) {
            return Err(BadReply::Illegal(format!("`{line}` is not one of the listed actions")));
        }
        Ok(m)
    }

    fn move_text(m: AtaxxMove) -> String {
        action_text(m)
    }

    /// A community FEN on one line, or `id` and a CodinGame turn input.
    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        parse_position(text)
    }

    fn ended_by_turn_limit(state: &Self) -> bool {
        let pieces = (0..2).all(|p| state.pieces(p) != 0);
        state.plies() >= super::rules::TURN_LIMIT && pieces && (state.can_move(0) || state.can_move(1))
    }
}
