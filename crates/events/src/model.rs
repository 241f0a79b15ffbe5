//! The typed content of a log: header, events, assertions.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

use crate::annotation::Annotation;
use crate::tagged::tagged_enum;
use crate::target::{FeatureKind, MeepleTarget};
use crate::variation::VariationRecord;

/// Most players a game may have.
pub const MAX_PLAYERS: usize = 6;

/// A player's colour, written lowercase on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// `red`
    Red,
    /// `blue`
    Blue,
    /// `green`
    Green,
    /// `yellow`
    Yellow,
    /// `black`
    Black,
    /// `gray`
    Gray,
}

impl Color {
    /// All colours, in wire order.
    pub const ALL: [Color; 6] = [
        Color::Red,
        Color::Blue,
        Color::Green,
        Color::Yellow,
        Color::Black,
        Color::Gray,
    ];

    /// The wire name, e.g. `red`.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
            Color::Green => "green",
            Color::Yellow => "yellow",
            Color::Black => "black",
            Color::Gray => "gray",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One seat of the game. The seat index (0-based position in [`Header::players`]) is what
/// events call `player`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// Non-empty, unique within the game.
    pub name: String,
    /// The meeple colour.
    pub color: Color,
}

/// Rule options of the game (the header's `rules` object).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesOptions {
    /// Expansion names, e.g. later `"anniversary"`, `"gifts"`, `"map:germany"`. This crate
    /// stores them and does not judge them.
    pub expansions: Vec<String>,
    /// Whether fields are scored (farmers). Default `true`.
    #[serde(default = "default_farmers")]
    pub farmers: bool,
    /// Points per tile of a completed two-tile city: 2 or 4. Default 4.
    #[serde(
        default = "default_two_tile_city",
        deserialize_with = "de_two_tile_city"
    )]
    pub two_tile_city: u8,
    /// Meeples per player, 1 to 20. Default 7.
    #[serde(default = "default_meeples", deserialize_with = "de_meeples")]
    pub meeples: u8,
    /// The map board the game is played on (Carcassonne Maps). Absent for the open table, and
    /// then not written, so logs without a map keep their exact bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<MapRules>,
}

/// The `map` object of the header's `rules`: which map, and its setup and rule options.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapRules {
    /// The map's name, e.g. `"germany"` (built in, or loaded with `--map FILE`).
    pub name: String,
    /// Start squares in use (the start tile on the first, a drawn tile on each other). Default 2.
    #[serde(
        default = "default_start_squares",
        deserialize_with = "de_start_squares"
    )]
    pub start_squares: u8,
    /// Town variants in use (each off unless listed). Not written when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub town_variants: Vec<TownVariant>,
}

/// A town variant of Carcassonne Maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TownVariant {
    /// `extra_turn`: covering a town gives an extra turn.
    ExtraTurn,
    /// `cost`: covering a town costs 2 points.
    Cost,
    /// `road_bonus`: a scored road earns 2 per visible town next to it.
    RoadBonus,
}

impl TownVariant {
    /// All variants, in wire order.
    pub const ALL: [TownVariant; 3] = [
        TownVariant::ExtraTurn,
        TownVariant::Cost,
        TownVariant::RoadBonus,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TownVariant::ExtraTurn => "extra_turn",
            TownVariant::Cost => "cost",
            TownVariant::RoadBonus => "road_bonus",
        }
    }
}

fn default_start_squares() -> u8 {
    2
}

fn de_start_squares<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let n = i64::deserialize(d)?;
    match u8::try_from(n) {
        Ok(n @ 2..=8) => Ok(n),
        _ => Err(de::Error::custom(format!(
            "start_squares must be between 2 and 8, found {n}"
        ))),
    }
}

impl Default for RulesOptions {
    fn default() -> Self {
        RulesOptions {
            expansions: Vec::new(),
            farmers: default_farmers(),
            two_tile_city: default_two_tile_city(),
            meeples: default_meeples(),
            map: None,
        }
    }
}

fn default_farmers() -> bool {
    true
}

fn default_two_tile_city() -> u8 {
    4
}

fn default_meeples() -> u8 {
    7
}

