//! `gridtune evolve`: a run's set-up and loop from the library, with its
//! progress and results printed.

use super::args::{parse_sprt, CoordinatorArgs, GameArg, ServerArgs};
use super::evolve_progress::{generation_line, log_evaluation, EvolveBar};
use super::play::games_bar;
use super::promote;
use anyhow::Result;
use clap::Args;
use gridtune::arena::executor::Executor;
use gridtune::distributed::coordinator::{run_id, Remote};
use gridtune::evolve::outputs::{self, WorkerRow};
use gridtune::evolve::start::{self, Launch, Overrides};
use gridtune::evolve::verdict::Verdict;
use gridtune::evolve::{self, EvolveConfig, RunSummary};
use gridtune::games::GameKit;
use gridtune::progress;
use gridtune::report::GameInfo;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[derive(Args)]
pub struct EvolveArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Config file (RON); default: the embedded genomes/<game>/evolve.ron.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Games the tuner may spend (its generations and the confirmation of
    /// its recommendation); the champion's evaluations come on top.
    #[arg(long)]
    pub games: Option<u64>,
    /// Generations between two evaluations of the champion.
    #[arg(long)]
    pub eval_every: Option<u32>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run folder; default reports/<game>/<date>-seed<S>.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// When the run ends, replace genomes/<game>/best.ron with the run's
    /// confirmed recommendation if it beats that genome under an SPRT.
    #[arg(long)]
    pub promote: bool,
    /// The promotion SPRT's Elo bounds (logistic; alpha = beta = 0.05).
    #[arg(long, default_value = "0,10", value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub promote_sprt: String,
    /// The most games the promotion test plays before it gives up.
    #[arg(long, default_value_t = 2000)]
    pub promote_games: usize,
    /// Continue the run in this folder from its last checkpoint (with the
    /// config it was started with).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["config", "games", "eval_every", "seed", "out"])]
    pub resume: Option<PathBuf>,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// Run the config once per seed (each in DIR/seed<S> under --out, by
    /// default reports/<game>/<date>-sweep), then rank the champions by a
    /// round robin among them.
    #[arg(long, value_delimiter = ',', num_args = 1, conflicts_with_all = ["seed", "resume", "promote"])]
    pub seeds: Option<Vec<u64>>,
    /// Games of each pairing of the sweep's round robin (even), at the
    /// config's node budget.
    #[arg(long, default_value_t = 200, requires = "seeds")]
    pub sweep_games: usize,
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub coordinator: CoordinatorArgs,
}

impl EvolveArgs {
    fn launch(&self) -> Launch {
        match &self.resume {
            Some(dir) => Launch::Resume(dir.clone()),
            None => Launch::New {
                config: self.config.clone(),
                overrides: Overrides {
                    games: self.games,
                    eval_every: self.eval_every,
                    seed: self.seed,
                },
                out: self.out.clone(),
            },
        }
    }
}

/// One run (`--seeds` goes to `sweep::run` instead: see `cli/mod.rs`).
pub fn run<G: GameKit>(a: &EvolveArgs) -> Result<()> {
    // Read before the run, so that bad bounds do not fail only after it.
    let sprt = parse_sprt("--promote-sprt", &a.promote_sprt, 0.05, 0.05)?;
    evolve::promote::check_inputs::<G>(a.promote, a.promote_games)?;
    let run = run_one::<G>(a, &a.launch())?;
    if a.promote {
        promote::run::<G>(&sprt, a.promote_games, &run.config, &run.summary)?;
    }
    // The verdict is the run's last word.
    for line in run.verdict.iter().flat_map(Verdict::lines) {
        println!("{line}");
    }
    Ok(())
}

/// A run that has finished, with its verdict.
pub struct Finished {
    pub config: EvolveConfig,
    pub out: PathBuf,
    pub summary: RunSummary,
    pub verdict: Option<Verdict>,
}

