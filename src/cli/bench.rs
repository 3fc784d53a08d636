//! `gridtune bench --game G`: the speed of the simulator (perft), of the
//! genome bot's evaluation and search, the nodes the submission bot searches
//! a move at its real budget, of whole games, and how games per second scale
//! from one thread to two. Every figure is measured as it runs.

use anyhow::{bail, Context, Result};
use clap::Args;
use gridtune::arena::{self, Pairing};
use gridtune::bots::{Bot, BotSpec};
use gridtune::contest::ProcessModel;
use gridtune::fit::play_out;
use gridtune::game::{mix64, Game, ToMove};
use gridtune::games::GameKit;
use gridtune::maps::load_dir;
use gridtune::perft::perft;
use gridtune::scale;
use gridtune::search::{Evaluator, Limits};
use rayon::prelude::*;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    /// `tuner`: the tuner benchmark (the GA against fishtest's SPSA on the
    /// synthetic Elo model); without it, the game's speed figures.
    #[arg(value_parser = ["tuner"])]
    pub target: Option<String>,
    /// The game whose speed to measure: isolation, lightcycles, slime or ataxx.
    #[arg(long, required_unless_present = "target")]
    pub game: Option<String>,
    /// Perft depth from each train map's start (default: deepening until a
    /// depth takes a second over all of them or the next would take over
    /// four; a tenth of that with --quick).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games for each games-per-second figure and for each thread count of
    /// the scaling [default: 20, or 6 with --quick].
    #[arg(long)]
    pub games: Option<usize>,
    /// The genome bot's node budget per move in games (the default evolve config's).
    #[arg(long, default_value_t = 1500)]
    pub nodes: u64,
    /// The short form: for the tuner benchmark, 3 seeds and budgets
    /// doubling (CI runs it); for a game, every budget about ten times smaller.
    #[arg(long)]
    pub quick: bool,
    /// Tuner benchmark: the seed every run's seed derives from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// How much work each figure gets.
struct Budget {
    perft_seconds: f64,
    eval_seconds: f64,
    /// Train maps whose judge games give the evaluated positions.
    eval_maps: usize,
    /// Train maps from whose starts the search figure searches.
    search_maps: usize,
    search_nodes: u64,
    /// Judge-game positions the submission bot searches at its budget.
    submission_moves: usize,
    games: usize,
    /// Runs of the scaling schedule per thread count, interleaved; each
    /// count's best is kept, the run least disturbed by other processes.
    scaling_runs: usize,
}

impl Budget {
    fn new(a: &BenchArgs) -> Self {
        let (perft_seconds, eval_seconds, eval_maps, search_maps, search_nodes, submission_moves, games, scaling_runs) =
            if a.quick {
                (0.1, 0.05, 1, 1, 20_000, 8, 6, 1)
            } else {
                (1.0, 0.5, usize::MAX, 3, 200_000, 60, 20, 2)
            };
        Budget {
            perft_seconds,
            eval_seconds,
            eval_maps,
            search_maps,
            search_nodes,
            submission_moves,
            games: a.games.unwrap_or(games),
            scaling_runs,
        }
    }
}