/// The header (line 1) without `format` and `version`, which belong to the file, not the game:
/// a log read from an older version is upcast, so its header is always current.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Game id, non-empty.
    pub game: String,
    /// 1 to [`MAX_PLAYERS`] players with unique non-empty names, in seat order.
    pub players: Vec<Player>,
    /// Rule options.
    pub rules: RulesOptions,
    /// Tile set names, at least one (e.g. `"base"`).
    pub tile_sets: Vec<String>,
    /// Optional override of the number of copies per tile id (short games).
    pub bag: Option<BTreeMap<TileId, u16>>,
    /// Where the game comes from, when a program knows it (optional; absent, not written).
    pub source: Option<Source>,
    /// Optional free text.
    pub comment: Option<String>,
}

/// Where a game comes from (header field `source`): machine-readable, unlike the free-text
/// `comment`, so that tools can list and group games by origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// Played by `carc simulate`: the seed and each seat's strategy, so the game can be
    /// played again byte for byte.
    Simulated { seed: u64, strategies: Vec<String> },
    /// Imported from a Board Game Arena replay: the table id and BGA's player ids in seat
    /// order.
    Bga { table: u64, players: Vec<u64> },
}

impl Header {
    /// Checks what decoding checks, for headers built in code (a header that fails this is
    /// written faithfully by [`crate::write_header`] but will not read back).
    pub fn validate(&self) -> Result<(), String> {
        check_game(&self.game)?;
        check_players(&self.players)?;
        check_two_tile_city(i64::from(self.rules.two_tile_city))?;
        check_meeples(i64::from(self.rules.meeples))?;
        check_tile_sets(&self.tile_sets)
    }
}

pub(crate) fn check_game(game: &str) -> Result<(), String> {
    if game.is_empty() {
        return Err("game: the game id must not be empty".into());
    }
    Ok(())
}

pub(crate) fn check_players(players: &[Player]) -> Result<(), String> {
    if players.is_empty() || players.len() > MAX_PLAYERS {
        return Err(format!(
            "players: expected 1 to {MAX_PLAYERS} players, found {}",
            players.len()
        ));
    }
    for (seat, player) in players.iter().enumerate() {
        if player.name.is_empty() {
            return Err(format!("players: player {seat} has an empty name"));
        }
        crate::text::check_name_length(&player.name)
            .map_err(|why| format!("players: the name of player {seat}: {why}"))?;
        if let Some(first) = players[..seat].iter().position(|p| p.name == player.name) {
            return Err(format!(
                "players: players {first} and {seat} are both named {}; names must be unique",
                crate::short(&player.name)
            ));
        }
    }
    Ok(())
}

fn check_two_tile_city(points: i64) -> Result<u8, String> {
    match points {
        2 | 4 => Ok(points as u8),
        _ => Err(format!("two_tile_city must be 2 or 4, found {points}")),
    }
}

fn check_meeples(meeples: i64) -> Result<u8, String> {
    match u8::try_from(meeples) {
        Ok(n @ 1..=20) => Ok(n),
        _ => Err(format!("meeples must be between 1 and 20, found {meeples}")),
    }
}

pub(crate) fn check_tile_sets(tile_sets: &[String]) -> Result<(), String> {
    if tile_sets.is_empty() {
        return Err("tile_sets: expected at least one tile set name, e.g. [\"base\"]".into());
    }
    if tile_sets.iter().any(String::is_empty) {
        return Err("tile_sets: tile set names must not be empty".into());
    }
    Ok(())
}

fn de_two_tile_city<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    check_two_tile_city(i64::deserialize(d)?).map_err(de::Error::custom)
}

fn de_meeples<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    check_meeples(i64::deserialize(d)?).map_err(de::Error::custom)
}

pub(crate) fn de_game<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let game = String::deserialize(d)?;
    check_game(&game).map_err(de::Error::custom)?;
    Ok(game)
}

pub(crate) fn de_players<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Player>, D::Error> {
    let players = Vec::<Player>::deserialize(d)?;
    check_players(&players).map_err(de::Error::custom)?;
    Ok(players)
}

pub(crate) fn de_tile_sets<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let tile_sets = Vec::<String>::deserialize(d)?;
    check_tile_sets(&tile_sets).map_err(de::Error::custom)?;
    Ok(tile_sets)
}

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

