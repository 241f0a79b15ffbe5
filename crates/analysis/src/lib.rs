//! carc-analysis: what happened in a game, counted — for post-game review.
//!
//! - [`game`]: one game: points by source, meeples placed, returned and still out (and how
//!   long they stayed out), features completed and shared, arrows, tiles set aside, and the
//!   notable moments (largest scores, changes of the lead).
//! - [`aggregate`]: many games: score distributions and win rates by seat.
//! - [`quality`]: move quality: each turn's move against the best found by playouts
//!   (simulated games to the end, with the unseen tiles shuffled), marked `?!`, `?`, `??`; and the judge's own best move at a position ([`best_move`]), as a
//!   seat of a match game ([`PlayoutPlayer`]).
//!
//! Everything is computed from a replay with the rules engine, never from the log's claims.

pub mod aggregate;
pub mod game;
pub mod quality;

pub use aggregate::{Aggregate, Distribution, SeatStats};
pub use game::{analyze, GameAnalysis, Moment, MomentKind, PlayerStats};
pub use quality::{
    best_move, move_quality, move_quality_with, Mark, MoveEstimate, PlayerQuality, PlayoutPlayer,
    QualityError, QualityOptions, QualityReport, TurnQuality,
};
