//! Variation: crossover, log-normal self-adaptive mutation, mirrored twins.

use crate::tuner::Space;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A genome with its own mutation step, as a fraction of each parameter's
/// range (Schwefel's self-adaptation: the step is inherited and mutated with
/// the genome, and survives when its offspring do).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Genome {
    pub x: Vec<f64>,
    pub sigma: f64,
}

/// Two offspring mirrored about one base, `base ± d` (mirrored sampling,
/// Brockhoff et al. 2010). Playing one against the other measures the
/// objective's slope along `d` at the base: the curvature terms of the two
/// sides cancel, and the lever is the full `2|d|`.
#[derive(Clone, Debug, PartialEq)]
pub struct Twins {
    /// The centre the twins mirror about: the base, or without clipping the
    /// base kept `min_room` off the bounds.
    pub base: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    pub sigma: f64,
}

pub fn standard_normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    // Box-Muller; 1 - u keeps the logarithm finite.
    let u1 = 1.0 - rng.random::<f64>();
    let u2 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Uniform crossover: each parameter from either parent.
pub fn uniform_crossover(a: &[f64], b: &[f64], rng: &mut Xoshiro256PlusPlus) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| if rng.random::<bool>() { x } else { y })
        .collect()
}

/// Blend crossover BLX-α (Eshelman and Schaffer 1993): each parameter uniform
/// on the parents' interval widened by `alpha` times its length on each side,
/// kept in the box.
pub fn blend_crossover(a: &[f64], b: &[f64], alpha: f64, space: &Space, rng: &mut Xoshiro256PlusPlus) -> Vec<f64> {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (&x, &y))| {
            let (lo, hi) = (x.min(y), x.max(y));
            let ext = alpha * (hi - lo);
            let v = lo - ext + rng.random::<f64>() * (hi - lo + 2.0 * ext);
            v.clamp(space.lo[i], space.hi[i])
        })
        .collect()
}

/// How twins are mutated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mutation {
    /// Learning rate of the log-normal step mutation.
    pub tau: f64,
    pub sigma_min: f64,
    pub sigma_max: f64,
    /// Room (fraction of the range) twin centres keep from the bounds.
    pub min_room: f64,
    /// Clip each twin to the box instead of keeping exact mirrors.
    pub clip: bool,
}

/// Mirrored twins around `base` with a log-normally mutated step:
/// `sigma' = sigma · exp(tau · N(0, 1))`, clamped to `[sigma_min, sigma_max]`.
///
/// Each parameter moves by `±sigma' · range` with a random sign: the
/// symmetric Bernoulli perturbation of SPSA, which Sadegh and Spall (1998)
/// show to be the asymptotically optimal one. For the same mean square as a
/// Gaussian step it has no tail for the box to cut off.
///
/// With `clip`, each twin is clipped to the box, as fishtest clips SPSA's
/// `θ ± c`: the lever stays long, but the twins' centre moves toward the
/// middle of the box, which biases the mean when the optimum is near a
/// bound. Without it, the twins stay exact mirrors: a parameter's move is
/// cut to the room between the centre and the nearer bound, and the centre
/// keeps `min_room` of the range from each bound so that a mean on a bound
/// still has a lever.
pub fn mirrored_twins(base: Vec<f64>, sigma: f64, m: &Mutation, space: &Space, rng: &mut Xoshiro256PlusPlus) -> Twins {
    let sigma = (sigma * (m.tau * standard_normal(rng)).exp()).clamp(m.sigma_min, m.sigma_max);
    let mut centre = base;
    let mut plus = Vec::with_capacity(centre.len());
    let mut minus = Vec::with_capacity(centre.len());
    for (i, c) in centre.iter_mut().enumerate() {
        let (lo, hi) = (space.lo[i], space.hi[i]);
        let sign = if rng.random::<bool>() { 1.0 } else { -1.0 };
        let step = sigma * (hi - lo);
        if m.clip {
            plus.push((*c + sign * step).clamp(lo, hi));
            minus.push((*c - sign * step).clamp(lo, hi));
        } else {
            let margin = (m.min_room * (hi - lo)).min(0.5 * (hi - lo));
            *c = c.clamp(lo + margin, hi - margin);
            let d = sign * step.min(*c - lo).min(hi - *c);
            plus.push(*c + d);
            minus.push(*c - d);
        }
    }
    Twins {
        base: centre,
        plus,
        minus,
        sigma,
    }
}

