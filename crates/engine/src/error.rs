//! Why a search could not run.

use thiserror::Error;

use carc_sim::PlayoutError;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum EngineError {
    /// The position has no decision to search: no drawn tile waits to be placed.
    #[error("no move to search: the game waits for {0}, not for a placement")]
    NoDecision(String),
    /// The drawn tile fits nowhere: the only move is to set it aside.
    #[error("the drawn tile fits nowhere; it is set aside, there is nothing to choose")]
    NoPlacement,
    /// A move given to compare is not a legal move of the turn.
    #[error("not a legal move of the turn: {0}")]
    NotLegal(String),
    /// An engine spec (`nodes=2000,rollout=4`) that could not be read.
    #[error("engine options {spec:?}: {why}")]
    BadSpec { spec: String, why: String },
    /// An exact ending met a position its recursion does not model (a bug: the phases and
    /// the depth are checked before it starts).
    #[error("the exact ending could not go on: {0}")]
    Ending(String),
    /// A weights file that could not be read (`Weights::from_json`).
    #[error("weights: {0}")]
    Weights(String),
    /// The rules refused a step of self-play (a bug: training plays only legal moves).
    #[error("training could not go on: {0}")]
    Training(String),
    /// The rules refused a step of the search (a bug, or a position the simulator cannot
    /// go on from).
    #[error("the search could not go on: {0}")]
    Playout(#[from] PlayoutError),
}
