//! Ataxx (statement in `../shared/games/ataxx/STATEMENT.md`), CodinGame's
//! rules and protocol.

pub mod engine;
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
use crate::referee::{BadReply, OnFailure, ProcessModel, TimeLimits};
use crate::search::Limits;
use rand_xoshiro::Xoshiro256PlusPlus;

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
        Box::new(SearchBot::new(engine::new(weights, 14), limits))
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

    fn ended_by_turn_limit(state: &Self) -> bool {
        let pieces = (0..2).all(|p| state.pieces(p) != 0);
        state.plies() >= rules::TURN_LIMIT && pieces && (state.can_move(0) || state.can_move(1))
    }

    fn map_text(map: &AtaxxMap) -> String {
        map.to_text()
    }

    const PROCESS: ProcessModel = ProcessModel::PerGame;
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 100);
    const ON_FAILURE: OnFailure = OnFailure::Lose;

    fn greeting(_state: &Self, seat: Player) -> String {
        format!("{seat}\n")
    }

    /// Rows bottom first, as the statement says; `lastAction` is the
    /// opponent's move before this one.
    fn turn_input(state: &Self, _seat: Player, moves: &[AtaxxMove]) -> String {
        let last = match moves.last() {
            None => "null".to_string(),
            Some(m) if m.is_pass() => "pass".to_string(),
            Some(&m) => protocol::action_text(m),
        };
        protocol::turn_input(state, &last, protocol::RowOrder::BottomFirst)
    }

    /// A side with no action is not asked; the referee passes for it.
    fn asks(state: &Self, seat: Player) -> bool {
        state.can_move(seat)
    }

    /// One of the listed actions, or `random` (CodinGame then plays a random
    /// listed action); words after the action are a message.
    fn read_reply(
        state: &Self,
        seat: Player,
        line: &str,
        _newline: bool,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Result<AtaxxMove, BadReply> {
        use rand::RngExt;
        let line = crate::protocol::clean(line);
        let mut listed = rules::AtaxxMoves::new();
        state.actions(seat, &mut listed);
        if line.split_whitespace().next() == Some("random") {
            // The referee does not ask a side with no action, but a caller
            // that does must get a fault, not a panic.
            if listed.is_empty() {
                return Err(BadReply::Illegal(
                    "`random` with no listed action: the side must pass".into(),
                ));
            }
            return Ok(listed.as_slice()[rng.random_range(0..listed.len())]);
        }
        let m = protocol::parse_action(line).ok_or_else(|| {
            BadReply::Invalid(format!(
                "invalid line `{line}`: expected an action such as b7 or a7c7, or random"
            ))
        })?;
        if !listed.contains(&m) {
            return Err(BadReply::Illegal(format!("`{line}` is not one of the listed actions")));
        }
        Ok(m)
    }
}
