//! Where a list of games is played: the seam between what to play (the
//! evolve oracle's pairs, the champion's judge tables, a match's schedule)
//! and the machines that play it.
//!
//! A [`GameTask`] is one game: a map, a bot per seat, a seed. An
//! [`Executor`] plays a slice of them and hands back one [`GameSummary`] per
//! task, in task order. Games are deterministic from their map, bots and
//! seed when the bots search a node budget, so the summaries, and everything
//! computed from them in order, do not depend on which executor played them
//! or on how many threads or machines it used.
//!
//! [`Local`] plays them on this process's rayon pool; the NATS coordinator
//! (`crate::distributed::coordinator::Remote`) sends them to workers, which
//! play each batch with [`Local`] too.

use super::{play_seated, EndReason, GameRecord};
use crate::bots::BotSpec;
use crate::game::{Outcome, Player, MAX_PLAYERS};
use crate::games::GameKit;
use crate::referee::Fault;
use rayon::prelude::*;

/// One game to play: `seats[p]` sits in seat `p` of `maps[map]`; each bot's
/// randomness comes from `seed` and its seat ([`play_seated`]).
#[derive(Clone, Debug)]
pub struct GameTask<'a> {
    pub map: usize,
    pub seats: Vec<&'a BotSpec>,
    pub seed: u64,
}

/// What the callers of an executor keep of a game: the points, how it
/// ended, and each seat's first fault (a program bot's failed turn).
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// One per seat, each in [0, 1].
    pub points: Vec<f32>,
    pub end: EndReason,
    /// What happened, when a seat failed.
    pub detail: String,
    /// Per seat: the first fault it made in the game, with a message naming
    /// the turn, the reason and what the program wrote to stderr.
    pub faults: Vec<Option<(Fault, String)>>,
}

impl GameSummary {
    /// The summary of a played game with `players` seats.
    pub fn of<M>(record: &GameRecord<M>, players: usize) -> Self {
        let faults = (0..players)
            .map(|seat| {
                record
                    .turns
                    .iter()
                    .find(|t| t.seat == seat && t.fault.is_some())
                    .and_then(|t| {
                        let (f, why) = t.fault.as_ref()?;
                        // What the program said is often the reason (`not found`).
                        let stderr = t.stderr.trim();
                        let stderr = match stderr.char_indices().nth(300) {
                            Some((cut, _)) => format!(" (stderr: {}...)", &stderr[..cut]),
                            None if !stderr.is_empty() => format!(" (stderr: {stderr})"),
                            None => String::new(),
                        };
                        Some((*f, format!("{} on turn {}: {why}{stderr}", f.name(), t.turn + 1)))
                    })
                    .or_else(|| match record.end {
                        EndReason::Failed { seat: s, fault } if s == seat => Some((fault, record.detail.clone())),
                        _ => None,
                    })
            })
            .collect();
        GameSummary {
            points: record.outcome.points[..players].to_vec(),
            end: record.end,
            detail: record.detail.clone(),
            faults,
        }
    }

    /// The game's outcome (points of seats past the table are 0).
    pub fn outcome(&self) -> Outcome {
        let mut points = [0.0; MAX_PLAYERS];
        for (p, &v) in points.iter_mut().zip(&self.points) {
            *p = v;
        }
        Outcome { points }
    }

    /// A record with the summary's outcome and end but no moves or turns:
    /// what a match's report reads from a game played elsewhere.
    pub fn into_record<M>(self) -> GameRecord<M> {
        GameRecord {
            outcome: self.outcome(),
            moves: Vec::new(),
            end: self.end,
            detail: self.detail,
            turns: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The seat that failed, if the game ended on a failure.
    pub fn failed_seat(&self) -> Option<Player> {
        match self.end {
            EndReason::Failed { seat, .. } => Some(seat),
            _ => None,
        }
    }
}

/// Plays lists of games. Summaries come back in task order.
pub trait Executor<G: GameKit>: Sync {
    fn play(&self, maps: &[G::Map], tasks: &[GameTask<'_>]) -> Vec<GameSummary>;
}

/// This process's rayon pool: one game per task, in parallel.
#[derive(Clone, Copy, Debug, Default)]
pub struct Local;

impl<G: GameKit> Executor<G> for Local {
    fn play(&self, maps: &[G::Map], tasks: &[GameTask<'_>]) -> Vec<GameSummary> {
        tasks
            .par_iter()
            .map(|task| {
                let record = play_seated::<G>(&maps[task.map], &task.seats, task.seed, false);
                GameSummary::of(&record, G::PLAYERS)
            })
            .collect()
    }
}
