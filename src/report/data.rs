//! A run folder read back for reporting: its config, its per-evaluation
//! history (the `GenerationStats` of checkpoint.ron) and the counts the
//! intervals need.

use super::fitness::{BandPoints, FitnessPoint};
use crate::evolve::verdict::Verdict;
use crate::evolve::{Checkpoint, EvolveConfig, GenerationStats, CHECKPOINT};
use crate::games::GameKit;
use crate::params::ParamSpec;
use crate::stats::interval;
use anyhow::Context;
use std::path::{Path, PathBuf};

/// What the report needs to know about the run's game.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    pub name: &'static str,
    pub players: usize,
    pub params: &'static [ParamSpec],
}

impl GameInfo {
    pub fn of<G: GameKit>() -> Self {
        GameInfo {
            name: G::NAME,
            players: G::PLAYERS,
            params: G::PARAMS,
        }
    }
}

/// A run folder, loaded.
#[derive(Clone, Debug)]
pub struct RunData {
    pub dir: PathBuf,
    /// The folder's name: how the run is labelled in reports.
    pub label: String,
    pub game: String,
    pub config: EvolveConfig,
    /// config.ron as written by the run.
    pub config_text: String,
    pub rows: Vec<GenerationStats>,
    /// Games and seconds over the whole run, every resumption included.
    pub games: usize,
    pub seconds: f64,
    /// Map files in the train and holdout folders, when they can be read
    /// (the intervals need them).
    pub train_maps: Option<usize>,
    pub holdout_maps: Option<usize>,
    /// The champion's verdict at the submission's time control, once played
    /// (verdict.ron).
    pub verdict: Option<Verdict>,
    /// The workers of a distributed run and their games (workers.csv);
    /// empty for a run on one machine.
    pub workers: Vec<crate::evolve::outputs::WorkerRow>,
}

/// The game a run folder is for (from its config.ron), so a caller can pick
/// the game's types before loading it.
pub fn game_of(dir: &Path) -> anyhow::Result<String> {
    Ok(read_config(dir)?.1.game)
}

fn read_config(dir: &Path) -> anyhow::Result<(String, EvolveConfig)> {
    if !dir.is_dir() {
        crate::bail_input!("{} is not a run folder: no such folder", dir.display());
    }
    let path = dir.join("config.ron");
    if !path.is_file() {
        crate::bail_input!(
            "{} is not a gridtune run folder: it has no config.ron (gridtune evolve writes one)",
            dir.display()
        );
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let config = EvolveConfig::from_ron(&text).map_err(|e| crate::bad_input!("{}: {e}", path.display()))?;
    // Judge names are the run's own: any spec it ran with is known here.
    let judges: Vec<&str> = config.judges.iter().map(|j| j.0.as_str()).collect();
    config
        .check(&judges)
        .map_err(|m| crate::bad_input!("{}: {m}", path.display()))?;
    Ok((text, config))
}

/// Loads a run folder: config.ron and checkpoint.ron are required.
pub fn load(dir: &Path) -> anyhow::Result<RunData> {
    load_checked(dir, None)
}

/// Loads a run folder of a known game, its checkpoint checked field by field
/// as `--resume` checks it, so that a damaged file is named, not plotted.
pub fn load_checked(dir: &Path, game: Option<&GameInfo>) -> anyhow::Result<RunData> {
    let (config_text, config) = read_config(dir)?;
    let checkpoint = Checkpoint::read(dir)?.ok_or_else(|| {
        crate::bad_input!(
            "{} has no {CHECKPOINT}: no generation of this run has finished yet",
            dir.display()
        )
    })?;
    if let Some(game) = game {
        checkpoint
            .check_for(game.name, game.params, &config)
            .map_err(|m| crate::bad_input!("{}: {m}", dir.join(CHECKPOINT).display()))?;
    }
    if checkpoint.history.is_empty() {
        crate::bail_input!(
            "{}: the checkpoint holds no generation yet",
            dir.join(CHECKPOINT).display()
        );
    }
    let label = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());
    let verdict = Verdict::load(dir).map_err(|e| crate::bad_input!("{e:#}"))?;
    Ok(RunData {
        dir: dir.to_path_buf(),
        verdict,
        workers: crate::evolve::outputs::read_workers(dir),
        label,
        game: checkpoint.game.clone(),
        train_maps: count_maps(&config.train_maps),
        holdout_maps: count_maps(&config.holdout_maps),
        rows: checkpoint.history,
        games: checkpoint.games,
        seconds: checkpoint.seconds,
        config,
        config_text,
    })
}

