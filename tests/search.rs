//! Alpha-beta against plain minimax, budgets, and proven results.

use gridtune::game::{Game, ToMove};
use gridtune::games::isolation::features::{COUNT, DEFAULTS};
use gridtune::games::isolation::protocol::parse_position;
use gridtune::games::isolation::rules::IsolationMoves;
use gridtune::games::isolation::{Isolation, IsolationMap};
use gridtune::search::alphabeta::{terminal_score, PROVEN, WIN};
use gridtune::search::{AlphaBeta, Evaluator, Features, Limits, Linear};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Fixed-depth negamax without pruning: the value alpha-beta must reproduce.
fn minimax(state: &Isolation, depth: u32, ply: usize, eval: &Linear<COUNT>) -> i32 {
    let me = match state.to_move() {
        ToMove::One(p) => p,
        _ => return terminal_score(&state.outcome().unwrap(), state.side(), ply),
    };
    if depth == 0 {
        return eval.evaluate(state, me);
    }
    let mut moves = IsolationMoves::new();
    state.legal_moves(me, &mut moves);
    moves
        .as_slice()
        .iter()
        .map(|&m| {
            let mut child = *state;
            child.play(m);
            -minimax(&child, depth - 1, ply + 1, eval)
        })
        .max()
        .unwrap()
}

fn random_midgame(rng: &mut Xoshiro256PlusPlus, plies: usize) -> Option<Isolation> {
    let mut state = IsolationMap::generate(rng).start_state();
    let mut moves = IsolationMoves::new();
    for _ in 0..plies {
        let ToMove::One(p) = state.to_move() else { return None };
        state.legal_moves(p, &mut moves);
        state.play(moves.as_slice()[rng.random_range(0..moves.len())]);
    }
    matches!(state.to_move(), ToMove::One(_)).then_some(state)
}

#[test]
fn alpha_beta_value_equals_minimax_value() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let eval = Linear(DEFAULTS);
    let mut checked = 0;
    while checked < 60 {
        let plies = rng.random_range(0..30);
        let Some(state) = random_midgame(&mut rng, plies) else {
            continue;
        };
        let depth = 3;
        let expected = minimax(&state, depth, 0, &eval);
        let result = AlphaBeta::new(12).search(&state, &eval, Limits::depth(depth));
        let mut moves = IsolationMoves::new();
        state.legal_moves(state.side(), &mut moves);
        if moves.len() == 1 {
            continue; // a forced move is played without searching
        }
        // A search that proved the game's result stops early with the exact score.
        if result.score.abs() < PROVEN {
            assert_eq!(result.score, expected, "depth {depth}\n{state}");
        } else {
            assert_eq!(result.score.signum(), expected.signum(), "{state}");
        }
        // The move it picked is worth its score.
        let mut child = state;
        child.play(result.best);
        assert_eq!(-minimax(&child, depth - 1, 1, &eval), expected, "{state}");
        checked += 1;
    }
}

#[test]
fn node_budgets_are_deterministic_and_respected() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let state = IsolationMap::generate(&mut rng).start_state();
    let eval = Linear(DEFAULTS);
    let a = AlphaBeta::new(14).search(&state, &eval, Limits::nodes(5_000));
    let b = AlphaBeta::new(14).search(&state, &eval, Limits::nodes(5_000));
    assert_eq!(a, b);
    assert!(a.nodes <= 5_000, "{} nodes", a.nodes);
    assert!(a.depth >= 2, "reached depth {}", a.depth);
}

/// Player 0 at (0,0) walled into a corridor of 3 squares; player 1 has 2:
/// whoever moves, player 0 outlasts and wins.
#[test]
fn a_won_endgame_is_proven() {
    let text = "7 7 0\nturn 1\n0 0\n6 6\n0...###\n#######\n#######\n#######\n#######\n#######\n####..1\n";
    let (state, me) = parse_position(text).unwrap();
    assert_eq!(me, 0);
    let result = AlphaBeta::new(12).search(&state, &Linear(DEFAULTS), Limits::depth(40));
    assert!(result.score >= PROVEN, "score {}", result.score);
    // Player 0's third move is ply 5; then player 1, with 2 moves made, is stuck.
    assert_eq!(result.score, WIN - 5);
}

/// The linear evaluator is weights · features, whatever the weights.
#[test]
fn linear_evaluation_is_the_weighted_sum_of_the_features() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let mut checked = 0;
    while checked < 50 {
        let plies = rng.random_range(0..20);
        let Some(state) = random_midgame(&mut rng, plies) else {
            continue;
        };
        let weights: [i32; COUNT] = std::array::from_fn(|_| rng.random_range(-50..50));
        for me in 0..2 {
            let f = state.features(me);
            let sum: i32 = f.iter().zip(&weights).map(|(a, b)| a * b).sum();
            assert_eq!(Linear(weights).evaluate(&state, me), sum, "{state}");
        }
        checked += 1;
    }
}

/// Light Cycles skips its chamber tree when the chamber weight is 0: the
/// evaluation is the same as with every feature computed.
#[test]
fn skipping_a_zero_weight_feature_leaves_the_evaluation_unchanged() {
    use gridtune::games::lightcycles::features::{CHAMBER, DEFAULTS as LC_DEFAULTS};
    use gridtune::games::lightcycles::{Direction, LightCycles, LightCyclesMap};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let mut weights = LC_DEFAULTS;
    weights[CHAMBER] = 0;
    let mut chamber_seen = false;
    for _ in 0..20 {
        let mut state = LightCyclesMap::generate(&mut rng).start_state();
        while state.to_move() == ToMove::All {
            for me in 0..2 {
                let all = state.features(me);
                let needed = state.features_for(me, &weights);
                chamber_seen |= all[CHAMBER] != 0;
                assert_eq!(needed[CHAMBER], 0);
                let sum: i32 = all.iter().zip(&weights).map(|(a, b)| a * b).sum();
                assert_eq!(Linear(weights).evaluate(&state, me), sum, "{state}");
            }
            let safe = |p| {
                let d: Vec<Direction> = Direction::ALL.into_iter().filter(|&d| state.is_safe(p, d)).collect();
                d.first().copied().unwrap_or(Direction::Up)
            };
            let joint = [safe(0), safe(1)];
            LightCycles::play_joint(&mut state, &joint);
        }
    }
    assert!(chamber_seen, "no position had a chamber feature to skip");
}
