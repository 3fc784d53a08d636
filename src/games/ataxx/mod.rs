//! Ataxx (statement in `../shared/games/ataxx/STATEMENT.md`), CodinGame's
//! rules and protocol.

pub mod bot;
pub mod engine;
pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rules;
pub mod tuned;

pub use map::AtaxxMap;
pub use rules::{Ataxx, AtaxxMove};

use crate::bots::SearchBot;
use crate::game::Bot;
use crate::games::GameMaps;
use crate::maps::MapError;
use crate::bots::genome_weights;
use crate::search::Limits;

crate::submission_files!(bot, engine, features, protocol, rules, tuned);

/// The embedded default evolution config.
pub const DEFAULT_CONFIG: &str = include_str!("../../../genomes/ataxx/evolve.ron");

/// The weight that holds the genome's scale: a search chooses the same moves
/// when every weight is multiplied alike, so tuners keep this one where the
/// start genome has it: a piece, the unit every other weight is priced in.
/// With `material` kept and the rest multiplied by 1.5, 12.6 to 27.3% of
/// the moves at 1,500 nodes change (293 searches in judge games, hand-set
/// and best.ron weights).
pub const SCALE_ANCHOR: usize = features::MATERIAL;

/// The genome bot: alpha-beta on the weighted features.
pub fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Ataxx>> {
    let weights: features::Weights = genome_weights(weights);
    Box::new(SearchBot::new(engine::for_budget(weights, limits), limits))
}

impl GameMaps for Ataxx {
    type Map = AtaxxMap;

    fn parse_map(text: &str, origin: &str) -> Result<AtaxxMap, MapError> {
        AtaxxMap::parse(text, origin)
    }

    fn start(map: &AtaxxMap) -> Self {
        map.start.clone()
    }

    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        AtaxxMap::generate(rng).to_text()
    }

    fn map_text(map: &AtaxxMap) -> String {
        map.to_text()
    }
}
