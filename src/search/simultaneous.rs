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
        // the move), so it is part of what the table stores a value for.
        let position = self.inner.hash() ^ (self.first as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        match &self.pending {
            None => position,
            Some(m) => position ^ hash_of(m) ^ 0x5bd1_e995,
        }
    }
}

/// Evaluates a half-played turn by the position before it.
#[derive(Clone, Copy, Debug)]
pub struct SequentialEval<E>(pub E);

impl<G: Game, E: Evaluator<G>> Evaluator<Sequential<G>> for SequentialEval<E> {
    #[inline]
    fn evaluate(&self, state: &Sequential<G>, player: Player) -> i32 {
        self.0.evaluate(&state.inner, player)
    }

    fn terminal(&self, state: &Sequential<G>, player: Player, ply: usize) -> i32 {
        self.0.terminal(&state.inner, player, ply)
    }
}
