//! CMA-ES (Hansen's covariance matrix adaptation) for parameters judged by
//! games, with the noise handling that games need.
//!
//! The GA moves each parameter's step alone, so it cannot follow a valley
//! that runs across parameters: what a weight is worth often depends on the
//! others. CMA-ES learns the covariance of its steps from the steps that won,
//! which turns such a valley into a round bowl (Hansen 2016, "The CMA
//! Evolution Strategy: A Tutorial", whose update and default constants this
//! follows). One generation:
//!
//! 1. Sampling: `λ/2` mirrored pairs `m ± σ B D z` (Brockhoff et al. 2010),
//!    `B D` the square root of the covariance, clipped to the box.
//! 2. Games under common random numbers (every match of the generation uses
//!    its seed): each mirrored pair plays each other (`twin_pairs` game
//!    pairs: the slope along the pair's line, the curvature cancelling, on
//!    the longest lever), and each offspring plays the mean (`mean_pairs`:
//!    what ties the pairs into one ranking and shows the curvature).
//! 3. Ranking: one Bradley-Terry fit over those games
//!    ([`crate::tuner::rating`]) rates every offspring against the mean.
//! 4. The update of the mean (with Arnold's weights of every rank,
//!    [`mean_weights`]), the evolution paths, the covariance (rank one and
//!    rank μ, Hansen's weights) and the step (cumulative step-size adaptation).
//!
//! Noise handling, after UH-CMA-ES (Hansen et al. 2009):
//! - The mean moves by a learning rate `c_m` (Hansen's tutorial allows
//!   `c_m < 1` for noisy functions) that decays on fishtest's schedule to a
//!   final rate set by the precision wanted, as the GA's does
//!   ([`final_mean_rate`]): a ranking of game results is mostly noise near
//!   the optimum, and only a small rate averages it out.
//! - A generation whose ranking does not stand out of the noise (the mean
//!   z² of the offspring against the mean within two standard deviations of
//!   its value under pure noise, 1) grows the step, as UH-CMA-ES does (a
//!   longer lever raises the signal), instead of adapting it by its path.
//! - The covariance learns at Hansen's rates times `q = s / (1 + s)`, `s`
//!   the signal share of the rankings (the mean z² less 1, averaged over
//!   about [`SIGNAL_MEMORY`] generations): a rank-μ update from a noise
//!   ranking is unbiased but random, and at full rate the covariance drifts
//!   to a condition number of 15 on spsa_simul's round bowl within a run;
//!   at a small rate the noise averages out while the signal accumulates.
//!
//! The covariance is kept at geometric-mean eigenvalue 1, its scale moved
//! into `σ`, so that `σ` is the typical step as a fraction of each range and
//! its bounds mean what they say. The recommendation is the final mean.
//! Real genomes are integers on a step grid: CMA-ES moves in the continuous
//! box and the oracle rounds a point when it builds a bot, as for the GA.

pub mod config;
pub mod state;

use crate::stats::distributions::{chi2_quantile, normal_cdf};
use crate::tuner::ga::rated::{Rated, Role};
use crate::tuner::ga::roster::{Fixture, Roster};
use crate::tuner::linalg::{cholesky, symmetric_eigen};
use crate::tuner::rating::Ratings;
use crate::tuner::synthetic::standard_normal;
use crate::tuner::{derive_seed, Oracle, Space};
pub use config::CmaConfig;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
pub use state::CmaState;

/// What one generation did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CmaLog {
    pub generation: usize,
    pub games: u64,
    pub total_games: u64,
    /// The mean after the generation.
    pub mean: Vec<f64>,
    pub sigma: f64,
    /// The mean's learning rate used.
    pub eta: f64,
    /// Mean z² of the offspring against the mean: about 1 when they are noise.
    pub signal: f64,
    /// Whether the ranking stood out of the noise (else the step grew).
    pub learned: bool,
    /// The share of Hansen's covariance learning rates used.
    pub covariance_rate: f64,
    /// Largest over smallest eigenvalue of the covariance the generation sampled with.
    pub condition: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CmaResult {
    pub recommended: Vec<f64>,
    pub games: u64,
    pub log: Vec<CmaLog>,
}