pub fn run<G: GameKit>(a: &BenchArgs) -> Result<()> {
    let budget = Budget::new(a);
    if budget.games == 0 {
        gridtune::bail_input!("--games must be at least 1");
    }
    let named = load_dir(Path::new(&format!("maps/{}/train", G::NAME)), G::parse_map)?;
    let maps: Vec<G::Map> = named.iter().map(|m| m.map.clone()).collect();
    let starts: Vec<G> = maps.iter().map(G::start).collect();
    let build = if cfg!(debug_assertions) {
        "debug build: figures far below a release build's"
    } else {
        "release build"
    };
    // Other processes on the cores lower every figure, the thread scaling most.
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| {
            l.split_whitespace()
                .next()
                .map(|one_minute| format!(", load average {one_minute}"))
        })
        .unwrap_or_default();
    println!(
        "{}, {build}, {} train maps, {} cores{load}",
        G::NAME,
        maps.len(),
        std::thread::available_parallelism().map_or(1, usize::from)
    );

    let (depth, leaves, seconds) = perft_figure(&starts, a.depth, budget.perft_seconds);
    row(
        &format!("perft({depth}) from {} starts", starts.len()),
        &format!("{leaves} leaves in {seconds:.3} s"),
        leaves as f64 / seconds / 1e6,
        2,
        "M leaves/s",
    );

    let games = judge_games::<G>(&maps[..budget.eval_maps.min(maps.len())], a.seed)?;
    let positions: Vec<G> = games.concat();
    let (calls, seconds) = evaluation_figure(&G::evaluation(G::FROZEN), &positions, budget.eval_seconds);
    row(
        "evaluation, frozen weights",
        &format!("{} positions x {} seats, {calls} calls", positions.len(), G::PLAYERS),
        seconds * 1e9 / calls as f64,
        1,
        "ns/call",
    );

    let searched = &starts[..budget.search_maps.min(starts.len())];
    let (nodes, seconds) = search_figure(searched, budget.search_nodes);
    row(
        "search, frozen genome",
        &format!("{} starts, {nodes} nodes in {seconds:.3} s", searched.len()),
        nodes as f64 / seconds / 1e6,
        2,
        "M nodes/s",
    );

    scale_rows::<G>(&positions, a.nodes);

    let limits = G::submission_limits();
    let started = (Instant::now(), thread_cpu_ns());
    let (mut nodes, left_out) = submission_nodes(&games, limits, budget.submission_moves);
    // A time budget searches as many nodes as the core it gets: with other
    // processes on it, the figure falls, and this share says by how much.
    let core_share = thread_cpu_ns()
        .zip(started.1)
        .map(|(end, start)| end.saturating_sub(start) as f64 / 1e9 / started.0.elapsed().as_secs_f64().max(1e-9));
    nodes.sort_unstable();
    if let (Some(low), Some(high)) = (nodes.first(), nodes.last()) {
        let search_ms = limits.time.map_or(0, |t| t.as_millis());
        let median = nodes[nodes.len() / 2] as f64;
        row(
            &format!("submission bot, {} ms a move", G::MOVE_BUDGET_MS),
            &format!(
                "{search_ms} ms search, {} moves (median, range {low}-{high}; {left_out} forced left out)",
                nodes.len()
            ),
            median,
            0,
            "nodes/move",
        );
        if let Some(share) = core_share.filter(|s| *s > 0.0) {
            row(
                "  the same on a whole core",
                &format!(
                    "the median over the {:.0}% of a core the searches had",
                    100.0 * share.min(1.0)
                ),
                median / share.min(1.0),
                0,
                "nodes/move",
            );
        }
    }

    let judges: Vec<BotSpec> = G::JUDGES.iter().map(|j| BotSpec::Judge(j.to_string())).collect();
    let fillers = vec![judges[0].clone(); G::PLAYERS.saturating_sub(2)];
    let schedule = arena::paired_schedule(maps.len(), budget.games.div_ceil(2), a.seed);
    let table = Table::<G> {
        maps: &maps,
        fillers: &fillers,
        schedule: &schedule,
    };
    let others = match fillers.first() {
        Some(f) => format!(", other seats {}", f.label()),
        None => String::new(),
    };
    println!(
        "games per second, {} games each on {} threads{others}",
        schedule.len(),
        rayon::current_num_threads()
    );
    for (i, x) in judges.iter().enumerate() {
        let y = &judges[(i + 1) % judges.len()];
        let rate = table.games_per_second(x, y);
        row(&format!("  {} vs {}", x.label(), y.label()), "", rate, 1, "games/s");
    }
    let me = BotSpec::Genome {
        label: format!("frozen genome ({} nodes)", a.nodes),
        weights: G::FROZEN.to_vec(),
        limits: Limits::nodes(a.nodes),
    };
    for judge in &judges {
        let rate = table.games_per_second(&me, judge);
        row(
            &format!("  {} vs {}", me.label(), judge.label()),
            "",
            rate,
            1,
            "games/s",
        );
    }

    let runs = budget.scaling_runs;
    println!(
        "thread scaling, {} vs itself, {} games{}",
        me.label(),
        schedule.len(),
        if runs > 1 {
            format!(" (best of {runs} runs, interleaved)")
        } else {
            String::new()
        }
    );
    let [one, two] = table.scaling(&me, runs)?;
    row("  1 thread", "", one, 1, "games/s");
    row("  2 threads", "", two, 1, "games/s");
    row("  speed-up", "", two / one, 2, "x");
    Ok(())
}

