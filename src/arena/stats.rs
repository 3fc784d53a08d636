//! Match statistics from one side's per-game points.

/// Wins, draws and losses of one bot, with the contest score and an Elo
/// estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
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
            if p >= 1.0 {
                s.wins += 1;
            } else if p <= 0.0 {
                s.losses += 1;
            } else {
                s.draws += 1;
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
        let z2 = Z95 * Z95;
        let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (var / n + z2 / (4.0 * n * n)).sqrt();
        (elo(s), elo((centre - half).max(0.0)), elo((centre + half).min(1.0)))
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
}
