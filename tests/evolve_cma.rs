//! An evolve run tuned by CMA-ES (`cma: (...)` in the config): it runs to a
//! champion with the GA's outputs, its checkpoint holds CMA-ES's state, a
//! run killed with SIGKILL resumes to the uninterrupted result, and a run
//! folder whose checkpoint and config name different tuners is refused.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::{checkpointed_generation, gridtune, isolation_config, root, run_outputs, scratch, stderr, stdout};

fn config(dir: &Path, games: u64) -> String {
    isolation_config(
        &dir.join("evolve.ron"),
        &format!("seed: 5, games: {games}, eval_every: 2, nodes: 300"),
        "cma: (twin_pairs: 2, sigma_init: 0.25)",
    )
}

fn evolve(config: &str, out: &Path) -> std::process::Output {
    gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--config",
            config,
            "--out",
            &out.display().to_string(),
        ],
        root(),
    )
}

/// The run's results without the wall-clock columns and fields.
fn results(run: &Path) -> String {
    run_outputs(run, &["genomes.csv", "best.ron"])
}

#[test]
fn a_cma_run_tunes_checkpoints_and_resumes_exactly() {
    let dir = scratch("evolve-cma");
    let config = config(&dir, 600);
    let whole = dir.join("whole");
    let o = evolve(&config, &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("games for CMA-ES"), "{out}");
    assert!(out.contains("CMA-ES mean"), "{out}");
    let checkpoint = std::fs::read_to_string(whole.join("checkpoint.ron")).unwrap();
    assert!(
        checkpoint.contains("cma: (") && !checkpoint.contains("ga: ("),
        "{checkpoint}"
    );
    assert!(checkpoint.contains("cov:"), "{checkpoint}");
    // Several generations, each rating its offspring and its mean against
    // the start genome; the scale anchor (`own_mobility`) stays at 10.
    let genomes = std::fs::read_to_string(whole.join("genomes.csv")).unwrap();
    for role in ["reference", "island 0 mean", "island 0 offspring"] {
        assert!(genomes.contains(role), "no {role} in\n{genomes}");
    }
    let generations: std::collections::BTreeSet<&str> =
        genomes.lines().skip(1).filter_map(|l| l.split(',').next()).collect();
    assert!(generations.len() >= 4, "{generations:?}");
    let rows = std::fs::read_to_string(whole.join("generations.csv")).unwrap();
    assert!(rows.lines().count() >= 3, "{rows}");
    let best = std::fs::read_to_string(whole.join("best.ron")).unwrap();
    assert!(best.contains("\"own_mobility\": 10,"), "{best}");
    assert!(best.contains("CMA-ES mean"), "{best}");
    let page = std::fs::read_to_string(whole.join("report.html")).unwrap();
    assert!(
        page.contains("CMA-ES with noise handling"),
        "the report shows the tuner's settings"
    );
    let expected = results(&whole);

    // Killed with SIGKILL during a later generation, then resumed.
    let run = dir.join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(["evolve", "--game", "isolation", "--config", &config, "--out"])
        .arg(&run)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while checkpointed_generation(&run) < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be killed"
        );
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "no checkpoint in 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let o = gridtune(
        &["evolve", "--game", "isolation", "--resume", &run.display().to_string()],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(results(&run), expected, "killed after generation 2 and resumed");
}

#[test]
fn a_checkpoint_of_another_tuner_and_a_budget_below_one_generation_are_refused() {
    let dir = scratch("evolve-cma-refused");
    // A GA run's folder whose config is edited to ask for CMA-ES.
    let ga_config = config(&dir, 500);
    let text = std::fs::read_to_string(&ga_config)
        .unwrap()
        .replace("cma: (twin_pairs: 2, sigma_init: 0.25),", "");
    std::fs::write(&ga_config, text).unwrap();
    let run = dir.join("ga-run");
    let o = evolve(&ga_config, &run);
    assert!(o.status.success(), "{}", stderr(&o));
    let saved = std::fs::read_to_string(run.join("config.ron")).unwrap();
    let edited = saved.replacen("verdict:", "cma: (),\n    verdict:", 1);
    assert_ne!(saved, edited);
    std::fs::write(run.join("config.ron"), &edited).unwrap();
    let before = std::fs::read_to_string(run.join("checkpoint.ron")).unwrap();
    let o = gridtune(
        &["evolve", "--game", "isolation", "--resume", &run.display().to_string()],
        root(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("checkpoint.ron") && stderr(&o).contains("CMA-ES"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(run.join("checkpoint.ron")).unwrap(), before);

    // Too few games for one CMA-ES generation, refused before any folder.
    let small = config(&dir, 20);
    let out = dir.join("small");
    let o = evolve(&small, &out);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("`cma` settings"), "{}", stderr(&o));
    assert!(!out.exists());
}
