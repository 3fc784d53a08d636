//! gridtune: simulators, judge clones, genome-driven search bots and an
//! evolution loop for contest grid games. See ARCHITECTURE.md for the map.
//!
//! The submission path (`game`, `contest`, `submission`, `params`, `protocol`,
//! `search::alphabeta`, and each game's `rules`, `features`, `protocol`, `bot`
//! and `tuned`) uses the standard library only, so a submission can be built
//! from it with plain `rustc`.

pub mod arena;
pub mod bitboard;
pub mod bots;
pub mod contest;
pub mod distributed;
pub mod error;
pub mod evolve;
pub mod export;
pub mod fit;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod genome;
pub mod logging;
pub mod maps;
pub mod params;
pub mod perft;
pub mod progress;
pub mod protocol;
pub mod referee;
pub mod replay;
pub mod report;
pub mod scale;
pub mod search;
pub mod stats;
pub mod submission;
pub mod tuner;
