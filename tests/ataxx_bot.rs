//! ataxx-bot as a real process fed CodinGame's exact input, rows in either
//! order: 40 games against a random legal-move bot on generated boards.

use gridtune::game::{Game, ToMove};
use gridtune::games::ataxx::protocol::{action_text, parse_action, turn_input, RowOrder};
use gridtune::games::ataxx::rules::AtaxxMoves;
use gridtune::games::ataxx::{Ataxx, AtaxxMap, AtaxxMove};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

mod common;
use common::BotProcess;

fn start() -> BotProcess {
    BotProcess::start(env!("CARGO_BIN_EXE_ataxx-bot"))
}

/// Plays one game as the referee; returns the bot's points, its slowest
/// first reply and its slowest later reply.
fn referee_game(map: &AtaxxMap, me: usize, order: RowOrder, rng: &mut Xoshiro256PlusPlus) -> (f32, Duration, Duration) {
    let mut bot = start();
    bot.send(&format!("{me}\n"));
    let mut state: Ataxx = map.start.clone();
    let mut last = "null".to_string();
    let (mut first, mut later) = (Duration::ZERO, Duration::ZERO);
    let mut asked = 0;
    let mut moves = AtaxxMoves::new();
    while let ToMove::One(p) = state.to_move() {
        state.actions(p, &mut moves);
        let m = if moves.is_empty() {
            AtaxxMove::PASS
        } else if p == me {
            let (reply, took) = bot.ask(&turn_input(&state, &last, order));
            if asked == 0 {
                first = took;
            } else {
                later = later.max(took);
            }
            asked += 1;
            let m = parse_action(&reply).unwrap_or_else(|| panic!("unreadable reply `{reply}`"));
            assert!(
                moves.contains(&m),
                "`{reply}` is not a listed action ({order:?})\n{:?}",
                state.rows()
            );
            m
        } else {
            moves.as_slice()[rng.random_range(0..moves.len())]
        };
        if p != me {
            last = if m.is_pass() { "pass".into() } else { action_text(m) };
        }
        state.play(m);
    }
    assert!(bot.finish().success());
    (state.outcome().unwrap().points[me], first, later)
}

#[test]
fn forty_games_in_both_row_orders_only_listed_actions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(40);
    let (mut points, mut first, mut later) = (0.0, Duration::ZERO, Duration::ZERO);
    for game in 0..40 {
        let map = AtaxxMap::generate(&mut rng);
        let order = if game < 20 {
            RowOrder::BottomFirst
        } else {
            RowOrder::TopFirst
        };
        let (p, f, l) = referee_game(&map, game % 2, order, &mut rng);
        points += p;
        first = first.max(f);
        later = later.max(l);
    }
    // Reported, not asserted: wall-clock time depends on the machine's load.
    println!(
        "ataxx-bot: {points}/40 points; slowest first reply {} ms (limit 1000), slowest later reply {} ms (limit 100)",
        first.as_millis(),
        later.as_millis()
    );
    assert!(points >= 38.0, "only {points}/40 against random moves");
}
