//! The test game's evaluation features and weights. Standard library only.

use super::rules::{TicTacToe, LINES};
use crate::game::Player;

crate::declare_params! {
    /// Lines only I can still complete, minus the opponent's.
    OPEN_LINES = ("open_lines", 10, -50, 50, 1);
    /// The centre is mine (1), the opponent's (-1), or nobody's.
    CENTRE = ("centre", 5, -50, 50, 1);
}

/// The feature values of `state` for `me`, indexed like [`PARAMS`].
pub fn features(state: &TicTacToe, me: Player) -> [i32; COUNT] {
    let (mine, theirs) = (state.marks(me), state.marks(1 - me));
    let open = |own: u16, other: u16| {
        LINES
            .iter()
            .filter(|&&l| own & l != 0 && other & l == 0 && state.blocked() & l == 0)
            .count() as i32
    };
    let centre = 1 << 4;
    let centre_value = i32::from(mine & centre != 0) - i32::from(theirs & centre != 0);
    [open(mine, theirs) - open(theirs, mine), centre_value]
}

impl crate::search::Features<COUNT> for TicTacToe {
    fn features(&self, me: Player) -> [i32; COUNT] {
        features(self, me)
    }
}
