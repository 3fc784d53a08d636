//! Two genomes head to head, as `--promote` and the run's verdict play them:
//! both sides of freshly generated maps, a new map for each pair (genome
//! bots searching a node budget would replay the same games on a fixed map
//! set), under an SPRT. At a table for more than two, the config's first
//! judges fill the other seats, and a game is won by the genome that took
//! more of the board.

use super::{opponents, EvolveConfig};
use crate::arena::head_to_head::play_match;
use crate::arena::match_report::MatchReport;
use crate::arena::{paired_schedule, runner};
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
    let judges = opponents::<G>(config)?;
    let fillers: Vec<BotSpec> = judges.iter().take(G::PLAYERS - 2).cloned().collect();
    anyhow::ensure!(
        fillers.len() == G::PLAYERS - 2,
        "a head-to-head {} table needs {} judges beside the two genomes",
        G::NAME,
        G::PLAYERS - 2
    );
    anyhow::ensure!(!maps.is_empty(), "a head-to-head match needs at least one map");
    let schedule = paired_schedule(maps.len(), max_games / 2, schedule_seed);
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
