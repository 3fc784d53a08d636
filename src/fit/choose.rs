//! Which point of the fit's regularisation path plays best: each candidate
//! against the start genome, head to head, on generated maps.
//!
//! A regression predicts results from positions; what a search needs from
//! its weights is another thing, so the games decide how far to go from the
//! start toward the full fit.

use crate::arena::head_to_head::play_match;
use crate::arena::match_report::MatchReport;
use crate::arena::runner::MatchPlan;
use crate::arena::{generated_maps, paired_schedule};
use crate::bots::BotSpec;
use crate::games::GameKit;
use crate::genome::Genome;
use crate::search::Limits;
use std::ops::ControlFlow;

/// `a`'s mean score against `b` over `pairs` pairs of games, both searching
/// within `limits`, played by the arena's match runner as `gridtune match`
/// plays them: one generated map and seed per pair, the two bots' seats
/// swapped, and at a table of more than two the game's first judges in the
/// other seats.
pub fn head_to_head<G: GameKit>(a: &Genome, b: &Genome, limits: Limits, pairs: usize, seed: u64) -> f64 {
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
    let fillers: Vec<BotSpec> = G::JUDGES
        .iter()
        .cycle()
        .take(G::PLAYERS - 2)
        .map(|name| BotSpec::Judge(name.to_string()))
        .collect();
    let schedule = paired_schedule(maps.len(), pairs, seed);
    let concurrency = rayon::current_num_threads();
    let plan = MatchPlan::<G> {
        maps: &maps,
        a: &a,
        b: &b,
        fillers: &fillers,
        field: None,
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
