//! The small values events are made of: tile ids, positions, rotations, arrows and gift
//! cards, each with its wire spelling.

use std::borrow::Borrow;
use std::fmt;
use std::str::FromStr;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// A tile id (a letter such as `"V"` in the base game); never empty.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileId(String);

/// The error for an empty tile id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tile id must not be empty")]
pub struct EmptyTileId;

impl TileId {
    /// A tile id from a non-empty string.
    pub fn new(id: impl Into<String>) -> Result<Self, EmptyTileId> {
        let id = id.into();
        if id.is_empty() {
            return Err(EmptyTileId);
        }
        Ok(TileId(id))
    }

    /// The id text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The id text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for TileId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for TileId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl FromStr for TileId {
    type Err = EmptyTileId;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TileId::new(s)
    }
}

impl Serialize for TileId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for TileId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        TileId::new(String::deserialize(deserializer)?).map_err(de::Error::custom)
    }
}

/// A board square: x grows east, y grows north. Written `[x, y]`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Pos {
    /// East–west coordinate, growing east.
    pub x: i32,
    /// North–south coordinate, growing north.
    pub y: i32,
}

impl Pos {
    /// `Pos { x, y }`.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }
}

impl From<[i32; 2]> for Pos {
    fn from([x, y]: [i32; 2]) -> Self {
        Pos { x, y }
    }
}

impl From<Pos> for [i32; 2] {
    fn from(pos: Pos) -> Self {
        [pos.x, pos.y]
    }
}

/// A tile's rotation, clockwise; written in degrees (0, 90, 180, 270).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Rotation {
    /// 0°
    #[default]
    R0,
    /// 90° clockwise
    R90,
    /// 180°
    R180,
    /// 270° clockwise (90° counter-clockwise)
    R270,
}

impl Rotation {
    /// All rotations, increasing.
    pub const ALL: [Rotation; 4] = [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270];

    /// Clockwise degrees.
    pub fn degrees(self) -> u16 {
        match self {
            Rotation::R0 => 0,
            Rotation::R90 => 90,
            Rotation::R180 => 180,
            Rotation::R270 => 270,
        }
    }

    /// Clockwise quarter turns, 0 to 3.
    pub fn quarter_turns(self) -> u8 {
        match self {
            Rotation::R0 => 0,
            Rotation::R90 => 1,
            Rotation::R180 => 2,
            Rotation::R270 => 3,
        }
    }

    /// The rotation for 0, 90, 180 or 270 degrees.
    pub fn from_degrees(degrees: i64) -> Option<Self> {
        match degrees {
            0 => Some(Rotation::R0),
            90 => Some(Rotation::R90),
            180 => Some(Rotation::R180),
            270 => Some(Rotation::R270),
            _ => None,
        }
    }
}

const ROTATION_EXPECTED: &str = "a rotation in clockwise degrees: one of 0, 90, 180, 270";

impl Serialize for Rotation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(self.degrees())
    }
}

impl<'de> Deserialize<'de> for Rotation {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Rotation;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(ROTATION_EXPECTED)
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Rotation, E> {
                Rotation::from_degrees(v).ok_or_else(|| {
                    E::custom(format!(
                        "rotation {v} is not one of 0, 90, 180, 270 (clockwise degrees)"
                    ))
                })
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Rotation, E> {
                match i64::try_from(v) {
                    Ok(v) => self.visit_i64(v),
                    Err(_) => Err(E::custom(format!(
                        "rotation {v} is not one of 0, 90, 180, 270 (clockwise degrees)"
                    ))),
                }
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Rotation, E> {
                Err(E::custom(format!(
                    "rotation {v} is not one of 0, 90, 180, 270 (clockwise degrees, an integer)"
                )))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// The symbol on an arrow of the 20th Anniversary expansion, as written in `arrow_chosen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrowSymbol {
    /// `companion`
    Companion,
    /// `portal`
    Portal,
    /// `extra_turn`
    ExtraTurn,
}

impl ArrowSymbol {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ArrowSymbol::Companion => "companion",
            ArrowSymbol::Portal => "portal",
            ArrowSymbol::ExtraTurn => "extra_turn",
        }
    }
}

/// Which figure a `meeple_placed` event puts on the board: the normal meeple (the field is
/// absent from the line), the large meeple of Inns & Cathedrals (`"figure":"large"`), or the
/// builder or pig of Traders & Builders (`"figure":"builder"`, `"figure":"pig"`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// A meeple from the supply (the base game's).
    #[default]
    Meeple,
    /// The player's large meeple (Inns & Cathedrals): counts as two meeples for the majority.
    Large,
    /// The player's builder (Traders & Builders): on a road or city where he has a meeple.
    Builder,
    /// The player's pig (Traders & Builders): on a field where he has a farmer.
    Pig,
}

impl Figure {
    /// Whether this is the normal meeple (then the field is not written).
    pub fn is_meeple(&self) -> bool {
        *self == Figure::Meeple
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Figure::Meeple => "meeple",
            Figure::Large => "large",
            Figure::Builder => "builder",
            Figure::Pig => "pig",
        }
    }
}

/// The arrow action that sent a meeple, as written in `arrow_meeple_placed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrowMeepleAction {
    /// `companion`: beside one of the player's own meeples.
    Companion,
    /// `portal`: onto any unoccupied, incomplete feature.
    Portal,
}

impl ArrowMeepleAction {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ArrowMeepleAction::Companion => "companion",
            ArrowMeepleAction::Portal => "portal",
        }
    }
}

/// A gift card of The Gifts, as written in `gift_received` and `gift_opened`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GiftCard {
    /// `synod`
    #[serde(rename = "synod")]
    Synod,
    /// `road_sweeper`
    #[serde(rename = "road_sweeper")]
    RoadSweeper,
    /// `change_position`
    #[serde(rename = "change_position")]
    ChangePosition,
    /// `cash_out`
    #[serde(rename = "cash_out")]
    CashOut,
    /// `take_2`
    #[serde(rename = "take_2")]
    TakeTwo,
}

impl GiftCard {
    /// All cards, in wire order.
    pub const ALL: [GiftCard; 5] = [
        GiftCard::Synod,
        GiftCard::RoadSweeper,
        GiftCard::ChangePosition,
        GiftCard::CashOut,
        GiftCard::TakeTwo,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            GiftCard::Synod => "synod",
            GiftCard::RoadSweeper => "road_sweeper",
            GiftCard::ChangePosition => "change_position",
            GiftCard::CashOut => "cash_out",
            GiftCard::TakeTwo => "take_2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_degrees_round_trip() {
        for r in Rotation::ALL {
            assert_eq!(Rotation::from_degrees(i64::from(r.degrees())), Some(r));
            assert_eq!(u16::from(r.quarter_turns()) * 90, r.degrees());
        }
        assert_eq!(Rotation::from_degrees(360), None);
        assert_eq!(Rotation::from_degrees(-90), None);
    }
}
