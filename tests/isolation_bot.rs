//! isolation-bot as a real process: the statement's game, sloppy input, clean
//! exit, and 40 games against a random legal-move bot on generated maps.

use gridtune::game::{Game, ToMove};
use gridtune::games::isolation::protocol::{header, parse_position, parse_reply, turn_block};
use gridtune::games::isolation::rules::IsolationMoves;
use gridtune::games::isolation::{Isolation, IsolationMap};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

mod common;
use common::BotProcess;

fn start() -> BotProcess {
    BotProcess::start(env!("CARGO_BIN_EXE_isolation-bot"))
}

const TRANSCRIPT_BLOCKS: [&str; 3] = [
    "turn 1\n2 2\n4 4\n...#...\n.......\n.#0.#..\n.......\n..#.1#.\n.......\n...#...\n",
    "turn 3\n2 1\n4 3\n...#...\n..0....\n.##.#..\n....1..\n..#.##.\n.......\n...#...\n",
    "turn 5\n5 1\n6 1\n...#...\n..#..01\n.##.#..\n....#..\n..#.##.\n.......\n...#...\n",
];

fn play_transcript(sloppy: bool) {
    let mut bot = start();
    bot.send(if sloppy { "\n7 7 0  \r\n" } else { "7 7 0\n" });
    for block in TRANSCRIPT_BLOCKS {
        let text = if sloppy {
            common::sloppy(block)
        } else {
            block.to_string()
        };
        let (reply, _) = bot.ask(&text);
        let (state, _) = parse_position(block).unwrap();
        assert!(parse_reply(&state, &reply).is_ok(), "reply `{reply}` to\n{block}");
    }
    let status = bot.finish();
    assert!(status.success(), "exit status {status}");
}

#[test]
fn plays_the_statement_game_and_exits_cleanly() {
    play_transcript(false);
}

#[test]
fn ignores_blank_lines_trailing_spaces_and_carriage_returns() {
    play_transcript(true);
}

#[test]
fn exits_cleanly_when_stdin_closes_before_any_turn() {
    let mut bot = start();
    bot.send("7 7 1\n");
    assert!(bot.finish().success());
}

/// Plays as the referee: the bot gets the statement's input on its turns,
/// a random legal-move bot plays the other side.
#[test]
fn forty_games_against_a_random_bot_without_an_illegal_move() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(40);
    let mut slowest = Duration::ZERO;
    let (mut replies, mut wins) = (0, 0);
    for game in 0..40 {
        let map = IsolationMap::generate(&mut rng);
        let me = game % 2;
        let mut state: Isolation = map.start_state();
        let mut bot = start();
        bot.send(&header(&state, me));
        let mut moves = IsolationMoves::new();
        while let ToMove::One(p) = state.to_move() {
            let m = if p == me {
                let (reply, took) = bot.ask(&turn_block(&state));
                slowest = slowest.max(took);
                replies += 1;
                parse_reply(&state, &reply)
                    .unwrap_or_else(|e| panic!("game {game}, turn {}: {e}\n{state}", state.turn()))
            } else {
                state.legal_moves(p, &mut moves);
                moves.as_slice()[rng.random_range(0..moves.len())]
            };
            state.play(m);
        }
        if state.outcome().unwrap().winner() == Some(me) {
            wins += 1;
        }
        assert!(bot.finish().success(), "game {game}: bad exit");
    }
    // Reported, not asserted: wall-clock time depends on the machine's load.
    println!(
        "isolation-bot: {wins}/40 wins, {replies} replies, slowest reply {} ms",
        slowest.as_millis()
    );
    assert!(wins >= 36, "only {wins}/40 wins against random moves");
}
