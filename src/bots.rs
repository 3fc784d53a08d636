//! Bots and bot specs.
//!
//! A bot picks a move for one seat. Specs name bots on the command line, in
//! configs and in bots files: `judge:NAME` (a judge clone), `genome:PATH`
//! (the search bot with a genome's weights), `cmd:PROGRAM ARGS` and
//! `sh:COMMAND` (an external program, refereed).

pub use crate::game::Bot;
use crate::game::{Game, Player};
use crate::games::GameKit;
use crate::genome::{Genome, GenomeError};
use crate::referee::command::{self, BotsFile};
use crate::referee::process::Launch;
use crate::referee::{ProgramBot, TimeLimits};
use crate::search::Limits;
use std::path::{Path, PathBuf};

/// A bot named on the command line, in a config or in a bots file.
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
    /// An external program speaking the contest protocol, refereed.
    Program {
        label: String,
        launch: Launch,
        limits: TimeLimits,
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
    #[error("bad bot spec `{spec}`: expected judge:NAME, genome:PATH, cmd:PROGRAM ARGS, sh:COMMAND{names}")]
    Syntax { spec: String, names: String },
    #[error("bot spec `{spec}`: {message}")]
    Program { spec: String, message: String },
    #[error(transparent)]
    Genome(#[from] GenomeError),
}

/// What specs are read against: the genome bot's search budget, the bots
/// file whose names can stand for specs, and time limits for program bots
/// named directly (default: the game's).
#[derive(Clone, Copy, Debug)]
pub struct SpecContext<'a> {
    pub search: Limits,
    pub bots: Option<&'a BotsFile>,
    pub time: Option<TimeLimits>,
}

impl<'a> SpecContext<'a> {
    pub fn new(search: Limits) -> Self {
        SpecContext {
            search,
            bots: None,
            time: None,
        }
    }
}

impl BotSpec {
    /// Parses a spec for game `G`: `judge:NAME`, `genome:PATH`,
    /// `cmd:PROGRAM ARGS`, `sh:COMMAND`, or a name from the bots file.
    pub fn parse<G: GameKit>(spec: &str, ctx: &SpecContext) -> Result<Self, SpecError> {
        Self::parse_in::<G>(spec, ctx, None, ctx.time.unwrap_or(G::TIME_LIMITS))
    }

    fn parse_in<G: GameKit>(
        spec: &str,
        ctx: &SpecContext,
        dir: Option<&Path>,
        time: TimeLimits,
    ) -> Result<Self, SpecError> {
        let program = |text: &str, shell: bool| {
            command::launch(text, shell, dir)
                .map(|launch| BotSpec::Program {
                    label: spec.to_string(),
                    launch,
                    limits: time,
                })
                .map_err(|message| SpecError::Program {
                    spec: spec.to_string(),
                    message,
                })
        };
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
                limits: ctx.search,
            })
        } else if let Some(text) = spec.strip_prefix("cmd:") {
            program(text, false)
        } else if let Some(text) = spec.strip_prefix("sh:") {
            program(text, true)
        } else if let Some(entry) = ctx.bots.and_then(|b| b.get(spec)) {
            let limits = entry.limits(ctx.time.unwrap_or(G::TIME_LIMITS));
            let mut parsed = Self::parse_in::<G>(&entry.spec, ctx, entry.dir.as_deref(), limits)?;
            match &mut parsed {
                BotSpec::Genome { label, .. } | BotSpec::Program { label, .. } => *label = entry.name.clone(),
                BotSpec::Judge(_) => {}
            }
            Ok(parsed)
        } else {
            let names = ctx
                .bots
                .map(|b| format!(", or a name from the bots file ({})", b.names().join(", ")))
                .unwrap_or_default();
            Err(SpecError::Syntax {
                spec: spec.to_string(),
                names,
            })
        }
    }

    /// How reports name this bot.
    pub fn label(&self) -> String {
        match self {
            BotSpec::Judge(name) => format!("judge:{name}"),
            BotSpec::Genome { label, .. } | BotSpec::Program { label, .. } => label.clone(),
        }
    }

    /// Whether the bot is an external program (its games are refereed in
    /// real time, so they are not reproducible move for move).
    pub fn is_program(&self) -> bool {
        matches!(self, BotSpec::Program { .. })
    }

    /// A fresh bot for one game; `seed` drives any randomness it has.
    pub fn build<G: GameKit>(&self, seed: u64) -> Seat<G> {
        match self {
            BotSpec::Judge(name) => Seat::Builtin(G::judge(name, seed).expect("judge names are checked when parsed")),
            BotSpec::Genome { weights, limits, .. } => Seat::Builtin(G::genome_bot(weights, *limits)),
            BotSpec::Program { label, launch, limits } => {
                Seat::Program(Box::new(ProgramBot::new(label.clone(), launch.clone(), *limits, seed)))
            }
        }
    }
}

/// A bot at the table for one game: built in, or a refereed program.
pub enum Seat<G: GameKit> {
    Builtin(Box<dyn Bot<G>>),
    Program(Box<ProgramBot<G>>),
}

/// A genome's weights as the game's weight array. Genomes are checked
/// against the game's `PARAMS` when they are read or built, so a wrong
/// length here is a bug in the caller, not bad input.
pub fn genome_weights<const N: usize>(weights: &[i32]) -> [i32; N] {
    weights
        .try_into()
        .unwrap_or_else(|_| panic!("a genome of {} weights for a game that declares {N}", weights.len()))
}

/// A searcher with per-move limits: the genome bot of the two-player
/// sequential games, over the engine their submission bots search with.
pub struct SearchBot<G: Game, E> {
    search: crate::search::Searcher<G, E>,
    limits: Limits,
    nodes: u64,
}

impl<G: Game, E: crate::search::Evaluator<G>> SearchBot<G, E> {
    /// Searches with `search` for `limits` each move.
    pub fn new(search: crate::search::Searcher<G, E>, limits: Limits) -> Self {
        SearchBot {
            search,
            limits,
            nodes: 0,
        }
    }
}

impl<G: Game, E: crate::search::Evaluator<G> + Send> Bot<G> for SearchBot<G, E> {
    fn choose(&mut self, state: &G, _player: Player) -> G::Move {
        let result = self.search.search(state, self.limits);
        self.nodes = result.nodes;
        result.best
    }

    fn nodes_searched(&self) -> Option<u64> {
        Some(self.nodes)
    }
}
