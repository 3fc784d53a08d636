//! Light Cycles' head-on crashes, on positions taken from games that ended
//! in one (`tests/positions/lightcycles_head_on.txt`): the submission bot's
//! search scores the crash as a draw below even by its `contempt`, so it
//! drives into a cell the other bike can also enter only when no other move
//! scores above that draw, and never over a move it scores as even or better.
//! Scored at 0, as before, it took the crash over such moves.
//!
//! The positions were chosen against the genome that first scored draws
//! below even ([`CHOSEN_WITH`]); the claims about how many of them the bot
//! gives way in are made for that genome, so a later promotion of
//! `best.ron` cannot make them vacuous. The rule itself is checked for the
//! frozen genome too.

use gridtune::game::Game;
use gridtune::games::lightcycles::engine::Engine;
use gridtune::games::lightcycles::features::{Weights, CONTEMPT};
use gridtune::games::lightcycles::protocol::parse_position;
use gridtune::games::lightcycles::rules::{Direction, LightCycles};
use gridtune::games::lightcycles::tuned::WEIGHTS;
use gridtune::search::simultaneous::{Sequential, SequentialEval};
use gridtune::search::{AlphaBeta, Limits, Linear, Techniques};

/// `best.ron` at f1b5d68, when drawn games first scored `contempt` below
/// even, in declaration order (territory, edges, parity, chamber, mobility,
/// distance, endgame_space, endgame_win, contempt).
const CHOSEN_WITH: Weights = [1, 4, -17, 30, -4, 4, 135, 2400, 20];

/// Four full turns: deep enough to see the crash and what follows it, and
/// cheap enough to search every move of every position exactly.
const DEPTH: u32 = 8;

fn positions() -> Vec<(String, LightCycles, usize)> {
    let text = include_str!("positions/lightcycles_head_on.txt");
    text.split("\n== ")
        .skip(1)
        .map(|block| {
            let (label, position) = block.split_once('\n').expect("a label line");
            let (state, me) = parse_position(position).unwrap_or_else(|e| panic!("{label}: {e}"));
            (label.to_string(), state, me)
        })
        .collect()
}

/// Whether moving `d` enters a cell the other bike can also enter this turn.
fn contested(state: &LightCycles, me: usize, d: Direction) -> bool {
    let cell = state.target(me, d);
    Direction::ALL
        .iter()
        .any(|&o| state.is_safe(1 - me, o) && state.target(1 - me, o) == cell)
}

/// Each safe move's exact value at [`DEPTH`] for the bike that commits first
/// with `weights`: the opponent answers knowing it, as in the bot's search.
fn move_values(state: &LightCycles, me: usize, weights: Weights) -> Vec<(Direction, i32)> {
    let eval = SequentialEval {
        eval: Linear(weights),
        contempt: weights[CONTEMPT],
    };
    let root = Sequential::new(*state, me);
    Direction::ALL
        .into_iter()
        .filter(|&d| state.is_safe(me, d))
        .map(|d| {
            let mut child = root.clone();
            child.play(d);
            let reply = AlphaBeta::with(16, Techniques::PLAIN).search(&child, &eval, Limits::depth(DEPTH - 1));
            (d, -reply.score)
        })
        .collect()
}

fn choice(state: &LightCycles, me: usize, weights: Weights) -> Direction {
    let limits = Limits::depth(DEPTH);
    Engine::for_budget(weights, limits).choose(state, me, limits).direction
}

/// Checks that with `weights` the bot picks a best move in every position,
/// and drives into the contested cell only when no move scores above the
/// draw; returns in how many positions it kept out of that cell.
fn crashes_only_when_nothing_beats_the_draw(weights: Weights, genome: &str) -> usize {
    let contempt = weights[CONTEMPT];
    assert!(contempt > 0, "{genome} scores a draw below even");
    let mut gave_way = 0;
    for (label, state, me) in positions() {
        let values = move_values(&state, me, weights);
        let best = values.iter().map(|&(_, v)| v).max().expect("a safe move");
        let chosen = choice(&state, me, weights);
        let value = values.iter().find(|&&(d, _)| d == chosen).map(|&(_, v)| v);
        assert_eq!(
            value,
            Some(best),
            "{genome}, {label}: {chosen} is not a best move of {values:?}"
        );
        if contested(&state, me, chosen) {
            // A crash's line is a draw: the bike takes it only when nothing
            // else scores above a draw, and so never over an even move.
            for &(d, v) in &values {
                assert!(
                    v <= -contempt,
                    "{genome}, {label}: {chosen} may crash head on, but {d} scores {v}: {values:?}"
                );
            }
        } else {
            gave_way += 1;
        }
    }
    gave_way
}

#[test]
fn the_frozen_bot_crashes_head_on_only_when_every_other_move_scores_at_most_the_draw() {
    crashes_only_when_nothing_beats_the_draw(WEIGHTS, "the frozen genome");
    let gave_way = crashes_only_when_nothing_beats_the_draw(CHOSEN_WITH, "f1b5d68's genome");
    assert!(
        gave_way >= 8,
        "f1b5d68's genome kept out of the contested cell in {gave_way} positions only"
    );
}

#[test]
fn scored_as_even_the_crash_was_taken_over_moves_that_keep_the_game_even() {
    let contempt = CHOSEN_WITH[CONTEMPT];
    let mut even = CHOSEN_WITH;
    even[CONTEMPT] = 0;
    let mut crashed = Vec::new();
    for (label, state, me) in positions() {
        if !contested(&state, me, choice(&state, me, even)) {
            continue;
        }
        // A move that scores even or better with draws at 0, and is not a
        // draw put off (with contempt it scores above one).
        let (at_even, with_contempt) = (move_values(&state, me, even), move_values(&state, me, CHOSEN_WITH));
        let keeps_going = at_even
            .iter()
            .zip(&with_contempt)
            .any(|(&(d, v), &(_, w))| !contested(&state, me, d) && v >= 0 && w > -contempt);
        if keeps_going {
            let now = choice(&state, me, CHOSEN_WITH);
            assert!(
                !contested(&state, me, now),
                "{label}: with contempt the bot still takes {now}: {with_contempt:?}"
            );
            crashed.push(label);
        }
    }
    assert!(
        crashed.len() >= 4,
        "contempt 0 took the crash over an even move in {crashed:?} only"
    );
}

#[test]
fn a_drawn_game_scores_minus_contempt_for_the_first_player_and_plus_it_for_the_other() {
    use gridtune::search::Evaluator;
    let (_, state, me) = positions().into_iter().next().expect("a position");
    // Both bikes enter the same cell: a draw.
    let (mine, theirs) = Direction::ALL
        .into_iter()
        .flat_map(|a| Direction::ALL.into_iter().map(move |b| (a, b)))
        .find(|&(a, b)| state.is_safe(me, a) && state.target(me, a) == state.target(1 - me, b))
        .expect("a contested cell");
    let mut drawn = Sequential::new(state, me);
    drawn.play(mine);
    drawn.play(theirs);
    assert_eq!(drawn.outcome().and_then(|o| o.winner()), None);
    assert!(drawn.outcome().is_some());
    let eval = SequentialEval {
        eval: Linear(WEIGHTS),
        contempt: 35,
    };
    assert_eq!(eval.terminal(&drawn, me, 2), -35);
    assert_eq!(eval.terminal(&drawn, 1 - me, 2), 35);
    assert_eq!(SequentialEval::new(Linear(WEIGHTS)).terminal(&drawn, me, 2), 0);
}
