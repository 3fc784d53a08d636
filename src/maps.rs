//! Map files shared by every game: the error type and loading a map set.

use std::fmt;
use std::path::{Path, PathBuf};

/// A map that cannot be used, with the file and line that say why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapError {
    pub origin: String,
    pub line: usize,
    pub message: String,
}

impl MapError {
    pub fn new(origin: &str, line: usize, message: impl Into<String>) -> Self {
        MapError {
            origin: origin.to_string(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.origin, self.line, self.message)
    }
}

impl std::error::Error for MapError {}

/// A map with the name it is reported under (its file stem).
#[derive(Clone, Debug)]
pub struct NamedMap<M> {
    pub name: String,
    pub map: M,
}

/// Loads every `*.txt` map in `dir`, sorted by file name so runs see maps in a
/// fixed order. An empty folder is an error: a run on no maps measures nothing.
pub fn load_dir<M>(
    dir: &Path,
    parse: impl Fn(&str, &str) -> Result<M, MapError>,
) -> Result<Vec<NamedMap<M>>, MapError> {
    let origin = dir.display().to_string();
    let entries =
        std::fs::read_dir(dir).map_err(|e| MapError::new(&origin, 0, format!("cannot read map folder: {e}")))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(MapError::new(&origin, 0, "no *.txt maps in this folder"));
    }
    files.iter().map(|f| load_file(f, &parse)).collect()
}

/// Loads one map file.
pub fn load_file<M>(file: &Path, parse: impl Fn(&str, &str) -> Result<M, MapError>) -> Result<NamedMap<M>, MapError> {
    let origin = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| MapError::new(&origin, 0, format!("cannot read map: {e}")))?;
    Ok(NamedMap {
        name: file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        map: parse(&text, &origin)?,
    })
}
