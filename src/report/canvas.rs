//! What every report plot shares: the embedded font, a palette, and writing
//! one figure as a PNG and an SVG file (each whole or not at all), keeping
//! the SVG text to inline in the page.

use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// A figure that can draw itself on any plotters backend.
pub trait Figure {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static;
}

/// Two figures, the first above the second.
pub struct Stacked<A, B>(pub A, pub B);

impl<A: Figure, B: Figure> Figure for Stacked<A, B> {
    fn size(&self) -> (u32, u32) {
        let ((w0, h0), (w1, h1)) = (self.0.size(), self.1.size());
        (w0.max(w1), h0 + h1)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (upper, lower) = root.split_vertically(self.0.size().1);
        self.0.draw(&upper)?;
        self.1.draw(&lower)
    }
}

/// A figure written to disk.
#[derive(Clone, Debug)]
pub struct Plot {
    /// The file stem: `<stem>.png` and `<stem>.svg`.
    pub stem: String,
    pub png: PathBuf,
    pub svg: PathBuf,
    /// The SVG document, to inline in a page.
    pub svg_text: String,
}

/// Registers the embedded DejaVu Sans as "sans-serif", so plotting needs no
/// system font package.
fn register_embedded_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Fails only if the font bytes are not a font; they are compiled in.
        let _ = plotters::style::register_font(
            "sans-serif",
            plotters::style::FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

/// Turns a plotters error into an error that says plotting failed.
pub fn failed<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plotting failed: {e:?}")
}

/// Writes `figure` as `dir/<stem>.png` and `dir/<stem>.svg`.
pub fn save(figure: &impl Figure, dir: &Path, stem: &str) -> anyhow::Result<Plot> {
    register_embedded_font();
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    // The bitmap backend picks the format from the extension, so the
    // temporary file ends in .png too.
    let tmp = dir.join(format!(".{stem}.tmp{}.png", std::process::id()));
    let drawn = (|| {
        let root = BitMapBackend::new(&tmp, figure.size()).into_drawing_area();
        figure.draw(&root)?;
        root.present().map_err(failed)?;
        drop(root);
        std::fs::rename(&tmp, &png).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", png.display()))
    })();
    if drawn.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    drawn?;
    let mut svg_text = String::new();
    {
        let root = SVGBackend::with_string(&mut svg_text, figure.size()).into_drawing_area();
        figure.draw(&root)?;
        root.present().map_err(failed)?;
    }
    crate::fsutil::write_atomic(&svg, svg_text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", svg.display()))?;
    Ok(Plot {
        stem: stem.to_string(),
        png,
        svg,
        svg_text,
    })
}

/// Distinct colours for series (Tableau 10).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The x axis of a per-generation plot: generations 1..=last, at least two
/// wide so a one-generation run still has an axis.
pub fn generations_axis(last: u32) -> std::ops::Range<u32> {
    1..last.max(2)
}

/// A y range from `lo` to `hi` with a margin, snapped to tens, within 0-100.
pub fn percent_axis(lo: f64, hi: f64, headroom: f64) -> std::ops::Range<f64> {
    let y_min = (((lo - 5.0) / 10.0).floor() * 10.0).clamp(0.0, 90.0);
    let y_max = (((hi + headroom) / 10.0).ceil() * 10.0).clamp(y_min + 10.0, 100.0);
    y_min..y_max
}

/// A filled band between `lower` and `upper` (the same x values).
pub fn band<X: Clone + 'static>(points: &[(X, f64, f64)], colour: RGBColor) -> Polygon<(X, f64)> {
    let mut outline: Vec<(X, f64)> = points.iter().map(|(x, lo, _)| (x.clone(), *lo)).collect();
    outline.extend(points.iter().rev().map(|(x, _, hi)| (x.clone(), *hi)));
    Polygon::new(outline, colour.mix(0.18).filled())
}

/// The minor grid: barely there.
pub const FAINT: RGBColor = RGBColor(248, 248, 248);

/// A chart of something per generation, with the report's margins, fonts
/// and mesh.
pub type GenerationChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordu32, RangedCoordf64>>;