/// One run from its launch to its summary and verdict (not yet printed).
pub fn run_one<G: GameKit>(a: &EvolveArgs, launch: &Launch) -> Result<Finished> {
    let run = start::prepare::<G>(launch)?;
    let (config, out) = (&run.config, &run.out);
    match (&run.checkpoint, run.resumed) {
        (Some(c), _) => println!("resuming {} after generation {}", out.display(), c.generation()),
        (None, true) => println!(
            "resuming {}: no generation of it had finished (it has no {}), so it starts over from the \
             beginning with its config",
            out.display(),
            evolve::CHECKPOINT
        ),
        (None, false) => {}
    }
    println!(
        "evolving {}: {} games for {}, seed {}, {} threads -> {}",
        G::NAME,
        config.games,
        config.tuner_summary(),
        config.seed,
        rayon::current_num_threads(),
        out.display()
    );
    start::open::<G>(&run)?;
    // The run folder names the run on the server, so a resumed coordinator
    // drops the batches its killed process left.
    let where_ = format!(
        "{}:{}",
        host_name(),
        std::fs::canonicalize(out).unwrap_or_else(|_| out.clone()).display()
    );
    let remote = a.coordinator.remote(&a.server, run_id(&where_))?;
    let earlier_workers = outputs::read_workers(out);
    let local = gridtune::arena::executor::Local;
    let executor: &dyn Executor<G> = match &remote {
        Some(r) => &**r,
        None => &local,
    };
    let judge_names: Vec<String> = config.judges.iter().map(|j| j.0.clone()).collect();
    let game_info = GameInfo::of::<G>();
    let mut report_error: Option<anyhow::Error> = None;
    let bar_state = Arc::new(Mutex::new(EvolveBar::new(config, run.checkpoint.as_ref())));
    let bar = {
        let state = Arc::clone(&bar_state);
        let remote = remote.clone();
        progress::Bar::start(progress::wanted(a.quiet), move || {
            let line = state.lock().unwrap_or_else(|e| e.into_inner()).line().render();
            match &remote {
                Some(r) => format!("{line}  {}", r.status()),
                None => line,
            }
        })
    };
    let summary = evolve::run::<G>(config, out, run.checkpoint, executor, |s| {
        bar_state.lock().unwrap_or_else(|e| e.into_inner()).update(config, s);
        progress::println(&generation_line(&judge_names, s));
        log_evaluation(&judge_names, s);
        tracing::info!(generation = s.generation, path = %out.join(evolve::CHECKPOINT).display(), "checkpoint written");
        if let Some(r) = &remote {
            note_workers(out, &earlier_workers, r, &mut report_error);
        }
        write_report(out, &game_info, &mut report_error);
    })?;
    bar.finish();
    if let Some(r) = &remote {
        note_workers(out, &earlier_workers, r, &mut report_error);
        println!("{}", r.summary());
    }
    let verdict = settle_verdict::<G>(config, out, &summary, a.quiet)?;
    if verdict.is_some() || !out.join(gridtune::report::REPORT).exists() {
        // The verdict's section; or a finished run resumed, or one from before reports: nothing ran, so build it now.
        write_report(out, &game_info, &mut report_error);
    }
    if let Some(e) = report_error {
        return Err(e.context(format!(
            "the run finished, but its report could not be written in {}",
            out.display()
        )));
    }
    print_summary(out, &summary);
    Ok(Finished {
        config: run.config.clone(),
        out: run.out.clone(),
        summary,
        verdict,
    })
}

/// The verdict's matches, with a progress bar over their games.
fn settle_verdict<G: GameKit>(
    config: &EvolveConfig,
    out: &Path,
    summary: &RunSummary,
    quiet: bool,
) -> Result<Option<Verdict>> {
    let note = Arc::new(Mutex::new(String::new()));
    let bar = {
        let note = Arc::clone(&note);
        let stage = format!("verdict at {} ms a move (at most)", G::MOVE_BUDGET_MS);
        let opponents = evolve::verdict::opponents::<G>(config).map_or(1, |o| o.len());
        let total = (config.verdict.games * opponents) as u64;
        games_bar(quiet || config.verdict.games == 0, stage, Some(total), move |_| {
            note.lock().unwrap_or_else(|e| e.into_inner()).clone()
        })
    };
    let verdict = evolve::settle_verdict::<G>(config, out, summary, |i, report| {
        let opponent = evolve::verdict::OPPONENTS.get(i).copied().unwrap_or("?");
        *note.lock().unwrap_or_else(|e| e.into_inner()) =
            format!("vs {opponent}: {:+.0} Elo after {} games", report.elo.elo, report.games);
    });
    bar.finish();
    verdict
}

/// The confirmation's candidates, the speed and where the results are.
fn print_summary(out: &Path, summary: &RunSummary) {
    tracing::info!(
        seconds = format_args!("{:.1}", summary.seconds),
        games = summary.games,
        recommended = %summary.recommended,
        "evolve run finished"
    );
    for c in &summary.candidates {
        let mark = if c.name == summary.recommended {
            "  <- recommended"
        } else {
            ""
        };
        println!(
            "  {:<18} {:+6.1} ±{:4.1} Elo in the confirmation{mark}",
            c.name, c.elo, c.se
        );
    }
    println!(
        "done in {:.1}s: {} games, {:.0} games/s",
        summary.seconds,
        summary.games,
        summary.games as f64 / summary.seconds.max(1e-9),
    );
    if !summary.holdout.is_empty() {
        let rates: Vec<String> = summary
            .holdout
            .iter()
            .map(|(n, r)| format!("{n} {:.0}%", 100.0 * r))
            .collect();
        println!("champion on holdout maps: {}", rates.join(", "));
    }
    println!("best genome: {}", out.join("best.ron").display());
    println!("report: {}", out.join(gridtune::report::REPORT).display());
}

/// Rebuilds a run's report.html; the first failure is kept for the end of
/// the run (a long run is not stopped for its report).
fn write_report(out: &Path, game: &GameInfo, error: &mut Option<anyhow::Error>) {
    match gridtune::report::write_run_report(out, game) {
        Ok(w) => tracing::info!(
            path = %w.html.display(),
            bytes = w.bytes,
            plots = w.plots.len(),
            "report written"
        ),
        Err(e) => {
            tracing::warn!("cannot write the report in {}: {e:#}", out.display());
            error.get_or_insert(e);
        }
    }
}

/// This machine's name, for the run's id on a server.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// Logs the workers seen and their games, and writes them to the run
/// folder's workers.csv (which the report shows), after the rows an earlier
/// process of the run left.
fn note_workers(out: &Path, earlier: &[WorkerRow], remote: &Remote, error: &mut Option<anyhow::Error>) {
    tracing::info!("{}", remote.status());
    let mut rows = earlier.to_vec();
    for (worker, t) in remote.workers() {
        match rows.iter_mut().find(|r| r.worker == worker) {
            Some(r) => {
                r.batches += t.batches;
                r.games += t.games;
                r.seconds += t.seconds;
            }
            None => rows.push(WorkerRow {
                worker,
                batches: t.batches,
                games: t.games,
                seconds: t.seconds,
            }),
        }
    }
    if let Err(e) = outputs::write_workers(out, &rows) {
        error.get_or_insert(e);
    }
}
