//! Alpha-beta against plain minimax, budgets, and proven results.

use gridtune::game::{Game, MoveBuffer, Player, ToMove};
use gridtune::games::ataxx::rules::AtaxxMoves;
use gridtune::games::ataxx::{Ataxx, AtaxxMap};
use gridtune::games::isolation::features::{COUNT, DEFAULTS};
use gridtune::games::isolation::protocol::parse_position;
use gridtune::games::isolation::rules::IsolationMoves;
use gridtune::games::isolation::{Isolation, IsolationMap};
use gridtune::games::prelude::*;
use gridtune::search::alphabeta::{CLOCK_EVERY_NODES, PROVEN, WIN};
use gridtune::search::{AlphaBeta, Deepening, Evaluator, Features, Limits, Linear, Reductions, Techniques};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Fixed-depth negamax without pruning, the value alpha-beta must reproduce,
/// for any game one player acts in at a time: `p`, who is to act, takes
/// the best of its moves.
fn minimax<G: Game, E: Evaluator<G>>(state: &G, p: Player, depth: u32, ply: usize, eval: &E) -> i32 {
    if depth == 0 {
        return eval.evaluate(state, p);
    }
    let mut moves = G::Moves::default();
    state.legal_moves(p, &mut moves);
    moves
        .as_slice()
        .iter()
        .map(|&m| move_value(state, m, p, depth, ply, eval))
        .max()
        .unwrap()
}

/// What `m` is worth to `p` in [`minimax`] at `depth`, scored as the search
/// scores it: a side that moves again keeps its point of view, and a
/// finished game scores by its distance from the root.
fn move_value<G: Game, E: Evaluator<G>>(state: &G, m: G::Move, p: Player, depth: u32, ply: usize, eval: &E) -> i32 {
    let mut child = state.clone();
    child.play(m);
    match child.to_move() {
        ToMove::One(q) if q == p => minimax(&child, p, depth - 1, ply + 1, eval),
        ToMove::One(q) => -minimax(&child, q, depth - 1, ply + 1, eval),
        ToMove::Over => eval.terminal(&child, p, ply + 1),
        ToMove::All => unreachable!("a simultaneous game"),
    }
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

/// An Ataxx position `plies` random moves (or until the game ends) from a
/// generated board's start, with the repetition draws off (see below).
fn random_ataxx(rng: &mut Xoshiro256PlusPlus, plies: usize) -> Ataxx {
    let mut state = AtaxxMap::generate(rng).start.with_draws(false);
    let mut moves = AtaxxMoves::new();
    for _ in 0..plies {
        let ToMove::One(p) = state.to_move() else { break };
        state.legal_moves(p, &mut moves);
        state.play(moves.as_slice()[rng.random_range(0..moves.len())]);
    }
    state
}

/// Every technique that does not prune (PVS, aspiration windows, history,
/// the two-entry table) and the judges' plain search find the minimax value
/// at a fixed depth; depth 5 is deep enough for aspiration windows (from
/// depth 4) and for null-window re-searches to matter. Deepening over odd
/// or even depths only still ends on the depth asked for, whatever its
/// parity.
#[test]
fn alpha_beta_value_equals_minimax_value() {
    let odd_depths = Techniques {
        deepening: Deepening::Odd,
        ..Techniques::EXACT
    };
    let even_depths = Techniques {
        deepening: Deepening::Even,
        ..Techniques::EXACT
    };
    for techniques in [Techniques::PLAIN, Techniques::EXACT, odd_depths, even_depths] {
        for depth in [3, 5] {
            value_equals_minimax(techniques, depth, if depth == 3 { 60 } else { 25 });
        }
    }
    value_equals_minimax(odd_depths, 4, 40);
    value_equals_minimax(even_depths, 4, 40);
}

fn value_equals_minimax(techniques: Techniques, depth: u32, positions: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11 + u64::from(depth));
    let eval = Linear(DEFAULTS);
    let mut checked = 0;
    while checked < positions {
        let plies = rng.random_range(0..30);
        let Some(state) = random_midgame(&mut rng, plies) else {
            continue;
        };
        let expected = minimax(&state, state.side(), depth, 0, &eval);
        let result = AlphaBeta::with(12, techniques).search(&state, &eval, Limits::depth(depth));
        let mut moves = IsolationMoves::new();
        state.legal_moves(state.side(), &mut moves);
        if moves.len() == 1 {
            continue; // a forced move is played without searching
        }
        // A search that proved the game's result stops early with the exact score.
        if result.score.abs() < PROVEN {
            assert_eq!(result.score, expected, "{techniques:?} depth {depth}\n{state}");
        } else {
            assert_eq!(result.score.signum(), expected.signum(), "{state}");
        }
        // The move it picked is worth its score.
        assert_eq!(
            move_value(&state, result.best, state.side(), depth, 0, &eval),
            expected,
            "{state}"
        );
        checked += 1;
    }
}

