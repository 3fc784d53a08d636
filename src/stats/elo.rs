//! Elo from scores: the logistic conversion both ways, and the Elo
//! estimates with 95% intervals of a match's games and of its pairs (with
//! the likelihood of superiority), as fastchess and fishtest compute them.

use super::counts::{MatchStats, Pentanomial};
use super::distributions::normal_cdf;
use super::interval::{normal_interval, wilson_interval};
use serde::Serialize;
use std::fmt;

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

impl MatchStats {
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

impl Pentanomial {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::distributions::Z95;

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
}
