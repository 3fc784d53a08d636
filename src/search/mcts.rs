//! UCT Monte Carlo tree search with uniformly random playouts, for games where
//! one player acts at a time. A judge clone's method, not on the submission
//! path, so it may use `rand`.

use crate::game::{Game, MoveBuffer, Player, ToMove};
use rand::{Rng, RngExt};

struct Node<M> {
    /// The move that led here and the player who made it.
    mv: Option<(M, Player)>,
    parent: usize,
    first_child: usize,
    child_count: usize,
    expanded: bool,
    visits: u32,
    /// Points won by the player who made `mv`, summed over visits.
    points: f32,
}

/// UCT with exploration constant `c` and `iterations` playouts per move.
pub struct Mcts {
    pub iterations: u32,
    pub exploration: f32,
}

impl Mcts {
    /// The most visited root move. Panics if nobody is to act.
    pub fn choose<G: Game>(&self, root: &G, rng: &mut impl Rng) -> G::Move {
        assert!(matches!(root.to_move(), ToMove::One(_)), "MCTS needs one player to act");
        let mut nodes: Vec<Node<G::Move>> = vec![Node {
            mv: None,
            parent: usize::MAX,
            first_child: 0,
            child_count: 0,
            expanded: false,
            visits: 0,
            points: 0.0,
        }];
        let mut moves = G::Moves::default();
        for _ in 0..self.iterations {
            let mut state = root.clone();
            let mut at = 0;
            // Selection: descend through expanded nodes by UCB1.
            while nodes[at].expanded && nodes[at].child_count > 0 {
                let parent_visits = nodes[at].visits.max(1) as f32;
                let log_n = parent_visits.ln();
                let children = nodes[at].first_child..nodes[at].first_child + nodes[at].child_count;
                let mut best = children.start;
                let mut best_value = f32::NEG_INFINITY;
                for c in children {
                    let n = &nodes[c];
                    let value = if n.visits == 0 {
                        // Unvisited children first, in a random order.
                        1e9 + rng.random::<f32>()
                    } else {
                        n.points / n.visits as f32 + self.exploration * (log_n / n.visits as f32).sqrt()
                    };
                    if value > best_value {
                        best_value = value;
                        best = c;
                    }
                }
                at = best;
                state.play(nodes[at].mv.expect("child has a move").0);
            }
            // Expansion.
            if !nodes[at].expanded {
                nodes[at].expanded = true;
                if let ToMove::One(p) = state.to_move() {
                    state.legal_moves(p, &mut moves);
                    nodes[at].first_child = nodes.len();
                    nodes[at].child_count = moves.as_slice().len();
                    for &m in moves.as_slice() {
                        nodes.push(Node {
                            mv: Some((m, p)),
                            parent: at,
                            first_child: 0,
                            child_count: 0,
                            expanded: false,
                            visits: 0,
                            points: 0.0,
                        });
                    }
                }
            }
            // Playout.
            while let ToMove::One(p) = state.to_move() {
                let m = state.pick_legal_move(p, &mut |n| rng.random_range(0..n));
                state.play(m);
            }
            let outcome = state.outcome().expect("playout ends the game");
            // Backpropagation.
            let mut n = at;
            while n != usize::MAX {
                nodes[n].visits += 1;
                if let Some((_, mover)) = nodes[n].mv {
                    nodes[n].points += outcome.points[mover];
                }
                n = nodes[n].parent;
            }
        }
        let root_node = &nodes[0];
        let children = root_node.first_child..root_node.first_child + root_node.child_count;
        let best = children
            .max_by_key(|&c| nodes[c].visits)
            .expect("the player to act has a move");
        nodes[best].mv.expect("child has a move").0
    }
}
