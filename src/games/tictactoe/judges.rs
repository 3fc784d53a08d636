//! The test game's one judge: a uniformly random player.

use super::rules::{Cell, TicTacToe, TicTacToeMoves};
use crate::game::{Bot, Game, Player};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub const JUDGES: &[&str] = &["random"];

/// Nodes a move of the `engine` judge (`crate::games::kit::ENGINE_JUDGE`):
/// enough to search the whole board.
pub const ENGINE_NODES: u64 = 1_000;

pub fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<TicTacToe>>> {
    (name == "random").then(|| {
        Box::new(RandomJudge {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }) as Box<dyn Bot<TicTacToe>>
    })
}

struct RandomJudge {
    rng: Xoshiro256PlusPlus,
}

impl Bot<TicTacToe> for RandomJudge {
    fn choose(&mut self, state: &TicTacToe, player: Player) -> Cell {
        let mut moves = TicTacToeMoves::new();
        state.legal_moves(player, &mut moves);
        moves.as_slice()[self.rng.random_range(0..moves.len())]
    }
}
