//! Tiles as data: the tile-set file format, its validation, and the compiled form the engine
//! uses (every rotation precomputed, so placement checks are table look-ups).
//!
//! A tile-set file is JSON (documented in `docs/tile-sets.md`). The base set is compiled in
//! ([`TileSet::base`]); a user may load a corrected file with [`TileSet::from_json`]. The
//! file format, its validation and its compilation into [`TileType`] are in
//! `tileset/file.rs`; this file holds the compiled form and its queries.

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

use crate::geometry::{Port, Rotation, Side, Terrain};

mod file;
mod fits;
mod good;
mod label;
mod look;

pub use file::{TILESET_FORMAT, TILESET_VERSION};
pub(crate) use fits::{fitting_rotations, FitTable};
pub use good::Good;
pub use label::{Anchor, SegmentLabel};

/// The kind of a feature (and of the segments it is made of).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FeatureKind {
    /// A city: scored when walled in (completed), and at the end.
    City,
    /// A road: scored when both ends are closed (completed), and at the end.
    Road,
    /// A monastery: completed when the eight squares around it hold tiles.
    Monastery,
    /// A field: never completed; scored only at the end, for the completed cities it touches.
    Field,
    /// A garden printed on a garden copy of a base tile (The Abbot): only the abbot may stand
    /// on it; it is scored like a monastery. Inside a field, but not part of it.
    Garden,
}

impl FeatureKind {
    /// The kind in words for messages and labels: `city`, `road`, `monastery`, `field`,
    /// `garden` (also its `Display`).
    pub fn word(self) -> &'static str {
        match self {
            FeatureKind::City => "city",
            FeatureKind::Road => "road",
            FeatureKind::Monastery => "monastery",
            FeatureKind::Field => "field",
            FeatureKind::Garden => "garden",
        }
    }
}

impl fmt::Display for FeatureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Index of a tile type in its [`TileSet`]. Handed out by the tile set ([`TileSet::ids`],
/// [`TileSet::find`]) and by the game; it cannot be made from a number outside this crate, so
/// a caller cannot forge an id past the set (one from another, larger set is still refused by
/// every rule that takes an id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TileTypeId(pub(crate) u16);

impl TileTypeId {
    /// The kind's place in its tile set, from 0 (for tables indexed by kind).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The symbol printed on an arrow of the 20th Anniversary expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ArrowSymbol {
    /// A meeple from supply beside one of your own meeples anywhere.
    Companion,
    /// A meeple on any unoccupied, incomplete feature anywhere.
    Portal,
    /// One more full turn after this one.
    ExtraTurn,
}

impl ArrowSymbol {
    /// The three symbols, in the order of the enum.
    pub const ALL: [ArrowSymbol; 3] = [
        ArrowSymbol::Companion,
        ArrowSymbol::Portal,
        ArrowSymbol::ExtraTurn,
    ];

    /// The name in tile-set files and logs: `companion`, `portal`, `extra_turn`.
    pub fn name(self) -> &'static str {
        match self {
            ArrowSymbol::Companion => "companion",
            ArrowSymbol::Portal => "portal",
            ArrowSymbol::ExtraTurn => "extra_turn",
        }
    }

    /// Words for messages: `companion`, `portal`, `extra turn`.
    pub fn word(self) -> &'static str {
        match self {
            ArrowSymbol::Companion => "companion",
            ArrowSymbol::Portal => "portal",
            ArrowSymbol::ExtraTurn => "extra turn",
        }
    }

    /// The symbol named by [`ArrowSymbol::name`] (`companion`, `portal`, `extra_turn`), or
    /// `None`.
    pub fn parse(s: &str) -> Option<ArrowSymbol> {
        ArrowSymbol::ALL.into_iter().find(|a| a.name() == s)
    }
}

impl fmt::Display for ArrowSymbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// An arrow printed on a tile: its symbol and the side it points out of at rotation 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// What the arrow does when activated.
    pub symbol: ArrowSymbol,
    /// The side it points out of: at rotation 0 as the tile type stores it, in board
    /// orientation from [`TileType::arrow()`].
    pub side: Side,
}

/// Where the river begins or ends (The River): the tile the river starts from, and the
/// tile it flows into last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RiverEnd {
    /// The tile the river starts from; with The River it is the start tile.
    Spring,
    /// The tile the river ends in; drawn after every other river tile.
    Lake,
}

impl RiverEnd {
    /// The end in words: `spring` or `lake` (as the tile file writes it).
    pub fn word(self) -> &'static str {
        match self {
            RiverEnd::Spring => "spring",
            RiverEnd::Lake => "lake",
        }
    }
}

