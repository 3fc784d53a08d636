//! Game-independent search: alpha-beta for two players taking turns, the
//! linear evaluator the genome bots give it, and Monte Carlo tree search for
//! the judge clones.

pub mod alphabeta;
pub mod linear;
pub mod mcts;
mod ordering;
pub mod simultaneous;
mod table;

pub use alphabeta::{
    AlphaBeta, Deepening, Evaluator, Limits, NewIterations, Reductions, SearchResult, Searcher, Techniques, MAX_DEPTH,
};
pub use linear::{Features, Linear};
