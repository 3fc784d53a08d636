//! The checkpoint a run writes after every generation: everything it needs
//! to go on exactly, checked field by field before it is trusted.

use super::config::EvolveConfig;
use super::faults::JudgeFaults;
use super::history::GenerationStats;
use super::oracle;
use super::tuner::{Settings, TunerState};
use crate::games::GameKit;
use crate::tuner::cma::CmaState;
use crate::tuner::ga::GaState;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Everything a run needs to go on after its last finished generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub game: String,
    /// The tuner's state after its last finished generation: the GA's
    /// (`ga: (...)`, as every checkpoint before CMA-ES had it) or CMA-ES's
    /// (`cma: (...)`); exactly one is there.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "bare")]
    pub ga: Option<GaState>,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "bare")]
    pub cma: Option<CmaState>,
    pub history: Vec<GenerationStats>,
    /// Games and seconds of the evaluation period under way.
    pub period_games: usize,
    pub period_tuning_games: usize,
    pub period_seconds: f64,
    /// Games of the whole run so far.
    pub games: usize,
    /// Seconds spent before this checkpoint, across every resumption.
    pub seconds: f64,
    /// The judges' games and faults in the period under way.
    #[serde(default)]
    pub period_faults: Vec<JudgeFaults>,
}

/// More games than any run plays (ten thousand years at 3,000 games per
/// second): a checkpoint counting more is damaged, and its sums could wrap.
const MAX_GAMES: usize = 1 << 50;

/// The checkpoint's file in a run folder.
pub const CHECKPOINT: &str = "checkpoint.ron";

impl Checkpoint {
    /// A new run's first state: the tuner's, and nothing played yet.
    pub fn start<G: GameKit>(tuner: TunerState) -> Self {
        let mut c = Checkpoint {
            game: G::NAME.to_string(),
            ga: None,
            cma: None,
            history: Vec::new(),
            period_games: 0,
            period_tuning_games: 0,
            period_seconds: 0.0,
            games: 0,
            seconds: 0.0,
            period_faults: Vec::new(),
        };
        c.set_tuner(tuner);
        c
    }

    /// The tuner's state (`None` for a file that has neither or both).
    pub fn tuner(&self) -> Option<TunerState> {
        match (&self.ga, &self.cma) {
            (Some(ga), None) => Some(TunerState::Ga(ga.clone())),
            (None, Some(cma)) => Some(TunerState::Cma(cma.clone())),
            _ => None,
        }
    }

    pub fn set_tuner(&mut self, tuner: TunerState) {
        (self.ga, self.cma) = match tuner {
            TunerState::Ga(ga) => (Some(ga), None),
            TunerState::Cma(cma) => (None, Some(cma)),
        };
    }

    /// Generations the tuner finished.
    pub fn generation(&self) -> usize {
        self.tuner().map_or(0, |t| t.generation())
    }

    /// Reads a run folder's checkpoint (`None` when it has none) and checks
    /// every field against the run's config: a file edited or damaged by
    /// hand is refused with its path and the wrong field, never trusted.
    pub fn load<G: GameKit>(dir: &Path, config: &EvolveConfig) -> anyhow::Result<Option<Self>> {
        let Some(checkpoint) = Self::read(dir)? else {
            return Ok(None);
        };
        let path = dir.join(CHECKPOINT);
        checkpoint
            .check::<G>(config)
            .map_err(|m| crate::bad_input!("{}: {m}", path.display()))?;
        Ok(Some(checkpoint))
    }

