//! Clones of the statement's Slime bots. A clone makes the move that the
//! original program's output makes on the real control program, quirks
//! included: a reply that does not end its line is a pass there, so
//! DeathSlime (Ruby `STDOUT.write`) and Lichen (R `cat`) pass on every turn.
//! The deterministic clones are compared with the original programs in
//! tests/slime_clones.rs.

use super::rules::{rc, square, Slime, SlimeMove, SlimeMoves};
use crate::bots::Bot;
use crate::game::Player;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The judge clones, by the names specs use, in the statement's order.
pub const JUDGES: &[&str] = &[
    "greedy_slime",
    "shallow_blue",
    "jumper",
    "death_slime",
    "lichen",
    "corner_slime",
    "simplebot",
];

/// Nodes a move of the `engine` judge (`crate::games::kit::ENGINE_JUDGE`):
/// the evolve budget, where it already holds 51% of the squares against the
/// clones' 29% at most (`greedy_slime`; holdout maps, every seating).
pub const ENGINE_NODES: u64 = 1_000;

pub fn judge(name: &str, seed: u64) -> Option<Box<dyn Bot<Slime>>> {
    let rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Some(match name {
        "greedy_slime" => Box::new(GreedySlime),
        "jumper" => Box::new(Jumper),
        // DeathSlime prints its move without a newline: always a pass.
        "death_slime" => Box::new(Passer),
        "lichen" => Box::new(Lichen),
        "simplebot" => Box::new(SimpleBot { rng }),
        "corner_slime" => Box::new(CornerSlime),
        "shallow_blue" => Box::new(super::shallow_blue::ShallowBlue { rng }),
        _ => return None,
    })
}

/// The eight neighbours of `(r, c)` that are on an `n x n` board.
fn neighbours(n: usize, r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
    (-1i32..=1)
        .flat_map(move |i| (-1i32..=1).map(move |j| (i, j)))
        .filter(|&(i, j)| i != 0 || j != 0)
        .map(move |(i, j)| (r as i32 + i, c as i32 + j))
        .filter(move |&(a, b)| a >= 0 && b >= 0 && a < n as i32 && b < n as i32)
        .map(|(a, b)| (a as usize, b as usize))
}

/// GreedySlime.py: the best immediate net gain (spread +1, jump 0, merge -1,
/// plus the squares converted or filled); the first maximum in generation
/// order (source row, column, then deltas -2..=2 by -2..=2). With no move at
/// all, `max` of nothing raises and the crash is a pass.
pub struct GreedySlime;

impl Bot<Slime> for GreedySlime {
    fn choose(&mut self, state: &Slime, p: Player) -> SlimeMove {
        let n = state.size();
        let owner = |r: usize, c: usize| state.owner(square(r, c));
        let mut best: Option<(i32, SlimeMove)> = None;
        for r0 in 0..n {
            for c0 in 0..n {
                if owner(r0, c0) != Some(p) {
                    continue;
                }
                for i in -2i32..=2 {
                    for j in -2i32..=2 {
                        if i == 0 && j == 0 {
                            continue;
                        }
                        let (r1, c1) = (r0 as i32 + i, c0 as i32 + j);
                        if r1 < 0 || c1 < 0 || r1 >= n as i32 || c1 >= n as i32 {
                            continue;
                        }
                        let (r1, c1) = (r1 as usize, c1 as usize);
                        let target = owner(r1, c1);
                        let near = i.abs() <= 1 && j.abs() <= 1;
                        let (initial, merge) = match (near, target) {
                            (true, None) => (1, false),
                            (true, Some(q)) if q == p => (-1, true),
                            (false, None) => (0, false),
                            _ => continue,
                        };
                        let gain = neighbours(n, r1, c1)
                            .filter(|&(a, b)| match owner(a, b) {
                                None => merge,
                                Some(q) => !merge && q != p,
                            })
                            .count() as i32;
                        let net = initial + gain;
                        if best.is_none_or(|(b, _)| net > b) {
                            best = Some((net, SlimeMove::new((r0, c0), (r1, c1))));
                        }
                    }
                }
            }
        }
        best.map_or(SlimeMove::PASS, |(_, m)| m)
    }
}

