//! Iterative-deepening alpha-beta (negamax) for two-player games where one
//! player acts at a time: a transposition table, killer and history move
//! ordering, principal-variation search, aspiration windows and late-move
//! reductions ([`Techniques`]).
//!
//! Budgets are a depth, a node count (deterministic: tuning uses it) and an
//! optional wall-clock limit (contest play). Standard library only.

use super::ordering::{order_next, History, FIRST_KILLER, SECOND_KILLER, TABLE_MOVE};
use super::table::{Bound, Table};
use crate::game::{Game, MoveBuffer, Outcome, Player, ToMove};
use std::time::{Duration, Instant};

/// Score of a won game at the root; a win `n` plies away scores `WIN - n`, so
/// the search prefers quick wins and slow losses. Evaluations stay far below.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are proven results, not estimates.
pub const PROVEN: i32 = WIN - 10_000;

/// Scores positions from `player`'s point of view.
pub trait Evaluator<G: Game> {
    /// A position that is not over.
    fn evaluate(&self, state: &G, player: Player) -> i32;

    /// What one unit of advantage is worth on this evaluator's scale (a
    /// piece, say), for pruning margins that must scale with the weights;
    /// `None` turns such pruning off.
    fn unit(&self) -> Option<i32> {
        None
    }

    /// A finished game, `ply` moves below the root. By default a win, draw or
    /// loss by the outcome's points, quicker wins and slower losses first;
    /// games scored by more than who won (Slime's squares) override it.
    fn terminal(&self, state: &G, player: Player, ply: usize) -> i32 {
        terminal_score(&state.outcome().expect("a finished game has an outcome"), player, ply)
    }
}

impl<G: Game, F: Fn(&G, Player) -> i32> Evaluator<G> for F {
    fn evaluate(&self, state: &G, player: Player) -> i32 {
        self(state, player)
    }
}

/// How much search one move may use. Whichever limit is hit first stops it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: u32,
    pub nodes: u64,
    /// Wall-clock budget for the whole move; iterations stop being started at
    /// half of it and the search is cut off at all of it.
    pub time: Option<Duration>,
}

impl Limits {
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            depth: MAX_PLY as u32,
            nodes,
            time: None,
        }
    }
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth,
            nodes: u64::MAX,
            time: None,
        }
    }
    pub fn time(time: Duration) -> Self {
        Limits {
            depth: MAX_PLY as u32,
            nodes: u64::MAX,
            time: Some(time),
        }
    }

    /// These limits with `spent` gone from the time budget, for a budget
    /// that started before the search did (a bot started every turn
    /// allocates its table first).
    pub fn less_time(self, spent: Duration) -> Self {
        Limits {
            time: self.time.map(|t| t.saturating_sub(spent)),
            ..self
        }
    }
}

/// The fewest transposition entries a bot gets, 2^14: at the evolve budgets
/// (about 1,000 nodes a move) a game's searches fill them, and a new bot
/// allocates them in well under a millisecond.
pub const MIN_TABLE_BITS: u32 = 14;
/// The most: 2^20 entries, 24 MB for a small move, allocated once per game
/// (25 to 38 ms on the loaded development machine).
pub const MAX_TABLE_BITS: u32 = 20;
/// A time budget's expected nodes are doubled: the server may search faster
/// than the machine that measured it.
const TIME_HEADROOM: u64 = 2;

impl Limits {
    /// About how many positions one move within these limits searches, on a
    /// machine that searches `nodes_per_ms` (measured by `gridtune bench`):
    /// the node budget, or the time budget's worth of nodes with headroom,
    /// whichever is smaller. A depth alone has no bound.
    pub fn expected_nodes(&self, nodes_per_ms: u64) -> u64 {
        let by_time = self.time.map_or(u64::MAX, |t| {
            let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1);
            ms.saturating_mul(nodes_per_ms).saturating_mul(TIME_HEADROOM)
        });
        self.nodes.min(by_time)
    }

    /// The transposition table for these limits, as bits: one entry per
    /// expected node, rounded up to a power of two, within
    /// [`MIN_TABLE_BITS`] and [`MAX_TABLE_BITS`]. Entries kept from earlier
    /// moves still help, so a table a little larger than one move's search is
    /// not waste.
    pub fn table_bits(&self, nodes_per_ms: u64) -> u32 {
        let nodes = self.expected_nodes(nodes_per_ms);
        let bits = u64::BITS - nodes.saturating_sub(1).leading_zeros();
        bits.clamp(MIN_TABLE_BITS, MAX_TABLE_BITS)
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    pub best: M,
    pub score: i32,
    /// Deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
}

