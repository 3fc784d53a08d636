//! The Light Cycles contest protocol, both sides. Standard library only.

use super::rules::{cell, Direction, LightCycles, MAX_HEIGHT, MAX_WIDTH};
use crate::bitboard::Bits512;
use crate::game::Player;
use crate::protocol::{self, parse_position_text, parse_turn_block, Header, ProtocolError, TurnBlock};
use crate::contest::{BadReply, OnFailure, ProcessModel, Protocol, TimeLimits};
use crate::game::{Game, Outcome};

const MAX: (usize, usize) = (MAX_WIDTH, MAX_HEIGHT);

/// The first line a bot receives: `W H my_id`.
pub fn header(state: &LightCycles, me: Player) -> String {
    protocol::header_line(state.width(), state.height(), me)
}

/// The `H + 3` lines both bots receive every turn.
pub fn turn_block(state: &LightCycles) -> String {
    let heads = [0, 1].map(|p| state.head_xy(p));
    protocol::write_turn_block(state.turns() as u32 + 1, heads, &state.rows())
}

pub fn parse_header(line: &str, line_no: usize) -> Result<Header, ProtocolError> {
    protocol::parse_header(line, line_no, MAX)
}

/// Parses one turn block given as cleaned, non-blank lines numbered from
/// `first_line_no`; `size` is `(W, H)` from the header.
pub fn parse_turn(
    lines: &[&str],
    size: Option<(usize, usize)>,
    first_line_no: usize,
) -> Result<LightCycles, ProtocolError> {
    to_state(&parse_turn_block(lines, size, MAX, first_line_no)?)
}

fn to_state(block: &TurnBlock) -> Result<LightCycles, ProtocolError> {
    let mut walls = Bits512::EMPTY;
    let mut trails = [Bits512::EMPTY; 2];
    for (y, row) in block.rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            match c {
                b'.' => {}
                b'#' => walls.set(cell(x, y)),
                b'0' | b'1' => trails[(c - b'0') as usize].set(cell(x, y)),
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
                format!("bike {p} is at ({x}, {y}) but the board does not show `{p}` there"),
            ));
        }
    }
    Ok(LightCycles::from_parts(
        block.width(),
        block.height(),
        walls,
        trails,
        block.positions,
        (block.turn - 1) as u16,
    ))
}

/// Parses a position file for `gridtune move`: the `W H my_id` line (it says
/// which bike is yours) and a turn block.
pub fn parse_position(text: &str) -> Result<(LightCycles, Player), ProtocolError> {
    let (header, block) = parse_position_text(text, MAX)?;
    let Some(header) = header else {
        return Err(ProtocolError::new(
            1,
            "a Light Cycles position needs the `W H my_id` line first: the turn block does not say which bike is yours",
        ));
    };
    Ok((to_state(&block)?, header.me))
}

/// Parses a bot's reply: exactly `UP`, `DOWN`, `LEFT` or `RIGHT` (cleaned).
/// Anything else is an invalid line, which eliminates the bike.
pub fn parse_reply(line: &str) -> Result<Direction, String> {
    Direction::from_word(line).ok_or_else(|| format!("invalid line `{line}`: expected UP, DOWN, LEFT or RIGHT"))
}

impl Protocol for LightCycles {
    const PROCESS: ProcessModel = ProcessModel::PerGame;
    // The statement sets no figure; these are the contest platforms' usual
    // ones (the first turn covers the program's start).
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 100);
    const ON_FAILURE: OnFailure = OnFailure::Lose;

    fn greeting(state: &Self, seat: Player) -> String {
        header(state, seat)
    }

    fn turn_input(state: &Self, _seat: Player, _moves: &[Direction]) -> String {
        turn_block(state)
    }

    fn read_reply(
        _state: &Self,
        _seat: Player,
        line: &str,
        _newline: bool,
        _pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Direction, BadReply> {
        parse_reply(protocol::clean(line)).map_err(BadReply::Invalid)
    }

    /// A failed bike is out before the bikes move; the other still moves.
    fn play_with_failures(&mut self, joint: &[Option<Direction>]) -> Outcome {
        let seat = |p: usize| joint.get(p).copied().flatten();
        self.play_turn([seat(0), seat(1)]);
        // A failed bike always ends the game; the fallback is the default's
        // reading of the same turn.
        self.outcome()
            .unwrap_or_else(|| Outcome::win(usize::from(seat(0).is_none())))
    }

    fn move_text(m: Direction) -> String {
        m.to_string()
    }

    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        parse_position(text)
    }

    fn ended_by_turn_limit(state: &Self) -> bool {
        state.turns() >= super::rules::TURN_LIMIT && (0..2).all(|p| state.elimination(p).is_none())
    }
}
