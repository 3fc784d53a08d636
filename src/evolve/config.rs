//! The evolution config (RON). Each game embeds its default from
//! genomes/<game>/evolve.ron; `--config FILE` replaces it and command-line
//! flags override single fields.

use crate::tuner::cma::CmaConfig;
use crate::tuner::ga::{show_number, GaConfig};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolveConfig {
    pub game: String,
    /// Seeds everything random in the run.
    pub seed: u64,
    /// Games the tuner may spend: its generations and the confirmation of
    /// its recommendation. The champion's evaluations come on top.
    pub games: u64,
    /// Generations between two evaluations of the champion (its judge tables
    /// on the train and holdout maps): each is a line of the log, a row of
    /// generations.csv and a point of the plots.
    pub eval_every: u32,
    /// Genome the run starts from (the reference every generation plays).
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
    /// Share of the tuner's game pairs where two genomes meet head to head;
    /// the rest compare them at the same judge table.
    pub peer_share: f64,
    /// The genome bot's search budget per move, in nodes (deterministic).
    pub nodes: u64,
    /// Search as the submission bot does, for its time a move
    /// (`Tuning::submission_limits`), instead of `nodes`: the run tunes at
    /// the time control the bot plays, where a weight's worth can differ
    /// from its worth at a small node budget. Each game then costs what a
    /// real one does (best on workers, `evolve --server`), and its moves
    /// depend on the machine's speed and load, so a seed no longer replays
    /// the run exactly.
    #[serde(default, skip_serializing_if = "is_false")]
    pub timed: bool,
    /// Keep the game's scale anchor (`Tuning::SCALE_ANCHOR`) where the start
    /// genome has it, so that the GA searches only the directions that
    /// change moves (`crate::scale`). Off: every weight moves.
    #[serde(default = "anchored")]
    pub fix_scale: bool,
    /// Rounds of the holdout judge tables at each evaluation (each round:
    /// every holdout map, judge combination and seat; 0: skip).
    pub holdout_rounds: usize,
    /// A regression pre-fit (`gridtune fit`) from `seed_genome` before the
    /// first generation; the GA starts from its genome (the run folder's
    /// prefit.ron). Absent: the GA starts from `seed_genome`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefit: Option<crate::fit::FitConfig>,
    /// The noise-aware GA's settings (`crate::tuner::ga::GaConfig`); any left
    /// out take their defaults. Its `games` is the field above.
    #[serde(default)]
    pub ga: GaConfig,
    /// With `cma: (...)` (`cma: ()` for its defaults), the run tunes with
    /// CMA-ES (`crate::tuner::cma::CmaConfig`) instead of the GA: for weights
    /// whose worth depends on each other. `ga` is then not used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cma: Option<CmaConfig>,
    /// The champion's matches at the submission bot's time control when the
    /// run ends (`crate::evolve::verdict`).
    #[serde(default)]
    pub verdict: VerdictConfig,
}

fn anchored() -> bool {
    true
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The run's verdict: its champion head to head against the start genome and
/// the promoted genome, at the submission bot's time per move, on fresh maps,
/// each match under an SPRT and capped at `games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VerdictConfig {
    /// The most games of each match (an even number: both sides of each
    /// map); 0 skips the verdict.
    pub games: usize,
    /// The SPRT's Elo bounds (logistic; alpha = beta = 0.05).
    pub sprt: (f64, f64),
}

impl Default for VerdictConfig {
    /// 40 games a match: on 2 cores, Ataxx's two matches (100 ms a move)
    /// took 294 s after a 179 s run, within the default run's 10 minutes.
    fn default() -> Self {
        VerdictConfig {
            games: 40,
            sprt: (0.0, 10.0),
        }
    }
}

impl VerdictConfig {
    /// Odd games would leave a map played from one side only.
    pub fn check(&self) -> Result<(), String> {
        if self.games % 2 == 1 {
            return Err(format!(
                "games = {} must be even (both sides of each map), or 0 to skip the verdict",
                self.games
            ));
        }
        self.sprt_test().map(|_| ())
    }

    /// The SPRT of each match.
    pub fn sprt_test(&self) -> Result<crate::stats::Sprt, String> {
        let (elo0, elo1) = self.sprt;
        crate::stats::Sprt::new(elo0, elo1, 0.05, 0.05).map_err(|e| format!("sprt: {e}"))
    }
}

