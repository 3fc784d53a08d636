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
//! Two more landscapes ([`Landscape`]) keep the same games and units but
//! give the loss the structure real genomes have and spsa_simul's lacks:
//! - [`Landscape::Rotated`]: a quadratic whose axes are turned by a seeded
//!   random rotation and stretched unequally (condition number
//!   [`ROTATED_CONDITION`]), so what a parameter is worth depends on the
//!   others (`loss = u^T R^T D R u`, `u` the offset from the optimum in half
//!   ranges);
//! - [`Landscape::ScaleFree`]: the loss depends only on the direction of the
//!   point from the origin, not on its length, as alpha-beta's choices do
//!   when every weight is multiplied by the same positive number: a flat
//!   direction along which a tuner only wastes games.
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

/// Ratio of the largest to the smallest curvature of [`Landscape::Rotated`].
pub const ROTATED_CONDITION: f64 = 100.0;

/// The shape of the Elo loss around the optimum.
#[derive(Clone, Debug, PartialEq)]
pub enum Landscape {
    /// spsa_simul's: a sum of one quadratic per parameter.
    Separable,
    /// `Σ_k e · d_k (R u)_k²`, `u_i = 2 (x_i - opt_i) / range_i`, with `R`
    /// a rotation (row-major, n × n) and curvatures `d_k` of mean 1 (so the
    /// trace, the average loss over directions, is spsa_simul's).
    Rotated { rotation: Vec<f64>, curvature: Vec<f64> },
    /// `scale · (1 - cos θ)`, `θ` the angle between the point and the
    /// optimum seen from the origin; the origin itself counts as a right angle.
    ScaleFree { scale: f64 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct EloModel {
    pub space: Space,
    pub optimum: Vec<f64>,
    /// Elo lost by parameter `i` alone at half its range from its optimum
    /// (for the separable and rotated landscapes).
    pub elo_at_half_range: Vec<f64>,
    pub draw_ratio: f64,
    pub landscape: Landscape,
}

impl EloModel {
    /// spsa_simul's default model with `n` parameters.
    pub fn spsa_simul(n: usize) -> EloModel {
        EloModel {
            space: Space::cube(n, SPSA_SIMUL_LO, SPSA_SIMUL_HI),
            optimum: vec![SPSA_SIMUL_OPTIMUM; n],
            elo_at_half_range: vec![SPSA_SIMUL_ELO_AT_HALF_RANGE; n],
            draw_ratio: SPSA_SIMUL_DRAW_RATIO,
            landscape: Landscape::Separable,
        }
    }

    /// spsa_simul's box with the optimum moved to `optimum` and the loss
    /// turned by a rotation drawn from `seed` ([`Landscape::Rotated`]).
    pub fn rotated(n: usize, optimum: Vec<f64>, seed: u64) -> EloModel {
        assert_eq!(optimum.len(), n, "optimum of the wrong dimension");
        let curvature: Vec<f64> = (0..n)
            .map(|k| {
                let t = if n > 1 { k as f64 / (n - 1) as f64 } else { 0.5 };
                ROTATED_CONDITION.powf(t - 0.5)
            })
            .collect();
        let mean = curvature.iter().sum::<f64>() / n as f64;
        EloModel {
            optimum,
            landscape: Landscape::Rotated {
                rotation: random_rotation(n, seed),
                curvature: curvature.iter().map(|d| d / mean).collect(),
            },
            ..EloModel::spsa_simul(n)
        }
    }

    /// A box `[-100, 100]^n` whose loss depends only on the direction from
    /// the origin ([`Landscape::ScaleFree`]). `scale` is `2n` Elo: a point
    /// at a right angle to the optimum loses what spsa_simul's farthest
    /// corner does.
    pub fn scale_free(optimum: Vec<f64>) -> EloModel {
        let n = optimum.len();
        assert!(optimum.iter().any(|&v| v != 0.0), "the optimum needs a direction");
        EloModel {
            space: Space::cube(n, -100.0, 100.0),
            optimum,
            landscape: Landscape::ScaleFree {
                scale: SPSA_SIMUL_ELO_AT_HALF_RANGE * n as f64,
            },
            ..EloModel::spsa_simul(n)
        }
    }

    pub fn dim(&self) -> usize {
        self.optimum.len()
    }

    /// The true Elo of `x` relative to the optimum (at most 0).
    pub fn elo(&self, x: &[f64]) -> f64 {
        assert_eq!(x.len(), self.dim(), "point of the wrong dimension");
        match &self.landscape {
            Landscape::Separable => self.separable_elo(x),
            Landscape::Rotated { rotation, curvature } => {
                let n = self.dim();
                let u: Vec<f64> = (0..n)
                    .map(|i| 2.0 * (x[i] - self.optimum[i]) / self.space.range(i))
                    .collect();
                -(0..n)
                    .map(|k| {
                        let v: f64 = (0..n).map(|i| rotation[k * n + i] * u[i]).sum();
                        self.elo_at_half_range[k] * curvature[k] * v * v
                    })
                    .sum::<f64>()
            }
            Landscape::ScaleFree { scale } => {
                let dot: f64 = x.iter().zip(&self.optimum).map(|(a, b)| a * b).sum();
                let norms = norm(x) * norm(&self.optimum);
                let cos = if norms > 0.0 {
                    (dot / norms).clamp(-1.0, 1.0)
                } else {
                    0.0
                };
                -scale * (1.0 - cos)
            }
        }
    }

    fn separable_elo(&self, x: &[f64]) -> f64 {
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
    /// corner, `start_elo` below the optimum. Of the corners, the one that
    /// loses most (the farthest one first among equals, which is spsa_simul's
    /// in its separable case). On the scale-free landscape, the point at the
    /// optimum's length turned away from it until it loses `start_elo`
    /// ([`EloModel::scale_free_start`]). Panics if no point of the box is that far.
    pub fn start(&self, start_elo: f64) -> Vec<f64> {
        if let Landscape::ScaleFree { scale } = self.landscape {
            return self.scale_free_start(start_elo, scale);
        }
        let n = self.dim();
        let farthest: Vec<bool> = (0..n)
            .map(|i| self.space.hi[i] - self.optimum[i] >= self.optimum[i] - self.space.lo[i])
            .collect();
        // Separable losses peak at the farthest corner: no search needed.
        let masks = if self.landscape == Landscape::Separable || n >= 20 {
            1u32
        } else {
            1u32 << n
        };
        let corner_of = |mask: u32| -> Vec<f64> {
            (0..n)
                .map(|i| {
                    let up = farthest[i] != (mask >> i & 1 == 1);
                    if up {
                        self.space.hi[i]
                    } else {
                        self.space.lo[i]
                    }
                })
                .collect()
        };
        let mut corner = corner_of(0);
        let mut corner_loss = self.loss(&corner);
        for mask in 1..masks {
            let c = corner_of(mask);
            let l = self.loss(&c);
            if l > corner_loss {
                (corner, corner_loss) = (c, l);
            }
        }
        assert!(
            start_elo >= 0.0 && start_elo <= corner_loss,
            "start Elo {start_elo} outside [0, {corner_loss}]"
        );
        let l = (start_elo / corner_loss).sqrt();
        (0..n)
            .map(|i| self.optimum[i] + l * (corner[i] - self.optimum[i]))
            .collect()
    }

    /// The optimum turned by the angle that loses `start_elo`, toward the
    /// first coordinate axis made orthogonal to it (the second if the first
    /// is parallel), at the optimum's length.
    fn scale_free_start(&self, start_elo: f64, scale: f64) -> Vec<f64> {
        let n = self.dim();
        assert!(
            start_elo >= 0.0 && start_elo <= 2.0 * scale && n >= 2,
            "start Elo {start_elo} outside [0, {}]",
            2.0 * scale
        );
        let r = norm(&self.optimum);
        let unit: Vec<f64> = self.optimum.iter().map(|v| v / r).collect();
        let mut side = vec![0.0; n];
        for axis in 0..n {
            side = (0..n)
                .map(|i| f64::from(u8::from(i == axis)) - unit[axis] * unit[i])
                .collect();
            if norm(&side) > 1e-6 {
                break;
            }
        }
        let s = norm(&side);
        let cos = 1.0 - start_elo / scale;
        let sin = (1.0 - cos * cos).max(0.0).sqrt();
        let x: Vec<f64> = (0..n).map(|i| r * (cos * unit[i] + sin * side[i] / s)).collect();
        assert!(self.space.contains(&x), "start point {x:?} outside the box");
        x
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

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// A random rotation (row-major): Gram-Schmidt on a matrix of seeded
/// normal draws, with a sign per row that keeps the draw uniform (Haar).
pub fn random_rotation(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut q: Vec<f64> = (0..n * n).map(|_| standard_normal(&mut rng)).collect();
    for k in 0..n {
        for j in 0..k {
            let dot: f64 = (0..n).map(|i| q[k * n + i] * q[j * n + i]).sum();
            for i in 0..n {
                q[k * n + i] -= dot * q[j * n + i];
            }
        }
        let len = norm(&q[k * n..(k + 1) * n]);
        for v in &mut q[k * n..(k + 1) * n] {
            *v /= len;
        }
    }
    q
}

/// A standard normal draw (Box-Muller).
pub fn standard_normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
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

    /// The mixed second difference of the loss in parameters `i` and `j`:
    /// zero for every pair exactly when the loss is a sum of one function
    /// per parameter.
    fn interaction(m: &EloModel, i: usize, j: usize) -> f64 {
        let x = m.optimum.clone();
        let at = |di: f64, dj: f64| {
            let mut y = x.clone();
            y[i] += di;
            y[j] += dj;
            m.loss(&y)
        };
        at(20.0, 20.0) - at(20.0, 0.0) - at(0.0, 20.0) + at(0.0, 0.0)
    }

    #[test]
    fn the_rotated_loss_is_not_separable_and_keeps_its_optimum() {
        let n = 4;
        let m = EloModel::rotated(n, vec![40.0, 160.0, 65.0, 130.0], 3);
        assert_eq!(m.loss(&m.optimum), 0.0);
        let strongest = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| interaction(&m, i, j).abs())
            .fold(0.0, f64::max);
        // The same parameters without the rotation interact not at all; turned,
        // some pair is worth a large share of what one parameter alone is.
        let separable = EloModel {
            optimum: m.optimum.clone(),
            ..EloModel::spsa_simul(n)
        };
        assert!(interaction(&separable, 0, 1).abs() < 1e-12);
        assert!(strongest > 0.1 * m.loss(&[60.0, 160.0, 65.0, 130.0]), "{strongest}");
        // The rotation is orthogonal.
        let Landscape::Rotated { rotation, curvature } = &m.landscape else {
            unreachable!()
        };
        for a in 0..n {
            for b in 0..n {
                let dot: f64 = (0..n).map(|i| rotation[a * n + i] * rotation[b * n + i]).sum();
                assert!((dot - f64::from(u8::from(a == b))).abs() < 1e-12);
            }
        }
        let (lo, hi) = (curvature[0], curvature[n - 1]);
        assert!((hi / lo - ROTATED_CONDITION).abs() < 1e-9);
        assert!((m.loss(&m.start(4.0)) - 4.0).abs() < 1e-9);
        assert!(m.space.contains(&m.start(4.0)));
    }

    #[test]
    fn the_scale_free_loss_ignores_the_length() {
        let m = EloModel::scale_free(vec![-30.0, 30.0, -17.5, 15.0]);
        assert!(m.loss(&m.optimum).abs() < 1e-12);
        assert!(m.loss(&[-60.0, 60.0, -35.0, 30.0]).abs() < 1e-12);
        let x = [10.0, -20.0, 35.0, 5.0];
        let doubled: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
        assert!((m.loss(&x) - m.loss(&doubled)).abs() < 1e-12);
        assert!(m.loss(&x) > 0.0);
        let s = m.start(4.0);
        assert!((m.loss(&s) - 4.0).abs() < 1e-9);
        assert!((norm(&s) - norm(&m.optimum)).abs() < 1e-9);
    }

    #[test]
    fn the_start_is_spsa_simuls_in_the_separable_case_off_centre_too() {
        let mut m = EloModel::spsa_simul(3);
        m.optimum = vec![40.0, 160.0, 65.0];
        let s = m.start(4.0);
        let l = (4.0 / m.loss(&[200.0, 0.0, 200.0])).sqrt();
        for (i, c) in [200.0, 0.0, 200.0].iter().enumerate() {
            assert!((s[i] - (m.optimum[i] + l * (c - m.optimum[i]))).abs() < 1e-12);
        }
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