/// Jumper.cpp: moves (at distance 1 or 2, despite its name) to the empty
/// square nearest the centre, rounding the distance to an integer; the first
/// minimum over its own squares in row-major order. Its bounds check is
/// `> 0`, so it never lands in row 0 or column 0. Passes when nothing fits.
pub struct Jumper;

impl Jumper {
    /// `CalcRadius`: the rounded float distance from `(n/2, n/2)`.
    fn radius(n: usize, r: usize, c: usize) -> i32 {
        let mid = n as f32 / 2.0;
        let (dr, dc) = (r as f32 - mid, c as f32 - mid);
        ((dr * dr + dc * dc).sqrt() + 0.5) as i32
    }
}

impl Bot<Slime> for Jumper {
    fn choose(&mut self, state: &Slime, p: Player) -> SlimeMove {
        let n = state.size();
        let mut best: Option<(i32, SlimeMove)> = None;
        for r in 0..n {
            for c in 0..n {
                if state.owner(square(r, c)) != Some(p) {
                    continue;
                }
                let mut cell_best: Option<(i32, SlimeMove)> = None;
                for dr in -2i32..3 {
                    for dc in -2i32..3 {
                        let (tr, tc) = (r as i32 + dr, c as i32 + dc);
                        let distance = dr.abs().max(dc.abs());
                        if tr > 0
                            && tr < n as i32
                            && tc > 0
                            && tc < n as i32
                            && (1..=2).contains(&distance)
                            && state.owner(square(tr as usize, tc as usize)).is_none()
                        {
                            let rad = Self::radius(n, tr as usize, tc as usize);
                            if cell_best.is_none_or(|(b, _)| rad < b) {
                                cell_best = Some((rad, SlimeMove::new((r, c), (tr as usize, tc as usize))));
                            }
                        }
                    }
                }
                if let Some((rad, m)) = cell_best {
                    if rad < best.map_or(1000, |(b, _)| b) {
                        best = Some((rad, m));
                    }
                }
            }
        }
        best.map_or(SlimeMove::PASS, |(_, m)| m)
    }
}

/// Always passes: what the control program makes of a reply with no newline.
pub struct Passer;

impl Bot<Slime> for Passer {
    fn choose(&mut self, _state: &Slime, _p: Player) -> SlimeMove {
        SlimeMove::PASS
    }
}

/// Lichen.R prints with `cat` and no newline, so its single-string replies
/// are all passes. But with exactly one slime it builds its reply with
/// `paste` over vectors: when a vector has two entries R prints two moves on
/// one line, the control program finds text after the fourth integer, and
/// the first move counts: from its slime diagonally to (row + 1 or row - 1,
/// col + 1 or col - 1), the first of each that lies in rows/columns 1..=n-2.
/// (A zero-length vector leaves a number out: a pass.)
pub struct Lichen;

impl Bot<Slime> for Lichen {
    fn choose(&mut self, state: &Slime, p: Player) -> SlimeMove {
        let mine = state.squares(p);
        if mine.count_ones() != 1 {
            return SlimeMove::PASS;
        }
        let n = state.size() as i32;
        let (r, c) = rc(mine.trailing_zeros() as u8);
        let inner = |v: i32| v >= 1 && v <= n - 2;
        let rows: Vec<i32> = [r as i32 + 1, r as i32 - 1].into_iter().filter(|&v| inner(v)).collect();
        let cols: Vec<i32> = [c as i32 + 1, c as i32 - 1].into_iter().filter(|&v| inner(v)).collect();
        if rows.is_empty() || cols.is_empty() || rows.len().max(cols.len()) < 2 {
            return SlimeMove::PASS;
        }
        SlimeMove::new((r, c), (rows[0] as usize, cols[0] as usize))
    }
}

