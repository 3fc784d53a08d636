//! What coordinators and workers send each other: a [`Batch`] of games and
//! its [`BatchResult`], as JSON.
//!
//! A batch carries everything its games need (the game, the map texts, each
//! bot's weights and budget, judge names, program commands, the seeds) and
//! the gridtune and protocol versions that made it, so a worker needs no
//! shared filesystem and refuses work another version would play
//! differently. Nothing read from the network is trusted: [`read_batch`]
//! and [`read_result`] check size, shape and versions, [`Batch::decode`]
//! checks every index, name and number against the game before a game is
//! played, and [`BatchResult::check_against`] checks a result's counts and
//! values against the batch it answers. Each error names the batch and the
//! field.

use crate::arena::executor::{GameSummary, GameTask};
use crate::arena::EndReason;
use crate::bots::BotSpec;
use crate::contest::TimeLimits;
use crate::games::GameKit;
use crate::referee::process::Launch;
use crate::referee::uai::UaiLimit;
use crate::referee::Fault;
use crate::search::Limits;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Duration;

/// The wire protocol's version: a worker plays only batches of its own.
pub const PROTOCOL: u32 = 1;

/// The gridtune build that wrote a batch; a worker plays only its own. The
/// package version and a hash of the sources (build.rs), such as
/// `0.1.0+src.1a2b3c4d5e6f7a8b`: two builds of one version may play a game
/// differently, and a run must give the same files whichever worker played.
pub const VERSION: &str = env!("GRIDTUNE_BUILD");

/// The largest batch or result read, in bytes: NATS's default payload limit.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// The most games in one batch.
pub const MAX_GAMES: usize = 10_000;
/// The most maps or bots in one batch.
pub const MAX_ENTRIES: usize = 20_000;
/// The longest map text, detail line, label or command word, in bytes.
pub const MAX_TEXT: usize = 64 * 1024;
/// The longest move budget a genome bot or program may be given: an hour.
pub const MAX_MS: u64 = 3_600_000;
/// The largest node budget a genome bot may be given a move without a time
/// limit (about half a minute of search): a batch cannot tie a worker up
/// for days.
pub const MAX_NODES: u64 = 100_000_000;
/// The deepest search allowed without a time or node bound.
pub const MAX_BARE_DEPTH: u32 = 16;

/// Why a batch or result was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("{what} of {bytes} bytes is over the {MAX_MESSAGE_BYTES}-byte limit")]
    TooLarge { what: &'static str, bytes: usize },
    #[error("{what} is not valid JSON of the expected shape: {why}")]
    Malformed { what: &'static str, why: String },
    /// Made by another gridtune or protocol version: left for a worker of
    /// that version.
    #[error(
        "batch `{id}` was made by gridtune {version} (protocol {protocol}); this worker is gridtune {mine} \
         (protocol {PROTOCOL}) and leaves it for a worker of that version"
    )]
    Version {
        id: String,
        version: String,
        protocol: u32,
        mine: String,
    },
    /// A result made by another gridtune or protocol version than the
    /// coordinator reading it.
    #[error(
        "the result of batch `{id}` comes from gridtune {version} (protocol {protocol}); this coordinator is \
         gridtune {mine} (protocol {PROTOCOL})"
    )]
    ResultVersion {
        id: String,
        version: String,
        protocol: u32,
        mine: String,
    },
    #[error("batch `{id}`: {why}")]
    Invalid { id: String, why: String },
    /// The batch has program bots and this worker was not started with
    /// `--allow-programs`: left for a worker that was.
    #[error(
        "batch `{id}` runs program bots ({program}); this worker was not started with --allow-programs \
         and leaves it for one that was"
    )]
    Programs { id: String, program: String },
}

impl WireError {
    /// Whether another worker may play the batch (a version or program
    /// refusal), as opposed to a batch no worker can play.
    pub fn for_another_worker(&self) -> bool {
        matches!(self, WireError::Version { .. } | WireError::Programs { .. })
    }

