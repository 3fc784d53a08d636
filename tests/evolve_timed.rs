//! Evolve's `timed: true`: the run's genome bots search as the submission
//! bot does, for its time a move, instead of the config's node budget.

use gridtune::evolve::EvolveConfig;
use gridtune::games::isolation::Isolation;
use gridtune::games::prelude::*;
use gridtune::search::Limits;

fn default_config(edit: impl Fn(&str) -> String) -> EvolveConfig {
    EvolveConfig::parse(
        &edit(Isolation::DEFAULT_CONFIG),
        "evolve.ron",
        &Isolation::judge_names(),
    )
    .unwrap()
}

#[test]
fn a_timed_run_searches_for_the_submission_bots_time() {
    let untimed = default_config(|t| t.to_string());
    assert!(!untimed.timed, "a config without the field searches a node budget");
    assert_eq!(untimed.limits::<Isolation>(), Limits::nodes(untimed.nodes));

    let timed = default_config(|t| t.replace("nodes: 1500,", "nodes: 1500, timed: true,"));
    let limits = timed.limits::<Isolation>();
    assert_eq!(limits, Isolation::submission_limits());
    assert!(limits.time.is_some(), "{limits:?}");
    assert_ne!(limits, Limits::nodes(1500));
}

#[test]
fn the_run_folder_config_keeps_timed_and_leaves_it_out_when_off() {
    let timed = default_config(|t| t.replace("nodes: 1500,", "nodes: 1500, timed: true,"));
    let text = timed.to_ron();
    assert!(text.contains("timed: true"), "{text}");
    let back = EvolveConfig::parse(&text, "config.ron", &Isolation::judge_names()).unwrap();
    assert_eq!(back, timed);
    let untimed = default_config(|t| t.to_string());
    let text = untimed.to_ron();
    assert!(!text.lines().any(|l| l.trim_start().starts_with("timed:")), "{text}");
}
