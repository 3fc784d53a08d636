//! A genome's scale: the one direction in which its weights do not matter.
//!
//! Alpha-beta only compares evaluations with each other and with win scores
//! far above them, so multiplying every weight by the same positive number
//! changes no move the search chooses. A genome of `n` weights has `n - 1`
//! that matter; a tuner that also moves the scale spends games on a
//! direction where every result is noise. Each game names one weight
//! (`Tuning::SCALE_ANCHOR`) that evolve's GA keeps where the start genome has
//! it (`evolve::oracle::tuning_space`).
//!
//! This module measures the claim on real positions: how often a genome and
//! its multiple choose the same move (`gridtune bench`, and the tests, which
//! also require a change of the anchor alone to change some moves).

use crate::fit::play_out;
use crate::game::{Bot, ToMove};
use crate::games::GameKit;
use crate::params::ParamSpec;
use crate::search::Limits;
use anyhow::{Context, Result};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// `weights` multiplied by `factor`, each rounded onto its step grid. Not
/// clamped to the declared ranges: a multiple may lie outside them and still
/// measure the direction.
pub fn scaled(params: &[ParamSpec], weights: &[i32], factor: f64) -> Vec<i32> {
    params
        .iter()
        .zip(weights)
        .map(|(p, &w)| {
            let steps = ((f64::from(w) * factor - f64::from(p.min)) / f64::from(p.step)).round();
            p.min + steps as i32 * p.step
        })
        .collect()
}

/// How many of the searches two genomes made chose the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreement {
    pub same: usize,
    pub searches: usize,
}

impl Agreement {
    pub fn share(&self) -> f64 {
        self.same as f64 / self.searches.max(1) as f64
    }
}

/// The genome bots of `a` and `b`, each new for every position (no table kept
/// from another search), choose a move for every seat to act in every
/// position; how often they agree.
pub fn same_moves<G: GameKit>(positions: &[G], a: &[i32], b: &[i32], limits: Limits) -> Agreement {
    let searches: Vec<bool> = positions
        .par_iter()
        .flat_map_iter(|state| {
            let actors: Vec<usize> = match state.to_move() {
                ToMove::Over => Vec::new(),
                ToMove::One(p) => vec![p],
                ToMove::All => (0..G::PLAYERS).collect(),
            };
            actors.into_iter().map(move |p| {
                let choose = |w: &[i32]| G::genome_bot(w, limits).choose(state, p);
                choose(a) == choose(b)
            })
        })
        .collect();
    Agreement {
        same: searches.iter().filter(|&&s| s).count(),
        searches: searches.len(),
    }
}

/// Every position of `games` games between the game's judges on generated
/// maps, seeded, game over excluded: the positions a bot meets.
pub fn judge_positions<G: GameKit>(games: usize, seed: u64) -> Result<Vec<G>> {
    use rand::SeedableRng;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = Vec::new();
    for i in 0..games {
        let text = G::generate_map_text(&mut rng);
        let map = G::parse_map(&text, "generated map")?;
        let mut seats: Vec<Box<dyn Bot<G>>> = (0..G::PLAYERS)
            .map(|p| {
                let name = G::JUDGES[(i + p) % G::JUDGES.len()];
                let judge_seed = crate::tuner::derive_seed(seed, (i * G::PLAYERS + p) as u64);
                G::judge(name, judge_seed).with_context(|| format!("no judge `{name}` in {}", G::NAME))
            })
            .collect::<Result<_>>()?;
        play_out(G::start(&map), &mut seats, &mut |state: &G| {
            if state.to_move() != ToMove::Over {
                positions.push(state.clone());
            }
        });
    }
    Ok(positions)
}
