//! Issue 13's referee-side defects, each run as a user meets it: the CLI
//! binary with real bot processes (the submission bots, `sh:` one-liners and
//! tests/bots/faulty_bot.rs, built here with rustc).
//!
//! - an Ataxx side that must pass is not asked, and nothing panics on it;
//! - a Slime match honours --json, --replay and --fresh-maps, refuses --sprt,
//!   and reports its programs' failed turns;
//! - `replay` refuses a record whose result, end reason or detail the rules
//!   and the recorded faults contradict, naming the file and line;
//! - clear errors: a bots-file dir that does not exist, Ataxx's position
//!   errors without `Some(...)`, `perft --depth 0`.

use gridtune::games::ataxx::Ataxx;
use gridtune::games::prelude::*;
use gridtune::referee::BadReply;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{faulty_bot, gridtune, root, scratch, stderr, stdout};

const ATAXX_BOT: &str = env!("CARGO_BIN_EXE_ataxx-bot");

/// Black (x, to move) is walled in by white's pieces: x has no spawn or jump.
const MUST_PASS: &str = "xoo4/ooo4/ooo4/7/7/7/7 x 0 1\n";

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

#[test]
fn ataxx_move_for_a_side_that_must_pass_prints_the_pass_without_asking_the_bot() {
    let dir = scratch("hardening-ataxx-pass");
    let position = dir.join("P");
    std::fs::write(&position, MUST_PASS).unwrap();
    let position = position.display().to_string();
    for bot in [
        format!("cmd:{ATAXX_BOT}"),
        "sh:echo random".to_string(),
        "judge:random".into(),
    ] {
        let o = gridtune(
            &["move", "--game", "ataxx", "--bot", &bot, "--position", &position],
            root(),
        );
        assert_eq!(code(&o), Some(0), "{bot}: {}", stderr(&o));
        assert_eq!(stdout(&o), "pass\n", "{bot}");
        assert!(stderr(&o).contains("must pass"), "{bot}: {}", stderr(&o));
    }

    // A caller that does ask such a side gets a fault, not a panic.
    let (state, side) = Ataxx::parse_position(MUST_PASS).unwrap();
    let reply = Ataxx::read_reply(&state, side, "random", true, &mut |_| 0);
    assert!(matches!(reply, Err(BadReply::Illegal(_))), "{reply:?}");
}

/// The faulty bot crashing every Slime turn, with three judges.
fn slime_match(extra: &[&str]) -> Output {
    let faulty = format!("cmd:{} slime crash 0", faulty_bot().display());
    let mut args = vec![
        "match",
        "--game",
        "slime",
        "--bot",
        &faulty,
        "--bot",
        "judge:greedy_slime",
        "--bot",
        "judge:jumper",
        "--bot",
        "judge:corner_slime",
    ];
    args.extend_from_slice(extra);
    gridtune(&args, root())
}

