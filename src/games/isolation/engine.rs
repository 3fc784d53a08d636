//! How the genome bot and the submission bot search: alpha-beta on the
//! weighted features, built here once so both play the same moves at the same
//! budget. Standard library only.

use super::features::{Weights, COUNT};
use super::rules::Isolation;
use crate::search::{Limits, Linear, NewIterations, Searcher, Techniques};

/// Positions one millisecond of the submission bot's search visits on a whole
/// core of the development machine, which sizes a time budget's table:
/// `gridtune bench --game isolation` measured a median of 80,000 a move in its
/// 45 ms of search (73,000 to 86,000 in three runs, 1 December 2026). The
/// fills by constant shifts (7 December) search 1.5 times the nodes in the
/// same time (the bots before and after, alternately on the same positions),
/// so about 120,000; the table stays 2^18 entries either way.
pub const NODES_PER_MS: u64 = 2_700;

/// The search techniques beyond plain alpha-beta: all but aspiration
/// windows, whose first window has a fixed floor, so that a genome with
/// every weight multiplied alike would search differently (`tests/scale.rs`).
/// Against the landed search (plain alpha-beta, table, killers), submission
/// bot against submission bot at 100 ms a move on fresh maps, both sides
/// (2 December 2026): +52.5 Elo [+28.0, +77.5] over 680 games, SPRT (0, 10)
/// H1 accepted (with aspiration windows too: +30.7 [+9.9, +51.6] over
/// 1,000 games). New iterations until the deadline rather than while half
/// the time is left (the bot's median reply went from 24 ms to 45 ms of its
/// 45 ms search): +43.1 [+21.1, +65.5] over 762 games, H1 (3 December 2026,
/// seed 712).
pub const TECHNIQUES: Techniques = Techniques {
    aspiration: false,
    late_pruning: false,
    futility: false,
    iir: false,
    // Isolation has no pass to prune with (`Game::null_move`).
    null_move: false,
    new_iterations: NewIterations::UntilDeadline,
    ..Techniques::ALL
};

/// The searcher, kept between moves for its table.
pub type Engine = Searcher<Isolation, Linear<COUNT>>;

/// The engine for `weights` searching within `limits` each move, with the
/// table those limits need ([`Limits::table_bits`]): the one constructor of
/// the genome bot and the submission bot, so the bot tuned at a node budget
/// and the bot submitted at a time budget each get the table their budget
/// fills.
pub fn for_budget(weights: Weights, limits: Limits) -> Engine {
    Searcher::new(Linear(weights), limits.table_bits(NODES_PER_MS), TECHNIQUES)
}
