//! The test game's contest protocol, from both sides. Standard library only.
//!
//! One process per game. The referee first sends the bot's seat (`0` plays
//! X, `1` plays O); each turn it sends the three rows of the board (`X`,
//! `O`, `#` blocked, `.` free), and the bot answers `x y`.

use super::rules::{Cell, TicTacToe, TicTacToeMoves, CELLS, SIDE};
use crate::contest::{BadReply, OnFailure, ProcessModel, Protocol, TimeLimits};
use crate::game::{Game, Player};
use crate::protocol::{clean, parse_ints, ProtocolError};

/// Reads the three rows of a turn (`first_line` numbers the first).
pub fn parse_rows(rows: &[&str], first_line: usize) -> Result<TicTacToe, ProtocolError> {
    let mut marks = [0u16; 2];
    let mut blocked = 0u16;
    if rows.len() != SIDE {
        return Err(ProtocolError::new(first_line, format!("expected {SIDE} rows, found {}", rows.len())));
    }
    for (y, row) in rows.iter().enumerate() {
        let row = clean(row);
        if row.chars().count() != SIDE {
            return Err(ProtocolError::new(first_line + y, format!("a row has {SIDE} cells: `{row}`")));
        }
        for (x, c) in row.chars().enumerate() {
            let bit = 1 << (y * SIDE + x);
            match c {
                'X' => marks[0] |= bit,
                'O' => marks[1] |= bit,
                '#' => blocked |= bit,
                '.' => {}
                other => {
                    return Err(ProtocolError::new(
                        first_line + y,
                        format!("`{other}` is not a cell: expected X, O, # or ."),
                    ))
                }
            }
        }
    }
    TicTacToe::from_marks(marks, blocked)
        .ok_or_else(|| ProtocolError::new(first_line, "X must have as many marks as O, or one more"))
}

/// A position as a bot reads it: the seat line, then the three rows.
pub fn parse_position(text: &str) -> Result<(TicTacToe, Player), ProtocolError> {
    let lines: Vec<&str> = text.lines().map(clean).filter(|l| !l.is_empty()).collect();
    let Some((&seat, rows)) = lines.split_first() else {
        return Err(ProtocolError::new(1, "expected the seat line, 0 or 1"));
    };
    let seat = match seat {
        "0" => 0,
        "1" => 1,
        other => return Err(ProtocolError::new(1, format!("expected the seat line 0 or 1, found `{other}`"))),
    };
    Ok((parse_rows(rows, 2)?, seat))
}

/// A move as the protocol writes it: `x y`.
pub fn move_text(m: Cell) -> String {
    format!("{} {}", m as usize % SIDE, m as usize / SIDE)
}

impl Protocol for TicTacToe {
    const PROCESS: ProcessModel = ProcessModel::PerGame;
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 100);
    const ON_FAILURE: OnFailure = OnFailure::Lose;

    fn greeting(_state: &Self, seat: Player) -> String {
        format!("{seat}\n")
    }

    fn turn_input(state: &Self, _seat: Player, _moves: &[Cell]) -> String {
        state.to_string()
    }

    fn read_reply(
        state: &Self,
        seat: Player,
        line: &str,
        _newline: bool,
        _pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Cell, BadReply> {
        let line = clean(line);
        let xy = parse_ints(line, 2, 1, "x y").map_err(|e| BadReply::Invalid(e.to_string()))?;
        let (x, y) = (xy[0], xy[1]);
        let cell = (0..SIDE as i64).contains(&x) && (0..SIDE as i64).contains(&y);
        let m = (y * SIDE as i64 + x) as usize;
        let mut legal = TicTacToeMoves::new();
        state.legal_moves(seat, &mut legal);
        if !cell || m >= CELLS || !legal.contains(&(m as Cell)) {
            return Err(BadReply::Illegal(format!("`{line}` is not a free cell")));
        }
        Ok(m as Cell)
    }

    fn move_text(m: Cell) -> String {
        move_text(m)
    }

    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        parse_position(text)
    }

    /// Tic-tac-toe has no turn limit.
    fn ended_by_turn_limit(_state: &Self) -> bool {
        false
    }
}
