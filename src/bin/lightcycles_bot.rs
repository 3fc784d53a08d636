//! lightcycles-bot: the Light Cycles submission, speaking the contest
//! protocol on stdin/stdout with the weights frozen into tuned.rs. Standard
//! library only.
//!
//! Usage: `lightcycles-bot [--budget-ms N]` (default: tuned.rs's MOVE_BUDGET_MS).

use gridtune::game::{Game, ToMove};
use gridtune::games::lightcycles::engine::Engine;
use gridtune::games::lightcycles::protocol::parse_turn;
use gridtune::games::lightcycles::rules::{MAX_HEIGHT, MAX_WIDTH};
use gridtune::games::lightcycles::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use gridtune::protocol::{budget_from_args, serve_turns, SEARCH_SHARE};
use gridtune::search::Limits;
use std::time::Duration;

fn main() {
    let budget_ms = budget_from_args("lightcycles-bot").unwrap_or(MOVE_BUDGET_MS);
    let search_time = Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE);
    let mut engine = Engine::new(WEIGHTS, 18);
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