/// A bitmask "no segment" marker in the per-rotation tables.
const NONE: u8 = u8::MAX;
/// Upper bound on segments per tile: masks of touched cities are `u16`.
const MAX_SEGMENTS: usize = 16;
/// Upper bound on all copies in a set: keeps boards and buffers bounded for untrusted files.
pub const MAX_TILES_IN_SET: u32 = 2_000;

/// One feature's part on one tile, at rotation 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentDef {
    /// The kind of feature this segment is part of.
    pub kind: FeatureKind,
    /// Bit `s` set = this segment reaches side `s` (cities, roads).
    pub sides: u8,
    /// Bit `p` set = this field touches port `p`.
    pub ports: u8,
    /// Coats of arms on a city segment.
    pub coats_of_arms: u8,
    /// For a field: bit `i` set = touches the city segment with local index `i`.
    pub touches: u16,
    /// Inns & Cathedrals: an inn beside this road segment (roads only).
    pub inn: bool,
    /// Inns & Cathedrals: a cathedral in this city segment (cities only).
    pub cathedral: bool,
    /// Traders & Builders: the goods symbol in this city segment (cities only).
    pub goods: Option<Good>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Oriented {
    /// Two bits per side (see [`Terrain::code`]), side `s` at bits `2s..2s+2`.
    pattern: u8,
    /// The city or road segment reaching each side, or `NONE`.
    side_segment: [u8; 4],
    /// The field segment touching each port, or `NONE`.
    port_segment: [u8; 8],
}

/// A tile type, validated and compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileType {
    /// The tile's id in its set, as logs write it, e.g. `D` or `E+garden`.
    pub id: String,
    /// How many copies of this tile the set holds (start copies included).
    pub count: u16,
    /// How many of `count` carry a garden picture (inert without The Abbot; with it, they
    /// become a tile of their own, see [`TileSet::with_gardens`]).
    pub garden: u16,
    /// The field port whose field the garden is drawn in, at rotation 0 (tiles with
    /// `garden > 0`, and their garden copies).
    pub garden_in: Option<Port>,
    /// How many of `count` are start tiles.
    pub start: u16,
    /// The terrain along each side at rotation 0, indexed by [`Side::index`] (N, E, S, W).
    pub edges: [Terrain; 4],
    /// The tile's segments at rotation 0; a segment's index here is its local segment number
    /// (cities first, then roads, the monastery, the fields; a garden copy's garden last).
    pub segments: Vec<SegmentDef>,
    /// The arrow printed on the tile (20th Anniversary), at rotation 0.
    pub arrow: Option<Arrow>,
    /// The River: bit `s` set = side `s` is a river side, at rotation 0 (0 on land tiles).
    pub river_sides: u8,
    /// The River: whether the river begins (spring) or ends (lake) on this tile.
    pub river_end: Option<RiverEnd>,
    /// The segment scored by the squares around it: the monastery or the garden (at most
    /// one per tile).
    ring: Option<u8>,
    oriented: [Oriented; 4],
    /// `distinct[r]`: rotation `r` gives a tile no smaller rotation already gives.
    distinct: [bool; 4],
    /// `fits[required]`: bit `r` set = distinct rotation `r` matches a square whose placed
    /// neighbours require the edge codes `required` (see [`fitting_rotations`]). Built once
    /// per tile set, so listing the legal placements is one look-up per open square.
    fits: FitTable,
}

impl TileType {
    /// Terrain along `side` when the tile is placed with `rotation`.
    pub fn edge(&self, rotation: Rotation, side: Side) -> Terrain {
        let base = (side.index() + 4 - rotation.quarter_turns() as usize) % 4;
        self.edges[base]
    }

    pub(crate) fn pattern(&self, rotation: Rotation) -> u8 {
        self.oriented[rotation.quarter_turns() as usize].pattern
    }

    /// The distinct rotations (bit `r` per rotation) that fit a square whose placed
    /// neighbours require the edge codes `required` (the board's frontier constraint).
    #[inline]
    pub(crate) fn fits(&self, required: u8) -> u8 {
        self.fits.0[required as usize] & 15
    }

    /// How many rotations `fits(required)` holds.
    #[inline]
    pub(crate) fn fit_count(&self, required: u8) -> u8 {
        self.fits.0[required as usize] >> 4
    }

    /// The city or road segment reaching `side` (board orientation), if any.
    pub fn segment_at_side(&self, rotation: Rotation, side: Side) -> Option<u8> {
        let s = self.oriented[rotation.quarter_turns() as usize].side_segment[side.index()];
        (s != NONE).then_some(s)
    }

    /// The field segment touching `port` (board orientation), if any.
    pub fn segment_at_port(&self, rotation: Rotation, port: Port) -> Option<u8> {
        let s = self.oriented[rotation.quarter_turns() as usize].port_segment[port.index()];
        (s != NONE).then_some(s)
    }

