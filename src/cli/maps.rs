//! `gridtune maps`: random legal maps written, or map files checked.

use super::args::GameArg;
use anyhow::{Context, Result};
use clap::Subcommand;
use gridtune::bail_input;
use gridtune::games::GameKit;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum MapsCommand {
    /// Write random legal maps.
    Generate {
        #[command(flatten)]
        game: GameArg,
        #[arg(long)]
        count: usize,
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// File name prefix (a plain name: no folder, no `..`).
        #[arg(long, default_value = "map")]
        prefix: String,
        /// Replace map files that already exist; without it they are refused.
        #[arg(long)]
        force: bool,
    },
    /// Validate map files; prints each problem with file and line.
    Check {
        #[command(flatten)]
        game: GameArg,
        files: Vec<PathBuf>,
    },
}

pub fn generate<G: GameKit>(count: usize, seed: u64, out: &Path, prefix: &str, force: bool) -> Result<()> {
    use rand::SeedableRng;
    // A prefix is joined to --out as a file name; a folder in it would write
    // outside --out.
    if prefix.contains(['/', '\\', '\0']) || prefix.contains("..") {
        bail_input!(
            "--prefix `{prefix}` must be a plain file name prefix, without `/`, `\\` or `..`: maps go in --out"
        );
    }
    let paths: Vec<PathBuf> = (0..count)
        .map(|i| out.join(format!("{prefix}{:02}.txt", i + 1)))
        .collect();
    // Checked before anything is written, so a refusal leaves --out as it was.
    if !force {
        let existing: Vec<String> = paths
            .iter()
            .filter(|p| p.symlink_metadata().is_ok())
            .map(|p| p.display().to_string())
            .collect();
        if let Some(first) = existing.first() {
            let others = match existing.len() - 1 {
                0 => " already exists".to_string(),
                1 => " and 1 other map already exist".to_string(),
                n => format!(" and {n} other maps already exist"),
            };
            bail_input!("{first}{others}: give --force to replace them, or another --out or --prefix");
        }
    }
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    for path in paths {
        let text = G::generate_map_text(&mut rng);
        gridtune::fsutil::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(())
}

pub fn check<G: GameKit>(files: &[PathBuf]) -> Result<()> {
    let mut bad = 0;
    for f in files {
        match gridtune::maps::load_file(f, G::parse_map) {
            Ok(_) => println!("{}: ok", f.display()),
            Err(e) => {
                println!("{e}");
                bad += 1;
            }
        }
    }
    if bad > 0 {
        bail_input!("{bad} of {} maps are invalid", files.len());
    }
    Ok(())
}
