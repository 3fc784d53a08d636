//! Ataxx on a 7x7 bitboard (u64, square `rank * 7 + file`, rank 0 at the
//! bottom as in the community FEN). Spawn (clone) to any empty square next to
//! one's own piece (one move per destination), jump to an empty square at
//! Chebyshev distance 2, convert the opponent's pieces next to the
//! destination; a player with no move passes. Standard library only.
//!
//! The expert rules' draws (300 turns; the same board and side to move a
//! third time) are kept by a history of positions since the last spawn: a
//! spawn adds a piece and no move removes one, so nothing before it can
//! recur. Perft positions switch the draws off, as libataxx's counts do.

use crate::game::{mix64, Game, MoveList, Outcome, Player, ToMove};

pub const SIDE: usize = 7;
pub const SQUARES: usize = SIDE * SIDE;
pub const BOARD: u64 = (1u64 << SQUARES) - 1;

/// Worst case: 49 spawn destinations plus every jump (at most 16 per piece,
/// far fewer in practice; 49 * 16 bounds it).
pub const MAX_MOVES: usize = SQUARES + SQUARES * 16;

const fn masks(distance: i32) -> [u64; SQUARES] {
    let mut out = [0u64; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (r, f) = ((sq / SIDE) as i32, (sq % SIDE) as i32);
        let mut dr: i32 = -2;
        while dr <= 2 {
            let mut df: i32 = -2;
            while df <= 2 {
                let d = if dr.abs() > df.abs() { dr.abs() } else { df.abs() };
                let (nr, nf) = (r + dr, f + df);
                if d == distance && nr >= 0 && nr < SIDE as i32 && nf >= 0 && nf < SIDE as i32 {
                    out[sq] |= 1u64 << (nr as usize * SIDE + nf as usize);
                }
                df += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

/// The squares of file a, and of file g (bits `rank * 7 + file`).
const FILE_A: u64 = {
    let mut mask = 0;
    let mut rank = 0;
    while rank < SIDE {
        mask |= 1 << (rank * SIDE);
        rank += 1;
    }
    mask
};
const FILE_G: u64 = FILE_A << (SIDE - 1);

/// Every square within one king step of a square of `b` (`b` included):
/// one step east and west, then north and south, by shifts.
#[inline]
pub fn dilate(b: u64) -> u64 {
    // Masked to the board before the vertical shifts: g7's step east is bit
    // 49, off the board, and would come back down as a7.
    let row = (b | ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_G)) & BOARD;
    (row | (row << SIDE) | (row >> SIDE)) & BOARD
}

/// Every square one king step from a square of `b`: the union of their
/// [`SINGLES`]. Unlike [`dilate`], a square of `b` is in it only when another
/// square of `b` is next to it.
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let sideways = (((b << 1) & !FILE_A) | ((b >> 1) & !FILE_G)) & BOARD;
    let row = b | sideways;
    (sideways | (row << SIDE) | (row >> SIDE)) & BOARD
}

/// The square of the `i`-th lowest set bit of `b` (`i` below its count).
#[inline]
fn nth_square(mut b: u64, i: u32) -> usize {
    for _ in 0..i {
        b &= b - 1;
    }
    b.trailing_zeros() as usize
}

/// Squares at Chebyshev distance 1 and exactly 2 from each square.
pub const SINGLES: [u64; SQUARES] = masks(1);
pub const DOUBLES: [u64; SQUARES] = masks(2);

/// A move: a spawn onto `to` (`from == to`), a jump `from` -> `to`, or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtaxxMove {
    pub from: u8,
    pub to: u8,
}

impl AtaxxMove {
    pub const PASS: AtaxxMove = AtaxxMove {
        from: u8::MAX,
        to: u8::MAX,
    };

    pub fn spawn(to: usize) -> Self {
        AtaxxMove {
            from: to as u8,
            to: to as u8,
        }
    }
    pub fn jump(from: usize, to: usize) -> Self {
        AtaxxMove {
            from: from as u8,
            to: to as u8,
        }
    }
    pub fn is_pass(self) -> bool {
        self == Self::PASS
    }
}

impl Default for AtaxxMove {
    fn default() -> Self {
        Self::PASS
    }
}

/// Square name as in `a1`..`g7`.
pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % SIDE) as u8) as char, sq / SIDE + 1)
}

