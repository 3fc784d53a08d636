//! The run folder's `fitness.png` and `fitness.svg`: the champion's contest
//! scores and the generation's ratings, one panel above the other.

use super::canvas::{failed, Figure};
use crate::evolve::GenerationStats;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The run's two views, one above the other: the champion's contest score on
/// the train maps beside its score on the holdout maps (0-100), and the
/// generation's ratings in Elo against the start genome (the best, mean and
/// median of the genomes tied to it by games, and the champion with its 95%
/// band). Written with [`super::canvas::save`].
pub struct FitnessPlot<'a> {
    pub history: &'a [GenerationStats],
    pub title: String,
}

impl Figure for FitnessPlot<'_> {
    fn size(&self) -> (u32, u32) {
        (900, 800)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        draw(root, self.history, &self.title)
    }
}

type Series = (&'static str, RGBColor, fn(&GenerationStats) -> Option<f64>);

/// The low and high edge of a band around a series.
type Band = fn(&GenerationStats) -> (f64, f64);

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    history: &[GenerationStats],
    title: &str,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(failed)?;
    let root = root.titled(title, ("sans-serif", 26)).map_err(failed)?;
    let (upper, lower) = root.split_vertically(380);
    let scores: [Series; 2] = [
        ("champion, train maps", RGBColor(150, 150, 150), |s| Some(s.train_score)),
        ("champion, holdout maps", RGBColor(20, 20, 20), |s| s.holdout),
    ];
    let values = |f: fn(&GenerationStats) -> Option<f64>| history.iter().filter_map(f).collect::<Vec<f64>>();
    let lowest = values(|s| Some(s.train_score))
        .into_iter()
        .chain(values(|s| s.holdout))
        .fold(100.0f64, f64::min);
    // A margin below the lowest line, and headroom for the legend.
    let y_min = (((lowest - 5.0) / 10.0).floor() * 10.0).max(0.0);
    panel(&upper, history, &scores, None, "contest score (0-100)", y_min..100.0)?;

    let elo: [Series; 4] = [
        ("best rated", RGBColor(200, 40, 40), |s| Some(s.best)),
        ("mean of rated", RGBColor(40, 90, 200), |s| Some(s.mean)),
        ("median of rated", RGBColor(40, 150, 60), |s| Some(s.median)),
        ("champion (95% band)", RGBColor(20, 20, 20), |s| Some(s.champion_elo)),
    ];
    let band = |s: &GenerationStats| {
        (
            s.champion_elo - 1.96 * s.champion_se,
            s.champion_elo + 1.96 * s.champion_se,
        )
    };
    let finite = |v: &f64| v.is_finite();
    let all: Vec<f64> = history
        .iter()
        .flat_map(|s| [s.best, s.mean, s.median, band(s).0, band(s).1])
        .filter(finite)
        .collect();
    let lo = all.iter().copied().fold(0.0f64, f64::min);
    let hi = all.iter().copied().fold(0.0f64, f64::max);
    let pad = ((hi - lo) * 0.25).max(10.0);
    panel(
        &lower,
        history,
        &elo,
        Some(band),
        "Elo vs the start genome",
        (lo - 0.1 * pad)..(hi + pad),
    )?;
    Ok(())
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    history: &[GenerationStats],
    series: &[Series],
    band: Option<Band>,
    y_desc: &str,
    y_range: std::ops::Range<f64>,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let first = history.first().map_or(0, |s| s.generation);
    let last = history.last().map_or(1, |s| s.generation).max(first + 1);
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(first..last, y_range)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc(y_desc)
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(failed)?;
    if let Some(band) = band {
        let upper: Vec<(u32, f64)> = history.iter().map(|s| (s.generation, band(s).1)).collect();
        let lower: Vec<(u32, f64)> = history.iter().rev().map(|s| (s.generation, band(s).0)).collect();
        let outline: Vec<(u32, f64)> = upper.into_iter().chain(lower).filter(|p| p.1.is_finite()).collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                RGBColor(20, 20, 20).mix(0.15).filled(),
            )))
            .map_err(failed)?;
    }
    for &(name, color, value) in series {
        if history.iter().all(|s| value(s).is_none()) {
            continue;
        }
        chart
            .draw_series(LineSeries::new(
                history.iter().filter_map(|s| value(s).map(|v| (s.generation, v))),
                color.stroke_width(3),
            ))
            .map_err(failed)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3)));
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(failed)?;
    Ok(())
}
