//! What `evolve` shows while it runs: the progress bar, and one line (and
//! one log record) per evaluation of the champion.

use gridtune::arena;
use gridtune::evolve::{Checkpoint, EvolveConfig, GenerationStats};
use gridtune::progress;
use std::time::Instant;

/// What the evolve progress bar shows, updated after each evaluation.
pub struct EvolveBar {
    /// Generations finished at the last evaluation.
    generation: u32,
    /// Games of the run before this session (a resumed run).
    earlier_games: u64,
    /// The arena's game counter when this session began.
    run_base: u64,
    started: Instant,
    /// Games the whole run is expected to play.
    total: u64,
    /// The champion's train score at the last evaluation.
    train: Option<f64>,
}

impl EvolveBar {
    pub fn new(config: &EvolveConfig, checkpoint: Option<&Checkpoint>) -> Self {
        EvolveBar {
            generation: checkpoint.map_or(0, |c| c.generation() as u32),
            earlier_games: checkpoint.map_or(0, |c| c.games as u64),
            run_base: arena::games_finished(),
            started: Instant::now(),
            total: config.games,
            train: checkpoint.and_then(|c| c.history.last()).map(|s| s.train_score),
        }
    }

    pub fn update(&mut self, config: &EvolveConfig, s: &GenerationStats) {
        self.generation = s.generation;
        // Evaluations come on top of the tuner's budget: scale the expected
        // total by their share so far.
        self.total = (config.games as f64 * s.games as f64 / s.tuning_games.max(1) as f64) as u64;
        self.train = Some(s.train_score);
    }

    pub fn line(&self) -> progress::Line {
        let session = arena::games_finished().saturating_sub(self.run_base);
        let done = self.earlier_games + session;
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = (elapsed > 0.2 && session > 0).then(|| session as f64 / elapsed);
        progress::Line {
            stage: format!("evolve, gen {}", self.generation),
            done,
            total: Some(self.total.max(done)),
            games_per_second: rate,
            seconds_left: rate.map(|r| self.total.saturating_sub(done) as f64 / r),
            note: self.train.map_or(String::new(), |t| format!("train {t:.1}")),
        }
    }
}

/// Each judge's rate, as `name 40%`.
fn rates(judge_names: &[String], s: &GenerationStats) -> Vec<String> {
    judge_names
        .iter()
        .zip(&s.judge_rates)
        .map(|(n, r)| format!("{n} {:.0}%", 100.0 * r))
        .collect()
}

/// The line printed after an evaluation.
pub fn generation_line(judge_names: &[String], s: &GenerationStats) -> String {
    let holdout = s.holdout.map_or(String::new(), |h| format!("  holdout {h:5.1}"));
    // A judge's faults are its losses: shown beside the rates they inflate.
    let faults: Vec<String> = judge_names
        .iter()
        .zip(&s.judge_faults)
        .filter(|(_, f)| f.faulted() > 0)
        .map(|(n, f)| format!("{n} {}/{}", f.faulted(), f.games))
        .collect();
    let faults = if faults.is_empty() {
        String::new()
    } else {
        format!("  judge faults [{}]", faults.join(", "))
    };
    format!(
        "gen {:>4}  champion {:+6.1} ±{:4.1} Elo  step {:.3}  train {:5.1} [{}]{holdout}  {} games {:.1}s{faults}",
        s.generation,
        s.champion_elo,
        s.champion_se,
        s.sigma,
        s.train_score,
        rates(judge_names, s).join(", "),
        s.games,
        s.seconds,
    )
}

/// The evaluation's record in the run's log.
pub fn log_evaluation(judge_names: &[String], s: &GenerationStats) {
    tracing::info!(
        generation = s.generation,
        champion_elo = format_args!("{:.1}", s.champion_elo),
        champion_se = format_args!("{:.1}", s.champion_se),
        best = format_args!("{:.1}", s.best),
        sigma = format_args!("{:.3}", s.sigma),
        train = format_args!("{:.2}", s.train_score),
        holdout = format_args!("{}", s.holdout.map_or("-".into(), |h| format!("{h:.2}"))),
        rates = %rates(judge_names, s).join(", "),
        games = s.games,
        tuning_games = s.tuning_games,
        seconds = format_args!("{:.2}", s.seconds),
        "evaluation finished"
    );
}
