//! The command line: parse, call the library, print.

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use gridtune::arena;
use gridtune::arena::match_report::MatchReport;
use gridtune::arena::stats::Sprt;
use gridtune::bots::{BotSpec, Seat, SpecContext};
use gridtune::evolve::{self, EvolveConfig};
use gridtune::export::bundle;
use gridtune::export::freeze::{self, Freshness};
use gridtune::fsutil;
use gridtune::games::GameKit;
use gridtune::genome::Genome;
use gridtune::maps::{load_dir, NamedMap};
use gridtune::progress;
use gridtune::referee::command::BotsFile;
use gridtune::referee::{Fault, OnFailure, TimeLimits};
use gridtune::report::GameInfo;
use gridtune::search::Limits;
use gridtune::{bad_input, bail_input};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "gridtune", version, about = "Tune contest bots for grid games")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Evolve evaluation weights against the judge clones and each other.
    Evolve(EvolveArgs),
    /// Play two bots on both sides of each map and print the score (for a
    /// four-seat game, a tournament of the bots given).
    Match(MatchArgs),
    /// Play every combination of the bots at the game's table size, seated in
    /// list order, and print each bot's average result.
    Tournament(TournamentArgs),
    /// Print the move a bot makes in one position (the protocol's turn text).
    Move(MoveArgs),
    /// Count move sequences of a given length from a position.
    Perft(PerftArgs),
    /// Write a genome into the submission bot's generated constants file.
    Freeze(FreezeArgs),
    /// Generate or check map files.
    #[command(subcommand)]
    Maps(MapsCommand),
    /// Measure simulator, search and game speed.
    Bench(BenchArgs),
    /// Show a replay written by `match --replay`, turn by turn on the board.
    Replay(ReplayArgs),
    /// Rebuild a run folder's report.html from its files, or compare runs.
    Report(ReportArgs),
}

#[derive(Args)]
pub struct ReportArgs {
    /// Run folders written by `gridtune evolve`.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Compare the runs: their fitness curves overlaid in one plot and one
    /// table, written as an HTML page (see --out), a CSV and the plot.
    #[arg(long)]
    pub compare: bool,
    /// With --compare: the page to write (the plot and CSV go beside it,
    /// named after it); default compare.html in the first run folder's parent.
    #[arg(long, value_name = "FILE", requires = "compare")]
    pub out: Option<PathBuf>,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// A replay file.
    pub file: PathBuf,
}

/// Where bots come from besides the built-in specs, and the time limits of
/// program bots.
#[derive(Args)]
pub struct BotsArgs {
    /// A bots file (RON list of (name, spec, dir, turn_ms, first_turn_ms)):
    /// its names can be given as --bot.
    #[arg(long = "bots-file")]
    pub bots_file: Option<PathBuf>,
    /// Time limit per turn for program bots, in ms (default: the game's).
    #[arg(long)]
    pub turn_ms: Option<u64>,
    /// Time limit of a program bot's first turn, in ms (default: the game's).
    #[arg(long)]
    pub first_turn_ms: Option<u64>,
}

impl BotsArgs {
    fn load(&self) -> Result<Option<BotsFile>> {
        self.bots_file
            .as_deref()
            .map(BotsFile::load)
            .transpose()
            .map_err(|e| bad_input!("{e}"))
    }

    fn time_limits<G: GameKit>(&self) -> Result<Option<TimeLimits>> {
        if self.turn_ms == Some(0) || self.first_turn_ms == Some(0) {
            bail_input!("time limits must be at least 1 ms");
        }
        if self.turn_ms.is_none() && self.first_turn_ms.is_none() {
            return Ok(None);
        }
        let d = G::TIME_LIMITS;
        Ok(Some(TimeLimits::millis(
            self.first_turn_ms.unwrap_or(d.first.as_millis() as u64),
            self.turn_ms.unwrap_or(d.later.as_millis() as u64),
        )))
    }

    /// Parses `specs`; with none given, every bot of the bots file.
    fn specs<G: GameKit>(&self, specs: &[String], search: Limits) -> Result<Vec<BotSpec>> {
        let file = self.load()?;
        let ctx = SpecContext {
            search,
            bots: file.as_ref(),
            time: self.time_limits::<G>()?,
        };
        let names: Vec<String> = match (specs.is_empty(), &file) {
            (true, Some(f)) => f.names().iter().map(|n| n.to_string()).collect(),
            _ => specs.to_vec(),
        };
        Ok(names
            .iter()
            .map(|s| BotSpec::parse::<G>(s, &ctx))
            .collect::<Result<Vec<_>, _>>()?)
    }
}

#[derive(Args)]
pub struct GameArg {
    /// The game: isolation, lightcycles, slime or ataxx.
    #[arg(long)]
    pub game: String,
}

#[derive(Args)]
pub struct BudgetArgs {
    /// Search budget per move of genome bots, in nodes (deterministic).
    #[arg(long, default_value_t = 2000, conflicts_with = "ms")]
    pub nodes: u64,
    /// Search budget per move of genome bots, in milliseconds (overrides --nodes).
    #[arg(long)]
    pub ms: Option<u64>,
}

impl BudgetArgs {
    fn limits(&self) -> Limits {
        match self.ms {
            Some(ms) => Limits::time(Duration::from_millis(ms)),
            None => Limits::nodes(self.nodes),
        }
    }
}

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
    #[arg(long, default_value = "0,10", value_name = "ELO0,ELO1")]
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
}

