//! Runs a match's games on a fixed number of threads and hands back each
//! finished pair in schedule order, so a caller can stop early (SPRT) at the
//! same point whatever the thread count.

use super::executor::{Executor, GameTask};
use super::field::FieldPlan;
use super::{pairing_seats, play_seated, GameRecord, Pairing};
use crate::bots::BotSpec;
use crate::games::GameKit;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// One finished game of a match: its place in the schedule and its record.
pub struct Played<M> {
    pub index: usize,
    pub pairing: Pairing,
    pub record: GameRecord<M>,
}

impl<M> Played<M> {
    /// The first bot's result against the second: 1 if it took more points,
    /// 0.5 if as many, 0 if fewer. In a two-player game that is its own
    /// points; at a larger table it compares the two seats, whatever the
    /// fillers did. A field game has one of them only: see
    /// [`Played::field_result`].
    pub fn head_to_head(&self) -> f32 {
        let a = self.pairing.first_seat;
        let points = self.record.outcome.points;
        super::beats(points[a], points[1 - a])
    }

    /// The points of whichever bot sat in this game (its `first_seat`).
    pub fn sitting_points(&self) -> f32 {
        self.record.outcome.points[self.pairing.first_seat]
    }

    /// The first bot's result against the second over twin field games
    /// (`self` the first bot's, `twin` the second's at the same table): 1 if
    /// it ended with more points, 0.5 if as many, 0 if fewer.
    pub fn field_result(&self, twin: &Played<M>) -> f32 {
        super::beats(self.sitting_points(), twin.sitting_points())
    }
}

/// A match to play: `a` against `b` over `schedule` (pairs of games), with
/// `fillers` in the remaining seats of a table for more than two, or, with
/// `field`, each of `a` and `b` in turn at tables of `fillers`.
pub struct MatchPlan<'a, G: GameKit> {
    pub maps: &'a [G::Map],
    pub a: &'a BotSpec,
    pub b: &'a BotSpec,
    pub fillers: &'a [BotSpec],
    /// A match against the field (its schedule from [`FieldPlan::schedule`]).
    pub field: Option<&'a FieldPlan>,
    pub schedule: &'a [Pairing],
    /// Games played at once.
    pub concurrency: usize,
    /// Keep every turn in the records (for replays).
    pub log: bool,
}

impl<G: GameKit> MatchPlan<'_, G> {
    /// The bots of `pairing`'s game in seat order.
    pub fn seats(&self, pairing: Pairing) -> Vec<&BotSpec> {
        match (self.field, pairing.field) {
            (Some(field), Some(table)) => field.seats(table, pairing.first_seat, self.a, self.b, self.fillers),
            _ => {
                let mut seats = pairing_seats(self.a, self.b, pairing).to_vec();
                seats.extend(self.fillers);
                seats
            }
        }
    }
}

/// Plays `plan` on `plan.concurrency` threads. `on_pair` sees the two games
/// of each pair once both are done and every earlier pair has been seen;
/// returning `Break` stops the match: no new game starts, games already
/// running finish and are dropped. Returns how many pairs `on_pair` saw.
pub fn run_pairs<G: GameKit>(
    plan: &MatchPlan<G>,
    mut on_pair: impl FnMut(&Played<G::Move>, &Played<G::Move>) -> ControlFlow<()>,
) -> usize {
    let MatchPlan {
        maps,
        schedule,
        concurrency,
        log,
        ..
    } = *plan;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (done, results) = channel::<Played<G::Move>>();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let done = done.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(&pairing) = schedule.get(index) else {
                    return;
                };
                let record = play_seated::<G>(&maps[pairing.map], &plan.seats(pairing), pairing.seed, log);
                if done.send(Played { index, pairing, record }).is_err() {
                    return;
                }
            });
        }
        drop(done);
        let mut waiting: BTreeMap<usize, Played<G::Move>> = BTreeMap::new();
        let mut seen = 0;
        for played in results {
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            waiting.insert(played.index, played);
            while waiting.contains_key(&(2 * seen)) && waiting.contains_key(&(2 * seen + 1)) {
                let first = waiting.remove(&(2 * seen)).expect("checked");
                let second = waiting.remove(&(2 * seen + 1)).expect("checked");
                seen += 1;
                if on_pair(&first, &second).is_break() {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        seen
    })
}

/// [`run_pairs`] on an executor (workers): the schedule goes out `window`
/// games at a time, and `on_pair` sees each pair in schedule order as from
/// [`run_pairs`], so an SPRT stops at the same pair. The records hold the
/// outcome and how the game ended, not its moves or turns.
pub fn run_pairs_on<G: GameKit>(
    executor: &dyn Executor<G>,
    plan: &MatchPlan<G>,
    window: usize,
    mut on_pair: impl FnMut(&Played<G::Move>, &Played<G::Move>) -> ControlFlow<()>,
) -> usize {
    let window = 2 * window.div_ceil(2).max(1);
    let mut seen = 0;
    for (c, chunk) in plan.schedule.chunks(window).enumerate() {
        let tasks: Vec<GameTask> = chunk
            .iter()
            .map(|&pairing| GameTask {
                map: pairing.map,
                seats: plan.seats(pairing),
                seed: pairing.seed,
            })
            .collect();
        let mut played = chunk
            .iter()
            .zip(executor.play(plan.maps, &tasks))
            .enumerate()
            .map(|(k, (&pairing, game))| Played {
                index: c * window + k,
                pairing,
                record: game.into_record(),
            });
        while let (Some(first), Some(second)) = (played.next(), played.next()) {
            seen += 1;
            if on_pair(&first, &second).is_break() {
                return seen;
            }
        }
    }
    seen
}
