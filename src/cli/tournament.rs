//! `gridtune tournament`: every combination of the bots at the game's table
//! size.

use super::args::{BotsArgs, BudgetArgs, GameArg};
use super::table::{self, TableFlags};
use anyhow::Result;
use clap::Args;
use gridtune::games::GameKit;
use std::path::PathBuf;

#[derive(Args)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A bot: judge:NAME, genome:PATH[@ms=N|@nodes=N], cmd:PROGRAM ARGS, sh:COMMAND, or a
    /// name from --bots-file (default: every bot in it); at least as many as
    /// the table seats.
    #[arg(long = "bot", num_args = 1)]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub sources: BotsArgs,
    /// Map folder; default maps/<game>/train.
    #[arg(long)]
    pub maps: Option<PathBuf>,
    /// Games per table (seeds and maps vary between them).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Play every seating of each combination, not only list order.
    #[arg(long)]
    pub all_seatings: bool,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

pub fn run<G: GameKit>(a: &TournamentArgs) -> Result<()> {
    let specs = a.sources.specs::<G>(&a.bots, a.budget.limits())?;
    let flags = TableFlags {
        maps: a.maps.as_deref(),
        ..TableFlags::default()
    };
    table::run::<G>(&specs, a.rounds, a.all_seatings, a.seed, a.quiet, &flags)
}