    /// Reads a run folder's checkpoint as it is (`None` when it has none),
    /// unchecked: for reading a run's history back, not for running on.
    pub fn read(dir: &Path) -> anyhow::Result<Option<Self>> {
        let path = dir.join(CHECKPOINT);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => crate::bail_input!("cannot read {}: {e}", path.display()),
        };
        Self::parse(&text, &path.display().to_string()).map(Some)
    }

    /// Reads a checkpoint's text without checking it against its run (see
    /// [`Checkpoint::check`]); `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> anyhow::Result<Self> {
        ron::from_str(text).map_err(|e| crate::bad_input!("{origin}: not a checkpoint: {e}"))
    }

    /// The rules a checkpoint written by this run keeps; the message names
    /// the field that breaks one.
    pub fn check<G: GameKit>(&self, config: &EvolveConfig) -> Result<(), String> {
        self.check_for(G::NAME, G::PARAMS, config)
    }

    /// [`Checkpoint::check`] for a game known by its name and weights.
    pub fn check_for(
        &self,
        game: &str,
        params: &[crate::params::ParamSpec],
        config: &EvolveConfig,
    ) -> Result<(), String> {
        if self.game != game {
            return Err(format!("`game` is `{}`, the run is of `{game}`", self.game));
        }
        let space = oracle::space_of_params(params);
        let Some(tuner) = self.tuner() else {
            return Err("it must hold one tuner's state, `ga` or `cma`".into());
        };
        tuner.check(&space, &Settings::of(config))?;
        let generations = tuner.generation();
        let judges = config.judges.len();
        let n = params.len();
        let mut last = 0;
        let mut games: usize = 0;
        for (h, s) in self.history.iter().enumerate() {
            let field = |name: &str| format!("`history[{h}].{name}`");
            if s.generation <= last || s.generation as usize > generations {
                return Err(format!(
                    "{} = {} must follow the generation before it ({last}) and not pass the tuner's `generation` ({generations})",
                    field("generation"),
                    s.generation,
                ));
            }
            last = s.generation;
            for (name, v) in [
                ("best", s.best),
                ("mean", s.mean),
                ("median", s.median),
                ("champion_elo", s.champion_elo),
            ] {
                if !v.is_finite() {
                    return Err(format!("{} = {v} is not a finite number", field(name)));
                }
            }
            for (name, v, hi) in [
                ("champion_se", s.champion_se, f64::MAX),
                ("sigma", s.sigma, 1.0),
                ("train_score", s.train_score, 100.0),
                ("holdout", s.holdout.unwrap_or(0.0), 100.0),
                ("seconds", s.seconds, f64::MAX),
            ] {
                if !(v.is_finite() && (0.0..=hi).contains(&v)) {
                    return Err(format!("{} = {v} is not a number in 0..={hi}", field(name)));
                }
            }
            if s.offspring_games.0 > s.offspring_games.1 {
                return Err(format!(
                    "{}: the fewest games are more than the most",
                    field("offspring_games")
                ));
            }
            let rates = |name: &str, rates: &[f64], optional: bool| -> Result<(), String> {
                if rates.len() != judges && !(optional && rates.is_empty()) {
                    return Err(format!(
                        "{} has {} rates, the config has {judges} judges",
                        field(name),
                        rates.len()
                    ));
                }
                match rates.iter().enumerate().find(|(_, r)| !(0.0..=1.0).contains(*r)) {
                    Some((j, r)) => Err(format!(
                        "{} = {r} is not a rate in 0..=1",
                        field(&format!("{name}[{j}]"))
                    )),
                    None => Ok(()),
                }
            };
            rates("judge_rates", &s.judge_rates, false)?;
            rates("holdout_rates", &s.holdout_rates, true)?;
            if s.holdout.is_some() == s.holdout_rates.is_empty() {
                return Err(format!("{} and its rates disagree", field("holdout")));
            }
            if !s.judge_faults.is_empty() && s.judge_faults.len() != judges {
                return Err(format!(
                    "{} has {} entries, the config has {judges} judges",
                    field("judge_faults"),
                    s.judge_faults.len()
                ));
            }
            if let Some(j) = s.judge_faults.iter().position(|f| !f.consistent()) {
                return Err(format!(
                    "{} counts more faults than games",
                    field(&format!("judge_faults[{j}]"))
                ));
            }
            if s.tuning_games > s.games {
                return Err(format!(
                    "{} = {} is more than {} = {}",
                    field("tuning_games"),
                    s.tuning_games,
                    field("games"),
                    s.games
                ));
            }
            games = games
                .checked_add(s.games)
                .ok_or_else(|| format!("{} is too large", field("games")))?;
            if s.best_weights.len() != n {
                return Err(format!(
                    "{} has {} weights, {game} genomes have {n}",
                    field("best_weights"),
                    s.best_weights.len(),
                ));
            }
            for (p, &w) in params.iter().zip(&s.best_weights) {
                if w < p.min || w > p.max {
                    return Err(format!(
                        "{}: `{}` = {w} is outside {}..={}",
                        field("best_weights"),
                        p.name,
                        p.min,
                        p.max
                    ));
                }
            }
        }
        if self.period_tuning_games > self.period_games {
            return Err(format!(
                "`period_tuning_games` = {} is more than `period_games` = {}",
                self.period_tuning_games, self.period_games
            ));
        }
        if !self.period_faults.is_empty() && self.period_faults.len() != judges {
            return Err(format!(
                "`period_faults` has {} entries, the config has {judges} judges",
                self.period_faults.len()
            ));
        }
        if let Some(j) = self.period_faults.iter().position(|f| !f.consistent()) {
            return Err(format!("`period_faults[{j}]` counts more faults than games"));
        }
        for (name, v) in [("period_seconds", self.period_seconds), ("seconds", self.seconds)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("`{name}` = {v} must be a finite number of at least 0"));
            }
        }
        if self.games > MAX_GAMES {
            return Err(format!("`games` = {} is more than any run plays", self.games));
        }
        // Every game of the run is in an evaluation period: the finished ones
        // and the one under way.
        if games.checked_add(self.period_games) != Some(self.games) {
            return Err(format!(
                "`games` = {} is not the games of `history` ({games}) plus `period_games` ({})",
                self.games, self.period_games
            ));
        }
        if self.history.is_empty() && generations >= config.eval_every as usize {
            return Err(format!(
                "`history` is empty after {generations} generations, with an evaluation every {}",
                config.eval_every
            ));
        }
        Ok(())
    }

    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())?;
        let path = dir.join(CHECKPOINT);
        crate::fsutil::write_atomic(&path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// An optional field written bare, `ga: (...)`, as the field was before it
/// became optional: old checkpoints read as they were, and a GA run's file
/// is unchanged.
mod bare {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(value: &Option<T>, serializer: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => v.serialize(serializer),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
        T::deserialize(deserializer).map(Some)
    }
}
