//! A noise-aware genetic algorithm for parameters judged by games.
//!
//! Each island keeps a mean genome and breeds its offspring around it. One
//! generation of all islands:
//!
//! 1. Breeding. An offspring base is the island's mean or, at the crossover
//!    rate, a uniform or blend (BLX-α) crossover of the mean with a parent
//!    picked by tournament among the last generation's winners and elites.
//!    (With `base_jitter`, the mean is first spread within a fraction of the
//!    step.) Each base gets mirrored twins `base ± d` (Brockhoff et al. 2010): every
//!    parameter moves by `±σ' · range`, with a log-normally self-adapted step
//!    `σ'` (Schwefel) and a random sign ([`breed::mirrored_twins`]).
//! 2. Games under common random numbers: every match of a round uses the
//!    round's seed, so every genome of the round meets the same maps and
//!    seeds. The twins play each other: their result measures the slope along
//!    `d` at the base, the curvature of the two sides cancelling. Each
//!    island's mean plays the reference (the start point) and a hall-of-fame
//!    member, and last generation's elites play the mean again (survivors are
//!    re-evaluated, never cached).
//! 3. Racing: later rounds replay only the twin pairs whose winner is still
//!    open (|z| < `race_z`), up to `max_rounds`; the pairs each genome played
//!    are logged.
//! 4. Rating: one Bradley-Terry fit over every game of the generation, with
//!    standard errors ([`crate::tuner::rating`]).
//! 5. Selection and recombination: only a pair's winner is selected, and the
//!    mean moves by the winners' mutations weighted by their z-scores, times
//!    a learning rate ([`select`]).
//! 6. Step size: self-adaptation (the steps recombine geometrically with the
//!    selection weights) plus the noise handling of UH-CMA-ES (Hansen et al.
//!    2009): when the generation's results are indistinguishable from noise
//!    the step grows, since a longer lever is what raises the signal (the
//!    offspring pay for it; the mean, which is what the run recommends, does
//!    not); when the elites lose more than `max_offspring_loss` Elo against
//!    the mean, the step shrinks.
//! 7. Elites (the most clearly winning twins), a hall of fame (island means
//!    at intervals; the lowest-rated member leaves when it is full) and ring
//!    migration of the island means.
//!
//! The learning rate follows the decay fishtest gives SPSA's `a_k`
//! (`((1 + A) / (progress + A))^alpha`, `A` = 10% of the budget, `alpha` =
//! 0.602) down to a final rate set, as spsa_simul sets SPSA's `r`, by the
//! precision wanted: each island's mean then jitters by at most `precision`
//! Elo with probability `confidence`, whatever the curvature
//! ([`select::final_learning_rate`]).
//!
//! Twins are clipped to the box as fishtest clips `θ ± c` (or, with
//! `clip_until` below 1, kept exact mirrors later in the run; see there).
//!
//! Recommendation: the average of the islands' final means (the population
//! mean, as CLOP and TBPSA recommend, not the luckiest sample), confirmed
//! with `confirm_fraction` of the budget in a round robin against the tail
//! average of the means, each island's mean, the best hall-of-fame member and
//! the best offspring; a rival replaces it only if it rates better by
//! `confirm_z` standard errors.
//!
//! Real genomes are integers on a step grid: the GA moves in the continuous
//! box, and the oracle rounds a point when it builds a bot
//! ([`crate::tuner::Space::round_stochastic`]).

pub mod breed;
pub mod config;
pub mod confirm;
mod generation;
pub mod rated;
pub mod roster;
pub mod select;
pub mod state;
pub mod surrogate;

use crate::stats::distributions::chi2_quantile;
use crate::tuner::{derive_seed, Oracle, Space};
pub use config::{show_number, GaConfig};
pub use confirm::Candidate;
pub use rated::{Rated, Role};
pub use select::Island;
use select::{final_learning_rate, Tuning};
use serde::Serialize;
pub use state::GaState;
use surrogate::Surrogate;