/// Generations over which the rankings' signal is averaged.
pub const SIGNAL_MEMORY: f64 = 20.0;

const SAMPLE_STREAM: u64 = 0x0063_6d61_5f7a;
const GAMES_STREAM: u64 = 0x0063_6d61_5f67;

/// Hansen's strategy constants for `n` parameters and `λ` offspring.
#[derive(Clone, Debug)]
struct Strategy {
    lambda: usize,
    /// Hansen's positive weights of the best half: the paths and the covariance.
    weights: Vec<f64>,
    mu_eff: f64,
    /// Arnold's weights of every rank: the mean ([`mean_weights`]).
    mean_weights: Vec<f64>,
    c_sigma: f64,
    d_sigma: f64,
    c_c: f64,
    c_1: f64,
    c_mu: f64,
    /// E‖N(0, I)‖.
    chi_n: f64,
    growth: f64,
    /// The final mean rate times the offspring's standard error ([`final_mean_rate`]).
    precision_rate: f64,
}

impl Strategy {
    fn new(n: usize, cfg: &CmaConfig) -> Strategy {
        let nf = n as f64;
        let lambda = cfg.population(n);
        let mu = lambda / 2;
        let raw: Vec<f64> = (1..=mu)
            .map(|i| ((lambda as f64 + 1.0) / 2.0).ln() - (i as f64).ln())
            .collect();
        let total: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / total).collect();
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let c_sigma = (mu_eff + 2.0) / (nf + mu_eff + 5.0);
        let c_1 = 2.0 / ((nf + 1.3).powi(2) + mu_eff);
        let chi2_q = chi2_quantile(cfg.confidence, nf);
        Strategy {
            lambda,
            mu_eff,
            c_sigma,
            d_sigma: 1.0 + 2.0 * (((mu_eff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + c_sigma,
            c_c: (4.0 + mu_eff / nf) / (nf + 4.0 + 2.0 * mu_eff / nf),
            c_1,
            c_mu: (1.0 - c_1).min(2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((nf + 2.0).powi(2) + mu_eff)),
            chi_n: nf.sqrt() * (1.0 - 1.0 / (4.0 * nf) + 1.0 / (21.0 * nf * nf)),
            growth: cfg.noise_growth.unwrap_or(1.0 + 2.0 / (nf + 10.0)),
            precision_rate: final_mean_rate(cfg.precision, chi2_q, &mean_weights(lambda)),
            mean_weights: mean_weights(lambda),
            weights,
        }
    }
}

/// The final learning rate of the mean, times the standard error `SE` (Elo)
/// of an offspring's rating against the mean, whose stationary jitter costs
/// `precision` Elo at the quantile `chi2_q` of χ²(n).
///
/// Near the optimum of a quadratic with Hessian `-2K` and with the ranking
/// mostly noise, offspring `m + σ z` is ranked by noise plus `σ ∇·z / SE`,
/// so the weighted selected step `y_w` has expectation `c_w σ ∇ / SE`
/// (`c_w = Σ w_i E[N_{i:λ}]`, the weights times the expected normal order
/// statistics) and per-parameter variance `1 / μ_eff`. With the mean moving
/// by `c_m σ y_w`, it relaxes by `4 c_m c_w K σ² / SE` per generation and
/// jitters by `c_m² σ² / μ_eff`: a stationary Elo loss whose quantile is
/// `c_m SE χ²_q / (4 c_w μ_eff)`. The curvature and the step cancel, as for
/// SPSA's `r` and the GA's rate: the precision alone sets the final rate.
pub fn final_mean_rate(precision: f64, chi2_q: f64, weights: &[f64]) -> f64 {
    let lambda = weights.len();
    let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
    let c_w: f64 = weights
        .iter()
        .enumerate()
        .map(|(i, w)| w * expected_order_statistic(i + 1, lambda))
        .sum();
    4.0 * c_w * mu_eff * precision / chi2_q
}

/// The weights that move the mean, best rank first: the expected normal
/// order statistics, negative for the worse half, scaled to absolute sum 1.
/// Near the optimum the ranking is mostly noise, and these maximise the
/// progress per unit of jitter (`c_w² μ_eff` above; Arnold 2006, "Weighted
/// multirecombination evolution strategies"): about twice that of Hansen's
/// positive weights at λ = 8, whose worse half carries as much information
/// as the better half. With mirrored pairs the step is about the centroid of
/// the better half, as Hansen's; the weights sum to zero, so steps
/// shortened by the box do not drift the mean when the ranking is noise.
pub fn mean_weights(lambda: usize) -> Vec<f64> {
    let mut w: Vec<f64> = (1..=lambda).map(|i| expected_order_statistic(i, lambda)).collect();
    for i in 0..lambda / 2 {
        let v = 0.5 * (w[i] - w[lambda - 1 - i]);
        (w[i], w[lambda - 1 - i]) = (v, -v);
    }
    if lambda % 2 == 1 {
        w[lambda / 2] = 0.0;
    }
    let total: f64 = w.iter().map(|v| v.abs()).sum();
    w.iter().map(|v| v / total).collect()
}

/// E of the `i`-th largest of `n` standard normal draws, by the trapezoid
/// rule on its density `n C(n-1, i-1) φ Φ^(n-i) (1-Φ)^(i-1)`.
pub fn expected_order_statistic(i: usize, n: usize) -> f64 {
    let ln_choose = |a: usize, b: usize| -> f64 { (1..=b).map(|k| ((a - b + k) as f64 / k as f64).ln()).sum() };
    let log_c = (n as f64).ln() + ln_choose(n - 1, i - 1);
    let (lo, hi, steps) = (-12.0, 12.0, 6000);
    let h = (hi - lo) / steps as f64;
    (0..=steps)
        .map(|k| {
            let x = lo + k as f64 * h;
            let cdf = normal_cdf(x);
            let log_density = log_c - 0.5 * x * x - 0.5 * (std::f64::consts::TAU).ln()
                + (n - i) as f64 * cdf.max(1e-300).ln()
                + (i - 1) as f64 * (1.0 - cdf).max(1e-300).ln();
            let end = if k == 0 || k == steps { 0.5 } else { 1.0 };
            end * x * log_density.exp() * h
        })
        .sum()
}

/// A CMA-ES run, one generation at a time.
pub struct Cma<'a> {
    space: &'a Space,
    cfg: &'a CmaConfig,
    seed: u64,
    strategy: Strategy,
    pub state: CmaState,
}

impl<'a> Cma<'a> {
    pub fn new(space: &'a Space, start: &[f64], cfg: &'a CmaConfig, seed: u64) -> Self {
        assert_eq!(start.len(), space.dim(), "start of the wrong dimension");
        Self::resume(space, cfg, seed, CmaState::new(space, start, cfg))
    }

