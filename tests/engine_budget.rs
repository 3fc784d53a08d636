//! The transposition table follows the budget: one rule sizes it from a node
//! or time budget, and each game's genome bot is its `for_budget` engine, so
//! the bot tuned at a node budget and the submission bot built the same way
//! at its time budget differ only in the budget.

use gridtune::game::{Game, Player, ToMove};
use gridtune::games::ataxx::{self, Ataxx};
use gridtune::games::isolation::{self, Isolation};
use gridtune::games::lightcycles::{self, LightCycles};
use gridtune::games::prelude::*;
use gridtune::games::slime::{self, Slime};
use gridtune::search::alphabeta::{MAX_TABLE_BITS, MIN_TABLE_BITS};
use gridtune::search::Limits;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

#[test]
fn a_node_budget_gets_about_one_entry_per_node() {
    let bits = |nodes: u64| Limits::nodes(nodes).table_bits(1_000);
    assert_eq!(bits(1), MIN_TABLE_BITS);
    assert_eq!(bits(1_500), MIN_TABLE_BITS);
    assert_eq!(bits(1 << 14), 14);
    assert_eq!(bits((1 << 14) + 1), 15);
    assert_eq!(bits(100_000), 17);
    assert_eq!(bits(1 << 19), 19);
    assert_eq!(bits(1 << 30), MAX_TABLE_BITS);
    // A depth alone bounds nothing: the largest table.
    assert_eq!(Limits::depth(6).table_bits(1_000), MAX_TABLE_BITS);
}

#[test]
fn a_time_budget_gets_its_measured_nodes_with_headroom() {
    let t = Limits::time(Duration::from_millis(45));
    assert_eq!(t.expected_nodes(1_000), 90_000);
    assert_eq!(t.table_bits(1_000), 17);
    assert_eq!(t.table_bits(100), MIN_TABLE_BITS);
    assert_eq!(t.table_bits(u64::MAX), MAX_TABLE_BITS);
    // With both, whichever stops the search first sizes the table.
    let both = Limits { nodes: 3_000, ..t };
    assert_eq!(both.expected_nodes(1_000), 3_000);
    assert_eq!(both.table_bits(1_000), MIN_TABLE_BITS);
}

#[test]
fn time_spent_before_the_search_comes_off_its_budget() {
    let t = Limits::time(Duration::from_millis(45));
    let left = t.less_time(Duration::from_millis(5));
    assert_eq!(left.time, Some(Duration::from_millis(40)));
    assert_eq!((left.depth, left.nodes), (t.depth, t.nodes));
    // Past the budget none is left: the search stops at its first look at
    // the clock.
    assert_eq!(t.less_time(Duration::from_millis(60)).time, Some(Duration::ZERO));
    // A budget without a clock has nothing to take time from.
    assert_eq!(
        Limits::nodes(500).less_time(Duration::from_millis(5)),
        Limits::nodes(500)
    );
}

#[test]
fn the_submission_limits_are_a_time_budget_within_the_move_budget() {
    macro_rules! check {
        ($module:ident, $G:ty) => {
            let limits = <$G>::submission_limits();
            let time = limits.time.expect("a submission bot plays by the clock");
            assert!(time > Duration::ZERO, "{}", <$G>::NAME);
            assert!(
                time < Duration::from_millis(<$G>::MOVE_BUDGET_MS),
                "{}",
                <$G>::NAME
            );
            assert_eq!(limits.nodes, u64::MAX, "{}", <$G>::NAME);
        };
    }
    gridtune::for_each_game!(check);
}