#[derive(Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A bot: judge:NAME, genome:PATH, cmd:PROGRAM ARGS, sh:COMMAND, or a
    /// name from --bots-file. Give exactly two.
    #[arg(long = "bot", num_args = 1)]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub sources: BotsArgs,
    /// Map folder; default maps/<game>/holdout.
    #[arg(long, conflicts_with = "fresh_maps")]
    pub maps: Option<PathBuf>,
    /// Play each pair of games on a newly generated map (seeded by --seed)
    /// instead of a map folder: long matches between bots that search a node
    /// budget would otherwise replay the same games.
    #[arg(long)]
    pub fresh_maps: bool,
    /// Games to play, in pairs (both sides of a map); default two per map,
    /// 200 with --fresh-maps, or with --sprt at most 20000.
    #[arg(long)]
    pub games: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: the machine's cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Stop as soon as an SPRT of H0: elo = ELO0 against H1: elo = ELO1
    /// (logistic Elo, on game pairs) accepts either.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// The SPRT's false-positive rate.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub alpha: f64,
    /// The SPRT's false-negative rate.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub beta: f64,
    /// Print the result as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write each game as a replay file into this folder.
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A bot: judge:NAME, genome:PATH, cmd:PROGRAM ARGS, sh:COMMAND, or a
    /// name from --bots-file (default: every bot in it); at least as many as
    /// the table seats.
    #[arg(long = "bot", num_args = 1)]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub sources: BotsArgs,
    /// Map folder; default maps/<game>/train.
    #[arg(long)]
    pub maps: Option<PathBuf>,
    /// Games per table (seeds and maps vary between them).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Play every seating of each combination, not only list order.
    #[arg(long)]
    pub all_seatings: bool,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args)]
pub struct MoveArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Any bot spec; a program bot is run for this one turn through the referee.
    #[arg(long)]
    pub bot: String,
    #[command(flatten)]
    pub sources: BotsArgs,
    /// A turn as the protocol sends it (optionally after the first line).
    #[arg(long)]
    pub position: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A turn as the protocol sends it; default: each train map's start.
    #[arg(long)]
    pub position: Option<PathBuf>,
    #[arg(long)]
    pub depth: u32,
}

#[derive(Args)]
pub struct FreezeArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Genome to freeze; default genomes/<game>/best.ron.
    #[arg(long)]
    pub genome: Option<PathBuf>,
    /// Only check that the generated file matches the genome; fail if stale.
    #[arg(long)]
    pub check: bool,
    /// Write the submission bot as one self-contained Rust file here instead
    /// of writing tuned.rs (build it with `rustc --edition 2021 -O FILE`).
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    pub bundle: Option<PathBuf>,
    /// Per-move time budget of the submission bot; default: the current one.
    #[arg(long)]
    pub budget_ms: Option<u64>,
}

#[derive(Subcommand)]
pub enum MapsCommand {
    /// Write random legal maps.
    Generate {
        #[command(flatten)]
        game: GameArg,
        #[arg(long)]
        count: usize,
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// File name prefix (a plain name: no folder, no `..`).
        #[arg(long, default_value = "map")]
        prefix: String,
        /// Replace map files that already exist; without it they are refused.
        #[arg(long)]
        force: bool,
    },
    /// Validate map files; prints each problem with file and line.
    Check {
        #[command(flatten)]
        game: GameArg,
        files: Vec<PathBuf>,
    },
}

#[derive(Args)]
pub struct BenchArgs {
    /// `tuner`: the tuner benchmark (the GA against fishtest's SPSA on the
    /// synthetic Elo model); without it, the game's speed figures.
    #[arg(value_parser = ["tuner"])]
    pub target: Option<String>,
    /// The game whose speed to measure: isolation, lightcycles, slime or ataxx.
    #[arg(long, required_unless_present = "target")]
    pub game: Option<String>,
    /// Perft depth from each train map's start.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Games for each games-per-second figure.
    #[arg(long, default_value_t = 40)]
    pub games: usize,
    /// The genome bot's node budget per move (the default evolve config's).
    #[arg(long, default_value_t = 1500)]
    pub nodes: u64,
    /// Tuner benchmark: the short form (3 seeds, budgets doubling) CI runs.
    #[arg(long)]
    pub quick: bool,
    /// Tuner benchmark: the seed every run's seed derives from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

use gridtune::with_game;

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Evolve(a) => with_game!(a.game.game, G => evolve_cmd::<G>(&a)),
        Command::Match(a) => with_game!(a.game.game, G => match_cmd::<G>(&a)),
        Command::Tournament(a) => with_game!(a.game.game, G => tournament_cmd::<G>(
            &a.sources.specs::<G>(&a.bots, a.budget.limits())?, a.maps.as_deref(), a.rounds, a.all_seatings, a.seed, a.quiet
        )),
        Command::Move(a) => with_game!(a.game.game, G => move_cmd::<G>(&a)),
        Command::Perft(a) => with_game!(a.game.game, G => perft_cmd::<G>(&a)),
        Command::Freeze(a) => with_game!(a.game.game, G => freeze_cmd::<G>(&a)),
        Command::Maps(MapsCommand::Generate {
            game,
            count,
            seed,
            out,
            prefix,
            force,
        }) => {
            with_game!(game.game, G => maps_generate::<G>(count, seed, &out, &prefix, force))
        }
        Command::Maps(MapsCommand::Check { game, files }) => with_game!(game.game, G => maps_check::<G>(&files)),
        Command::Bench(a) if a.target.is_some() => {
            println!("{}", gridtune::tuner::bench::run(a.quick, a.seed));
            Ok(())
        }
        Command::Bench(a) => {
            let game = a.game.clone().expect("clap requires --game without a target");
            with_game!(game, G => bench_cmd::<G>(&a))
        }
        Command::Replay(a) => replay_cmd(&a.file),
        Command::Report(a) => report_cmd(&a),
    }
}

