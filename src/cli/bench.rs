//! `gridtune bench --game G`: simulator, search and game speed.

use anyhow::Result;
use clap::Args;
use gridtune::arena;
use gridtune::bots::BotSpec;
use gridtune::games::GameKit;
use gridtune::genome::Genome;
use gridtune::maps::load_dir;
use gridtune::search::Limits;
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

pub fn run<G: GameKit>(a: &BenchArgs) -> Result<()> {
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
