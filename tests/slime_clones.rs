//! The Slime clones against the original programs in ../shared/games/slime/bots:
//! on random reachable positions, what the clone plays must be what the
//! original's output makes on the control program (the resulting boards are
//! compared). A missing toolchain or source skips a comparison, saying why.

use gridtune::bots::Bot;
use gridtune::game::{Game, ToMove};
use gridtune::games::slime::judges::{CornerSlime, GreedySlime, Jumper, Lichen, Passer};
use gridtune::games::slime::protocol::{argument, parse_reply};
use gridtune::games::slime::rules::SlimeMoves;
use gridtune::games::slime::{Slime, SlimeMove};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};
use std::process::Command;

const POSITIONS: usize = 200;
/// Lichen's R interpreter takes about 0.4 s to start, so its comparison
/// alone took 80 s of CI's time at 200 positions.
const R_POSITIONS: usize = 60;

fn bots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/games/slime/bots")
}

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slime-originals");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Positions from random games on the 8x8 board (mostly board-changing
/// moves), each with the seat to move.
fn reachable_positions(count: usize, seed: u64) -> Vec<(Slime, usize)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = SlimeMoves::new();
    while out.len() < count {
        let mut state = Slime::start(8);
        let stop = rng.random_range(0..60);
        for _ in 0..stop {
            let ToMove::One(p) = state.to_move() else { break };
            state.actions(p, &mut moves);
            let m = if moves.is_empty() || rng.random_bool(0.05) {
                SlimeMove::PASS
            } else {
                moves.as_slice()[rng.random_range(0..moves.len())]
            };
            state.play(m);
        }
        if let ToMove::One(p) = state.to_move() {
            out.push((state, p));
        }
    }
    out
}

/// Builds a C++ original with g++ into the scratch folder; `None` (after
/// saying why) when g++ is missing. A compile error fails the test.
fn compile_cpp(source: &Path, name: &str) -> Option<PathBuf> {
    let binary = scratch().join(name);
    match Command::new("g++")
        .args(["-O1", "-w", "-o"])
        .arg(&binary)
        .arg(source)
        .output()
    {
        Err(e) => {
            println!("skipped: g++ not available ({e})");
            None
        }
        Ok(o) => {
            assert!(
                o.status.success(),
                "g++ failed on {}: {}",
                source.display(),
                String::from_utf8_lossy(&o.stderr)
            );
            Some(binary)
        }
    }
}

/// Runs `program` on every position and compares the boards its output
/// leads to with the clone's.
fn compare(name: &str, positions: usize, program: &mut dyn FnMut(&str) -> Vec<u8>, clone: &mut dyn Bot<Slime>) {
    let mut moved = 0;
    for (i, (state, seat)) in reachable_positions(positions, 17).into_iter().enumerate() {
        let arg = argument(&state, seat);
        let stdout = program(&arg);
        let original = parse_reply(&stdout).unwrap_or(SlimeMove::PASS);
        let mine = clone.choose(&state, seat);
        let (mut a, mut b) = (state, state);
        let changed = a.apply(seat, original);
        b.apply(seat, mine);
        assert_eq!(
            a.rows(),
            b.rows(),
            "{name}, position {i}: original printed {:?}, clone played {mine}\nargument: {arg}",
            String::from_utf8_lossy(&stdout)
        );
        moved += changed as usize;
    }
    println!("{name}: clone matches the original on {positions} positions ({moved} moves, the rest passes)");
}