/// Where the embedded configs' relative paths point: the project they were
/// built from.
fn project_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn evolve_cmd<G: GameKit>(a: &EvolveArgs) -> Result<()> {
    // Every input is checked before the run folder is created or written:
    // a run that fails on its input leaves nothing behind and never touches
    // an older run.
    let sprt = promote_sprt(&a.promote_sprt)?;
    if a.promote_games < 2 {
        bail_input!("--promote-games must be at least 2");
    }
    if a.promote && promote_dest::<G>().exists() {
        // The incumbent the run must beat: a broken one is found now, not
        // after the whole run.
        Genome::load(&promote_dest::<G>(), G::NAME, G::PARAMS)?;
    }
    let (config, out, checkpoint) = match &a.resume {
        Some(dir) => {
            let (config, checkpoint) = evolve::setup::load_resume::<G>(dir)?;
            (config, dir.clone(), checkpoint)
        }
        None => {
            let (text, origin, base) = match &a.config {
                Some(path) => (
                    gridtune::error::read_input(path, "config")?,
                    path.display().to_string(),
                    evolve::setup::working_dir()?,
                ),
                None => (
                    G::DEFAULT_CONFIG.to_string(),
                    format!("genomes/{}/evolve.ron (embedded)", G::NAME),
                    project_root().to_path_buf(),
                ),
            };
            let mut config = EvolveConfig::parse(&text, &origin, G::JUDGES)?;
            if config.game != G::NAME {
                bail_input!("{origin}: config is for `{}`, not `{}`", config.game, G::NAME);
            }
            if let Some(g) = a.games {
                config.games = g;
            }
            if let Some(e) = a.eval_every {
                config.eval_every = e;
            }
            if let Some(s) = a.seed {
                config.seed = s;
            }
            config
                .check(G::JUDGES)
                .map_err(|m| bad_input!("{origin} with command-line overrides: {m}"))?;
            // Absolute, so the run folder's config.ron resumes from anywhere.
            config.resolve_paths(&base);
            let out = a
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("reports/{}/{}-seed{}", G::NAME, timestamp(), config.seed)));
            evolve::setup::check_new_folder(&out, G::NAME)?;
            (config, out, None)
        }
    };
    evolve::setup::check_inputs::<G>(&config)?;
    match (&checkpoint, &a.resume) {
        (Some(c), _) => println!("resuming {} after generation {}", out.display(), c.ga.generation),
        (None, Some(_)) => println!(
            "resuming {}: no generation of it had finished (it has no {}), so it starts over from the \
             beginning with its config",
            out.display(),
            evolve::CHECKPOINT
        ),
        (None, None) => {}
    }

    println!(
        "evolving {}: {} games for the tuner ({} island{}), seed {}, {} threads -> {}",
        G::NAME,
        config.games,
        config.ga.islands,
        if config.ga.islands == 1 { "" } else { "s" },
        config.seed,
        rayon::current_num_threads(),
        out.display()
    );
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create run folder {}", out.display()))?;
    let log_path = out.join("run.log");
    gridtune::logging::log_to_file(&log_path).with_context(|| format!("cannot open {}", log_path.display()))?;
    tracing::info!(
        game = G::NAME,
        seed = config.seed,
        games = config.games,
        islands = config.ga.islands,
        resume_after = checkpoint.as_ref().map_or(0, |c| c.ga.generation),
        threads = rayon::current_num_threads(),
        out = %out.display(),
        "evolve run started"
    );
    tracing::info!(config = %config.to_ron().split_whitespace().collect::<Vec<_>>().join(" "), "evolve config");
    let judge_names: Vec<String> = config.judges.iter().map(|j| j.0.clone()).collect();
    let game_info = GameInfo::of::<G>();
    let mut report_error: Option<anyhow::Error> = None;
    let bar_state = Arc::new(Mutex::new(EvolveBar {
        generation: checkpoint.as_ref().map_or(0, |c| c.ga.generation as u32),
        earlier_games: checkpoint.as_ref().map_or(0, |c| c.games as u64),
        run_base: arena::games_finished(),
        started: Instant::now(),
        total: config.games,
        train: checkpoint
            .as_ref()
            .and_then(|c| c.history.last())
            .map(|s| s.train_score),
    }));
    let bar = {
        let state = Arc::clone(&bar_state);
        progress::Bar::start(progress::wanted(a.quiet), move || {
            state.lock().unwrap_or_else(|e| e.into_inner()).line().render()
        })
    };
    let summary = evolve::run::<G>(&config, &out, checkpoint, |s| {
        let rates: Vec<String> = judge_names
            .iter()
            .zip(&s.judge_rates)
            .map(|(n, r)| format!("{n} {:.0}%", 100.0 * r))
            .collect();
        {
            let mut bar = bar_state.lock().unwrap_or_else(|e| e.into_inner());
            bar.generation = s.generation;
            // Evaluations come on top of the tuner's budget: scale the
            // expected total by their share so far.
            bar.total = (config.games as f64 * s.games as f64 / s.tuning_games.max(1) as f64) as u64;
            bar.train = Some(s.train_score);
        }
        let holdout = s.holdout.map_or(String::new(), |h| format!("  holdout {h:5.1}"));
        // A judge's faults are its losses: shown beside the rates they inflate.
        let faults: Vec<String> = judge_names
            .iter()
            .zip(&s.judge_faults)
            .filter(|(_, f)| f.faulted() > 0)
            .map(|(n, f)| format!("{n} {}/{}", f.faulted(), f.games))
            .collect();
        let faults = if faults.is_empty() {
            String::new()
        } else {
            format!("  judge faults [{}]", faults.join(", "))
        };
        progress::println(&format!(
            "gen {:>4}  champion {:+6.1} ±{:4.1} Elo  step {:.3}  train {:5.1} [{}]{holdout}  {} games {:.1}s{faults}",
            s.generation,
            s.champion_elo,
            s.champion_se,
            s.sigma,
            s.train_score,
            rates.join(", "),
            s.games,
            s.seconds,
        ));
        tracing::info!(
            generation = s.generation,
            champion_elo = format_args!("{:.1}", s.champion_elo),
            champion_se = format_args!("{:.1}", s.champion_se),
            best = format_args!("{:.1}", s.best),
            sigma = format_args!("{:.3}", s.sigma),
            train = format_args!("{:.2}", s.train_score),
            holdout = format_args!("{}", s.holdout.map_or("-".into(), |h| format!("{h:.2}"))),
            rates = %rates.join(", "),
            games = s.games,
            tuning_games = s.tuning_games,
            seconds = format_args!("{:.2}", s.seconds),
            "evaluation finished"
        );
        tracing::info!(generation = s.generation, path = %out.join(evolve::CHECKPOINT).display(), "checkpoint written");
        write_report(&out, &game_info, &mut report_error);
    })?;
    bar.finish();
    if !out.join(gridtune::report::REPORT).exists() {
        // A finished run resumed, or one from before reports: nothing ran, so build it now.
        write_report(&out, &game_info, &mut report_error);
    }
    if let Some(e) = report_error {
        return Err(e.context(format!(
            "the run finished, but its report could not be written in {}",
            out.display()
        )));
    }
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
    if a.promote {
        promote_cmd::<G>(a, &sprt, &config, &summary)?;
    }
    Ok(())
}