/// The control program's sample: a random spread if any exists, else a
/// random jump, else a pass.
pub struct SimpleBot {
    rng: Xoshiro256PlusPlus,
}

impl Bot<Slime> for SimpleBot {
    fn choose(&mut self, state: &Slime, p: Player) -> SlimeMove {
        let mut actions = SlimeMoves::new();
        state.actions(p, &mut actions);
        let empty = state.empty();
        let distance = |m: &SlimeMove| {
            let ((a, b), (c, d)) = (rc(m.from), rc(m.to));
            a.abs_diff(c).max(b.abs_diff(d))
        };
        let to_empty = |m: &&SlimeMove| empty & (1u128 << m.to) != 0;
        let spreads: Vec<SlimeMove> = actions
            .iter()
            .filter(to_empty)
            .filter(|m| distance(m) == 1)
            .copied()
            .collect();
        let jumps: Vec<SlimeMove> = actions
            .iter()
            .filter(to_empty)
            .filter(|m| distance(m) == 2)
            .copied()
            .collect();
        let pool = if spreads.is_empty() { &jumps } else { &spreads };
        if pool.is_empty() {
            SlimeMove::PASS
        } else {
            pool[self.rng.random_range(0..pool.len())]
        }
    }
}

/// CornerSlime.cpp: fill its own corner quadrant, then attack. A faithful
/// port of its quirks: the quadrant it calls home is its start corner unless
/// quadrant 1, 2 or 3 (never 0) holds more of its slime; neighbours are
/// visited in the order of its `ring` walk (top row, bottom row, left
/// column, right column); its "target" is picked but never used; the board
/// is read as 8 x 8.
pub struct CornerSlime;

/// CornerSlime's per-square bookkeeping (its `Cell`).
#[derive(Clone, Copy, Default)]
struct Cell {
    t: usize,
    counts1: [i32; 5],
    counts2: [i32; 5],
    ecount1: i32,
    safe2: bool,
    canspread: bool,
    canjump: bool,
    canmerge: bool,
    spreadable: bool,
    jumpable: bool,
    mergeable: bool,
}

const CORNER_DIM: i32 = 8;
const CORNER_HALF: usize = 4;

/// The squares of the `size x size` block at `(row, col)`, row by row.
fn block(row: usize, col: usize, size: usize) -> impl Iterator<Item = (usize, usize)> {
    (row..row + size).flat_map(move |i| (col..col + size).map(move |j| (i, j)))
}

/// The squares at Chebyshev distance exactly `dist` from `(x, y)`, clipped
/// to the board, in the order CornerSlime's `ring`/`nextR` walk them.
fn corner_ring(x: i32, y: i32, dist: i32) -> Vec<(usize, usize)> {
    let (tlx, tly, thx, thy) = (x - dist, y - dist, x + dist, y + dist);
    let (mut alx, aly) = (tlx.max(0), tly.max(0));
    let (mut ahx, ahy) = (thx.min(CORNER_DIM - 1), thy.min(CORNER_DIM - 1));
    let mut out = Vec::new();
    if alx == tlx {
        out.extend((aly..=ahy).map(|j| (alx as usize, j as usize)));
        alx += 1;
    }
    if ahx == thx {
        out.extend((aly..=ahy).map(|j| (ahx as usize, j as usize)));
        ahx -= 1;
    }
    if aly == tly {
        out.extend((alx..=ahx).map(|i| (i as usize, aly as usize)));
    }
    if ahy == thy {
        out.extend((alx..=ahx).map(|i| (i as usize, ahy as usize)));
    }
    out
}

