//! carc-analysis: what happened in a game, counted — for post-game review.
//!
//! - [`game`]: one game: points by source, meeples placed, returned and still out (and how
//!   long they stayed out), features completed and shared, arrows, tiles set aside, and the
//!   notable moments (largest scores, changes of the lead).
//! - [`aggregate`]: many games: score distributions and win rates by seat.
//! - [`quality`]: move quality: each turn's move against the best found, marked `?!`, `?`,
//!   `??`, judged on several threads by one of the two judges and summed up per player:
//!   - [`review`]: the engine judge (the default): the engine's best move and the move played
//!     measured side by side, marks by the chance to win lost, accuracy per move;
//!   - [`playouts`]: the playout judge (simulated games to the end, with the unseen tiles
//!     shuffled), its own best move at a position ([`best_move`]), and the playout judge as a
//!     seat of a match game ([`PlayoutPlayer`]);
//!   - [`verdict`]: what both say (marks, options, a turn judged, the report); [`notation`]:
//!     a move in the rules' listed form and in words; `seeds`: where their randomness comes
//!     from.
//! - [`puzzles`]: a player's `?` and `??` turns as positions to solve again (`carc puzzles`).
//!
//! Everything is computed from a replay with the rules engine, never from the log's claims.

pub mod aggregate;
pub mod game;
pub mod notation;
pub mod playouts;
pub mod puzzles;
pub mod quality;
pub mod review;
mod seeds;
pub mod verdict;
pub mod win_chances;

pub use aggregate::{Aggregate, Distribution, SeatStats};
pub use game::{analyze, GameAnalysis, Moment, MomentKind, PlayerStats};
pub use quality::{
    best_move, move_quality, move_quality_with, Mark, MoveEstimate, PlayerQuality, PlayoutPlayer,
    QualityError, QualityOptions, QualityReport, TurnQuality,
};
pub use quality::{Judge, LineMove, WinEstimate};
