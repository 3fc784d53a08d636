//! What `evolve --promote` does before it replaces genomes/<game>/best.ron:
//! the run's recommendation (already confirmed by the GA against the
//! population mean, the tail average, the hall of fame's best and the best
//! offspring, as CLOP and TBPSA recommend) must beat the incumbent head to
//! head under an SPRT: both sides of freshly generated maps, a new map for
//! each pair, since genome bots searching a node budget would replay the
//! same games on a fixed map set.

use super::{opponents, EvolveConfig, RunSummary};
use crate::arena::match_report::MatchReport;
use crate::arena::{generated_maps, paired_schedule, runner};
use crate::bots::BotSpec;
use crate::game::mix64;
use crate::games::GameKit;
use crate::search::Limits;
use crate::stats::{Sprt, SprtStatus};
use std::ops::ControlFlow;

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
    let limits = Limits::nodes(config.nodes);
    let judges = opponents::<G>(config)?;
    let fresh = generated_maps::<G>(max_games / 2, mix64(config.seed ^ 0x5e27));
    let genome = |label: &str, weights: &[i32]| BotSpec::Genome {
        label: label.to_string(),
        weights: weights.to_vec(),
        limits,
    };
    let candidate = genome(&summary.recommended, &summary.champion.weights);
    let incumbent = genome("incumbent", incumbent);
    // At a larger table the two meet with judges in the other seats.
    let fillers: Vec<BotSpec> = judges.iter().take(G::PLAYERS - 2).cloned().collect();
    anyhow::ensure!(
        fillers.len() == G::PLAYERS - 2,
        "a head-to-head {} table needs {} judges beside the two genomes",
        G::NAME,
        G::PLAYERS - 2
    );
    let schedule = paired_schedule(fresh.len(), max_games / 2, mix64(config.seed ^ 0x5e28));
    let concurrency = rayon::current_num_threads();
    let mut test = MatchReport::new(
        G::NAME,
        [candidate.label(), incumbent.label()],
        format!("{} generated maps", fresh.len()),
        concurrency,
    );
    let started = std::time::Instant::now();
    let plan = runner::MatchPlan::<G> {
        maps: &fresh,
        a: &candidate,
        b: &incumbent,
        fillers: &fillers,
        schedule: &schedule,
        concurrency,
        log: false,
    };
    let pairs = runner::run_pairs(&plan, |a, b| {
        test.add_pair([a, b], Some(sprt));
        if test.decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    test.seconds = started.elapsed().as_secs_f64();
    test.stopped_early = pairs * 2 < schedule.len();
    let promote = test.sprt.is_some_and(|s| s.report.status == SprtStatus::AcceptH1);
    Ok(Promotion { test, promote })
}
