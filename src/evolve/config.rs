//! The evolution config (RON). Each game embeds its default from
//! genomes/<game>/evolve.ron; `--config FILE` replaces it and command-line
//! flags override single fields.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolveConfig {
    pub game: String,
    /// Seeds everything random in the run.
    pub seed: u64,
    pub generations: u32,
    pub population: usize,
    /// Best genomes copied unchanged into the next generation.
    pub elite: usize,
    /// Entrants per tournament when picking a parent.
    pub tournament: usize,
    /// Chance that a child mixes two parents rather than copying one.
    pub crossover: f64,
    /// Chance that each weight of a child is mutated.
    pub mutation_rate: f64,
    /// Standard deviation of a mutation, as a share of the weight's range.
    pub mutation_scale: f64,
    /// Genome the first generation grows from (it and mutants of it).
    pub seed_genome: PathBuf,
    pub train_maps: PathBuf,
    pub holdout_maps: PathBuf,
    /// Opponents with their weights in the contest score (normalised, so
    /// equal weights give a score from 0 to 100): a judge clone's name, or
    /// any bot spec (`cmd:...`, `sh:...`, `genome:PATH`, a `bots` file name).
    pub judges: Vec<(String, f64)>,
    /// A bots file whose names `judges` may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots: Option<PathBuf>,
    /// Population members each genome plays (both sides of one train map).
    pub peer_opponents: usize,
    /// Share of the fitness that comes from games against the population.
    pub peer_weight: f64,
    /// The genome bot's search budget per move, in nodes (deterministic).
    pub nodes: u64,
    /// Rounds of holdout games for the final champion report (each round: every
    /// holdout map, judge combination and seat; 0: skip).
    pub holdout_rounds: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{origin}: {message}")]
    Invalid { origin: String, message: String },
}

impl EvolveConfig {
    /// Parses and checks a config; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str, judges: &[&str]) -> Result<Self, ConfigError> {
        let invalid = |message: String| ConfigError::Invalid {
            origin: origin.to_string(),
            message,
        };
        let config: EvolveConfig = ron::from_str(text).map_err(|e| invalid(format!("not an evolve config: {e}")))?;
        config.check(judges).map_err(invalid)?;
        Ok(config)
    }

    /// The rules a config must keep; the message names the field.
    pub fn check(&self, judges: &[&str]) -> Result<(), String> {
        let fail = |m: String| Err(m);
        if self.population < 2 {
            return fail(format!("population = {}: need at least 2", self.population));
        }
        if self.elite >= self.population {
            return fail(format!(
                "elite = {} must be below population = {}",
                self.elite, self.population
            ));
        }
        if self.tournament == 0 || self.tournament > self.population {
            return fail(format!("tournament = {} must be in 1..=population", self.tournament));
        }
        for (name, v) in [
            ("crossover", self.crossover),
            ("mutation_rate", self.mutation_rate),
            ("peer_weight", self.peer_weight),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return fail(format!("{name} = {v} must be in 0..=1"));
            }
        }
        if !(self.mutation_scale > 0.0 && self.mutation_scale <= 1.0) {
            return fail(format!("mutation_scale = {} must be in (0, 1]", self.mutation_scale));
        }
        if self.judges.is_empty() && self.peer_weight < 1.0 {
            return fail("judges is empty: list at least one, or set peer_weight to 1".into());
        }
        for (name, w) in &self.judges {
            // Specs and bots-file names are checked when the run builds its bots.
            let spec_like = name.contains(':') || self.bots.is_some();
            if !spec_like && !judges.contains(&name.as_str()) {
                return fail(format!(
                    "unknown judge `{name}`; judges: {} (or give a bot spec such as cmd:PROGRAM)",
                    judges.join(", ")
                ));
            }
            if !(*w >= 0.0 && w.is_finite()) {
                return fail(format!("judge `{name}` has weight {w}; weights must be >= 0"));
            }
        }
        if self.judges.iter().map(|j| j.1).sum::<f64>() <= 0.0 && self.peer_weight < 1.0 {
            return fail("judge weights sum to 0".into());
        }
        if self.peer_weight > 0.0 && self.peer_opponents == 0 {
            return fail("peer_weight > 0 needs peer_opponents >= 1".into());
        }
        if self.peer_opponents >= self.population {
            return fail(format!(
                "peer_opponents = {} must be below population",
                self.peer_opponents
            ));
        }
        if self.nodes == 0 {
            return fail("nodes must be at least 1".into());
        }
        Ok(())
    }

    /// The config as RON, for the run folder.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).expect("configs serialise")
    }

    /// Resolves the config's relative paths against `base`.
    pub fn resolve_paths(&mut self, base: &Path) {
        for p in [&mut self.seed_genome, &mut self.train_maps, &mut self.holdout_maps]
            .into_iter()
            .chain(self.bots.as_mut())
        {
            if p.is_relative() {
                *p = base.join(&*p);
            }
        }
    }
}
