//! Slime: four players spread, jump and merge on a square board (statement
//! in `../shared/games/slime/STATEMENT.md`), exactly as the original control
//! program applies moves.

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

use crate::bots::Bot;
use crate::game::Player;
use crate::games::GameKit;
use crate::maps::MapError;
use crate::params::ParamSpec;
use crate::protocol::ProtocolError;
use crate::referee::{BadReply, OnFailure, ProcessModel, TimeLimits};
use crate::search::Limits;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The genome bot: best-reply search with a budget per move.
pub struct GenomeBot {
    engine: engine::Engine,
    limits: Limits,
}

impl Bot<Slime> for GenomeBot {
    fn choose(&mut self, state: &Slime, player: Player) -> SlimeMove {
        self.engine.choose(state, player, self.limits)
    }
}

impl GameKit for Slime {
    type Map = SlimeMap;

    const JUDGES: &'static [&'static str] = judges::JUDGES;
    const PARAMS: &'static [ParamSpec] = features::PARAMS;
    const TUNED_PATH: &'static str = "src/games/slime/tuned.rs";
    const FROZEN: &'static [i32] = &tuned::WEIGHTS;
    const MOVE_BUDGET_MS: u64 = tuned::MOVE_BUDGET_MS;
    const DEFAULT_CONFIG: &'static str = include_str!("../../../genomes/slime/evolve.ron");

    fn parse_map(text: &str, origin: &str) -> Result<SlimeMap, MapError> {
        SlimeMap::parse(text, origin)
    }

    fn start(map: &SlimeMap) -> Self {
        map.start
    }

    fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        judges::judge(name, seed)
    }

    fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Self>> {
        let weights: features::Weights = weights
            .try_into()
            .unwrap_or_else(|_| panic!("slime genomes have {} weights", features::COUNT));
        Box::new(GenomeBot {
            engine: engine::Engine::new(weights, 14),
            limits,
        })
    }

    /// A position is the control program's argument, `P,row,row,...`.
    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError> {
        protocol::parse_argument(text.trim())
    }

    /// Slime has one start per board size: generated "maps" are the
    /// standard start on a random size.
    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String {
        use rand::RngExt;
        SlimeMap::standard(rng.random_range(rules::MIN_SIZE..=rules::MAX_SIZE)).to_text()
    }

    /// Squares held: the share of the board times its squares.
    fn points_to_result(points: f64, map: &SlimeMap) -> f64 {
        points * (map.start.size() * map.start.size()) as f64
    }

    fn move_text(m: SlimeMove) -> String {
        m.to_string()
    }

    fn ended_by_turn_limit(state: &Self) -> bool {
        state.turns() >= rules::TURN_LIMIT && state.empty() != 0
    }

    fn map_text(map: &SlimeMap) -> String {
        map.to_text()
    }

    const PROCESS: ProcessModel = ProcessModel::PerTurn;
    // The control program reports turns over 0.1 s but does not stop them;
    // the referee only stops a program that hangs (an interpreter's start
    // alone can take a few hundred milliseconds).
    const TIME_LIMITS: TimeLimits = TimeLimits::millis(1000, 1000);
    const ON_FAILURE: OnFailure = OnFailure::Pass;

    fn greeting(_state: &Self, _seat: Player) -> String {
        String::new()
    }

    fn turn_input(state: &Self, seat: Player, _moves: &[SlimeMove]) -> String {
        protocol::argument(state, seat)
    }

    /// As the control program reads stdout: four integers and a newline, or
    /// the turn is an invalid reply (a pass). Four integers that make no
    /// legal move are the statement's way to pass.
    fn read_reply(
        state: &Self,
        seat: Player,
        line: &str,
        newline: bool,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Result<SlimeMove, BadReply> {
        let mut bytes = line.as_bytes().to_vec();
        if newline {
            bytes.push(b'\n');
        }
        let Some(m) = protocol::parse_reply(&bytes) else {
            let why = if newline {
                "no four integers"
            } else {
                "no newline after the four integers"
            };
            return Err(BadReply::Invalid(format!(
                "`{line}`: {why}; the control program passes"
            )));
        };
        let mut legal = rules::SlimeMoves::new();
        state.actions(seat, &mut legal);
        Ok(if legal.contains(&m) { m } else { SlimeMove::PASS })
    }
}
