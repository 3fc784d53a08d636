//! Which failures are the user's input and which happened while running:
//! the CLI exits 2 for the first and 1 for the second.
//!
//! Parsers return their own typed errors (`MapError`, `GenomeError`, ...);
//! those are bad input wherever they sit in an error's chain. Checks in the
//! commands that have no type of their own wrap their message in
//! [`BadInput`] (see [`bad_input!`]).

use std::path::Path;

/// The user's input is wrong: a file, a flag, a spec, a run folder.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// An `anyhow::Error` that marks its message as bad input.
#[macro_export]
macro_rules! bad_input {
    ($($arg:tt)*) => {
        ::anyhow::Error::new($crate::error::BadInput(format!($($arg)*)))
    };
}

/// Returns early with a [`BadInput`] error.
#[macro_export]
macro_rules! bail_input {
    ($($arg:tt)*) => {
        return Err($crate::bad_input!($($arg)*))
    };
}

/// The process exit code for an error: 2 for bad input, 1 for a failure
/// while running.
pub fn exit_code(error: &anyhow::Error) -> i32 {
    if error.chain().any(is_bad_input) {
        2
    } else {
        1
    }
}

fn is_bad_input(e: &(dyn std::error::Error + 'static)) -> bool {
    e.is::<BadInput>()
        || e.is::<crate::maps::MapError>()
        || e.is::<crate::genome::GenomeError>()
        || e.is::<crate::evolve::config::ConfigError>()
        || e.is::<crate::protocol::ProtocolError>()
        || e.is::<crate::bots::SpecError>()
        || e.is::<crate::replay::ReplayError>()
        || e.is::<crate::export::bundle::BundleError>()
}

/// Reads a text file the user named; a file that cannot be read is bad
/// input, named with `what` it was meant to be.
pub fn read_input(path: &Path, what: &str) -> anyhow::Result<String> {
    std::fs::read_to_string(path).map_err(|e| bad_input!("cannot read {what} {}: {e}", path.display()))
}
