//! The generalized SPRT that fishtest and fastchess run on pentanomial
//! counts: fishtest's maximum-likelihood pentanomial LLR, logistic Elo
//! bounds, Wald's stopping bounds.

use super::counts::{Pentanomial, PAIR_SCORES};
use super::elo::expected_score;
use serde::Serialize;
use std::fmt;

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
}
