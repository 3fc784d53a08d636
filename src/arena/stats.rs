//! Match statistics from one side's per-game points: win/draw/loss counts,
//! game-pair (pentanomial) counts, Elo estimates with 95% intervals, and the
//! generalized SPRT that fishtest and fastchess run on pentanomial counts.
//!
//! Games are played in pairs, one from each side of the same map, so the two
//! games of a pair are correlated. Statistics over pairs (the pentanomial)
//! account for that; statistics over single games (`MatchStats`) do not and
//! overstate the confidence when the map decides much of the result.

use serde::Serialize;
use std::fmt;

/// Wins, draws and losses of one bot, with the contest score and an Elo
/// estimate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MatchStats {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl MatchStats {
    pub fn from_points(points: &[f32]) -> Self {
        let mut s = MatchStats {
            wins: 0,
            draws: 0,
            losses: 0,
        };
        for &p in points {
            match half_points(p) {
                2 => s.wins += 1,
                0 => s.losses += 1,
                _ => s.draws += 1,
            }
        }
        s
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// `(wins + 0.5 × draws) / games`, the statements' rate.
    pub fn rate(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// Elo difference and its 95% interval. The interval is Wilson's score
    /// interval with the trinomial variance of the per-game score, so it stays
    /// finite and sensible when one side took every point.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.rate();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let (lo, hi) = wilson_interval(s, var, n);
        (elo(s), elo(lo), elo(hi))
    }
}

/// The two-sided 95% normal quantile.
const Z95: f64 = 1.959964;

/// Elo difference for an expected score.
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score for a logistic Elo difference; the inverse of [`elo`].
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A game's result in half points, so that a pair's total indexes the
/// pentanomial. Anything strictly between a loss and a win counts as a draw,
/// as in [`MatchStats::from_points`].
fn half_points(p: f32) -> usize {
    if p >= 1.0 {
        2
    } else if p <= 0.0 {
        0
    } else {
        1
    }
}