pub fn generation_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    caption: (&str, u32),
    last: u32,
    y_range: std::ops::Range<f64>,
    y_desc: &str,
) -> anyhow::Result<GenerationChart<'a, DB>>
where
    DB::ErrorType: 'static,
{
    let mut chart = ChartBuilder::on(area)
        .caption(caption.0, ("sans-serif", caption.1))
        .margin(14)
        .x_label_area_size(42)
        .y_label_area_size(56)
        .build_cartesian_2d(generations_axis(last), y_range)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc(y_desc)
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 14))
        .light_line_style(FAINT)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(failed)?;
    Ok(chart)
}

/// How the holdout points of a train/holdout pair are marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldoutMarker {
    Triangle,
    HollowCircle,
}

/// One series on the train maps (solid, filled dots) and the same series on
/// the holdout maps (dashed), in one colour.
pub fn train_and_holdout<DB: DrawingBackend>(
    chart: &mut GenerationChart<'_, DB>,
    train: &[(u32, f64)],
    holdout: &[(u32, f64)],
    c: RGBColor,
    marker: HoldoutMarker,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    chart
        .draw_series(LineSeries::new(train.iter().copied(), c.stroke_width(3)))
        .map_err(failed)?;
    chart
        .draw_series(train.iter().map(|&p| Circle::new(p, 4, c.filled())))
        .map_err(failed)?;
    if holdout.is_empty() {
        return Ok(());
    }
    chart
        .draw_series(DashedLineSeries::new(holdout.iter().copied(), 8, 5, c.stroke_width(2)))
        .map_err(failed)?;
    match marker {
        HoldoutMarker::Triangle => chart
            .draw_series(holdout.iter().map(|&p| TriangleMarker::new(p, 5, c.filled())))
            .map(|_| ()),
        HoldoutMarker::HollowCircle => chart
            .draw_series(holdout.iter().map(|&p| Circle::new(p, 4, c.stroke_width(2))))
            .map(|_| ()),
    }
    .map_err(failed)
}

/// How a legend entry's line is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    Solid(u32),
    Dashed(u32),
    /// A line inside a shaded band.
    Banded(u32),
}

/// Legend entries for series drawn by [`train_and_holdout`]: one per
/// series, then what the solid and the dashed lines mean.
pub fn train_holdout_legend(series: impl Iterator<Item = (String, RGBColor)>) -> Vec<(String, RGBColor, Stroke)> {
    let grey = RGBColor(90, 90, 90);
    let mut entries: Vec<(String, RGBColor, Stroke)> = series.map(|(name, c)| (name, c, Stroke::Solid(3))).collect();
    entries.push((String::new(), WHITE, Stroke::Solid(0)));
    entries.push(("train maps".into(), grey, Stroke::Solid(3)));
    entries.push(("holdout maps".into(), grey, Stroke::Dashed(2)));
    entries
}

/// A legend drawn in its own area (beside a chart, so it never hides a
/// line): one row per entry, wrapped names kept short by the callers.
pub fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, RGBColor, Stroke)],
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let text = ("sans-serif", 14).into_font();
    let mut y = 56;
    for (name, c, stroke) in entries {
        match *stroke {
            Stroke::Solid(w) => {
                area.draw(&PathElement::new(vec![(8, y), (38, y)], c.stroke_width(w)))
                    .map_err(failed)?;
            }
            Stroke::Dashed(w) => {
                for x in [8, 20, 32] {
                    area.draw(&PathElement::new(vec![(x, y), (x + 6, y)], c.stroke_width(w)))
                        .map_err(failed)?;
                }
            }
            Stroke::Banded(w) => {
                area.draw(&Rectangle::new([(8, y - 8), (38, y + 8)], c.mix(0.18).filled()))
                    .map_err(failed)?;
                area.draw(&PathElement::new(vec![(8, y), (38, y)], c.stroke_width(w)))
                    .map_err(failed)?;
            }
        }
        area.draw(&Text::new(name.clone(), (46, y - 8), text.clone()))
            .map_err(failed)?;
        y += 26;
    }
    Ok(())
}
