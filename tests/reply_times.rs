//! `match` with a real submission bot run as a program: the printed summary
//! and the JSON give its reply times, first turns apart, against the game's
//! limits. Only their consistency is asserted, never a time.

use serde_json::Value;

mod common;
use common::{gridtune, root, stderr, stdout};

fn run(args: &[&str]) -> String {
    let o = gridtune(args, root());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// Checks one kind of turn's figures: ordered, in range, the given limit.
fn check_turns(times: &Value, turns: u64, limit_ms: u64) {
    assert_eq!(times["limit_ms"], limit_ms, "{times}");
    let count = times["count"].as_u64().unwrap();
    assert!(count >= turns, "{times}");
    let figures: Vec<f64> = ["median", "p99", "p999", "max"]
        .iter()
        .map(|k| times[k].as_f64().unwrap())
        .collect();
    assert!(figures.windows(2).all(|w| w[0] <= w[1]), "{times}");
    assert!(figures[0] >= 0.0, "{times}");
    assert!(
        figures.iter().all(|ms| ms.fract() == 0.0),
        "whole milliseconds: {times}"
    );
    assert_eq!(times["blocks"].as_u64().unwrap(), count / 1000, "{times}");
    assert!(times["blocks_past_margin"].as_u64().unwrap() <= count / 1000, "{times}");
}

/// The text summary's header, the bot's line and one line per kind of turn.
fn check_lines(text: &str, bot: &str) {
    let at = text
        .find("reply times, ms (% limit)")
        .unwrap_or_else(|| panic!("no reply times in:\n{text}"));
    let block = &text[at..];
    assert!(block.contains(&format!("  {bot}\n")), "{text}");
    assert!(!block.contains("judge:"), "judges have no reply times:\n{text}");
    for kind in ["first turns", "later turns"] {
        let line = block
            .lines()
            .find(|l| l.trim_start().starts_with(kind))
            .unwrap_or_else(|| panic!("no {kind} line in:\n{text}"));
        assert_eq!(line.matches("%)").count(), 4, "{line}");
        assert!(
            line.trim_end().ends_with(" of 0"),
            "fewer than 1,000 turns, no whole block: {line}"
        );
    }
}

#[test]
fn match_reports_a_program_bots_reply_times_first_turns_apart() {
    let bot = format!("cmd:{} --budget-ms 20", env!("CARGO_BIN_EXE_ataxx-bot"));
    let args = [
        "match",
        "--game",
        "ataxx",
        "--bot",
        &bot,
        "--bot",
        "judge:greedy",
        "--fresh-maps",
        "--games",
        "2",
        "--quiet",
    ];
    let text = run(&args);
    check_lines(&text, &bot);

    let json: Value = serde_json::from_str(&run(&[&args[..], &["--json"]].concat())).unwrap();
    let times = json["reply_times"].as_array().unwrap();
    assert_eq!(times.len(), 1, "{json}");
    assert_eq!(times[0]["bot"], bot.as_str());
    // One first turn per game, Ataxx's 1,000 ms; then 100 ms.
    assert_eq!(times[0]["first"]["count"], 2, "{json}");
    check_turns(&times[0]["first"], 2, 1000);
    check_turns(&times[0]["later"], 2, 100);
}

#[test]
fn a_four_seat_match_reports_reply_times_too() {
    let bot = format!("cmd:{} --budget-ms 20", env!("CARGO_BIN_EXE_slime-bot"));
    let mut args = vec!["match", "--game", "slime", "--bot", &bot];
    for judge in ["judge:greedy_slime", "judge:jumper", "judge:corner_slime"] {
        args.extend(["--bot", judge]);
    }
    args.push("--quiet");
    check_lines(&run(&args), &bot);
    args.push("--json");
    let json: Value = serde_json::from_str(&run(&args)).unwrap();
    let times = &json["reply_times"][0];
    assert_eq!(times["bot"], bot.as_str(), "{json}");
    assert_eq!(times["first"]["count"], 1, "one table, one game: {json}");
    check_turns(&times["first"], 1, 1000);
    check_turns(&times["later"], 1, 1000);
}
