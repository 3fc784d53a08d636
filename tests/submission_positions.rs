//! The submission bots over random reachable positions (issue 13): random
//! games played in the simulator from a fixed seed, each position the bot's
//! seat is asked in sent to the real bot program as the contest sends it.
//! Every reply must be legal and written exactly as the statement asks, and
//! the program must neither panic nor exit while the game goes on.
//!
//! Isolation, Light Cycles and Ataxx bots serve a whole game per process, so
//! each random game is played through one process (the bot sees a consistent
//! game); Slime's control program starts the bot once per turn, so each
//! sampled position is one process.
//!
//! Positions per game: `GRIDTUNE_POSITIONS` (default 1000); the bots' budget
//! per move: `GRIDTUNE_POSITIONS_BUDGET_MS` (default 2). The full run:
//!
//! ```sh
//! GRIDTUNE_POSITIONS=100000 GRIDTUNE_POSITIONS_BUDGET_MS=1 cargo test --test submission_positions -- --nocapture
//! ```

use gridtune::game::{Game, MoveBuffer, Player, ToMove};
use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::prelude::*;
use gridtune::games::slime::{Slime, SlimeMove};
use gridtune::referee::process::{BotProcess, Launch, Line, NoLine};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// Only a hung bot trips it: replies are not timed against it.
const HANG: Duration = Duration::from_secs(30);

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

fn positions() -> u64 {
    env_number("GRIDTUNE_POSITIONS", 1000)
}

fn launch(program: &str) -> Launch {
    let budget = env_number("GRIDTUNE_POSITIONS_BUDGET_MS", 2).max(1);
    Launch {
        program: program.to_string(),
        args: vec!["--budget-ms".into(), budget.to_string()],
        dir: None,
    }
}

/// The bot's stderr, for a failure message: a panic, if there was one,
/// is in it.
fn fail(bot: &mut BotProcess, what: String) -> ! {
    let err = bot.take_final_stderr();
    panic!("{what}\nbot stderr (end):\n{err}");
}

/// Reads the bot's reply to a turn; it must be a whole line.
fn reply(bot: &mut BotProcess, input: &str) -> String {
    match bot.read_line(Instant::now() + HANG) {
        Ok(Line {
            text, newline: true, ..
        }) => text,
        Ok(Line { text, .. }) => fail(bot, format!("reply `{text}` has no newline, to\n{input}")),
        Err(NoLine::Timeout) => fail(bot, format!("no reply in {HANG:?} to\n{input}")),
        Err(NoLine::Closed) => fail(bot, format!("the bot exited instead of replying to\n{input}")),
    }
}

fn random_move<G: Game>(state: &G, p: Player, rng: &mut Xoshiro256PlusPlus) -> G::Move {
    let mut moves = G::Moves::default();
    state.legal_moves(p, &mut moves);
    let moves = moves.as_slice();
    moves[rng.random_range(0..moves.len())]
}

/// A fresh random map of the game's own generator.
fn random_map<G: GameKit>(rng: &mut Xoshiro256PlusPlus) -> G::Map {
    let text = G::generate_map_text(rng);
    G::parse_map(&text, "generated").unwrap_or_else(|e| panic!("generated map refused: {e}\n{text}"))
}

/// Plays random games through one bot process each, seat alternating, until
/// `positions` turns were asked; `check` judges each reply (exact text and
/// legality) and `pick` chooses the moves actually played, so that the game
/// goes on at random whatever the bot says. Returns (positions, games).
fn per_game_run<G: GameKit>(
    program: &str,
    seed: u64,
    check: impl Fn(&G, Player, &str) -> Result<(), String>,
    pick: impl Fn(&G, Player, &mut Xoshiro256PlusPlus) -> G::Move,
) -> (u64, u64) {
    let target = positions();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut asked, mut games) = (0u64, 0u64);
    while asked < target {
        let mut state = G::start(&random_map::<G>(&mut rng));
        let seat = (games % 2) as Player;
        games += 1;
        let mut bot = BotProcess::start(&launch(program), &[]).unwrap_or_else(|e| panic!("{program}: {e}"));
        bot.send(&G::greeting(&state, seat));
        let mut played: Vec<G::Move> = Vec::new();
        loop {
            let movers: Vec<Player> = match state.to_move() {
                ToMove::Over => break,
                ToMove::One(p) => vec![p],
                ToMove::All => (0..G::PLAYERS).collect(),
            };
            if movers.contains(&seat) && G::asks(&state, seat) && asked < target {
                let input = G::turn_input(&state, seat, &played);
                bot.send(&input);
                let line = reply(&mut bot, &input);
                asked += 1;
                if let Err(why) = check(&state, seat, &line) {
                    fail(&mut bot, format!("reply `{line}`: {why}; to\n{input}"));
                }
                let _ = bot.take_stderr();
            }
            let joint: Vec<G::Move> = movers.iter().map(|&p| pick(&state, p, &mut rng)).collect();
            if G::SIMULTANEOUS {
                state.play_joint(&joint);
            } else {
                state.play(joint[0]);
            }
            played.extend(joint);
        }
        // The game is over: stdin closes, and the bot must exit cleanly
        // without printing anything more.
        let (status, lingered) = bot.finish(HANG);
        if !status.success() || lingered {
            fail(
                &mut bot,
                format!("after game {games}: exit {status}, lingered {lingered}"),
            );
        }
    }
    (asked, games)
}

fn is_canonical_int(t: &str) -> bool {
    t == "0" || (!t.is_empty() && !t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit()))
}

fn referee_reads<G: GameKit>(state: &G, seat: Player, line: &str) -> Result<G::Move, String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let mut pick = |n: usize| rng.random_range(0..n);
    G::read_reply(state, seat, line, true, &mut pick).map_err(|e| format!("{e:?}"))
}

