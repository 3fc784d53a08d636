//! How the tuner's points meet in real games: the evolve loop's
//! [`Oracle`]. A point becomes a genome bot by stochastic rounding onto each
//! weight's grid, so moves smaller than a step still count on average.
//!
//! A pair of games compares two points in one of two ways, drawn per pair:
//!
//! - **against the judges** (the contest's own measure): both points sit, in
//!   turn, at the same judge table, on the same map and seat with the same
//!   seed; a game of the pair is won by the point that scored more there.
//!   The judge is drawn by its contest weight.
//! - **head to head** (a `peer_share` of the pairs): the two points play each
//!   other on one map, sides swapped, judges filling any other seats. This
//!   keeps a signal when both already beat every judge.
//!
//! Everything a pair draws (map, seat, judges, game seed, rounding) comes
//! from the round's seed and the pair's index, never from the points: every
//! genome of a round meets the same luck.

use super::faults::{FaultTally, SharedTally};
use crate::arena::{beats, play_seated};
use crate::bots::BotSpec;
use crate::game::Player;
use crate::games::GameKit;
use crate::search::Limits;
use crate::stats::Pentanomial;
use crate::tuner::{derive_seed, Oracle, Space};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

const ROUNDING: u64 = 0x0072_6f75_6e64;

pub struct GameOracle<'a, G: GameKit> {
    maps: &'a [G::Map],
    judges: &'a [BotSpec],
    /// Cumulative contest weights of the judges, for drawing one.
    cumulative: Vec<f64>,
    peer_share: f64,
    limits: Limits,
    space: Space,
    /// Real games played (a judge comparison pair is four games).
    played: AtomicU64,
    /// The judges' faults in the games since the last [`GameOracle::take_faults`].
    faults: SharedTally,
    game: PhantomData<G>,
}

impl<'a, G: GameKit> GameOracle<'a, G> {
    pub fn new(maps: &'a [G::Map], judges: &'a [BotSpec], weights: &[f64], peer_share: f64, limits: Limits) -> Self {
        assert!(!maps.is_empty(), "no maps to play on");
        assert_eq!(judges.len(), weights.len(), "one weight per judge");
        assert!(
            G::PLAYERS == 2 || !judges.is_empty(),
            "a table for more than two needs judges in the other seats"
        );
        let mut total = 0.0;
        let cumulative = weights
            .iter()
            .map(|w| {
                total += w;
                total
            })
            .collect();
        GameOracle {
            maps,
            judges,
            cumulative,
            peer_share: if judges.is_empty() || total <= 0.0 {
                1.0
            } else {
                peer_share
            },
            limits,
            space: space_of::<G>(),
            played: AtomicU64::new(0),
            faults: SharedTally::new(judges.len()),
            game: PhantomData,
        }
    }

    /// The judges' faults since the last call.
    pub fn take_faults(&self) -> FaultTally {
        self.faults.take()
    }

    /// Real games played so far.
    pub fn games_played(&self) -> u64 {
        self.played.load(Ordering::Relaxed)
    }

    fn bot(&self, x: &[f64], rounding: u64) -> BotSpec {
        BotSpec::Genome {
            label: String::new(),
            weights: weights_of(&self.space.round_stochastic(x, rounding)),
            limits: self.limits,
        }
    }

    /// A judge drawn by contest weight.
    fn weighted_judge(&self, rng: &mut Xoshiro256PlusPlus) -> usize {
        let total = *self.cumulative.last().expect("judges");
        let u = rng.random::<f64>() * total;
        self.cumulative
            .iter()
            .position(|&c| u < c)
            .unwrap_or(self.judges.len() - 1)
    }

