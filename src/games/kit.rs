//! The traits a game implements besides its rules and its protocol: its
//! maps (`GameMaps`) and what tuning needs (`Tuning`), and `GameKit`, all of
//! them at once. Apart from `games/mod.rs`, whose registry implements
//! `Tuning` from each game's folder, so that the games' own modules can
//! implement these without depending on the registry that depends on them.

use crate::contest::Protocol;
use crate::game::{Bot, Game, Player};
use crate::maps::MapError;
use crate::params::ParamSpec;
use crate::search::{Evaluator, Limits};

/// The judge every game has besides its clones: the genome bot with the
/// hand-set weights the game's `features.rs` declares (`default.ron`), at the
/// game's fixed [`Tuning::ENGINE_NODES`]. The clones are other people's bots
/// and tuned genomes soon beat them all; this one searches as well as the
/// tuned bots do, and its weights never move, so a score against it keeps
/// meaning the same as the bots improve.
pub const ENGINE_JUDGE: &str = "engine";

/// The map side of a game: its map files and the start they give.
pub trait GameMaps: Game {
    type Map: Clone + Send + Sync + std::fmt::Debug;

    fn parse_map(text: &str, origin: &str) -> Result<Self::Map, MapError>;
    fn start(map: &Self::Map) -> Self;
    /// A random legal map in the game's text format.
    fn generate_map_text(rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> String;
    /// The map in its file format (replays carry their map).
    fn map_text(map: &Self::Map) -> String;
    /// A seat's average points as the contest reports results: the rate
    /// itself for two-player games; Slime overrides it with squares held.
    fn points_to_result(points: f64, map: &Self::Map) -> f64 {
        let _ = map;
        points
    }
}

/// What tuning a bot for the game needs. The registry implements it from the
/// game folder's files: `judges.rs` (`JUDGES`, `judge`), `features.rs`
/// (`PARAMS`, and `COUNT` for `Evaluation`), `tuned.rs` (`WEIGHTS`,
/// `MOVE_BUDGET_MS`) and the folder's `mod.rs` (`DEFAULT_CONFIG`,
/// `genome_bot`).
pub trait Tuning: GameMaps {
    /// The judge clones, by the names specs use. Every game also has
    /// [`ENGINE_JUDGE`], which [`Tuning::judge_names`] adds.
    const JUDGES: &'static [&'static str];
    /// The nodes a move [`ENGINE_JUDGE`] searches (the game's `judges.rs`).
    const ENGINE_NODES: u64;
    /// The genome's weights, declared once.
    const PARAMS: &'static [ParamSpec];
    /// The index of the weight that fixes the genome's scale (`crate::scale`).
    const SCALE_ANCHOR: usize;
    /// Where `freeze` writes the generated constants, from the project root.
    const TUNED_PATH: &'static str;
    /// The weights currently frozen into the submission bot.
    const FROZEN: &'static [i32];
    /// The submission bot's per-move budget in milliseconds (from tuned.rs).
    const MOVE_BUDGET_MS: u64;
    /// The embedded default evolution config (genomes/<game>/evolve.ron).
    const DEFAULT_CONFIG: &'static str;
    /// The genome bot's evaluation: the game's features weighted by
    /// `search::Linear`. Its own type, not a boxed one, so that `bench` times
    /// the evaluation as the search calls it.
    type Evaluation: Evaluator<Self>;

    /// A judge by name, seeded; `None` for an unknown name.
    fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>>;
    /// Every judge a spec or a config may name: the clones, then
    /// [`ENGINE_JUDGE`].
    fn judge_names() -> Vec<&'static str> {
        Self::JUDGES.iter().copied().chain([ENGINE_JUDGE]).collect()
    }
    fn is_judge(name: &str) -> bool {
        name == ENGINE_JUDGE || Self::JUDGES.contains(&name)
    }
    /// The search bot with these weights (checked against `PARAMS`).
    fn genome_bot(weights: &[i32], limits: Limits) -> Box<dyn Bot<Self>>;
    /// The genome bot's evaluation with these weights (checked against `PARAMS`).
    fn evaluation(weights: &[i32]) -> Self::Evaluation;
    /// Every evaluation feature of `state` from `me`'s side, indexed like
    /// `PARAMS` (what `fit` regresses results on).
    fn features(state: &Self, me: Player) -> Vec<i32>;
    /// The submission bot's search limits per move at `MOVE_BUDGET_MS`
    /// (its `bot.rs`): with `FROZEN`, `genome_bot` is then the submission bot.
    fn submission_limits() -> Limits;
    /// A tuning stage's search a move (evolve's `timed`, fit's
    /// `choose_timed`): `nodes`, or timed as the submission bot searches.
    fn tuning_limits(timed: bool, nodes: u64) -> Limits {
        if timed {
            Self::submission_limits()
        } else {
            Limits::nodes(nodes)
        }
    }
    /// [`Tuning::tuning_limits`] in words, for logs and genome comments.
    fn tuning_budget(timed: bool, nodes: u64) -> String {
        if timed {
            format!("{} ms a move", Self::MOVE_BUDGET_MS)
        } else {
            format!("{nodes} nodes")
        }
    }
}

/// A game with everything needed to tune, referee and report it: the bound
/// of the generic layers.
pub trait GameKit: Tuning + Protocol + std::fmt::Display {}

impl<G: Tuning + Protocol + std::fmt::Display> GameKit for G {}
