//! Move ordering for alpha-beta: the table's move first, then the two killer
//! moves of the ply (moves that cut off a sibling), then the rest by history
//! (how often a move cut off anywhere, weighted by the depth it did it at).
//! A good move searched first makes the others' null-window searches fail
//! fast; that is where alpha-beta's savings come from. Standard library only.

use crate::game::{hash_of, Player};
use std::hash::Hash;

/// Order keys above any history score.
pub const TABLE_MOVE: i32 = i32::MAX;
pub const FIRST_KILLER: i32 = i32::MAX - 1;
pub const SECOND_KILLER: i32 = i32::MAX - 2;

/// History scores stay within this, by gravity: each update moves a score
/// toward the bound in proportion to the room left, so old successes fade.
const HISTORY_MAX: i32 = 1 << 14;
/// Slots a side: moves are hashed into them (games' move types differ, and
/// a collision only blurs the order).
const HISTORY_SLOTS: usize = 1 << 12;

pub struct History {
    scores: Vec<i32>,
}

impl History {
    pub fn new() -> Self {
        History {
            scores: vec![0; 2 * HISTORY_SLOTS],
        }
    }

    #[inline]
    fn slot<M: Hash>(p: Player, m: &M) -> usize {
        let h = hash_of(m);
        (p & 1) * HISTORY_SLOTS + ((h ^ (h >> 29)) as usize & (HISTORY_SLOTS - 1))
    }

    #[inline]
    pub fn score<M: Hash>(&self, p: Player, m: &M) -> i32 {
        self.scores[Self::slot(p, m)]
    }

    /// `m` cut off at `depth` (`good`), or was searched before the move that
    /// did and did not.
    #[inline]
    pub fn update<M: Hash>(&mut self, p: Player, m: &M, depth: u32, good: bool) {
        let bonus = (depth * depth).min(HISTORY_MAX as u32 / 4) as i32;
        let bonus = if good { bonus } else { -bonus };
        let s = &mut self.scores[Self::slot(p, m)];
        *s += bonus - *s * bonus.abs() / HISTORY_MAX;
    }

    /// A new search: what was learned still orders moves, at half weight.
    pub fn age(&mut self) {
        self.scores.iter_mut().for_each(|s| *s /= 2);
    }
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

/// Moves picked one at a time before the rest is sorted once: the table
/// move and the killers come first, and a cut-off usually comes among them,
/// so most nodes never pay for a sort.
pub const LAZY_PICKS: usize = 3;

/// Puts the move to search `next` at position `next` of `moves` (each with
/// its order key): the first [`LAZY_PICKS`] by picking the highest key left,
/// moving the ones it passes one place on (a stable selection), then the rest
/// by one sort, skipped when their keys are all alike (so the plain search
/// keeps generation order).
#[inline]
pub fn order_next<M>(moves: &mut [(i32, M)], next: usize) {
    if next < LAZY_PICKS {
        let mut best = next;
        for i in next + 1..moves.len() {
            if moves[i].0 > moves[best].0 {
                best = i;
            }
        }
        if best != next {
            moves[next..=best].rotate_right(1);
        }
    } else if next == LAZY_PICKS {
        let rest = &mut moves[next..];
        if rest.windows(2).any(|w| w[0].0 != w[1].0) {
            rest.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordered(keys: &[i32]) -> Vec<(i32, usize)> {
        let mut moves: Vec<(i32, usize)> = keys.iter().copied().zip(0..).collect();
        for i in 0..moves.len() {
            order_next(&mut moves, i);
        }
        moves
    }

    #[test]
    fn moves_come_by_key() {
        let moves = ordered(&[0, 5, 0, 7, 5, 9, -3, 2, 2, 8]);
        let keys: Vec<i32> = moves.iter().map(|m| m.0).collect();
        assert_eq!(keys, [9, 8, 7, 5, 5, 2, 2, 0, 0, -3]);
    }

    #[test]
    fn moves_of_equal_key_keep_generation_order_when_the_rest_is_alike() {
        // The plain search: the table move and killers first, then the rest
        // in the order they were generated.
        let moves = ordered(&[0, 0, 9, 0, 8, 0, 0]);
        let order: Vec<usize> = moves.iter().map(|m| m.1).collect();
        assert_eq!(order, [2, 4, 0, 1, 3, 5, 6]);
    }

    #[test]
    fn history_rewards_cut_offs_and_stays_bounded() {
        let mut h = History::new();
        for _ in 0..10_000 {
            h.update(0, &7u16, 30, true);
            h.update(0, &8u16, 30, false);
        }
        assert!(h.score(0, &7u16) > 0 && h.score(0, &7u16) <= HISTORY_MAX);
        assert!(h.score(0, &8u16) < 0 && h.score(0, &8u16) >= -HISTORY_MAX);
        assert_eq!(h.score(1, &7u16), 0, "each side keeps its own");
        h.age();
        assert!(h.score(0, &7u16) <= HISTORY_MAX / 2);
    }
}
