//! Bots and bot specs.
//!
//! A bot picks a move for one seat. Specs name bots on the command line, in
//! configs and in bots files: `judge:NAME` (a judge clone), `genome:PATH`
//! (the search bot with a genome's weights; `genome:PATH@ms=N` or
//! `@nodes=N` gives it its own budget), `cmd:PROGRAM ARGS` and
//! `sh:COMMAND` (an external program, refereed), and `uai:PROGRAM ARGS` or
//! `uai(LIMIT):PROGRAM ARGS` (a UAI engine, Ataxx only, refereed the same
//! way; LIMIT is `nodes=N`, `movetime=MS` or `tc=SECONDS[+SECONDS]`).

pub use crate::game::Bot;
use crate::game::{Game, Player};
use crate::games::GameKit;
use crate::genome::{Genome, GenomeError};
use crate::referee::command::{self, BotsFile};
use crate::referee::process::Launch;
use crate::referee::uai::{self, UaiLimit};
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
    /// An external program, refereed: speaking the contest protocol within
    /// `limits`, or, with `uai`, a UAI engine searching that limit per move
    /// (its `limits` are then only what reply times are reported against).
    Program {
        label: String,
        launch: Launch,
        limits: TimeLimits,
        uai: Option<UaiLimit>,
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
    #[error(
        "bad bot spec `{spec}`: expected judge:NAME, genome:PATH[@ms=N|@nodes=N], cmd:PROGRAM ARGS, sh:COMMAND, uai[(LIMIT)]:PROGRAM ARGS{names}"
    )]
    Syntax { spec: String, names: String },
    /// A spec of a known kind whose rest is refused: a program's command
    /// line, a genome's budget, a UAI engine's limit or game.
    #[error("bot spec `{spec}`: {message}")]
    Invalid { spec: String, message: String },
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

/// The longest budget a genome bot can be given, in ms: an hour a move.
const MAX_BUDGET_MS: u64 = 3_600_000;

/// Splits a genome spec's `PATH@ms=N` or `PATH@nodes=N` into the path and
/// the bot's own budget, so one bot can search longer than the other (time
/// odds, as cutechess gives each engine its own time control, and the way to
/// measure what a doubling of search is worth). Anything else after the last
/// `@` is part of the path, which keeps paths that contain `@` readable.
fn genome_budget(rest: &str, default: Limits) -> Result<(&str, Limits), String> {
    let Some((path, suffix)) = rest.rsplit_once('@') else {
        return Ok((rest, default));
    };
    type Make = fn(u64) -> Limits;
    let (key, number, max, range, make): (&str, &str, u64, &str, Make) = if let Some(n) = suffix.strip_prefix("ms=") {
        let make: Make = |ms| Limits::time(std::time::Duration::from_millis(ms));
        ("ms", n, MAX_BUDGET_MS, "from 1 to 3600000 (an hour)", make)
    } else if let Some(n) = suffix.strip_prefix("nodes=") {
        ("nodes", n, u64::MAX, "of at least 1", Limits::nodes)
    } else {
        return Ok((rest, default));
    };
    match number.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok((path, make(n))),
        _ => Err(format!("`@{suffix}`: {key} must be a whole number {range}")),
    }
}

impl BotSpec {
    /// Parses a spec for game `G`: `judge:NAME`, `genome:PATH`,
    /// `cmd:PROGRAM ARGS`, `sh:COMMAND`, `uai[(LIMIT)]:PROGRAM ARGS`, or a
    /// name from the bots file.
    pub fn parse<G: GameKit>(spec: &str, ctx: &SpecContext) -> Result<Self, SpecError> {
        Self::parse_in::<G>(spec, ctx, None, ctx.time.unwrap_or(G::TIME_LIMITS))
    }

