//! The champion's rate against each judge over generations: train maps as
//! solid lines, holdout maps dashed, one colour per judge.

use super::canvas::{self, colour, failed, generations_axis, Figure};
use super::data::RunData;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Points (generation, percent).
type Points = Vec<(u32, f64)>;

pub struct JudgesFigure {
    title: String,
    last: u32,
    /// Per judge: name, train points and holdout points (percent).
    judges: Vec<(String, Points, Points)>,
}

impl JudgesFigure {
    pub fn new(run: &RunData) -> Self {
        let judges = run
            .judge_names()
            .into_iter()
            .enumerate()
            .map(|(j, name)| {
                let pick = |rates: fn(&crate::evolve::GenerationStats) -> &Vec<f64>| -> Points {
                    run.rows
                        .iter()
                        .filter_map(|r| rates(r).get(j).map(|v| (r.generation, 100.0 * v)))
                        .collect()
                };
                (name, pick(|r| &r.judge_rates), pick(|r| &r.holdout_rates))
            })
            .collect();
        JudgesFigure {
            title: format!("{}: champion's win rate against each judge", run.label),
            last: run.last().generation,
            judges,
        }
    }
}

impl Figure for JudgesFigure {
    fn size(&self) -> (u32, u32) {
        (900, 500)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(failed)?;
        let (area, legend) = root.split_horizontally(700);
        let mut chart = ChartBuilder::on(&area)
            .caption(&self.title, ("sans-serif", 20))
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(56)
            .build_cartesian_2d(generations_axis(self.last), -2.0f64..102.0)
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc("rate: wins + draws/2 (%)")
            .axis_desc_style(("sans-serif", 16))
            .label_style(("sans-serif", 14))
            .light_line_style(canvas::FAINT)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(failed)?;
        for (j, (_, train, holdout)) in self.judges.iter().enumerate() {
            let c = colour(j);
            chart
                .draw_series(LineSeries::new(train.iter().copied(), c.stroke_width(3)))
                .map_err(failed)?;
            chart
                .draw_series(train.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(failed)?;
            if !holdout.is_empty() {
                chart
                    .draw_series(DashedLineSeries::new(holdout.iter().copied(), 8, 5, c.stroke_width(2)))
                    .map_err(failed)?;
                chart
                    .draw_series(holdout.iter().map(|&p| Circle::new(p, 4, c.stroke_width(2))))
                    .map_err(failed)?;
            }
        }
        // The legend beside the plot: a judge per row, then the line styles.
        let text = ("sans-serif", 15).into_font();
        let mut y = 60;
        for (j, (name, _, _)) in self.judges.iter().enumerate() {
            let c = colour(j);
            legend
                .draw(&PathElement::new(vec![(10, y), (40, y)], c.stroke_width(3)))
                .map_err(failed)?;
            legend.draw(&Circle::new((25, y), 4, c.filled())).map_err(failed)?;
            legend
                .draw(&Text::new(name.clone(), (50, y - 8), text.clone()))
                .map_err(failed)?;
            y += 26;
        }
        y += 14;
        let grey = RGBColor(90, 90, 90);
        legend
            .draw(&PathElement::new(vec![(10, y), (40, y)], grey.stroke_width(3)))
            .map_err(failed)?;
        legend
            .draw(&Text::new("train maps", (50, y - 8), text.clone()))
            .map_err(failed)?;
        y += 26;
        for x in [10, 23, 36] {
            legend
                .draw(&PathElement::new(vec![(x, y), (x + 6, y)], grey.stroke_width(2)))
                .map_err(failed)?;
        }
        legend
            .draw(&Text::new("holdout maps", (50, y - 8), text))
            .map_err(failed)?;
        Ok(())
    }
}
