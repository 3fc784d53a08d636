//! The referee's side of a contest protocol, as each game defines it: how
//! the contest runs a program, its time limits, what a failed turn costs,
//! what a program reads and how its reply is read.
//!
//! This module is on the submission path (each game implements
//! [`Protocol`] in its `protocol.rs`, next to the bot's side of the same
//! text), so it uses the standard library only; the referee that runs
//! programs against it is `crate::referee`.

use crate::game::{Game, Outcome, Player, MAX_PLAYERS};
use crate::protocol::ProtocolError;
use std::time::Duration;

/// How the contest runs a bot program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcessModel {
    /// One process for the whole game, turns on stdin (Isolation, Light
    /// Cycles, Ataxx).
    PerGame,
    /// A fresh process every turn with the position as its one argument
    /// (Slime's control program).
    PerTurn,
}

/// What the contest does with a bot that fails its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// It loses at once (two-player games; in Light Cycles the bike is
    /// eliminated before the bikes move, and the other bike still moves).
    Lose,
    /// Its turn is a pass and the game goes on (Slime).
    Pass,
}

/// Per-turn time limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// The first turn a bot is asked (it may still be starting up).
    pub first: Duration,
    /// Every later turn.
    pub later: Duration,
}

impl TimeLimits {
    pub const fn millis(first: u64, later: u64) -> Self {
        TimeLimits {
            first: Duration::from_millis(first),
            later: Duration::from_millis(later),
        }
    }
}

/// A reply the game's protocol refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadReply {
    /// Not a line of the protocol's form.
    Invalid(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
}

/// How the engines of a game's community write its positions and moves, for
/// the referee's `uai:` seats (the UAI engines of Ataxx: libataxx,
/// AtaxxDotCpp). The rest of UAI is the same for every game, in
/// `crate::referee::uai`.
pub struct UaiNotation<G: Game> {
    /// The position as `position fen` gives it.
    pub fen: fn(&G) -> String,
    /// The move of a `bestmove` line (its first word after `bestmove`),
    /// checked to be legal for the seat.
    pub read_move: fn(&G, Player, &str) -> Result<G::Move, BadReply>,
}

/// A game's contest protocol, from the referee's side.
pub trait Protocol: Game {
    /// How the contest runs a bot program.
    const PROCESS: ProcessModel;
    /// The contest's per-turn time limits.
    const TIME_LIMITS: TimeLimits;
    /// What a failed turn (timeout, crash, invalid line, illegal move) costs.
    const ON_FAILURE: OnFailure;
    /// How the game's UAI engines write positions and moves; `None` (the
    /// default) for a game without them, whose `uai:` specs are refused.
    const UAI: Option<UaiNotation<Self>> = None;

    /// What a per-game program receives once, before its first turn.
    fn greeting(state: &Self, seat: Player) -> String;
    /// A turn's input: stdin text, or the argument of a per-turn process.
    /// `moves` is every move played so far.
    fn turn_input(state: &Self, seat: Player, moves: &[Self::Move]) -> String;
    /// Whether the referee asks `seat` at all; when not, it plays the seat's
    /// only legal move (Ataxx passes for a side with no action).
    fn asks(state: &Self, seat: Player) -> bool {
        let _ = (state, seat);
        true
    }
    /// Reads a reply: the line without its newline, and whether one ended it.
    /// `pick(n)` draws an index below `n`, for replies the protocol leaves to
    /// chance (Ataxx's `random`).
    fn read_reply(
        state: &Self,
        seat: Player,
        line: &str,
        newline: bool,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<Self::Move, BadReply>;
    /// Plays a simultaneous turn in which the seats given `None` failed,
    /// under [`OnFailure::Lose`], and returns how the game ended. By default
    /// the failed seats lose at once, before anyone moves, and the others
    /// share the point (a draw if every seat failed). Light Cycles overrides
    /// it: a failed bike is out before the bikes move, and the other still
    /// moves (and may crash too).
    fn play_with_failures(&mut self, joint: &[Option<Self::Move>]) -> Outcome {
        let seats = joint.len().min(MAX_PLAYERS);
        let alive = joint[..seats].iter().filter(|m| m.is_some()).count();
        let mut points = [0.0; MAX_PLAYERS];
        for (p, m) in joint[..seats].iter().enumerate() {
            points[p] = match alive {
                0 => 1.0 / seats as f32,
                n if m.is_some() => 1.0 / n as f32,
                _ => 0.0,
            };
        }
        Outcome { points }
    }
    /// How a move is written in the protocol.
    fn move_text(m: Self::Move) -> String;
    /// A position in the protocol's own text, and the player to act (what
    /// `gridtune move` reads).
    fn parse_position(text: &str) -> Result<(Self, Player), ProtocolError>;
    /// Whether a finished game was ended by the turn limit, not by play (the
    /// referee reports it as the end reason).
    fn ended_by_turn_limit(state: &Self) -> bool;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::isolation::IsolationMap;
    use crate::games::lightcycles::LightCyclesMap;
    use rand::SeedableRng;

    #[test]
    fn by_default_the_seats_that_failed_lose_and_the_others_share_the_point() {
        let rng = &mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let mut state = IsolationMap::generate(rng).start_state();
        let before = state;
        let mut moves = <crate::games::isolation::Isolation as Game>::Moves::default();
        state.legal_moves(1, &mut moves);
        let m = crate::game::MoveBuffer::as_slice(&moves).first().copied();
        assert_eq!(state.play_with_failures(&[None, m]), Outcome::win(1));
        assert_eq!(state.play_with_failures(&[None, None]), Outcome::draw());
        assert_eq!(state.hash(), before.hash(), "the default plays no move");
    }

    #[test]
    fn a_failed_light_cycle_is_out_before_the_bikes_move() {
        let rng = &mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2);
        let mut state = LightCyclesMap::generate(rng).start_state();
        let outcome = state.play_with_failures(&[Some(crate::games::lightcycles::Direction::Up), None]);
        assert_eq!(outcome.points[1], 0.0);
        assert_eq!(state.outcome(), Some(outcome), "the game records the same end");
    }
}
