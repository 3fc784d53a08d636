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

use crate::tuner::linalg::{chol_solve, cholesky};
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
}

impl Surrogate {
    pub fn new(n: usize) -> Surrogate {
        Surrogate {
            xtx: vec![0.0; 4 * n * n],
            xty: vec![0.0; 2 * n],
            pairs: 0.0,
        }
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
        let unit = |x: &[f64], i: usize| (x[i] - space.lo[i]) / space.range(i);
        let mut phi = vec![0.0; 2 * n];
        for i in 0..n {
            let (p, m) = (unit(plus, i), unit(minus, i));
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
    }

    /// Lets older results count `factor` as much (1: remember everything).
    pub fn fade(&mut self, factor: f64) {
        self.xtx
            .iter_mut()
            .chain(self.xty.iter_mut())
            .for_each(|v| *v *= factor);
        self.pairs *= factor;
    }

    /// The optimum of the fit, in the box, or `None` before there is data.
    /// A parameter whose fitted curvature is not concave goes to the bound
    /// its slope points to (the fit sees no optimum inside the box).
    pub fn optimum(&self, space: &Space) -> Option<Vec<f64>> {
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
        Some(
            (0..n)
                .map(|i| {
                    let (alpha, beta) = (coef[i], coef[n + i]);
                    let unit = if alpha > 0.0 {
                        (beta / (2.0 * alpha)).clamp(0.0, 1.0)
                    } else if beta > 0.0 {
                        1.0
                    } else {
                        0.0
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