    /// The tile's arrow as placed: its symbol and the board side it points out of.
    pub fn arrow(&self, rotation: Rotation) -> Option<Arrow> {
        self.arrow.map(|a| Arrow {
            symbol: a.symbol,
            side: a.side.rotated(rotation),
        })
    }

    /// Whether the tile carries the river (The River).
    pub fn is_river(&self) -> bool {
        self.river_sides != 0
    }

    /// The river sides as placed with `rotation` (board orientation), bit `s` per side.
    pub fn river_sides(&self, rotation: Rotation) -> u8 {
        rotate_mask4(self.river_sides, rotation.quarter_turns())
    }

    /// The monastery segment, if the tile has one.
    pub fn monastery_segment(&self) -> Option<u8> {
        self.ring
            .filter(|&s| self.segments[s as usize].kind == FeatureKind::Monastery)
    }

    /// The garden segment, if the tile is a garden copy (The Abbot).
    pub fn garden_segment(&self) -> Option<u8> {
        self.ring
            .filter(|&s| self.segments[s as usize].kind == FeatureKind::Garden)
    }

    /// The monastery or garden segment: the one feature of a tile completed by the eight
    /// squares around it.
    pub fn ring_segment(&self) -> Option<u8> {
        self.ring
    }

    /// Sides a segment reaches, in board orientation (bitmask).
    pub fn segment_sides(&self, rotation: Rotation, segment: u8) -> u8 {
        rotate_mask4(
            self.segments[segment as usize].sides,
            rotation.quarter_turns(),
        )
    }

    /// Ports a segment touches, in board orientation (bitmask).
    pub fn segment_ports(&self, rotation: Rotation, segment: u8) -> u8 {
        self.segments[segment as usize]
            .ports
            .rotate_left(2 * u32::from(rotation.quarter_turns()))
    }

    /// Whether `rotation` gives a placement that no smaller rotation gives (used to list each
    /// distinct legal placement once; every rotation stays legal to play).
    pub fn is_distinct_rotation(&self, rotation: Rotation) -> bool {
        self.distinct[rotation.quarter_turns() as usize]
    }

    /// A human-readable name of a segment in board orientation: `city N`, `road E`,
    /// `field Sw`, `monastery` — the same grammar the log uses.
    pub fn segment_label(&self, rotation: Rotation, segment: u8) -> SegmentLabel {
        let def = &self.segments[segment as usize];
        let anchor = match def.kind {
            FeatureKind::City | FeatureKind::Road => {
                let sides = self.segment_sides(rotation, segment);
                Side::ALL
                    .into_iter()
                    .find(|s| sides & (1 << s.index()) != 0)
                    .map(Anchor::Side)
            }
            FeatureKind::Field => {
                let ports = self.segment_ports(rotation, segment);
                Port::ALL
                    .into_iter()
                    .find(|p| ports & (1 << p.index()) != 0)
                    .map(Anchor::Port)
            }
            FeatureKind::Monastery | FeatureKind::Garden => None,
        };
        SegmentLabel {
            kind: def.kind,
            anchor,
        }
    }

    /// Finds the segment a label names on this tile placed with `rotation`.
    pub fn find_segment(&self, rotation: Rotation, label: &SegmentLabel) -> Option<u8> {
        let segment = match (label.kind, label.anchor) {
            (FeatureKind::Monastery | FeatureKind::Garden, None) => self.ring_segment()?,
            (FeatureKind::City | FeatureKind::Road, Some(Anchor::Side(side))) => {
                self.segment_at_side(rotation, side)?
            }
            (FeatureKind::Field, Some(Anchor::Port(port))) => {
                self.segment_at_port(rotation, port)?
            }
            _ => return None,
        };
        (self.segments[segment as usize].kind == label.kind).then_some(segment)
    }
}

/// The id of the garden copies of tile `id` (The Abbot): `E` → `E+garden`.
pub fn garden_copy_id(id: &str) -> String {
    format!("{id}+garden")
}

fn rotate_mask4(mask: u8, turns: u8) -> u8 {
    let m = mask & 0xF;
    ((m << turns) | (m >> (4 - turns))) & 0xF
}

/// A validated tile set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    /// The set's name from its file (`base`, …); combined sets join theirs with `+`.
    pub name: String,
    /// The file's free-text description (empty if the file has none, and for combined sets).
    pub description: String,
    tiles: Vec<TileType>,
    by_id: BTreeMap<String, TileTypeId>,
    /// The river tiles (The River), the lake included, in set order: what the draw-order
    /// check counts on every draw, without walking every tile type.
    river_types: Vec<TileTypeId>,
}

