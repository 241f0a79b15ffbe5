//! Exact endings: with few tiles left, every order of the tiles still in the bag and every
//! move of every turn can be tried, so the chance to win is computed rather than estimated.
//!
//! The method is expectimax over the game's own turns. At a draw, each kind of tile left in
//! the bag comes out with its share of the bag (chance); at a placement, the seat to move
//! takes the move that gives it the best chance to win, and among equal chances the best
//! expected final margin (its points minus the best other's). The game's end is scored by the
//! rules. Every seat plays for itself (with more than two players nobody plays to spoil), which
//! is the usual reading of a multi-player expectimax ("max-n").
//!
//! What the solver cannot know exactly it refuses rather than guesses: The Gifts (the other
//! hands and the deck are hidden, and a gift card is drawn at random; Take 2 is The Gifts' only
//! second draw). Traders & Builders' second turn is one more draw and is solved like the
//! first. A position whose tree would visit more than the node budget is not solved
//! (`Ok(None)`); the caller then searches as usual. The bag's contents are public (every player can count the tiles placed), so the
//! solution is the same for every seat.

use std::ops::ControlFlow;

use carc_rules::{Action, Effects, Game, Phase, TileTypeId};
use carc_sim::{PlayoutError, TurnMove};

use crate::error::EngineError;
use crate::eval::{final_leaf, SEATS};

/// Tiles left in the bag at most for [`solve_ending`] to try: beyond, the tree is too large
/// for any budget the engine gives it.
pub const MAX_EXACT_TILES: u32 = 4;

/// One move of a solved position, with its exact value.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactMove {
    pub mv: TurnMove,
    /// The mover's chance to win after this move, both sides playing as the solver does
    /// (a tie for first counts as a share of the win).
    pub win: f64,
    /// The mover's expected final margin after it: its points minus the best other's.
    pub margin: f64,
}

/// A position solved to the end of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The seat to move.
    pub seat: u8,
    /// Every legal move of the turn, best first (the better chance to win, then the better
    /// margin, then the greedy player's order).
    pub moves: Vec<ExactMove>,
    /// Positions visited.
    pub nodes: u64,
}

impl Ending {
    /// The best move and its value.
    pub fn best(&self) -> &ExactMove {
        &self.moves[0]
    }
}

/// A position's exact value for every seat.
#[derive(Clone, Copy, Debug, Default)]
struct Value {
    win: [f64; SEATS],
    margin: [f64; SEATS],
}

/// Two values closer than this are equal (sums of products of bag shares).
const EPSILON: f64 = 1e-9;

/// Whether `a` is better than `b` as (chance to win, margin): the chance first, then the
/// margin.
fn better(a: (f64, f64), b: (f64, f64)) -> bool {
    if (a.0 - b.0).abs() > EPSILON {
        a.0 > b.0
    } else {
        a.1 > b.1 + EPSILON
    }
}

