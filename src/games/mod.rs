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
use crate::referee::{BadReply, OnFailure, ProcessModel, TimeLimits};
use crate::search::Limits;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A game with everything needed to tune a bot for it.
pub trait GameKit: Game + Sized + std::fmt::Display {
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
    /// Whether a finished game was ended by the turn limit, not by play.
    fn ended_by_turn_limit(state: &Self) -> bool;
    /// The map in its file format (replays carry their map).
    fn map_text(map: &Self::Map) -> String;

    // The referee's side of the contest protocol.

    /// How the contest runs a bot program.
    const PROCESS: ProcessModel;
    /// The contest's per-turn time limits.
    const TIME_LIMITS: TimeLimits;
    /// What a failed turn (timeout, crash, invalid line, illegal move) costs.
    const ON_FAILURE: OnFailure;
    /// What a per-game program receives once, before its first turn.
    fn greeting(state: &Self, seat: Player) -> String;
    /// A turn's input: stdin text, or the argument of a per-turn process.
    /// `moves` is every move played so far.
    fn turn_input(state: &Self, seat: Player, moves: &[Self::Move]) -> String;
    /// Whether the referee asks `seat` at all; when not, it plays the seat's
    /// only legal move (Ataxx passes for a side with no action).
    fn asks(state: &Self, seat: Player) -> bool {
        let _ = (state, seat);
        true
    }
    /// Reads a reply: the line without its newline, and whether one ended it.
    /// `rng` fills in replies the protocol leaves to chance.
    fn read_reply(
        state: &Self,
        seat: Player,
        line: &str,
        newline: bool,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Result<Self::Move, BadReply>;
    /// Plays a simultaneous turn in which the seats given `None` failed. Only
    /// simultaneous games whose failures lose need it.
    fn play_with_failures(&mut self, joint: &[Option<Self::Move>]) {
        let _ = joint;
        unreachable!("{} has no simultaneous turns that can fail", Self::NAME)
    }
}
