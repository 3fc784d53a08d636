//! The evolution loop: the noise-aware GA of [`crate::tuner::ga`] (or, with
//! `cma: (...)`, CMA-ES; [`tuner`]) tunes the genome's weights in real games
//! on the train maps ([`oracle`]); every `eval_every` generations the
//! champion (the tuner's mean) is scored
//! against the judge tables on the train and holdout maps, logged, plotted
//! and written out; every generation is checkpointed, so a run killed at any
//! point resumes to exactly the result it would have had.

pub mod checkpoint;
pub mod config;
pub mod faults;
pub mod genome_match;
pub mod history;
pub mod judge_tables;
pub mod oracle;
pub mod outputs;
pub mod promote;
pub mod setup;
pub mod start;
pub mod sweep;
pub mod tuner;
pub mod verdict;

pub use checkpoint::{Checkpoint, CHECKPOINT};
pub use config::EvolveConfig;
pub use history::GenerationStats;
pub use judge_tables::{contest_score, judge_rates_on, opponents};
pub use outputs::FAULTS_CSV;

use crate::arena::executor::Executor;
use crate::bots::BotSpec;
use crate::games::GameKit;
use crate::genome::Genome;
use crate::maps::{load_dir, NamedMap};
use crate::search::Limits;
use crate::tuner::ga::Rated;
use anyhow::Context;
use faults::{FaultTally, JudgeFaults};
use history::{Evaluation, Period};
use oracle::{nearest_genome, tuning_space, GameOracle};
use outputs::{write_generations, write_holdout, write_outputs, write_verdict, GenomesLog};
use std::path::Path;
use std::time::Instant;
use tuner::{Settings, Tuner, TunerState};

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

/// What a run reads before its first generation: the maps, the judges as
/// bots, and the genome it starts from.
struct Inputs<G: GameKit> {
    maps: Vec<G::Map>,
    /// Empty with `holdout_rounds: 0`.
    holdout_maps: Vec<G::Map>,
    judges: Vec<BotSpec>,
    start: Vec<f64>,
    limits: Limits,
}

/// The genome a run with a `prefit` starts from: fitted and written to the
/// run folder's prefit.ron by a new run, read back from there on resume (the
/// GA's state already holds it; the file keeps the start a user can see).
fn prefitted<G: GameKit>(
    prefit: &crate::fit::FitConfig,
    seed_genome: &Genome,
    seed: u64,
    out: &Path,
    new_run: bool,
) -> anyhow::Result<Genome> {
    let path = out.join("prefit.ron");
    if !new_run {
        return Ok(Genome::load(&path, G::NAME, G::PARAMS)?);
    }
    let report = crate::fit::fit_telling::<G>(prefit, seed_genome, seed ^ 0xf17, &|stage| {
        if let Some(line) = stage.line() {
            tracing::info!("prefit: {line}");
        }
    })?;
    let chosen = match report.chosen {
        Some(i) => {
            let c = &report.candidates[i];
            format!(
                "ridge {} (validation loss {:.5} against {:.5}, score/pairs {} against the seed genome at {})",
                c.ridge,
                c.loss.1,
                report.before.1,
                c.trial.map_or("-".into(), |t| t.cell()),
                G::tuning_budget(prefit.choose_timed, prefit.nodes)
            )
        }
        None => "the seed genome: no fitted candidate beat it".to_string(),
    };
    tracing::info!(
        "prefit: {} games, {} positions in {:.1} s; starting from {chosen}",
        report.games,
        report.train_positions + report.validation_positions,
        report.seconds
    );
    let comment = format!("the prefit of this run's seed genome: {chosen}");
    report
        .genome
        .save(&path, G::NAME, G::PARAMS, &comment)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(report.genome)
}

