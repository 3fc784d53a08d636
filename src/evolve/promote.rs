//! What `evolve --promote` does before it replaces genomes/<game>/best.ron:
//! the run's recommendation (already confirmed by the GA against the
//! population mean, the tail average, the hall of fame's best and the best
//! offspring, as CLOP and TBPSA recommend) must beat the incumbent head to
//! head (in a game of more seats, against the field: `genome_match`) under
//! an SPRT: both sides of freshly generated maps, a new map for
//! each pair, since genome bots searching a node budget would replay the
//! same games on a fixed map set.

use super::genome_match::genome_match;
pub use super::genome_match::incumbent_path;
use super::{EvolveConfig, RunSummary};
use crate::arena::generated_maps;
use crate::arena::match_report::MatchReport;
use crate::bots::BotSpec;
use crate::game::mix64;
use crate::games::GameKit;
use crate::genome::Genome;
use crate::stats::{Sprt, SprtStatus};
use anyhow::Context;
use std::path::Path;

/// Checks `--promote`'s inputs before the run: the test's game budget, and
/// the incumbent the run must beat, so that a broken one is found now and
/// not after the whole run.
pub fn check_inputs<G: GameKit>(promote: bool, max_games: usize) -> anyhow::Result<()> {
    if max_games < 2 {
        crate::bail_input!("--promote-games must be at least 2");
    }
    let incumbent = incumbent_path::<G>();
    if promote && incumbent.exists() {
        Genome::load(&incumbent, G::NAME, G::PARAMS)?;
    }
    Ok(())
}

/// Writes `weights` to `dest` as the promoted genome, its comment naming the
/// run's seed and `why` it was promoted.
pub fn save<G: GameKit>(dest: &Path, weights: &[i32], seed: u64, why: &str) -> anyhow::Result<()> {
    let comment = format!("{} genome promoted by gridtune evolve (seed {seed}): {why}", G::NAME);
    Genome {
        weights: weights.to_vec(),
    }
    .save(dest, G::NAME, G::PARAMS, &comment)
    .with_context(|| format!("cannot write {}", dest.display()))
}

/// The outcome of the promotion test.
#[derive(Clone, Debug)]
pub struct Promotion {
    /// The head-to-head match against the incumbent, SPRT included.
    pub test: MatchReport,
    /// Whether the SPRT accepted that the recommendation is stronger.
    pub promote: bool,
}

/// Plays the run's recommendation against `incumbent`'s weights until the
/// SPRT decides or `max_games` are played.
pub fn test<G: GameKit>(
    config: &EvolveConfig,
    summary: &RunSummary,
    incumbent: &[i32],
    sprt: &Sprt,
    max_games: usize,
) -> anyhow::Result<Promotion> {
    let limits = config.limits::<G>();
    let fresh = generated_maps::<G>(max_games / 2, mix64(config.seed ^ 0x5e27));
    let genome = |label: &str, weights: &[i32]| BotSpec::Genome {
        label: label.to_string(),
        weights: weights.to_vec(),
        limits,
    };
    let candidate = genome(&summary.recommended, &summary.champion.weights);
    let incumbent = genome("incumbent", incumbent);
    let games = (max_games, mix64(config.seed ^ 0x5e28));
    let test = genome_match::<G>(config, [&candidate, &incumbent], &fresh, games, Some(sprt), |_| {})?;
    let promote = test.sprt.is_some_and(|s| s.report.status == SprtStatus::AcceptH1);
    Ok(Promotion { test, promote })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::isolation::Isolation;
    use crate::games::prelude::*;

    #[test]
    fn a_saved_promotion_loads_back_and_says_why() {
        let dir = std::env::temp_dir().join(format!("gridtune-promote-{}", std::process::id()));
        let dest = dir.join("genomes").join("best.ron");
        // Off the defaults (each weight's minimum is on its step grid).
        let weights: Vec<i32> = Isolation::PARAMS.iter().map(|p| p.min).collect();
        save::<Isolation>(&dest, &weights, 77, "the first champion").expect("saved");
        let text = std::fs::read_to_string(&dest).expect("written");
        let loaded = Genome::load(&dest, "isolation", Isolation::PARAMS).expect("a valid genome");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(loaded.weights, weights);
        assert!(
            text.contains("isolation genome promoted by gridtune evolve (seed 77): the first champion"),
            "{text}"
        );
    }

    #[test]
    fn a_promotion_test_of_fewer_than_two_games_is_bad_input() {
        let e = check_inputs::<Isolation>(false, 1).expect_err("one game");
        assert_eq!(crate::error::exit_code(&e), 2);
        assert_eq!(format!("{e:#}"), "--promote-games must be at least 2");
    }
}