    /// `count` judges for the other seats, avoiding `first` while others remain.
    fn fillers(&self, count: usize, first: Option<usize>, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
        let mut pool: Vec<usize> = (0..self.judges.len()).filter(|&j| Some(j) != first).collect();
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            if pool.is_empty() {
                pool = (0..self.judges.len()).collect();
            }
            out.push(pool.swap_remove(rng.random_range(0..pool.len())));
        }
        out
    }

    /// One game; `judge_seats[p]` is the judge in seat `p`, whose faults
    /// are counted.
    fn play(&self, map: usize, seats: &[&BotSpec], judge_seats: &[Option<usize>], seed: u64) -> Vec<f32> {
        self.played.fetch_add(1, Ordering::Relaxed);
        let record = play_seated::<G>(&self.maps[map], seats, seed, false);
        self.faults.record(&record, judge_seats);
        record.outcome.points.to_vec()
    }

    /// Two games of `a` against `b` (a point, or the judge `b_judge`), sides
    /// swapped, `fillers` in the other seats; `a`'s result against `b` in each.
    fn head_to_head(
        &self,
        a: &BotSpec,
        (b, b_judge): (&BotSpec, Option<usize>),
        fillers: &[usize],
        map: usize,
        seed: u64,
    ) -> [f32; 2] {
        [0, 1].map(|first: Player| {
            let mut seats: Vec<&BotSpec> = if first == 0 { vec![a, b] } else { vec![b, a] };
            seats.extend(fillers.iter().map(|&j| &self.judges[j]));
            let mut judge_seats: Vec<Option<usize>> = if first == 0 {
                vec![None, b_judge]
            } else {
                vec![b_judge, None]
            };
            judge_seats.extend(fillers.iter().map(|&j| Some(j)));
            let points = self.play(map, &seats, &judge_seats, seed);
            beats(points[first], points[1 - first])
        })
    }

    /// Both points at the same judge table, seat and seed, on two seats;
    /// `a`'s result against `b` in each.
    fn compared(&self, a: &BotSpec, b: &BotSpec, rng: &mut Xoshiro256PlusPlus, map: usize, seed: u64) -> [f32; 2] {
        let judge = self.weighted_judge(rng);
        let mut table = vec![judge];
        table.extend(self.fillers(G::PLAYERS - 2, Some(judge), rng));
        let seat = rng.random_range(0..G::PLAYERS);
        [seat, (seat + 1) % G::PLAYERS].map(|seat| {
            let result = |me: &BotSpec| {
                let mut seats: Vec<&BotSpec> = table.iter().map(|&j| &self.judges[j]).collect();
                seats.insert(seat, me);
                let mut judge_seats: Vec<Option<usize>> = table.iter().map(|&j| Some(j)).collect();
                judge_seats.insert(seat, None);
                self.play(map, &seats, &judge_seats, seed)[seat]
            };
            beats(result(a), result(b))
        })
    }
}

/// The box the tuner searches: each weight's range, on its step grid.
pub fn space_of<G: GameKit>() -> Space {
    space_of_params(G::PARAMS)
}

/// The box evolve's GA searches from `start`: [`space_of`], with the game's
/// scale anchor pinned at the start's value when `fix_scale` (see
/// `crate::scale`). A start whose anchor is zero has no scale to keep.
pub fn tuning_space<G: GameKit>(start: &[f64], fix_scale: bool) -> Result<Space, String> {
    let space = space_of::<G>();
    if !fix_scale {
        return Ok(space);
    }
    let anchor = G::SCALE_ANCHOR;
    match start.get(anchor) {
        Some(&value) if value != 0.0 => Ok(space.pin(anchor, value)),
        _ => Err(format!(
            "the start genome's `{}` is 0, so it cannot hold the genome's scale: give it a value, or set `fix_scale: false`",
            G::PARAMS[anchor].name
        )),
    }
}

/// The box of a genome with these weights.
pub fn space_of_params(params: &[crate::params::ParamSpec]) -> Space {
    let lo = params.iter().map(|p| f64::from(p.min)).collect();
    let hi = params.iter().map(|p| f64::from(p.max)).collect();
    Space::new(lo, hi).with_steps(params.iter().map(|p| f64::from(p.step)).collect())
}

/// A point already on the grid, as weights.
pub fn weights_of(x: &[f64]) -> Vec<i32> {
    x.iter().map(|v| v.round() as i32).collect()
}

/// The nearest genome to a point: what the run reports and freezes.
pub fn nearest_genome<G: GameKit>(x: &[f64]) -> Vec<i32> {
    G::PARAMS.iter().zip(x).map(|(p, &v)| p.snap(v)).collect()
}

impl<G: GameKit> Oracle for GameOracle<'_, G> {
    fn play_pairs(&self, a: &[f64], b: &[f64], pairs: u32, seed: u64) -> Pentanomial {
        (0..pairs)
            .into_par_iter()
            .map(|i| {
                let pair_seed = derive_seed(seed, u64::from(i));
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(pair_seed);
                let rounding = derive_seed(pair_seed, ROUNDING);
                let (a, b) = (self.bot(a, rounding), self.bot(b, rounding));
                let map = rng.random_range(0..self.maps.len());
                let game_seed = rng.random::<u64>();
                let [first, second] = if rng.random::<f64>() < self.peer_share {
                    let fillers = self.fillers(G::PLAYERS - 2, None, &mut rng);
                    self.head_to_head(&a, (&b, None), &fillers, map, game_seed)
                } else {
                    self.compared(&a, &b, &mut rng, map, game_seed)
                };
                let mut p = Pentanomial::default();
                p.add_pair(first, second);
                p
            })
            .reduce(Pentanomial::default, Pentanomial::merge)
    }

    fn fixed_opponents(&self) -> usize {
        self.judges.len()
    }

    fn play_fixed(&self, a: &[f64], k: usize, pairs: u32, seed: u64) -> Pentanomial {
        let mut total = Pentanomial::default();
        for i in 0..pairs {
            let pair_seed = derive_seed(seed, u64::from(i));
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(pair_seed);
            let me = self.bot(a, derive_seed(pair_seed, ROUNDING));
            let map = rng.random_range(0..self.maps.len());
            let game_seed = rng.random::<u64>();
            let fillers = self.fillers(G::PLAYERS - 2, Some(k), &mut rng);
            let [first, second] = self.head_to_head(&me, (&self.judges[k], Some(k)), &fillers, map, game_seed);
            total.add_pair(first, second);
        }
        total
    }
}
