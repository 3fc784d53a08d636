//! The Isolation submission bot: alpha-beta on the frozen weights, speaking
//! the contest protocol on stdin/stdout. Standard library only.

use super::engine::{self, Engine};
use super::protocol::parse_turn;
use super::rules::{xy, Isolation, MAX_SIDE, TURN_LIMIT};
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
    budget_from_args("isolation-bot").unwrap_or(MOVE_BUDGET_MS)
}

impl Submission for Isolation {
    type Engine = Engine;

    fn engine() -> Engine {
        engine::for_budget(WEIGHTS, search_limits(budget_ms()))
    }

    fn answer(mut search: Engine) {
        let limits = search_limits(budget_ms());
        serve_turns(
            "isolation-bot",
            (MAX_SIDE, MAX_SIDE),
            |lines, size, line_no| parse_turn(lines, Some(size), line_no),
            |state, header, arrived| {
                if state.side() != header.me {
                    eprintln!(
                        "isolation-bot: turn {} is player {}'s, not mine (I am player {})",
                        state.turn(),
                        state.side(),
                        header.me
                    );
                    return None;
                }
                // The statement: a player with no legal move has lost, so the
                // referee should not have asked; any reply would be an invalid move.
                if state.to_move() != ToMove::One(header.me) {
                    let (x, y) = xy(state.position(header.me));
                    if state.moves_bb(header.me) == 0 {
                        eprintln!(
                            "isolation-bot: turn {}: no legal move from ({x}, {y}), so I have lost (no reply)",
                            state.turn()
                        );
                    } else {
                        eprintln!(
                            "isolation-bot: turn {}: past the {TURN_LIMIT}-turn limit, the game is over (no reply)",
                            state.turn()
                        );
                    }
                    return None;
                }
                let r = search.search(state, limits);
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
}