impl std::fmt::Display for AtaxxMove {
    /// `b7` for a spawn, `a7c7` for a jump, `0000` for the pass.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_pass() {
            f.write_str("0000")
        } else if self.from == self.to {
            f.write_str(&square_name(self.to as usize))
        } else {
            write!(
                f,
                "{}{}",
                square_name(self.from as usize),
                square_name(self.to as usize)
            )
        }
    }
}

pub type AtaxxMoves = MoveList<AtaxxMove, MAX_MOVES>;

/// The turn limit of the expert rules: a draw when reached.
pub const TURN_LIMIT: u16 = 300;

/// An Ataxx position: each side's pieces, the walls, the side to move, and
/// what the draw rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ataxx {
    pieces: [u64; 2],
    walls: u64,
    side: u8,
    plies: u16,
    /// Whether the 300-turn and repetition draws apply.
    draws: bool,
    /// Hashes of the positions since the last spawn, this one included.
    history: History,
}

/// How many history hashes a position holds inline.
const INLINE: usize = 16;

/// Hashes of the positions since the last spawn. The first [`INLINE`] sit in
/// the position itself, so that cloning it (search and perft clone at every
/// node) copies them instead of allocating; a longer run of jumps spills the
/// rest onto the heap.
#[derive(Clone)]
struct History {
    inline: [u64; INLINE],
    len: usize,
    spill: Vec<u64>,
}

