//! How the genome bot and the submission bot search: alpha-beta on the
//! weighted features, built here once so both play the same moves at the same
//! budget. Standard library only.

use super::features::{Weights, COUNT};
use super::rules::TicTacToe;
use crate::search::{Linear, Searcher};

/// The searcher, kept between moves for its table.
pub type Engine = Searcher<TicTacToe, Linear<COUNT>>;

/// The engine for `weights` with `2^table_bits` transposition entries.
pub fn new(weights: Weights, table_bits: u32) -> Engine {
    Searcher::new(Linear(weights), table_bits)
}
