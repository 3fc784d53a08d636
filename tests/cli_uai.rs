//! UAI engines as Ataxx bots (`uai:` specs) through the CLI: matches against
//! judges and against each other with each kind of limit, from the command
//! line and from a bots file; engines that crash, hang, answer garbage or an
//! illegal move, each losing with its fault; `move` asking an engine; and the
//! specs refused before any game.
//!
//! The engine is tests/bots/uai_engine.py, a scripted stand-in that plays the
//! first legal move and echoes what it is sent to stderr.

use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;
use common::{gridtune, root, scratch, stderr, stdout};

fn engine() -> PathBuf {
    root().join("tests/bots/uai_engine.py")
}

/// A `uai` spec with `limit` (empty for none) running the stand-in in `mode`.
fn uai(limit: &str, mode: &str) -> String {
    format!("uai{limit}:python3 {} {mode}", engine().display())
}

fn json(o: &std::process::Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

/// The match's end reasons as (reason, bot, games).
fn end_reasons(report: &Value) -> Vec<(String, String, u64)> {
    report["end_reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["reason"].as_str().unwrap().to_string(),
                e["bot"].as_str().unwrap_or("").to_string(),
                e["games"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Every replay file of a folder, in order, as text.
fn replays(dir: &Path) -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect()
}

/// `gridtune replay` accepts every file of the folder: each recorded move
/// is legal and written as the referee writes it, and the result follows.
fn replays_check(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let o = gridtune(&["replay", &path.display().to_string()], root());
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
    }
}

fn ataxx_match(bots: &[&str], extra: &[&str], cwd: &Path) -> std::process::Output {
    let mut args = vec!["match", "--game", "ataxx"];
    for bot in bots {
        args.extend(["--bot", bot]);
    }
    args.extend(extra);
    gridtune(&args, cwd)
}

#[test]
fn an_engine_searching_a_node_count_plays_full_games_on_the_current_fen() {
    let dir = scratch("uai-nodes");
    let replay_dir = dir.join("replays");
    let engine = uai("(nodes=500)", "chatter");
    let o = ataxx_match(
        &[&engine, "judge:greedy"],
        &["--games", "2", "--json", "--replay", &replay_dir.display().to_string()],
        root(),
    );
    let report = json(&o);
    assert_eq!(report["games"], 2);
    for (reason, _, _) in end_reasons(&report) {
        assert!(reason == "normal" || reason == "turn limit", "{report}");
    }
    assert_eq!(report["reply_times"][0]["bot"], engine.as_str(), "{report}");
    let texts = replays(&replay_dir);
    assert_eq!(texts.len(), 2);
    // The first map, holdout01, has walls: the engine (seat 0) is told them.
    assert!(texts[0].contains("seat 0 uai(nodes=500)"), "{}", texts[0]);
    assert!(
        texts[0].contains("turn 1 seat 0 ms ")
            && texts[0].contains("  stderr | position fen x5o/-6/7/7/7/6-/o5x x 0 1\n"),
        "{}",
        texts[0]
    );
    for text in &texts {
        // What the engine was sent, as it echoed it: the position with its
        // walls, and the limit.
        assert!(text.contains("  stderr | position fen "), "{text}");
        assert!(text.contains("go nodes 500"), "{text}");
        assert!(text.contains("  reply bestmove "), "{text}");
        assert!(!text.contains("  fault "), "{text}");
    }
    replays_check(&replay_dir);
}

#[test]
fn engines_from_a_bots_file_play_each_other_on_a_clock_and_on_move_time() {
    let dir = scratch("uai-bots-file");
    let bots = dir.join("bots.ron");
    let folder = engine().parent().unwrap().display().to_string();
    std::fs::write(
        &bots,
        format!(
            r#"[
    (name: "on-clock", spec: "uai(tc=5+0.05):python3 uai_engine.py ok", dir: "{folder}"),
    (name: "on-time", spec: "uai(movetime=20):python3 uai_engine.py ok", dir: "{folder}"),
]"#
        ),
    )
    .unwrap();
    let replay_dir = dir.join("replays");
    let o = ataxx_match(
        &["on-clock", "on-time"],
        &[
            "--bots-file",
            &bots.display().to_string(),
            "--games",
            "2",
            "--fresh-maps",
            "--json",
            "--replay",
            &replay_dir.display().to_string(),
        ],
        root(),
    );
    let report = json(&o);
    assert_eq!(report["bots"][0], "on-clock");
    assert_eq!(report["games"], 2);
    for (reason, _, _) in end_reasons(&report) {
        assert!(reason == "normal" || reason == "turn limit", "{report}");
    }
    // Reply times are reported against the move time and the clock's base.
    let limits: Vec<u64> = report["reply_times"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["later"]["limit_ms"].as_u64().unwrap())
        .collect();
    assert_eq!(limits, [5000, 20], "{report}");
    for text in replays(&replay_dir) {
        assert!(text.contains("go movetime 20"), "{text}");
        // The clock engine is told both clocks; after its first move its own
        // has been charged, and both get the increment.
        let clocks: Vec<&str> = text.lines().filter(|l| l.contains("go wtime ")).collect();
        assert!(clocks.len() > 2, "{text}");
        assert!(clocks.iter().all(|l| l.ends_with("winc 50 binc 50")), "{clocks:?}");
        assert!(clocks[0].contains("wtime 5000 btime 5000"), "{clocks:?}");
        assert!(!clocks[1].contains("wtime 5000 btime 5000"), "{clocks:?}");
    }
    replays_check(&replay_dir);
}

/// Each way an engine fails, after two good moves: (mode, limit, fault as
/// reported, what its reason says).
const FAULTS: [(&str, &str, &str, &str); 4] = [
    ("crash", "(nodes=500)", "crash", "exited with status 3 before replying"),
    (
        "hang",
        "(movetime=30)",
        "timeout",
        "no `bestmove` within 130 ms (movetime 30 + 100 ms margin)",
    ),
    ("garbage", "(nodes=500)", "invalid line", "`e9x` is not a move"),
    ("illegal", "(tc=3)", "illegal move", "is not a legal move here"),
];

#[test]
fn an_engine_that_fails_loses_every_game_with_its_reason() {
    for (mode, limit, fault, why) in FAULTS {
        let dir = scratch(&format!("uai-fault-{mode}"));
        let replay_dir = dir.join("replays");
        let engine = uai(limit, &format!("{mode} 2"));
        let o = ataxx_match(
            &[&engine, "judge:greedy"],
            &["--games", "2", "--json", "--replay", &replay_dir.display().to_string()],
            root(),
        );
        let report = json(&o);
        assert_eq!(report["losses"], 2, "{mode}: {report}");
        assert_eq!(
            end_reasons(&report),
            [(fault.to_string(), engine.clone(), 2)],
            "{mode}: {report}"
        );
        for text in replays(&replay_dir) {
            assert!(text.contains(&format!("  fault {fault}: ")), "{mode}: {text}");
            assert!(text.contains(why), "{mode}: {text}");
            assert!(
                text.contains("on turn 5: ") || text.contains("on turn 6: "),
                "{mode}: {text}"
            );
        }
        replays_check(&replay_dir);
    }
}

#[test]
fn an_engine_that_dies_before_its_handshake_loses_at_its_first_turn() {
    let engine = uai("", "crash 0");
    let o = ataxx_match(&[&engine, "judge:random"], &["--games", "2"], root());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains(&format!("crash by {engine}: 2")), "{text}");
}