/// How flat the scale direction is (`gridtune::scale`): how often the frozen
/// weights and a multiple of them choose the same move, on up to 200
/// positions of the judge games at `nodes` a search; beside it, the anchor
/// alone moved by the same factor, a direction that matters.
fn scale_rows<G: GameKit>(positions: &[G], nodes: u64) {
    let stride = positions.len().div_ceil(200).max(1);
    let sample: Vec<G> = positions.iter().step_by(stride).cloned().collect();
    let limits = Limits::nodes(nodes);
    let frozen = G::FROZEN;
    let anchor = G::SCALE_ANCHOR;
    let mut anchor_alone = frozen.to_vec();
    anchor_alone[anchor] = scale::scaled(&G::PARAMS[anchor..=anchor], &frozen[anchor..=anchor], 1.5)[0];
    for (what, other) in [
        (
            "scale: every weight x2".to_string(),
            scale::scaled(G::PARAMS, frozen, 2.0),
        ),
        (
            "scale: every weight x1.5, on the grid".to_string(),
            scale::scaled(G::PARAMS, frozen, 1.5),
        ),
        (format!("scale: `{}` alone x1.5", G::PARAMS[anchor].name), anchor_alone),
    ] {
        let agreement = scale::same_moves(&sample, frozen, &other, limits);
        row(
            &what,
            &format!(
                "same move in {} of {} searches, {nodes} nodes",
                agreement.same, agreement.searches
            ),
            100.0 * agreement.share(),
            1,
            "%",
        );
    }
}

/// One figure's line: what was measured, how much, the figure and its unit,
/// in columns.
fn row(what: &str, detail: &str, figure: f64, decimals: usize, unit: &str) {
    let left = if detail.is_empty() {
        what.to_string()
    } else {
        format!("{what:<30} {detail}")
    };
    println!("{left:<76} {figure:>10.decimals$} {unit}");
}

/// Perft from every start: at `depth` if given, else at depth 1, 2, ...
/// until one takes `seconds`, or the next (by the tree's growth) would take
/// over four times that, or the tree stops growing. Returns the depth, the
/// leaves and the seconds of the last depth run.
fn perft_figure<G: Game>(starts: &[G], depth: Option<u32>, seconds: f64) -> (u32, u64, f64) {
    let run = |d: u32| {
        let started = Instant::now();
        let leaves: u64 = starts.iter().map(|s| perft(black_box(s), d)).sum();
        (leaves, started.elapsed().as_secs_f64().max(1e-9))
    };
    if let Some(d) = depth {
        let (leaves, t) = run(d);
        return (d, leaves, t);
    }
    let mut d = 1;
    let (mut leaves, mut t) = run(d);
    let mut growth = leaves as f64 / starts.len().max(1) as f64;
    while t < seconds && t * growth <= 4.0 * seconds && growth > 1.0 && d < 64 {
        d += 1;
        let (next, next_t) = run(d);
        growth = next as f64 / leaves.max(1) as f64;
        (leaves, t) = (next, next_t);
    }
    (d, leaves, t)
}

/// Every position before the end of one judge game per map, game by game,
/// judges seated from the game's second one on (the first is the weakest,
/// often random): the openings, middle games and endings an evaluation meets
/// in play.
fn judge_games<G: GameKit>(maps: &[G::Map], seed: u64) -> Result<Vec<Vec<G>>> {
    let mut games = Vec::new();
    for (i, map) in maps.iter().enumerate() {
        let mut positions = Vec::new();
        let mut seats: Vec<Box<dyn Bot<G>>> = (0..G::PLAYERS)
            .map(|p| {
                let name = G::JUDGES[(1 + p) % G::JUDGES.len()];
                G::judge(name, mix64(seed ^ (i * G::PLAYERS + p) as u64))
                    .with_context(|| format!("no judge `{name}` in {}", G::NAME))
            })
            .collect::<Result<_>>()?;
        play_out(G::start(map), &mut seats, &mut |state: &G| {
            if state.to_move() != ToMove::Over {
                positions.push(state.clone());
            }
        });
        games.push(positions);
    }
    if games.iter().all(Vec::is_empty) {
        bail!(
            "the judge games on {}'s train maps gave no position to evaluate",
            G::NAME
        );
    }
    Ok(games)
}

