//! Isolation's evaluation: features of a position from one player's side,
//! and the weights that combine them. Standard library only.

use super::rules::{bit, xy, Isolation, QueenRays};
use crate::game::Player;

crate::declare_params! {
    /// Squares I can move to now.
    OWN_MOBILITY = ("own_mobility", 10, -40, 100, 1);
    /// Squares the opponent can move to now (negative: hem it in).
    OPP_MOBILITY = ("opp_mobility", -12, -100, 40, 1);
    /// My squares within two queen moves, minus the opponent's.
    TWO_STEP = ("two_step", 2, -20, 40, 1);
    /// Squares I reach in fewer queen moves than the opponent, minus the reverse.
    TERRITORY = ("territory", 6, -20, 60, 1);
    /// How near the centre I stand compared with the opponent (half-squares).
    CENTRALITY = ("centrality", 1, -20, 20, 1);
    /// Chebyshev distance between the pieces (positive: keep away).
    DISTANCE = ("distance", 0, -30, 30, 1);
    /// Once the pieces can never meet: my region's size minus the opponent's.
    PARTITION_SPACE = ("partition_space", 60, 0, 300, 5);
    /// Once the pieces can never meet: +1 if I outlast the opponent, -1 if not.
    PARTITION_WIN = ("partition_win", 1000, 0, 5000, 50);
    /// Squares both pieces reach in the same number of queen moves: the side to
    /// move gets there first, so they count for it (negative when the opponent moves).
    CONTESTED = ("contested", 0, -30, 30, 1);
    /// While the pieces share a region: +1 if, were its squares used up in turn,
    /// I would make the last move (the side to move does when their count is odd),
    /// -1 if not.
    PARITY = ("parity", 0, -100, 100, 5);
}

/// The feature values of `state` seen by `me`, indexed like [`PARAMS`].
pub fn features(state: &Isolation, me: Player) -> [i32; COUNT] {
    let opp = 1 - me;
    let free = state.free();
    let (mine, theirs) = (bit(state.position(me)), bit(state.position(opp)));
    let mut f = [0i32; COUNT];

    // Queen-distance layers from both pieces at once (Voronoi by queen moves).
    let rays = QueenRays::new(free);
    let (mut my_seen, mut op_seen) = (mine, theirs);
    let (mut my_front, mut op_front) = (mine, theirs);
    let (mut my_land, mut op_land, mut tied) = (0u32, 0u32, 0u32);
    let mut layer = 0;
    loop {
        // A piece whose region is used up adds nothing more; in separated
        // endgames that skips half the fills.
        let my_new = if my_front == 0 { 0 } else { rays.reach(my_front) & !my_seen };
        let op_new = if op_front == 0 { 0 } else { rays.reach(op_front) & !op_seen };
        if my_new | op_new == 0 {
            break;
        }
        layer += 1;
        my_land += (my_new & !op_seen & !op_new).count_ones();
        op_land += (op_new & !my_seen & !my_new).count_ones();
        tied += (my_new & op_new).count_ones();
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
    let i_move = state.side() == me;
    f[CONTESTED] = if i_move { tied as i32 } else { -(tied as i32) };

    let (w, h) = (state.width() as i32, state.height() as i32);
    let centre_distance = |sq: u8| {
        let (x, y) = xy(sq);
        (2 * x as i32 - (w - 1)).abs() + (2 * y as i32 - (h - 1)).abs()
    };
    f[CENTRALITY] = centre_distance(state.position(opp)) - centre_distance(state.position(me));
    let ((mx, my), (ox, oy)) = (xy(state.position(me)), xy(state.position(opp)));
    f[DISTANCE] = (mx as i32 - ox as i32).abs().max((my as i32 - oy as i32).abs());

    // Separated pieces: each can make at most its region's size in moves.
    // A queen move is a chain of king steps and a king step is a queen move,
    // so the layers' closure is each piece's region (`rules::region`).
    let (my_region, op_region) = (my_seen ^ mine, op_seen ^ theirs);
    if my_region & op_region == 0 {
        let (a, b) = (my_region.count_ones() as i32, op_region.count_ones() as i32);
        f[PARTITION_SPACE] = a - b;
        // The side to move runs out first when the counts tie.
        let i_outlast = if i_move { a > b } else { a >= b };
        f[PARTITION_WIN] = if i_outlast { 1 } else { -1 };
    } else {
        let shared = (my_region | op_region).count_ones();
        f[PARITY] = if (shared % 2 == 1) == i_move { 1 } else { -1 };
    }
    f
}

impl crate::search::Features<COUNT> for Isolation {
    #[inline]
    fn features(&self, me: Player) -> [i32; COUNT] {
        features(self, me)
    }
}
