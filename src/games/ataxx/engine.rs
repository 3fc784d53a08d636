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

/// The search techniques beyond plain alpha-beta: none won. Each was played
/// against the landed search (plain alpha-beta, table, killers), submission
/// bot against submission bot at 100 ms a move on fresh maps, both sides
/// (2 December 2026):
/// - principal-variation search with ordering by captures and history:
///   -11.0 Elo [-37.7, +15.6] over 600 games;
/// - with late-move reductions too: -177 Elo [-227, -133] over 232 games
///   (nearly every Ataxx move converts pieces, and a reduced search misses
///   the recapture);
/// - aspiration windows (-95 Elo with them, +12 without) and the two-entry
///   table (+12 with it, +64 without), 60 games each, about ±90.
pub const TECHNIQUES: Techniques = Techniques::PLAIN;

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
