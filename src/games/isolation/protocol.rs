//! The Isolation contest protocol, both sides: what the referee writes, what a
//! bot reads, and the reply line. Standard library only.

use super::rules::{bit, square, Isolation, IsolationMove, MAX_SIDE, STRIDE};
use crate::game::{Game, Player};
use crate::protocol::{parse_ints, ProtocolError};

/// The first line a bot receives: `W H my_id`.
pub fn header(state: &Isolation, me: Player) -> String {
    format!("{} {} {}\n", state.width(), state.height(), me)
}

/// The `H + 3` lines a bot receives on its turn.
pub fn turn_block(state: &Isolation) -> String {
    let mut out = format!("turn {}\n", state.turn());
    for p in 0..2 {
        let (x, y) = super::rules::xy(state.position(p));
        out.push_str(&format!("{x} {y}\n"));
    }
    for row in state.board_rows() {
        out.push_str(&row);
        out.push('\n');
    }
    out
}

/// Parses the header line `W H my_id`.
pub fn parse_header(line: &str, line_no: usize) -> Result<(usize, usize, Player), ProtocolError> {
    let v = parse_ints(line, 3, line_no, "`W H my_id`")?;
    let side = |n: i64| (1..=MAX_SIDE as i64).contains(&n);
    if !side(v[0]) || !side(v[1]) || !(0..=1).contains(&v[2]) {
        return Err(ProtocolError::new(
            line_no,
            format!("`{line}` is out of range: sides 1..={MAX_SIDE}, my_id 0 or 1"),
        ));
    }
    Ok((v[0] as usize, v[1] as usize, v[2] as Player))
}

/// Parses one turn block (`turn T`, two positions, the rows) given as cleaned,
/// non-blank lines numbered from `first_line_no`. `size` is `(W, H)` from the
/// header; without one the rows give it.
pub fn parse_turn(
    lines: &[&str],
    size: Option<(usize, usize)>,
    first_line_no: usize,
) -> Result<Isolation, ProtocolError> {
    let at = |i: usize| first_line_no + i;
    let get = |i: usize, what: &str| {
        lines
            .get(i)
            .copied()
            .ok_or_else(|| ProtocolError::new(at(i), format!("missing {what}")))
    };
    let turn_line = get(0, "`turn T`")?;
    let turn = turn_line
        .strip_prefix("turn ")
        .and_then(|t| t.parse::<u16>().ok())
        .filter(|&t| t >= 1)
        .ok_or_else(|| ProtocolError::new(at(0), format!("expected `turn T`, found `{turn_line}`")))?;
    let mut pos = [(0usize, 0usize); 2];
    for (p, slot) in pos.iter_mut().enumerate() {
        let v = parse_ints(get(1 + p, "a position")?, 2, at(1 + p), "`x y`")?;
        if v.iter().any(|&c| !(0..MAX_SIDE as i64).contains(&c)) {
            return Err(ProtocolError::new(at(1 + p), "position off any legal board"));
        }
        *slot = (v[0] as usize, v[1] as usize);
    }
    let rows: &[&str] = &lines[3.min(lines.len())..];
    let (width, height) = size.unwrap_or((rows.first().map_or(0, |r| r.len()), rows.len()));
    if rows.len() < height || height == 0 || height > MAX_SIDE || width == 0 || width > MAX_SIDE {
        return Err(ProtocolError::new(
            at(3 + rows.len()),
            format!(
                "expected {height} board rows of width 1..={MAX_SIDE}, found {}",
                rows.len()
            ),
        ));
    }
    let mut free = 0u128;
    for (y, row) in rows.iter().take(height).enumerate() {
        if row.len() != width {
            return Err(ProtocolError::new(
                at(3 + y),
                format!("row has {} characters, expected {width}", row.len()),
            ));
        }
        for (x, c) in row.bytes().enumerate() {
            match c {
                b'.' => free |= bit(square(x, y)),
                b'#' => {}
                b'0' | b'1' => {
                    if pos[(c - b'0') as usize] != (x, y) {
                        return Err(ProtocolError::new(
                            at(3 + y),
                            format!(
                                "`{}` drawn at ({x}, {y}) but its position line says {:?}",
                                c as char,
                                pos[(c - b'0') as usize]
                            ),
                        ));
                    }
                }
                _ => {
                    return Err(ProtocolError::new(
                        at(3 + y),
                        format!("unexpected `{}` at ({x}, {y})", c as char),
                    ))
                }
            }
        }
    }
    if rows.len() > height {
        return Err(ProtocolError::new(at(3 + height), "unexpected line after the board"));
    }
    for (p, &(x, y)) in pos.iter().enumerate() {
        if x >= width || y >= height || rows[y].as_bytes()[x] != b'0' + p as u8 {
            return Err(ProtocolError::new(
                at(1 + p),
                format!("player {p} is at ({x}, {y}) but the board does not show `{p}` there"),
            ));
        }
    }
    let squares = pos.map(|(x, y)| square(x, y));
    debug_assert!(width < STRIDE);
    Ok(Isolation::new(width, height, free, squares, turn - 1))
}