const MAX_PLY: usize = 128;

/// A timed search reads the clock at every this-many-th node. Nodes cost
/// very different amounts: a Light Cycles leaf in open play (Voronoi regions
/// and chamber trees) takes up to about 14 µs, so at every 1,024th node a
/// check could come 14 ms of CPU, and twice that in wall time on a busy
/// machine, after the deadline. Reading the clock costs about 50 ns on the
/// development machine: half a percent of 128 of Slime's nodes, the cheapest
/// (14 a microsecond), and 0.1% or less of the other games'.
pub const CLOCK_EVERY_NODES: u64 = 128;

/// Whether a search that has visited `nodes` nodes should stop for
/// `deadline`: reads the clock only at every [`CLOCK_EVERY_NODES`]-th node.
#[inline]
pub fn past_deadline(nodes: u64, deadline: Option<Instant>) -> bool {
    nodes.is_multiple_of(CLOCK_EVERY_NODES) && deadline.is_some_and(|d| Instant::now() >= d)
}

/// The deepest search a depth limit can ask for.
pub const MAX_DEPTH: u32 = MAX_PLY as u32;

/// The techniques a search uses beyond alpha-beta with a one-entry table
/// and killers. Each game's engine names the ones that won a match at its
/// submission bot's time control (`engine.rs`); the judge clones use none,
/// so they keep playing as the bots they clone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Principal-variation search: every move after the first is first
    /// searched with a null window, which only asks whether it is better.
    pub pvs: bool,
    /// Each iteration from depth 4 starts with a window around the last
    /// one's score, widened to the full window when the score falls outside.
    pub aspiration: bool,
    /// Moves after the table move and the killers ordered by the game's
    /// hint ([`Game::order_hint`]), then by history.
    pub history: bool,
    /// Two entries a table bucket: one kept for the deepest result of the
    /// search, one always replaced ([`super::table`]).
    pub two_way_table: bool,
    /// Late moves searched shallower first, and again at full depth only
    /// if they beat alpha ([`Reductions`]). Prunes, so values are no longer
    /// exact. Needs `pvs`.
    pub reductions: Reductions,
    /// Late-move pruning: at a node that is not on the principal variation,
    /// moves after the first `3 + 4 * depth^2` are not searched at all.
    pub late_pruning: bool,
    /// Reverse futility pruning: at a node off the principal variation less
    /// than 8 plies from the horizon, a position whose evaluation beats beta
    /// by a unit ([`Evaluator::unit`]) a ply is taken to fail high without a
    /// search. Off for an evaluator without a unit.
    pub futility: bool,
    /// Internal iterative reduction: a node deeper than 3 plies with no
    /// table entry (so no move to search first) is searched 2 plies
    /// shallower, 3 when that is still deeper than 5.
    pub iir: bool,
    /// Null-move pruning: at a node off the principal variation whose
    /// evaluation beats beta, the side to move passes ([`Game::null_move`])
    /// and the opponent is searched a few plies shallower; if even then the
    /// position beats beta, the node fails high. Not twice in a row. Only in
    /// games with a null move.
    pub null_move: bool,
    /// The depths the iterative deepening searches.
    pub deepening: Deepening,
    /// When a timed search stops starting iterations.
    pub new_iterations: NewIterations,
}

/// The depths an iterative deepening searches, in plies; the depth limit
/// itself is always the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deepening {
    /// 1, 2, 3, ...
    EveryPly,
    /// 1, 3, 5, ...: every iteration ends on the searcher's own move.
    Odd,
    /// 2, 4, 6, ...: every iteration ends on a reply.
    Even,
}

