//! The command line: parse, call the library, print. One module per command;
//! this one holds the commands' list, the argument groups they share and
//! the dispatch.

mod bench;
mod choose_move;
mod evolve;
mod evolve_progress;
mod freeze;
mod maps;
mod matches;
mod perft;
mod promote;
mod replay;
mod report;
mod table;
mod tournament;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use gridtune::arena;
use gridtune::arena::stats::Sprt;
use gridtune::bots::{BotSpec, SpecContext};
use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::slime::Slime;
use gridtune::games::GameKit;
use gridtune::maps::{load_dir, NamedMap};
use gridtune::progress;
use gridtune::referee::command::BotsFile;
use gridtune::referee::TimeLimits;
use gridtune::search::Limits;
use gridtune::{bad_input, bail_input};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "gridtune", version, about = "Tune contest bots for grid games")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Evolve evaluation weights against the judge clones and each other.
    Evolve(evolve::EvolveArgs),
    /// Play two bots on both sides of each map and print the score (for a
    /// four-seat game, a tournament of the bots given).
    Match(matches::MatchArgs),
    /// Play every combination of the bots at the game's table size, seated in
    /// list order, and print each bot's average result.
    Tournament(tournament::TournamentArgs),
    /// Print the move a bot makes in one position (the protocol's turn text).
    Move(choose_move::MoveArgs),
    /// Count move sequences of a given length from a position.
    Perft(perft::PerftArgs),
    /// Write a genome into the submission bot's generated constants file.
    Freeze(freeze::FreezeArgs),
    /// Generate or check map files.
    #[command(subcommand)]
    Maps(maps::MapsCommand),
    /// Measure simulator, search and game speed.
    Bench(bench::BenchArgs),
    /// Show a replay written by `match --replay`, turn by turn on the board.
    Replay(replay::ReplayArgs),
    /// Rebuild a run folder's report.html from its files, or compare runs.
    Report(report::ReportArgs),
}

/// Where bots come from besides the built-in specs, and the time limits of
/// program bots.
#[derive(Args)]
pub struct BotsArgs {
    /// A bots file (RON list of (name, spec, dir, turn_ms, first_turn_ms)):
    /// its names can be given as --bot.
    #[arg(long = "bots-file")]
    pub bots_file: Option<PathBuf>,
    /// Time limit per turn for program bots, in ms (default: the game's).
    #[arg(long)]
    pub turn_ms: Option<u64>,
    /// Time limit of a program bot's first turn, in ms (default: the game's).
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
    fn specs<G: GameKit>(&self, specs: &[String], search: Limits) -> Result<Vec<BotSpec>> {
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
    fn limits(&self) -> Limits {
        match self.ms {
            Some(ms) => Limits::time(Duration::from_millis(ms)),
            None => Limits::nodes(self.nodes),
        }
    }
}

/// Runs `$body` with `$G` bound to the game type named by `$name`.
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name.as_str() {
            "isolation" => {
                type $G = Isolation;
                $body
            }
            "lightcycles" => {
                type $G = LightCycles;
                $body
            }
            "slime" => {
                type $G = Slime;
                $body
            }
            "ataxx" => {
                type $G = Ataxx;
                $body
            }
            other => bail_input!("unknown game `{other}`; games: isolation, lightcycles, slime, ataxx"),
        }
    };
}
use with_game;

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Evolve(a) => with_game!(a.game.game, G => evolve::run::<G>(&a)),
        Command::Match(a) => with_game!(a.game.game, G => matches::run::<G>(&a)),
        Command::Tournament(a) => with_game!(a.game.game, G => tournament::run::<G>(&a)),
        Command::Move(a) => with_game!(a.game.game, G => choose_move::run::<G>(&a)),
        Command::Perft(a) => with_game!(a.game.game, G => perft::run::<G>(&a)),
        Command::Freeze(a) => with_game!(a.game.game, G => freeze::run::<G>(&a)),
        Command::Maps(maps::MapsCommand::Generate {
            game,
            count,
            seed,
            out,
            prefix,
            force,
        }) => {
            with_game!(game.game, G => maps::generate::<G>(count, seed, &out, &prefix, force))
        }
        Command::Maps(maps::MapsCommand::Check { game, files }) => {
            with_game!(game.game, G => maps::check::<G>(&files))
        }
        Command::Bench(a) if a.target.is_some() => {
            println!("{}", gridtune::tuner::bench::run(a.quick, a.seed));
            Ok(())
        }
        Command::Bench(a) => {
            let game = a.game.clone().expect("clap requires --game without a target");
            with_game!(game, G => bench::run::<G>(&a))
        }
        Command::Replay(a) => replay::run(&a.file),
        Command::Report(a) => report::run(&a),
    }
}

/// An SPRT's `ELO0,ELO1` bounds given as `flag`.
fn parse_sprt(flag: &str, text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
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

/// The maps of a match or tournament, and where they came from as the
/// report names it: `generated` new maps from `seed`, or else `dir`'s files.
fn play_maps<G: GameKit>(generated: Option<usize>, seed: u64, dir: PathBuf) -> Result<(String, Vec<NamedMap<G::Map>>)> {
    let Some(count) = generated else {
        return Ok((dir.display().to_string(), load_dir(&dir, G::parse_map)?));
    };
    let named: Vec<NamedMap<G::Map>> = arena::generated_maps::<G>(count, seed)
        .into_iter()
        .enumerate()
        .map(|(i, map)| NamedMap {
            name: format!("generated{:05} (seed {seed})", i + 1),
            map,
        })
        .collect();
    Ok((format!("{} generated maps", named.len()), named))
}

/// A progress bar over games counted by the arena, for `match` and
/// `tournament`; `note` describes the games so far.
fn games_bar(
    quiet: bool,
    stage: String,
    total: Option<u64>,
    note: impl Fn(u64) -> String + Send + 'static,
) -> progress::Bar {
    let base = arena::games_finished();
    let started = Instant::now();
    progress::Bar::start(progress::wanted(quiet), move || {
        let done = arena::games_finished().saturating_sub(base);
        let elapsed = started.elapsed().as_secs_f64();
        let rate = (elapsed > 0.2 && done > 0).then(|| done as f64 / elapsed);
        let left = match (total, rate) {
            (Some(t), Some(r)) => Some(t.saturating_sub(done) as f64 / r),
            _ => None,
        };
        progress::Line {
            stage: stage.clone(),
            done,
            total,
            games_per_second: rate,
            seconds_left: left,
            note: note(done),
        }
        .render()
    })
}
