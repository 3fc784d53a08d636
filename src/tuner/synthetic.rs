//! The Elo-plus-noise model of vdbergh/spsa_simul: a known optimum, a
//! quadratic Elo loss per parameter, and games drawn from the logistic Elo
//! difference with a fixed draw ratio.
//!
//! Conventions, as spsa_simul's `lf.c` and `elo.c` have them:
//! - parameter `i` lives in `[lo_i, hi_i]` (default `[0, 200]`, optimum 100);
//! - `Elo(x) = -Σ e_i ((x_i - opt_i) / ((hi_i - lo_i) / 2))²` with `e_i = 2`: two
//!   Elo lost at half the range from the optimum, 0 at the optimum. The loss is
//!   defined outside the box too (spsa_simul evaluates it without bounds);
//!   the tuners here keep to the box;
//! - a game between `a` and `b` is won by `a` with probability
//!   `L(Elo(a) - Elo(b)) - d/2`, drawn with probability `d` (0.61), lost
//!   otherwise, with `L(x) = 1 / (1 + 10^(-x/400))`. The draw ratio does not
//!   depend on the Elo difference (spsa_simul's model; it stays a valid
//!   distribution for |Elo difference| up to 143 Elo at d = 0.61, far beyond
//!   the 2 Elo per parameter that this model's box can produce; outside that
//!   the win or loss probability is clamped at 0 and the draws take up the
//!   rest);
//! - the start point lies on the segment from the optimum to the farthest
//!   corner of the box, where the loss equals the requested start Elo
//!   (`lf_start`).
//!
//! spsa_simul plays single games; here a game pair is two independent games
//! (the model has no side or map effect, so sides swapped change nothing).
//! Results of different matches are independent even under one seed: the
//! model has no map effect, so common random numbers neither help nor hurt
//! here, and no tuner can profit from correlations that real games would not
//! have.

use crate::game::mix64;
use crate::stats::{expected_score, Pentanomial};
use crate::tuner::{derive_seed, Oracle, Space};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// spsa_simul's defaults.
pub const SPSA_SIMUL_LO: f64 = 0.0;
pub const SPSA_SIMUL_HI: f64 = 200.0;
pub const SPSA_SIMUL_OPTIMUM: f64 = 100.0;
pub const SPSA_SIMUL_ELO_AT_HALF_RANGE: f64 = 2.0;
pub const SPSA_SIMUL_DRAW_RATIO: f64 = 0.61;

#[derive(Clone, Debug, PartialEq)]
pub struct EloModel {
    pub space: Space,
    pub optimum: Vec<f64>,
    /// Elo lost by parameter `i` alone at half its range from its optimum.
    pub elo_at_half_range: Vec<f64>,
    pub draw_ratio: f64,
}

impl EloModel {
    /// spsa_simul's default model with `n` parameters.
    pub fn spsa_simul(n: usize) -> EloModel {
        EloModel {
            space: Space::cube(n, SPSA_SIMUL_LO, SPSA_SIMUL_HI),
            optimum: vec![SPSA_SIMUL_OPTIMUM; n],
            elo_at_half_range: vec![SPSA_SIMUL_ELO_AT_HALF_RANGE; n],
            draw_ratio: SPSA_SIMUL_DRAW_RATIO,
        }
    }

    pub fn dim(&self) -> usize {
        self.optimum.len()
    }

    /// The true Elo of `x` relative to the optimum (at most 0).
    pub fn elo(&self, x: &[f64]) -> f64 {
        assert_eq!(x.len(), self.dim(), "point of the wrong dimension");
        let terms = x
            .iter()
            .zip(&self.optimum)
            .zip(&self.elo_at_half_range)
            .zip(self.space.lo.iter().zip(&self.space.hi));
        -terms
            .map(|(((&v, &o), &e), (&lo, &hi))| e * (2.0 * (v - o) / (hi - lo)).powi(2))
            .sum::<f64>()
    }

    /// Elo below the optimum (at least 0): what the benchmark measures.
    pub fn loss(&self, x: &[f64]) -> f64 {
        -self.elo(x)
    }

    /// spsa_simul's start point: on the way from the optimum to the farthest
    /// corner, `start_elo` below the optimum. Panics if the corner itself is
    /// closer than that.
    pub fn start(&self, start_elo: f64) -> Vec<f64> {
        let corner: Vec<f64> = (0..self.dim())
            .map(|i| {
                let (lo, hi, o) = (self.space.lo[i], self.space.hi[i], self.optimum[i]);
                if hi - o >= o - lo {
                    hi
                } else {
                    lo
                }
            })
            .collect();
        let corner_loss = self.loss(&corner);
        assert!(
            start_elo >= 0.0 && start_elo <= corner_loss,
            "start Elo {start_elo} outside [0, {corner_loss}]"
        );
        let l = (start_elo / corner_loss).sqrt();
        (0..self.dim())
            .map(|i| self.optimum[i] + l * (corner[i] - self.optimum[i]))
            .collect()
    }

    /// Loss, draw and win probabilities of one game from the side that is
    /// `elo_diff` Elo stronger.
    pub fn game_probabilities(&self, elo_diff: f64) -> [f64; 3] {
        let d = self.draw_ratio;
        let s = expected_score(elo_diff);
        let win = (s - 0.5 * d).clamp(0.0, 1.0 - d);
        let loss = (1.0 - d - win).clamp(0.0, 1.0 - d);
        [loss, 1.0 - win - loss, win]
    }

