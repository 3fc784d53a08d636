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
use crate::referee::{Fault, OnFailure, TurnLog};
use rand::SeedableRng;
use std::fmt::Write as _;
use std::path::Path;

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
}

/// A replay line that cannot be read, with its 1-based line number.
#[derive(Debug, thiserror::Error)]
#[error("{origin}:{line}: {message}")]
pub struct ReplayError {
    pub origin: String,
    pub line: usize,
    pub message: String,
}

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
    };
    while let Some((no, line)) = lines.next() {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "game" => replay.game = rest.to_string(),
            "seat" => {
                let (p, label) = rest
                    .split_once(' ')
                    .ok_or_else(|| err(no, "expected `seat P LABEL`".into()))?;
                if p.parse::<usize>().ok() != Some(replay.seats.len()) {
                    return Err(err(no, format!("seat `{p}` out of order")));
                }
                replay.seats.push(label.to_string());
            }
            "seed" => replay.seed = rest.parse().map_err(|_| err(no, format!("bad seed `{rest}`")))?,
            "map" => {
                replay.map_name = rest.to_string();
                while let Some((_, l)) = lines.next_if(|(_, l)| l.starts_with('|')) {
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
            }
            "result" => {
                replay.result = rest
                    .split(' ')
                    .map(|p| p.parse::<f32>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| err(no, format!("bad result `{rest}`")))?;
            }
            "end" => replay.end = rest.to_string(),
            "detail" => replay.detail = rest.to_string(),
            "note" => replay.notes.push(rest.to_string()),
            "" => {}
            other => return Err(err(no, format!("unknown line `{other}`"))),
        }
    }
    if replay.game.is_empty() || replay.map_text.is_empty() {
        return Err(err(1, "a replay needs its `game` and `map` lines".into()));
    }
    Ok(replay)
}

/// Replays the moves on the board and writes each turn and the board after
/// it. Fails if a logged move is not legal where it was played, or if the
/// board's result differs from the logged one.
pub fn show<G: GameKit>(replay: &Replay, origin: &str) -> Result<String, String> {
    let map = G::parse_map(&replay.map_text, origin).map_err(|e| e.to_string())?;
    let mut state = G::start(&map);
    let mut out = format!("{} on {} (seed {})\n", G::NAME, replay.map_name, replay.seed);
    for (p, label) in replay.seats.iter().enumerate() {
        let _ = writeln!(out, "  seat {p}: {label}");
    }
    let _ = write!(out, "\n{state}");
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(0);
    let mut i = 0;
    let mut decided_by_failure = false;
    while i < replay.turns.len() {
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
        check_seats::<G>(&state, group, replay.seats.len()).map_err(|e| format!("{origin}: {e}"))?;
        let _ = writeln!(out, "\nturn {}", group[0].turn + 1);
        let mut joint = Vec::new();
        for t in group {
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
            joint.push(match &t.played {
                Some(text) => Some(
                    parse_played(&state, t.seat, text, &mut rng)
                        .map_err(|e| format!("{origin}: turn {} seat {}: `{text}` {e}", t.turn + 1, t.seat))?,
                ),
                None => None,
            });
        }
        if let Some(t) = group
            .iter()
            .find(|t| t.played.is_none() && G::ON_FAILURE == OnFailure::Pass)
        {
            // A failed turn that passes is logged as `played pass`.
            return Err(format!(
                "{origin}: turn {} seat {}: no `played` line",
                t.turn + 1,
                t.seat
            ));
        }
        if joint.iter().any(Option::is_none) && G::ON_FAILURE == OnFailure::Lose {
            decided_by_failure = true;
            if G::SIMULTANEOUS {
                state.play_with_failures(&joint);
                let _ = write!(out, "{state}");
            }
            break;
        }
        let moves: Vec<G::Move> = joint.into_iter().flatten().collect();
        if G::SIMULTANEOUS {
            state.play_joint(&moves);
        } else {
            state.play(moves[0]);
        }
        let _ = write!(out, "{state}");
        i = group_end;
    }
    let _ = writeln!(out, "\nresult {:?}: {}", replay.result, replay.end);
    if !replay.detail.is_empty() {
        let _ = writeln!(out, "{}", replay.detail);
    }
    for note in &replay.notes {
        let _ = writeln!(out, "note: {note}");
    }
    if !decided_by_failure {
        let Some(outcome) = state.outcome() else {
            return Err(format!("{origin}: the moves end before the game does"));
        };
        if outcome.points[..G::PLAYERS] != replay.result[..] {
            return Err(format!(
                "{origin}: the moves give {:?}, the replay says {:?}",
                &outcome.points[..G::PLAYERS],
                replay.result
            ));
        }
    }
    Ok(out)
}

/// The seats of one turn's entries are the seats the game has to act, in
/// order (a record from another game, or edited, may name any seat).
fn check_seats<G: GameKit>(state: &G, group: &[TurnLog], seats: usize) -> Result<(), String> {
    let turn = group[0].turn + 1;
    if let Some(t) = group.iter().find(|t| t.seat >= seats.min(G::PLAYERS)) {
        return Err(format!("turn {turn}: seat {} is not at the table", t.seat));
    }
    let to_act: Vec<Player> = match state.to_move() {
        ToMove::Over => return Err(format!("turn {turn} comes after the game ended")),
        ToMove::One(p) => vec![p],
        ToMove::All => (0..G::PLAYERS).collect(),
    };
    let logged: Vec<Player> = group.iter().map(|t| t.seat).collect();
    if logged != to_act {
        let list = |v: &[Player]| v.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ");
        return Err(format!(
            "turn {turn}: the record has seats {} acting, the game has {}",
            list(&logged),
            list(&to_act)
        ));
    }
    Ok(())
}

/// A logged move on `state`: `pass`, or the protocol's text for it.
fn parse_played<G: GameKit>(
    state: &G,
    seat: Player,
    text: &str,
    rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
) -> Result<G::Move, String> {
    if matches!(state.to_move(), ToMove::Over) {
        return Err("comes after the game ended".into());
    }
    if text == "pass" {
        // Only a seat that may pass here can have passed.
        let mut legal = G::Moves::default();
        state.legal_moves(seat, &mut legal);
        return legal
            .as_slice()
            .iter()
            .copied()
            .find(|m| state.is_pass(m))
            .ok_or_else(|| "is not legal here: this seat cannot pass".to_string());
    }
    let m = G::read_reply(state, seat, text, true, rng).map_err(|e| format!("is not legal here: {e:?}"))?;
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