#[test]
fn move_asks_an_engine_for_one_move() {
    let dir = scratch("uai-move");
    let position = dir.join("position.txt");
    std::fs::write(&position, "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1\n").unwrap();
    let engine = uai("(nodes=100)", "ok");
    let o = gridtune(
        &[
            "move",
            "--game",
            "ataxx",
            "--bot",
            &engine,
            "--position",
            &position.display().to_string(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "b1");
    assert!(stderr(&o).contains("go nodes 100"), "{}", stderr(&o));
}

#[test]
fn bad_uai_specs_are_refused_before_any_game_naming_what_is_wrong() {
    let dir = scratch("uai-bad");
    let cases = [
        ("ataxx", "uai(nodes=0):python3".to_string(), "`nodes=0`: nodes must be"),
        ("ataxx", "uai(movetime=fast):python3".into(), "`movetime=fast`"),
        ("ataxx", "uai(tc=40/60):python3".into(), "`tc=40/60`: tc must be"),
        ("ataxx", "uai(depth=9):python3".into(), "`depth=9` is not a limit"),
        ("ataxx", "uai(nodes=9:python3".into(), "has no closing `)`"),
        ("ataxx", "uai(nodes=9)".into(), "has no `:PROGRAM`"),
        ("ataxx", "uai:".into(), "no program after `:`"),
        ("ataxx", "uai(nodes=9):./no-such-engine".into(), "program `"),
        (
            "isolation",
            uai("", "ok"),
            "isolation has no UAI engines: `uai:` plays Ataxx engines",
        ),
        ("slime", "uai(nodes=0):python3".into(), "slime has no UAI engines"),
    ];
    for (game, spec, expected) in cases {
        let o = gridtune(
            &["match", "--game", game, "--bot", &spec, "--bot", "judge:random"],
            &dir,
        );
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", stderr(&o));
        let message = stderr(&o);
        assert!(message.contains(expected), "{spec}: {message}");
        assert!(message.contains(&format!("bot spec `{spec}`")), "{spec}: {message}");
    }
    let bots = dir.join("bots.ron");
    std::fs::write(
        &bots,
        r#"[(name: "timed", spec: "uai(nodes=9):python3 x.py", turn_ms: 50)]"#,
    )
    .unwrap();
    let o = gridtune(
        &[
            "match",
            "--game",
            "ataxx",
            "--bots-file",
            "bots.ron",
            "--bot",
            "timed",
            "--bot",
            "judge:random",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("entry `timed`: turn_ms and first_turn_ms do not apply to a UAI engine"),
        "{}",
        stderr(&o)
    );
}
