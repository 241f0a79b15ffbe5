//! The search: information-set Monte Carlo tree search from the point of view of the seat to
//! move. Each iteration deals a guess of what that seat cannot see ([`crate::determinize`]),
//! walks the tree from the root choosing moves by UCT within the widening window, lets chance
//! (from the guess) lead to the next decision, adds one new move (and, where chance leads
//! somewhere new, one new node), values the position reached ([`crate::eval`]) and adds the
//! value to every move on the way, each for the seat that chose it.
//!
//! Threads: each grows a tree of its own from its own seed (root parallelisation) over an
//! equal share of the iterations; their root moves' statistics are added up. Nothing is
//! shared while they run, so the same position, seed, node budget and thread count give the
//! same move.

use std::time::Instant;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use carc_rules::{Game, Phase, TileTypeId};
use carc_sim::{play_move, turn_moves, Buffers, TurnMove};

use crate::determinize::{advance, deal};
use crate::ending::solve_ending;
use crate::error::EngineError;
use crate::eval::{evaluate, LeafScratch, SEATS};
use crate::options::{Budget, SearchOptions, EXACT_NODES};
use crate::rollout::{rollout, Policy, Scratch};
use crate::tree::Tree;

/// One move of the position searched, with what the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    pub mv: TurnMove,
    /// Iterations through this move (over all threads).
    pub visits: u32,
    /// Estimated chance to win after it, 0..=1 (mean over its iterations; `None` unvisited).
    pub win: Option<f64>,
    /// Estimated final margin after it: the mover's points minus the best other player's
    /// (mean over its iterations; `None` unvisited).
    pub margin: Option<f64>,
    /// The greedy player's immediate value of the move (the search's order of trial).
    pub prior: i64,
}

/// One step of the principal line: who places which tile where.
#[derive(Clone, Debug, PartialEq)]
pub struct LineStep {
    pub seat: u8,
    pub tile: TileTypeId,
    pub mv: TurnMove,
    /// Iterations through this step.
    pub visits: u32,
}

/// A searched position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The seat to move.
    pub seat: u8,
    /// The move chosen: the most visited (the better mean on a tie).
    pub best: TurnMove,
    /// The best move's estimated chance to win and final margin.
    pub win: f64,
    pub margin: f64,
    /// Every legal move of the turn, most visited first (unvisited ones in the greedy
    /// player's order); for an exact ending, best first.
    pub moves: Vec<MoveStats>,
    /// The line the search expects: the best move, then at each step the outcome of chance
    /// and the reply visited most.
    pub line: Vec<LineStep>,
    /// Iterations run, over all threads; for an exact ending, the positions it visited.
    pub nodes: u64,
    /// The ending was solved ([`crate::solve_ending`]): every move's chance to win and margin
    /// are exact, not estimates, each move counts one visit, and the line is the best move.
    pub exact: bool,
}

impl Analysis {
    /// The statistics of `mv`, if it is a legal move of the turn.
    pub fn stats(&self, mv: &TurnMove) -> Option<&MoveStats> {
        self.moves.iter().find(|m| &m.mv == mv)
    }
}

/// What one thread found.
struct ThreadResult {
    tree: Tree,
    nodes: u64,
}

/// Searches `game`, which must wait for the placement of a drawn tile that fits somewhere.
/// A budget over [`MAX_NODES`](crate::MAX_NODES) or [`MAX_TIME`](crate::MAX_TIME) is searched
/// as that cap.
pub fn analyse(game: &Game, options: &SearchOptions) -> Result<Analysis, EngineError> {
    let options = &options.with_capped_budget();
    let (seat, tile) = decision(game)?;
    let mut root_moves = Vec::new();
    turn_moves(game, &mut Buffers::default(), &mut root_moves);
    if root_moves.is_empty() {
        return Err(EngineError::NoPlacement);
    }
    if let Some(solved) = solved(game, tile, options, &root_moves)? {
        return Ok(solved);
    }
    let results = run(game, &root_moves, options, false)?;
    Ok(summarise(seat, tile, &results))
}

