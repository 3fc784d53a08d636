//! Harmless input the bots and the CLI must take, and careless input they
//! must refuse before anything is written (issue 13, defects 8, 9 and 10).

mod common;
use common::{gridtune, root, scratch, stderr, stdout};
use gridtune::evolve::EvolveConfig;
use gridtune::game::Game;
use gridtune::games::ataxx::protocol::parse_action;
use gridtune::games::isolation::protocol::{parse_reply, ReplyError};
use gridtune::games::isolation::rules::IsolationMoves;
use gridtune::games::prelude::*;
use gridtune::referee::command::BotsFile;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs a submission bot on all of `input` (stdin then closed) with a small budget.
fn run_bot(program: &str, extra: &[&str], input: &str) -> Output {
    let mut child = Command::new(program)
        .args(["--budget-ms", "20"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The text with a leading space or tab on every line and each single space
/// doubled or made a tab: what a contest server may send.
fn spaced(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let sep = if i % 2 == 0 { "  " } else { " \t" };
            format!("{}{}\t \n", if i % 2 == 0 { " " } else { "\t" }, l.replace(' ', sep))
        })
        .collect()
}

const ISOLATION_TURN: &str = "turn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n";

#[test]
fn isolation_bot_reads_tokens_separated_by_any_whitespace() {
    let input = spaced(&format!("7 7 0\n{ISOLATION_TURN}"));
    let out = run_bot(env!("CARGO_BIN_EXE_isolation-bot"), &[], &input);
    let (state, _) = gridtune::games::isolation::protocol::parse_position(ISOLATION_TURN).unwrap();
    let reply = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        parse_reply(&state, reply.trim_end_matches('\n')).is_ok(),
        "reply `{reply}`; stderr: {}",
        stderr(&out)
    );
}

