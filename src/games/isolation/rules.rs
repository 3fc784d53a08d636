//! Isolation on a 128-bit bitboard.
//!
//! Square `(x, y)` is bit `y * STRIDE + x`. The stride is 10 for every board
//! width up to 9, so column 9 of each row is a guard column that is never free:
//! a ray that runs off the left or right edge lands on a guard square and stops,
//! which keeps sliding a plain shift-and-mask loop. Standard library only (this
//! is on the submission path).

use crate::bitboard::shift;
use crate::game::{mix64, Game, MoveList, Outcome, Player, ToMove};

/// Bits per board row; column `STRIDE - 1` is the guard column.
pub const STRIDE: usize = 10;
/// Largest side the statement allows.
pub const MAX_SIDE: usize = 9;
/// Smallest side the statement allows.
pub const MIN_SIDE: usize = 7;
/// The statement's turn limit; unreachable on a legal board (at most 79 free
/// squares), kept so the rules are total.
pub const TURN_LIMIT: u16 = 100;
/// Worst case of legal moves: a queen in the middle of an empty 9x9 board
/// reaches 8 + 8 + 8 + 8 squares.
pub const MAX_MOVES: usize = 32;

/// The eight queen directions as bit shifts: right, left, down, up, and the
/// four diagonals.
const DIRECTIONS: [i32; 8] = [
    1,
    -1,
    STRIDE as i32,
    -(STRIDE as i32),
    STRIDE as i32 + 1,
    -(STRIDE as i32) - 1,
    STRIDE as i32 - 1,
    -(STRIDE as i32) + 1,
];

/// A move names the destination square (the bit index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IsolationMove(pub u8);

impl IsolationMove {
    pub fn from_xy(x: usize, y: usize) -> Self {
        IsolationMove(square(x, y))
    }
    pub fn xy(self) -> (usize, usize) {
        xy(self.0)
    }
}

impl std::fmt::Display for IsolationMove {
    /// The protocol's reply: `x y`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (x, y) = self.xy();
        write!(f, "{x} {y}")
    }
}

pub type IsolationMoves = MoveList<IsolationMove, MAX_MOVES>;

#[inline]
pub fn square(x: usize, y: usize) -> u8 {
    (y * STRIDE + x) as u8
}

#[inline]
pub fn xy(sq: u8) -> (usize, usize) {
    (sq as usize % STRIDE, sq as usize / STRIDE)
}

#[inline]
pub fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// `[f::<0>(args), .., f::<7>(args)]`: `f` once for each index into
/// [`DIRECTIONS`] as a constant. Each copy then shifts by fixed counts: a
/// `u128` shifted by a count only known at run time costs a branch on its sign
/// and a test and two conditional moves for the word boundary, and a loop over
/// the directions was not unrolled (the evaluation spent most of its time so).
macro_rules! per_direction {
    ($f:ident($($arg:expr),*)) => {
        [
            $f::<0>($($arg),*),
            $f::<1>($($arg),*),
            $f::<2>($($arg),*),
            $f::<3>($($arg),*),
            $f::<4>($($arg),*),
            $f::<5>($($arg),*),
            $f::<6>($($arg),*),
            $f::<7>($($arg),*),
        ]
    };
}

/// The union of an array's words.
#[inline(always)]
fn union(words: [u128; 8]) -> u128 {
    words.into_iter().fold(0, |a, b| a | b)
}

/// The squares a queen on any square of `from` reaches along direction `I`.
#[inline(always)]
fn ray<const I: usize>(from: u128, free: u128) -> u128 {
    let d = DIRECTIONS[I];
    let mut reach = 0;
    let mut ray = shift(from, d) & free;
    while ray != 0 {
        reach |= ray;
        ray = shift(ray, d) & free;
    }
    reach
}

/// Every square a queen standing on any square of `from` reaches in one move
/// over `free` squares (a union of rays; `from` itself is excluded unless
/// another piece of `from` reaches it). One shift per square: for a lone
/// piece's moves the rays are short, and this beats building [`QueenRays`].
#[inline]
pub fn queen_reach(from: u128, free: u128) -> u128 {
    union(per_direction!(ray(from, free)))
}

/// Free squares whose one square back along direction `I` is free too.
#[inline(always)]
fn runs2<const I: usize>(free: u128) -> u128 {
    free & shift(free, DIRECTIONS[I])
}

/// Free squares whose three squares back along direction `I` are free too,
/// from the squares with one ([`runs2`]).
#[inline(always)]
fn runs4<const I: usize>(runs2: &[u128; 8]) -> u128 {
    runs2[I] & shift(runs2[I], 2 * DIRECTIONS[I])
}

/// The squares `rays` fills from `from` along direction `I`.
#[inline(always)]
fn fill<const I: usize>(rays: &QueenRays, from: u128) -> u128 {
    let d = DIRECTIONS[I];
    let mut g = from | rays.free & shift(from, d);
    g |= rays.runs2[I] & shift(g, 2 * d);
    g |= rays.runs4[I] & shift(g, 4 * d);
    shift(g, d)
}

/// The runs of free squares along each queen direction, so that rays fill by
/// doubling (Kogge-Stone) in three branch-free steps instead of one shift per
/// square; a search evaluation reuses them for every layer of both pieces.
#[derive(Clone, Copy, Debug)]
pub struct QueenRays {
    free: u128,
    /// Per direction `d`: free squares whose one square back along `d` is free too.
    runs2: [u128; 8],
    /// Per direction `d`: free squares whose three squares back along `d` are free too.
    runs4: [u128; 8],
}