/// Measures the given moves of the turn at `game` side by side: the root's moves are these
/// only, each gets an equal share of the iterations, and each round of them is played in the
/// same guess of the hidden parts (common random numbers), so their difference is measured
/// on the same luck. Below the root the search is as in [`analyse`]. Moves the rules refuse
/// are an error; a move given twice is measured once. The budget is capped as in [`analyse`].
pub fn compare(
    game: &Game,
    moves: &[TurnMove],
    options: &SearchOptions,
) -> Result<Analysis, EngineError> {
    let options = &options.with_capped_budget();
    let (seat, tile) = decision(game)?;
    let mut listed = Vec::new();
    turn_moves(game, &mut Buffers::default(), &mut listed);
    let mut root_moves: Vec<(TurnMove, i64)> = Vec::new();
    for m in moves {
        let Some(&(mv, prior)) = listed.iter().find(|(l, _)| l == m) else {
            return Err(EngineError::NotLegal(format!("{m:?}")));
        };
        if !root_moves.iter().any(|(r, _)| *r == mv) {
            root_moves.push((mv, prior));
        }
    }
    if root_moves.is_empty() {
        return Err(EngineError::NotLegal("no move to compare".into()));
    }
    if let Some(solved) = solved(game, tile, options, &root_moves)? {
        return Ok(solved);
    }
    // Whole rounds on every thread.
    let k = root_moves.len() as u64;
    let threads = options.worker_threads().max(1) as u64;
    let options = match options.budget {
        Budget::Nodes(n) => SearchOptions {
            budget: Budget::Nodes(n.div_ceil(k * threads).max(1) * k * threads),
            ..options.clone()
        },
        Budget::Time(_) => options.clone(),
    };
    let results = run(game, &root_moves, &options, true)?;
    Ok(summarise(seat, tile, &results))
}

/// The seat to move and its tile, if `game` waits for a placement that is possible.
fn decision(game: &Game) -> Result<(u8, TileTypeId), EngineError> {
    let Phase::Place { tile } = game.phase() else {
        return Err(EngineError::NoDecision(format!("{:?}", game.phase())));
    };
    if game.first_placement(tile).is_none() {
        return Err(EngineError::NoPlacement);
    }
    Ok((game.current_player(), tile))
}

