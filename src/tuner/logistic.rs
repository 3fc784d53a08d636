//! Logistic regression of game results on evaluation features (Texel's
//! method): `P(result) = sigmoid(b + scale * w · x)`, fitted by Newton's
//! method with box bounds on `w`. Game-independent; `fit/` gathers the
//! positions.
//!
//! The scale is not fitted with the weights: alpha-beta's choices do not
//! change when every weight is multiplied alike, so a free scale would be a
//! flat direction. [`fit_scale`] finds the scale that best turns a reference
//! weight vector (a game's hand-set one) into probabilities; [`fit_weights`]
//! then fits the weights in those units.

use crate::tuner::linalg::{chol_solve, cholesky};
use rayon::prelude::*;

/// Positions as feature rows, each with its label in `[0, 1]` (the mover's
/// final result, or a Slime seat's final share of the board).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    pub dims: usize,
    /// Row-major, `dims` numbers per position.
    pub features: Vec<f64>,
    pub labels: Vec<f64>,
}

impl Samples {
    pub fn new(dims: usize) -> Self {
        Samples {
            dims,
            ..Self::default()
        }
    }

    pub fn push(&mut self, features: &[i32], label: f64) {
        debug_assert_eq!(features.len(), self.dims);
        self.features.extend(features.iter().map(|&f| f as f64));
        self.labels.push(label);
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.features[i * self.dims..(i + 1) * self.dims]
    }

    /// `w · x` of every position.
    pub fn evaluations(&self, w: &[f64]) -> Vec<f64> {
        (0..self.len()).map(|i| dot(self.row(i), w)).collect()
    }
}

/// A fitted model: weights in the reference's units, the intercept, and the
/// scale that turns an evaluation into log-odds.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub weights: Vec<f64>,
    pub intercept: f64,
    pub scale: f64,
}

impl Model {
    /// Mean cross-entropy of `samples`' labels under the model.
    pub fn loss(&self, samples: &Samples) -> f64 {
        if samples.is_empty() {
            return f64::NAN;
        }
        let total: f64 = (0..samples.len())
            .into_par_iter()
            .map(|i| {
                let z = self.intercept + self.scale * dot(samples.row(i), &self.weights);
                cross_entropy(z, samples.labels[i])
            })
            .sum();
        total / samples.len() as f64
    }
}

/// Each weight's bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Bounds {
    pub lower: Vec<f64>,
    pub upper: Vec<f64>,
}

/// The scale (and intercept) under which `reference` predicts the labels
/// best. `None` when the reference's evaluations do not predict the results
/// at all (a scale at or below zero, or every evaluation zero).
pub fn fit_scale(samples: &Samples, reference: &[f64]) -> Option<(f64, f64)> {
    let evaluations = samples.evaluations(reference);
    let design = Design {
        rows: evaluations.iter().flat_map(|&e| [e, 1.0]).collect(),
        dims: 2,
        labels: &samples.labels,
    };
    let (lower, upper) = ([f64::NEG_INFINITY; 2], [f64::INFINITY; 2]);
    let solution = newton(&design, vec![0.0, 0.0], &[0.0, 0.0], &[0.0, 0.0], &lower, &upper);
    let (scale, intercept) = (solution.x[0], solution.x[1]);
    (scale.is_finite() && scale > 0.0).then_some((scale, intercept))
}

/// What [`fit_weights`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightFit {
    pub model: Model,
    /// Newton iterations taken.
    pub iterations: usize,
    /// The weights held at a bound, with the side (`true`: the upper one).
    pub at_bound: Vec<(usize, bool)>,
}

/// Fits the weights at a fixed `scale`, starting from and drawn toward
/// `prior` (a ridge of `ridge[j]` per weight, in log-odds per unit squared,
/// which keeps a feature the positions never show where it was), inside
/// `[lower, upper]`.
pub fn fit_weights(samples: &Samples, scale: f64, prior: &[f64], ridge: &[f64], bounds: &Bounds) -> WeightFit {
    let d = samples.dims;
    let rows: Vec<f64> = (0..samples.len())
        .flat_map(|i| {
            let mut r: Vec<f64> = samples.row(i).iter().map(|x| x * scale).collect();
            r.push(1.0);
            r
        })
        .collect();
    let design = Design {
        rows,
        dims: d + 1,
        labels: &samples.labels,
    };
    let mut start: Vec<f64> = prior.to_vec();
    start.push(0.0);
    let mut centre = prior.to_vec();
    centre.push(0.0);
    let mut ridges = ridge.to_vec();
    ridges.push(0.0);
    let mut lower = bounds.lower.clone();
    lower.push(f64::NEG_INFINITY);
    let mut upper = bounds.upper.clone();
    upper.push(f64::INFINITY);
    let solution = newton(&design, start, &centre, &ridges, &lower, &upper);
    let at_bound = (0..d)
        .filter_map(|j| {
            let x = solution.x[j];
            if x <= lower[j] {
                Some((j, false))
            } else if x >= upper[j] {
                Some((j, true))
            } else {
                None
            }
        })
        .collect();
    WeightFit {
        model: Model {
            weights: solution.x[..d].to_vec(),
            intercept: solution.x[d],
            scale,
        },
        iterations: solution.iterations,
        at_bound,
    }
}

