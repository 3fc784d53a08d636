//! The Isolation contest protocol, both sides: what the referee writes, what a
//! bot reads, and the reply line. Standard library only.

use super::rules::{bit, square, Isolation, IsolationMove, MAX_SIDE};
use crate::game::{Game, Player};
use crate::protocol::{self, parse_ints, parse_position_text, parse_turn_block, Header, ProtocolError, TurnBlock};
use crate::contest::{BadReply, OnFailure, ProcessModel, Protocol, TimeLimits};

/// The first line a bot receives: `W H my_id`.
pub fn header(state: &Isolation, me: Player) -> String {
    protocol::header_line(state.width(), state.height(), me)
}

/// The `H + 3` lines a bot receives on its turn.
pub fn turn_block(state: &Isolation) -> String {
    let positions = [0, 1].map(|p| super::rules::xy(state.position(p)));
    protocol::write_turn_block(state.turn() as u32, positions, &state.rows())
}

const MAX: (usize, usize) = (MAX_SIDE, MAX_SIDE);

/// Parses the header line `W H my_id`.
pub fn parse_header(line: &str, line_no: usize) -> Result<Header, ProtocolError> {
    protocol::parse_header(line, line_no, MAX)
}

/// Parses one turn block (`turn T`, two positions, the rows) given as cleaned,
/// non-blank lines numbered from `first_line_no`. `size` is `(W, H)` from the
/// header; without one the rows give it.
pub fn parse_turn(
    lines: &[&str],
    size: Option<(usize, usize)>,
    first_line_no: usize,
) -> Result<Isolation, ProtocolError> {
    to_state(&parse_turn_block(lines, size, MAX, first_line_no)?)
}

fn to_state(block: &TurnBlock) -> Result<Isolation, ProtocolError> {
    let mut free = 0u128;
    for (y, row) in block.rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            match c {
                b'.' => free |= bit(square(x, y)),
                b'#' => {}
                b'0' | b'1' => {
                    let said = block.positions[(c - b'0') as usize];
                    if said != (x, y) {
                        return Err(ProtocolError::new(
                            block.row_line(y),
                            format!(
                                "`{}` drawn at ({x}, {y}) but its position line says {said:?}",
                                c as char
                            ),
                        ));
                    }
                }
                _ => {
                    return Err(ProtocolError::new(
                        block.row_line(y),
                        format!("unexpected `{}` at ({x}, {y})", c as char),
                    ))
                }
            }
        }
    }
    for (p, &(x, y)) in block.positions.iter().enumerate() {
        if block.rows[y].as_bytes()[x] != b'0' + p as u8 {
            return Err(ProtocolError::new(
                block.first_line_no + 1 + p,
                format!("player {p} is at ({x}, {y}) but the board does not show `{p}` there"),
            ));
        }
    }
    let squares = block.positions.map(|(x, y)| square(x, y));
    Ok(Isolation::new(
        block.width(),
        block.height(),
        free,
        squares,
        block.turn as u16 - 1,
    ))
}

/// Parses a position file as `gridtune move` takes it: the turn block, with or
/// without the `W H my_id` line before it. Returns the position and the
/// player to move.
pub fn parse_position(text: &str) -> Result<(Isolation, Player), ProtocolError> {
    let (header, block) = parse_position_text(text, MAX)?;
    let state = to_state(&block)?;
    let side = state.side();
    if let Some(h) = header {
        if h.me != side {
            return Err(ProtocolError::new(
                block.first_line_no,
                format!(
                    "turn {} belongs to player {side}, but the header says my_id {}",
                    state.turn(),
                    h.me
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
    // parse_ints reads input leniently; a reply is held to the statement's
    // form, two integers and one space, as the contest server may hold it.
    if line.split(' ').count() != 2 {
        return Err(ReplyError::Invalid(line.to_string()));
    }
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

impl Protocol for Isolation {
    const PROCESS: ProcessModel = ProcessModel::PerGame;
    // The statement sets no figure; these are the contest platforms' usual
    // ones (the first turn covers the program's start).
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 100);
    const ON_FAILURE: OnFailure = OnFailure::Lose;

    fn greeting(state: &Self, seat: Player) -> String {
        header(state, seat)
    }

    fn turn_input(state: &Self, _seat: Player, _moves: &[IsolationMove]) -> String {
        turn_block(state)
    }

    fn read_reply(
        state: &Self,
        _seat: Player,
        line: &str,
        _newline: bool,
        _pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<IsolationMove, BadReply> {
        parse_reply(state, protocol::clean(line)).map_err(|e| match e {
            ReplyError::Invalid(_) => BadReply::Invalid(e.to_string()),
            ReplyError::Illegal(_) => BadReply::Illegal(e.to_string()),
        })
    }

    fn move_text(m: IsolationMove) -> String {
        m.to_string()
    }

    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        parse_position(text)
    }

    fn ended_by_turn_limit(state: &Self) -> bool {
        state.plies() >= super::rules::TURN_LIMIT && state.moves_bb(state.side()) != 0
    }
}
