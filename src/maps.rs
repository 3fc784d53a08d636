//! Map files shared by every game: the error type and loading a map set.

use std::fmt;
use std::marker::PhantomData;
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

/// The map text format the grid games share: a `W H` line, then `H` rows of
/// `W` characters, `.` free, `#` wall, `0` and `1` the start squares. Blank
/// lines, trailing spaces and `\r` are ignored; `//` lines are comments.
/// Walls and starts must be symmetric under a 180-degree rotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridMap {
    pub width: usize,
    pub height: usize,
    /// `walls[y][x]`.
    pub walls: Vec<Vec<bool>>,
    /// Start squares of players 0 and 1, as `(x, y)`.
    pub starts: [(usize, usize); 2],
}

/// The board sizes a game allows.
#[derive(Clone, Debug)]
pub struct GridSizes {
    pub widths: std::ops::RangeInclusive<usize>,
    pub heights: std::ops::RangeInclusive<usize>,
}

impl GridMap {
    /// Parses map text and checks its sizes and symmetry; `origin` names the
    /// file in errors.
    pub fn parse(text: &str, origin: &str, sizes: &GridSizes) -> Result<Self, MapError> {
        let err = |line: usize, message: String| MapError::new(origin, line, message);
        let mut lines = content_lines(text).into_iter();

        let (line_no, header) = lines
            .next()
            .ok_or_else(|| err(1, "empty map: expected a `W H` line".into()))?;
        let dims: Vec<Option<usize>> = header.split_whitespace().map(|s| s.parse().ok()).collect();
        let (width, height) = match dims.as_slice() {
            [Some(w), Some(h)] => (*w, *h),
            _ => return Err(err(line_no, format!("expected `W H`, found `{header}`"))),
        };
        for (what, v, range) in [("width", width, &sizes.widths), ("height", height, &sizes.heights)] {
            if !range.contains(&v) {
                return Err(err(
                    line_no,
                    format!("{what} {v} is outside {}..={}", range.start(), range.end()),
                ));
            }
        }

        let mut walls = vec![vec![false; width]; height];
        let mut starts: [Option<(usize, usize)>; 2] = [None, None];
        for (y, wall_row) in walls.iter_mut().enumerate() {
            let (line_no, row) = lines
                .next()
                .ok_or_else(|| err(line_no + y + 1, format!("expected {height} rows, found {y}")))?;
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != width {
                return Err(err(
                    line_no,
                    format!("row {y} has {} characters, expected {width}", chars.len()),
                ));
            }
            for (x, c) in chars.into_iter().enumerate() {
                match c {
                    '.' => {}
                    '#' => wall_row[x] = true,
                    '0' | '1' => {
                        let p = (c as u8 - b'0') as usize;
                        if let Some((px, py)) = starts[p] {
                            return Err(err(
                                line_no,
                                format!("second start `{c}` at ({x}, {y}); first at ({px}, {py})"),
                            ));
                        }
                        starts[p] = Some((x, y));
                    }
                    other => {
                        return Err(err(
                            line_no,
                            format!("unexpected `{other}` at ({x}, {y}); expected `.`, `#`, `0` or `1`"),
                        ))
                    }
                }
            }
        }
        if let Some((extra, l)) = lines.next() {
            return Err(err(extra, format!("unexpected text after the board: `{l}`")));
        }
        let start = |p: usize| starts[p].ok_or_else(|| err(1, format!("no start square `{p}`")));
        let map = GridMap {
            width,
            height,
            walls,
            starts: [start(0)?, start(1)?],
        };
        map.check_symmetry().map_err(|m| err(1, m))?;
        Ok(map)
    }

    /// The square a 180-degree rotation takes `(x, y)` to.
    pub fn mirror(&self, (x, y): (usize, usize)) -> (usize, usize) {
        (self.width - 1 - x, self.height - 1 - y)
    }

    /// Walls and starts are symmetric under a 180-degree rotation.
    pub fn check_symmetry(&self) -> Result<(), String> {
        if let Some(((x, y), (mx, my))) = first_asymmetry(self.width, self.height, |x, y| self.walls[y][x]) {
            return Err(format!(
                "walls are not symmetric under 180-degree rotation: ({x}, {y}) is {} but ({mx}, {my}) is {}",
                describe(self.walls[y][x]),
                describe(self.walls[my][mx])
            ));
        }
        let [(x0, y0), (x1, y1)] = self.starts;
        let (mx, my) = self.mirror((x0, y0));
        if (x1, y1) != (mx, my) {
            return Err(format!(
                "start squares are not mirror images: 0 at ({x0}, {y0}) needs 1 at ({mx}, {my}), found ({x1}, {y1})"
            ));
        }
        Ok(())
    }