/// Solves `game`, which must wait for the placement of a drawn tile, if at most
/// `max_tiles` (capped at [`MAX_EXACT_TILES`]) tiles are left in the bag and the tree has at
/// most `max_nodes` positions. `Ok(None)`: not solved (too many tiles or positions, or an
/// expansion whose chance or hidden parts the solver does not model).
pub fn solve_ending(
    game: &Game,
    max_tiles: u32,
    max_nodes: u64,
) -> Result<Option<Ending>, EngineError> {
    let Phase::Place { .. } = game.phase() else {
        return Err(EngineError::NoDecision(format!("{:?}", game.phase())));
    };
    if game.bag_left() > max_tiles.min(MAX_EXACT_TILES) || game.options().gifts {
        return Ok(None);
    }
    let mut solver = Solver {
        max_nodes,
        nodes: 0,
    };
    let mut frames = Frame::stack(game, depth_for(game.bag_left()));
    let seat = usize::from(game.current_player());
    let mut moves = Vec::new();
    let stopped = game.try_each_move(|mv, after| {
        let value = if game.players() == 2 {
            // Each root move with the whole window: its value is exact, not a bound.
            solver
                .duel(after, &mut frames, f64::NEG_INFINITY, f64::INFINITY)
                .map(|d| d.map(Duel::value))
        } else {
            solver.value(after, &mut frames)
        };
        match value {
            Ok(Some(value)) => {
                moves.push(ExactMove {
                    mv: TurnMove::from(mv),
                    win: value.win[seat],
                    margin: value.margin[seat],
                });
                ControlFlow::Continue(())
            }
            stop => ControlFlow::Break(stop),
        }
    });
    if let Some(stop) = stopped {
        stop?;
        return Ok(None);
    }
    if moves.is_empty() {
        return Err(EngineError::NoPlacement);
    }
    // Best first; the sort is stable, so equal moves keep the rules' order.
    let value = |m: &ExactMove| (m.win, m.margin);
    moves.sort_by(|a, b| {
        if better(value(a), value(b)) {
            std::cmp::Ordering::Less
        } else if better(value(b), value(a)) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    Ok(Some(Ending {
        seat: game.current_player(),
        moves,
        nodes: solver.nodes,
    }))
}

/// The scratch of one depth of the recursion, made before the solve so that the tree allocates
/// nothing while it runs.
struct Frame {
    child: Game,
    kinds: Vec<(TileTypeId, u16)>,
    fx: Effects,
}

impl Frame {
    /// `depth` frames for positions like `game`.
    fn stack(game: &Game, depth: usize) -> Vec<Frame> {
        (0..depth)
            .map(|_| Frame {
                child: game.clone(),
                kinds: Vec::new(),
                fx: Effects::quiet(),
            })
            .collect()
    }
}

/// Depth of the recursion for `left` tiles in the bag: each tile is a draw and a placement
/// (or a set-aside), and the end of the game one more.
fn depth_for(left: u32) -> usize {
    2 * left as usize + 2
}

struct Solver {
    max_nodes: u64,
    nodes: u64,
}

impl Solver {
    /// Counts a position and hands out this depth's scratch and the deeper ones; `None` once
    /// the node budget is spent.
    fn enter<'f>(
        &mut self,
        frames: &'f mut [Frame],
    ) -> Result<Option<(&'f mut Frame, &'f mut [Frame])>, EngineError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Ok(None);
        }
        match frames.split_first_mut() {
            Some(split) => Ok(Some(split)),
            None => Err(deeper_than_tiles()),
        }
    }

    /// The exact value of `game`, with `frames` the scratch of this depth and the deeper
    /// ones; `None` once the node budget is spent.
    fn value(&mut self, game: &Game, frames: &mut [Frame]) -> Result<Option<Value>, EngineError> {
        let Some((frame, deeper)) = self.enter(frames)? else {
            return Ok(None);
        };
        match game.phase() {
            Phase::Over => Ok(Some(final_value(game))),
            Phase::Draw => {
                let left = game.bag_left();
                if left == 0 {
                    return Ok(Some(final_value(end_game(game, frame)?)));
                }
                bag_kinds(game, &mut frame.kinds);
                let mut sum = Value::default();
                for k in 0..frame.kinds.len() {
                    let (tile, count) = frame.kinds[k];
                    draw(game, tile, frame)?;
                    let Some(v) = self.value(&frame.child, deeper)? else {
                        return Ok(None);
                    };
                    let share = f64::from(count) / f64::from(left);
                    for s in 0..SEATS {
                        sum.win[s] += share * v.win[s];
                        sum.margin[s] += share * v.margin[s];
                    }
                }
                Ok(Some(sum))
            }
            Phase::Place { .. } => {
                let seat = usize::from(game.current_player());
                let mut best: Option<Value> = None;
                // Each move's outcome as the rules list it, without playing it again.
                let stopped = game.try_each_move(|_, after| match self.value(after, deeper) {
                    Ok(Some(v)) => {
                        if best.as_ref().is_none_or(|b| {
                            better((v.win[seat], v.margin[seat]), (b.win[seat], b.margin[seat]))
                        }) {
                            best = Some(v);
                        }
                        ControlFlow::Continue(())
                    }
                    stop => ControlFlow::Break(stop),
                });
                if let Some(stop) = stopped {
                    return stop;
                }
                if best.is_none() {
                    // The tile fits nowhere: it is set aside and the same seat draws again.
                    set_aside(game, frame)?;
                    return self.value(&frame.child, deeper);
                }
                Ok(best)
            }
            phase => Err(through(phase)),
        }
    }
}

/// Two players: seat 0's value as one number, its chance to win first and its margin second
/// (`WIN_WEIGHT × win + margin`). Seat 1's chance is the rest and its margin the opposite, so
/// one seat maximises what the other minimises, and a window of what either can still hope
/// for prunes the tree (alpha-beta at the placements, Ballard's Star1 at the draws).
#[derive(Clone, Copy, Debug)]
struct Duel {
    win: f64,
    margin: f64,
}

/// Far more than any margin, so that a chance to win always outweighs points.
const WIN_WEIGHT: f64 = 1e9;
/// More than any margin a game can end with; a margin past it is refused, as the windows at
/// the draws rest on it.
const MARGIN_BOUND: f64 = 1e5;
/// The least and the most a position can be worth to seat 0.
const LEAST: f64 = -MARGIN_BOUND;
const MOST: f64 = WIN_WEIGHT + MARGIN_BOUND;

impl Duel {
    fn scalar(self) -> f64 {
        WIN_WEIGHT * self.win + self.margin
    }

    fn value(self) -> Value {
        let mut v = Value::default();
        v.win[0] = self.win;
        v.win[1] = 1.0 - self.win;
        v.margin[0] = self.margin;
        v.margin[1] = -self.margin;
        v
    }
}

