//! What `evolve --promote` does before it replaces genomes/<game>/best.ron:
//! confirm which genome to recommend, then test it against the incumbent.
//!
//! The last generation's best genome won a noisy ranking, so it is likely
//! lucky; CLOP and TBPSA recommend the population mean instead. Both are
//! scored again on the train maps with more games and the same seeds, and
//! the better one must then beat the incumbent head to head under an SPRT
//! before it is promoted: both sides of freshly generated maps, a new map
//! for each pair, since genome bots searching a node budget would replay
//! the same games on a fixed map set.

use super::{judge_rates_on, load_maps, opponents, EvolveConfig, RunSummary};
use crate::arena::match_report::MatchReport;
use crate::arena::stats::{Sprt, SprtStatus};
use crate::arena::{generated_maps, paired_schedule, runner};
use crate::bots::BotSpec;
use crate::game::mix64;
use crate::games::GameKit;
use crate::search::Limits;
use std::ops::ControlFlow;

/// Rounds of the judge tables each candidate plays on the train maps.
const CONFIRM_ROUNDS: usize = 2;

/// A candidate for the recommendation and its confirmed score.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub name: &'static str,
    pub weights: Vec<i32>,
    /// Contest score against the judges on the train maps, fresh games.
    pub score: f64,
}

/// The outcome of the promotion test.
#[derive(Clone, Debug)]
pub struct Promotion {
    pub candidates: Vec<Candidate>,
    /// Index of the recommended candidate.
    pub chosen: usize,
    /// The head-to-head match against the incumbent, SPRT included.
    pub test: MatchReport,
    /// Whether the SPRT accepted that the candidate is stronger.
    pub promote: bool,
}

/// The mean of the population, on each weight's grid.
pub fn population_mean<G: GameKit>(population: &[Vec<i32>]) -> Vec<i32> {
    G::PARAMS
        .iter()
        .enumerate()
        .map(|(i, p)| p.snap(population.iter().map(|w| w[i] as f64).sum::<f64>() / population.len() as f64))
        .collect()
}

/// Confirms the recommendation and plays it against `incumbent`'s weights
/// until the SPRT decides or `max_games` are played.
pub fn confirm_and_test<G: GameKit>(
    config: &EvolveConfig,
    summary: &RunSummary,
    incumbent: &[i32],
    sprt: &Sprt,
    max_games: usize,
) -> anyhow::Result<Promotion> {
    let limits = Limits::nodes(config.nodes);
    let judges = opponents::<G>(config)?;
    let train: Vec<G::Map> = load_maps::<G>(&config.train_maps)?.into_iter().map(|m| m.map).collect();
    let weight_sum: f64 = config.judges.iter().map(|j| j.1).sum();
    let mut candidates = vec![("champion", summary.champion.weights.clone())];
    let mean = population_mean::<G>(&summary.population);
    if mean != summary.champion.weights {
        candidates.push(("population mean", mean));
    }
    let candidates: Vec<Candidate> = candidates
        .into_iter()
        .map(|(name, weights)| {
            let seed = mix64(config.seed ^ 0xc0_4f1e);
            let (rates, _) = judge_rates_on::<G>(&train, &judges, &weights, limits, CONFIRM_ROUNDS, seed);
            let score = 100.0 * config.judges.iter().zip(&rates).map(|((_, w), r)| w * r).sum::<f64>()
                / weight_sum.max(f64::MIN_POSITIVE);
            Candidate { name, weights, score }
        })
        .collect();
    let chosen = (0..candidates.len())
        .max_by(|&a, &b| candidates[a].score.total_cmp(&candidates[b].score).then(b.cmp(&a)))
        .expect("at least the champion");

    let fresh = generated_maps::<G>(max_games / 2, mix64(config.seed ^ 0x5e27));
    let genome = |label: &str, weights: &[i32]| BotSpec::Genome {
        label: label.to_string(),
        weights: weights.to_vec(),
        limits,
    };
    let candidate = genome(candidates[chosen].name, &candidates[chosen].weights);
    let incumbent = genome("incumbent", incumbent);
    // At a larger table the two meet with judges in the other seats.
    let fillers: Vec<BotSpec> = judges.iter().take(G::PLAYERS - 2).cloned().collect();
    anyhow::ensure!(
        fillers.len() == G::PLAYERS - 2,
        "a head-to-head {} table needs {} judges beside the two genomes",
        G::NAME,
        G::PLAYERS - 2
    );
    let schedule = paired_schedule(fresh.len(), max_games / 2, mix64(config.seed ^ 0x5e28));
    let concurrency = rayon::current_num_threads();
    let mut test = MatchReport::new(
        G::NAME,
        [candidate.label(), incumbent.label()],
        format!("{} generated maps", fresh.len()),
        concurrency,
    );
    let started = std::time::Instant::now();
    let plan = runner::MatchPlan::<G> {
        maps: &fresh,
        a: &candidate,
        b: &incumbent,
        fillers: &fillers,
        schedule: &schedule,
        concurrency,
        log: false,
    };
    let pairs = runner::run_pairs(&plan, |a, b| {
        test.add_pair([a, b], Some(sprt));
        if test.decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    test.seconds = started.elapsed().as_secs_f64();
    test.stopped_early = pairs * 2 < schedule.len();
    let promote = test.sprt.is_some_and(|s| s.report.status == SprtStatus::AcceptH1);
    Ok(Promotion {
        candidates,
        chosen,
        test,
        promote,
    })
}