    fn parse_in<G: GameKit>(
        spec: &str,
        ctx: &SpecContext,
        dir: Option<&Path>,
        time: TimeLimits,
    ) -> Result<Self, SpecError> {
        let invalid = |message| SpecError::Invalid {
            spec: spec.to_string(),
            message,
        };
        let program = |text: &str, shell: bool, uai: Option<UaiLimit>| {
            command::launch(text, shell, dir)
                .map(|launch| BotSpec::Program {
                    label: spec.to_string(),
                    launch,
                    limits: uai.map_or(time, UaiLimit::reported_limits),
                    uai,
                })
                .map_err(invalid)
        };
        if let Some(name) = spec.strip_prefix("judge:") {
            if !G::is_judge(name) {
                return Err(SpecError::UnknownJudge {
                    name: name.to_string(),
                    game: G::NAME,
                    known: G::judge_names().join(", "),
                });
            }
            Ok(BotSpec::Judge(name.to_string()))
        } else if let Some(rest) = spec.strip_prefix("genome:") {
            let (path, limits) = genome_budget(rest, ctx.search).map_err(invalid)?;
            let genome = Genome::load(&PathBuf::from(path), G::NAME, G::PARAMS)?;
            Ok(BotSpec::Genome {
                label: spec.to_string(),
                weights: genome.weights,
                limits,
            })
        } else if let Some(text) = spec.strip_prefix("cmd:") {
            program(text, false, None)
        } else if let Some(text) = spec.strip_prefix("sh:") {
            program(text, true, None)
        } else if let Some(rest) = spec.strip_prefix("uai").filter(|r| r.starts_with([':', '('])) {
            if G::UAI.is_none() {
                return Err(invalid(format!(
                    "{} has no UAI engines: `uai:` plays Ataxx engines",
                    G::NAME
                )));
            }
            let (limit, text) = uai::parse_spec(rest, default_uai_limit::<G>()).map_err(invalid)?;
            program(text, false, Some(limit))
        } else if let Some(entry) = ctx.bots.and_then(|b| b.get(spec)) {
            let limits = entry.limits(ctx.time.unwrap_or(G::TIME_LIMITS));
            let mut parsed = Self::parse_in::<G>(&entry.spec, ctx, entry.dir.as_deref(), limits)?;
            let turn_limits = entry.turn_ms.is_some() || entry.first_turn_ms.is_some();
            if turn_limits && matches!(parsed, BotSpec::Program { uai: Some(_), .. }) {
                return Err(invalid(format!(
                    "bots file entry `{}`: turn_ms and first_turn_ms do not apply to a UAI engine; \
                     give its limit in the spec, as uai(movetime=MS):PROGRAM",
                    entry.name
                )));
            }
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
            BotSpec::Program {
                label,
                launch,
                limits,
                uai,
            } => {
                let mut bot = ProgramBot::new(label.clone(), launch.clone(), *limits, seed);
                if let Some(limit) = *uai {
                    bot = bot.speaking_uai(limit, G::UAI.expect("uai specs are parsed only for games with UAI"));
                }
                Seat::Program(Box::new(bot))
            }
        }
    }
}

