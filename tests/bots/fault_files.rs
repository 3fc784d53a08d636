//! What the two misbehaving test programs (faulty_bot.rs, fault_proxy.rs)
//! share: the fault lines they print, and the files through which a test
//! follows their processes and per-turn programs count their turns. Each
//! program includes it with `#[path]`, so both still build from one file
//! with plain rustc.

use std::env;
use std::fs::{self, OpenOptions};
use std::io::Write;

/// The `garbage` mode's reply.
pub const GARBAGE: &str = "hello 3,4 UP?";
/// The `huge` mode's reply length.
pub const HUGE_LINE_LEN: usize = 5_000_000;

/// Appends `pid` to FAULTY_PID_FILE, if set; `who` names the program in
/// the warning when it cannot.
pub fn record_pid(who: &str, pid: u32) {
    let Some(path) = env::var_os("FAULTY_PID_FILE") else {
        return;
    };
    // One append of the whole line, so processes writing at once do not interleave.
    let written = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(format!("{pid}\n").as_bytes()));
    if let Err(e) = written {
        eprintln!("{who}: cannot record pid in {}: {e}", path.to_string_lossy());
    }
}

/// This process's 0-based turn: the count kept in FAULTY_TURN_FILE (then
/// incremented), since each turn of a per-turn program is a fresh process;
/// 0 without the file.
pub fn claim_turn(who: &str) -> u64 {
    let Some(path) = env::var_os("FAULTY_TURN_FILE") else {
        return 0;
    };
    let turn = fs::read_to_string(&path)
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(0);
    if let Err(e) = fs::write(&path, format!("{}\n", turn + 1)) {
        eprintln!("{who}: cannot write the turn count to {}: {e}", path.to_string_lossy());
    }
    turn
}
