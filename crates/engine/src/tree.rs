//! The search tree of one thread: decision nodes (a seat to move with a drawn tile) whose
//! edges are the turn's moves, and after each move the outcomes of chance (which seat places
//! which tile next), each leading to a decision node of its own. Nodes live in one arena and
//! point at each other by index.
//!
//! A node's moves are listed once, when it is made, in the greedy player's order (best
//! immediate value first); progressive widening lets a node visited n times choose among its
//! first `widen_base + widen_factor · n^widen_power` moves only, by UCT.

use carc_rules::TileTypeId;
use carc_sim::TurnMove;

use crate::options::SearchOptions;

/// One move of a decision node, with what the searches through it found.
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub(crate) mv: TurnMove,
    /// The greedy player's immediate value (the order of widening).
    pub(crate) prior: i64,
    pub(crate) visits: u32,
    /// Sums over the visits, for the seat to move: reward (0..=1) and margin (points).
    pub(crate) reward: f64,
    pub(crate) margin: f64,
    /// Where chance led after this move: (seat to move next, tile it places) → node.
    pub(crate) next: Vec<(u8, TileTypeId, u32)>,
}

/// A seat to move, a drawn tile in hand.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) seat: u8,
    pub(crate) visits: u32,
    pub(crate) edges: Vec<Edge>,
}

/// The arena.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
}

impl Tree {
    /// A new node for `seat` with `moves` (move, greedy value); returns its index.
    pub(crate) fn add(&mut self, seat: u8, moves: &[(TurnMove, i64)]) -> u32 {
        let mut edges: Vec<Edge> = moves
            .iter()
            .map(|&(mv, prior)| Edge {
                mv,
                prior,
                visits: 0,
                reward: 0.0,
                margin: 0.0,
                next: Vec::new(),
            })
            .collect();
        // Stable: among equal values the rules' listing order stays (as the greedy player's
        // first-best choice).
        edges.sort_by_key(|e| std::cmp::Reverse(e.prior));
        self.nodes.push(Node {
            seat,
            visits: 0,
            edges,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The edge to follow from `node`: the first unvisited move within the widening window,
    /// else the window's best by UCT (first wins ties).
    pub(crate) fn select(&self, node: u32, options: &SearchOptions) -> usize {
        let n = &self.nodes[node as usize];
        let window = widening(n.visits, options).min(n.edges.len());
        let ln = f64::from(n.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, e) in n.edges[..window].iter().enumerate() {
            if e.visits == 0 {
                return i;
            }
            let v = f64::from(e.visits);
            let ucb = e.reward / v + options.exploration * (ln / v).sqrt();
            if ucb > best.0 {
                best = (ucb, i);
            }
        }
        best.1
    }

    /// The child of edge `edge` of `node` for chance's outcome (`seat`, `tile`), if made.
    pub(crate) fn child(&self, node: u32, edge: usize, seat: u8, tile: TileTypeId) -> Option<u32> {
        self.nodes[node as usize].edges[edge]
            .next
            .iter()
            .find(|&&(s, t, _)| s == seat && t == tile)
            .map(|&(_, _, c)| c)
    }
}

/// Moves a node with `visits` visits may choose among.
fn widening(visits: u32, options: &SearchOptions) -> usize {
    let w = options.widen_base + options.widen_factor * f64::from(visits).powf(options.widen_power);
    (w.floor() as usize).max(1)
}
