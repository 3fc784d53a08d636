//! The position a short search ends at, for the fit to learn from (Texel's
//! method takes its features at the end of a quiescence search, not at the
//! raw position).
//!
//! A genome's weights never score the position on the board: the bot's
//! search scores the positions a few plies ahead, from the side to move
//! there. A raw position in the middle of an exchange (an Ataxx capture
//! about to be answered, an Isolation piece about to be cut off) says little
//! about the result that its weights could learn; the leaf of the principal
//! line the weights themselves choose is the position they will be asked to
//! judge.
//!
//! This search is small and separate from `search::AlphaBeta` on purpose: it
//! must return the leaf position, not a move, and it keeps no table, so a
//! position's leaf does not depend on what was searched before it.

use crate::game::{MoveBuffer, Player, ToMove};
use crate::games::GameKit;
use crate::search::alphabeta::terminal_score;

/// The leaf of the principal line of a `depth`-ply alpha-beta search from
/// `state` (a sequential game), scoring each leaf by `weights` · its
/// features from its mover's side, with the mover at that leaf; `None` when
/// the principal line ends the game, so that the leaf has no features to
/// learn from. Depth 0 is `state` itself.
pub fn principal_leaf<G: GameKit>(state: &G, weights: &[i32], depth: u32) -> Option<(G, Player)> {
    let ToMove::One(p) = state.to_move() else {
        return None;
    };
    negamax(state, p, weights, depth, 0, -i32::MAX, i32::MAX).1
}

/// The value of `state`, with `p` to move, for `p`, and the leaf that gives it.
fn negamax<G: GameKit>(
    state: &G,
    p: Player,
    weights: &[i32],
    depth: u32,
    ply: usize,
    mut alpha: i32,
    beta: i32,
) -> (i32, Option<(G, Player)>) {
    if depth == 0 {
        let value = G::features(state, p).iter().zip(weights).map(|(f, w)| f * w).sum();
        return (value, Some((state.clone(), p)));
    }
    let mut moves = G::Moves::default();
    state.legal_moves(p, &mut moves);
    let mut best: (i32, Option<(G, Player)>) = (-i32::MAX, None);
    for &m in moves.as_slice() {
        let mut child = state.clone();
        child.play(m);
        let (value, leaf) = match child.to_move() {
            // Passes and extra turns: the same side moves again.
            ToMove::One(q) if q == p => negamax(&child, q, weights, depth - 1, ply + 1, alpha, beta),
            ToMove::One(q) => {
                let (v, leaf) = negamax(&child, q, weights, depth - 1, ply + 1, -beta, -alpha);
                (-v, leaf)
            }
            // Only sequential games are searched, so anything else is the end.
            _ => match child.outcome() {
                Some(outcome) => (terminal_score(&outcome, p, ply + 1), None),
                None => (0, None),
            },
        };
        if value > best.0 || best.0 == -i32::MAX {
            best = (value, leaf);
        }
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::isolation::Isolation;
    use crate::games::prelude::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Every leaf of a full-width minimax, with its value for the root's
    /// mover: the reference the pruned search must agree with.
    fn minimax_value<G: GameKit>(state: &G, weights: &[i32], depth: u32, ply: usize) -> i32 {
        let ToMove::One(p) = state.to_move() else {
            return terminal_score(&state.outcome().expect("over"), 0, ply.saturating_sub(1));
        };
        if depth == 0 {
            return G::features(state, p).iter().zip(weights).map(|(f, w)| f * w).sum();
        }
        let mut moves = G::Moves::default();
        state.legal_moves(p, &mut moves);
        let mut best = -i32::MAX;
        for &m in moves.as_slice() {
            let mut child = state.clone();
            child.play(m);
            let value = match child.to_move() {
                ToMove::One(q) if q == p => minimax_value(&child, weights, depth - 1, ply + 1),
                ToMove::One(_) => -minimax_value(&child, weights, depth - 1, ply + 1),
                _ => terminal_score(&child.outcome().expect("over"), p, ply + 1),
            };
            best = best.max(value);
        }
        best
    }

    #[test]
    fn the_leaf_scores_what_a_full_width_search_scores_and_lies_depth_plies_on() {
        let weights = crate::games::isolation::features::DEFAULTS.to_vec();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..12 {
            let text = Isolation::generate_map_text(&mut rng);
            let mut state = Isolation::start(&Isolation::parse_map(&text, "map").unwrap());
            while let ToMove::One(p) = state.to_move() {
                for depth in 0..=2 {
                    let Some((leaf, mover)) = principal_leaf(&state, &weights, depth) else {
                        continue;
                    };
                    // The leaf's own value, seen from the root's mover, is the
                    // search's value: it is the principal line's end.
                    let own: i32 = Isolation::features(&leaf, mover)
                        .iter()
                        .zip(&weights)
                        .map(|(f, w)| f * w)
                        .sum();
                    let from_root = if mover == p { own } else { -own };
                    assert_eq!(from_root, minimax_value(&state, &weights, depth, 0));
                    // Isolation's players alternate, so the leaf is `depth` burns on.
                    assert_eq!(mover == p, depth % 2 == 0);
                    checked += 1;
                }
                let mut moves = <Isolation as Game>::Moves::default();
                state.legal_moves(p, &mut moves);
                let list = moves.as_slice();
                state.play(list[rng.random_range(0..list.len())]);
            }
        }
        assert!(checked > 200, "only {checked} positions had a leaf");
    }

    #[test]
    fn a_line_that_ends_the_game_gives_no_leaf() {
        // Within three plies of the end, the winner's line ends the game.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let text = Isolation::generate_map_text(&mut rng);
        let mut state = Isolation::start(&Isolation::parse_map(&text, "map").unwrap());
        let weights = vec![0; Isolation::PARAMS.len()];
        let mut seen_none = false;
        while let ToMove::One(p) = state.to_move() {
            if principal_leaf(&state, &weights, 3).is_none() {
                seen_none = true;
            }
            let mut moves = <Isolation as Game>::Moves::default();
            state.legal_moves(p, &mut moves);
            state.play(moves.as_slice()[0]);
        }
        assert!(seen_none, "a search to the end of the game must find its end");
        assert!(
            principal_leaf(&state, &weights, 2).is_none(),
            "a finished game has no leaf"
        );
    }
}
