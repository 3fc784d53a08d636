//! The test game's maps: three rows of `.` (free) and `#` (blocked), in the
//! grid games' text format.

use super::rules::{TicTacToe, SIDE};
use crate::maps::{content_lines, MapError};

/// Which cells are blocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToeMap {
    pub blocked: u16,
}

impl TicTacToeMap {
    pub fn parse(text: &str, origin: &str) -> Result<Self, MapError> {
        let lines = content_lines(text);
        if lines.len() != SIDE {
            let at = lines.get(SIDE).map_or(1, |&(n, _)| n);
            return Err(MapError::new(origin, at, format!("a map has {SIDE} rows, not {}", lines.len())));
        }
        let mut blocked = 0u16;
        for (y, &(n, row)) in lines.iter().enumerate() {
            if row.chars().count() != SIDE {
                return Err(MapError::new(origin, n, format!("a row has {SIDE} cells: `{row}`")));
            }
            for (x, c) in row.chars().enumerate() {
                match c {
                    '#' => blocked |= 1 << (y * SIDE + x),
                    '.' => {}
                    other => return Err(MapError::new(origin, n, format!("`{other}` is not `.` or `#`"))),
                }
            }
        }
        if blocked.count_ones() > 2 {
            return Err(MapError::new(origin, lines[0].0, "at most two cells may be blocked"));
        }
        Ok(TicTacToeMap { blocked })
    }

    /// Up to two blocked cells at random.
    pub fn generate(rng: &mut impl rand::Rng) -> Self {
        use rand::RngExt;
        let mut blocked = 0u16;
        for _ in 0..rng.random_range(0..=2) {
            blocked |= 1 << rng.random_range(0..SIDE * SIDE);
        }
        TicTacToeMap { blocked }
    }

    pub fn start(&self) -> TicTacToe {
        TicTacToe::new(self.blocked)
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for y in 0..SIDE {
            for x in 0..SIDE {
                out.push(if self.blocked & (1 << (y * SIDE + x)) != 0 { '#' } else { '.' });
            }
            out.push('\n');
        }
        out
    }
}
