//! Isolation maps: the statement's text format, validation, and a seeded
//! generator.
//!
//! Format: a `W H` line, then `H` rows of `W` characters: `.` free, `#` wall,
//! `0` and `1` the start squares. Blank lines and trailing spaces or `\r` are
//! ignored; lines starting with `//` are comments.

use super::rules::{bit, queen_reach, region, square, Isolation, MAX_SIDE, MIN_SIDE};
use crate::maps::MapError;
use rand::{Rng, RngExt};

/// A validated Isolation map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IsolationMap {
    pub width: usize,
    pub height: usize,
    /// `walls[y][x]`.
    pub walls: Vec<Vec<bool>>,
    /// Start squares of players 0 and 1, as `(x, y)`.
    pub starts: [(usize, usize); 2],
}

impl IsolationMap {
    /// Parses and validates map text; `origin` names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, MapError> {
        let err = |line: usize, message: String| MapError::new(origin, line, message);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches([' ', '\r', '\t'])))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with("//"));

        let (line_no, header) = lines
            .next()
            .ok_or_else(|| err(1, "empty map: expected a `W H` line".into()))?;
        let dims: Vec<&str> = header.split_whitespace().collect();
        let parse_dim = |s: &str| s.parse::<usize>().ok();
        let (width, height) = match dims.as_slice() {
            [w, h] => match (parse_dim(w), parse_dim(h)) {
                (Some(w), Some(h)) => (w, h),
                _ => return Err(err(line_no, format!("expected `W H`, found `{header}`"))),
            },
            _ => return Err(err(line_no, format!("expected `W H`, found `{header}`"))),
        };
        for (what, v) in [("width", width), ("height", height)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&v) {
                return Err(err(line_no, format!("{what} {v} is outside {MIN_SIDE}..={MAX_SIDE}")));
            }
        }

        let mut walls = vec![vec![false; width]; height];
        let mut starts: [Option<(usize, usize)>; 2] = [None, None];
        for (y, wall_row) in walls.iter_mut().enumerate() {
            let (line_no, row) = lines
                .next()
                .ok_or_else(|| err(line_no + y + 1, format!("expected {height} rows, found {y}")))?;
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != width {
                return Err(err(
                    line_no,
                    format!("row {y} has {} characters, expected {width}", chars.len()),
                ));
            }
            for (x, c) in chars.into_iter().enumerate() {
                match c {
                    '.' => {}
                    '#' => wall_row[x] = true,
                    '0' | '1' => {
                        let p = (c as u8 - b'0') as usize;
                        if let Some((px, py)) = starts[p] {
                            return Err(err(
                                line_no,
                                format!("second start `{c}` at ({x}, {y}); first at ({px}, {py})"),
                            ));
                        }
                        starts[p] = Some((x, y));
                    }
                    other => {
                        return Err(err(
                            line_no,
                            format!("unexpected `{other}` at ({x}, {y}); expected `.`, `#`, `0` or `1`"),
                        ))
                    }
                }
            }
        }
        if let Some((extra, l)) = lines.next() {
            return Err(err(extra, format!("unexpected text after the board: `{l}`")));
        }
        let start = |p: usize| starts[p].ok_or_else(|| err(1, format!("no start square `{p}`")));
        let map = IsolationMap {
            width,
            height,
            walls,
            starts: [start(0)?, start(1)?],
        };
        map.validate().map_err(|m| err(1, m))?;
        Ok(map)
    }

    /// The statement's rules for a map, each broken one named: 180-degree
    /// symmetry of walls and starts, and both players able to move.
    pub fn validate(&self) -> Result<(), String> {
        let (w, h) = (self.width, self.height);
        for y in 0..h {
            for x in 0..w {
                if self.walls[y][x] != self.walls[h - 1 - y][w - 1 - x] {
                    return Err(format!(
                        "walls are not symmetric under 180-degree rotation: ({x}, {y}) is {} but ({}, {}) is {}",
                        describe(self.walls[y][x]),
                        w - 1 - x,
                        h - 1 - y,
                        describe(self.walls[h - 1 - y][w - 1 - x])
                    ));
                }
            }
        }
        let [(x0, y0), (x1, y1)] = self.starts;
        if (x1, y1) != (w - 1 - x0, h - 1 - y0) {
            return Err(format!(
                "start squares are not mirror images: 0 at ({x0}, {y0}) needs 1 at ({}, {}), found ({x1}, {y1})",
                w - 1 - x0,
                h - 1 - y0
            ));
        }
        let state = self.start_state();
        for p in 0..2 {
            if state.moves_bb(p) == 0 {
                let (x, y) = self.starts[p];
                return Err(format!("player {p} has no legal move from its start ({x}, {y})"));
            }
        }
        Ok(())
    }

    /// The position before the first move.
    pub fn start_state(&self) -> Isolation {
        let mut free = 0u128;
        for y in 0..self.height {
            for x in 0..self.width {
                if !self.walls[y][x] && !self.starts.contains(&(x, y)) {
                    free |= bit(square(x, y));
                }
            }
        }
        let pos = self.starts.map(|(x, y)| square(x, y));
        Isolation::new(self.width, self.height, free, pos, 0)
    }

    /// The map in its text format (parses back to itself).
    pub fn to_text(&self) -> String {
        let mut out = format!("{} {}\n", self.width, self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                out.push(if self.starts[0] == (x, y) {
                    '0'
                } else if self.starts[1] == (x, y) {
                    '1'
                } else if self.walls[y][x] {
                    '#'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out
    }

    /// A random legal map: side lengths in 7..=9, symmetric walls (about 5-18%
    /// of squares), mirrored starts, every free square reachable from both
    /// starts, and at least three moves for each player at the start.
    pub fn generate(rng: &mut impl Rng) -> Self {
        loop {
            let width = rng.random_range(MIN_SIDE..=MAX_SIDE);
            let height = rng.random_range(MIN_SIDE..=MAX_SIDE);
            let density = rng.random_range(0.05..0.18);
            let mut walls = vec![vec![false; width]; height];
            for y in 0..height {
                for x in 0..width {
                    // Decide each mirror pair once, from its first square.
                    let (mx, my) = (width - 1 - x, height - 1 - y);
                    if (y, x) <= (my, mx) && rng.random_bool(density) {
                        walls[y][x] = true;
                        walls[my][mx] = true;
                    }
                }
            }
            let (x0, y0) = (rng.random_range(0..width), rng.random_range(0..height));
            let (x1, y1) = (width - 1 - x0, height - 1 - y0);
            if (x0, y0) == (x1, y1) || walls[y0][x0] {
                continue;
            }
            let map = IsolationMap {
                width,
                height,
                walls,
                starts: [(x0, y0), (x1, y1)],
            };
            if map.validate().is_err() {
                continue;
            }
            let s = map.start_state();
            let connected = region(bit(s.position(0)), s.free()) == s.free();
            let open = (0..2).all(|p| queen_reach(bit(s.position(p)), s.free()).count_ones() >= 3);
            if connected && open {
                return map;
            }
        }
    }
}

fn describe(wall: bool) -> &'static str {
    if wall {
        "a wall"
    } else {
        "free"
    }
}