/// The ids of the river tiles among `tiles` (for [`TileSet::river_types`]).
pub(crate) fn river_type_ids(tiles: &[TileType]) -> Vec<TileTypeId> {
    (0..tiles.len())
        .filter(|&i| tiles[i].is_river())
        .map(|i| TileTypeId(i as u16))
        .collect()
}

/// What is wrong with a tile-set file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TileSetError {
    /// The text is not JSON, or not of the file's shape (a missing or unknown field, a wrong
    /// type).
    #[error("tile set is not valid JSON or has the wrong shape (line {line}, column {column}): {message}")]
    Parse {
        /// The line of the text where parsing failed, from 1.
        line: usize,
        /// The column in that line, from 1.
        column: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// Something wrong with the set as a whole (its format or version, the total number of
    /// tiles, …), in words.
    #[error("tile set: {0}")]
    Set(String),
    /// Something wrong with one tile (its geometry, its counts, a duplicate id, …).
    #[error("tile set: tile {tile}: {problem}")]
    Tile {
        /// The id of the tile at fault.
        tile: String,
        /// What is wrong with it, in words.
        problem: String,
    },
}

const BASE_JSON: &str = include_str!("../data/base.json");
const ANNIVERSARY_JSON: &str = include_str!("../data/anniversary.json");
const RIVER_JSON: &str = include_str!("../data/river.json");
const INNS_CATHEDRALS_JSON: &str = include_str!("../data/inns_cathedrals.json");
const TRADERS_BUILDERS_JSON: &str = include_str!("../data/traders_builders.json");

impl TileSet {
    /// The compiled-in base set (72 tiles, A–X).
    pub fn base() -> TileSet {
        // The embedded file is checked by the `base_set_loads` test; failing here would be a
        // build defect, not user input.
        TileSet::from_json(BASE_JSON).expect("the compiled-in base tile set is valid")
    }

    /// The compiled-in 20th Anniversary set (15 arrow tiles, 20A–20O; geometry authored, see
    /// the file's description and `docs/tile-sets.md`).
    pub fn anniversary() -> TileSet {
        // Checked by the `anniversary_set_loads` test, like the base set.
        TileSet::from_json(ANNIVERSARY_JSON).expect("the compiled-in anniversary tile set is valid")
    }

    /// The compiled-in River set (12 tiles: spring RS, R1–R8, lake RL; geometry authored, see
    /// the file's description and `docs/tile-sets.md`).
    pub fn river() -> TileSet {
        // Checked by the `river_set_loads` test, like the base set.
        TileSet::from_json(RIVER_JSON).expect("the compiled-in river tile set is valid")
    }

    /// The compiled-in Inns & Cathedrals set (18 tiles, 6 with an inn, 2 with a cathedral;
    /// geometry authored, see the file's description and `docs/tile-sets.md`).
    pub fn inns_cathedrals() -> TileSet {
        // Checked by the `inns_cathedrals_set` tests, like the base set.
        TileSet::from_json(INNS_CATHEDRALS_JSON)
            .expect("the compiled-in inns_cathedrals tile set is valid")
    }

    /// The compiled-in Traders & Builders set (24 tiles, 20 with goods: 9 wine, 6 grain,
    /// 5 cloth; geometry authored, see the file's description and `docs/tile-sets.md`).
    pub fn traders_builders() -> TileSet {
        // Checked by the `traders_builders_set` tests, like the base set.
        TileSet::from_json(TRADERS_BUILDERS_JSON)
            .expect("the compiled-in traders_builders tile set is valid")
    }

    /// Whether any tile of the set shows goods (Traders & Builders).
    pub fn has_goods(&self) -> bool {
        self.tiles
            .iter()
            .any(|t| t.segments.iter().any(|s| s.goods.is_some()))
    }

    /// Whether any tile of the set has an inn or a cathedral (Inns & Cathedrals).
    pub fn has_inns_or_cathedrals(&self) -> bool {
        self.tiles
            .iter()
            .any(|t| t.segments.iter().any(|s| s.inn || s.cathedral))
    }

    /// Names of the compiled-in sets.
    pub const BUILTIN: [&'static str; 5] = [
        "base",
        "anniversary",
        "river",
        "inns_cathedrals",
        "traders_builders",
    ];

    /// The compiled-in set with this name, if any.
    pub fn builtin(name: &str) -> Option<TileSet> {
        TileSet::builtin_shared(name).map(|s| (*s).clone())
    }

