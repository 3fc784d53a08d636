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
use crate::referee::{BadReply, OnFailure, ProcessModel, TimeLimits};
use crate::search::Limits;
use rand_xoshiro::Xoshiro256PlusPlus;

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

    fn ended_by_turn_limit(state: &Self) -> bool {
        state.turns() >= rules::TURN_LIMIT && (0..2).all(|p| state.elimination(p).is_none())
    }

    fn map_text(map: &LightCyclesMap) -> String {
        map.0.to_text()
    }

    const PROCESS: ProcessModel = ProcessModel::PerGame;
    // The statement sets no figure; these are the contest platforms' usual
    // ones (the first turn covers the program's start).
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 100);
    const ON_FAILURE: OnFailure = OnFailure::Lose;

    fn greeting(state: &Self, seat: Player) -> String {
        protocol::header(state, seat)
    }

    fn turn_input(state: &Self, _seat: Player, _moves: &[Direction]) -> String {
        protocol::turn_block(state)
    }

    fn read_reply(
        _state: &Self,
        _seat: Player,
        line: &str,
        _newline: bool,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Result<Direction, BadReply> {
        protocol::parse_reply(crate::protocol::clean(line)).map_err(BadReply::Invalid)
    }

    fn play_with_failures(&mut self, joint: &[Option<Direction>]) {
        self.play_turn([joint[0], joint[1]]);
    }
}
