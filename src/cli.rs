//! The command line: parse, call the library, print.

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use gridtune::arena::{self, stats::MatchStats};
use gridtune::bots::BotSpec;
use gridtune::evolve::{self, EvolveConfig};
use gridtune::export::freeze::{self, Freshness};
use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::slime::Slime;
use gridtune::games::GameKit;
use gridtune::genome::Genome;
use gridtune::maps::load_dir;
use gridtune::search::Limits;
use std::path::{Path, PathBuf};
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
    #[arg(long)]
    pub generations: Option<u32>,
    #[arg(long)]
    pub population: Option<usize>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run folder; default reports/<game>/<date>-seed<S>.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Copy the champion to genomes/<game>/best.ron when the run ends.
    #[arg(long)]
    pub promote: bool,
}

#[derive(Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A bot: judge:NAME or genome:PATH. Give exactly two.
    #[arg(long = "bot", required = true, num_args = 1)]
    pub bots: Vec<String>,
    /// Map folder; default maps/<game>/holdout.
    #[arg(long)]
    pub maps: Option<PathBuf>,
    /// Games to play, in pairs (both sides of a map); default two per map.
    #[arg(long)]
    pub games: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A bot: judge:NAME or genome:PATH; at least as many as the table seats.
    #[arg(long = "bot", required = true, num_args = 1)]
    pub bots: Vec<String>,
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
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args)]
pub struct MoveArgs {
    #[command(flatten)]
    pub game: GameArg,
    #[arg(long)]
    pub bot: String,
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
        /// File name prefix.
        #[arg(long, default_value = "map")]
        prefix: String,
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
    #[command(flatten)]
    pub game: GameArg,
    /// Perft depth from each train map's start.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Games for each games-per-second figure.
    #[arg(long, default_value_t = 40)]
    pub games: usize,
    /// The genome bot's node budget per move (the default evolve config's).
    #[arg(long, default_value_t = 1500)]
    pub nodes: u64,
}

/// Runs `$body` with `$G` bound to the game type named by `$name`.
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name.as_str() {
            "isolation" => {
                type $G = Isolation;
                $body
            }
            "lightcycles" => {
                type $G = LightCycles;
                $body
            }
            "slime" => {
                type $G = Slime;
                $body
            }
            "ataxx" => {
                type $G = Ataxx;
                $body
            }
            other => bail!("unknown game `{other}`; games: isolation, lightcycles, slime, ataxx"),
        }
    };
}

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Evolve(a) => with_game!(a.game.game, G => evolve_cmd::<G>(&a)),
        Command::Match(a) => with_game!(a.game.game, G => match_cmd::<G>(&a)),
        Command::Tournament(a) => with_game!(a.game.game, G => tournament_cmd::<G>(
            &a.bots, a.maps.as_deref(), a.rounds, a.all_seatings, a.seed, &a.budget
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
        }) => {
            with_game!(game.game, G => maps_generate::<G>(count, seed, &out, &prefix))
        }
        Command::Maps(MapsCommand::Check { game, files }) => with_game!(game.game, G => maps_check::<G>(&files)),
        Command::Bench(a) => with_game!(a.game.game, G => bench_cmd::<G>(&a)),
    }
}