/// Parses a position file as `gridtune move` takes it: the turn block, with or
/// without the `W H my_id` line before it. Returns the position and the
/// player to move.
pub fn parse_position(text: &str) -> Result<(Isolation, Player), ProtocolError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, crate::protocol::clean(l)))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let Some(&(first_no, first)) = lines.first() else {
        return Err(ProtocolError::new(1, "empty position"));
    };
    let (size, me, rest) = if first.starts_with("turn") {
        (None, None, &lines[..])
    } else {
        let (w, h, me) = parse_header(first, first_no)?;
        (Some((w, h)), Some(me), &lines[1..])
    };
    let block: Vec<&str> = rest.iter().map(|&(_, l)| l).collect();
    let start_no = rest.first().map_or(first_no + 1, |&(n, _)| n);
    let state = parse_turn(&block, size, start_no)?;
    let side = state.side();
    if let Some(me) = me {
        if me != side {
            return Err(ProtocolError::new(
                start_no,
                format!(
                    "turn {} belongs to player {side}, but the header says my_id {me}",
                    state.turn()
                ),
            ));
        }
    }
    Ok((state, side))
}

/// Parses a bot's reply `x y` (already cleaned) into a legal move for the
/// player to act. The statement makes both a malformed line and an unreachable
/// square a loss; the error says which.
pub fn parse_reply(state: &Isolation, line: &str) -> Result<IsolationMove, ReplyError> {
    let v = parse_ints(line, 2, 1, "`x y`").map_err(|_| ReplyError::Invalid(line.to_string()))?;
    let (x, y) = (v[0], v[1]);
    let on_board = (0..state.width() as i64).contains(&x) && (0..state.height() as i64).contains(&y);
    if !on_board {
        return Err(ReplyError::Illegal(format!("({x}, {y}) is off the board")));
    }
    let m = IsolationMove::from_xy(x as usize, y as usize);
    let side = state.side();
    if state.moves_bb(side) & bit(m.0) == 0 {
        let (fx, fy) = super::rules::xy(state.position(side));
        return Err(ReplyError::Illegal(format!(
            "({x}, {y}) is not a queen move from ({fx}, {fy}) over free squares"
        )));
    }
    debug_assert!({
        let mut ms = Default::default();
        state.legal_moves(side, &mut ms);
        ms.contains(&m)
    });
    Ok(m)
}

/// Why a reply was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyError {
    /// Not of the form `x y`.
    Invalid(String),
    /// Well formed, but not a square the piece can reach.
    Illegal(String),
}

impl std::fmt::Display for ReplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplyError::Invalid(l) => write!(f, "invalid line `{l}`: expected `x y`"),
            ReplyError::Illegal(why) => write!(f, "illegal move: {why}"),
        }
    }
}
