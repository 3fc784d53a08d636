//! The tuner's ratings over generations (Elo against the start genome: the
//! best-rated genome, the offspring's mean and median, and the champion with
//! its 95% band), and the champion's train score beside its holdout score,
//! each with its band. The run report draws them, and the evolution loop
//! writes them as the run folder's `fitness.png`.
//!
//! The figures read plain [`FitnessPoint`]s, not the run's history type, so
//! that the evolution loop can draw them without this module depending on it.

use super::canvas::{self, band, failed, percent_axis, Figure, Stacked, Stroke};
use crate::stats::distributions::Z95;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the fitness figures draw of one evaluated generation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitnessPoint {
    pub generation: u32,
    /// The best, mean and median rating of the genomes tied to the start
    /// genome by games, in Elo against it.
    pub best: f64,
    pub mean: f64,
    pub median: f64,
    pub champion_elo: f64,
    /// The champion rating's standard error (not finite when unknown).
    pub champion_se: f64,
    /// The champion's contest scores (0-100) on the train and holdout maps.
    pub train_score: f64,
    pub holdout: Option<f64>,
}

/// A band per generation: `(generation, low, high)`.
pub type BandPoints = Vec<(u32, f64, f64)>;

/// A line to draw: its name, colour, width and points.
struct Line {
    name: String,
    colour: RGBColor,
    width: u32,
    /// Drawn over a band of the same colour.
    banded: bool,
    points: Vec<(u32, f64)>,
}

/// A band to shade under the lines.
struct Band {
    colour: RGBColor,
    points: Vec<(u32, f64, f64)>,
}

/// Per-generation lines and bands, on a 0-100 axis or one fitted to them.
pub struct LinesFigure {
    title: String,
    y_desc: String,
    percent: bool,
    last: u32,
    lines: Vec<Line>,
    bands: Vec<Band>,
}

const BEST: RGBColor = RGBColor(200, 40, 40);
const MEAN: RGBColor = RGBColor(40, 90, 200);
const MEDIAN: RGBColor = RGBColor(40, 150, 60);
const TRAIN: RGBColor = RGBColor(230, 140, 20);
const HOLDOUT: RGBColor = RGBColor(30, 30, 30);

fn line(
    name: &str,
    colour: RGBColor,
    width: u32,
    rows: &[FitnessPoint],
    value: impl Fn(&FitnessPoint) -> Option<f64>,
) -> Line {
    Line {
        name: name.to_string(),
        colour,
        width,
        banded: false,
        points: rows
            .iter()
            .filter_map(|r| value(r).map(|v| (r.generation, v)))
            .collect(),
    }
}

/// The run folder's `fitness.png`: the champion's train and holdout scores
/// above the ratings, as the report draws them. The scores have no band: the
/// evolution loop draws this from its history alone.
pub fn run_folder_figure(label: &str, rows: &[FitnessPoint]) -> Stacked<LinesFigure, LinesFigure> {
    Stacked(
        LinesFigure::train_vs_holdout(label, rows, Vec::new(), Vec::new()),
        LinesFigure::fitness(label, rows),
    )
}

/// The x axis ends at the last generation drawn.
fn last_generation(rows: &[FitnessPoint]) -> u32 {
    rows.last().map_or(1, |r| r.generation)
}

impl LinesFigure {
    /// The generation's rating fit: the best, mean and median of the genomes
    /// tied to the start genome by games, and the champion with its 95% band
    /// ([`Z95`] standard errors of its rating). `label` names the run in the
    /// title.
    pub fn fitness(label: &str, rows: &[FitnessPoint]) -> Self {
        LinesFigure {
            title: format!("{label}: ratings over generations"),
            y_desc: "Elo vs the start genome".into(),
            percent: false,
            last: last_generation(rows),
            lines: vec![
                line("best rated", BEST, 3, rows, |r| Some(r.best)),
                line("mean of rated", MEAN, 2, rows, |r| Some(r.mean)),
                line("median of rated", MEDIAN, 2, rows, |r| Some(r.median)),
                Line {
                    banded: true,
                    ..line("champion", TRAIN, 3, rows, |r| Some(r.champion_elo))
                },
            ],
            bands: vec![Band {
                colour: TRAIN,
                points: rows
                    .iter()
                    .filter(|r| r.champion_se.is_finite())
                    .map(|r| {
                        let half = Z95 * r.champion_se;
                        (r.generation, r.champion_elo - half, r.champion_elo + half)
                    })
                    .collect(),
            }],
        }
    }

    /// The champion's contest score on the train maps beside the holdout maps,
    /// each over its 95% band where one is known (empty otherwise: the band
    /// needs the games played per judge, which the scores alone do not hold).
    pub fn train_vs_holdout(label: &str, rows: &[FitnessPoint], train: BandPoints, holdout: BandPoints) -> Self {
        LinesFigure {
            title: format!("{label}: champion on train and holdout maps"),
            y_desc: "contest score vs judges (0-100)".into(),
            percent: true,
            last: last_generation(rows),
            lines: vec![
                Line {
                    banded: !train.is_empty(),
                    ..line("train maps", TRAIN, 3, rows, |r| Some(r.train_score))
                },
                Line {
                    banded: !holdout.is_empty(),
                    ..line("holdout maps", HOLDOUT, 3, rows, |r| r.holdout)
                },
            ],
            bands: vec![
                Band {
                    colour: TRAIN,
                    points: train,
                },
                Band {
                    colour: HOLDOUT,
                    points: holdout,
                },
            ],
        }
    }
}

