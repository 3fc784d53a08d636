//! The evolution loop: the noise-aware GA of [`crate::tuner::ga`] tunes the
//! genome's weights in real games on the train maps ([`oracle`]); every
//! `eval_every` generations the champion (the population mean) is scored
//! against the judge tables on the train and holdout maps, logged, plotted
//! and written out; every generation is checkpointed, so a run killed at any
//! point resumes to exactly the result it would have had.

pub mod config;
pub mod oracle;
pub mod promote;

pub use config::EvolveConfig;

use crate::arena::{self, play_seated};
use crate::bots::BotSpec;
use crate::game::{mix64, Outcome};
use crate::games::GameKit;
use crate::genome::Genome;
use crate::maps::{load_dir, NamedMap};
use crate::search::Limits;
use crate::tuner::ga::{Ga, GaState, Rated};
use anyhow::Context;
use oracle::{nearest_genome, space_of, GameOracle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// What one evaluation period (the `eval_every` generations up to
/// `generation`) measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    /// Generations finished.
    pub generation: u32,
    /// Elo against the start genome, from the last generation's rating fit,
    /// over the genomes its games tie to the start genome (the start genome,
    /// the hall of fame, the island means and the elites): the best, the mean
    /// and the median. Offspring only meet their twin, so only their
    /// difference is rated (genomes.csv has it).
    pub best: f64,
    pub mean: f64,
    pub median: f64,
    /// The champion (the population mean) in that fit, and the standard
    /// error of its rating.
    pub champion_elo: f64,
    pub champion_se: f64,
    /// Mutation step, as a share of each weight's range (mean over islands).
    pub sigma: f64,
    /// Fewest and most games an offspring of the last generation got:
    /// racing gives undecided pairs more.
    pub offspring_games: (u32, u32),
    /// The champion's rate against each configured judge on the train maps,
    /// in config order.
    pub judge_rates: Vec<f64>,
    /// Its contest score against the judges on the train maps, to set
    /// beside `holdout`.
    pub train_score: f64,
    /// The same genome's contest score on the holdout maps, which no genome
    /// trains on (absent with `holdout_rounds: 0`).
    pub holdout: Option<f64>,
    /// Its holdout rate against each judge, in config order.
    pub holdout_rates: Vec<f64>,
    /// Games of the period: the tuner's and the evaluations'.
    pub games: usize,
    pub tuning_games: usize,
    pub seconds: f64,
    /// The champion's weights.
    pub best_weights: Vec<i32>,
}

/// A finished run.
pub struct RunSummary {
    /// The recommended genome, confirmed by the GA.
    pub champion: Genome,
    /// Which candidate it was (population mean, tail average, ...), and every
    /// candidate's confirmation rating.
    pub recommended: String,
    pub candidates: Vec<crate::tuner::ga::Candidate>,
    pub history: Vec<GenerationStats>,
    /// The last evaluated champion's rate against each judge on the holdout maps.
    pub holdout: Vec<(String, f64)>,
    pub seconds: f64,
    pub games: usize,
}

/// Everything a run needs to go on after its last finished generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub game: String,
    /// The tuner's state after its last finished generation.
    pub ga: GaState,
    pub history: Vec<GenerationStats>,
    /// Games and seconds of the evaluation period under way.
    pub period_games: usize,
    pub period_tuning_games: usize,
    pub period_seconds: f64,
    /// Games of the whole run so far.
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
        Self::parse(&text, &path.display().to_string()).map(Some)
    }

    /// Reads a checkpoint's text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> anyhow::Result<Self> {
        ron::from_str(text).with_context(|| format!("{origin}: not a checkpoint"))
    }

    fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())?;
        let path = dir.join(CHECKPOINT);
        crate::fsutil::write_atomic(&path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
    }
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

