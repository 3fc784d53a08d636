//! The games, and what the game-independent parts of gridtune (arena,
//! evolution, freeze, CLI) need from each.

pub mod ataxx;
pub mod isolation;
pub mod lightcycles;
pub mod slime;

use crate::bots::Bot;
use crate::game::{Game, Player};
use crate::maps::MapError;
use crate::params::ParamSpec;
use crate::protocol::ProtocolError;
use crate::search::Limits;

/// A game with everything needed to tune a bot for it.
pub trait GameKit: Game + Sized {
    type Map: Clone + Send + Sync + std::fmt::Debug;

    /// The judge clones, by the names specs use.
    const JUDGES: &'static [&'static str];
    /// The genome's weights, declared once.
    const PARAMS: &'static [ParamSpec];
    /// Where `freeze` writes the generated constants, from the project root.
    const TUNED_PATH: &'static str;
    /// The weights currently frozen into the submission bot.
    const FROZEN: &'static [i32];
    /// The submission bot's per-move budget in milliseconds (from tuned.rs).
    const MOVE_BUDGET_MS: u64;
    /// The embedded default evolution config (genomes/<game>/evolve.ron).
    const DEFAULT_CONFIG: &'static str;

    fn parse_map(text: &str, origin: &str) -> Result<Self::Map, MapError>;
    fn start(map: &Self::Map) -> Self;
    /// A judge clone by name, seeded; `None` for an unknown name.
    fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>>;
    /// The search bot with these weights (checked against `PARAMS`).
    fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Self>>;
    /// A position in the contest protocol's own text, and the player to act.
    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError>;
    /// A random legal map in the game's text format.
    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String;
    /// A seat's average points as the contest reports results: the rate
    /// itself for two-player games; Slime overrides it with squares held.
    fn points_to_result(points: f64, map: &Self::Map) -> f64 {
        let _ = map;
        points
    }
    /// How a move is written in the protocol.
    fn move_text(m: Self::Move) -> String;
}
