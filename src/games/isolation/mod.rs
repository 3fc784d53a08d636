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

/// The weight that holds the genome's scale: a search chooses the same moves
/// when every weight is multiplied alike, so tuners keep this one where the
/// start genome has it: the mover's own moves, the unit the rest is priced
/// in. With it kept and the rest multiplied by 1.5, 5.8 to 9.1% of the
/// moves at 1,500 nodes change (208 searches in judge games).
pub const SCALE_ANCHOR: usize = features::OWN_MOBILITY;

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