impl<G: GameKit> Inputs<G> {
    /// Reads the inputs and makes the run folder; a new run writes its
    /// config there (a resumed run keeps the one it was started with, as
    /// written).
    fn load(config: &EvolveConfig, out: &Path, new_run: bool) -> anyhow::Result<Self> {
        anyhow::ensure!(
            config.judges.len() + 1 >= G::PLAYERS,
            "{} judges cannot fill a {}-seat table beside the genome",
            config.judges.len(),
            G::PLAYERS
        );
        let train = load_maps::<G>(&config.train_maps)?;
        let seed_genome = Genome::load(&config.seed_genome, G::NAME, G::PARAMS)?;
        std::fs::create_dir_all(out).with_context(|| format!("cannot create run folder {}", out.display()))?;
        if new_run {
            crate::fsutil::write_atomic(&out.join("config.ron"), config.to_ron().as_bytes())
                .with_context(|| format!("cannot write {}", out.join("config.ron").display()))?;
        }
        let start = match &config.prefit {
            Some(prefit) => prefitted::<G>(prefit, &seed_genome, config.seed, out, new_run)?,
            None => seed_genome,
        };
        let judges = opponents::<G>(config)?;
        let holdout_maps = if config.holdout_rounds > 0 {
            load_maps::<G>(&config.holdout_maps)?
                .into_iter()
                .map(|m| m.map)
                .collect()
        } else {
            Vec::new()
        };
        Ok(Inputs {
            maps: train.into_iter().map(|m| m.map).collect(),
            holdout_maps,
            judges,
            start: start.weights.iter().map(|&w| f64::from(w)).collect(),
            limits: config.limits::<G>(),
        })
    }

    /// The champion's judge tables on the train maps and, unless skipped,
    /// on the holdout maps; their games and the judges' faults go to
    /// `faults`.
    fn evaluate(
        &self,
        executor: &dyn Executor<G>,
        config: &EvolveConfig,
        tuner: &Tuner,
        faults: &mut FaultTally,
    ) -> (Evaluation, usize) {
        let champion = nearest_genome::<G>(&tuner.mean());
        let (judges, limits) = (&self.judges, self.limits);
        let (judge_rates, train_games, train_faults) =
            judge_rates_on::<G>(executor, &self.maps, judges, &champion, limits, 1, config.seed ^ 0x7a1e);
        faults.merge(&train_faults);
        let (holdout_rates, holdout_games, holdout_faults) = if self.holdout_maps.is_empty() {
            (Vec::new(), 0, FaultTally::new(judges.len()))
        } else {
            let rounds = config.holdout_rounds;
            judge_rates_on::<G>(
                executor,
                &self.holdout_maps,
                judges,
                &champion,
                limits,
                rounds,
                config.seed ^ 0x401d,
            )
        };
        faults.merge(&holdout_faults);
        let evaluation = Evaluation {
            champion,
            judge_rates,
            holdout_rates,
        };
        (evaluation, train_games + holdout_games)
    }
}

/// A resumed run's checkpoint, checked against the game, with the run
/// folder's outputs written again from its history.
fn resumed<G: GameKit>(config: &EvolveConfig, out: &Path, c: Checkpoint) -> anyhow::Result<Checkpoint> {
    anyhow::ensure!(
        c.game == G::NAME,
        "the checkpoint is for `{}`, not `{}`",
        c.game,
        G::NAME
    );
    let weights = c.tuner().map_or(0, |t| t.reference().len());
    anyhow::ensure!(
        weights == G::PARAMS.len(),
        "the checkpoint's genomes have {weights} weights, {} has {}",
        G::NAME,
        G::PARAMS.len()
    );
    if !c.history.is_empty() {
        write_outputs::<G>(config, out, &c.history)?;
    }
    Ok(c)
}

/// What the loop carries from one generation to the next beside the GA:
/// the history, the evaluation period under way, and the run's games and
/// seconds (those before this process started are `earlier`).
struct Ledger {
    history: Vec<GenerationStats>,
    period: Period,
    games: usize,
    earlier: f64,
    genomes_log: GenomesLog,
}

impl Ledger {
    fn new(checkpoint: Checkpoint, judges: usize, out: &Path) -> anyhow::Result<Self> {
        let resuming = !checkpoint.history.is_empty() || checkpoint.generation() > 0;
        let mut faults = checkpoint.period_faults;
        faults.resize(judges, JudgeFaults::default());
        Ok(Ledger {
            history: checkpoint.history,
            period: Period {
                games: checkpoint.period_games,
                tuning_games: checkpoint.period_tuning_games,
                seconds: checkpoint.period_seconds,
                faults,
            },
            games: checkpoint.games,
            earlier: checkpoint.seconds,
            genomes_log: GenomesLog::open(out, resuming)?,
        })
    }

