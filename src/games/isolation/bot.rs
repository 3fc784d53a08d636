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

impl Submission for Isolation {
    type Engine = Engine;

    fn engine() -> Engine {
        engine::new(WEIGHTS, 18)
    }

    fn answer(mut search: Engine) {
        let budget_ms = budget_from_args("isolation-bot").unwrap_or(MOVE_BUDGET_MS);
        let search_time = Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE);
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
                let r = search.search(state, Limits::time(search_time));
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
