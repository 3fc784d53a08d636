//! `gridtune match`: two bots on both sides of each map, optionally under
//! an SPRT. In a game of more than two seats, two bots meet head to head at
//! tables the game's first judges (or `--fill`) complete, a game won by the
//! one that ends with more of the board, or, with `--field`, each plays the
//! same tables of fillers in turn; more bots play a tournament of tables.

use super::args::{parse_sprt, BotsArgs, BudgetArgs, CoordinatorArgs, GameArg, ServerArgs};
use super::play::{games_bar, play_maps};
use super::table::{self, TableFlags};
use anyhow::Result;
use clap::Args;
use gridtune::arena;
use gridtune::arena::field::FieldPlan;
use gridtune::arena::match_report::MatchReport;
use gridtune::bail_input;
use gridtune::bots::BotSpec;
use gridtune::games::GameKit;
use gridtune::replay::ReplayFolder;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

#[derive(Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// A bot: judge:NAME, genome:PATH[@ms=N|@nodes=N], cmd:PROGRAM ARGS, sh:COMMAND, or a
    /// name from --bots-file. Give exactly two (or, for a tournament of a
    /// game of more seats, at least a table's).
    #[arg(long = "bot", num_args = 1)]
    pub bots: Vec<String>,
    /// In a game of more than two seats, a bot that fills one of the other
    /// seats of a head-to-head table (give one per seat; default: the game's
    /// first judges). With --field, in any game, one of the field's bots.
    #[arg(long = "fill", num_args = 1)]
    pub fill: Vec<String>,
    /// Compare the two bots against the field, as the contest ranks a game of
    /// more than two seats, instead of head to head: each plays the same
    /// table in turn (the same seat, beside the same bots, on the same map
    /// with the same seed), and the one that ends with more (Slime: squares)
    /// wins those twin games. The tables cycle through every seat and every
    /// combination of the --fill bots (default: every judge). Games come in
    /// fours: two seats of a map, each played by both bots. In a two-seat
    /// game this is a gauntlet: each bot plays the same games against each
    /// --fill bot in turn, and the one that scores more wins the twins.
    #[arg(long)]
    pub field: bool,
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
    /// Games played at once (default: the machine's cores); with --server,
    /// games handed to the workers at once (default 64).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Stop as soon as an SPRT of H0: elo = ELO0 against H1: elo = ELO1
    /// (logistic Elo, on game pairs) accepts either.
    /// A non-regression test's bounds, such as -10,0, may start with a minus.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
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
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub coordinator: CoordinatorArgs,
}

