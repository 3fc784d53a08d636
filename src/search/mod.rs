//! Game-independent search: alpha-beta for two players taking turns, and
//! Monte Carlo tree search for the judge clones.

pub mod alphabeta;
pub mod mcts;
pub mod simultaneous;

pub use alphabeta::{AlphaBeta, Evaluator, Limits, SearchResult};