// `Event` and its decode-only twin `ExternallyTaggedEvent`, from this one list (`crate::tagged`).
tagged_enum! {
/// One event: a decision or a chance outcome. The wire `type` is the snake_case variant name.
///
/// New event types come with a new format version (see the crate docs), unless only a named
/// expansion uses them (see `upcast`); add the variant, its name to [`EVENT_TYPES`], and an
/// arm to [`Event::type_name`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event => ExternallyTaggedEvent {
    /// The start tile was put on the board.
    StartPlaced {
        /// Tile id.
        tile: TileId,
        /// Square.
        at: Pos,
        /// Rotation.
        rotation: Rotation,
    },
    /// `player` drew `tile`.
    TileDrawn {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
    },
    /// `player` placed `tile`.
    TilePlaced {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
        /// Square.
        at: Pos,
        /// Rotation.
        rotation: Rotation,
    },
    /// `player` placed a meeple on the tile just placed.
    MeeplePlaced {
        /// Seat index.
        player: u8,
        /// The feature, in board orientation.
        on: MeepleTarget,
    },
    /// `player` chose not to place a meeple.
    MeepleSkipped {
        /// Seat index.
        player: u8,
    },
    /// `player` set the drawn `tile` aside (it fit nowhere).
    TileSetAside {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
    },
    /// 20th Anniversary: of several arrows the tile just placed could activate, `player`
    /// chose the one on the tile at `at`, which carries `symbol`.
    ArrowChosen {
        /// Seat index.
        player: u8,
        /// The square of the tile carrying the chosen arrow.
        at: Pos,
        /// Its symbol (checked against the tile).
        symbol: ArrowSymbol,
    },
    /// 20th Anniversary: instead of a meeple on the tile just placed, `player` put one from
    /// supply on `on` of the tile at `at`, through the activated `action` arrow.
    ArrowMeeplePlaced {
        /// Seat index.
        player: u8,
        /// `companion` or `portal`.
        action: ArrowMeepleAction,
        /// The square of the target tile.
        at: Pos,
        /// The feature, in board orientation.
        on: MeepleTarget,
    },
    /// The Gifts: `player` received `card` from the gift deck (chance, like a tile draw).
    GiftReceived {
        /// Seat index.
        player: u8,
        /// The card.
        card: GiftCard,
    },
    /// The Gifts: after drawing and before placing, `player` opened `card` from their hand.
    /// Its target: `at` and `on` (Synod, Road Sweeper, Change Position, Cash Out) and `to`
    /// (Change Position); absent for Take 2.
    GiftOpened {
        /// Seat index.
        player: u8,
        /// The card.
        card: GiftCard,
        /// The square of the target tile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Pos>,
        /// The target feature (or the meeple's spot), in board orientation.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        on: Option<MeepleTarget>,
        /// Change Position: where the meeple goes on the same tile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<MeepleTarget>,
    },
    /// The Gifts, Take 2: of the two tiles drawn, `player` put `tile` back into the bag.
    TileReturned {
        /// Seat index.
        player: u8,
        /// Tile id.
        tile: TileId,
    },
    /// The players ended the game between turns with tiles still in the bag (a game
    /// abandoned at the table): final scoring follows at once. No fields: the table decided,
    /// not one seat.
    GameEnded,
    /// The Abbot: instead of a meeple, `player` put their abbot on `on` (`monastery` or
    /// `garden`) of the tile at `at`: the tile just placed, or any tile through the
    /// activated portal arrow (`portal`, written only when true).
    AbbotPlaced {
        /// Seat index.
        player: u8,
        /// The square of the tile.
        at: Pos,
        /// `monastery` or `garden`.
        on: MeepleTarget,
        /// Sent through the activated portal arrow (20th Anniversary).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        portal: bool,
    },
    /// The Abbot: instead of a meeple, `player` took their abbot back from the tile at `at`
    /// and scored it at once.
    AbbotTakenBack {
        /// Seat index.
        player: u8,
        /// The square the abbot stood on (checked against the game).
        at: Pos,
    },
}
}

/// Every event `type` this version reads, in declaration order.
pub const EVENT_TYPES: &[&str] = &[
    "start_placed",
    "tile_drawn",
    "tile_placed",
    "meeple_placed",
    "meeple_skipped",
    "tile_set_aside",
    "arrow_chosen",
    "arrow_meeple_placed",
    "gift_received",
    "gift_opened",
    "tile_returned",
    "game_ended",
    "abbot_placed",
    "abbot_taken_back",
];

