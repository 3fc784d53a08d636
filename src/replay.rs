//! Replays: each game as a text file (map, seats, every turn's move, time,
//! fault and stderr, and how it ended), and reading one back to show it turn
//! by turn on the board.
//!
//! ```text
//! gridtune replay 1
//! game isolation
//! seat 0 judge:mobility
//! seat 1 cmd:./mybot
//! seed 1234
//! map
//! | #......
//! turn 1 seat 0 ms 3
//!   played 3 4
//!   stderr | depth 7 score 12
//! result 1 0
//! end normal
//! ```

use crate::arena::GameRecord;
use crate::game::{MoveBuffer, Player, ToMove};
use crate::games::GameKit;
use crate::maps::NamedMap;
use crate::referee::{BadReply, Fault, OnFailure, TurnLog};
use anyhow::Context;
use rand::SeedableRng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const MAGIC: &str = "gridtune replay 1";

/// Writes one game's replay text.
pub fn render<G: GameKit>(
    map_name: &str,
    map: &G::Map,
    labels: &[String],
    seed: u64,
    record: &GameRecord<G::Move>,
) -> String {
    let mut out = format!("{MAGIC}\ngame {}\n", G::NAME);
    for (p, label) in labels.iter().enumerate() {
        let _ = writeln!(out, "seat {p} {label}");
    }
    let _ = writeln!(out, "seed {seed}\nmap {map_name}");
    for line in G::map_text(map).lines() {
        let _ = writeln!(out, "| {line}");
    }
    for t in &record.turns {
        let _ = writeln!(out, "turn {} seat {} ms {}", t.turn + 1, t.seat, t.millis);
        if t.forced {
            out.push_str("  forced\n");
        }
        if let Some(reply) = t.reply.as_ref().filter(|r| Some(*r) != t.played.as_ref()) {
            let _ = writeln!(out, "  reply {}", one_line(reply));
        }
        if let Some((fault, why)) = &t.fault {
            let _ = writeln!(out, "  fault {}: {}", fault.name(), one_line(why));
        }
        for line in t.stderr.lines() {
            let _ = writeln!(out, "  stderr | {line}");
        }
        if let Some(played) = &t.played {
            let _ = writeln!(out, "  played {played}");
        }
    }
    let points: Vec<String> = record.outcome.points[..G::PLAYERS]
        .iter()
        .map(|p| p.to_string())
        .collect();
    let _ = writeln!(out, "result {}", points.join(" "));
    let _ = writeln!(out, "end {}", record.end.name());
    if !record.detail.is_empty() {
        let _ = writeln!(out, "detail {}", one_line(&record.detail));
    }
    for note in &record.notes {
        let _ = writeln!(out, "note {}", one_line(note));
    }
    out
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// A replay read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    pub game: String,
    pub seats: Vec<String>,
    pub seed: u64,
    pub map_name: String,
    pub map_text: String,
    pub turns: Vec<TurnLog>,
    pub result: Vec<f32>,
    pub end: String,
    pub detail: String,
    pub notes: Vec<String>,
    /// Where each part was read, so that a check of the record against the
    /// rules can name the line that is wrong.
    pub lines: ReplayLines,
}

/// 1-based line numbers of a replay's parts (0: the part is absent).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayLines {
    pub game: usize,
    pub seats: usize,
    pub map: usize,
    pub turns: Vec<usize>,
    pub result: usize,
    pub end: usize,
    pub detail: usize,
    /// The last line of the file.
    pub last: usize,
}

/// A replay line that cannot be read, or that the rules contradict, with its
/// 1-based line number.
#[derive(Debug, thiserror::Error)]
#[error("{origin}:{line}: {message}")]
pub struct ReplayError {
    pub origin: String,
    pub line: usize,
    pub message: String,
}

/// The end reasons a record can give (`EndReason::name`).
const END_REASONS: [&str; 6] = [
    "normal",
    "turn limit",
    "timeout",
    "crash",
    "invalid line",
    "illegal move",
];