/// Where the embedded configs' relative paths point: the project they were
/// built from.
fn project_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn evolve_cmd<G: GameKit>(a: &EvolveArgs) -> Result<()> {
    let (text, origin, base) = match &a.config {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("cannot read config {}", path.display()))?,
            path.display().to_string(),
            PathBuf::from("."),
        ),
        None => (
            G::DEFAULT_CONFIG.to_string(),
            format!("genomes/{}/evolve.ron (embedded)", G::NAME),
            project_root().to_path_buf(),
        ),
    };
    let mut config = EvolveConfig::parse(&text, &origin, G::JUDGES)?;
    if config.game != G::NAME {
        bail!("{origin}: config is for `{}`, not `{}`", config.game, G::NAME);
    }
    if let Some(g) = a.generations {
        config.generations = g;
    }
    if let Some(p) = a.population {
        config.population = p;
    }
    if let Some(s) = a.seed {
        config.seed = s;
    }
    config
        .check(G::JUDGES)
        .map_err(|m| anyhow::anyhow!("{origin} with command-line overrides: {m}"))?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("reports/{}/{}-seed{}", G::NAME, timestamp(), config.seed)));
    let mut resolved = config.clone();
    resolved.resolve_paths(&base);

    println!(
        "evolving {}: population {}, {} generations, seed {}, {} threads -> {}",
        G::NAME,
        config.population,
        config.generations,
        config.seed,
        rayon::current_num_threads(),
        out.display()
    );
    let judge_names: Vec<String> = config.judges.iter().map(|j| j.0.clone()).collect();
    let generations = config.generations;
    let summary = evolve::run::<G>(&resolved, &out, |s| {
        let rates: Vec<String> = judge_names
            .iter()
            .zip(&s.judge_rates)
            .map(|(n, r)| format!("{n} {:.0}%", 100.0 * r))
            .collect();
        println!(
            "gen {:>3}/{generations}  best {:5.1}  mean {:5.1}  median {:5.1}  peers {:3.0}%  [{}]  {} games {:.1}s ({:.0} games/s)",
            s.generation,
            s.best,
            s.mean,
            s.median,
            100.0 * s.peer_rate,
            rates.join(", "),
            s.games,
            s.seconds,
            s.games as f64 / s.seconds.max(1e-9)
        );
    })?;
    println!(
        "done in {:.1}s: {} games, {:.0} games/s; champion fitness {:.1}",
        summary.seconds,
        summary.games,
        summary.games as f64 / summary.seconds.max(1e-9),
        summary.history.last().map_or(0.0, |s| s.best)
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
    if a.promote {
        let dest = PathBuf::from(format!("genomes/{}/best.ron", G::NAME));
        let text = std::fs::read(out.join("best.ron"))?;
        gridtune::fsutil::write_atomic(&dest, &text).with_context(|| format!("cannot write {}", dest.display()))?;
        println!(
            "promoted to {}; run `gridtune freeze --game {}` to build it in",
            dest.display(),
            G::NAME
        );
    }
    Ok(())
}

