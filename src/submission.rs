//! The submission bots' one entry point: every `src/bin/<game>_bot.rs`, and
//! every bundle's `main`, is `serve::<Game>()`.
//!
//! On the submission path: standard library only.

use crate::game::Game;

/// A game's submission bot: its engine with the frozen weights, and the loop
/// that answers the contest with it (in the game folder's `bot.rs`).
pub trait Submission: Game {
    /// What chooses the moves.
    type Engine;

    /// The engine with the weights frozen into the game's `tuned.rs`.
    fn engine() -> Self::Engine;

    /// Reads the command line, then answers the contest's turns on stdin and
    /// stdout (or, for a per-turn protocol, the one turn in the arguments)
    /// until the game is over.
    fn answer(engine: Self::Engine);
}

/// Runs game `G`'s submission bot in this process.
pub fn serve<G: Submission>() {
    G::answer(G::engine());
}
