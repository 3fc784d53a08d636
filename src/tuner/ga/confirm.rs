//! Champion confirmation: a round robin between the recommendation and its
//! rivals with the games left.

use crate::tuner::derive_seed;
use crate::tuner::ga::roster::{Fixture, Roster};
use crate::tuner::Oracle;
use serde::Serialize;

/// A candidate after confirmation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    pub name: String,
    pub x: Vec<f64>,
    /// Rating against the default candidate (the first), Elo.
    pub elo: f64,
    pub se: f64,
}

/// The outcome of a confirmation.
pub struct Confirmation {
    pub chosen: usize,
    pub candidates: Vec<Candidate>,
    pub games: u64,
}

/// Plays rounds of one pair between every two candidates (common random
/// numbers: one seed per round) while `budget` games allow, fits ratings
/// anchored at the first candidate, and keeps the first unless another rates
/// better by `z` standard errors of the difference. The first is the estimate
/// the run trusts; a rival replaces it only on evidence, so a lucky rival
/// wins rarely.
pub fn confirm<O: Oracle + ?Sized>(
    oracle: &O,
    candidates: &[(String, Vec<f64>)],
    budget: u64,
    z: f64,
    parallel: bool,
    seed: u64,
) -> Confirmation {
    let c = candidates.len();
    let mut roster = Roster::default();
    for (_, x) in candidates {
        roster.add(x.clone());
    }
    let fixtures: Vec<Fixture> = (0..c)
        .flat_map(|a| (a + 1..c).map(move |b| Fixture { a, b, pairs: 1 }))
        .collect();
    let round_games = 2 * fixtures.len() as u64;
    let rounds = budget.checked_div(round_games).unwrap_or(0);
    let seeds: Vec<u64> = (0..rounds).map(|round| derive_seed(seed, round)).collect();
    roster.play_rounds(oracle, &fixtures, &seeds, parallel);
    if roster.games == 0 {
        let candidates = candidates
            .iter()
            .map(|(name, x)| Candidate {
                name: name.clone(),
                x: x.clone(),
                elo: 0.0,
                se: f64::INFINITY,
            })
            .collect();
        return Confirmation {
            chosen: 0,
            candidates,
            games: 0,
        };
    }
    let r = roster.fit(0);
    let mut chosen = 0;
    let mut best_margin = 0.0;
    for i in 1..c {
        let margin = r.elo[i] - z * r.diff_se(i, 0);
        if margin > best_margin {
            best_margin = margin;
            chosen = i;
        }
    }
    let candidates = candidates
        .iter()
        .enumerate()
        .map(|(i, (name, x))| Candidate {
            name: name.clone(),
            x: x.clone(),
            elo: r.elo[i],
            se: r.se(i),
        })
        .collect();
    Confirmation {
        chosen,
        candidates,
        games: roster.games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuner::synthetic::EloModel;

    #[test]
    fn keeps_the_default_unless_a_rival_is_clearly_better() {
        let mut m = EloModel::spsa_simul(1);
        m.elo_at_half_range = vec![200.0];
        let cands = |xs: &[f64]| -> Vec<(String, Vec<f64>)> { xs.iter().map(|&x| (format!("{x}"), vec![x])).collect() };
        // A rival 200 Elo better is found; a rival as good is not preferred.
        let c = confirm(&m, &cands(&[0.0, 100.0]), 2000, 1.645, false, 1);
        assert_eq!(c.chosen, 1);
        assert_eq!(c.games, 2000);
        let c = confirm(&m, &cands(&[100.0, 100.0 + 1e-9, 99.0]), 3000, 1.645, false, 2);
        assert_eq!(c.chosen, 0);
        let c = confirm(&m, &cands(&[0.0, 100.0]), 1, 1.645, false, 3);
        assert_eq!((c.chosen, c.games), (0, 0));
    }
}
