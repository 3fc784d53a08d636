//! The Ataxx submission bot for CodinGame's protocol: alpha-beta on the
//! frozen weights. Standard library only.
//!
//! Reads the `id` line, then each turn 7 rows, `lastAction`, `actionsCount`
//! and the actions; answers with one of the listed actions (`b7` or `a7c7`).
//! The row order is taken from whichever reading the action list agrees
//! with. Budget: 1000 ms on the first turn, then tuned.rs's MOVE_BUDGET_MS;
//! `--budget-ms N` sets every turn's, the first included.

use super::engine::{self, Engine};
use super::protocol::{action_text, read_turn};
use super::rules::Ataxx;
use super::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use crate::protocol::{budget_from_args, LineReader, SEARCH_SHARE};
use crate::search::Limits;
use crate::submission::Submission;
use std::io::Write;
use std::time::{Duration, Instant};

/// CodinGame's first-turn limit.
const FIRST_TURN_MS: u64 = 1000;

/// The search's limits for a move budget of `budget_ms`: the share of it
/// that search gets, the rest being the reply's reading, writing and
/// scheduling. `gridtune bench` measures the nodes a move searches in it.
pub fn search_limits(budget_ms: u64) -> Limits {
    Limits::time(Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE))
}

/// The move budget: `--budget-ms N`, or the frozen one. The table is sized
/// for it, not for the first turn's: every later move searches in it.
fn budget_ms() -> u64 {
    budget_from_args("ataxx-bot").unwrap_or(MOVE_BUDGET_MS)
}

impl Submission for Ataxx {
    type Engine = Engine;

    fn engine() -> Engine {
        engine::for_budget(WEIGHTS, search_limits(budget_ms()))
    }

    fn answer(mut search: Engine) {
        let flag = budget_from_args("ataxx-bot");
        let budget_ms = flag.unwrap_or(MOVE_BUDGET_MS);
        // A budget given on the command line is the one asked for, also on the
        // first turn: a quick local run should not spend a second on it.
        let first_turn_ms = flag.unwrap_or(FIRST_TURN_MS);
        let mut input = LineReader::new(std::io::stdin().lock());
        let mut out = std::io::stdout().lock();
        let me = match input.next_line().map(|(_, l)| l.to_string()).as_deref() {
            Some("0") => 0,
            Some("1") => 1,
            None => return,
            Some(other) => {
                eprintln!("ataxx-bot: expected the id line 0 or 1, found `{other}`");
                std::process::exit(1);
            }
        };
        let mut first = true;
        loop {
            let mut lines = Vec::with_capacity(9);
            for _ in 0..9 {
                match input.next_line() {
                    Some((_, l)) => lines.push(l.to_string()),
                    None => return,
                }
            }
            let arrived = Instant::now();
            let count: usize = match lines[8].parse() {
                Ok(n) => n,
                Err(_) => {
                    eprintln!("ataxx-bot: expected actionsCount, found `{}`", lines[8]);
                    return;
                }
            };
            // The count is the input's word, not a size to allocate.
            let mut actions = Vec::with_capacity(count.min(1024));
            for _ in 0..count {
                match input.next_line() {
                    Some((_, l)) => actions.push(l.to_string()),
                    None => return,
                }
            }
            let budget = if first { first_turn_ms } else { budget_ms };
            first = false;
            let rows: Vec<&str> = lines[..7].iter().map(String::as_str).collect();
            let listed: Vec<&str> = actions.iter().map(String::as_str).collect();
            let reply = match read_turn(&rows, &listed, me) {
                Ok((state, moves)) if !moves.is_empty() => {
                    let r = search.search(&state, search_limits(budget));
                    // Only a listed action is ever printed.
                    let chosen = if moves.contains(&r.best) { r.best } else { moves[0] };
                    eprintln!(
                        "{} score {} depth {} nodes {} in {} ms",
                        action_text(chosen),
                        r.score,
                        r.depth,
                        r.nodes,
                        arrived.elapsed().as_millis()
                    );
                    action_text(chosen)
                }
                Ok(_) => "random".to_string(),
                Err(e) => {
                    eprintln!("ataxx-bot: {e}");
                    listed.first().map_or("random".to_string(), |a| a.to_string())
                }
            };
            if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
                return;
            }
        }
    }
}