/// Binary tournament: the higher-scored of two random entries.
pub fn tournament<'a>(pool: &'a [(Genome, f64)], rng: &mut Xoshiro256PlusPlus) -> &'a Genome {
    let a = &pool[rng.random_range(0..pool.len())];
    let b = &pool[rng.random_range(0..pool.len())];
    if a.1 >= b.1 {
        &a.0
    } else {
        &b.0
    }
}

/// The weighted geometric mean of steps: log-normal steps recombine in
/// log space.
pub fn recombine_sigma(sigmas: &[f64], weights: &[f64]) -> f64 {
    let total: f64 = weights.iter().sum();
    (sigmas.iter().zip(weights).map(|(s, w)| w * s.ln()).sum::<f64>() / total).exp()
}

/// `x` with each parameter moved uniformly within `spread` of its range,
/// kept in the box.
pub fn jittered(x: &[f64], spread: f64, space: &Space, rng: &mut Xoshiro256PlusPlus) -> Vec<f64> {
    if spread <= 0.0 {
        return x.to_vec();
    }
    let mut out: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| v + spread * space.range(i) * (2.0 * rng.random::<f64>() - 1.0))
        .collect();
    space.clamp(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn twins_are_mirrored_and_stay_in_the_box() {
        let space = Space::cube(3, 0.0, 10.0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..200 {
            let m = Mutation {
                tau: 0.3,
                sigma_min: 0.01,
                sigma_max: 0.5,
                min_room: 0.1,
                clip: false,
            };
            let t = mirrored_twins(vec![5.0, 0.0, 9.5], 0.2, &m, &space, &mut rng);
            assert!(space.contains(&t.plus) && space.contains(&t.minus));
            assert!((0.01..=0.5).contains(&t.sigma));
            // Exact mirrors about the centre, which keeps a tenth of the range from the bounds.
            assert_eq!(t.base, vec![5.0, 1.0, 9.0]);
            for i in 0..3 {
                assert!((t.plus[i] + t.minus[i] - 2.0 * t.base[i]).abs() < 1e-12);
                let room = t.base[i].min(10.0 - t.base[i]);
                assert!(((t.plus[i] - t.base[i]).abs() - (10.0 * t.sigma).min(room)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn clipped_twins_keep_the_full_step_inside() {
        let space = Space::cube(2, 0.0, 10.0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let m = Mutation {
            tau: 0.0,
            sigma_min: 0.3,
            sigma_max: 0.3,
            min_room: 0.1,
            clip: true,
        };
        let t = mirrored_twins(vec![9.0, 5.0], 0.3, &m, &space, &mut rng);
        assert_eq!(t.base, vec![9.0, 5.0]);
        // A move of 3 from 9 leaves the box on one side only.
        assert!([t.plus[0], t.minus[0]].contains(&10.0) && [t.plus[0], t.minus[0]].contains(&6.0));
        assert!((t.plus[1] - t.minus[1]).abs() == 6.0);
    }

    #[test]
    fn crossovers_mix_parents() {
        let space = Space::cube(4, -100.0, 100.0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let (a, b) = ([0.0; 4], [10.0; 4]);
        let u = uniform_crossover(&a, &b, &mut rng);
        assert!(u.iter().all(|&v| v == 0.0 || v == 10.0));
        for _ in 0..100 {
            let c = blend_crossover(&a, &b, 0.5, &space, &mut rng);
            assert!(c.iter().all(|&v| (-5.0..=15.0).contains(&v)));
        }
    }

    #[test]
    fn sigma_recombines_geometrically() {
        assert!((recombine_sigma(&[0.1, 0.4], &[1.0, 1.0]) - 0.2).abs() < 1e-12);
    }

    #[test]
    fn normal_samples_have_unit_variance() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let n = 100_000;
        let v: Vec<f64> = (0..n).map(|_| standard_normal(&mut rng)).collect();
        let mean = v.iter().sum::<f64>() / n as f64;
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01 && (var - 1.0).abs() < 0.02);
    }
}