    /// Goes on from a saved state (check it first with [`CmaState::check`]).
    pub fn resume(space: &'a Space, cfg: &'a CmaConfig, seed: u64, state: CmaState) -> Self {
        if let Err(e) = cfg.check() {
            panic!("invalid CMA-ES config: {e}");
        }
        assert_eq!(state.mean.len(), space.dim(), "state of the wrong dimension");
        Cma {
            space,
            cfg,
            seed,
            strategy: Strategy::new(space.dim(), cfg),
            state,
        }
    }

    /// Whether the budget has no room for another generation.
    pub fn finished(&self) -> bool {
        self.state
            .spent
            .saturating_add(self.cfg.generation_games(self.space.dim()))
            > self.cfg.games
    }

    /// One generation: sample, play, rank, update. Returns its log and
    /// every player with its rating: against the start point when the mean
    /// played it (`reference_pairs`), else against the mean.
    pub fn step<O: Oracle + ?Sized>(&mut self, oracle: &O) -> (CmaLog, Vec<Rated>) {
        let n = self.space.dim();
        let s = &self.strategy;
        let st = &self.state;
        let generation_seed = derive_seed(self.seed, derive_seed(SAMPLE_STREAM, st.generation as u64));
        let (b, d) = sqrt_of(&st.cov, n);

        // Offspring in mirrored pairs, clipped to the box; their steps in
        // units of σ times the range, as the update needs them.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(generation_seed);
        let mut roster = Roster::default();
        let mean_seat = roster.add(st.mean.clone());
        let mut steps: Vec<Vec<f64>> = Vec::with_capacity(s.lambda);
        for _ in 0..s.lambda / 2 {
            let z: Vec<f64> = (0..n).map(|_| standard_normal(&mut rng)).collect();
            let bdz: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| b[i * n + j] * d[j] * z[j]).sum())
                .collect();
            for sign in [1.0, -1.0] {
                let mut x: Vec<f64> = (0..n)
                    .map(|i| st.mean[i] + sign * st.sigma * self.space.range(i) * bdz[i])
                    .collect();
                self.space.clamp(&mut x);
                steps.push(
                    (0..n)
                        .map(|i| match self.space.is_pinned(i) {
                            true => 0.0,
                            false => (x[i] - st.mean[i]) / (st.sigma * self.space.range(i)),
                        })
                        .collect(),
                );
                roster.add(x);
            }
        }
        let mut fixtures: Vec<Fixture> = (1..=s.lambda)
            .map(|k| Fixture {
                a: k,
                b: mean_seat,
                pairs: self.cfg.mean_pairs,
            })
            .collect();
        fixtures.extend((0..s.lambda / 2).map(|k| Fixture {
            a: 2 * k + 1,
            b: 2 * k + 2,
            pairs: self.cfg.twin_pairs,
        }));
        // Seated last, so the offspring keep seats 1..=λ. A mean still at the
        // start would only play its own copy.
        let reference_seat = (self.cfg.reference_pairs > 0).then(|| roster.add(st.reference.clone()));
        if let Some(r) = reference_seat.filter(|_| st.mean != st.reference) {
            fixtures.push(Fixture {
                a: mean_seat,
                b: r,
                pairs: self.cfg.reference_pairs,
            });
        }
        roster.play_round(
            oracle,
            &fixtures,
            derive_seed(generation_seed, GAMES_STREAM),
            self.cfg.parallel,
        );
        let ratings = roster.fit(mean_seat);

