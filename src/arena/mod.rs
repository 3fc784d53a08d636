//! Playing games between bots: one game, a schedule of paired games, and the
//! statistics of a match. Shared by `match` and `evolve`.

pub mod stats;

use crate::bots::{Bot, BotSpec};
use crate::game::{mix64, Game, MoveBuffer, Outcome, Player, ToMove};
use crate::games::GameKit;
use rayon::prelude::*;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The rules ended it (a player could not move, a bike crashed, ...).
    Normal,
    /// The game's turn limit was reached.
    TurnLimit,
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameRecord<M> {
    pub outcome: Outcome,
    pub moves: Vec<M>,
    pub end: EndReason,
}

/// Plays `state` to the end with one bot per seat.
///
/// Built-in bots are trusted: one that returns an illegal move has a bug, and
/// the game panics naming the seat and the move.
pub fn play_game<G: Game>(mut state: G, bots: &mut [Box<dyn Bot<G>>]) -> GameRecord<G::Move> {
    assert_eq!(bots.len(), G::PLAYERS, "one bot per seat");
    let max_length = state.max_length();
    let mut moves = Vec::new();
    let mut legal = G::Moves::default();
    let mut joint = Vec::with_capacity(G::PLAYERS);
    loop {
        match state.to_move() {
            ToMove::Over => {
                let outcome = state.outcome().expect("a finished game has an outcome");
                let end = if moves.len() as u32 >= max_length {
                    EndReason::TurnLimit
                } else {
                    EndReason::Normal
                };
                return GameRecord { outcome, moves, end };
            }
            ToMove::One(p) => {
                let m = checked_choice(&state, p, &mut *bots[p], &mut legal);
                moves.push(m);
                state.play(m);
            }
            ToMove::All => {
                joint.clear();
                for (p, bot) in bots.iter_mut().enumerate() {
                    joint.push(checked_choice(&state, p, &mut **bot, &mut legal));
                }
                moves.extend_from_slice(&joint);
                state.play_joint(&joint);
            }
        }
    }
}

fn checked_choice<G: Game>(state: &G, p: Player, bot: &mut dyn Bot<G>, legal: &mut G::Moves) -> G::Move {
    let m = bot.choose(state, p);
    state.legal_moves(p, legal);
    assert!(
        legal.as_slice().contains(&m),
        "bot in seat {p} chose illegal {m:?} in {state:?}"
    );
    m
}

/// One game of a match: which map, which seat the first bot takes, and the
/// seed for the bots' randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub map: usize,
    pub first_seat: Player,
    pub seed: u64,
}

/// `pairs` pairs of games cycling through `maps` maps; the two games of a pair
/// share a map and a seed and swap sides, so neither bot gains from the map or
/// the luck of the draw.
pub fn paired_schedule(maps: usize, pairs: usize, seed: u64) -> Vec<Pairing> {
    (0..pairs)
        .flat_map(|i| {
            let seed = mix64(seed ^ mix64(i as u64 + 1));
            [0, 1].map(|first_seat| Pairing {
                map: i % maps,
                first_seat,
                seed,
            })
        })
        .collect()
}

/// Plays one two-player game of `a` against `b`; returns `a`'s points.
pub fn play_pairing<G: GameKit>(maps: &[G::Map], a: &BotSpec, b: &BotSpec, pairing: Pairing) -> f32 {
    let seats = if pairing.first_seat == 0 { [a, b] } else { [b, a] };
    let mut bots: Vec<Box<dyn Bot<G>>> = seats
        .iter()
        .enumerate()
        .map(|(seat, spec)| spec.build::<G>(mix64(pairing.seed ^ seat as u64)))
        .collect();
    let record = play_game(G::start(&maps[pairing.map]), &mut bots);
    record.outcome.points[pairing.first_seat]
}

/// Plays a whole schedule in parallel; results come back in schedule order,
/// so a run is the same whatever the thread count.
pub fn play_schedule<G: GameKit>(maps: &[G::Map], a: &BotSpec, b: &BotSpec, schedule: &[Pairing]) -> Vec<f32> {
    schedule.par_iter().map(|&p| play_pairing::<G>(maps, a, b, p)).collect()
}
