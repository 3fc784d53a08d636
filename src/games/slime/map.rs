//! Slime "maps": start boards. Slime has no map pool (every game starts with
//! one slime per corner), but the board size is a parameter, so a map file
//! is a start board: `N` rows of `N` characters, `.` or `1`-`4`, as the
//! protocol writes them. Blank lines and `//` comments are ignored.

use super::rules::{square, Slime, MAX_SIZE, MIN_SIZE};
use crate::maps::{content_lines, MapError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlimeMap {
    pub start: Slime,
}

impl SlimeMap {
    pub fn parse(text: &str, origin: &str) -> Result<Self, MapError> {
        let rows = content_lines(text);
        let n = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(MapError::new(
                origin,
                1,
                format!("{n} rows: a board has {MIN_SIZE}..={MAX_SIZE}"),
            ));
        }
        let mut slime = [0u128; 4];
        let mut first: [Option<(usize, usize)>; 4] = [None; 4];
        for (r, &(line, row)) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(MapError::new(
                    origin,
                    line,
                    format!("row has {} squares, expected {n}", row.len()),
                ));
            }
            for (c, ch) in row.bytes().enumerate() {
                match ch {
                    b'.' => {}
                    b'1'..=b'4' => {
                        let p = (ch - b'1') as usize;
                        // The statement starts every game with one slime per player.
                        if let Some(first) = first[p] {
                            let (fr, fc) = first;
                            return Err(MapError::new(
                                origin,
                                line,
                                format!(
                                    "second slime of player {} at ({r}, {c}); its first is at ({fr}, {fc}): a start board has one slime per player",
                                    ch as char
                                ),
                            ));
                        }
                        first[p] = Some((r, c));
                        slime[p] |= 1u128 << square(r, c);
                    }
                    _ => {
                        return Err(MapError::new(
                            origin,
                            line,
                            format!("unexpected `{}` at ({r}, {c}); expected `.` or 1-4", ch as char),
                        ))
                    }
                }
            }
        }
        if let Some(p) = (0..4).find(|&p| slime[p] == 0) {
            return Err(MapError::new(origin, 1, format!("player {} has no slime", p + 1)));
        }
        Ok(SlimeMap {
            start: Slime::from_squares(n, slime, 0),
        })
    }

    /// The statement's start on an `n x n` board.
    pub fn standard(n: usize) -> Self {
        SlimeMap { start: Slime::start(n) }
    }

    pub fn to_text(&self) -> String {
        self.start.rows().join("\n") + "\n"
    }
}
