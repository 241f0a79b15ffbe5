//! Why a position cannot be played out: the error of the driver, of playouts and (as a
//! [`RuleViolation`]) of whole simulated games.

use thiserror::Error;

use carc_rules::RuleViolation;

/// Why a position cannot be played out.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PlayoutError {
    /// An action of the playout (or the move to try first) was refused by the rules.
    #[error(transparent)]
    Rule(#[from] RuleViolation),
    /// The position is not one the simulator can go on from.
    #[error("the position cannot be played out: {0}")]
    Position(String),
}

impl PlayoutError {
    pub(crate) fn into_violation(self) -> RuleViolation {
        match self {
            PlayoutError::Rule(v) => v,
            PlayoutError::Position(what) => RuleViolation::Setup { what },
        }
    }
}