impl Event {
    /// The wire `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::StartPlaced { .. } => "start_placed",
            Event::TileDrawn { .. } => "tile_drawn",
            Event::TilePlaced { .. } => "tile_placed",
            Event::MeeplePlaced { .. } => "meeple_placed",
            Event::MeepleSkipped { .. } => "meeple_skipped",
            Event::TileSetAside { .. } => "tile_set_aside",
            Event::ArrowChosen { .. } => "arrow_chosen",
            Event::ArrowMeeplePlaced { .. } => "arrow_meeple_placed",
            Event::GiftReceived { .. } => "gift_received",
            Event::GiftOpened { .. } => "gift_opened",
            Event::TileReturned { .. } => "tile_returned",
            Event::GameEnded => "game_ended",
            Event::AbbotPlaced { .. } => "abbot_placed",
            Event::AbbotTakenBack { .. } => "abbot_taken_back",
        }
    }

    /// The acting seat, if the event has one.
    pub fn player(&self) -> Option<u8> {
        match self {
            Event::StartPlaced { .. } | Event::GameEnded => None,
            Event::TileDrawn { player, .. }
            | Event::TilePlaced { player, .. }
            | Event::MeeplePlaced { player, .. }
            | Event::MeepleSkipped { player }
            | Event::TileSetAside { player, .. }
            | Event::ArrowChosen { player, .. }
            | Event::ArrowMeeplePlaced { player, .. }
            | Event::GiftReceived { player, .. }
            | Event::GiftOpened { player, .. }
            | Event::TileReturned { player, .. }
            | Event::AbbotPlaced { player, .. }
            | Event::AbbotTakenBack { player, .. } => Some(*player),
        }
    }
}

/// An event with its sequence number. Written `{"seq":N,"type":…,…}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Envelope {
    /// 1-based, consecutive within a log.
    pub seq: u64,
    /// The event.
    #[serde(flatten)]
    pub event: Event,
}

// `Assertion` and its decode-only twin `ExternallyTaggedAssertion` (`crate::tagged`).
tagged_enum! {
/// A claim that a checker compares with the fold's result; not an event (no `seq`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Assertion => ExternallyTaggedAssertion {
    /// The scores, one per seat, after event `after` has been applied.
    ExpectScores {
        /// An event seq (not checked against the file here).
        after: u64,
        /// One per player, in seat order.
        scores: Vec<u32>,
    },
    /// The scores, one per seat, after final scoring.
    ExpectFinalScores {
        /// One per player, in seat order.
        scores: Vec<u32>,
    },
    /// The points seat `player` won for features of kind `feature` in event `after`, summed
    /// over all such features that event scored (features completed during play, and the
    /// final scoring when `after` is the last event). Written by importers of games whose
    /// site states each feature's points (Board Game Arena), so that a disagreement names the
    /// feature and the event.
    ExpectPoints {
        /// An event seq (not checked against the file here).
        after: u64,
        /// A seat.
        player: u8,
        /// `city`, `road`, `field` or `monastery`.
        feature: FeatureKind,
        points: u32,
    },
}
}

/// The `type` of an annotation line in an exported bundle (`crate::annotation`).
pub const ANNOTATION_TYPE: &str = "annotation";

/// The `type` of a variation line in an exported bundle (`crate::variation`).
pub const VARIATION_TYPE: &str = "variation";

/// Every assertion `type` this version reads.
pub const ASSERTION_TYPES: &[&str] = &["expect_scores", "expect_final_scores", "expect_points"];

impl Assertion {
    /// The wire `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Assertion::ExpectScores { .. } => "expect_scores",
            Assertion::ExpectFinalScores { .. } => "expect_final_scores",
            Assertion::ExpectPoints { .. } => "expect_points",
        }
    }

    /// The claimed scores (one per seat), or for `expect_points` the one claimed number.
    pub fn scores(&self) -> &[u32] {
        match self {
            Assertion::ExpectScores { scores, .. } | Assertion::ExpectFinalScores { scores } => {
                scores
            }
            Assertion::ExpectPoints { points, .. } => std::slice::from_ref(points),
        }
    }
}

