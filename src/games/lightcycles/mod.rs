//! Light Cycles: two bikes move at once and leave walls of light behind
//! (statement in `../shared/games/lightcycles/STATEMENT.md`).

pub mod bot;
pub mod endgame;
pub mod engine;
pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rows;
pub mod rules;
pub mod tuned;

#[cfg(test)]
mod tests;

pub use map::LightCyclesMap;
pub use rules::{Direction, LightCycles};

use crate::game::{Bot, Player};
use crate::games::GameMaps;
use crate::maps::MapError;
use crate::bots::genome_weights;
use crate::search::Limits;

crate::submission_files!(bot, endgame, engine, features, protocol, rows, rules, tuned);

/// The embedded default evolution config.
pub const DEFAULT_CONFIG: &str = include_str!("../../../genomes/lightcycles/evolve.ron");

/// The weight that holds the genome's scale: a search chooses the same moves
/// when every weight is multiplied alike, so tuners keep this one where the
/// start genome has it. Of the weights the hand-set genome does not leave at
/// zero, `edges` holds it best: with it kept and the rest multiplied by 1.5,
/// 1.0 to 2.3% of the moves at 1,500 nodes change (243 searches in judge
/// games, hand-set and best.ron weights); with `territory` or either endgame
/// weight kept, none do. Light Cycles' moves hang on its weights less than
/// any other game's.
pub const SCALE_ANCHOR: usize = features::EDGES;

/// The genome bot: [`engine::Engine`] with a budget per move.
pub struct GenomeBot {
    engine: engine::Engine,
    limits: Limits,
    nodes: u64,
}

impl Bot<LightCycles> for GenomeBot {
    fn choose(&mut self, state: &LightCycles, player: Player) -> Direction {
        let decision = self.engine.choose(state, player, self.limits);
        self.nodes = decision.nodes;
        decision.direction
    }

    fn nodes_searched(&self) -> Option<u64> {
        Some(self.nodes)
    }
}

pub fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<LightCycles>> {
    let weights: features::Weights = genome_weights(weights);
    Box::new(GenomeBot {
        engine: engine::Engine::for_budget(weights, limits),
        limits,
        nodes: 0,
    })
}

impl GameMaps for LightCycles {
    type Map = LightCyclesMap;

    fn parse_map(text: &str, origin: &str) -> Result<LightCyclesMap, MapError> {
        LightCyclesMap::parse(text, origin)
    }

    fn start(map: &LightCyclesMap) -> Self {
        map.start_state()
    }

    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        LightCyclesMap::generate(rng).to_text()
    }

    fn map_text(map: &LightCyclesMap) -> String {
        map.0.to_text()
    }
}