        let mut order: Vec<usize> = (0..s.lambda).collect();
        order.sort_by(|&a, &b| ratings.elo[b + 1].total_cmp(&ratings.elo[a + 1]).then(a.cmp(&b)));
        let z2: Vec<f64> = (1..=s.lambda)
            .map(|k| {
                let se = ratings.diff_se(k, mean_seat);
                if se > 0.0 {
                    (ratings.elo[k] / se).powi(2)
                } else {
                    0.0
                }
            })
            .collect();
        let signal = z2.iter().sum::<f64>() / s.lambda as f64;
        let learned = signal - 1.0 > 2.0 * (2.0 / s.lambda as f64).sqrt();
        // The noise of the ranking, as the design of the final rate takes it:
        // each offspring's rating against the mean. (The twins' games alone
        // understate it: with them, runs of 800,000 games ended outside the
        // precision asked for.)
        let rms_se = ((1..=s.lambda)
            .map(|k| ratings.diff_se(k, mean_seat).powi(2))
            .sum::<f64>()
            / s.lambda as f64)
            .sqrt();
        let progress = st.spent as f64 / self.cfg.games.max(1) as f64;
        let schedule = ((1.0 + self.cfg.gain_a_ratio) / (progress + self.cfg.gain_a_ratio)).powf(self.cfg.gain_alpha);
        let eta = if rms_se > 0.0 {
            (schedule * s.precision_rate / rms_se).min(1.0)
        } else {
            1.0
        };
        let games = roster.games;
        let rated = rated(&roster, &ratings, mean_seat, reference_seat);
        let average = &mut self.state.signal_average;
        *average += (signal - 1.0 - *average) / SIGNAL_MEMORY;
        let share = average.max(0.0);
        let covariance_rate = share / (1.0 + share);
        self.update(&steps, &order, eta, learned, covariance_rate, &b, &d);
        self.state.spent += games;
        self.state.generation += 1;
        // From the decomposition the generation sampled with: a second one
        // per generation would cost as much as the rest of the update.
        let (lo, hi) = d
            .iter()
            .fold((f64::MAX, 0.0f64), |(lo, hi), &v| (lo.min(v * v), hi.max(v * v)));
        let log = CmaLog {
            generation: self.state.generation,
            games,
            total_games: self.state.spent,
            mean: self.state.mean.clone(),
            sigma: self.state.sigma,
            eta,
            signal,
            learned,
            covariance_rate,
            condition: hi / lo.max(f64::MIN_POSITIVE),
        };
        (log, rated)
    }

    /// Hansen's update of the mean, paths, covariance and step from the
    /// offspring's steps ranked best first (`order`), with the mean's rate
    /// `eta`, the covariance's rates times `q`; with `learned` false the
    /// step grows instead of following its path.
    #[allow(clippy::too_many_arguments)]
    fn update(&mut self, steps: &[Vec<f64>], order: &[usize], eta: f64, learned: bool, q: f64, b: &[f64], d: &[f64]) {
        let n = self.space.dim();
        let s = &self.strategy;
        let st = &mut self.state;
        // The selected steps less the average step: steps clipped by the box
        // are shorter on the side of the nearer bound, so their plain
        // weighted sum would drift the paths of a mean near a bound whenever
        // the ranking is noise. Unclipped mirrored steps average 0.
        let lambda = steps.len() as f64;
        let y_w: Vec<f64> = (0..n)
            .map(|i| {
                let average = steps.iter().map(|y| y[i]).sum::<f64>() / lambda;
                s.weights.iter().zip(order).map(|(w, &k)| w * steps[k][i]).sum::<f64>() - average
            })
            .collect();
        for (i, m) in st.mean.iter_mut().enumerate() {
            let y_m: f64 = s.mean_weights.iter().zip(order).map(|(w, &k)| w * steps[k][i]).sum();
            *m += eta * st.sigma * self.space.range(i) * y_m;
        }
        self.space.clamp(&mut st.mean);

        // C^(-1/2) y_w = B D^-1 Bᵀ y_w.
        let bt_y: Vec<f64> = (0..n)
            .map(|j| (0..n).map(|i| b[i * n + j] * y_w[i]).sum::<f64>() / d[j])
            .collect();
        let whitened: Vec<f64> = (0..n).map(|i| (0..n).map(|j| b[i * n + j] * bt_y[j]).sum()).collect();
        let cs = (s.c_sigma * (2.0 - s.c_sigma) * s.mu_eff).sqrt();
        for (p, w) in st.path_sigma.iter_mut().zip(&whitened) {
            *p = (1.0 - s.c_sigma) * *p + cs * w;
        }
        let ps_norm = st.path_sigma.iter().map(|v| v * v).sum::<f64>().sqrt();
        let generations = st.generation as i32 + 1;
        let h_sigma =
            ps_norm / (1.0 - (1.0 - s.c_sigma).powi(2 * generations)).sqrt() < (1.4 + 2.0 / (n as f64 + 1.0)) * s.chi_n;
        let cc = (s.c_c * (2.0 - s.c_c) * s.mu_eff).sqrt();
        for (p, y) in st.path_c.iter_mut().zip(&y_w) {
            *p = (1.0 - s.c_c) * *p + if h_sigma { cc * y } else { 0.0 };
        }

        let (c_1, c_mu) = (q * s.c_1, q * s.c_mu);
        let delta = if h_sigma { 0.0 } else { s.c_c * (2.0 - s.c_c) };
        let keep = 1.0 - c_1 - c_mu + c_1 * delta;
        let mut cov: Vec<f64> = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                let rank_mu: f64 = s
                    .weights
                    .iter()
                    .zip(order)
                    .map(|(w, &o)| w * steps[o][i] * steps[o][j])
                    .sum();
                keep * st.cov[k] + c_1 * st.path_c[i] * st.path_c[j] + c_mu * rank_mu
            })
            .collect();
        // Exactly symmetric, so that the decomposition and the check agree.
        for i in 0..n {
            for j in 0..i {
                cov[j * n + i] = cov[i * n + j];
            }
        }
        let mut sigma = if learned {
            st.sigma * ((s.c_sigma / s.d_sigma) * (ps_norm / s.chi_n - 1.0)).exp()
        } else {
            st.sigma * s.growth
        };
        if let Some(l) = cholesky(&cov, n) {
            // Geometric-mean eigenvalue 1: the covariance's scale goes into σ.
            let log_det: f64 = (0..n).map(|i| 2.0 * l[i * n + i].ln()).sum();
            let scale = (log_det / n as f64).exp();
            if scale.is_finite() && scale > 0.0 {
                cov.iter_mut().for_each(|v| *v /= scale);
                sigma *= scale.sqrt();
                st.cov = cov;
            }
        }
        st.sigma = sigma.clamp(self.cfg.sigma_min, self.cfg.sigma_max);
    }

    pub fn finish(&self, log: Vec<CmaLog>) -> CmaResult {
        CmaResult {
            recommended: self.state.mean.clone(),
            games: self.state.spent,
            log,
        }
    }
}

