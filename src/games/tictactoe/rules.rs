//! Tic-tac-toe on a 3x3 board whose map may block cells. Standard library
//! only. Cells are bits `y * 3 + x`; player 0 plays X and moves first.

use crate::game::{mix64, Game, MoveList, Outcome, Player, ToMove};

pub const SIDE: usize = 3;
pub const CELLS: usize = SIDE * SIDE;
const FULL: u16 = (1 << CELLS) - 1;

/// The eight lines of three.
pub const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// A move is the cell taken.
pub type Cell = u8;
pub type TicTacToeMoves = MoveList<Cell, CELLS>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    marks: [u16; 2],
    blocked: u16,
    side: Player,
}

impl TicTacToe {
    /// The empty board with `blocked` cells nobody may take.
    pub fn new(blocked: u16) -> Self {
        TicTacToe {
            marks: [0, 0],
            blocked: blocked & FULL,
            side: 0,
        }
    }

    /// A position from its marks; `None` unless the marks are disjoint, off
    /// the blocked cells, and X has as many marks as O or one more.
    pub fn from_marks(marks: [u16; 2], blocked: u16) -> Option<Self> {
        let (x, o) = (marks[0].count_ones(), marks[1].count_ones());
        let overlap = marks[0] & marks[1] != 0 || (marks[0] | marks[1]) & blocked != 0;
        let outside = (marks[0] | marks[1] | blocked) & !FULL != 0;
        (!overlap && !outside && (x == o || x == o + 1)).then_some(TicTacToe {
            marks,
            blocked,
            side: (x - o) as Player,
        })
    }

    pub fn marks(&self, p: Player) -> u16 {
        self.marks[p]
    }

    pub fn blocked(&self) -> u16 {
        self.blocked
    }

    pub fn side(&self) -> Player {
        self.side
    }

    pub fn empty(&self) -> u16 {
        FULL & !(self.marks[0] | self.marks[1] | self.blocked)
    }

    fn has_line(&self, p: Player) -> bool {
        LINES.iter().any(|&l| self.marks[p] & l == l)
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    type Moves = TicTacToeMoves;

    const NAME: &'static str = "tictactoe";
    const PLAYERS: usize = 2;
    const SIMULTANEOUS: bool = false;

    fn max_length(&self) -> u32 {
        self.empty().count_ones()
    }

    fn to_move(&self) -> ToMove {
        if self.has_line(0) || self.has_line(1) || self.empty() == 0 {
            ToMove::Over
        } else {
            ToMove::One(self.side)
        }
    }

    fn legal_moves(&self, p: Player, out: &mut TicTacToeMoves) {
        out.clear();
        if self.to_move() != ToMove::One(p) {
            return;
        }
        let mut rest = self.empty();
        while rest != 0 {
            out.push(rest.trailing_zeros() as Cell);
            rest &= rest - 1;
        }
    }

    fn play(&mut self, m: Cell) {
        self.marks[self.side] |= 1 << m;
        self.side = 1 - self.side;
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.to_move() {
            ToMove::Over if self.has_line(0) => Some(Outcome::win(0)),
            ToMove::Over if self.has_line(1) => Some(Outcome::win(1)),
            ToMove::Over => Some(Outcome::draw()),
            _ => None,
        }
    }

    fn hash(&self) -> u64 {
        let packed = self.marks[0] as u64 | (self.marks[1] as u64) << 9 | (self.blocked as u64) << 18;
        mix64(packed | (self.side as u64) << 27)
    }
}

crate::display_rows!(TicTacToe);

impl TicTacToe {
    /// The board as the protocol's rows: `X`, `O`, `#` (blocked) and `.`.
    pub fn rows(&self) -> Vec<String> {
        (0..SIDE)
            .map(|y| (0..SIDE).map(|x| self.cell_char(y * SIDE + x)).collect())
            .collect()
    }

    fn cell_char(&self, cell: usize) -> char {
        let bit = 1 << cell;
        if self.marks[0] & bit != 0 {
            'X'
        } else if self.marks[1] & bit != 0 {
            'O'
        } else if self.blocked & bit != 0 {
            '#'
        } else {
            '.'
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(state: &mut TicTacToe, cells: &[Cell]) {
        for &c in cells {
            state.play(c);
        }
    }

    #[test]
    fn three_in_a_row_wins_and_a_full_board_draws() {
        let mut won = TicTacToe::new(0);
        // X takes the top row while O answers below it.
        play_all(&mut won, &[0, 3, 1, 4, 2]);
        assert_eq!(won.to_move(), ToMove::Over);
        assert_eq!(won.outcome(), Some(Outcome::win(0)));

        let mut drawn = TicTacToe::new(0);
        play_all(&mut drawn, &[0, 1, 2, 4, 3, 5, 7, 6, 8]);
        assert_eq!(drawn.outcome(), Some(Outcome::draw()));
    }

    #[test]
    fn blocked_cells_are_never_legal_and_shorten_the_game() {
        let state = TicTacToe::new(0b1_0000);
        let mut moves = TicTacToeMoves::new();
        state.legal_moves(0, &mut moves);
        assert_eq!(moves.len(), 8);
        assert!(!moves.contains(&4));
        assert_eq!(state.max_length(), 8);
        assert_eq!(TicTacToe::from_marks([0b1_0000, 0], 0b1_0000), None);
    }
}
