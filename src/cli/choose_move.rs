//! `gridtune move`: the move a bot makes in one position.

use super::args::{BotsArgs, BudgetArgs, GameArg};
use anyhow::Result;
use clap::Args;
use gridtune::bots::Seat;
use gridtune::games::GameKit;
use gridtune::{bad_input, bail_input};
use std::path::PathBuf;

#[derive(Args)]
pub struct MoveArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Any bot spec; a program bot is run for this one turn through the referee.
    #[arg(long)]
    pub bot: String,
    #[command(flatten)]
    pub sources: BotsArgs,
    /// A turn as the protocol sends it (optionally after the first line).
    #[arg(long)]
    pub position: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

pub fn run<G: GameKit>(a: &MoveArgs) -> Result<()> {
    let text = gridtune::error::read_input(&a.position, "position")?;
    let (state, player) = G::parse_position(&text).map_err(|e| bad_input!("{}: {e}", a.position.display()))?;
    if state.to_move() == gridtune::game::ToMove::Over {
        bail_input!("{}: the game is over; there is no move to make", a.position.display());
    }
    let spec = a
        .sources
        .specs::<G>(std::slice::from_ref(&a.bot), a.budget.limits())?
        .remove(0);
    if !G::asks(&state, player) {
        // The referee never asks a side with no action: it plays the forced
        // move (Ataxx's pass) for it, and so does `move`.
        if let Some(m) = gridtune::referee::forced_move(&state, player) {
            eprintln!("note: player {player} has no action and must pass; the referee does not ask the bot");
            let text = if state.is_pass(&m) {
                "pass".to_string()
            } else {
                G::move_text(m)
            };
            println!("{text}");
            return Ok(());
        }
    }
    let m = match spec.build::<G>(a.seed) {
        Seat::Builtin(mut bot) => bot.choose(&state, player),
        Seat::Program(mut bot) => {
            bot.start_game(&state, player);
            let started = bot.send_turn(&state, player, &[]);
            let (reply, log) = bot.read_reply(&state, player, started);
            bot.end_game();
            if !log.stderr.is_empty() {
                eprint!("{}", log.stderr);
            }
            reply.map_err(|(fault, why)| anyhow::anyhow!("{}: {}: {why}", spec.label(), fault.name()))?
        }
    };
    println!("{}", G::move_text(m));
    Ok(())
}
