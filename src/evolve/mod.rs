//! The evolution loop: a population of genomes plays the judge clones and
//! itself on the training maps, the fittest breed, and every generation is
//! logged, plotted and checkpointed as the run's best genome.

pub mod config;
pub mod operators;

pub use config::EvolveConfig;

use crate::arena::{self, play_seated};
use crate::bots::BotSpec;
use crate::game::{mix64, Outcome};
use crate::games::GameKit;
use crate::genome::Genome;
use crate::maps::{load_dir, NamedMap};
use crate::search::Limits;
use anyhow::Context;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// What one generation measured.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationStats {
    pub generation: u32,
    pub best: f64,
    pub mean: f64,
    pub median: f64,
    /// The best genome's rate against each configured judge, in config order.
    pub judge_rates: Vec<f64>,
    /// The best genome's rate against the population.
    pub peer_rate: f64,
    pub games: usize,
    pub seconds: f64,
    /// The best genome's weights.
    pub best_weights: Vec<i32>,
}

/// A finished run.
pub struct RunSummary {
    pub champion: Genome,
    pub history: Vec<GenerationStats>,
    /// The champion's rate against each judge on the holdout maps.
    pub holdout: Vec<(String, f64)>,
    pub seconds: f64,
    pub games: usize,
}

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

/// Each genome's points per judge it sat with, and against its peers.
struct Tallies {
    judges: Vec<Vec<Tally>>,
    peers: Vec<Tally>,
}