/// Reads a replay's text; `origin` names it in errors.
pub fn parse(text: &str, origin: &str) -> Result<Replay, ReplayError> {
    let err = |line: usize, message: String| ReplayError {
        origin: origin.to_string(),
        line,
        message,
    };
    // `lines` drops a `\r` before a newline but keeps one that ends the text.
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .peekable();
    match lines.next() {
        Some((_, MAGIC)) => {}
        _ => return Err(err(1, format!("not a replay: the first line must be `{MAGIC}`"))),
    }
    let mut replay = Replay {
        game: String::new(),
        seats: Vec::new(),
        seed: 0,
        map_name: String::new(),
        map_text: String::new(),
        turns: Vec::new(),
        result: Vec::new(),
        end: String::new(),
        detail: String::new(),
        notes: Vec::new(),
        lines: ReplayLines::default(),
    };
    let mut seen: Vec<&str> = Vec::new();
    let mut last = 1;
    while let Some((no, line)) = lines.next() {
        last = no;
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        // A record's one-off lines given twice would let the second silently win.
        if ["game", "seed", "map", "result", "end", "detail"].contains(&word) {
            if seen.contains(&word) {
                return Err(err(no, format!("a second `{word}` line")));
            }
            seen.push(word);
        }
        match word {
            "game" => {
                replay.game = rest.to_string();
                replay.lines.game = no;
            }
            "seat" => {
                let (p, label) = rest
                    .split_once(' ')
                    .ok_or_else(|| err(no, "expected `seat P LABEL`".into()))?;
                if p.parse::<usize>().ok() != Some(replay.seats.len()) {
                    return Err(err(no, format!("seat `{p}` out of order")));
                }
                if replay.seats.is_empty() {
                    replay.lines.seats = no;
                }
                replay.seats.push(label.to_string());
            }
            "seed" => replay.seed = rest.parse().map_err(|_| err(no, format!("bad seed `{rest}`")))?,
            "map" => {
                replay.map_name = rest.to_string();
                replay.lines.map = no;
                while let Some((n, l)) = lines.next_if(|(_, l)| l.starts_with('|')) {
                    last = n;
                    replay.map_text.push_str(l.strip_prefix("| ").unwrap_or(&l[1..]));
                    replay.map_text.push('\n');
                }
            }
            "turn" => {
                let v: Vec<&str> = rest.split(' ').collect();
                let bad = || err(no, format!("expected `turn T seat P ms M`, found `{line}`"));
                if v.len() != 5 || v[1] != "seat" || v[3] != "ms" {
                    return Err(bad());
                }
                let number = |s: &str| s.parse::<u32>().map_err(|_| bad());
                let mut t = TurnLog {
                    turn: number(v[0])?.checked_sub(1).ok_or_else(bad)?,
                    seat: number(v[2])? as Player,
                    played: None,
                    reply: None,
                    millis: number(v[4])?,
                    stderr: String::new(),
                    fault: None,
                    forced: false,
                };
                while let Some((no, l)) = lines.next_if(|(_, l)| l.starts_with("  ")) {
                    last = no;
                    let l = &l[2..];
                    let (key, value) = l.split_once(' ').unwrap_or((l, ""));
                    match key {
                        "forced" => t.forced = true,
                        "reply" => t.reply = Some(value.to_string()),
                        "played" => t.played = Some(value.to_string()),
                        "stderr" => {
                            t.stderr
                                .push_str(value.strip_prefix("| ").unwrap_or(value.trim_start_matches('|')));
                            t.stderr.push('\n');
                        }
                        "fault" => {
                            let (kind, why) = value.split_once(": ").unwrap_or((value, ""));
                            let fault =
                                Fault::from_name(kind).ok_or_else(|| err(no, format!("unknown fault `{kind}`")))?;
                            t.fault = Some((fault, why.to_string()));
                        }
                        _ => return Err(err(no, format!("unknown turn line `{l}`"))),
                    }
                }
                replay.turns.push(t);
                replay.lines.turns.push(no);
            }
            "result" => {
                replay.result = rest
                    .split(' ')
                    .map(|p| p.parse::<f32>().ok().filter(|p| (0.0..=1.0).contains(p)))
                    .collect::<Option<_>>()
                    .ok_or_else(|| err(no, format!("bad result `{rest}`: expected each seat's points, 0 to 1")))?;
                replay.lines.result = no;
            }
            "end" => {
                if !END_REASONS.contains(&rest) {
                    return Err(err(
                        no,
                        format!(
                            "unknown end reason `{rest}`; expected one of: {}",
                            END_REASONS.join(", ")
                        ),
                    ));
                }
                replay.end = rest.to_string();
                replay.lines.end = no;
            }
            "detail" => {
                replay.detail = rest.to_string();
                replay.lines.detail = no;
            }
            "note" => replay.notes.push(rest.to_string()),
            "" => {}
            other => return Err(err(no, format!("unknown line `{other}`"))),
        }
    }
    replay.lines.last = last;
    if replay.game.is_empty() || replay.map_text.is_empty() {
        return Err(err(1, "a replay needs its `game` and `map` lines".into()));
    }
    if replay.lines.result == 0 || replay.lines.end == 0 {
        return Err(err(last, "a replay needs its `result` and `end` lines".into()));
    }
    Ok(replay)
}

