//! The bitboard fills against the plain loops they replaced, on seeded random
//! positions: the evaluation must not change by a single point.

use super::features::*;
use super::map::IsolationMap;
use super::rules::{bit, queen_reach, region, square, xy, Isolation, IsolationMoves, QueenRays};
use crate::game::{Game, Player, ToMove};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The features as computed before: queen layers by the ray loop (`queen_reach`), and each
/// piece's region by its own king flood (the old function, unchanged).
fn features_by_steps(state: &Isolation, me: Player) -> [i32; COUNT] {
    let opp = 1 - me;
    let free = state.free();
    let (mine, theirs) = (bit(state.position(me)), bit(state.position(opp)));
    let mut f = [0i32; COUNT];

    // Queen-distance layers from both pieces at once (Voronoi by queen moves).
    let (mut my_seen, mut op_seen) = (mine, theirs);
    let (mut my_front, mut op_front) = (mine, theirs);
    let (mut my_land, mut op_land) = (0u32, 0u32);
    let mut layer = 0;
    loop {
        let my_new = queen_reach(my_front, free) & !my_seen;
        let op_new = queen_reach(op_front, free) & !op_seen;
        if my_new | op_new == 0 {
            break;
        }
        layer += 1;
        my_land += (my_new & !op_seen & !op_new).count_ones();
        op_land += (op_new & !my_seen & !my_new).count_ones();
        my_seen |= my_new;
        op_seen |= op_new;
        my_front = my_new;
        op_front = op_new;
        match layer {
            1 => {
                f[OWN_MOBILITY] = my_new.count_ones() as i32;
                f[OPP_MOBILITY] = op_new.count_ones() as i32;
                f[TWO_STEP] = f[OWN_MOBILITY] - f[OPP_MOBILITY];
            }
            2 => f[TWO_STEP] = (my_seen ^ mine).count_ones() as i32 - (op_seen ^ theirs).count_ones() as i32,
            _ => {}
        }
    }
    f[TERRITORY] = my_land as i32 - op_land as i32;

    let (w, h) = (state.width() as i32, state.height() as i32);
    let centre_distance = |sq: u8| {
        let (x, y) = xy(sq);
        (2 * x as i32 - (w - 1)).abs() + (2 * y as i32 - (h - 1)).abs()
    };
    f[CENTRALITY] = centre_distance(state.position(opp)) - centre_distance(state.position(me));
    let ((mx, my), (ox, oy)) = (xy(state.position(me)), xy(state.position(opp)));
    f[DISTANCE] = (mx as i32 - ox as i32).abs().max((my as i32 - oy as i32).abs());

    // Separated pieces: each can make at most its region's size in moves.
    let my_region = region(mine, free);
    let op_region = region(theirs, free);
    if my_region & op_region == 0 {
        let (a, b) = (my_region.count_ones() as i32, op_region.count_ones() as i32);
        f[PARTITION_SPACE] = a - b;
        // The side to move runs out first when the counts tie.
        let i_outlast = if state.side() == me { a > b } else { a >= b };
        f[PARTITION_WIN] = if i_outlast { 1 } else { -1 };
    } else {
        // The side to move makes the last move of an odd count.
        let shared = (my_region | op_region).count_ones();
        let last_is_mine = (shared % 2 == 1) == (state.side() == me);
        f[PARITY] = if last_is_mine { 1 } else { -1 };
    }

    // Each piece's queen distances on their own, then the squares where they tie.
    let distances = |from: u128| {
        let mut d = [u32::MAX; 128];
        let (mut seen, mut front, mut step) = (from, from, 0);
        while front != 0 {
            step += 1;
            front = queen_reach(front, free) & !seen;
            seen |= front;
            (0..128).filter(|&sq| front >> sq & 1 == 1).for_each(|sq| d[sq] = step);
        }
        d
    };
    let (dm, dop) = (distances(mine), distances(theirs));
    let tied = (0..128).filter(|&sq| dm[sq] != u32::MAX && dm[sq] == dop[sq]).count() as i32;
    f[CONTESTED] = if state.side() == me { tied } else { -tied };
    f
}

/// Random squares of a `w x h` board, each with probability `p`.
fn random_squares(rng: &mut Xoshiro256PlusPlus, w: usize, h: usize, p: f64) -> u128 {
    let mut b = 0;
    for y in 0..h {
        for x in 0..w {
            if rng.random_bool(p) {
                b |= bit(square(x, y));
            }
        }
    }
    b
}

#[test]
fn doubling_fill_matches_the_ray_loop() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    for i in 0..20_000 {
        let (w, h) = (rng.random_range(1..=9), rng.random_range(1..=9));
        let free = random_squares(&mut rng, w, h, [0.3, 0.7, 0.95, 1.0][i % 4]);
        let from = random_squares(&mut rng, w, h, [0.02, 0.1, 0.3][i % 3]);
        assert_eq!(QueenRays::new(free).reach(from), queen_reach(from, free), "from {from:#x} free {free:#x}");
    }
}

/// A piece can move exactly when it has a queen move: `to_move` and
/// `outcome` ask the cheaper question.
#[test]
fn a_piece_can_move_when_it_has_a_queen_move() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
    let (mut stuck, mut free_to_move) = (0, 0);
    for i in 0..20_000 {
        let (w, h) = (rng.random_range(1..=9), rng.random_range(1..=9));
        let mut free = random_squares(&mut rng, w, h, [0.05, 0.2, 0.5, 0.9][i % 4]);
        let pos = [square(rng.random_range(0..w), rng.random_range(0..h)), square(rng.random_range(0..w), rng.random_range(0..h))];
        if pos[0] == pos[1] {
            continue;
        }
        free &= !(bit(pos[0]) | bit(pos[1]));
        let state = Isolation::new(w, h, free, pos, 0);
        for p in 0..2 {
            let has_moves = state.moves_bb(p) != 0;
            assert_eq!(state.can_move(p), has_moves, "{state}");
            if has_moves { free_to_move += 1 } else { stuck += 1 }
        }
    }
    assert!(stuck > 1_000 && free_to_move > 1_000, "{stuck} stuck, {free_to_move} free");
}

#[test]
fn features_match_the_step_by_step_layers_in_random_games() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let mut moves = IsolationMoves::new();
    let mut checked = 0;
    for _ in 0..300 {
        let mut state = IsolationMap::generate(&mut rng).start_state();
        while let ToMove::One(p) = state.to_move() {
            for me in 0..2 {
                assert_eq!(features(&state, me), features_by_steps(&state, me), "{state}");
                checked += 1;
            }
            // What the side to move gains, the other side loses.
            let (f0, f1) = (features(&state, 0), features(&state, 1));
            assert_eq!((f0[CONTESTED], f0[PARITY]), (-f1[CONTESTED], -f1[PARITY]), "{state}");
            state.legal_moves(p, &mut moves);
            state.play(moves.as_slice()[rng.random_range(0..moves.len())]);
        }
    }
    assert!(checked > 10_000, "{checked} positions");
}
