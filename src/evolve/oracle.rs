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
use crate::arena::beats;
use crate::arena::executor::{Executor, GameSummary, GameTask};
use crate::bots::BotSpec;
use crate::game::Player;
use crate::games::GameKit;
use crate::search::Limits;
use crate::stats::Pentanomial;
use crate::tuner::{derive_seed, Match, Opponent, Oracle, Space};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

const ROUNDING: u64 = 0x0072_6f75_6e64;

pub struct GameOracle<'a, G: GameKit> {
    /// Where the games are played: this machine's cores, or workers.
    executor: &'a dyn Executor<G>,
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
    pub fn new(
        executor: &'a dyn Executor<G>,
        maps: &'a [G::Map],
        judges: &'a [BotSpec],
        weights: &[f64],
        peer_share: f64,
        limits: Limits,
    ) -> Self {
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
            executor,
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

    /// Two games of `a` against `b` (a point, or a judge), sides swapped,
    /// `fillers` in the other seats; each reads `a`'s result against `b`.
    fn head_to_head(b: Who, fillers: &[usize], map: usize, seed: u64) -> (Vec<PlannedGame>, [Reading; 2]) {
        let games = [0, 1].map(|first: Player| {
            let mut seats = if first == 0 { vec![Who::A, b] } else { vec![b, Who::A] };
            seats.extend(fillers.iter().map(|&j| Who::Judge(j)));
            PlannedGame { map, seats, seed }
        });
        let readings = [0, 1].map(|first: Player| Reading {
            a: (first, first),
            b: (first, 1 - first),
        });
        (games.into(), readings)
    }

    /// Both points at the same judge table, seat and seed, on two seats;
    /// each reading compares `a`'s game with `b`'s.
    fn compared(&self, rng: &mut Xoshiro256PlusPlus, map: usize, seed: u64) -> (Vec<PlannedGame>, [Reading; 2]) {
        let judge = self.weighted_judge(rng);
        let mut table = vec![judge];
        table.extend(self.fillers(G::PLAYERS - 2, Some(judge), rng));
        let seat = rng.random_range(0..G::PLAYERS);
        let seats = [seat, (seat + 1) % G::PLAYERS];
        let mut games = Vec::with_capacity(4);
        for &seat in &seats {
            for me in [Who::A, Who::B] {
                let mut at: Vec<Who> = table.iter().map(|&j| Who::Judge(j)).collect();
                at.insert(seat, me);
                games.push(PlannedGame { map, seats: at, seed });
            }
        }
        let readings = [0, 1].map(|k| Reading {
            a: (2 * k, seats[k]),
            b: (2 * k + 1, seats[k]),
        });
        (games, readings)
    }

    /// Pair `i` of a match: everything it draws comes from the match's
    /// seed and `i`, never from the points.
    fn plan_pair(&self, m: &Match, i: u32) -> PairPlan {
        let pair_seed = derive_seed(m.seed, u64::from(i));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(pair_seed);
        let rounding = derive_seed(pair_seed, ROUNDING);
        let a = self.bot(m.a, rounding);
        let map = rng.random_range(0..self.maps.len());
        let game_seed = rng.random::<u64>();
        let (b, (games, readings)) = match m.b {
            Opponent::Point(b) => {
                let plan = if rng.random::<f64>() < self.peer_share {
                    let fillers = self.fillers(G::PLAYERS - 2, None, &mut rng);
                    Self::head_to_head(Who::B, &fillers, map, game_seed)
                } else {
                    self.compared(&mut rng, map, game_seed)
                };
                (Some(self.bot(b, rounding)), plan)
            }
            Opponent::Fixed(k) => {
                let fillers = self.fillers(G::PLAYERS - 2, Some(k), &mut rng);
                (None, Self::head_to_head(Who::Judge(k), &fillers, map, game_seed))
            }
        };
        PairPlan { a, b, games, readings }
    }
}

/// Who sits in a seat of a planned game: the pair's first point, its
/// second, or a judge.
#[derive(Clone, Copy, Debug)]
enum Who {
    A,
    B,
    Judge(usize),
}

impl Who {
    fn judge(self) -> Option<usize> {
        match self {
            Who::Judge(j) => Some(j),
            Who::A | Who::B => None,
        }
    }
}

#[derive(Clone, Debug)]
struct PlannedGame {
    map: usize,
    seats: Vec<Who>,
    seed: u64,
}

/// One game of a pair as the tuner counts it: `a`'s points in game
/// `a.0`, seat `a.1`, against `b`'s in game `b.0`, seat `b.1` (the same
/// game head to head; two games of one table when compared at a judge table).
#[derive(Clone, Copy, Debug)]
struct Reading {
    a: (usize, Player),
    b: (usize, Player),
}

/// A game pair to play: its two bots (`b` is `None` against a judge), the
/// games, and the two readings of them.
struct PairPlan {
    a: BotSpec,
    b: Option<BotSpec>,
    games: Vec<PlannedGame>,
    readings: [Reading; 2],
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
        let m = Match {
            a,
            b: Opponent::Point(b),
            pairs,
            seed,
        };
        self.play_matches(&[m]).pop().unwrap_or_default()
    }

    fn fixed_opponents(&self) -> usize {
        self.judges.len()
    }

    fn play_fixed(&self, a: &[f64], k: usize, pairs: u32, seed: u64) -> Pentanomial {
        let m = Match {
            a,
            b: Opponent::Fixed(k),
            pairs,
            seed,
        };
        self.play_matches(&[m]).pop().unwrap_or_default()
    }

    /// Plans every pair of every match, hands all their games to the
    /// executor at once, and reads the results back in order.
    fn play_matches(&self, matches: &[Match<'_>]) -> Vec<Pentanomial> {
        let plans: Vec<Vec<PairPlan>> = matches
            .iter()
            .map(|m| (0..m.pairs).map(|i| self.plan_pair(m, i)).collect())
            .collect();
        let tasks: Vec<GameTask> = plans
            .iter()
            .flatten()
            .flat_map(|plan| {
                plan.games.iter().map(move |g| GameTask {
                    map: g.map,
                    seats: g
                        .seats
                        .iter()
                        .map(|&w| match w {
                            Who::A => &plan.a,
                            Who::B => plan.b.as_ref().expect("a pair of points has its second bot"),
                            Who::Judge(j) => &self.judges[j],
                        })
                        .collect(),
                    seed: g.seed,
                })
            })
            .collect();
        let played = self.executor.play(self.maps, &tasks);
        self.played.fetch_add(played.len() as u64, Ordering::Relaxed);
        let mut games = played.iter();
        plans
            .iter()
            .map(|pairs| {
                let mut total = Pentanomial::default();
                for plan in pairs {
                    let these: Vec<&GameSummary> = games.by_ref().take(plan.games.len()).collect();
                    for (g, summary) in plan.games.iter().zip(&these) {
                        let judge_seats: Vec<Option<usize>> = g.seats.iter().map(|&w| w.judge()).collect();
                        self.faults.record(summary, &judge_seats);
                    }
                    let [first, second] = plan
                        .readings
                        .map(|r| beats(these[r.a.0].points[r.a.1], these[r.b.0].points[r.b.1]));
                    total.add_pair(first, second);
                }
                total
            })
            .collect()
    }
}
