//! Ataxx on a 7x7 bitboard (u64, square `rank * 7 + file`, rank 0 at the
//! bottom as in the community FEN). Spawn (clone) to any empty square next to
//! one's own piece (one move per destination), jump to an empty square at
//! Chebyshev distance 2, convert the opponent's pieces next to the
//! destination; a player with no move passes. Standard library only.
//!
//! This module is the rules and perft so far: repetition and turn-limit draws
//! and the CodinGame protocol come with the rest of the game (issue 5).

use crate::game::{mix64, Game, MoveList, Outcome, Player, ToMove};

pub const SIDE: usize = 7;
pub const SQUARES: usize = SIDE * SIDE;
const BOARD: u64 = (1u64 << SQUARES) - 1;

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

/// An Ataxx position: each side's pieces, the walls, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ataxx {
    pieces: [u64; 2],
    walls: u64,
    side: u8,
    plies: u16,
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
        Ok(Ataxx {
            pieces,
            walls,
            side,
            plies: 0,
        })
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
        let mut near = 0;
        let mut own = self.pieces[p];
        while own != 0 {
            near |= SINGLES[own.trailing_zeros() as usize];
            own &= own - 1;
        }
        near & self.empty()
    }

    /// Whether `p` has any spawn or jump.
    pub fn can_move(&self, p: Player) -> bool {
        let empty = self.empty();
        let mut own = self.pieces[p];
        while own != 0 {
            let sq = own.trailing_zeros() as usize;
            if (SINGLES[sq] | DOUBLES[sq]) & empty != 0 {
                return true;
            }
            own &= own - 1;
        }
        false
    }

    /// Spawns and jumps of `p` (no pass).
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

impl Game for Ataxx {
    type Move = AtaxxMove;
    type Moves = AtaxxMoves;

    const NAME: &'static str = "ataxx";
    const PLAYERS: usize = 2;
    const SIMULTANEOUS: bool = false;

    fn max_length(&self) -> u32 {
        u32::MAX
    }

    /// Over when a side has no pieces or neither side can move.
    fn to_move(&self) -> ToMove {
        let side = self.side();
        if self.pieces[0] == 0 || self.pieces[1] == 0 || (!self.can_move(0) && !self.can_move(1)) {
            ToMove::Over
        } else {
            ToMove::One(side)
        }
    }

    /// Spawns and jumps; the pass only when there are none.
    fn legal_moves(&self, p: Player, out: &mut AtaxxMoves) {
        self.actions(p, out);
        if out.is_empty() {
            out.push(AtaxxMove::PASS);
        }
    }

    fn play(&mut self, m: AtaxxMove) {
        let p = self.side();
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
    }

    /// The side with more pieces wins.
    fn outcome(&self) -> Option<Outcome> {
        if self.to_move() != ToMove::Over {
            return None;
        }
        let (a, b) = (self.pieces[0].count_ones(), self.pieces[1].count_ones());
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::win(0),
            std::cmp::Ordering::Less => Outcome::win(1),
            std::cmp::Ordering::Equal => Outcome::draw(),
        })
    }

    fn hash(&self) -> u64 {
        mix64(self.pieces[0] ^ mix64(self.pieces[1] ^ mix64(self.walls ^ self.side as u64)))
    }
}