impl QueenRays {
    #[inline]
    pub fn new(free: u128) -> Self {
        let runs2 = per_direction!(runs2(free));
        let runs4 = per_direction!(runs4(&runs2));
        QueenRays { free, runs2, runs4 }
    }

    /// [`queen_reach`] of `from` over these free squares. After the three
    /// doubling steps `g` holds every square 0 to 7 free steps from `from`;
    /// one more step gives rays of 1 to 8 squares, the longest a 9-wide board
    /// (plus its guard column) allows.
    #[inline]
    pub fn reach(&self, from: u128) -> u128 {
        union(per_direction!(fill(self, from))) & self.free
    }
}

/// `from` one step along direction `I`.
#[inline(always)]
fn step<const I: usize>(from: u128) -> u128 {
    shift(from, DIRECTIONS[I])
}

/// Squares one king step from `from`, restricted to `free`.
#[inline]
pub fn king_reach(from: u128, free: u128) -> u128 {
    union(per_direction!(step(from))) & free
}

/// The free squares a piece on `from` can ever visit: the king-connected part
/// of `free` next to it (a queen's path is a chain of king steps).
pub fn region(from: u128, free: u128) -> u128 {
    let mut seen = king_reach(from, free);
    let mut frontier = seen;
    while frontier != 0 {
        frontier = king_reach(frontier, free) & !seen;
        seen |= frontier;
    }
    seen
}

/// An Isolation position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isolation {
    width: u8,
    height: u8,
    /// Squares a piece may pass over or land on: not a wall, not burned, not a
    /// piece.
    free: u128,
    /// Each player's square.
    pos: [u8; 2],
    /// Moves played so far; the next turn number is `plies + 1`.
    plies: u16,
}

impl Isolation {
    /// A position from its parts; `free` must exclude both pieces and every
    /// square outside `width x height`.
    pub fn new(width: usize, height: usize, free: u128, pos: [u8; 2], plies: u16) -> Self {
        debug_assert!((MIN_SIDE..=MAX_SIDE).contains(&width) || width < MIN_SIDE);
        debug_assert_eq!(free & (bit(pos[0]) | bit(pos[1])), 0);
        Isolation {
            width: width as u8,
            height: height as u8,
            free,
            pos,
            plies,
        }
    }

    pub fn width(&self) -> usize {
        self.width as usize
    }
    pub fn height(&self) -> usize {
        self.height as usize
    }
    pub fn free(&self) -> u128 {
        self.free
    }
    pub fn position(&self, p: Player) -> u8 {
        self.pos[p]
    }
    /// Moves played so far.
    pub fn plies(&self) -> u16 {
        self.plies
    }
    /// The turn number the protocol sends for the next move (1-based).
    pub fn turn(&self) -> u16 {
        self.plies + 1
    }
    /// The player whose turn it is (whether or not they can move).
    pub fn side(&self) -> Player {
        (self.plies & 1) as Player
    }

    /// The squares `p` can move to.
    #[inline]
    pub fn moves_bb(&self, p: Player) -> u128 {
        queen_reach(bit(self.pos[p]), self.free)
    }

    /// Whether `p` can move at all: every queen move starts with a king step,
    /// so a free square next to the piece is enough. The search asks this of
    /// every position it enters, and the eight rays cost several times more.
    #[inline]
    pub fn can_move(&self, p: Player) -> bool {
        king_reach(bit(self.pos[p]), self.free) != 0
    }

    /// The board as the protocol draws it: `.` free, `#` wall or burned, `0`/`1`
    /// pieces; one string per row, top first.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height())
            .map(|y| {
                (0..self.width())
                    .map(|x| {
                        let s = square(x, y);
                        if s == self.pos[0] {
                            '0'
                        } else if s == self.pos[1] {
                            '1'
                        } else if self.free & bit(s) != 0 {
                            '.'
                        } else {
                            '#'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

crate::display_rows!(Isolation);

impl Game for Isolation {
    type Move = IsolationMove;
    type Moves = IsolationMoves;

    const NAME: &'static str = "isolation";
    const PLAYERS: usize = 2;
    const SIMULTANEOUS: bool = false;

    fn max_length(&self) -> u32 {
        // Every move fills one free square.
        (self.free.count_ones()).min(TURN_LIMIT.saturating_sub(self.plies) as u32)
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        let side = self.side();
        if self.plies >= TURN_LIMIT || !self.can_move(side) {
            ToMove::Over
        } else {
            ToMove::One(side)
        }
    }

    fn legal_moves(&self, p: Player, out: &mut IsolationMoves) {
        out.clear();
        let mut moves = self.moves_bb(p);
        while moves != 0 {
            out.push(IsolationMove(moves.trailing_zeros() as u8));
            moves &= moves - 1;
        }
    }

    #[inline]
    fn play(&mut self, m: IsolationMove) {
        let side = self.side();
        debug_assert!(self.moves_bb(side) & bit(m.0) != 0, "illegal {m:?}");
        // The square left is burned: it simply never becomes free again.
        self.free &= !bit(m.0);
        self.pos[side] = m.0;
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        let side = self.side();
        if !self.can_move(side) {
            Some(Outcome::win(1 - side))
        } else if self.plies >= TURN_LIMIT {
            Some(Outcome::draw())
        } else {
            None
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        let lo = self.free as u64;
        let hi = (self.free >> 64) as u64;
        let pieces = (self.pos[0] as u64) | (self.pos[1] as u64) << 8 | (self.side() as u64) << 16;
        mix64(lo ^ mix64(hi ^ mix64(pieces)))
    }
}
