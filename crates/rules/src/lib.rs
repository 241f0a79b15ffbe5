//! The rules of Carcassonne: tiles as data, the board, features, legality and scoring.
//!
//! Architecture invariant: this crate does no IO, reads no clock and draws no random numbers.
//! Tile draws arrive as [`Action::Draw`], so every game replays identically anywhere.
//!
//! A turn: the program that deals chance draws a tile, [`Game::legal_moves`] lists every legal
//! [`Move`] (placement, arrow choice, [`MeepleStep`]), and a move is played as its
//! [`Move::actions`]. A refused action ([`RuleViolation`]) leaves the game as it was.
//!
//! ```
//! use carc_rules::{Action, Effects, Game, Pos, Rotation, Setup};
//!
//! let mut game = Game::new(Setup::base(2))?;
//! let mut fx = Effects::quiet();
//! let tile = game.tiles().start_tile().unwrap();
//! let (at, rotation) = (Pos::new(0, 0), Rotation::default());
//! game.apply(&Action::PlaceStart { tile, at, rotation }, &mut fx)?;
//! // Seat 0 draws a straight road (U) and plays the first move listed.
//! let tile = game.tiles().find("U").unwrap();
//! game.apply(&Action::Draw { tile }, &mut fx)?;
//! let mut moves = Vec::new();
//! game.legal_moves(&mut moves);
//! for action in moves[0].actions() {
//!     game.apply(&action, &mut fx)?;
//! }
//! assert_eq!(game.current_player(), 1);
//! # Ok::<(), carc_rules::RuleViolation>(())
//! ```
//!
//! `examples/random_game.rs` plays a whole game this way in under 30 lines.

#![warn(missing_docs)]

mod board;
mod features;
pub mod game;
pub mod geometry;
mod gift_card;
pub mod map;
mod reuse;
pub mod ruling;
pub mod score;
pub mod tileset;

pub use board::PlacedTile;
pub use features::MAX_PLAYERS;
pub use game::GIFT_COPIES;
pub use game::{
    goods_words, AbbotMove, Action, ArrowMeepleSpot, ArrowState, Effects, FeatureSurvey, Game,
    GiftAction, GiftCard, MapOptions, MeepleSpot, MeepleStep, Move, OpenFeature, OpenSquare,
    Options, Phase, PlacedArrow, Placement, Setup,
};
pub use geometry::{Port, Pos, Rotation, Side, Terrain};
pub use map::{
    Border, LargeCity, MapBoard, MapError, NamedSquare, Print, Region, RegionKind, Square,
};
pub use ruling::{gift_rule, rule, seat_number, Note, RuleId, RuleViolation, SeatNamer};
pub use score::{FeatureRef, ReturnedMeeple, Score, ScoreSource, ScoreTime, Special};
pub use tileset::{
    garden_copy_id, Anchor, Arrow, ArrowSymbol, FeatureKind, Good, RiverEnd, SegmentLabel, TileSet,
    TileSetError, TileType, TileTypeId,
};
