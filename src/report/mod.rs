//! What a run shows its user: plots of fitness over generations, the run
//! report (`report.html`, rebuilt from the run folder's files alone), and the
//! comparison of several runs.

pub mod canvas;
pub mod compare;
pub mod compare_table;
pub mod data;
pub mod effort;
pub mod fitness;
pub mod html;
pub mod judges;
pub mod weights;

pub use data::GameInfo;

use std::path::{Path, PathBuf};

/// The report's file in a run folder.
pub const REPORT: &str = "report.html";

/// What a run report wrote.
pub struct Written {
    pub html: PathBuf,
    /// Every plot's PNG and SVG.
    pub plots: Vec<canvas::Plot>,
    /// The page's size in bytes.
    pub bytes: usize,
}

/// Rebuilds `dir/report.html` and its plots (`plot-*.png`, `plot-*.svg`)
/// from the run folder's files: config.ron and checkpoint.ron. The same
/// files give the same page, byte for byte.
pub fn write_run_report(dir: &Path, game: &GameInfo) -> anyhow::Result<Written> {
    if let Ok(other) = data::game_of(dir) {
        if other != game.name {
            crate::bail_input!("{} is a {other} run, not {}", dir.display(), game.name);
        }
    }
    let run = data::load_checked(dir, Some(game))?;
    let points = run.fitness_points();
    let plots = html::RunPlots {
        fitness: canvas::save(&fitness::LinesFigure::fitness(&run.label, &points), dir, "plot-fitness")?,
        holdout: canvas::save(
            &fitness::LinesFigure::train_vs_holdout(
                &run.label,
                &points,
                run.train_band(game.players),
                run.holdout_band(game.players),
            ),
            dir,
            "plot-holdout",
        )?,
        judges: canvas::save(&judges::JudgesFigure::new(&run), dir, "plot-judges")?,
        weights: canvas::save(&weights::WeightsFigure::new(&run, game.params), dir, "plot-weights")?,
        effort: canvas::save(&effort::EffortFigure::new(&run), dir, "plot-effort")?,
    };
    let page = html::run_page(&run, game, &plots);
    let path = dir.join(REPORT);
    crate::fsutil::write_atomic(&path, page.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    let html::RunPlots {
        fitness,
        holdout,
        judges,
        weights,
        effort,
    } = plots;
    Ok(Written {
        html: path,
        plots: vec![fitness, holdout, judges, weights, effort],
        bytes: page.len(),
    })
}
