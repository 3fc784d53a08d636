//! Light Cycles maps: the shared grid text format (`crate::maps::GridMap`) on
//! boards 15..=25 wide and 10..=18 high, bordered or open.

use super::rules::{cell, LightCycles, MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use crate::bitboard::Bits512;
use crate::maps::{symmetric_noise, GameGrid, GridMap, GridRules, GridSizes};
use rand::{Rng, RngExt};

/// A validated Light Cycles map.
pub type LightCyclesMap = GameGrid<LightCycles>;

impl GridRules for LightCycles {
    const SIZES: GridSizes = GridSizes {
        widths: MIN_WIDTH..=MAX_WIDTH,
        heights: MIN_HEIGHT..=MAX_HEIGHT,
    };

    /// Beyond the shared format: each bike has a safe first move.
    fn check(map: &LightCyclesMap) -> Result<(), String> {
        let state = map.start_state();
        for p in 0..2 {
            if !super::rules::Direction::ALL.iter().any(|&d| state.is_safe(p, d)) {
                let (x, y) = map.starts[p];
                return Err(format!("bike {p} has no safe first move from its start ({x}, {y})"));
            }
        }
        Ok(())
    }
}

impl LightCyclesMap {
    /// Whether a wall runs all around the edge.
    pub fn bordered(&self) -> bool {
        let (w, h) = (self.width, self.height);
        (0..w).all(|x| self.walls[0][x] && self.walls[h - 1][x])
            && (0..h).all(|y| self.walls[y][0] && self.walls[y][w - 1])
    }

    /// The position before the first turn.
    pub fn start_state(&self) -> LightCycles {
        let mut walls = Bits512::EMPTY;
        for y in 0..self.height {
            for x in 0..self.width {
                if self.walls[y][x] {
                    walls.set(cell(x, y));
                }
            }
        }
        LightCycles::new(self.width, self.height, walls, self.starts)
    }

    /// A random legal map: bordered or open with even odds, symmetric wall
    /// blocks and specks, starts mirrored in the left and right halves, both
    /// in one region; free cells the bikes can never reach become walls.
    pub fn generate(rng: &mut impl Rng) -> Self {
        loop {
            let width = rng.random_range(MIN_WIDTH..=MAX_WIDTH);
            let height = rng.random_range(MIN_HEIGHT..=MAX_HEIGHT);
            let density = rng.random_range(0.0..0.06);
            let mut walls = symmetric_noise(rng, width, height, density);
            // Symmetric blocks: a few rectangles and their mirror images.
            for _ in 0..rng.random_range(0..6) {
                let (bw, bh) = (rng.random_range(1..=4), rng.random_range(1..=4));
                let (bx, by) = (rng.random_range(0..width - bw), rng.random_range(0..height - bh));
                for y in by..by + bh {
                    for x in bx..bx + bw {
                        walls[y][x] = true;
                        walls[height - 1 - y][width - 1 - x] = true;
                    }
                }
            }
            if rng.random_bool(0.5) {
                walls[0].fill(true);
                walls[height - 1].fill(true);
                for row in walls.iter_mut() {
                    row[0] = true;
                    row[width - 1] = true;
                }
            }
            let (x0, y0) = (rng.random_range(1..width / 2), rng.random_range(1..height - 1));
            if walls[y0][x0] {
                continue;
            }
            let mut map = GridMap {
                width,
                height,
                walls,
                starts: [(x0, y0), (width - 1 - x0, height - 1 - y0)],
            };
            let region = map.connected_from(map.starts[0], false);
            if !region.contains(&map.starts[1]) || region.len() < width * height / 2 {
                continue;
            }
            // Seal off what the bikes can never reach (symmetric, as the
            // region holding both mirrored starts is).
            let mut sealed = vec![vec![true; width]; height];
            for &(x, y) in &region {
                sealed[y][x] = false;
            }
            map.walls = sealed;
            if let Ok(map) = LightCyclesMap::new(map) {
                return map;
            }
        }
    }
}
