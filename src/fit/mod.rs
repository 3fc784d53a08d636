//! `gridtune fit` and evolve's `prefit`: a genome fitted by regression of
//! game results on its features (Texel's method), from games played in the
//! simulator. `tuner::logistic` does the regression; this module plays the
//! games and labels their positions.
//!
//! The positions come from the start genome against itself and against the
//! judges, on generated maps, every seat in turn, with a few random opening
//! plies in sequential games so that one map gives different games. Each
//! position is labelled with the game's final result from the side whose
//! features it records: the mover's in a two-player sequential game, every
//! seat's otherwise (Light Cycles' both bikes; Slime's four seats, each with
//! its final share of the board). One game in five is held out to validate.
//!
//! The weights are fitted along a regularisation path, from close to the
//! start genome to the full fit, and the candidates play the start genome
//! head to head (`choose.rs`): the one that scores best is the result, or
//! the start itself when none beats it.

mod choose;
mod leaf;
mod selfplay;

pub use choose::{choice_match, Trial, Verdict};
pub use selfplay::play_out;

use crate::game::{Bot, Game, ToMove};
use crate::games::GameKit;
use crate::genome::Genome;
use crate::search::Limits;
use crate::tuner::derive_seed;
use crate::tuner::logistic::{fit_scale, fit_weights, with_best_intercept, Bounds, Samples};
use anyhow::{bail, Result};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// How the positions are gathered (evolve's `prefit` and `gridtune fit`'s flags).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FitConfig {
    /// Games to play (one in five validates).
    pub games: usize,
    /// The genome bot's search budget per move, in nodes.
    pub nodes: u64,
    /// The chance that a seat other than the genome's is a judge rather
    /// than the genome again.
    pub judge_share: f64,
    /// Random plies at the start of a sequential game, not recorded.
    pub random_plies: usize,
    /// Ridges toward the start genome, in log-odds per range squared: the
    /// path from near the start (large) to the full fit (small). A ridge
    /// also keeps a weight the positions do not pin where it was.
    pub ridges: Vec<f64>,
    /// Pairs of games each candidate plays against the start genome (0: take
    /// the smallest ridge's fit without games).
    pub choose_pairs: usize,
    /// Whether those games search as the submission bot does, for its time
    /// a move (`Tuning::submission_limits`), rather than `nodes` a move. A
    /// fit's worth at a node budget need not hold at the bot's depth:
    /// Ataxx's pre-fit scored 0.530 at 16,000 nodes and lost 60.6 Elo at
    /// 100 ms a move. Timed games vary with the machine's load.
    pub choose_timed: bool,
    /// Plies of a search from each recorded position whose principal leaf
    /// gives the features (`leaf.rs`); 0 records the position itself. Only
    /// games that take turns have such a search.
    pub leaf_depth: u32,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            games: 2000,
            nodes: 1000,
            judge_share: 0.5,
            random_plies: 2,
            ridges: vec![1.0, 0.1, 0.01, 0.001],
            choose_pairs: 100,
            choose_timed: false,
            leaf_depth: 0,
        }
    }
}

impl FitConfig {
    /// Names the first setting out of its range.
    pub fn check(&self) -> Result<(), String> {
        if self.games < 5 {
            return Err(format!("games {}: at least 5 (one in five validates)", self.games));
        }
        if self.nodes == 0 {
            return Err("nodes 0: the genome bot needs at least 1 node".into());
        }
        if !(0.0..=1.0).contains(&self.judge_share) {
            return Err(format!("judge_share {}: must be in [0, 1]", self.judge_share));
        }
        if self.ridges.is_empty() {
            return Err("ridges: give at least one".into());
        }
        if let Some(r) = self.ridges.iter().find(|r| !(r.is_finite() && **r >= 0.0)) {
            return Err(format!("ridge {r}: must be finite and at least 0"));
        }
        if self.leaf_depth > MAX_LEAF_DEPTH {
            return Err(format!(
                "leaf_depth {}: at most {MAX_LEAF_DEPTH} (the search is full width, without a table)",
                self.leaf_depth
            ));
        }
        Ok(())
    }
}

