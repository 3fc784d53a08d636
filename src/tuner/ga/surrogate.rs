//! A quadratic surrogate of the objective, fitted to every twin result of
//! the run: the GA's memory.
//!
//! A twin match compares `x⁺` and `x⁻`. Near a separable quadratic optimum,
//! `f(x) = -Σ αᵢ (xᵢ - x*ᵢ)²`, its expected score is `½ + κ (f(x⁺) - f(x⁻))`
//! to first order in the Elo difference, and
//! `f(x⁺) - f(x⁻) = Σ -αᵢ (x⁺ᵢ² - x⁻ᵢ²) + βᵢ (x⁺ᵢ - x⁻ᵢ)` with `βᵢ = 2αᵢx*ᵢ`:
//! linear in the unknowns `(κα, κβ)`. Weighted least squares over all twin
//! matches so far gives the optimum `x*ᵢ = βᵢ / 2αᵢ` without the unknown
//! scale `κ`. Unlike a step along the latest results (SPSA's, or the GA's
//! learning-rate update), no result is ever forgotten, and the twins' lever
//! can be as long as the box allows, since the fit, not the twins' centre,
//! says where the optimum is. This is CLOP's idea (Coulom 2011) reduced to
//! the separable case, with paired games as data.
//!
//! Coordinates are scaled to `[0, 1]` per parameter, and the normal
//! equations carry a small ridge so that the fit exists from the first
//! result. Old results can fade (`memory` per generation) for landscapes
//! that are only locally quadratic.

use crate::tuner::linalg::{chol_inverse, chol_solve, cholesky};
use crate::tuner::Space;
use serde::{Deserialize, Serialize};

/// Ridge on the normal equations, in units of one game pair's weight.
const RIDGE: f64 = 1e-3;

/// The default is an empty fit that takes its size from the first result
/// (a checkpoint written before the surrogate existed loads as one).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Surrogate {
    /// Normal equations `XᵀWX` (row-major, 2n × 2n) and `XᵀWy` over the
    /// features `(-(x⁺ᵢ² - x⁻ᵢ²), x⁺ᵢ - x⁻ᵢ)` in unit coordinates.
    xtx: Vec<f64>,
    xty: Vec<f64>,
    /// Total weight (game pairs) in the fit.
    pub pairs: f64,
    /// `Σ w y²` and the number of twin results (faded as the rest), for the
    /// residual variance of the fit.
    #[serde(default)]
    yty: f64,
    #[serde(default)]
    results: f64,
}

impl Surrogate {
    pub fn new(n: usize) -> Surrogate {
        Surrogate {
            xtx: vec![0.0; 4 * n * n],
            xty: vec![0.0; 2 * n],
            pairs: 0.0,
            yty: 0.0,
            results: 0.0,
        }
    }

