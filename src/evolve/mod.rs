//! The evolution loop: the noise-aware GA of [`crate::tuner::ga`] tunes the
//! genome's weights in real games on the train maps ([`oracle`]); every
//! `eval_every` generations the champion (the population mean) is scored
//! against the judge tables on the train and holdout maps, logged, plotted
//! and written out; every generation is checkpointed, so a run killed at any
//! point resumes to exactly the result it would have had.

pub mod config;
pub mod faults;
pub mod oracle;
pub mod promote;
pub mod setup;

pub use config::EvolveConfig;

use crate::arena::{self, play_seated};
use crate::bots::BotSpec;
use crate::game::{mix64, Outcome};
use crate::games::GameKit;
use crate::genome::Genome;
use crate::maps::{load_dir, NamedMap};
use crate::search::Limits;
use crate::tuner::ga::{Ga, GaState, Rated, Role};
use anyhow::Context;
use faults::{FaultTally, JudgeFaults};
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
    /// Each judge's games and faults in the period, in config order (only
    /// programs fault; empty in runs from before faults were counted).
    #[serde(default)]
    pub judge_faults: Vec<JudgeFaults>,
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
    /// The judges' games and faults in the period under way.
    #[serde(default)]
    pub period_faults: Vec<JudgeFaults>,
}

/// The judges' faults per evaluation period, in a run folder.
pub const FAULTS_CSV: &str = "judge_faults.csv";

/// A CSV field: a judge spec such as `sh:bot --a,b` may hold a comma or quote.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// More games than any run plays (ten thousand years at 3,000 games per
/// second): a checkpoint counting more is damaged, and its sums could wrap.
const MAX_GAMES: usize = 1 << 50;

/// The checkpoint's file in a run folder.
pub const CHECKPOINT: &str = "checkpoint.ron";

impl Checkpoint {
    /// Reads a run folder's checkpoint (`None` when it has none) and checks
    /// every field against the run's config: a file edited or damaged by
    /// hand is refused with its path and the wrong field, never trusted.
    pub fn load<G: GameKit>(dir: &Path, config: &EvolveConfig) -> anyhow::Result<Option<Self>> {
        let Some(checkpoint) = Self::read(dir)? else {
            return Ok(None);
        };
        let path = dir.join(CHECKPOINT);
        checkpoint
            .check::<G>(config)
            .map_err(|m| crate::bad_input!("{}: {m}", path.display()))?;
        Ok(Some(checkpoint))
    }

