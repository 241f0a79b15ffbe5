//! The rules of Carcassonne: tiles as data, the board, features, legality and scoring.
//!
//! Architecture invariant: this crate does no IO, reads no clock and draws no random numbers.
//! Tile draws arrive as [`Action::Draw`], so every game replays identically anywhere.

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
    goods_words, AbbotMove, Action, ArrowMeepleSpot, ArrowState, Effects, Game, GiftAction,
    GiftCard, MapOptions, MeepleSpot, Options, Phase, PlacedArrow, Placement, Setup,
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
