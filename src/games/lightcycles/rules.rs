//! Light Cycles on a 512-bit bitboard.
//!
//! Cell `(x, y)` is bit `y * STRIDE + x` with a stride of 26 for every width up
//! to 25: column 25 is a guard column that is never free, so flood fills by
//! shifting stop at the side edges. Both bikes move at once
//! ([`ToMove::All`]); the numbered rules of the statement are applied in
//! [`LightCycles::play_turn`]. Standard library only.

use crate::bitboard::Bits512;
use crate::game::{mix64, Game, MoveList, Outcome, Player, ToMove};

/// Bits per board row; column `STRIDE - 1` is the guard column.
pub const STRIDE: usize = 26;
pub const MIN_WIDTH: usize = 15;
pub const MAX_WIDTH: usize = 25;
pub const MIN_HEIGHT: usize = 10;
pub const MAX_HEIGHT: usize = 18;
/// After this many turns the game is a draw.
pub const TURN_LIMIT: u16 = 300;

/// A bike's move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    #[default]
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [Direction::Up, Direction::Down, Direction::Left, Direction::Right];

    /// The protocol's word for it.
    pub fn word(self) -> &'static str {
        match self {
            Direction::Up => "UP",
            Direction::Down => "DOWN",
            Direction::Left => "LEFT",
            Direction::Right => "RIGHT",
        }
    }

    /// Parses the protocol's word (upper case only, as the statement says).
    pub fn from_word(word: &str) -> Option<Self> {
        Direction::ALL.into_iter().find(|d| d.word() == word)
    }

    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// Every direction is a legal move (most may be fatal): four at most.
pub type LightMoves = MoveList<Direction, 4>;

/// Why a bike was eliminated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crash {
    OffBoard,
    Wall,
    /// Into a trail; the owner may be the bike itself.
    Trail {
        owner: Player,
    },
    /// Into the cell the other bike occupied at the start of the turn.
    Bike,
    /// Both bikes into the same empty cell.
    SameCell,
    /// Timed out, crashed or printed an invalid line: out before moving.
    Failed,
}

/// A bike's elimination: why, where it tried to go, and on which turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elimination {
    pub crash: Crash,
    /// The cell it moved into (off the board included); its own cell for `Failed`.
    pub at: (i32, i32),
    pub turn: u16,
}

#[inline]
pub fn cell(x: usize, y: usize) -> usize {
    y * STRIDE + x
}

#[inline]
pub fn xy(c: usize) -> (usize, usize) {
    (c % STRIDE, c / STRIDE)
}

/// The four neighbours of every cell of `from`, restricted to `free`.
#[inline]
pub fn neighbours(from: Bits512, free: Bits512) -> Bits512 {
    (from.up(1) | from.down(1) | from.up(STRIDE as u32) | from.down(STRIDE as u32)) & free
}

/// The cells of `free` that a bike at `from` can reach (4-connected).
pub fn flood(from: Bits512, free: Bits512) -> Bits512 {
    let mut seen = neighbours(from, free);
    let mut frontier = seen;
    while !frontier.is_empty() {
        frontier = neighbours(frontier, free).and_not(seen);
        seen |= frontier;
    }
    seen
}

/// A Light Cycles position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightCycles {
    width: u8,
    height: u8,
    walls: Bits512,
    /// Each bike's trail, its current cell included.
    trails: [Bits512; 2],
    /// Cells a bike may enter: on the board, not a wall, not a trail.
    free: Bits512,
    heads: [u16; 2],
    /// Turns played.
    turns: u16,
    eliminated: [Option<Elimination>; 2],
    /// Zobrist-style hash of the trails, kept as they grow.
    trail_hash: u64,
}

fn trail_key(c: usize, p: Player) -> u64 {
    mix64((c as u64) << 1 | p as u64)
}

impl LightCycles {
    /// A start position: `walls` on a `width x height` board, bikes at `starts`.
    pub fn new(width: usize, height: usize, walls: Bits512, starts: [(usize, usize); 2]) -> Self {
        let mut board = Bits512::EMPTY;
        for y in 0..height {
            for x in 0..width {
                board.set(cell(x, y));
            }
        }
        let mut state = LightCycles {
            width: width as u8,
            height: height as u8,
            walls,
            trails: [Bits512::EMPTY; 2],
            free: board.and_not(walls),
            heads: [0; 2],
            turns: 0,
            eliminated: [None; 2],
            trail_hash: 0,
        };
        for (p, &(x, y)) in starts.iter().enumerate() {
            state.occupy(p, cell(x, y));
        }
        state
    }

