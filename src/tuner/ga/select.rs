//! Selection and an island's update after the generation's rating fit.

use crate::tuner::ga::breed::{recombine_sigma, Genome, Twins};
use crate::tuner::rating::Ratings;
use crate::tuner::Space;

/// Where an island's players sit in the generation's roster.
pub struct Seats {
    pub mean: usize,
    pub elites: Vec<usize>,
    /// (plus, minus) per twin pair.
    pub twins: Vec<(usize, usize)>,
}

/// An island's state between generations.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Island {
    pub mean: Vec<f64>,
    /// Mutation step as a fraction of each parameter's range.
    pub sigma: f64,
    /// Last generation's winners and elites, best first, each with the z by
    /// which it won: the crossover parents.
    pub parents: Vec<(Genome, f64)>,
    pub elites: Vec<Genome>,
    /// Every twin result of the island so far, as a quadratic fit.
    #[serde(default)]
    pub surrogate: crate::tuner::ga::surrogate::Surrogate,
}

/// What the update measured.
pub struct Update {
    /// Mean z² of the twin results: about 1 when they are noise.
    pub signal: f64,
    /// Elo the elites (last generation's offspring) lost against the mean.
    pub offspring_loss: f64,
    /// The learning rate used.
    pub eta: f64,
}

/// How the update is tuned.
pub struct Tuning {
    /// The final learning rate times the twin results' standard error, per
    /// twin pair (see [`final_learning_rate`]), and this generation's
    /// schedule factor.
    pub precision_rate: f64,
    pub schedule: f64,
    /// Step growth factor when the results are noise.
    pub growth: f64,
    pub sigma_bounds: (f64, f64),
    pub max_offspring_loss: f64,
    pub elites: usize,
}

/// A twin result counts at most this many standard errors: one lopsided
/// pair (a broken genome) must not drag the mean.
const Z_CLIP: f64 = 3.0;

/// The final learning rate, times the standard error `SE` of a twin result,
/// whose stationary jitter costs `precision` Elo at the quantile `chi2_q` of
/// χ²(n).
///
/// The mean moves by `η Σ_j z_j h_j / P` (twin pairs `j`, z-score of the
/// result `z_j`, half-difference `h_j` of spread `s` per parameter). Near the
/// optimum of a quadratic with Hessian `-2K`, `z_j` is noise plus
/// `2 h_j·∇/SE`, so per generation the mean relaxes by `4 η s² K / SE` and
/// jitters with variance `η² s² / P`: a stationary variance of
/// `η SE / (8 P K)` per parameter and an Elo loss `K Σ e_i²` whose quantile
/// is `η SE χ²_q / (8 P)`. The curvature cancels, as it does for SPSA's `r`
/// in spsa_simul's analysis: the precision alone sets the rate; the curvature
/// and the lever only set how long convergence takes.
pub fn final_learning_rate(precision: f64, chi2_q: f64, twin_pairs: usize) -> f64 {
    8.0 * twin_pairs as f64 * precision / chi2_q
}

/// z of `a` against `b` in the fit.
fn z_of(ratings: &Ratings, a: usize, b: usize) -> f64 {
    let se = ratings.diff_se(a, b);
    if se > 0.0 {
        (ratings.elo[a] - ratings.elo[b]) / se
    } else {
        0.0
    }
}

