//! Fitness plots with plotters, as PNG and SVG. The font is embedded
//! (DejaVu Sans), so plotting needs no system font package.

use crate::evolve::GenerationStats;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::path::Path;
use std::sync::Once;

pub(crate) fn register_embedded_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Fails only if the font bytes are not a font; they are compiled in.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
    });
}

/// Draws the run's two views, one above the other: the champion's contest
/// score on the train maps beside its score on the holdout maps (0-100), and
/// the generation's ratings in Elo against the start genome (the best, mean
/// and median of the genomes tied to it by games, and the champion with its 95%
/// band). Written to `png` and `svg`, each whole or not at all.
pub fn fitness_plot(history: &[GenerationStats], title: &str, png: &Path, svg: &Path) -> anyhow::Result<()> {
    register_embedded_font();
    let tmp_png = png.with_file_name(format!(".{}.tmp.png", std::process::id()));
    {
        let root = BitMapBackend::new(&tmp_png, (900, 800)).into_drawing_area();
        draw(root, history, title)?;
    }
    std::fs::rename(&tmp_png, png)?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (900, 800)).into_drawing_area();
        draw(root, history, title)?;
    }
    crate::fsutil::write_atomic(svg, text.as_bytes())?;
    Ok(())
}

type Series = (&'static str, RGBColor, fn(&GenerationStats) -> Option<f64>);

/// The low and high edge of a band around a series.
type Band = fn(&GenerationStats) -> (f64, f64);

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    history: &[GenerationStats],
    title: &str,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("plotting failed: {e:?}");
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 26)).map_err(err)?;
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
    root.present().map_err(err)?;
    Ok(())
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    history: &[GenerationStats],
    series: &[Series],
    band: Option<Band>,
    y_desc: &str,
    y_range: std::ops::Range<f64>,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("plotting failed: {e:?}");
    let first = history.first().map_or(0, |s| s.generation);
    let last = history.last().map_or(1, |s| s.generation).max(first + 1);
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(first..last, y_range)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc(y_desc)
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(err)?;
    if let Some(band) = band {
        let upper: Vec<(u32, f64)> = history.iter().map(|s| (s.generation, band(s).1)).collect();
        let lower: Vec<(u32, f64)> = history.iter().rev().map(|s| (s.generation, band(s).0)).collect();
        let outline: Vec<(u32, f64)> = upper.into_iter().chain(lower).filter(|p| p.1.is_finite()).collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                RGBColor(20, 20, 20).mix(0.15).filled(),
            )))
            .map_err(err)?;
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
            .map_err(err)?
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
        .map_err(err)?;
    Ok(())
}
