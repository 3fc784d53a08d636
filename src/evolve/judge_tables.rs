//! The champion's games against the judges: judge tables (every judge
//! combination, map and seat), played in parallel, and its rate against each
//! judge and contest score.

use super::config::EvolveConfig;
use super::faults::FaultTally;
use crate::arena;
use crate::arena::executor::{Executor, GameTask};
use crate::bots::BotSpec;
use crate::game::{mix64, Outcome};
use crate::games::GameKit;
use crate::search::Limits;
use anyhow::Context;

/// Who sits in a seat of a scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entrant {
    Genome(usize),
    Judge(usize),
}

/// One game to play while scoring a generation: who sits where, on which
/// map, with which seed.
#[derive(Clone, Debug)]
struct Job {
    seats: Vec<Entrant>,
    map: usize,
    seed: u64,
}

/// Points won and games played.
type Tally = (f64, u32);

/// Each genome's points per judge it sat with.
struct Tallies {
    judges: Vec<Vec<Tally>>,
}

impl Tallies {
    /// Credits each genome seat's points to every judge at its table.
    fn new(genomes: usize, judges: usize, jobs: &[Job], outcomes: &[Outcome]) -> Self {
        let mut t = Tallies {
            judges: vec![vec![(0.0, 0); judges]; genomes],
        };
        for (job, outcome) in jobs.iter().zip(outcomes) {
            for (seat, entrant) in job.seats.iter().enumerate() {
                let Entrant::Genome(g) = *entrant else { continue };
                let points = outcome.points[seat] as f64;
                for other in &job.seats {
                    if let Entrant::Judge(j) = *other {
                        t.judges[g][j].0 += points;
                        t.judges[g][j].1 += 1;
                    }
                }
            }
        }
        t
    }
}

fn rate((points, games): Tally) -> f64 {
    if games == 0 {
        0.0
    } else {
        points / games as f64
    }
}

/// Plays the jobs on `executor`; outcomes come back in job order, with the
/// judges' faults.
fn play_jobs<G: GameKit>(
    executor: &dyn Executor<G>,
    maps: &[G::Map],
    genomes: &[BotSpec],
    judges: &[BotSpec],
    jobs: &[Job],
) -> (Vec<Outcome>, FaultTally) {
    let tasks: Vec<GameTask> = jobs
        .iter()
        .map(|job| GameTask {
            map: job.map,
            seats: job
                .seats
                .iter()
                .map(|e| match *e {
                    Entrant::Genome(g) => &genomes[g],
                    Entrant::Judge(j) => &judges[j],
                })
                .collect(),
            seed: job.seed,
        })
        .collect();
    let mut tally = FaultTally::new(judges.len());
    let outcomes = jobs
        .iter()
        .zip(executor.play(maps, &tasks))
        .map(|(job, game)| {
            let judge_seats: Vec<Option<usize>> = job
                .seats
                .iter()
                .map(|e| match *e {
                    Entrant::Judge(j) => Some(j),
                    Entrant::Genome(_) => None,
                })
                .collect();
            tally.record(&game, &judge_seats);
            game.outcome()
        })
        .collect();
    (outcomes, tally)
}

/// The contest score of per-judge rates: `Σ weight × rate`, normalised to
/// 0-100.
pub fn contest_score(config: &EvolveConfig, rates: &[f64]) -> f64 {
    let total: f64 = config.judges.iter().map(|j| j.1).sum();
    if total > 0.0 {
        100.0 * config.judges.iter().zip(rates).map(|((_, w), r)| w * r).sum::<f64>() / total
    } else {
        0.0
    }
}

/// Judge tables: for each genome, each judge combination, each map and each
/// seat, one game; the seed depends on the combination and map only, so
/// every genome scored this way meets the same luck.
fn judge_tables<G: GameKit>(genomes: usize, maps: usize, judges: usize, seed: u64) -> Vec<Job> {
    let combos = arena::combinations(judges, G::PLAYERS - 1);
    let mut jobs = Vec::new();
    for genome in 0..genomes {
        for (k, combo) in combos.iter().enumerate() {
            for map in 0..maps {
                let seed = mix64(seed ^ mix64((k * maps + map) as u64 + 1));
                for seat in 0..G::PLAYERS {
                    let mut seats: Vec<Entrant> = combo.iter().map(|&j| Entrant::Judge(j)).collect();
                    seats.insert(seat, Entrant::Genome(genome));
                    jobs.push(Job { seats, map, seed });
                }
            }
        }
    }
    jobs
}

/// The config's opponents as bots: a judge clone's bare name, or any spec.
pub fn opponents<G: GameKit>(config: &EvolveConfig) -> anyhow::Result<Vec<BotSpec>> {
    let bots = match &config.bots {
        Some(path) => Some(crate::referee::command::BotsFile::load(path).map_err(anyhow::Error::msg)?),
        None => None,
    };
    let ctx = crate::bots::SpecContext {
        bots: bots.as_ref(),
        ..crate::bots::SpecContext::new(config.limits::<G>())
    };
    config
        .judges
        .iter()
        .map(|(name, _)| {
            let spec = if G::is_judge(name) {
                format!("judge:{name}")
            } else {
                name.clone()
            };
            BotSpec::parse::<G>(&spec, &ctx).with_context(|| format!("opponent `{name}` in the evolve config"))
        })
        .collect()
}

/// A genome's rate against each judge on `maps` (the holdout maps, which
/// no genome trains on, or the train maps to confirm a champion): `rounds`
/// times every map, judge combination and seat, seeded from `seed` so every
/// genome scored this way meets the same luck. Returns the rates in config
/// order, the games played and the judges' faults.
pub fn judge_rates_on<G: GameKit>(
    executor: &dyn Executor<G>,
    maps: &[G::Map],
    judges: &[BotSpec],
    weights: &[i32],
    limits: Limits,
    rounds: usize,
    seed: u64,
) -> (Vec<f64>, usize, FaultTally) {
    let me = [BotSpec::Genome {
        label: "champion".into(),
        weights: weights.to_vec(),
        limits,
    }];
    let jobs: Vec<Job> = (0..rounds)
        .flat_map(|round| judge_tables::<G>(1, maps.len(), judges.len(), mix64(seed ^ round as u64)))
        .collect();
    let (outcomes, faults) = play_jobs::<G>(executor, maps, &me, judges, &jobs);
    let tallies = Tallies::new(1, judges.len(), &jobs, &outcomes);
    (tallies.judges[0].iter().map(|&t| rate(t)).collect(), jobs.len(), faults)
}