/// Runs evolution as configured, writing the run folder `out`; `report` is
/// called after each evaluation (the CLI prints its one-line summary). With
/// `resume`, a run folder's checkpoint is picked up where it stopped.
pub fn run<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    resume: Option<Checkpoint>,
    mut report: impl FnMut(&GenerationStats),
) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    anyhow::ensure!(
        config.judges.len() + 1 >= G::PLAYERS,
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
    let holdout_maps: Vec<G::Map> = if config.holdout_rounds > 0 {
        load_maps::<G>(&config.holdout_maps)?
            .into_iter()
            .map(|m| m.map)
            .collect()
    } else {
        Vec::new()
    };
    let maps: Vec<G::Map> = train.iter().map(|m| m.map.clone()).collect();
    let weights: Vec<f64> = config.judges.iter().map(|j| j.1).collect();
    let oracle = GameOracle::<G>::new(&maps, &judges, &weights, config.peer_share, limits);
    let space = space_of::<G>();
    let ga_config = config.ga_config();
    let start: Vec<f64> = seed_genome.weights.iter().map(|&w| f64::from(w)).collect();

    let checkpoint = match resume {
        Some(c) => {
            anyhow::ensure!(
                c.game == G::NAME,
                "the checkpoint is for `{}`, not `{}`",
                c.game,
                G::NAME
            );
            anyhow::ensure!(
                c.ga.reference.len() == G::PARAMS.len(),
                "the checkpoint's genomes have {} weights, {} has {}",
                c.ga.reference.len(),
                G::NAME,
                G::PARAMS.len()
            );
            if !c.history.is_empty() {
                write_outputs::<G>(config, out, &c.history)?;
            }
            c
        }
        None => Checkpoint {
            game: G::NAME.to_string(),
            ga: Ga::new(&space, &start, &ga_config, config.seed, judges.len()).state,
            history: Vec::new(),
            period_games: 0,
            period_tuning_games: 0,
            period_seconds: 0.0,
            games: 0,
            seconds: 0.0,
        },
    };
    let mut ga = Ga::resume(&space, &ga_config, config.seed, judges.len(), checkpoint.ga.clone());
    let mut history = checkpoint.history;
    let (mut period_games, mut period_tuning, mut period_seconds) = (
        checkpoint.period_games,
        checkpoint.period_tuning_games,
        checkpoint.period_seconds,
    );
    let (mut total_games, earlier) = (checkpoint.games, checkpoint.seconds);
    let mut genomes_log = GenomesLog::open(out, !history.is_empty() || ga.state.generation > 0)?;

    while !ga.finished() {
        let gen_started = Instant::now();
        let before = oracle.games_played();
        let (_, rated) = ga.step(&oracle);
        let generation = ga.state.generation as u32;
        let tuning = (oracle.games_played() - before) as usize;
        genomes_log.append(generation, &rated)?;
        period_games += tuning;
        period_tuning += tuning;
        total_games += tuning;

        let last = ga.finished();
        let mut evaluated = None;
        if generation.is_multiple_of(config.eval_every) || last {
            let champion = nearest_genome::<G>(&ga.mean());
            let (judge_rates, train_games) =
                judge_rates_on::<G>(&maps, &judges, &champion, limits, 1, config.seed ^ 0x7a1e);
            let (holdout_rates, holdout_games) = if holdout_maps.is_empty() {
                (Vec::new(), 0)
            } else {
                judge_rates_on::<G>(
                    &holdout_maps,
                    &judges,
                    &champion,
                    limits,
                    config.holdout_rounds,
                    config.seed ^ 0x401d,
                )
            };
            period_games += train_games + holdout_games;
            total_games += train_games + holdout_games;
            let stats = period_stats(&ga, &rated, generation);
            let stats = GenerationStats {
                train_score: contest_score(config, &judge_rates),
                judge_rates,
                holdout: (!holdout_rates.is_empty()).then(|| contest_score(config, &holdout_rates)),
                holdout_rates,
                games: period_games,
                tuning_games: period_tuning,
                seconds: period_seconds + gen_started.elapsed().as_secs_f64(),
                best_weights: champion,
                ..stats
            };
            history.push(stats.clone());
            write_outputs::<G>(config, out, &history)?;
            (period_games, period_tuning, period_seconds) = (0, 0, 0.0);
            evaluated = Some(stats);
        } else {
            period_seconds += gen_started.elapsed().as_secs_f64();
        }
        Checkpoint {
            game: G::NAME.to_string(),
            ga: ga.state.clone(),
            history: history.clone(),
            period_games,
            period_tuning_games: period_tuning,
            period_seconds,
            games: total_games,
            seconds: earlier + started.elapsed().as_secs_f64(),
        }
        .save(out)?;
        // After the checkpoint, so what the callback reads is on disk.
        if let Some(stats) = &evaluated {
            report(stats);
        }
    }

    // The recommendation, confirmed with the rest of the budget. Its games
    // are seeded like everything else: a run resumed after its last
    // generation confirms exactly as an unbroken one.
    let before = oracle.games_played();
    let result = ga.finish(&oracle, Vec::new());
    total_games += (oracle.games_played() - before) as usize;
    let champion = Genome {
        weights: nearest_genome::<G>(&result.recommended),
    };
    let last = history.last().context("the run has no evaluation")?;
    let comment = format!(
        "{} genome written by gridtune evolve: seed {}, {} generations, {} of the tuner's candidates (confirmed in {} games); last evaluated train score {:.1}",
        G::NAME,
        config.seed,
        last.generation,
        result.recommended_name,
        result.confirmation_games,
        last.train_score
    );
    champion.save(&out.join("best.ron"), G::NAME, G::PARAMS, &comment)?;
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
        recommended: result.recommended_name,
        candidates: result.candidates,
        history,
        holdout,
        seconds: earlier + started.elapsed().as_secs_f64(),
        games: total_games,
    })
}

