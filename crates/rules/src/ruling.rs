//! Rule ids, the errors that reject an illegal action, and the notes that say why a legal
//! action was legal (the ruling trace).
//!
//! Every rule id is listed with its text in `docs/rules.md`.

use std::fmt;

use thiserror::Error;

use crate::geometry::{Pos, Rotation, Side, Terrain};
use crate::tileset::{FeatureKind, SegmentLabel};

/// A stable identifier of a rule, e.g. `base.tile.edges-match`.
pub type RuleId = &'static str;

/// The rule ids of the base game.
pub mod rule {
    use super::RuleId;
    pub const SETUP: RuleId = "base.setup";
    pub const START_TILE: RuleId = "base.setup.start-tile";
    pub const TURN_ORDER: RuleId = "base.turn.order";
    pub const TURN_PHASE: RuleId = "base.turn.phase";
    pub const DRAW_BAG: RuleId = "base.draw.bag";
    pub const TILE_DRAWN: RuleId = "base.tile.drawn";
    pub const TILE_EMPTY_SQUARE: RuleId = "base.tile.empty-square";
    pub const TILE_ADJACENT: RuleId = "base.tile.adjacent";
    pub const TILE_EDGES_MATCH: RuleId = "base.tile.edges-match";
    pub const TILE_SET_ASIDE: RuleId = "base.tile.set-aside";
    pub const MEEPLE_SEGMENT: RuleId = "base.meeple.segment";
    pub const MEEPLE_FARMERS: RuleId = "base.meeple.farmers-option";
    pub const MEEPLE_SUPPLY: RuleId = "base.meeple.supply";
    pub const MEEPLE_OCCUPIED: RuleId = "base.meeple.occupied";
    pub const MEEPLE_OPTIONAL: RuleId = "base.meeple.optional";
    pub const FEATURE_JOINED: RuleId = "base.feature.joined";
    pub const SCORE_ROAD_COMPLETED: RuleId = "base.score.road.completed";
    pub const SCORE_CITY_COMPLETED: RuleId = "base.score.city.completed";
    pub const SCORE_CITY_TWO_TILE: RuleId = "base.score.city.two-tile";
    pub const SCORE_MONASTERY_COMPLETED: RuleId = "base.score.monastery.completed";
    pub const SCORE_ROAD_FINAL: RuleId = "base.score.road.final";
    pub const SCORE_CITY_FINAL: RuleId = "base.score.city.final";
    pub const SCORE_MONASTERY_FINAL: RuleId = "base.score.monastery.final";
    pub const SCORE_FIELD_FINAL: RuleId = "base.score.field.final";
    pub const SCORE_MAJORITY: RuleId = "base.score.majority";
    pub const GAME_END: RuleId = "base.game.end";
}

/// Why an action is rejected. The state it was offered to is left unchanged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RuleViolation {
    #[error("{what}")]
    Setup { what: String },
    #[error("it is not the time to {action}: the game is waiting for {expected}")]
    WrongPhase {
        action: &'static str,
        expected: &'static str,
    },
    #[error("it is seat {expected}'s turn, not seat {got}'s")]
    NotYourTurn { expected: u8, got: u8 },
    #[error("tile {tile} cannot be drawn: all {holds} cop{} in the game are already out of the bag", if *holds == 1 { "y" } else { "ies" })]
    TileNotInBag { tile: String, holds: u16 },
    #[error("tile {tile} is not part of this game's tile sets")]
    UnknownTile { tile: String },
    #[error("the tile placed is {placed}, but the tile drawn is {drawn}")]
    NotTheDrawnTile { drawn: String, placed: String },
    #[error("square {at} already holds tile {tile}")]
    SquareTaken { at: Pos, tile: String },
    #[error("square {at} touches no placed tile along a full edge")]
    NotAdjacent { at: Pos },
    #[error("tile {tile} at {at} rotated {rotation}: its {side} side is {ours}, but the neighbour at {neighbour} shows {theirs} on its {facing} side")]
    EdgeMismatch {
        tile: String,
        at: Pos,
        rotation: Rotation,
        side: Side,
        ours: &'static str,
        neighbour: Pos,
        theirs: &'static str,
        facing: Side,
    },
    #[error("tile {tile} cannot be set aside: it fits at {at} rotated {rotation}")]
    SetAsideButFits {
        tile: String,
        at: Pos,
        rotation: Rotation,
    },
    #[error("tile {tile} at {at} has no {label}")]
    NoSuchSegment {
        tile: String,
        at: Pos,
        label: SegmentLabel,
    },
    #[error("tile {tile} at {at} has no segment number {segment} (it has {count})")]
    NoSuchSegmentIndex {
        tile: String,
        at: Pos,
        segment: u8,
        count: usize,
    },
    #[error("farmers are switched off in this game: no meeple may go on the {label} at {at}")]
    FarmersOff { at: Pos, label: SegmentLabel },
    #[error("seat {player} has no meeple left in supply")]
    NoMeepleLeft { player: u8 },
    #[error("the {kind} joined to {label} at {at} is already occupied by seat {owner}'s meeple on {owner_label} at {owner_at}")]
    FeatureOccupied {
        kind: FeatureKind,
        at: Pos,
        label: SegmentLabel,
        owner: u8,
        owner_at: Pos,
        owner_label: SegmentLabel,
    },
    #[error("the game is over: the last tile has been placed")]
    GameOver,
}

