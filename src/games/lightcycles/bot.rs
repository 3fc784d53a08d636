//! The Light Cycles submission bot: [`Engine`] on the frozen weights,
//! speaking the contest protocol on stdin/stdout. Standard library only.

use super::engine::Engine;
use super::protocol::parse_turn;
use super::rules::{LightCycles, MAX_HEIGHT, MAX_WIDTH};
use super::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use crate::game::{Game, ToMove};
use crate::protocol::{budget_from_args, serve_turns, SEARCH_SHARE};
use crate::search::Limits;
use crate::submission::Submission;
use std::time::Duration;

/// The search's limits for a move budget of `budget_ms`: the share of it
/// that search gets, the rest being the reply's reading, writing and
/// scheduling. `gridtune bench` measures the nodes a move searches in it.
pub fn search_limits(budget_ms: u64) -> Limits {
    Limits::time(Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE))
}

/// The move budget: `--budget-ms N`, or the frozen one.
fn budget_ms() -> u64 {
    budget_from_args("lightcycles-bot").unwrap_or(MOVE_BUDGET_MS)
}

impl Submission for LightCycles {
    type Engine = Engine;

    fn engine() -> Engine {
        Engine::for_budget(WEIGHTS, search_limits(budget_ms()))
    }

    fn answer(mut engine: Engine) {
        let limits = search_limits(budget_ms());
        serve_turns(
            "lightcycles-bot",
            (MAX_WIDTH, MAX_HEIGHT),
            |lines, size, line_no| parse_turn(lines, Some(size), line_no),
            |state, header, arrived| {
                if state.to_move() != ToMove::All {
                    eprintln!("lightcycles-bot: turn {}: the game is already over", state.turns() + 1);
                    return None;
                }
                let d = engine.choose(state, header.me, limits);
                eprintln!(
                    "turn {}: {} score {} depth {} nodes {}{} in {} ms",
                    state.turns() + 1,
                    d.direction,
                    d.score,
                    d.depth,
                    d.nodes,
                    if d.endgame { " (endgame fill)" } else { "" },
                    arrived.elapsed().as_millis()
                );
                Some(d.direction.to_string())
            },
        );
    }
}
