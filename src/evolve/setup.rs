//! A run's set-up, checked before its folder is touched: a run that fails on
//! its input creates nothing, and never writes over an older run.

use super::faults::FaultTally;
use super::{load_maps, opponents, Checkpoint, EvolveConfig, CHECKPOINT};
use crate::arena::executor::GameSummary;
use crate::arena::play_seated;
use crate::bots::BotSpec;
use crate::games::GameKit;
use crate::genome::Genome;
use std::path::{Path, PathBuf};

/// The run's config in its folder.
pub const CONFIG: &str = "config.ron";

/// Loads everything the run will load (maps, the seed genome, the judges,
/// a bots file) and plays each program judge once, so that bad input is
/// reported before the run folder is created or written.
pub fn check_inputs<G: GameKit>(config: &EvolveConfig) -> anyhow::Result<()> {
    if config.judges.len() + 1 < G::PLAYERS {
        crate::bail_input!(
            "{} judges cannot fill a {}-seat table beside the genome: list at least {}",
            config.judges.len(),
            G::PLAYERS,
            G::PLAYERS - 1
        );
    }
    let train = load_maps::<G>(&config.train_maps)?;
    if config.holdout_rounds > 0 {
        load_maps::<G>(&config.holdout_maps)?;
    }
    let seed = Genome::load(&config.seed_genome, G::NAME, G::PARAMS)?;
    let point: Vec<f64> = seed.weights.iter().map(|&w| f64::from(w)).collect();
    if let Err(e) = super::oracle::tuning_space::<G>(&point, config.fix_scale) {
        crate::bail_input!("{}: {e}", config.seed_genome.display());
    }
    let judges = opponents::<G>(config)?;
    let genome = BotSpec::Genome {
        label: "seed genome".into(),
        weights: seed.weights,
        limits: config.limits::<G>(),
    };
    for (j, judge) in judges.iter().enumerate() {
        if matches!(judge, BotSpec::Program { .. }) {
            probe::<G>(&config.judges[j].0, judge, &genome, &train[0])?;
        }
    }
    Ok(())
}

/// One game of a program judge against the seed genome: a program that
/// does not start, crashes or does not speak the protocol would otherwise
/// lose every game, and its losses would count as the genomes' wins.
fn probe<G: GameKit>(
    name: &str,
    judge: &BotSpec,
    genome: &BotSpec,
    map: &crate::maps::NamedMap<G::Map>,
) -> anyhow::Result<()> {
    let mut seats = vec![genome; G::PLAYERS];
    seats[0] = judge;
    let mut judge_seats = vec![None; G::PLAYERS];
    judge_seats[0] = Some(0);
    let record = play_seated::<G>(&map.map, &seats, 1, false);
    let mut tally = FaultTally::new(1);
    tally.record(&GameSummary::of(&record, G::PLAYERS), &judge_seats);
    let f = tally.judges[0];
    let why = tally.examples[0].take().unwrap_or_default();
    if f.faulted() == 0 {
        return Ok(());
    }
    // A timeout may be a busy machine: the run counts it and stops if it
    // keeps happening.
    if f.faulted() == f.timeouts {
        tracing::warn!(judge = %name, "judge `{name}` timed out in its test game before the run: {why}");
        return Ok(());
    }
    crate::bail_input!(
        "judge `{name}` cannot play: in a test game against the seed genome on train map {}, {why}",
        map.name
    )
}

/// Where a new run may write: a folder that does not exist yet, or an empty
/// one. A folder holding a run is refused (resuming is `--resume`), and so is
/// any other file there: a run never writes over what it did not create.
pub fn check_new_folder(out: &Path, game: &str) -> anyhow::Result<()> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(_) if out.exists() && !out.is_dir() => {
            crate::bail_input!(
                "--out {} is a file, not a folder: give a new folder for the run",
                out.display()
            )
        }
        Err(e) => crate::bail_input!("cannot read the run folder {}: {e}", out.display()),
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    if names.iter().any(|n| n == CONFIG || n == CHECKPOINT) {
        crate::bail_input!(
            "{} holds a run already: continue it with `gridtune evolve --game {game} --resume {}`, \
             or give --out a new folder",
            out.display(),
            out.display()
        );
    }
    if let Some(first) = names.first() {
        crate::bail_input!(
            "{} is not empty (it holds {first}{}): give --out a new or empty folder",
            out.display(),
            if names.len() > 1 {
                format!(" and {} more", names.len() - 1)
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// Only the game of a run's config, read before the config is checked, so
/// that a run of another game is named as such (its judges would not be
/// known to this game).
#[derive(serde::Deserialize)]
struct GameOnly {
    game: String,
}

/// A run folder to resume: its config (paths resolved) and its checkpoint
/// (`None` if no generation of the run finished), all checked. Relative paths in an older run's config are taken from the
/// working directory, as that run was, or else from the run folder.
pub fn load_resume<G: GameKit>(dir: &Path) -> anyhow::Result<(EvolveConfig, Option<Checkpoint>)> {
    if !dir.is_dir() {
        crate::bail_input!("--resume {}: no such run folder", dir.display());
    }
    let path = dir.join(CONFIG);
    if !path.is_file() {
        crate::bail_input!(
            "--resume {}: this folder holds no run (it has no {CONFIG}); start one with --out",
            dir.display()
        );
    }
    let text = crate::error::read_input(&path, "the run's config to resume")?;
    let origin = path.display().to_string();
    let ron = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    if let Ok(GameOnly { game }) = ron.from_str::<GameOnly>(&text) {
        if game != G::NAME {
            crate::bail_input!(
                "{} is a run of game `{game}`, not `{}`: resume it with --game {game}",
                dir.display(),
                G::NAME
            );
        }
    }
    let mut config = EvolveConfig::parse(&text, &origin, &G::judge_names())?;
    let cwd = std::env::current_dir().unwrap_or_default();
    for p in config.paths_mut() {
        if p.is_relative() {
            let from_cwd = cwd.join(&*p);
            let from_run = dir.join(&*p);
            *p = if !from_cwd.exists() && from_run.exists() {
                from_run
            } else {
                from_cwd
            };
        }
    }
    // No checkpoint: the run was stopped before its first generation ended
    // (its config is written first). The caller says so and starts it over.
    let checkpoint = Checkpoint::load::<G>(dir, &config)?;
    Ok((config, checkpoint))
}

/// The working directory, for resolving the relative paths of a config
/// given on the command line.
pub fn working_dir() -> anyhow::Result<PathBuf> {
    std::env::current_dir().map_err(|e| anyhow::anyhow!("cannot read the working directory: {e}"))
}
