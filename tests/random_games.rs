//! The random-game test every game runs (after OpenSpiel's basic tests):
//! random playouts from many starts, checking the Game trait's contracts at
//! every step.

use gridtune::game::{MoveBuffer, ToMove};
use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::prelude::*;
use gridtune::games::slime::Slime;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;

/// Plays `games` random games from generated maps and checks: a clone equals
/// its original and hashes the same; legal moves are unique and non-empty
/// for each player to act; the game ends within `max_length`; outcomes are
/// in range and sum to what a finished game hands out.
fn random_games<G: GameKit>(games: usize, seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = G::Moves::default();
    for game in 0..games {
        let text = G::generate_map_text(&mut rng);
        let map = G::parse_map(&text, "generated").expect("generated maps are valid");
        let mut state = G::start(&map);
        let max_length = state.max_length();
        let mut length = 0;
        loop {
            let copy = state.clone();
            assert_eq!(copy.hash(), state.hash(), "game {game}: a copy hashes differently");
            assert_eq!(format!("{copy:?}"), format!("{state:?}"), "game {game}: a copy differs");
            let actors: Vec<usize> = match state.to_move() {
                ToMove::Over => break,
                ToMove::One(p) => vec![p],
                ToMove::All => (0..G::PLAYERS).collect(),
            };
            assert!(state.outcome().is_none(), "game {game}: outcome before the end");
            let mut chosen = Vec::new();
            for &p in &actors {
                assert!(p < G::PLAYERS);
                state.legal_moves(p, &mut moves);
                let list = moves.as_slice();
                assert!(
                    !list.is_empty(),
                    "game {game}: player {p} to act has no move\n{state:?}"
                );
                let unique: HashSet<_> = list.iter().collect();
                assert_eq!(unique.len(), list.len(), "game {game}: duplicate moves {list:?}");
                chosen.push(list[rng.random_range(0..list.len())]);
            }
            if G::SIMULTANEOUS {
                state.play_joint(&chosen);
            } else {
                state.play(chosen[0]);
            }
            length += 1;
            assert!(length <= max_length, "game {game}: longer than max_length {max_length}");
            assert_ne!(state.hash(), copy.hash(), "game {game}: a move left the hash unchanged");
        }
        let outcome = state.outcome().expect("a finished game has an outcome");
        for (p, &points) in outcome.points.iter().enumerate() {
            assert!((0.0..=1.0).contains(&points), "game {game}: seat {p} got {points}");
            if p >= G::PLAYERS {
                assert_eq!(points, 0.0);
            }
        }
        if G::PLAYERS == 2 {
            assert_eq!(outcome.points[0] + outcome.points[1], 1.0, "game {game}: {outcome:?}");
        }
    }
}

#[test]
fn isolation_random_games_keep_the_contracts() {
    random_games::<Isolation>(2000, 1);
}

#[test]
fn lightcycles_random_games_keep_the_contracts() {
    random_games::<LightCycles>(500, 2);
}

#[test]
fn slime_random_games_keep_the_contracts() {
    random_games::<Slime>(200, 3);
}

#[test]
fn ataxx_random_games_keep_the_contracts() {
    random_games::<Ataxx>(300, 4);
}
