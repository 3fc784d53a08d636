//! fault_proxy: runs a real bot program as its child and passes its replies
//! through, then fails in one chosen way, so the referee's robustness tests
//! can run mid-game failures for any registered game without speaking its
//! protocol. Standard library only; the tests build it with
//! `rustc --edition 2021 -O tests/bots/fault_proxy.rs -o OUT`.
//!
//! Usage: `fault_proxy MODE AFTER PROGRAM [ARGS...]`
//!
//! The proxy starts `PROGRAM ARGS...` (the referee's own arguments, such as
//! a per-turn program's position, come last and are passed on unchanged),
//! copies its stdin to the child's, and reads the child's stdout line by
//! line, blank lines apart. The first AFTER replies go out unchanged; at the
//! next one, and every one after it, the proxy fails instead:
//!
//! - `crash`: aborts (killed by SIGABRT);
//! - `exit`: exits with status 0 without answering;
//! - `silent`: never answers again, and keeps running;
//! - `late`: answers the child's reply after FAULTY_LATE_MS milliseconds
//!   (default 1500);
//! - `garbage`: answers `hello 3,4 UP?`;
//! - `huge`: answers one line of 5,000,000 `x`.
//!
//! A per-turn program is a new process every turn, so the turn is counted
//! across processes in the file named by FAULTY_TURN_FILE (read, increment,
//! write at start); without it every process starts at reply 0. Every
//! process appends its PID and its child's, one a line, to FAULTY_PID_FILE
//! if set, so the tests can check that nothing is left running.

#[path = "fault_files.rs"]
mod fault_files;

use std::env;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{self, Command, Stdio};
use std::thread;
use std::time::Duration;

const USAGE: &str = "usage: fault_proxy crash|exit|silent|late|garbage|huge AFTER PROGRAM [ARGS...]
env: FAULTY_LATE_MS (default 1500), FAULTY_PID_FILE, FAULTY_TURN_FILE (per-turn programs)";

const DEFAULT_LATE_MS: u64 = 1500;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Crash,
    Exit,
    Silent,
    Late,
    Garbage,
    Huge,
}

fn fail(why: &str) -> ! {
    eprintln!("fault_proxy: {why}\n{USAGE}");
    process::exit(2)
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let [mode, after, program, rest @ ..] = args.as_slice() else {
        fail("expected MODE AFTER PROGRAM [ARGS...]")
    };
    let mode = match mode.as_str() {
        "crash" => Mode::Crash,
        "exit" => Mode::Exit,
        "silent" => Mode::Silent,
        "late" => Mode::Late,
        "garbage" => Mode::Garbage,
        "huge" => Mode::Huge,
        other => fail(&format!("unknown mode `{other}`")),
    };
    let after: u64 = after
        .parse()
        .unwrap_or_else(|_| fail(&format!("AFTER must be a number of replies, not `{after}`")));
    let late = match env::var("FAULTY_LATE_MS") {
        Ok(ms) => ms
            .trim()
            .parse()
            .unwrap_or_else(|_| fail(&format!("FAULTY_LATE_MS must be milliseconds, not `{ms}`"))),
        Err(_) => DEFAULT_LATE_MS,
    };
    fault_files::record_pid("fault_proxy", process::id());
    let mut replies = fault_files::claim_turn("fault_proxy");

    let mut child = Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| fail(&format!("cannot start `{program}`: {e}")));
    fault_files::record_pid("fault_proxy", child.id());
    let mut to_child = child.stdin.take().expect("the child's stdin is piped");
    // Copies the referee's input until it closes, then closes the child's.
    thread::spawn(move || {
        let mut buf = [0u8; 8192];
        let mut stdin = io::stdin().lock();
        while let Ok(n) = stdin.read(&mut buf) {
            if n == 0 || to_child.write_all(&buf[..n]).and_then(|()| to_child.flush()).is_err() {
                break;
            }
        }
    });

    let from_child = BufReader::new(child.stdout.take().expect("the child's stdout is piped"));
    let mut out = io::stdout().lock();
    let mut silent = false;
    for line in from_child.lines() {
        let Ok(line) = line else { break };
        if silent || line.trim().is_empty() {
            continue;
        }
        if replies < after {
            replies += 1;
            send(&mut out, &line);
            continue;
        }
        match mode {
            Mode::Crash => process::abort(),
            Mode::Exit => process::exit(0),
            Mode::Silent => silent = true,
            Mode::Late => {
                thread::sleep(Duration::from_millis(late));
                send(&mut out, &line);
            }
            Mode::Garbage => send(&mut out, fault_files::GARBAGE),
            Mode::Huge => send(&mut out, &"x".repeat(fault_files::HUGE_LINE_LEN)),
        }
    }
    let status = child.wait().map(|s| s.code().unwrap_or(1)).unwrap_or(1);
    if silent {
        // A silent bot does not end on its own; the referee must kill it.
        loop {
            thread::sleep(Duration::from_secs(3600));
        }
    }
    process::exit(status);
}

/// Writes a reply; a referee that stopped reading is not ours to report.
fn send(out: &mut impl Write, line: &str) {
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

