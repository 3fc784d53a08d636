//! Genome files: a game's weights by name, in RON.
//!
//! ```ron
//! (
//!     game: "isolation",
//!     weights: {
//!         "own_mobility": 10,
//!         "opp_mobility": -12,
//!     },
//! )
//! ```
//! Every declared weight must be present, in range and on its step grid; an
//! unknown name is an error (a typo must not silently fall back to a default).

use crate::params::ParamSpec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A set of weights for one game, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genome {
    pub weights: Vec<i32>,
}

#[derive(Debug, thiserror::Error)]
pub enum GenomeError {
    // Not named `source`: the message already says it, and a source would
    // be printed a second time by anyhow's `{:#}`.
    #[error("{path}: cannot read genome: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenomeFile {
    game: String,
    weights: UniqueWeights,
}

/// The weights by name. A plain map would keep the last of two entries with
/// one name, silently dropping a value the user wrote; this refuses it.
struct UniqueWeights(BTreeMap<String, i32>);

impl<'de> Deserialize<'de> for UniqueWeights {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = UniqueWeights;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map from weight names to integers")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<UniqueWeights, A::Error> {
                let mut weights = BTreeMap::new();
                while let Some((name, value)) = map.next_entry::<String, i32>()? {
                    if weights.insert(name.clone(), value).is_some() {
                        return Err(serde::de::Error::custom(format!(
                            "weight `{name}` is given twice; keep one"
                        )));
                    }
                }
                Ok(UniqueWeights(weights))
            }
        }
        d.deserialize_map(Visitor)
    }
}

impl Genome {
    pub fn defaults(params: &[ParamSpec]) -> Self {
        Genome {
            weights: params.iter().map(|p| p.default).collect(),
        }
    }

    /// Reads and checks a genome file for `game`.
    pub fn load(path: &Path, game: &str, params: &[ParamSpec]) -> Result<Self, GenomeError> {
        let text = std::fs::read_to_string(path).map_err(|error| GenomeError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Self::parse(&text, game, params).map_err(|message| GenomeError::Invalid {
            path: path.to_path_buf(),
            message,
        })
    }

    /// Parses genome text; the error says what is wrong and where.
    pub fn parse(text: &str, game: &str, params: &[ParamSpec]) -> Result<Self, String> {
        let text = crate::fsutil::without_bom(text);
        let file: GenomeFile = ron::from_str(text).map_err(|e| format!("not a genome: {e}"))?;
        let weights = file.weights.0;
        if file.game != game {
            return Err(format!("this genome is for `{}`, not `{game}`", file.game));
        }
        if let Some(unknown) = weights.keys().find(|k| !params.iter().any(|p| p.name == *k)) {
            let known: Vec<&str> = params.iter().map(|p| p.name).collect();
            return Err(format!("unknown weight `{unknown}`; {game} has: {}", known.join(", ")));
        }
        let weights = params
            .iter()
            .map(|p| {
                let v = *weights
                    .get(p.name)
                    .ok_or_else(|| format!("missing weight `{}`", p.name))?;
                if !p.contains(v) {
                    return Err(format!(
                        "weight `{}` = {v} is outside {}..={} in steps of {}",
                        p.name, p.min, p.max, p.step
                    ));
                }
                Ok(v)
            })
            .collect::<Result<Vec<i32>, String>>()?;
        Ok(Genome { weights })
    }

    /// The genome as RON, weights in declaration order, after a `//` comment
    /// line saying where it came from.
    pub fn to_ron(&self, game: &str, params: &[ParamSpec], comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("// {line}\n"));
        }
        out.push_str(&format!("(\n    game: \"{game}\",\n    weights: {{\n"));
        for (p, v) in params.iter().zip(&self.weights) {
            out.push_str(&format!("        \"{}\": {v},\n", p.name));
        }
        out.push_str("    },\n)\n");
        out
    }

    /// Writes the genome atomically.
    pub fn save(&self, path: &Path, game: &str, params: &[ParamSpec], comment: &str) -> std::io::Result<()> {
        crate::fsutil::write_atomic(path, self.to_ron(game, params, comment).as_bytes())
    }
}