impl RuleViolation {
    /// The rule this violation breaks.
    pub fn rule(&self) -> RuleId {
        use RuleViolation::*;
        match self {
            Setup { .. } => rule::SETUP,
            WrongPhase { .. } => rule::TURN_PHASE,
            NotYourTurn { .. } => rule::TURN_ORDER,
            TileNotInBag { .. } | UnknownTile { .. } => rule::DRAW_BAG,
            NotTheDrawnTile { .. } => rule::TILE_DRAWN,
            SquareTaken { .. } => rule::TILE_EMPTY_SQUARE,
            NotAdjacent { .. } => rule::TILE_ADJACENT,
            EdgeMismatch { .. } => rule::TILE_EDGES_MATCH,
            SetAsideButFits { .. } => rule::TILE_SET_ASIDE,
            NoSuchSegment { .. } | NoSuchSegmentIndex { .. } => rule::MEEPLE_SEGMENT,
            FarmersOff { .. } => rule::MEEPLE_FARMERS,
            NoMeepleLeft { .. } => rule::MEEPLE_SUPPLY,
            FeatureOccupied { .. } => rule::MEEPLE_OCCUPIED,
            GameOver => rule::GAME_END,
        }
    }
}

/// One fact in the ruling trace of a legal action. Cheap to record (no allocation); rendered
/// to words by `Display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    StartPlaced {
        at: Pos,
        rotation: Rotation,
    },
    Drew {
        left: u32,
    },
    EdgeMatched {
        side: Side,
        terrain: Terrain,
        neighbour: Pos,
    },
    FitsNowhere,
    Joined {
        kind: FeatureKind,
        count: u8,
        occupied: u8,
    },
    MeepleOnFreeFeature {
        label: SegmentLabel,
    },
    MeepleSkipped,
    Completed {
        kind: FeatureKind,
        at: Pos,
    },
    NextPlayer {
        seat: u8,
    },
    BagEmpty,
}

impl Note {
    pub fn rule(&self) -> RuleId {
        match self {
            Note::StartPlaced { .. } => rule::START_TILE,
            Note::Drew { .. } => rule::DRAW_BAG,
            Note::EdgeMatched { .. } => rule::TILE_EDGES_MATCH,
            Note::FitsNowhere => rule::TILE_SET_ASIDE,
            Note::Joined { .. } => rule::FEATURE_JOINED,
            Note::MeepleOnFreeFeature { .. } => rule::MEEPLE_OCCUPIED,
            Note::MeepleSkipped => rule::MEEPLE_OPTIONAL,
            Note::Completed { kind, .. } => match kind {
                FeatureKind::City => rule::SCORE_CITY_COMPLETED,
                FeatureKind::Road => rule::SCORE_ROAD_COMPLETED,
                _ => rule::SCORE_MONASTERY_COMPLETED,
            },
            Note::NextPlayer { .. } => rule::TURN_ORDER,
            Note::BagEmpty => rule::GAME_END,
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::StartPlaced { at, rotation } => {
                write!(f, "start tile placed at {at} rotated {rotation}")
            }
            Note::Drew { left } => write!(f, "the tile was in the bag; {left} left"),
            Note::EdgeMatched {
                side,
                terrain,
                neighbour,
            } => write!(
                f,
                "{} side: {} meets {} of the tile at {neighbour}",
                side.word(),
                terrain.word(),
                terrain.word()
            ),
            Note::FitsNowhere => write!(f, "the tile fits on no open square in any rotation"),
            Note::Joined {
                kind,
                count,
                occupied,
            } => {
                let plural = match kind {
                    FeatureKind::City => "cities",
                    FeatureKind::Road => "roads",
                    FeatureKind::Field => "fields",
                    FeatureKind::Monastery => "monasteries",
                };
                write!(
                    f,
                    "the tile joins {count} separate {plural} into one ({occupied} of them held meeples)"
                )
            }
            Note::MeepleOnFreeFeature { label } => write!(
                f,
                "meeple on {label}: the whole connected feature held no meeple"
            ),
            Note::MeepleSkipped => write!(f, "no meeple placed"),
            Note::Completed { kind, at } => write!(f, "the {kind} through {at} is completed"),
            Note::NextPlayer { seat } => write!(f, "seat {seat} plays next"),
            Note::BagEmpty => write!(
                f,
                "the bag is empty: the game ends and final scoring follows"
            ),
        }
    }
}
