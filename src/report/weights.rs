//! How each weight of the champion moved: one small panel per weight, its
//! y axis the weight's declared range, the declared default dashed.

use super::canvas::{self, failed, generations_axis, Figure};
use super::data::RunData;
use crate::params::ParamSpec;
use plotters::coord::Shift;
use plotters::prelude::*;

pub const COLUMNS: usize = 4;
const PANEL: (u32, u32) = (280, 210);
const HEADER: u32 = 44;

pub struct WeightsFigure {
    title: String,
    last: u32,
    params: Vec<ParamSpec>,
    /// Per weight, the champion's value per generation.
    series: Vec<Vec<(u32, i32)>>,
}

impl WeightsFigure {
    pub fn new(run: &RunData, params: &[ParamSpec]) -> Self {
        let series = (0..params.len())
            .map(|i| {
                run.rows
                    .iter()
                    .filter_map(|r| r.best_weights.get(i).map(|&w| (r.generation, w)))
                    .collect()
            })
            .collect();
        WeightsFigure {
            title: format!(
                "{}: the champion's weights per generation (axis: declared range)",
                run.label
            ),
            last: run.last().generation,
            params: params.to_vec(),
            series,
        }
    }

    fn rows(&self) -> usize {
        self.params.len().div_ceil(COLUMNS).max(1)
    }
}

impl Figure for WeightsFigure {
    fn size(&self) -> (u32, u32) {
        (PANEL.0 * COLUMNS as u32, HEADER + PANEL.1 * self.rows() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(failed)?;
        let (header, body) = root.split_vertically(HEADER);
        header
            .draw(&Text::new(self.title.clone(), (14, 12), ("sans-serif", 19).into_font()))
            .map_err(failed)?;
        let panels = body.split_evenly((self.rows(), COLUMNS));
        let line = RGBColor(31, 119, 180);
        let default = RGBColor(150, 150, 150);
        for ((spec, points), panel) in self.params.iter().zip(&self.series).zip(&panels) {
            let pad = f64::from(spec.step.max(1)) * 0.5;
            let y = f64::from(spec.min) - pad..f64::from(spec.max) + pad;
            let mut chart = ChartBuilder::on(panel)
                .caption(spec.name, ("sans-serif", 15))
                .margin(6)
                .margin_right(14)
                .x_label_area_size(22)
                .y_label_area_size(44)
                .build_cartesian_2d(generations_axis(self.last), y)
                .map_err(failed)?;
            chart
                .configure_mesh()
                .label_style(("sans-serif", 11))
                .x_labels(6)
                .y_labels(5)
                .light_line_style(canvas::FAINT)
                .y_label_formatter(&|y| format!("{y:.0}"))
                .draw()
                .map_err(failed)?;
            chart
                .draw_series(DashedLineSeries::new(
                    [
                        (1, f64::from(spec.default)),
                        (self.last.max(2), f64::from(spec.default)),
                    ],
                    6,
                    4,
                    default.stroke_width(1),
                ))
                .map_err(failed)?;
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|&(g, w)| (g, f64::from(w))),
                    line.stroke_width(2),
                ))
                .map_err(failed)?;
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&(g, w)| Circle::new((g, f64::from(w)), 3, line.filled())),
                )
                .map_err(failed)?;
        }
        Ok(())
    }
}
