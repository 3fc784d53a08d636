//! A run's history: one row per evaluation period, built in one step from
//! the generation's rating fit, the champion's evaluation and the period's
//! own counts.

use super::config::EvolveConfig;
use super::faults::JudgeFaults;
use super::judge_tables::contest_score;
use crate::report::fitness::FitnessPoint;
use crate::tuner::ga::{Rated, Role};
use serde::{Deserialize, Serialize};

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
    /// Mutation step, as a share of each weight's range (the GA's mean over
    /// its islands, or CMA-ES's σ).
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

/// What the champion's evaluation measured: its weights and its rates
/// against each judge (in config order) on the train maps and, unless
/// skipped, the holdout maps.
pub struct Evaluation {
    pub champion: Vec<i32>,
    pub judge_rates: Vec<f64>,
    pub holdout_rates: Vec<f64>,
}

/// The evaluation period under way: its games (the tuner's and the
/// evaluations'), its seconds and the judges' faults.
#[derive(Clone, Debug, Default)]
pub struct Period {
    pub games: usize,
    pub tuning_games: usize,
    pub seconds: f64,
    pub faults: Vec<JudgeFaults>,
}

impl GenerationStats {
    /// The row of the period that ends with `generation`: the figures of
    /// its last rating fit (`rated`), the champion's evaluation and the
    /// period's counts.
    pub fn new(
        config: &EvolveConfig,
        generation: u32,
        sigma: f64,
        rated: &[Rated],
        evaluation: Evaluation,
        period: Period,
    ) -> GenerationStats {
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
        let offspring_games = rated
            .iter()
            .filter(|r| matches!(r.role, Role::Offspring(_)))
            .map(|r| 2 * r.pairs);
        let holdout = (!evaluation.holdout_rates.is_empty()).then(|| contest_score(config, &evaluation.holdout_rates));
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
            sigma,
            offspring_games: (
                offspring_games.clone().min().unwrap_or(0),
                offspring_games.max().unwrap_or(0),
            ),
            train_score: contest_score(config, &evaluation.judge_rates),
            judge_rates: evaluation.judge_rates,
            holdout,
            holdout_rates: evaluation.holdout_rates,
            games: period.games,
            tuning_games: period.tuning_games,
            seconds: period.seconds,
            best_weights: evaluation.champion,
            judge_faults: period.faults,
        }
    }
}

/// What the report's fitness figures draw of an evaluation.
impl From<&GenerationStats> for FitnessPoint {
    fn from(s: &GenerationStats) -> Self {
        FitnessPoint {
            generation: s.generation,
            best: s.best,
            mean: s.mean,
            median: s.median,
            champion_elo: s.champion_elo,
            champion_se: s.champion_se,
            train_score: s.train_score,
            holdout: s.holdout,
        }
    }
}