impl Solver {
    /// Seat 0's value of `game` in a two-player game, exact when it falls strictly inside
    /// `(alpha, beta)`, else a bound on the side it fell; `None` once the node budget is spent.
    fn duel(
        &mut self,
        game: &Game,
        frames: &mut [Frame],
        alpha: f64,
        beta: f64,
    ) -> Result<Option<Duel>, EngineError> {
        let Some((frame, deeper)) = self.enter(frames)? else {
            return Ok(None);
        };
        match game.phase() {
            Phase::Over => final_duel(game),
            Phase::Draw => {
                let left = game.bag_left();
                if left == 0 {
                    return final_duel(end_game(game, frame)?);
                }
                bag_kinds(game, &mut frame.kinds);
                // Star1: after each draw, what the rest of the draws can add lies between
                // `rest × LEAST` and `rest × MOST`; once no outcome of them can bring the sum
                // back inside the window, the other draws are not looked at.
                let (mut win, mut margin, mut sum) = (0.0, 0.0, 0.0);
                let mut rest = 1.0;
                for k in 0..frame.kinds.len() {
                    let (tile, count) = frame.kinds[k];
                    let share = f64::from(count) / f64::from(left);
                    rest -= share;
                    draw(game, tile, frame)?;
                    let child_alpha = (alpha - sum - rest * MOST) / share;
                    let child_beta = (beta - sum - rest * LEAST) / share;
                    let Some(d) = self.duel(&frame.child, deeper, child_alpha, child_beta)? else {
                        return Ok(None);
                    };
                    win += share * d.win;
                    margin += share * d.margin;
                    sum += share * d.scalar();
                    if sum + rest * MOST <= alpha || sum + rest * LEAST >= beta {
                        // A bound: the scalar of what was summed, with the rest at its end of
                        // the range that could not bring it back.
                        let bound = if sum + rest * MOST <= alpha {
                            sum + rest * MOST
                        } else {
                            sum + rest * LEAST
                        };
                        return Ok(Some(Duel {
                            win: 0.0,
                            margin: bound,
                        }));
                    }
                }
                Ok(Some(Duel { win, margin }))
            }
            Phase::Place { .. } => {
                let maximise = game.current_player() == 0;
                let (mut alpha, mut beta) = (alpha, beta);
                let mut best: Option<Duel> = None;
                let stopped = game.try_each_move(|_, after| {
                    let d = match self.duel(after, deeper, alpha, beta) {
                        Ok(Some(d)) => d,
                        stop => return ControlFlow::Break(stop),
                    };
                    let v = d.scalar();
                    if maximise {
                        if best.is_none_or(|b| v > b.scalar()) {
                            best = Some(d);
                        }
                        alpha = alpha.max(v);
                    } else {
                        if best.is_none_or(|b| v < b.scalar()) {
                            best = Some(d);
                        }
                        beta = beta.min(v);
                    }
                    if alpha >= beta {
                        // The other seat will not let the game come here: the rest is cut.
                        ControlFlow::Break(Ok(best))
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                if let Some(stop) = stopped {
                    return stop;
                }
                if best.is_none() {
                    set_aside(game, frame)?;
                    return self.duel(&frame.child, deeper, alpha, beta);
                }
                Ok(best)
            }
            phase => Err(through(phase)),
        }
    }
}

/// Seat 0's value of a finished two-player game.
fn final_duel(game: &Game) -> Result<Option<Duel>, EngineError> {
    let v = final_value(game);
    if v.margin[0].abs() > MARGIN_BOUND {
        return Err(EngineError::Ending(format!(
            "a margin of {} points, past the {MARGIN_BOUND} the windows rest on",
            v.margin[0]
        )));
    }
    Ok(Some(Duel {
        win: v.win[0],
        margin: v.margin[0],
    }))
}

/// The kinds of tile left in the bag and how many of each.
fn bag_kinds(game: &Game, kinds: &mut Vec<(TileTypeId, u16)>) {
    kinds.clear();
    kinds.extend(
        game.tiles()
            .ids()
            .map(|id| (id, game.bag_count(id)))
            .filter(|&(_, n)| n > 0),
    );
}

/// `frame.child` becomes `game` after `action`.
fn step(game: &Game, action: Action, frame: &mut Frame) -> Result<(), EngineError> {
    frame.child.clone_from(game);
    frame.fx.clear();
    frame
        .child
        .apply(&action, &mut frame.fx)
        .map_err(PlayoutError::from)?;
    Ok(())
}

fn draw(game: &Game, tile: TileTypeId, frame: &mut Frame) -> Result<(), EngineError> {
    step(game, Action::Draw { tile }, frame)
}

fn set_aside(game: &Game, frame: &mut Frame) -> Result<(), EngineError> {
    step(game, Action::SetAside, frame)
}

/// The game ended on an empty bag, scored (a draw with nothing left to draw).
fn end_game<'f>(game: &Game, frame: &'f mut Frame) -> Result<&'f Game, EngineError> {
    step(game, Action::EndGame, frame)?;
    Ok(&frame.child)
}

fn deeper_than_tiles() -> EngineError {
    EngineError::Ending("the tree went deeper than its tiles allow".into())
}

fn through(phase: Phase) -> EngineError {
    EngineError::Ending(format!(
        "a turn in {phase:?}, which only The Gifts leads to"
    ))
}

/// A finished game's value, as the search values it.
fn final_value(game: &Game) -> Value {
    let leaf = final_leaf(game);
    Value {
        win: leaf.reward,
        margin: leaf.margin,
    }
}
