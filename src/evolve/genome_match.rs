//! Two genomes matched, as `--promote`, the run's verdict and a sweep's
//! round robin play them: freshly generated maps, a new map for each pair
//! (genome bots searching a node budget would replay the same games on a
//! fixed map set), under an SPRT. Two-seat games meet head to head, both
//! sides of each map. At a table for more than two, each genome plays the
//! same tables of the config's judges in turn, and the one that holds more
//! wins (`arena::field`): the contest ranks a four-seat game by what a bot
//! holds against the whole field, not by whether it beats one rival.

use super::{opponents, EvolveConfig};
use crate::arena::field::{match_schedule, FieldPlan};
use crate::arena::head_to_head::play_match;
use crate::arena::match_report::MatchReport;
use crate::arena::runner;
use crate::bots::BotSpec;
use crate::games::GameKit;
use crate::stats::Sprt;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// The promoted genome, in the working folder: what `--promote` replaces
/// and the verdict plays.
pub fn incumbent_path<G: GameKit>() -> PathBuf {
    PathBuf::from(format!("genomes/{}/best.ron", G::NAME))
}

/// A match of `a` against `b` on `maps`, pair `i` on map `i` (cycling),
/// with `schedule_seed` seeding the games; stops when `sprt` (if any)
/// decides or after `max_games`. `each_pair` sees the report after every pair.
pub fn genome_match<G: GameKit>(
    config: &EvolveConfig,
    [a, b]: [&BotSpec; 2],
    maps: &[G::Map],
    (max_games, schedule_seed): (usize, u64),
    sprt: Option<&Sprt>,
    mut each_pair: impl FnMut(&MatchReport),
) -> anyhow::Result<MatchReport> {
    anyhow::ensure!(!maps.is_empty(), "a match of two genomes needs at least one map");
    let (fillers, field) = if G::PLAYERS > 2 {
        let judges = opponents::<G>(config)?;
        let Some(field) = FieldPlan::new(judges.len(), G::PLAYERS) else {
            anyhow::bail!(
                "a {} table needs {} judges beside each genome, and the config has {}",
                G::NAME,
                G::PLAYERS - 1,
                judges.len()
            );
        };
        (judges, Some(field))
    } else {
        (Vec::new(), None)
    };
    let schedule = match_schedule(field.as_ref(), maps.len(), max_games, G::PLAYERS, schedule_seed);
    let concurrency = rayon::current_num_threads();
    let mut report = MatchReport::new(
        G::NAME,
        [a.label(), b.label()],
        format!("{} generated maps", maps.len()),
        concurrency,
    );
    let plan = runner::MatchPlan::<G> {
        maps,
        a,
        b,
        fillers: &fillers,
        field: field.as_ref(),
        schedule: &schedule,
        concurrency,
        log: false,
    };
    play_match(&plan, &mut report, sprt, |report, _| {
        each_pair(report);
        ControlFlow::Continue(())
    });
    Ok(report)
}
