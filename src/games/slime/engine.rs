//! The genome bot's search: best-reply search (Schadd and Winands, 2011).
//!
//! Why best-reply search rather than paranoid or max^n: in a four-player
//! game paranoid search assumes all three opponents coordinate against us and
//! spends three plies of depth on them per round, and max^n cannot prune.
//! Best-reply search lets only the opponent with the strongest reply move at
//! each "opponent" ply (the others are treated as passing), so the tree
//! alternates our moves with one reply: twice the depth for us at the same
//! cost, alpha-beta pruning applies, and it beat both in the games it was
//! tested on. The tree is expressed as a two-sided `Game` (us against the best
//! replier) so the shared alpha-beta searches it. Standard library only.

use super::features::{Weights, COUNT};
use super::rules::{Slime, SlimeMove, SlimeMoves};
use crate::game::{mix64, Game, MoveList, Outcome, Player, ToMove, MAX_PLAYERS};
use crate::search::{Deepening, Evaluator, Limits, Linear, Searcher, Techniques};

/// A move in the best-reply tree: a seat and its move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatMove {
    pub seat: u8,
    pub m: SlimeMove,
}

/// Our moves, or all three opponents' replies together.
pub type SeatMoves = MoveList<SeatMove, { 3 * super::rules::MAX_MOVES }>;

/// Slime seen as us (side 0) against whichever opponent replies best (side 1).
#[derive(Clone, Copy, Debug)]
pub struct BestReply {
    pub inner: Slime,
    pub me: Player,
    our_turn: bool,
}

impl BestReply {
    pub fn new(inner: Slime, me: Player) -> Self {
        BestReply {
            inner,
            me,
            our_turn: true,
        }
    }
}

impl Game for BestReply {
    type Move = SeatMove;
    type Moves = SeatMoves;

    const NAME: &'static str = "slime-best-reply";
    const PLAYERS: usize = 2;
    const SIMULTANEOUS: bool = false;

    fn max_length(&self) -> u32 {
        self.inner.max_length()
    }

    fn to_move(&self) -> ToMove {
        match self.inner.to_move() {
            ToMove::Over => ToMove::Over,
            _ => ToMove::One(if self.our_turn { 0 } else { 1 }),
        }
    }

    fn legal_moves(&self, side: Player, out: &mut SeatMoves) {
        out.clear();
        let mut moves = SlimeMoves::new();
        let seats: &[Player] = &if side == 0 {
            [self.me; 3]
        } else {
            [(self.me + 1) % 4, (self.me + 2) % 4, (self.me + 3) % 4]
        };
        let seats = if side == 0 { &seats[..1] } else { seats };
        for &seat in seats {
            self.inner.actions(seat, &mut moves);
            for &m in moves.iter() {
                out.push(SeatMove { seat: seat as u8, m });
            }
        }
        // A pass only when nothing else is possible: in a real round all three
        // opponents move, so a free pass in the tree would let either side
        // wait out the horizon.
        if out.as_slice().is_empty() {
            out.push(SeatMove {
                seat: seats[0] as u8,
                m: SlimeMove::PASS,
            });
        }
    }

    fn play(&mut self, m: SeatMove) {
        self.inner.apply(m.seat as Player, m.m);
        self.inner.skip_turn();
        self.our_turn = !self.our_turn;
    }

    /// At the end, side 0 wins with more squares than every opponent.
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()?;
        let mine = self.inner.count(self.me);
        let best_other = (0..4)
            .filter(|&q| q != self.me)
            .map(|q| self.inner.count(q))
            .max()
            .unwrap_or(0);
        let mut points = [0.0; MAX_PLAYERS];
        points[0] = match mine.cmp(&best_other) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
        points[1] = 1.0 - points[0];
        Some(Outcome { points })
    }

    fn hash(&self) -> u64 {
        mix64(self.inner.hash() ^ (self.our_turn as u64) << 40 ^ (self.me as u64) << 41)
    }
}

