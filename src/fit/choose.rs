//! Which point of the fit's regularisation path plays best: each candidate
//! against the start genome on generated maps, head to head, or, at a table
//! of more than two, against the field of the game's judges.
//!
//! A regression predicts results from positions; what a search needs from
//! its weights is another thing, so the games decide how far to go from the
//! start toward the full fit.

use crate::arena::field::{match_schedule, FieldPlan};
use crate::arena::generated_maps;
use crate::arena::head_to_head::play_match;
use crate::arena::match_report::MatchReport;
use crate::arena::runner::MatchPlan;
use crate::bots::BotSpec;
use crate::games::GameKit;
use crate::genome::Genome;
use crate::search::Limits;
use std::ops::ControlFlow;

/// `a`'s mean score against `b` over `pairs` pairs of games, both searching
/// within `limits`, played by the arena's match runner as `gridtune match`
/// plays them: a generated map and seed per pair. Two-seat games swap the
/// bots' seats. At a larger table each bot in turn takes the same seat beside
/// the same judges (`match --field`, as evolve's verdict plays such games):
/// the contest ranks them by what a bot holds against the whole field, and a
/// table of the two rivals measures something else.
pub fn choice_match<G: GameKit>(a: &Genome, b: &Genome, limits: Limits, pairs: usize, seed: u64) -> f64 {
    if pairs == 0 {
        return 0.5;
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
    play_match(&plan, &mut report, None, |_, _| ControlFlow::Continue(()));
    report.pentanomial.score()
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
        assert_eq!(choice_match::<Slime>(&genome, &genome, Limits::nodes(300), 4, 11), 0.5);
    }
}
