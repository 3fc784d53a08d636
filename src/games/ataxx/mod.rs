//! Ataxx (statement in `../shared/games/ataxx/STATEMENT.md`), CodinGame's
//! rules and protocol.

pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rules;
pub mod tuned;

pub use map::AtaxxMap;
pub use rules::{Ataxx, AtaxxMove};

use crate::bots::{Bot, SearchBot};
use crate::game::Player;
use crate::games::GameKit;
use crate::maps::MapError;
use crate::params::ParamSpec;
use crate::protocol::ProtocolError;
use crate::search::Limits;

impl GameKit for Ataxx {
    type Map = AtaxxMap;

    const JUDGES: &'static [&'static str] = judges::JUDGES;
    const PARAMS: &'static [ParamSpec] = features::PARAMS;
    const TUNED_PATH: &'static str = "src/games/ataxx/tuned.rs";
    const FROZEN: &'static [i32] = &tuned::WEIGHTS;
    const MOVE_BUDGET_MS: u64 = tuned::MOVE_BUDGET_MS;
    const DEFAULT_CONFIG: &'static str = include_str!("../../../genomes/ataxx/evolve.ron");

    fn parse_map(text: &str, origin: &str) -> Result<AtaxxMap, MapError> {
        AtaxxMap::parse(text, origin)
    }

    fn start(map: &AtaxxMap) -> Self {
        map.start.clone()
    }

    fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        judges::judge(name, seed)
    }

    fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Self>> {
        let weights: features::Weights = weights
            .try_into()
            .unwrap_or_else(|_| panic!("ataxx genomes have {} weights", features::COUNT));
        Box::new(SearchBot::new(features::WeightedEval(weights), limits, 14))
    }

    /// A community FEN on one line, or `id` and a CodinGame turn input.
    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        protocol::parse_position(text)
    }

    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        AtaxxMap::generate(rng).to_text()
    }

    fn move_text(m: AtaxxMove) -> String {
        protocol::action_text(m)
    }
}
