//! Perft: the number of move sequences of a given length, the standard check
//! that move generation is exact. Game-independent. Standard library only.
//!
//! A pass counts only when it is the player's one choice (see `Game::is_pass`).

use crate::game::{perft_one_ply, sum_after_counted_moves, Game, MoveBuffer, Player, ToMove};

/// Leaf count at exactly `depth` plies (a joint move counts as one ply in a
/// simultaneous game); games that end earlier add nothing. Counted from
/// [`Game::perft_position`].
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    perft_from(&state.perft_position(), depth)
}

/// Over the moves perft counts for `p`, who is to act, the sum of the leaf
/// counts `depth` plies on from each.
pub fn after_each_move<G: Game>(state: &G, p: Player, depth: u32) -> u64 {
    sum_after_counted_moves(state, p, |child| perft_from(child, depth))
}

/// Leaf count at exactly `depth` plies from `state` as it is, draw rules and
/// all.
pub fn perft_from<G: Game>(state: &G, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return perft_one_ply(state),
        _ => {}
    }
    match state.to_move() {
        ToMove::Over => 0,
        ToMove::One(p) if depth == 2 => state.perft_two_plies(p),
        ToMove::One(p) => after_each_move(state, p, depth - 1),
        ToMove::All => {
            let lists: Vec<G::Moves> = (0..G::PLAYERS)
                .map(|p| {
                    let mut moves = G::Moves::default();
                    state.legal_moves(p, &mut moves);
                    moves
                })
                .collect();
            let mut total = 0;
            let mut index = vec![0usize; G::PLAYERS];
            let mut joint: Vec<G::Move> = lists.iter().map(|l| l.as_slice()[0]).collect();
            'combos: loop {
                for (p, &i) in index.iter().enumerate() {
                    joint[p] = lists[p].as_slice()[i];
                }
                let mut child = state.clone();
                child.play_joint(&joint);
                total += perft_from(&child, depth - 1);
                for p in 0..G::PLAYERS {
                    index[p] += 1;
                    if index[p] < lists[p].as_slice().len() {
                        continue 'combos;
                    }
                    index[p] = 0;
                }
                return total;
            }
        }
    }
}
