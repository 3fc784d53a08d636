//! The command line: parse, call the library, print. One module per command;
//! this one holds the commands' list, the argument groups they share and
//! the dispatch.

mod args;
mod bench;
mod choose_move;
mod evolve;
mod evolve_progress;
mod fit;
mod fit_progress;
mod freeze;
mod maps;
mod matches;
mod perft;
mod play;
mod promote;
mod replay;
mod report;
mod sprt;
mod sweep;
mod table;
mod tournament;
mod worker;

use anyhow::Result;
use clap::{Parser, Subcommand};
use gridtune::with_game;

#[derive(Parser)]
// The build's identity, not only the package version: workers refuse
// batches of another build, and this is what they name.
#[command(
    name = "gridtune",
    version = gridtune::distributed::wire::VERSION,
    about = "Tune contest bots for grid games"
)]
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
    /// Fit a genome to the results of simulated games (Texel's method).
    Fit(fit::FitArgs),
    /// Write a genome into the submission bot's generated constants file.
    Freeze(freeze::FreezeArgs),
    /// Generate or check map files.
    #[command(subcommand)]
    Maps(maps::MapsCommand),
    /// Measure simulator, search and game speed.
    Bench(bench::BenchArgs),
    /// Show a replay written by `match --replay`, turn by turn on the board.
    Replay(replay::ReplayArgs),
    /// Pool the pentanomials of matches between the same two bots: Elo with
    /// its interval, LOS and the SPRT's state, as one match reports them.
    Sprt(sprt::SprtArgs),
    /// Rebuild a run folder's report.html from its files, or compare runs.
    Report(report::ReportArgs),
    /// Play batches of games for `evolve --server` and `match --server`
    /// runs through a NATS JetStream server, on this machine's cores.
    Worker(worker::WorkerArgs),
}

impl Cli {
    /// What stderr shows by default (RUST_LOG overrides it): a worker's
    /// progress, or a command's warnings.
    pub fn stderr_log_level(&self) -> &'static str {
        match self.command {
            Command::Worker(_) => "info,async_nats=warn",
            _ => "warn",
        }
    }
}

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Evolve(a) => match &a.seeds {
            Some(seeds) => with_game!(a.game.game, G => sweep::run::<G>(&a, seeds)),
            None => with_game!(a.game.game, G => evolve::run::<G>(&a)),
        },
        Command::Match(a) => with_game!(a.game.game, G => matches::run::<G>(&a)),
        Command::Tournament(a) => with_game!(a.game.game, G => tournament::run::<G>(&a)),
        Command::Move(a) => with_game!(a.game.game, G => choose_move::run::<G>(&a)),
        Command::Perft(a) => with_game!(a.game.game, G => perft::run::<G>(&a)),
        Command::Fit(a) => with_game!(a.game.game, G => fit::run::<G>(&a)),
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
        Command::Sprt(a) => sprt::run(&a),
        Command::Report(a) => report::run(&a),
        Command::Worker(a) => worker::run(&a),
    }
}