    /// The compiled-in set with this name, shared: parsed and validated once per process, so
    /// folding many games does not re-read the tile data for each.
    pub fn builtin_shared(name: &str) -> Option<std::sync::Arc<TileSet>> {
        static BASE: std::sync::OnceLock<std::sync::Arc<TileSet>> = std::sync::OnceLock::new();
        static ANNIVERSARY: std::sync::OnceLock<std::sync::Arc<TileSet>> =
            std::sync::OnceLock::new();
        match name {
            "base" => Some(std::sync::Arc::clone(
                BASE.get_or_init(|| std::sync::Arc::new(TileSet::base())),
            )),
            "anniversary" => Some(std::sync::Arc::clone(
                ANNIVERSARY.get_or_init(|| std::sync::Arc::new(TileSet::anniversary())),
            )),
            "river" => {
                static RIVER: std::sync::OnceLock<std::sync::Arc<TileSet>> =
                    std::sync::OnceLock::new();
                Some(std::sync::Arc::clone(
                    RIVER.get_or_init(|| std::sync::Arc::new(TileSet::river())),
                ))
            }
            "inns_cathedrals" => {
                static INNS: std::sync::OnceLock<std::sync::Arc<TileSet>> =
                    std::sync::OnceLock::new();
                Some(std::sync::Arc::clone(INNS.get_or_init(|| {
                    std::sync::Arc::new(TileSet::inns_cathedrals())
                })))
            }
            "traders_builders" => {
                static TRADERS: std::sync::OnceLock<std::sync::Arc<TileSet>> =
                    std::sync::OnceLock::new();
                Some(std::sync::Arc::clone(TRADERS.get_or_init(|| {
                    std::sync::Arc::new(TileSet::traders_builders())
                })))
            }
            _ => None,
        }
    }

    /// The combination of compiled-in sets with these names, in this order, shared and built
    /// once per process (folding many games with an expansion then does not copy the tile data
    /// for each); `None` for a combination that is not cached (combine those yourself).
    pub fn builtin_combined(names: &[&str]) -> Option<std::sync::Arc<TileSet>> {
        static BASE_ANNIVERSARY: std::sync::OnceLock<std::sync::Arc<TileSet>> =
            std::sync::OnceLock::new();
        match names {
            [single] => TileSet::builtin_shared(single),
            ["base", "anniversary"] => {
                Some(std::sync::Arc::clone(BASE_ANNIVERSARY.get_or_init(|| {
                    std::sync::Arc::new(
                        TileSet::combine(&[TileSet::base(), TileSet::anniversary()])
                            .expect("the built-in sets have distinct ids"),
                    )
                })))
            }
            ["base", "river"] => {
                static BASE_RIVER: std::sync::OnceLock<std::sync::Arc<TileSet>> =
                    std::sync::OnceLock::new();
                Some(std::sync::Arc::clone(BASE_RIVER.get_or_init(|| {
                    std::sync::Arc::new(
                        TileSet::combine(&[TileSet::base(), TileSet::river()])
                            .expect("the built-in sets have distinct ids"),
                    )
                })))
            }
            _ => None,
        }
    }

    /// Combines several sets into one (e.g. base + an expansion). Ids must stay unique.
    pub fn combine(sets: &[TileSet]) -> Result<TileSet, TileSetError> {
        let mut tiles = Vec::new();
        let mut by_id = BTreeMap::new();
        for set in sets {
            for tile in &set.tiles {
                if by_id
                    .insert(tile.id.clone(), TileTypeId(tiles.len() as u16))
                    .is_some()
                {
                    return Err(TileSetError::Tile {
                        tile: tile.id.clone(),
                        problem: format!(
                            "id appears in more than one tile set (again in {})",
                            set.name
                        ),
                    });
                }
                tiles.push(tile.clone());
            }
        }
        let total: u32 = tiles.iter().map(|t: &TileType| u32::from(t.count)).sum();
        if total > MAX_TILES_IN_SET {
            return Err(TileSetError::Set(format!(
                "{total} tiles in all; at most {MAX_TILES_IN_SET} are supported"
            )));
        }
        Ok(TileSet {
            name: sets
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join("+"),
            description: String::new(),
            river_types: river_type_ids(&tiles),
            tiles,
            by_id,
        })
    }

    /// Every tile type of the set, in set order (the slice index is [`TileTypeId::index`]).
    pub fn tiles(&self) -> &[TileType] {
        &self.tiles
    }

    /// The river tiles (The River), the lake included, in set order.
    pub(crate) fn river_types(&self) -> &[TileTypeId] {
        &self.river_types
    }

    /// The tile type with this id. Panics if `id` comes from a larger set than this one.
    pub fn get(&self, id: TileTypeId) -> &TileType {
        &self.tiles[id.0 as usize]
    }

    /// The id of the tile type whose [`TileType::id`] is `id` (e.g. `"U"`), or `None`.
    pub fn find(&self, id: &str) -> Option<TileTypeId> {
        self.by_id.get(id).copied()
    }

    /// The ids of the set's kinds, in order (their [`TileTypeId::index`] from 0).
    pub fn ids(&self) -> impl Iterator<Item = TileTypeId> + use<> {
        (0..self.tiles.len() as u16).map(TileTypeId)
    }

