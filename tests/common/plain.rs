//! Plain move generators: the rules written the naive way (walk the grid
//! square by square, no bitboards), independent of the games' own code, so
//! that perft and random games can be checked against them. A game that has
//! one implements [`PlainRules`]; tests/plain_perft.rs checks every such
//! registered game through one generic function.

use gridtune::game::{Game, ToMove};
use gridtune::games::isolation::rules::xy;
use gridtune::games::isolation::{Isolation, IsolationMove};
use gridtune::games::slime::Slime;

/// A game whose rules also exist in a plain, independent form.
pub trait PlainRules: Game {
    /// The number of move sequences of `depth` plies from `self`, counted by
    /// the plain generator (a forced pass counts once, as in `perft`).
    fn plain_perft(&self, depth: u32) -> u64;
}

/// Isolation's queen moves computed the plain way: walk each direction
/// square by square until the edge, a block or a player.
pub fn isolation_moves(state: &Isolation, p: usize) -> Vec<(usize, usize)> {
    let rows = state.rows();
    let (w, h) = (state.width() as i32, state.height() as i32);
    let (x0, y0) = xy(state.position(p));
    let mut out = Vec::new();
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let (mut x, mut y) = (x0 as i32 + dx, y0 as i32 + dy);
        while x >= 0 && y >= 0 && x < w && y < h && rows[y as usize].as_bytes()[x as usize] == b'.' {
            out.push((x as usize, y as usize));
            x += dx;
            y += dy;
        }
    }
    out.sort();
    out
}

impl PlainRules for Isolation {
    fn plain_perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        isolation_moves(self, self.side())
            .into_iter()
            .map(|(x, y)| {
                let mut child = *self;
                child.play(IsolationMove::from_xy(x, y));
                child.plain_perft(depth - 1)
            })
            .sum()
    }
}

/// An action of the plain Slime rules: from a square to a square, as
/// `(row, column)` pairs.
pub type SlimeAction = ((usize, usize), (usize, usize));

/// Slime's rules the plain way, on a grid of seats.
#[derive(Clone)]
pub struct PlainSlime {
    pub n: usize,
    pub grid: Vec<Vec<Option<usize>>>,
}

impl PlainSlime {
    pub fn from(state: &Slime) -> Self {
        let grid = state
            .rows()
            .iter()
            .map(|r| r.bytes().map(|b| (b != b'.').then(|| (b - b'1') as usize)).collect())
            .collect();
        PlainSlime { n: state.size(), grid }
    }

    /// Every spread (to an empty square one away), jump (two away) and merge
    /// (onto its own slime one away) of player `p`, passes apart.
    pub fn actions(&self, p: usize) -> Vec<SlimeAction> {
        let mut out = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if self.grid[r][c] != Some(p) {
                    continue;
                }
                for tr in 0..self.n {
                    for tc in 0..self.n {
                        let d = r.abs_diff(tr).max(c.abs_diff(tc));
                        let t = self.grid[tr][tc];
                        if (t.is_none() && (d == 1 || d == 2)) || (t == Some(p) && d == 1) {
                            out.push(((r, c), (tr, tc)));
                        }
                    }
                }
            }
        }
        out
    }

    pub fn apply(&mut self, p: usize, (from, to): SlimeAction) {
        let around: Vec<(usize, usize)> = (0..self.n)
            .flat_map(|r| (0..self.n).map(move |c| (r, c)))
            .filter(|&(r, c)| r.abs_diff(to.0).max(c.abs_diff(to.1)) == 1)
            .collect();
        let d = from.0.abs_diff(to.0).max(from.1.abs_diff(to.1));
        if self.grid[to.0][to.1].is_none() {
            if d == 2 {
                self.grid[from.0][from.1] = None;
            }
            self.grid[to.0][to.1] = Some(p);
            for (r, c) in around {
                if self.grid[r][c].is_some() {
                    self.grid[r][c] = Some(p);
                }
            }
        } else {
            for (r, c) in around {
                if self.grid[r][c].is_none() {
                    self.grid[r][c] = Some(p);
                }
            }
            self.grid[from.0][from.1] = None;
        }
    }

    /// Perft with player `p` to move; a full board ends the game, and a
    /// player with no action passes.
    pub fn perft(&self, p: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.grid.iter().flatten().all(|s| s.is_some()) {
            return 0;
        }
        let actions = self.actions(p);
        if actions.is_empty() {
            return self.perft((p + 1) % 4, depth - 1);
        }
        actions
            .into_iter()
            .map(|a| {
                let mut next = self.clone();
                next.apply(p, a);
                next.perft((p + 1) % 4, depth - 1)
            })
            .sum()
    }
}

/// The plain rules know no turn limit: at the shallow depths checked, the
/// states they are given are far from it.
impl PlainRules for Slime {
    fn plain_perft(&self, depth: u32) -> u64 {
        match self.to_move() {
            ToMove::One(p) => PlainSlime::from(self).perft(p, depth),
            _ if depth == 0 => 1,
            _ => 0,
        }
    }
}