/// What the evolve progress bar shows, updated after each evaluation.
struct EvolveBar {
    /// Generations finished at the last evaluation.
    generation: u32,
    /// Games of the run before this session (a resumed run).
    earlier_games: u64,
    /// The arena's game counter when this session began.
    run_base: u64,
    started: Instant,
    /// Games the whole run is expected to play.
    total: u64,
    /// The champion's train score at the last evaluation.
    train: Option<f64>,
}

impl EvolveBar {
    fn line(&self) -> progress::Line {
        let session = arena::games_finished().saturating_sub(self.run_base);
        let done = self.earlier_games + session;
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = (elapsed > 0.2 && session > 0).then(|| session as f64 / elapsed);
        progress::Line {
            stage: format!("evolve, gen {}", self.generation),
            done,
            total: Some(self.total.max(done)),
            games_per_second: rate,
            seconds_left: rate.map(|r| self.total.saturating_sub(done) as f64 / r),
            note: self.train.map_or(String::new(), |t| format!("train {t:.1}")),
        }
    }
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

/// A progress bar over games counted by the arena, for `match` and
/// `tournament`; `note` describes the games so far.
fn games_bar(
    quiet: bool,
    stage: String,
    total: Option<u64>,
    note: impl Fn(u64) -> String + Send + 'static,
) -> progress::Bar {
    let base = arena::games_finished();
    let started = Instant::now();
    progress::Bar::start(progress::wanted(quiet), move || {
        let done = arena::games_finished().saturating_sub(base);
        let elapsed = started.elapsed().as_secs_f64();
        let rate = (elapsed > 0.2 && done > 0).then(|| done as f64 / elapsed);
        let left = match (total, rate) {
            (Some(t), Some(r)) => Some(t.saturating_sub(done) as f64 / r),
            _ => None,
        };
        progress::Line {
            stage: stage.clone(),
            done,
            total,
            games_per_second: rate,
            seconds_left: left,
            note: note(done),
        }
        .render()
    })
}

fn report_cmd(a: &ReportArgs) -> Result<()> {
    if a.compare {
        let out = a.out.clone().unwrap_or_else(|| {
            a.dirs[0]
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .join("compare.html")
        });
        let c = gridtune::report::compare::compare(&a.dirs, &out)?;
        print!("{}", gridtune::report::compare::table(&c.rows));
        println!(
            "wrote {} (plot {} and {}, table {})",
            c.html.display(),
            c.plot.png.display(),
            c.plot.svg.display(),
            c.csv.display()
        );
        return Ok(());
    }
    for dir in &a.dirs {
        let game = gridtune::report::data::game_of(dir)?;
        let written = with_game!(game, G => gridtune::report::write_run_report(dir, &GameInfo::of::<G>()))
            .with_context(|| format!("cannot build the report of {}", dir.display()))?;
        println!(
            "wrote {} ({} bytes, {} plots, each also as PNG and SVG in {})",
            written.html.display(),
            written.bytes,
            written.plots.len(),
            dir.display()
        );
    }
    Ok(())
}

/// `evolve --promote`: the recommendation must beat the incumbent best.ron
/// under an SPRT before it replaces it.
fn promote_cmd<G: GameKit>(
    a: &EvolveArgs,
    sprt: &Sprt,
    config: &EvolveConfig,
    summary: &evolve::RunSummary,
) -> Result<()> {
    let dest = promote_dest::<G>();
    let write = |weights: &[i32], why: &str| -> Result<()> {
        let comment = format!(
            "{} genome promoted by gridtune evolve (seed {}): {why}",
            G::NAME,
            config.seed
        );
        Genome {
            weights: weights.to_vec(),
        }
        .save(&dest, G::NAME, G::PARAMS, &comment)
        .with_context(|| format!("cannot write {}", dest.display()))?;
        println!(
            "promoted to {}; run `gridtune freeze --game {}` to build it in",
            dest.display(),
            G::NAME
        );
        Ok(())
    };
    if !dest.exists() {
        println!("{} does not exist: nothing to test against", dest.display());
        return write(&summary.champion.weights, "the first champion");
    }
    let incumbent = Genome::load(&dest, G::NAME, G::PARAMS)?;
    println!("promotion test: an SPRT against {}", dest.display());
    let p = evolve::promote::test::<G>(config, summary, &incumbent.weights, sprt, a.promote_games)?;
    print!("{}", p.test.table());
    if p.promote {
        write(
            &summary.champion.weights,
            &format!("the {} passed its SPRT against the incumbent", summary.recommended),
        )
    } else {
        println!(
            "kept {}: the {} did not pass the SPRT ({} games)",
            dest.display(),
            summary.recommended,
            p.test.games
        );
        Ok(())
    }
}

/// The genome `--promote` replaces.
fn promote_dest<G: GameKit>() -> PathBuf {
    PathBuf::from(format!("genomes/{}/best.ron", G::NAME))
}

/// `--promote-sprt ELO0,ELO1`, read before the run so that bad bounds do
/// not fail only after it.
fn promote_sprt(text: &str) -> Result<Sprt> {
    let bounds: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad_input!("--promote-sprt {text}: expected ELO0,ELO1 such as 0,10"))?;
    let [elo0, elo1] = bounds[..] else {
        bail_input!("--promote-sprt {text}: expected two numbers, ELO0,ELO1");
    };
    Sprt::new(elo0, elo1, 0.05, 0.05).map_err(|e| bad_input!("--promote-sprt {text}: {e}"))
}

fn tournament_cmd<G: GameKit>(
    specs: &[BotSpec],
    maps: Option<&Path>,
    rounds: usize,
    all_seatings: bool,
    seed: u64,
    quiet: bool,
) -> Result<()> {
    let flags = TableFlags {
        maps,
        ..TableFlags::default()
    };
    table_cmd::<G>(specs, rounds, all_seatings, seed, quiet, &flags)
}

