//! Ataxx evaluation features from one side, and their weights. Standard
//! library only.

use super::rules::{dilate, neighbours, Ataxx, BOARD};
use crate::game::Player;

crate::declare_params! {
    /// My pieces minus the opponent's.
    MATERIAL = ("material", 100, 0, 300, 5);
    /// Empty squares I can spawn onto, minus the opponent's.
    SPAWNS = ("spawns", 8, -20, 60, 1);
    /// Empty squares only a jump of mine reaches, minus the opponent's.
    JUMPS = ("jumps", 1, -20, 30, 1);
    /// My pieces with no empty square next to them (nothing can land beside them), minus the opponent's.
    SAFE = ("safe", 10, -30, 60, 1);
    /// My pieces next to an empty square the opponent can reach, minus the reverse.
    EXPOSED = ("exposed", -15, -150, 20, 1);
    /// Empty squares with only my pieces around them, minus the opponent's.
    HOLES = ("holes", 5, -30, 200, 1);
    /// 1 when I am to move, -1 when the opponent is: the move in hand is
    /// worth pieces (it converts some), and a search that ends some lines an
    /// odd and others an even number of plies deep (reductions) compares
    /// them only when the evaluation counts it.
    TEMPO = ("tempo", 400, -200, 1000, 10);
}

/// The feature values of `state` for `me`, indexed like [`PARAMS`]. Whole-
/// board shifts (`dilate`, `neighbours`); the empty squares in a side's
/// one-step reach are its spawns, those in its two-step reach and not its
/// one-step reach are what only a jump reaches.
pub fn features(state: &Ataxx, me: Player) -> [i32; COUNT] {
    let empty = state.empty();
    let open = BOARD & !state.walls();
    let (mine, theirs) = (state.pieces(me), state.pieces(1 - me));
    let (my_near, op_near) = (dilate(mine), dilate(theirs));
    let (my_reach, op_reach) = (dilate(my_near) & empty, dilate(op_near) & empty);
    let count = |b: u64| b.count_ones() as i32;
    let mut f = [0i32; COUNT];
    f[MATERIAL] = count(mine) - count(theirs);
    f[SPAWNS] = count(my_near & empty) - count(op_near & empty);
    f[JUMPS] = count(my_reach & !my_near) - count(op_reach & !op_near);
    let next_to_empty = neighbours(empty);
    f[SAFE] = count(mine & !next_to_empty) - count(theirs & !next_to_empty);
    f[EXPOSED] = count(mine & neighbours(op_reach)) - count(theirs & neighbours(my_reach));
    // A hole: an empty square with a non-wall neighbour, all of one side's.
    let holes = empty & neighbours(open);
    f[HOLES] = count(holes & !neighbours(open & !mine)) - count(holes & !neighbours(open & !theirs));
    f[TEMPO] = if state.side() == me { 1 } else { -1 };
    f
}

impl crate::search::Features<COUNT> for Ataxx {
    const UNIT: Option<usize> = Some(MATERIAL);

    #[inline]
    fn features(&self, me: Player) -> [i32; COUNT] {
        features(self, me)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mix64;
    use crate::games::ataxx::rules::{DOUBLES, SINGLES};

    fn spread(b: u64, masks: &[u64; 49]) -> u64 {
        let mut out = 0;
        let mut rest = b;
        while rest != 0 {
            out |= masks[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        out
    }

    /// The features as first written, square by square, to hold the shifts to.
    fn by_squares(state: &Ataxx, me: Player) -> [i32; COUNT] {
        let empty = state.empty();
        let (mine, theirs) = (state.pieces(me), state.pieces(1 - me));
        let (my_near, op_near) = (spread(mine, &SINGLES), spread(theirs, &SINGLES));
        let (my_far, op_far) = (spread(mine, &DOUBLES), spread(theirs, &DOUBLES));
        let (my_reach, op_reach) = ((my_near | my_far) & empty, (op_near | op_far) & empty);
        let next_to_empty = spread(empty, &SINGLES);
        let count = |b: u64| b.count_ones() as i32;
        let mut f = [0i32; COUNT];
        f[MATERIAL] = count(mine) - count(theirs);
        f[SPAWNS] = count(my_near & empty) - count(op_near & empty);
        f[JUMPS] = count(my_far & !my_near & empty) - count(op_far & !op_near & empty);
        f[SAFE] = count(mine & !next_to_empty) - count(theirs & !next_to_empty);
        f[EXPOSED] = count(mine & spread(op_reach, &SINGLES)) - count(theirs & spread(my_reach, &SINGLES));
        let (mut my_holes, mut op_holes) = (0, 0);
        let mut e = empty;
        while e != 0 {
            let sq = e.trailing_zeros() as usize;
            e &= e - 1;
            let around = SINGLES[sq] & !state.walls();
            if around != 0 && around & !mine == 0 {
                my_holes += 1;
            } else if around != 0 && around & !theirs == 0 {
                op_holes += 1;
            }
        }
        f[HOLES] = my_holes - op_holes;
        f[TEMPO] = if state.side() == me { 1 } else { -1 };
        f
    }

    #[test]
    fn shifts_give_the_square_by_square_features() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for i in 0..20_000 {
            // Boards from nearly empty to nearly full, with and without walls.
            let mut draw = || {
                x = mix64(x);
                x
            };
            let density = i % 4;
            let mut fill = draw();
            for _ in 0..density {
                fill |= draw();
            }
            let walls = if i % 3 == 0 { draw() & draw() & draw() & BOARD } else { 0 };
            let split = draw();
            let x_pieces = fill & split & BOARD & !walls;
            let o_pieces = fill & !split & BOARD & !walls;
            let state = Ataxx::new([x_pieces, o_pieces], walls, i % 2, false);
            for me in 0..2 {
                assert_eq!(features(&state, me), by_squares(&state, me), "{state:?} for {me}");
            }
        }
    }
}
