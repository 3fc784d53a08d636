//! A head-to-head match of two bots under an optional SPRT: the runner's
//! pairs added to a [`MatchReport`] in schedule order until the SPRT decides
//! or the schedule ends. `match --sprt`, `evolve --promote` and the evolve
//! run's verdict all play their matches through this one loop.

use super::match_report::MatchReport;
use super::runner::{run_pairs, MatchPlan, Played};
use crate::games::GameKit;
use crate::stats::Sprt;
use std::ops::ControlFlow;
use std::time::Instant;

/// Plays `plan` into `report`: each pair updates the report and the SPRT,
/// then `each_pair` sees it (for replays, reply times or a progress note) and
/// may stop the match. Sets the report's seconds and whether it stopped
/// before its last scheduled game; returns the pairs played.
pub fn play_match<G: GameKit>(
    plan: &MatchPlan<G>,
    report: &mut MatchReport,
    sprt: Option<&Sprt>,
    mut each_pair: impl FnMut(&mut MatchReport, [&Played<G::Move>; 2]) -> ControlFlow<()>,
) -> usize {
    let started = Instant::now();
    let pairs = run_pairs(plan, |first, second| {
        report.add_pair([first, second], sprt);
        if each_pair(report, [first, second]).is_break() || report.decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    report.seconds = started.elapsed().as_secs_f64();
    report.stopped_early = pairs * 2 < plan.schedule.len();
    pairs
}