#[test]
fn lightcycles_bot_reads_tokens_separated_by_any_whitespace() {
    let turn = "turn 1\n1 1\n3 2\n#####\n#0..#\n#..1#\n#####\n";
    let out = run_bot(
        env!("CARGO_BIN_EXE_lightcycles-bot"),
        &[],
        &spaced(&format!("5 4 0\n{turn}")),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // From (1, 1) only RIGHT and DOWN lead to a free cell.
    let reply = stdout(&out);
    assert!(
        ["RIGHT\n", "DOWN\n"].contains(&reply.as_str()),
        "reply `{reply}`; stderr: {}",
        stderr(&out)
    );
}

#[test]
fn ataxx_bot_reads_lines_with_surrounding_whitespace() {
    let rows = ".......\n.......\n.......\n.......\n.......\n.......\n0.....1\n";
    let input = spaced(&format!("0\n{rows}null\n2\na2\nb1\n"));
    let out = run_bot(env!("CARGO_BIN_EXE_ataxx-bot"), &[], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let reply = stdout(&out);
    let word = reply.trim_end_matches('\n');
    assert!(
        ["a2", "b1"].contains(&word),
        "reply `{reply}`; stderr: {}",
        stderr(&out)
    );
    assert!(parse_action(word).is_some());
}

#[test]
fn slime_bot_reads_an_argument_with_spaces_around_its_fields() {
    let arg = " 1, 1......2,........ ,........,........,........,........,........,\t3......4 ";
    let out = run_bot(env!("CARGO_BIN_EXE_slime-bot"), &[arg], "");
    let reply = stdout(&out);
    // Player 1's only slime is at (0, 0): a spread or a jump from it.
    let v: Vec<i64> = reply.split(' ').map(|t| t.trim_end().parse().unwrap()).collect();
    assert_eq!(&v[..2], &[0, 0], "reply `{reply}`; stderr: {}", stderr(&out));
    assert!(v[2] <= 2 && v[3] <= 2 && v[2] + v[3] > 0, "reply `{reply}`");
    assert!(!stderr(&out).contains("slime-bot:"), "{}", stderr(&out));
}

/// The referee still holds replies to the statement's form: only input is
/// read leniently.
#[test]
fn the_referee_still_reads_isolation_replies_as_the_statement_writes_them() {
    let (state, _) = gridtune::games::isolation::protocol::parse_position(ISOLATION_TURN).unwrap();
    let legal = {
        let mut ms = IsolationMoves::new();
        state.legal_moves(0, &mut ms);
        let (x, y) = ms.as_slice()[0].xy();
        (x, y)
    };
    assert!(parse_reply(&state, &format!("{} {}", legal.0, legal.1)).is_ok());
    for sloppy in [
        format!("{}  {}", legal.0, legal.1),
        format!("{}\t{}", legal.0, legal.1),
        format!(" {} {}", legal.0, legal.1),
    ] {
        assert!(
            matches!(parse_reply(&state, &sloppy), Err(ReplyError::Invalid(_))),
            "`{sloppy}`"
        );
    }
}

#[test]
fn gridtune_move_reads_a_position_with_tabs_and_doubled_spaces() {
    let dir = scratch("hardening-move-position");
    let file = dir.join("turn.txt");
    std::fs::write(&file, spaced(&format!("7 7 0\n{ISOLATION_TURN}"))).unwrap();
    let out = gridtune(
        &[
            "move",
            "--game",
            "isolation",
            "--bot",
            "judge:mobility",
            "--position",
            file.to_str().unwrap(),
        ],
        root(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn isolation_bot_with_no_legal_move_says_so() {
    // Player 0 at (0, 0) is boxed in by walls on its turn.
    let input = "3 3 0\nturn 1\n0 0\n2 2\n0##\n##.\n..1\n";
    let out = run_bot(env!("CARGO_BIN_EXE_isolation-bot"), &[], input);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("turn 1: no legal move from (0, 0)"), "{err}");
    assert!(!err.contains("not mine"), "{err}");
    // The statement: it has lost, so there is no move to print.
    assert_eq!(stdout(&out), "");
}

#[test]
fn isolation_bot_asked_on_the_other_players_turn_names_whose_turn_it_is() {
    let out = run_bot(
        env!("CARGO_BIN_EXE_isolation-bot"),
        &[],
        &format!("7 7 1\n{ISOLATION_TURN}"),
    );
    let err = stderr(&out);
    assert!(err.contains("turn 1 is player 0's, not mine (I am player 1)"), "{err}");
    assert_eq!(stdout(&out), "");
}

fn isolation_genome() -> String {
    std::fs::read_to_string(root().join("genomes/isolation/best.ron")).unwrap()
}

#[test]
fn a_genome_naming_a_weight_twice_is_refused_naming_it() {
    let dir = scratch("hardening-duplicate-weight");
    let text = isolation_genome();
    let line = text.lines().find(|l| l.contains("\"own_mobility\"")).unwrap();
    let doubled = text.replacen(line, &format!("{line}\n        \"own_mobility\": 0,"), 1);
    let genome = dir.join("doubled.ron");
    std::fs::write(&genome, doubled).unwrap();
    let bundle = dir.join("bot.rs");
    let out = gridtune(
        &[
            "freeze",
            "--game",
            "isolation",
            "--genome",
            genome.to_str().unwrap(),
            "--bundle",
            bundle.to_str().unwrap(),
        ],
        &dir,
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("doubled.ron") && err.contains("weight `own_mobility` is given twice"),
        "{err}"
    );
    assert!(!bundle.exists());
}

#[test]
fn files_starting_with_a_byte_order_mark_are_read() {
    let dir = scratch("hardening-bom");
    let genome = dir.join("bom.ron");
    std::fs::write(&genome, format!("\u{feff}{}", isolation_genome())).unwrap();
    let out = gridtune(
        &[
            "freeze",
            "--game",
            "isolation",
            "--genome",
            genome.to_str().unwrap(),
            "--bundle",
            dir.join("bot.rs").to_str().unwrap(),
        ],
        &dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));

    for game in ["isolation", "lightcycles", "slime", "ataxx"] {
        let maps = root().join(format!("maps/{game}/train"));
        let first = std::fs::read_dir(&maps)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .min()
            .unwrap();
        let map = dir.join(format!("{game}.txt"));
        std::fs::write(&map, format!("\u{feff}{}", std::fs::read_to_string(first).unwrap())).unwrap();
        let out = gridtune(&["maps", "check", "--game", game, map.to_str().unwrap()], &dir);
        assert!(out.status.success(), "{game}: {}{}", stdout(&out), stderr(&out));
    }

    let config = std::fs::read_to_string(root().join("genomes/isolation/evolve.ron")).unwrap();
    let judges = &gridtune::games::isolation::Isolation::judge_names();
    EvolveConfig::parse(&format!("\u{feff}{config}"), "evolve.ron", judges).unwrap();

    let bots = "\u{feff}[(name: \"m\", spec: \"mobility\")]";
    assert_eq!(BotsFile::parse(bots, Path::new(".")).unwrap().entries.len(), 1);
}

#[test]
fn maps_generate_refuses_to_overwrite_unless_forced() {
    let dir = scratch("hardening-maps-generate");
    let out_dir = dir.join("maps");
    std::fs::create_dir(&out_dir).unwrap();
    let mine = out_dir.join("map02.txt");
    std::fs::write(&mine, "my own map\n").unwrap();
    let args = [
        "maps",
        "generate",
        "--game",
        "isolation",
        "--count",
        "3",
        "--seed",
        "1",
        "--out",
        "maps",
    ];
    let out = gridtune(&args, &dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("map02.txt already exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "my own map\n");
    // Nothing at all is written when one file is refused.
    assert!(!out_dir.join("map01.txt").exists());

    let out = gridtune(&[&args[..], &["--force"]].concat(), &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(std::fs::read_to_string(&mine).unwrap(), "my own map\n");
}

#[test]
fn maps_generate_refuses_a_prefix_that_leaves_the_out_folder() {
    let dir = scratch("hardening-maps-prefix");
    std::fs::create_dir_all(dir.join("a/b")).unwrap();
    for prefix in ["../../x", "sub/x", "..", "..\\x"] {
        let out = gridtune(
            &[
                "maps", "generate", "--game", "ataxx", "--count", "1", "--seed", "1", "--out", "a/b", "--prefix",
                prefix,
            ],
            &dir,
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{prefix}: {err}");
        assert!(err.contains(&format!("--prefix `{prefix}`")), "{err}");
    }
    let written: Vec<_> = walk(&dir);
    assert!(written.is_empty(), "{written:?}");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            files.extend(walk(&e.path()));
        } else {
            files.push(e.path());
        }
    }
    files
}

#[test]
fn freeze_outside_the_project_refuses_and_creates_nothing() {
    let dir = scratch("hardening-freeze-outside");
    let genome = root().join("genomes/isolation/best.ron");
    let args = ["freeze", "--game", "isolation", "--genome", genome.to_str().unwrap()];
    let out = gridtune(&args, &dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("Cargo.toml") && err.contains("src/games/isolation/tuned.rs"),
        "{err}"
    );
    assert!(walk(&dir).is_empty() && !dir.join("src").exists());

    // A gridtune checkout without the game's folder: it names the folder.
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"gridtune\"\n").unwrap();
    let out = gridtune(&args, &dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("folder src/games/isolation"), "{err}");
    assert!(!dir.join("src").exists());
}

#[test]
fn freeze_refuses_a_budget_the_bot_cannot_run_with() {
    let dir = scratch("hardening-freeze-budget");
    let genome = root().join("genomes/ataxx/best.ron");
    let bundle = dir.join("bot.rs");
    for budget in ["0", "100000"] {
        let out = gridtune(
            &[
                "freeze",
                "--game",
                "ataxx",
                "--genome",
                genome.to_str().unwrap(),
                "--bundle",
                bundle.to_str().unwrap(),
                "--budget-ms",
                budget,
            ],
            &dir,
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("--budget-ms {budget} is out of range")), "{err}");
        assert!(!bundle.exists());
    }
}

fn check_map(game: &str, name: &str, text: &str) -> (Option<i32>, String) {
    let dir = scratch(&format!("hardening-map-{name}"));
    let file = dir.join(format!("{name}.txt"));
    std::fs::write(&file, text).unwrap();
    let out = gridtune(&["maps", "check", "--game", game, file.to_str().unwrap()], &dir);
    (out.status.code(), stdout(&out) + &stderr(&out))
}

#[test]
fn an_ataxx_map_with_no_first_move_is_refused() {
    let walled = "0#####1\n#######\n#######\n#######\n#######\n#######\n1#####0\n";
    let (code, text) = check_map("ataxx", "walled", walled);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("walled.txt:1: no empty square"), "{text}");

    // One empty square, out of every piece's reach.
    let out_of_reach = "0#####1\n#######\n#######\n###.###\n#######\n#######\n1#####0\n";
    let (code, text) = check_map("ataxx", "unreachable", out_of_reach);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("player 0 has no legal first move"), "{text}");
}

#[test]
fn a_slime_map_with_two_slimes_of_one_player_is_refused() {
    let board = "1......2\n........\n....1...\n........\n........\n........\n........\n3......4\n";
    let (code, text) = check_map("slime", "two", board);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("two.txt:3: second slime of player 1 at (2, 4); its first is at (0, 0)"),
        "{text}"
    );
}
