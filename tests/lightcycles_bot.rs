//! lightcycles-bot as a real process: the statement's game, sloppy input,
//! clean exit, and 40 games against a random safe-move bot on generated maps.

use gridtune::game::{Game, ToMove};
use gridtune::games::lightcycles::protocol::{header, parse_reply, turn_block};
use gridtune::games::lightcycles::{Direction, LightCycles, LightCyclesMap};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

mod common;
use common::BotProcess;

fn start() -> BotProcess {
    BotProcess::start(env!("CARGO_BIN_EXE_lightcycles-bot"))
}

const TRANSCRIPT: [&str; 3] = [
    "turn 1\n3 3\n11 7\n###############\n#...##........#\n#...##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###.........#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n",
    "turn 2\n3 2\n11 6\n###############\n#...##........#\n#..0##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###......1..#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n",
    "turn 3\n3 1\n10 6\n###############\n#..0##........#\n#..0##....#####\n#..0##....#####\n#.........###.#\n#.###.....###.#\n#.###.....11..#\n#####....##1..#\n#####....##...#\n#........##...#\n###############\n",
];

fn play_transcript(me: usize, sloppy: bool) {
    let mut bot = start();
    let first = format!("15 11 {me}\n");
    bot.send(&if sloppy { common::sloppy(&first) } else { first });
    for (i, block) in TRANSCRIPT.iter().enumerate() {
        let text = if sloppy {
            common::sloppy(block)
        } else {
            block.to_string()
        };
        let (reply, _) = bot.ask(&text);
        let d = parse_reply(&reply).unwrap_or_else(|e| panic!("turn {}: {e}", i + 1));
        // Where a safe move exists the bot takes one.
        let (state, _) =
            gridtune::games::lightcycles::protocol::parse_position(&format!("15 11 {me}\n{block}")).unwrap();
        if Direction::ALL.iter().any(|&s| state.is_safe(me, s)) {
            assert!(state.is_safe(me, d), "turn {}: {d} is fatal", i + 1);
        }
    }
    assert!(bot.finish().success());
}

#[test]
fn plays_the_statement_game_from_both_sides_and_exits_cleanly() {
    play_transcript(0, false);
    play_transcript(1, false);
}

#[test]
fn ignores_blank_lines_trailing_spaces_and_carriage_returns() {
    play_transcript(0, true);
}

#[test]
fn exits_cleanly_when_stdin_closes_before_any_turn() {
    let mut bot = start();
    bot.send("15 11 1\n");
    assert!(bot.finish().success());
}

/// Plays as the referee: both bikes get the statement's input each turn; the
/// other bike moves at random among the moves that do not crash at once.
#[test]
fn forty_games_against_a_random_safe_bot_without_an_invalid_line() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(40);
    let mut slowest = Duration::ZERO;
    let (mut replies, mut points) = (0, 0.0);
    for game in 0..40 {
        let map = LightCyclesMap::generate(&mut rng);
        let me = game % 2;
        let mut state: LightCycles = map.start_state();
        let mut bot = start();
        bot.send(&header(&state, me));
        while state.to_move() == ToMove::All {
            let (reply, took) = bot.ask(&turn_block(&state));
            slowest = slowest.max(took);
            replies += 1;
            let mine = parse_reply(&reply).unwrap_or_else(|e| panic!("game {game}, turn {}: {e}", state.turns() + 1));
            let safe: Vec<Direction> = Direction::ALL
                .into_iter()
                .filter(|&d| state.is_safe(1 - me, d))
                .collect();
            let theirs = if safe.is_empty() {
                Direction::Up
            } else {
                safe[rng.random_range(0..safe.len())]
            };
            let mut joint = [mine; 2];
            joint[1 - me] = theirs;
            state.play_joint(&joint);
        }
        points += state.outcome().unwrap().points[me];
        assert!(bot.finish().success(), "game {game}: bad exit");
    }
    // Reported, not asserted: wall-clock time depends on the machine's load.
    println!(
        "lightcycles-bot: {points}/40 points, {replies} replies, slowest reply {} ms",
        slowest.as_millis()
    );
    assert!(points >= 34.0, "only {points}/40 points against random safe moves");
}
