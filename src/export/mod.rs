//! Turning a genome into code the submission bot compiles.

pub mod bundle;
pub mod freeze;