/// `weights` at `scale` with the intercept that fits `samples` best: a
/// genome's own loss, its weights unchanged.
pub fn with_best_intercept(samples: &Samples, scale: f64, weights: &[f64]) -> Model {
    let offsets: Vec<f64> = samples.evaluations(weights).iter().map(|e| e * scale).collect();
    let mut intercept = 0.0;
    // One-dimensional Newton on a convex loss; the labels' mean is a fixed
    // point only when every offset is zero, so iterate.
    for _ in 0..50 {
        let (mut grad, mut hess) = (0.0, 0.0);
        for (o, &y) in offsets.iter().zip(&samples.labels) {
            let p = sigmoid(intercept + o);
            grad += p - y;
            hess += p * (1.0 - p);
        }
        if hess <= 0.0 {
            break;
        }
        let step = grad / hess;
        intercept -= step;
        if step.abs() < 1e-12 {
            break;
        }
    }
    Model {
        weights: weights.to_vec(),
        intercept,
        scale,
    }
}

/// Logistic regression's data: a row of regressors per label.
struct Design<'a> {
    rows: Vec<f64>,
    dims: usize,
    labels: &'a [f64],
}

struct Solution {
    x: Vec<f64>,
    iterations: usize,
}

/// The mean cross-entropy plus the ridge, its gradient and its Hessian at `x`.
fn objective(design: &Design, x: &[f64], centre: &[f64], ridge: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
    let m = design.dims;
    let n = design.labels.len().max(1) as f64;
    let zero = || (0.0, vec![0.0; m], vec![0.0; m * m]);
    let (loss, grad, hess) = design
        .rows
        .par_chunks(m * 4096)
        .zip(design.labels.par_chunks(4096))
        .map(|(rows, labels)| {
            let (mut loss, mut grad, mut hess) = zero();
            for (row, &y) in rows.chunks(m).zip(labels) {
                let z = dot(row, x);
                loss += cross_entropy(z, y);
                let p = sigmoid(z);
                let (residual, curvature) = (p - y, p * (1.0 - p));
                for a in 0..m {
                    grad[a] += residual * row[a];
                    for b in 0..=a {
                        hess[a * m + b] += curvature * row[a] * row[b];
                    }
                }
            }
            (loss, grad, hess)
        })
        .reduce(zero, |mut a, b| {
            a.0 += b.0;
            a.1.iter_mut().zip(&b.1).for_each(|(x, y)| *x += y);
            a.2.iter_mut().zip(&b.2).for_each(|(x, y)| *x += y);
            a
        });
    let mut loss = loss / n;
    let mut grad: Vec<f64> = grad.iter().map(|g| g / n).collect();
    let mut hess: Vec<f64> = hess.iter().map(|h| h / n).collect();
    for a in 0..m {
        for b in 0..a {
            hess[b * m + a] = hess[a * m + b];
        }
        let off = x[a] - centre[a];
        loss += 0.5 * ridge[a] * off * off;
        grad[a] += ridge[a] * off;
        hess[a * m + a] += ridge[a];
    }
    (loss, grad, hess)
}

/// Projected Newton with an active set: a coordinate at a bound whose
/// gradient pushes it outward stays there; the others take a Newton step,
/// halved until the loss falls.
fn newton(design: &Design, start: Vec<f64>, centre: &[f64], ridge: &[f64], lower: &[f64], upper: &[f64]) -> Solution {
    let m = design.dims;
    let clamp = |x: &mut Vec<f64>| {
        for j in 0..m {
            x[j] = x[j].clamp(lower[j], upper[j]);
        }
    };
    let mut x = start;
    clamp(&mut x);
    let mut iterations = 0;
    for _ in 0..100 {
        iterations += 1;
        let (loss, grad, hess) = objective(design, &x, centre, ridge);
        let free: Vec<usize> = (0..m)
            .filter(|&j| !((x[j] <= lower[j] && grad[j] > 0.0) || (x[j] >= upper[j] && grad[j] < 0.0)))
            .collect();
        if free.is_empty() {
            break;
        }
        let k = free.len();
        let mut h = vec![0.0; k * k];
        for (a, &i) in free.iter().enumerate() {
            for (b, &j) in free.iter().enumerate() {
                h[a * k + b] = hess[i * m + j];
            }
            // A tiny ridge keeps a feature that is always zero solvable.
            h[a * k + a] += 1e-12 * (1.0 + hess[i * m + i]);
        }
        let g: Vec<f64> = free.iter().map(|&j| -grad[j]).collect();
        let Some(l) = cholesky(&h, k) else { break };
        let step = chol_solve(&l, k, &g);
        let decrease: f64 = step.iter().zip(&g).map(|(s, g)| s * g).sum();
        if decrease < 1e-12 {
            break;
        }
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..40 {
            let mut trial = x.clone();
            for (a, &j) in free.iter().enumerate() {
                trial[j] += t * step[a];
            }
            clamp(&mut trial);
            if objective_loss(design, &trial, centre, ridge) < loss {
                x = trial;
                moved = true;
                break;
            }
            t *= 0.5;
        }
        if !moved {
            break;
        }
    }
    Solution { x, iterations }
}

