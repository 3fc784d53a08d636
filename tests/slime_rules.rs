//! Slime's rules as the original control program applies them: the
//! statement's three figures, GreedySlime's example, the control program's
//! quirks, perft against a plain implementation, and random-game checks.

use gridtune::bots::Bot;
use gridtune::game::{Game, ToMove};
use gridtune::games::slime::judges::GreedySlime;
use gridtune::games::slime::protocol::{argument, parse_argument, parse_reply};
use gridtune::games::slime::rules::{SlimeMoves, MAX_MOVES, MAX_SIZE, TURN_LIMIT};
use gridtune::games::slime::{Slime, SlimeMap, SlimeMove};
use gridtune::perft::perft;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;
use common::plain::{PlainRules, PlainSlime};

/// An 8x8 board with `fragment` in its top-left corner, player 1 to move.
fn board(fragment: &[&str]) -> Slime {
    let mut rows = vec![".".repeat(8); 8];
    for (r, f) in fragment.iter().enumerate() {
        rows[r] = format!("{f}{}", &".".repeat(8)[f.len()..]);
    }
    parse_argument(&format!("1,{}", rows.join(","))).unwrap().0
}

fn fragment(state: &Slime, height: usize, width: usize) -> Vec<String> {
    state
        .rows()
        .into_iter()
        .take(height)
        .map(|r| r[..width].to_string())
        .collect()
}

#[test]
fn the_statements_three_figures() {
    let cases = [
        (
            "spread",
            ["11.22", "1..22", "..22.", "....."],
            ((0, 1), (1, 2)),
            ["11.12", "1.112", "..11.", "....."],
        ),
        (
            "jump",
            ["11..2", "1...2", "....2", "...22"],
            ((0, 1), (2, 3)),
            ["1...2", "1...1", "...11", "...11"],
        ),
        (
            "merge",
            ["11..2", "1.1.2", "....2", "..222"],
            ((0, 1), (1, 2)),
            ["1.112", "11112", ".1112", "..222"],
        ),
    ];
    for (name, before, (from, to), after) in cases {
        let mut state = board(&before);
        assert!(state.apply(0, SlimeMove::new(from, to)), "{name} was refused");
        assert_eq!(fragment(&state, 4, 5), after, "{name}");
    }
}

#[test]
fn greedy_slimes_example_prints_4_0_2_2() {
    let arg = "3,11111222,11111444,11.22444,.1222.4.,333.3244,33333.44,333...44,333....4";
    let (state, seat) = parse_argument(arg).unwrap();
    assert_eq!(seat, 2);
    assert_eq!(argument(&state, seat), arg);
    assert_eq!(GreedySlime.choose(&state, seat).to_string(), "4 0 2 2");
}

#[test]
fn the_control_programs_quirks() {
    let state = board(&["11..2", "1...2", "....2", "...22"]);
    let refused = |m: SlimeMove| {
        let mut s = state;
        !s.apply(0, m) && s == state
    };
    // Onto its own slime at distance 2: ignored.
    let mut own2 = board(&["1.1", "...", "..."]);
    assert!(!own2.apply(0, SlimeMove::new((0, 0), (0, 2))));
    // From a square it does not hold; onto an enemy; three away; staying put;
    // off the board: all passes.
    assert!(refused(SlimeMove::new((0, 4), (0, 3))));
    assert!(refused(SlimeMove::new((1, 0), (0, 4))));
    assert!(refused(SlimeMove::new((0, 1), (1, 4))));
    assert!(refused(SlimeMove::new((0, 0), (0, 0))));
    assert!(refused(SlimeMove::new((0, 1), (0, 8))));
    assert!(refused(SlimeMove::PASS));
    // Onto its own slime at distance 1 is a merge, and is applied.
    assert!(!refused(SlimeMove::new((1, 0), (0, 0))));
    // A reply must end its line: without the newline it is "not enough input".
    assert_eq!(parse_reply(b"4 0 2 2\n"), Some(SlimeMove::new((4, 0), (2, 2))));
    assert_eq!(parse_reply(b"4 0 2 2"), None);
    assert_eq!(parse_reply(b"4 0 2 2 \n"), Some(SlimeMove::new((4, 0), (2, 2))));
    assert_eq!(parse_reply(b"4 0 2\n"), None);
    assert_eq!(parse_reply(b"a b c d\n"), None);
    assert_eq!(parse_reply(b""), None);
    assert_eq!(
        parse_reply(b"0 0 0 0\n").map(|m| state.clone().apply(0, m)),
        Some(false)
    );
}