fn tournament_cmd<G: GameKit>(
    bots: &[String],
    maps: Option<&Path>,
    rounds: usize,
    all_seatings: bool,
    seed: u64,
    budget: &BudgetArgs,
) -> Result<()> {
    if bots.len() < G::PLAYERS {
        bail!(
            "a {} table has {} seats: give at least {} --bot",
            G::NAME,
            G::PLAYERS,
            G::PLAYERS
        );
    }
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let limits = budget.limits();
    let specs = bots
        .iter()
        .map(|s| BotSpec::parse::<G>(s, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let dir = maps.map_or_else(|| PathBuf::from(format!("maps/{}/train", G::NAME)), Path::to_path_buf);
    let maps: Vec<G::Map> = load_dir(&dir, G::parse_map)?.into_iter().map(|m| m.map).collect();
    let started = Instant::now();
    let totals = arena::tournament::<G>(&maps, &specs, rounds, all_seatings, seed);
    let total_games = totals.tables * rounds;
    println!(
        "{} tables{} x {rounds} games on {}: {total_games} games in {:.1}s",
        totals.tables,
        if all_seatings {
            " (every seating)"
        } else {
            " (seated in list order)"
        },
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    let mut order: Vec<usize> = (0..specs.len()).collect();
    let average = |i: usize| totals.points[i] / totals.games[i].max(1) as f64;
    order.sort_by(|&a, &b| average(b).total_cmp(&average(a)));
    println!("{:<40} {:>6} {:>10} {:>9}", "bot", "games", "average", "share");
    for i in order {
        println!(
            "{:<40} {:>6} {:>10.2} {:>8.1}%",
            specs[i].label(),
            totals.games[i],
            G::points_to_result(average(i), &maps[0]),
            100.0 * average(i)
        );
    }
    Ok(())
}

fn match_cmd<G: GameKit>(a: &MatchArgs) -> Result<()> {
    if G::PLAYERS > 2 {
        return tournament_cmd::<G>(
            &a.bots,
            a.maps.as_deref(),
            a.games.unwrap_or(1),
            false,
            a.seed,
            &a.budget,
        );
    }
    if a.bots.len() != 2 {
        bail!("match needs exactly two --bot, got {}", a.bots.len());
    }
    let limits = a.budget.limits();
    let specs = a
        .bots
        .iter()
        .map(|s| BotSpec::parse::<G>(s, limits))
        .collect::<Result<Vec<_>, _>>()?;
    let dir = a
        .maps
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("maps/{}/holdout", G::NAME)));
    let maps: Vec<G::Map> = load_dir(&dir, G::parse_map)?.into_iter().map(|m| m.map).collect();
    let games = a.games.unwrap_or(2 * maps.len());
    if games == 0 || games % 2 == 1 {
        bail!("--games {games}: give a positive even number (games come in pairs, one from each side)");
    }
    let schedule = arena::paired_schedule(maps.len(), games / 2, a.seed);
    let started = Instant::now();
    let points = arena::play_schedule::<G>(&maps, &specs[0], &specs[1], &schedule);
    let stats = MatchStats::from_points(&points);
    let (elo, lo, hi) = stats.elo();
    println!(
        "{} vs {} on {} ({} maps): {} games in {:.1}s",
        specs[0].label(),
        specs[1].label(),
        dir.display(),
        maps.len(),
        stats.games(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "wins {}  draws {}  losses {}  score {:.1}  elo {:+.0} [{:+.0}, {:+.0}]",
        stats.wins,
        stats.draws,
        stats.losses,
        100.0 * stats.rate(),
        elo,
        lo,
        hi
    );
    Ok(())
}

fn move_cmd<G: GameKit>(a: &MoveArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.position).with_context(|| format!("cannot read {}", a.position.display()))?;
    let (state, player) = G::parse_position(&text).map_err(|e| anyhow::anyhow!("{}: {e}", a.position.display()))?;
    if state.to_move() == gridtune::game::ToMove::Over {
        bail!("{}: the game is over; there is no move to make", a.position.display());
    }
    let spec = BotSpec::parse::<G>(&a.bot, a.budget.limits())?;
    let mut bot = spec.build::<G>(a.seed);
    let m = bot.choose(&state, player);
    println!("{}", G::move_text(m));
    Ok(())
}

fn perft_cmd<G: GameKit>(a: &PerftArgs) -> Result<()> {
    let positions: Vec<(String, G)> = match &a.position {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            let (state, _) = G::parse_position(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
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
        for d in 1..=a.depth {
            line.push_str(&format!(" {}", gridtune::perft::perft(&state, d)));
        }
        println!("{line}  ({:.2}s)", started.elapsed().as_secs_f64());
    }
    Ok(())
}

fn freeze_cmd<G: GameKit>(a: &FreezeArgs) -> Result<()> {
    let path = a
        .genome
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("genomes/{}/best.ron", G::NAME)));
    let genome = Genome::load(&path, G::NAME, G::PARAMS)?;
    let source = path.display().to_string();
    let budget = a.budget_ms.unwrap_or(G::MOVE_BUDGET_MS);
    let root = Path::new(".");
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

fn maps_generate<G: GameKit>(count: usize, seed: u64, out: &Path, prefix: &str) -> Result<()> {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in 0..count {
        let text = G::generate_map_text(&mut rng);
        let path = out.join(format!("{prefix}{:02}.txt", i + 1));
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
        bail!("{bad} of {} maps are invalid", files.len());
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