fn objective_loss(design: &Design, x: &[f64], centre: &[f64], ridge: &[f64]) -> f64 {
    let m = design.dims;
    let n = design.labels.len().max(1) as f64;
    let data: f64 = design
        .rows
        .par_chunks(m)
        .zip(design.labels.par_iter())
        .map(|(row, &y)| cross_entropy(dot(row, x), y))
        .sum();
    let prior: f64 = (0..m).map(|a| 0.5 * ridge[a] * (x[a] - centre[a]).powi(2)).sum();
    data / n + prior
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// `-y log p - (1-y) log(1-p)` for `p = sigmoid(z)`, without overflow:
/// `log(1 + e^z) - y z`.
fn cross_entropy(z: f64, y: f64) -> f64 {
    let softplus = if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    };
    softplus - y * z
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Positions drawn from a known linear model, each labelled by a coin
    /// with the model's probability.
    fn generated(truth: &[f64], scale: f64, intercept: f64, n: usize, seed: u64) -> Samples {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = Samples::new(truth.len());
        for _ in 0..n {
            let x: Vec<i32> = truth.iter().map(|_| rng.random_range(-20..=20)).collect();
            let z = intercept + scale * x.iter().zip(truth).map(|(&a, b)| a as f64 * b).sum::<f64>();
            let y = if rng.random::<f64>() < sigmoid(z) { 1.0 } else { 0.0 };
            s.push(&x, y);
        }
        s
    }

    fn open_box(d: usize) -> Bounds {
        Bounds {
            lower: vec![-1e9; d],
            upper: vec![1e9; d],
        }
    }

    #[test]
    fn recovers_known_weights_at_the_reference_scale() {
        let truth = [10.0, -12.0, 3.0, 0.0, 25.0];
        let samples = generated(&truth, 0.004, 0.2, 60_000, 1);
        // The reference points the right way but with wrong proportions.
        let reference = [8.0, -8.0, 8.0, 8.0, 8.0];
        let (scale, _) = fit_scale(&samples, &reference).unwrap();
        let fit = fit_weights(&samples, scale, &reference, &[1e-9; 5], &open_box(5));
        // Only the direction is identified; compare in the truth's scale.
        let k = fit.model.scale / 0.004;
        for (j, &t) in truth.iter().enumerate() {
            let got = fit.model.weights[j] * k;
            assert!((got - t).abs() < 1.5, "weight {j}: {got} against {t}");
        }
        assert!((fit.model.intercept - 0.2).abs() < 0.05, "{}", fit.model.intercept);
        let start = Model {
            weights: reference.to_vec(),
            intercept: 0.0,
            scale,
        };
        assert!(fit.model.loss(&samples) < start.loss(&samples));
    }

    #[test]
    fn bounds_hold_and_are_reported() {
        let truth = [10.0, -12.0];
        let samples = generated(&truth, 0.01, 0.0, 20_000, 2);
        let (scale, _) = fit_scale(&samples, &truth).unwrap();
        let bounds = Bounds {
            lower: vec![0.0, -5.0],
            upper: vec![20.0, 5.0],
        };
        let fit = fit_weights(&samples, scale, &[10.0, 0.0], &[1e-9; 2], &bounds);
        assert_eq!(fit.model.weights[1], -5.0);
        assert_eq!(fit.at_bound, vec![(1, false)]);
        // The free weight still fits (lower than 10: held back, the second
        // feature leaves noise that attenuates it).
        assert!((5.0..12.0).contains(&fit.model.weights[0]), "{:?}", fit.model.weights);
    }

    #[test]
    fn a_reference_that_predicts_nothing_has_no_scale() {
        let samples = generated(&[1.0, 1.0], 0.05, 0.0, 5_000, 3);
        assert_eq!(fit_scale(&samples, &[0.0, 0.0]), None);
        assert!(fit_scale(&samples, &[-1.0, -1.0]).is_none());
    }

    #[test]
    fn soft_labels_fit_their_mean() {
        // Slime's labels are shares: a constant share is its own intercept.
        let mut s = Samples::new(1);
        for i in 0..1000 {
            s.push(&[i % 7 - 3], 0.25);
        }
        let fit = fit_weights(&s, 1.0, &[0.0], &[1e-6], &open_box(1));
        assert!((sigmoid(fit.model.intercept) - 0.25).abs() < 1e-6);
        assert!(fit.model.weights[0].abs() < 1e-3);
    }
}