pub fn select_and_update(
    isl: &mut Island,
    twins: &[Twins],
    seats: &Seats,
    ratings: &Ratings,
    tuning: &Tuning,
    space: &Space,
) -> Update {
    let p = twins.len() as f64;
    if twins.is_empty() {
        return Update {
            signal: 0.0,
            offspring_loss: 0.0,
            eta: 0.0,
        };
    }
    let z: Vec<f64> = seats.twins.iter().map(|&(a, b)| z_of(ratings, a, b)).collect();
    let signal = z.iter().map(|v| v * v).sum::<f64>() / p;
    let rms_se = (seats
        .twins
        .iter()
        .map(|&(a, b)| ratings.diff_se(a, b).powi(2))
        .sum::<f64>()
        / p)
        .sqrt();

    // Pairwise selection (only a pair's winner can be selected: Auger,
    // Brockhoff and Hansen 2011), and the winner's mutation `sign(z) h`
    // counts with weight |z|: the move is then the least-squares slope along
    // the mutations, where a vote would discard how clearly each pair was won.
    let weights: Vec<f64> = z.iter().map(|v| v.clamp(-Z_CLIP, Z_CLIP) / p).collect();
    let eta = if rms_se > 0.0 {
        tuning.schedule * tuning.precision_rate * p / rms_se
    } else {
        0.0
    };
    for (t, w) in twins.iter().zip(&weights) {
        for (i, m) in isl.mean.iter_mut().enumerate() {
            *m += eta * w * 0.5 * (t.plus[i] - t.minus[i]);
        }
    }
    space.clamp(&mut isl.mean);

    let mut parents: Vec<(Genome, f64)> = twins
        .iter()
        .zip(&z)
        .map(|(t, &zj)| {
            (
                Genome {
                    x: if zj >= 0.0 { t.plus.clone() } else { t.minus.clone() },
                    sigma: t.sigma,
                },
                zj.abs(),
            )
        })
        .collect();
    // Last generation's elites, re-evaluated against the mean, compete on
    // that z; their results also show how far below the mean offspring play.
    let mut loss = (0.0, 0.0);
    for (e, &seat) in isl.elites.iter().zip(&seats.elites) {
        parents.push((e.clone(), z_of(ratings, seat, seats.mean)));
        loss.0 += ratings.elo[seats.mean] - ratings.elo[seat];
        loss.1 += ratings.diff_se(seats.mean, seat).powi(2);
    }
    let k = seats.elites.len().max(1) as f64;
    let (offspring_loss, loss_se) = (loss.0 / k, loss.1.sqrt() / k);

    // Self-adaptation: the steps recombine with the selection weights. Noise
    // handling after UH-CMA-ES: when the twin results are no stronger than
    // chance (mean z² within one standard error, sqrt(2/P), of 1) the step
    // grows, since a longer lever is the only way to raise the signal.
    let sigmas: Vec<f64> = twins.iter().map(|t| t.sigma).collect();
    let abs_w: Vec<f64> = weights.iter().map(|w| w.abs()).collect();
    let mut sigma = if abs_w.iter().sum::<f64>() > 0.0 {
        recombine_sigma(&sigmas, &abs_w)
    } else {
        recombine_sigma(&sigmas, &vec![1.0; sigmas.len()])
    };
    if signal < 1.0 + (2.0 / p).sqrt() {
        sigma *= tuning.growth;
    }
    if !seats.elites.is_empty() && offspring_loss - 3.0 * loss_se > tuning.max_offspring_loss {
        sigma /= tuning.growth;
    }
    isl.sigma = sigma.clamp(tuning.sigma_bounds.0, tuning.sigma_bounds.1);

    parents.sort_by(|x, y| y.1.total_cmp(&x.1));
    isl.elites = parents.iter().take(tuning.elites).map(|(g, _)| g.clone()).collect();
    isl.parents = parents;
    Update {
        signal,
        offspring_loss,
        eta,
    }
}

/// Ring migration of island means: the incoming mean replaces the local one
/// if it rates better by `z` standard errors, is ignored if it rates worse by
/// as much, and otherwise the two blend at the midpoint. The sender's best
/// genome joins the receiver's crossover parents.
pub fn migrate(islands: &mut [Island], seats: &[Seats], ratings: &Ratings, z: f64) {
    let means: Vec<Vec<f64>> = islands.iter().map(|isl| isl.mean.clone()).collect();
    let k = islands.len();
    for from in 0..k {
        let to = (from + 1) % k;
        let zm = z_of(ratings, seats[from].mean, seats[to].mean);
        if zm > z {
            islands[to].mean = means[from].clone();
        } else if zm >= -z {
            for (m, v) in islands[to].mean.iter_mut().zip(&means[from]) {
                *m = 0.5 * (*m + v);
            }
        }
        if let Some(best) = islands[from].parents.first().cloned() {
            islands[to].parents.push(best);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuner::rating::{fit, FitOptions, MatchResult};

    #[test]
    fn the_mean_moves_toward_the_winning_twin() {
        let space = Space::cube(2, 0.0, 100.0);
        let mut isl = Island {
            mean: vec![50.0, 50.0],
            sigma: 0.1,
            parents: Vec::new(),
            elites: Vec::new(),
            surrogate: crate::tuner::ga::surrogate::Surrogate::new(2),
        };
        let twins = vec![Twins {
            base: vec![50.0, 50.0],
            plus: vec![60.0, 40.0],
            minus: vec![40.0, 60.0],
            sigma: 0.1,
        }];
        // Players: 0 mean, 1 plus, 2 minus; plus wins clearly.
        let matches = [
            MatchResult {
                a: 1,
                b: 2,
                pairs: [0, 1, 3, 6, 10].into(),
            },
            MatchResult {
                a: 0,
                b: 1,
                pairs: [1, 1, 2, 1, 1].into(),
            },
        ];
        let ratings = fit(3, 0, &matches, FitOptions::default());
        let seats = Seats {
            mean: 0,
            elites: Vec::new(),
            twins: vec![(1, 2)],
        };
        let tuning = Tuning {
            precision_rate: 50.0,
            schedule: 1.0,
            growth: 1.2,
            sigma_bounds: (0.01, 0.5),
            max_offspring_loss: 20.0,
            elites: 1,
        };
        let u = select_and_update(&mut isl, &twins, &seats, &ratings, &tuning, &space);
        assert!(isl.mean[0] > 50.0 && isl.mean[1] < 50.0, "{:?}", isl.mean);
        assert!(u.signal > 4.0 && u.eta > 0.0);
        assert_eq!(isl.elites[0].x, vec![60.0, 40.0]);
        // A clear result is signal, so the step did not grow for noise.
        assert!((isl.sigma - 0.1).abs() < 1e-12);
    }
}
