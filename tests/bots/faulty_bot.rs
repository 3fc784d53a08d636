//! faulty_bot: a contest bot that misbehaves on purpose, for the referee's robustness tests.
//!
//! It speaks the protocol of each of the four games and plays legal (naive) moves, then fails
//! in one chosen way, so the tests can run the referee against real processes that crash, hang,
//! flood their pipes or leave children behind. Standard library only; the tests build it with
//! `rustc --edition 2021 -O tests/bots/faulty_bot.rs -o OUT`.
//!
//! Usage:
//!
//! ```text
//! faulty_bot isolation|lightcycles|ataxx MODE [AFTER]   (one process per game, turns on stdin)
//! faulty_bot slime MODE [AFTER] P,row,row,...           (one process per turn, no stdin)
//! ```
//!
//! AFTER (default 0) is how many turns the bot answers correctly before the fault; from then on
//! every turn is faulty. The fault happens once the turn's input has been read, except `crash`
//! with AFTER=0, which aborts before reading anything. A slime process remembers nothing, so
//! slime turns are counted in the file named by FAULTY_TURN_FILE (read, increment, write);
//! without it every process is turn 0. The referee appends the slime board to the command, so
//! the board is told apart by its comma, not by its position.
//!
//! Modes, for the stdin games:
//!
//! - `ok`: legal moves all game; exits 0 when stdin closes.
//! - `crash`: aborts (killed by SIGABRT).
//! - `exit`: exits with status 0 without answering.
//! - `silent`: never answers again; drains stdin and keeps running after it closes.
//! - `late`: answers correctly, but sleeps FAULTY_LATE_MS milliseconds (default 1500) first.
//! - `garbage`: answers `hello 3,4 UP?`.
//! - `huge`: answers one line of 5,000,000 `x`.
//! - `stderr`: writes 3,000 characters of debug text to stderr per turn and nothing to stdout.
//! - `linger`: legal moves every turn (AFTER is ignored) plus `turn T thinking` on stderr; it
//!   spawns a `sleep 1000` child at start and keeps running after stdin closes.
//!
//! For slime, a process whose turn is below AFTER behaves as `ok` (a spread, or a pass), and a
//! faulty one: `crash` aborts, `exit` exits 0 silently, `silent` sleeps forever, `stderr` writes
//! the debug text then sleeps forever, `late` sleeps then answers, `garbage` and `huge` print
//! those lines, and `linger` spawns the child, answers, then sleeps forever.
//!
//! Every process appends its PID, and its child's PID, one per line, to the file named by
//! FAULTY_PID_FILE if set, so the tests can check that nothing is left running.

#[path = "fault_files.rs"]
mod fault_files;

use std::env;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::process::{self, Command, Stdio};
use std::thread;
use std::time::Duration;

const USAGE: &str = "usage: faulty_bot isolation|lightcycles|ataxx MODE [AFTER]
       faulty_bot slime MODE [AFTER] P,row,row,...
modes: ok crash exit silent late garbage huge stderr linger
env: FAULTY_LATE_MS (default 1500), FAULTY_PID_FILE, FAULTY_TURN_FILE (slime)";

/// More than the 2,000 characters per turn the referee keeps, so a test can see the cap.
const STDERR_LINES_PER_TURN: usize = 30;
const STDERR_LINE_LEN: usize = 100;
const DEFAULT_LATE_MS: u64 = 1500;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Game {
    Isolation,
    Lightcycles,
    Ataxx,
    Slime,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Ok,
    Crash,
    Exit,
    Silent,
    Late,
    Garbage,
    Huge,
    Stderr,
    Linger,
}

impl Mode {
    /// Modes that must be killed: they never exit on their own.
    fn lingers(self) -> bool {
        matches!(self, Mode::Silent | Mode::Linger)
    }
}

struct Config {
    game: Game,
    mode: Mode,
    after: u64,
    late: Duration,
    /// The slime argument `P,row,row,...`.
    board: Option<String>,
}

fn main() {
    let config = parse_args(env::args().skip(1).collect()).unwrap_or_else(|e| {
        eprintln!("faulty_bot: {e}\n{USAGE}");
        process::exit(2)
    });
    fault_files::record_pid("faulty_bot", process::id());
    match config.game {
        Game::Slime => run_slime(&config),
        _ => run_stdin_game(&config),
    }
}

