//! Program bots on the command line: a bots file, `cmd:` and `sh:` specs in
//! match, move and evolve; JSON output, SPRT stopping, replays written and
//! shown; and the errors a user sees for a bad program spec.

use serde_json::Value;
use std::path::Path;

mod common;
use common::{gridtune, root, scratch, stderr, stdout};

const ISOLATION_BOT: &str = env!("CARGO_BIN_EXE_isolation-bot");

fn json(o: &std::process::Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

fn write_bots_file(dir: &Path) -> String {
    let text = format!(
        r#"// Bots for the CLI tests.
[
    (name: "mine", spec: "cmd:{ISOLATION_BOT} --budget-ms 20", turn_ms: 200),
    (name: "mobility", spec: "judge:mobility"),
]
"#
    );
    let path = dir.join("bots.ron");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn match_referees_a_program_from_a_bots_file_and_writes_replays_that_replay_shows() {
    let dir = scratch("plugins-match");
    let bots = write_bots_file(&dir);
    let replays = dir.join("replays");
    let replays_arg = replays.display().to_string();
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
            "4",
            "--json",
            "--replay",
            &replays_arg,
        ],
        root(),
    );
    let report = json(&o);
    assert_eq!(report["bots"][0], "mine");
    assert_eq!(report["games"], 4);
    let wdl: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| report[k].as_u64().unwrap())
        .sum();
    assert_eq!(wdl, 4);
    let pairs: u64 = report["pentanomial"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(pairs, 2);
    assert_eq!(report["end_reasons"][0]["reason"], "normal", "{report}");

    let mut files: Vec<_> = std::fs::read_dir(&replays)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 4);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(
        text.starts_with("gridtune replay 1\ngame isolation\nseat 0 mine\nseat 1 judge:mobility\n"),
        "{text}"
    );
    assert!(
        text.contains("  stderr | turn 1:"),
        "the program's stderr is kept per turn:\n{text}"
    );

    let shown = gridtune(&["replay", &files[0].display().to_string()], root());
    assert!(shown.status.success(), "{}", stderr(&shown));
    let shown = stdout(&shown);
    assert!(
        shown.contains("seat 0: mine") && shown.contains("\nturn 1\n"),
        "{shown}"
    );
    assert!(shown.contains("\nresult ") && shown.contains("normal"), "{shown}");

    // A replay whose moves were tampered with is refused, naming the turn.
    let tampered = text.replacen("  played ", "  played 9", 1);
    let bad = dir.join("tampered.txt");
    std::fs::write(&bad, tampered).unwrap();
    let o = gridtune(&["replay", &bad.display().to_string()], root());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("turn 1 seat 0"), "{}", stderr(&o));
}

/// Mobility against random_safe under an SPRT, as JSON.
fn sprt_match(concurrency: &str) -> Value {
    json(&gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            "judge:mobility",
            "--bot",
            "judge:random_safe",
            "--games",
            "400",
            "--sprt",
            "0,100",
            "--json",
            "--concurrency",
            concurrency,
        ],
        root(),
    ))
}

#[test]
fn sprt_stops_the_match_as_soon_as_a_bound_is_crossed() {
    let report = sprt_match("2");
    assert_eq!(report["sprt"]["status"], "AcceptH1", "{report}");
    assert_eq!(report["stopped_early"], true);
    let games = report["games"].as_u64().unwrap();
    assert!(games < 400 && games.is_multiple_of(2), "{games} games");
    let llr = report["sprt"]["llr"].as_f64().unwrap();
    assert!(llr >= report["sprt"]["upper"].as_f64().unwrap(), "{report}");
    // The same match stops at the same pair whatever the concurrency.
    assert_eq!(sprt_match("1")["games"], games);
}

#[test]
fn a_crashing_program_loses_every_game_with_its_reason() {
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            "sh:echo starting >&2; exit 3",
            "--bot",
            "judge:random_safe",
            "--games",
            "4",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("crash by sh:echo starting >&2; exit 3: 4"), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("sh:echo") && !l.contains(" vs "))
        .unwrap();
    assert!(row.contains("    0     0      4    0.0"), "{row}");
}

