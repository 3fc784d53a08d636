//! Perft against a plain generator, for every registered game that has one
//! ([`PlainRules`], in tests/common/plain.rs): on generated maps, from the
//! start and from positions a few random moves in, at depths 1 to
//! [`DEPTH`]. The games it checks are listed below, and why the others
//! have no plain generator.

mod common;

use common::plain::PlainRules;
use gridtune::game::{MoveBuffer, ToMove};
use gridtune::games::prelude::*;
use gridtune::perft::perft;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Generated maps per game.
const MAPS: usize = 6;
/// The deepest perft compared.
const DEPTH: u32 = 4;
/// Random plies played before the second comparison on each map.
const PLIES_IN: usize = 4;

fn perft_matches_the_plain_generator<G: GameMaps + PlainRules>() {
    let seed = G::NAME
        .bytes()
        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b.into()));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut moves = G::Moves::default();
    for i in 0..MAPS {
        let text = G::generate_map_text(&mut rng);
        let map = G::parse_map(&text, "generated").expect("generated maps are valid");
        let start = G::start(&map);
        let mut later = start.clone();
        for _ in 0..PLIES_IN {
            let ToMove::One(p) = later.to_move() else { break };
            later.legal_moves(p, &mut moves);
            let list = moves.as_slice();
            later.play(list[rng.random_range(0..list.len())]);
        }
        for (what, state) in [("start", &start), ("a few moves in", &later)] {
            for depth in 1..=DEPTH {
                assert_eq!(
                    perft(state, depth),
                    state.plain_perft(depth),
                    "{} map {i}, {what}, depth {depth}:\n{text}",
                    G::NAME
                );
            }
        }
    }
}

macro_rules! perft_matches_a_plain_generator {
    // The games with a plain generator (`PlainRules`): a game that gains one
    // gets its line here.
    (isolation, $game:ty) => {
        perft_matches_a_plain_generator!(@test isolation, $game);
    };
    (slime, $game:ty) => {
        perft_matches_a_plain_generator!(@test slime, $game);
    };
    // The others have none. Light Cycles is simultaneous: each bike's
    // generator is the four directions whatever the board, so perft would
    // test only the joint product; its rules (collisions, trails, the edge)
    // are checked against a plain grid in random games in
    // lightcycles_rules.rs. Ataxx's perft is pinned to libataxx's published
    // counts in ataxx_perft.rs. The test-only tic-tac-toe lists the free
    // cells of a nine-bit mask, which a plain generator would only restate.
    ($module:ident, $game:ty) => {};
    (@test $module:ident, $game:ty) => {
        #[test]
        fn $module() {
            perft_matches_the_plain_generator::<$game>();
        }
    };
}

gridtune::for_each_game!(perft_matches_a_plain_generator);
