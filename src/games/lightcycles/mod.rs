//! Light Cycles: two bikes move at once and leave walls of light behind
//! (statement in `../shared/games/lightcycles/STATEMENT.md`).

pub mod endgame;
pub mod engine;
pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rules;
pub mod tuned;

pub use map::LightCyclesMap;
pub use rules::{Direction, LightCycles};

use crate::bots::Bot;
use crate::game::Player;
use crate::games::GameKit;
use crate::maps::MapError;
use crate::params::ParamSpec;
use crate::protocol::ProtocolError;
use crate::search::Limits;

/// The genome bot: [`engine::Engine`] with a budget per move.
pub struct GenomeBot {
    engine: engine::Engine,
    limits: Limits,
}

impl Bot<LightCycles> for GenomeBot {
    fn choose(&mut self, state: &LightCycles, player: Player) -> Direction {
        self.engine.choose(state, player, self.limits).direction
    }
}

impl GameKit for LightCycles {
    type Map = LightCyclesMap;

    const JUDGES: &'static [&'static str] = judges::JUDGES;
    const PARAMS: &'static [ParamSpec] = features::PARAMS;
    const TUNED_PATH: &'static str = "src/games/lightcycles/tuned.rs";
    const FROZEN: &'static [i32] = &tuned::WEIGHTS;
    const MOVE_BUDGET_MS: u64 = tuned::MOVE_BUDGET_MS;
    const DEFAULT_CONFIG: &'static str = include_str!("../../../genomes/lightcycles/evolve.ron");

    fn parse_map(text: &str, origin: &str) -> Result<LightCyclesMap, MapError> {
        LightCyclesMap::parse(text, origin)
    }

    fn start(map: &LightCyclesMap) -> Self {
        map.start_state()
    }

    fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        judges::judge(name, seed)
    }

    fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Self>> {
        let weights: features::Weights = weights
            .try_into()
            .unwrap_or_else(|_| panic!("lightcycles genomes have {} weights", features::COUNT));
        Box::new(GenomeBot {
            engine: engine::Engine::new(weights, 14),
            limits,
        })
    }

    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        protocol::parse_position(text)
    }

    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        LightCyclesMap::generate(rng).to_text()
    }

    fn move_text(m: Direction) -> String {
        m.to_string()
    }
}
