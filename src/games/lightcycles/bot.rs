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

impl Submission for LightCycles {
    type Engine = Engine;

    fn engine() -> Engine {
        Engine::new(WEIGHTS, 18)
    }

    fn answer(mut engine: Engine) {
        let budget_ms = budget_from_args("lightcycles-bot").unwrap_or(MOVE_BUDGET_MS);
        let search_time = Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE);
        serve_turns(
            "lightcycles-bot",
            (MAX_WIDTH, MAX_HEIGHT),
            |lines, size, line_no| parse_turn(lines, Some(size), line_no),
            |state, header, arrived| {
                if state.to_move() != ToMove::All {
                    eprintln!("lightcycles-bot: turn {}: the game is already over", state.turns() + 1);
                    return None;
                }
                let d = engine.choose(state, header.me, Limits::time(search_time));
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
