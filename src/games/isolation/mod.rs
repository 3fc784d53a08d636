//! Isolation: two queens on a shrinking board (statement in
//! `../shared/games/isolation/STATEMENT.md`).

pub mod engine;
pub mod features;
pub mod judges;
pub mod map;
pub mod protocol;
pub mod rules;
pub mod tuned;

pub use map::IsolationMap;
pub use rules::{Isolation, IsolationMove};

use crate::bots::{Bot, SearchBot};
use crate::game::Player;
use crate::games::GameKit;
use crate::maps::MapError;
use crate::params::ParamSpec;
use crate::protocol::ProtocolError;
use crate::referee::{BadReply, OnFailure, ProcessModel, TimeLimits};
use crate::search::Limits;
use rand_xoshiro::Xoshiro256PlusPlus;

impl GameKit for Isolation {
    type Map = IsolationMap;

    const JUDGES: &'static [&'static str] = judges::JUDGES;
    const PARAMS: &'static [ParamSpec] = features::PARAMS;
    const TUNED_PATH: &'static str = "src/games/isolation/tuned.rs";
    const FROZEN: &'static [i32] = &tuned::WEIGHTS;
    const MOVE_BUDGET_MS: u64 = tuned::MOVE_BUDGET_MS;
    const DEFAULT_CONFIG: &'static str = include_str!("../../../genomes/isolation/evolve.ron");

    fn parse_map(text: &str, origin: &str) -> Result<IsolationMap, MapError> {
        IsolationMap::parse(text, origin)
    }

    fn start(map: &IsolationMap) -> Self {
        map.start_state()
    }

    fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        judges::judge(name, seed)
    }

    fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Self>> {
        let weights: features::Weights = weights
            .try_into()
            .unwrap_or_else(|_| panic!("isolation genomes have {} weights", features::COUNT));
        Box::new(SearchBot::new(engine::new(weights, 14), limits))
    }

    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        protocol::parse_position(text)
    }

    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        IsolationMap::generate(rng).to_text()
    }

    fn move_text(m: IsolationMove) -> String {
        m.to_string()
    }

    fn ended_by_turn_limit(state: &Self) -> bool {
        state.plies() >= rules::TURN_LIMIT && state.moves_bb(state.side()) != 0
    }

    fn map_text(map: &IsolationMap) -> String {
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

    fn turn_input(state: &Self, _seat: Player, _moves: &[IsolationMove]) -> String {
        protocol::turn_block(state)
    }

    fn read_reply(
        state: &Self,
        _seat: Player,
        line: &str,
        _newline: bool,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Result<IsolationMove, BadReply> {
        protocol::parse_reply(state, crate::protocol::clean(line)).map_err(|e| match e {
            protocol::ReplyError::Invalid(_) => BadReply::Invalid(e.to_string()),
            protocol::ReplyError::Illegal(_) => BadReply::Illegal(e.to_string()),
        })
    }
}
