//! Which point of the fit's regularisation path plays best: each candidate
//! against the start genome on generated maps, head to head, or, at a table
//! of more than two, against the field of the game's judges.
//!
//! A regression predicts results from positions; what a search needs from
//! its weights is another thing, so the games decide how far to go from the
//! start toward the full fit.
//!
//! Each candidate's games stop early when an SPRT decides, as fishtest stops
//! a test, so a budget of a few hundred pairs goes to the candidates still in
//! doubt. A (0, 10) test moves slowly far from its bounds: a candidate 200
//! Elo below the start is still undecided after 100 pairs (LLR -2.45 of
//! -2.94). Fuller fits often lose that clearly, so a second test, (-30, 0),
//! drops a candidate as soon as it finds it worse than the start, after 40
//! to 50 pairs of such games.

use crate::arena::field::{match_schedule, FieldPlan};
use crate::arena::generated_maps;
use crate::arena::head_to_head::play_match;
use crate::arena::match_report::MatchReport;
use crate::arena::runner::MatchPlan;
use crate::bots::BotSpec;
use crate::games::GameKit;
use crate::genome::Genome;
use crate::search::Limits;
use crate::stats::counts::Pentanomial;
use crate::stats::{Sprt, SprtStatus};
use std::fmt;
use std::ops::ControlFlow;

/// How a candidate's games against the start genome went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trial {
    /// The candidate's mean score.
    pub score: f64,
    /// The pairs played: the cap, or fewer when a test decided.
    pub pairs: usize,
    /// What stopped the games.
    pub verdict: Verdict,
    /// The pairs' results, from the candidate's side.
    pub pentanomial: Pentanomial,
}

/// What the choice's tests made of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The cap came before either test decided.
    Undecided,
    /// The (0, 10) test accepted H1: better than the start.
    Better,
    /// The (0, 10) test accepted H0: not 10 Elo better.
    NotBetter,
    /// The drop test accepted its H0: 30 Elo worse than the start.
    Worse,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Undecided => "undecided",
            Verdict::Better => "H1 accepted",
            Verdict::NotBetter => "H0 accepted",
            Verdict::Worse => "dropped: worse than the start",
        })
    }
}

impl Trial {
    /// Whether the candidate may be chosen over the start: it scored above
    /// even, and neither test found it no better or worse.
    pub fn beats_start(&self) -> bool {
        self.score > 0.5 && matches!(self.verdict, Verdict::Undecided | Verdict::Better)
    }

    /// The trial as the fit's table shows it: the score, the pairs, and a
    /// verdict when there was one.
    pub fn cell(&self) -> String {
        let verdict = match self.verdict {
            Verdict::Undecided => "",
            Verdict::Better => " H1",
            Verdict::NotBetter => " H0",
            Verdict::Worse => " worse",
        };
        format!("{:.3}/{}{verdict}", self.score, self.pairs)
    }
}

/// The test each candidate's games stop on: (0, 10) Elo with 5% errors each
/// way, the bounds `match --sprt 0,10` and evolve's promotion test use, so a
/// candidate the choice accepts is one a promotion match could accept.
fn choice_sprt() -> Sprt {
    Sprt::new(0.0, 10.0, 0.05, 0.05).expect("(0, 10) at 5% is a valid SPRT")
}

/// The test that drops a candidate the start clearly beats: H0 30 Elo worse
/// against H1 even. Its bounds are three times as far apart as the choice's,
/// so far from them its LLR moves about three times as fast: 200 Elo down,
/// it decides in about 42 pairs where (0, 10) needs over 100. A candidate as
/// good as the start is dropped at most 5% of the time, and it could not
/// have been chosen had it stayed even.
fn drop_sprt() -> Sprt {
    Sprt::new(-30.0, 0.0, 0.05, 0.05).expect("(-30, 0) at 5% is a valid SPRT")
}

