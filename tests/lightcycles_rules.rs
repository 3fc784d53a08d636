//! Light Cycles' rules against the statement (golden turn and game, every
//! elimination rule) and against a plain grid implementation in random games.

use gridtune::bitboard::Bits512;
use gridtune::game::{Game, Outcome, ToMove};
use gridtune::games::lightcycles::features::{chamber_space, fill_estimate, reach};
use gridtune::games::lightcycles::protocol::{parse_position, turn_block};
use gridtune::games::lightcycles::rules::{cell, flood, Crash, Direction, LightCycles, TURN_LIMIT};
use gridtune::games::lightcycles::LightCyclesMap;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use Direction::{Down, Left, Right, Up};

const EXAMPLE_MAP: &str = "15 11
###############
#...##........#
#...##....#####
#..0##....#####
#.........###.#
#.###.....###.#
#.###.........#
#####....##1..#
#####....##...#
#........##...#
###############
";

const TRANSCRIPT: [&str; 3] = [
    "turn 1\n3 3\n11 7\n###############\n#...##........#\n#...##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###.........#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n",
    "turn 2\n3 2\n11 6\n###############\n#...##........#\n#..0##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###......1..#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n",
    "turn 3\n3 1\n10 6\n###############\n#..0##........#\n#..0##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###.....11..#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n",
];

fn example() -> LightCycles {
    LightCyclesMap::parse(EXAMPLE_MAP, "example").unwrap().start_state()
}

fn safe(state: &LightCycles, p: usize) -> Vec<Direction> {
    Direction::ALL.into_iter().filter(|&d| state.is_safe(p, d)).collect()
}

#[test]
fn statement_example_turn_has_up_and_left_safe() {
    let (state, me) = parse_position(&format!("15 11 0\n{}", TRANSCRIPT[1])).unwrap();
    assert_eq!(me, 0);
    assert_eq!(safe(&state, 0), vec![Up, Left]);
    let mut right = state;
    right.play_joint(&[Right, Left]);
    assert_eq!(right.elimination(0).unwrap().crash, Crash::Wall);
    let mut down = state;
    down.play_joint(&[Down, Left]);
    assert_eq!(down.elimination(0).unwrap().crash, Crash::Trail { owner: 0 });
}

#[test]
fn statement_short_game_replays_exactly() {
    let moves = [(Up, Up), (Up, Left), (Up, Left)];
    let mut state = example();
    for (i, &(a, b)) in moves.iter().enumerate() {
        assert_eq!(state.to_move(), ToMove::All);
        assert_eq!(turn_block(&state), TRANSCRIPT[i], "turn {}", i + 1);
        assert_eq!(
            parse_position(&format!("15 11 1\n{}", TRANSCRIPT[i])).unwrap(),
            (state, 1)
        );
        state.play_joint(&[a, b]);
    }
    assert_eq!(state.to_move(), ToMove::Over);
    assert_eq!(state.outcome(), Some(Outcome::win(1)));
    assert_eq!(state.result_line().unwrap(), "player 0 hit a wall at (3,0) on turn 3");
    assert_eq!(state.head_xy(1), (9, 6), "the survivor still moved");
}

/// A small open board (no border walls) with the bikes at `a` and `b`.
fn open_board(a: (usize, usize), b: (usize, usize)) -> LightCycles {
    LightCycles::new(15, 10, Bits512::EMPTY, [a, b])
}

#[test]
fn head_on_swap_eliminates_both() {
    let mut s = open_board((5, 5), (6, 5));
    s.play_joint(&[Right, Left]);
    assert_eq!(s.outcome(), Some(Outcome::draw()));
    assert_eq!(s.elimination(0).unwrap().crash, Crash::Bike);
    assert_eq!(s.elimination(1).unwrap().crash, Crash::Bike);
    assert!(s
        .result_line()
        .unwrap()
        .starts_with("draw: player 0 hit player 1's bike at (6,5) on turn 1"));
}