fn parse_args(args: Vec<String>) -> Result<Config, String> {
    let (boards, rest): (Vec<String>, Vec<String>) = args.into_iter().partition(|a| a.contains(','));
    let (game, mode, after) = match rest.as_slice() {
        [game, mode] => (game.as_str(), mode.as_str(), "0"),
        [game, mode, after] => (game.as_str(), mode.as_str(), after.as_str()),
        _ => return Err("expected GAME MODE [AFTER]".into()),
    };
    let game = parse_game(game)?;
    let mode = parse_mode(mode)?;
    let after = after
        .parse()
        .map_err(|_| format!("AFTER must be a number of turns, not `{after}`"))?;
    let late = Duration::from_millis(match env::var("FAULTY_LATE_MS") {
        Ok(ms) => ms
            .trim()
            .parse()
            .map_err(|_| format!("FAULTY_LATE_MS must be milliseconds, not `{ms}`"))?,
        Err(_) => DEFAULT_LATE_MS,
    });
    let mut boards = boards.into_iter();
    let board = boards.next();
    if boards.next().is_some() || board.is_some() != (game == Game::Slime) {
        return Err("slime takes exactly one board argument P,row,row,...; the other games take none".into());
    }
    Ok(Config {
        game,
        mode,
        after,
        late,
        board,
    })
}

fn parse_game(name: &str) -> Result<Game, String> {
    Ok(match name {
        "isolation" => Game::Isolation,
        "lightcycles" => Game::Lightcycles,
        "ataxx" => Game::Ataxx,
        "slime" => Game::Slime,
        _ => return Err(format!("unknown game `{name}`")),
    })
}

fn parse_mode(name: &str) -> Result<Mode, String> {
    Ok(match name {
        "ok" => Mode::Ok,
        "crash" => Mode::Crash,
        "exit" => Mode::Exit,
        "silent" => Mode::Silent,
        "late" => Mode::Late,
        "garbage" => Mode::Garbage,
        "huge" => Mode::Huge,
        "stderr" => Mode::Stderr,
        "linger" => Mode::Linger,
        _ => return Err(format!("unknown mode `{name}`")),
    })
}

// ---------------------------------------------------------------------------------------------
// Processes

/// Starts a `sleep 1000` in our process group, which outlives us unless the referee kills the
/// whole group. Like a careless bot's helper it keeps our stdout and stderr open, so a referee
/// that waits for the end of our output also waits until the group is killed.
fn spawn_lingering_child() {
    match Command::new("sleep").arg("1000").stdin(Stdio::null()).spawn() {
        Ok(child) => fault_files::record_pid("faulty_bot", child.id()),
        Err(e) => eprintln!("faulty_bot: cannot spawn the lingering child: {e}"),
    }
}

fn sleep_forever() -> ! {
    loop {
        thread::sleep(Duration::from_secs(3600));
    }
}

fn huge_line() -> String {
    "x".repeat(fault_files::HUGE_LINE_LEN)
}

fn write_debug_text(turn: u64) {
    let mut text = String::with_capacity(STDERR_LINES_PER_TURN * STDERR_LINE_LEN);
    for line in 1..=STDERR_LINES_PER_TURN {
        let words = format!("turn {turn} debug line {line} ");
        let _ = writeln!(text, "{words:.<width$}", width = STDERR_LINE_LEN - 1);
    }
    // Nobody may be reading stderr any more; that is not our problem to report.
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

// ---------------------------------------------------------------------------------------------
// Stdin games: isolation, lightcycles, ataxx

/// Why the conversation with the referee stopped.
enum Stop {
    /// Stdin closed, or stdout did: the referee is done with us either way.
    EndOfInput,
    BadInput(String),
}

struct Input<R> {
    reader: R,
}

impl<R: BufRead> Input<R> {
    /// The next non-blank line, trailing spaces and `\r` removed, as the protocols allow.
    fn line(&mut self) -> Result<String, Stop> {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match self.reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return Err(Stop::EndOfInput),
                Ok(_) => {
                    let text = String::from_utf8_lossy(&buf);
                    let text = text.trim_end();
                    if !text.is_empty() {
                        return Ok(text.to_string());
                    }
                }
            }
        }
    }

    fn drain(&mut self) {
        while self.line().is_ok() {}
    }
}

/// What the first line says about the games that send a grid.
#[derive(Clone, Copy)]
struct GridHeader {
    width: usize,
    height: usize,
    me: usize,
}

/// One turn's question with a legal answer already worked out.
struct Turn {
    number: u64,
    reply: String,
}