    /// Plays one generation of the tuner and logs its genomes; returns the
    /// generation's number, its rated players and the judges' faults.
    fn tune<G: GameKit>(
        &mut self,
        tuner: &mut Tuner,
        oracle: &GameOracle<G>,
    ) -> anyhow::Result<(u32, Vec<Rated>, FaultTally)> {
        let before = oracle.games_played();
        let rated = tuner.step(oracle);
        let generation = tuner.generation() as u32;
        let games = (oracle.games_played() - before) as usize;
        let faults = oracle.take_faults();
        self.genomes_log.append(generation, &rated)?;
        self.period.games += games;
        self.period.tuning_games += games;
        self.games += games;
        Ok((generation, rated, faults))
    }

    /// Adds a generation's judge faults to the period, after checking them.
    fn add_faults(&mut self, config: &EvolveConfig, generation: u32, faults: &FaultTally) -> anyhow::Result<()> {
        check_faults(config, &format!("generation {generation}"), faults)?;
        for (p, g) in self.period.faults.iter_mut().zip(&faults.judges) {
            p.add(g);
        }
        Ok(())
    }

    /// Ends the evaluation period with its row of the history, rewrites
    /// the run folder's outputs, and starts the next period.
    fn close_period<G: GameKit>(
        &mut self,
        config: &EvolveConfig,
        out: &Path,
        generation: (u32, &Tuner, &[Rated]),
        evaluation: Evaluation,
        seconds: f64,
    ) -> anyhow::Result<GenerationStats> {
        let judges = self.period.faults.len();
        let mut period = std::mem::replace(
            &mut self.period,
            Period {
                faults: vec![JudgeFaults::default(); judges],
                ..Period::default()
            },
        );
        period.seconds += seconds;
        let (number, tuner, rated) = generation;
        let stats = GenerationStats::new(config, number, tuner.sigma(), rated, evaluation, period);
        self.history.push(stats.clone());
        write_outputs::<G>(config, out, &self.history)?;
        Ok(stats)
    }

    fn checkpoint<G: GameKit>(&self, tuner: &Tuner, started: Instant) -> Checkpoint {
        let mut checkpoint = Checkpoint {
            game: G::NAME.to_string(),
            ga: None,
            cma: None,
            history: self.history.clone(),
            period_games: self.period.games,
            period_tuning_games: self.period.tuning_games,
            period_seconds: self.period.seconds,
            games: self.games,
            seconds: self.earlier + started.elapsed().as_secs_f64(),
            period_faults: self.period.faults.clone(),
        };
        checkpoint.set_tuner(tuner.state());
        checkpoint
    }
}

/// Runs evolution as configured, writing the run folder `out`; `report` is
/// called after each evaluation (the CLI prints its one-line summary). With
/// `resume`, a run folder's checkpoint is picked up where it stopped. The
/// tuner's games, the evaluations and the confirmation are played by
/// `executor` (this machine's cores, [`crate::arena::executor::Local`], or
/// workers): the same seed gives the same run on either.
pub fn run<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    resume: Option<Checkpoint>,
    executor: &dyn Executor<G>,
    mut report: impl FnMut(&GenerationStats),
) -> anyhow::Result<RunSummary> {
    let started = Instant::now();
    let inputs = Inputs::<G>::load(config, out, resume.is_none())?;
    let judge_weights: Vec<f64> = config.judges.iter().map(|j| j.1).collect();
    let judges = inputs.judges.len();
    let oracle = GameOracle::<G>::new(
        executor,
        &inputs.maps,
        &inputs.judges,
        &judge_weights,
        config.peer_share,
        inputs.limits,
    );
    let space = tuning_space::<G>(&inputs.start, config.fix_scale).map_err(|e| crate::bad_input!("{e}"))?;
    let settings = Settings::of(config);
    let checkpoint = match resume {
        Some(c) => resumed::<G>(config, out, c)?,
        None => Checkpoint::start::<G>(TunerState::start(&settings, &space, &inputs.start, config.seed, judges)),
    };
    let state = checkpoint.tuner().context("the checkpoint holds no tuner's state")?;
    let mut tuner =
        Tuner::resume(&space, &settings, config.seed, judges, state).map_err(|m| crate::bad_input!("{m}"))?;
    let mut ledger = Ledger::new(checkpoint, judges, out)?;

    while !tuner.finished() {
        let generation_started = Instant::now();
        let (generation, rated, mut faults) = ledger.tune(&mut tuner, &oracle)?;
        let evaluated = if generation.is_multiple_of(config.eval_every) || tuner.finished() {
            let (evaluation, games) = inputs.evaluate(executor, config, &tuner, &mut faults);
            ledger.add_faults(config, generation, &faults)?;
            ledger.period.games += games;
            ledger.games += games;
            let seconds = generation_started.elapsed().as_secs_f64();
            Some(ledger.close_period::<G>(config, out, (generation, &tuner, &rated), evaluation, seconds)?)
        } else {
            ledger.add_faults(config, generation, &faults)?;
            ledger.period.seconds += generation_started.elapsed().as_secs_f64();
            None
        };
        ledger.checkpoint::<G>(&tuner, started).save(out)?;
        // After the checkpoint, so what the callback reads is on disk.
        if let Some(stats) = &evaluated {
            report(stats);
        }
    }
    confirm::<G>(config, out, &tuner, &oracle, ledger, started)
}

