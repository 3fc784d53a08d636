//! Tic-tac-toe with blocked cells: the small test-only game that proves a
//! game plugs in with its folder and one registry line (ARCHITECTURE.md,
//! "Adding a game"). Built with the `test-game` feature.

pub mod bot;
pub mod engine;
pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rules;
pub mod tuned;

pub use map::TicTacToeMap;
pub use rules::TicTacToe;

use crate::bots::SearchBot;
use crate::game::Bot;
use crate::games::GameMaps;
use crate::maps::MapError;
use crate::bots::genome_weights;
use crate::search::Limits;

crate::submission_files!(bot, engine, features, protocol, rules, tuned);

/// The embedded default evolution config.
pub const DEFAULT_CONFIG: &str = include_str!("evolve.ron");

/// The weight that holds the genome's scale: a search chooses the same moves
/// when every weight is multiplied alike, so tuners keep this one where the
/// start genome has it: an open line.
pub const SCALE_ANCHOR: usize = features::OPEN_LINES;

/// The genome bot: alpha-beta on the weighted features.
pub fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<TicTacToe>> {
    let weights: features::Weights = genome_weights(weights);
    Box::new(SearchBot::new(engine::for_budget(weights, limits), limits))
}

impl GameMaps for TicTacToe {
    type Map = TicTacToeMap;

    fn parse_map(text: &str, origin: &str) -> Result<TicTacToeMap, MapError> {
        TicTacToeMap::parse(text, origin)
    }

    fn start(map: &TicTacToeMap) -> Self {
        map.start()
    }

    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        TicTacToeMap::generate(rng).to_text()
    }

    fn map_text(map: &TicTacToeMap) -> String {
        map.to_text()
    }
}
