//! Simultaneous moves for sequential search: one player commits first and
//! the other answers knowing that move (a1k0n's model for Tron). Seen from
//! the player who commits first, this is the cautious view: the opponent is
//! assumed to guess right. Standard library only.

use crate::game::{hash_of, Game, Outcome, Player, ToMove};
use crate::search::Evaluator;

/// A two-player simultaneous game played as alternating half-moves.
#[derive(Clone, Debug)]
pub struct Sequential<G: Game> {
    pub inner: G,
    /// Who commits first each turn.
    pub first: Player,
    /// The first player's move, waiting for the second's.
    pending: Option<G::Move>,
}

impl<G: Game> Sequential<G> {
    pub fn new(inner: G, first: Player) -> Self {
        debug_assert!(G::SIMULTANEOUS && G::PLAYERS == 2);
        Sequential {
            inner,
            first,
            pending: None,
        }
    }
}

impl<G: Game> Game for Sequential<G> {
    type Move = G::Move;
    type Moves = G::Moves;

    const NAME: &'static str = G::NAME;
    const PLAYERS: usize = 2;
    const SIMULTANEOUS: bool = false;

    fn max_length(&self) -> u32 {
        2 * self.inner.max_length()
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        match self.inner.to_move() {
            ToMove::All if self.pending.is_none() => ToMove::One(self.first),
            ToMove::All => ToMove::One(1 - self.first),
            other => other,
        }
    }

    #[inline]
    fn legal_moves(&self, p: Player, out: &mut G::Moves) {
        self.inner.legal_moves(p, out)
    }

    #[inline]
    fn play(&mut self, m: G::Move) {
        match self.pending.take() {
            None => self.pending = Some(m),
            Some(first_move) => {
                let mut joint = [m; 2];
                joint[self.first] = first_move;
                self.inner.play_joint(&joint);
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }

    #[inline]
    fn hash(&self) -> u64 {
        // Who commits first changes every value (the other answers knowing
        // the move, and contempt is the first player's), so it is part of
        // what the table stores a value for.
        let position = self.inner.hash() ^ (self.first as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        match &self.pending {
            None => position,
            Some(m) => position ^ hash_of(m) ^ 0x5bd1_e995,
        }
    }
}

/// Evaluates a half-played turn by the position before it, and a drawn game
/// `contempt` below even for the player who commits first (`contempt` above
/// for the other: the search is zero-sum).
///
/// Why a draw needs its own score: in the cautious model every line but a
/// crash is scored as if the opponent had guessed our move, so play that goes
/// on looks worse than it is, while a head-on crash is an exact draw. Scored
/// at 0, a crash beats any move the model sees as a little behind, and two
/// bikes that both reason so drive into the same cell. Contempt puts the draw
/// where it belongs against play that goes on: the bike crashes only when
/// every other move scores below `-contempt`, and never over a move it scores
/// as even or better.
#[derive(Clone, Copy, Debug)]
pub struct SequentialEval<E> {
    pub eval: E,
    pub contempt: i32,
}

impl<E> SequentialEval<E> {
    /// Draws scored as even: the judges' search, which clones bots that
    /// score them so.
    pub fn new(eval: E) -> Self {
        SequentialEval { eval, contempt: 0 }
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<Sequential<G>> for SequentialEval<E> {
    #[inline]
    fn evaluate(&self, state: &Sequential<G>, player: Player) -> i32 {
        self.eval.evaluate(&state.inner, player)
    }

    fn terminal(&self, state: &Sequential<G>, player: Player, ply: usize) -> i32 {
        let drawn = state.inner.outcome().is_some_and(|o| o.winner().is_none());
        if drawn && self.contempt != 0 {
            return if player == state.first {
                -self.contempt
            } else {
                self.contempt
            };
        }
        self.eval.terminal(&state.inner, player, ply)
    }
}
