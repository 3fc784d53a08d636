//! `gridtune replay`: a replay file shown turn by turn on the board.

use anyhow::Result;
use clap::Args;
use gridtune::with_game;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ReplayArgs {
    /// A replay file.
    pub file: PathBuf,
}

pub fn run(path: &Path) -> Result<()> {
    let text = gridtune::error::read_input(path, "replay")?;
    let origin = path.display().to_string();
    let replay = gridtune::replay::parse(&text, &origin)?;
    let games = gridtune::games::NAMES;
    if !games.contains(&replay.game.as_str()) {
        return Err(gridtune::replay::ReplayError {
            origin,
            line: replay.lines.game,
            message: format!("unknown game `{}`; games: {}", replay.game, games.join(", ")),
        }
        .into());
    }
    let shown = with_game!(replay.game, G => gridtune::replay::show::<G>(&replay, &origin)?);
    print!("{shown}");
    Ok(())
}
