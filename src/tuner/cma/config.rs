//! CMA-ES's settings, their defaults and their checks.

use serde::{Deserialize, Serialize};

/// CMA-ES's settings. In an evolve config all may be left out (defaults);
/// `games` and `parallel` come from the run, not the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CmaConfig {
    /// Games to spend in all.
    #[serde(skip)]
    pub games: u64,
    /// Elo the final mean's jitter may cost, with probability `confidence`
    /// (as the GA's).
    pub precision: f64,
    pub confidence: f64,
    /// Offspring per generation, even (mirrored pairs); `None` for Hansen's
    /// `4 + 3 ln n`, rounded up to even.
    pub population: Option<usize>,
    /// Game pairs each mirrored pair plays against each other.
    pub twin_pairs: u32,
    /// Game pairs each offspring plays against the mean.
    pub mean_pairs: u32,
    /// Game pairs the mean plays against the start point each generation:
    /// they rate it against the start, as evolve's plots and logs show its
    /// champion; they take no part in the update. 1 in an evolve config,
    /// 0 in `CmaConfig::new` (the benchmark and tests, which read nothing).
    pub reference_pairs: u32,
    /// Initial, smallest and largest step, as fractions of each parameter's
    /// range (the spread of an offspring along an eigendirection is the
    /// step times the square root of its eigenvalue).
    pub sigma_init: f64,
    pub sigma_min: f64,
    pub sigma_max: f64,
    /// Decay of the mean's learning rate: `A` as a fraction of the budget,
    /// and alpha (fishtest's schedule for SPSA's `a_k`, as the GA's).
    pub gain_a_ratio: f64,
    pub gain_alpha: f64,
    /// Factor on the step when a generation's ranking is noise; `None` for
    /// UH-CMA-ES's `1 + 2 / (n + 10)`.
    pub noise_growth: Option<f64>,
    /// Play a generation's matches on rayon's pool (results do not depend on it).
    #[serde(skip)]
    pub parallel: bool,
}

/// An evolve config's defaults (`cma: ()`).
impl Default for CmaConfig {
    fn default() -> Self {
        CmaConfig {
            reference_pairs: 1,
            ..CmaConfig::new(0)
        }
    }
}

impl CmaConfig {
    /// Defaults for a budget of `games`.
    pub fn new(games: u64) -> CmaConfig {
        CmaConfig {
            games,
            precision: 0.5,
            confidence: 0.95,
            population: None,
            twin_pairs: 4,
            mean_pairs: 1,
            reference_pairs: 0,
            sigma_init: 0.2,
            sigma_min: 0.02,
            sigma_max: 0.25,
            gain_a_ratio: 0.1,
            gain_alpha: 0.602,
            noise_growth: None,
            parallel: true,
        }
    }

    /// Offspring per generation for `n` parameters.
    pub fn population(&self, n: usize) -> usize {
        let lambda = self
            .population
            .unwrap_or(4 + (3.0 * (n.max(1) as f64).ln()).floor() as usize);
        lambda.max(4).next_multiple_of(2)
    }

    /// Games of one generation for `n` parameters (at most: the mean does
    /// not play the start point while it is there): each offspring against
    /// the mean, each mirrored pair against each other, the mean against the
    /// start point, two games a pair.
    pub fn generation_games(&self, n: usize) -> u64 {
        let lambda = self.population(n) as u64;
        (lambda / 2)
            .saturating_mul(u64::from(self.twin_pairs))
            .saturating_add(lambda.saturating_mul(u64::from(self.mean_pairs)))
            .saturating_add(u64::from(self.reference_pairs))
            .saturating_mul(2)
    }

    /// Checks the settings a run relies on; the message names the field.
    pub fn check(&self) -> Result<(), String> {
        if self.twin_pairs == 0 {
            return Err("`twin_pairs` must be at least 1".into());
        }
        if self.mean_pairs == 0 {
            return Err("`mean_pairs` must be at least 1".into());
        }
        if let Some(p) = self.population {
            if !(2..=1000).contains(&p) {
                return Err(format!("`population` = {p} is not in 2..=1000"));
            }
        }
        let in_range = |name: &str, v: f64, lo: f64, hi: f64| {
            if v.is_finite() && v > lo && v <= hi {
                Ok(())
            } else {
                Err(format!("`{name}` = {v} is not a number in ({lo}, {hi}]"))
            }
        };
        in_range("precision", self.precision, 0.0, 1e6)?;
        in_range("confidence", self.confidence, 0.0, 1.0 - 1e-12)?;
        in_range("sigma_min", self.sigma_min, 0.0, 1.0)?;
        in_range("sigma_max", self.sigma_max, 0.0, 1.0)?;
        in_range("sigma_init", self.sigma_init, 0.0, 1.0)?;
        if !(self.sigma_min <= self.sigma_init && self.sigma_init <= self.sigma_max) {
            return Err(format!(
                "`sigma_init` = {} is not within `sigma_min` = {} and `sigma_max` = {}",
                self.sigma_init, self.sigma_min, self.sigma_max
            ));
        }
        in_range("gain_a_ratio", self.gain_a_ratio, 0.0, 10.0)?;
        in_range("gain_alpha", self.gain_alpha, 0.0, 2.0)?;
        if let Some(g) = self.noise_growth {
            if !(g.is_finite() && (1.0..=2.0).contains(&g)) {
                return Err(format!("`noise_growth` = {g} is not a number in 1..=2"));
            }
        }
        Ok(())
    }
}
