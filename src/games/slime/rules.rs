//! Slime on 128-bit bitboards, exactly as the original control program
//! applies moves (STATEMENT.md, "How the original control program applies a
//! move").
//!
//! Square `(row, col)` is bit `row * STRIDE + col`. The stride is 12 for every
//! board up to 10 a side, so columns 10 and 11 are guard columns that are
//! never on the board: a shift by up to two columns lands on a guard square
//! instead of wrapping into the next row. Standard library only.

use crate::bitboard::shift;
use crate::game::{mix64, Game, MoveList, Outcome, Player, ToMove, MAX_PLAYERS};

pub const STRIDE: usize = 12;
pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 10;
pub const DEFAULT_SIZE: usize = 8;
/// Turns in all (500 per player on the default board).
pub const TURN_LIMIT: u16 = 2000;
/// Worst case of board-changing actions plus the pass on a 10x10 board: a
/// spread or merge is an ordered pair of neighbours (684 on the board), a
/// jump a pair two apart from a slime to an empty square, so each unordered
/// pair counts once (576). A tight bound: perft clears the list at every node.
pub const MAX_MOVES: usize = 684 + 576 + 1;

/// Where a seat's slimes reach: for each square, how many of them have it
/// within two squares (its targets while it is empty), bit-sliced so that a
/// sum over a set of squares is a few popcounts.
struct Reach {
    slimes: u128,
    /// Bit `k` of square `s` is bit `k` of its count; the count is at most
    /// the slimes' number and 24, so `planes` of the five are in use.
    counts: [u128; 5],
    planes: usize,
    /// The squares next to a slime: an action there takes it.
    takes: u128,
}

impl Reach {
    #[inline]
    fn new(slimes: u128) -> Self {
        let most = slimes.count_ones().min(24);
        let planes = (u32::BITS - most.leading_zeros()) as usize;
        let (mut counts, mut takes) = ([0u128; 5], 0);
        let mut rest = slimes;
        while rest != 0 {
            let f = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            takes |= NEAR[f];
            // One more on every square in reach: a ripple-carry add.
            let mut carry = WITHIN_TWO[f];
            for plane in &mut counts[..planes] {
                let over = *plane & carry;
                *plane ^= carry;
                carry = over;
            }
        }
        Reach {
            slimes,
            counts,
            planes,
            takes,
        }
    }

    /// The slimes that have `s` within reach.
    #[inline]
    fn at(&self, s: usize) -> u32 {
        (self.slimes & WITHIN_TWO[s]).count_ones()
    }

    /// The sum of [`Reach::at`] over `squares`.
    #[inline]
    fn sum_over(&self, squares: u128) -> u64 {
        let mut sum = 0;
        for (k, plane) in self.counts[..self.planes].iter().enumerate() {
            sum += u64::from((plane & squares).count_ones()) << k;
        }
        sum
    }
}

/// `(row, col)` offsets at Chebyshev distance 1, as bit shifts.
const RING1: [i32; 8] = [-13, -12, -11, -1, 1, 11, 12, 13];
/// Offsets at Chebyshev distance exactly 2.
const RING2: [i32; 16] = [-26, -25, -24, -23, -22, -14, -10, -2, 2, 10, 14, 22, 23, 24, 25, 26];

/// Bit indices a square can have (rows and columns of the largest board fit).
const SQUARES: usize = 128;
/// `ring1` of each single square, as a table: one lookup where the shifts
/// would cost eight u128 shifts.
static NEAR: [u128; SQUARES] = single_square_rings(&RING1);
/// `ring2` of each single square, as a table.
static FAR: [u128; SQUARES] = single_square_rings(&RING2);
/// `NEAR | FAR`: the squares a slime on a square can reach.
static WITHIN_TWO: [u128; SQUARES] = within_two();

const fn within_two() -> [u128; SQUARES] {
    let mut out = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        out[sq] = NEAR[sq] | FAR[sq];
        sq += 1;
    }
    out
}