/// The shared linear evaluation of the real position from our seat. What
/// stays Slime's own is the tree's view of it: side 0's evaluation is ours,
/// side 1's its negation (zero-sum), and a full board is scored like any
/// other position.
#[derive(Clone, Copy, Debug)]
pub struct BestReplyEval(pub Linear<COUNT>);

impl Evaluator<BestReply> for BestReplyEval {
    #[inline]
    fn evaluate(&self, state: &BestReply, side: Player) -> i32 {
        let ours = self.0.evaluate(&state.inner, state.me);
        if side == 0 {
            ours
        } else {
            -ours
        }
    }

    /// A full board scores like any other: Slime pays in squares held, not in
    /// wins, so ending the game is neither a prize nor a disaster in itself.
    fn terminal(&self, state: &BestReply, side: Player, _ply: usize) -> i32 {
        self.evaluate(state, side)
    }
}

/// The search: plain alpha-beta, deepened over odd depths only, so that
/// every iteration ends on this bot's own move rather than on the
/// opponents' best reply, which in a best-reply search speaks for all three
/// at once. Submission bot against the landed one (every depth) in mixed
/// tables with greedy_slime and shallow_blue on fresh boards, both
/// seatings: +48.2 Elo [+25.2, +71.7] over 406 games, SPRT (0, 10) H1
/// (seed 606, 2 December 2026). Even depths only: -30.1 [-51.2, -9.1], 776
/// games, H0 (seed 605); the landed search mostly completed depth 4 and
/// took its move from a cut-off depth 5.
///
/// None of the other techniques won. All of them: -50.7 [-81.2, -21.1]
/// over 400 games. History ordered by squares gained alone: -54.7 [-81.4,
/// -28.6], 442 games, H0; BRS+ (the other two opponents play
/// GreedySlime's move in each reply): -64.1 [-92.1, -36.9], 296 games, H0.
pub const TECHNIQUES: Techniques = Techniques {
    deepening: Deepening::Odd,
    ..Techniques::PLAIN
};

/// The genome bot's searcher, kept between moves for its table.
pub struct Engine {
    search: Searcher<BestReply, BestReplyEval>,
    nodes: u64,
}

/// Positions one millisecond of the submission bot's search visits on a whole
/// core of the development machine, which sizes a time budget's table:
/// `gridtune bench --game slime` measured a median of 720,000 a move in its
/// 50 ms of search (719,000 to 729,000 in three runs, 1 December 2026).
pub const NODES_PER_MS: u64 = 14_000;

/// The submission bot is started every turn, so it allocates its table every
/// turn out of its budget, and keeps nothing in it past the turn. On the idle
/// development machine 2^18 entries (6 MB) took 5 ms to fill and 0.7 ms to
/// free, 2^16 1.2 ms and 0.15 ms (7 December 2026); loaded, 2^18 took 2 to
/// 10 ms and 2^20 25 to 38.
const MAX_TABLE_BITS: u32 = 16;

impl Engine {
    /// The engine for `weights` searching within `limits` each move, with
    /// the table those limits need ([`Limits::table_bits`]): the one
    /// constructor of the genome bot and the submission bot.
    pub fn for_budget(weights: Weights, limits: Limits) -> Self {
        Engine {
            search: Searcher::new(
                BestReplyEval(Linear(weights)),
                limits.table_bits(NODES_PER_MS).min(MAX_TABLE_BITS),
                TECHNIQUES,
            ),
            nodes: 0,
        }
    }

    pub fn choose(&mut self, state: &Slime, me: Player, limits: Limits) -> SlimeMove {
        self.nodes = 0;
        if state.to_move() == ToMove::Over {
            return SlimeMove::PASS;
        }
        let result = self.search.search(&BestReply::new(*state, me), limits);
        self.nodes = result.nodes;
        result.best.m
    }

    /// The positions the last `choose` searched.
    pub fn nodes_searched(&self) -> u64 {
        self.nodes
    }
}