/// Wilson's score interval for a mean in [0, 1] from `n` samples with the
/// observed variance `var`. Unlike the normal (Wald) interval it does not
/// collapse to a point when every sample is the same, and it never leaves
/// [0, 1].
fn wilson_interval(mean: f64, var: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (var / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The score of a game pair for each pentanomial index, per game.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts of game pairs by the pair's total in half points, from the first
/// bot's view: index 0 = two losses, 1 = loss + draw, 2 = two draws or a win
/// and a loss, 3 = win + draw, 4 = two wins. Same order as fishtest's
/// `pentanomial` array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

/// Counts in the order of [`Pentanomial::counts`], e.g. fishtest's.
impl From<[u32; 5]> for Pentanomial {
    fn from(counts: [u32; 5]) -> Self {
        Pentanomial { counts }
    }
}

impl Pentanomial {
    /// Counts one pair from the points (0, 0.5 or 1) of its two games.
    pub fn add_pair(&mut self, a: f32, b: f32) {
        self.counts[half_points(a) + half_points(b)] += 1;
    }

    /// Pairs up consecutive games: games 2i and 2i+1 are the two sides of one
    /// map. An odd last game has no partner and is left out.
    pub fn from_points(points: &[f32]) -> Self {
        let mut p = Pentanomial::default();
        for pair in points.chunks_exact(2) {
            p.add_pair(pair[0], pair[1]);
        }
        p
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The first bot's points over all pairs (two games each).
    pub fn points(&self) -> f64 {
        self.weighted_sum(|a| 2.0 * a)
    }

    /// Adds another set of pairs from the same side.
    pub fn merge(mut self, other: Pentanomial) -> Pentanomial {
        self.counts.iter_mut().zip(other.counts).for_each(|(s, c)| *s += c);
        self
    }

    /// The same pairs from the other bot's side.
    pub fn swapped(&self) -> Pentanomial {
        let c = self.counts;
        Pentanomial::from([c[4], c[3], c[2], c[1], c[0]])
    }

    /// Mean score per game, in [0, 1]; 0 when no pair was played, like
    /// [`MatchStats::rate`].
    pub fn score(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        self.weighted_sum(|a| a) / self.pairs() as f64
    }

    /// Variance of the per-game pair score over pairs (divided by the number
    /// of pairs, not one less, as fastchess does); 0 when no pair was played.
    pub fn variance(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let s = self.score();
        self.weighted_sum(|a| (a - s).powi(2)) / self.pairs() as f64
    }

    fn weighted_sum(&self, f: impl Fn(f64) -> f64) -> f64 {
        self.counts.iter().zip(PAIR_SCORES).map(|(&c, a)| c as f64 * f(a)).sum()
    }

    /// Elo difference with a 95% interval, as fastchess reports it: the mean
    /// pair score ± 1.96 standard errors over pairs, in logistic Elo.
    ///
    /// At the edges that normal interval is no longer trustworthy, so:
    /// - when it would collapse to a point (every pair scored the same) or
    ///   reach a score of 0 or 1 (tiny or one-sided samples), Wilson's score
    ///   interval on the pair scores replaces it: that one keeps a width when
    ///   the pairs agree, stays inside (0, 1) short of a clean sweep, and
    ///   approaches the normal interval as pairs accumulate;
    /// - every score is clamped to [0.001, 0.999] before conversion, as
    ///   fishtest does, so all three values are finite, within ±1199.8 Elo;
    ///   a clean sweep shows the point estimate and upper end at +1199.8;
    /// - with no pairs the estimate is 0 with the full [-1199.8, +1199.8]
    ///   interval.
    pub fn elo(&self) -> EloEstimate {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return EloEstimate {
                elo: 0.0,
                lo: clamped_elo(0.0),
                hi: clamped_elo(1.0),
            };
        }
        let (s, var) = (self.score(), self.variance());
        let (lo, hi) = normal_interval(s, var, n).unwrap_or_else(|| wilson_interval(s, var, n));
        EloEstimate {
            elo: clamped_elo(s),
            lo: clamped_elo(lo),
            hi: clamped_elo(hi),
        }
    }

    /// Likelihood of superiority: the probability that the first bot is the
    /// stronger, from the normal approximation of the mean pair score (as
    /// fastchess computes it). With no pairs it is 0.5; when every pair scored
    /// the same it is 0, 0.5 or 1.
    pub fn los(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.5;
        }
        let (s, se) = (self.score(), (self.variance() / self.pairs() as f64).sqrt());
        // Exact for an even score, which the erfc fit misses by 1.5e-8.
        if s == 0.5 {
            0.5
        } else if se == 0.0 {
            if s > 0.5 {
                1.0
            } else {
                0.0
            }
        } else {
            normal_cdf((s - 0.5) / se)
        }
    }
}

/// fishtest clamps scores to [0.001, 0.999] before converting them to Elo.
const SCORE_CLAMP: f64 = 1e-3;

/// Elo for a score clamped as fishtest does; clamping the Elo rather than the
/// score keeps the two ends exact opposites.
fn clamped_elo(score: f64) -> f64 {
    let limit = elo(1.0 - SCORE_CLAMP);
    elo(score).clamp(-limit, limit)
}

/// fastchess's interval, mean ± z·sd/√n, or `None` where it is degenerate:
/// zero width, or reaching a score of 0 or 1 where the Elo scale ends.
fn normal_interval(mean: f64, var: f64, n: f64) -> Option<(f64, f64)> {
    let half = Z95 * (var / n).sqrt();
    let (lo, hi) = (mean - half, mean + half);
    (half > 0.0 && lo > 0.0 && hi < 1.0).then_some((lo, hi))
}

/// Standard normal distribution function.
fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function, from the Chebyshev fit in Numerical Recipes
/// (fractional error below 1.2e-7 everywhere); std has no stable `erf` yet.
fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.26551223,
        1.00002368,
        0.37409196,
        0.09678418,
        -0.18628806,
        0.27886807,
        -1.13520398,
        1.48851587,
        -0.82215223,
        0.17087277,
    ];
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = C.iter().rev().fold(0.0, |acc, &c| acc * t + c);
    let r = t * (-x * x + poly).exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// An Elo difference with the ends of its 95% interval; see
