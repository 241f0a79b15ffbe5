//! The engine: a search over the rules that chooses a turn's move (placement, arrow, meeple)
//! knowing only what the player to move knows. No IO; time is read only for a time budget.
//!
//! Method (argued in `docs/engine.md`): information-set Monte Carlo tree search. Each
//! iteration deals a guess of the hidden parts (the bag's order; The Gifts: the other hands
//! and the deck), walks a tree of decision nodes (turn moves, widened progressively in the
//! greedy player's order) and chance outcomes (which tile comes next), and values the position
//! reached by a value learned by self-play ([`Weights`]): the scores if the game ended now,
//! plus weighted terms of what the tiles left say of each unfinished feature
//! ([`read_outlook`]) and of the meeples (`eval=potential`, the value before: the scores if
//! the game ended now, plus meeples in supply).
//! The value of a move is its estimated chance to win and its expected final margin.
//!
//! - `options`: budgets (nodes or time), threads, seed and the search's constants.
//! - `determinize`: one guess of the hidden parts; chance between two decisions.
//! - `ending`: exact endings, every order of the last tiles and every move ([`solve_ending`]).
//! - `outlook`: what the tiles left say about each unfinished feature ([`read_outlook`]).
//! - `eval`: the value of the position where an iteration stops.
//! - `value`: its learned form, weights over the outlook's terms ([`Weights`]).
//! - `training`: learning those weights by self-play, TD(λ) ([`train`]).
//! - `traders`: that value's corrections for Traders & Builders (goods, builder, second turn).
//! - `rollout`: a few turns of a cheap policy before that value (off by default).
//! - `tree`: the arena of nodes and moves, UCT within the widening window.
//! - `search`: the iterations, the threads, the result ([`analyse`], [`Analysis`]); moves
//!   measured side by side on the same guesses ([`compare`]).
//! - `notation`: a turn's move as one line of text ([`move_text`]).
//! - `spec`: the options as one line of text (`nodes=2000,rollout=4`).
//! - `player`: the engine as a seat of a match game ([`EnginePlayer`]).
//! - `error`: why a search could not run.

mod determinize;
mod ending;
mod error;
mod eval;
mod notation;
mod options;
mod outlook;
mod player;
mod rollout;
mod search;
mod spec;
mod traders;
mod training;
mod tree;
mod value;

pub use ending::{solve_ending, Ending, ExactMove, MAX_EXACT_TILES};
pub use error::EngineError;
pub use notation::{line_text, move_text};
pub use options::{
    Budget, Evaluation, SearchOptions, DEFAULT_NODES, EXACT_NODES, MAX_NODES, MAX_TIME,
};
pub use outlook::{
    read_outlook, FeatureOutlook, Outlook, SeatOutlook, SquareOutlook, PLACED_THERE,
};
pub use player::EnginePlayer;
pub use search::{analyse, compare, Analysis, LineStep, MoveStats};
pub use training::{train, GameTrained, TrainingPlan};
pub use value::{
    committed_weights, seat_features, Weights, COMMITTED_WEIGHTS, FEATURES, FEATURE_NAMES,
};