/// A whole log. Line numbers (1-based; the header is line 1) say where each item was read
/// from, so later errors can name the line; [`crate::write_log`] uses them only to order
/// the lines and numbers the output afresh.
///
/// A log read from an exported bundle also carries the game's annotation and variation
/// records (`{"type":"annotation",…}`, `{"type":"variation",…}` lines). They are not part of
/// the game: the fold ignores them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log {
    /// Line 1.
    pub header: Header,
    /// `(line, event)`, in seq order.
    pub events: Vec<(usize, Envelope)>,
    /// `(line, assertion)`, in file order.
    pub assertions: Vec<(usize, Assertion)>,
    /// `(line, annotation record)`, in file order (bundles only).
    pub annotations: Vec<(usize, Annotation)>,
    /// `(line, variation record)`, in file order (bundles only).
    pub variations: Vec<(usize, VariationRecord)>,
}

impl Log {
    /// A log with no events.
    pub fn new(header: Header) -> Self {
        Log {
            header,
            events: Vec::new(),
            assertions: Vec::new(),
            annotations: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// The seq of the last event, 0 if there is none.
    pub fn last_seq(&self) -> u64 {
        self.events.last().map_or(0, |(_, e)| e.seq)
    }

    /// The line the next appended item will have when written.
    fn next_line(&self) -> usize {
        2 + self.events.len()
            + self.assertions.len()
            + self.annotations.len()
            + self.variations.len()
    }

    /// The log without its annotation and variation records: the game alone.
    pub fn without_companions(mut self) -> Log {
        self.annotations.clear();
        self.variations.clear();
        self
    }

    /// Whether the log carries annotation or variation records (a bundle).
    pub fn has_companions(&self) -> bool {
        !self.annotations.is_empty() || !self.variations.is_empty()
    }

    /// Appends an event with the next seq; returns that seq.
    pub fn push_event(&mut self, event: Event) -> u64 {
        let seq = self.last_seq() + 1;
        let line = self.next_line();
        self.events.push((line, Envelope { seq, event }));
        seq
    }

    /// Appends an assertion after everything so far.
    pub fn push_assertion(&mut self, assertion: Assertion) {
        let line = self.next_line();
        self.assertions.push((line, assertion));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_list_matches_the_enum() {
        let tile = TileId::new("V").unwrap();
        let samples = [
            Event::StartPlaced {
                tile: tile.clone(),
                at: Pos::new(0, 0),
                rotation: Rotation::R0,
            },
            Event::TileDrawn {
                player: 0,
                tile: tile.clone(),
            },
            Event::TilePlaced {
                player: 0,
                tile: tile.clone(),
                at: Pos::new(1, 0),
                rotation: Rotation::R90,
            },
            Event::MeeplePlaced {
                player: 0,
                on: MeepleTarget::monastery(),
            },
            Event::MeepleSkipped { player: 0 },
            Event::TileSetAside { player: 0, tile },
            Event::ArrowChosen {
                player: 0,
                at: Pos::new(1, 0),
                symbol: ArrowSymbol::Portal,
            },
            Event::ArrowMeeplePlaced {
                player: 0,
                action: ArrowMeepleAction::Companion,
                at: Pos::new(2, -1),
                on: MeepleTarget::monastery(),
            },
            Event::GiftReceived {
                player: 0,
                card: GiftCard::Synod,
            },
            Event::GiftOpened {
                player: 0,
                card: GiftCard::TakeTwo,
                at: None,
                on: None,
                to: None,
            },
            Event::TileReturned {
                player: 0,
                tile: TileId::new("V").unwrap(),
            },
            Event::GameEnded,
            Event::AbbotPlaced {
                player: 0,
                at: Pos::new(0, -1),
                on: MeepleTarget::garden(),
                portal: false,
            },
            Event::AbbotTakenBack {
                player: 0,
                at: Pos::new(0, -1),
            },
        ];
        let names: Vec<&str> = samples.iter().map(Event::type_name).collect();
        assert_eq!(names, EVENT_TYPES);
        for event in &samples {
            let value = serde_json::to_value(event).unwrap();
            assert_eq!(value["type"], event.type_name());
        }
    }

    #[test]
    fn assertion_types_list_matches_the_enum() {
        let samples = [
            Assertion::ExpectScores {
                after: 1,
                scores: vec![0],
            },
            Assertion::ExpectFinalScores { scores: vec![0] },
            Assertion::ExpectPoints {
                after: 1,
                player: 0,
                feature: FeatureKind::City,
                points: 4,
            },
        ];
        let names: Vec<&str> = samples.iter().map(Assertion::type_name).collect();
        assert_eq!(names, ASSERTION_TYPES);
        for a in &samples {
            assert_eq!(serde_json::to_value(a).unwrap()["type"], a.type_name());
        }
    }

    #[test]
    fn envelope_serde_is_the_wire_line() {
        let line =
            r#"{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[1,0],"rotation":90}"#;
        let env: Envelope = serde_json::from_str(line).unwrap();
        assert_eq!(env.seq, 3);
        assert_eq!(
            env.event,
            Event::TilePlaced {
                player: 0,
                tile: TileId::new("V").unwrap(),
                at: Pos::new(1, 0),
                rotation: Rotation::R90
            }
        );
        assert_eq!(serde_json::to_string(&env).unwrap(), line);
        let err = serde_json::from_str::<Envelope>(
            r#"{"seq":3,"type":"meeple_skipped","player":0,"extra":1}"#,
        )
        .unwrap_err();
        assert!(err.to_string().contains("unknown field `extra`"), "{err}");
    }

    #[test]
    fn anniversary_events_have_their_wire_lines() {
        for line in [
            r#"{"seq":9,"type":"arrow_chosen","player":1,"at":[1,-1],"symbol":"extra_turn"}"#,
            r#"{"seq":10,"type":"arrow_meeple_placed","player":1,"action":"portal","at":[2,-1],"on":"city N"}"#,
        ] {
            let env: Envelope = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&env).unwrap(), line);
        }
        let err = serde_json::from_str::<Envelope>(
            r#"{"seq":9,"type":"arrow_meeple_placed","player":1,"action":"extra_turn","at":[2,-1],"on":"city N"}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("unknown variant `extra_turn`, expected `companion` or `portal`"),
            "{err}"
        );
    }

    #[test]
    fn gift_events_have_their_wire_lines() {
        for line in [
            r#"{"seq":5,"type":"gift_received","player":1,"card":"take_2"}"#,
            r#"{"seq":6,"type":"gift_opened","player":1,"card":"take_2"}"#,
            r#"{"seq":6,"type":"gift_opened","player":1,"card":"synod","at":[1,2],"on":"monastery"}"#,
            r#"{"seq":6,"type":"gift_opened","player":1,"card":"change_position","at":[0,0],"on":"road E","to":"field Nw"}"#,
            r#"{"seq":8,"type":"tile_returned","player":1,"tile":"V"}"#,
        ] {
            let env: Envelope = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&env).unwrap(), line);
        }
        let err = serde_json::from_str::<Envelope>(
            r#"{"seq":5,"type":"gift_received","player":1,"card":"take_3"}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("unknown variant `take_3`"),
            "{err}"
        );
    }

    #[test]
    fn rotation_degrees_round_trip() {
        for r in Rotation::ALL {
            assert_eq!(Rotation::from_degrees(i64::from(r.degrees())), Some(r));
            assert_eq!(u16::from(r.quarter_turns()) * 90, r.degrees());
        }
        assert_eq!(Rotation::from_degrees(360), None);
        assert_eq!(Rotation::from_degrees(-90), None);
    }

    #[test]
    fn header_validate_checks_like_decoding() {
        let mut header = Header {
            game: "g".into(),
            players: vec![Player {
                name: "Ada".into(),
                color: Color::Red,
            }],
            rules: RulesOptions::default(),
            tile_sets: vec!["base".into()],
            bag: None,
            source: None,
            comment: None,
        };
        assert_eq!(header.validate(), Ok(()));
        header.rules.meeples = 0;
        assert!(header.validate().unwrap_err().contains("meeples"));
        header.rules.meeples = 7;
        header.players.push(header.players[0].clone());
        assert!(header.validate().unwrap_err().contains("unique"));
    }

    #[test]
    fn log_push_assigns_seq_and_lines() {
        let mut log = Log::new(Header {
            game: "g".into(),
            players: vec![Player {
                name: "Ada".into(),
                color: Color::Red,
            }],
            rules: RulesOptions::default(),
            tile_sets: vec!["base".into()],
            bag: None,
            source: None,
            comment: None,
        });
        assert_eq!(log.push_event(Event::MeepleSkipped { player: 0 }), 1);
        log.push_assertion(Assertion::ExpectScores {
            after: 1,
            scores: vec![0],
        });
        assert_eq!(log.push_event(Event::MeepleSkipped { player: 0 }), 2);
        assert_eq!(
            log.events.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            [2, 4]
        );
        assert_eq!(log.assertions[0].0, 3);
        assert_eq!(log.last_seq(), 2);
    }
}