impl History {
    fn new() -> Self {
        History {
            inline: [0; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    fn push(&mut self, hash: u64) {
        if self.len < INLINE {
            self.inline[self.len] = hash;
        } else {
            self.spill.push(hash);
        }
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = &u64> {
        self.inline[..self.len.min(INLINE)].iter().chain(&self.spill)
    }

    fn last(&self) -> Option<u64> {
        match self.len {
            0 => None,
            n if n <= INLINE => Some(self.inline[n - 1]),
            _ => self.spill.last().copied(),
        }
    }
}

/// Equal when the same positions were seen; slots past the end do not count.
impl PartialEq for History {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for History {}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A FEN that cannot be read, with what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl Ataxx {
    /// Reads a community FEN: ranks 7 to 1 separated by `/`, `x` and `o`
    /// pieces, `-` walls, digits for empty runs; then the side to move (`x`
    /// moves first); the move counters are optional.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        let err = |m: String| FenError(m);
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or_else(|| err("empty".into()))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != SIDE {
            return Err(err(format!("{} ranks, expected 7", ranks.len())));
        }
        let (mut pieces, mut walls) = ([0u64; 2], 0u64);
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = SIDE - 1 - i;
            let mut file = 0;
            for ch in rank_text.chars() {
                let sq = rank * SIDE + file;
                match ch {
                    '1'..='7' => file += ch as usize - '0' as usize,
                    'x' | 'X' | 'o' | 'O' | '-' => {
                        if file >= SIDE {
                            return Err(err(format!("rank {} is longer than 7 squares", rank + 1)));
                        }
                        match ch {
                            'x' | 'X' => pieces[0] |= 1 << sq,
                            'o' | 'O' => pieces[1] |= 1 << sq,
                            _ => walls |= 1 << sq,
                        }
                        file += 1;
                    }
                    other => return Err(err(format!("unexpected `{other}` in rank {}", rank + 1))),
                }
            }
            if file != SIDE {
                return Err(err(format!("rank {} has {file} squares, expected 7", rank + 1)));
            }
        }
        let side = match fields.next() {
            Some("x") | Some("X") | None => 0,
            Some("o") | Some("O") => 1,
            Some(other) => return Err(err(format!("side to move `{other}`: expected x or o"))),
        };
        Ok(Ataxx::new(pieces, walls, side, false))
    }

    /// The community FEN that [`from_fen`](Self::from_fen) reads back: ranks
    /// 7 to 1, the side to move, the halfmove clock and the move number. The
    /// halfmove clock is always 0: these rules have no fifty-move draw, and an
    /// engine that keeps libataxx's would count toward one that never comes.
    /// The move number counts from the plies played (1 at the start).
    pub fn to_fen(&self) -> String {
        let ranks: Vec<String> = self
            .rows()
            .iter()
            .map(|row| {
                let mut out = String::new();
                let mut empty = 0;
                for square in row.bytes() {
                    let piece = match square {
                        b'0' => 'x',
                        b'1' => 'o',
                        b'#' => '-',
                        _ => {
                            empty += 1;
                            continue;
                        }
                    };
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(piece);
                }
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                }
                out
            })
            .collect();
        let side = if self.side == 0 { 'x' } else { 'o' };
        format!("{} {side} 0 {}", ranks.join("/"), 1 + self.plies / 2)
    }

    /// A position from its parts; `draws` switches the expert rules' draws on.
    pub fn new(pieces: [u64; 2], walls: u64, side: Player, draws: bool) -> Self {
        let mut state = Ataxx {
            pieces,
            walls,
            side: side as u8,
            plies: 0,
            draws,
            history: History::new(),
        };
        if draws {
            state.history.push(state.hash());
        }
        state
    }

    /// The position with the expert rules' draws on or off.
    pub fn with_draws(mut self, draws: bool) -> Self {
        self.draws = draws;
        self.history.clear();
        if draws {
            self.history.push(self.hash());
        }
        self
    }

    /// The position as if `plies` turns had been played (positions read from
    /// a FEN or a CodinGame turn do not say).
    pub fn with_plies(mut self, plies: u16) -> Self {
        self.plies = plies;
        self
    }

    /// Turns played.
    pub fn plies(&self) -> u16 {
        self.plies
    }

    /// Whether the draw rules end the game here.
    #[inline]
    fn drawn(&self) -> bool {
        if !self.draws {
            return false;
        }
        if self.plies >= TURN_LIMIT {
            return true;
        }
        let now = self.history.last();
        now.is_some_and(|h| self.history.iter().filter(|&&x| x == h).count() >= 3)
    }

    /// The board as CodinGame sends it: 7 rows of `.`, `0`, `1`, `#`, top
    /// row (rank 7) first.
    pub fn rows(&self) -> Vec<String> {
        (0..SIDE)
            .rev()
            .map(|rank| {
                (0..SIDE)
                    .map(|file| {
                        let b = 1u64 << (rank * SIDE + file);
                        if self.pieces[0] & b != 0 {
                            '0'
                        } else if self.pieces[1] & b != 0 {
                            '1'
                        } else if self.walls & b != 0 {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    pub fn pieces(&self, p: Player) -> u64 {
        self.pieces[p]
    }
    pub fn walls(&self) -> u64 {
        self.walls
    }
    pub fn empty(&self) -> u64 {
        BOARD & !(self.pieces[0] | self.pieces[1] | self.walls)
    }
    pub fn side(&self) -> Player {
        self.side as Player
    }

    /// Empty squares `p` can spawn onto.
    fn spawn_targets(&self, p: Player) -> u64 {
        dilate(self.pieces[p]) & self.empty()
    }

    /// Whether `p` has any spawn or jump: an empty square within two king
    /// steps of one of its pieces.
    pub fn can_move(&self, p: Player) -> bool {
        dilate(dilate(self.pieces[p])) & self.empty() != 0
    }

    /// How many spawns and jumps `p` has, without listing them: the spawn
    /// destinations and each piece's jumps, by popcount.
    #[inline]
    pub fn action_count(&self, p: Player) -> u32 {
        let empty = self.empty();
        let mut count = self.spawn_targets(p).count_ones();
        let mut own = self.pieces[p];
        while own != 0 {
            count += (DOUBLES[own.trailing_zeros() as usize] & empty).count_ones();
            own &= own - 1;
        }
        count
    }

    /// Spawns and jumps of `p` (no pass).
    #[inline]
    pub fn actions(&self, p: Player, out: &mut AtaxxMoves) {
        out.clear();
        let mut spawns = self.spawn_targets(p);
        while spawns != 0 {
            out.push(AtaxxMove::spawn(spawns.trailing_zeros() as usize));
            spawns &= spawns - 1;
        }
        let empty = self.empty();
        let mut own = self.pieces[p];
        while own != 0 {
            let from = own.trailing_zeros() as usize;
            own &= own - 1;
            let mut jumps = DOUBLES[from] & empty;
            while jumps != 0 {
                out.push(AtaxxMove::jump(from, jumps.trailing_zeros() as usize));
                jumps &= jumps - 1;
            }
        }
    }
}

crate::display_rows!(Ataxx);

impl Game for Ataxx {
    type Move = AtaxxMove;
    type Moves = AtaxxMoves;

    const NAME: &'static str = "ataxx";
    const PLAYERS: usize = 2;
    const SIMULTANEOUS: bool = false;

    fn max_length(&self) -> u32 {
        if self.draws {
            (TURN_LIMIT - self.plies.min(TURN_LIMIT)) as u32
        } else {
            u32::MAX
        }
    }

    /// Over when a side has no pieces, neither side can move, or (with the
    /// draw rules on) 300 turns were played or the position came a third time.
    #[inline]
    fn to_move(&self) -> ToMove {
        let side = self.side();
        // Neither side can move when no empty square is within two king
        // steps of any piece.
        let stuck = dilate(dilate(self.pieces[0] | self.pieces[1])) & self.empty() == 0;
        if self.pieces[0] == 0 || self.pieces[1] == 0 || stuck || self.drawn() {
            ToMove::Over
        } else {
            ToMove::One(side)
        }
    }

    /// Spawns and jumps; the pass only when there are none.
    #[inline]
    fn legal_moves(&self, p: Player, out: &mut AtaxxMoves) {
        self.actions(p, out);
        if out.is_empty() {
            out.push(AtaxxMove::PASS);
        }
    }

    /// The piece difference the move gains: a spawn adds a piece, a jump
    /// moves one, and each converted piece counts twice.
    #[inline]
    fn order_hint(&self, m: &AtaxxMove) -> i32 {
        if m.is_pass() {
            return 0;
        }
        let captured = (SINGLES[m.to as usize] & self.pieces[1 - self.side()]).count_ones() as i32;
        2 * captured + i32::from(m.from == m.to)
    }

    #[inline]
    fn play(&mut self, m: AtaxxMove) {
        let p = self.side();
        if self.draws && m.from == m.to && !m.is_pass() {
            // A spawn: no earlier position can come back.
            self.history.clear();
        }
        if !m.is_pass() {
            let to = 1u64 << m.to;
            if m.from != m.to {
                self.pieces[p] &= !(1u64 << m.from);
            }
            self.pieces[p] |= to;
            let flipped = SINGLES[m.to as usize] & self.pieces[1 - p];
            self.pieces[1 - p] &= !flipped;
            self.pieces[p] |= flipped;
        }
        self.side ^= 1;
        self.plies += 1;
        if self.draws {
            self.history.push(self.hash());
        }
    }

    /// The side with more pieces wins; the draw rules draw.
    fn outcome(&self) -> Option<Outcome> {
        if self.to_move() != ToMove::Over {
            return None;
        }
        if self.drawn() && self.pieces[0] != 0 && self.pieces[1] != 0 {
            return Some(Outcome::draw());
        }
        let (a, b) = (self.pieces[0].count_ones(), self.pieces[1].count_ones());
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::win(0),
            std::cmp::Ordering::Less => Outcome::win(1),
            std::cmp::Ordering::Equal => Outcome::draw(),
        })
    }

    fn is_pass(&self, m: &AtaxxMove) -> bool {
        m.is_pass()
    }

    /// A side to move almost always gains by moving: a spawn adds a piece.
    fn null_move(&self) -> Option<AtaxxMove> {
        Some(AtaxxMove::PASS)
    }

    /// Counted by popcount, then found in `legal_moves`' order (spawns by
    /// square, then each piece's jumps) without listing them.
    fn pick_legal_move(&self, p: Player, pick: &mut dyn FnMut(usize) -> usize) -> AtaxxMove {
        let count = self.action_count(p);
        if count == 0 {
            pick(1);
            return AtaxxMove::PASS;
        }
        let (empty, spawns) = (self.empty(), self.spawn_targets(p));
        let mut i = (pick(count as usize) as u32).min(count - 1);
        if i < spawns.count_ones() {
            return AtaxxMove::spawn(nth_square(spawns, i));
        }
        i -= spawns.count_ones();
        let mut own = self.pieces[p];
        loop {
            let from = own.trailing_zeros() as usize;
            let jumps = DOUBLES[from] & empty;
            if i < jumps.count_ones() {
                return AtaxxMove::jump(from, nth_square(jumps, i));
            }
            i -= jumps.count_ones();
            own &= own - 1;
        }
    }

    /// The actions, or the one pass of a side with none.
    #[inline]
    fn perft_moves(&self, p: Player) -> u64 {
        u64::from(self.action_count(p).max(1))
    }

    /// Draws off: libataxx's counts ignore them.
    fn perft_position(&self) -> Self {
        self.clone().with_draws(false)
    }

    fn hash(&self) -> u64 {
        mix64(self.pieces[0] ^ mix64(self.pieces[1] ^ mix64(self.walls ^ self.side as u64)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_start_position_is_written_as_libataxx_writes_it() {
        let fen = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1";
        assert_eq!(Ataxx::from_fen(fen).unwrap().to_fen(), fen);
        let mut after = Ataxx::from_fen(fen).unwrap();
        after.play(AtaxxMove::spawn(5));
        after.play(AtaxxMove::jump(0, 2));
        assert_eq!(after.to_fen(), "x5o/7/2-1-2/7/2-1-2/7/2o2xx x 0 2");
    }

    proptest! {
        /// Any board (reachable or not) is written so that `from_fen` reads
        /// back the same pieces, walls and side, and writing that again gives
        /// the same text but for the move number, which `from_fen` ignores.
        #[test]
        fn to_fen_round_trips_through_from_fen(
            walls in any::<u64>(), x in any::<u64>(), o in any::<u64>(), side in 0usize..2, plies in 0u16..400
        ) {
            let walls = walls & BOARD;
            let x = x & BOARD & !walls;
            let o = o & BOARD & !walls & !x;
            let state = Ataxx::new([x, o], walls, side, false).with_plies(plies);
            let fen = state.to_fen();
            let back = Ataxx::from_fen(&fen).map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
            prop_assert_eq!((back.pieces(0), back.pieces(1), back.walls(), back.side()), (x, o, walls, side));
            let again = back.with_plies(plies).to_fen();
            prop_assert_eq!(&again, &fen);
            let number = fen.rsplit(' ').next().unwrap().parse::<u16>().unwrap();
            prop_assert_eq!(number, 1 + plies / 2);
        }
    }

    proptest! {
        /// The search orders moves by their hint, which must be what the move
        /// really gains: the mover's piece count minus the opponent's, after
        /// the move less before it.
        #[test]
        fn the_order_hint_is_the_piece_difference_a_move_gains(
            walls in any::<u64>(), x in any::<u64>(), o in any::<u64>(), side in 0usize..2
        ) {
            let walls = walls & BOARD & (x ^ o);
            let x = x & BOARD & !walls;
            let o = o & BOARD & !walls & !x;
            let state = Ataxx::new([x, o], walls, side, false);
            let difference = |s: &Ataxx| s.pieces(side).count_ones() as i32 - s.pieces(1 - side).count_ones() as i32;
            let mut moves = AtaxxMoves::default();
            state.actions(side, &mut moves);
            for &m in moves.as_slice() {
                let mut after = state.clone();
                after.play(m);
                prop_assert_eq!(state.order_hint(&m), difference(&after) - difference(&state), "{:?}", m);
            }
        }
    }

    #[test]
    fn dilation_and_neighbours_by_shifts_are_the_unions_of_the_neighbour_masks() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            x = mix64(x);
            let b = x & BOARD & mix64(x ^ 1);
            let mut union = b;
            let mut rest = b;
            while rest != 0 {
                union |= SINGLES[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            assert_eq!(dilate(b), union, "{b:#x}");
            let mut near = 0;
            let mut rest = b;
            while rest != 0 {
                near |= SINGLES[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            assert_eq!(neighbours(b), near, "{b:#x}");
        }
        for (sq, &near) in SINGLES.iter().enumerate() {
            assert_eq!(dilate(1 << sq), near | 1 << sq, "square {sq}");
            assert_eq!(neighbours(1 << sq), near, "square {sq}");
        }
    }
}
