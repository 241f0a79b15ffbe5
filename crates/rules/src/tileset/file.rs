//! The tile-set file format (JSON, `docs/tile-sets.md`): its shape, its validation and its
//! compilation into the engine's [`TileType`] tables (every rotation precomputed).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{
    fitting_rotations, river_type_ids, rotate_mask4, Arrow, ArrowSymbol, FeatureKind, Good,
    Oriented, RiverEnd, SegmentDef, TileSet, TileSetError, TileType, TileTypeId, MAX_SEGMENTS,
    MAX_TILES_IN_SET, NONE,
};
use crate::geometry::{Port, Rotation, Side, Terrain};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSet {
    format: String,
    version: u32,
    name: String,
    #[serde(default)]
    description: String,
    tiles: Vec<FileTile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTile {
    id: String,
    count: u16,
    #[serde(default)]
    garden: u16,
    /// The port whose field the garden is drawn in (needed when `garden > 0`).
    #[serde(default)]
    garden_in: Option<String>,
    #[serde(default)]
    start: u16,
    edges: [String; 4],
    #[serde(default)]
    monastery: bool,
    #[serde(default)]
    roads: Vec<FileRoad>,
    #[serde(default)]
    cities: Vec<FileCity>,
    #[serde(default)]
    fields: Vec<FileField>,
    #[serde(default)]
    arrow: Option<FileArrow>,
    /// The River: `"spring"` or `"lake"` on the tile where the river begins or ends.
    #[serde(default)]
    river: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileArrow {
    symbol: String,
    side: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCity {
    sides: Vec<String>,
    #[serde(default)]
    coa: u8,
    /// Inns & Cathedrals: a cathedral in this city.
    #[serde(default)]
    cathedral: bool,
    /// Traders & Builders: the goods symbol in this city (`wine`, `grain` or `cloth`).
    #[serde(default)]
    goods: Option<String>,
}

/// A road as the file writes it: its sides (`["E","W"]`), or an object with its sides and
/// flags (`{"sides":["E","W"],"inn":true}`, Inns & Cathedrals). Read as JSON and checked in
/// [`road_of`], so that a wrong road is named in words rather than by serde's "no variant".
type FileRoad = serde_json::Value;

/// The sides and the inn flag of a road written as [`FileRoad`].
fn road_of(road: &FileRoad) -> Result<(Vec<String>, bool), String> {
    let expected = "a road is a list of sides, e.g. [\"E\",\"W\"], or {\"sides\": [\"E\",\"W\"], \"inn\": true}";
    let sides = |v: &serde_json::Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    match road {
        serde_json::Value::Array(_) => sides(road)
            .map(|s| (s, false))
            .ok_or_else(|| format!("{expected}; found {road}")),
        serde_json::Value::Object(fields) => {
            if let Some(key) = fields.keys().find(|k| *k != "sides" && *k != "inn") {
                return Err(format!("unknown road field {key:?}; {expected}"));
            }
            let s = fields
                .get("sides")
                .and_then(sides)
                .ok_or_else(|| format!("{expected}; found {road}"))?;
            let inn = match fields.get("inn") {
                None => false,
                Some(serde_json::Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(format!("a road's \"inn\" is true or false, not {other}"))
                }
            };
            Ok((s, inn))
        }
        _ => Err(format!("{expected}; found {road}")),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileField {
    ports: Vec<String>,
    #[serde(default)]
    cities: Vec<usize>,
}

/// The `format` a tile-set file must name: `carcassonne-tiles`.
pub const TILESET_FORMAT: &str = "carcassonne-tiles";
/// The file `version` this crate reads; a file of any other version is refused.
pub const TILESET_VERSION: u32 = 1;

impl TileSet {
    /// Parses and validates a tile-set file.
    pub fn from_json(text: &str) -> Result<TileSet, TileSetError> {
        let file: FileSet = serde_json::from_str(text).map_err(|e| TileSetError::Parse {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        if file.format != TILESET_FORMAT {
            return Err(TileSetError::Set(format!(
                "format is {:?}, expected {TILESET_FORMAT:?}",
                file.format
            )));
        }
        if file.version != TILESET_VERSION {
            return Err(TileSetError::Set(format!(
                "version {} is not supported (this program reads version {TILESET_VERSION})",
                file.version
            )));
        }
        if file.name.is_empty() {
            return Err(TileSetError::Set("name is empty".into()));
        }
        if file.tiles.is_empty() {
            return Err(TileSetError::Set("no tiles".into()));
        }
        let mut tiles = Vec::with_capacity(file.tiles.len());
        let mut by_id = BTreeMap::new();
        let mut total: u32 = 0;
        for ft in &file.tiles {
            let tile = compile_tile(ft)?;
            total += u32::from(tile.count);
            if by_id
                .insert(tile.id.clone(), TileTypeId(tiles.len() as u16))
                .is_some()
            {
                return Err(TileSetError::Tile {
                    tile: tile.id,
                    problem: "id is used by more than one tile".into(),
                });
            }
            tiles.push(tile);
        }
        if total > MAX_TILES_IN_SET {
            return Err(TileSetError::Set(format!(
                "{total} tiles in all; at most {MAX_TILES_IN_SET} are supported"
            )));
        }
        Ok(TileSet {
            name: file.name,
            description: file.description,
            river_types: river_type_ids(&tiles),
            tiles,
            by_id,
        })
    }
}

fn compile_tile(ft: &FileTile) -> Result<TileType, TileSetError> {
    let fail = |problem: String| TileSetError::Tile {
        tile: if ft.id.is_empty() {
            "<empty id>".into()
        } else {
            ft.id.clone()
        },
        problem,
    };
    if ft.id.is_empty() || ft.id.len() > 16 || !ft.id.chars().all(|c| c.is_ascii_graphic()) {
        return Err(fail(
            "id must be 1 to 16 printable ASCII characters without spaces".into(),
        ));
    }
    if ft.garden > ft.count {
        return Err(fail(format!(
            "garden {} exceeds count {}",
            ft.garden, ft.count
        )));
    }
    if ft.start > ft.count {
        return Err(fail(format!(
            "start {} exceeds count {}",
            ft.start, ft.count
        )));
    }
    let mut edges = [Terrain::Field; 4];
    for (i, e) in ft.edges.iter().enumerate() {
        edges[i] = match e.as_str() {
            "F" => Terrain::Field,
            "R" => Terrain::Road,
            "C" => Terrain::City,
            "W" => Terrain::River,
            other => {
                return Err(fail(format!(
                    "edge {} is {other:?}; expected \"F\", \"R\", \"C\" or \"W\" (river)",
                    Side::from_index(i)
                )))
            }
        };
    }
    let side_of = |s: &str| {
        Side::parse(s).ok_or_else(|| fail(format!("{s:?} is not a side; expected N, E, S or W")))
    };
    let port_of = |s: &str| {
        Port::parse(s).ok_or_else(|| {
            fail(format!(
                "{s:?} is not a port; expected one of Nw Ne En Es Se Sw Ws Wn"
            ))
        })
    };

    let arrow = match &ft.arrow {
        None => None,
        Some(a) => Some(Arrow {
            symbol: ArrowSymbol::parse(&a.symbol).ok_or_else(|| {
                fail(format!(
                    "arrow symbol {:?} is unknown; expected \"companion\", \"portal\" or \"extra_turn\"",
                    a.symbol
                ))
            })?,
            side: Side::parse(&a.side).ok_or_else(|| {
                fail(format!(
                    "arrow side {:?} is not a side; expected N, E, S or W",
                    a.side
                ))
            })?,
        }),
    };

    let mut segments = Vec::new();
    for city in &ft.cities {
        let mut sides = 0u8;
        if city.sides.is_empty() {
            return Err(fail("a city segment lists no sides".into()));
        }
        for s in &city.sides {
            let side = side_of(s)?;
            sides |= 1 << side.index();
        }
        let goods = match &city.goods {
            None => None,
            Some(word) => Some(Good::from_word(word).ok_or_else(|| {
                fail(format!(
                    "a city's goods {word:?} is not a kind of goods; expected wine, grain or cloth"
                ))
            })?),
        };
        segments.push(SegmentDef {
            kind: FeatureKind::City,
            sides,
            ports: 0,
            coats_of_arms: city.coa,
            touches: 0,
            inn: false,
            cathedral: city.cathedral,
            goods,
        });
    }
    for road in &ft.roads {
        let (road_sides, inn) = road_of(road).map_err(fail)?;
        let mut sides = 0u8;
        if road_sides.is_empty() {
            return Err(fail("a road segment lists no sides".into()));
        }
        for s in &road_sides {
            sides |= 1 << side_of(s)?.index();
        }
        segments.push(SegmentDef {
            kind: FeatureKind::Road,
            sides,
            ports: 0,
            coats_of_arms: 0,
            touches: 0,
            inn,
            cathedral: false,
            goods: None,
        });
    }
    if ft.monastery {
        segments.push(SegmentDef {
            kind: FeatureKind::Monastery,
            sides: 0,
            ports: 0,
            coats_of_arms: 0,
            touches: 0,
            inn: false,
            cathedral: false,
            goods: None,
        });
    }
    for field in &ft.fields {
        let mut ports = 0u8;
        if field.ports.is_empty() {
            return Err(fail("a field segment lists no ports".into()));
        }
        for p in &field.ports {
            let port = port_of(p)?;
            if ports & (1 << port.index()) != 0 {
                return Err(fail(format!("a field lists port {port} twice")));
            }
            ports |= 1 << port.index();
        }
        let mut touches = 0u16;
        for &c in &field.cities {
            if c >= ft.cities.len() {
                return Err(fail(format!(
                    "a field touches city {c}, but the tile has {} city segment(s) (indices from 0)",
                    ft.cities.len()
                )));
            }
            touches |= 1 << c;
        }
        segments.push(SegmentDef {
            kind: FeatureKind::Field,
            sides: 0,
            ports,
            coats_of_arms: 0,
            touches,
            inn: false,
            cathedral: false,
            goods: None,
        });
    }
    if segments.len() > MAX_SEGMENTS {
        return Err(fail(format!(
            "{} segments; at most {MAX_SEGMENTS} are supported",
            segments.len()
        )));
    }

    // Self-checks from the rules: every side and port is claimed exactly as its terrain says.
    for side in Side::ALL {
        let bit = 1u8 << side.index();
        let claimed: Vec<&SegmentDef> = segments.iter().filter(|s| s.sides & bit != 0).collect();
        let [p0, p1] = side.ports();
        let port_fields = |p: Port| {
            segments
                .iter()
                .filter(|s| s.ports & (1 << p.index()) != 0)
                .count()
        };
        match edges[side.index()] {
            // A river side is no feature: like a field side, its two ports lie in fields
            // (on the two banks, or one field round a spring or lake).
            terrain @ (Terrain::Field | Terrain::River) => {
                let letter = terrain.letter();
                if !claimed.is_empty() {
                    return Err(fail(format!(
                        "side {side} is {letter} but a road or city segment reaches it"
                    )));
                }
                for p in [p0, p1] {
                    if port_fields(p) != 1 {
                        return Err(fail(format!(
                            "side {side} is {letter}, so port {p} must be in exactly one field (found {})",
                            port_fields(p)
                        )));
                    }
                }
            }
            Terrain::Road | Terrain::City => {
                let want = if edges[side.index()] == Terrain::Road {
                    FeatureKind::Road
                } else {
                    FeatureKind::City
                };
                let letter = edges[side.index()].letter();
                if claimed.len() != 1 || claimed[0].kind != want {
                    return Err(fail(format!(
                        "side {side} is {letter}, so exactly one {want} segment must reach it (found {} segment(s): {})",
                        claimed.len(),
                        claimed.iter().map(|s| s.kind.word()).collect::<Vec<_>>().join(", ")
                    )));
                }
                for p in [p0, p1] {
                    let n = port_fields(p);
                    if want == FeatureKind::Road && n != 1 {
                        return Err(fail(format!(
                            "side {side} is R, so port {p} must be in exactly one field (found {n})"
                        )));
                    }
                    if want == FeatureKind::City && n != 0 {
                        return Err(fail(format!(
                            "side {side} is C, so port {p} must be in no field (found {n})"
                        )));
                    }
                }
            }
        }
    }

    let river_sides = edges
        .iter()
        .enumerate()
        .filter(|(_, &e)| e == Terrain::River)
        .fold(0u8, |m, (i, _)| m | 1 << i);
    let river_end = match ft.river.as_deref() {
        None => None,
        Some("spring") => Some(RiverEnd::Spring),
        Some("lake") => Some(RiverEnd::Lake),
        Some(other) => {
            return Err(fail(format!(
                "river {other:?} is unknown; expected \"spring\" or \"lake\""
            )))
        }
    };
    // The river is one line: a spring or lake ends it (one river side), every other river
    // tile carries it through (two).
    match (river_end, river_sides.count_ones()) {
        (Some(end), n) if n != 1 => {
            return Err(fail(format!(
                "a {} has exactly one river side (W); this tile has {n}",
                end.word()
            )))
        }
        (None, n) if n != 0 && n != 2 => {
            return Err(fail(format!(
                "a river tile carries the river through two sides (W), or is marked \"river\": \"spring\" or \"lake\"; this tile has {n} river side(s)"
            )))
        }
        _ => {}
    }

    let mut oriented = Vec::with_capacity(4);
    for r in Rotation::ALL {
        let turns = r.quarter_turns();
        let mut o = Oriented {
            pattern: 0,
            side_segment: [NONE; 4],
            port_segment: [NONE; 8],
        };
        for side in Side::ALL {
            let base = Side::from_index(side.index() + 4 - turns as usize);
            o.pattern |= edges[base.index()].code() << (2 * side.index());
        }
        for (i, seg) in segments.iter().enumerate() {
            let sides = rotate_mask4(seg.sides, turns);
            let ports = seg.ports.rotate_left(2 * u32::from(turns));
            for side in Side::ALL {
                if sides & (1 << side.index()) != 0 {
                    o.side_segment[side.index()] = i as u8;
                }
            }
            for port in Port::ALL {
                if ports & (1 << port.index()) != 0 {
                    o.port_segment[port.index()] = i as u8;
                }
            }
        }
        oriented.push(o);
    }
    let oriented: [Oriented; 4] = oriented.try_into().map_err(|_| fail("internal".into()))?;

    let ring = segments
        .iter()
        .position(|s| s.kind == FeatureKind::Monastery)
        .map(|i| i as u8);
    let garden_in = match &ft.garden_in {
        None if ft.garden > 0 => {
            return Err(fail(format!(
                "garden {} needs garden_in: the port of the field the garden is drawn in",
                ft.garden
            )))
        }
        None => None,
        Some(p) => {
            let port = port_of(p)?;
            if !segments.iter().any(|s| s.ports & (1 << port.index()) != 0) {
                return Err(fail(format!(
                    "garden_in {port}: no field of the tile touches that port"
                )));
            }
            if ring.is_some() {
                return Err(fail(
                    "a tile with a monastery cannot carry a garden (at most one monastery or garden per tile)".into(),
                ));
            }
            Some(port)
        }
    };
    let mut tile = TileType {
        id: ft.id.clone(),
        count: ft.count,
        garden: ft.garden,
        garden_in,
        start: ft.start,
        edges,
        segments,
        arrow,
        river_sides,
        river_end,
        ring,
        fits: fitting_rotations(oriented.each_ref().map(|o| o.pattern), [true; 4]),
        oriented,
        distinct: [true; 4],
    };
    // Which rotations look alike: the tile set's one rule, which reads the whole tile.
    tile.distinct = tile.distinct_rotations();
    tile.fits = fitting_rotations(tile.oriented.each_ref().map(|o| o.pattern), tile.distinct);
    Ok(tile)
}
