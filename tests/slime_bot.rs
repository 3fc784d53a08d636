//! slime-bot as the control program runs it: a fresh process per turn with
//! the board in argv, for 20 full games against the clones.

use gridtune::bots::Bot;
use gridtune::game::{Game, ToMove};
use gridtune::games::slime::judges::judge;
use gridtune::games::slime::protocol::{argument, parse_reply};
use gridtune::games::slime::rules::SlimeMoves;
use gridtune::games::slime::Slime;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn twenty_games_without_a_rejected_reply() {
    let opponents = ["greedy_slime", "jumper", "simplebot"];
    let mut slowest = Duration::ZERO;
    let (mut turns, mut squares) = (0, 0u32);
    for game in 0..20 {
        let me = game % 4;
        let mut others: Vec<Box<dyn Bot<Slime>>> = opponents.iter().map(|n| judge(n, game as u64).unwrap()).collect();
        let mut state = Slime::start(8);
        let mut actions = SlimeMoves::new();
        while let ToMove::One(p) = state.to_move() {
            let m = if p == me {
                let started = Instant::now();
                let output = Command::new(env!("CARGO_BIN_EXE_slime-bot"))
                    .arg(argument(&state, p))
                    .output()
                    .expect("slime-bot runs");
                slowest = slowest.max(started.elapsed());
                turns += 1;
                assert!(output.status.success(), "game {game}: exit {}", output.status);
                let reply = parse_reply(&output.stdout).unwrap_or_else(|| {
                    panic!(
                        "game {game}: rejected reply {:?}",
                        String::from_utf8_lossy(&output.stdout)
                    )
                });
                state.actions(p, &mut actions);
                if !actions.is_empty() {
                    let mut check = state;
                    assert!(check.apply(p, reply), "game {game}: {reply} does not move\n{state}");
                }
                reply
            } else {
                let seat = (p + 4 - me - 1) % 4;
                others[seat].choose(&state, p)
            };
            state.play(m);
        }
        squares += state.count(me);
    }
    // Reported, not asserted: wall-clock time depends on the machine's load.
    println!(
        "slime-bot: {turns} turns in 20 games, {:.1} squares on average, slowest turn {} ms including process start",
        squares as f64 / 20.0,
        slowest.as_millis()
    );
}
