//! The Slime submission bot. The control program starts it once per turn
//! with the board in its one argument (`P,row,row,...`); it prints
//! `from_row from_col to_row to_col` and a newline. Standard library only.

use super::engine::Engine;
use super::protocol::parse_argument;
use super::rules::{Slime, SlimeMove};
use super::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use crate::protocol::SEARCH_SHARE;
use crate::search::Limits;
use crate::submission::Submission;
use std::io::Write;
use std::time::{Duration, Instant};

/// The search's limits for a move budget of `budget_ms`: the share of it
/// that search gets ([`SEARCH_SHARE`]), counted from the start of the
/// process. `gridtune bench` measures the nodes a move searches in it.
pub fn search_limits(budget_ms: u64) -> Limits {
    Limits::time(Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE))
}

/// One turn's process: when it started, what it was asked, and its engine.
pub struct Turn {
    started: Instant,
    budget_ms: u64,
    board: String,
    engine: Engine,
}

/// The move budget (`--budget-ms N`, or the frozen one) and the board
/// argument; usage on anything else. The flag may come before the board: a
/// referee appends the board to whatever command it was given.
fn read_args() -> (u64, String) {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut budget_ms = MOVE_BUDGET_MS;
    if let Some(i) = args.iter().position(|a| a == "--budget-ms") {
        budget_ms = match args.get(i + 1).map(|n| n.parse()) {
            Some(Ok(ms)) if ms > 0 => ms,
            _ => usage(),
        };
        args.drain(i..i + 2);
    }
    match <[String; 1]>::try_from(args) {
        Ok([board]) => (budget_ms, board),
        Err(_) => usage(),
    }
}

impl Submission for Slime {
    type Engine = Turn;

    fn engine() -> Turn {
        // The clock starts before the table is allocated: the budget is the
        // whole process's, and a table of 2^18 entries took 5 ms of it.
        let started = Instant::now();
        let (budget_ms, board) = read_args();
        Turn {
            started,
            budget_ms,
            board,
            engine: Engine::for_budget(WEIGHTS, search_limits(budget_ms)),
        }
    }

    fn answer(turn: Turn) {
        let Turn {
            started,
            budget_ms,
            board,
            mut engine,
        } = turn;
        let m = match parse_argument(&board) {
            Ok((state, seat)) => {
                let limits = search_limits(budget_ms).less_time(started.elapsed());
                engine.choose(&state, seat, limits)
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
