//! Clones of Isolation's judge bots.
//!
//! `random_safe` and `mobility` follow the starter kit's descriptions. The
//! server's three stronger judges are unseen; they are stood in for by three
//! classic methods, each with a fixed budget so a game costs the same every
//! time: alpha-beta on mobility difference (`alphabeta`), alpha-beta on
//! queen-distance territory with a partition-aware endgame (`territory`), and
//! UCT with random playouts (`mcts`).

use super::features::{features, OPP_MOBILITY, OWN_MOBILITY, PARTITION_SPACE, PARTITION_WIN, TERRITORY};
use super::rules::{bit, queen_reach, Isolation, IsolationMove, IsolationMoves};
use crate::bots::Bot;
use crate::game::{Game, Player};
use crate::search::mcts::Mcts;
use crate::search::{AlphaBeta, Limits};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub const JUDGES: &[&str] = &["random_safe", "mobility", "alphabeta", "territory", "mcts"];

/// Nodes a move of the `engine` judge (`crate::games::kit::ENGINE_JUDGE`):
/// four times the evolve budget. At that budget (1,500) it scored 40% against
/// `territory`; at 6,000 it scores 62% (200 games on fresh maps, seed 41), the
/// strongest judge here.
pub const ENGINE_NODES: u64 = 6_000;

/// Node budget per move of the two alpha-beta judges.
pub const JUDGE_NODES: u64 = 3_000;
/// Playouts per move of the MCTS judge.
pub const JUDGE_PLAYOUTS: u32 = 1_500;

pub fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Isolation>>> {
    let rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Some(match name {
        "random_safe" => Box::new(RandomSafe { rng }),
        "mobility" => Box::new(MobilityJudge { rng }),
        "alphabeta" => Box::new(SearchJudge {
            search: AlphaBeta::plain(14),
            eval: mobility_difference,
        }),
        "territory" => Box::new(SearchJudge {
            search: AlphaBeta::plain(14),
            eval: territory,
        }),
        "mcts" => Box::new(MctsJudge { rng }),
        _ => return None,
    })
}

fn legal(state: &Isolation, p: Player) -> IsolationMoves {
    let mut moves = IsolationMoves::new();
    state.legal_moves(p, &mut moves);
    moves
}

/// Picks at random among the moves after which it can still move; if every
/// move strands it, among all moves.
pub struct RandomSafe {
    rng: Xoshiro256PlusPlus,
}

impl Bot<Isolation> for RandomSafe {
    fn choose(&mut self, state: &Isolation, p: Player) -> IsolationMove {
        let moves = legal(state, p);
        let safe: Vec<IsolationMove> = moves
            .iter()
            .copied()
            .filter(|m| queen_reach(bit(m.0), state.free() & !bit(m.0)) != 0)
            .collect();
        let pool = if safe.is_empty() { moves.as_slice() } else { &safe };
        pool[self.rng.random_range(0..pool.len())]
    }
}

/// Moves where it will have the most moves next, ties broken at random.
pub struct MobilityJudge {
    rng: Xoshiro256PlusPlus,
}

impl Bot<Isolation> for MobilityJudge {
    fn choose(&mut self, state: &Isolation, p: Player) -> IsolationMove {
        let moves = legal(state, p);
        let mobility = |m: &IsolationMove| queen_reach(bit(m.0), state.free() & !bit(m.0)).count_ones();
        let best = moves.iter().map(mobility).max().expect("a move to choose");
        let top: Vec<IsolationMove> = moves.iter().copied().filter(|m| mobility(m) == best).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

fn mobility_difference(state: &Isolation, me: Player) -> i32 {
    state.moves_bb(me).count_ones() as i32 - state.moves_bb(1 - me).count_ones() as i32
}

/// Territory by queen distance; once the pieces are apart, whoever has more
/// room wins, by a margin larger than any territory count.
fn territory(state: &Isolation, me: Player) -> i32 {
    let f = features(state, me);
    if f[PARTITION_WIN] != 0 {
        return 1000 * f[PARTITION_WIN] + 10 * f[PARTITION_SPACE];
    }
    4 * f[TERRITORY] + f[OWN_MOBILITY] - f[OPP_MOBILITY]
}

/// Alpha-beta with a fixed node budget and a fixed evaluation.
pub struct SearchJudge {
    search: AlphaBeta<Isolation>,
    eval: fn(&Isolation, Player) -> i32,
}

impl Bot<Isolation> for SearchJudge {
    fn choose(&mut self, state: &Isolation, _p: Player) -> IsolationMove {
        self.search.search(state, &self.eval, Limits::nodes(JUDGE_NODES)).best
    }
}

/// UCT with random playouts.
pub struct MctsJudge {
    rng: Xoshiro256PlusPlus,
}

impl Bot<Isolation> for MctsJudge {
    fn choose(&mut self, state: &Isolation, _p: Player) -> IsolationMove {
        Mcts {
            iterations: JUDGE_PLAYOUTS,
            exploration: 1.0,
        }
        .choose(state, &mut self.rng)
    }
}
