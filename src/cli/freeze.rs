//! `gridtune freeze`: a genome written into the submission bot's generated
//! constants (or checked against them), or the whole bot as one file
//! (`--bundle`).

use super::args::GameArg;
use anyhow::{Context, Result};
use clap::Args;
use gridtune::bail_input;
use gridtune::export::bundle;
use gridtune::export::freeze::{self, Freshness};
use gridtune::fsutil;
use gridtune::games::GameKit;
use gridtune::genome::Genome;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct FreezeArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Genome to freeze; default genomes/<game>/best.ron.
    #[arg(long)]
    pub genome: Option<PathBuf>,
    /// Only check that the generated file matches the genome; fail if stale.
    #[arg(long)]
    pub check: bool,
    /// Write the submission bot as one self-contained Rust file here instead
    /// of writing tuned.rs (build it with `rustc --edition 2021 -O FILE`).
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    pub bundle: Option<PathBuf>,
    /// Per-move time budget of the submission bot; default: the current one.
    #[arg(long)]
    pub budget_ms: Option<u64>,
}

pub fn run<G: GameKit>(a: &FreezeArgs) -> Result<()> {
    let budget = a.budget_ms.unwrap_or(G::MOVE_BUDGET_MS);
    // The bot searches for a share of its budget: with 0 it cannot search at
    // all, and over the contest's limit it loses every game on time.
    let limit = G::TIME_LIMITS.later.as_millis() as u64;
    if !(1..=limit).contains(&budget) {
        bail_input!(
            "--budget-ms {budget} is out of range: {} allows 1..={limit} ms per move",
            G::NAME
        );
    }
    let root = Path::new(".");
    if a.bundle.is_none() {
        check_project_root::<G>(root)?;
    }
    let path = a
        .genome
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("genomes/{}/best.ron", G::NAME)));
    let genome = Genome::load(&path, G::NAME, G::PARAMS)?;
    let source = path.display().to_string();
    if let Some(out) = &a.bundle {
        return bundle_cmd::<G>(out, &genome, &source, budget);
    }
    if a.check {
        match freeze::check::<G>(root, &genome, &source, budget) {
            Freshness::Fresh => println!("{} is up to date with {source}", G::TUNED_PATH),
            Freshness::Stale => {
                eprintln!(
                    "{} is stale: it does not match {source}; run `gridtune freeze --game {}`",
                    G::TUNED_PATH,
                    G::NAME
                );
                std::process::exit(1);
            }
            Freshness::Missing => {
                eprintln!("{} is missing (run from the project root)", G::TUNED_PATH);
                std::process::exit(1);
            }
        }
        return Ok(());
    }
    freeze::write::<G>(root, &genome, &source, budget).with_context(|| format!("cannot write {}", G::TUNED_PATH))?;
    println!(
        "wrote {} from {source}; rebuild with `cargo build --release --bin {}-bot`",
        G::TUNED_PATH,
        G::NAME
    );
    Ok(())
}

/// `freeze` without `--bundle` writes (or checks) tuned.rs at its path in the
/// gridtune source tree, which it finds only from the working folder; run
/// elsewhere it would create a stray `src/games/...`, so the folder must be
/// the project's root.
fn check_project_root<G: GameKit>(root: &Path) -> Result<()> {
    let here = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| ".".into());
    let manifest = root.join("Cargo.toml");
    let is_gridtune = std::fs::read_to_string(&manifest)
        .is_ok_and(|t| t.lines().any(|l| l.replace([' ', '\t'], "") == "name=\"gridtune\""));
    let tuned_dir = Path::new(G::TUNED_PATH).parent().unwrap_or(Path::new("."));
    let missing = if !is_gridtune {
        "Cargo.toml of the gridtune package".to_string()
    } else if !root.join(tuned_dir).is_dir() {
        format!("folder {}", tuned_dir.display())
    } else {
        return Ok(());
    };
    bail_input!(
        "freeze writes {} in the gridtune source tree, but {here} has no {missing}: run it from the project's root folder, or give --bundle FILE",
        G::TUNED_PATH
    )
}

/// `freeze --bundle FILE`: only FILE is written, tuned.rs is left alone.
fn bundle_cmd<G: GameKit>(out: &Path, genome: &Genome, source: &str, budget: u64) -> Result<()> {
    // write_atomic would create missing folders; a mistyped path should fail.
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        bail_input!(
            "cannot write the bundle {}: the folder {} does not exist",
            out.display(),
            dir.display()
        );
    }
    if out.is_dir() {
        bail_input!("cannot write the bundle {}: it is a folder", out.display());
    }
    let text = bundle::render_bundle::<G>(genome, source, budget)?;
    fsutil::write_atomic(out, text.as_bytes()).with_context(|| format!("cannot write the bundle {}", out.display()))?;
    println!(
        "wrote {} ({} lines) from {source}; build it with `rustc --edition 2021 -O {}`",
        out.display(),
        text.lines().count(),
        out.display()
    );
    Ok(())
}
