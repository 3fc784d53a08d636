//! Several runs side by side: their fitness curves overlaid in one plot
//! (best solid, mean thin, holdout dashed, one colour per run) and one
//! table of what each run reached.

use super::canvas::{self, colour, failed, percent_axis, Figure, HoldoutMarker, Plot};
use super::data::RunData;
use super::html;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// One run's line in the comparison table.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    pub label: String,
    pub game: String,
    pub seed: u64,
    pub generations: u32,
    pub games: usize,
    /// The last champion's contest score on the train maps.
    pub final_train: f64,
    pub final_holdout: Option<f64>,
    pub seconds: f64,
}

impl CompareRow {
    pub fn of(run: &RunData) -> Self {
        CompareRow {
            label: run.label.clone(),
            game: run.game.clone(),
            seed: run.config.seed,
            generations: run.last().generation,
            games: run.games,
            final_train: run.last().train_score,
            final_holdout: run.last().holdout,
            seconds: run.seconds,
        }
    }
}

/// The table as text, for the terminal.
pub fn table(rows: &[CompareRow]) -> String {
    let width = rows.iter().map(|r| r.label.len()).max().unwrap_or(3).max(3);
    let mut text = format!(
        "{:<width$}  {:<11} {:>20} {:>5} {:>8} {:>6} {:>8} {:>8}\n",
        "run", "game", "seed", "gens", "games", "train", "holdout", "time"
    );
    for r in rows {
        text.push_str(&format!(
            "{:<width$}  {:<11} {:>20} {:>5} {:>8} {:>6.1} {:>8} {:>7.1}s\n",
            r.label,
            r.game,
            r.seed,
            r.generations,
            r.games,
            r.final_train,
            r.final_holdout.map_or("-".to_string(), |h| format!("{h:.1}")),
            r.seconds
        ));
    }
    text
}

/// The table as CSV.
pub fn csv(rows: &[CompareRow]) -> String {
    let mut text = String::from("run,game,seed,generations,games,final_train,final_holdout,seconds\n");
    for r in rows {
        text.push_str(&format!(
            "{},{},{},{},{},{:.3},{},{:.2}\n",
            r.label,
            r.game,
            r.seed,
            r.generations,
            r.games,
            r.final_train,
            r.final_holdout.map_or(String::new(), |h| format!("{h:.3}")),
            r.seconds
        ));
    }
    text
}

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
