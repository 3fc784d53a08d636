//! How the genome bot and the submission bot search: alpha-beta on the
//! weighted features, built here once so both play the same moves at the same
//! budget. Standard library only.

use super::features::{Weights, COUNT};
use super::rules::TicTacToe;
use crate::search::{Limits, Linear, Searcher, Techniques};

/// Positions one millisecond of search visits; the test game is never timed
/// against a contest, so this is only the order of its search's speed.
pub const NODES_PER_MS: u64 = 1_000;

/// The whole game has 5,478 positions: more entries than 2^12 would mostly
/// stay empty.
const MAX_TABLE_BITS: u32 = 12;

/// Every search technique, as the real games' engines use them.
pub const TECHNIQUES: Techniques = Techniques::ALL;

/// The searcher, kept between moves for its table.
pub type Engine = Searcher<TicTacToe, Linear<COUNT>>;

/// The engine for `weights` searching within `limits` each move, with the
/// table those limits need ([`Limits::table_bits`]): the one constructor of
/// the genome bot and the submission bot.
pub fn for_budget(weights: Weights, limits: Limits) -> Engine {
    Searcher::new(Linear(weights), limits.table_bits(NODES_PER_MS).min(MAX_TABLE_BITS), TECHNIQUES)
}
