//! The one evaluation shape every game's genome bot uses: numbers that
//! describe a position from one player's side (its features), combined by a
//! weight vector. The games differ in their features alone; the weighted sum
//! is here once. Standard library only.

use crate::game::{Game, Player};
use crate::search::Evaluator;

/// A game's evaluation features: `N` numbers that describe a position from
/// one player's side, indexed like the game's `declare_params!` weights.
pub trait Features<const N: usize>: Game {
    /// The weight that values one unit of advantage (Ataxx's piece), which
    /// scales the search's pruning margins ([`Evaluator::unit`]); `None`
    /// when no weight does.
    const UNIT: Option<usize> = None;

    /// The feature values of `self` for `me`.
    fn features(&self, me: Player) -> [i32; N];

    /// The features a weighted sum with `weights` needs. A feature whose weight
    /// is zero adds nothing, so a game may skip computing a costly one (Light
    /// Cycles' chamber tree); by default every feature is computed.
    #[inline]
    fn features_for(&self, me: Player, weights: &[i32; N]) -> [i32; N] {
        let _ = weights;
        self.features(me)
    }
}

/// The linear evaluator: weights · features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Linear<const N: usize>(pub [i32; N]);

impl<const N: usize> Linear<N> {
    /// The weighted sum of `features`.
    #[inline]
    pub fn combine(&self, features: &[i32; N]) -> i32 {
        features.iter().zip(&self.0).map(|(a, b)| a * b).sum()
    }
}

impl<G: Features<N>, const N: usize> Evaluator<G> for Linear<N> {
    #[inline]
    fn evaluate(&self, state: &G, player: Player) -> i32 {
        self.combine(&state.features_for(player, &self.0))
    }

    #[inline]
    fn unit(&self) -> Option<i32> {
        // A unit worth nothing or less gives no margin to prune by.
        G::UNIT.map(|i| self.0[i]).filter(|&u| u > 0)
    }
}
