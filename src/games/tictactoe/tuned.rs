// The test game's frozen weights: its declared defaults (no evolution run
// is frozen for it; a bundle renders its genome's in place of this file).
//! The weights and budget compiled into `tictactoe-bot`.

use super::features::Weights;

/// The frozen evaluation weights, in declaration order.
#[rustfmt::skip]
pub const WEIGHTS: Weights = [
    10, // open_lines
    5, // centre
];

/// The submission bot's time budget per move, in milliseconds.
pub const MOVE_BUDGET_MS: u64 = 100;
