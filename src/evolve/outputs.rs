//! The files a run rewrites in its folder as it goes: genomes.csv,
//! generations.csv, judge_faults.csv, best.ron, the fitness plot, and at the
//! end holdout.csv.

use super::config::EvolveConfig;
use super::history::GenerationStats;
use super::verdict::{Verdict, VERDICT_CSV, VERDICT_RON};
use crate::games::GameKit;
use crate::genome::Genome;
use crate::report::fitness::{self, FitnessPoint};
use crate::tuner::ga::Rated;
use anyhow::Context;
use std::path::Path;

/// The judges' faults per evaluation period, in a run folder.
pub const FAULTS_CSV: &str = "judge_faults.csv";

/// A CSV field: a judge spec such as `sh:bot --a,b` may hold a comma or quote.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// genomes.csv: every rated genome of every generation, with its games, so
/// a run shows where racing spent them.
pub struct GenomesLog {
    path: std::path::PathBuf,
    text: String,
}

impl GenomesLog {
    /// Starts the log, or picks it up when resuming (rows of generations
    /// after the checkpoint, written before a kill, are dropped again).
    pub fn open(out: &Path, resuming: bool) -> anyhow::Result<Self> {
        let path = out.join("genomes.csv");
        let header = "generation,role,elo,se,games,weights\n";
        let text = if resuming {
            std::fs::read_to_string(&path).unwrap_or_else(|_| header.to_string())
        } else {
            header.to_string()
        };
        Ok(GenomesLog { path, text })
    }