/// What one island did in one generation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IslandLog {
    /// The mean after the generation.
    pub mean: Vec<f64>,
    /// Step (fraction of the range) after the generation.
    pub sigma: f64,
    /// Learning rate used.
    pub eta: f64,
    /// Rating of the island's mean (as played) against the reference, Elo.
    pub mean_elo: f64,
    pub mean_elo_se: f64,
    /// Mean z² of the twin results: about 1 when they are noise.
    pub signal: f64,
    /// Elo the elites (last generation's offspring) lost against the mean.
    pub offspring_loss: f64,
    /// Twin pairs still open after each round but the last.
    pub open_after_round: Vec<usize>,
    /// Game pairs each offspring played (the plus twins, then the minus twins).
    pub offspring_pairs: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerationLog {
    pub generation: usize,
    /// Games of this generation.
    pub games: u64,
    /// Games of the run so far.
    pub total_games: u64,
    pub islands: Vec<IslandLog>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GaResult {
    pub recommended: Vec<f64>,
    /// Which candidate was recommended.
    pub recommended_name: String,
    pub candidates: Vec<Candidate>,
    /// Games spent, confirmation included.
    pub games: u64,
    pub confirmation_games: u64,
    pub log: Vec<GenerationLog>,
}

const RNG_STREAM: u64 = 0x6761_5f72_6e67;
const CONFIRM_STREAM: u64 = 0x636f_6e66;

/// A GA run, one generation at a time.
pub struct Ga<'a> {
    space: &'a Space,
    cfg: &'a GaConfig,
    seed: u64,
    /// Fixed opponents of the oracle that each island mean plays.
    fixed: usize,
    tau: f64,
    tuning: Tuning,
    evolve_budget: u64,
    average_after: u64,
    pub state: GaState,
}

impl<'a> Ga<'a> {
    /// A new run from `start`; `fixed` is the number of the oracle's fixed
    /// opponents (judges) each island mean plays `cfg.fixed_pairs` pairs
    /// against every generation.
    pub fn new(space: &'a Space, start: &[f64], cfg: &'a GaConfig, seed: u64, fixed: usize) -> Self {
        assert_eq!(start.len(), space.dim(), "start of the wrong dimension");
        let mut reference = start.to_vec();
        space.clamp(&mut reference);
        let state = GaState {
            generation: 0,
            spent: 0,
            islands: (0..cfg.islands)
                .map(|_| Island {
                    mean: reference.clone(),
                    sigma: cfg.sigma_init,
                    parents: Vec::new(),
                    elites: Vec::new(),
                    surrogate: Surrogate::new(space.dim()),
                })
                .collect(),
            reference,
            hall: Vec::new(),
            tail_sum: vec![0.0; space.dim()],
            tail_weight: 0.0,
        };
        Self::resume(space, cfg, seed, fixed, state)
    }

    /// Goes on from a saved state.
    pub fn resume(space: &'a Space, cfg: &'a GaConfig, seed: u64, fixed: usize, state: GaState) -> Self {
        if let Err(e) = cfg.check() {
            panic!("invalid GA config: {e}");
        }
        let n = space.dim();
        assert_eq!(state.reference.len(), n, "state of the wrong dimension");
        // Each island's mean meets the precision on its own (migration blends the
        // means, so their average is not much steadier than one of them).
        let chi2 = chi2_quantile(cfg.confidence, n as f64);
        let tuning = Tuning {
            precision_rate: final_learning_rate(cfg.precision, chi2, 1),
            schedule: 1.0,
            growth: cfg.noise_growth.unwrap_or(1.0 + 2.0 / (n as f64 + 10.0)),
            sigma_bounds: (cfg.sigma_min, cfg.sigma_max),
            max_offspring_loss: cfg.max_offspring_loss,
            elites: cfg.elites,
        };
        let confirm_budget = (cfg.games as f64 * cfg.confirm_fraction) as u64;
        let evolve_budget = cfg.games - confirm_budget;
        Ga {
            space,
            cfg,
            seed,
            fixed,
            tau: cfg.tau.unwrap_or(1.0 / (2.0 * n as f64).sqrt()),
            tuning,
            evolve_budget,
            average_after: (evolve_budget as f64 * cfg.average_from) as u64,
            state,
        }
    }