#[test]
fn players_without_slime_still_take_turns_and_the_game_ends_full_or_at_2000() {
    // Player 2 has nothing; its turn comes and it can only pass.
    let (mut s, _) =
        parse_argument("1,1......3,........,........,........,........,........,........,4.......").unwrap();
    s.play(SlimeMove::new((0, 0), (1, 1)));
    assert_eq!(s.to_move(), ToMove::One(1));
    let mut moves = SlimeMoves::new();
    s.legal_moves(1, &mut moves);
    assert_eq!(moves.as_slice(), &[SlimeMove::PASS]);
    assert_eq!(perft(&s, 1), 1, "a forced pass counts once");
    s.play(SlimeMove::PASS);
    assert_eq!(s.to_move(), ToMove::One(2));
    // A full board ends the game; score = squares held.
    let full = parse_argument("1,11112222,11112222,11112222,11112222,33334444,33334444,33334444,33334443")
        .unwrap()
        .0;
    assert_eq!(full.to_move(), ToMove::Over);
    let outcome = full.outcome().unwrap();
    assert_eq!(outcome.points, [16.0 / 64.0, 16.0 / 64.0, 17.0 / 64.0, 15.0 / 64.0]);
    assert_eq!(perft(&full, 1), 0, "0 below a full board");
    // The turn limit.
    let start = Slime::start(8);
    let mut late = Slime::from_squares(8, [0, 1, 2, 3].map(|p| start.squares(p)), TURN_LIMIT - 1);
    assert_eq!(late.to_move(), ToMove::One(3));
    late.play(SlimeMove::PASS);
    assert_eq!(late.to_move(), ToMove::Over);
    assert_eq!(late.outcome().unwrap().points, [1.0 / 64.0; 4]);
}

#[test]
fn perft_matches_a_plain_implementation() {
    let start = Slime::start(8);
    for depth in 1..=4 {
        assert_eq!(perft(&start, depth), start.plain_perft(depth), "depth {depth}");
    }
    // Pinned: each corner has 3 spreads and 5 jumps.
    assert_eq!(perft(&start, 1), 8);
    assert_eq!(perft(&start, 2), 64);
}

#[test]
fn random_games_match_the_plain_implementation() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for game in 0..200 {
        let n = rng.random_range(4..=10);
        let mut state = SlimeMap::standard(n).start;
        let mut plain = PlainSlime::from(&state);
        let mut moves = SlimeMoves::new();
        while let ToMove::One(p) = state.to_move() {
            state.legal_moves(p, &mut moves);
            let mut expected: Vec<SlimeMove> = plain
                .actions(p)
                .into_iter()
                .map(|(f, t)| SlimeMove::new(f, t))
                .collect();
            expected.push(SlimeMove::PASS);
            let mut got = moves.as_slice().to_vec();
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "game {game}\n{state}");
            // The bulk count (perft's last ply) and the kept empty squares.
            for q in 0..4 {
                assert_eq!(
                    state.action_count(q) as usize,
                    plain.actions(q).len(),
                    "game {game} seat {q}\n{state}"
                );
            }
            let held = (0..4).fold(0, |acc, q| acc | state.squares(q));
            assert_eq!(state.empty(), state.board_mask() & !held, "game {game}\n{state}");
            let m = moves.as_slice()[rng.random_range(0..moves.len())];
            if let Some((a, b, c, d)) = m.coords() {
                plain.apply(p, ((a, b), (c, d)));
            }
            state.play(m);
            assert_eq!(PlainSlime::from(&state).grid, plain.grid, "game {game}");
        }
    }
}

/// Perft's two-ply count knows the turn limit: the last turn's moves lead
/// nowhere, the one before's each to the next seat's moves.
#[test]
fn perft_two_plies_stops_at_the_turn_limit() {
    let start = SlimeMap::standard(6).start;
    let slime = [0, 1, 2, 3].map(|p| start.squares(p));
    for (turns, expected) in [(TURN_LIMIT - 1, 0), (TURN_LIMIT - 2, 8 * 8)] {
        let state = Slime::from_squares(6, slime, turns);
        assert_eq!(state.perft_two_plies(state.side()), expected, "{turns} turns played");
    }
}