/// [`Pentanomial::elo`] for how the edges are handled.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

impl EloEstimate {
    /// Half the interval's width: the "± error" cutechess and fastchess print.
    pub fn error(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// `+55.6 [+28.3, +83.6]`; the precision (default 1) applies to all three.
impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = f.precision().unwrap_or(1);
        write!(f, "{:+.p$} [{:+.p$}, {:+.p$}]", self.elo, self.lo, self.hi)
    }
}

/// A sequential probability ratio test of H0: Elo = `elo0` against
/// H1: Elo = `elo1` (logistic Elo) on pentanomial counts, as fishtest and
/// fastchess run it. `alpha` is the false-positive rate (accepting H1 when
/// Elo ≤ elo0), `beta` the false-negative rate (accepting H0 when Elo ≥ elo1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SprtStatus {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        })
    }
}

/// An SPRT's log-likelihood ratio with the bounds it is compared against.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub status: SprtStatus,
}

/// `LLR 2.13 (-2.94, 2.94) continue`, fastchess's layout.
impl fmt::Display for SprtReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LLR {:.2} ({:.2}, {:.2}) {}",
            self.llr, self.lower, self.upper, self.status
        )
    }
}

/// What fishtest and fastchess count an empty pentanomial cell as, so that
/// the maximum-likelihood distributions, and so the LLR, exist from the first
/// pair on.
const EMPTY_CELL: f64 = 1e-3;

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, String> {
        if !(elo0.is_finite() && elo1.is_finite()) {
            return Err(format!("SPRT: elo0 and elo1 must be finite, got {elo0} and {elo1}"));
        }
        if elo0 >= elo1 {
            return Err(format!("SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("SPRT: {name} must lie strictly between 0 and 0.5, got {p}"));
            }
        }
        let (s0, s1) = (expected_score(elo0), expected_score(elo1));
        if !(s0 > 0.0 && s0 < s1 && s1 < 1.0) {
            return Err(format!(
                "SPRT: elo0 ({elo0}) and elo1 ({elo1}) are too extreme to tell apart as expected scores"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Wald's stopping bounds on the LLR: `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of H1 against H0: each hypothesis
    /// is represented by the distribution over the five pair scores that is
    /// most likely given the counts among those whose mean is the hypothesis'
    /// expected score (van den Bergh, "Maximum likelihood estimation for a
    /// multinomial distribution with given expectation value", Prop. 1.1).
    /// Empty cells count as 0.001 pairs, as in fishtest, so the ratio exists
    /// from the first pair on.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let counts = p.counts.map(|c| if c == 0 { EMPTY_CELL } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / n);
        let p0 = constrained_mle(&observed, expected_score(self.elo0));
        let p1 = constrained_mle(&observed, expected_score(self.elo1));
        let per_pair: f64 = observed
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(o, (a, b))| o * (b / a).ln())
            .sum();
        n * per_pair
    }

    pub fn status(&self, p: &Pentanomial) -> SprtStatus {
        self.report(p).status
    }

    /// The LLR with the bounds and the decision they give.
    pub fn report(&self, p: &Pentanomial) -> SprtReport {
        let llr = self.llr(p);
        let (lower, upper) = self.bounds();
        let status = if llr <= lower {
            SprtStatus::AcceptH0
        } else if llr >= upper {
            SprtStatus::AcceptH1
        } else {
            SprtStatus::Continue
        };
        SprtReport {
            llr,
            lower,
            upper,
            status,
        }
    }
}

/// The distribution over [`PAIR_SCORES`] with mean `s` that maximizes the
/// likelihood of the observed frequencies (all positive, summing to 1;
/// 0 < s < 1).
///
/// The Lagrange conditions give `pᵢ = p̂ᵢ / (1 + θ(aᵢ − s))` with θ the root of
/// `g(θ) = Σ p̂ᵢ (aᵢ − s) / (1 + θ(aᵢ − s))`. On the interval where every
/// denominator is positive, `(−1/(1 − s), 1/s)`, g falls strictly from +∞ to
/// −∞, so the root is unique and bisection finds it without the overshoot
/// Newton's method risks near the poles.
fn constrained_mle(observed: &[f64; 5], s: f64) -> [f64; 5] {
    let g = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, a)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    // Bisect until the midpoint is no longer distinct from an end: the
    // root is then pinned to the last bit; the cap is only a safeguard.
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let mut p = [0.0; 5];
    for ((pi, o), a) in p.iter_mut().zip(observed).zip(PAIR_SCORES) {
        *pi = o / (1.0 + theta * (a - s));
    }
    // The root is exact only to rounding; renormalizing keeps a probability
    // distribution, which the log ratios assume.
    let total: f64 = p.iter().sum();
    p.map(|x| x / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_match_is_zero_elo() {
        let s = MatchStats::from_points(&[1.0, 0.0, 0.5, 0.5]);
        assert_eq!((s.wins, s.draws, s.losses), (1, 2, 1));
        assert_eq!(s.rate(), 0.5);
        let (e, lo, hi) = s.elo();
        assert!(e.abs() < 1e-9 && lo < 0.0 && hi > 0.0);
    }

    #[test]
    fn a_clean_sweep_has_a_finite_lower_bound() {
        let (e, lo, hi) = MatchStats::from_points(&[1.0; 40]).elo();
        assert!(e.is_infinite() && hi.is_infinite());
        assert!((350.0..450.0).contains(&lo), "lower bound {lo}");
    }

    #[test]
    fn three_quarters_is_191_elo() {
        assert!((elo(0.75) - 190.85).abs() < 0.01);
    }

    #[test]
    fn expected_score_inverts_elo() {
        for e in [-600.0, -35.5, 0.0, 2.5, 400.0] {
            assert!((elo(expected_score(e)) - e).abs() < 1e-9, "{e}");
        }
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-15);
    }

    #[test]
    fn points_and_the_other_side() {
        let p = Pentanomial::from([1, 0, 2, 0, 3]);
        assert_eq!(p.points(), 2.0 + 6.0);
        assert_eq!(p.swapped().counts, [3, 0, 2, 0, 1]);
        assert_eq!(p.swapped().points(), 2.0 * 6.0 - 8.0);
    }

    #[test]
    fn pairs_are_counted_by_their_total() {
        let points = [
            0.0, 0.0, // LL
            0.0, 0.5, // LD
            0.5, 0.0, // DL
            0.5, 0.5, // DD
            1.0, 0.0, // WL
            0.0, 1.0, // LW
            1.0, 0.5, // WD
            1.0, 1.0, // WW
            1.0, // no partner: left out
        ];
        let p = Pentanomial::from_points(&points);
        assert_eq!(p.counts, [1, 2, 3, 1, 1]);
        assert_eq!(p.pairs(), 8);
        // 8 pairs hold 16 games worth 0+1+1+2+2+2+3+4 = 15 half points.
        assert_eq!(p.score(), 15.0 / 32.0);

        let mut q = Pentanomial::default();
        q.add_pair(1.0, 1.0);
        q.add_pair(0.5, 0.0);
        assert_eq!(q.counts, [0, 1, 0, 0, 1]);
        assert_eq!(Pentanomial::default().pairs(), 0);
        assert_eq!(Pentanomial::from_points(&[1.0]).pairs(), 0);
    }

    #[test]
    fn even_pentanomial_is_zero_elo_with_a_symmetric_interval() {
        let p = Pentanomial::from([7, 20, 31, 20, 7]);
        let e = p.elo();
        assert_eq!(p.score(), 0.5);
        assert!(e.elo.abs() < 1e-12, "{e:?}");
        assert!(e.lo < -10.0 && (e.lo + e.hi).abs() < 1e-9, "{e:?}");
        assert!((p.los() - 0.5).abs() < 1e-12);
    }

    // Reference values from fastchess's app/tests/elo_test.cpp ("EloPentanomial
    // 1-3", Disservin/fastchess), converted from its Stats(ll, ld, wl, dd, wd,
    // ww) order; recomputed to more digits with an independent Python script
    // of the same formula (mean ± 1.959964·sd/√pairs, per-pair variance).
    #[test]
    fn pentanomial_elo_matches_fastchess() {
        let cases = [
            ([34, 54, 63, 64, 75], 55.5798, 27.6534, Some(0.99997)),
            ([332, 433, 498, 333, 334], -8.6427, 10.3342, Some(0.05047)),
            ([7895, 8757, 5685, 568, 9999], -21.0435, 2.9453, None),
        ];
        for (counts, diff, error, los) in cases {
            let p = Pentanomial::from(counts);
            let e = p.elo();
            assert!((e.elo - diff).abs() < 1e-3, "{counts:?}: {e:?}");
            assert!((e.error() - error).abs() < 1e-3, "{counts:?}: {e:?}");
            assert!(e.lo < e.elo && e.elo < e.hi);
            if let Some(los) = los {
                assert!((p.los() - los).abs() < 1e-5, "{counts:?}: los {}", p.los());
            }
        }
        assert!(Pentanomial::from([7895, 8757, 5685, 568, 9999]).los() < 1e-6);
    }

    #[test]
    fn elo_estimate_displays_with_signs() {
        let e = Pentanomial::from([34, 54, 63, 64, 75]).elo();
        assert_eq!(e.to_string(), "+55.6 [+28.3, +83.6]");
        assert_eq!(format!("{e:.0}"), "+56 [+28, +84]");
    }

    #[test]
    fn edge_samples_give_finite_sensible_intervals() {
        let limit = elo(0.999);
        let empty = Pentanomial::default().elo();
        assert_eq!((empty.elo, empty.lo, empty.hi), (0.0, -limit, limit));

        // One pair says little: the interval still reaches well below zero.
        let one = Pentanomial::from([0, 0, 0, 0, 1]).elo();
        assert!(one.lo < 0.0 && one.elo == limit && one.hi == limit, "{one:?}");

        // Twenty swept pairs: Wilson's lower end, a score of 20/(20 + 1.96²),
        // is +286.6 Elo.
        let wilson_lo = elo(20.0 / (20.0 + Z95 * Z95));
        assert!((wilson_lo - 286.61).abs() < 0.01);
        let sweep = Pentanomial::from([0, 0, 0, 0, 20]).elo();
        assert!((sweep.lo - wilson_lo).abs() < 1e-9, "{sweep:?}");
        let lost = Pentanomial::from([20, 0, 0, 0, 0]).elo();
        assert!((lost.hi + wilson_lo).abs() < 1e-9 && lost.elo == -limit, "{lost:?}");

        // Identical pairs, zero variance: not a zero-width interval.
        let draws = Pentanomial::from([0, 0, 10, 0, 0]).elo();
        assert!(draws.elo.abs() < 1e-12 && draws.lo < -50.0 && (draws.lo + draws.hi).abs() < 1e-9);

        for counts in [[0, 0, 0, 1, 0], [1, 0, 0, 0, 1], [0, 0, 0, 1, 9], [3, 0, 0, 0, 0]] {
            let e = Pentanomial::from(counts).elo();
            assert!([e.elo, e.lo, e.hi].iter().all(|x| x.is_finite()), "{counts:?}: {e:?}");
            assert!(e.lo <= e.elo && e.elo <= e.hi, "{counts:?}: {e:?}");
        }
        assert_eq!(Pentanomial::default().los(), 0.5);
        assert_eq!(Pentanomial::from([0, 0, 0, 0, 3]).los(), 1.0);
    }

    #[test]
    fn normal_cdf_is_accurate() {
        // Φ(1.959964) = 0.975, Φ(1) = 0.8413447460685429, Φ(-3) = 0.0013498980316300933.
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.8413447460685429).abs() < 1e-7);
        assert!((normal_cdf(-3.0) / 0.0013498980316300933 - 1.0).abs() < 1e-6);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        let bad = [
            (5.0, 0.0, 0.05, 0.05, "elo0"),
            (0.0, 0.0, 0.05, 0.05, "elo0"),
            (f64::NAN, 5.0, 0.05, 0.05, "finite"),
            (0.0, f64::INFINITY, 0.05, 0.05, "finite"),
            (0.0, 5.0, 0.0, 0.05, "alpha"),
            (0.0, 5.0, 0.5, 0.05, "alpha"),
            (0.0, 5.0, f64::NAN, 0.05, "alpha"),
            (0.0, 5.0, 0.05, -0.1, "beta"),
            (0.0, 5.0, 0.05, 0.7, "beta"),
            (9000.0, 9001.0, 0.05, 0.05, "extreme"),
        ];
        for (elo0, elo1, alpha, beta, word) in bad {
            let err = Sprt::new(elo0, elo1, alpha, beta).unwrap_err();
            assert!(err.contains(word), "{err}");
        }
        let ok = Sprt::new(-1.5, 2.5, 0.05, 0.1).unwrap();
        assert_eq!((ok.elo0(), ok.elo1(), ok.alpha(), ok.beta()), (-1.5, 2.5, 0.05, 0.1));
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().bounds();
        // ln(0.05 / 0.95) = -2.9444389791664403
        assert!((lower + 2.9444389791664403).abs() < 1e-12);
        assert!((upper - 2.9444389791664403).abs() < 1e-12);
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap().bounds();
        assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12 && (upper - 18f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn constrained_mle_has_the_requested_mean() {
        let observed = [
            [0.1, 0.2, 0.4, 0.2, 0.1],
            [0.96, 0.01, 0.01, 0.01, 0.01],
            [1e-7, 1e-7, 1e-7, 1e-7, 1.0 - 4e-7],
        ];
        for o in observed {
            for s in [0.01, 0.3, 0.5, 0.5072, 0.99] {
                let p = constrained_mle(&o, s);
                let mean: f64 = p.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{o:?} {s}: {p:?}");
                assert!((mean - s).abs() < 1e-9, "{o:?} {s}: mean {mean}");
                assert!(p.iter().all(|&x| x > 0.0), "{o:?} {s}: {p:?}");
            }
        }
    }

    // References: fastchess app/tests/sprt_test.cpp "logistic pentanomial 1"
    // and "2" (LLR -3.07 and -4.98 to 1%), and the pentanomial in fishtest's
    // stat_util.py self-test, then a small sample and a single pair of our
    // own. All five values come from an independent Python script (standard
    // library only) of van den Bergh's formula: empty cells → 0.001, each
    // MLE's θ by 300 bisection steps, LLR = N Σ p̂ᵢ ln(p1ᵢ/p0ᵢ).
    #[test]
    fn llr_matches_reference_values() {
        let cases = [
            ([223, 9863, 21279, 10037, 246], 0.5, 2.5, -3.074126439586767),
            ([871, 26175, 55983, 26678, 821], 0.0, 2.0, -4.9786728634511785),
            ([10789, 19328, 33806, 19402, 10543], -3.0, 1.0, 2.131067811785043),
            ([3, 10, 20, 12, 5], 0.0, 10.0, 0.24458907711259723),
            ([0, 0, 0, 0, 1], 0.0, 5.0, 0.014315849412829712),
        ];
        for (counts, elo0, elo1, want) in cases {
            let got = Sprt::new(elo0, elo1, 0.05, 0.05)
                .unwrap()
                .llr(&Pentanomial::from(counts));
            assert!(
                (got - want).abs() < 1e-6,
                "{counts:?} [{elo0}, {elo1}]: {got} vs {want}"
            );
        }
    }

    #[test]
    fn llr_exists_and_is_tiny_before_any_pair() {
        let llr = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().llr(&Pentanomial::default());
        assert!(llr.is_finite() && llr.abs() < 1e-3, "{llr}");
    }

    #[test]
    fn llr_grows_with_better_results() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let mut p = Pentanomial::from([10, 20, 40, 20, 10]);
        let mut last = sprt.llr(&p);
        assert!(last < 0.0, "an even score is evidence for elo0 = 0: {last}");
        // Moving one pair up a step at a time, from a double loss to a double win.
        for i in 0..4 {
            p.counts[i] -= 1;
            p.counts[i + 1] += 1;
            let llr = sprt.llr(&p);
            assert!(llr > last, "step {i}: {llr} <= {last}");
            last = llr;
        }
        for _ in 0..20 {
            p.counts[4] += 1;
            let llr = sprt.llr(&p);
            assert!(llr > last, "extra double win: {llr} <= {last}");
            last = llr;
        }
        assert!(last > 0.0);
    }

    #[test]
    fn llr_is_antisymmetric_for_mirrored_bounds() {
        let sprt = Sprt::new(-5.0, 5.0, 0.05, 0.05).unwrap();
        assert!(sprt.llr(&Pentanomial::from([4, 30, 50, 30, 4])).abs() < 1e-9);
        let up = sprt.llr(&Pentanomial::from([4, 25, 50, 35, 6]));
        let down = sprt.llr(&Pentanomial::from([6, 35, 50, 25, 4]));
        assert!(up > 0.0 && (up + down).abs() < 1e-9, "{up} {down}");
    }

    #[test]
    fn status_follows_the_bounds() {
        let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05).unwrap();
        let losing = Pentanomial::from([871, 26175, 55983, 26678, 821]);
        assert_eq!(sprt.status(&losing), SprtStatus::AcceptH0);
        // Mirroring the counts and the bounds mirrors the LLR: +4.98.
        let mirrored = Pentanomial::from([821, 26678, 55983, 26175, 871]);
        assert_eq!(
            Sprt::new(-2.0, 0.0, 0.05, 0.05).unwrap().status(&mirrored),
            SprtStatus::AcceptH1
        );
        let close = Sprt::new(-3.0, 1.0, 0.05, 0.05).unwrap();
        let report = close.report(&Pentanomial::from([10789, 19328, 33806, 19402, 10543]));
        assert_eq!(report.status, SprtStatus::Continue);
        assert_eq!(report.to_string(), "LLR 2.13 (-2.94, 2.94) continue");
    }

    /// SplitMix64, enough randomness for simulated matches.
    struct Rng(u64);

    impl Rng {
        fn next_f64(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64
        }

        /// One game's points for a bot `elo` stronger, with 30% draws.
        fn game(&mut self, elo: f64) -> f32 {
            let s = expected_score(elo);
            let (win, loss) = (s - 0.15, 1.0 - s - 0.15);
            let u = self.next_f64();
            if u < win {
                1.0
            } else if u < win + loss {
                0.0
            } else {
                0.5
            }
        }
    }

    fn simulate(sprt: &Sprt, elo: f64, seed: u64) -> (SprtStatus, u32) {
        let mut rng = Rng(seed);
        let mut p = Pentanomial::default();
        while p.pairs() < 100_000 {
            p.add_pair(rng.game(elo), rng.game(elo));
            let status = sprt.status(&p);
            if status != SprtStatus::Continue {
                return (status, p.pairs());
            }
        }
        (SprtStatus::Continue, p.pairs())
    }

    #[test]
    fn simulated_sprt_reaches_the_right_verdict() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        for seed in 1..=5 {
            let (status, pairs) = simulate(&sprt, 40.0, seed);
            assert_eq!(status, SprtStatus::AcceptH1, "true +40, seed {seed}, {pairs} pairs");
            let (status, pairs) = simulate(&sprt, -30.0, seed);
            assert_eq!(status, SprtStatus::AcceptH0, "true -30, seed {seed}, {pairs} pairs");
        }
    }

    #[test]
    fn result_types_serialize() {
        fn serializable<T: Serialize>() {}
        serializable::<MatchStats>();
        serializable::<Pentanomial>();
        serializable::<EloEstimate>();
        serializable::<Sprt>();
        serializable::<SprtStatus>();
        serializable::<SprtReport>();
    }
}