    /// Upper bound on the games of the next generation.
    pub fn next_generation_games(&self) -> u64 {
        self.cfg.generation_games(self.state.hall.len(), self.fixed)
    }

    /// Whether the budget (less the confirmation's share) has no room for
    /// another generation.
    pub fn finished(&self) -> bool {
        self.state.spent.saturating_add(self.next_generation_games()) > self.evolve_budget
    }

    /// The population mean: the average of the island means, what the run
    /// recommends unless the confirmation finds better.
    pub fn mean(&self) -> Vec<f64> {
        let k = self.state.islands.len() as f64;
        let mut mean: Vec<f64> = (0..self.space.dim())
            .map(|d| self.state.islands.iter().map(|isl| isl.mean[d]).sum::<f64>() / k)
            .collect();
        // An average of equal values can be off by its last bit; a pinned
        // weight must stay exact.
        self.space.clamp(&mut mean);
        mean
    }

    /// The candidates for the recommendation, the population mean first.
    pub fn candidates(&self) -> Vec<(String, Vec<f64>)> {
        let state = &self.state;
        let mut candidates = vec![("population mean".to_string(), self.mean())];
        if state.tail_weight > 0.0 {
            let mut tail: Vec<f64> = state.tail_sum.iter().map(|s| s / state.tail_weight).collect();
            self.space.clamp(&mut tail);
            candidates.push(("tail average".to_string(), tail));
        }
        if state.islands.len() > 1 {
            candidates.extend(
                state
                    .islands
                    .iter()
                    .enumerate()
                    .map(|(i, isl)| (format!("island {i} mean"), isl.mean.clone())),
            );
        }
        if let Some((x, _)) = state.hall.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
            candidates.push(("hall of fame best".to_string(), x.clone()));
        }
        if let Some((g, _)) = state
            .islands
            .iter()
            .flat_map(|isl| isl.parents.iter())
            .max_by(|a, b| a.1.total_cmp(&b.1))
        {
            candidates.push(("best offspring".to_string(), g.x.clone()));
        }
        let mut seen: Vec<Vec<f64>> = Vec::new();
        candidates.retain(|(_, x)| {
            let new = !seen.contains(x);
            seen.push(x.clone());
            new
        });
        candidates
    }

    /// Confirms the recommendation with the rest of the budget.
    pub fn finish<O: Oracle + ?Sized>(&self, oracle: &O, log: Vec<GenerationLog>) -> GaResult {
        let candidates = self.candidates();
        let confirmation = confirm::confirm(
            oracle,
            &candidates,
            self.cfg.games.saturating_sub(self.state.spent),
            self.cfg.confirm_z,
            self.cfg.parallel,
            derive_seed(self.seed, CONFIRM_STREAM),
        );
        GaResult {
            recommended: candidates[confirmation.chosen].1.clone(),
            recommended_name: candidates[confirmation.chosen].0.clone(),
            candidates: confirmation.candidates,
            games: self.state.spent + confirmation.games,
            confirmation_games: confirmation.games,
            log,
        }
    }
}

/// Runs the GA from `start` for at most `cfg.games` games.
pub fn run<O: Oracle + ?Sized>(oracle: &O, space: &Space, start: &[f64], cfg: &GaConfig, seed: u64) -> GaResult {
    let mut ga = Ga::new(space, start, cfg, seed, oracle.fixed_opponents());
    let mut log = Vec::new();
    while !ga.finished() {
        log.push(ga.step(oracle).0);
    }
    ga.finish(oracle, log)
}

#[cfg(test)]
mod tests;
