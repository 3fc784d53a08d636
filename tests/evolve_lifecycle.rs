//! An evolve run's life after its generations: a run killed with SIGKILL at
//! any point and resumed with `evolve --resume` ends with exactly the genomes,
//! logs and champion of an uninterrupted run with the same seed; and
//! `--promote` replaces best.ron only when the recommendation passes its SPRT.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::{checkpointed_generation, gridtune, isolation_config, root, run_outputs, scratch, stderr, stdout};

/// The run's results without the wall-clock columns and fields.
fn results(run: &Path) -> String {
    run_outputs(run, &["best.ron"])
}

fn config(dir: &Path) -> String {
    isolation_config(
        &dir.join("evolve.ron"),
        "seed: 9, games: 500, eval_every: 2, nodes: 300",
        "ga: (twin_pairs: 2, max_rounds: 2, hall_of_fame_interval: 2)",
    )
}

/// Starts the run, kills it with SIGKILL once `when` says so, then resumes it.
fn killed_and_resumed(dir: &Path, config: &str, name: &str, when: impl Fn(&Path, Duration) -> bool) -> String {
    let run = dir.join(name);
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(["evolve", "--game", "isolation", "--config", config, "--out"])
        .arg(&run)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !when(&run, started.elapsed()) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{name}: the run ended before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no chance to tidy up
    child.wait().unwrap();
    let o = gridtune(
        &["evolve", "--game", "isolation", "--resume", &run.display().to_string()],
        root(),
    );
    assert!(o.status.success(), "{name}: {}", stderr(&o));
    results(&run)
}

#[test]
fn a_run_killed_at_any_point_resumes_to_the_uninterrupted_result() {
    let dir = scratch("evolve-resume");
    let config = config(&dir);
    let whole = dir.join("whole");
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--config",
            &config,
            "--out",
            &whole.display().to_string(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let expected = results(&whole);
    // The scale anchor (`own_mobility`, the first weight) stays at the seed
    // genome's 10 in every genome the GA played and in the result.
    let genomes = std::fs::read_to_string(whole.join("genomes.csv")).unwrap();
    let anchors: Vec<&str> = genomes
        .lines()
        .skip(1)
        .filter_map(|l| l.rsplit(',').next()?.split_whitespace().next())
        .collect();
    assert!(!anchors.is_empty(), "{genomes}");
    assert!(anchors.iter().all(|&a| a == "10.00"), "{anchors:?}");
    let best = std::fs::read_to_string(whole.join("best.ron")).unwrap();
    assert!(best.contains("\"own_mobility\": 10,"), "{best}");

    // Before the first checkpoint: the config is written, no generation is.
    let early = killed_and_resumed(&dir, &config, "early", |run, _| run.join("config.ron").exists());
    assert_eq!(early, expected, "killed before the first checkpoint");
    // Just after a checkpoint.
    let after_one = killed_and_resumed(&dir, &config, "after-one", |run, _| checkpointed_generation(run) >= 1);
    assert_eq!(after_one, expected, "killed after generation 1");
    // In the middle of a later generation.
    let mid = killed_and_resumed(&dir, &config, "mid", |run, _| checkpointed_generation(run) >= 2);
    assert_eq!(mid, expected, "killed during generation 3");

    // Resuming a finished run changes nothing.
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--resume",
            &whole.display().to_string(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(results(&whole), expected);
}

#[test]
fn promote_replaces_best_ron_only_after_an_sprt_win() {
    let dir = scratch("evolve-promote");
    let config = config(&dir);
    let best = dir.join("genomes/isolation/best.ron");
    let promote = |out: &str| {
        let o = gridtune(
            &[
                "evolve",
                "--game",
                "isolation",
                "--config",
                &config,
                "--out",
                out,
                "--promote",
                "--promote-games",
                "400",
            ],
            &dir,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };

    // No incumbent: the champion is promoted as it is.
    let text = promote("first");
    assert!(text.contains("does not exist: nothing to test against"), "{text}");
    assert!(text.contains("promoted to genomes/isolation/best.ron"), "{text}");
    let first = std::fs::read_to_string(&best).unwrap();

    // The same run again, against its own recommendation as the incumbent:
    // no stronger than itself, so the SPRT keeps the incumbent.
    let text = promote("second");
    assert!(text.contains("<- recommended"), "{text}");
    assert!(text.contains("SPRT elo0 0 elo1 10"), "{text}");
    assert!(text.contains("H0 accepted"), "{text}");
    assert!(text.contains("kept genomes/isolation/best.ron"), "{text}");
    assert_eq!(std::fs::read_to_string(&best).unwrap(), first);
    let default = std::fs::read_to_string(root().join("genomes/isolation/default.ron")).unwrap();

    // An incumbent that seeks its own confinement loses at once.
    let weak = default
        .replace("\"own_mobility\": 10", "\"own_mobility\": -10")
        .replace("\"opp_mobility\": -12", "\"opp_mobility\": 12")
        .replace("\"territory\": 6", "\"territory\": -6");
    std::fs::write(&best, &weak).unwrap();
    let text = promote("third");
    assert!(
        text.contains("H1 accepted") && text.contains("stopped by SPRT"),
        "{text}"
    );
    assert!(text.contains("promoted to genomes/isolation/best.ron"), "{text}");
    let promoted = std::fs::read_to_string(&best).unwrap();
    assert!(promoted.contains("passed its SPRT against the incumbent"), "{promoted}");
}