/// The largest judge weight: weights are relative, so any real contest fits,
/// and the sums over every judge stay finite.
pub const MAX_JUDGE_WEIGHT: f64 = 1e6;

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
        let config = Self::from_ron(text).map_err(invalid)?;
        config.check(judges).map_err(invalid)?;
        Ok(config)
    }

    /// Reads a config's RON without checking it (a run folder's reader
    /// checks it against the run's own judges).
    pub fn from_ron(text: &str) -> Result<Self, String> {
        // Optional settings (`tau`, `prefit`, ...) may be written bare, `tau: 0.3`, as
        // well as `tau: Some(0.3)`.
        let ron = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        ron.from_str(crate::fsutil::without_bom(text))
            .map_err(|e| format!("not an evolve config: {e}"))
    }

    /// The rules a config must keep; the message names the field.
    pub fn check(&self, judges: &[&str]) -> Result<(), String> {
        let fail = |m: String| Err(m);
        if self.games == 0 {
            return fail("games must be at least 1".into());
        }
        if self.eval_every == 0 {
            return fail("eval_every must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.peer_share) {
            return fail(format!("peer_share = {} must be in 0..=1", self.peer_share));
        }
        self.ga.check().map_err(|m| format!("ga: {m}"))?;
        if let Some(cma) = &self.cma {
            cma.check().map_err(|m| format!("cma: {m}"))?;
        }
        if let Some(prefit) = &self.prefit {
            prefit.check().map_err(|m| format!("prefit: {m}"))?;
        }
        if self.judges.is_empty() {
            return fail("judges is empty: list at least one".into());
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
            // A bound keeps the weighted sums finite (1e308 overflowed to NaN scores).
            if !(w.is_finite() && *w > 0.0 && *w <= MAX_JUDGE_WEIGHT) {
                return fail(format!(
                    "judge `{name}` has weight {}; weights must be numbers above 0, up to {}",
                    show_number(*w),
                    show_number(MAX_JUDGE_WEIGHT)
                ));
            }
        }
        if self.nodes == 0 {
            return fail("nodes must be at least 1".into());
        }
        self.verdict.check().map_err(|m| format!("verdict: {m}"))?;
        // CMA-ES's generation depends on the game's number of weights; the
        // run checks its budget with them (`check_budget`).
        if self.cma.is_none() {
            self.check_budget(0)?;
        }
        Ok(())
    }

    /// Whether `games` holds the tuner's first generation, for a genome of
    /// `dims` weights.
    pub fn check_budget(&self, dims: usize) -> Result<(), String> {
        let least = self.min_games(dims);
        if self.games < least {
            let settings = if self.cma.is_some() { "cma" } else { "ga" };
            return Err(format!(
                "games = {} leaves the tuner no room for one generation, so the run would have no evaluation: \
                 give at least {least} games (with these judges and `{settings}` settings)",
                self.games
            ));
        }
        Ok(())
    }

    /// The fewest `games` whose budget holds the first generation, for a
    /// genome of `dims` weights: less the confirmation's share for the GA
    /// (its own test in `Ga::finished`), all of it for CMA-ES.
    pub fn min_games(&self, dims: usize) -> u64 {
        let need = self.ga.generation_games(0, self.judges.len());
        let fits = |games: u64| {
            let config = EvolveConfig { games, ..self.clone() };
            if let Some(cma) = config.cma_config() {
                return cma.games >= cma.generation_games(dims);
            }
            let ga = config.ga_config();
            ga.games - (ga.games as f64 * ga.confirm_fraction) as u64 >= need
        };
        // The budget left after the confirmation grows with `games`, so the
        // smallest that fits is found by bisection.
        let (mut lo, mut hi) = (1u64, 1u64 << 53);
        if !fits(hi) {
            return hi;
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// The GA's settings with this run's budget. The GA counts two games per
    /// compared pair; a pair compared at a judge table costs four real games
    /// (each genome plays the table twice), so its budget is scaled to spend
    /// about `games` real games.
    pub fn ga_config(&self) -> GaConfig {
        GaConfig {
            games: self.counted_games(),
            parallel: true,
            ..self.ga.clone()
        }
    }

    /// CMA-ES's settings with this run's budget, counted as the GA's; `None`
    /// when the run tunes with the GA.
    pub fn cma_config(&self) -> Option<CmaConfig> {
        self.cma.as_ref().map(|cma| CmaConfig {
            games: self.counted_games(),
            parallel: true,
            ..cma.clone()
        })
    }

    /// The budget in the tuners' units, two games per compared pair.
    fn counted_games(&self) -> u64 {
        let real_per_counted = 2.0 - self.peer_share;
        (self.games as f64 / real_per_counted).round() as u64
    }

    /// The tuner in a few words, for the logs and the report: `the
    /// noise-aware GA (2 islands)` or `CMA-ES`.
    pub fn tuner_summary(&self) -> String {
        match &self.cma {
            Some(_) => "CMA-ES".to_string(),
            None => format!(
                "the noise-aware GA ({} island{})",
                self.ga.islands,
                if self.ga.islands == 1 { "" } else { "s" }
            ),
        }
    }

    /// What the genome bots of the run's games may search a move.
    pub fn limits<G: crate::games::GameKit>(&self) -> crate::search::Limits {
        G::tuning_limits(self.timed, self.nodes)
    }

    /// The config as RON, for the run folder.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).expect("configs serialise")
    }

    /// The config's file and folder paths.
    pub fn paths_mut(&mut self) -> impl Iterator<Item = &mut PathBuf> {
        [&mut self.seed_genome, &mut self.train_maps, &mut self.holdout_maps]
            .into_iter()
            .chain(self.bots.as_mut())
    }

    /// Resolves the config's relative paths against `base`, made absolute so
    /// the run folder's config.ron means the same from any directory.
    pub fn resolve_paths(&mut self, base: &Path) {
        for p in self.paths_mut() {
            if p.is_relative() {
                let joined = base.join(&*p);
                *p = std::path::absolute(&joined).unwrap_or(joined);
            }
        }
    }
}