    /// The number of tile types (not copies; see [`TileSet::total_count`]).
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the set holds no tile type.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The number of tiles in the set: every type's [`TileType::count`] added up.
    pub fn total_count(&self) -> u32 {
        self.tiles.iter().map(|t| u32::from(t.count)).sum()
    }

    /// Whether any tile of the set carries an arrow.
    pub fn has_arrows(&self) -> bool {
        self.tiles.iter().any(|t| t.arrow.is_some())
    }

    /// A built-in set (or the built-in combination `["base", "anniversary"]`) split for The
    /// Abbot ([`TileSet::with_gardens`]), shared like [`TileSet::builtin_shared`]: building it
    /// per game was most of the cost of rebuilding a short game's log.
    pub fn builtin_with_gardens(names: &[&str]) -> Option<std::sync::Arc<TileSet>> {
        static BASE: std::sync::OnceLock<std::sync::Arc<TileSet>> = std::sync::OnceLock::new();
        static BASE_ANNIVERSARY: std::sync::OnceLock<std::sync::Arc<TileSet>> =
            std::sync::OnceLock::new();
        static BASE_RIVER: std::sync::OnceLock<std::sync::Arc<TileSet>> =
            std::sync::OnceLock::new();
        let cell = match names {
            ["base"] => &BASE,
            ["base", "anniversary"] => &BASE_ANNIVERSARY,
            ["base", "river"] => &BASE_RIVER,
            _ => return None,
        };
        let set = TileSet::builtin_combined(names)?;
        Some(std::sync::Arc::clone(
            cell.get_or_init(|| std::sync::Arc::new(set.with_gardens())),
        ))
    }

    /// Whether any tile of the set is a garden copy (has a garden segment).
    pub fn has_garden_tiles(&self) -> bool {
        self.tiles.iter().any(|t| t.garden_segment().is_some())
    }