impl Bot<Slime> for CornerSlime {
    fn choose(&mut self, state: &Slime, p: Player) -> SlimeMove {
        let dim = CORNER_DIM as usize;
        if state.size() != dim {
            return SlimeMove::PASS;
        }
        let moi = p + 1;
        let mut cells = [[Cell::default(); 8]; 8];
        for (i, row) in cells.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                cell.t = state.owner(square(i, j)).map_or(0, |q| q + 1);
            }
        }
        let mut corner_counts = [[0i32; 5]; 4];
        for (idx, counts) in corner_counts.iter_mut().enumerate() {
            let (ox, oy) = ((idx / 2) * CORNER_HALF, (idx % 2) * CORNER_HALF);
            for (i, j) in block(ox, oy, CORNER_HALF) {
                counts[cells[i][j].t] += 1;
            }
        }
        for (i, j) in block(0, 0, dim) {
            let mut c = cells[i][j];
            for (dist, counts) in [(1, &mut c.counts1), (2, &mut c.counts2)] {
                for (a, b) in corner_ring(i as i32, j as i32, dist) {
                    counts[cells[a][b].t] += 1;
                }
            }
            let enemies = |counts: &[i32; 5]| (1..5).filter(|&r| r != moi).map(|r| counts[r]).sum::<i32>();
            c.ecount1 = enemies(&c.counts1);
            c.safe2 = c.ecount1 == 0 && enemies(&c.counts2) == 0;
            if c.t == 0 {
                c.spreadable = c.counts1[moi] > 0;
                c.jumpable = c.counts2[moi] > 0;
            } else if c.t == moi {
                c.mergeable = c.counts1[moi] > 0;
                c.canmerge = c.mergeable;
                c.canspread = c.counts1[0] > 0;
                c.canjump = c.counts2[0] > 0;
            }
            cells[i][j] = c;
        }
        let first_in_ring = |i: usize, j: usize, dist: i32, test: &dyn Fn(&Cell) -> bool| {
            corner_ring(i as i32, j as i32, dist)
                .into_iter()
                .find(|&(a, b)| test(&cells[a][b]))
        };

        // Home: its start quadrant, unless quadrant 1..=3 holds more.
        let mut home = moi - 1;
        for i in 1..4 {
            if corner_counts[i][moi] > corner_counts[home][moi] {
                home = i;
            }
        }
        if corner_counts[home][moi] < (CORNER_HALF * CORNER_HALF) as i32 {
            let (ox, oy) = ((home / 2) * CORNER_HALF, (home % 2) * CORNER_HALF);
            let mut best = 0;
            let mut pick = None;
            for (i, j) in block(ox, oy, CORNER_HALF) {
                let c = cells[i][j];
                if c.spreadable && c.ecount1 + 1 > best {
                    if let Some(from) = first_in_ring(i, j, 1, &|o| o.canspread) {
                        best = c.ecount1 + 1;
                        pick = Some((from, (i, j)));
                    }
                }
                if c.mergeable && c.counts1[0] - 1 > best {
                    let empties = c.counts1[0];
                    if let Some(from) = first_in_ring(i, j, 1, &|o| o.safe2 && o.canmerge && empties > 0) {
                        best = c.counts1[0] - 1;
                        pick = Some((from, (i, j)));
                    }
                }
            }
            if let Some((from, to)) = pick {
                return SlimeMove::new(from, to);
            }
        }

        // Attack: its target choice never reaches the moves below.
        let mut best = 0;
        let mut pick = None;
        for (i, j) in block(0, 0, dim) {
            let c = cells[i][j];
            if c.spreadable && c.ecount1 + 1 > best {
                if let Some(from) = first_in_ring(i, j, 1, &|o| o.canspread) {
                    best = c.ecount1 + 1;
                    pick = Some((from, (i, j)));
                }
            }
            if c.jumpable && c.ecount1 - 1 > best {
                if let Some(from) = first_in_ring(i, j, 2, &|o| o.safe2 && o.canjump) {
                    best = c.ecount1 - 1;
                    pick = Some((from, (i, j)));
                }
            }
        }
        pick.map_or(SlimeMove::PASS, |(from, to)| SlimeMove::new(from, to))
    }
}
