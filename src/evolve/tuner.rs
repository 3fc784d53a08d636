//! The tuner a run drives: the noise-aware GA, or CMA-ES when the config has
//! `cma: (...)`. The loop, the checkpoint and the report meet both through
//! this one interface, so each generation is logged, rated, checkpointed and
//! resumed the same way whichever tunes.

use super::config::EvolveConfig;
use crate::tuner::cma::{Cma, CmaConfig, CmaState};
use crate::tuner::ga::{Candidate, Ga, GaConfig, GaState, Rated};
use crate::tuner::{Oracle, Space};

/// A tuner's settings with the run's budget.
pub enum Settings {
    Ga(GaConfig),
    Cma(CmaConfig),
}

impl Settings {
    pub fn of(config: &EvolveConfig) -> Settings {
        match config.cma_config() {
            Some(cma) => Settings::Cma(cma),
            None => Settings::Ga(config.ga_config()),
        }
    }

    /// The name the logs and the report give the tuner.
    pub fn name(&self) -> &'static str {
        match self {
            Settings::Ga(_) => "GA",
            Settings::Cma(_) => "CMA-ES",
        }
    }
}

/// What a checkpoint keeps of the tuner: its whole state.
#[derive(Clone, Debug, PartialEq)]
pub enum TunerState {
    Ga(GaState),
    Cma(CmaState),
}

impl TunerState {
    /// A new run's state from `start`; `fixed` is the number of judges.
    pub fn start(settings: &Settings, space: &Space, start: &[f64], seed: u64, fixed: usize) -> TunerState {
        match settings {
            Settings::Ga(cfg) => TunerState::Ga(Ga::new(space, start, cfg, seed, fixed).state),
            Settings::Cma(cfg) => TunerState::Cma(Cma::new(space, start, cfg, seed).state),
        }
    }

    /// Generations finished.
    pub fn generation(&self) -> usize {
        match self {
            TunerState::Ga(s) => s.generation,
            TunerState::Cma(s) => s.generation,
        }
    }

    /// The start point: every genome's weights have its length.
    pub fn reference(&self) -> &[f64] {
        match self {
            TunerState::Ga(s) => &s.reference,
            TunerState::Cma(s) => &s.reference,
        }
    }

    /// Checks a state read from a file against the run's box and settings;
    /// a GA state in a CMA-ES run (or the reverse) is refused.
    pub fn check(&self, space: &Space, settings: &Settings) -> Result<(), String> {
        match (self, settings) {
            (TunerState::Ga(s), Settings::Ga(cfg)) => s.check(space, cfg).map_err(|m| format!("in `ga`: {m}")),
            (TunerState::Cma(s), Settings::Cma(cfg)) => s.check(space, cfg).map_err(|m| format!("in `cma`: {m}")),
            (TunerState::Ga(_), Settings::Cma(_)) => {
                Err("it holds a GA state (`ga`), and the config tunes with CMA-ES (`cma`)".into())
            }
            (TunerState::Cma(_), Settings::Ga(_)) => {
                Err("it holds a CMA-ES state (`cma`), and the config tunes with the GA".into())
            }
        }
    }
}

/// The run's recommendation once the tuner is done.
pub struct Recommendation {
    pub point: Vec<f64>,
    /// Which candidate it was.
    pub name: String,
    /// Every candidate with its confirmation rating.
    pub candidates: Vec<Candidate>,
    pub confirmation_games: u64,
}

/// A tuner under way.
pub enum Tuner<'a> {
    Ga(Ga<'a>),
    Cma(Cma<'a>),
}

impl<'a> Tuner<'a> {
    /// Goes on from `state` (a new run's, or a checkpoint's, checked with
    /// [`TunerState::check`]); `fixed` is the number of judges.
    pub fn resume(
        space: &'a Space,
        settings: &'a Settings,
        seed: u64,
        fixed: usize,
        state: TunerState,
    ) -> Result<Self, String> {
        match (settings, state) {
            (Settings::Ga(cfg), TunerState::Ga(s)) => Ok(Tuner::Ga(Ga::resume(space, cfg, seed, fixed, s))),
            (Settings::Cma(cfg), TunerState::Cma(s)) => Ok(Tuner::Cma(Cma::resume(space, cfg, seed, s))),
            (settings, _) => Err(format!(
                "the checkpoint holds another tuner's state than the config's {}",
                settings.name()
            )),
        }
    }

    pub fn finished(&self) -> bool {
        match self {
            Tuner::Ga(ga) => ga.finished(),
            Tuner::Cma(cma) => cma.finished(),
        }
    }

    /// Plays one generation and learns from it; returns its rated players.
    pub fn step<O: Oracle + ?Sized>(&mut self, oracle: &O) -> Vec<Rated> {
        match self {
            Tuner::Ga(ga) => ga.step(oracle).1,
            Tuner::Cma(cma) => cma.step(oracle).1,
        }
    }

    pub fn generation(&self) -> usize {
        match self {
            Tuner::Ga(ga) => ga.state.generation,
            Tuner::Cma(cma) => cma.state.generation,
        }
    }

    /// The champion: the GA's population mean, or CMA-ES's mean.
    pub fn mean(&self) -> Vec<f64> {
        match self {
            Tuner::Ga(ga) => ga.mean(),
            Tuner::Cma(cma) => cma.state.mean.clone(),
        }
    }

    /// The step, as a share of each weight's range (the GA's mean over its
    /// islands).
    pub fn sigma(&self) -> f64 {
        match self {
            Tuner::Ga(ga) => {
                let islands = &ga.state.islands;
                islands.iter().map(|i| i.sigma).sum::<f64>() / islands.len() as f64
            }
            Tuner::Cma(cma) => cma.state.sigma,
        }
    }

    pub fn state(&self) -> TunerState {
        match self {
            Tuner::Ga(ga) => TunerState::Ga(ga.state.clone()),
            Tuner::Cma(cma) => TunerState::Cma(cma.state.clone()),
        }
    }

    /// The recommendation: the GA's, confirmed with the rest of the budget;
    /// CMA-ES's final mean, as Hansen recommends it (its budget all went to
    /// the generations).
    pub fn finish<O: Oracle + ?Sized>(&self, oracle: &O) -> Recommendation {
        match self {
            Tuner::Ga(ga) => {
                let r = ga.finish(oracle, Vec::new());
                Recommendation {
                    point: r.recommended,
                    name: r.recommended_name,
                    candidates: r.candidates,
                    confirmation_games: r.confirmation_games,
                }
            }
            Tuner::Cma(cma) => {
                let point = cma.state.mean.clone();
                let name = "CMA-ES mean".to_string();
                Recommendation {
                    candidates: vec![Candidate {
                        name: name.clone(),
                        x: point.clone(),
                        elo: 0.0,
                        se: 0.0,
                    }],
                    point,
                    name,
                    confirmation_games: 0,
                }
            }
        }
    }
}
