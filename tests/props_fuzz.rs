//! A fuzz loop on the stable toolchain: each parser's property (see
//! tests/props/mod.rs) on random inputs, half arbitrary text and half
//! mutated valid files, until its time is up. It is ignored in CI; run it as
//!
//! ```sh
//! FUZZ_SECONDS=600 cargo test --test props_fuzz -- --ignored --nocapture
//! ```
//!
//! `FUZZ_TARGET` picks targets by name prefix (comma-separated, e.g.
//! `map_,replay_ataxx`); `FUZZ_SEED` changes the inputs (default 1). It
//! prints the cases run per target and every failure with its input, and
//! fails if there was one.

mod props;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The last panic's message and place, kept by the hook in place of
/// printing it, so that a failure can show where it panicked.
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v} is not a valid value")),
        Err(_) => default,
    }
}

#[test]
#[ignore = "a fuzz loop: run it for a set time with FUZZ_SECONDS"]
fn fuzz_loop() {
    let seconds: f64 = env("FUZZ_SECONDS", 20.0);
    let seed: u64 = env("FUZZ_SEED", 1);
    let only: String = env("FUZZ_TARGET", String::new());
    let wanted = |name: &str| only.is_empty() || only.split(',').any(|p| name.starts_with(p.trim()));
    let targets: Vec<props::Target> = props::targets().into_iter().filter(|t| wanted(t.name)).collect();
    assert!(!targets.is_empty(), "FUZZ_TARGET={only} matches no target");

    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| *LAST_PANIC.lock().unwrap() = info.to_string()));
    let mut failed = Vec::new();
    for target in &targets {
        let mut seed_bytes = [0u8; 32];
        seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
        seed_bytes[8..8 + target.name.len().min(24)]
            .copy_from_slice(&target.name.as_bytes()[..target.name.len().min(24)]);
        let mut runner =
            TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes));
        let arbitrary = props::arbitrary_text().boxed();
        let mutated = props::mutated((target.seeds)()).boxed();
        let (start, limit) = (Instant::now(), Duration::from_secs_f64(seconds));
        let (mut cases, mut failing, mut failures) = (0u64, 0u64, Vec::new());
        while start.elapsed() < limit {
            let strategy = if cases % 2 == 0 { &arbitrary } else { &mutated };
            let text = strategy.new_tree(&mut runner).expect("inputs generate").current();
            cases += 1;
            let why = match catch_unwind(AssertUnwindSafe(|| (target.check)(&text))) {
                Ok(Ok(())) => continue,
                Ok(Err(why)) => why,
                Err(_) => format!("panic: {}", LAST_PANIC.lock().unwrap()),
            };
            failing += 1;
            if failures.len() < 5 {
                failures.push(format!("{why}\n    input: {text:?}"));
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:<20} {cases:>10} cases in {secs:>6.1} s ({:>8.0}/s), {failing} failing",
            target.name,
            cases as f64 / secs,
        );
        for f in &failures {
            println!("  {f}");
        }
        if failing > 0 {
            failed.push(target.name);
        }
    }
    std::panic::set_hook(quiet);
    assert!(failed.is_empty(), "failing targets: {failed:?}");
}
