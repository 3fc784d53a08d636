//! The distributions the statistics need: the normal (its 95% quantile and
//! its distribution function) and the chi-square (with which spsa_simul sizes
//! SPSA's gain, and the GA its learning rate).

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959964;

/// Standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
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

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 1e-15).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, &g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised lower incomplete gamma function P(a, x): a series below
/// a + 1, Lentz's continued fraction above (Numerical Recipes' split).
fn gamma_p(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let ln_pre = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (sum.ln() + ln_pre).exp()
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (ln_pre + h.ln()).exp()
    }
}

/// Chi-square cumulative distribution with `k` degrees of freedom.
pub fn chi2_cdf(x: f64, k: f64) -> f64 {
    gamma_p(0.5 * k, 0.5 * x)
}

/// Chi-square quantile with `k` degrees of freedom (as GSL's
/// `gsl_cdf_chisq_Pinv`, which spsa_simul calls): bisection on the cdf, which
/// is monotone, to machine precision.
pub fn chi2_quantile(p: f64, k: f64) -> f64 {
    assert!(
        p > 0.0 && p < 1.0 && k > 0.0,
        "chi-square quantile of {p} with {k} degrees"
    );
    let (mut lo, mut hi) = (0.0, k.max(1.0));
    while chi2_cdf(hi, k) < p {
        lo = hi;
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if chi2_cdf(mid, k) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_is_accurate() {
        // Φ(1.959964) = 0.975, Φ(1) = 0.8413447460685429, Φ(-3) = 0.0013498980316300933.
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.8413447460685429).abs() < 1e-7);
        assert!((normal_cdf(-3.0) / 0.0013498980316300933 - 1.0).abs() < 1e-6);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn chi_square_quantiles_match_tables() {
        // 95% points of any statistics table, and a median.
        assert!((chi2_quantile(0.95, 1.0) - 3.841_458_820_694_124).abs() < 1e-9);
        assert!((chi2_quantile(0.95, 4.0) - 9.487_729_036_781_154).abs() < 1e-9);
        assert!((chi2_quantile(0.95, 8.0) - 15.507_313_055_865_453).abs() < 1e-9);
        assert!((chi2_quantile(0.99, 4.0) - 13.276_704_135_987_62).abs() < 1e-9);
        assert!((chi2_quantile(0.5, 20.0) - 19.337_429_229_428_3).abs() < 1e-8);
        assert!((chi2_cdf(2.0, 2.0) - (1.0 - (-1.0f64).exp())).abs() < 1e-14);
    }
}