#[test]
fn move_asks_a_program_for_one_turn() {
    let dir = scratch("plugins-move");
    let pos = dir.join("turn1.txt");
    std::fs::write(
        &pos,
        "7 7 0\nturn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n",
    )
    .unwrap();
    let spec = format!("cmd:{ISOLATION_BOT} --budget-ms 20");
    let o = gridtune(
        &[
            "move",
            "--game",
            "isolation",
            "--bot",
            &spec,
            "--position",
            &pos.display().to_string(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let legal = [
        "2 1", "2 0", "3 1", "4 0", "3 2", "3 3", "2 3", "1 3", "0 4", "1 1", "0 0",
    ];
    assert!(legal.contains(&stdout(&o).trim()), "{}", stdout(&o));
}

#[test]
fn evolve_plays_a_program_opponent_from_its_config() {
    let dir = scratch("plugins-evolve");
    let text = format!(
        r#"(
    game: "isolation",
    seed: 5,
    games: 60,
    eval_every: 1,
    seed_genome: "{root}/genomes/isolation/default.ron",
    train_maps: "{root}/maps/isolation/train",
    holdout_maps: "{root}/maps/isolation/train",
    judges: [("cmd:{ISOLATION_BOT} --budget-ms 5", 1.0), ("mobility", 1.0)],
    peer_share: 0.0,
    nodes: 100,
    holdout_rounds: 1,
    ga: (twin_pairs: 1, max_rounds: 1),
    verdict: (games: 0),
)"#,
        root = root().display()
    );
    let config = dir.join("evolve.ron");
    std::fs::write(&config, text).unwrap();
    let out = dir.join("run");
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--config",
            &config.display().to_string(),
            "--out",
            &out.display().to_string(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains(&format!("cmd:{ISOLATION_BOT} --budget-ms 5 ")), "{text}");
    assert!(out.join("best.ron").exists());
}

#[test]
fn bad_program_specs_are_refused_before_any_game() {
    let dir = scratch("plugins-bad");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--bot".into(), "cmd:./no-such-bot".into()],
            "program `./no-such-bot`",
        ),
        (vec!["--bot".into(), "cmd:bot 'open".into()], "unclosed `'`"),
        (
            vec!["--bot".into(), "mine".into()],
            "expected judge:NAME, genome:PATH[@ms=N|@nodes=N], cmd:PROGRAM ARGS, sh:COMMAND",
        ),
        (
            vec!["--bot".into(), "judge:mobility".into(), "--sprt".into(), "5,0".into()],
            "elo0 (5) must be less than elo1 (0)",
        ),
    ];
    for (extra, expected) in cases {
        let mut args: Vec<String> = ["match", "--game", "isolation", "--bot", "judge:random_safe"]
            .map(String::from)
            .to_vec();
        args.extend(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = gridtune(&args, &dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
    }
    let bots = dir.join("bots.ron");
    std::fs::write(&bots, r#"[(name: "x", spec: "judge:mobility", colour: "red")]"#).unwrap();
    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bots-file",
            "bots.ron",
            "--bot",
            "x",
            "--bot",
            "judge:random_safe",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bots file bots.ron") && stderr(&o).contains("colour"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn fresh_maps_give_every_pair_a_new_map_and_repeats_are_flagged() {
    let o = gridtune(
        &[
            "match",
            "--game",
            "lightcycles",
            "--bot",
            "judge:flood",
            "--bot",
            "judge:random_safe",
            "--fresh-maps",
            "--games",
            "6",
            "--json",
        ],
        root(),
    );
    let report = json(&o);
    assert_eq!(report["maps"], "3 generated maps");
    assert_eq!(report["games"], 6);
    assert!(!stderr(&o).contains("repeat each map"), "{}", stderr(&o));

    let o = gridtune(
        &[
            "match",
            "--game",
            "isolation",
            "--bot",
            "judge:mobility",
            "--bot",
            "judge:alphabeta",
            "--games",
            "44",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("44 games on 20 maps repeat each map"),
        "{}",
        stderr(&o)
    );
}