    pub fn append(&mut self, generation: u32, rated: &[Rated]) -> anyhow::Result<()> {
        // A resumed run replays the generation after its checkpoint: drop
        // any rows a killed run had already written for it.
        let prefix = format!("{generation},");
        let kept: Vec<&str> = self.text.lines().filter(|l| !l.starts_with(&prefix)).collect();
        self.text = kept.join("\n") + "\n";
        for r in rated {
            let weights: Vec<String> = r.x.iter().map(|v| format!("{v:.2}")).collect();
            self.text.push_str(&format!(
                "{generation},{},{:.2},{:.2},{},{}\n",
                r.role,
                r.elo,
                r.se,
                2 * r.pairs,
                weights.join(" ")
            ));
        }
        crate::fsutil::write_atomic(&self.path, self.text.as_bytes())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// Rewrites the generation table, the plots and best.ron after a generation.
pub fn write_outputs<G: GameKit>(config: &EvolveConfig, out: &Path, history: &[GenerationStats]) -> anyhow::Result<()> {
    write_generations(config, out, history, None)?;

    // One row per judge and evaluation period: which judges could not play,
    // and how (program judges only ever fault).
    let mut faults = String::from("generation,judge,games,faulted,timeouts,crashes,invalid_lines,illegal_moves\n");
    for s in history {
        for ((name, _), f) in config.judges.iter().zip(&s.judge_faults) {
            faults.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                s.generation,
                csv_field(name),
                f.games,
                f.faulted(),
                f.timeouts,
                f.crashes,
                f.invalid_lines,
                f.illegal_moves
            ));
        }
    }
    let path = out.join(FAULTS_CSV);
    crate::fsutil::write_atomic(&path, faults.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;

    let last = history.last().expect("a generation");
    let comment = format!(
        "{} genome written by gridtune evolve: seed {}, champion after generation {}, train score {:.1}",
        G::NAME,
        config.seed,
        last.generation,
        last.train_score
    );
    Genome {
        weights: last.best_weights.clone(),
    }
    .save(&out.join("best.ron"), G::NAME, G::PARAMS, &comment)
    .with_context(|| format!("cannot write {}", out.join("best.ron").display()))?;

    let points: Vec<FitnessPoint> = history.iter().map(FitnessPoint::from).collect();
    let title = format!("{} evolution, seed {}", G::NAME, config.seed);
    crate::report::canvas::save(&fitness::run_folder_figure(&title, &points), out, "fitness")?;
    Ok(())
}

/// holdout.csv: the last evaluated champion's rate against each judge on the
/// holdout maps (not written when the run skips them).
pub fn write_holdout(out: &Path, holdout: &[(String, f64)]) -> anyhow::Result<()> {
    if holdout.is_empty() {
        return Ok(());
    }
    let mut csv = String::from("judge,rate\n");
    for (name, r) in holdout {
        csv.push_str(&format!("{name},{r:.4}\n"));
    }
    let path = out.join("holdout.csv");
    crate::fsutil::write_atomic(&path, csv.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}

/// The verdict's columns in generations.csv: its Elo, interval and games
/// against each opponent, filled on the last row once the verdict is played.
/// They come before `seconds`, which stays the last column.
fn verdict_columns() -> String {
    let mut header = String::new();
    for opponent in super::verdict::OPPONENTS {
        for what in ["elo", "elo_lo", "elo_hi", "games"] {
            header.push_str(&format!(",verdict_{opponent}_{what}"));
        }
    }
    header
}

fn verdict_cells(verdict: Option<&Verdict>) -> String {
    let mut cells = String::new();
    for opponent in super::verdict::OPPONENTS {
        match verdict.and_then(|v| v.against(opponent)) {
            Some(m) => cells.push_str(&format!(",{:.1},{:.1},{:.1},{}", m.elo, m.elo_lo, m.elo_hi, m.games)),
            None => cells.push_str(",,,,"),
        }
    }
    cells
}

/// generations.csv: one row per evaluation, and the verdict's columns on
/// the last row once it is played.
pub fn write_generations(
    config: &EvolveConfig,
    out: &Path,
    history: &[GenerationStats],
    verdict: Option<&Verdict>,
) -> anyhow::Result<()> {
    let mut csv = String::from(
        "generation,best,mean,median,champion_elo,champion_se,sigma,offspring_games_min,offspring_games_max,train_score,holdout",
    );
    for (name, _) in &config.judges {
        csv.push_str(&format!(",{name}"));
    }
    csv.push_str(&format!(",games,tuning_games{},seconds\n", verdict_columns()));
    for (i, s) in history.iter().enumerate() {
        let holdout = s.holdout.map_or(String::new(), |h| format!("{h:.3}"));
        csv.push_str(&format!(
            "{},{:.2},{:.2},{:.2},{:.2},{:.2},{:.4},{},{},{:.3},{holdout}",
            s.generation,
            s.best,
            s.mean,
            s.median,
            s.champion_elo,
            s.champion_se,
            s.sigma,
            s.offspring_games.0,
            s.offspring_games.1,
            s.train_score
        ));
        for r in &s.judge_rates {
            csv.push_str(&format!(",{r:.4}"));
        }
        let last = i + 1 == history.len();
        let verdict = verdict_cells(verdict.filter(|_| last));
        csv.push_str(&format!(",{},{}{verdict},{:.2}\n", s.games, s.tuning_games, s.seconds));
    }
    let path = out.join("generations.csv");
    crate::fsutil::write_atomic(&path, csv.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}

/// verdict.ron (what a resumed run and the report read back) and
/// verdict.csv, the same as a table.
pub fn write_verdict(out: &Path, verdict: &Verdict) -> anyhow::Result<()> {
    let mut csv = String::from(
        "opponent,genome,ms_per_move,games,wins,draws,losses,elo,elo_lo,elo_hi,sprt_elo0,sprt_elo1,llr,status,seconds\n",
    );
    for m in &verdict.matches {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{:.1},{:.1},{:.1},{},{},{:.3},{},{:.1}\n",
            m.opponent,
            csv_field(&m.genome),
            verdict.ms_per_move,
            m.games,
            m.wins,
            m.draws,
            m.losses,
            m.elo,
            m.elo_lo,
            m.elo_hi,
            m.sprt.0,
            m.sprt.1,
            m.llr,
            m.status,
            m.seconds
        ));
    }
    for (name, text) in [(VERDICT_RON, verdict.to_ron()), (VERDICT_CSV, csv)] {
        let path = out.join(name);
        crate::fsutil::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The workers of a distributed run and their share of its games.
pub const WORKERS_CSV: &str = "workers.csv";

/// One worker's row of workers.csv.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerRow {
    pub worker: String,
    pub batches: u64,
    pub games: u64,
    /// Seconds the worker reported playing.
    pub seconds: f64,
}

/// workers.csv as an earlier process of the run left it (none if absent
/// or unreadable: it only feeds the report).
pub fn read_workers(out: &Path) -> Vec<WorkerRow> {
    let Ok(text) = std::fs::read_to_string(out.join(WORKERS_CSV)) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let (rest, seconds) = line.rsplit_once(',')?;
            let (rest, games) = rest.rsplit_once(',')?;
            let (worker, batches) = rest.rsplit_once(',')?;
            Some(WorkerRow {
                worker: worker.trim_matches('"').replace("\"\"", "\""),
                batches: batches.parse().ok()?,
                games: games.parse().ok()?,
                seconds: seconds.parse().ok().filter(|s: &f64| s.is_finite())?,
            })
        })
        .collect()
}

/// Writes workers.csv: each worker's batches, games and seconds.
pub fn write_workers(out: &Path, rows: &[WorkerRow]) -> anyhow::Result<()> {
    let mut text = String::from("worker,batches,games,seconds\n");
    for r in rows {
        text.push_str(&format!(
            "{},{},{},{:.1}\n",
            csv_field(&r.worker),
            r.batches,
            r.games,
            r.seconds
        ));
    }
    let path = out.join(WORKERS_CSV);
    crate::fsutil::write_atomic(&path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}
