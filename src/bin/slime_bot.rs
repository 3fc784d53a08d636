//! slime-bot: the Slime submission. The control program starts it once per
//! turn with the board in its one argument (`P,row,row,...`); it prints
//! `from_row from_col to_row to_col` and a newline, with the weights frozen
//! into tuned.rs. Standard library only.
//!
//! Usage: `slime-bot [--budget-ms N] ARGUMENT` (either order; default:
//! tuned.rs's MOVE_BUDGET_MS for the whole run, start-up included).

use gridtune::games::slime::engine::Engine;
use gridtune::games::slime::protocol::parse_argument;
use gridtune::games::slime::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use gridtune::games::slime::SlimeMove;
use gridtune::search::Limits;
use std::io::Write;
use std::time::Duration;

/// Share of the budget the search may use: the process also has to start,
/// allocate its table and exit inside the budget.
const SEARCH_SHARE: f64 = 0.5;

fn main() {
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
            Engine::new(WEIGHTS, 16).choose(&state, seat, Limits::time(time))
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

fn usage() -> ! {
    eprintln!("usage: slime-bot [--budget-ms N] P,row,row,...");
    std::process::exit(2);
}
