//! The evolution loop: a population of genomes plays the judge clones and
//! itself on the training maps, the fittest breed, and every generation is
//! logged, plotted, scored on the holdout maps and checkpointed, so a run
//! killed at any point resumes to exactly the result it would have had.

pub mod config;
pub mod operators;
pub mod promote;

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
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// What one generation measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    pub generation: u32,
    pub best: f64,
    pub mean: f64,
    pub median: f64,
    /// The best genome's rate against each configured judge, in config order.
    pub judge_rates: Vec<f64>,
    /// The best genome's rate against the population.
    pub peer_rate: f64,
    /// The best genome's contest score against the judges on the train maps
    /// (the fitness without the peer share), to set beside `holdout`.
    pub train_score: f64,
    /// The same genome's contest score on the holdout maps, which no genome
    /// trains on (absent with `holdout_rounds: 0`).
    pub holdout: Option<f64>,
    /// Its holdout rate against each judge, in config order.
    pub holdout_rates: Vec<f64>,
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
    /// The last generation's genomes.
    pub population: Vec<Vec<i32>>,
    pub seconds: f64,
    pub games: usize,
}

/// Everything a run needs to go on after its last finished generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub game: String,
    /// The last generation finished and logged.
    pub generation: u32,
    /// The genomes the next generation plays (after the last generation, the
    /// final population).
    pub population: Vec<Vec<i32>>,
    pub history: Vec<GenerationStats>,
    pub games: usize,
    /// Seconds spent before this checkpoint, across every resumption.
    pub seconds: f64,
}

/// The checkpoint's file in a run folder.
pub const CHECKPOINT: &str = "checkpoint.ron";

impl Checkpoint {
    pub fn load(dir: &Path) -> anyhow::Result<Option<Self>> {
        let path = dir.join(CHECKPOINT);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let checkpoint = ron::from_str(&text).with_context(|| format!("{}: not a checkpoint", path.display()))?;
        Ok(Some(checkpoint))
    }

    fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())?;
        let path = dir.join(CHECKPOINT);
        crate::fsutil::write_atomic(&path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The random stream of one generation's schedule and breeding: derived
/// from the run's seed, so a resumed run draws exactly what it would have.
fn generation_rng(seed: u64, generation: u32) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix64(seed ^ 0x6e0e_7a70_0000 ^ mix64(u64::from(generation))))
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
/// called after each generation (the CLI prints its one-line summary). With
/// `resume`, a run folder's checkpoint is picked up where it stopped.
pub fn run<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    resume: Option<Checkpoint>,
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
    let contest_score = |rates: &[f64]| -> f64 {
        if judge_weight_sum > 0.0 {
            100.0 * config.judges.iter().zip(rates).map(|((_, w), r)| w * r).sum::<f64>() / judge_weight_sum
        } else {
            0.0
        }
    };
    let holdout_maps: Vec<G::Map> = if config.holdout_rounds > 0 {
        load_maps::<G>(&config.holdout_maps)?
            .into_iter()
            .map(|m| m.map)
            .collect()
    } else {
        Vec::new()
    };

    let fresh = resume.is_none();
    let Checkpoint {
        generation: done,
        mut population,
        mut history,
        games: mut total_games,
        seconds: earlier,
        ..
    } = match resume {
        Some(c) => {
            anyhow::ensure!(
                c.game == G::NAME,
                "the checkpoint is for `{}`, not `{}`",
                c.game,
                G::NAME
            );
            c
        }
        None => Checkpoint {
            game: G::NAME.to_string(),
            generation: 0,
            population: initial_population::<G>(config, &seed_genome.weights),
            history: Vec::new(),
            games: 0,
            seconds: 0.0,
        },
    };
    anyhow::ensure!(
        population.len() == config.population,
        "the checkpoint holds {} genomes, the config asks for {}",
        population.len(),
        config.population
    );
    if !fresh && done > 0 {
        write_outputs::<G>(config, out, &history)?;
    }
    let maps: Vec<G::Map> = train.iter().map(|m| m.map.clone()).collect();
    for generation in done + 1..=config.generations {
        let gen_started = Instant::now();
        let mut rng = generation_rng(config.seed, generation);
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
        let judge_rates: Vec<f64> = tallies.judges[best].iter().map(|&t| rate(t)).collect();
        let (holdout_rates, holdout_games) = if holdout_maps.is_empty() {
            (Vec::new(), 0)
        } else {
            judge_rates_on::<G>(
                &holdout_maps,
                &judges,
                &population[best],
                limits,
                config.holdout_rounds,
                config.seed ^ 0x401d,
            )
        };
        total_games += holdout_games;
        let stats = GenerationStats {
            generation,
            best: fitness[best],
            mean: fitness.iter().sum::<f64>() / n as f64,
            median,
            train_score: contest_score(&judge_rates),
            judge_rates,
            peer_rate: rate(tallies.peers[best]),
            holdout: (!holdout_rates.is_empty()).then(|| contest_score(&holdout_rates)),
            holdout_rates,
            games: jobs.len() + holdout_games,
            seconds: gen_started.elapsed().as_secs_f64(),
            best_weights: population[best].clone(),
        };
        history.push(stats.clone());
        write_outputs::<G>(config, out, &history)?;

        if generation < config.generations {
            population = next_generation::<G>(config, &population, &fitness, &order, &mut rng);
        }
        Checkpoint {
            game: G::NAME.to_string(),
            generation,
            population: population.clone(),
            history: history.clone(),
            games: total_games,
            seconds: earlier + started.elapsed().as_secs_f64(),
        }
        .save(out)?;
        report(&stats);
    }

    let last = history.last().context("the run has no generation")?;
    let champion = Genome {
        weights: last.best_weights.clone(),
    };
    let holdout: Vec<(String, f64)> = config
        .judges
        .iter()
        .zip(&last.holdout_rates)
        .map(|((name, _), &r)| (name.clone(), r))
        .collect();
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
        population,
        seconds: earlier + started.elapsed().as_secs_f64(),
        games: total_games,
    })
}

