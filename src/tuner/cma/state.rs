//! What a CMA-ES run carries from one generation to the next, and its checks.

use super::config::CmaConfig;
use crate::tuner::linalg::cholesky;
use crate::tuner::Space;
use serde::{Deserialize, Serialize};

/// Everything a CMA-ES run carries between generations: saved after a
/// generation, it resumes the run exactly. Each generation draws its
/// offspring and its games from seeds derived from the run's seed and the
/// generation's number, and the eigendecomposition is recomputed from `cov`
/// bit for bit, so no random generator or decomposition is stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmaState {
    /// Generations finished.
    pub generation: usize,
    /// Games spent by those generations.
    pub spent: u64,
    /// The start point (clamped to the box), which the mean plays when the
    /// config asks for `reference_pairs`.
    pub reference: Vec<f64>,
    /// The distribution's mean, in the box's coordinates.
    pub mean: Vec<f64>,
    /// Step size, as a fraction of each parameter's range.
    pub sigma: f64,
    /// Covariance of the steps in range units (row-major, n × n).
    pub cov: Vec<f64>,
    /// Evolution paths of the covariance and of the step size.
    pub path_c: Vec<f64>,
    pub path_sigma: Vec<f64>,
    /// The rankings' mean z² less 1, averaged over recent generations.
    pub signal_average: f64,
}

impl CmaState {
    /// The state of a new run from `start` (clamped to the box).
    pub fn new(space: &Space, start: &[f64], cfg: &CmaConfig) -> CmaState {
        let n = space.dim();
        let mut mean = start.to_vec();
        space.clamp(&mut mean);
        CmaState {
            generation: 0,
            spent: 0,
            reference: mean.clone(),
            mean,
            sigma: cfg.sigma_init,
            cov: (0..n * n).map(|k| f64::from(u8::from(k / n == k % n))).collect(),
            path_c: vec![0.0; n],
            path_sigma: vec![0.0; n],
            signal_average: 0.0,
        }
    }

    /// Checks a state read from a file against the run's box and settings;
    /// the message names the first wrong field. A state that passes cannot
    /// make the update panic or produce non-finite weights.
    pub fn check(&self, space: &Space, cfg: &CmaConfig) -> Result<(), String> {
        let n = space.dim();
        if self.spent > cfg.games {
            return Err(format!(
                "`spent` = {} is more than the run's budget of {} games",
                self.spent, cfg.games
            ));
        }
        if (self.generation == 0) != (self.spent == 0) || self.generation as u64 > self.spent {
            return Err(format!(
                "`generation` = {} does not fit `spent` = {} (every generation plays games)",
                self.generation, self.spent
            ));
        }
        for (name, point) in [("reference", &self.reference), ("mean", &self.mean)] {
            if point.len() != n || !space.contains(point) {
                return Err(format!("`{name}` = {point:?} is not a point of the box"));
            }
        }
        let (lo, hi) = (cfg.sigma_min * (1.0 - 1e-9), cfg.sigma_max * (1.0 + 1e-9));
        if !(self.sigma.is_finite() && self.sigma >= lo && self.sigma <= hi) {
            return Err(format!("`sigma` = {} is not a number in {lo}..={hi}", self.sigma));
        }
        for (name, path) in [("path_c", &self.path_c), ("path_sigma", &self.path_sigma)] {
            if path.len() != n || path.iter().any(|v| !v.is_finite() || v.abs() > 1e6) {
                return Err(format!("`{name}` is not {n} finite numbers"));
            }
        }
        if !(self.signal_average.is_finite() && self.signal_average.abs() <= 1e12) {
            return Err(format!(
                "`signal_average` = {} is not a finite number",
                self.signal_average
            ));
        }
        let symmetric = self.cov.len() == n * n
            && self.cov.iter().all(|v| v.is_finite() && v.abs() <= 1e12)
            && (0..n).all(|i| (0..i).all(|j| self.cov[i * n + j] == self.cov[j * n + i]));
        if !symmetric || cholesky(&self.cov, n).is_none() {
            return Err(format!("`cov` is not a symmetric positive definite {n} × {n} matrix"));
        }
        Ok(())
    }
}