/// What `match` adds to a tournament of a game with more than two seats.
#[derive(Default)]
struct TableFlags<'a> {
    maps: Option<&'a Path>,
    /// Play round r on generated map r instead of a map folder.
    fresh_maps: bool,
    json: bool,
    replay: Option<&'a Path>,
    concurrency: Option<usize>,
}

fn table_cmd<G: GameKit>(
    specs: &[BotSpec],
    rounds: usize,
    all_seatings: bool,
    seed: u64,
    quiet: bool,
    flags: &TableFlags,
) -> Result<()> {
    if specs.len() < G::PLAYERS {
        bail_input!(
            "a {} table has {} seats: give at least {} --bot",
            G::NAME,
            G::PLAYERS,
            G::PLAYERS
        );
    }
    if rounds == 0 {
        bail_input!("--rounds must be at least 1");
    }
    if flags.concurrency == Some(0) {
        bail_input!("--concurrency must be at least 1");
    }
    let (where_, named) = if flags.fresh_maps {
        let named: Vec<NamedMap<G::Map>> = arena::generated_maps::<G>(rounds, seed)
            .into_iter()
            .enumerate()
            .map(|(i, map)| NamedMap {
                name: format!("generated{:05} (seed {seed})", i + 1),
                map,
            })
            .collect();
        (format!("{} generated maps", named.len()), named)
    } else {
        let dir = flags
            .maps
            .map_or_else(|| PathBuf::from(format!("maps/{}/train", G::NAME)), Path::to_path_buf);
        (dir.display().to_string(), load_dir(&dir, G::parse_map)?)
    };
    let maps: Vec<G::Map> = named.iter().map(|m| m.map.clone()).collect();
    if let Some(replays) = flags.replay {
        std::fs::create_dir_all(replays).with_context(|| format!("cannot create {}", replays.display()))?;
    }
    let started = Instant::now();
    let tables = arena::tournament_tables(specs.len(), G::PLAYERS, all_seatings).len();
    let bar = games_bar(quiet, "tournament".into(), Some((tables * rounds) as u64), |_| {
        String::new()
    });
    let labels: Vec<String> = specs.iter().map(BotSpec::label).collect();
    tracing::info!(game = G::NAME, bots = specs.len(), tables, rounds, "tournament started");
    let replay_error: Mutex<Option<String>> = Mutex::new(None);
    let on_game = |g: arena::TableGame<G::Move>| {
        for t in g.record.turns.iter() {
            if let Some((fault, why)) = &t.fault {
                tracing::info!(game = g.index + 1, bot = %labels[g.seats[t.seat]], seat = t.seat, turn = t.turn + 1, "{}: {why}", fault.name());
            }
        }
        let Some(replays) = flags.replay else { return };
        let path = replays.join(format!("game{:05}.txt", g.index + 1));
        let seat_labels: Vec<String> = g.seats.iter().map(|&e| labels[e].clone()).collect();
        let map = &named[g.map];
        if let Err(e) = gridtune::replay::write::<G>(&path, &map.name, &map.map, &seat_labels, g.seed, g.record) {
            let mut first = replay_error.lock().unwrap_or_else(|e| e.into_inner());
            first.get_or_insert_with(|| format!("cannot write {}: {e}", path.display()));
        }
    };
    let play = || {
        arena::tournament_with::<G>(
            &maps,
            specs,
            rounds,
            all_seatings,
            seed,
            flags.replay.is_some(),
            &on_game,
        )
    };
    let totals = match flags.concurrency {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .context("cannot start the game threads")?
            .install(play),
        None => play(),
    };
    bar.finish();
    if let Some(e) = replay_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        bail!(e);
    }
    let seconds = started.elapsed().as_secs_f64();
    let total_games = totals.tables * rounds;
    let seating = if all_seatings {
        "every seating"
    } else {
        "seated in list order"
    };
    let mut order: Vec<usize> = (0..specs.len()).collect();
    let average = |i: usize| totals.points[i] / totals.games[i].max(1) as f64;
    order.sort_by(|&a, &b| average(b).total_cmp(&average(a)));
    // A bot's failed turns, as two-seat matches give their end reasons.
    let fault_list = |i: usize| -> Vec<(&'static str, u32)> {
        Fault::ALL
            .iter()
            .map(|f| (f.name(), totals.faults[i][f.index()]))
            .filter(|&(_, n)| n > 0)
            .collect()
    };
    for &i in &order {
        let list = fault_list(i);
        if !list.is_empty() {
            let text: Vec<String> = list.iter().map(|(name, n)| format!("{n} {name}")).collect();
            tracing::warn!(
                "{} failed {} turns: {}",
                labels[i],
                totals.faults[i].iter().sum::<u32>(),
                text.join(", ")
            );
        }
    }
    tracing::info!(
        games = total_games,
        seconds = format_args!("{seconds:.1}"),
        "tournament finished"
    );
    if flags.json {
        let bots: Vec<serde_json::Value> = order
            .iter()
            .map(|&i| {
                let faults: serde_json::Map<String, serde_json::Value> = Fault::ALL
                    .iter()
                    .map(|f| (f.name().replace(' ', "_"), totals.faults[i][f.index()].into()))
                    .collect();
                serde_json::json!({
                    "bot": labels[i],
                    "games": totals.games[i],
                    "average": totals.results[i] / totals.games[i].max(1) as f64,
                    "share": average(i),
                    "faults": faults,
                })
            })
            .collect();
        let report = serde_json::json!({
            "game": G::NAME,
            "tables": totals.tables,
            "seating": seating,
            "rounds": rounds,
            "games": total_games,
            "maps": where_,
            "seconds": seconds,
            "bots": bots,
            "replays": flags.replay.map(|p| p.display().to_string()),
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{} tables ({seating}) x {rounds} games on {where_}: {total_games} games in {seconds:.1}s",
        totals.tables
    );
    println!(
        "{:<40} {:>6} {:>10} {:>9} {:>7}",
        "bot", "games", "average", "share", "faults"
    );
    for &i in &order {
        println!(
            "{:<40} {:>6} {:>10.2} {:>8.1}% {:>7}",
            labels[i],
            totals.games[i],
            totals.results[i] / totals.games[i].max(1) as f64,
            100.0 * average(i),
            totals.faults[i].iter().sum::<u32>()
        );
    }
    let faulty: Vec<String> = order
        .iter()
        .filter_map(|&i| {
            let list = fault_list(i);
            (!list.is_empty()).then(|| {
                let text: Vec<String> = list.iter().map(|(name, n)| format!("{name}: {n}")).collect();
                format!("  {}: {}", labels[i], text.join(", "))
            })
        })
        .collect();
    if !faulty.is_empty() {
        println!(
            "failed turns (each played as {}):",
            if G::ON_FAILURE == OnFailure::Pass {
                "a pass"
            } else {
                "a loss"
            }
        );
        for line in faulty {
            println!("{line}");
        }
    }
    if let Some(replays) = flags.replay {
        println!("replays: {}", replays.display());
    }
    Ok(())
}

fn match_cmd<G: GameKit>(a: &MatchArgs) -> Result<()> {
    let specs = a.sources.specs::<G>(&a.bots, a.budget.limits())?;
    if G::PLAYERS > 2 {
        if a.sprt.is_some() {
            bail_input!(
                "--sprt needs a head-to-head of two bots; a {} match is a tournament of {}-seat tables \
                 (use --games for more rounds)",
                G::NAME,
                G::PLAYERS
            );
        }
        let flags = TableFlags {
            maps: a.maps.as_deref(),
            fresh_maps: a.fresh_maps,
            json: a.json,
            replay: a.replay.as_deref(),
            concurrency: a.concurrency,
        };
        // A table's games are its rounds; a match plays each table once by default.
        let rounds = a.games.unwrap_or(1);
        if rounds == 0 {
            bail_input!("--games must be at least 1");
        }
        return table_cmd::<G>(&specs, rounds, false, a.seed, a.quiet, &flags);
    }
    if specs.len() != 2 {
        bail_input!("match needs exactly two bots (--bot), got {}", specs.len());
    }
    let sprt = a
        .sprt
        .as_deref()
        .map(|text| parse_sprt(text, a.alpha, a.beta))
        .transpose()?;
    let games = a.games.unwrap_or(match (&sprt, a.fresh_maps) {
        (Some(_), _) => 20_000,
        (None, true) => 200,
        // Two per map, counted once the maps are loaded.
        (None, false) => 2,
    });
    if games == 0 || games % 2 == 1 {
        bail_input!("--games {games}: give a positive even number (games come in pairs, one from each side)");
    }
    let (where_, named) = if a.fresh_maps {
        let maps = arena::generated_maps::<G>(games / 2, a.seed);
        let named: Vec<NamedMap<G::Map>> = maps
            .into_iter()
            .enumerate()
            .map(|(i, map)| NamedMap {
                name: format!("generated{:05} (seed {})", i + 1, a.seed),
                map,
            })
            .collect();
        (format!("{} generated maps", named.len()), named)
    } else {
        let dir = a
            .maps
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("maps/{}/holdout", G::NAME)));
        (dir.display().to_string(), load_dir(&dir, G::parse_map)?)
    };
    let maps: Vec<G::Map> = named.iter().map(|m| m.map.clone()).collect();
    let games = if sprt.is_none() && !a.fresh_maps && a.games.is_none() {
        2 * maps.len()
    } else {
        games
    };
    if let Some(replays) = &a.replay {
        std::fs::create_dir_all(replays).with_context(|| format!("cannot create {}", replays.display()))?;
    }
    let concurrency = a.concurrency.unwrap_or_else(rayon::current_num_threads);
    if concurrency == 0 {
        bail_input!("--concurrency must be at least 1");
    }
    let schedule = arena::paired_schedule(maps.len(), games / 2, a.seed);
    if games > 2 * maps.len() && !specs.iter().any(BotSpec::is_program) {
        eprintln!(
            "note: {games} games on {} maps repeat each map; bots that search a node budget replay the \
             same games there, which adds no information. --fresh-maps gives every pair a new map.",
            maps.len()
        );
    }
    let labels = [specs[0].label(), specs[1].label()];
    let mut report = MatchReport::new(G::NAME, labels.clone(), where_, concurrency);
    let started = Instant::now();
    tracing::info!(game = G::NAME, a = %labels[0], b = %labels[1], games = schedule.len(), concurrency, "match started");
    let score = Arc::new(Mutex::new((0.0f64, 0u32)));
    let bar = {
        let score = Arc::clone(&score);
        let name: String = labels[0].chars().take(24).collect();
        let stage = if sprt.is_some() {
            "match (SPRT: at most)"
        } else {
            "match"
        };
        games_bar(a.quiet, stage.into(), Some(schedule.len() as u64), move |_| {
            let (points, games) = *score.lock().unwrap_or_else(|e| e.into_inner());
            if games == 0 {
                String::new()
            } else {
                format!("{name} {:.1}%", 100.0 * points / f64::from(games))
            }
        })
    };
    let mut replay_error = None;
    let plan = arena::runner::MatchPlan::<G> {
        maps: &maps,
        a: &specs[0],
        b: &specs[1],
        fillers: &[],
        schedule: &schedule,
        concurrency,
        log: a.replay.is_some(),
    };
    let pairs = arena::runner::run_pairs(&plan, |first, second| {
        report.add_pair([first, second], sprt.as_ref());
        {
            let mut s = score.lock().unwrap_or_else(|e| e.into_inner());
            s.0 += f64::from(first.head_to_head() + second.head_to_head());
            s.1 += 2;
        }
        if let Some(replays) = &a.replay {
            for g in [first, second] {
                let seats = arena::pairing_seats(&labels[0], &labels[1], g.pairing);
                let path = replays.join(format!("game{:05}.txt", g.index + 1));
                let map = &named[g.pairing.map];
                let seat_labels = seats.map(String::clone);
                if let Err(e) =
                    gridtune::replay::write::<G>(&path, &map.name, &map.map, &seat_labels, g.pairing.seed, &g.record)
                {
                    replay_error = Some(format!("cannot write {}: {e}", path.display()));
                    return ControlFlow::Break(());
                }
            }
        }
        if report.decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    bar.finish();
    if let Some(e) = replay_error {
        bail!(e);
    }
    report.seconds = started.elapsed().as_secs_f64();
    tracing::info!(pairs, seconds = format_args!("{:.1}", report.seconds), "match finished");
    report.stopped_early = pairs * 2 < schedule.len();
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.table());
        if let Some(replays) = &a.replay {
            println!("replays: {}", replays.display());
        }
    }
    Ok(())
}

fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let bounds: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad_input!("--sprt {text}: expected ELO0,ELO1 such as 0,10"))?;
    let [elo0, elo1] = bounds[..] else {
        bail_input!("--sprt {text}: expected two numbers, ELO0,ELO1");
    };
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| bad_input!("--sprt {text}: {e}"))
}

fn replay_cmd(path: &Path) -> Result<()> {
    let text = gridtune::error::read_input(path, "replay")?;
    let origin = path.display().to_string();
    let replay = gridtune::replay::parse(&text, &origin)?;
    let games = ["isolation", "lightcycles", "slime", "ataxx"];
    if !games.contains(&replay.game.as_str()) {
        return Err(gridtune::replay::ReplayError {
            origin,
            line: replay.lines.game,
            message: format!("unknown game `{}`; games: {}", replay.game, games.join(", ")),
        }
        .into());
    }
    let shown = with_game!(replay.game, G => gridtune::replay::show::<G>(&replay, &origin)?);
    print!("{shown}");
    Ok(())
}

fn move_cmd<G: GameKit>(a: &MoveArgs) -> Result<()> {
    let text = gridtune::error::read_input(&a.position, "position")?;
    let (state, player) = G::parse_position(&text).map_err(|e| bad_input!("{}: {e}", a.position.display()))?;
    if state.to_move() == gridtune::game::ToMove::Over {
        bail_input!("{}: the game is over; there is no move to make", a.position.display());
    }
    let spec = a
        .sources
        .specs::<G>(std::slice::from_ref(&a.bot), a.budget.limits())?
        .remove(0);
    if !G::asks(&state, player) {
        // The referee never asks a side with no action: it plays the forced
        // move (Ataxx's pass) for it, and so does `move`.
        if let Some(m) = gridtune::referee::forced_move(&state, player) {
            eprintln!("note: player {player} has no action and must pass; the referee does not ask the bot");
            let text = if state.is_pass(&m) {
                "pass".to_string()
            } else {
                G::move_text(m)
            };
            println!("{text}");
            return Ok(());
        }
    }
    let m = match spec.build::<G>(a.seed) {
        Seat::Builtin(mut bot) => bot.choose(&state, player),
        Seat::Program(mut bot) => {
            bot.start_game(&state, player);
            let started = bot.send_turn(&state, player, &[]);
            let (reply, log) = bot.read_reply(&state, player, started);
            bot.end_game();
            if !log.stderr.is_empty() {
                eprint!("{}", log.stderr);
            }
            reply.map_err(|(fault, why)| anyhow::anyhow!("{}: {}: {why}", spec.label(), fault.name()))?
        }
    };
    println!("{}", G::move_text(m));
    Ok(())
}