#[test]
fn moving_into_the_other_bikes_cell_is_fatal_even_as_it_leaves() {
    let mut s = open_board((5, 5), (6, 5));
    s.play_joint(&[Right, Right]);
    assert_eq!(s.outcome(), Some(Outcome::win(1)));
    assert_eq!(s.elimination(0).unwrap().crash, Crash::Bike);
    assert_eq!(s.head_xy(1), (7, 5));
}

#[test]
fn same_empty_cell_eliminates_both() {
    let mut s = open_board((5, 5), (7, 5));
    s.play_joint(&[Right, Left]);
    assert_eq!(s.outcome(), Some(Outcome::draw()));
    for p in 0..2 {
        let e = s.elimination(p).unwrap();
        assert_eq!((e.crash, e.at, e.turn), (Crash::SameCell, (6, 5), 1));
    }
}

#[test]
fn reversing_and_other_trails_and_the_edge_are_fatal() {
    let mut s = open_board((5, 5), (9, 5));
    s.play_joint(&[Right, Up]);
    let mut reverse = s;
    reverse.play_joint(&[Left, Up]);
    assert_eq!(reverse.elimination(0).unwrap().crash, Crash::Trail { owner: 0 });
    assert_eq!(reverse.outcome(), Some(Outcome::win(1)));
    // Player 1 left (9, 5); player 0 runs into that trail three turns later.
    let mut chase = s;
    for _ in 0..2 {
        chase.play_joint(&[Right, Up]);
    }
    assert_eq!(chase.head_xy(0), (8, 5));
    chase.play_joint(&[Right, Up]);
    assert_eq!(chase.elimination(0).unwrap().crash, Crash::Trail { owner: 1 });
    assert_eq!(
        chase.result_line().unwrap(),
        "player 0 hit player 1's trail at (9,5) on turn 4"
    );
    // Off the open board's top edge.
    let mut edge = open_board((3, 0), (11, 9));
    edge.play_joint(&[Up, Up]);
    assert_eq!(edge.elimination(0).unwrap().crash, Crash::OffBoard);
    assert_eq!(edge.elimination(0).unwrap().at, (3, -1));
    assert_eq!(edge.outcome(), Some(Outcome::win(1)));
}

#[test]
fn a_failed_bot_is_out_before_moving_and_the_other_still_moves() {
    let mut s = open_board((5, 5), (9, 5));
    s.play_turn([None, Some(Up)]);
    assert_eq!(s.outcome(), Some(Outcome::win(1)));
    assert_eq!(s.elimination(0).unwrap().crash, Crash::Failed);
    assert_eq!(s.head_xy(1), (9, 4));
    assert_eq!(s.result_line().unwrap(), "player 0 failed to move on turn 1");
    // The other bike still moves, and can still crash: a draw.
    let mut both = open_board((5, 5), (6, 5));
    both.play_turn([None, Some(Left)]);
    assert_eq!(both.outcome(), Some(Outcome::draw()));
    assert_eq!(both.elimination(1).unwrap().crash, Crash::Bike);
}

#[test]
fn three_hundred_turns_is_a_draw() {
    let walls = Bits512::EMPTY;
    let s = LightCycles::from_parts(
        15,
        10,
        walls,
        [Bits512::bit(cell(2, 2)), Bits512::bit(cell(12, 7))],
        [(2, 2), (12, 7)],
        TURN_LIMIT - 1,
    );
    let mut last = s;
    last.play_joint(&[Up, Down]);
    assert_eq!(last.to_move(), ToMove::Over);
    assert_eq!(last.outcome(), Some(Outcome::draw()));
    assert_eq!(last.result_line().unwrap(), "draw: 300 turns played");
}

/// The rules the plain way, on a grid of chars.
struct Plain {
    w: i32,
    h: i32,
    grid: Vec<Vec<u8>>,
    heads: [(i32, i32); 2],
    over: Option<[bool; 2]>,
}