#[test]
fn greedy_slime_matches_the_python_original() {
    let source = bots_dir().join("GreedySlime.py");
    let Ok(text) = std::fs::read_to_string(&source) else {
        println!("skipped: {} not found", source.display());
        return;
    };
    if Command::new("python3").arg("--version").output().is_err() {
        println!("skipped: python3 not found");
        return;
    }
    // A minimal port from Python 2: the print statement and a lazy map().
    let ported = text
        .replace(
            "print move[1], move[2], move[3], move[4]",
            "print(move[1], move[2], move[3], move[4])",
        )
        .replace(
            "board = map(list, board.split(','))",
            "board = list(map(list, board.split(',')))",
        );
    assert_ne!(ported, text, "the port found what it replaces");
    let script = scratch().join("greedy_slime3.py");
    std::fs::write(&script, ported).unwrap();
    let mut run = |arg: &str| Command::new("python3").arg(&script).arg(arg).output().unwrap().stdout;
    compare("greedy_slime", POSITIONS, &mut run, &mut GreedySlime);
}

#[test]
fn jumper_matches_the_cpp_original() {
    let source = bots_dir().join("Jumper.cpp");
    if !source.exists() {
        println!("skipped: {} not found", source.display());
        return;
    }
    let Some(binary) = compile_cpp(&source, "jumper") else {
        return;
    };
    let mut run = |arg: &str| Command::new(&binary).arg(arg).output().unwrap().stdout;
    compare("jumper", POSITIONS, &mut run, &mut Jumper);
}

/// DeathSlime (Ruby) and Lichen (R) print their move without a newline, so
/// the control program passes for them on a single move; the originals must
/// really print moves, never a newline.
fn compare_unterminated(
    name: &str,
    positions: usize,
    interpreter: &str,
    flags: &[&str],
    file: &str,
    clone: &mut dyn Bot<Slime>,
) {
    let source = bots_dir().join(file);
    if !source.exists() {
        println!("skipped: {} not found", source.display());
        return;
    }
    if Command::new(interpreter).arg("--version").output().is_err() {
        println!("skipped: {interpreter} not found (.ci/run installs it from Debian's packages)");
        return;
    }
    let mut printed = 0;
    let mut run = |arg: &str| {
        let out = Command::new(interpreter)
            .args(flags)
            .arg(&source)
            .arg(arg)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        if text.split_whitespace().filter(|w| w.parse::<i64>().is_ok()).count() >= 4 {
            assert!(!text.ends_with('\n'), "{name} printed a newline: {text:?}");
            printed += 1;
        }
        out.stdout
    };
    compare(name, positions, &mut run, clone);
    assert!(
        printed > positions / 2,
        "{name} printed a move on only {printed} of {positions} positions"
    );
    println!("{name}: printed a move with no newline on {printed} positions");
}

#[test]
fn death_slime_passes_like_the_ruby_original() {
    compare_unterminated("death_slime", POSITIONS, "ruby", &[], "DeathSlime.rb", &mut Passer);
}

#[test]
fn lichen_passes_like_the_r_original() {
    compare_unterminated(
        "lichen",
        R_POSITIONS,
        "Rscript",
        &["--vanilla"],
        "Lichen.R",
        &mut Lichen,
    );
}

/// CornerSlime.cpp as printed does not compile with g++: `sprintf_s` becomes
/// `snprintf` with the buffer's size, and the missing closing brace is added
/// at the end (the statement's fix).
#[test]
fn corner_slime_matches_the_cpp_original() {
    let source = bots_dir().join("CornerSlime.cpp");
    let Ok(text) = std::fs::read_to_string(&source) else {
        println!("skipped: {} not found", source.display());
        return;
    };
    let fixed = text.replace("sprintf_s(buff, ", "snprintf(buff, sizeof(buff), ") + "}\n";
    assert_ne!(fixed.len(), text.len() + 2, "the sprintf_s fix found its target");
    let patched = scratch().join("corner_slime.cpp");
    std::fs::write(&patched, fixed).unwrap();
    let Some(binary) = compile_cpp(&patched, "corner_slime") else {
        return;
    };
    let mut run = |arg: &str| Command::new(&binary).arg(arg).output().unwrap().stdout;
    compare("corner_slime", POSITIONS, &mut run, &mut CornerSlime);
}
