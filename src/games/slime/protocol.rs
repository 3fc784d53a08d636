//! The Slime protocol, both sides: the control program starts the bot once
//! per turn with one argument, `P,row,row,...`, and reads one line of four
//! integers from its stdout. Standard library only.

use super::rules::{square, Slime, SlimeMove, MAX_SIZE, MIN_SIZE};
use crate::game::Player;
use crate::protocol::ProtocolError;
use crate::contest::{BadReply, OnFailure, ProcessModel, Protocol, TimeLimits};

/// The argument the control program passes: the player number (1-4), then
/// the rows, all joined by commas.
pub fn argument(state: &Slime, seat: Player) -> String {
    let mut out = (seat + 1).to_string();
    for row in state.rows() {
        out.push(',');
        out.push_str(&row);
    }
    out
}

/// Parses the argument back into the board and the seat (0-based) to move.
/// The turn count is not in the argument; it is taken as the seat's first
/// turn (`turns = seat`), which is what decides who moves next.
pub fn parse_argument(arg: &str) -> Result<(Slime, Player), ProtocolError> {
    let err = |m: String| ProtocolError::new(1, m);
    // Whitespace around the argument or a field is harmless: no field holds any.
    let mut parts = arg.split(',').map(crate::protocol::trim_input);
    let player = parts.next().unwrap_or("");
    let seat = match player {
        "1" | "2" | "3" | "4" => (player.as_bytes()[0] - b'1') as Player,
        _ => return Err(err(format!("expected the player number 1-4 first, found `{player}`"))),
    };
    let rows: Vec<&str> = parts.collect();
    let n = rows.len();
    if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
        return Err(err(format!("{n} rows: the board must be {MIN_SIZE}..={MAX_SIZE} rows")));
    }
    let mut slime = [0u128; 4];
    for (r, row) in rows.iter().enumerate() {
        if row.len() != n {
            return Err(err(format!("row {r} `{row}` has {} squares, expected {n}", row.len())));
        }
        for (c, ch) in row.bytes().enumerate() {
            match ch {
                b'.' => {}
                b'1'..=b'4' => slime[(ch - b'1') as usize] |= 1u128 << square(r, c),
                _ => return Err(err(format!("unexpected `{}` at ({r}, {c}) in row {r}", ch as char))),
            }
        }
    }
    Ok((Slime::from_squares(n, slime, seat as u16), seat))
}

/// What the control program makes of a bot's stdout: it reads one line (up
/// to 127 bytes) and four integers from it. A reply whose text ends right
/// after the fourth integer (no newline or other character after it) is
/// "not enough input": a pass, as is anything unparsable. A parsed move that
/// breaks the rules is a pass too, when applied (`Slime::apply`).
pub fn parse_reply(stdout: &[u8]) -> Option<SlimeMove> {
    let line_end = stdout.iter().position(|&b| b == b'\n').map_or(stdout.len(), |i| i + 1);
    let line = &stdout[..line_end.min(127)];
    let text = std::str::from_utf8(line).ok()?;
    let mut numbers = [0i64; 4];
    let mut rest = text;
    for slot in &mut numbers {
        rest = rest.trim_start_matches([' ', '\t', '\r', '\n']);
        let digits = rest
            .char_indices()
            .take_while(|&(i, ch)| ch.is_ascii_digit() || (i == 0 && (ch == '-' || ch == '+')))
            .count();
        *slot = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
    }
    // The fourth integer must be followed by something (the newline).
    if rest.is_empty() {
        return None;
    }
    let [a, b, c, d] = numbers;
    let on = |v: i64| (0..MAX_SIZE as i64).contains(&v);
    if !(on(a) && on(b) && on(c) && on(d)) {
        return Some(SlimeMove::PASS);
    }
    Some(SlimeMove::new((a as usize, b as usize), (c as usize, d as usize)))
}

impl Protocol for Slime {
    const PROCESS: ProcessModel = ProcessModel::PerTurn;
    // The control program reports turns over 0.1 s but does not stop them;
    // the referee only stops a program that hangs (an interpreter's start
    // alone can take a few hundred milliseconds).
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 1000);
    const ON_FAILURE: OnFailure = OnFailure::Pass;

    fn greeting(_state: &Self, _seat: Player) -> String {
        String::new()
    }

    fn turn_input(state: &Self, seat: Player, _moves: &[SlimeMove]) -> String {
        argument(state, seat)
    }

    /// As the control program reads stdout: four integers and a newline, or
    /// the turn is an invalid reply (a pass). Four integers that make no
    /// legal move are the statement's way to pass.
    fn read_reply(
        state: &Self,
        seat: Player,
        line: &str,
        newline: bool,
        _pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<SlimeMove, BadReply> {
        let mut bytes = line.as_bytes().to_vec();
        if newline {
            bytes.push(b'\n');
        }
        let Some(m) = parse_reply(&bytes) else {
            let why = if newline {
                "no four integers"
            } else {
                "no newline after the four integers"
            };
            return Err(BadReply::Invalid(format!(
                "`{line}`: {why}; the control program passes"
            )));
        };
        let mut legal = super::rules::SlimeMoves::new();
        state.actions(seat, &mut legal);
        Ok(if legal.contains(&m) { m } else { SlimeMove::PASS })
    }

    fn move_text(m: SlimeMove) -> String {
        m.to_string()
    }

    /// A position is the control program's argument, `P,row,row,...`.
    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        parse_argument(text.trim())
    }

    fn ended_by_turn_limit(state: &Self) -> bool {
        state.turns() >= super::rules::TURN_LIMIT && state.empty() != 0
    }
}
