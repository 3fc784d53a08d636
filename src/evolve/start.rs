//! How a run starts: its config (a file, or the game's embedded default,
//! with the command line's overrides on top) and its folder, or the run it
//! resumes; all of it checked before the folder is created, then the folder
//! and its log opened.

use super::setup::{check_inputs, check_new_folder, load_resume, working_dir};
use super::{tuner, Checkpoint, EvolveConfig};
use crate::games::GameKit;
use anyhow::Context;
use jiff::Timestamp;
use std::path::{Path, PathBuf};

/// Command-line values that replace the config's.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub games: Option<u64>,
    pub eval_every: Option<u32>,
    pub seed: Option<u64>,
}

/// What the user asked for: a new run or the continuation of one.
#[derive(Clone, Debug)]
pub enum Launch {
    New {
        /// The config file; `None` is the game's embedded default.
        config: Option<PathBuf>,
        overrides: Overrides,
        /// The run folder; `None` is reports/<game>/<date>-seed<S>.
        out: Option<PathBuf>,
    },
    Resume(PathBuf),
}

/// A run ready to go: its inputs checked, its folder not yet touched.
pub struct RunStart {
    pub config: EvolveConfig,
    pub out: PathBuf,
    /// The checkpoint to continue from; `None` for a new run, or for a
    /// resumed run none of whose generations had finished.
    pub checkpoint: Option<Checkpoint>,
    pub resumed: bool,
}

/// Checks everything the run will read and where it will write, so that a
/// run failing on its input leaves nothing behind and never touches an
/// older run.
pub fn prepare<G: GameKit>(launch: &Launch) -> anyhow::Result<RunStart> {
    let start = match launch {
        Launch::Resume(dir) => {
            let (config, checkpoint) = load_resume::<G>(dir)?;
            RunStart {
                config,
                out: dir.clone(),
                checkpoint,
                resumed: true,
            }
        }
        Launch::New { config, overrides, out } => {
            let config = resolve_config::<G>(config.as_deref(), overrides)?;
            let out = out
                .clone()
                .unwrap_or_else(|| default_folder(G::NAME, config.seed, now()));
            check_new_folder(&out, G::NAME)?;
            RunStart {
                config,
                out,
                checkpoint: None,
                resumed: false,
            }
        }
    };
    check_inputs::<G>(&start.config)?;
    Ok(start)
}

/// The run's config: `path`, or the game's embedded default, with
/// `overrides` applied and checked, and its paths made absolute (so the run
/// folder's config.ron resumes from anywhere). A file's relative paths are
/// taken from the working folder, the embedded default's from the project
/// it was built from.
pub fn resolve_config<G: GameKit>(path: Option<&Path>, overrides: &Overrides) -> anyhow::Result<EvolveConfig> {
    let (text, origin, base) = match path {
        Some(path) => (
            crate::error::read_input(path, "config")?,
            path.display().to_string(),
            working_dir()?,
        ),
        None => (
            G::DEFAULT_CONFIG.to_string(),
            format!("genomes/{}/evolve.ron (embedded)", G::NAME),
            PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        ),
    };
    let mut config = EvolveConfig::parse(&text, &origin, &G::judge_names())?;
    if config.game != G::NAME {
        crate::bail_input!("{origin}: config is for `{}`, not `{}`", config.game, G::NAME);
    }
    if let Some(g) = overrides.games {
        config.games = g;
    }
    if let Some(e) = overrides.eval_every {
        config.eval_every = e;
    }
    if let Some(s) = overrides.seed {
        config.seed = s;
    }
    config
        .check(&G::judge_names())
        .and_then(|()| config.check_budget(G::PARAMS.len()))
        .and_then(|()| match &config.prefit {
            Some(prefit) => prefit.check_for::<G>().map_err(|m| format!("prefit: {m}")),
            None => Ok(()),
        })
        .map_err(|m| crate::bad_input!("{origin} with command-line overrides: {m}"))?;
    config.resolve_paths(&base);
    Ok(config)
}

/// The clock, or the epoch if it cannot be read as a date.
fn now() -> Timestamp {
    Timestamp::try_from(std::time::SystemTime::now()).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// A new run's folder when none is given: reports/<game>/<date>-seed<S>.
pub fn default_folder(game: &str, seed: u64, at: Timestamp) -> PathBuf {
    PathBuf::from(format!("reports/{game}/{}-seed{seed}", folder_stamp(at)))
}

/// A sweep's parent folder when none is given: reports/<game>/<date>-sweep.
pub fn default_sweep_folder(game: &str) -> PathBuf {
    PathBuf::from(format!("reports/{game}/{}-sweep", folder_stamp(now())))
}

/// UTC date and time as `YYYYMMDD-HHMMSS`: run folders sort by start.
pub fn folder_stamp(at: Timestamp) -> String {
    at.strftime("%Y%m%d-%H%M%S").to_string()
}

/// Creates the run folder and sends the log to its run.log (appended on
/// resume), then logs the run's start and its config.
pub fn open<G: GameKit>(start: &RunStart) -> anyhow::Result<()> {
    let RunStart {
        config,
        out,
        checkpoint,
        ..
    } = start;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create run folder {}", out.display()))?;
    let log_path = out.join("run.log");
    crate::logging::log_to_file(&log_path).with_context(|| format!("cannot open {}", log_path.display()))?;
    tracing::info!(
        game = G::NAME,
        seed = config.seed,
        games = config.games,
        islands = config.ga.islands,
        tuner = tuner::Settings::of(config).name(),
        resume_after = checkpoint.as_ref().map_or(0, |c| c.generation()),
        threads = rayon::current_num_threads(),
        out = %out.display(),
        "evolve run started"
    );
    tracing::info!(config = %config.to_ron().split_whitespace().collect::<Vec<_>>().join(" "), "evolve config");
    Ok(())
}

#[cfg(test)]
mod tests;