const fn single_square_rings(offsets: &[i32]) -> [u128; SQUARES] {
    let mut out = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut i = 0;
        while i < offsets.len() {
            // `shift` of one bit: bits moved past either end vanish.
            let t = sq as i32 + offsets[i];
            if t >= 0 && t < SQUARES as i32 {
                out[sq] |= 1u128 << t;
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// A move: `from` and `to` squares (bit indices), or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SlimeMove {
    pub from: u8,
    pub to: u8,
}

impl SlimeMove {
    /// What the control program does with an invalid reply.
    pub const PASS: SlimeMove = SlimeMove {
        from: u8::MAX,
        to: u8::MAX,
    };

    pub fn new(from: (usize, usize), to: (usize, usize)) -> Self {
        SlimeMove {
            from: square(from.0, from.1),
            to: square(to.0, to.1),
        }
    }

    pub fn is_pass(self) -> bool {
        self == Self::PASS
    }

    /// `(from_row, from_col, to_row, to_col)`, or `None` for the pass.
    pub fn coords(self) -> Option<(usize, usize, usize, usize)> {
        (!self.is_pass()).then(|| {
            let ((a, b), (c, d)) = (rc(self.from), rc(self.to));
            (a, b, c, d)
        })
    }
}

impl Default for SlimeMove {
    fn default() -> Self {
        Self::PASS
    }
}

impl std::fmt::Display for SlimeMove {
    /// The reply line's four integers; the pass as `0 0 0 0`, as the statement does.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.coords() {
            Some((a, b, c, d)) => write!(f, "{a} {b} {c} {d}"),
            None => f.write_str("0 0 0 0"),
        }
    }
}

pub type SlimeMoves = MoveList<SlimeMove, MAX_MOVES>;

/// What a move changes: the squares every seat loses, those the mover gains,
/// and the one the mover then leaves (a jump's or a merge's source).
#[derive(Clone, Copy)]
struct Effect {
    lost: u128,
    gained: u128,
    left: u128,
}

impl Effect {
    /// A spread (`left` 0) or a jump (`left` its source) onto the empty
    /// square `t`: every occupied neighbour of the new slime turns (the
    /// square a jump leaves is two away, never among them).
    #[inline]
    fn onto_empty(t: usize, occupied: u128, left: u128) -> Effect {
        let taken = NEAR[t] & occupied;
        Effect {
            lost: taken,
            gained: taken | 1u128 << t,
            left,
        }
    }

    /// A merge from `from` onto the mover's own `t`: the empties around the
    /// target fill first (the square being vacated is not empty then), then
    /// the moved slime goes.
    #[inline]
    fn merge(t: usize, empty: u128, from: u128) -> Effect {
        Effect {
            lost: 0,
            gained: NEAR[t] & empty,
            left: from,
        }
    }
}

#[inline]
pub fn square(row: usize, col: usize) -> u8 {
    (row * STRIDE + col) as u8
}

#[inline]
pub fn rc(sq: u8) -> (usize, usize) {
    (sq as usize / STRIDE, sq as usize % STRIDE)
}

#[inline]
fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// Squares at Chebyshev distance 1 from any square of `b` (off-board bits
/// included; mask them).
#[inline]
pub fn ring1(b: u128) -> u128 {
    RING1.iter().fold(0, |acc, &d| acc | shift(b, d))
}

/// Squares at Chebyshev distance exactly 2 from any square of `b`.
#[inline]
pub fn ring2(b: u128) -> u128 {
    RING2.iter().fold(0, |acc, &d| acc | shift(b, d))
}

/// The squares of `board` none of `slime` holds.
#[inline]
fn union_free(board: u128, slime: &[u128; 4]) -> u128 {
    board & !(slime[0] | slime[1] | slime[2] | slime[3])
}

/// A Slime position: each seat's squares, the board, and the turn count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slime {
    size: u8,
    board: u128,
    slime: [u128; 4],
    /// The board's squares no seat holds, kept by every change: perft and
    /// the search read it at every node, where the union of the four sets
    /// would be read back from the halves `apply` has just stored (a
    /// store-forwarding stall).
    empty: u128,
    turns: u16,
}

impl Slime {
    /// The statement's start: one slime per corner, player 1 top-left,
    /// 2 top-right, 3 bottom-left, 4 bottom-right.
    pub fn start(size: usize) -> Self {
        let n = size - 1;
        let corners = [(0, 0), (0, n), (n, 0), (n, n)];
        Self::from_squares(size, corners.map(|(r, c)| bit(square(r, c))), 0)
    }