/// The seed genome and mutants of it, wider-spread than later mutations.
fn initial_population<G: GameKit>(config: &EvolveConfig, seed_weights: &[i32]) -> Vec<Vec<i32>> {
    let mut rng = generation_rng(config.seed, 0);
    let mut population: Vec<Vec<i32>> = vec![seed_weights.to_vec()];
    while population.len() < config.population {
        let mut w = seed_weights.to_vec();
        operators::mutate(
            &mut w,
            G::PARAMS,
            config.mutation_rate.max(0.5),
            config.mutation_scale * 2.0,
            &mut rng,
        );
        population.push(w);
    }
    population
}

pub fn load_maps<G: GameKit>(dir: &Path) -> anyhow::Result<Vec<NamedMap<G::Map>>> {
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

/// A genome's rate against each judge on `maps` (the holdout maps, which
/// no genome trains on, or the train maps to confirm a champion): `rounds`
/// times every map, judge combination and seat, seeded from `seed` so every
/// genome scored this way meets the same luck. Returns the rates in config
/// order and the games played.
pub fn judge_rates_on<G: GameKit>(
    maps: &[G::Map],
    judges: &[BotSpec],
    weights: &[i32],
    limits: Limits,
    rounds: usize,
    seed: u64,
) -> (Vec<f64>, usize) {
    let me = [BotSpec::Genome {
        label: "champion".into(),
        weights: weights.to_vec(),
        limits,
    }];
    let jobs: Vec<Job> = (0..rounds)
        .flat_map(|round| judge_tables::<G>(1, maps.len(), judges.len(), mix64(seed ^ round as u64)))
        .collect();
    let outcomes = play_jobs::<G>(maps, &me, judges, &jobs);
    let tallies = Tallies::new(1, judges.len(), &jobs, &outcomes);
    (tallies.judges[0].iter().map(|&t| rate(t)).collect(), jobs.len())
}

/// Rewrites the generation table, the plots and best.ron after a generation.
fn write_outputs<G: GameKit>(config: &EvolveConfig, out: &Path, history: &[GenerationStats]) -> anyhow::Result<()> {
    let mut csv = String::from("generation,best,mean,median,peer,train_score,holdout");
    for (name, _) in &config.judges {
        csv.push_str(&format!(",{name}"));
    }
    csv.push_str(",games,seconds\n");
    for s in history {
        let holdout = s.holdout.map_or(String::new(), |h| format!("{h:.3}"));
        csv.push_str(&format!(
            "{},{:.3},{:.3},{:.3},{:.4},{:.3},{holdout}",
            s.generation, s.best, s.mean, s.median, s.peer_rate, s.train_score
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
