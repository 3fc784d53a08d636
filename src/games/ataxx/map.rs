//! Ataxx boards. CodinGame draws its boards from 596 wall layouts that are
//! not public; these are generated to look like them: walls symmetric under
//! a 180-degree rotation (as every CodinGame board shown is), corners free,
//! player 0 on a7 and g1, player 1 on g7 and a1 (the community start).
//!
//! File format: 7 rows, rank 7 first, of `.` (empty), `#` (wall), `0` and
//! `1` (pieces). Blank lines and `//` comments are ignored.

use super::rules::{Ataxx, SIDE};
use crate::maps::{content_lines, first_asymmetry, MapError};
use rand::{Rng, RngExt};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtaxxMap {
    pub start: Ataxx,
}

fn bit(rank: usize, file: usize) -> u64 {
    1u64 << (rank * SIDE + file)
}

/// The standard starting pieces: player 0 on a7 and g1, player 1 on g7 and a1.
pub fn start_pieces() -> [u64; 2] {
    [bit(6, 0) | bit(0, 6), bit(6, 6) | bit(0, 0)]
}

impl AtaxxMap {
    pub fn parse(text: &str, origin: &str) -> Result<Self, MapError> {
        let rows = content_lines(text);
        if rows.len() != SIDE {
            return Err(MapError::new(origin, 1, format!("{} rows, expected 7", rows.len())));
        }
        let (mut pieces, mut walls) = ([0u64; 2], 0u64);
        for (i, &(line, row)) in rows.iter().enumerate() {
            let rank = SIDE - 1 - i;
            if row.len() != SIDE {
                return Err(MapError::new(
                    origin,
                    line,
                    format!("row has {} squares, expected 7", row.len()),
                ));
            }
            for (file, ch) in row.bytes().enumerate() {
                match ch {
                    b'.' => {}
                    b'#' => walls |= bit(rank, file),
                    b'0' => pieces[0] |= bit(rank, file),
                    b'1' => pieces[1] |= bit(rank, file),
                    _ => {
                        return Err(MapError::new(
                            origin,
                            line,
                            format!("unexpected `{}`; expected `.`, `#`, `0` or `1`", ch as char),
                        ))
                    }
                }
            }
        }
        let symmetric = |b: u64| first_asymmetry(SIDE, SIDE, |file, rank| b >> (rank * SIDE + file) & 1 == 1).is_none();
        if !symmetric(walls) {
            return Err(MapError::new(
                origin,
                1,
                "walls are not symmetric under 180-degree rotation",
            ));
        }
        if !symmetric(pieces[0]) || !symmetric(pieces[1]) {
            return Err(MapError::new(
                origin,
                1,
                "each player's pieces must be symmetric under 180-degree rotation",
            ));
        }
        if pieces[0] == 0 || pieces[1] == 0 {
            return Err(MapError::new(origin, 1, "both players need pieces"));
        }
        let start = Ataxx::new(pieces, walls, 0, true);
        // Player 0 moves first; with no action the game would open on a pass
        // or be over before it starts (every free square walled off).
        if !start.can_move(0) {
            let empty = SIDE * SIDE - (walls | pieces[0] | pieces[1]).count_ones() as usize;
            return Err(MapError::new(
                origin,
                1,
                if empty == 0 {
                    "no empty square: the game cannot be played".to_string()
                } else {
                    format!("player 0 has no legal first move: none of the {empty} empty squares is within two steps of a `0`")
                },
            ));
        }
        Ok(AtaxxMap { start })
    }

    pub fn to_text(&self) -> String {
        self.start.rows().join("\n") + "\n"
    }

    /// A random board: 0 to 12 walls in symmetric pairs, never on the
    /// starting squares.
    pub fn generate(rng: &mut impl Rng) -> Self {
        let pieces = start_pieces();
        let mut walls = 0u64;
        for _ in 0..rng.random_range(0..=6) {
            let s = rng.random_range(0..SIDE * SIDE);
            let b = 1u64 << s | 1u64 << (SIDE * SIDE - 1 - s);
            if b & (pieces[0] | pieces[1]) == 0 {
                walls |= b;
            }
        }
        AtaxxMap {
            start: Ataxx::new(pieces, walls, 0, true),
        }
    }
}