    /// A position from each seat's squares; `turns` played so far.
    pub fn from_squares(size: usize, slime: [u128; 4], turns: u16) -> Self {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} outside {MIN_SIZE}..={MAX_SIZE}"
        );
        let mut board = 0u128;
        for r in 0..size {
            for c in 0..size {
                board |= bit(square(r, c));
            }
        }
        Slime {
            size: size as u8,
            board,
            slime,
            empty: union_free(board, &slime),
            turns,
        }
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }
    pub fn turns(&self) -> u16 {
        self.turns
    }
    /// Seat `p`'s squares (seat 0 is player 1).
    pub fn squares(&self, p: Player) -> u128 {
        self.slime[p]
    }
    pub fn board_mask(&self) -> u128 {
        self.board
    }
    #[inline]
    pub fn empty(&self) -> u128 {
        self.empty
    }
    /// The seat whose turn it is.
    pub fn side(&self) -> Player {
        (self.turns % 4) as Player
    }
    pub fn count(&self, p: Player) -> u32 {
        self.slime[p].count_ones()
    }

    /// The owner of a square, if any.
    pub fn owner(&self, sq: u8) -> Option<Player> {
        (0..4).find(|&p| self.slime[p] & bit(sq) != 0)
    }

    /// Applies `m` for seat `p` as the control program does: a move it would
    /// not accept is a pass. Returns whether the board changed.
    #[inline]
    pub fn apply(&mut self, p: Player, m: SlimeMove) -> bool {
        let Some(Effect { lost, gained, left }) = self.effect(p, m) else {
            return false;
        };
        // Every seat in registers, the mover picked by a mask, stored once: a
        // seat indexed in memory would be stored in halves and read back
        // whole (a store-forwarding stall).
        let slime = std::array::from_fn(|q| {
            let is_mover = if q == p { !0 } else { 0 };
            ((self.slime[q] & !lost) | (gained & is_mover)) & !(left & is_mover)
        });
        self.slime = slime;
        self.empty = union_free(self.board, &slime);
        true
    }

    /// What `m` by seat `p` changes, or `None` when the control program
    /// would not accept it (a pass).
    #[inline]
    fn effect(&self, p: Player, m: SlimeMove) -> Option<Effect> {
        let (f, t) = (m.from as usize, m.to as usize);
        // The pass's squares, like any past the largest board, are on no board.
        if f >= SQUARES || t >= SQUARES {
            return None;
        }
        let (from, to) = (bit(m.from), bit(m.to));
        let mine = self.slime[p];
        if from & self.board == 0 || to & self.board == 0 || mine & from == 0 {
            return None;
        }
        // Both squares are on the board, so the tables give the Chebyshev distance.
        let (near, far) = (NEAR[f] & to != 0, FAR[f] & to != 0);
        let empty = self.empty;
        if to & empty != 0 && (near || far) {
            let occupied = self.board & !empty;
            Some(Effect::onto_empty(t, occupied, if far { from } else { 0 }))
        } else if mine & to != 0 && near {
            Some(Effect::merge(t, empty, from))
        } else {
            None
        }
    }

    /// Every board-changing action of seat `p`, in row-major order of the
    /// source square, then of the target.
    pub fn actions(&self, p: Player, out: &mut SlimeMoves) {
        out.clear();
        let empty = self.empty();
        let mine = self.slime[p];
        let mut from = mine;
        while from != 0 {
            let f = from.trailing_zeros() as u8;
            from &= from - 1;
            let mut targets = Self::targets(f as usize, mine, empty);
            while targets != 0 {
                let t = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push(SlimeMove { from: f, to: t });
            }
        }
    }

    /// How many board-changing actions seat `p` has, without listing them.
    #[inline]
    pub fn action_count(&self, p: Player) -> u32 {
        Self::count_targets(self.slime[p], self.empty)
    }

    /// How many actions a seat holding `mine` has with `empty` empty.
    #[inline]
    fn count_targets(mine: u128, empty: u128) -> u32 {
        let mut from = mine;
        let mut count = 0;
        while from != 0 {
            let f = from.trailing_zeros() as usize;
            from &= from - 1;
            count += Self::targets(f, mine, empty).count_ones();
        }
        count
    }

    /// Where the slime on `f` can go: a neighbour that is empty or `mine`
    /// (spread or merge), or an empty square two away (jump). `empty` and
    /// `mine` lie on the board, so the tables' off-board squares drop out.
    #[inline]
    fn targets(f: usize, mine: u128, empty: u128) -> u128 {
        let f = f % SQUARES;
        (NEAR[f] & (empty | mine)) | (FAR[f] & empty)
    }

    /// The board as the protocol writes it: rows of `.` and `1`-`4`.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size())
            .map(|r| {
                (0..self.size())
                    .map(|c| match self.owner(square(r, c)) {
                        Some(p) => (b'1' + p as u8) as char,
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// Counts a turn as played without a move (for searches that let a seat
    /// move out of turn).
    pub fn skip_turn(&mut self) {
        self.turns += 1;
    }
}

crate::display_rows!(Slime);

impl Game for Slime {
    type Move = SlimeMove;
    type Moves = SlimeMoves;

    const NAME: &'static str = "slime";
    const PLAYERS: usize = 4;
    const SIMULTANEOUS: bool = false;

    fn max_length(&self) -> u32 {
        (TURN_LIMIT - self.turns.min(TURN_LIMIT)) as u32
    }

    #[inline]
    fn to_move(&self) -> ToMove {
        if self.empty() == 0 || self.turns >= TURN_LIMIT {
            ToMove::Over
        } else {
            ToMove::One(self.side())
        }
    }

    /// The board-changing actions and the pass, which the control program
    /// accepts at any time (any invalid reply is one).
    fn legal_moves(&self, p: Player, out: &mut SlimeMoves) {
        self.actions(p, out);
        out.push(SlimeMove::PASS);
    }

    fn is_pass(&self, m: &SlimeMove) -> bool {
        m.is_pass()
    }

    /// The actions, or the pass when there is none.
    #[inline]
    fn perft_moves(&self, p: Player) -> u64 {
        self.action_count(p).max(1) as u64
    }

    /// Counted from each action's effect: the next seat only loses squares,
    /// and the empty squares change around the move. No list, no copy of the
    /// position, no update of the other seats.
    ///
    /// Most actions take none of the next seat's slimes ("quiet" ones), and
    /// then its count is the position's, less its slimes that lose the
    /// target square and plus those that gain a jump's source: a seat's
    /// count is a sum over its slimes. So a slime's quiet spreads (and its
    /// quiet jumps) are counted all at once from [`Reach`]; only the other
    /// actions count the next seat again.
    fn perft_two_plies(&self, p: Player) -> u64 {
        let turns = self.turns + 1;
        if turns >= TURN_LIMIT {
            return 0;
        }
        let next = (turns % 4) as Player;
        let (mine, theirs, empty) = (self.slime[p], self.slime[next], self.empty);
        let occupied = self.board & !empty;
        let recount = |e: Effect| {
            let empty = (empty & !e.gained) | e.left;
            if empty == 0 {
                0
            } else {
                u64::from(Self::count_targets(theirs & !e.lost, empty).max(1))
            }
        };
        let now = u64::from(Self::count_targets(theirs, empty));
        let reach = Reach::new(theirs);
        // A quiet action leaves the next seat `now - reach` actions or more,
        // at least one when it has more than its slimes can lose; else (or
        // when a spread fills the board) count each action.
        let in_bulk = now > u64::from(theirs.count_ones()) && empty & (empty - 1) != 0;
        // The actions onto `squares` that take nothing from the next seat,
        // which has `base` actions before the target fills; a spread onto
        // the last empty square (`fills`) ends the game.
        let quiet = |squares: u128, base: u64, fills: bool| -> u64 {
            if in_bulk {
                return u64::from(squares.count_ones()) * base - reach.sum_over(squares);
            }
            let mut sum = 0;
            let mut rest = squares;
            while rest != 0 {
                let t = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                sum += if fills && empty & !(1u128 << t) == 0 {
                    0
                } else {
                    (base - u64::from(reach.at(t))).max(1)
                };
            }
            sum
        };
        let (mut total, mut actions) = (0, 0);
        let mut pieces = mine;
        while pieces != 0 {
            let f = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let from = 1u128 << f;
            let (spreads, jumps, merges) = (NEAR[f] & empty, FAR[f] & empty, NEAR[f] & mine);
            actions += spreads.count_ones() + jumps.count_ones() + merges.count_ones();
            // A jump's source empties, and the next seat's slimes near it gain it.
            total += quiet(spreads & !reach.takes, now, true);
            total += quiet(jumps & !reach.takes, now + u64::from(reach.at(f)), false);
            for (targets, left) in [(spreads & reach.takes, 0), (jumps & reach.takes, from)] {
                let mut rest = targets;
                while rest != 0 {
                    let t = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    total += recount(Effect::onto_empty(t, occupied, left));
                }
            }
            let mut rest = merges;
            while rest != 0 {
                let t = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                total += recount(Effect::merge(t, empty, from));
            }
        }
        if actions == 0 {
            // The pass, perft's one move here.
            total = recount(Effect {
                lost: 0,
                gained: 0,
                left: 0,
            });
        }
        total
    }

    #[inline(always)]
    fn play(&mut self, m: SlimeMove) {
        let p = self.side();
        self.apply(p, m);
        self.turns += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.to_move() != ToMove::Over {
            return None;
        }
        let total = (self.size() * self.size()) as f32;
        let mut points = [0.0; MAX_PLAYERS];
        for (p, slot) in points.iter_mut().enumerate() {
            *slot = self.count(p) as f32 / total;
        }
        Some(Outcome { points })
    }

    #[inline]
    fn hash(&self) -> u64 {
        let mut h = mix64(self.side() as u64 ^ (self.size as u64) << 8);
        for s in self.slime {
            h = mix64(h ^ s as u64 ^ mix64((s >> 64) as u64));
        }
        // The turn count matters only near the limit; leave it out so
        // transpositions across passes still meet in the table.
        h
    }
}