/// Perft's two-ply count, which counts most of the next seat's moves in
/// bulk, agrees with playing every move and counting what follows, on random
/// boards of every size and density: the next seat with many slimes, few or
/// none, boards one square from full, and every seat to move.
#[test]
fn perft_two_plies_matches_playing_each_move_on_random_boards() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let mut checked = 0;
    for _ in 0..3000 {
        let size = rng.random_range(4..=MAX_SIZE);
        let empty_share = [0.02, 0.1, 0.3, 0.6, 0.9][rng.random_range(0..5)];
        // Seat weights: some seats hold little or nothing.
        let weights: [u32; 4] = std::array::from_fn(|_| [0, 1, 3, 10][rng.random_range(0..4)]);
        let total: u32 = weights.iter().sum::<u32>().max(1);
        let mut slime = [0u128; 4];
        for r in 0..size {
            for c in 0..size {
                if rng.random::<f64>() < empty_share {
                    continue;
                }
                let mut pick = rng.random_range(0..total);
                for (seat, &w) in weights.iter().enumerate() {
                    if pick < w {
                        slime[seat] |= 1u128 << (r * 12 + c);
                        break;
                    }
                    pick -= w;
                }
            }
        }
        let state = Slime::from_squares(size, slime, rng.random_range(0..8));
        let ToMove::One(p) = state.to_move() else { continue };
        assert_eq!(
            state.perft_two_plies(p),
            gridtune::perft::after_each_move(&state, p, 1),
            "{size}x{size}, seat {} to move:\n{}",
            p + 1,
            state.rows().join("\n")
        );
        checked += 1;
    }
    assert!(checked > 2500, "only {checked} boards had a seat to move");
}

/// `MAX_MOVES` is the count of ordered neighbour pairs plus unordered pairs
/// two apart on the largest board, plus the pass; boards that come near it
/// list every action without overflowing.
#[test]
fn max_moves_bounds_the_densest_boards() {
    let cells: Vec<(usize, usize)> = (0..MAX_SIZE).flat_map(|r| (0..MAX_SIZE).map(move |c| (r, c))).collect();
    let distance = |(a, b): (usize, usize), (c, d): (usize, usize)| a.abs_diff(c).max(b.abs_diff(d));
    let pairs = |k| {
        cells
            .iter()
            .flat_map(|&a| cells.iter().filter(move |&&b| distance(a, b) == k))
            .count()
    };
    assert_eq!(MAX_MOVES, pairs(1) + pairs(2) / 2 + 1);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut moves = SlimeMoves::new();
    for _ in 0..200 {
        let mut slime = [0u128; 4];
        for &(r, c) in &cells {
            if rng.random_range(0..3) != 0 {
                slime[0] |= 1u128 << (r * 12 + c);
            }
        }
        let state = Slime::from_squares(MAX_SIZE, slime, 0);
        state.legal_moves(0, &mut moves);
        assert_eq!(moves.len(), state.action_count(0) as usize + 1);
        assert!(moves.len() <= MAX_MOVES);
    }
}

/// The arena tells a game stopped by the 2,000-turn limit from one played
/// out: four bots that always pass reach the limit; four greedy ones fill
/// the board.
#[test]
fn the_arena_records_whether_the_turn_limit_ended_the_game() {
    use gridtune::arena::{play_seated, EndReason};
    use gridtune::bots::BotSpec;
    use gridtune::games::prelude::*;
    let map = Slime::parse_map(
        "1......2\n........\n........\n........\n........\n........\n........\n3......4\n",
        "8x8",
    )
    .unwrap();
    let table = |judge: &str| [0; 4].map(|_| BotSpec::Judge(judge.to_string()));
    let passing = table("death_slime");
    let record = play_seated::<Slime>(&map, &passing.each_ref(), 1, false);
    assert_eq!(record.end, EndReason::TurnLimit);
    assert_eq!(record.moves.len(), TURN_LIMIT as usize);
    let greedy = table("greedy_slime");
    assert_eq!(
        play_seated::<Slime>(&map, &greedy.each_ref(), 1, false).end,
        EndReason::Normal
    );
}
