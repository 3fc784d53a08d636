//! The evolution loop: a population of genomes plays the judge clones and
//! itself on the training maps, the fittest breed, and every generation is
//! logged, plotted and checkpointed as the run's best genome.

pub mod config;
pub mod operators;

pub use config::EvolveConfig;

use crate::arena::{self, play_pairing, Pairing};
use crate::bots::BotSpec;
use crate::game::mix64;
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

/// One game to play while scoring a generation.
#[derive(Clone, Copy)]
enum Job {
    /// Genome `genome` against judge `judge`.
    Judge {
        genome: usize,
        judge: usize,
        pairing: Pairing,
    },
    /// Genome `a` against genome `b`.
    Peer { a: usize, b: usize, pairing: Pairing },
}

/// Runs evolution as configured, writing the run folder `out`; `report` is
/// called after each generation (the CLI prints its one-line summary).
pub fn run<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    mut report: impl FnMut(&GenerationStats),
) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    let train = load_maps::<G>(&config.train_maps)?;
    let seed_genome = Genome::load(&config.seed_genome, G::NAME, G::PARAMS)?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create run folder {}", out.display()))?;
    crate::fsutil::write_atomic(&out.join("config.ron"), config.to_ron().as_bytes())
        .with_context(|| format!("cannot write {}", out.join("config.ron").display()))?;

    let limits = Limits::nodes(config.nodes);
    let judges: Vec<BotSpec> = config.judges.iter().map(|(n, _)| BotSpec::Judge(n.clone())).collect();
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
        let jobs = schedule(config, population.len(), maps.len(), judges.len(), gen_seed, &mut rng);
        let specs: Vec<BotSpec> = population
            .iter()
            .map(|w| BotSpec::Genome {
                label: String::new(),
                weights: w.clone(),
                limits,
            })
            .collect();
        let points: Vec<f32> = jobs
            .par_iter()
            .map(|job| match *job {
                Job::Judge { genome, judge, pairing } => {
                    play_pairing::<G>(&maps, &specs[genome], &judges[judge], pairing)
                }
                Job::Peer { a, b, pairing } => play_pairing::<G>(&maps, &specs[a], &specs[b], pairing),
            })
            .collect();
        total_games += jobs.len();

        // Tally each genome's points per judge and against its peers.
        let n = population.len();
        let mut judge_points = vec![vec![(0.0f64, 0u32); judges.len()]; n];
        let mut peer_points = vec![(0.0f64, 0u32); n];
        for (job, &p) in jobs.iter().zip(&points) {
            match *job {
                Job::Judge { genome, judge, .. } => {
                    let t = &mut judge_points[genome][judge];
                    t.0 += p as f64;
                    t.1 += 1;
                }
                Job::Peer { a, b, .. } => {
                    peer_points[a].0 += p as f64;
                    peer_points[a].1 += 1;
                    peer_points[b].0 += 1.0 - p as f64;
                    peer_points[b].1 += 1;
                }
            }
        }
        let rate = |(points, games): (f64, u32)| if games == 0 { 0.0 } else { points / games as f64 };
        let fitness: Vec<f64> = (0..n)
            .map(|i| {
                let contest: f64 = if judge_weight_sum > 0.0 {
                    config
                        .judges
                        .iter()
                        .zip(&judge_points[i])
                        .map(|((_, w), &t)| w * rate(t))
                        .sum::<f64>()
                        / judge_weight_sum
                } else {
                    0.0
                };
                100.0 * ((1.0 - config.peer_weight) * contest + config.peer_weight * rate(peer_points[i]))
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
            judge_rates: judge_points[best].iter().map(|&t| rate(t)).collect(),
            peer_rate: rate(peer_points[best]),
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
    let holdout = if config.holdout_pairs > 0 {
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

/// Every genome plays every judge on both sides of every train map with the
/// same seeds (common random numbers: luck cannot separate two genomes), and
/// `peer_opponents` population members on both sides of one map each.
fn schedule(
    config: &EvolveConfig,
    population: usize,
    maps: usize,
    judges: usize,
    gen_seed: u64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Job> {
    let mut jobs = Vec::new();
    let judge_pairings = arena::paired_schedule(maps, maps, gen_seed);
    for genome in 0..population {
        for judge in 0..judges {
            for &pairing in &judge_pairings {
                let seed = mix64(pairing.seed ^ judge as u64);
                jobs.push(Job::Judge {
                    genome,
                    judge,
                    pairing: Pairing { seed, ..pairing },
                });
            }
        }
    }
    if config.peer_weight > 0.0 {
        // A random ring: member i meets the next `peer_opponents` members.
        let mut ring: Vec<usize> = (0..population).collect();
        for i in (1..ring.len()).rev() {
            ring.swap(i, rng.random_range(0..=i));
        }
        for t in 0..population {
            for k in 1..=config.peer_opponents {
                let (a, b) = (ring[t], ring[(t + k) % population]);
                let map = rng.random_range(0..maps);
                let seed = rng.random::<u64>();
                for first_seat in [0, 1] {
                    jobs.push(Job::Peer {
                        a,
                        b,
                        pairing: Pairing { map, first_seat, seed },
                    });
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

/// The champion's rate against each judge on maps it never trained on.
pub fn holdout_rates<G: GameKit>(
    config: &EvolveConfig,
    champion: &Genome,
    limits: Limits,
) -> anyhow::Result<Vec<(String, f64)>> {
    let holdout = load_maps::<G>(&config.holdout_maps)?;
    let maps: Vec<G::Map> = holdout.into_iter().map(|m| m.map).collect();
    let me = BotSpec::Genome {
        label: "champion".into(),
        weights: champion.weights.clone(),
        limits,
    };
    let pairings = arena::paired_schedule(maps.len(), config.holdout_pairs, mix64(config.seed ^ 0x401d));
    Ok(config
        .judges
        .iter()
        .map(|(name, _)| {
            let points = arena::play_schedule::<G>(&maps, &me, &BotSpec::Judge(name.clone()), &pairings);
            (
                name.clone(),
                points.iter().map(|&p| p as f64).sum::<f64>() / points.len() as f64,
            )
        })
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