#[test]
fn slime_match_honours_json_replay_and_fresh_maps_refuses_sprt_and_reports_faults() {
    let dir = scratch("hardening-slime-match");
    let replays = dir.join("replays");
    let replays_arg = replays.display().to_string();
    let o = slime_match(&[
        "--games",
        "2",
        "--fresh-maps",
        "--json",
        "--replay",
        &replays_arg,
        "--concurrency",
        "1",
    ]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&o)));
    assert_eq!(report["games"], 2, "{report}");
    assert!(
        report["maps"].as_str().unwrap().contains("generated"),
        "--fresh-maps plays generated maps: {report}"
    );
    let bots = report["bots"].as_array().unwrap();
    let faulty = bots
        .iter()
        .find(|b| b["bot"].as_str().unwrap().contains("slime crash 0"))
        .unwrap();
    assert!(faulty["faults"]["crash"].as_u64().unwrap() > 0, "{report}");
    let judge = bots.iter().find(|b| b["bot"] == "judge:jumper").unwrap();
    assert_eq!(judge["faults"]["crash"], 0, "{report}");
    assert!(
        stderr(&o).contains("failed") && stderr(&o).contains("crash"),
        "the faults are logged: {}",
        stderr(&o)
    );

    let mut files: Vec<PathBuf> = std::fs::read_dir(&replays)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "one replay per game");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(
        text.contains("seat 3 judge:corner_slime") && text.contains("  fault crash"),
        "{text}"
    );
    for f in &files {
        let shown = gridtune(&["replay", &f.display().to_string()], root());
        assert_eq!(code(&shown), Some(0), "{}", stderr(&shown));
    }

    // The table lists each bot's failed turns as two-seat matches list end reasons.
    let o = slime_match(&["--games", "1"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(table.contains("failed turns") && table.contains("crash:"), "{table}");

    let o = slime_match(&["--sprt", "0,10"]);
    assert_eq!(code(&o), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("--sprt needs a head-to-head of two bots"),
        "{}",
        stderr(&o)
    );
}

/// A two-seat Isolation match written as replays; returns the first file.
fn isolation_replay(dir: &Path, a: &str, b: &str) -> PathBuf {
    let replays = dir.join("replays");
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            a,
            "--bot",
            b,
            "--games",
            "2",
            "--nodes",
            "300",
            "--replay",
            &replays.display().to_string(),
        ],
        root(),
    );
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let path = replays.join("game00001.txt");
    let shown = gridtune(&["replay", &path.display().to_string()], root());
    assert_eq!(
        code(&shown),
        Some(0),
        "the untouched record replays: {}",
        stderr(&shown)
    );
    path
}

/// Writes `text` with its first `from` replaced by `to` as `name` and
/// replays it; the refusal must be a bad-input error naming the file and the
/// line of the tampered record that starts with `at`.
fn refused(dir: &Path, name: &str, text: &str, (from, to): (&str, &str), at: &str) -> String {
    assert!(text.contains(from), "`{from}` is not in the record:\n{text}");
    let tampered = text.replacen(from, to, 1);
    let found = tampered
        .find(&format!("\n{at}"))
        .unwrap_or_else(|| panic!("no line `{at}` in {name}"));
    let line = tampered[..found].matches('\n').count() + 2;
    let path = dir.join(name);
    std::fs::write(&path, tampered).unwrap();
    let o = gridtune(&["replay", &path.display().to_string()], root());
    assert_eq!(code(&o), Some(2), "{name} is accepted:\n{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:{line}:", path.display())),
        "{name}: the error names the file and line {line}: {err}"
    );
    err
}

