//! 95% intervals for a mean of results in [0, 1]: the normal one, Wilson's
//! score interval, and the contest score's from per-judge Agresti-Coull
//! rates.
//!
//! A game's result is 1, 0.5 or 0 (a share of the board in Slime), so a rate
//! is a mean of values in [0, 1]; its variance is at most p(1 - p) per game,
//! the binomial case (draws only narrow it). Where only the rate is known,
//! the intervals use that bound, so they are conservative.

use super::distributions::Z95;

/// Wilson's score interval for a mean in [0, 1] from `n` samples with the
/// observed variance `var`. Unlike the normal (Wald) interval it does not
/// collapse to a point when every sample is the same, and it never leaves
/// [0, 1].
pub fn wilson_interval(mean: f64, var: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (var / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Wilson score interval of a rate `p` over `n` games, in 0-1, with the
/// binomial variance.
pub fn wilson(p: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    wilson_interval(p, p * (1.0 - p), n as f64)
}

/// fastchess's interval, mean ± z·sd/√n, or `None` where it is degenerate:
/// zero width, or reaching a score of 0 or 1 where the Elo scale ends.
pub fn normal_interval(mean: f64, var: f64, n: f64) -> Option<(f64, f64)> {
    let half = Z95 * (var / n).sqrt();
    let (lo, hi) = (mean - half, mean + half);
    (half > 0.0 && lo > 0.0 && hi < 1.0).then_some((lo, hi))
}

/// The 95% interval of a contest score `100 × Σ wⱼ rateⱼ / Σ wⱼ` when each
/// rate comes from `n` games: the score ± 1.96 standard errors, each judge's
/// variance taken from its Agresti-Coull adjusted rate (two wins and two
/// losses added, so a rate of 0 or 1 still has a width), clipped to 0-100.
pub fn contest_score(rates: &[f64], weights: &[f64], n: usize) -> Option<(f64, f64)> {
    let total: f64 = weights.iter().sum();
    if n == 0 || total <= 0.0 || rates.len() != weights.len() || rates.is_empty() {
        return None;
    }
    let n = n as f64;
    let score = 100.0 * rates.iter().zip(weights).map(|(r, w)| r * w).sum::<f64>() / total;
    let variance: f64 = rates
        .iter()
        .zip(weights)
        .map(|(&p, &w)| {
            let adjusted = (p * n + 2.0) / (n + 4.0);
            (w / total).powi(2) * adjusted * (1.0 - adjusted) / (n + 4.0)
        })
        .sum();
    let half = 100.0 * Z95 * variance.sqrt();
    Some(((score - half).max(0.0), (score + half).min(100.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook_figures() {
        // 8 of 10: Wilson 95% is about 0.490 to 0.943.
        let (lo, hi) = wilson(0.8, 10);
        assert!((lo - 0.4902).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-3, "{hi}");
        // A perfect record still has room below it.
        let (lo, hi) = wilson(1.0, 12);
        assert!(lo > 0.7 && lo < 0.8 && hi > 0.999, "{lo} {hi}");
        assert_eq!(wilson(0.5, 0), (0.0, 1.0));
    }

    #[test]
    fn a_contest_score_interval_narrows_with_games_and_contains_the_score() {
        let rates = [1.0, 0.75, 0.5, 0.25];
        let weights = [1.0; 4];
        let (lo12, hi12) = contest_score(&rates, &weights, 12).unwrap();
        let (lo120, hi120) = contest_score(&rates, &weights, 120).unwrap();
        assert!(lo12 < 62.5 && 62.5 < hi12);
        assert!(lo120 < 62.5 && 62.5 < hi120);
        assert!(hi120 - lo120 < hi12 - lo12);
        // One judge, p = 0.5 over 100 games: about ±9.6 points (Agresti-Coull).
        let (lo, hi) = contest_score(&[0.5], &[1.0], 100).unwrap();
        assert!((hi - lo - 2.0 * 100.0 * Z95 * (0.25f64 / 104.0).sqrt()).abs() < 1e-9);
        // A zero weight adds no width.
        let a = contest_score(&[0.5, 0.0], &[1.0, 0.0], 50).unwrap();
        let b = contest_score(&[0.5], &[1.0], 50).unwrap();
        assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9);
        assert_eq!(contest_score(&[0.5], &[1.0], 0), None);
    }
}
