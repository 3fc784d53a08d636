//! The players of one generation (or of the confirmation), the game pairs
//! they played, and rounds of matches under one seed.

use crate::stats::Pentanomial;
use crate::tuner::rating::{fit, FitOptions, MatchResult, Ratings};
use crate::tuner::{Match, Opponent, Oracle};

/// One match to play: players `a` and `b` for `pairs` game pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub a: usize,
    pub b: usize,
    pub pairs: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Roster {
    /// Each player's point; empty for a fixed opponent.
    pub points: Vec<Vec<f64>>,
    /// The oracle's fixed opponent a player is, if it is one.
    pub fixed: Vec<Option<usize>>,
    pub results: Vec<MatchResult>,
    pub games: u64,
}

impl Roster {
    pub fn add(&mut self, x: Vec<f64>) -> usize {
        self.points.push(x);
        self.fixed.push(None);
        self.points.len() - 1
    }

    /// Adds the oracle's fixed opponent `k` (a judge) as a player.
    pub fn add_fixed(&mut self, k: usize) -> usize {
        self.points.push(Vec::new());
        self.fixed.push(Some(k));
        self.points.len() - 1
    }

    pub fn is_fixed(&self, player: usize) -> bool {
        self.fixed[player].is_some()
    }

    /// Plays a round: every fixture under the same `seed`, so every player
    /// of the round meets the same maps and game seeds (common random
    /// numbers). The results come back in fixture order whether or not the
    /// matches run in parallel, so a seed fixes the run.
    pub fn play_round<O: Oracle + ?Sized>(&mut self, oracle: &O, fixtures: &[Fixture], seed: u64, parallel: bool) {
        self.play_rounds(oracle, fixtures, &[seed], parallel);
    }

    /// Plays a round per seed, all at once: rounds whose fixtures do not
    /// depend on each other's results (the confirmation's), which one at a
    /// time left a core idle whenever a round had fewer games than cores.
    /// Results come in round order, as from one `play_round` per seed.
    pub fn play_rounds<O: Oracle + ?Sized>(&mut self, oracle: &O, fixtures: &[Fixture], seeds: &[u64], parallel: bool) {
        let jobs: Vec<(u64, &Fixture)> = seeds
            .iter()
            .flat_map(|&s| fixtures.iter().map(move |f| (s, f)))
            .collect();
        let matches: Vec<Match> = jobs
            .iter()
            .map(|&(seed, f)| {
                assert!(!self.is_fixed(f.a), "a fixed opponent only ever sits second");
                Match {
                    a: &self.points[f.a],
                    b: match self.fixed[f.b] {
                        Some(k) => Opponent::Fixed(k),
                        None => Opponent::Point(&self.points[f.b]),
                    },
                    pairs: f.pairs,
                    seed,
                }
            })
            .collect();
        let counts: Vec<Pentanomial> = if parallel {
            oracle.play_matches(&matches)
        } else {
            matches.iter().map(|m| m.play(oracle)).collect()
        };
        for ((_, f), pairs) in jobs.iter().zip(counts) {
            self.games += 2 * u64::from(pairs.pairs());
            self.results.push(MatchResult { a: f.a, b: f.b, pairs });
        }
    }

    /// One Bradley-Terry fit over every game played so far.
    pub fn fit(&self, anchor: usize) -> Ratings {
        fit(self.points.len(), anchor, &self.results, FitOptions::default())
    }

    /// The variance of a pair's mean score around its match's mean, pooled
    /// over the matches between the given players. At least 1/64 (equals at
    /// a draw ratio of 7/8), so that a handful of pairs never looks certain;
    /// 1/8 (no draws at all) when no match has two pairs yet.
    pub fn pooled_pair_variance(&self, between: &[(usize, usize)]) -> f64 {
        let (mut ss, mut dof) = (0.0, 0.0);
        for &(a, b) in between {
            let (mean, pairs) = self.head_to_head(a, b);
            if pairs < 2 {
                continue;
            }
            for r in self
                .results
                .iter()
                .filter(|r| (r.a, r.b) == (a, b) || (r.a, r.b) == (b, a))
            {
                for (k, &c) in r.pairs.counts.iter().enumerate() {
                    let s = if r.a == a {
                        0.25 * k as f64
                    } else {
                        1.0 - 0.25 * k as f64
                    };
                    ss += c as f64 * (s - mean).powi(2);
                }
            }
            dof += pairs as f64 - 1.0;
        }
        if dof > 0.0 {
            (ss / dof).max(1.0 / 64.0)
        } else {
            0.125
        }
    }

    /// The score (per game) of `a` against `b` and the number of pairs, over
    /// every match between them, from `a`'s side.
    pub fn head_to_head(&self, a: usize, b: usize) -> (f64, u32) {
        let (mut points, mut pairs) = (0.0, 0u32);
        for r in &self.results {
            let p = r.pairs.pairs();
            let pts = r.pairs.points();
            if r.a == a && r.b == b {
                points += pts;
                pairs += p;
            } else if r.a == b && r.b == a {
                points += 2.0 * p as f64 - pts;
                pairs += p;
            }
        }
        (if pairs == 0 { 0.5 } else { points / (2.0 * pairs as f64) }, pairs)
    }
}
