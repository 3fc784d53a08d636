//! Match statistics from one side's per-game points: win/draw/loss counts,
//! game-pair (pentanomial) counts, Elo estimates with 95% intervals, the
//! generalized SPRT that fishtest and fastchess run on pentanomial counts,
//! the distributions under them, and percentiles (reply times).
//!
//! A leaf of the crate: it uses `std` and `serde` alone, so the arena, the
//! tuners and the reports all build on the same numbers.

pub mod counts;
pub mod distributions;
pub mod elo;
pub mod interval;
pub mod percentiles;
pub mod sprt;

pub use counts::{MatchStats, Pentanomial};
pub use elo::{elo, expected_score, EloEstimate};
pub use percentiles::Percentiles;
pub use sprt::{Sprt, SprtReport, SprtStatus};

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[test]
    fn result_types_serialize() {
        fn serializable<T: Serialize>() {}
        serializable::<MatchStats>();
        serializable::<Pentanomial>();
        serializable::<EloEstimate>();
        serializable::<Sprt>();
        serializable::<SprtStatus>();
        serializable::<SprtReport>();
        serializable::<Percentiles>();
    }
}