/// Plays a game on a generated map between `bots`, one a seat, and at each
/// turn asks `twin` for the acting seat's move: it must be the same.
fn lockstep_game<G: GameKit>(
    seed: u64,
    mut bots: Vec<Box<dyn gridtune::bots::Bot<G>>>,
    mut twin: impl FnMut(&G, Player) -> G::Move,
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let text = G::generate_map_text(&mut rng);
    let map = G::parse_map(&text, "generated").unwrap();
    let mut state = G::start(&map);
    let mut turns = 0;
    loop {
        let acting: Vec<Player> = match state.to_move() {
            ToMove::Over => break,
            ToMove::One(p) => vec![p],
            ToMove::All => (0..G::PLAYERS).collect(),
        };
        let moves: Vec<G::Move> = acting
            .iter()
            .map(|&p| {
                let m = bots[p].choose(&state, p);
                assert_eq!(m, twin(&state, p), "{} turn {turns}", G::NAME);
                m
            })
            .collect();
        match moves.as_slice() {
            [m] => state.play(*m),
            joint => state.play_joint(joint),
        }
        turns += 1;
    }
    assert!(turns > 0);
}

/// Genome bots at `nodes` a move, each seat twinned with an engine built by
/// the game's `for_budget`.
fn lockstep<G: GameKit, E>(
    nodes: u64,
    seed: u64,
    make: impl Fn(Limits) -> E,
    choose: impl Fn(&mut E, &G, Player, Limits) -> G::Move,
) {
    let limits = Limits::nodes(nodes);
    let bots = (0..G::PLAYERS).map(|_| G::genome_bot(G::FROZEN, limits)).collect();
    let mut engines: Vec<E> = (0..G::PLAYERS).map(|_| make(limits)).collect();
    lockstep_game::<G>(seed, bots, |state, p| choose(&mut engines[p], state, p, limits));
}

#[test]
fn the_genome_bot_is_the_for_budget_engine() {
    use gridtune::bots::genome_weights as weights;
    lockstep::<Isolation, _>(
        2_000,
        1,
        |l| isolation::engine::for_budget(weights(Isolation::FROZEN), l),
        |e, s, _, l| e.search(s, l).best,
    );
    lockstep::<Ataxx, _>(
        2_000,
        2,
        |l| ataxx::engine::for_budget(weights(Ataxx::FROZEN), l),
        |e, s, _, l| e.search(s, l).best,
    );
    lockstep::<LightCycles, _>(
        2_000,
        3,
        |l| lightcycles::engine::Engine::for_budget(weights(LightCycles::FROZEN), l),
        |e, s, p, l| e.choose(s, p, l).direction,
    );
    lockstep::<Slime, _>(
        300,
        4,
        |l| slime::engine::Engine::for_budget(weights(Slime::FROZEN), l),
        |e, s, p, l| e.choose(s, p, l),
    );
}

/// `engine` judges, each seat twinned with the genome bot with the declared
/// (hand-set) weights at the game's `ENGINE_NODES`: so the judge is that bot,
/// and not, say, the frozen genome or another budget.
fn engine_judge_is_the_hand_set_bot<G: GameKit>(seed: u64) {
    let hand_set = gridtune::genome::Genome::defaults(G::PARAMS).weights;
    assert_ne!(
        hand_set,
        G::FROZEN,
        "{}: the test needs tuned weights to tell apart",
        G::NAME
    );
    let judges = (0..G::PLAYERS).map(|p| G::judge("engine", p as u64).unwrap()).collect();
    let limits = Limits::nodes(G::ENGINE_NODES);
    let mut twins: Vec<_> = (0..G::PLAYERS).map(|_| G::genome_bot(&hand_set, limits)).collect();
    lockstep_game::<G>(seed, judges, |state, p| twins[p].choose(state, p));
}

#[test]
fn the_engine_judge_is_the_hand_set_genome_bot_at_its_budget() {
    engine_judge_is_the_hand_set_bot::<Isolation>(11);
    engine_judge_is_the_hand_set_bot::<LightCycles>(12);
    engine_judge_is_the_hand_set_bot::<Slime>(13);
    engine_judge_is_the_hand_set_bot::<Ataxx>(14);
    for name in ["engine", "alphabeta"] {
        assert!(Ataxx::is_judge(name), "{name}");
    }
    assert!(!Ataxx::is_judge("engines"));
    assert_eq!(Ataxx::judge_names().last(), Some(&"engine"));
}
