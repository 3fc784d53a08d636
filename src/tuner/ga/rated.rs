//! The players of a generation's rating fit: who each one is, and its rating.

use serde::{Serialize, Serializer};
use std::fmt;

/// Who a player of a generation is. Its text is what genomes.csv and the
/// logs show: `reference`, `hall 2`, `island 0 mean`, `island 0 elite`,
/// `island 0 offspring`, or `fixed 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The start point, which every island mean plays.
    Reference,
    /// A hall-of-fame member, by its place in the hall.
    Hall(usize),
    /// An island's mean, by island.
    Mean(usize),
    /// One of an island's elites (last generation's clearest winners).
    Elite(usize),
    /// One of an island's twins.
    Offspring(usize),
    /// One of the oracle's fixed opponents (a judge), by its index.
    Fixed(usize),
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Role::Reference => write!(f, "reference"),
            Role::Hall(k) => write!(f, "hall {k}"),
            Role::Mean(i) => write!(f, "island {i} mean"),
            Role::Elite(i) => write!(f, "island {i} elite"),
            Role::Offspring(i) => write!(f, "island {i} offspring"),
            Role::Fixed(k) => write!(f, "fixed {k}"),
        }
    }
}

/// Serialised as its text, as the role was when it was a string.
impl Serialize for Role {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// One rated player of a generation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rated {
    pub role: Role,
    /// Its point (empty for a fixed opponent).
    pub x: Vec<f64>,
    /// Elo against the reference, and its standard error.
    pub elo: f64,
    pub se: f64,
    /// Game pairs it played this generation.
    pub pairs: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_read_as_genomes_csv_has_always_written_them() {
        let roles = [
            (Role::Reference, "reference"),
            (Role::Hall(2), "hall 2"),
            (Role::Mean(0), "island 0 mean"),
            (Role::Elite(1), "island 1 elite"),
            (Role::Offspring(3), "island 3 offspring"),
            (Role::Fixed(4), "fixed 4"),
        ];
        for (role, text) in roles {
            assert_eq!(role.to_string(), text);
            assert_eq!(ron::to_string(&role).unwrap(), format!("\"{text}\""));
        }
    }
}
