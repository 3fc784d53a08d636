//! What a run shows its user: plots of fitness over generations.

pub mod plot;