pub fn run<G: GameKit>(a: &MatchArgs) -> Result<()> {
    let specs = a.sources.specs::<G>(&a.bots, a.budget.limits())?;
    if a.server.server.is_some() {
        if a.replay.is_some() {
            bail_input!(
                "--replay needs the games' moves, which workers do not send back: leave out --server or --replay"
            );
        }
        if specs.len() != 2 {
            bail_input!("--server plays a match of two bots; a tournament of tables runs on this machine only");
        }
    }
    if G::PLAYERS > 2 && specs.len() != 2 {
        if a.field {
            bail_input!("--field compares two bots; give exactly two --bot");
        }
        if !a.fill.is_empty() {
            bail_input!("--fill completes a head-to-head table of two --bot; give two --bot, or leave --fill out");
        }
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
        return table::run::<G>(&specs, rounds, false, a.seed, a.quiet, &flags);
    }
    if specs.len() != 2 {
        bail_input!("match needs exactly two bots (--bot), got {}", specs.len());
    }

    let sprt = a
        .sprt
        .as_deref()
        .map(|text| parse_sprt("--sprt", text, a.alpha, a.beta))
        .transpose()?;
    let games = a.games.unwrap_or(match (&sprt, a.fresh_maps) {
        (Some(_), _) => 20_000,
        (None, true) => 200,
        // Two per map, counted once the maps are loaded.
        (None, false) => 2,
    });
    // Games on one map: both sides of it, or against the field two seats of
    // it, each played by both bots.
    let per_map = if a.field { 4 } else { 2 };
    if games == 0 || !games.is_multiple_of(per_map) {
        if a.field {
            bail_input!(
                "--games {games}: give a positive multiple of 4 (against the field, games come in fours: \
                 two seats of a map, each played by both bots)"
            );
        }
        bail_input!("--games {games}: give a positive even number (games come in pairs, one from each side)");
    }
    let generated = a.fresh_maps.then_some(games / per_map);
    let default_dir = || PathBuf::from(format!("maps/{}/holdout", G::NAME));
    let (mut where_, named) = play_maps::<G>(generated, a.seed, a.maps.clone().unwrap_or_else(default_dir))?;
    let (fillers, field) = if a.field {
        let (fillers, field) = field_fillers::<G>(a)?;
        let names: Vec<String> = fillers.iter().map(BotSpec::label).collect();
        where_ = format!(
            "{where_}, each bot in turn at tables of {} of {}",
            G::PLAYERS - 1,
            names.join(", ")
        );
        (fillers, Some(field))
    } else {
        let fillers = table_fillers::<G>(a)?;
        if !fillers.is_empty() {
            let names: Vec<String> = fillers.iter().map(BotSpec::label).collect();
            where_ = format!("{where_}, beside {} in the other seats", names.join(" and "));
        }
        (fillers, None)
    };
    let maps: Vec<G::Map> = named.iter().map(|m| m.map.clone()).collect();
    let games = if sprt.is_none() && !a.fresh_maps && a.games.is_none() {
        per_map * maps.len()
    } else {
        games
    };
    let replays = a.replay.as_deref().map(ReplayFolder::create).transpose()?;
    // With --server, the games handed to the workers at once.
    let concurrency = a.concurrency.unwrap_or_else(|| {
        if a.server.server.is_some() {
            64
        } else {
            rayon::current_num_threads()
        }
    });
    if concurrency == 0 {
        bail_input!("--concurrency must be at least 1");
    }
    let schedule = arena::field::match_schedule(field.as_ref(), maps.len(), games, G::PLAYERS, a.seed);
    if games > per_map * maps.len() && !specs.iter().any(BotSpec::is_program) {
        eprintln!(
            "note: {games} games on {} maps repeat each map; bots that search a node budget replay the \
             same games there, which adds no information. --fresh-maps gives every pair a new map.",
            maps.len()
        );
    }
    let labels = [specs[0].label(), specs[1].label()];
    let mut report = MatchReport::new(G::NAME, labels.clone(), where_, concurrency);
    tracing::info!(game = G::NAME, a = %labels[0], b = %labels[1], games = schedule.len(), concurrency, "match started");
    // The report's score so far, for the bar: the report itself is the
    // match loop's while it runs.
    let score = Arc::new(Mutex::new(None::<f64>));
    let bar = {
        let score = Arc::clone(&score);
        let name: String = labels[0].chars().take(24).collect();
        let stage = if sprt.is_some() {
            "match (SPRT: at most)"
        } else {
            "match"
        };
        games_bar(a.quiet, stage.into(), Some(schedule.len() as u64), move |_| {
            let score = *score.lock().unwrap_or_else(|e| e.into_inner());
            score.map_or_else(String::new, |score| format!("{name} {score:.1}%"))
        })
    };
    let mut replay_error = None;
    let plan = arena::runner::MatchPlan::<G> {
        maps: &maps,
        a: &specs[0],
        b: &specs[1],
        fillers: &fillers,
        field: field.as_ref(),
        schedule: &schedule,
        concurrency,
        log: a.replay.is_some(),
    };
    let run = gridtune::distributed::coordinator::run_id(&format!("match {} {}", std::process::id(), a.seed));
    let remote = a.coordinator.remote(&a.server, run)?;
    let on = remote
        .as_deref()
        .map(|r| (r as &dyn gridtune::arena::executor::Executor<G>, concurrency));
    let pairs = arena::head_to_head::play_match_on(on, &plan, &mut report, sprt.as_ref(), |report, [first, second]| {
        report.add_replies([&specs[0], &specs[1]], [first, second]);
        *score.lock().unwrap_or_else(|e| e.into_inner()) = Some(report.score);
        if let Some(replays) = &replays {
            for g in [first, second] {
                // Every seat named, fillers too: a replay shows its whole table.
                let seats: Vec<String> = plan.seats(g.pairing).iter().map(|s| s.label()).collect();
                let map = &named[g.pairing.map];
                if let Err(e) = replays.write::<G>(g.index, map, &seats, g.pairing.seed, &g.record) {
                    replay_error = Some(e);
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    });
    bar.finish();
    if let Some(e) = replay_error {
        return Err(e);
    }
    tracing::info!(pairs, seconds = format_args!("{:.1}", report.seconds), "match finished");
    if let Some(r) = &remote {
        eprintln!("{}", r.summary());
    }
    report.summarise_replies();
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

/// The field a match against it draws its tables from: `--fill`, at least
/// a table's other seats, or every judge of the game.
fn field_fillers<G: GameKit>(a: &MatchArgs) -> Result<(Vec<BotSpec>, FieldPlan)> {
    let names: Vec<String> = if a.fill.is_empty() {
        G::JUDGES.iter().map(|j| format!("judge:{j}")).collect()
    } else {
        a.fill.clone()
    };
    let Some(field) = FieldPlan::new(names.len(), G::PLAYERS) else {
        bail_input!(
            "--field: a {} table has {} seats beside the bot compared, and {} --fill were given",
            G::NAME,
            G::PLAYERS - 1,
            names.len()
        );
    };
    Ok((a.sources.specs::<G>(&names, a.budget.limits())?, field))
}

/// The bots beside a head-to-head pair at a table of more than two seats:
/// `--fill`, one per seat, or the game's first judges.
fn table_fillers<G: GameKit>(a: &MatchArgs) -> Result<Vec<BotSpec>> {
    let seats = G::PLAYERS - 2;
    if seats == 0 {
        if !a.fill.is_empty() {
            bail_input!("--fill: a {} table has two seats, both taken by the --bot", G::NAME);
        }
        return Ok(Vec::new());
    }
    if a.fill.is_empty() {
        if G::JUDGES.len() < seats {
            bail_input!(
                "{} has {} judges to fill {seats} seats: give --fill",
                G::NAME,
                G::JUDGES.len()
            );
        }
        let names: Vec<String> = G::JUDGES[..seats].iter().map(|j| format!("judge:{j}")).collect();
        return a.sources.specs::<G>(&names, a.budget.limits());
    }
    if a.fill.len() != seats {
        bail_input!(
            "--fill: a {} table has {seats} seats beside the two --bot, and {} --fill were given",
            G::NAME,
            a.fill.len()
        );
    }
    a.sources.specs::<G>(&a.fill, a.budget.limits())
}