fn perft_cmd<G: GameKit>(a: &PerftArgs) -> Result<()> {
    let positions: Vec<(String, G)> = match &a.position {
        Some(path) => {
            let text = gridtune::error::read_input(path, "position")?;
            let (state, _) = G::parse_position(&text).map_err(|e| bad_input!("{}: {e}", path.display()))?;
            vec![(path.display().to_string(), state)]
        }
        None => load_dir(Path::new(&format!("maps/{}/train", G::NAME)), G::parse_map)?
            .into_iter()
            .map(|m| (m.name, G::start(&m.map)))
            .collect(),
    };
    for (name, state) in positions {
        let started = Instant::now();
        let mut line = format!("{name}:");
        // Depth 0 counts the position itself, as perft does.
        for d in a.depth.min(1)..=a.depth {
            line.push_str(&format!(" {}", gridtune::perft::perft(&state, d)));
        }
        println!("{line}  ({:.2}s)", started.elapsed().as_secs_f64());
    }
    Ok(())
}

fn freeze_cmd<G: GameKit>(a: &FreezeArgs) -> Result<()> {
    let budget = a.budget_ms.unwrap_or(G::MOVE_BUDGET_MS);
    // The bot searches for a share of its budget: with 0 it cannot search at
    // all, and over the contest's limit it loses every game on time.
    let limit = G::TIME_LIMITS.later.as_millis() as u64;
    if !(1..=limit).contains(&budget) {
        bail_input!(
            "--budget-ms {budget} is out of range: {} allows 1..={limit} ms per move",
            G::NAME
        );
    }
    let root = Path::new(".");
    if a.bundle.is_none() {
        check_project_root::<G>(root)?;
    }
    let path = a
        .genome
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("genomes/{}/best.ron", G::NAME)));
    let genome = Genome::load(&path, G::NAME, G::PARAMS)?;
    let source = path.display().to_string();
    if let Some(out) = &a.bundle {
        return bundle_cmd::<G>(out, &genome, &source, budget);
    }
    if a.check {
        match freeze::check::<G>(root, &genome, &source, budget) {
            Freshness::Fresh => println!("{} is up to date with {source}", G::TUNED_PATH),
            Freshness::Stale => {
                eprintln!(
                    "{} is stale: it does not match {source}; run `gridtune freeze --game {}`",
                    G::TUNED_PATH,
                    G::NAME
                );
                std::process::exit(1);
            }
            Freshness::Missing => {
                eprintln!("{} is missing (run from the project root)", G::TUNED_PATH);
                std::process::exit(1);
            }
        }
        return Ok(());
    }
    freeze::write::<G>(root, &genome, &source, budget).with_context(|| format!("cannot write {}", G::TUNED_PATH))?;
    println!(
        "wrote {} from {source}; rebuild with `cargo build --release --bin {}-bot`",
        G::TUNED_PATH,
        G::NAME
    );
    Ok(())
}

