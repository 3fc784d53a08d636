//! The faults of program judges (timeouts, crashes, invalid lines, illegal
//! moves) in the games evolve plays: counted per judge, so a judge that
//! cannot play is seen in run.log, the report and `judge_faults.csv`
//! instead of passing as a string of wins, and stops the run when it fails
//! most of its games.

use crate::arena::executor::GameSummary;
use crate::referee::Fault;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// A judge's games in a period, and those it failed, by the first fault it
/// made in each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeFaults {
    pub games: u64,
    pub timeouts: u64,
    pub crashes: u64,
    pub invalid_lines: u64,
    pub illegal_moves: u64,
}

impl JudgeFaults {
    /// Games in which the judge failed a turn.
    pub fn faulted(&self) -> u64 {
        self.timeouts
            .saturating_add(self.crashes)
            .saturating_add(self.invalid_lines)
            .saturating_add(self.illegal_moves)
    }

    /// Whether the counts can be those of real games.
    pub fn consistent(&self) -> bool {
        let sum = [self.timeouts, self.crashes, self.invalid_lines, self.illegal_moves]
            .iter()
            .try_fold(0u64, |a, &b| a.checked_add(b));
        sum.is_some_and(|f| f <= self.games)
    }

    pub fn add(&mut self, other: &JudgeFaults) {
        self.games = self.games.saturating_add(other.games);
        self.timeouts = self.timeouts.saturating_add(other.timeouts);
        self.crashes = self.crashes.saturating_add(other.crashes);
        self.invalid_lines = self.invalid_lines.saturating_add(other.invalid_lines);
        self.illegal_moves = self.illegal_moves.saturating_add(other.illegal_moves);
    }

    fn count(&mut self, fault: Option<Fault>) {
        self.games += 1;
        match fault {
            None => {}
            Some(Fault::Timeout) => self.timeouts += 1,
            Some(Fault::Crash) => self.crashes += 1,
            Some(Fault::InvalidLine) => self.invalid_lines += 1,
            Some(Fault::IllegalMove) => self.illegal_moves += 1,
        }
    }

    /// The faults as a user reads them: `3 crashes, 1 timeout`.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [
            (self.timeouts, "timeout", "timeouts"),
            (self.crashes, "crash", "crashes"),
            (self.invalid_lines, "invalid line", "invalid lines"),
            (self.illegal_moves, "illegal move", "illegal moves"),
        ]
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|&(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
        if parts.is_empty() {
            "no faults".into()
        } else {
            parts.join(", ")
        }
    }
}

/// A judge must fail more than half of at least this many games of a
/// generation before the run stops: one unlucky timeout is not a broken bot.
pub const MIN_GAMES: u64 = 8;

/// The fault counts of a set of games, per judge, and one example of each
/// judge's faults for the messages.
#[derive(Clone, Debug, Default)]
pub struct FaultTally {
    pub judges: Vec<JudgeFaults>,
    pub examples: Vec<Option<String>>,
}

impl FaultTally {
    pub fn new(judges: usize) -> Self {
        FaultTally {
            judges: vec![JudgeFaults::default(); judges],
            examples: vec![None; judges],
        }
    }

    /// Counts a game for the judges in it: `seats[p]` is the judge in seat
    /// `p`, if a judge sits there.
    pub fn record(&mut self, game: &GameSummary, seats: &[Option<usize>]) {
        for (seat, judge) in seats.iter().enumerate() {
            let Some(j) = *judge else { continue };
            let first = game.faults.get(seat).cloned().flatten();
            self.judges[j].count(first.as_ref().map(|f| f.0));
            if let (Some((_, why)), None) = (first, &self.examples[j]) {
                self.examples[j] = Some(why);
            }
        }
    }

    pub fn merge(&mut self, other: &FaultTally) {
        for (j, f) in other.judges.iter().enumerate() {
            self.judges[j].add(f);
            if self.examples[j].is_none() {
                self.examples[j].clone_from(&other.examples[j]);
            }
        }
    }
}

/// A tally shared by the games of a parallel round.
#[derive(Debug, Default)]
pub struct SharedTally(Mutex<FaultTally>);

impl SharedTally {
    pub fn new(judges: usize) -> Self {
        SharedTally(Mutex::new(FaultTally::new(judges)))
    }

    pub fn record(&self, game: &GameSummary, seats: &[Option<usize>]) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).record(game, seats);
    }

    /// The tally so far, leaving an empty one.
    pub fn take(&self) -> FaultTally {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let judges = t.judges.len();
        std::mem::replace(&mut *t, FaultTally::new(judges))
    }
}
