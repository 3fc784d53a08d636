//! The CLI's exit codes as the README documents them (0 success, 2 bad
//! input, 1 a failure while running), and stderr as a pipe receives it.

mod common;
use common::{gridtune, root, scratch, stderr};

#[test]
fn success_is_zero_bad_input_two_and_a_failure_while_running_one() {
    let dir = scratch("exit_codes");
    let ok = gridtune(&["perft", "--game", "isolation", "--depth", "1"], root());
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));

    let unknown_game = gridtune(&["perft", "--game", "chess", "--depth", "1"], root());
    assert_eq!(unknown_game.status.code(), Some(2), "{}", stderr(&unknown_game));
    assert!(stderr(&unknown_game).contains("unknown game `chess`"));

    let missing = dir.join("missing.txt");
    let no_file = gridtune(
        &[
            "move",
            "--game",
            "isolation",
            "--bot",
            "judge:mobility",
            "--position",
            missing.to_str().unwrap(),
        ],
        root(),
    );
    assert_eq!(no_file.status.code(), Some(2), "{}", stderr(&no_file));
    assert!(stderr(&no_file).contains("cannot read position"));
    assert!(stderr(&no_file).contains("missing.txt"));

    let bad_map = dir.join("bad.txt");
    std::fs::write(&bad_map, "7 7\n").unwrap();
    let bad = gridtune(
        &["maps", "check", "--game", "isolation", bad_map.to_str().unwrap()],
        root(),
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));

    // The input is fine; the bot program fails while it runs.
    let position = dir.join("turn1.txt");
    std::fs::write(
        &position,
        "turn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n",
    )
    .unwrap();
    let crash = gridtune(
        &[
            "move",
            "--game",
            "isolation",
            "--bot",
            "sh:exit 3",
            "--position",
            position.to_str().unwrap(),
        ],
        root(),
    );
    assert_eq!(crash.status.code(), Some(1), "{}", stderr(&crash));
    assert!(stderr(&crash).contains("crash"), "{}", stderr(&crash));
}

#[test]
fn stderr_that_is_not_a_terminal_gets_no_colour_codes() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args([
            "match",
            "--game",
            "isolation",
            "--bot",
            "judge:mobility",
            "--bot",
            "judge:random_safe",
            "--games",
            "2",
            "--quiet",
        ])
        .env("RUST_LOG", "info")
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("match finished"), "an info event reaches stderr: {err}");
    assert!(!err.contains('\u{1b}'), "no ANSI escape in piped stderr: {err:?}");
}