impl Plain {
    fn new(state: &LightCycles) -> Self {
        let grid = state.rows().into_iter().map(|r| r.into_bytes()).collect();
        let heads = [0, 1].map(|p| {
            let (x, y) = state.head_xy(p);
            (x as i32, y as i32)
        });
        Plain {
            w: state.width() as i32,
            h: state.height() as i32,
            grid,
            heads,
            over: None,
        }
    }

    fn step(&mut self, moves: [Direction; 2]) {
        let targets = [0, 1].map(|p| {
            let (dx, dy) = moves[p].delta();
            (self.heads[p].0 + dx, self.heads[p].1 + dy)
        });
        let mut dead = [false; 2];
        for p in 0..2 {
            let (x, y) = targets[p];
            dead[p] = x < 0 || y < 0 || x >= self.w || y >= self.h || self.grid[y as usize][x as usize] != b'.';
        }
        if targets[0] == targets[1] {
            dead = [true, true];
        }
        for p in 0..2 {
            if !dead[p] {
                let (x, y) = targets[p];
                self.grid[y as usize][x as usize] = b'0' + p as u8;
                self.heads[p] = (x, y);
            }
        }
        if dead[0] || dead[1] {
            self.over = Some(dead);
        }
    }
}

#[test]
fn bitboard_rules_match_a_plain_grid_in_random_games() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for game in 0..300 {
        let mut state = LightCyclesMap::generate(&mut rng).start_state();
        let mut plain = Plain::new(&state);
        while state.to_move() == ToMove::All {
            // Mostly safe moves, so games last; sometimes anything.
            let moves = [0, 1].map(|p| {
                let safe = safe(&state, p);
                if safe.is_empty() || rng.random_bool(0.02) {
                    Direction::ALL[rng.random_range(0..4)]
                } else {
                    safe[rng.random_range(0..safe.len())]
                }
            });
            state.play_joint(&moves);
            plain.step(moves);
            let rows: Vec<Vec<u8>> = state.rows().into_iter().map(|r| r.into_bytes()).collect();
            assert_eq!(rows, plain.grid, "game {game}");
            assert_eq!(
                state.to_move() == ToMove::Over,
                plain.over.is_some() || state.turns() >= TURN_LIMIT
            );
        }
        if let Some(dead) = plain.over {
            let expected = match dead {
                [true, true] => Outcome::draw(),
                [true, false] => Outcome::win(1),
                _ => Outcome::win(0),
            };
            assert_eq!(state.outcome(), Some(expected), "game {game}");
        }
    }
}

#[test]
fn features_on_small_shapes() {
    // A 3x3 open room with the head in a corner: the parity bound allows 8.
    let mut region = Bits512::EMPTY;
    for y in 1..4 {
        for x in 1..4 {
            region.set(cell(x, y));
        }
    }
    let head = cell(1, 1);
    region.clear(head);
    assert_eq!(fill_estimate(head, region), 8);
    assert_eq!(chamber_space(head, region), 8);
    // A corridor from the head at (0,5) to (6,5), with a pocket of 3 cells
    // below (3,5) and one of 2 above (5,5).
    let mut corridor = Bits512::EMPTY;
    for x in 1..7 {
        corridor.set(cell(x, 5));
    }
    for y in 6..9 {
        corridor.set(cell(3, y));
    }
    for y in 3..5 {
        corridor.set(cell(5, y));
    }
    let head = cell(0, 5);
    // The region is a tree: the chamber tree's value is its longest path from
    // the head: three corridor cells, then two more and the pocket of 2 above
    // (7), rather than the pocket of 3 below (6) or the corridor's end (6).
    assert_eq!(chamber_space(head, corridor), 7);
    assert_eq!(flood(Bits512::bit(head), corridor).count(), 11);
}

#[test]
fn voronoi_splits_a_symmetric_open_board_evenly() {
    let s = open_board((3, 4), (11, 5));
    let r = reach(&s, 0);
    assert_eq!(r.mine.count(), r.theirs.count());
    assert!(!r.separated());
    assert_eq!(r.my_reach.count(), 15 * 10 - 2);
}
