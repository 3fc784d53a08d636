//! `gridtune fit` and evolve's `prefit`, run as a user runs them.

use gridtune::games::ataxx::Ataxx;
use gridtune::games::Tuning;
use gridtune::genome::Genome;
use std::path::Path;

mod common;
use common::{gridtune, root, scratch, stderr, stdout};

#[test]
fn fit_writes_a_genome_in_range_and_says_how_it_chose() {
    let dir = scratch("fit_writes_a_genome");
    let out = dir.join("fitted.ron");
    let o = gridtune(
        &[
            "fit",
            "--game",
            "ataxx",
            "--games",
            "40",
            "--nodes",
            "100",
            "--pairs",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "40 games",
        "start: loss (cross-entropy)",
        "validation loss",
        "score/pairs vs the start",
        "scores at 100 nodes",
        "wrote",
    ] {
        assert!(text.contains(line), "no `{line}` in\n{text}");
    }
    assert!(
        text.contains("chosen: ridge") || text.contains("no candidate beat"),
        "{text}"
    );
    // Where it is, on stderr, in order: the positions, the fit, then each
    // candidate's games and score (as many as the table has columns).
    let told = stderr(&o);
    let candidates = text
        .lines()
        .find(|l| l.starts_with("weight"))
        .unwrap()
        .matches("r=")
        .count();
    let expected = [
        "fit: playing 40 games at 100 nodes for positions".to_string(),
        "positions in".to_string(),
        format!("; {candidates} candidates on the ridge path"),
    ];
    let mut at = 0;
    for part in &expected {
        let found = told[at..]
            .find(part.as_str())
            .unwrap_or_else(|| panic!("no `{part}` after byte {at} of\n{told}"));
        at += found + part.len();
    }
    assert_eq!(
        told.matches("up to 4 pairs against the start at 100 nodes").count(),
        candidates,
        "{told}"
    );
    assert_eq!(told.matches(" against the start in ").count(), candidates, "{told}");
    assert!(
        told.contains(&format!("fit: candidate {candidates}/{candidates} (ridge ")),
        "{told}"
    );
    // Every weight is present, in range and on its grid: `load` checks it.
    Genome::load(&out, "ataxx", Ataxx::PARAMS).unwrap();
    let again = gridtune(
        &[
            "fit",
            "--game",
            "ataxx",
            "--games",
            "40",
            "--out",
            out.to_str().unwrap(),
        ],
        root(),
    );
    assert_eq!(again.status.code(), Some(2), "an existing --out is bad input");
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
}

#[test]
fn a_timed_choice_says_so_in_its_output_and_genome() {
    let dir = scratch("fit_timed_choice");
    let out = dir.join("fitted.ron");
    let o = gridtune(
        &[
            "fit",
            "--game",
            "isolation",
            "--games",
            "20",
            "--nodes",
            "100",
            "--ridges",
            "0.001",
            "--pairs",
            "1",
            "--choose-timed",
            "--out",
            out.to_str().unwrap(),
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("scores at 100 ms a move"), "{text}");
    let genome = std::fs::read_to_string(&out).unwrap();
    if text.contains("chosen: ridge") {
        assert!(genome.contains("chosen at 100 ms a move"), "{genome}");
    } else {
        assert!(text.contains("no candidate beat"), "{text}");
    }
}

#[test]
fn fit_refuses_settings_out_of_range() {
    let dir = scratch("fit_refuses_settings");
    let out = dir.join("x.ron");
    for args in [&["--games", "3"][..], &["--ridges", "-1"], &["--nodes", "0"]] {
        let mut all = vec!["fit", "--game", "isolation", "--out", out.to_str().unwrap()];
        all.extend_from_slice(args);
        let o = gridtune(&all, root());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!out.exists());
    }
    // A leaf search needs two players taking turns, and a bounded depth.
    for (game, depth) in [("slime", "2"), ("lightcycles", "1"), ("isolation", "9")] {
        let all = [
            "fit",
            "--game",
            game,
            "--leaf-depth",
            depth,
            "--out",
            out.to_str().unwrap(),
        ];
        let o = gridtune(&all, root());
        assert_eq!(o.status.code(), Some(2), "{game} {depth}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("leaf_depth {depth}")), "{}", stderr(&o));
        assert!(!out.exists());
    }
}

/// A prefit a game cannot play is refused before the run folder is made.
#[test]
fn evolve_refuses_a_leaf_search_in_a_simultaneous_game() {
    let dir = scratch("evolve_prefit_leaf");
    let config = dir.join("slime.ron");
    let text = std::fs::read_to_string(root().join("genomes/slime/evolve.ron")).unwrap();
    let text = text.replace("prefit: (", "prefit: (leaf_depth: 2, ");
    assert!(
        text.contains("leaf_depth: 2"),
        "the default Slime config has no prefit to change"
    );
    std::fs::write(&config, text).unwrap();
    let run = dir.join("run");
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "slime",
            "--config",
            config.to_str().unwrap(),
            "--out",
            run.to_str().unwrap(),
        ],
        root(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("prefit: leaf_depth 2"), "{}", stderr(&o));
    assert!(!run.exists());
}

/// A run with `prefit` starts its GA from the fitted genome, keeps it in
/// prefit.ron, and resumes from there.
#[test]
fn evolve_prefit_writes_its_start_genome() {
    let dir = scratch("evolve_prefit");
    let config = dir.join("isolation.ron");
    std::fs::write(
        &config,
        format!(
            r#"(
    game: "isolation",
    seed: 3,
    games: 400,
    eval_every: 4,
    seed_genome: "{root}/genomes/isolation/default.ron",
    train_maps: "{root}/maps/isolation/train",
    holdout_maps: "{root}/maps/isolation/holdout",
    judges: [("random_safe", 1.0), ("mobility", 1.0)],
    peer_share: 0.2,
    nodes: 150,
    holdout_rounds: 0,
    prefit: (games: 30, nodes: 100, choose_pairs: 3),
    verdict: (games: 0),
    ga: (twin_pairs: 2, max_rounds: 2),
)"#,
            root = root().display()
        ),
    )
    .unwrap();
    let run = dir.join("run");
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--config",
            config.to_str().unwrap(),
            "--out",
            run.to_str().unwrap(),
            "--quiet",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let prefit = Genome::load(
        &run.join("prefit.ron"),
        "isolation",
        gridtune::games::isolation::Isolation::PARAMS,
    )
    .unwrap();
    let log = std::fs::read_to_string(run.join("run.log")).unwrap();
    assert!(log.contains("prefit: 30 games"), "{log}");
    // The stages before it, as they began.
    let playing = log
        .find("prefit: playing 30 games at 100 nodes for positions")
        .expect(&log);
    let fitted = log.find("candidates on the ridge path").expect(&log);
    assert!(playing < fitted, "{log}");
    // The first generation's reference is the GA's start: the prefit genome.
    let genomes = std::fs::read_to_string(run.join("genomes.csv")).unwrap();
    assert!(first_reference_matches(&genomes, &prefit), "{genomes}");
    assert!(Path::new(&run.join("best.ron")).exists());
}

/// Whether genomes.csv's first reference row holds `genome`'s weights
/// (its last column: the weights, space-separated).
fn first_reference_matches(csv: &str, genome: &Genome) -> bool {
    let Some(row) = csv.lines().find(|l| l.split(',').nth(1) == Some("reference")) else {
        return false;
    };
    let weights: Vec<f64> = row
        .rsplit(',')
        .next()
        .unwrap()
        .split(' ')
        .map(|w| w.parse().unwrap())
        .collect();
    weights == genome.weights.iter().map(|&w| f64::from(w)).collect::<Vec<_>>()
}
