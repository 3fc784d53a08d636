//! `evolve --seeds`: one config run once per seed, each in its own folder,
//! then the champions ranked by a round robin among them, summarised in the
//! parent folder (issue 16, item 6).

use std::path::Path;

mod common;
use common::{gridtune, isolation_config, scratch, stderr, stdout};

fn config(dir: &Path) -> String {
    isolation_config(
        &dir.join("sweep.ron"),
        "seed: 5, games: 60, eval_every: 1, nodes: 100",
        "ga: (twin_pairs: 2, max_rounds: 2)",
    )
}

fn sweep(dir: &Path, seeds: &str, games: &str) -> std::process::Output {
    let config = config(dir);
    let args = [
        "evolve",
        "--game",
        "isolation",
        "--quiet",
        "--config",
        &config,
        "--seeds",
        seeds,
        "--sweep-games",
        games,
        "--out",
        "sweep",
    ];
    gridtune(&args, dir)
}

#[test]
fn each_seed_runs_in_its_folder_and_the_champions_are_ranked_head_to_head() {
    let dir = scratch("sweep");
    let o = sweep(&dir, "3,4", "6");
    assert!(o.status.success(), "{}", stderr(&o));
    let parent = dir.join("sweep");
    for seed in [3, 4] {
        let run = parent.join(format!("seed{seed}"));
        let config = std::fs::read_to_string(run.join("config.ron")).unwrap();
        assert!(config.contains(&format!("seed: {seed},")), "{config}");
        assert!(run.join("best.ron").is_file() && run.join("report.html").is_file());
    }
    let out = stdout(&o);
    assert!(
        out.contains("rank  seed  games  score  Elo vs the others [95%]"),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "sweep summary: {}\n",
            Path::new("sweep").join("sweep.csv").display()
        )),
        "{out}"
    );

    let csv = std::fs::read_to_string(parent.join("sweep.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(
        csv.lines().next(),
        Some("rank,seed,games,score,elo,elo_lo,elo_hi,run"),
        "{csv}"
    );
    assert_eq!(rows.len(), 2, "{csv}");
    let mut seeds: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    seeds.sort();
    assert_eq!(seeds, ["3", "4"]);
    // Two champions: each played the other's 6 games; their scores add up to
    // one, their Elo mirror each other, and the first ranks first.
    let score = |r: &Vec<&str>| r[3].parse::<f64>().unwrap();
    let elo = |r: &Vec<&str>| r[4].parse::<f64>().unwrap();
    assert!(rows.iter().all(|r| r[2] == "6"), "{csv}");
    assert!((score(&rows[0]) + score(&rows[1]) - 1.0).abs() < 1e-3, "{csv}");
    assert!((elo(&rows[0]) + elo(&rows[1])).abs() < 0.2, "{csv}");
    assert!(elo(&rows[0]) >= elo(&rows[1]), "{csv}");
    assert_eq!((rows[0][0], rows[1][0]), ("1", "2"));

    let pairs = std::fs::read_to_string(parent.join("sweep_pairings.csv")).unwrap();
    let lines: Vec<&str> = pairs.lines().collect();
    assert_eq!(lines.len(), 2, "{pairs}");
    assert!(lines[1].starts_with("3,4,6,"), "{pairs}");
}

#[test]
fn a_sweep_needs_two_distinct_seeds_and_pairs_of_games() {
    let dir = scratch("sweep-bad");
    for (seeds, games, says) in [
        ("1", "4", "at least two seeds"),
        ("1,1", "4", "seed 1 twice"),
        ("1,2", "3", "--sweep-games 3"),
    ] {
        let o = sweep(&dir, seeds, games);
        assert_eq!(o.status.code(), Some(2), "{seeds} {games}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert!(!dir.join("sweep").exists(), "nothing written for bad input");
    }
}
