//! How the genome bot and the submission bot search: alpha-beta on the
//! weighted features, built here once so both play the same moves at the same
//! budget. Standard library only.

use super::features::{Weights, COUNT};
use super::rules::Ataxx;
use crate::search::{Limits, Linear, NewIterations, Reductions, Searcher, Techniques};

/// Positions one millisecond of the submission bot's search visits on a whole
/// core of the development machine, which sizes a time budget's table:
/// `gridtune bench --game ataxx` measured a median of 112,561 a move in its
/// 45 ms of search with the pruning search (2 December 2026; the plain search
/// visited 500,000, mostly leaves).
pub const NODES_PER_MS: u64 = 2_500;

/// The search techniques beyond plain alpha-beta, those of the public
/// engines: principal-variation search, ordering by the move's captures then
/// history, steep late-move reductions, late-move pruning, reverse futility
/// pruning (a piece's weight a ply) and internal iterative reductions. They
/// need the evaluation's `tempo` weight: without it a line cut an odd number
/// of plies short is scored from the wrong side's move in hand (37.5% against
/// AtaxxDotCpp at 40,000 nodes a move, 60 games, against 67.5% with it).
/// Neither aspiration windows nor the two-entry table gained anything.
/// Iterations started until the deadline rather than while half the time is
/// left (the median reply went from 30 ms to 45 ms of the 45 ms search):
/// +72.9 Elo [+44.1, +102.7] over 498 games, H1 (3 December 2026, seed 715).
///
/// What this search did against the landed one is in the README ("The
/// search"); the gentler reductions of [`Reductions::Late`] lost 177 Elo
/// without the tempo weight and the capture ordering. Null-move pruning (a
/// pass, from depth 3, two plies and one per 4 of depth shallower) scored
/// -7.6 Elo [-28.4, +13.1] over 1,000 games at 100 ms a move (SPRT (0, 10)
/// LLR -1.13, seed 991, 6 December 2026); with the tempo weight a pass
/// rarely still beats beta (8% fewer nodes at depth 4 even with no other
/// pruning, `tests/search.rs`).
pub const TECHNIQUES: Techniques = Techniques {
    aspiration: false,
    two_way_table: false,
    null_move: false,
    reductions: Reductions::Steep,
    new_iterations: NewIterations::UntilDeadline,
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
