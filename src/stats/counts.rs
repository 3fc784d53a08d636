//! What a match counts: wins, draws and losses per game, and game pairs by
//! their total (the pentanomial).
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

/// The score of a game pair for each pentanomial index, per game.
pub(super) const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

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

/// Reads five counts in the order of [`Pentanomial::counts`] as `match`
/// prints them and fishtest stores them: `98 151 464 165 122`, with commas
/// or spaces between them and the brackets optional (`[98, 151, 464, 165,
/// 122]`), so a printed pentanomial can be pasted back to pool matches.
impl std::str::FromStr for Pentanomial {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let inner = text.trim();
        let inner = inner.strip_prefix('[').map_or(Ok(inner), |rest| {
            rest.strip_suffix(']')
                .ok_or_else(|| format!("pentanomial `{text}`: a `[` with no closing `]`"))
        })?;
        let fields: Vec<&str> = inner
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|f| !f.is_empty())
            .collect();
        if fields.len() != 5 {
            return Err(format!(
                "pentanomial `{text}`: expected five counts of pairs (LL LD DD+WL WD WW), found {}",
                fields.len()
            ));
        }
        let mut counts = [0u32; 5];
        for (i, (slot, field)) in counts.iter_mut().zip(&fields).enumerate() {
            *slot = field.parse().map_err(|_| {
                format!(
                    "pentanomial `{text}`: count {} `{field}` is not a whole number of pairs (0 to {})",
                    i + 1,
                    u32::MAX
                )
            })?;
        }
        let pairs: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        if pairs > u64::from(u32::MAX) {
            return Err(format!(
                "pentanomial `{text}`: {pairs} pairs in all, more than {} can be counted",
                u32::MAX
            ));
        }
        Ok(Pentanomial { counts })
    }
}

/// `98 151 464 165 122`: what [`Pentanomial::from_str`] reads.
impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts;
        write!(f, "{} {} {} {} {}", c[0], c[1], c[2], c[3], c[4])
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pentanomial_reads_as_match_prints_it_and_as_fishtest_stores_it() {
        let p = Pentanomial::from([98, 151, 464, 165, 122]);
        for text in [
            "98 151 464 165 122",
            "[98 151 464 165 122]",
            " [98, 151, 464, 165, 122] ",
            "98,151,464,165,122",
        ] {
            assert_eq!(text.parse::<Pentanomial>(), Ok(p), "{text}");
        }
        assert_eq!(p.to_string().parse::<Pentanomial>(), Ok(p));
    }

    #[test]
    fn a_bad_pentanomial_is_refused_naming_what_is_wrong() {
        for (text, says) in [
            ("98 151 464 165", "found 4"),
            ("98 151 464 165 122 7", "found 6"),
            ("", "found 0"),
            ("98 151 -464 165 122", "count 3 `-464`"),
            ("98 151 4.5 165 122", "count 3 `4.5`"),
            ("[98 151 464 165 122", "no closing `]`"),
            ("4294967295 1 0 0 0", "more than 4294967295"),
        ] {
            let e = text.parse::<Pentanomial>().unwrap_err();
            assert!(e.starts_with(&format!("pentanomial `{text}`")), "{e}");
            assert!(e.contains(says), "{text}: {e}");
        }
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
}