/// When a search with a time limit starts another iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewIterations {
    /// Only while half the time is left: the next iteration costs more
    /// than all before it together, so one started later rarely finishes.
    WhileHalfLeft,
    /// Until the deadline: an unfinished iteration still searched the last
    /// one's best move first, so the moves it ranked against it count.
    UntilDeadline,
}

impl Deepening {
    fn searches(self, depth: u32, deepest: u32) -> bool {
        depth == deepest
            || match self {
                Deepening::EveryPly => true,
                Deepening::Odd => !depth.is_multiple_of(2),
                Deepening::Even => depth.is_multiple_of(2),
            }
    }
}

impl Techniques {
    /// Every technique.
    pub const ALL: Techniques = Techniques {
        pvs: true,
        aspiration: true,
        history: true,
        two_way_table: true,
        reductions: Reductions::Late,
        late_pruning: true,
        futility: true,
        iir: true,
        null_move: true,
        deepening: Deepening::EveryPly,
        new_iterations: NewIterations::WhileHalfLeft,
    };
    /// Iterative deepening, a one-entry table and killers only: the judge
    /// clones' search, as it was when they were cloned.
    pub const PLAIN: Techniques = Techniques {
        pvs: false,
        aspiration: false,
        history: false,
        two_way_table: false,
        reductions: Reductions::Off,
        late_pruning: false,
        futility: false,
        iir: false,
        null_move: false,
        deepening: Deepening::EveryPly,
        new_iterations: NewIterations::WhileHalfLeft,
    };
    /// Every technique that keeps the search's value exact at a fixed depth.
    pub const EXACT: Techniques = Techniques {
        reductions: Reductions::Off,
        late_pruning: false,
        futility: false,
        iir: false,
        null_move: false,
        ..Techniques::ALL
    };
}

/// A game's order hint outweighs any history score (which stays within
/// ±2^14); history orders moves of equal hint.
const HINT_SCALE: i32 = 1 << 15;

/// Which late moves a search reduces, and by how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reductions {
    Off,
    /// From depth 3, moves after the table move, the killers and the best
    /// by history, when neither the table's move nor a killer: one ply, two
    /// when very late and deep.
    Late,
    /// From depth 4, every move after the first two: one ply at a node on
    /// the principal variation, two elsewhere, and one more for each 16
    /// moves before it. Reaches far deeper where most moves are bad and
    /// the ordering finds the good ones (Ataxx's many jumps).
    Steep,
}

/// Null-move pruning applies from this depth on.
const NULL_MOVE_DEPTH: u32 = 3;
/// Plies the null move's reply is searched shallower than a real move's, on
/// top of one more per 4 plies of depth.
const NULL_MOVE_REDUCTION: u32 = 2;

/// Moves searched in full before reductions start: the table move, the
/// killers, and the best by history.
const FULL_DEPTH_MOVES: usize = 4;
/// Reductions apply from this depth on: shallower, the saving is small and
/// a wrong reduction drops straight into the evaluation.
const REDUCTION_DEPTH: u32 = 3;
/// The first aspiration window's half-width, as a share of the last
/// iteration's score (in 1/16) plus this floor; the evaluations' scales differ
/// by game and genome, so a fixed width would fit none of them.
const ASPIRATION_FLOOR: i32 = 16;

/// A reusable searcher: keeps its transposition table between moves.
pub struct AlphaBeta<G: Game> {
    table: Table<G::Move>,
    killers: [[Option<G::Move>; 2]; MAX_PLY],
    history: History,
    /// The moves of every node on the current line with their order keys,
    /// a stack.
    ordered: Vec<(i32, G::Move)>,
    techniques: Techniques,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Set when some line was cut by the depth limit rather than by the game
    /// ending: without it, deeper iterations cannot change the answer.
    hit_horizon: bool,
    /// Whether the node at each ply was reached by a null move.
    after_null: [bool; MAX_PLY],
}

impl<G: Game> AlphaBeta<G> {
    /// A searcher with `2^table_bits` transposition entries and every
    /// technique.
    pub fn new(table_bits: u32) -> Self {
        Self::with(table_bits, Techniques::ALL)
    }