/// The deepest leaf search a fit runs: it searches every recorded position
/// full width, so each ply multiplies its cost by the moves.
pub const MAX_LEAF_DEPTH: u32 = 4;

impl FitConfig {
    /// [`FitConfig::check`], and the settings `G` cannot play.
    pub fn check_for<G: Game>(&self) -> Result<(), String> {
        self.check()?;
        if self.leaf_depth > 0 && (G::SIMULTANEOUS || G::PLAYERS != 2) {
            return Err(format!(
                "leaf_depth {}: a leaf search is for two players taking turns, and {} is not such a game; use 0",
                self.leaf_depth,
                G::NAME
            ));
        }
        Ok(())
    }

    /// What each candidate's games against the start genome may search a move.
    pub fn choice_limits<G: GameKit>(&self) -> Limits {
        G::tuning_limits(self.choose_timed, self.nodes)
    }
}

/// One point of the regularisation path.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub ridge: f64,
    pub genome: Genome,
    /// Training and validation loss (see [`FitReport::before`]).
    pub loss: (f64, f64),
    /// The weights held at a declared bound: name and `"max"` or `"min"`.
    pub at_bound: Vec<(String, &'static str)>,
    /// Its games against the start genome, when played.
    pub trial: Option<Trial>,
}

/// A fitted genome and how well it predicts the results.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The chosen genome: the best-scoring candidate, or the start genome
    /// when none beat it.
    pub genome: Genome,
    pub candidates: Vec<Candidate>,
    /// Index of the chosen candidate; `None` when the start was kept.
    pub chosen: Option<usize>,
    pub games: usize,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Mean cross-entropy of the start genome (at the fitted scale, its own
    /// intercept) and of the fitted genome, on the training and the held-out
    /// positions.
    pub before: (f64, f64),
    /// Log-odds per evaluation unit, fixed by the game's hand-set weights.
    pub scale: f64,
    pub seconds: f64,
}

/// Where a fit is, told as it goes: a fit plays for minutes to hours, and
/// a command or a run log should say what it is waiting for.
#[derive(Clone, Debug, PartialEq)]
pub enum FitStage {
    /// The games for positions begin: `games` of them at `nodes` a move.
    Positions { games: usize, nodes: u64 },
    /// `done` of those `games` are over (told from the threads that play them).
    Played { done: usize, games: usize },
    /// The positions are fitted along the ridge path; `candidates` new
    /// genomes came of it (ridges that round to the start or to another
    /// candidate give none).
    Fitted {
        positions: usize,
        seconds: f64,
        candidates: usize,
    },
    /// Candidate `index` of `of` (from 1) starts its games against the start
    /// genome, at most `pairs` pairs, each side searching `budget`.
    Choosing {
        index: usize,
        of: usize,
        ridge: f64,
        pairs: usize,
        budget: String,
    },
    /// And how its games against the start genome went.
    Scored { ridge: f64, trial: Trial },
}

impl FitStage {
    /// The stage as a line for a person, if it is one worth a line (a
    /// line per game would drown everything else).
    pub fn line(&self) -> Option<String> {
        Some(match self {
            FitStage::Positions { games, nodes } => format!("playing {games} games at {nodes} nodes for positions"),
            FitStage::Played { .. } => return None,
            FitStage::Fitted {
                positions,
                seconds,
                candidates,
            } => format!("{positions} positions in {seconds:.1} s; {candidates} candidates on the ridge path"),
            FitStage::Choosing {
                index,
                of,
                ridge,
                pairs,
                budget,
            } => format!("candidate {index}/{of} (ridge {ridge}): up to {pairs} pairs against the start at {budget}"),
            FitStage::Scored { ridge, trial } => format!(
                "ridge {ridge} scored {:.3} against the start in {} pairs{}",
                trial.score,
                trial.pairs,
                match trial.verdict {
                    Verdict::Undecided => String::new(),
                    verdict => format!(" ({verdict})"),
                }
            ),
        })
    }
}

/// Plays the games from `from` and fits a genome to their results.
pub fn fit<G: GameKit>(config: &FitConfig, from: &Genome, seed: u64) -> Result<FitReport> {
    fit_telling::<G>(config, from, seed, &|_| {})
}

