//! How the genome bot (and so the submission bot) picks a move: alpha-beta
//! over half-moves, itself committing first, while the bikes can meet; the
//! longest-path filler once they are apart. Standard library only.

use super::endgame::fill_move;
use super::features::{separated, Weights, CONTEMPT, COUNT};
use super::rules::{Direction, LightCycles};
use crate::game::Player;
use crate::search::simultaneous::{Sequential, SequentialEval};
use crate::search::{Deepening, Limits, Linear, NewIterations, Searcher, Techniques};

/// The search techniques beyond plain alpha-beta: of the pruning and
/// ordering ones, none has won yet. All of them (with four moves a
/// half-move, none is late enough to be reduced) against the landed search,
/// submission bot against submission bot at 100 ms a move on fresh maps,
/// both sides: +8.7 Elo [-12.1, +29.6] over 600 games, the SPRT (0, 10)
/// undecided (2 December 2026). PVS, history and the two-entry table alone:
/// +2.8 [-7.9, +13.4] over 2,000 games.
///
/// The deepening steps two half-moves at a time, and keeps starting
/// iterations until the deadline. An iteration of odd depth ends on a
/// half-played turn, whose leaves read the position before it
/// ([`SequentialEval`]), so it spends nodes to learn nothing new; and a step
/// of two half-moves costs so much more than the last that stopping at half
/// the budget would often leave the rest of it unused. Together: +24.6 Elo
/// [+8.7, +40.6] over 934 games, SPRT (0, 10) H1 (seed 701, 3 December
/// 2026); even depths alone: +5.2 [-11.1, +21.6] over 1,000 games.
pub const TECHNIQUES: Techniques = Techniques {
    deepening: Deepening::Even,
    new_iterations: NewIterations::UntilDeadline,
    ..Techniques::PLAIN
};

/// The genome bot's searcher, kept between moves for its table: the shared
/// linear evaluation, read on the position before a half-played turn, and
/// drawn games scored at the genome's `contempt` below even: +11.7 Elo
/// [+3.0, +20.5] over 3,000 games at 100 ms a move for contempt 20 against
/// draws at 0, SPRT (0, 10) H1 (seeds 921 and 922, 4 December 2026). The
/// filler stays Light Cycles' own: once the bikes are apart a move is a
/// longest-path search, not a weighted sum, so it is not an evaluator.
pub struct Engine {
    search: Searcher<Sequential<LightCycles>, SequentialEval<Linear<COUNT>>>,
}

/// What a move decision found, for logs.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    pub direction: Direction,
    /// Search score, or the filler's path length in the endgame.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub endgame: bool,
}

/// Half-moves one millisecond of the submission bot's search visits on a whole
/// core of the development machine, which sizes a time budget's table:
/// `gridtune bench --game lightcycles` measured a median of 72,000 a move in its
/// 45 ms of search (69,000 to 78,000 in three runs, 1 December 2026).
pub const NODES_PER_MS: u64 = 1_600;

impl Engine {
    /// The engine for `weights` searching within `limits` each move, with
    /// the table those limits need ([`Limits::table_bits`]): the one
    /// constructor of the genome bot and the submission bot.
    pub fn for_budget(weights: Weights, limits: Limits) -> Self {
        Engine {
            search: Searcher::new(
                SequentialEval {
                    eval: Linear(weights),
                    contempt: weights[CONTEMPT],
                },
                limits.table_bits(NODES_PER_MS),
                TECHNIQUES,
            ),
        }
    }

    pub fn choose(&mut self, state: &LightCycles, me: Player, limits: Limits) -> Decision {
        if separated(state) {
            let (direction, length) = fill_move(state, me, limits);
            return Decision {
                direction,
                score: length,
                depth: 0,
                nodes: 0,
                endgame: true,
            };
        }
        let r = self.search.search(&Sequential::new(*state, me), limits);
        Decision {
            direction: r.best,
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            endgame: false,
        }
    }
}