    /// The set as played with The Abbot: each tile with `garden` copies becomes two tiles,
    /// the plain copies (same id, `count - garden`) and the garden copies (id
    /// [`garden_copy_id`], `garden` copies, one more segment: the garden). A draw then says
    /// which one came out. Tiles without gardens, and sets already split, are unchanged.
    pub fn with_gardens(&self) -> TileSet {
        let mut tiles = Vec::with_capacity(self.tiles.len() + 8);
        for t in &self.tiles {
            if t.garden == 0 || t.garden_segment().is_some() || t.garden_in.is_none() {
                tiles.push(t.clone());
                continue;
            }
            let mut copy = t.clone();
            copy.id = garden_copy_id(&t.id);
            copy.count = t.garden;
            copy.start = 0;
            copy.ring = Some(copy.segments.len() as u8);
            copy.segments.push(SegmentDef {
                kind: FeatureKind::Garden,
                sides: 0,
                ports: 0,
                coats_of_arms: 0,
                touches: 0,
                inn: false,
                cathedral: false,
                goods: None,
            });
            let mut plain = t.clone();
            plain.count = t.count - t.garden;
            plain.garden = 0;
            // The start copy stays plain (validated: `start <= count`; the start tile of
            // the base set, D, has no garden).
            plain.start = plain.start.min(plain.count);
            tiles.push(plain);
            tiles.push(copy);
        }
        let by_id = tiles
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.clone(), TileTypeId(i as u16)))
            .collect();
        TileSet {
            name: self.name.clone(),
            description: self.description.clone(),
            river_types: river_type_ids(&tiles),
            tiles,
            by_id,
        }
    }

    /// The spring (The River), if the set has one.
    pub fn spring(&self) -> Option<TileTypeId> {
        self.tiles
            .iter()
            .position(|t| t.river_end == Some(RiverEnd::Spring))
            .map(|i| TileTypeId(i as u16))
    }

    /// The tile type marked as start tile (the first one with `start > 0`).
    pub fn start_tile(&self) -> Option<TileTypeId> {
        self.tiles
            .iter()
            .position(|t| t.start > 0)
            .map(|i| TileTypeId(i as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_set_loads_and_passes_the_rulebook_self_checks() {
        let set = TileSet::base();
        assert_eq!(set.len(), 24, "letters A to X");
        assert_eq!(set.total_count(), 72);
        let coa: u32 = set
            .tiles()
            .iter()
            .filter(|t| t.segments.iter().any(|s| s.coats_of_arms > 0))
            .map(|t| u32::from(t.count))
            .sum();
        assert_eq!(coa, 10, "ten tiles carry a coat of arms");
        let gardens: u32 = set.tiles().iter().map(|t| u32::from(t.garden)).sum();
        assert_eq!(gardens, 8, "eight garden tiles");
        assert_eq!(set.start_tile(), set.find("D"));
    }

    #[test]
    fn tile_a_is_the_only_tile_whose_road_ports_share_a_field() {
        let set = TileSet::base();
        let mut shared = Vec::new();
        for t in set.tiles() {
            for side in Side::ALL {
                if t.edges[side.index()] == Terrain::Road {
                    let [a, b] = side.ports();
                    if t.segment_at_port(Rotation::default(), a)
                        == t.segment_at_port(Rotation::default(), b)
                    {
                        shared.push(t.id.clone());
                    }
                }
            }
        }
        assert_eq!(shared, vec!["A".to_string()]);
    }

    #[test]
    fn symmetric_tiles_list_fewer_rotations() {
        let set = TileSet::base();
        let distinct = |id: &str| {
            let t = set.get(set.find(id).unwrap());
            Rotation::ALL
                .into_iter()
                .filter(|r| t.is_distinct_rotation(*r))
                .count()
        };
        assert_eq!(distinct("B"), 1);
        assert_eq!(distinct("C"), 1);
        assert_eq!(distinct("X"), 1);
        assert_eq!(distinct("U"), 2);
        assert_eq!(distinct("H"), 2);
        assert_eq!(distinct("F"), 2);
        assert_eq!(distinct("D"), 4);
        assert_eq!(distinct("V"), 4);
    }

    #[test]
    fn rotation_turns_edges_clockwise() {
        let set = TileSet::base();
        let d = set.get(set.find("D").unwrap());
        // D: city N, road E, field S, road W. Turned once, the city faces east.
        assert_eq!(d.edge(Rotation::new(1).unwrap(), Side::E), Terrain::City);
        assert_eq!(d.edge(Rotation::new(1).unwrap(), Side::S), Terrain::Road);
        assert_eq!(d.edge(Rotation::new(1).unwrap(), Side::W), Terrain::Field);
    }

    #[test]
    fn labels_round_trip_on_every_tile_and_rotation() {
        let set = TileSet::base();
        for t in set.tiles() {
            for r in Rotation::ALL {
                for i in 0..t.segments.len() as u8 {
                    let label = t.segment_label(r, i);
                    assert_eq!(t.find_segment(r, &label), Some(i), "{} {r} {label}", t.id);
                }
            }
        }
    }

    #[test]
    fn anniversary_set_loads_with_five_arrows_per_symbol() {
        let set = TileSet::anniversary();
        assert_eq!(set.name, "anniversary");
        assert_eq!(set.len(), 15);
        assert_eq!(set.total_count(), 15);
        assert!(set.description.contains("RECONSTRUCTION"));
        for symbol in ArrowSymbol::ALL {
            let n = set
                .tiles()
                .iter()
                .filter(|t| t.arrow.map(|a| a.symbol) == Some(symbol))
                .count();
            assert_eq!(n, 5, "{symbol}");
        }
        let ids: Vec<&str> = set.tiles().iter().map(|t| t.id.as_str()).collect();
        let expected: Vec<String> = ('A'..='O').map(|c| format!("20{c}")).collect();
        assert_eq!(ids, expected);
        assert_eq!(set.start_tile(), None);
        // Combines with the base set without id clashes.
        let both = TileSet::combine(&[TileSet::base(), set]).unwrap();
        assert_eq!(both.total_count(), 87);
    }

    #[test]
    fn an_arrow_turns_with_its_tile_and_makes_every_rotation_distinct() {
        let set = TileSet::anniversary();
        // 20O is all field (symmetric terrain) with its arrow pointing east at rotation 0.
        let t = set.get(set.find("20O").unwrap());
        assert_eq!(t.arrow(Rotation::new(0).unwrap()).unwrap().side, Side::E);
        assert_eq!(t.arrow(Rotation::new(1).unwrap()).unwrap().side, Side::S);
        assert_eq!(t.arrow(Rotation::new(3).unwrap()).unwrap().side, Side::N);
        assert!(Rotation::ALL.into_iter().all(|r| t.is_distinct_rotation(r)));
    }

    #[test]
    fn a_bad_arrow_is_named() {
        let field = r#""edges":["F","F","F","F"],"fields":[{"ports":["Nw","Ne","En","Es","Se","Sw","Ws","Wn"]}]"#;
        let err = TileSet::from_json(&with_tile(&format!(
            r#"{{"id":"Z","count":1,{field},"arrow":{{"symbol":"teleport","side":"N"}}}}"#
        )))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "tile set: tile Z: arrow symbol \"teleport\" is unknown; expected \"companion\", \"portal\" or \"extra_turn\""
        );
        let err = TileSet::from_json(&with_tile(&format!(
            r#"{{"id":"Z","count":1,{field},"arrow":{{"symbol":"portal","side":"Q"}}}}"#
        )))
        .unwrap_err();
        assert!(
            err.to_string().contains("arrow side \"Q\" is not a side"),
            "{err}"
        );
        let err = TileSet::from_json(&with_tile(&format!(
            r#"{{"id":"Z","count":1,{field},"arrow":{{"symbol":"portal"}}}}"#
        )))
        .unwrap_err();
        assert!(err.to_string().contains("missing field `side`"), "{err}");
    }

    fn with_tile(tile: &str) -> String {
        format!(r#"{{"format":"carcassonne-tiles","version":1,"name":"t","tiles":[{tile}]}}"#)
    }

    #[test]
    fn a_field_side_claimed_by_a_road_is_named() {
        let err = TileSet::from_json(&with_tile(
            r#"{"id":"Z","count":1,"edges":["F","F","R","F"],"roads":[["S","N"]],"fields":[{"ports":["Nw","Ne","En","Es","Se","Sw","Ws","Wn"]}]}"#,
        ))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "tile set: tile Z: side N is F but a road or city segment reaches it"
        );
    }

    #[test]
    fn a_city_side_with_field_ports_is_rejected() {
        let err = TileSet::from_json(&with_tile(
            r#"{"id":"Z","count":1,"edges":["C","F","F","F"],"cities":[{"sides":["N"]}],"fields":[{"ports":["Nw","Ne","En","Es","Se","Sw","Ws","Wn"]}]}"#,
        ))
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("side N is C, so port Nw must be in no field"),
            "{err}"
        );
    }

    #[test]
    fn a_road_side_without_road_is_rejected() {
        let err = TileSet::from_json(&with_tile(
            r#"{"id":"Z","count":1,"edges":["R","F","F","F"],"fields":[{"ports":["Nw","Ne","En","Es","Se","Sw","Ws","Wn"]}]}"#,
        ))
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("side N is R, so exactly one road segment must reach it (found 0"),
            "{err}"
        );
    }

    #[test]
    fn unknown_fields_and_bad_values_are_named() {
        let err = TileSet::from_json(&with_tile(
            r#"{"id":"Z","count":1,"edges":["F","F","F","F"],"colour":"red"}"#,
        ))
        .unwrap_err();
        assert!(matches!(err, TileSetError::Parse { .. }));
        assert!(err.to_string().contains("unknown field `colour`"), "{err}");
        let err = TileSet::from_json(&with_tile(
            r#"{"id":"Z","count":1,"edges":["F","F","Q","F"]}"#,
        ))
        .unwrap_err();
        assert!(err.to_string().contains("edge S is \"Q\""), "{err}");
        let err = TileSet::from_json(&with_tile(
            r#"{"id":"Z","count":1,"edges":["C","F","F","F"],"cities":[{"sides":["N"]}],"fields":[{"ports":["En","Es","Se","Sw","Ws","Wn"],"cities":[3]}]}"#,
        ))
        .unwrap_err();
        assert!(err.to_string().contains("touches city 3"), "{err}");
    }

    #[test]
    fn labels_parse_and_print_alike() {
        for text in ["city N", "road W", "field Sw", "monastery"] {
            let label: SegmentLabel = text.parse().unwrap();
            assert_eq!(label.code(), text);
        }
        // People read a field by its corner; cities, roads and monasteries as they are typed
        for (text, words) in [
            ("field Nw", "field, north-west"),
            ("field Ne", "field, north-east"),
            ("field En", "field, north-east"),
            ("field Es", "field, south-east"),
            ("field Se", "field, south-east"),
            ("field Sw", "field, south-west"),
            ("field Ws", "field, south-west"),
            ("field Wn", "field, north-west"),
            ("city N", "city N"),
            ("road W", "road W"),
            ("garden", "garden"),
        ] {
            let label: SegmentLabel = text.parse().unwrap();
            assert_eq!(label.to_string(), words);
        }
        for bad in [
            "",
            "city",
            "city X",
            "field N",
            "monastery N",
            "road E extra",
            "farm Nw",
        ] {
            assert!(bad.parse::<SegmentLabel>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn duplicate_ids_and_wrong_format_are_rejected() {
        let t = r#"{"id":"Z","count":1,"edges":["F","F","F","F"],"fields":[{"ports":["Nw","Ne","En","Es","Se","Sw","Ws","Wn"]}]}"#;
        let err = TileSet::from_json(&with_tile(&format!("{t},{t}"))).unwrap_err();
        assert!(err.to_string().contains("id is used by more than one tile"));
        let err =
            TileSet::from_json(r#"{"format":"x","version":1,"name":"t","tiles":[]}"#).unwrap_err();
        assert!(err.to_string().contains("format is \"x\""));
    }
}