/// Ataxx's search with its own techniques less the pruning (reductions,
/// late-move and futility pruning, IIR) finds the minimax value of random
/// positions at a fixed depth, and so does the exact set of any game. The
/// repetition draws are off: a table cannot know by which path a position
/// was reached, so with them no engine's value is exact.
#[test]
fn ataxx_search_without_pruning_equals_minimax() {
    use gridtune::games::ataxx::{engine, tuned::WEIGHTS};
    let exact = Techniques {
        reductions: Reductions::Off,
        late_pruning: false,
        futility: false,
        iir: false,
        null_move: false,
        ..engine::TECHNIQUES
    };
    let eval = Linear(WEIGHTS);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let mut moves = AtaxxMoves::new();
    let mut checked = 0;
    while checked < 150 {
        let plies = rng.random_range(0..60);
        let state = random_ataxx(&mut rng, plies);
        let ToMove::One(me) = state.to_move() else { continue };
        state.legal_moves(me, &mut moves);
        if moves.len() == 1 {
            continue; // a forced move is played without searching
        }
        let depth = if moves.len() > 30 { 2 } else { 3 };
        let expected = minimax(&state, me, depth, 0, &eval);
        for techniques in [exact, Techniques::EXACT] {
            let result = AlphaBeta::with(14, techniques).search(&state, &eval, Limits::depth(depth));
            assert_eq!(result.score, expected, "{techniques:?} depth {depth}\n{state}");
            let worth = move_value(&state, result.best, me, depth, 0, &eval);
            assert_eq!(worth, expected, "the move picked is worth the score\n{state}");
        }
        checked += 1;
    }
}

/// Null-move pruning cuts Ataxx's tree at a fixed depth (a pass is
/// Ataxx's null move) and leaves a game without a null move searched
/// exactly as before, node for node.
#[test]
fn null_move_pruning_prunes_ataxx_and_leaves_isolation_alone() {
    use gridtune::games::ataxx::tuned::WEIGHTS;
    let without = Techniques {
        null_move: false,
        ..Techniques::EXACT
    };
    let with = Techniques {
        null_move: true,
        ..Techniques::EXACT
    };
    let eval = Linear(WEIGHTS);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let mut moves = AtaxxMoves::new();
    let (mut nodes_without, mut nodes_with) = (0, 0);
    for _ in 0..40 {
        let plies = rng.random_range(4..40);
        let state = random_ataxx(&mut rng, plies);
        let ToMove::One(me) = state.to_move() else { continue };
        let a = AlphaBeta::with(16, without).search(&state, &eval, Limits::depth(4));
        let b = AlphaBeta::with(16, with).search(&state, &eval, Limits::depth(4));
        state.legal_moves(me, &mut moves);
        assert!(moves.as_slice().contains(&b.best), "{:?} is not legal\n{state}", b.best);
        nodes_without += a.nodes;
        nodes_with += b.nodes;
    }
    assert!(
        nodes_with < nodes_without,
        "null moves searched {nodes_with} nodes against {nodes_without}"
    );

    let isolation = |null_move| Techniques {
        null_move,
        ..Techniques::ALL
    };
    let mut checked = 0;
    for plies in [4, 10, 16].into_iter().cycle().take(30) {
        let Some(state) = random_midgame(&mut rng, plies) else {
            continue;
        };
        checked += 1;
        let eval = Linear(DEFAULTS);
        let a = AlphaBeta::with(14, isolation(false)).search(&state, &eval, Limits::depth(5));
        let b = AlphaBeta::with(14, isolation(true)).search(&state, &eval, Limits::depth(5));
        assert_eq!(a, b, "{state}");
    }
    assert!(checked >= 20, "only {checked} Isolation positions");
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

/// A timed search reads the clock often enough that a budget already spent
/// stops it at the first reading: a costly node between two readings is
/// time the reply overruns by.
#[test]
fn a_spent_time_budget_stops_the_search_at_the_first_clock_reading() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let state = IsolationMap::generate(&mut rng).start_state();
    let result = AlphaBeta::new(14).search(&state, &Linear(DEFAULTS), Limits::time(std::time::Duration::ZERO));
    assert!(result.nodes <= CLOCK_EVERY_NODES, "{} nodes", result.nodes);
    let mut moves = IsolationMoves::new();
    state.legal_moves(state.side(), &mut moves);
    assert!(moves.as_slice().contains(&result.best), "{:?}", result.best);
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

/// With each game's techniques on (reductions and pruning), the genome bot of every game
/// still returns a legal move in every position of random games, at a budget
/// small enough to stop searches midway and large enough to reduce.
fn genome_bot_moves_are_legal<G: GameKit>() {
    use gridtune::game::MoveBuffer;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let mut moves = G::Moves::default();
    let mut asked = 0;
    let mut game = 0;
    while game < 6 || asked < 300 {
        game += 1;
        let map = G::parse_map(&G::generate_map_text(&mut rng), "generated").unwrap();
        let mut state = G::start(&map);
        let budget = Limits::nodes(if game % 2 == 0 { 700 } else { 6_000 });
        let weights = gridtune::genome::Genome::defaults(G::PARAMS).weights;
        let mut bots: Vec<_> = (0..G::PLAYERS).map(|_| G::genome_bot(&weights, budget)).collect();
        loop {
            let actors: Vec<usize> = match state.to_move() {
                ToMove::Over => break,
                ToMove::One(p) => vec![p],
                ToMove::All => (0..G::PLAYERS).collect(),
            };
            let mut chosen = Vec::new();
            for &p in &actors {
                // Every other turn a random move instead, for positions a bot
                // would not reach against itself.
                state.legal_moves(p, &mut moves);
                let m = if rng.random_range(0..2) == 0 {
                    bots[p].choose(&state, p)
                } else {
                    moves.as_slice()[rng.random_range(0..moves.as_slice().len())]
                };
                assert!(
                    moves.as_slice().contains(&m),
                    "{}: {m:?} is not legal\n{state:?}",
                    G::NAME
                );
                asked += 1;
                chosen.push(m);
            }
            if G::SIMULTANEOUS {
                state.play_joint(&chosen);
            } else {
                state.play(chosen[0]);
            }
        }
    }
}

macro_rules! genome_bots_choose_legal_moves {
    ($module:ident, $game:ty) => {
        #[test]
        fn $module() {
            genome_bot_moves_are_legal::<$game>();
        }
    };
}

gridtune::for_each_game!(genome_bots_choose_legal_moves);