fn report(game: &str, (asked, games): (u64, u64), started: Instant) {
    println!(
        "{game}: {asked} positions in {games} games, {:.1}s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn isolation_bot_answers_every_random_position_legally() {
    let started = Instant::now();
    let run = per_game_run::<Isolation>(
        env!("CARGO_BIN_EXE_isolation-bot"),
        1,
        |state, _, line| {
            // The statement: `x y`, two integers separated by a space.
            let words: Vec<&str> = line.split(' ').collect();
            if words.len() != 2 || !words.iter().all(|w| is_canonical_int(w)) {
                return Err("not `x y`".into());
            }
            referee_reads(state, state.side(), line).map(|_| ())
        },
        random_move::<Isolation>,
    );
    report("isolation", run, started);
}

#[test]
fn lightcycles_bot_answers_every_random_position_legally() {
    let started = Instant::now();
    let run = per_game_run::<LightCycles>(
        env!("CARGO_BIN_EXE_lightcycles-bot"),
        2,
        |state, seat, line| {
            if !["UP", "DOWN", "LEFT", "RIGHT"].contains(&line) {
                return Err("not UP, DOWN, LEFT or RIGHT".into());
            }
            referee_reads(state, seat, line).map(|_| ())
        },
        // Random but not suicidal when it need not be, so that games last.
        |state, p, rng| {
            let safe: Vec<_> = gridtune::games::lightcycles::rules::Direction::ALL
                .into_iter()
                .filter(|&d| state.is_safe(p, d))
                .collect();
            if safe.is_empty() {
                random_move::<LightCycles>(state, p, rng)
            } else {
                safe[rng.random_range(0..safe.len())]
            }
        },
    );
    report("lightcycles", run, started);
}

#[test]
fn ataxx_bot_answers_every_random_position_legally() {
    let started = Instant::now();
    let run = per_game_run::<Ataxx>(
        env!("CARGO_BIN_EXE_ataxx-bot"),
        3,
        |state, seat, line| {
            // One of the listed actions, as `b7` or `a7c7`: the bot has a
            // move whenever it is asked, so never `random`.
            let squares = line.len() / 2;
            let square = |i: usize| {
                let b = line.as_bytes();
                (b'a'..=b'g').contains(&b[2 * i]) && (b'1'..=b'7').contains(&b[2 * i + 1])
            };
            if !(line.len() == 2 || line.len() == 4) || !(0..squares).all(square) {
                return Err("not an action `b7` or `a7c7`".into());
            }
            let listed = gridtune::games::ataxx::protocol::turn_input(
                state,
                "null",
                gridtune::games::ataxx::protocol::RowOrder::BottomFirst,
            );
            if !listed.lines().skip(9).any(|a| a == line) {
                return Err("not one of the listed actions".into());
            }
            referee_reads(state, seat, line).map(|_| ())
        },
        random_move::<Ataxx>,
    );
    report("ataxx", run, started);
}

/// Slime: one process per position, positions sampled from random games.
#[test]
fn slime_bot_answers_every_random_position_legally() {
    let started = Instant::now();
    let target = positions();
    let program = env!("CARGO_BIN_EXE_slime-bot");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let (mut asked, mut games) = (0u64, 0u64);
    while asked < target {
        let mut state = <Slime as GameMaps>::start(&random_map::<Slime>(&mut rng));
        games += 1;
        while let ToMove::One(seat) = state.to_move() {
            // A sample of each game's positions, so that more games are seen.
            if asked < target && rng.random_bool(0.02) {
                asked += 1;
                let arg = <Slime as Protocol>::turn_input(&state, seat, &[]);
                let mut bot = BotProcess::start(&launch(program), std::slice::from_ref(&arg))
                    .unwrap_or_else(|e| panic!("{program}: {e}"));
                let line = reply(&mut bot, &arg);
                if let Err(why) = slime_reply_ok(&state, seat, &line) {
                    fail(&mut bot, format!("reply `{line}`: {why}; to {arg}"));
                }
                let (status, lingered) = bot.finish(HANG);
                if !status.success() || lingered {
                    fail(&mut bot, format!("on {arg}: exit {status}, lingered {lingered}"));
                }
            }
            // A random action; a random legal move would include the pass,
            // and games of passes reach the turn limit on few boards.
            let mut moves = <Slime as Game>::Moves::default();
            state.legal_moves(seat, &mut moves);
            let actions: Vec<SlimeMove> = moves.as_slice().iter().copied().filter(|m| !m.is_pass()).collect();
            state.play(if actions.is_empty() {
                SlimeMove::PASS
            } else {
                actions[rng.random_range(0..actions.len())]
            });
        }
    }
    report("slime", (asked, games), started);
}

/// Four integers, single spaces (the newline was checked); a legal action,
/// or the statement's pass `0 0 0 0` when there is none.
fn slime_reply_ok(state: &Slime, seat: Player, line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split(' ').collect();
    if words.len() != 4 || !words.iter().all(|w| is_canonical_int(w)) {
        return Err("not `from_row from_col to_row to_col`".into());
    }
    let m = referee_reads(state, seat, line)?;
    let mut legal = <Slime as Game>::Moves::default();
    state.legal_moves(seat, &mut legal);
    let actions: Vec<SlimeMove> = legal.as_slice().iter().copied().filter(|m| !m.is_pass()).collect();
    if actions.contains(&m) || (actions.is_empty() && line == "0 0 0 0") {
        Ok(())
    } else if actions.is_empty() {
        Err("no action exists: the pass is `0 0 0 0`".into())
    } else {
        Err(format!("not one of the {} legal actions", actions.len()))
    }
}
