//! Each game's submission bot, run as a `cmd:`-style program through the
//! referee, against its own judge clones; and the same frozen weights played
//! in process at the same time budget on the same maps and seeds. The
//! program must never fail a turn and must score like the in-process bot
//! (the bound is loose: these are a few games, so it catches a broken
//! protocol, not a small difference). Both scores are printed.

use gridtune::arena::match_report::MatchReport;
use gridtune::arena::{paired_schedule, runner, tournament, EndReason};
use gridtune::bots::BotSpec;
use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::prelude::*;
use gridtune::games::slime::Slime;
use gridtune::maps::load_dir;
use gridtune::protocol::SEARCH_SHARE;
use gridtune::referee::process::Launch;
use gridtune::search::Limits;
use std::path::Path;
use std::time::Duration;

/// Per-move budget of both bots; small, so the test is quick.
const BUDGET_MS: u64 = 40;

fn program<G: GameKit>(binary: &str) -> BotSpec {
    BotSpec::Program {
        label: format!("{}-bot (program)", G::NAME),
        launch: Launch {
            program: binary.to_string(),
            args: vec!["--budget-ms".into(), BUDGET_MS.to_string()],
            dir: None,
        },
        limits: G::TIME_LIMITS,
        uai: None,
    }
}

fn in_process<G: GameKit>(share: f64) -> BotSpec {
    BotSpec::Genome {
        label: format!("{} frozen genome (in process)", G::NAME),
        weights: G::FROZEN.to_vec(),
        limits: Limits::time(Duration::from_secs_f64(BUDGET_MS as f64 / 1000.0 * share)),
    }
}

fn maps<G: GameKit>(set: &str) -> Vec<G::Map> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("maps/{}/{set}", G::NAME));
    load_dir(&dir, G::parse_map)
        .unwrap()
        .into_iter()
        .map(|m| m.map)
        .collect()
}

/// Plays `pairs` pairs of `bot` against `judge`; one game at a time, so the
/// time-budgeted searches do not share a core.
fn play<G: GameKit>(bot: &BotSpec, judge: &str, pairs: usize) -> MatchReport {
    let maps = maps::<G>("holdout");
    let judge = BotSpec::Judge(judge.to_string());
    let schedule = paired_schedule(maps.len(), pairs, 11);
    let mut report = MatchReport::new(G::NAME, [bot.label(), judge.label()], "holdout".into(), 1);
    let plan = runner::MatchPlan::<G> {
        maps: &maps,
        a: bot,
        b: &judge,
        fillers: &[],
        field: None,
        schedule: &schedule,
        concurrency: 1,
        log: false,
    };
    runner::run_pairs(&plan, |a, b| {
        for g in [a, b] {
            assert!(
                !matches!(g.record.end, EndReason::Failed { .. }),
                "{}: {}",
                bot.label(),
                g.record.detail
            );
        }
        report.add_pair([a, b], None);
        std::ops::ControlFlow::Continue(())
    });
    report
}

fn compare<G: GameKit>(binary: &str, judge: &str, pairs: usize) {
    let refereed = play::<G>(&program::<G>(binary), judge, pairs);
    let native = play::<G>(&in_process::<G>(SEARCH_SHARE), judge, pairs);
    println!(
        "{} vs judge:{judge}, {} games at {BUDGET_MS} ms: program {:.1} ({}-{}-{}), in process {:.1} ({}-{}-{})",
        G::NAME,
        refereed.games,
        refereed.score,
        refereed.wins,
        refereed.draws,
        refereed.losses,
        native.score,
        native.wins,
        native.draws,
        native.losses
    );
    assert!(
        refereed.score >= native.score - 35.0,
        "the program scored {:.1}, the same weights in process {:.1}",
        refereed.score,
        native.score
    );
}

#[test]
fn isolation_bot_through_the_referee_plays_like_the_genome_bot() {
    compare::<Isolation>(env!("CARGO_BIN_EXE_isolation-bot"), "mobility", 5);
}

#[test]
fn lightcycles_bot_through_the_referee_plays_like_the_genome_bot() {
    compare::<LightCycles>(env!("CARGO_BIN_EXE_lightcycles-bot"), "flood", 3);
}

#[test]
fn ataxx_bot_through_the_referee_plays_like_the_genome_bot() {
    compare::<Ataxx>(env!("CARGO_BIN_EXE_ataxx-bot"), "greedy", 4);
}

/// Slime seats four, so both versions sit at seat 0 of the same tables.
#[test]
fn slime_bot_through_the_referee_plays_like_the_genome_bot() {
    let maps = maps::<Slime>("holdout");
    let entries = |me: BotSpec| {
        let mut e = vec![me];
        e.extend(["greedy_slime", "jumper", "corner_slime"].map(|j| BotSpec::Judge(j.into())));
        e
    };
    // slime-bot's own share: its budget also covers starting the process.
    let program = entries(program::<Slime>(env!("CARGO_BIN_EXE_slime-bot")));
    let native = entries(in_process::<Slime>(0.5));
    // Boards differ in size, so compare the share of the board held.
    let share = |entries: &[BotSpec]| {
        let totals = tournament::<Slime>(&maps, entries, 2 * maps.len(), false, 5);
        100.0 * totals.points[0] / totals.games[0] as f64
    };
    let (refereed, in_process) = (share(&program), share(&native));
    println!(
        "slime vs greedy_slime, jumper, corner_slime: program {refereed:.1}% of the board, in process {in_process:.1}%"
    );
    assert!(
        refereed >= in_process - 35.0,
        "the program held {refereed:.1}% of the board, the same weights in process {in_process:.1}%"
    );
}
