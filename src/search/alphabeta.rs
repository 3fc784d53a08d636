//! Iterative-deepening alpha-beta (negamax) with a transposition table and
//! killer moves, for two-player games where one player acts at a time.
//!
//! Budgets are a depth, a node count (deterministic: tuning uses it) and an
//! optional wall-clock limit (contest play). Standard library only.

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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry<M> {
    key: u64,
    depth: u8,
    bound: Bound,
    score: i32,
    best: Option<M>,
}

/// A reusable searcher: keeps its transposition table between moves.
pub struct AlphaBeta<G: Game> {
    table: Vec<Option<Entry<G::Move>>>,
    killers: [[Option<G::Move>; 2]; MAX_PLY],
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Set when some line was cut by the depth limit rather than by the game
    /// ending: without it, deeper iterations cannot change the answer.
    hit_horizon: bool,
}

impl<G: Game> AlphaBeta<G> {
    /// A searcher with `2^table_bits` transposition entries.
    pub fn new(table_bits: u32) -> Self {
        AlphaBeta {
            table: vec![None; 1 << table_bits],
            killers: [[None; 2]; MAX_PLY],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            hit_horizon: false,
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
        for depth in 1..=limits.depth.min(MAX_PLY as u32 - 1) {
            self.hit_horizon = false;
            let mut alpha = -WIN - 1;
            let mut iteration_best: Option<(G::Move, i32)> = None;
            for (i, &m) in order.clone().iter().enumerate() {
                let score = self.child_score(root, m, me, depth - 1, 1, alpha, WIN + 1, eval);
                if self.stopped {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iteration_best = Some((m, score));
                    // Keep the best move first for the next, deeper iteration.
                    order[..=i].rotate_right(1);
                }
            }
            // A cut-off iteration still ranked its first moves against the
            // previous best (searched first), so its best so far is sound.
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
            if let (Some(t), Some(deadline)) = (limits.time, self.deadline) {
                // The next iteration costs more than all before it together.
                if Instant::now() + t / 2 > deadline {
                    break;
                }
            }
        }
        best.nodes = self.nodes;
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
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        eval: &impl Evaluator<G>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
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
        let slot = (key as usize) & (self.table.len() - 1);
        let mut tt_move = None;
        if let Some(e) = self.table[slot].filter(|e| e.key == key) {
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

        let mut moves = G::Moves::default();
        state.legal_moves(me, &mut moves);
        let list = moves.as_slice();
        // Order: table move, killers, then generation order.
        let mut ordered: [usize; 3] = [usize::MAX; 3];
        for (k, candidate) in [tt_move, self.killers[ply][0], self.killers[ply][1]].iter().enumerate() {
            if let Some(c) = candidate {
                if let Some(i) = list.iter().position(|m| m == c) {
                    if !ordered[..k].contains(&i) {
                        ordered[k] = i;
                    }
                }
            }
        }

        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        let front = ordered.iter().copied().filter(|&i| i != usize::MAX);
        let rest = (0..list.len()).filter(|i| !ordered.contains(i));
        for i in front.chain(rest) {
            let m = list[i];
            let score = self.child_score(state, m, me, depth - 1, ply + 1, alpha, beta, eval);
            if self.stopped {
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
                break;
            }
        }

        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Some(Entry {
            key,
            depth: depth.min(255) as u8,
            bound,
            score: to_table(best_score, ply),
            best: best_move,
        });
        best_score
    }
}

/// Alpha-beta with its evaluator: what a bot keeps between moves (the table).
pub struct Searcher<G: Game, E> {
    search: AlphaBeta<G>,
    eval: E,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with `2^table_bits` transposition entries.
    pub fn new(eval: E, table_bits: u32) -> Self {
        Searcher {
            search: AlphaBeta::new(table_bits),
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
