//! Shared by the integration tests: a bot run as a real process, and the
//! gridtune command run as a user runs it.
// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

pub mod bundle;
pub mod plain;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Long enough that only a hung bot trips it; replies are not timed against it.
const HANG: Duration = Duration::from_secs(20);

pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl BotProcess {
    pub fn start(program: &str) -> Self {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        BotProcess {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a turn and waits for the reply; returns it with the time taken.
    pub fn ask(&mut self, text: &str) -> (String, Duration) {
        let started = Instant::now();
        self.send(text);
        let line = self.lines.recv_timeout(HANG).expect("the bot replies");
        (line, started.elapsed())
    }

    /// Closes stdin and returns the exit status.
    pub fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + HANG;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(self.lines.try_recv().is_err(), "the bot printed after the game");
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the bot did not exit when stdin closed");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The same protocol text with a trailing space and `\r` on every line and a
/// blank line after each: what the statements say a bot must tolerate.
pub fn sloppy(text: &str) -> String {
    text.lines().map(|l| format!("{l} \r\n\n")).collect()
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the gridtune binary in `cwd`.
pub fn gridtune(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("gridtune runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh empty folder under the target directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// tests/bots/faulty_bot.rs, a bot that misbehaves as its arguments say,
/// built once per test crate.
pub fn faulty_bot() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| build_test_program("faulty_bot"))
}

/// tests/bots/fault_proxy.rs, which runs a real bot and fails in its place
/// after a number of replies, built once per test crate.
pub fn fault_proxy() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| build_test_program("fault_proxy"))
}

/// Builds tests/bots/NAME.rs with rustc, into a file of this test crate's
/// own (crates run side by side never write one binary).
fn build_test_program(name: &str) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", env!("CARGO_CRATE_NAME")));
    let source = root().join(format!("tests/bots/{name}.rs"));
    let status = Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&out)
        .arg(&source)
        .status()
        .expect("rustc runs");
    assert!(status.success(), "rustc could not build {}", source.display());
    out
}

/// Writes to `path` a short Isolation evolve config against `mobility` and
/// `alphabeta`, with no verdict: `run` gives its seed, games, eval_every and
/// nodes, `tuner` its `ga: (...)` or `cma: (...)`. Returns the path as the
/// CLI takes it.
pub fn isolation_config(path: &Path, run: &str, tuner: &str) -> String {
    let text = format!(
        r#"(
    game: "isolation", {run},
    seed_genome: "{root}/genomes/isolation/default.ron",
    train_maps: "{root}/maps/isolation/train",
    holdout_maps: "{root}/maps/isolation/holdout",
    judges: [("mobility", 1.0), ("alphabeta", 1.0)],
    peer_share: 0.2, holdout_rounds: 1,
    {tuner},
    verdict: (games: 0),
)"#,
        root = root().display()
    );
    std::fs::write(path, text).unwrap();
    path.display().to_string()
}

/// What a resumed or distributed evolve run must reproduce byte for byte:
/// generations.csv and checkpoint.ron without their wall-clock seconds, then
/// each of `files` whole.
pub fn run_outputs(run: &Path, files: &[&str]) -> String {
    let read = |name: &str| {
        std::fs::read_to_string(run.join(name)).unwrap_or_else(|e| panic!("{}: {e}", run.join(name).display()))
    };
    let table: String = read("generations.csv")
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
        .collect();
    let checkpoint: String = read("checkpoint.ron")
        .lines()
        .filter(|l| !l.contains("seconds"))
        .map(|l| l.to_string() + "\n")
        .collect();
    files.iter().fold(table + &checkpoint, |all, name| all + &read(name))
}

/// The last generation a run's checkpoint holds, 0 before the first.
pub fn checkpointed_generation(run: &Path) -> u32 {
    std::fs::read_to_string(run.join("checkpoint.ron"))
        .ok()
        .and_then(|t| {
            let line = t.lines().find(|l| l.trim_start().starts_with("generation:"))?;
            line.trim()
                .trim_start_matches("generation:")
                .trim_end_matches(',')
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or(0)
}
