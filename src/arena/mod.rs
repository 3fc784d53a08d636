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

/// Plays one game with `seats[p]` in seat `p`; each bot's randomness comes
/// from `seed` and its seat.
pub fn play_seated<G: GameKit>(map: &G::Map, seats: &[&BotSpec], seed: u64) -> Outcome {
    let mut bots: Vec<Box<dyn Bot<G>>> = seats
        .iter()
        .enumerate()
        .map(|(seat, spec)| spec.build::<G>(mix64(seed ^ seat as u64)))
        .collect();
    play_game(G::start(map), &mut bots).outcome
}

/// Plays one two-player game of `a` against `b`; returns `a`'s points.
pub fn play_pairing<G: GameKit>(maps: &[G::Map], a: &BotSpec, b: &BotSpec, pairing: Pairing) -> f32 {
    let seats = if pairing.first_seat == 0 { [a, b] } else { [b, a] };
    play_seated::<G>(&maps[pairing.map], &seats, pairing.seed).points[pairing.first_seat]
}

/// Every way to pick `k` of `n` entries, each in increasing order (the
/// control program's tournament: one game per combination, seated in list
/// order).
pub fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn extend(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            extend(i + 1, n, k, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// Every ordering of `items`.
pub fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

/// Totals of a tournament: for each entry, its points summed and its games.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentTotals {
    pub points: Vec<f64>,
    pub games: Vec<u32>,
    pub tables: usize,
}

/// Plays a tournament of `G::PLAYERS`-seat games among `entries`: every
/// combination seated in list order (or, with `all_seatings`, in every
/// order), `rounds` games per table cycling through the maps, in parallel.
pub fn tournament<G: GameKit>(
    maps: &[G::Map],
    entries: &[BotSpec],
    rounds: usize,
    all_seatings: bool,
    seed: u64,
) -> TournamentTotals {
    let mut tables: Vec<Vec<usize>> = Vec::new();
    for combo in combinations(entries.len(), G::PLAYERS) {
        if all_seatings {
            tables.extend(permutations(&combo));
        } else {
            tables.push(combo);
        }
    }
    let games: Vec<(usize, usize)> = (0..tables.len())
        .flat_map(|t| (0..rounds).map(move |r| (t, r)))
        .collect();
    let outcomes: Vec<Outcome> = games
        .par_iter()
        .map(|&(t, r)| {
            let seats: Vec<&BotSpec> = tables[t].iter().map(|&e| &entries[e]).collect();
            let game_seed = mix64(seed ^ mix64((t * 1_000_003 + r) as u64));
            play_seated::<G>(&maps[r % maps.len()], &seats, game_seed)
        })
        .collect();
    let mut totals = TournamentTotals {
        points: vec![0.0; entries.len()],
        games: vec![0; entries.len()],
        tables: tables.len(),
    };
    for (&(t, _), outcome) in games.iter().zip(&outcomes) {
        for (seat, &e) in tables[t].iter().enumerate() {
            totals.points[e] += outcome.points[seat] as f64;
            totals.games[e] += 1;
        }
    }
    totals
}

/// Plays a whole schedule in parallel; results come back in schedule order,
/// so a run is the same whatever the thread count.
pub fn play_schedule<G: GameKit>(maps: &[G::Map], a: &BotSpec, b: &BotSpec, schedule: &[Pairing]) -> Vec<f32> {
    schedule.par_iter().map(|&p| play_pairing::<G>(maps, a, b, p)).collect()
}