#[test]
fn replay_refuses_results_end_reasons_and_details_the_rules_contradict() {
    let dir = scratch("hardening-replay");
    // The faulty bot answers its first turn, then sleeps far past the limit.
    let late = format!("cmd:{} isolation late 1", faulty_bot().display());
    let timeout = isolation_replay(&dir.join("timeout"), &late, "judge:mobility");
    let text = std::fs::read_to_string(&timeout).unwrap();
    assert!(text.contains("\nend timeout\n"), "{text}");
    let (seat, result) = if text.contains("\nresult 0 1\n") {
        (0, "result 0 1")
    } else {
        (1, "result 1 0")
    };
    assert!(text.contains(&format!("detail seat {seat}: timeout")), "{text}");
    let swapped = if seat == 0 { "result 1 0" } else { "result 0 1" };
    let err = refused(&dir, "swapped.txt", &text, (result, swapped), swapped);
    assert!(err.contains("the rules give"), "{err}");
    refused(&dir, "crash.txt", &text, ("\nend timeout", "\nend crash"), "end crash");
    refused(
        &dir,
        "normal.txt",
        &text,
        ("\nend timeout", "\nend normal"),
        "end normal",
    );
    refused(
        &dir,
        "detail.txt",
        &text,
        ("\ndetail seat", "\ndetail  seat"),
        "detail  seat",
    );

    let normal = isolation_replay(&dir.join("normal"), "judge:mobility", "judge:random_safe");
    let text = std::fs::read_to_string(&normal).unwrap();
    assert!(text.contains("\nend normal\n") && !text.contains("\ndetail"), "{text}");
    let err = refused(
        &dir,
        "to-timeout.txt",
        &text,
        ("\nend normal", "\nend timeout"),
        "end timeout",
    );
    assert!(err.contains("no failed turn"), "{err}");
    let added = "\nend normal\ndetail seat 0: crash on turn 1: x";
    refused(
        &dir,
        "added-detail.txt",
        &text,
        ("\nend normal", added),
        "detail seat 0",
    );
    // A fault invented on the last turn: a failed turn has no move in Isolation.
    let last_played = text.rfind("  played ").unwrap();
    let header = &text[text[..last_played].rfind("\nturn ").unwrap() + 1..last_played];
    let played = &text[last_played..];
    let played = &played[..played.find('\n').unwrap() + 1];
    let invented = format!("  fault timeout: no reply within 100 ms\n{played}");
    let err = refused(
        &dir,
        "invented-fault.txt",
        &text,
        (played, &invented),
        header.trim_end(),
    );
    assert!(err.contains("has no move"), "{err}");
    // Isolation has no pass: a tampered `played pass` is refused, not a panic.
    let first_played = text.find("  played ").unwrap();
    let header = &text[text[..first_played].rfind("\nturn ").unwrap() + 1..first_played];
    let pass = ("  played ", "  played pass\n  stderr | ");
    let err = refused(&dir, "pass.txt", &text, pass, header.trim_end());
    assert!(err.contains("cannot pass"), "{err}");
}

#[test]
fn a_bots_file_dir_that_does_not_exist_is_bad_input_naming_the_file_and_entry() {
    let dir = scratch("hardening-bots-dir");
    let bots = dir.join("bots.ron");
    std::fs::write(
        &bots,
        r#"[(name: "mine", spec: "sh:echo 1", dir: "no-such-folder"), (name: "mobility", spec: "judge:mobility")]"#,
    )
    .unwrap();
    let bots = bots.display().to_string();
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bots-file",
            &bots,
            "--bot",
            "mine",
            "--bot",
            "mobility",
            "--games",
            "2",
        ],
        root(),
    );
    assert_eq!(code(&o), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&bots)
            && err.contains("entry `mine`")
            && err.contains("no-such-folder")
            && err.contains("does not exist"),
        "{err}"
    );
}

#[test]
fn ataxx_position_errors_have_no_debug_text_and_perft_depth_0_counts_one() {
    let dir = scratch("hardening-ataxx-errors");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "5\nx\n").unwrap();
    let o = gridtune(
        &[
            "move",
            "--game",
            "ataxx",
            "--bot",
            "judge:alphabeta",
            "--position",
            &bad.display().to_string(),
        ],
        root(),
    );
    assert_eq!(code(&o), Some(2));
    let err = stderr(&o);
    assert!(!err.contains("Some(") && err.contains("found `5`"), "{err}");

    let fen = dir.join("start.fen");
    std::fs::write(&fen, "x5o/7/7/7/7/7/o5x x 0 1\n").unwrap();
    let o = gridtune(
        &[
            "perft",
            "--game",
            "ataxx",
            "--position",
            &fen.display().to_string(),
            "--depth",
            "0",
        ],
        root(),
    );
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let counts: Vec<String> = stdout(&o)
        .split_once(':')
        .unwrap()
        .1
        .split_whitespace()
        .take_while(|w| !w.starts_with('('))
        .map(str::to_string)
        .collect();
    assert_eq!(counts, ["1"], "{}", stdout(&o));

    // Bounds an SPRT cannot use are the user's input too.
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            "judge:mobility",
            "--bot",
            "judge:random_safe",
            "--sprt",
            "10,0",
        ],
        root(),
    );
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--sprt 10,0"), "{}", stderr(&o));
}
