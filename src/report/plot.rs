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

/// Draws best, mean and median fitness per generation, and the champion's
/// contest score on the train maps beside its score on the holdout maps, to
/// `png` and `svg`, each written whole or not at all.
pub fn fitness_plot(history: &[GenerationStats], title: &str, png: &Path, svg: &Path) -> anyhow::Result<()> {
    register_embedded_font();
    let tmp_png = png.with_file_name(format!(".{}.tmp.png", std::process::id()));
    {
        let root = BitMapBackend::new(&tmp_png, (900, 540)).into_drawing_area();
        draw(root, history, title)?;
    }
    std::fs::rename(&tmp_png, png)?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (900, 540)).into_drawing_area();
        draw(root, history, title)?;
    }
    crate::fsutil::write_atomic(svg, text.as_bytes())?;
    Ok(())
}

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
    let last = history.last().map_or(1, |s| s.generation).max(2);
    let lowest = history
        .iter()
        .map(|s| s.mean.min(s.median).min(s.train_score).min(s.holdout.unwrap_or(100.0)))
        .fold(100.0f64, f64::min);
    let highest = history
        .iter()
        .map(|s| s.best.max(s.train_score).max(s.holdout.unwrap_or(0.0)))
        .fold(0.0f64, f64::max);
    // A margin below the lowest line, and headroom above the best for the legend.
    let y_min = (((lowest - 5.0) / 10.0).floor() * 10.0).max(0.0);
    let y_max = (((highest + 15.0) / 10.0).ceil() * 10.0).min(100.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 26))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(1u32..last, y_min..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc("fitness (0-100)")
        .axis_desc_style(("sans-serif", 18))
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(err)?;
    type Series = (&'static str, RGBColor, fn(&GenerationStats) -> Option<f64>);
    let series: [Series; 5] = [
        ("best", RGBColor(200, 40, 40), |s| Some(s.best)),
        ("mean", RGBColor(40, 90, 200), |s| Some(s.mean)),
        ("median", RGBColor(40, 150, 60), |s| Some(s.median)),
        ("champion, train maps", RGBColor(150, 150, 150), |s| Some(s.train_score)),
        ("champion, holdout maps", RGBColor(20, 20, 20), |s| s.holdout),
    ];
    for (name, color, value) in series {
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
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}