impl Tallies {
    /// Credits each genome seat's points to every judge at its table, and to
    /// its peer record when another genome sat there too.
    fn new(genomes: usize, judges: usize, jobs: &[Job], outcomes: &[Outcome]) -> Self {
        let mut t = Tallies {
            judges: vec![vec![(0.0, 0); judges]; genomes],
            peers: vec![(0.0, 0); genomes],
        };
        for (job, outcome) in jobs.iter().zip(outcomes) {
            for (seat, entrant) in job.seats.iter().enumerate() {
                let Entrant::Genome(g) = *entrant else { continue };
                let points = outcome.points[seat] as f64;
                let mut with_peer = false;
                for other in &job.seats {
                    match *other {
                        Entrant::Judge(j) => {
                            t.judges[g][j].0 += points;
                            t.judges[g][j].1 += 1;
                        }
                        Entrant::Genome(h) => with_peer |= h != g,
                    }
                }
                if with_peer {
                    t.peers[g].0 += points;
                    t.peers[g].1 += 1;
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

/// Plays the jobs in parallel; outcomes come back in job order.
fn play_jobs<G: GameKit>(maps: &[G::Map], genomes: &[BotSpec], judges: &[BotSpec], jobs: &[Job]) -> Vec<Outcome> {
    jobs.par_iter()
        .map(|job| {
            let seats: Vec<&BotSpec> = job
                .seats
                .iter()
                .map(|e| match *e {
                    Entrant::Genome(g) => &genomes[g],
                    Entrant::Judge(j) => &judges[j],
                })
                .collect();
            play_seated::<G>(&maps[job.map], &seats, job.seed, false).outcome
        })
        .collect()
}

/// Runs evolution as configured, writing the run folder `out`; `report` is
/// called after each generation (the CLI prints its one-line summary).
pub fn run<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    mut report: impl FnMut(&GenerationStats),
) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    anyhow::ensure!(
        config.peer_weight == 0.0 || config.population >= G::PLAYERS,
        "population = {} cannot fill a {}-seat peer table: grow it or set peer_weight to 0",
        config.population,
        G::PLAYERS
    );
    anyhow::ensure!(
        config.peer_weight == 1.0 || config.judges.len() + 1 >= G::PLAYERS,
        "{} judges cannot fill a {}-seat table beside the genome",
        config.judges.len(),
        G::PLAYERS
    );
    let train = load_maps::<G>(&config.train_maps)?;
    let seed_genome = Genome::load(&config.seed_genome, G::NAME, G::PARAMS)?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create run folder {}", out.display()))?;
    crate::fsutil::write_atomic(&out.join("config.ron"), config.to_ron().as_bytes())
        .with_context(|| format!("cannot write {}", out.join("config.ron").display()))?;

    let limits = Limits::nodes(config.nodes);
    let judges = opponents::<G>(config)?;
    let judge_weight_sum: f64 = config.judges.iter().map(|j| j.1).sum();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);

    // The seed genome and mutants of it, wider-spread than later mutations.
    let mut population: Vec<Vec<i32>> = vec![seed_genome.weights.clone()];
    while population.len() < config.population {
        let mut w = seed_genome.weights.clone();
        operators::mutate(
            &mut w,
            G::PARAMS,
            config.mutation_rate.max(0.5),
            config.mutation_scale * 2.0,
            &mut rng,
        );
        population.push(w);
    }

    let mut history = Vec::new();
    let mut total_games = 0;
    let maps: Vec<G::Map> = train.iter().map(|m| m.map.clone()).collect();
    for generation in 1..=config.generations {
        let gen_started = Instant::now();
        let gen_seed = mix64(config.seed ^ mix64(generation as u64));
        let jobs = schedule::<G>(config, population.len(), maps.len(), judges.len(), gen_seed, &mut rng);
        let specs: Vec<BotSpec> = population
            .iter()
            .map(|w| BotSpec::Genome {
                label: String::new(),
                weights: w.clone(),
                limits,
            })
            .collect();
        let outcomes = play_jobs::<G>(&maps, &specs, &judges, &jobs);
        total_games += jobs.len();

        let n = population.len();
        let tallies = Tallies::new(n, judges.len(), &jobs, &outcomes);
        let fitness: Vec<f64> = (0..n)
            .map(|i| {
                let contest: f64 = if judge_weight_sum > 0.0 {
                    config
                        .judges
                        .iter()
                        .zip(&tallies.judges[i])
                        .map(|((_, w), &t)| w * rate(t))
                        .sum::<f64>()
                        / judge_weight_sum
                } else {
                    0.0
                };
                100.0 * ((1.0 - config.peer_weight) * contest + config.peer_weight * rate(tallies.peers[i]))
            })
            .collect();

        let mut order: Vec<usize> = (0..n).collect();
        // Ties keep population order, so the run does not depend on sort details.
        order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
        let best = order[0];
        let mut sorted: Vec<f64> = fitness.clone();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let stats = GenerationStats {
            generation,
            best: fitness[best],
            mean: fitness.iter().sum::<f64>() / n as f64,
            median,
            judge_rates: tallies.judges[best].iter().map(|&t| rate(t)).collect(),
            peer_rate: rate(tallies.peers[best]),
            games: jobs.len(),
            seconds: gen_started.elapsed().as_secs_f64(),
            best_weights: population[best].clone(),
        };
        history.push(stats.clone());
        write_outputs::<G>(config, out, &history)?;
        report(&stats);

        if generation < config.generations {
            population = next_generation::<G>(config, &population, &fitness, &order, &mut rng);
        }
    }

    let last = history.last().expect("at least one generation");
    let champion = Genome {
        weights: last.best_weights.clone(),
    };
    let holdout = if config.holdout_rounds > 0 {
        holdout_rates::<G>(config, &champion, limits)?
    } else {
        Vec::new()
    };
    if !holdout.is_empty() {
        let mut csv = String::from("judge,rate\n");
        for (name, r) in &holdout {
            csv.push_str(&format!("{name},{r:.4}\n"));
        }
        crate::fsutil::write_atomic(&out.join("holdout.csv"), csv.as_bytes())?;
    }
    Ok(RunSummary {
        champion,
        history,
        holdout,
        seconds: started.elapsed().as_secs_f64(),
        games: total_games,
    })
}

fn load_maps<G: GameKit>(dir: &Path) -> anyhow::Result<Vec<NamedMap<G::Map>>> {
    Ok(load_dir(dir, G::parse_map)?)
}

/// Every genome sits with every combination of `PLAYERS - 1` judges (one
/// judge in a two-player game), in every seat, on every train map, with the
/// same seeds for every genome (common random numbers: luck cannot separate
/// two genomes); and, with peers on, at `peer_opponents` tables of population
/// members, every seating, on one random train map each.
fn schedule<G: GameKit>(
    config: &EvolveConfig,
    population: usize,
    maps: usize,
    judges: usize,
    gen_seed: u64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Job> {
    let mut jobs = judge_tables::<G>(population, maps, judges, gen_seed);
    if config.peer_weight > 0.0 {
        // A random ring: member t meets members t + k, t + 2k, ... .
        let mut ring: Vec<usize> = (0..population).collect();
        for i in (1..ring.len()).rev() {
            ring.swap(i, rng.random_range(0..=i));
        }
        for t in 0..population {
            for k in 1..=config.peer_opponents {
                let members: Vec<usize> = (0..G::PLAYERS).map(|i| ring[(t + i * k) % population]).collect();
                let map = rng.random_range(0..maps);
                let seed = rng.random::<u64>();
                for rotation in 0..G::PLAYERS {
                    let mut seats: Vec<Entrant> = members.iter().map(|&g| Entrant::Genome(g)).collect();
                    seats.rotate_left(rotation);
                    jobs.push(Job { seats, map, seed });
                }
            }
        }
    }
    jobs
}

/// The judge part of the schedule: for each genome, each judge combination,
/// each map and each seat, one game; the seed depends on the combination and
/// map only.
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

/// Elites carry over unchanged; the rest are children of tournament winners.
fn next_generation<G: GameKit>(
    config: &EvolveConfig,
    population: &[Vec<i32>],
    fitness: &[f64],
    order: &[usize],
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Vec<i32>> {
    let mut next: Vec<Vec<i32>> = order[..config.elite].iter().map(|&i| population[i].clone()).collect();
    while next.len() < config.population {
        let a = &population[operators::tournament(fitness, config.tournament, rng)];
        let mut child = if rng.random_bool(config.crossover) {
            let b = &population[operators::tournament(fitness, config.tournament, rng)];
            if rng.random_bool(0.5) {
                operators::uniform_crossover(a, b, rng)
            } else {
                operators::blend_crossover(a, b, G::PARAMS, rng)
            }
        } else {
            a.clone()
        };
        operators::mutate(&mut child, G::PARAMS, config.mutation_rate, config.mutation_scale, rng);
        next.push(child);
    }
    next
}

/// The config's opponents as bots: a judge clone's bare name, or any spec.
pub fn opponents<G: GameKit>(config: &EvolveConfig) -> anyhow::Result<Vec<BotSpec>> {
    let bots = match &config.bots {
        Some(path) => Some(crate::referee::command::BotsFile::load(path).map_err(anyhow::Error::msg)?),
        None => None,
    };
    let ctx = crate::bots::SpecContext {
        bots: bots.as_ref(),
        ..crate::bots::SpecContext::new(Limits::nodes(config.nodes))
    };
    config
        .judges
        .iter()
        .map(|(name, _)| {
            let spec = if G::JUDGES.contains(&name.as_str()) {
                format!("judge:{name}")
            } else {
                name.clone()
            };
            BotSpec::parse::<G>(&spec, &ctx).with_context(|| format!("opponent `{name}` in the evolve config"))
        })
        .collect()
}

/// The champion's rate against each judge on maps it never trained on:
/// `holdout_rounds` times every holdout map, judge combination and seat.
pub fn holdout_rates<G: GameKit>(
    config: &EvolveConfig,
    champion: &Genome,
    limits: Limits,
) -> anyhow::Result<Vec<(String, f64)>> {
    let holdout = load_maps::<G>(&config.holdout_maps)?;
    let maps: Vec<G::Map> = holdout.into_iter().map(|m| m.map).collect();
    let me = [BotSpec::Genome {
        label: "champion".into(),
        weights: champion.weights.clone(),
        limits,
    }];
    let judges = opponents::<G>(config)?;
    let jobs: Vec<Job> = (0..config.holdout_rounds)
        .flat_map(|round| judge_tables::<G>(1, maps.len(), judges.len(), mix64(config.seed ^ 0x401d ^ round as u64)))
        .collect();
    let outcomes = play_jobs::<G>(&maps, &me, &judges, &jobs);
    let tallies = Tallies::new(1, judges.len(), &jobs, &outcomes);
    Ok(config
        .judges
        .iter()
        .zip(&tallies.judges[0])
        .map(|((name, _), &t)| (name.clone(), rate(t)))
        .collect())
}

/// Rewrites the generation table, the plots and best.ron after a generation.
fn write_outputs<G: GameKit>(config: &EvolveConfig, out: &Path, history: &[GenerationStats]) -> anyhow::Result<()> {
    let mut csv = String::from("generation,best,mean,median,peer");
    for (name, _) in &config.judges {
        csv.push_str(&format!(",{name}"));
    }
    csv.push_str(",games,seconds\n");
    for s in history {
        csv.push_str(&format!(
            "{},{:.3},{:.3},{:.3},{:.4}",
            s.generation, s.best, s.mean, s.median, s.peer_rate
        ));
        for r in &s.judge_rates {
            csv.push_str(&format!(",{r:.4}"));
        }
        csv.push_str(&format!(",{},{:.2}\n", s.games, s.seconds));
    }
    crate::fsutil::write_atomic(&out.join("generations.csv"), csv.as_bytes())?;

    let last = history.last().expect("a generation");
    let comment = format!(
        "{} genome written by gridtune evolve: seed {}, generation {}, fitness {:.2}",
        G::NAME,
        config.seed,
        last.generation,
        last.best
    );
    Genome {
        weights: last.best_weights.clone(),
    }
    .save(&out.join("best.ron"), G::NAME, G::PARAMS, &comment)?;

    let title = format!("{} evolution, seed {}", G::NAME, config.seed);
    crate::report::plot::fitness_plot(history, &title, &out.join("fitness.png"), &out.join("fitness.svg"))?;
    Ok(())
}
