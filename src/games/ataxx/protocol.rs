//! The CodinGame Ataxx protocol, both sides. Standard library only.
//!
//! The statement says the rows come "from bottom to top", but its labels are
//! ambiguous; a bot reads both orders and keeps the one the action list
//! agrees with (a spawn target is empty and next to one of its pieces).

use super::rules::{square_name, Ataxx, AtaxxMove, AtaxxMoves, SIDE};
use crate::game::Player;
use crate::protocol::ProtocolError;

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