/// `a`'s games against `b`, at most `pairs` pairs, stopped early when the
/// choice's SPRT decides or the drop test finds `a` worse, both searching
/// within `limits`, played by the arena's match runner as `gridtune match`
/// plays them: a generated map and seed per pair. Two-seat games swap the
/// bots' seats. At a larger table each bot in turn takes the same seat beside
/// the same judges (`match --field`, as evolve's verdict plays such games):
/// the contest ranks them by what a bot holds against the whole field, and a
/// table of the two rivals measures something else.
pub fn choice_match<G: GameKit>(a: &Genome, b: &Genome, limits: Limits, pairs: usize, seed: u64) -> Trial {
    if pairs == 0 {
        return Trial {
            score: 0.5,
            pairs: 0,
            verdict: Verdict::Undecided,
            pentanomial: Pentanomial::default(),
        };
    }
    let maps = generated_maps::<G>(pairs, seed);
    let spec = |genome: &Genome, label: &str| BotSpec::Genome {
        label: label.to_string(),
        weights: genome.weights.clone(),
        limits,
    };
    let (a, b) = (spec(a, "candidate"), spec(b, "start"));
    let (fillers, field) = choice_seating::<G>();
    let schedule = match_schedule(field.as_ref(), maps.len(), 2 * pairs, G::PLAYERS, seed);
    let concurrency = rayon::current_num_threads();
    let plan = MatchPlan::<G> {
        maps: &maps,
        a: &a,
        b: &b,
        fillers: &fillers,
        field: field.as_ref(),
        schedule: &schedule,
        concurrency,
        log: false,
    };
    let mut report = MatchReport::new(
        G::NAME,
        [a.label(), b.label()],
        format!("{pairs} generated maps"),
        concurrency,
    );
    let (sprt, drop) = (choice_sprt(), drop_sprt());
    let worse = |p: &Pentanomial| drop.status(p) == SprtStatus::AcceptH0;
    let played = play_match(&plan, &mut report, Some(&sprt), |report, _| {
        if worse(&report.pentanomial) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    // Both tests read off the pairs the games stopped at.
    let verdict = match sprt.status(&report.pentanomial) {
        SprtStatus::AcceptH1 => Verdict::Better,
        SprtStatus::AcceptH0 => Verdict::NotBetter,
        SprtStatus::Continue if worse(&report.pentanomial) => Verdict::Worse,
        SprtStatus::Continue => Verdict::Undecided,
    };
    Trial {
        score: report.pentanomial.score(),
        pairs: played,
        verdict,
        pentanomial: report.pentanomial,
    }
}

/// The other seats of the choice's games: every judge, drawn three at a time
/// for a field, or, with too few judges for one (or a two-seat game: none),
/// the first judges beside a head-to-head pair.
fn choice_seating<G: GameKit>() -> (Vec<BotSpec>, Option<FieldPlan>) {
    match FieldPlan::of_judges::<G>() {
        Some((judges, plan)) => (judges, Some(plan)),
        None => (
            G::JUDGES
                .iter()
                .cycle()
                .take(G::PLAYERS.saturating_sub(2))
                .map(|name| BotSpec::Judge(name.to_string()))
                .collect(),
            None,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::isolation::Isolation;
    use crate::games::kit::Tuning;
    use crate::games::slime::Slime;

    #[test]
    fn slime_candidates_meet_the_field_of_every_judge_and_isolation_ones_meet_head_to_head() {
        let (judges, field) = choice_seating::<Slime>();
        assert_eq!(judges.len(), Slime::JUDGES.len());
        // Three of the seven clones at each table: every seat of 35 tables.
        assert_eq!(field.expect("a Slime choice plays the field").combinations.len(), 35);
        let (fillers, field) = choice_seating::<Isolation>();
        assert!(fillers.is_empty() && field.is_none());
    }

    #[test]
    fn a_genome_against_itself_at_the_field_ties_every_twin() {
        // Twins share the table, seat, map and seed: a genome replays its
        // own game, and every twin ties.
        let genome = Genome::defaults(Slime::PARAMS);
        let trial = choice_match::<Slime>(&genome, &genome, Limits::nodes(300), 4, 11);
        assert_eq!((trial.score, trial.pairs, trial.verdict), (0.5, 4, Verdict::Undecided));
    }

    #[test]
    fn a_candidate_far_worse_than_the_start_is_stopped_before_the_cap() {
        // Every weight negated: a bot that seeks what the start avoids.
        let start = Genome::defaults(Isolation::PARAMS);
        let mut worse = start.clone();
        worse.weights.iter_mut().for_each(|w| *w = -*w);
        // The drop test stops it while the (0, 10) test is still in doubt.
        let trial = choice_match::<Isolation>(&worse, &start, Limits::nodes(500), 200, 5);
        assert_eq!(trial.verdict, Verdict::Worse, "{trial:?}");
        assert_eq!(
            choice_sprt().status(&trial.pentanomial),
            SprtStatus::Continue,
            "{trial:?}"
        );
        assert!(
            trial.pairs < 200 && trial.score < 0.5 && !trial.beats_start(),
            "{trial:?}"
        );
        // The start against it, the other way round, plays until the (0, 10)
        // test accepts: the drop test never stops a winner.
        let trial = choice_match::<Isolation>(&start, &worse, Limits::nodes(500), 200, 5);
        assert_eq!(trial.verdict, Verdict::Better, "{trial:?}");
        assert!(trial.pairs < 200 && trial.beats_start(), "{trial:?}");
    }
}
