//! The separated endgame: a bike alone in its region wants the longest path
//! through it. Depth-first branch and bound over its own moves, trying the
//! cell with the fewest exits first (Warnsdorff's rule, which hugs walls),
//! and cutting any line that cannot beat the best path found even if it
//! filled every cell the checkerboard allows. Standard library only.

use super::features::fill_estimate;
use super::rules::{flood, neighbours, Direction, LightCycles, STRIDE};
use crate::bitboard::Bits512;
use crate::game::Player;
use crate::search::alphabeta::past_deadline;
use crate::search::Limits;
use std::time::Instant;

struct Filler {
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    best: i32,
}

/// Directions in bit-index terms: up, down, left, right.
const STEPS: [(Direction, isize); 4] = [
    (Direction::Up, -(STRIDE as isize)),
    (Direction::Down, STRIDE as isize),
    (Direction::Left, -1),
    (Direction::Right, 1),
];

fn exits(c: usize, free: Bits512) -> u32 {
    neighbours(Bits512::bit(c), free).count()
}

impl Filler {
    /// Longest path found from `head` through `free`, at most `limit` deep.
    fn search(&mut self, head: usize, free: Bits512, steps: i32) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit || past_deadline(self.nodes, self.deadline) {
            self.stopped = true;
        }
        if self.stopped {
            return steps;
        }
        let mut moves: [(u32, usize); 4] = [(u32::MAX, 0); 4];
        let mut n = 0;
        for (_, step) in STEPS {
            let c = head as isize + step;
            if c >= 0 && free.has(c as usize) {
                moves[n] = (exits(c as usize, free), c as usize);
                n += 1;
            }
        }
        if n == 0 {
            self.best = self.best.max(steps);
            return steps;
        }
        moves[..n].sort_unstable();
        let mut best = steps;
        for &(_, c) in &moves[..n] {
            let mut rest = free;
            rest.clear(c);
            // Bound: even a perfect fill of what stays reachable cannot win.
            if steps + 1 + fill_estimate(c, flood(Bits512::bit(c), rest)) <= self.best {
                continue;
            }
            best = best.max(self.search(c, rest, steps + 1));
            if self.stopped {
                break;
            }
        }
        self.best = self.best.max(best);
        best
    }
}

/// The first move of the longest path found for `me` within `limits` (its
/// node count and time; depth is unbounded), and that path's length.
pub fn fill_move(state: &LightCycles, me: Player, limits: Limits) -> (Direction, i32) {
    let mut filler = Filler {
        nodes: 0,
        node_limit: limits.nodes,
        deadline: limits.time.map(|t| Instant::now() + t),
        stopped: false,
        best: -1,
    };
    let free = state.free();
    let mut choice = (Direction::Up, -1);
    let mut order: Vec<(u32, Direction, usize)> = STEPS
        .iter()
        .filter_map(|&(d, _)| {
            state
                .target(me, d)
                .filter(|&c| free.has(c))
                .map(|c| (exits(c, free), d, c))
        })
        .collect();
    order.sort_unstable();
    for (_, d, c) in order {
        let mut rest = free;
        rest.clear(c);
        let length = 1 + filler.search(c, rest, 0);
        if length > choice.1 {
            choice = (d, length);
        }
        if filler.stopped {
            break;
        }
    }
    choice
}
