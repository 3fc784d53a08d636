//! Slime: four players spread, jump and merge on a square board (statement
//! in `../shared/games/slime/STATEMENT.md`), exactly as the original control
//! program applies moves.

pub mod bot;
pub mod engine;
pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rules;
pub mod shallow_blue;
pub mod tuned;

pub use map::SlimeMap;
pub use rules::{Slime, SlimeMove};

use crate::game::{Bot, Player};
use crate::games::GameMaps;
use crate::maps::MapError;
use crate::bots::genome_weights;
use crate::search::Limits;

crate::submission_files!(bot, engine, features, protocol, rules, tuned);

/// The embedded default evolution config.
pub const DEFAULT_CONFIG: &str = include_str!("../../../genomes/slime/evolve.ron");

/// The weight that holds the genome's scale: a search chooses the same moves
/// when every weight is multiplied alike, so tuners keep this one where the
/// start genome has it: an owned square, what the game is scored in. With
/// it kept and the rest multiplied by 1.5, 1.3 to 2.8% of the moves at
/// 1,500 nodes change (389 searches in judge games).
pub const SCALE_ANCHOR: usize = features::SQUARES;

/// The genome bot: best-reply search with a budget per move.
pub struct GenomeBot {
    engine: engine::Engine,
    limits: Limits,
}

impl Bot<Slime> for GenomeBot {
    fn choose(&mut self, state: &Slime, player: Player) -> SlimeMove {
        self.engine.choose(state, player, self.limits)
    }

    fn nodes_searched(&self) -> Option<u64> {
        Some(self.engine.nodes_searched())
    }
}

pub fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Slime>> {
    let weights: features::Weights = genome_weights(weights);
    Box::new(GenomeBot {
        engine: engine::Engine::for_budget(weights, limits),
        limits,
    })
}

impl GameMaps for Slime {
    type Map = SlimeMap;

    fn parse_map(text: &str, origin: &str) -> Result<SlimeMap, MapError> {
        SlimeMap::parse(text, origin)
    }

    fn start(map: &SlimeMap) -> Self {
        map.start
    }

    /// Slime has one start per board size: generated "maps" are the
    /// standard start on a random size.
    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        use rand::RngExt;
        SlimeMap::standard(rng.random_range(rules::MIN_SIZE..=rules::MAX_SIZE)).to_text()
    }

    fn map_text(map: &SlimeMap) -> String {
        map.to_text()
    }

    /// Squares held: the share of the board times its squares.
    fn points_to_result(points: f64, map: &SlimeMap) -> f64 {
        points * (map.start.size() * map.start.size()) as f64
    }
}
