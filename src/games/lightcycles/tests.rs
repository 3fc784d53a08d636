//! The row-pair breadth-first pass against the word shifts it replaced, on
//! seeded random positions: the evaluation must not change.

use super::features::{reach, Reach};
use super::map::LightCyclesMap;
use super::rules::{neighbours, Direction, LightCycles, STRIDE};
use crate::bitboard::Bits512;
use crate::game::{Game, Player, ToMove};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The old `reach`, unchanged: both fronts stepped as `Bits512` shifts.
fn reach_by_words(free: Bits512, my_head: Bits512, op_head: Bits512) -> Reach {
    let (mut my_seen, mut op_seen) = (my_head, op_head);
    let (mut my_front, mut op_front) = (my_seen, op_seen);
    let (mut mine, mut theirs) = (Bits512::EMPTY, Bits512::EMPTY);
    loop {
        let my_new = neighbours(my_front, free).and_not(my_seen);
        let op_new = neighbours(op_front, free).and_not(op_seen);
        if (my_new | op_new).is_empty() {
            break;
        }
        mine |= my_new.and_not(op_seen | op_new);
        theirs |= op_new.and_not(my_seen | my_new);
        my_seen |= my_new;
        op_seen |= op_new;
        my_front = my_new;
        op_front = op_new;
    }
    Reach {
        mine,
        theirs,
        my_reach: my_seen.and_not(my_head),
        op_reach: op_seen.and_not(op_head),
    }
}

fn same(a: &Reach, b: &Reach) -> bool {
    (a.mine, a.theirs, a.my_reach, a.op_reach) == (b.mine, b.theirs, b.my_reach, b.op_reach)
}

/// Positions of seeded random games on generated maps, bikes avoiding
/// crashes when they can, with the player to look from.
fn random_positions(seed: u64, games: usize) -> Vec<(LightCycles, Player)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut state = LightCyclesMap::generate(&mut rng).start_state();
        while state.to_move() == ToMove::All {
            out.push((state, rng.random_range(0..2)));
            let pick = |p: Player, rng: &mut Xoshiro256PlusPlus| {
                let safe: Vec<Direction> = Direction::ALL.into_iter().filter(|&d| state.is_safe(p, d)).collect();
                if safe.is_empty() || rng.random_bool(0.02) {
                    Direction::ALL[rng.random_range(0..4)]
                } else {
                    safe[rng.random_range(0..safe.len())]
                }
            };
            let moves = [pick(0, &mut rng), pick(1, &mut rng)];
            state.play_joint(&moves);
        }
    }
    out
}

#[test]
fn row_pairs_reach_as_the_word_shifts_did_in_random_games() {
    let positions = random_positions(15, 1_000);
    assert!(positions.len() > 10_000, "{} positions", positions.len());
    for (state, me) in positions {
        let (mh, oh) = (Bits512::bit(state.head(me)), Bits512::bit(state.head(1 - me)));
        assert!(same(&reach(&state, me), &reach_by_words(state.free(), mh, oh)), "{state}");
    }
}

/// Any cell set, the last partial row included: the row pairs must carry
/// every bit a `Bits512` can hold.
#[test]
fn row_pairs_reach_as_the_word_shifts_did_on_random_cell_sets() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    for i in 0..3_000 {
        let density = [0.5, 0.7, 0.9][i % 3];
        let mut free = Bits512::EMPTY;
        for c in 0..Bits512::BITS {
            if c % STRIDE != STRIDE - 1 && rng.random_bool(density) {
                free.set(c);
            }
        }
        // A head stands on a board cell, never on the guard column.
        let head = |rng: &mut Xoshiro256PlusPlus| loop {
            let c = rng.random_range(0..Bits512::BITS);
            if c % STRIDE != STRIDE - 1 {
                break c;
            }
        };
        let (a, b) = (head(&mut rng), head(&mut rng));
        let (mh, oh) = (Bits512::bit(a), Bits512::bit(b));
        let state_free = free.and_not(mh | oh);
        let by_rows = super::features::reach_from(state_free, a, b);
        assert!(same(&by_rows, &reach_by_words(state_free, mh, oh)), "heads {a} {b}");
    }
}

/// The kept last answer is the answer: asked again, for the other bike, with
/// the chamber weight 0 or not, in any order.
#[test]
fn kept_features_are_the_computed_ones() {
    use super::features::{features, CHAMBER, DEFAULTS};
    use crate::search::Features;
    let mut no_chamber = DEFAULTS;
    no_chamber[CHAMBER] = 0;
    let mut with_chamber = DEFAULTS;
    with_chamber[CHAMBER] = 1;
    let positions = random_positions(17, 100);
    for (i, (state, me)) in positions.iter().enumerate() {
        for (p, weights) in [(*me, &with_chamber), (*me, &with_chamber), (1 - me, &with_chamber), (*me, &no_chamber)] {
            let chamber = weights[CHAMBER] != 0;
            assert_eq!(state.features_for(p, weights), features(state, p, chamber), "{state}");
        }
        // Back to an earlier position after this one.
        let (earlier, p) = positions[i / 2];
        assert_eq!(earlier.features_for(p, &with_chamber), features(&earlier, p, true));
    }
}

/// Why the engine deepens two half-moves at a time: an iteration that ends
/// on a half-played turn finds the value of the full turns before it, on
/// positions of random games where the bikes can still meet.
#[test]
fn a_half_played_last_turn_adds_nothing_to_the_search_value() {
    use super::features::{separated, DEFAULTS};
    use crate::search::simultaneous::{Sequential, SequentialEval};
    use crate::search::{AlphaBeta, Limits, Linear, Techniques};
    let eval = SequentialEval::new(Linear(DEFAULTS));
    let mut checked = 0;
    for (state, me) in random_positions(19, 40).into_iter().filter(|(s, _)| !separated(s)).step_by(7) {
        let root = Sequential::new(state, me);
        for full_turns in [1, 2] {
            let search = |depth| AlphaBeta::with(12, Techniques::EXACT).search(&root, &eval, Limits::depth(depth));
            let (even, odd) = (search(2 * full_turns), search(2 * full_turns + 1));
            assert_eq!(odd.score, even.score, "{full_turns} full turns, player {me}\n{state}");
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked} positions");
}