/// `freeze` without `--bundle` writes (or checks) tuned.rs at its path in the
/// gridtune source tree, which it finds only from the working folder; run
/// elsewhere it would create a stray `src/games/...`, so the folder must be
/// the project's root.
fn check_project_root<G: GameKit>(root: &Path) -> Result<()> {
    let here = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| ".".into());
    let manifest = root.join("Cargo.toml");
    let is_gridtune = std::fs::read_to_string(&manifest)
        .is_ok_and(|t| t.lines().any(|l| l.replace([' ', '\t'], "") == "name=\"gridtune\""));
    let tuned_dir = Path::new(G::TUNED_PATH).parent().unwrap_or(Path::new("."));
    let missing = if !is_gridtune {
        "Cargo.toml of the gridtune package".to_string()
    } else if !root.join(tuned_dir).is_dir() {
        format!("folder {}", tuned_dir.display())
    } else {
        return Ok(());
    };
    bail_input!(
        "freeze writes {} in the gridtune source tree, but {here} has no {missing}: run it from the project's root folder, or give --bundle FILE",
        G::TUNED_PATH
    )
}

/// `freeze --bundle FILE`: only FILE is written, tuned.rs is left alone.
fn bundle_cmd<G: GameKit>(out: &Path, genome: &Genome, source: &str, budget: u64) -> Result<()> {
    // write_atomic would create missing folders; a mistyped path should fail.
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        bail_input!(
            "cannot write the bundle {}: the folder {} does not exist",
            out.display(),
            dir.display()
        );
    }
    if out.is_dir() {
        bail_input!("cannot write the bundle {}: it is a folder", out.display());
    }
    let text = bundle::render_bundle::<G>(genome, source, budget)?;
    fsutil::write_atomic(out, text.as_bytes()).with_context(|| format!("cannot write the bundle {}", out.display()))?;
    println!(
        "wrote {} ({} lines) from {source}; build it with `rustc --edition 2021 -O {}`",
        out.display(),
        text.lines().count(),
        out.display()
    );
    Ok(())
}

fn maps_generate<G: GameKit>(count: usize, seed: u64, out: &Path, prefix: &str, force: bool) -> Result<()> {
    use rand::SeedableRng;
    // A prefix is joined to --out as a file name; a folder in it would write
    // outside --out.
    if prefix.contains(['/', '\\', '\0']) || prefix.contains("..") {
        bail_input!(
            "--prefix `{prefix}` must be a plain file name prefix, without `/`, `\\` or `..`: maps go in --out"
        );
    }
    let paths: Vec<PathBuf> = (0..count)
        .map(|i| out.join(format!("{prefix}{:02}.txt", i + 1)))
        .collect();
    // Checked before anything is written, so a refusal leaves --out as it was.
    if !force {
        let existing: Vec<String> = paths
            .iter()
            .filter(|p| p.symlink_metadata().is_ok())
            .map(|p| p.display().to_string())
            .collect();
        if let Some(first) = existing.first() {
            let others = match existing.len() - 1 {
                0 => " already exists".to_string(),
                1 => " and 1 other map already exist".to_string(),
                n => format!(" and {n} other maps already exist"),
            };
            bail_input!("{first}{others}: give --force to replace them, or another --out or --prefix");
        }
    }
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    for path in paths {
        let text = G::generate_map_text(&mut rng);
        gridtune::fsutil::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(())
}

fn maps_check<G: GameKit>(files: &[PathBuf]) -> Result<()> {
    let mut bad = 0;
    for f in files {
        match gridtune::maps::load_file(f, G::parse_map) {
            Ok(_) => println!("{}: ok", f.display()),
            Err(e) => {
                println!("{e}");
                bad += 1;
            }
        }
    }
    if bad > 0 {
        bail_input!("{bad} of {} maps are invalid", files.len());
    }
    Ok(())
}

fn bench_cmd<G: GameKit>(a: &BenchArgs) -> Result<()> {
    let maps = load_dir(Path::new(&format!("maps/{}/train", G::NAME)), G::parse_map)?;
    let started = Instant::now();
    let mut nodes = 0;
    for m in &maps {
        nodes += gridtune::perft::perft(&G::start(&m.map), a.depth);
    }
    let t = started.elapsed().as_secs_f64();
    println!(
        "perft({}) over {} train maps: {nodes} leaves in {t:.2}s = {:.1} M leaves/s",
        a.depth,
        maps.len(),
        nodes as f64 / t / 1e6
    );

    let genome = Genome {
        weights: G::FROZEN.to_vec(),
    };
    let mut bot = G::genome_bot(&genome.weights, Limits::nodes(200_000));
    let state = G::start(&maps[0].map);
    let player = match state.to_move() {
        gridtune::game::ToMove::One(p) => p,
        _ => 0,
    };
    let started = Instant::now();
    let _ = bot.choose(&state, player);
    let t = started.elapsed().as_secs_f64();
    println!(
        "genome bot search: 200000 nodes from {} start in {t:.3}s = {:.2} M nodes/s",
        maps[0].name,
        0.2 / t
    );

    let map_list: Vec<G::Map> = maps.iter().map(|m| m.map.clone()).collect();
    let schedule = arena::paired_schedule(map_list.len(), a.games / 2, 1);
    let rate = |a: &BotSpec, b: &BotSpec| {
        let started = Instant::now();
        let _ = arena::play_schedule::<G>(&map_list, a, b, &schedule);
        schedule.len() as f64 / started.elapsed().as_secs_f64()
    };
    println!(
        "games per second on {} threads, {} games each:",
        rayon::current_num_threads(),
        schedule.len()
    );
    let judges: Vec<BotSpec> = G::JUDGES.iter().map(|j| BotSpec::Judge(j.to_string())).collect();
    for (i, a) in judges.iter().enumerate() {
        let b = &judges[(i + 1) % judges.len()];
        println!("  {} vs {}: {:.1}", a.label(), b.label(), rate(a, b));
    }
    let me = BotSpec::Genome {
        label: format!("frozen genome ({} nodes)", a.nodes),
        weights: genome.weights,
        limits: Limits::nodes(a.nodes),
    };
    for judge in &judges {
        println!("  {} vs {}: {:.1}", me.label(), judge.label(), rate(&me, judge));
    }
    Ok(())
}

/// UTC date and time as `YYYYMMDD-HHMMSS`, for run folder names.
fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