fn run_stdin_game(config: &Config) {
    if config.mode == Mode::Crash && config.after == 0 {
        process::abort();
    }
    if config.mode == Mode::Linger {
        spawn_lingering_child();
    }
    let stdin = io::stdin();
    let mut input = Input { reader: stdin.lock() };
    let mut out = io::stdout().lock();
    if let Err(Stop::BadInput(e)) = play(config, &mut input, &mut out) {
        eprintln!("faulty_bot: bad input: {e}");
        if !config.mode.lingers() {
            process::exit(1);
        }
    }
    if config.mode.lingers() {
        sleep_forever();
    }
}

/// Plays until the input ends or cannot be read; never returns `Ok`.
fn play(config: &Config, input: &mut Input<impl BufRead>, out: &mut impl Write) -> Result<(), Stop> {
    let header = match config.game {
        Game::Ataxx => {
            input.line()?;
            None
        }
        _ => Some(read_grid_header(&input.line()?)?),
    };
    let mut turns_read = 0;
    loop {
        let turn = match header {
            Some(header) => read_grid_turn(config.game, input, header)?,
            None => read_ataxx_turn(input, turns_read + 1)?,
        };
        if config.mode == Mode::Linger {
            eprintln!("turn {} thinking", turn.number);
        }
        if turns_read < config.after || config.mode == Mode::Linger {
            send(out, &turn.reply)?;
        } else {
            misbehave(config, &turn, input, out)?;
        }
        turns_read += 1;
    }
}

fn misbehave(config: &Config, turn: &Turn, input: &mut Input<impl BufRead>, out: &mut impl Write) -> Result<(), Stop> {
    match config.mode {
        Mode::Ok | Mode::Linger => send(out, &turn.reply),
        Mode::Crash => process::abort(),
        Mode::Exit => process::exit(0),
        Mode::Silent => {
            input.drain();
            Err(Stop::EndOfInput)
        }
        Mode::Late => {
            thread::sleep(config.late);
            send(out, &turn.reply)
        }
        Mode::Garbage => send(out, fault_files::GARBAGE),
        Mode::Huge => send(out, &huge_line()),
        Mode::Stderr => {
            write_debug_text(turn.number);
            Ok(())
        }
    }
}

fn send(out: &mut impl Write, line: &str) -> Result<(), Stop> {
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|_| Stop::EndOfInput)
}

fn bad_input(what: &str, line: &str) -> Stop {
    Stop::BadInput(format!("expected {what}, found `{line}`"))
}

fn parse_numbers(line: &str) -> Option<Vec<i64>> {
    line.split_whitespace().map(|w| w.parse().ok()).collect()
}

fn read_grid_header(line: &str) -> Result<GridHeader, Stop> {
    match parse_numbers(line).as_deref() {
        Some(&[width, height, me @ (0 | 1)]) if width > 0 && height > 0 => Ok(GridHeader {
            width: width as usize,
            height: height as usize,
            me: me as usize,
        }),
        _ => Err(bad_input("`W H my_id`", line)),
    }
}

/// A grid turn, the same block in isolation and lightcycles: `turn T`, both positions, the rows.
fn read_grid_turn(game: Game, input: &mut Input<impl BufRead>, header: GridHeader) -> Result<Turn, Stop> {
    let line = input.line()?;
    let number = line
        .strip_prefix("turn ")
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| bad_input("`turn T`", &line))?;
    let mut positions = [(0, 0); 2];
    for position in &mut positions {
        let line = input.line()?;
        *position = match parse_numbers(&line).as_deref() {
            Some(&[x, y]) => (x, y),
            _ => return Err(bad_input("`x y`", &line)),
        };
    }
    let mut rows = Vec::with_capacity(header.height);
    for _ in 0..header.height {
        let line = input.line()?;
        if line.len() != header.width {
            return Err(bad_input(&format!("a row of {} cells", header.width), &line));
        }
        rows.push(line.into_bytes());
    }
    let grid = Grid { rows };
    let (x, y) = positions[header.me];
    let reply = match game {
        Game::Lightcycles => lightcycles_reply(&grid, x, y),
        _ => isolation_reply(&grid, x, y),
    };
    Ok(Turn { number, reply })
}

struct Grid {
    rows: Vec<Vec<u8>>,
}

