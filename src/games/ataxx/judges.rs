//! Ataxx judge stand-ins. CodinGame has no judge bots; these are what a
//! player meets on its leaderboard, each with a fixed budget: `random`,
//! `greedy` (the most pieces after the move), `alphabeta` (piece difference,
//! 5,000 nodes) and `mcts` (UCT, 300 playouts).

use super::rules::{Ataxx, AtaxxMove, AtaxxMoves};
use crate::bots::Bot;
use crate::game::{Game, Player};
use crate::search::mcts::Mcts;
use crate::search::{AlphaBeta, Limits};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub const JUDGES: &[&str] = &["random", "greedy", "alphabeta", "mcts"];

/// Nodes a move of the `engine` judge (`crate::games::kit::ENGINE_JUDGE`):
/// the evolve budget (`genomes/ataxx/evolve.ron`), where it wins 97% of its
/// games against `alphabeta` and all against `mcts`, and the tuned best.ron
/// scores 67% against it (200 and 400 games on fresh maps, seeds 41 and 42).
pub const ENGINE_NODES: u64 = 16_000;

pub const ALPHABETA_NODES: u64 = 5_000;
pub const MCTS_PLAYOUTS: u32 = 300;

pub fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Ataxx>>> {
    let rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Some(match name {
        "random" => Box::new(RandomJudge { rng }),
        "greedy" => Box::new(Greedy { rng }),
        "alphabeta" => Box::new(PieceSearch {
            search: AlphaBeta::plain(14),
        }),
        "mcts" => Box::new(MctsJudge { rng }),
        _ => return None,
    })
}

fn legal(state: &Ataxx, p: Player) -> AtaxxMoves {
    let mut moves = AtaxxMoves::new();
    state.legal_moves(p, &mut moves);
    moves
}

pub struct RandomJudge {
    rng: Xoshiro256PlusPlus,
}

impl Bot<Ataxx> for RandomJudge {
    fn choose(&mut self, state: &Ataxx, p: Player) -> AtaxxMove {
        state.pick_legal_move(p, &mut |n| self.rng.random_range(0..n))
    }
}

/// The move leaving it the most pieces; ties at random.
pub struct Greedy {
    rng: Xoshiro256PlusPlus,
}

impl Bot<Ataxx> for Greedy {
    fn choose(&mut self, state: &Ataxx, p: Player) -> AtaxxMove {
        let moves = legal(state, p);
        let after = |m: &AtaxxMove| {
            let mut s = state.clone();
            s.play(*m);
            s.pieces(p).count_ones()
        };
        let best = moves.iter().map(after).max().expect("a move");
        let top: Vec<AtaxxMove> = moves.iter().copied().filter(|m| after(m) == best).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

fn piece_difference(state: &Ataxx, me: Player) -> i32 {
    state.pieces(me).count_ones() as i32 - state.pieces(1 - me).count_ones() as i32
}

pub struct PieceSearch {
    search: AlphaBeta<Ataxx>,
}

impl Bot<Ataxx> for PieceSearch {
    fn choose(&mut self, state: &Ataxx, _p: Player) -> AtaxxMove {
        self.search
            .search(state, &piece_difference, Limits::nodes(ALPHABETA_NODES))
            .best
    }
}

pub struct MctsJudge {
    rng: Xoshiro256PlusPlus,
}

impl Bot<Ataxx> for MctsJudge {
    fn choose(&mut self, state: &Ataxx, _p: Player) -> AtaxxMove {
        Mcts {
            iterations: MCTS_PLAYOUTS,
            exploration: 1.0,
        }
        .choose(state, &mut self.rng)
    }
}