    /// Reads a run folder's checkpoint as it is (`None` when it has none),
    /// unchecked: for reading a run's history back, not for running on.
    pub fn read(dir: &Path) -> anyhow::Result<Option<Self>> {
        let path = dir.join(CHECKPOINT);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => crate::bail_input!("cannot read {}: {e}", path.display()),
        };
        Self::parse(&text, &path.display().to_string()).map(Some)
    }

    /// Reads a checkpoint's text without checking it against its run (see
    /// [`Checkpoint::check`]); `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> anyhow::Result<Self> {
        ron::from_str(text).map_err(|e| crate::bad_input!("{origin}: not a checkpoint: {e}"))
    }

    /// The rules a checkpoint written by this run keeps; the message names
    /// the field that breaks one.
    pub fn check<G: GameKit>(&self, config: &EvolveConfig) -> Result<(), String> {
        self.check_for(G::NAME, G::PARAMS, config)
    }

    /// [`Checkpoint::check`] for a game known by its name and weights.
    pub fn check_for(
        &self,
        game: &str,
        params: &[crate::params::ParamSpec],
        config: &EvolveConfig,
    ) -> Result<(), String> {
        if self.game != game {
            return Err(format!("`game` is `{}`, the run is of `{game}`", self.game));
        }
        let space = oracle::space_of_params(params);
        self.ga
            .check(&space, &config.ga_config())
            .map_err(|m| format!("in `ga`: {m}"))?;
        let judges = config.judges.len();
        let n = params.len();
        let mut last = 0;
        let mut games: usize = 0;
        for (h, s) in self.history.iter().enumerate() {
            let field = |name: &str| format!("`history[{h}].{name}`");
            if s.generation <= last || s.generation as usize > self.ga.generation {
                return Err(format!(
                    "{} = {} must follow the generation before it ({last}) and not pass `ga.generation` ({})",
                    field("generation"),
                    s.generation,
                    self.ga.generation
                ));
            }
            last = s.generation;
            for (name, v) in [
                ("best", s.best),
                ("mean", s.mean),
                ("median", s.median),
                ("champion_elo", s.champion_elo),
            ] {
                if !v.is_finite() {
                    return Err(format!("{} = {v} is not a finite number", field(name)));
                }
            }
            for (name, v, hi) in [
                ("champion_se", s.champion_se, f64::MAX),
                ("sigma", s.sigma, 1.0),
                ("train_score", s.train_score, 100.0),
                ("holdout", s.holdout.unwrap_or(0.0), 100.0),
                ("seconds", s.seconds, f64::MAX),
            ] {
                if !(v.is_finite() && (0.0..=hi).contains(&v)) {
                    return Err(format!("{} = {v} is not a number in 0..={hi}", field(name)));
                }
            }
            if s.offspring_games.0 > s.offspring_games.1 {
                return Err(format!(
                    "{}: the fewest games are more than the most",
                    field("offspring_games")
                ));
            }
            let rates = |name: &str, rates: &[f64], optional: bool| -> Result<(), String> {
                if rates.len() != judges && !(optional && rates.is_empty()) {
                    return Err(format!(
                        "{} has {} rates, the config has {judges} judges",
                        field(name),
                        rates.len()
                    ));
                }
                match rates.iter().enumerate().find(|(_, r)| !(0.0..=1.0).contains(*r)) {
                    Some((j, r)) => Err(format!(
                        "{} = {r} is not a rate in 0..=1",
                        field(&format!("{name}[{j}]"))
                    )),
                    None => Ok(()),
                }
            };
            rates("judge_rates", &s.judge_rates, false)?;
            rates("holdout_rates", &s.holdout_rates, true)?;
            if s.holdout.is_some() == s.holdout_rates.is_empty() {
                return Err(format!("{} and its rates disagree", field("holdout")));
            }
            if !s.judge_faults.is_empty() && s.judge_faults.len() != judges {
                return Err(format!(
                    "{} has {} entries, the config has {judges} judges",
                    field("judge_faults"),
                    s.judge_faults.len()
                ));
            }
            if let Some(j) = s.judge_faults.iter().position(|f| !f.consistent()) {
                return Err(format!(
                    "{} counts more faults than games",
                    field(&format!("judge_faults[{j}]"))
                ));
            }
            if s.tuning_games > s.games {
                return Err(format!(
                    "{} = {} is more than {} = {}",
                    field("tuning_games"),
                    s.tuning_games,
                    field("games"),
                    s.games
                ));
            }
            games = games
                .checked_add(s.games)
                .ok_or_else(|| format!("{} is too large", field("games")))?;
            if s.best_weights.len() != n {
                return Err(format!(
                    "{} has {} weights, {game} genomes have {n}",
                    field("best_weights"),
                    s.best_weights.len(),
                ));
            }
            for (p, &w) in params.iter().zip(&s.best_weights) {
                if w < p.min || w > p.max {
                    return Err(format!(
                        "{}: `{}` = {w} is outside {}..={}",
                        field("best_weights"),
                        p.name,
                        p.min,
                        p.max
                    ));
                }
            }
        }
        if self.period_tuning_games > self.period_games {
            return Err(format!(
                "`period_tuning_games` = {} is more than `period_games` = {}",
                self.period_tuning_games, self.period_games
            ));
        }
        if !self.period_faults.is_empty() && self.period_faults.len() != judges {
            return Err(format!(
                "`period_faults` has {} entries, the config has {judges} judges",
                self.period_faults.len()
            ));
        }
        if let Some(j) = self.period_faults.iter().position(|f| !f.consistent()) {
            return Err(format!("`period_faults[{j}]` counts more faults than games"));
        }
        for (name, v) in [("period_seconds", self.period_seconds), ("seconds", self.seconds)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("`{name}` = {v} must be a finite number of at least 0"));
            }
        }
        if self.games > MAX_GAMES {
            return Err(format!("`games` = {} is more than any run plays", self.games));
        }
        // Every game of the run is in an evaluation period: the finished ones
        // and the one under way.
        if games.checked_add(self.period_games) != Some(self.games) {
            return Err(format!(
                "`games` = {} is not the games of `history` ({games}) plus `period_games` ({})",
                self.games, self.period_games
            ));
        }
        if self.history.is_empty() && self.ga.generation >= config.eval_every as usize {
            return Err(format!(
                "`history` is empty after {} generations, with an evaluation every {}",
                self.ga.generation, config.eval_every
            ));
        }
        Ok(())
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

