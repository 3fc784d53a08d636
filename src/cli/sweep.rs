//! `gridtune evolve --seeds 1,2,3`: the same config once per seed, each run
//! in its own folder under one parent, then the champions ranked by a round
//! robin among them (`gridtune::evolve::sweep`), written to the parent's
//! sweep.csv and sweep_pairings.csv.

use super::evolve::{run_one, EvolveArgs};
use super::play::games_bar;
use anyhow::Result;
use gridtune::bail_input;
use gridtune::evolve::start::{self, Launch, Overrides};
use gridtune::evolve::sweep::{self, Entry};
use gridtune::evolve::verdict::Verdict;
use gridtune::game::mix64;
use gridtune::games::GameKit;

pub fn run<G: GameKit>(a: &EvolveArgs, seeds: &[u64]) -> Result<()> {
    if seeds.len() < 2 {
        bail_input!("--seeds needs at least two seeds to compare, such as 1,2,3");
    }
    if let Some(s) = seeds
        .iter()
        .enumerate()
        .find_map(|(i, s)| seeds[..i].contains(s).then_some(s))
    {
        bail_input!("--seeds lists seed {s} twice");
    }
    if a.sweep_games == 0 || a.sweep_games % 2 == 1 {
        bail_input!(
            "--sweep-games {}: give a positive even number (both sides of each map)",
            a.sweep_games
        );
    }
    let parent = a.out.clone().unwrap_or_else(|| start::default_sweep_folder(G::NAME));
    let launches: Vec<Launch> = seeds
        .iter()
        .map(|&seed| Launch::New {
            config: a.config.clone(),
            overrides: Overrides {
                games: a.games,
                eval_every: a.eval_every,
                seed: Some(seed),
            },
            out: Some(parent.join(format!("seed{seed}"))),
        })
        .collect();
    // Every run's input and folder checked before the first starts.
    for launch in &launches {
        start::prepare::<G>(launch)?;
    }
    let mut entries = Vec::new();
    let mut config = None;
    for (&seed, launch) in seeds.iter().zip(&launches) {
        let run = run_one::<G>(a, launch)?;
        for line in run.verdict.iter().flat_map(Verdict::lines) {
            println!("{line}");
        }
        entries.push(Entry {
            seed,
            run: run.out.display().to_string(),
            weights: run.summary.champion.weights.clone(),
        });
        config.get_or_insert(run.config);
    }
    let Some(config) = config else {
        bail_input!("--seeds gave no seed");
    };
    let pairings = seeds.len() * (seeds.len() - 1) / 2;
    println!(
        "sweep: the {} champions head to head, {} games a pairing on generated maps at {} nodes a move",
        entries.len(),
        a.sweep_games,
        config.nodes
    );
    let bar = games_bar(
        a.quiet,
        "sweep round robin".into(),
        Some((pairings * a.sweep_games) as u64),
        |_| String::new(),
    );
    let seed = seeds.iter().fold(0, |h, &s| mix64(h ^ s));
    let (standings, pairs) = sweep::round_robin::<G>(&config, &entries, a.sweep_games, seed, |_| {})?;
    bar.finish();
    sweep::write_summary(&parent, &standings, &pairs)?;
    print!("{}", sweep::table(&standings));
    println!("sweep summary: {}", parent.join(sweep::SWEEP_CSV).display());
    Ok(())
}
