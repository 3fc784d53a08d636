//! `gridtune report`: a run folder's report.html rebuilt from its files, or
//! several runs compared.

use anyhow::{Context, Result};
use clap::Args;
use gridtune::report::GameInfo;
use gridtune::with_game;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ReportArgs {
    /// Run folders written by `gridtune evolve`.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Compare the runs: their fitness curves overlaid in one plot and one
    /// table, written as an HTML page (see --out), a CSV and the plot.
    #[arg(long)]
    pub compare: bool,
    /// With --compare: the page to write (the plot and CSV go beside it,
    /// named after it); default compare.html in the first run folder's parent.
    #[arg(long, value_name = "FILE", requires = "compare")]
    pub out: Option<PathBuf>,
}

pub fn run(a: &ReportArgs) -> Result<()> {
    if a.compare {
        let out = a.out.clone().unwrap_or_else(|| {
            a.dirs[0]
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .join("compare.html")
        });
        let c = gridtune::report::compare::compare(&a.dirs, &out)?;
        print!("{}", gridtune::report::compare::table(&c.rows));
        println!(
            "wrote {} (plot {} and {}, table {})",
            c.html.display(),
            c.plot.png.display(),
            c.plot.svg.display(),
            c.csv.display()
        );
        return Ok(());
    }
    for dir in &a.dirs {
        let game = gridtune::report::data::game_of(dir)?;
        let written = with_game!(game, G => gridtune::report::write_run_report(dir, &GameInfo::of::<G>()))
            .with_context(|| format!("cannot build the report of {}", dir.display()))?;
        println!(
            "wrote {} ({} bytes, {} plots, each also as PNG and SVG in {})",
            written.html.display(),
            written.bytes,
            written.plots.len(),
            dir.display()
        );
    }
    Ok(())
}