/// A UAI engine's limit when its spec gives none: a move in the time the
/// game's submission bot searches one (its share of `MOVE_BUDGET_MS`; 45 ms
/// in Ataxx), so that the two meet on equal time.
pub fn default_uai_limit<G: GameKit>() -> UaiLimit {
    let search = G::submission_limits()
        .time
        .map_or(G::MOVE_BUDGET_MS, |t| (t.as_secs_f64() * 1000.0).round() as u64);
    UaiLimit::MoveTime(search.max(1))
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::time::Duration;

    const DEFAULT: Limits = Limits {
        depth: 7,
        nodes: 1234,
        time: None,
    };

    #[test]
    fn a_budget_suffix_gives_the_genome_bot_its_own_limits() {
        let ms = genome_budget("g/best.ron@ms=90", DEFAULT).unwrap();
        assert_eq!(ms, ("g/best.ron", Limits::time(Duration::from_millis(90))));
        let nodes = genome_budget("g/best.ron@nodes=3000", DEFAULT).unwrap();
        assert_eq!(nodes, ("g/best.ron", Limits::nodes(3000)));
        assert_eq!(genome_budget("g/best.ron", DEFAULT).unwrap(), ("g/best.ron", DEFAULT));
    }

    #[test]
    fn an_at_sign_that_starts_no_budget_is_part_of_the_path() {
        for path in ["runs/a@b/best.ron", "x@", "@ms", "me@host:best.ron", "a@msx=3"] {
            assert_eq!(genome_budget(path, DEFAULT).unwrap(), (path, DEFAULT));
        }
    }

    #[test]
    fn a_bad_budget_is_refused_naming_it() {
        for (spec, named) in [
            ("b.ron@ms=0", "@ms=0"),
            ("b.ron@ms=", "@ms="),
            ("b.ron@ms=-5", "@ms=-5"),
            ("b.ron@ms=3600001", "@ms=3600001"),
            ("b.ron@nodes=0", "@nodes=0"),
            ("b.ron@nodes=1e6", "@nodes=1e6"),
            ("b.ron@nodes=99999999999999999999", "@nodes=99999999999999999999"),
        ] {
            let message = genome_budget(spec, DEFAULT).unwrap_err();
            assert!(message.contains(named), "{spec}: {message}");
        }
    }

    #[test]
    fn a_uai_spec_is_a_program_with_its_limit_for_ataxx_alone() {
        use crate::games::ataxx::Ataxx;
        use crate::games::isolation::Isolation;
        let ctx = SpecContext::new(DEFAULT);
        let limit = |spec: &str| match BotSpec::parse::<Ataxx>(spec, &ctx) {
            Ok(BotSpec::Program { uai, launch, label, .. }) => {
                assert_eq!((launch.program.as_str(), label.as_str()), ("sh", spec));
                uai
            }
            other => panic!("{spec}: {other:?}"),
        };
        assert_eq!(limit("uai(nodes=500):sh -c true"), Some(UaiLimit::Nodes(500)));
        assert_eq!(
            limit("uai:sh"),
            Some(UaiLimit::MoveTime(45)),
            "the submission bot's search time"
        );
        assert_eq!(limit("cmd:sh"), None);
        let refused = BotSpec::parse::<Isolation>("uai:sh", &ctx).unwrap_err().to_string();
        assert!(refused.contains("isolation has no UAI engines"), "{refused}");
        let bad = BotSpec::parse::<Ataxx>("uai(nodes=x):sh", &ctx)
            .unwrap_err()
            .to_string();
        assert!(bad.contains("bot spec `uai(nodes=x):sh`: `nodes=x`"), "{bad}");
    }

    proptest! {
        #[test]
        fn any_uai_spec_is_read_or_refused_without_panicking(rest in "[(:]\\PC{0,30}") {
            let ctx = SpecContext::new(DEFAULT);
            let spec = format!("uai{rest}");
            if let Ok(BotSpec::Program { uai, .. }) = BotSpec::parse::<crate::games::ataxx::Ataxx>(&spec, &ctx) {
                prop_assert!(uai.is_some());
            }
            prop_assert!(BotSpec::parse::<crate::games::isolation::Isolation>(&spec, &ctx).is_err());
        }

        #[test]
        fn any_genome_spec_splits_or_is_refused_without_panicking(rest in ".{0,40}", n in 1u64..10_000) {
            match genome_budget(&rest, DEFAULT) {
                Ok((path, limits)) => {
                    prop_assert!(rest.starts_with(path));
                    prop_assert!(limits == DEFAULT || path.len() < rest.len());
                }
                Err(message) => prop_assert!(message.contains('@')),
            }
            let with_ms = format!("{rest}@ms={n}");
            prop_assert_eq!(
                genome_budget(&with_ms, DEFAULT).unwrap(),
                (rest.as_str(), Limits::time(Duration::from_millis(n)))
            );
        }
    }
}
