//! The referee against real misbehaving processes, for every protocol: a bot
//! that crashes at once or mid-game, exits early, never answers, answers
//! late, prints garbage or a huge line, writes to stderr only, or ignores its
//! closed stdin (and leaves a child behind). Each game must end with the
//! right result and reason, within the time limit plus one second, with no
//! process left running.
//!
//! The misbehaving bot is tests/bots/faulty_bot.rs, built here with rustc.

use gridtune::arena::{play_seated, EndReason, GameRecord};
use gridtune::bots::BotSpec;
use gridtune::games::ataxx::{Ataxx, AtaxxMap};
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::prelude::*;
use gridtune::games::slime::Slime;
use gridtune::maps::load_dir;
use gridtune::referee::process::Launch;
use gridtune::referee::{Fault, OnFailure, TimeLimits};
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::faulty_bot;

const LIMITS: TimeLimits = TimeLimits::millis(500, 200);
/// Longer than either limit, so a late answer is always a timeout.
const LATE_MS: u64 = 900;
const SLACK: Duration = Duration::from_secs(1);

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("referee").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The faulty bot as a program seat; its processes list their ids in
/// `dir/pids`, and Slime turns are counted in `dir/turns`.
fn faulty(game: &str, mode: &str, after: u32, dir: &Path) -> BotSpec {
    let args = vec![
        format!("FAULTY_PID_FILE={}", dir.join("pids").display()),
        format!("FAULTY_TURN_FILE={}", dir.join("turns").display()),
        format!("FAULTY_LATE_MS={LATE_MS}"),
        faulty_bot().display().to_string(),
        game.to_string(),
        mode.to_string(),
        after.to_string(),
    ];
    BotSpec::Program {
        label: format!("faulty {mode} {after}"),
        launch: Launch {
            program: "env".into(),
            args,
            dir: None,
        },
        limits: LIMITS,
    }
}

/// Whether process `pid` still runs (a zombie has ended).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

/// Every process the bot started has ended (a killed process may take a
/// moment to be torn down by the kernel).
fn assert_nothing_left(dir: &Path, case: &str) {
    let pids: Vec<u32> = std::fs::read_to_string(dir.join("pids"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(2);
    for pid in pids {
        while running(pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!running(pid), "{case}: process {pid} is still running");
    }
}

/// What a case must end with.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The faulty seat loses for this fault.
    Loses(Fault),
    /// The game is played out; the program was killed after it ignored its
    /// closed stdin.
    Killed,
}

const CASES: &[(&str, u32, Expect)] = &[
    ("crash", 0, Expect::Loses(Fault::Crash)),
    ("crash", 2, Expect::Loses(Fault::Crash)),
    ("exit", 1, Expect::Loses(Fault::Crash)),
    ("silent", 0, Expect::Loses(Fault::Timeout)),
    ("silent", 2, Expect::Loses(Fault::Timeout)),
    ("late", 1, Expect::Loses(Fault::Timeout)),
    ("garbage", 0, Expect::Loses(Fault::InvalidLine)),
    ("huge", 1, Expect::Loses(Fault::InvalidLine)),
    ("stderr", 0, Expect::Loses(Fault::Timeout)),
    ("linger", 0, Expect::Killed),
];

/// Plays every case from both seats against `judge` on `map`.
fn two_player_cases<G: GameKit>(map: &G::Map, judge: &str) {
    let judge = BotSpec::Judge(judge.to_string());
    for &(mode, after, expect) in CASES {
        for seat in 0..2 {
            let case = format!("{} {mode} {after} in seat {seat}", G::NAME);
            let dir = scratch(&format!("{}-{mode}-{after}-{seat}", G::NAME));
            let bot = faulty(G::NAME, mode, after, &dir);
            let seats = if seat == 0 { [&bot, &judge] } else { [&judge, &bot] };
            let started = Instant::now();
            let record: GameRecord<G::Move> = play_seated::<G>(map, &seats, 7, true);
            let took = started.elapsed();
            match expect {
                Expect::Loses(fault) => {
                    assert_eq!(
                        record.end,
                        EndReason::Failed { seat, fault },
                        "{case}: {}",
                        record.detail
                    );
                    assert_eq!(record.outcome.points[seat], 0.0, "{case}");
                    assert_eq!(record.outcome.points[1 - seat], 1.0, "{case}");
                    let failed = record.turns.iter().rev().find(|t| t.fault.is_some());
                    assert_eq!(failed.expect("the failed turn is logged").seat, seat, "{case}");
                    let ours = record.turns.iter().filter(|t| t.seat == seat).count() as u32;
                    assert_eq!(
                        ours,
                        after + 1,
                        "{case}: the fault comes on turn {} of the bot",
                        after + 1
                    );
                }
                Expect::Killed => {
                    assert!(
                        !matches!(record.end, EndReason::Failed { .. }),
                        "{case}: {}",
                        record.detail
                    );
                    assert!(
                        record.notes.iter().any(|n| n.contains("still running")),
                        "{case}: {:?}",
                        record.notes
                    );
                    assert!(record
                        .turns
                        .iter()
                        .any(|t| t.seat == seat && t.stderr.contains("thinking")));
                }
            }
            if mode == "stderr" {
                let stderr = &record.turns.iter().rev().find(|t| t.seat == seat).unwrap().stderr;
                assert!(
                    stderr.chars().count() <= 2000 + 60,
                    "{case}: {} chars kept",
                    stderr.len()
                );
                assert!(stderr.contains("more bytes of stderr not kept"), "{case}: {stderr}");
            }
            assert!(took < LIMITS.first + SLACK, "{case}: took {took:?}");
            assert_nothing_left(&dir, &case);
        }
    }
}

fn first_map<G: GameKit>() -> G::Map {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("maps/{}/holdout", G::NAME));
    load_dir(&dir, G::parse_map).unwrap().remove(0).map
}

