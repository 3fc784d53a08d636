//! `gridtune perft`: move sequences counted from a position or each train
//! map's start.

use super::args::GameArg;
use anyhow::Result;
use clap::Args;
use gridtune::bad_input;
use gridtune::games::GameKit;
use gridtune::maps::load_dir;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A turn as the protocol sends it; default: each train map's start.
    #[arg(long)]
    pub position: Option<PathBuf>,
    #[arg(long)]
    pub depth: u32,
}

pub fn run<G: GameKit>(a: &PerftArgs) -> Result<()> {
    let positions: Vec<(String, G)> = match &a.position {
        Some(path) => {
            let text = gridtune::error::read_input(path, "position")?;
            let (state, _) = G::parse_position(&text).map_err(|e| bad_input!("{}: {e}", path.display()))?;
            vec![(path.display().to_string(), state)]
        }
        None => load_dir(Path::new(&format!("maps/{}/train", G::NAME)), G::parse_map)?
            .into_iter()
            .map(|m| (m.name, G::start(&m.map)))
            .collect(),
    };
    for (name, state) in positions {
        let mut line = format!("{name}:");
        let mut last_ms = 0.0;
        // Depth 0 counts the position itself, as perft does.
        for d in a.depth.min(1)..=a.depth {
            let started = Instant::now();
            line.push_str(&format!(" {}", gridtune::perft::perft(&state, d)));
            last_ms = started.elapsed().as_secs_f64() * 1000.0;
        }
        // The last depth's time alone, as engines' perft prints it, to set
        // against theirs.
        println!("{line}  (depth {} in {last_ms:.1} ms)", a.depth);
    }
    Ok(())
}
