//! carc-analysis: what happened in a game, counted — for post-game review.
//!
//! - [`game`]: one game: points by source, meeples placed, returned and still out (and how
//!   long they stayed out), features completed and shared, arrows, tiles set aside, and the
//!   notable moments (largest scores, changes of the lead).
//! - [`aggregate`]: many games: score distributions and win rates by seat.
//!
//! Everything is computed from a replay with the rules engine, never from the log's claims.

pub mod aggregate;
pub mod game;

pub use aggregate::{Aggregate, Distribution, SeatStats};
pub use game::{analyze, GameAnalysis, Moment, MomentKind, PlayerStats};
