//! The random-game test every registered game runs (after OpenSpiel's basic
//! tests): random playouts from many starts, checking the Game trait's
//! contracts at every step.

use gridtune::game::{MoveBuffer, ToMove};
use gridtune::games::prelude::*;
use gridtune::perft::after_each_move;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;

/// Moves played per game: enough for thousands of short games or hundreds
/// of long ones.
const PLIES: usize = 60_000;

/// Plays random games from generated maps until `PLIES` moves (and at least
/// 50 games) have been played, and checks: a clone equals its original and
/// hashes the same; legal moves are unique and non-empty for each player to
/// act, `pick_legal_move` finds each by its index, and `perft_two_plies`
/// counts what playing each leaves; the game ends within
/// `max_length`; outcomes are in range and sum to what a finished game hands
/// out.
fn random_games<G: GameKit>() {
    let seed = G::NAME
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b.into()));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = G::Moves::default();
    let mut played = 0;
    let mut game = 0;
    while played < PLIES || game < 50 {
        game += 1;
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
                for (i, &m) in list.iter().enumerate() {
                    let mut asked = 0;
                    let picked = state.pick_legal_move(p, &mut |n| {
                        asked = n;
                        i
                    });
                    assert_eq!(asked, list.len(), "game {game}: pick_legal_move counted {asked} moves");
                    assert_eq!(picked, m, "game {game}: pick_legal_move's move {i} of {list:?}");
                }
                if !G::SIMULTANEOUS {
                    assert_eq!(
                        state.perft_two_plies(p),
                        after_each_move(&state, p, 1),
                        "game {game}: perft_two_plies\n{state:?}"
                    );
                }
                chosen.push(list[rng.random_range(0..list.len())]);
            }
            if G::SIMULTANEOUS {
                state.play_joint(&chosen);
            } else {
                state.play(chosen[0]);
            }
            length += 1;
            played += 1;
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

macro_rules! random_games_keep_the_contracts {
    ($module:ident, $game:ty) => {
        #[test]
        fn $module() {
            random_games::<$game>();
        }
    };
}

gridtune::for_each_game!(random_games_keep_the_contracts);
