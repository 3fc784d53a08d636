//! Bots and bot specs.
//!
//! A bot picks a move for one seat. Specs name bots on the command line and
//! in configs: `judge:NAME` (a judge clone) and `genome:PATH` (the search bot
//! with a genome's weights).

use crate::game::{Game, Player};
use crate::games::GameKit;
use crate::genome::{Genome, GenomeError};
use crate::search::Limits;
use std::path::PathBuf;

/// Something that plays a game.
pub trait Bot<G: Game>: Send {
    /// The move for `player`, who is to act in `state`.
    fn choose(&mut self, state: &G, player: Player) -> G::Move;
}

/// A bot named on the command line or in a config.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// One of the game's judge clones, with its fixed budget.
    Judge(String),
    /// The genome bot with these weights, searching `limits` per move.
    Genome {
        label: String,
        weights: Vec<i32>,
        limits: Limits,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("unknown judge `{name}` for {game}; judges: {known}")]
    UnknownJudge {
        name: String,
        game: &'static str,
        known: String,
    },
    #[error("bad bot spec `{0}`: expected judge:NAME or genome:PATH")]
    Syntax(String),
    #[error(transparent)]
    Genome(#[from] GenomeError),
}

impl BotSpec {
    /// Parses `judge:NAME` or `genome:PATH` for game `G`; a genome bot gets
    /// `limits` per move.
    pub fn parse<G: GameKit>(spec: &str, limits: Limits) -> Result<Self, SpecError> {
        if let Some(name) = spec.strip_prefix("judge:") {
            if !G::JUDGES.contains(&name) {
                return Err(SpecError::UnknownJudge {
                    name: name.to_string(),
                    game: G::NAME,
                    known: G::JUDGES.join(", "),
                });
            }
            Ok(BotSpec::Judge(name.to_string()))
        } else if let Some(path) = spec.strip_prefix("genome:") {
            let genome = Genome::load(&PathBuf::from(path), G::NAME, G::PARAMS)?;
            Ok(BotSpec::Genome {
                label: spec.to_string(),
                weights: genome.weights,
                limits,
            })
        } else {
            Err(SpecError::Syntax(spec.to_string()))
        }
    }

    /// How reports name this bot.
    pub fn label(&self) -> String {
        match self {
            BotSpec::Judge(name) => format!("judge:{name}"),
            BotSpec::Genome { label, .. } => label.clone(),
        }
    }

    /// A fresh bot for one game; `seed` drives any randomness it has.
    pub fn build<G: GameKit>(&self, seed: u64) -> Box<dyn Bot<G>> {
        match self {
            BotSpec::Judge(name) => G::judge(name, seed).expect("judge names are checked when parsed"),
            BotSpec::Genome { weights, limits, .. } => G::genome_bot(weights, *limits),
        }
    }
}

/// Alpha-beta with a given evaluation and per-move limits: the genome bot of
/// every two-player sequential game.
pub struct SearchBot<G: Game, E> {
    search: crate::search::AlphaBeta<G>,
    eval: E,
    limits: Limits,
}

impl<G: Game, E: crate::search::Evaluator<G>> SearchBot<G, E> {
    /// `table_bits`: log2 of the transposition table's entries.
    pub fn new(eval: E, limits: Limits, table_bits: u32) -> Self {
        SearchBot {
            search: crate::search::AlphaBeta::new(table_bits),
            eval,
            limits,
        }
    }
}

impl<G: Game, E: crate::search::Evaluator<G> + Send> Bot<G> for SearchBot<G, E> {
    fn choose(&mut self, state: &G, _player: Player) -> G::Move {
        self.search.search(state, &self.eval, self.limits).best
    }
}
