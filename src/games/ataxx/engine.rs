//! How the genome bot and the submission bot search: alpha-beta on the
//! weighted features, built here once so both play the same moves at the same
//! budget. Standard library only.

use super::features::{Weights, COUNT};
use super::rules::Ataxx;
use crate::search::{Limits, Linear, Searcher, Techniques};

/// Positions one millisecond of the submission bot's search visits on a whole
/// core of the development machine, which sizes a time budget's table:
/// `gridtune bench --game ataxx` measured a median of 500,000 a move in its
/// 45 ms of search (479,000 to 563,000 in three runs, 1 December 2026).
pub const NODES_PER_MS: u64 = 11_000;

/// The search techniques beyond plain alpha-beta. Aspiration windows lost
/// in 60-game matches against the landed search at 100 ms a move (-95 Elo
/// with them, +12 without, each about ±90), and so did the two-entry table
/// (+12 with it, +64 without); what is left is measured in the README.
pub const TECHNIQUES: Techniques = Techniques {
    aspiration: false,
    two_way_table: false,
    ..Techniques::ALL
};

/// The searcher, kept between moves for its table.
pub type Engine = Searcher<Ataxx, Linear<COUNT>>;

/// The engine for `weights` searching within `limits` each move, with the
/// table those limits need ([`Limits::table_bits`]): the one constructor of
/// the genome bot and the submission bot, so the bot tuned at a node budget
/// and the bot submitted at a time budget each get the table their budget
/// fills.
pub fn for_budget(weights: Weights, limits: Limits) -> Engine {
    Searcher::new(Linear(weights), limits.table_bits(NODES_PER_MS), TECHNIQUES)
}