#[test]
fn isolation_referee_settles_every_misbehaviour() {
    two_player_cases::<Isolation>(&first_map::<Isolation>(), "random_safe");
}

#[test]
fn lightcycles_referee_settles_every_misbehaviour() {
    two_player_cases::<LightCycles>(&first_map::<LightCycles>(), "random_safe");
}

#[test]
fn ataxx_referee_settles_every_misbehaviour() {
    let map = AtaxxMap::generate(&mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3));
    two_player_cases::<Ataxx>(&map, "random");
}

/// Slime's control program turns every failure into a pass and plays on:
/// each faulty turn is logged with its fault, lasts at most the limit plus a
/// second, and the game still ends.
#[test]
fn slime_referee_turns_every_misbehaviour_into_a_pass() {
    let map = Slime::parse_map("1...2\n.....\n.....\n.....\n3...4\n", "5x5").unwrap();
    let judges = ["greedy_slime", "jumper", "corner_slime"].map(|j| BotSpec::Judge(j.to_string()));
    for &(mode, after, expect) in CASES {
        let case = format!("slime {mode} {after}");
        let dir = scratch(&format!("slime-{mode}-{after}"));
        let bot = faulty("slime", mode, after, &dir);
        let seats = [&bot, &judges[0], &judges[1], &judges[2]];
        let record = play_seated::<Slime>(&map, &seats, 7, true);
        assert!(
            matches!(record.end, EndReason::Normal | EndReason::TurnLimit),
            "{case}: {:?}",
            record.end
        );
        let ours: Vec<_> = record.turns.iter().filter(|t| t.seat == 0).collect();
        assert!(ours.len() > after as usize, "{case}: only {} turns", ours.len());
        for (i, t) in ours.iter().enumerate() {
            let limit = if i == 0 { LIMITS.first } else { LIMITS.later };
            assert!(
                Duration::from_millis(t.millis.into()) < limit + SLACK,
                "{case}: turn {} took {} ms",
                i + 1,
                t.millis
            );
            let expected = match expect {
                Expect::Loses(fault) if i >= after as usize => Some(fault),
                _ => None,
            };
            assert_eq!(t.fault.as_ref().map(|f| f.0), expected, "{case}: turn {}", i + 1);
            if expected.is_some() {
                assert_eq!(t.played.as_deref(), Some("pass"), "{case}: a failed turn is a pass");
            }
        }
        assert_nothing_left(&dir, &case);
    }
}

/// Shell programs that fail their first turn without speaking any protocol,
/// so every registered game meets them: the fault each must be read as.
const FIRST_TURN_FAILURES: &[(&str, &str, Fault)] = &[
    ("exits", "exit 3", Fault::Crash),
    ("garbage", "echo 'hello 3,4 UP?'; sleep 5", Fault::InvalidLine),
    ("silent", "sleep 5", Fault::Timeout),
];

/// Seat 0 is a program failing in each way, the other seats the game's
/// first judge. Where a failure loses, the program loses on its first turn
/// within the limit plus a second; where it is a pass, the game goes on to
/// its end with every turn of the program a logged pass.
fn first_turn_failures<G: GameKit>() {
    let map = match load_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("maps/{}/holdout", G::NAME)),
        G::parse_map,
    ) {
        Ok(maps) if !maps.is_empty() => maps[0].map.clone(),
        _ => {
            let text = G::generate_map_text(&mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3));
            G::parse_map(&text, "generated").unwrap()
        }
    };
    let judge = BotSpec::Judge(G::JUDGES[0].to_string());
    for &(name, script, fault) in FIRST_TURN_FAILURES {
        let case = format!("{} {name}", G::NAME);
        let bot = BotSpec::Program {
            label: case.clone(),
            launch: Launch {
                program: "sh".into(),
                args: vec!["-c".into(), script.into()],
                dir: None,
            },
            limits: LIMITS,
        };
        let mut seats = vec![&bot];
        seats.extend(std::iter::repeat_n(&judge, G::PLAYERS - 1));
        let started = Instant::now();
        let record: GameRecord<G::Move> = play_seated::<G>(&map, &seats, 7, true);
        let ours: Vec<_> = record.turns.iter().filter(|t| t.seat == 0).collect();
        assert!(!ours.is_empty(), "{case}: the program was never asked");
        match G::ON_FAILURE {
            OnFailure::Lose => {
                assert_eq!(
                    record.end,
                    EndReason::Failed { seat: 0, fault },
                    "{case}: {}",
                    record.detail
                );
                assert_eq!(record.outcome.points[0], 0.0, "{case}");
                assert_eq!(ours.len(), 1, "{case}: the first failed turn ends the game");
                assert!(
                    started.elapsed() < LIMITS.first + SLACK,
                    "{case}: took {:?}",
                    started.elapsed()
                );
            }
            OnFailure::Pass => {
                assert!(
                    matches!(record.end, EndReason::Normal | EndReason::TurnLimit),
                    "{case}: {:?}",
                    record.end
                );
                for t in &ours {
                    assert_eq!(t.fault.as_ref().map(|f| f.0), Some(fault), "{case}: turn {}", t.turn);
                    assert_eq!(t.played.as_deref(), Some("pass"), "{case}: a failed turn is a pass");
                }
            }
        }
    }
}

macro_rules! referee_settles_first_turn_failures {
    ($module:ident, $game:ty) => {
        #[test]
        fn $module() {
            first_turn_failures::<$game>();
        }
    };
}

gridtune::for_each_game!(referee_settles_first_turn_failures);
