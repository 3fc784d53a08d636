//! The referee against real misbehaving processes, for every protocol: a bot
//! that crashes at once or mid-game, exits early, never answers, answers
//! late, prints garbage or a huge line, writes to stderr only, or ignores its
//! closed stdin (and leaves a child behind). Each game must end with the
//! right result and reason, within the time limit plus one second, with no
//! process left running.
//!
//! The misbehaving bot is tests/bots/faulty_bot.rs, built here with rustc.
//! For every registered game, generic cases fail on the first turn (shell
//! programs) and mid-game (tests/bots/fault_proxy.rs in front of the game's
//! own submission bot).

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
use common::bundle::bundle_and_build;
use common::{fault_proxy, faulty_bot};

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
        uai: None,
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
            uai: None,
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

/// Replies the proxy passes through before it fails, so the failure comes
/// mid-game, on the seat's third turn it is asked.
const MID_GAME_AFTER: u32 = 2;
/// Per-move budget of the submission bot behind the proxy, far within
/// [`MID_GAME_LIMITS`].
const MID_GAME_BUDGET_MS: u64 = 40;
const MID_GAME_LIMITS: TimeLimits = TimeLimits::millis(1500, 400);
/// Games per game and mode, on the smallest of [`MID_GAME_CANDIDATES`]
/// generated maps: where failures pass, every later turn of the seat fails
/// and may cost a time limit, so small boards keep the test short.
const MID_GAME_MAPS: usize = 2;
const MID_GAME_CANDIDATES: usize = 8;

/// The ways the proxy fails, and the fault each must be read as.
const MID_GAME_FAILURES: &[(&str, Fault)] = &[
    ("crash", Fault::Crash),
    ("exit", Fault::Crash),
    ("silent", Fault::Timeout),
    ("late", Fault::Timeout),
    ("garbage", Fault::InvalidLine),
    ("huge", Fault::InvalidLine),
];

/// One proxied game at a time: building bundles with `-O` and playing
/// timed games on the same cores would make honest replies late.
static MID_GAME_SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The game's submission bot (its bundle, built by rustc) behind
/// tests/bots/fault_proxy.rs, which passes its first replies through and
/// then fails as `mode` says; its processes list their ids in `dir/pids`,
/// and turns are counted across processes in `dir/turns`.
fn proxied(bundle: &Path, mode: &str, dir: &Path) -> BotSpec {
    let args = vec![
        format!("FAULTY_PID_FILE={}", dir.join("pids").display()),
        format!("FAULTY_TURN_FILE={}", dir.join("turns").display()),
        format!("FAULTY_LATE_MS={LATE_MS}"),
        fault_proxy().display().to_string(),
        mode.to_string(),
        MID_GAME_AFTER.to_string(),
        bundle.display().to_string(),
        "--budget-ms".to_string(),
        MID_GAME_BUDGET_MS.to_string(),
    ];
    BotSpec::Program {
        label: format!("{mode} after {MID_GAME_AFTER}"),
        launch: Launch {
            program: "env".into(),
            args,
            dir: None,
        },
        limits: MID_GAME_LIMITS,
        uai: None,
    }
}

/// The smallest of a few generated maps.
fn small_maps<G: GameKit>() -> Vec<G::Map> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let mut texts: Vec<String> = (0..MID_GAME_CANDIDATES)
        .map(|_| G::generate_map_text(&mut rng))
        .collect();
    texts.sort_by_key(String::len);
    texts
        .iter()
        .take(MID_GAME_MAPS)
        .map(|text| G::parse_map(text, "generated").unwrap())
        .collect()
}

/// Seat 0 is the game's submission bot behind the proxy, the other seats
/// its first judge. The seat's first turns are played normally; then it
/// fails in each way, and the game's rule settles it: under `Lose` the seat
/// loses on that turn for the right fault, under `Pass` each later turn is
/// a logged pass of that fault and the game goes on to its end. Each failed
/// turn lasts at most the limit plus a second, and no process outlives the
/// game.
fn mid_game_failures<G: GameKit>() {
    let _serial = MID_GAME_SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let bundle = bundle_and_build::<G>();
    let judge = BotSpec::Judge(G::JUDGES[0].to_string());
    let after = MID_GAME_AFTER as usize;
    for (i, map) in small_maps::<G>().iter().enumerate() {
        for &(mode, fault) in MID_GAME_FAILURES {
            let case = format!("{} {mode} after {after}, map {i}", G::NAME);
            let dir = scratch(&format!("mid-game-{}-{mode}-{i}", G::NAME));
            let bot = proxied(&bundle, mode, &dir);
            let mut seats = vec![&bot];
            seats.extend(std::iter::repeat_n(&judge, G::PLAYERS - 1));
            let record: GameRecord<G::Move> = play_seated::<G>(map, &seats, 7 + i as u64, true);
            let ours: Vec<_> = record.turns.iter().filter(|t| t.seat == 0 && !t.forced).collect();
            assert!(
                ours.len() > after,
                "{case}: the seat was asked {} times: {}",
                ours.len(),
                record.detail
            );
            for t in &ours[..after] {
                assert!(
                    t.fault.is_none() && t.played.is_some(),
                    "{case}: turn {} before the failure: {:?}",
                    t.turn,
                    t.fault
                );
            }
            for t in &ours[after..] {
                assert_eq!(t.fault.as_ref().map(|f| f.0), Some(fault), "{case}: turn {}", t.turn);
                assert!(
                    Duration::from_millis(t.millis.into()) < MID_GAME_LIMITS.later + SLACK,
                    "{case}: turn {} took {} ms",
                    t.turn,
                    t.millis
                );
            }
            match G::ON_FAILURE {
                OnFailure::Lose => {
                    assert_eq!(
                        record.end,
                        EndReason::Failed { seat: 0, fault },
                        "{case}: {}",
                        record.detail
                    );
                    assert_eq!(record.outcome.points[0], 0.0, "{case}");
                    assert_eq!(ours.len(), after + 1, "{case}: the failed turn ends the game");
                    let last = record.turns.iter().map(|t| t.turn).max();
                    assert_eq!(last, Some(ours[after].turn), "{case}: play went on after the failure");
                }
                OnFailure::Pass => {
                    assert!(
                        matches!(record.end, EndReason::Normal | EndReason::TurnLimit),
                        "{case}: {:?}",
                        record.end
                    );
                    for t in &ours[after..] {
                        assert_eq!(t.played.as_deref(), Some("pass"), "{case}: turn {}", t.turn);
                    }
                }
            }
            assert_nothing_left(&dir, &case);
        }
    }
}

macro_rules! referee_settles_mid_game_failures {
    ($module:ident, $game:ty) => {
        #[test]
        fn $module() {
            mid_game_failures::<$game>();
        }
    };
}

mod mid_game {
    use super::*;
    gridtune::for_each_game!(referee_settles_mid_game_failures);
}