    /// A position from the protocol's parts: trails include the heads.
    pub fn from_parts(
        width: usize,
        height: usize,
        walls: Bits512,
        trails: [Bits512; 2],
        heads: [(usize, usize); 2],
        turns: u16,
    ) -> Self {
        let mut state = Self::new(width, height, walls, heads);
        for (p, trail) in trails.iter().enumerate() {
            for c in trail.ones() {
                if !state.trails[p].has(c) {
                    state.occupy(p, c);
                }
            }
        }
        state.heads = heads.map(|(x, y)| cell(x, y) as u16);
        state.turns = turns;
        state
    }

    fn occupy(&mut self, p: Player, c: usize) {
        self.trails[p].set(c);
        self.free.clear(c);
        self.heads[p] = c as u16;
        self.trail_hash ^= trail_key(c, p);
    }

    pub fn width(&self) -> usize {
        self.width as usize
    }
    pub fn height(&self) -> usize {
        self.height as usize
    }
    pub fn free(&self) -> Bits512 {
        self.free
    }
    pub fn walls(&self) -> Bits512 {
        self.walls
    }
    pub fn trail(&self, p: Player) -> Bits512 {
        self.trails[p]
    }
    pub fn head(&self, p: Player) -> usize {
        self.heads[p] as usize
    }
    pub fn head_xy(&self, p: Player) -> (usize, usize) {
        xy(self.head(p))
    }
    /// Turns played; the protocol's next turn number is one more.
    pub fn turns(&self) -> u16 {
        self.turns
    }
    pub fn elimination(&self, p: Player) -> Option<Elimination> {
        self.eliminated[p]
    }

    /// The cell `d` leads to from `p`'s head, if it is on the board.
    #[inline]
    pub fn target(&self, p: Player, d: Direction) -> Option<usize> {
        let (x, y) = self.head_xy(p);
        let (dx, dy) = d.delta();
        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
        let on_board = nx >= 0 && ny >= 0 && nx < self.width as i32 && ny < self.height as i32;
        on_board.then(|| cell(nx as usize, ny as usize))
    }

    /// True when moving `d` does not crash into the board's edge, a wall or a
    /// trail (it may still meet the other bike in the same cell).
    #[inline]
    pub fn is_safe(&self, p: Player, d: Direction) -> bool {
        self.target(p, d).is_some_and(|c| self.free.has(c))
    }

    /// Plays one turn. `None` is a bike whose bot failed (timeout, crash or
    /// invalid line): it is eliminated before the bikes move, and the other
    /// bike still moves.
    pub fn play_turn(&mut self, moves: [Option<Direction>; 2]) {
        debug_assert_eq!(self.to_move(), ToMove::All);
        self.turns += 1;
        let turn = self.turns;
        let mut targets: [Option<usize>; 2] = [None; 2];
        for p in 0..2 {
            let (x, y) = self.head_xy(p);
            let Some(d) = moves[p] else {
                self.eliminated[p] = Some(Elimination {
                    crash: Crash::Failed,
                    at: (x as i32, y as i32),
                    turn,
                });
                continue;
            };
            let (dx, dy) = d.delta();
            let at = (x as i32 + dx, y as i32 + dy);
            let crash = match self.target(p, d) {
                None => Some(Crash::OffBoard),
                Some(c) if self.walls.has(c) => Some(Crash::Wall),
                // Rule: into the cell the other bike occupies now (checked
                // before trails: that cell is part of its trail too).
                Some(c) if c == self.head(1 - p) => Some(Crash::Bike),
                Some(c) if self.trails[0].has(c) => Some(Crash::Trail { owner: 0 }),
                Some(c) if self.trails[1].has(c) => Some(Crash::Trail { owner: 1 }),
                Some(c) => {
                    targets[p] = Some(c);
                    None
                }
            };
            if let Some(crash) = crash {
                self.eliminated[p] = Some(Elimination { crash, at, turn });
            }
        }
        if let (Some(a), Some(b)) = (targets[0], targets[1]) {
            if a == b {
                let (x, y) = xy(a);
                self.eliminated = [Some(Elimination {
                    crash: Crash::SameCell,
                    at: (x as i32, y as i32),
                    turn,
                }); 2];
                targets = [None; 2];
            }
        }
        for (p, target) in targets.into_iter().enumerate() {
            if let Some(c) = target {
                self.occupy(p, c);
            }
        }
    }