    /// The judge clones' searcher: [`Techniques::PLAIN`].
    pub fn plain(table_bits: u32) -> Self {
        Self::with(table_bits, Techniques::PLAIN)
    }

    pub fn with(table_bits: u32, techniques: Techniques) -> Self {
        AlphaBeta {
            table: Table::new(table_bits, if techniques.two_way_table { 2 } else { 1 }),
            killers: [[None; 2]; MAX_PLY],
            history: History::new(),
            ordered: Vec::new(),
            techniques,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            hit_horizon: false,
            after_null: [false; MAX_PLY],
        }
    }

    /// Searches `root` for the player to act. Panics if the game is over.
    pub fn search(&mut self, root: &G, eval: &impl Evaluator<G>, limits: Limits) -> SearchResult<G::Move> {
        let start = Instant::now();
        let me = match root.to_move() {
            ToMove::One(p) => p,
            other => panic!("alpha-beta needs one player to act, found {other:?}"),
        };
        self.nodes = 0;
        self.node_limit = limits.nodes;
        self.deadline = limits.time.map(|t| start + t);
        self.stopped = false;
        self.killers = [[None; 2]; MAX_PLY];
        self.table.new_search();
        if self.techniques.history {
            self.history.age();
        }

        let mut moves = G::Moves::default();
        root.legal_moves(me, &mut moves);
        let mut order: Vec<G::Move> = moves.as_slice().to_vec();
        let mut best = SearchResult {
            best: order[0],
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if order.len() == 1 {
            best.nodes = 1;
            return best;
        }
        let (deepening, deepest) = (self.techniques.deepening, limits.depth.min(MAX_PLY as u32 - 1));
        for depth in (1..=deepest).filter(|&d| deepening.searches(d, deepest)) {
            self.hit_horizon = false;
            let window = if self.techniques.aspiration && depth >= 4 && best.score.abs() < PROVEN {
                let delta = best.score.abs() / 16 + ASPIRATION_FLOOR;
                (best.score - delta, best.score + delta)
            } else {
                (-WIN - 1, WIN + 1)
            };
            let (mut alpha, mut beta) = window;
            let iteration_best = loop {
                let found = self.root_iteration(root, me, &mut order, depth, alpha, beta, eval);
                match found {
                    // A cut-off iteration still ranked its first moves against
                    // the previous best (searched first), so its best so far is
                    // sound; a move that failed high is better than the last
                    // iteration's best.
                    _ if self.stopped => break found,
                    Some((_, score)) if score >= beta && beta <= WIN => beta = WIN + 1,
                    None if alpha >= -WIN => alpha = -WIN - 1,
                    _ => break found,
                }
            };
            let alpha = iteration_best.map_or(alpha, |(_, score)| score);
            if let Some((m, score)) = iteration_best {
                best.best = m;
                best.score = score;
                if !self.stopped {
                    best.depth = depth;
                }
            }
            if self.stopped || !self.hit_horizon || alpha.abs() >= PROVEN {
                break;
            }
            if let (Some(t), Some(deadline), NewIterations::WhileHalfLeft) =
                (limits.time, self.deadline, self.techniques.new_iterations)
            {
                if Instant::now() + t / 2 > deadline {
                    break;
                }
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// One iteration at the root within `(alpha, beta)`: the best move that
    /// beat alpha and its score, kept first in `order` for the next one;
    /// `None` if none did (a fail low) or the search stopped first.
    #[allow(clippy::too_many_arguments)]
    fn root_iteration(
        &mut self,
        root: &G,
        me: Player,
        order: &mut [G::Move],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        eval: &impl Evaluator<G>,
    ) -> Option<(G::Move, i32)> {
        let mut best = None;
        for i in 0..order.len() {
            let m = order[i];
            let null_window = self.techniques.pvs && i > 0;
            let mut score = if null_window {
                self.child_score(root, m, me, depth - 1, 1, alpha, alpha + 1, eval)
            } else {
                self.child_score(root, m, me, depth - 1, 1, alpha, beta, eval)
            };
            if self.stopped {
                break;
            }
            if null_window && score > alpha && score < beta {
                let bound = score;
                score = self.child_score(root, m, me, depth - 1, 1, alpha, beta, eval);
                if self.stopped {
                    // Better than the best so far, by how much is not known.
                    best = Some((m, bound));
                    order[..=i].rotate_right(1);
                    break;
                }
            }
            if score > alpha {
                alpha = score;
                best = Some((m, score));
                // Keep the best move first for the next, deeper iteration.
                order[..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Plays `m` for `p` and scores the result from `p`'s side.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child_score(
        &mut self,
        state: &G,
        m: G::Move,
        p: Player,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        eval: &impl Evaluator<G>,
    ) -> i32 {
        let mut child = state.clone();
        child.play(m);
        match child.to_move() {
            ToMove::One(q) if q == p => self.negamax(&child, p, depth, ply, alpha, beta, eval),
            ToMove::One(q) => -self.negamax(&child, q, depth, ply, -beta, -alpha, eval),
            ToMove::Over => {
                self.nodes += 1;
                eval.terminal(&child, p, ply)
            }
            ToMove::All => unreachable!("alpha-beta on a simultaneous game"),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        state: &G,
        me: Player,
        mut depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        eval: &impl Evaluator<G>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if past_deadline(self.nodes, self.deadline) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if depth == 0 || ply >= MAX_PLY - 1 {
            self.hit_horizon = true;
            return eval.evaluate(state, me);
        }

        let key = state.hash();
        let mut tt_move = None;
        let entry = self.table.probe(key);
        if entry.is_none() && self.techniques.iir && depth > 3 {
            depth -= 2;
            if depth > 5 {
                depth -= 1;
            }
        }
        if let Some(e) = entry {
            tt_move = e.best;
            if e.depth as u32 >= depth {
                let score = from_table(e.score, ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    // A stored result hides whether its subtree reached the
                    // horizon; assume it did, so iterative deepening goes on.
                    self.hit_horizon = true;
                    return score;
                }
            }
        }

        let on_pv = beta - alpha > 1;
        if self.techniques.futility && !on_pv && depth < 8 && beta.abs() < PROVEN {
            if let Some(unit) = eval.unit() {
                if eval.evaluate(state, me) - unit * depth as i32 >= beta {
                    self.hit_horizon = true;
                    return beta;
                }
            }
        }

        if self.techniques.null_move
            && !on_pv
            && depth >= NULL_MOVE_DEPTH
            && !self.after_null[ply]
            && beta.abs() < PROVEN
            && self.null_move_fails_high(state, me, depth, ply, beta, eval)
        {
            return beta;
        }

        let mut moves = G::Moves::default();
        state.legal_moves(me, &mut moves);
        let base = self.ordered.len();
        let killers = self.killers[ply];
        for &m in moves.as_slice() {
            let key = if Some(m) == tt_move {
                TABLE_MOVE
            } else if Some(m) == killers[0] {
                FIRST_KILLER
            } else if Some(m) == killers[1] {
                SECOND_KILLER
            } else if self.techniques.history {
                state.order_hint(&m) * HINT_SCALE + self.history.score(me, &m)
            } else {
                0
            };
            self.ordered.push((key, m));
        }
        let count = self.ordered.len() - base;

        let original_alpha = alpha;
        let searched = if self.techniques.late_pruning && !on_pv {
            count.min(3 + 4 * (depth * depth) as usize)
        } else {
            count
        };
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        for i in 0..searched {
            order_next(&mut self.ordered[base..], i);
            let (key, m) = self.ordered[base + i];
            let quiet = key < SECOND_KILLER;
            let score = self.move_score(state, m, me, depth, ply, i, quiet, alpha, beta, eval);
            if self.stopped {
                self.ordered.truncate(base);
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if Some(m) != self.killers[ply][0] {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = Some(m);
                }
                if self.techniques.history {
                    self.history.update(me, &m, depth, true);
                    for &(_, tried) in &self.ordered[base..base + i] {
                        self.history.update(me, &tried, depth, false);
                    }
                }
                break;
            }
        }
        self.ordered.truncate(base);

        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table
            .store(key, depth, bound, to_table(best_score, ply), best_move);
        best_score
    }

    /// Whether the position still beats beta after `me` passes, searched
    /// [`NULL_MOVE_REDUCTION`] plies (and a ply more per 4 of depth) shallower
    /// than a real move's reply. Asked only when the evaluation beats beta.
    #[allow(clippy::too_many_arguments)]
    fn null_move_fails_high(
        &mut self,
        state: &G,
        me: Player,
        depth: u32,
        ply: usize,
        beta: i32,
        eval: &impl Evaluator<G>,
    ) -> bool {
        let Some(pass) = state.null_move() else {
            return false;
        };
        if eval.evaluate(state, me) < beta {
            return false;
        }
        let mut child = state.clone();
        child.play(pass);
        let ToMove::One(q) = child.to_move() else {
            return false;
        };
        if q == me {
            return false;
        }
        let reduced = depth.saturating_sub(1 + NULL_MOVE_REDUCTION + depth / 4);
        self.after_null[ply + 1] = true;
        let score = -self.negamax(&child, q, reduced, ply + 1, -beta, -beta + 1, eval);
        self.after_null[ply + 1] = false;
        !self.stopped && score >= beta
    }

    /// The score of the `index`-th move searched at a node: in full for the
    /// first; for the rest a null window first (PVS), a ply shallower for a
    /// late `quiet` one (neither the table's move nor a killer: a reduction),
    /// and again at full depth and window only when the cheaper search says
    /// the move is better than alpha.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn move_score(
        &mut self,
        state: &G,
        m: G::Move,
        me: Player,
        depth: u32,
        ply: usize,
        index: usize,
        quiet: bool,
        alpha: i32,
        beta: i32,
        eval: &impl Evaluator<G>,
    ) -> i32 {
        let t = self.techniques;
        if index == 0 || !t.pvs {
            return self.child_score(state, m, me, depth - 1, ply + 1, alpha, beta, eval);
        }
        let r = match t.reductions {
            Reductions::Late if depth >= REDUCTION_DEPTH && index >= FULL_DEPTH_MOVES && quiet => {
                if index >= 3 * FULL_DEPTH_MOVES && depth >= 2 * REDUCTION_DEPTH {
                    2
                } else {
                    1
                }
            }
            Reductions::Steep if depth > 3 && index > 1 => {
                let on_pv = beta - alpha > 1;
                (1 + u32::from(!on_pv) + index as u32 / 16).min(depth - 1)
            }
            _ => 0,
        };
        let mut score = if r > 0 {
            self.child_score(state, m, me, depth - 1 - r, ply + 1, alpha, alpha + 1, eval)
        } else {
            alpha + 1
        };
        if score > alpha && !self.stopped {
            score = self.child_score(state, m, me, depth - 1, ply + 1, alpha, alpha + 1, eval);
        }
        if score > alpha && score < beta && !self.stopped {
            score = self.child_score(state, m, me, depth - 1, ply + 1, alpha, beta, eval);
        }
        score
    }
}

/// Alpha-beta with its evaluator: what a bot keeps between moves (the table).
pub struct Searcher<G: Game, E> {
    search: AlphaBeta<G>,
    eval: E,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with `2^table_bits` transposition entries and these
    /// techniques.
    pub fn new(eval: E, table_bits: u32, techniques: Techniques) -> Self {
        Searcher {
            search: AlphaBeta::with(table_bits, techniques),
            eval,
        }
    }

    /// Searches `root` for the player to act. Panics if the game is over.
    #[inline]
    pub fn search(&mut self, root: &G, limits: Limits) -> SearchResult<G::Move> {
        self.search.search(root, &self.eval, limits)
    }
}

/// A finished game's score for `p`, `ply` moves below the root.
pub fn terminal_score(outcome: &Outcome, p: Player, ply: usize) -> i32 {
    let value = (outcome.points[p] - 0.5) * 2.0; // -1 loss, 0 draw, 1 win
    (value * (WIN - ply as i32) as f32).round() as i32
}

// Proven scores count plies from the root; the table stores them counted from
// the node so they stay right when the node is met at another depth.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}
