//! The genome's flat direction (`gridtune::scale`), on every game: the
//! weights multiplied alike leave every move the search chooses unchanged,
//! which is why evolve's GA may keep the scale anchor fixed; and the
//! measurement sees a change where there is one.

use gridtune::games::prelude::*;
use gridtune::scale::{judge_positions, same_moves, scaled};
use gridtune::search::Limits;

fn scaling_keeps_the_moves<G: GameKit>() {
    let positions: Vec<G> = judge_positions::<G>(3, 16).expect("judge games play");
    assert!(!positions.is_empty(), "no positions");
    let limits = Limits::nodes(400);
    let hand_set = gridtune::genome::Genome::defaults(G::PARAMS).weights;
    for (name, weights) in [("hand-set", hand_set), ("frozen", G::FROZEN.to_vec())] {
        for factor in [2.0, 3.0] {
            let multiple = scaled(G::PARAMS, &weights, factor);
            assert_ne!(multiple, weights);
            let agreement = same_moves(&positions, &weights, &multiple, limits);
            assert_eq!(
                agreement.same,
                agreement.searches,
                "{}: the {name} weights x{factor} chose other moves",
                G::NAME
            );
        }
        // Every weight but the anchor turned around: a direction that
        // matters, which the same measurement must see.
        let mut turned: Vec<i32> = weights.iter().map(|w| -w).collect();
        turned[G::SCALE_ANCHOR] = weights[G::SCALE_ANCHOR];
        let agreement = same_moves(&positions, &weights, &turned, limits);
        assert!(
            agreement.same < agreement.searches,
            "{}: the {name} weights turned around chose the same {} moves",
            G::NAME,
            agreement.searches
        );
    }
}

macro_rules! scaling_keeps_the_moves {
    ($module:ident, $game:ty) => {
        #[test]
        fn $module() {
            scaling_keeps_the_moves::<$game>();
        }
    };
}

gridtune::for_each_game!(scaling_keeps_the_moves);
