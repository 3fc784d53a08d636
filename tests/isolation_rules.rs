//! Isolation's rules against the statement (golden example turn and game)
//! and against a plain, independent move generator (perft on every map).

use gridtune::game::{Game, Outcome, ToMove};
use gridtune::games::isolation::protocol::{parse_position, turn_block};
use gridtune::games::isolation::rules::{xy, IsolationMoves};
use gridtune::games::isolation::{Isolation, IsolationMap, IsolationMove};
use gridtune::maps::load_dir;
use gridtune::perft::perft;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;

mod common;
use common::plain::{isolation_moves, PlainRules};

const EXAMPLE_MAP: &str = "7 7\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n";

fn example() -> Isolation {
    IsolationMap::parse(EXAMPLE_MAP, "example").unwrap().start_state()
}

fn legal_xy(state: &Isolation, p: usize) -> Vec<(usize, usize)> {
    let mut moves = IsolationMoves::new();
    state.legal_moves(p, &mut moves);
    let mut v: Vec<_> = moves.iter().map(|m| m.xy()).collect();
    v.sort();
    v
}

#[test]
fn statement_example_turn_has_the_eleven_listed_squares() {
    let state = example();
    let mut expected = vec![
        (2, 1),
        (2, 0),
        (3, 1),
        (4, 0),
        (3, 2),
        (3, 3),
        (2, 3),
        (1, 3),
        (0, 4),
        (1, 1),
        (0, 0),
    ];
    expected.sort();
    assert_eq!(legal_xy(&state, 0), expected);
    assert_eq!(state.to_move(), ToMove::One(0));
}

/// The statement's complete short game: every block player 0 receives is
/// reproduced character for character, and the game ends with player 0 stuck
/// at (6, 0) after turn 6.
#[test]
fn statement_short_game_replays_exactly() {
    let transcript_blocks = [
        "turn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n",
        "turn 3\n2 1\n4 3\n...#...\n..0....\n.##.#..\n....1..\n..#.##.\n.......\n...#...\n",
        "turn 5\n5 1\n6 1\n...#...\n..#..01\n.##.#..\n....#..\n..#.##.\n.......\n...#...\n",
    ];
    let moves = [(2, 1), (4, 3), (5, 1), (6, 1), (6, 0), (5, 0)];
    let mut state = example();
    for (i, &(x, y)) in moves.iter().enumerate() {
        let p = i % 2;
        assert_eq!(state.to_move(), ToMove::One(p), "turn {}", i + 1);
        if p == 0 {
            assert_eq!(turn_block(&state), transcript_blocks[i / 2]);
            // The bot's side parses the block back to the same position.
            let (parsed, side) = parse_position(transcript_blocks[i / 2]).unwrap();
            assert_eq!((parsed, side), (state, 0));
        }
        assert!(
            legal_xy(&state, p).contains(&(x, y)),
            "turn {}: ({x}, {y}) not legal",
            i + 1
        );
        state.play(IsolationMove::from_xy(x, y));
    }
    assert_eq!(state.turn(), 7);
    assert_eq!(xy(state.position(0)), (6, 0));
    assert!(legal_xy(&state, 0).is_empty());
    assert_eq!(state.to_move(), ToMove::Over);
    assert_eq!(state.outcome(), Some(Outcome::win(1)));
}

#[test]
fn bitboard_moves_match_a_plain_generator_in_random_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..300 {
        let mut state = IsolationMap::generate(&mut rng).start_state();
        while let ToMove::One(p) = state.to_move() {
            assert_eq!(legal_xy(&state, p), isolation_moves(&state, p));
            assert_eq!(legal_xy(&state, 1 - p), isolation_moves(&state, 1 - p));
            let moves = isolation_moves(&state, p);
            let (x, y) = moves[rng.random_range(0..moves.len())];
            state.play(IsolationMove::from_xy(x, y));
        }
        assert!(isolation_moves(&state, state.side()).is_empty());
    }
}

#[test]
fn perft_matches_the_plain_generator_on_every_map() {
    for set in ["train", "holdout"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/isolation").join(set);
        for m in load_dir(&dir, IsolationMap::parse).unwrap() {
            let start = m.map.start_state();
            assert_eq!(perft(&start, 3), start.plain_perft(3), "{}", m.name);
        }
    }
}

/// Pinned counts for the statement's example board (checked against the
/// plain generator in tests/common/plain.rs), so a change to move generation shows up here.
#[test]
fn perft_of_the_statement_example() {
    let start = example();
    let expected = [11, 120, 1153, 10690, 90094];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(start.plain_perft(d as u32 + 1), n, "plain depth {}", d + 1);
        assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
    }
}
