//! A match of two bots under an optional SPRT, head to head or against the
//! field ([`super::field`]): the runner's pairs added to a [`MatchReport`]
//! in schedule order until the SPRT decides or the schedule ends. `match
//! --sprt`, `evolve --promote` and the evolve run's verdict all play their
//! matches through this one loop.

use super::executor::Executor;
use super::match_report::MatchReport;
use super::runner::{run_pairs, run_pairs_on, MatchPlan, Played};
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
    each_pair: impl FnMut(&mut MatchReport, [&Played<G::Move>; 2]) -> ControlFlow<()>,
) -> usize {
    play_match_on(None, plan, report, sprt, each_pair)
}

/// [`play_match`], its games played by `remote` (workers, `window` games at
/// a time) when given; the same pairs in the same order either way.
pub fn play_match_on<G: GameKit>(
    remote: Option<(&dyn Executor<G>, usize)>,
    plan: &MatchPlan<G>,
    report: &mut MatchReport,
    sprt: Option<&Sprt>,
    mut each_pair: impl FnMut(&mut MatchReport, [&Played<G::Move>; 2]) -> ControlFlow<()>,
) -> usize {
    let started = Instant::now();
    let on_pair = |first: &Played<G::Move>, second: &Played<G::Move>| {
        if first.pairing.field.is_some() {
            let result =
                |g: &Played<G::Move>| G::points_to_result(f64::from(g.sitting_points()), &plan.maps[g.pairing.map]);
            report.add_field_twins([first, second], [result(first), result(second)], sprt);
        } else {
            report.add_pair([first, second], sprt);
        }
        if each_pair(report, [first, second]).is_break() || report.decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let pairs = match remote {
        Some((executor, window)) => run_pairs_on(executor, plan, window, on_pair),
        None => run_pairs(plan, on_pair),
    };
    report.seconds = started.elapsed().as_secs_f64();
    report.stopped_early = pairs * 2 < plan.schedule.len();
    pairs
}
