//! Variation and selection on integer weight vectors, bounded by the
//! declared parameter ranges. Every operator takes the RNG explicitly.

use crate::params::ParamSpec;
use rand::{Rng, RngExt};

/// A standard normal sample (Box-Muller).
pub fn gaussian(rng: &mut impl Rng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Mutates each weight with probability `rate` by a normal step of `scale`
/// times its range, snapped to its grid. At least one weight always changes
/// value, so a child is never a silent copy.
pub fn mutate(weights: &mut [i32], params: &[ParamSpec], rate: f64, scale: f64, rng: &mut impl Rng) {
    let mut changed = false;
    for (w, p) in weights.iter_mut().zip(params) {
        if rng.random_bool(rate) {
            let old = *w;
            *w = p.snap(*w as f64 + gaussian(rng) * scale * (p.max - p.min) as f64);
            changed |= *w != old;
        }
    }
    let mut tries = 0;
    while !changed && tries < 16 {
        let i = rng.random_range(0..weights.len());
        let p = &params[i];
        let old = weights[i];
        let sigma = (scale * (p.max - p.min) as f64).max(p.step as f64);
        weights[i] = p.snap(old as f64 + gaussian(rng) * sigma);
        changed = weights[i] != old;
        tries += 1;
    }
}

/// Uniform crossover: each weight from either parent with even odds.
pub fn uniform_crossover(a: &[i32], b: &[i32], rng: &mut impl Rng) -> Vec<i32> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| if rng.random_bool(0.5) { x } else { y })
        .collect()
}

/// Blend crossover (BLX-0.25): each weight uniform on the parents' interval
/// widened by a quarter on each side, snapped to the grid.
pub fn blend_crossover(a: &[i32], b: &[i32], params: &[ParamSpec], rng: &mut impl Rng) -> Vec<i32> {
    a.iter()
        .zip(b)
        .zip(params)
        .map(|((&x, &y), p)| {
            let (lo, hi) = (x.min(y) as f64, x.max(y) as f64);
            let pad = 0.25 * (hi - lo);
            let t: f64 = rng.random();
            p.snap(lo - pad + t * (hi - lo + 2.0 * pad))
        })
        .collect()
}

/// Index of the fittest of `size` members drawn at random (with replacement).
pub fn tournament(fitness: &[f64], size: usize, rng: &mut impl Rng) -> usize {
    (0..size)
        .map(|_| rng.random_range(0..fitness.len()))
        .max_by(|&i, &j| fitness[i].total_cmp(&fitness[j]).then(j.cmp(&i)))
        .expect("tournament size >= 1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    const PARAMS: &[ParamSpec] = &[
        ParamSpec {
            name: "a",
            default: 0,
            min: -10,
            max: 10,
            step: 1,
        },
        ParamSpec {
            name: "b",
            default: 50,
            min: 0,
            max: 100,
            step: 5,
        },
    ];

    #[test]
    fn mutation_stays_on_the_grid_and_changes_something() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..1000 {
            let mut w = vec![0, 50];
            mutate(&mut w, PARAMS, 0.0, 0.5, &mut rng);
            assert_ne!(w, vec![0, 50]);
            assert!(PARAMS.iter().zip(&w).all(|(p, &v)| p.contains(v)), "{w:?}");
        }
    }

    #[test]
    fn crossovers_take_from_the_parents() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        for _ in 0..1000 {
            let c = uniform_crossover(&[1, 10], &[2, 20], &mut rng);
            assert!([1, 2].contains(&c[0]) && [10, 20].contains(&c[1]));
            let c = blend_crossover(&[-10, 10], &[10, 20], PARAMS, &mut rng);
            assert!((-10..=10).contains(&c[0]) && (5..=25).contains(&c[1]), "{c:?}");
            assert!(PARAMS.iter().zip(&c).all(|(p, &v)| p.contains(v)));
        }
    }

    #[test]
    fn tournament_of_everyone_picks_the_best() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let f = [1.0, 5.0, 3.0];
        let wins = (0..200).filter(|_| tournament(&f, 60, &mut rng) == 1).count();
        assert_eq!(wins, 200);
    }
}