    /// Pentanomial probabilities of a pair of independent games.
    pub fn pair_probabilities(&self, elo_diff: f64) -> [f64; 5] {
        let g = self.game_probabilities(elo_diff);
        let mut p = [0.0; 5];
        for (i, &gi) in g.iter().enumerate() {
            for (j, &gj) in g.iter().enumerate() {
                p[i + j] += gi * gj;
            }
        }
        p
    }
}

fn hash_point(x: &[f64]) -> u64 {
    x.iter().fold(0x51_7cc1_b727_220a, |h, v| mix64(h ^ v.to_bits()))
}

impl EloModel {
    /// The random stream of the match `a` against `b` under `seed`. The
    /// players enter it: matches that share a round seed are independent, as
    /// they are in a model without a map effect.
    fn match_rng(&self, a: &[f64], b: &[f64], seed: u64) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(derive_seed(seed, hash_point(a) ^ hash_point(b).rotate_left(17)))
    }

    /// Plays `games` single games (spsa_simul's unit) and returns `a`'s
    /// losses, draws and wins.
    pub fn play_games(&self, a: &[f64], b: &[f64], games: u32, seed: u64) -> [u32; 3] {
        let p = self.game_probabilities(self.elo(a) - self.elo(b));
        let mut rng = self.match_rng(a, b, seed);
        let mut counts = [0u32; 3];
        for _ in 0..games {
            counts[sample_game(&p, &mut rng)] += 1;
        }
        counts
    }
}

/// One game's result in half points (0 loss, 1 draw, 2 win).
fn sample_game(p: &[f64; 3], rng: &mut Xoshiro256PlusPlus) -> usize {
    let u: f64 = rng.random();
    if u < p[0] {
        0
    } else if u < p[0] + p[1] {
        1
    } else {
        2
    }
}

impl Oracle for EloModel {
    fn play_pairs(&self, a: &[f64], b: &[f64], pairs: u32, seed: u64) -> Pentanomial {
        let p = self.game_probabilities(self.elo(a) - self.elo(b));
        let mut rng = self.match_rng(a, b, seed);
        let mut counts = [0u32; 5];
        for _ in 0..pairs {
            counts[sample_game(&p, &mut rng) + sample_game(&p, &mut rng)] += 1;
        }
        counts.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_zero_at_the_optimum_and_two_at_half_range() {
        let m = EloModel::spsa_simul(4);
        assert_eq!(m.elo(&[100.0; 4]), 0.0);
        assert!((m.loss(&[200.0, 100.0, 100.0, 100.0]) - 2.0).abs() < 1e-12);
        assert!((m.loss(&[0.0, 100.0, 100.0, 100.0]) - 2.0).abs() < 1e-12);
        assert!((m.loss(&[150.0, 100.0, 50.0, 100.0]) - 1.0).abs() < 1e-12);
        // The corner loses 2 Elo per parameter.
        assert!((m.loss(&[200.0; 4]) - 8.0).abs() < 1e-12);
    }

    #[test]
    fn start_point_is_spsa_simuls() {
        // spsa_simul's example: 4 parameters, start Elo 2 -> 150 each.
        let m = EloModel::spsa_simul(4);
        let s = m.start(2.0);
        for v in &s {
            assert!((v - 150.0).abs() < 1e-9);
        }
        assert!((m.loss(&m.start(5.0)) - 5.0).abs() < 1e-9);
    }

    #[test]
    fn probabilities_are_spsa_simuls() {
        let m = EloModel::spsa_simul(1);
        let [l, d, w] = m.game_probabilities(10.0);
        assert!((d - 0.61).abs() < 1e-12);
        assert!((w - (expected_score(10.0) - 0.305)).abs() < 1e-12);
        assert!((l + d + w - 1.0).abs() < 1e-12);
        let p = m.pair_probabilities(-7.0);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mean = p.iter().enumerate().map(|(k, &q)| q * k as f64 / 4.0).sum::<f64>();
        assert!((mean - expected_score(-7.0)).abs() < 1e-12);
    }

    #[test]
    fn draw_ratio_of_equal_players_is_061() {
        let m = EloModel::spsa_simul(2);
        let x = [100.0, 100.0];
        let [l, d, w] = m.play_games(&x, &x, 200_000, 1);
        let n = (l + d + w) as f64;
        assert!((d as f64 / n - 0.61).abs() < 0.004, "draw ratio {}", d as f64 / n);
        assert!((w as f64 / n - 0.195).abs() < 0.004, "win ratio {}", w as f64 / n);
        // The same in pairs: one draw in a pair happens with probability 2d(1 - d).
        let p = m.play_pairs(&x, &x, 100_000, 2);
        let one_draw = (p.counts[1] + p.counts[3]) as f64 / 100_000.0;
        let d_pairs = 0.5 * (1.0 + (1.0 - 2.0 * one_draw).sqrt());
        assert!((d_pairs - 0.61).abs() < 0.01, "draw ratio from pairs {d_pairs}");
        assert!((p.counts[4] as f64 / 100_000.0 - 0.195 * 0.195).abs() < 0.003);
    }

    #[test]
    fn same_seed_same_result_other_players_other_noise() {
        let m = EloModel::spsa_simul(2);
        let (a, b, c) = ([90.0, 110.0], [120.0, 100.0], [120.0, 101.0]);
        assert_eq!(m.play_pairs(&a, &b, 1000, 7), m.play_pairs(&a, &b, 1000, 7));
        assert_ne!(m.play_pairs(&a, &b, 1000, 7), m.play_pairs(&a, &b, 1000, 8));
        assert_ne!(m.play_pairs(&a, &b, 1000, 7), m.play_pairs(&a, &c, 1000, 7));
    }
}
