//! `evolve --promote`: the recommendation must beat the incumbent best.ron
//! under an SPRT before it replaces it.

use anyhow::Result;
use gridtune::evolve::{promote, EvolveConfig, RunSummary};
use gridtune::games::GameKit;
use gridtune::genome::Genome;
use gridtune::stats::Sprt;
use std::path::Path;

pub fn run<G: GameKit>(sprt: &Sprt, max_games: usize, config: &EvolveConfig, summary: &RunSummary) -> Result<()> {
    let dest = promote::incumbent_path::<G>();
    if !dest.exists() {
        println!("{} does not exist: nothing to test against", dest.display());
        return save::<G>(&dest, config, summary, "the first champion");
    }
    let incumbent = Genome::load(&dest, G::NAME, G::PARAMS)?;
    println!("promotion test: an SPRT against {}", dest.display());
    let p = promote::test::<G>(config, summary, &incumbent.weights, sprt, max_games)?;
    print!("{}", p.test.table());
    if p.promote {
        let why = format!("the {} passed its SPRT against the incumbent", summary.recommended);
        save::<G>(&dest, config, summary, &why)
    } else {
        println!(
            "kept {}: the {} did not pass the SPRT ({} games)",
            dest.display(),
            summary.recommended,
            p.test.games
        );
        Ok(())
    }
}

fn save<G: GameKit>(dest: &Path, config: &EvolveConfig, summary: &RunSummary, why: &str) -> Result<()> {
    promote::save::<G>(dest, &summary.champion.weights, config.seed, why)?;
    println!(
        "promoted to {}; run `gridtune freeze --game {}` to build it in",
        dest.display(),
        G::NAME
    );
    Ok(())
}
