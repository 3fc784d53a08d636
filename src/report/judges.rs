//! The champion's rate against each judge over generations: train maps as
//! solid lines, holdout maps dashed, one colour per judge.

use super::canvas::{self, colour, failed, Figure, HoldoutMarker};
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
        let mut chart = canvas::generation_chart(
            &area,
            (&self.title, 20),
            self.last,
            -2.0f64..102.0,
            "rate: wins + draws/2 (%)",
        )?;
        for (j, (_, train, holdout)) in self.judges.iter().enumerate() {
            canvas::train_and_holdout(&mut chart, train, holdout, colour(j), HoldoutMarker::HollowCircle)?;
        }
        // The legend beside the plot: a judge per row, then the line styles.
        let names = self
            .judges
            .iter()
            .enumerate()
            .map(|(j, (name, ..))| (name.clone(), colour(j)));
        canvas::legend(&legend, &canvas::train_holdout_legend(names))?;
        Ok(())
    }
}
