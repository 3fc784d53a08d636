//! What a GA run carries from one generation to the next, and its checks.

use super::config::GaConfig;
use super::select::Island;
use crate::tuner::Space;
use serde::{Deserialize, Serialize};

/// Everything a GA run carries from one generation to the next: saved after
/// each generation, it resumes the run exactly (each generation draws its
/// breeding and its games from seeds derived from the run's seed and the
/// generation's number, so no random generator state is carried).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaState {
    /// Generations finished.
    pub generation: usize,
    /// Games spent by those generations.
    pub spent: u64,
    /// The start point, which every island mean plays each generation.
    pub reference: Vec<f64>,
    pub islands: Vec<Island>,
    /// Hall of fame: past island means with their last rating.
    pub hall: Vec<(Vec<f64>, f64)>,
    /// Game-weighted sum of the island means late in the run, and its weight.
    pub tail_sum: Vec<f64>,
    pub tail_weight: f64,
}

impl GaState {
    /// Checks a state read from a file against the run's box and settings;
    /// the message names the first wrong field (`islands[0].mean[3]`, ...).
    /// A state that passes cannot make the GA panic, overflow or produce
    /// non-finite weights.
    pub fn check(&self, space: &Space, cfg: &GaConfig) -> Result<(), String> {
        let n = space.dim();
        let point = |name: &str, x: &[f64]| -> Result<(), String> {
            if x.len() != n {
                return Err(format!("`{name}` has {} values, the genome has {n} weights", x.len()));
            }
            for (i, &v) in x.iter().enumerate() {
                // A whisker of slack for the box: means are clamped, then averaged.
                let slack = 1e-9 * space.range(i).abs().max(1.0);
                if !(v.is_finite() && v >= space.lo[i] - slack && v <= space.hi[i] + slack) {
                    return Err(format!(
                        "`{name}[{i}]` = {v} is not a number in the weight's range {}..={}",
                        space.lo[i], space.hi[i]
                    ));
                }
            }
            Ok(())
        };
        let finite = |name: &str, v: f64, lo: f64, hi: f64| -> Result<(), String> {
            if v.is_finite() && v >= lo && v <= hi {
                Ok(())
            } else {
                Err(format!("`{name}` = {v} is not a number in {lo}..={hi}"))
            }
        };
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
        point("reference", &self.reference)?;
        if self.islands.len() != cfg.islands {
            return Err(format!(
                "`islands` has {} islands, the config has {}",
                self.islands.len(),
                cfg.islands
            ));
        }
        let (smin, smax) = (cfg.sigma_min * (1.0 - 1e-9), cfg.sigma_max * (1.0 + 1e-9));
        for (k, isl) in self.islands.iter().enumerate() {
            point(&format!("islands[{k}].mean"), &isl.mean)?;
            finite(&format!("islands[{k}].sigma"), isl.sigma, smin, smax)?;
            for (j, (g, z)) in isl.parents.iter().enumerate() {
                point(&format!("islands[{k}].parents[{j}].x"), &g.x)?;
                finite(&format!("islands[{k}].parents[{j}].sigma"), g.sigma, smin, smax)?;
                finite(&format!("islands[{k}].parents[{j}] z"), *z, f64::MIN, f64::MAX)?;
            }
            for (j, g) in isl.elites.iter().enumerate() {
                point(&format!("islands[{k}].elites[{j}].x"), &g.x)?;
                finite(&format!("islands[{k}].elites[{j}].sigma"), g.sigma, smin, smax)?;
            }
            isl.surrogate
                .check(n)
                .map_err(|m| format!("`islands[{k}].surrogate.{m}"))?;
        }
        for (j, (x, elo)) in self.hall.iter().enumerate() {
            point(&format!("hall[{j}]"), x)?;
            finite(&format!("hall[{j}] rating"), *elo, f64::MIN, f64::MAX)?;
        }
        if self.tail_sum.len() != n {
            return Err(format!(
                "`tail_sum` has {} values, the genome has {n} weights",
                self.tail_sum.len()
            ));
        }
        finite("tail_weight", self.tail_weight, 0.0, f64::MAX)?;
        for (i, &v) in self.tail_sum.iter().enumerate() {
            // The sum of means weighted by games: within the box times the weight.
            let bound = (space.lo[i].abs().max(space.hi[i].abs()) * self.tail_weight).max(0.0) * (1.0 + 1e-9) + 1e-9;
            finite(&format!("tail_sum[{i}]"), v, -bound, bound)?;
        }
        Ok(())
    }
}