/// The rating figures of a generation's fit (the evaluation fills the rest).
fn period_stats(ga: &Ga, rated: &[Rated], generation: u32) -> GenerationStats {
    let offspring: Vec<&Rated> = rated.iter().filter(|r| r.role.ends_with("offspring")).collect();
    let anchored = |r: &&Rated| !r.role.ends_with("offspring") && !r.role.starts_with("fixed");
    let mut elos: Vec<f64> = rated.iter().filter(anchored).map(|r| r.elo).collect();
    elos.sort_by(f64::total_cmp);
    let n = elos.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => elos[n / 2],
        _ => (elos[n / 2 - 1] + elos[n / 2]) / 2.0,
    };
    let means: Vec<&Rated> = rated.iter().filter(|r| r.role.ends_with(" mean")).collect();
    let k = means.len().max(1) as f64;
    let games = |r: &&Rated| 2 * r.pairs;
    GenerationStats {
        generation,
        best: elos.last().copied().unwrap_or(0.0),
        mean: if n == 0 {
            0.0
        } else {
            elos.iter().sum::<f64>() / n as f64
        },
        median,
        champion_elo: means.iter().map(|r| r.elo).sum::<f64>() / k,
        champion_se: means.iter().map(|r| r.se * r.se).sum::<f64>().sqrt() / k,
        sigma: ga.state.islands.iter().map(|i| i.sigma).sum::<f64>() / ga.state.islands.len() as f64,
        offspring_games: (
            offspring.iter().map(games).min().unwrap_or(0),
            offspring.iter().map(games).max().unwrap_or(0),
        ),
        judge_rates: Vec::new(),
        train_score: 0.0,
        holdout: None,
        holdout_rates: Vec::new(),
        games: 0,
        tuning_games: 0,
        seconds: 0.0,
        best_weights: Vec::new(),
    }
}

/// genomes.csv: every rated genome of every generation, with its games, so
/// a run shows where racing spent them.
struct GenomesLog {
    path: std::path::PathBuf,
    text: String,
}

impl GenomesLog {
    /// Starts the log, or picks it up when resuming (rows of generations
    /// after the checkpoint, written before a kill, are dropped again).
    fn open(out: &Path, resuming: bool) -> anyhow::Result<Self> {
        let path = out.join("genomes.csv");
        let header = "generation,role,elo,se,games,weights\n";
        let text = if resuming {
            std::fs::read_to_string(&path).unwrap_or_else(|_| header.to_string())
        } else {
            header.to_string()
        };
        Ok(GenomesLog { path, text })
    }

    fn append(&mut self, generation: u32, rated: &[Rated]) -> anyhow::Result<()> {
        // A resumed run replays the generation after its checkpoint: drop
        // any rows a killed run had already written for it.
        let prefix = format!("{generation},");
        let kept: Vec<&str> = self.text.lines().filter(|l| !l.starts_with(&prefix)).collect();
        self.text = kept.join("\n") + "\n";
        for r in rated {
            let weights: Vec<String> = r.x.iter().map(|v| format!("{v:.2}")).collect();
            self.text.push_str(&format!(
                "{generation},{},{:.2},{:.2},{},{}\n",
                r.role,
                r.elo,
                r.se,
                2 * r.pairs,
                weights.join(" ")
            ));
        }
        crate::fsutil::write_atomic(&self.path, self.text.as_bytes())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

pub fn load_maps<G: GameKit>(dir: &Path) -> anyhow::Result<Vec<NamedMap<G::Map>>> {
    Ok(load_dir(dir, G::parse_map)?)
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
    let mut csv = String::from(
        "generation,best,mean,median,champion_elo,champion_se,sigma,offspring_games_min,offspring_games_max,train_score,holdout",
    );
    for (name, _) in &config.judges {
        csv.push_str(&format!(",{name}"));
    }
    csv.push_str(",games,tuning_games,seconds\n");
    for s in history {
        let holdout = s.holdout.map_or(String::new(), |h| format!("{h:.3}"));
        csv.push_str(&format!(
            "{},{:.2},{:.2},{:.2},{:.2},{:.2},{:.4},{},{},{:.3},{holdout}",
            s.generation,
            s.best,
            s.mean,
            s.median,
            s.champion_elo,
            s.champion_se,
            s.sigma,
            s.offspring_games.0,
            s.offspring_games.1,
            s.train_score
        ));
        for r in &s.judge_rates {
            csv.push_str(&format!(",{r:.4}"));
        }
        csv.push_str(&format!(",{},{},{:.2}\n", s.games, s.tuning_games, s.seconds));
    }
    crate::fsutil::write_atomic(&out.join("generations.csv"), csv.as_bytes())?;

    let last = history.last().expect("a generation");
    let comment = format!(
        "{} genome written by gridtune evolve: seed {}, champion after generation {}, train score {:.1}",
        G::NAME,
        config.seed,
        last.generation,
        last.train_score
    );
    Genome {
        weights: last.best_weights.clone(),
    }
    .save(&out.join("best.ron"), G::NAME, G::PARAMS, &comment)?;

    let plot = crate::report::plot::FitnessPlot {
        history,
        title: format!("{} evolution, seed {}", G::NAME, config.seed),
    };
    crate::report::canvas::save(&plot, out, "fitness")?;
    Ok(())
}