/// Map files (`*.txt`) in a folder, as the run loaded them. A relative path
/// that is not found from here is tried from the project root, where the
/// embedded configs' paths point.
fn count_maps(dir: &Path) -> Option<usize> {
    let count = |d: &Path| -> Option<usize> {
        let n = std::fs::read_dir(d)
            .ok()?
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
            .count();
        (n > 0).then_some(n)
    };
    count(dir).or_else(|| {
        dir.is_relative()
            .then(|| count(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)))
            .flatten()
    })
}

impl RunData {
    pub fn last(&self) -> &GenerationStats {
        self.rows.last().expect("a loaded run has a generation")
    }

    pub fn judge_names(&self) -> Vec<String> {
        self.config.judges.iter().map(|j| j.0.clone()).collect()
    }

    pub fn judge_weights(&self) -> Vec<f64> {
        self.config.judges.iter().map(|j| j.1).collect()
    }

    /// Games the champion played against each judge in one generation on
    /// the train maps (every judge combination holding it, every map, every
    /// seat), if the map folder could be counted.
    pub fn train_games_per_judge(&self, players: usize) -> Option<usize> {
        let n = games_per_judge(self.config.judges.len(), players, self.train_maps?, 1);
        (n > 0).then_some(n)
    }

    /// The same on the holdout maps (`holdout_rounds` rounds).
    pub fn holdout_games_per_judge(&self, players: usize) -> Option<usize> {
        let n = games_per_judge(
            self.config.judges.len(),
            players,
            self.holdout_maps?,
            self.config.holdout_rounds,
        );
        (n > 0).then_some(n)
    }

    /// What the fitness figures draw of each evaluation.
    pub fn fitness_points(&self) -> Vec<FitnessPoint> {
        self.rows.iter().map(FitnessPoint::from).collect()
    }

    /// The champion's train-score band, if the run's maps could be counted.
    pub fn train_band(&self, players: usize) -> BandPoints {
        self.score_band(self.train_games_per_judge(players), |r| Some(&r.judge_rates))
    }

    /// The champion's holdout-score band.
    pub fn holdout_band(&self, players: usize) -> BandPoints {
        self.score_band(self.holdout_games_per_judge(players), |r| {
            r.holdout.is_some().then_some(&r.holdout_rates)
        })
    }

    /// The 95% band of the contest score from each evaluation's judge
    /// rates (`None`: not evaluated there), each rate over `n` games.
    fn score_band(&self, n: Option<usize>, rates: impl Fn(&GenerationStats) -> Option<&Vec<f64>>) -> BandPoints {
        let Some(n) = n else {
            return Vec::new();
        };
        let weights = self.judge_weights();
        self.rows
            .iter()
            .filter_map(|r| interval::contest_score(rates(r)?, &weights, n).map(|(lo, hi)| (r.generation, lo, hi)))
            .collect()
    }
}

/// One genome's games against one judge: the judge sits in C(J-1, P-2) of the
/// C(J, P-1) judge combinations, each played on every map from every seat.
pub fn games_per_judge(judges: usize, players: usize, maps: usize, rounds: usize) -> usize {
    if judges == 0 || players < 2 {
        return 0;
    }
    binomial(judges - 1, players - 2) * maps * players * rounds
}

fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_per_judge_counts_combinations_maps_and_seats() {
        // Two players: each judge alone at the table, both seats of each map.
        assert_eq!(games_per_judge(5, 2, 6, 1), 12);
        // Four players, 7 judges: a judge sits in C(6,2) = 15 of the triples.
        assert_eq!(games_per_judge(7, 4, 3, 1), 15 * 3 * 4);
        assert_eq!(games_per_judge(5, 2, 20, 2), 80);
        assert_eq!(games_per_judge(0, 2, 6, 1), 0);
        assert_eq!(binomial(6, 2), 15);
        assert_eq!(binomial(2, 3), 0);
    }
}