/// [`fit`], telling `stage` where it is.
pub fn fit_telling<G: GameKit>(
    config: &FitConfig,
    from: &Genome,
    seed: u64,
    stage: &(dyn Fn(FitStage) + Sync),
) -> Result<FitReport> {
    if let Err(e) = config.check_for::<G>() {
        bail!("fit: {e}");
    }
    let started = Instant::now();
    stage(FitStage::Positions {
        games: config.games,
        nodes: config.nodes,
    });
    let played = AtomicUsize::new(0);
    let games: Vec<(Vec<Vec<i32>>, Vec<f64>)> = (0..config.games)
        .into_par_iter()
        .map(|g| {
            let positions = labelled_positions::<G>(config, from, derive_seed(seed, g as u64));
            let done = played.fetch_add(1, Ordering::Relaxed) + 1;
            stage(FitStage::Played {
                done,
                games: config.games,
            });
            positions
        })
        .collect::<Result<_>>()?;
    let dims = G::PARAMS.len();
    let (mut train, mut validation) = (Samples::new(dims), Samples::new(dims));
    for (g, (features, labels)) in games.iter().enumerate() {
        let set = if g % 5 == 4 { &mut validation } else { &mut train };
        for (f, &y) in features.iter().zip(labels) {
            set.push(f, y);
        }
    }
    if train.is_empty() || validation.is_empty() {
        bail!(
            "fit: the games gave no positions to fit (train {}, validation {})",
            train.len(),
            validation.len()
        );
    }
    // The hand-set weights fix the scale: a start at zero has none.
    let hand_set: Vec<f64> = G::PARAMS.iter().map(|p| p.default as f64).collect();
    let Some((scale, _)) = fit_scale(&train, &hand_set) else {
        bail!("fit: the hand-set weights do not predict the games' results, so they give no scale to fit in");
    };
    let prior: Vec<f64> = from.weights.iter().map(|&w| w as f64).collect();
    let bounds = Bounds {
        lower: G::PARAMS.iter().map(|p| p.min as f64).collect(),
        upper: G::PARAMS.iter().map(|p| p.max as f64).collect(),
    };
    // Each genome with its own best intercept, so that only the weights differ.
    let losses = |weights: &[i32]| {
        let w: Vec<f64> = weights.iter().map(|&x| x as f64).collect();
        let model = with_best_intercept(&train, scale, &w);
        (model.loss(&train), model.loss(&validation))
    };
    let mut candidates: Vec<Candidate> = Vec::new();
    for &ridge in &config.ridges {
        let ridges: Vec<f64> = G::PARAMS
            .iter()
            .map(|p| ridge / ((p.max - p.min).max(1) as f64).powi(2))
            .collect();
        let fitted = fit_weights(&train, scale, &prior, &ridges, &bounds);
        let genome = Genome {
            weights: G::PARAMS
                .iter()
                .zip(&fitted.model.weights)
                .map(|(p, &w)| p.snap(w))
                .collect(),
        };
        // Rounded onto the grid, two ridges may give one genome: play it once.
        if genome == *from || candidates.iter().any(|c| c.genome == genome) {
            continue;
        }
        candidates.push(Candidate {
            ridge,
            loss: losses(&genome.weights),
            at_bound: fitted
                .at_bound
                .iter()
                .map(|&(j, upper)| (G::PARAMS[j].name.to_string(), if upper { "max" } else { "min" }))
                .collect(),
            genome,
            trial: None,
        });
    }
    stage(FitStage::Fitted {
        positions: train.len() + validation.len(),
        seconds: started.elapsed().as_secs_f64(),
        candidates: candidates.len(),
    });
    let chosen = if config.choose_pairs == 0 {
        // Without games, the full fit: the smallest ridge's.
        (0..candidates.len()).min_by(|&a, &b| candidates[a].ridge.total_cmp(&candidates[b].ridge))
    } else {
        let limits = config.choice_limits::<G>();
        let of = candidates.len();
        for (i, c) in candidates.iter_mut().enumerate() {
            stage(FitStage::Choosing {
                index: i + 1,
                of,
                ridge: c.ridge,
                pairs: config.choose_pairs,
                budget: G::tuning_budget(config.choose_timed, config.nodes),
            });
            let s = derive_seed(seed ^ 0x5eed_c0de, i as u64);
            let trial = choice_match::<G>(&c.genome, from, limits, config.choose_pairs, s);
            c.trial = Some(trial);
            stage(FitStage::Scored { ridge: c.ridge, trial });
        }
        let score = |i: usize| candidates[i].trial.map_or(f64::NAN, |t| t.score);
        (0..candidates.len())
            .filter(|&i| candidates[i].trial.is_some_and(|t| t.beats_start()))
            .max_by(|&a, &b| score(a).total_cmp(&score(b)))
    };
    Ok(FitReport {
        before: losses(&from.weights),
        genome: chosen.map_or_else(|| from.clone(), |i| candidates[i].genome.clone()),
        chosen,
        candidates,
        games: config.games,
        train_positions: train.len(),
        validation_positions: validation.len(),
        scale,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One game's recorded features and their labels.
fn labelled_positions<G: GameKit>(config: &FitConfig, from: &Genome, seed: u64) -> Result<(Vec<Vec<i32>>, Vec<f64>)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let text = G::generate_map_text(&mut rng);
    let map = G::parse_map(&text, "generated map")?;
    let hero = rng.random_range(0..G::PLAYERS);
    let mut seats: Vec<Box<dyn Bot<G>>> = Vec::with_capacity(G::PLAYERS);
    for seat in 0..G::PLAYERS {
        let bot = if seat != hero && rng.random::<f64>() < config.judge_share {
            let name = G::JUDGES[rng.random_range(0..G::JUDGES.len())];
            match G::judge(name, rng.random()) {
                Some(judge) => judge,
                None => bail!("fit: no judge `{name}` in {}", G::NAME),
            }
        } else {
            G::genome_bot(&from.weights, Limits::nodes(config.nodes))
        };
        seats.push(bot);
    }
    let mut state = G::start(&map);
    if !G::SIMULTANEOUS {
        let mut moves = G::Moves::default();
        for _ in 0..config.random_plies {
            let ToMove::One(p) = state.to_move() else { break };
            state.legal_moves(p, &mut moves);
            let list = crate::game::MoveBuffer::as_slice(&moves);
            state.play(list[rng.random_range(0..list.len())]);
        }
    }
    // Features now, labels once the game is over: (seat, features).
    let mut recorded: Vec<(usize, Vec<i32>)> = Vec::new();
    let outcome = play_out(state, &mut seats, &mut |state: &G| match state.to_move() {
        ToMove::One(p) if G::PLAYERS == 2 && config.leaf_depth == 0 => recorded.push((p, G::features(state, p))),
        // A line that ends the game leaves nothing for the weights to learn.
        ToMove::One(_) if G::PLAYERS == 2 => {
            if let Some((leaf, mover)) = leaf::principal_leaf(state, &from.weights, config.leaf_depth) {
                recorded.push((mover, G::features(&leaf, mover)));
            }
        }
        ToMove::Over => {}
        _ => recorded.extend((0..G::PLAYERS).map(|p| (p, G::features(state, p)))),
    });
    let labels = recorded.iter().map(|&(p, _)| outcome.points[p] as f64).collect();
    Ok((recorded.into_iter().map(|(_, f)| f).collect(), labels))
}

#[cfg(test)]
mod tests {
    use super::FitConfig;
    use crate::games::ataxx::Ataxx;
    use crate::games::Tuning;
    use crate::search::Limits;

    #[test]
    fn a_timed_choice_searches_as_the_submission_bot_does() {
        let mut config = FitConfig {
            nodes: 777,
            ..FitConfig::default()
        };
        assert_eq!(config.choice_limits::<Ataxx>(), Limits::nodes(777));
        config.choose_timed = true;
        let timed = config.choice_limits::<Ataxx>();
        assert_eq!(timed, Ataxx::submission_limits());
        assert!(timed.time.is_some(), "{timed:?}");
    }
}