/// The nodes the submission bot searches a move at its real budget: the
/// frozen weights within `limits` (so the engine and table the bot builds),
/// on about `moves` positions spread evenly over the judge games, each seat
/// searched by its own bot, kept through its game as the program is, or new
/// each move where the contest starts the program each turn. Moves that
/// search nothing (a single legal move; Light Cycles' endgame fill) are left
/// out and counted.
fn submission_nodes<G: GameKit>(games: &[Vec<G>], limits: Limits, moves: usize) -> (Vec<u64>, usize) {
    let total: usize = games.iter().map(Vec::len).sum();
    let stride = total.div_ceil(moves.max(1)).max(1);
    let mut nodes = Vec::new();
    let mut left_out = 0;
    let mut index = 0;
    for game in games {
        let mut seats: Vec<Box<dyn Bot<G>>> = (0..G::PLAYERS).map(|_| G::genome_bot(G::FROZEN, limits)).collect();
        for state in game {
            index += 1;
            if index % stride != 0 {
                continue;
            }
            let acting: Vec<usize> = match state.to_move() {
                ToMove::Over => continue,
                ToMove::One(p) => vec![p],
                ToMove::All => (0..G::PLAYERS).collect(),
            };
            for p in acting {
                if G::PROCESS == ProcessModel::PerTurn {
                    seats[p] = G::genome_bot(G::FROZEN, limits);
                }
                black_box(seats[p].choose(state, p));
                match seats[p].nodes_searched() {
                    Some(n) if n > 1 => nodes.push(n),
                    _ => left_out += 1,
                }
            }
        }
    }
    (nodes, left_out)
}

/// Evaluates every position from every seat, over and over for `seconds`.
/// Returns the calls made and the seconds they took.
fn evaluation_figure<G: Game, E: Evaluator<G>>(eval: &E, positions: &[G], seconds: f64) -> (u64, f64) {
    let started = Instant::now();
    let mut calls = 0u64;
    loop {
        for state in positions {
            for seat in 0..G::PLAYERS {
                black_box(eval.evaluate(black_box(state), seat));
            }
        }
        calls += (positions.len() * G::PLAYERS) as u64;
        let t = started.elapsed().as_secs_f64();
        if t >= seconds {
            return (calls, t);
        }
    }
}

/// The frozen genome bot's first move from each start, `nodes` each, in a
/// fresh bot (an empty table, as at the start of a game); the positions the
/// bots report searching (a search may stop short of its budget), and the
/// seconds taken.
fn search_figure<G: GameKit>(starts: &[G], nodes: u64) -> (u64, f64) {
    let started = Instant::now();
    let mut searched = 0;
    for state in starts {
        let mut bot = G::genome_bot(G::FROZEN, Limits::nodes(nodes));
        let player = match state.to_move() {
            ToMove::One(p) => p,
            _ => 0,
        };
        black_box(bot.choose(black_box(state), player));
        searched += bot.nodes_searched().unwrap_or(nodes);
    }
    (searched, started.elapsed().as_secs_f64().max(1e-9))
}

/// The CPU time this thread has run, in nanoseconds (Linux's schedstat);
/// `None` where the kernel does not give it.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// A games-per-second schedule: both sides of each pairing's map, with
/// `fillers` in the other seats of a larger table.
struct Table<'a, G: GameKit> {
    maps: &'a [G::Map],
    fillers: &'a [BotSpec],
    schedule: &'a [Pairing],
}

impl<G: GameKit> Table<'_, G> {
    /// Plays the schedule, `a` against `b`, on the current rayon pool.
    fn games_per_second(&self, a: &BotSpec, b: &BotSpec) -> f64 {
        let started = Instant::now();
        self.schedule.par_iter().for_each(|&pairing| {
            let mut seats = arena::pairing_seats(a, b, pairing).to_vec();
            seats.extend(self.fillers);
            black_box(arena::play_seated::<G>(
                &self.maps[pairing.map],
                &seats,
                pairing.seed,
                false,
            ));
        });
        self.schedule.len() as f64 / started.elapsed().as_secs_f64().max(1e-9)
    }

    /// Games per second of `me` against itself in a pool of one thread and
    /// in one of two, `runs` times each, alternating; each count's best.
    fn scaling(&self, me: &BotSpec, runs: usize) -> Result<[f64; 2]> {
        let pool = |n: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .context("cannot start the bench's threads")
        };
        let pools = [pool(1)?, pool(2)?];
        let mut best = [0.0f64; 2];
        for _ in 0..runs.max(1) {
            for (rate, pool) in best.iter_mut().zip(&pools) {
                *rate = rate.max(pool.install(|| self.games_per_second(me, me)));
            }
        }
        Ok(best)
    }
}
