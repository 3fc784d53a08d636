//! isolation-bot: the Isolation submission, speaking the contest protocol on
//! stdin/stdout with the weights frozen into tuned.rs. Standard library only.
//!
//! Usage: `isolation-bot [--budget-ms N]` (default: tuned.rs's MOVE_BUDGET_MS).

use gridtune::game::{Game, ToMove};
use gridtune::games::isolation::features::WeightedEval;
use gridtune::games::isolation::protocol::parse_turn;
use gridtune::games::isolation::rules::MAX_SIDE;
use gridtune::games::isolation::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use gridtune::protocol::{budget_from_args, serve_turns, SEARCH_SHARE};
use gridtune::search::{AlphaBeta, Limits};
use std::time::Duration;

fn main() {
    let budget_ms = budget_from_args("isolation-bot").unwrap_or(MOVE_BUDGET_MS);
    let search_time = Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE);
    let mut search = AlphaBeta::new(18);
    let eval = WeightedEval(WEIGHTS);
    serve_turns(
        "isolation-bot",
        (MAX_SIDE, MAX_SIDE),
        |lines, size, line_no| parse_turn(lines, Some(size), line_no),
        |state, header, arrived| {
            if state.to_move() != ToMove::One(header.me) {
                eprintln!(
                    "isolation-bot: turn {} is not mine (I am player {})",
                    state.turn(),
                    header.me
                );
                return None;
            }
            let r = search.search(state, &eval, Limits::time(search_time));
            eprintln!(
                "turn {}: {} score {} depth {} nodes {} in {} ms",
                state.turn(),
                r.best,
                r.score,
                r.depth,
                r.nodes,
                arrived.elapsed().as_millis()
            );
            Some(r.best.to_string())
        },
    );
}
