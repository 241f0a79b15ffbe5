//! The log's first line: the game's id, players, rules options, tile sets, bag and source,
//! with the checks that decoding and [`Header::validate`] share.

use std::collections::BTreeMap;
use std::fmt;

use serde::{de, Deserialize, Deserializer, Serialize};

use super::values::*;

/// Most players a game may have: the rules' own limit (one constant, so the log and the
/// rules never disagree).
pub use carc_rules::MAX_PLAYERS;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
