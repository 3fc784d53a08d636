//! The argument groups several commands share: the game, the search budget,
//! program bots' time limits and bots files, and SPRT bounds.

use anyhow::Result;
use clap::Args;
use gridtune::bots::{BotSpec, SpecContext};
use gridtune::games::GameKit;
use gridtune::referee::command::BotsFile;
use gridtune::referee::TimeLimits;
use gridtune::search::Limits;
use gridtune::stats::Sprt;
use gridtune::{bad_input, bail_input};
use std::path::PathBuf;
use std::time::Duration;

/// Where bots come from besides the built-in specs, and the time limits of
/// program bots.
#[derive(Args)]
pub struct BotsArgs {
    /// A bots file (RON list of (name, spec, dir, turn_ms, first_turn_ms)):
    /// its names can be given as --bot.
    #[arg(long = "bots-file")]
    pub bots_file: Option<PathBuf>,
    /// Time limit per turn for program bots, in ms (default: the game's);
    /// UAI engines keep their spec's limit.
    #[arg(long)]
    pub turn_ms: Option<u64>,
    /// Time limit of a program bot's first turn, in ms (default: the game's);
    /// UAI engines keep their spec's limit.
    #[arg(long)]
    pub first_turn_ms: Option<u64>,
}

impl BotsArgs {
    fn load(&self) -> Result<Option<BotsFile>> {
        self.bots_file
            .as_deref()
            .map(BotsFile::load)
            .transpose()
            .map_err(|e| bad_input!("{e}"))
    }

    fn time_limits<G: GameKit>(&self) -> Result<Option<TimeLimits>> {
        if self.turn_ms == Some(0) || self.first_turn_ms == Some(0) {
            bail_input!("time limits must be at least 1 ms");
        }
        if self.turn_ms.is_none() && self.first_turn_ms.is_none() {
            return Ok(None);
        }
        let d = G::TIME_LIMITS;
        Ok(Some(TimeLimits::millis(
            self.first_turn_ms.unwrap_or(d.first.as_millis() as u64),
            self.turn_ms.unwrap_or(d.later.as_millis() as u64),
        )))
    }

    /// Parses `specs`; with none given, every bot of the bots file.
    pub fn specs<G: GameKit>(&self, specs: &[String], search: Limits) -> Result<Vec<BotSpec>> {
        let file = self.load()?;
        let ctx = SpecContext {
            search,
            bots: file.as_ref(),
            time: self.time_limits::<G>()?,
        };
        let names: Vec<String> = match (specs.is_empty(), &file) {
            (true, Some(f)) => f.names().iter().map(|n| n.to_string()).collect(),
            _ => specs.to_vec(),
        };
        Ok(names
            .iter()
            .map(|s| BotSpec::parse::<G>(s, &ctx))
            .collect::<Result<Vec<_>, _>>()?)
    }
}

#[derive(Args)]
pub struct GameArg {
    /// The game: isolation, lightcycles, slime or ataxx.
    #[arg(long)]
    pub game: String,
}

#[derive(Args)]
pub struct BudgetArgs {
    /// Search budget per move of genome bots, in nodes (deterministic).
    #[arg(long, default_value_t = 2000, conflicts_with = "ms")]
    pub nodes: u64,
    /// Search budget per move of genome bots, in milliseconds (overrides --nodes).
    #[arg(long)]
    pub ms: Option<u64>,
}

impl BudgetArgs {
    pub fn limits(&self) -> Limits {
        match self.ms {
            Some(ms) => Limits::time(Duration::from_millis(ms)),
            None => Limits::nodes(self.nodes),
        }
    }
}

/// An SPRT's `ELO0,ELO1` bounds given as `flag`.
pub fn parse_sprt(flag: &str, text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let bounds: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad_input!("{flag} {text}: expected ELO0,ELO1 such as 0,10"))?;
    let [elo0, elo1] = bounds[..] else {
        bail_input!("{flag} {text}: expected two numbers, ELO0,ELO1");
    };
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| bad_input!("{flag} {text}: {e}"))
}