/// Plays the jobs in parallel; outcomes come back in job order, with the
/// judges' faults.
fn play_jobs<G: GameKit>(
    maps: &[G::Map],
    genomes: &[BotSpec],
    judges: &[BotSpec],
    jobs: &[Job],
) -> (Vec<Outcome>, FaultTally) {
    let tally = faults::SharedTally::new(judges.len());
    let outcomes = jobs
        .par_iter()
        .map(|job| {
            let seats: Vec<&BotSpec> = job
                .seats
                .iter()
                .map(|e| match *e {
                    Entrant::Genome(g) => &genomes[g],
                    Entrant::Judge(j) => &judges[j],
                })
                .collect();
            let judge_seats: Vec<Option<usize>> = job
                .seats
                .iter()
                .map(|e| match *e {
                    Entrant::Judge(j) => Some(j),
                    Entrant::Genome(_) => None,
                })
                .collect();
            let record = play_seated::<G>(&maps[job.map], &seats, job.seed, false);
            tally.record(&record, &judge_seats);
            record.outcome
        })
        .collect();
    (outcomes, tally.take())
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
    if resume.is_none() {
        // A resumed run keeps the config it was started with, as written.
        crate::fsutil::write_atomic(&out.join("config.ron"), config.to_ron().as_bytes())
            .with_context(|| format!("cannot write {}", out.join("config.ron").display()))?;
    }

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
            period_faults: Vec::new(),
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
    let mut period_faults = checkpoint.period_faults;
    period_faults.resize(judges.len(), JudgeFaults::default());
    let mut genomes_log = GenomesLog::open(out, !history.is_empty() || ga.state.generation > 0)?;

    while !ga.finished() {
        let gen_started = Instant::now();
        let before = oracle.games_played();
        let (_, rated) = ga.step(&oracle);
        let generation = ga.state.generation as u32;
        let tuning = (oracle.games_played() - before) as usize;
        let mut generation_faults = oracle.take_faults();
        genomes_log.append(generation, &rated)?;
        period_games += tuning;
        period_tuning += tuning;
        total_games += tuning;

        let last = ga.finished();
        let mut evaluated = None;
        if generation.is_multiple_of(config.eval_every) || last {
            let champion = nearest_genome::<G>(&ga.mean());
            let (judge_rates, train_games, train_faults) =
                judge_rates_on::<G>(&maps, &judges, &champion, limits, 1, config.seed ^ 0x7a1e);
            generation_faults.merge(&train_faults);
            let (holdout_rates, holdout_games, holdout_faults) = if holdout_maps.is_empty() {
                (Vec::new(), 0, FaultTally::new(judges.len()))
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
            generation_faults.merge(&holdout_faults);
            check_faults(config, &format!("generation {generation}"), &generation_faults)?;
            for (p, g) in period_faults.iter_mut().zip(&generation_faults.judges) {
                p.add(g);
            }
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
                judge_faults: std::mem::replace(&mut period_faults, vec![JudgeFaults::default(); judges.len()]),
                ..stats
            };
            history.push(stats.clone());
            write_outputs::<G>(config, out, &history)?;
            (period_games, period_tuning, period_seconds) = (0, 0, 0.0);
            evaluated = Some(stats);
        } else {
            check_faults(config, &format!("generation {generation}"), &generation_faults)?;
            for (p, g) in period_faults.iter_mut().zip(&generation_faults.judges) {
                p.add(g);
            }
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
            period_faults: period_faults.clone(),
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
    check_faults(config, "the confirmation", &oracle.take_faults())?;
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
    let best = out.join("best.ron");
    champion
        .save(&best, G::NAME, G::PARAMS, &comment)
        .with_context(|| format!("cannot write {}", best.display()))?;
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
        let path = out.join("holdout.csv");
        crate::fsutil::write_atomic(&path, csv.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
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
    let offspring: Vec<&Rated> = rated.iter().filter(|r| matches!(r.role, Role::Offspring(_))).collect();
    let anchored = |r: &&Rated| !matches!(r.role, Role::Offspring(_) | Role::Fixed(_));
    let mut elos: Vec<f64> = rated.iter().filter(anchored).map(|r| r.elo).collect();
    elos.sort_by(f64::total_cmp);
    let n = elos.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => elos[n / 2],
        _ => (elos[n / 2 - 1] + elos[n / 2]) / 2.0,
    };
    let means: Vec<&Rated> = rated.iter().filter(|r| matches!(r.role, Role::Mean(_))).collect();
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
        judge_faults: Vec::new(),
    }
}

/// Logs the judges' faults in a generation (its tuner games and any
/// evaluation) or in the confirmation, and stops the run when a judge failed
/// most of its games: its losses would count as the genomes' wins.
fn check_faults(config: &EvolveConfig, when: &str, tally: &FaultTally) -> anyhow::Result<()> {
    for (j, f) in tally.judges.iter().enumerate() {
        let name = &config.judges[j].0;
        if f.faulted() == 0 {
            continue;
        }
        let example = tally.examples[j].as_deref().unwrap_or("");
        tracing::warn!(
            "judge `{name}` failed {} of {} games in {when} ({}); first: {example}",
            f.faulted(),
            f.games,
            f.describe()
        );
        if f.games >= faults::MIN_GAMES && 2 * f.faulted() > f.games {
            anyhow::bail!(
                "judge `{name}` failed {} of its {} games in {when} ({}); first: {example}. \
                 The run stops: its failed games would count as wins. Fix the judge or take it out of the config.",
                f.faulted(),
                f.games,
                f.describe()
            );
        }
    }
    Ok(())
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
/// order, the games played and the judges' faults.
pub fn judge_rates_on<G: GameKit>(
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
    let (outcomes, faults) = play_jobs::<G>(maps, &me, judges, &jobs);
    let tallies = Tallies::new(1, judges.len(), &jobs, &outcomes);
    (tallies.judges[0].iter().map(|&t| rate(t)).collect(), jobs.len(), faults)
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
    let path = out.join("generations.csv");
    crate::fsutil::write_atomic(&path, csv.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;

    // One row per judge and evaluation period: which judges could not play,
    // and how (program judges only ever fault).
    let mut faults = String::from("generation,judge,games,faulted,timeouts,crashes,invalid_lines,illegal_moves\n");
    for s in history {
        for ((name, _), f) in config.judges.iter().zip(&s.judge_faults) {
            faults.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                s.generation,
                csv_field(name),
                f.games,
                f.faulted(),
                f.timeouts,
                f.crashes,
                f.invalid_lines,
                f.illegal_moves
            ));
        }
    }
    let path = out.join(FAULTS_CSV);
    crate::fsutil::write_atomic(&path, faults.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;

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
    .save(&out.join("best.ron"), G::NAME, G::PARAMS, &comment)
    .with_context(|| format!("cannot write {}", out.join("best.ron").display()))?;

    let plot = crate::report::plot::FitnessPlot {
        history,
        title: format!("{} evolution, seed {}", G::NAME, config.seed),
    };
    crate::report::canvas::save(&plot, out, "fitness")?;
    Ok(())
}
