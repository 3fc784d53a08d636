//! `gridtune freeze --bundle`: for each game the real command writes one
//! Rust file, plain `rustc --edition 2021 -O` builds it with no Cargo and no
//! other file, and the program plays through the referee as a `cmd:` bot
//! against a weak judge clone, never failing a turn and winning most games.

mod common;

use common::bundle::bundle_and_build;
use common::{gridtune, root, scratch, stderr};
use gridtune::arena::match_report::MatchReport;
use gridtune::arena::{paired_schedule, runner, EndReason};
use gridtune::bots::{BotSpec, SpecContext};
use gridtune::games::prelude::*;
use gridtune::maps::load_dir;
use gridtune::search::Limits;
use rand::SeedableRng;
use std::path::Path;
use std::sync::Mutex;

/// Per-move budget the bundled bot is run with; small, so the test is quick.
const BUDGET_MS: u64 = 40;

/// One game's test at a time: compiling with `-O` and playing time-budgeted
/// games on the same cores would starve the games.
static SERIAL: Mutex<()> = Mutex::new(());

/// The game's holdout maps, or for a game with no map folder (the test
/// game), eight generated ones.
fn holdout_maps<G: GameKit>() -> Vec<G::Map> {
    let dir = root().join(format!("maps/{}/holdout", G::NAME));
    if !dir.exists() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let generated = (0..8).map(|_| G::generate_map_text(&mut rng));
        return generated
            .map(|text| G::parse_map(&text, "generated").unwrap())
            .collect();
    }
    load_dir(&dir, G::parse_map)
        .unwrap()
        .into_iter()
        .map(|m| m.map)
        .collect()
}

/// Plays `pairs` pairs of the program against `judge` on the holdout maps
/// (with `fillers` in the other seats of a larger table), one game at a
/// time; no turn of any game may fail.
fn play<G: GameKit>(program: &Path, judge: &str, fillers: &[&str], pairs: usize) -> MatchReport {
    let maps = holdout_maps::<G>();
    let spec = format!("cmd:{} --budget-ms {BUDGET_MS}", program.display());
    let bot = BotSpec::parse::<G>(&spec, &SpecContext::new(Limits::nodes(1))).unwrap();
    let judge = BotSpec::Judge(judge.to_string());
    let fillers: Vec<BotSpec> = fillers.iter().map(|f| BotSpec::Judge(f.to_string())).collect();
    let schedule = paired_schedule(maps.len(), pairs, 23);
    let mut report = MatchReport::new(G::NAME, [bot.label(), judge.label()], "holdout".into(), 1);
    let plan = runner::MatchPlan::<G> {
        maps: &maps,
        a: &bot,
        b: &judge,
        fillers: &fillers,
        field: None,
        schedule: &schedule,
        concurrency: 1,
        log: false,
    };
    runner::run_pairs(&plan, |a, b| {
        for g in [a, b] {
            assert!(!matches!(g.record.end, EndReason::Failed { .. }), "{}", g.record.detail);
            for t in &g.record.turns {
                assert!(t.fault.is_none(), "seat {} turn {}: {:?}", t.seat, t.turn, t.fault);
            }
        }
        report.add_pair([a, b], None);
        std::ops::ControlFlow::Continue(())
    });
    report
}

fn bundle_wins<G: GameKit>(judge: &str, fillers: &[&str], pairs: usize) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let program = bundle_and_build::<G>();
    let r = play::<G>(&program, judge, fillers, pairs);
    println!(
        "{}: bundle vs judge:{judge}, {} games at {BUDGET_MS} ms: {}-{}-{}, score {:.1}",
        G::NAME,
        r.games,
        r.wins,
        r.draws,
        r.losses,
        r.score
    );
    assert_eq!(r.games as usize, 2 * pairs);
    assert!(r.score >= 75.0, "the bundle scored {:.1} against {judge}", r.score);
}

/// Opponents other than a game's first judge: Slime's first judge is one of
/// its stronger ones, so its bundle meets simplebot (as it always has), with
/// two more judges filling the table.
const OPPONENTS: &[(&str, &str, &[&str])] = &[("slime", "simplebot", &["greedy_slime", "jumper"])];

/// Every registered game's bundle, against its first judge (the weakest,
/// by the judges' convention) with the same judge in any other seats,
/// unless [`OPPONENTS`] names others.
fn bundle_wins_against_its_opponent<G: GameKit>() {
    let (judge, fillers) = match OPPONENTS.iter().find(|(game, _, _)| *game == G::NAME) {
        Some(&(_, judge, fillers)) => (judge, fillers.to_vec()),
        None => (G::JUDGES[0], vec![G::JUDGES[0]; G::PLAYERS - 2]),
    };
    bundle_wins::<G>(judge, &fillers, 8);
}

macro_rules! bundle_builds_with_rustc_and_wins {
    ($module:ident, $game:ty) => {
        #[test]
        fn $module() {
            bundle_wins_against_its_opponent::<$game>();
        }
    };
}

gridtune::for_each_game!(bundle_builds_with_rustc_and_wins);

#[test]
fn a_bundle_into_a_missing_folder_is_refused_and_writes_nothing() {
    let dir = scratch("bundle-missing");
    let missing = dir.join("no/such/folder");
    let file = missing.join("bot.rs");
    let out = gridtune(
        &["freeze", "--game", "isolation", "--bundle", file.to_str().unwrap()],
        root(),
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("does not exist") && err.contains("no/such/folder"),
        "{err}"
    );
    assert!(!dir.join("no").exists(), "a folder was created");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "something was written");
}