/// Replays the moves on the board and writes each turn and the board after
/// it. Fails, naming the line, where the record and the rules disagree: a
/// move that is not legal where it was played, a seat that was not to move,
/// a turn marked forced that the referee would have asked, a failed turn the
/// game's [`OnFailure`] rule does not allow, or a result, end reason or
/// detail that the moves and the recorded faults do not give.
pub fn show<G: GameKit>(replay: &Replay, origin: &str) -> Result<String, ReplayError> {
    let err = |line: usize, message: String| ReplayError {
        origin: origin.to_string(),
        line,
        message,
    };
    let lines = &replay.lines;
    if replay.seats.len() != G::PLAYERS {
        return Err(err(
            lines.seats.max(1),
            format!("{} seats; {} has {}", replay.seats.len(), G::NAME, G::PLAYERS),
        ));
    }
    if replay.result.len() != G::PLAYERS {
        return Err(err(
            lines.result,
            format!(
                "{} points in the result; {} has {} seats",
                replay.result.len(),
                G::NAME,
                G::PLAYERS
            ),
        ));
    }
    let map = G::parse_map(&replay.map_text, origin).map_err(|e| err(lines.map, format!("the map: {e}")))?;
    let mut state = G::start(&map);
    let mut out = format!("{} on {} (seed {})\n", G::NAME, replay.map_name, replay.seed);
    for (p, label) in replay.seats.iter().enumerate() {
        let _ = writeln!(out, "  seat {p}: {label}");
    }
    let _ = write!(out, "\n{state}");
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(0);
    let mut i = 0;
    let mut turn = 0u32;
    // What the faults recorded so far imply: the detail the referee writes,
    // and, when a failure lost the game, how it ended.
    let mut fault_detail = String::new();
    let mut lost: Option<(crate::game::Outcome, &'static str)> = None;
    while i < replay.turns.len() {
        let line = lines.turns[i];
        if lost.is_some() {
            return Err(err(line, "a turn after a failed turn that lost the game".into()));
        }
        if state.to_move() == ToMove::Over {
            return Err(err(
                line,
                format!("turn {} comes after the game ended", replay.turns[i].turn + 1),
            ));
        }
        // A simultaneous turn is one entry per seat with the same number.
        let group_end = if G::SIMULTANEOUS {
            i + replay.turns[i..]
                .iter()
                .take_while(|t| t.turn == replay.turns[i].turn)
                .count()
        } else {
            i + 1
        };
        let group = &replay.turns[i..group_end];
        if group[0].turn != turn {
            return Err(err(
                line,
                format!("turn {} where turn {} comes next", group[0].turn + 1, turn + 1),
            ));
        }
        let seats: Vec<Player> = group.iter().map(|t| t.seat).collect();
        let expected: Vec<Player> = match state.to_move() {
            ToMove::One(p) => vec![p],
            _ => (0..G::PLAYERS).collect(),
        };
        if seats != expected {
            let list = |s: &[Player]| s.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ");
            return Err(err(
                line,
                format!(
                    "turn {}: seat {} played, but seat {} is to move",
                    turn + 1,
                    list(&seats),
                    list(&expected)
                ),
            ));
        }
        let _ = writeln!(out, "\nturn {}", turn + 1);
        let mut joint = Vec::new();
        let mut first_fault: Option<(Player, Fault)> = None;
        for (k, t) in group.iter().enumerate() {
            let line = lines.turns[i + k];
            let at = |message: String| err(line, format!("turn {} seat {}: {message}", t.turn + 1, t.seat));
            let shown = t.played.as_deref().unwrap_or("-");
            let _ = write!(
                out,
                "  seat {} ({}): {shown}  [{} ms]",
                t.seat, replay.seats[t.seat], t.millis
            );
            if t.forced {
                out.push_str("  (forced, not asked)");
            }
            out.push('\n');
            if let Some(reply) = &t.reply {
                let _ = writeln!(out, "    replied: {reply}");
            }
            if let Some((fault, why)) = &t.fault {
                let _ = writeln!(out, "    {}: {why}", fault.name().to_uppercase());
            }
            for line in t.stderr.lines() {
                let _ = writeln!(out, "    stderr | {line}");
            }
            let m = match &t.played {
                Some(text) => {
                    Some(parse_played(&state, t.seat, text, &mut rng).map_err(|e| at(format!("`{text}` {e}")))?)
                }
                None => None,
            };
            if t.forced {
                if G::asks(&state, t.seat) {
                    return Err(at("marked forced, but the referee asks a seat that has a move".into()));
                }
                if m.is_none() || m != crate::referee::forced_move(&state, t.seat) {
                    return Err(at("marked forced, but not the forced move".into()));
                }
            }
            match (&t.fault, m) {
                (None, None) => return Err(at("no move and no fault".into())),
                (Some(_), Some(_)) if G::ON_FAILURE == OnFailure::Lose => {
                    return Err(at(format!("a failed turn loses in {}: it has no move", G::NAME)))
                }
                (Some(_), Some(m)) if !state.is_pass(&m) => {
                    return Err(at(format!("a failed turn is a pass in {}", G::NAME)))
                }
                (Some(_), None) if G::ON_FAILURE == OnFailure::Pass => {
                    return Err(at(format!(
                        "a failed turn is a pass in {}: `played pass` is missing",
                        G::NAME
                    )))
                }
                (Some((fault, why)), _) => {
                    if first_fault.is_none() {
                        fault_detail = crate::arena::failure_detail(t.seat, *fault, why, turn);
                        first_fault = Some((t.seat, *fault));
                    }
                }
                (None, Some(_)) => {}
            }
            joint.push(m);
        }
        match first_fault {
            Some((seat, fault)) if G::ON_FAILURE == OnFailure::Lose => {
                let outcome = if G::SIMULTANEOUS {
                    let outcome = state.play_with_failures(&joint);
                    let _ = write!(out, "{state}");
                    outcome
                } else {
                    crate::game::Outcome::win(1 - seat)
                };
                lost = Some((outcome, fault.name()));
            }
            _ => {
                let moves: Vec<G::Move> = joint.into_iter().flatten().collect();
                if G::SIMULTANEOUS {
                    state.play_joint(&moves);
                } else {
                    state.play(moves[0]);
                }
                let _ = write!(out, "{state}");
            }
        }
        i = group_end;
        turn += 1;
    }
    let result: Vec<String> = replay.result.iter().map(f32::to_string).collect();
    let _ = writeln!(out, "\nresult {}: {}", result.join(" "), replay.end);
    if !replay.detail.is_empty() {
        let _ = writeln!(out, "{}", replay.detail);
    }
    for note in &replay.notes {
        let _ = writeln!(out, "note: {note}");
    }
    let (outcome, end) = match lost {
        Some(lost) => lost,
        None => {
            let Some(outcome) = state.outcome() else {
                return Err(err(lines.end, "the moves end before the game does".into()));
            };
            let end = if G::ended_by_turn_limit(&state) {
                "turn limit"
            } else {
                "normal"
            };
            (outcome, end)
        }
    };
    if replay.end != end {
        let why = match lost {
            Some(_) => format!("the recorded failed turn ends it by `{end}` ({fault_detail})"),
            None => format!("the moves end the game by `{end}` and no failed turn lost it"),
        };
        return Err(err(lines.end, format!("end `{}`, but {why}", replay.end)));
    }
    if outcome.points[..G::PLAYERS] != replay.result[..] {
        let want: Vec<String> = outcome.points[..G::PLAYERS].iter().map(f32::to_string).collect();
        return Err(err(
            lines.result,
            format!("result {}, but the rules give {}", result.join(" "), want.join(" ")),
        ));
    }
    // The referee writes the last failure's detail; Lose games stop there.
    let detail = one_line(&fault_detail);
    if replay.detail != detail {
        let line = if lines.detail > 0 { lines.detail } else { lines.end };
        return Err(err(
            line,
            match (detail.is_empty(), lines.detail > 0) {
                (true, _) => format!("detail `{}`, but no turn failed", replay.detail),
                (false, false) => format!("no detail line, but the recorded fault gives `{detail}`"),
                (false, true) => format!("detail `{}`, but the recorded fault gives `{detail}`", replay.detail),
            },
        ));
    }
    Ok(out)
}

/// A logged move on `state`: `pass`, or the protocol's text for it, written
/// as the referee writes it.
fn parse_played<G: GameKit>(
    state: &G,
    seat: Player,
    text: &str,
    rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
) -> Result<G::Move, String> {
    let mut legal = G::Moves::default();
    state.legal_moves(seat, &mut legal);
    if text == "pass" {
        return legal
            .as_slice()
            .iter()
            .copied()
            .find(|m| state.is_pass(m))
            .ok_or_else(|| "is not legal here: the seat cannot pass".to_string());
    }
    let mut pick = |n: usize| rand::RngExt::random_range(&mut *rng, 0..n);
    let m = G::read_reply(state, seat, text, true, &mut pick).map_err(|e| {
        let (BadReply::Invalid(why) | BadReply::Illegal(why)) = e;
        format!("is not legal here: {why}")
    })?;
    // The protocol reader accepts more than the referee writes (Ataxx's
    // `random`, a message after the move); a record holds only the move.
    if G::move_text(m) != text || !legal.as_slice().contains(&m) {
        return Err("is not a move as the referee records it".into());
    }
    Ok(m)
}

/// Writes a replay file atomically.
pub fn write<G: GameKit>(
    path: &Path,
    map_name: &str,
    map: &G::Map,
    labels: &[String],
    seed: u64,
    record: &GameRecord<G::Move>,
) -> std::io::Result<()> {
    crate::fsutil::write_atomic(path, render::<G>(map_name, map, labels, seed, record).as_bytes())
}

/// A folder of replay files, one per game, named by the game's place in its
/// match or tournament (`game00001.txt` for the first).
pub struct ReplayFolder {
    dir: PathBuf,
}

impl ReplayFolder {
    /// Creates the folder (and its parents) if it does not exist.
    pub fn create(dir: &Path) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(ReplayFolder { dir: dir.to_path_buf() })
    }

    /// The file of the game at 0-based `index`.
    pub fn path(&self, index: usize) -> PathBuf {
        self.dir.join(format!("game{:05}.txt", index + 1))
    }

    /// Writes the replay of the game at 0-based `index`, played on `map` by
    /// `labels` in seat order.
    pub fn write<G: GameKit>(
        &self,
        index: usize,
        map: &NamedMap<G::Map>,
        labels: &[String],
        seed: u64,
        record: &GameRecord<G::Move>,
    ) -> anyhow::Result<()> {
        let path = self.path(index);
        write::<G>(&path, &map.name, &map.map, labels, seed, record)
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

#[cfg(test)]
mod tests;
