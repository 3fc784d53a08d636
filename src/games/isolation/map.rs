//! Isolation maps: the shared grid text format (`crate::maps::GridMap`) on
//! boards 7..=9 a side, where each player must be able to move at the start.

use super::rules::{bit, queen_reach, region, square, Isolation, MAX_SIDE, MIN_SIDE};
use crate::maps::{symmetric_noise, GameGrid, GridMap, GridRules, GridSizes};
use rand::{Rng, RngExt};

/// A validated Isolation map.
pub type IsolationMap = GameGrid<Isolation>;

impl GridRules for Isolation {
    const SIZES: GridSizes = GridSizes {
        widths: MIN_SIDE..=MAX_SIDE,
        heights: MIN_SIDE..=MAX_SIDE,
    };

    /// The statement's rules beyond the shared format: both players can move.
    fn check(map: &IsolationMap) -> Result<(), String> {
        let state = map.start_state();
        for p in 0..2 {
            if state.moves_bb(p) == 0 {
                let (x, y) = map.starts[p];
                return Err(format!("player {p} has no legal move from its start ({x}, {y})"));
            }
        }
        Ok(())
    }
}

impl IsolationMap {
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

    /// A random legal map: side lengths in 7..=9, symmetric walls (about 5-18%
    /// of squares), mirrored starts, every free square reachable from both
    /// starts, and at least three moves for each player at the start.
    pub fn generate(rng: &mut impl Rng) -> Self {
        loop {
            let width = rng.random_range(MIN_SIDE..=MAX_SIDE);
            let height = rng.random_range(MIN_SIDE..=MAX_SIDE);
            let density = rng.random_range(0.05..0.18);
            let walls = symmetric_noise(rng, width, height, density);
            let (x0, y0) = (rng.random_range(0..width), rng.random_range(0..height));
            let (x1, y1) = (width - 1 - x0, height - 1 - y0);
            if (x0, y0) == (x1, y1) || walls[y0][x0] {
                continue;
            }
            let Ok(map) = IsolationMap::new(GridMap {
                width,
                height,
                walls,
                starts: [(x0, y0), (x1, y1)],
            }) else {
                continue;
            };
            let s = map.start_state();
            let connected = region(bit(s.position(0)), s.free()) == s.free();
            let open = (0..2).all(|p| queen_reach(bit(s.position(p)), s.free()).count_ones() >= 3);
            if connected && open {
                return map;
            }
        }
    }
}
