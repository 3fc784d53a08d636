//! Ataxx move generation against the public libataxx perft counts.

use gridtune::games::ataxx::Ataxx;
use gridtune::perft::perft;

fn check(fen: &str, counts: &[u64]) {
    let start = Ataxx::from_fen(fen).unwrap();
    for (d, &n) in counts.iter().enumerate() {
        assert_eq!(perft(&start, d as u32 + 1), n, "{fen} depth {}", d + 1);
    }
}

#[test]
fn start_position() {
    check("x5o/7/7/7/7/7/o5x x 0 1", &[16, 256, 6460, 155888, 4752668]);
}

/// Walls change the counts (libataxx's wall positions).
#[test]
fn positions_with_walls() {
    check("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", &[14, 196, 4184, 86528, 2266352]);
    check("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", &[14, 196, 4100, 83104, 2114588]);
    check("x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1", &[16, 256, 5948, 133264, 3639856]);
}

/// A side with no move passes, and the pass is one node.
#[test]
fn forced_passes_count_once() {
    check("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", &[1, 75, 249, 14270, 452980]);
    check("7/7/7/7/xxxxxxx/xxxxxxx/ooooooo o 0 1", &[1, 75, 249, 14270, 452980]);
    check("7/7/7/7/ooooooo/ooooooo/xxxxxxx o 0 1", &[75, 249, 14270, 452980]);
}

/// No pieces: the game is over and nothing follows.
#[test]
fn an_empty_board_is_over() {
    check("7/7/7/7/7/7/7 x 0 1", &[0, 0]);
}

#[test]
fn bad_fens_say_what_is_wrong() {
    let err = |f: &str| Ataxx::from_fen(f).unwrap_err().to_string();
    assert_eq!(err("x5o/7/7/7/7/o5x x"), "bad FEN: 6 ranks, expected 7");
    assert_eq!(err("x5o/7/7/7/7/7/o4x x"), "bad FEN: rank 1 has 6 squares, expected 7");
    assert_eq!(err("x5o/7/7/7/7/7/o5x z"), "bad FEN: side to move `z`: expected x or o");
    assert_eq!(err("x5q/7/7/7/7/7/o5x x"), "bad FEN: unexpected `q` in rank 7");
}

mod draws_and_protocol {
    use gridtune::game::{Game, Outcome, ToMove};
    use gridtune::games::ataxx::protocol::{parse_position, read_turn, turn_input, RowOrder};
    use gridtune::games::ataxx::rules::TURN_LIMIT;
    use gridtune::games::ataxx::{Ataxx, AtaxxMove};

    /// Two jumps back and forth by each side bring the start back: the third
    /// time it stands is a draw.
    #[test]
    fn threefold_repetition_draws() {
        let mut s = Ataxx::from_fen("x5o/7/7/7/7/7/o5x x 0 1").unwrap().with_draws(true);
        let sq = |name: &str| gridtune::games::ataxx::protocol::parse_square(name).unwrap();
        let cycle = [("a7", "c7"), ("g7", "e7"), ("c7", "a7"), ("e7", "g7")];
        for round in 0..2 {
            for (from, to) in cycle {
                assert!(matches!(s.to_move(), ToMove::One(_)), "round {round}");
                s.play(AtaxxMove::jump(sq(from), sq(to)));
            }
        }
        assert_eq!(s.to_move(), ToMove::Over);
        assert_eq!(s.outcome(), Some(Outcome::draw()));
        // Without the draw rules (perft) the game goes on.
        let mut t = Ataxx::from_fen("x5o/7/7/7/7/7/o5x x 0 1").unwrap();
        for _ in 0..2 {
            for (from, to) in cycle {
                t.play(AtaxxMove::jump(sq(from), sq(to)));
            }
        }
        assert!(matches!(t.to_move(), ToMove::One(0)));
    }

    #[test]
    fn three_hundred_turns_draw() {
        let sq = |name: &str| gridtune::games::ataxx::protocol::parse_square(name).unwrap();
        let s = Ataxx::from_fen("x5o/7/7/7/7/7/o5x x 0 1")
            .unwrap()
            .with_draws(true)
            .with_plies(TURN_LIMIT - 1);
        assert!(matches!(s.to_move(), ToMove::One(0)));
        let mut last = s.clone();
        last.play(AtaxxMove::spawn(sq("b6")));
        assert_eq!(last.to_move(), ToMove::Over);
        assert_eq!(
            last.outcome(),
            Some(Outcome::draw()),
            "x is ahead on pieces, but it is a draw"
        );
        // Without the draw rules the same move leaves the game going.
        let mut free = s.with_draws(false);
        free.play(AtaxxMove::spawn(sq("b6")));
        assert!(matches!(free.to_move(), ToMove::One(1)));
    }

    #[test]
    fn turn_input_reads_back_in_either_row_order() {
        let start = Ataxx::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
        for order in [RowOrder::TopFirst, RowOrder::BottomFirst] {
            let text = format!("0\n{}", turn_input(&start, "null", order));
            let (state, me) = parse_position(&text).unwrap();
            assert_eq!(me, 0);
            assert_eq!(state.rows(), start.rows(), "{order:?}");
            let lines: Vec<&str> = text.lines().collect();
            let (_, listed) = read_turn(&lines[1..8], &lines[10..], 0).unwrap();
            assert_eq!(listed.len(), 14);
        }
    }
}