    /// Checks a fit read from a file for a genome of `n` weights; the
    /// message starts with the wrong field's name.
    pub fn check(&self, n: usize) -> Result<(), String> {
        // An empty fit (the default) takes its size from its first result.
        let empty = self.xtx.is_empty() && self.xty.is_empty();
        if !empty && (self.xtx.len() != 4 * n * n || self.xty.len() != 2 * n) {
            return Err(format!(
                "xtx`/`xty` have {} and {} values, a genome of {n} weights needs {} and {}",
                self.xtx.len(),
                self.xty.len(),
                4 * n * n,
                2 * n
            ));
        }
        for (name, values) in [("xtx", &self.xtx), ("xty", &self.xty)] {
            if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(format!("{name}[{i}]` = {v} is not a finite number"));
            }
        }
        for (name, v) in [("pairs", self.pairs), ("yty", self.yty), ("results", self.results)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("{name}` = {v} must be a finite number of at least 0"));
            }
        }
        Ok(())
    }

    fn dim(&self) -> usize {
        self.xty.len() / 2
    }

    /// Adds a twin match: `score` is `plus`'s mean score per game over `pairs`
    /// game pairs against `minus`.
    pub fn add(&mut self, plus: &[f64], minus: &[f64], score: f64, pairs: u32, space: &Space) {
        if self.xty.is_empty() {
            *self = Surrogate::new(plus.len());
        }
        let n = self.dim();
        let mut phi = vec![0.0; 2 * n];
        for i in 0..n {
            let (p, m) = (space.unit(plus, i), space.unit(minus, i));
            phi[i] = -(p * p - m * m);
            phi[n + i] = p - m;
        }
        let w = f64::from(pairs);
        let y = score - 0.5;
        let m = 2 * n;
        for r in 0..m {
            self.xty[r] += w * phi[r] * y;
            for c in 0..m {
                self.xtx[r * m + c] += w * phi[r] * phi[c];
            }
        }
        self.pairs += w;
        self.yty += w * y * y;
        self.results += 1.0;
    }

    /// Lets older results count `factor` as much (1: remember everything).
    pub fn fade(&mut self, factor: f64) {
        self.xtx
            .iter_mut()
            .chain(self.xty.iter_mut())
            .for_each(|v| *v *= factor);
        self.pairs *= factor;
        self.yty *= factor;
        self.results *= factor;
    }

    /// The optimum of the fit, in the box, or `None` before there is data.
    /// A parameter whose fitted curvature is not concave goes to the bound
    /// its slope points to (the fit sees no optimum inside the box).
    pub fn optimum(&self, space: &Space) -> Option<Vec<f64>> {
        self.step_from(None, 0.0, space)
    }

    /// Where the fit says to go from `from` (in the box), trusting its
    /// curvature only as far as it is known.
    ///
    /// The fit's optimum is `c + g(c) / 2α` with `g` the fitted slope at the
    /// current point `c`: a Newton step. A curvature estimate `α` that is
    /// noise (small, or of the wrong sign) makes that step huge, and the
    /// optimum lands on a bound. So the step divides by `max(α, z · se(α))`
    /// instead: while the data do not yet show curvature, the point moves by
    /// the slope over the curvature's noise level (a step that shrinks as the
    /// data grow), and once `α` is `z` standard errors clear of zero it is
    /// the fit's own optimum. `z = 0` (or no `from`) is the plain optimum.
    pub fn step_from(&self, from: Option<&[f64]>, z: f64, space: &Space) -> Option<Vec<f64>> {
        if self.pairs <= 0.0 || self.xty.is_empty() {
            return None;
        }
        let n = self.dim();
        let m = 2 * n;
        let mut a = self.xtx.clone();
        for d in 0..m {
            a[d * m + d] += RIDGE;
        }
        let l = cholesky(&a, m)?;
        let coef = chol_solve(&l, m, &self.xty);
        let alpha_floor: Vec<f64> = if from.is_some() && z > 0.0 {
            // Residual variance of a result of unit weight (one game pair),
            // then each curvature's standard error from the inverse normal
            // equations.
            let inv = chol_inverse(&l, m);
            let explained: f64 = coef.iter().zip(&self.xty).map(|(c, y)| c * y).sum();
            let dof = self.results - m as f64;
            let var = if dof >= 1.0 {
                ((self.yty - explained) / dof).max(0.0)
            } else {
                self.yty / self.results.max(1.0)
            };
            (0..n).map(|i| z * (var * inv[i * m + i]).sqrt()).collect()
        } else {
            vec![0.0; n]
        };
        Some(
            (0..n)
                .map(|i| {
                    let (alpha, beta) = (coef[i], coef[n + i]);
                    let unit = match from {
                        Some(x) if z > 0.0 => {
                            let c = space.unit(x, i).clamp(0.0, 1.0);
                            let slope = beta - 2.0 * alpha * c;
                            let curvature = alpha.max(alpha_floor[i]);
                            if curvature > 0.0 {
                                (c + slope / (2.0 * curvature)).clamp(0.0, 1.0)
                            } else {
                                c
                            }
                        }
                        _ if alpha > 0.0 => (beta / (2.0 * alpha)).clamp(0.0, 1.0),
                        _ if beta > 0.0 => 1.0,
                        _ => 0.0,
                    };
                    space.lo[i] + unit * space.range(i)
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noiseless_quadratic_results_give_its_optimum() {
        let space = Space::cube(3, -10.0, 10.0);
        let optimum = [2.0, -5.0, 7.5];
        let f = |x: &[f64]| -> f64 { -x.iter().zip(&optimum).map(|(a, b)| (a - b).powi(2)).sum::<f64>() };
        let mut s = Surrogate::new(3);
        let points = [
            ([0.0, 0.0, 0.0], [5.0, 5.0, -5.0]),
            ([-5.0, 3.0, 1.0], [5.0, -3.0, 9.0]),
            ([8.0, -8.0, 2.0], [-8.0, 8.0, -2.0]),
            ([1.0, 1.0, 1.0], [-1.0, -6.0, 6.0]),
            ([3.0, -2.0, 9.0], [9.0, 4.0, 0.0]),
            ([-9.0, -9.0, -9.0], [0.0, 2.0, 4.0]),
            ([6.0, 0.0, 3.0], [-2.0, 7.0, 8.0]),
        ];
        for (p, m) in points {
            // A tiny, exactly linear score: the first-order model holds.
            s.add(&p, &m, 0.5 + 1e-4 * (f(&p) - f(&m)), 1000, &space);
        }
        let x = s.optimum(&space).unwrap();
        for (got, want) in x.iter().zip(optimum) {
            assert!((got - want).abs() < 0.05, "{x:?}");
        }
        // Fading keeps the optimum; it only weighs later data more.
        s.fade(0.5);
        let y = s.optimum(&space).unwrap();
        assert!(x.iter().zip(&y).all(|(a, b)| (a - b).abs() < 0.1), "{y:?}");
    }

    #[test]
    fn unknown_curvature_shrinks_the_step_toward_the_current_point() {
        // Only corner-to-corner results: the slope is known, the curvature
        // is not (its features are collinear with the slope's).
        let space = Space::cube(1, 0.0, 1.0);
        let mut s = Surrogate::new(1);
        for k in 0..40 {
            let score = if k % 2 == 0 { 0.53 } else { 0.49 };
            s.add(&[1.0], &[0.0], score, 10, &space);
        }
        // The plain optimum follows the ridge's arbitrary curvature.
        let plain = s.optimum(&space).unwrap()[0];
        assert!(!(0.4..=0.6).contains(&plain), "{plain}");
        // Trusting the curvature only as far as it is known stays near.
        let x = s.step_from(Some(&[0.5]), 2.0, &space).unwrap()[0];
        assert!((x - 0.5).abs() < 0.1 && x > 0.5, "{x}");
    }

    #[test]
    fn a_slope_without_curvature_points_to_a_bound() {
        let space = Space::cube(1, 0.0, 1.0);
        let mut s = Surrogate::new(1);
        assert_eq!(s.optimum(&space), None);
        // Higher is better, linearly: each win goes to the larger point.
        s.add(&[0.8], &[0.2], 0.7, 10, &space);
        s.add(&[0.1], &[0.5], 0.3, 10, &space);
        s.add(&[0.9], &[0.6], 0.6, 10, &space);
        assert_eq!(s.optimum(&space), Some(vec![1.0]));
    }
}
