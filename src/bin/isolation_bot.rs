//! isolation-bot: the Isolation submission, speaking the contest protocol on
//! stdin/stdout with the weights frozen into tuned.rs. Standard library only.
//!
//! Usage: `isolation-bot [--budget-ms N]` (default: tuned.rs's MOVE_BUDGET_MS).

use gridtune::game::{Game, ToMove};
use gridtune::games::isolation::features::WeightedEval;
use gridtune::games::isolation::protocol::{parse_header, parse_turn};
use gridtune::games::isolation::tuned::{MOVE_BUDGET_MS, WEIGHTS};
use gridtune::protocol::LineReader;
use gridtune::search::{AlphaBeta, Limits};
use std::io::Write;
use std::time::{Duration, Instant};

/// Share of the budget the search may use; the rest covers reading, writing
/// and the scheduler's jitter on a loaded server.
const SEARCH_SHARE: f64 = 0.6;

fn main() {
    let budget_ms = budget_from_args().unwrap_or(MOVE_BUDGET_MS);
    let search_time = Duration::from_secs_f64(budget_ms as f64 / 1000.0 * SEARCH_SHARE);
    let mut input = LineReader::new(std::io::stdin().lock());
    let mut out = std::io::stdout().lock();

    let Some((first_no, first)) = input.next_line() else {
        return;
    };
    let (width, height, me) = match parse_header(first, first_no) {
        Ok(h) => (h.width, h.height, h.me),
        Err(e) => {
            eprintln!("isolation-bot: bad first line: {e}");
            std::process::exit(1);
        }
    };
    let mut search = AlphaBeta::new(18);
    let eval = WeightedEval(WEIGHTS);
    loop {
        // A turn block is `turn T`, two positions and H rows.
        let Some((first_no, line)) = input.next_line() else {
            return;
        };
        let started = Instant::now();
        let mut block = vec![line.to_string()];
        while block.len() < height + 3 {
            match input.next_line() {
                Some((_, l)) => block.push(l.to_string()),
                None => return,
            }
        }
        let lines: Vec<&str> = block.iter().map(String::as_str).collect();
        let state = match parse_turn(&lines, Some((width, height)), first_no) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("isolation-bot: cannot read turn: {e}");
                continue;
            }
        };
        if state.to_move() != ToMove::One(me) {
            eprintln!("isolation-bot: turn {} is not mine (I am player {me})", state.turn());
            continue;
        }
        let result = search.search(&state, &eval, Limits::time(search_time));
        // A closed stdout means the referee has gone: nothing left to do.
        if writeln!(out, "{}", result.best).and_then(|_| out.flush()).is_err() {
            return;
        }
        eprintln!(
            "turn {}: {} score {} depth {} nodes {} in {} ms",
            state.turn(),
            result.best,
            result.score,
            result.depth,
            result.nodes,
            started.elapsed().as_millis()
        );
    }
}

fn budget_from_args() -> Option<u64> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => None,
        [flag, n] if flag == "--budget-ms" => match n.parse() {
            Ok(ms) if ms > 0 => Some(ms),
            _ => usage(),
        },
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!("usage: isolation-bot [--budget-ms N]");
    std::process::exit(2);
}