impl Grid {
    /// The cell at (x, y), or `None` off the board.
    fn cell(&self, x: i64, y: i64) -> Option<u8> {
        let row = self.rows.get(usize::try_from(y).ok()?)?;
        row.get(usize::try_from(x).ok()?).copied()
    }
}

/// A king step onto a free square is always a legal queen move. With none the bot has lost
/// and should not be asked; it then names its own square.
fn isolation_reply(grid: &Grid, x: i64, y: i64) -> String {
    const STEPS: [(i64, i64); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    let (tx, ty) = STEPS
        .iter()
        .map(|(dx, dy)| (x + dx, y + dy))
        .find(|&(tx, ty)| grid.cell(tx, ty) == Some(b'.'))
        .unwrap_or((x, y));
    format!("{tx} {ty}")
}

/// Any direction onto an empty cell survives this turn (unless the other bike takes it too).
fn lightcycles_reply(grid: &Grid, x: i64, y: i64) -> String {
    const DIRECTIONS: [(&str, i64, i64); 4] = [("UP", 0, -1), ("RIGHT", 1, 0), ("DOWN", 0, 1), ("LEFT", -1, 0)];
    let (name, _, _) = DIRECTIONS
        .iter()
        .find(|(_, dx, dy)| grid.cell(x + dx, y + dy) == Some(b'.'))
        .unwrap_or(&DIRECTIONS[0]);
    name.to_string()
}

/// An ataxx turn: 7 rows, lastAction, actionsCount, the actions. The referee lists the legal
/// actions, so the first is legal; `random` is the statement's answer when none is listed.
fn read_ataxx_turn(input: &mut Input<impl BufRead>, number: u64) -> Result<Turn, Stop> {
    for _ in 0..7 {
        input.line()?;
    }
    input.line()?;
    let line = input.line()?;
    let count: usize = line.trim().parse().map_err(|_| bad_input("actionsCount", &line))?;
    let mut first = None;
    for _ in 0..count {
        let action = input.line()?;
        first = first.or_else(|| action.split_whitespace().next().map(str::to_string));
    }
    let reply = first.unwrap_or_else(|| "random".to_string());
    Ok(Turn { number, reply })
}

// ---------------------------------------------------------------------------------------------
// Slime: one process per turn

fn run_slime(config: &Config) {
    let turn = fault_files::claim_turn("faulty_bot");
    let mode = if turn < config.after { Mode::Ok } else { config.mode };
    let reply = slime_reply(config.board.as_deref().unwrap_or_default());
    match mode {
        Mode::Ok => print_line(&reply),
        Mode::Crash => process::abort(),
        Mode::Exit => {}
        Mode::Silent => sleep_forever(),
        Mode::Late => {
            thread::sleep(config.late);
            print_line(&reply);
        }
        Mode::Garbage => print_line(fault_files::GARBAGE),
        Mode::Huge => print_line(&huge_line()),
        Mode::Stderr => {
            write_debug_text(turn + 1);
            sleep_forever();
        }
        Mode::Linger => {
            spawn_lingering_child();
            eprintln!("turn {} thinking", turn + 1);
            print_line(&reply);
            sleep_forever();
        }
    }
}

/// A spread from the first own slime (reading order) onto an empty neighbour, which the control
/// program always applies; a pass (`0 0 0 0`) when there is none or the board is unreadable.
fn slime_reply(argument: &str) -> String {
    let mut parts = argument.trim_end().split(',');
    let me = parts.next().unwrap_or_default().trim().as_bytes().to_vec();
    let rows: Vec<&[u8]> = parts.map(str::as_bytes).collect();
    let cell = |r: i64, c: i64| -> Option<u8> {
        let row = rows.get(usize::try_from(r).ok()?)?;
        row.get(usize::try_from(c).ok()?).copied()
    };
    if let [own @ b'1'..=b'4'] = me.as_slice() {
        for (r, row) in rows.iter().enumerate() {
            for c in 0..row.len() {
                let (r, c) = (r as i64, c as i64);
                if cell(r, c) != Some(*own) {
                    continue;
                }
                for (dr, dc) in (-1..=1).flat_map(|dr| (-1..=1).map(move |dc| (dr, dc))) {
                    if (dr, dc) != (0, 0) && cell(r + dr, c + dc) == Some(b'.') {
                        return format!("{r} {c} {} {}", r + dr, c + dc);
                    }
                }
            }
        }
    }
    "0 0 0 0".to_string()
}

/// The newline matters: the slime control program rejects a reply without one.
fn print_line(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}
