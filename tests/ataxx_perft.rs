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
