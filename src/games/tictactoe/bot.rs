//! The test game's submission bot: alpha-beta on the frozen weights.
//! Standard library only.

use super::engine::{self, Engine};
use super::protocol::{move_text, parse_rows};
use super::rules::{TicTacToe, SIDE};
use super::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use crate::game::{Game, ToMove};
use crate::protocol::{budget_from_args, LineReader, SEARCH_SHARE};
use crate::search::Limits;
use crate::submission::Submission;
use std::io::Write;
use std::time::Duration;

/// The search's limits for a move budget of `budget_ms`: the share of it
/// that search gets, the rest being the reply's reading, writing and
/// scheduling. `gridtune bench` measures the nodes a move searches in it.
pub fn search_limits(budget_ms: u64) -> Limits {
    Limits::time(Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE))
}

/// The move budget: `--budget-ms N`, or the frozen one.
fn budget_ms() -> u64 {
    budget_from_args("tictactoe-bot").unwrap_or(MOVE_BUDGET_MS)
}

impl Submission for TicTacToe {
    type Engine = Engine;

    fn engine() -> Engine {
        engine::for_budget(WEIGHTS, search_limits(budget_ms()))
    }

    fn answer(mut search: Engine) {
        let limits = search_limits(budget_ms());
        let mut input = LineReader::new(std::io::stdin().lock());
        let mut out = std::io::stdout().lock();
        if input.next_line().is_none() {
            return;
        }
        loop {
            let mut rows = Vec::with_capacity(SIDE);
            let mut first = 0;
            while rows.len() < SIDE {
                let Some((n, line)) = input.next_line() else {
                    return;
                };
                if rows.is_empty() {
                    first = n;
                }
                rows.push(line.to_string());
            }
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let state = match parse_rows(&rows, first) {
                Ok(state) => state,
                Err(e) => {
                    eprintln!("tictactoe-bot: {e}");
                    continue;
                }
            };
            if !matches!(state.to_move(), ToMove::One(_)) {
                eprintln!("tictactoe-bot: the game is over");
                continue;
            }
            let r = search.search(&state, limits);
            if writeln!(out, "{}", move_text(r.best)).and_then(|_| out.flush()).is_err() {
                return;
            }
        }
    }
}
