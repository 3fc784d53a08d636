//! Noise-aware tuners of parameter vectors from paired games.
//!
//! Everything here talks to the games through [`Oracle`]: it plays game pairs
//! between two parameter vectors and returns their pentanomial. The same
//! trait serves the real games (through the arena) and the synthetic
//! Elo-plus-noise model of vdbergh/spsa_simul ([`synthetic`]), so the GA
//! ([`ga`]), CMA-ES ([`cma`]) and fishtest's SPSA ([`spsa`]) run unchanged
//! on both, and [`bench`] can measure them against a known optimum.
//!
//! Parameters are `f64` vectors in a box ([`Space`]). The tuners move in that
//! continuous box; an oracle for real genomes rounds a point onto the genome's
//! step grid when it builds the bots ([`Space::round_stochastic`] for SPSA's
//! sub-step moves, as fishtest's worker does, or [`Space::round_nearest`]).

pub mod bench;
pub mod cma;
pub mod ga;
pub mod linalg;
pub mod logistic;
pub mod rating;
pub mod spsa;
pub mod synthetic;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::game::mix64;
use crate::stats::Pentanomial;

/// Plays games between parameter vectors.
///
/// `play_pairs(a, b, pairs, seed)` plays `pairs` game pairs and returns their
/// pentanomial from `a`'s side. A pair is two games on one map with one game
/// seed, sides swapped. Pair `i` must take its map and game seed from
/// `(seed, i)` alone, never from the players: a tuner hands the same `seed`
/// to every match of a round, so every genome meets the same maps and seeds
/// (common random numbers), and it never replays a match with a seed it has
/// used for those two players, so results are fresh. The same arguments must
/// give the same counts (deterministic bots, seeded randomness), which is what
/// makes a tuning run reproducible.
pub trait Oracle: Sync {
    fn play_pairs(&self, a: &[f64], b: &[f64], pairs: u32, seed: u64) -> Pentanomial;

    /// Opponents that are not points of the space (the contest's judge
    /// clones): tuned points play them so that the rating fit is anchored to
    /// what the contest scores against. None by default.
    fn fixed_opponents(&self) -> usize {
        0
    }

    /// Like `play_pairs`, against fixed opponent `k` (from `a`'s side).
    fn play_fixed(&self, a: &[f64], k: usize, pairs: u32, seed: u64) -> Pentanomial {
        let _ = (a, pairs, seed);
        panic!("this oracle has no fixed opponent {k}")
    }

    /// Plays independent matches (a round's fixtures) at once; results in
    /// match order, each the same as its own `play_pairs` or `play_fixed`.
    /// By default on the rayon pool; an oracle whose games go elsewhere
    /// (evolve's, through its executor) hands them all over together.
    fn play_matches(&self, matches: &[Match<'_>]) -> Vec<Pentanomial> {
        use rayon::prelude::*;
        matches.par_iter().map(|m| m.play(self)).collect()
    }
}

/// Who a match's first player meets: another point, or the oracle's fixed
/// opponent `k`.
#[derive(Clone, Copy, Debug)]
pub enum Opponent<'a> {
    Point(&'a [f64]),
    Fixed(usize),
}

/// One match: `a` against `b` for `pairs` game pairs under `seed`.
#[derive(Clone, Copy, Debug)]
pub struct Match<'a> {
    pub a: &'a [f64],
    pub b: Opponent<'a>,
    pub pairs: u32,
    pub seed: u64,
}

impl Match<'_> {
    /// The match through `play_pairs` or `play_fixed`.
    pub fn play<O: Oracle + ?Sized>(&self, oracle: &O) -> Pentanomial {
        match self.b {
            Opponent::Point(b) => oracle.play_pairs(self.a, b, self.pairs, self.seed),
            Opponent::Fixed(k) => oracle.play_fixed(self.a, k, self.pairs, self.seed),
        }
    }
}

/// The box the parameters live in, and the grid real genomes use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Space {
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
    /// Grid spacing per parameter (a genome's integer step), or `None` for a
    /// continuous parameter. Tuners ignore it; oracles round with it.
    pub step: Vec<Option<f64>>,
}

impl Space {
    /// A continuous box. A parameter whose bounds are equal is pinned: no
    /// tuner moves it (see [`Space::pin`]).
    pub fn new(lo: Vec<f64>, hi: Vec<f64>) -> Space {
        assert_eq!(lo.len(), hi.len(), "bounds of different lengths");
        assert!(
            lo.iter().zip(&hi).all(|(l, h)| l <= h),
            "no lower bound may be above its upper bound"
        );
        let step = vec![None; lo.len()];
        Space { lo, hi, step }
    }