    /// The map in its text format (parses back to itself).
    pub fn to_text(&self) -> String {
        let mut out = format!("{} {}\n", self.width, self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                out.push(if self.starts[0] == (x, y) {
                    '0'
                } else if self.starts[1] == (x, y) {
                    '1'
                } else if self.walls[y][x] {
                    '#'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out
    }

    /// Free squares (not walls, starts included) that a king's or rook's
    /// steps connect to `from`; `diagonal` adds the diagonal steps.
    pub fn connected_from(&self, from: (usize, usize), diagonal: bool) -> Vec<(usize, usize)> {
        let mut seen = vec![vec![false; self.width]; self.height];
        let mut stack = vec![from];
        let mut out = Vec::new();
        seen[from.1][from.0] = true;
        while let Some((x, y)) = stack.pop() {
            out.push((x, y));
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if !diagonal && dx != 0 && dy != 0 {
                    continue;
                }
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if nx < 0 || ny < 0 || nx >= self.width as i64 || ny >= self.height as i64 {
                    continue;
                }
                let (nx, ny) = (nx as usize, ny as usize);
                if !self.walls[ny][nx] && !seen[ny][nx] {
                    seen[ny][nx] = true;
                    stack.push((nx, ny));
                }
            }
        }
        out
    }
}

/// The first square `(x, y)`, row by row, that a 180-degree rotation of a
/// `width` x `height` board takes to a square that differs from it under
/// `is_set(x, y)`, with that image; `None` when the board is symmetric.
pub fn first_asymmetry(
    width: usize,
    height: usize,
    is_set: impl Fn(usize, usize) -> bool,
) -> Option<((usize, usize), (usize, usize))> {
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| ((x, y), (width - 1 - x, height - 1 - y)))
        .find(|&((x, y), (mx, my))| is_set(x, y) != is_set(mx, my))
}

/// What a game played on grid maps adds to the shared format: the board
/// sizes it allows and its own rules for a playable map.
pub trait GridRules: Sized {
    /// The board sizes the game allows.
    const SIZES: GridSizes;

    /// The game's own rules, on a map already in the shared format and
    /// symmetric.
    fn check(map: &GameGrid<Self>) -> Result<(), String>;
}

/// A map of the grid game `G`: the shared format, checked against `G`'s sizes
/// and rules (Isolation's and Light Cycles' map types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameGrid<G>(pub GridMap, PhantomData<G>);

impl<G> std::ops::Deref for GameGrid<G> {
    type Target = GridMap;
    fn deref(&self) -> &GridMap {
        &self.0
    }
}

impl<G: GridRules> GameGrid<G> {
    /// Parses and validates map text; `origin` names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, MapError> {
        let map = GridMap::parse(text, origin, &G::SIZES)?;
        Self::new(map).map_err(|m| MapError::new(origin, 1, m))
    }

    /// `map` if it is symmetric and `G`'s rules accept it.
    pub fn new(map: GridMap) -> Result<Self, String> {
        map.check_symmetry()?;
        let map = GameGrid(map, PhantomData);
        G::check(&map)?;
        Ok(map)
    }
}

/// The lines of a map file that carry content, numbered from 1: trailing
/// spaces, tabs and `\r` removed, blank lines and `//` comments skipped, a
/// leading UTF-8 byte-order mark ignored.
pub fn content_lines(text: &str) -> Vec<(usize, &str)> {
    let text = crate::fsutil::without_bom(text);
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches([' ', '\r', '\t'])))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with("//"))
        .collect()
}

/// Symmetric random walls: each mirror pair is a wall with probability
/// `density`.
pub fn symmetric_noise(rng: &mut impl rand::Rng, width: usize, height: usize, density: f64) -> Vec<Vec<bool>> {
    use rand::RngExt;
    let mut walls = vec![vec![false; width]; height];
    for y in 0..height {
        for x in 0..width {
            // Decide each mirror pair once, from its first square.
            let (mx, my) = (width - 1 - x, height - 1 - y);
            if (y, x) <= (my, mx) && rng.random_bool(density) {
                walls[y][x] = true;
                walls[my][mx] = true;
            }
        }
    }
    walls
}

fn describe(wall: bool) -> &'static str {
    if wall {
        "a wall"
    } else {
        "free"
    }
}

#[cfg(test)]
mod tests {
    use super::first_asymmetry;

    #[test]
    fn first_asymmetry_names_the_first_square_whose_image_differs() {
        let on = |set: &'static [(usize, usize)]| move |x, y| set.contains(&(x, y));
        assert_eq!(first_asymmetry(3, 2, on(&[(0, 0)])), Some(((0, 0), (2, 1))));
        assert_eq!(first_asymmetry(3, 2, on(&[(2, 1)])), Some(((0, 0), (2, 1))));
        assert_eq!(first_asymmetry(3, 2, on(&[(0, 0), (2, 1), (1, 0), (1, 1)])), None);
        // The centre of an odd board is its own image.
        assert_eq!(first_asymmetry(3, 3, on(&[(1, 1)])), None);
        assert_eq!(first_asymmetry(4, 1, on(&[(1, 0)])), Some(((1, 0), (2, 0))));
    }
}
