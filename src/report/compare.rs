//! Several runs side by side: their fitness curves overlaid in one plot
//! (best solid, mean thin, holdout dashed, one colour per run) and one
//! table of what each run reached.

use super::canvas::{self, colour, failed, percent_axis, Figure, HoldoutMarker, Plot};
pub use super::compare_table::{csv, table, CompareRow};
use super::data::RunData;
use super::html;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// What `compare` wrote.
pub struct Compared {
    pub rows: Vec<CompareRow>,
    pub html: PathBuf,
    pub csv: PathBuf,
    pub plot: Plot,
}

/// Loads every run, overlays their curves and writes `out` (an HTML page),
/// with `compare-fitness.png`/`.svg` and `compare.csv` beside it (named
/// after `out`'s stem).
pub fn compare(dirs: &[PathBuf], out: &Path) -> anyhow::Result<Compared> {
    anyhow::ensure!(!dirs.is_empty(), "--compare needs at least one run folder");
    let runs: Vec<RunData> = dirs
        .iter()
        .map(|d| super::data::load(d))
        .collect::<anyhow::Result<_>>()?;
    let folder = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", folder.display()))?;
    let stem = out
        .file_stem()
        .map_or("compare".to_string(), |s| s.to_string_lossy().into_owned());
    let plot = canvas::save(&CompareFigure::new(&runs), folder, &format!("{stem}-fitness"))?;
    let rows: Vec<CompareRow> = runs.iter().map(CompareRow::of).collect();
    let csv_path = folder.join(format!("{stem}.csv"));
    crate::fsutil::write_atomic(&csv_path, csv(&rows).as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", csv_path.display()))?;
    let page = html::compare_page(&runs, &rows, &plot, &csv_path);
    crate::fsutil::write_atomic(out, page.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    Ok(Compared {
        rows,
        html: out.to_path_buf(),
        csv: csv_path,
        plot,
    })
}

/// Per run: label, the champion's train and holdout points.
type Curves = (String, Vec<(u32, f64)>, Vec<(u32, f64)>);

pub struct CompareFigure {
    last: u32,
    runs: Vec<Curves>,
}

impl CompareFigure {
    pub fn new(runs: &[RunData]) -> Self {
        CompareFigure {
            last: runs.iter().map(|r| r.last().generation).max().unwrap_or(1),
            runs: runs
                .iter()
                .map(|run| {
                    let pick = |f: fn(&crate::evolve::GenerationStats) -> Option<f64>| -> Vec<(u32, f64)> {
                        run.rows
                            .iter()
                            .filter_map(|r| f(r).map(|v| (r.generation, v)))
                            .collect()
                    };
                    (run.label.clone(), pick(|r| Some(r.train_score)), pick(|r| r.holdout))
                })
                .collect(),
        }
    }
}

impl Figure for CompareFigure {
    fn size(&self) -> (u32, u32) {
        (1000, 520)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(failed)?;
        let (area, legend) = root.split_horizontally(720);
        let (lo, hi) = self
            .runs
            .iter()
            .flat_map(|(_, t, h)| t.iter().chain(h).map(|p| p.1))
            .fold((100.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let mut chart = canvas::generation_chart(
            &area,
            ("the champion of each run", 22),
            self.last,
            percent_axis(lo, hi, 5.0),
            "contest score vs judges (0-100)",
        )?;
        for (i, (_, train, holdout)) in self.runs.iter().enumerate() {
            canvas::train_and_holdout(&mut chart, train, holdout, colour(i), HoldoutMarker::Triangle)?;
        }
        let labels = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, (label, ..))| (label.clone(), colour(i)));
        canvas::legend(&legend, &canvas::train_holdout_legend(labels))?;
        Ok(())
    }
}