    /// Moves one bike into cell `c` with no turn passing: for lookahead that
    /// holds the other bike still. `c` must be free.
    pub fn advance_alone(&mut self, p: Player, c: usize) {
        debug_assert!(self.free.has(c));
        self.occupy(p, c);
    }

    /// The statement's result line, e.g. `player 0 hit a wall at (3,0) on turn 3`.
    pub fn result_line(&self) -> Option<String> {
        let describe = |p: Player, e: &Elimination| {
            let (x, y) = e.at;
            let what = match e.crash {
                Crash::OffBoard => format!("drove off the board at ({x},{y})"),
                Crash::Wall => format!("hit a wall at ({x},{y})"),
                Crash::Trail { owner } if owner == p => format!("hit its own trail at ({x},{y})"),
                Crash::Trail { owner } => format!("hit player {owner}'s trail at ({x},{y})"),
                Crash::Bike => format!("hit player {}'s bike at ({x},{y})", 1 - p),
                Crash::SameCell => format!("met the other bike at ({x},{y})"),
                Crash::Failed => "failed to move".to_string(),
            };
            format!("player {p} {what} on turn {}", e.turn)
        };
        match self.eliminated {
            [None, None] if self.turns >= TURN_LIMIT => Some(format!("draw: {TURN_LIMIT} turns played")),
            [None, None] => None,
            [Some(a), None] => Some(describe(0, &a)),
            [None, Some(b)] => Some(describe(1, &b)),
            [Some(a), Some(b)] => Some(format!("draw: {} and {}", describe(0, &a), describe(1, &b))),
        }
    }

    /// The board as the protocol draws it: `.` empty, `#` wall, `0`/`1` trails
    /// and heads.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height())
            .map(|y| {
                (0..self.width())
                    .map(|x| {
                        let c = cell(x, y);
                        if self.trails[0].has(c) {
                            '0'
                        } else if self.trails[1].has(c) {
                            '1'
                        } else if self.walls.has(c) {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

crate::display_rows!(LightCycles);

impl Game for LightCycles {
    type Move = Direction;
    type Moves = LightMoves;

    const NAME: &'static str = "lightcycles";
    const PLAYERS: usize = 2;
    const SIMULTANEOUS: bool = true;

    fn max_length(&self) -> u32 {
        // Every turn that ends with both bikes alive fills two cells.
        (self.free.count() / 2 + 1).min(TURN_LIMIT.saturating_sub(self.turns) as u32)
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.eliminated[0].is_some() || self.eliminated[1].is_some() || self.turns >= TURN_LIMIT {
            ToMove::Over
        } else {
            ToMove::All
        }
    }

    fn legal_moves(&self, _p: Player, out: &mut LightMoves) {
        out.clear();
        for d in Direction::ALL {
            out.push(d);
        }
    }

    fn play(&mut self, _m: Direction) {
        unreachable!("light cycles is simultaneous: use play_joint")
    }

    #[inline]
    fn play_joint(&mut self, moves: &[Direction]) {
        self.play_turn([Some(moves[0]), Some(moves[1])]);
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.eliminated {
            [Some(_), Some(_)] => Some(Outcome::draw()),
            [Some(_), None] => Some(Outcome::win(1)),
            [None, Some(_)] => Some(Outcome::win(0)),
            [None, None] if self.turns >= TURN_LIMIT => Some(Outcome::draw()),
            [None, None] => None,
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        let heads = self.heads[0] as u64 | (self.heads[1] as u64) << 16;
        let out = self.eliminated.map(|e| e.is_some() as u64);
        mix64(self.trail_hash ^ mix64(heads | out[0] << 32 | out[1] << 33))
    }
}
