//! Which point of the fit's regularisation path plays best: each candidate
//! against the start genome, head to head, on generated maps.
//!
//! A regression predicts results from positions; what a search needs from
//! its weights is another thing, so the games decide how far to go from the
//! start toward the full fit.

use crate::arena::{beats, generated_maps, play_seated};
use crate::bots::BotSpec;
use crate::game::mix64;
use crate::games::GameKit;
use crate::genome::Genome;
use crate::search::Limits;
use rayon::prelude::*;

/// `a`'s mean score against `b` over `pairs` pairs of games: each pair is
/// one generated map and seed, with the two bots' seats swapped. At a table
/// of more than two seats the other seats hold judges, drawn per pair, and
/// the bot with more points wins the game.
pub fn head_to_head<G: GameKit>(a: &Genome, b: &Genome, nodes: u64, pairs: usize, seed: u64) -> f64 {
    if pairs == 0 {
        return 0.5;
    }
    let maps = generated_maps::<G>(pairs, seed);
    let spec = |genome: &Genome, label: &str| BotSpec::Genome {
        label: label.to_string(),
        weights: genome.weights.clone(),
        limits: Limits::nodes(nodes),
    };
    let (a, b) = (spec(a, "candidate"), spec(b, "start"));
    let total: f64 = (0..pairs)
        .into_par_iter()
        .map(|i| {
            let pair_seed = mix64(seed ^ mix64(i as u64 + 1));
            let others: Vec<BotSpec> = (0..G::PLAYERS)
                .map(|s| BotSpec::Judge(G::JUDGES[(mix64(pair_seed ^ s as u64) as usize) % G::JUDGES.len()].into()))
                .collect();
            let (first, second) = (i % G::PLAYERS, (i + 1) % G::PLAYERS);
            [(first, second), (second, first)]
                .iter()
                .map(|&(sa, sb)| {
                    let seats: Vec<&BotSpec> = (0..G::PLAYERS)
                        .map(|s| match s {
                            s if s == sa => &a,
                            s if s == sb => &b,
                            s => &others[s],
                        })
                        .collect();
                    let points = play_seated::<G>(&maps[i], &seats, pair_seed, false).outcome.points;
                    beats(points[sa], points[sb]) as f64
                })
                .sum::<f64>()
        })
        .sum();
    total / (2 * pairs) as f64
}
