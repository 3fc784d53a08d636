//! `gridtune bench --game G --quick` as a user runs it: every figure the
//! issue asks for is printed, with its unit, as a positive number. No time
//! is asserted: the figures are whatever this machine measures.

mod common;
use common::{gridtune, root, stderr, stdout};

/// The number just before `unit` on the line that ends with it.
fn figure(text: &str, line_start: &str, unit: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(line_start) && l.ends_with(unit))
        .unwrap_or_else(|| panic!("no `{line_start} ... {unit}` line in:\n{text}"));
    let number = line[..line.len() - unit.len()].split_whitespace().last().unwrap();
    number
        .parse()
        .unwrap_or_else(|e| panic!("`{number}` in `{line}` is not a number: {e}"))
}

fn bench(game: &str) {
    let o = gridtune(&["bench", "--game", game, "--quick", "--games", "2"], root());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    println!("{text}");
    assert!(text.starts_with(&format!("{game}, ")), "{text}");
    for (start, unit) in [
        ("perft(", "M leaves/s"),
        ("evaluation, frozen weights", "ns/call"),
        ("search, frozen genome", "M nodes/s"),
        ("submission bot, ", "nodes/move"),
        ("1 thread", "games/s"),
        ("2 threads", "games/s"),
        ("speed-up", "x"),
    ] {
        let value = figure(&text, start, unit);
        assert!(value > 0.0 && value.is_finite(), "{start}: {value}\n{text}");
    }
    // Each judge against the next, then the frozen genome against each judge.
    let games: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains(" vs ") && l.ends_with("games/s"))
        .collect();
    let judges = games.iter().filter(|l| l.trim_start().starts_with("judge:")).count();
    let genome = games
        .iter()
        .filter(|l| l.trim_start().starts_with("frozen genome"))
        .count();
    assert!(judges >= 1 && judges == genome, "{text}");
    for line in games {
        let rate: f64 = line.split_whitespace().rev().nth(1).unwrap().parse().unwrap();
        assert!(rate > 0.0 && rate.is_finite(), "{line}");
    }
}

#[test]
fn bench_prints_every_figure_for_isolation() {
    bench("isolation");
}

#[test]
fn bench_prints_every_figure_for_lightcycles() {
    bench("lightcycles");
}

#[test]
fn bench_prints_every_figure_for_slime() {
    bench("slime");
}

#[test]
fn bench_prints_every_figure_for_ataxx() {
    bench("ataxx");
}

#[test]
fn bench_refuses_zero_games() {
    let o = gridtune(&["bench", "--game", "ataxx", "--games", "0"], root());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--games"), "{}", stderr(&o));
}
