//! A tournament of tables: `tournament`, and `match` for a game of more
//! than two seats. Plays every table, then prints each bot's average result
//! as a table or JSON.

use super::play::{games_bar, play_maps};
use anyhow::{Context, Result};
use gridtune::arena;
use gridtune::arena::match_report::{reply_time_lines, ReplyClock};
use gridtune::bail_input;
use gridtune::bots::BotSpec;
use gridtune::games::GameKit;
use gridtune::referee::{Fault, OnFailure};
use gridtune::replay::ReplayFolder;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// What `match` adds to a tournament of a game with more than two seats.
#[derive(Default)]
pub struct TableFlags<'a> {
    pub maps: Option<&'a Path>,
    /// Play round r on generated map r instead of a map folder.
    pub fresh_maps: bool,
    pub json: bool,
    pub replay: Option<&'a Path>,
    pub concurrency: Option<usize>,
}

pub fn run<G: GameKit>(
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
    let generated = flags.fresh_maps.then_some(rounds);
    let default_dir = || PathBuf::from(format!("maps/{}/train", G::NAME));
    let (where_, named) = play_maps::<G>(generated, seed, flags.maps.map_or_else(default_dir, Path::to_path_buf))?;
    let maps: Vec<G::Map> = named.iter().map(|m| m.map.clone()).collect();
    let replays = flags.replay.map(ReplayFolder::create).transpose()?;
    let started = Instant::now();
    let tables = arena::tournament_tables(specs.len(), G::PLAYERS, all_seatings).len();
    let bar = games_bar(quiet, "tournament".into(), Some((tables * rounds) as u64), |_| {
        String::new()
    });
    let labels: Vec<String> = specs.iter().map(BotSpec::label).collect();
    tracing::info!(game = G::NAME, bots = specs.len(), tables, rounds, "tournament started");
    let replay_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let clock = Mutex::new(ReplyClock::default());
    let on_game = |g: arena::TableGame<G::Move>| {
        {
            let mut clock = clock.lock().unwrap_or_else(|e| e.into_inner());
            for (seat, &e) in g.seats.iter().enumerate() {
                clock.add(e, &specs[e], seat, &g.record.turns);
            }
        }
        for t in g.record.turns.iter() {
            if let Some((fault, why)) = &t.fault {
                tracing::info!(game = g.index + 1, bot = %labels[g.seats[t.seat]], seat = t.seat, turn = t.turn + 1, "{}: {why}", fault.name());
            }
        }
        let Some(replays) = &replays else { return };
        let seat_labels: Vec<String> = g.seats.iter().map(|&e| labels[e].clone()).collect();
        if let Err(e) = replays.write::<G>(g.index, &named[g.map], &seat_labels, g.seed, g.record) {
            replay_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
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
        return Err(e);
    }
    let seconds = started.elapsed().as_secs_f64();
    let reply_times = clock.into_inner().unwrap_or_else(|e| e.into_inner()).summary();
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
            "reply_times": reply_times,
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
    print!("{}", reply_time_lines(&reply_times));
    if let Some(replays) = flags.replay {
        println!("replays: {}", replays.display());
    }
    Ok(())
}
