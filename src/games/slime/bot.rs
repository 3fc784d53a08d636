//! The Slime submission bot. The control program starts it once per turn
//! with the board in its one argument (`P,row,row,...`); it prints
//! `from_row from_col to_row to_col` and a newline. Standard library only.

use super::engine::Engine;
use super::protocol::parse_argument;
use super::rules::{Slime, SlimeMove};
use super::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use crate::search::Limits;
use crate::submission::Submission;
use std::io::Write;
use std::time::Duration;

/// Share of the budget the search may use: the process also has to start,
/// allocate its table and exit inside the budget.
const SEARCH_SHARE: f64 = 0.5;

impl Submission for Slime {
    type Engine = Engine;

    fn engine() -> Engine {
        Engine::new(WEIGHTS, 16)
    }

    fn answer(mut engine: Engine) {
        let mut args: Vec<String> = std::env::args().skip(1).collect();
        // The flag may come before the board: a referee appends the board to
        // whatever command it was given.
        let mut budget_ms = MOVE_BUDGET_MS;
        if let Some(i) = args.iter().position(|a| a == "--budget-ms") {
            budget_ms = match args.get(i + 1).map(|n| n.parse()) {
                Some(Ok(ms)) if ms > 0 => ms,
                _ => usage(),
            };
            args.drain(i..i + 2);
        }
        let [arg] = args.as_slice() else { usage() };
        let m = match parse_argument(arg) {
            Ok((state, seat)) => {
                let time = Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE);
                engine.choose(&state, seat, Limits::time(time))
            }
            Err(e) => {
                eprintln!("slime-bot: {e}");
                SlimeMove::PASS
            }
        };
        // The newline matters: the control program rejects a line without one.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{m}").and_then(|_| out.flush());
    }
}

fn usage() -> ! {
    eprintln!("usage: slime-bot [--budget-ms N] P,row,row,...");
    std::process::exit(2);
}