/// The recommendation, confirmed with the rest of the budget, written as
/// best.ron with holdout.csv beside it. Its games are seeded like everything
/// else: a run resumed after its last generation confirms exactly as an
/// unbroken one.
fn confirm<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    tuner: &Tuner,
    oracle: &GameOracle<G>,
    ledger: Ledger,
    started: Instant,
) -> anyhow::Result<RunSummary> {
    let before = oracle.games_played();
    let result = tuner.finish(oracle);
    let games = ledger.games + (oracle.games_played() - before) as usize;
    check_faults(config, "the confirmation", &oracle.take_faults())?;
    let champion = Genome {
        weights: nearest_genome::<G>(&result.point),
    };
    let history = ledger.history;
    let last = history.last().context("the run has no evaluation")?;
    let comment = format!(
        "{} genome written by gridtune evolve: seed {}, {} generations, {} of the tuner's candidates (confirmed in {} games); last evaluated train score {:.1}",
        G::NAME,
        config.seed,
        last.generation,
        result.name,
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
    write_holdout(out, &holdout)?;
    Ok(RunSummary {
        champion,
        recommended: result.name,
        candidates: result.candidates,
        history,
        holdout,
        seconds: ledger.earlier + started.elapsed().as_secs_f64(),
        games,
    })
}

/// The run's verdict on its champion ([`verdict`]), after the confirmation:
/// read back when an earlier process of this run finished it for the same
/// champion, else played (`each_pair` sees each match under way) and written
/// to verdict.ron, verdict.csv and generations.csv's last row. A run killed
/// during the verdict plays it again on resume, on the same maps and seeds.
/// None when the config skips it.
pub fn settle_verdict<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    summary: &RunSummary,
    each_pair: impl FnMut(usize, &crate::arena::match_report::MatchReport),
) -> anyhow::Result<Option<verdict::Verdict>> {
    if config.verdict.games == 0 {
        return Ok(None);
    }
    let earlier = match verdict::Verdict::load(out) {
        Ok(v) => v.filter(|v| v.champion == summary.champion.weights),
        Err(e) => {
            tracing::warn!("playing the verdict again: {e:#}");
            None
        }
    };
    let verdict = match earlier {
        Some(v) => {
            tracing::info!("verdict read back from {}", out.join(verdict::VERDICT_RON).display());
            v
        }
        None => {
            let Some(v) = verdict::play::<G>(config, &summary.champion.weights, each_pair)? else {
                return Ok(None);
            };
            write_verdict(out, &v)?;
            v
        }
    };
    write_generations(config, out, &summary.history, Some(&verdict))?;
    Ok(Some(verdict))
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

pub fn load_maps<G: GameKit>(dir: &Path) -> anyhow::Result<Vec<NamedMap<G::Map>>> {
    Ok(load_dir(dir, G::parse_map)?)
}
