//! Built-in bots playing a game to its end, with a look at every position.

use crate::game::{Bot, Game, Outcome, ToMove};

/// Plays `state` to the end with one built-in bot per seat, showing `visit`
/// each position before its move (and the final one), and returns the
/// outcome. A built-in bot is trusted to return a legal move.
pub fn play_out<G: Game>(mut state: G, seats: &mut [Box<dyn Bot<G>>], visit: &mut dyn FnMut(&G)) -> Outcome {
    loop {
        visit(&state);
        match state.to_move() {
            ToMove::Over => break,
            ToMove::One(p) => {
                let m = seats[p].choose(&state, p);
                state.play(m);
            }
            ToMove::All => {
                let joint: Vec<G::Move> = (0..G::PLAYERS).map(|p| seats[p].choose(&state, p)).collect();
                state.play_joint(&joint);
            }
        }
    }
    match state.outcome() {
        Some(outcome) => outcome,
        // `to_move` said the game is over; every game then has an outcome.
        None => unreachable!("{} ended without an outcome", G::NAME),
    }
}
