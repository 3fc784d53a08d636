//! What each generation cost: games played (train, peers and holdout) and
//! seconds taken, side by side.

use super::canvas::{self, failed, Figure};
use super::data::RunData;
use plotters::coord::Shift;
use plotters::prelude::*;

pub struct EffortFigure {
    title: String,
    last: u32,
    games: Vec<(u32, f64)>,
    seconds: Vec<(u32, f64)>,
}

impl EffortFigure {
    pub fn new(run: &RunData) -> Self {
        EffortFigure {
            title: format!("{}: games and seconds per generation", run.label),
            last: run.last().generation,
            games: run.rows.iter().map(|r| (r.generation, r.games as f64)).collect(),
            seconds: run.rows.iter().map(|r| (r.generation, r.seconds)).collect(),
        }
    }
}

impl Figure for EffortFigure {
    fn size(&self) -> (u32, u32) {
        (900, 340)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(failed)?;
        let root = root.titled(&self.title, ("sans-serif", 20)).map_err(failed)?;
        let (left, right) = root.split_horizontally(450);
        for (area, points, desc, colour) in [
            (&left, &self.games, "games", RGBColor(31, 119, 180)),
            (&right, &self.seconds, "seconds", RGBColor(255, 127, 14)),
        ] {
            let top = points.iter().map(|p| p.1).fold(0.0f64, f64::max).max(1e-9) * 1.15;
            // Bars centred on their generation: the axis runs half a step
            // beyond the first and last.
            let mut chart = ChartBuilder::on(area)
                .margin(12)
                .x_label_area_size(38)
                .y_label_area_size(60)
                .build_cartesian_2d(0.5f64..f64::from(self.last) + 0.5, 0.0..top)
                .map_err(failed)?;
            chart
                .configure_mesh()
                .x_desc("generation")
                .y_desc(desc)
                .axis_desc_style(("sans-serif", 15))
                .label_style(("sans-serif", 13))
                .x_labels(self.last.min(10) as usize + 1)
                .x_label_formatter(&|x| {
                    if (x - x.round()).abs() < 1e-6 && *x >= 1.0 {
                        format!("{x:.0}")
                    } else {
                        String::new()
                    }
                })
                .light_line_style(canvas::FAINT)
                .y_label_formatter(&|y| {
                    if top > 20.0 {
                        format!("{y:.0}")
                    } else {
                        format!("{y:.1}")
                    }
                })
                .draw()
                .map_err(failed)?;
            chart
                .draw_series(points.iter().map(|&(g, v)| {
                    let g = f64::from(g);
                    Rectangle::new([(g - 0.35, 0.0), (g + 0.35, v)], colour.filled())
                }))
                .map_err(failed)?;
        }
        Ok(())
    }
}