/// The threads' searches.
fn run(
    game: &Game,
    root_moves: &[(TurnMove, i64)],
    options: &SearchOptions,
    paired: bool,
) -> Result<Vec<ThreadResult>, EngineError> {
    let threads = options.worker_threads().max(1);
    let deadline = match options.budget {
        // Capped to an hour by the callers; `checked_add` so that no budget can panic here.
        Budget::Time(d) => Instant::now().checked_add(d),
        Budget::Nodes(_) => None,
    };
    let share = |t: usize| -> u64 {
        match options.budget {
            Budget::Nodes(n) => {
                let n = n.max(1);
                n / threads as u64 + u64::from((t as u64) < n % threads as u64)
            }
            Budget::Time(_) => u64::MAX,
        }
    };
    let grow_thread = |t: usize| {
        grow(
            game,
            root_moves,
            options,
            thread_seed(options.seed, t as u64),
            share(t),
            deadline,
            paired,
        )
    };
    let results: Vec<Result<ThreadResult, EngineError>> = if threads == 1 {
        vec![grow_thread(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let grow_thread = &grow_thread;
                    scope.spawn(move || grow_thread(t))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    results.into_iter().collect()
}

/// Each thread's seed: distinct streams from one seed.
fn thread_seed(seed: u64, thread: u64) -> u64 {
    seed ^ thread.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Adds the threads' root statistics up, picks the move and reads the line.
fn summarise(seat: u8, tile: TileTypeId, results: &[ThreadResult]) -> Analysis {
    let first = &results[0].tree.nodes[0];
    let mut moves: Vec<MoveStats> = first
        .edges
        .iter()
        .map(|e| MoveStats {
            mv: e.mv,
            visits: 0,
            win: None,
            margin: None,
            prior: e.prior,
        })
        .collect();
    let mut sums = vec![(0.0, 0.0); moves.len()];
    for r in results {
        // Every thread lists the root's moves in the same order (same position, stable sort).
        for (i, e) in r.tree.nodes[0].edges.iter().enumerate() {
            moves[i].visits += e.visits;
            sums[i].0 += e.reward;
            sums[i].1 += e.margin;
        }
    }
    for (m, (reward, margin)) in moves.iter_mut().zip(&sums) {
        if m.visits > 0 {
            m.win = Some(reward / f64::from(m.visits));
            m.margin = Some(margin / f64::from(m.visits));
        }
    }
    // Most visited first; then the better win estimate; then the greedy order (stable).
    moves.sort_by(|a, b| {
        b.visits.cmp(&a.visits).then(
            b.win
                .unwrap_or(-1.0)
                .partial_cmp(&a.win.unwrap_or(-1.0))
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    let best = moves[0].clone();
    // The line from the thread that went through the best move most.
    let tree = &results
        .iter()
        .max_by_key(|r| {
            r.tree.nodes[0]
                .edges
                .iter()
                .find(|e| e.mv == best.mv)
                .map_or(0, |e| e.visits)
        })
        .map_or(&results[0].tree, |r| &r.tree);
    let line = principal_line(tree, seat, tile, &best.mv);
    Analysis {
        seat,
        best: best.mv,
        win: best.win.unwrap_or(0.5),
        margin: best.margin.unwrap_or(0.0),
        moves,
        line,
        nodes: results.iter().map(|r| r.nodes).sum(),
        exact: false,
    }
}

/// The exact analysis of `game` restricted to `root_moves`, when the options ask for an exact
/// ending this late and it is solved within [`EXACT_NODES`] positions.
fn solved(
    game: &Game,
    tile: TileTypeId,
    options: &SearchOptions,
    root_moves: &[(TurnMove, i64)],
) -> Result<Option<Analysis>, EngineError> {
    let Some(bag) = options.exact_bag(game.players()) else {
        return Ok(None);
    };
    let Some(ending) = solve_ending(game, bag, EXACT_NODES)? else {
        return Ok(None);
    };
    // The solution's order (best first), kept to the moves asked for.
    let moves: Vec<MoveStats> = ending
        .moves
        .iter()
        .filter_map(|e| {
            let &(mv, prior) = root_moves.iter().find(|(m, _)| *m == e.mv)?;
            Some(MoveStats {
                mv,
                visits: 1,
                win: Some(e.win),
                margin: Some(e.margin),
                prior,
            })
        })
        .collect();
    let Some(best) = moves.first().cloned() else {
        return Err(EngineError::Ending(
            "the solution lists none of the moves asked for".into(),
        ));
    };
    Ok(Some(Analysis {
        seat: ending.seat,
        best: best.mv,
        win: best.win.unwrap_or(0.0),
        margin: best.margin.unwrap_or(0.0),
        line: vec![LineStep {
            seat: ending.seat,
            tile,
            mv: best.mv,
            visits: 1,
        }],
        moves,
        nodes: ending.nodes,
        exact: true,
    }))
}

/// The best move, then the most visited outcome of chance and reply, while visits last.
fn principal_line(tree: &Tree, seat: u8, tile: TileTypeId, best: &TurnMove) -> Vec<LineStep> {
    let mut line = Vec::new();
    let Some(mut edge) = tree.nodes[0].edges.iter().find(|e| &e.mv == best) else {
        return line;
    };
    line.push(LineStep {
        seat,
        tile,
        mv: edge.mv,
        visits: edge.visits,
    });
    while let Some(&(next_seat, tile, child)) = edge
        .next
        .iter()
        .max_by_key(|&&(_, _, c)| tree.nodes[c as usize].visits)
    {
        let node = &tree.nodes[child as usize];
        let Some(reply) = node
            .edges
            .iter()
            .filter(|e| e.visits > 0)
            .max_by_key(|e| e.visits)
        else {
            break;
        };
        line.push(LineStep {
            seat: next_seat,
            tile,
            mv: reply.mv,
            visits: reply.visits,
        });
        edge = reply;
    }
    line
}

/// One thread's search: `budget` iterations or until `deadline`.
fn grow(
    root: &Game,
    root_moves: &[(TurnMove, i64)],
    options: &SearchOptions,
    seed: u64,
    budget: u64,
    deadline: Option<Instant>,
    paired: bool,
) -> Result<ThreadResult, EngineError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut round_seed = 0;
    let mut tree = Tree::default();
    let observer = root.current_player();
    tree.add(observer, root_moves);
    let mut buffers = Buffers::default();
    let mut game = root.clone();
    let mut scratch = LeafScratch::new(root);
    let mut bag: Vec<TileTypeId> = Vec::new();
    let mut moves = Vec::new();
    let mut gifts = Vec::new();
    let mut path: Vec<(u32, usize)> = Vec::new();
    let mut nodes = 0u64;
    let policy = Policy {
        plies: options.rollout,
        top: options.rollout_top,
    };
    let mut rollout_scratch = Scratch::default();
    while nodes < budget {
        // A clock read every 16 iterations is cheap next to the iterations.
        if nodes % 16 == 0 && deadline.is_some_and(|d| Instant::now() >= d) && nodes > 0 {
            break;
        }
        // Paired: the root's moves in turn, each round of them in one guess (common random
        // numbers); otherwise a guess of its own for every iteration.
        let forced = paired.then(|| (nodes % tree.nodes[0].edges.len() as u64) as usize);
        if forced.is_none_or(|j| j == 0) {
            round_seed = rng.next_u64();
        }
        let mut rng = ChaCha8Rng::seed_from_u64(round_seed);
        nodes += 1;
        deal(root, observer, &mut rng, &mut game, &mut bag, &mut buffers)?;
        path.clear();
        let mut node = 0u32;
        let leaf = loop {
            let edge = match forced {
                Some(j) if node == 0 => j,
                _ => tree.select(node, options),
            };
            let fresh = tree.nodes[node as usize].edges[edge].visits == 0;
            let mv = tree.nodes[node as usize].edges[edge].mv;
            if play_move(&mut game, &mv, &mut rng, &mut buffers, None).is_err() {
                // This guess gives the node a state where the move is not legal (a gift card
                // dealt otherwise changed the board): value the position as it stands.
                break None;
            }
            path.push((node, edge));
            if fresh {
                if policy.plies > 0 {
                    rollout(
                        &mut game,
                        &mut bag,
                        &mut rng,
                        &mut buffers,
                        &mut rollout_scratch,
                        policy,
                    )?;
                }
                break Some(evaluate(&game, options, &mut scratch));
            }
            if !advance(&mut game, &mut bag, &mut rng, &mut buffers, &mut gifts)? {
                break Some(evaluate(&game, options, &mut scratch));
            }
            let seat = game.current_player();
            let Phase::Place { tile } = game.phase() else {
                break Some(evaluate(&game, options, &mut scratch));
            };
            node = match tree.child(node, edge, seat, tile) {
                Some(child) => child,
                None => {
                    turn_moves(&game, &mut buffers, &mut moves);
                    if moves.is_empty() {
                        break Some(evaluate(&game, options, &mut scratch));
                    }
                    let child = tree.add(seat, &moves);
                    tree.nodes[node as usize].edges[edge]
                        .next
                        .push((seat, tile, child));
                    child
                }
            };
        };
        let Some(leaf) = leaf else { continue };
        for &(n, e) in &path {
            let node = &mut tree.nodes[n as usize];
            node.visits += 1;
            let s = usize::from(node.seat).min(SEATS - 1);
            let edge = &mut node.edges[e];
            edge.visits += 1;
            edge.reward += leaf.reward[s];
            edge.margin += leaf.margin[s];
        }
    }
    Ok(ThreadResult { tree, nodes })
}