    /// The id of the batch the message was, or answered, when it was read.
    pub fn batch_id(&self) -> Option<&str> {
        match self {
            WireError::Version { id, .. }
            | WireError::ResultVersion { id, .. }
            | WireError::Invalid { id, .. }
            | WireError::Programs { id, .. } => Some(id),
            WireError::TooLarge { .. } | WireError::Malformed { .. } => None,
        }
    }
}

/// A bot as a batch carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum WireBot {
    Judge {
        name: String,
    },
    Genome {
        weights: Vec<i32>,
        depth: u32,
        nodes: u64,
        time_ms: Option<u64>,
    },
    Program {
        label: String,
        program: String,
        args: Vec<String>,
        dir: Option<String>,
        first_turn_ms: u64,
        turn_ms: u64,
        /// A UAI engine's limit: `nodes N`, `movetime MS` or `clock BASE INC`.
        uai: Option<String>,
    },
}

/// One game of a batch: indices into its maps and bots, and the seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireGame {
    pub map: u32,
    pub seats: Vec<u32>,
    pub seed: u64,
}

/// Games for a worker to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Batch {
    pub gridtune: String,
    pub protocol: u32,
    /// Unique per batch and coordinator process: `RUN.NONCE.SEQ`.
    pub id: String,
    /// The subject the result goes to.
    pub reply: String,
    pub game: String,
    pub maps: Vec<String>,
    pub bots: Vec<WireBot>,
    pub games: Vec<WireGame>,
}

/// The fields every version of a batch has, read first so that a batch of
/// another version is refused by name rather than as malformed.
#[derive(Deserialize)]
struct Envelope {
    gridtune: String,
    protocol: u32,
    id: String,
}

/// How a game ended, on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum WireEnd {
    Normal,
    TurnLimit,
    Failed { seat: u32, fault: String },
}

/// A game's summary on the wire. Points travel as `f64` (an `f32` widens
/// exactly and JSON gives an `f64` back exactly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireSummary {
    pub points: Vec<f64>,
    pub end: WireEnd,
    pub detail: String,
    /// Per seat: its first fault's name and message.
    pub faults: Vec<Option<(String, String)>>,
}

/// A worker's answer to a batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchResult {
    pub gridtune: String,
    pub protocol: u32,
    pub id: String,
    /// Who played it (host and process), for the coordinator's tally.
    pub worker: String,
    pub games: Vec<WireSummary>,
    /// Seconds the worker spent playing the batch.
    pub seconds: f64,
}

fn too_large(what: &'static str, bytes: &[u8]) -> Result<(), WireError> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(WireError::TooLarge {
            what,
            bytes: bytes.len(),
        });
    }
    Ok(())
}