/// A generation's players in seat order (the mean, the offspring, the start
/// point if seated), rated against the start point when the mean played it,
/// else against the mean. The mean does not play the start point while it
/// is there, so then both are rated 0 and the rest against them.
fn rated(roster: &Roster, ratings: &Ratings, mean: usize, reference: Option<usize>) -> Vec<Rated> {
    let anchor = reference.filter(|&r| ratings.pairs[r] > 0).unwrap_or(mean);
    (0..roster.points.len())
        .map(|seat| {
            let (role, unplayed) = match seat {
                _ if Some(seat) == reference => (Role::Reference, anchor != seat),
                _ if seat == mean => (Role::Mean(0), false),
                _ => (Role::Offspring(0), false),
            };
            let (elo, se) = if seat == anchor || unplayed {
                (0.0, 0.0)
            } else {
                (ratings.elo[seat] - ratings.elo[anchor], ratings.diff_se(seat, anchor))
            };
            Rated {
                role,
                x: roster.points[seat].clone(),
                elo,
                se,
                pairs: ratings.pairs[seat],
            }
        })
        .collect()
}

/// `B` (eigenvectors in columns) and `D` (square roots of the eigenvalues,
/// floored at 1e-7 of the largest) of the covariance.
fn sqrt_of(cov: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let (values, vectors) = symmetric_eigen(cov, n);
    let top = values.iter().cloned().fold(0.0f64, f64::max).max(f64::MIN_POSITIVE);
    (vectors, values.iter().map(|v| v.max(1e-14 * top).sqrt()).collect())
}

/// Runs CMA-ES from `start` for at most `cfg.games` games.
pub fn run<O: Oracle + ?Sized>(oracle: &O, space: &Space, start: &[f64], cfg: &CmaConfig, seed: u64) -> CmaResult {
    let mut cma = Cma::new(space, start, cfg, seed);
    let mut log = Vec::new();
    while !cma.finished() {
        log.push(cma.step(oracle).0);
    }
    cma.finish(log)
}

#[cfg(test)]
mod tests;
