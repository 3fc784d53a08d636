//! Isolation: two queens on a shrinking board (statement in
//! `../shared/games/isolation/STATEMENT.md`).

pub mod bot;
pub mod engine;
pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rules;
pub mod tuned;

#[cfg(test)]
mod tests;

pub use map::IsolationMap;
pub use rules::{Isolation, IsolationMove};

use crate::bots::SearchBot;
use crate::game::Bot;
use crate::games::GameMaps;
use crate::maps::MapError;
use crate::bots::genome_weights;
use crate::search::Limits;

crate::submission_files!(bot, engine, features, protocol, rules, tuned);

/// The embedded default evolution config.
pub const DEFAULT_CONFIG: &str = include_str!("../../../genomes/isolation/evolve.ron");

/// The genome bot: alpha-beta on the weighted features.
pub fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Isolation>> {
    let weights: features::Weights = genome_weights(weights);
    Box::new(SearchBot::new(engine::for_budget(weights, limits), limits))
}

impl GameMaps for Isolation {
    type Map = IsolationMap;

    fn parse_map(text: &str, origin: &str) -> Result<IsolationMap, MapError> {
        IsolationMap::parse(text, origin)
    }

    fn start(map: &IsolationMap) -> Self {
        map.start_state()
    }

    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        IsolationMap::generate(rng).to_text()
    }

    fn map_text(map: &IsolationMap) -> String {
        map.0.to_text()
    }
}