impl Figure for LinesFigure {
    fn size(&self) -> (u32, u32) {
        (900, 500)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(failed)?;
        let values = self
            .lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .chain(self.bands.iter().flat_map(|b| b.points.iter().flat_map(|p| [p.1, p.2])));
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let y_range = if self.percent {
            percent_axis(lo.min(100.0), hi.max(0.0), 5.0)
        } else if lo.is_finite() {
            let pad = ((hi - lo) * 0.1).max(5.0);
            (lo - pad)..(hi + pad)
        } else {
            -10.0..10.0
        };
        let (area, legend) = root.split_horizontally(700);
        let mut chart = canvas::generation_chart(&area, (&self.title, 22), self.last, y_range, &self.y_desc)?;
        for b in &self.bands {
            if b.points.len() > 1 {
                chart
                    .draw_series(std::iter::once(band(&b.points, b.colour)))
                    .map_err(failed)?;
            }
            // Whiskers, so a band of one generation still shows.
            chart
                .draw_series(
                    b.points.iter().map(|&(x, lo, hi)| {
                        PathElement::new(vec![(x, lo), (x, hi)], b.colour.mix(0.5).stroke_width(1))
                    }),
                )
                .map_err(failed)?;
        }
        for l in &self.lines {
            if l.points.is_empty() {
                continue;
            }
            let (colour, width) = (l.colour, l.width);
            chart
                .draw_series(LineSeries::new(l.points.iter().copied(), colour.stroke_width(width)))
                .map_err(failed)?;
            chart
                .draw_series(l.points.iter().map(|&p| Circle::new(p, width + 1, colour.filled())))
                .map_err(failed)?;
        }
        let mut entries: Vec<(String, RGBColor, Stroke)> = self
            .lines
            .iter()
            .filter(|l| !l.points.is_empty())
            .map(|l| {
                let stroke = if l.banded {
                    Stroke::Banded(l.width)
                } else {
                    Stroke::Solid(l.width)
                };
                (l.name.clone(), l.colour, stroke)
            })
            .collect();
        if self.lines.iter().any(|l| l.banded) {
            entries.push((String::new(), WHITE, Stroke::Solid(0)));
            entries.push((
                "shaded: 95% interval".into(),
                RGBColor(120, 120, 120),
                Stroke::Banded(0),
            ));
        }
        canvas::legend(&legend, &entries)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(generation: u32, holdout: Option<f64>) -> FitnessPoint {
        FitnessPoint {
            generation,
            best: 40.0,
            mean: 10.0,
            median: 12.0,
            champion_elo: 30.0,
            champion_se: 20.0,
            train_score: 75.0,
            holdout,
        }
    }

    #[test]
    fn the_champion_band_spans_z95_standard_errors() {
        let figure = LinesFigure::fitness("run", &[point(2, None), point(4, Some(70.0))]);
        let band = &figure.bands[0].points;
        assert_eq!(band.len(), 2);
        assert_eq!(band[1], (4, 30.0 - Z95 * 20.0, 30.0 + Z95 * 20.0));
        assert_eq!(figure.last, 4);
        assert_eq!(figure.title, "run: ratings over generations");
    }

    #[test]
    fn score_lines_are_banded_only_where_a_band_is_known() {
        let rows = [point(2, Some(70.0)), point(4, None)];
        let figure = LinesFigure::train_vs_holdout("run", &rows, vec![(2, 60.0, 85.0)], Vec::new());
        let banded: Vec<bool> = figure.lines.iter().map(|l| l.banded).collect();
        assert_eq!(banded, [true, false]);
        // The holdout line has a point only where the holdout was played.
        assert_eq!(figure.lines[1].points, vec![(2, 70.0)]);
    }

    #[test]
    fn the_run_folder_figure_stacks_the_report_figures() {
        let rows = [point(2, Some(70.0)), point(4, Some(72.0))];
        let figure = run_folder_figure("isolation evolution, seed 7", &rows);
        assert_eq!(figure.size(), (900, 1000));
        let dir = std::env::temp_dir().join(format!("gridtune-fitness-figure-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plot = canvas::save(&figure, &dir, "fitness");
        let _ = std::fs::remove_dir_all(&dir);
        let svg = plot.unwrap().svg_text;
        assert!(svg.contains("isolation evolution, seed 7: champion on train and holdout maps"));
        assert!(svg.contains("isolation evolution, seed 7: ratings over generations"));
        // Only the ratings have a band: the scores' needs the games per judge.
        assert_eq!(svg.matches("shaded: 95% interval").count(), 1);
    }
}
