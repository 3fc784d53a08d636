//! Ataxx (statement in `../shared/games/ataxx/STATEMENT.md`): the rules and
//! perft so far; judges, the genome bot, the CodinGame protocol and the
//! submission bot follow (issue 5).

pub mod rules;

pub use rules::{Ataxx, AtaxxMove};