/// Whether `subject` is one a result may be published to:
/// `gridtune.results.<run>`, the run an alphanumeric token.
pub fn is_result_subject(subject: &str) -> bool {
    subject
        .strip_prefix("gridtune.results.")
        .is_some_and(|run| !run.is_empty() && run.len() <= 64 && run.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// serde_json's message, cut to a line a log can hold.
fn json_why(e: &serde_json::Error) -> String {
    let why = e.to_string();
    match why.char_indices().nth(300) {
        Some((cut, _)) => format!("{}...", &why[..cut]),
        None => why,
    }
}

/// Reads a batch: its size, its JSON, then its versions (before its shape,
/// so another version's batch is named as such).
pub fn read_batch(bytes: &[u8]) -> Result<Batch, WireError> {
    read_batch_as(bytes, VERSION)
}

/// [`read_batch`] for a worker of gridtune `version` (a test starts one
/// that claims another).
pub fn read_batch_as(bytes: &[u8], version: &str) -> Result<Batch, WireError> {
    too_large("a batch", bytes)?;
    let envelope: Envelope = parse("a batch", bytes)?;
    if envelope.gridtune != version || envelope.protocol != PROTOCOL {
        return Err(WireError::Version {
            id: cut(&envelope.id, 200),
            version: cut(&envelope.gridtune, 100),
            protocol: envelope.protocol,
            mine: cut(version, 100),
        });
    }
    parse("a batch", bytes)
}

/// `bytes` as JSON of `T`, or `what` named as malformed.
fn parse<'a, T: serde::Deserialize<'a>>(what: &'static str, bytes: &'a [u8]) -> Result<T, WireError> {
    serde_json::from_slice(bytes).map_err(|e| WireError::Malformed {
        what,
        why: json_why(&e),
    })
}

/// Reads a worker's result (its shape and versions; [`BatchResult::check_against`]
/// checks it against its batch).
pub fn read_result(bytes: &[u8]) -> Result<BatchResult, WireError> {
    too_large("a result", bytes)?;
    let result: BatchResult = parse("a result", bytes)?;
    if result.gridtune != VERSION || result.protocol != PROTOCOL {
        return Err(WireError::ResultVersion {
            id: cut(&result.id, 200),
            version: cut(&result.gridtune, 100),
            protocol: result.protocol,
            mine: VERSION.to_string(),
        });
    }
    Ok(result)
}

/// At most `n` characters of `text`, for messages.
fn cut(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

fn uai_text(limit: UaiLimit) -> String {
    match limit {
        UaiLimit::Nodes(n) => format!("nodes {n}"),
        UaiLimit::MoveTime(ms) => format!("movetime {ms}"),
        UaiLimit::Clock { base, inc } => format!("clock {base} {inc}"),
    }
}

fn uai_limit(text: &str) -> Option<UaiLimit> {
    let words: Vec<&str> = text.split(' ').collect();
    let num = |w: &str| w.parse::<u64>().ok().filter(|&n| (1..=MAX_MS).contains(&n));
    match words.as_slice() {
        ["nodes", n] => n.parse::<u64>().ok().filter(|&n| n >= 1).map(UaiLimit::Nodes),
        ["movetime", ms] => num(ms).map(UaiLimit::MoveTime),
        ["clock", base, inc] => Some(UaiLimit::Clock {
            base: num(base)?,
            inc: inc.parse::<u64>().ok().filter(|&n| n <= MAX_MS)?,
        }),
        _ => None,
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl WireBot {
    pub fn of(spec: &BotSpec) -> Self {
        match spec {
            BotSpec::Judge(name) => WireBot::Judge { name: name.clone() },
            BotSpec::Genome { weights, limits, .. } => WireBot::Genome {
                weights: weights.clone(),
                depth: limits.depth,
                nodes: limits.nodes,
                time_ms: limits.time.map(millis),
            },
            BotSpec::Program {
                label,
                launch,
                limits,
                uai,
            } => WireBot::Program {
                label: label.clone(),
                program: launch.program.clone(),
                args: launch.args.clone(),
                dir: launch.dir.as_ref().map(|d| d.to_string_lossy().into_owned()),
                first_turn_ms: millis(limits.first),
                turn_ms: millis(limits.later),
                uai: uai.map(uai_text),
            },
        }
    }

    /// The bot as a spec for game `G`, every field checked.
    fn decode<G: GameKit>(&self, label: String) -> Result<BotSpec, String> {
        match self {
            WireBot::Judge { name } => {
                if G::is_judge(name) {
                    Ok(BotSpec::Judge(name.clone()))
                } else {
                    Err(format!("unknown judge `{}` for {}", cut(name, 100), G::NAME))
                }
            }
            WireBot::Genome {
                weights,
                depth,
                nodes,
                time_ms,
            } => {
                if weights.len() != G::PARAMS.len() {
                    return Err(format!(
                        "a genome of {} weights; {} has {}",
                        weights.len(),
                        G::NAME,
                        G::PARAMS.len()
                    ));
                }
                if let Some((p, w)) = G::PARAMS.iter().zip(weights).find(|(p, &w)| w < p.min || w > p.max) {
                    return Err(format!("weight `{}` is {w}, outside {}..={}", p.name, p.min, p.max));
                }
                if !(1..=crate::search::MAX_DEPTH).contains(depth) {
                    return Err(format!("depth {depth} is outside 1..={}", crate::search::MAX_DEPTH));
                }
                if *nodes == 0 {
                    return Err("a node budget of 0".into());
                }
                if time_ms.is_none() && *nodes > MAX_NODES && *depth > MAX_BARE_DEPTH {
                    return Err(format!(
                        "a search bounded by neither time, {MAX_NODES} nodes nor depth {MAX_BARE_DEPTH}"
                    ));
                }
                if let Some(ms) = time_ms.filter(|&ms| ms == 0 || ms > MAX_MS) {
                    return Err(format!("a move time of {ms} ms is outside 1..={MAX_MS}"));
                }
                Ok(BotSpec::Genome {
                    label,
                    weights: weights.clone(),
                    limits: Limits {
                        depth: *depth,
                        nodes: *nodes,
                        time: time_ms.map(Duration::from_millis),
                    },
                })
            }
            WireBot::Program {
                label: name,
                program,
                args,
                dir,
                first_turn_ms,
                turn_ms,
                uai,
            } => {
                if program.is_empty() || program.contains('\0') || args.iter().any(|a| a.contains('\0')) {
                    return Err("a program with an empty name or a NUL byte".into());
                }
                if [first_turn_ms, turn_ms].iter().any(|&&ms| ms == 0 || ms > MAX_MS) {
                    return Err(format!("a program's time limits must be within 1..={MAX_MS} ms"));
                }
                let uai = match uai {
                    None => None,
                    Some(text) => match (uai_limit(text), G::UAI) {
                        (Some(limit), Some(_)) => Some(limit),
                        (None, _) => return Err(format!("UAI limit `{}` is not valid", cut(text, 100))),
                        (Some(_), None) => return Err(format!("{} has no UAI engines", G::NAME)),
                    },
                };
                Ok(BotSpec::Program {
                    label: name.clone(),
                    launch: Launch {
                        program: program.clone(),
                        args: args.clone(),
                        dir: dir.as_ref().map(std::path::PathBuf::from),
                    },
                    limits: TimeLimits::millis(*first_turn_ms, *turn_ms),
                    uai,
                })
            }
        }
    }
}

/// A batch's games, decoded for game `G`: maps, bots, and each game as
/// (map, seats as bot indices, seed).
pub struct Decoded<G: GameKit> {
    pub maps: Vec<G::Map>,
    pub bots: Vec<BotSpec>,
    pub games: Vec<(usize, Vec<usize>, u64)>,
}

impl<G: GameKit> Decoded<G> {
    /// The games as tasks for an executor.
    pub fn tasks(&self) -> Vec<GameTask<'_>> {
        self.games
            .iter()
            .map(|(map, seats, seed)| GameTask {
                map: *map,
                seats: seats.iter().map(|&b| &self.bots[b]).collect(),
                seed: *seed,
            })
            .collect()
    }
}

impl Batch {
    /// A batch of `tasks` on `maps` for game `G`: only the maps and bots
    /// the tasks use, each once.
    pub fn new<G: GameKit>(id: String, reply: String, maps: &[G::Map], tasks: &[GameTask<'_>]) -> Batch {
        let mut map_index: HashMap<usize, u32> = HashMap::new();
        let mut map_texts = Vec::new();
        let mut bot_index: HashMap<*const BotSpec, u32> = HashMap::new();
        let mut bots = Vec::new();
        let mut games = Vec::with_capacity(tasks.len());
        for task in tasks {
            let map = *map_index.entry(task.map).or_insert_with(|| {
                map_texts.push(G::map_text(&maps[task.map]));
                (map_texts.len() - 1) as u32
            });
            let seats = task
                .seats
                .iter()
                .map(|&spec| {
                    *bot_index.entry(spec as *const BotSpec).or_insert_with(|| {
                        bots.push(WireBot::of(spec));
                        (bots.len() - 1) as u32
                    })
                })
                .collect();
            games.push(WireGame {
                map,
                seats,
                seed: task.seed,
            });
        }
        Batch {
            gridtune: VERSION.to_string(),
            protocol: PROTOCOL,
            id,
            reply,
            game: G::NAME.to_string(),
            maps: map_texts,
            bots,
            games,
        }
    }

    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a batch serialises")
    }

    /// The program bots in the batch, if any: the first one's command.
    pub fn first_program(&self) -> Option<String> {
        self.bots.iter().find_map(|b| match b {
            WireBot::Program { program, .. } => Some(cut(program, 100)),
            _ => None,
        })
    }

    /// Checks the batch against game `G` and decodes it: the game's name,
    /// counts, every index, map, weight, budget and name. Program bots only
    /// with `allow_programs`.
    pub fn decode<G: GameKit>(&self, allow_programs: bool) -> Result<Decoded<G>, WireError> {
        let invalid = |why: String| WireError::Invalid {
            id: cut(&self.id, 200),
            why,
        };
        if self.game != G::NAME {
            return Err(invalid(format!("game `{}` is not {}", cut(&self.game, 50), G::NAME)));
        }
        if self.id.is_empty() || self.id.len() > 200 {
            return Err(invalid("its id must have 1 to 200 bytes".into()));
        }
        if !is_result_subject(&self.reply) {
            return Err(invalid(format!(
                "reply subject `{}` is not gridtune.results.<run>",
                cut(&self.reply, 100)
            )));
        }
        if self.games.is_empty() || self.games.len() > MAX_GAMES {
            return Err(invalid(format!(
                "{} games; a batch has 1 to {MAX_GAMES}",
                self.games.len()
            )));
        }
        for (what, n) in [("maps", self.maps.len()), ("bots", self.bots.len())] {
            if n == 0 || n > MAX_ENTRIES {
                return Err(invalid(format!("{n} {what}; a batch has 1 to {MAX_ENTRIES}")));
            }
        }
        if !allow_programs {
            if let Some(program) = self.first_program() {
                return Err(WireError::Programs {
                    id: cut(&self.id, 200),
                    program,
                });
            }
        }
        let maps = self
            .maps
            .iter()
            .enumerate()
            .map(|(i, text)| {
                if text.len() > MAX_TEXT {
                    return Err(invalid(format!("map {i} has {} bytes, over {MAX_TEXT}", text.len())));
                }
                G::parse_map(text, &format!("map {i}")).map_err(|e| invalid(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let bots = self
            .bots
            .iter()
            .enumerate()
            .map(|(i, b)| {
                b.decode::<G>(format!("bot {i}"))
                    .map_err(|e| invalid(format!("bot {i}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let games = self
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let map = g.map as usize;
                if map >= maps.len() {
                    return Err(invalid(format!("game {i}: map {map} of {}", maps.len())));
                }
                if g.seats.len() != G::PLAYERS {
                    return Err(invalid(format!(
                        "game {i}: {} seats; {} has {}",
                        g.seats.len(),
                        G::NAME,
                        G::PLAYERS
                    )));
                }
                let seats = g
                    .seats
                    .iter()
                    .map(|&b| {
                        let b = b as usize;
                        if b < bots.len() {
                            Ok(b)
                        } else {
                            Err(invalid(format!("game {i}: bot {b} of {}", bots.len())))
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((map, seats, g.seed))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Decoded { maps, bots, games })
    }
}

impl WireSummary {
    pub fn of(game: &GameSummary) -> Self {
        WireSummary {
            points: game.points.iter().map(|&p| f64::from(p)).collect(),
            end: match game.end {
                EndReason::Normal => WireEnd::Normal,
                EndReason::TurnLimit => WireEnd::TurnLimit,
                EndReason::Failed { seat, fault } => WireEnd::Failed {
                    seat: seat as u32,
                    fault: fault.name().to_string(),
                },
            },
            detail: game.detail.clone(),
            faults: game
                .faults
                .iter()
                .map(|f| f.as_ref().map(|(fault, why)| (fault.name().to_string(), why.clone())))
                .collect(),
        }
    }

    /// The summary of a game at a table of `players`, every value checked.
    fn decode(&self, players: usize) -> Result<GameSummary, String> {
        if self.points.len() != players || self.faults.len() != players {
            return Err(format!(
                "{} points and {} fault entries for {players} seats",
                self.points.len(),
                self.faults.len()
            ));
        }
        if let Some(p) = self.points.iter().find(|p| !(0.0..=1.0).contains(*p)) {
            return Err(format!("points {p} outside [0, 1]"));
        }
        let points: Vec<f32> = self.points.iter().map(|&p| p as f32).collect();
        if points.iter().zip(&self.points).any(|(&f, &d)| f64::from(f) != d) {
            return Err("points that are not single-precision values".into());
        }
        let fault = |name: &str| Fault::from_name(name).ok_or_else(|| format!("unknown fault `{}`", cut(name, 50)));
        let end = match &self.end {
            WireEnd::Normal => EndReason::Normal,
            WireEnd::TurnLimit => EndReason::TurnLimit,
            WireEnd::Failed { seat, fault: f } => {
                if *seat as usize >= players {
                    return Err(format!("a failed seat {seat} of {players}"));
                }
                EndReason::Failed {
                    seat: *seat as usize,
                    fault: fault(f)?,
                }
            }
        };
        if self.detail.len() > MAX_TEXT {
            return Err("a detail line over 64 KB".into());
        }
        let faults = self
            .faults
            .iter()
            .map(|f| match f {
                None => Ok(None),
                Some((_, why)) if why.len() > MAX_TEXT => Err("a fault message over 64 KB".to_string()),
                Some((name, why)) => Ok(Some((fault(name)?, why.clone()))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GameSummary {
            points,
            end,
            detail: self.detail.clone(),
            faults,
        })
    }
}

impl BatchResult {
    pub fn new(id: &str, worker: &str, games: &[GameSummary], seconds: f64) -> Self {
        BatchResult {
            gridtune: VERSION.to_string(),
            protocol: PROTOCOL,
            id: id.to_string(),
            worker: worker.to_string(),
            games: games.iter().map(WireSummary::of).collect(),
            seconds,
        }
    }

    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a result serialises")
    }

    /// The result's games, checked against its batch: one per game, each
    /// with a value per seat of the game's table.
    pub fn check_against(&self, batch: &Batch, players: usize) -> Result<Vec<GameSummary>, WireError> {
        let invalid = |why: String| WireError::Invalid {
            id: cut(&self.id, 200),
            why: format!("the result from worker `{}`: {why}", cut(&self.worker, 100)),
        };
        if self.id != batch.id {
            return Err(invalid(format!("it answers batch `{}`", cut(&self.id, 200))));
        }
        if self.games.len() != batch.games.len() {
            return Err(invalid(format!(
                "{} games for a batch of {}",
                self.games.len(),
                batch.games.len()
            )));
        }
        if !self.seconds.is_finite() || self.seconds < 0.0 {
            return Err(invalid(format!("{} seconds", self.seconds)));
        }
        self.games
            .iter()
            .enumerate()
            .map(|(i, g)| g.decode(players).map_err(|e| invalid(format!("game {i}: {e}"))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_the_package_version_and_a_source_hash() {
        let hash = VERSION
            .strip_prefix(concat!(env!("CARGO_PKG_VERSION"), "+src."))
            .unwrap_or_else(|| panic!("{VERSION}"));
        assert_eq!(hash.len(), 16, "{VERSION}");
        assert!(
            hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{VERSION}"
        );
    }

    /// A batch of this package version built from other sources is refused
    /// by name, and so is its result.
    #[test]
    fn another_build_of_the_same_version_is_refused() {
        let other = concat!(env!("CARGO_PKG_VERSION"), "+src.0123456789abcdef");
        assert_ne!(other, VERSION);
        let batch = format!(r#"{{"gridtune":"{other}","protocol":{PROTOCOL},"id":"r.n.7"}}"#);
        let refused = read_batch(batch.as_bytes()).unwrap_err();
        assert!(refused.for_another_worker());
        let text = refused.to_string();
        assert!(
            text.contains(&format!("made by gridtune {other}"))
                && text.contains(&format!("this worker is gridtune {VERSION}")),
            "{text}"
        );
        let result = BatchResult {
            gridtune: other.to_string(),
            ..BatchResult::new("r.n.7", "w", &[], 0.5)
        };
        let refused = read_result(&result.to_json()).unwrap_err();
        assert_eq!(refused.batch_id(), Some("r.n.7"));
        let text = refused.to_string();
        assert!(
            text.contains(&format!("comes from gridtune {other}"))
                && text.contains(&format!("this coordinator is gridtune {VERSION}")),
            "{text}"
        );
        let mine = BatchResult::new("r.n.7", "w", &[], 0.5);
        assert_eq!(read_result(&mine.to_json()), Ok(mine));
    }
}
