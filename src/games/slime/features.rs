//! Slime evaluation features from one seat's side, and their weights.
//! Standard library only.

use super::rules::{ring1, ring2, Slime};
use crate::game::Player;

crate::declare_params! {
    /// My squares times three, minus the opponents' together (my lead over their mean, x3).
    SQUARES = ("squares", 10, 0, 40, 1);
    /// My squares next to an empty square (open to conversion).
    FRONTIER = ("frontier", -1, -20, 20, 1);
    /// My squares with no empty square next to them (safe for a turn).
    SAFE = ("safe", 2, -20, 20, 1);
    /// Empty squares I can move to (spread or jump).
    MOBILITY = ("mobility", 1, -20, 20, 1);
    /// My squares next to an empty square some opponent can move to.
    THREATS = ("threats", -3, -30, 10, 1);
    /// Opponent squares next to an empty square I can move to.
    ATTACK = ("attack", 2, -10, 30, 1);
}

/// The feature values of `state` for seat `me`, indexed like [`PARAMS`].
pub fn features(state: &Slime, me: Player) -> [i32; COUNT] {
    let board = state.board_mask();
    let empty = state.empty();
    let mine = state.squares(me);
    let theirs = (0..4).filter(|&q| q != me).fold(0u128, |a, q| a | state.squares(q));
    let reach = |s: u128| (ring1(s) | ring2(s)) & empty;
    let my_reach = reach(mine);
    let their_reach = reach(theirs);
    let near_empty = ring1(empty) & board;
    let mut f = [0i32; COUNT];
    f[SQUARES] = 3 * mine.count_ones() as i32 - theirs.count_ones() as i32;
    f[FRONTIER] = (mine & near_empty).count_ones() as i32;
    f[SAFE] = (mine & !near_empty).count_ones() as i32;
    f[MOBILITY] = my_reach.count_ones() as i32;
    f[THREATS] = (mine & ring1(their_reach)).count_ones() as i32;
    f[ATTACK] = (theirs & ring1(my_reach)).count_ones() as i32;
    f
}

impl crate::search::Features<COUNT> for Slime {
    #[inline]
    fn features(&self, me: Player) -> [i32; COUNT] {
        features(self, me)
    }
}