    /// `n` copies of `[lo, hi]`.
    pub fn cube(n: usize, lo: f64, hi: f64) -> Space {
        Space::new(vec![lo; n], vec![hi; n])
    }

    /// Adds a step grid (`step[i] > 0`), as a genome's `ParamSpec` declares.
    pub fn with_steps(mut self, step: Vec<f64>) -> Space {
        assert_eq!(step.len(), self.dim(), "one step per parameter");
        assert!(step.iter().all(|&s| s > 0.0), "steps must be positive");
        self.step = step.into_iter().map(Some).collect();
        self
    }

    pub fn dim(&self) -> usize {
        self.lo.len()
    }

    pub fn range(&self, i: usize) -> f64 {
        self.hi[i] - self.lo[i]
    }

    /// The box with parameter `i` held at `value`: a genome's scale anchor
    /// (`crate::scale`). Every step a tuner takes is a fraction of a range,
    /// so a range of zero keeps the parameter where it is.
    pub fn pin(mut self, i: usize, value: f64) -> Space {
        self.lo[i] = value;
        self.hi[i] = value;
        self
    }

    pub fn is_pinned(&self, i: usize) -> bool {
        self.lo[i] == self.hi[i]
    }

    /// Parameter `i` of `x` in unit coordinates (`lo` at 0, `hi` at 1); a
    /// pinned parameter is at 0.
    pub fn unit(&self, x: &[f64], i: usize) -> f64 {
        if self.is_pinned(i) {
            0.0
        } else {
            (x[i] - self.lo[i]) / self.range(i)
        }
    }

    pub fn centre(&self) -> Vec<f64> {
        self.lo.iter().zip(&self.hi).map(|(l, h)| 0.5 * (l + h)).collect()
    }

    pub fn clamp(&self, x: &mut [f64]) {
        for (i, v) in x.iter_mut().enumerate() {
            *v = v.clamp(self.lo[i], self.hi[i]);
        }
    }

    pub fn contains(&self, x: &[f64]) -> bool {
        x.len() == self.dim() && x.iter().enumerate().all(|(i, &v)| v >= self.lo[i] && v <= self.hi[i])
    }

    /// The nearest grid point (the grid starts at `lo`), kept in the box.
    pub fn round_nearest(&self, x: &[f64]) -> Vec<f64> {
        self.round_with(x, |_| 0.5)
    }

    /// Stochastic rounding onto the grid: down with probability equal to the
    /// distance to the upper grid point, so the rounded value is unbiased. A
    /// tuner's moves are often far below one step; nearest rounding would
    /// turn them into no move at all (fishtest's worker rounds SPSA's values
    /// this way). Seed it from the pair's seed to keep games reproducible.
    pub fn round_stochastic(&self, x: &[f64], seed: u64) -> Vec<f64> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.round_with(x, |_| rng.random::<f64>())
    }

    fn round_with(&self, x: &[f64], mut offset: impl FnMut(usize) -> f64) -> Vec<f64> {
        x.iter()
            .enumerate()
            .map(|(i, &v)| {
                let v = v.clamp(self.lo[i], self.hi[i]);
                match self.step[i] {
                    Some(s) => {
                        let k = ((v - self.lo[i]) / s + offset(i)).floor();
                        (self.lo[i] + k * s).clamp(self.lo[i], self.hi[i])
                    }
                    None => v,
                }
            })
            .collect()
    }
}

/// A seed for the `index`-th thing of a kind under `seed`: distinct streams
/// for distinct `(seed, index)`.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_stays_on_the_grid_and_stochastic_rounding_is_unbiased() {
        let space = Space::cube(2, -10.0, 10.0).with_steps(vec![1.0, 4.0]);
        assert_eq!(space.round_nearest(&[0.4, 3.0]), vec![0.0, 2.0]);
        assert_eq!(space.round_nearest(&[11.0, -30.0]), vec![10.0, -10.0]);
        let n = 20_000;
        let mean: f64 = (0..n).map(|s| space.round_stochastic(&[0.3, 0.0], s)[0]).sum::<f64>() / n as f64;
        assert!((mean - 0.3).abs() < 0.02, "mean of rounded 0.3 was {mean}");
    }

    #[test]
    fn derived_seeds_differ_by_seed_and_index() {
        assert_ne!(derive_seed(1, 2), derive_seed(2, 1));
        assert_ne!(derive_seed(1, 2), derive_seed(1, 3));
    }
}
