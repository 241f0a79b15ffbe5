//! Map boards (Carcassonne Maps): the printed board a game may be played on.
//!
//! A map is a grid of squares given as text rows (north first), each character naming what the
//! square is through the file's legend: a playable square, a square of a large city (blocked,
//! printed as city), or a region outside the map (a sea or clouds, which close every feature,
//! or a foreign country, neutral to any edge). Printed road and city segments running abroad
//! are listed per outer side of a playable square, with their coats of arms. Start squares and
//! towns are named playable squares. The file format is documented in `docs/maps.md`;
//! `data/germany.json` is compiled in.
//!
//! Names (of regions, cities, towns) are interned as `&'static str` when a map is loaded, so the
//! ruling notes that mention them stay small `Copy` values; a process loads a handful of maps.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use thiserror::Error;

use crate::geometry::{Pos, Side, Terrain};

/// The `format` of a map file.
pub const MAP_FORMAT: &str = "carcassonne-map";
/// The `version` of the map file format this program reads.
pub const MAP_VERSION: u32 = 1;

const GERMANY_JSON: &str = include_str!("../data/germany.json");

/// What a square of the map is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    /// A printed square a tile may go on.
    Playable,
    /// A square of the large city with this index (blocked; printed as city).
    LargeCity(u8),
    /// Outside the map: the region with this index (a sea, clouds or a foreign country).
    Outside(u8),
}

/// What a region outside the map does to the tile edges facing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// Sea or clouds: any edge may face it; roads and cities end there (closed).
    Sea,
    /// A neighbouring country: any edge may face it unless a segment is printed there; roads
    /// and cities end at the border \[I\].
    Land,
}

/// A region outside the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its name from the file's legend, used in explanations ("toward Denmark").
    pub name: &'static str,
    /// Sea (or clouds) or a neighbouring country.
    pub kind: RegionKind,
}

/// A road or city segment printed abroad, beyond one outer side of a playable square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Print {
    /// `Road` or `City`: the tile edge facing it must be the same.
    pub terrain: Terrain,
    /// Printed segments, each counted like a tile of the feature.
    pub segments: u16,
    /// Coats of arms printed on these segments (0 if none).
    pub coats_of_arms: u16,
}

/// What lies beyond one outer side of a playable square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Border {
    /// The region outside the map that the side faces.
    pub region: Region,
    /// The road or city printed across that side, or `None` where nothing is printed.
    pub print: Option<Print>,
}

/// A large city: blocked squares printed as one city.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LargeCity {
    /// Its name from the file, e.g. `Berlin` (unique on the map).
    pub name: &'static str,
    /// The blocked squares it covers (one orthogonally connected area).
    pub squares: Vec<Pos>,
    /// Coats of arms printed on it, counted when the city it joins is scored.
    pub coats_of_arms: u16,
    /// Sides of its squares that face playable squares (city edges a tile must close).
    pub open_sides: u16,
}

/// A named playable square (start square or town).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedSquare {
    /// The name printed on the map, e.g. `Rostock`.
    pub name: &'static str,
    /// The playable square it names.
    pub at: Pos,
}

/// A validated map board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapBoard {
    /// The name logs use for the map (`rules.map.name`), e.g. `germany`.
    pub name: String,
    /// The title for people, e.g. `Carcassonne Maps – Germany` (empty if the file has none).
    pub title: String,
    /// The file's free-text description, its lines joined with `\n` (empty if none).
    pub description: String,
    min_x: i32,
    max_y: i32,
    width: i32,
    height: i32,
    squares: Vec<Square>,
    regions: Vec<Region>,
    large_cities: Vec<LargeCity>,
    start_squares: Vec<NamedSquare>,
    towns: Vec<NamedSquare>,
    prints: BTreeMap<(Pos, u8), Print>,
    /// Per grid square: the (required, mask) edge codes printed neighbours impose (large-city
    /// sides and printed segments abroad), in the board's two-bits-per-side pattern.
    constraints: Vec<(u8, u8)>,
    playable: u32,
}

/// What is wrong with a map file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MapError {
    /// The text is not JSON, or not of the file's shape (a missing or unknown field, a wrong
    /// type).
    #[error(
        "map is not valid JSON or has the wrong shape (line {line}, column {column}): {message}"
    )]
    Parse {
        /// The line of the text where parsing failed, from 1.
        line: usize,
        /// The column in that line, from 1.
        column: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// The file parses but the map is not valid (its format or version, a character not in
    /// the legend, a start square off the playable squares, …), in words with its place.
    #[error("map: {0}")]
    Map(String),
}

// ---- file format -------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileMap {
    format: String,
    version: u32,
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: Vec<String>,
    origin: [i32; 2],
    legend: BTreeMap<String, FileLegend>,
    rows: Vec<String>,
    #[serde(default)]
    large_cities: Vec<FileLargeCity>,
    start_squares: Vec<FileNamed>,
    #[serde(default)]
    towns: Vec<FileNamed>,
    #[serde(default)]
    prints: Vec<FilePrint>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLegend {
    /// `playable`, `large_city`, `sea` or `land`.
    kind: String,
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLargeCity {
    name: String,
    #[serde(default)]
    coats_of_arms: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileNamed {
    name: String,
    at: [i32; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FilePrint {
    at: [i32; 2],
    side: String,
    feature: String,
    segments: u16,
    #[serde(default)]
    coats_of_arms: u16,
}

/// Interns a name for the life of the process (see the module docs).
fn intern(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

impl MapBoard {
    /// The compiled-in Germany map (layout reconstructed; see the file's description).
    pub fn germany() -> MapBoard {
        // Checked by the `germany_loads` test; failing here would be a build defect.
        MapBoard::from_json(GERMANY_JSON).expect("the compiled-in Germany map is valid")
    }

    /// Names of the compiled-in maps.
    pub const BUILTIN: [&'static str; 1] = ["germany"];

    /// The compiled-in map with this name, shared and parsed once per process.
    pub fn builtin_shared(name: &str) -> Option<Arc<MapBoard>> {
        static GERMANY: OnceLock<Arc<MapBoard>> = OnceLock::new();
        match name {
            "germany" => Some(Arc::clone(
                GERMANY.get_or_init(|| Arc::new(MapBoard::germany())),
            )),
            _ => None,
        }
    }

    /// Parses and validates a map file.
    pub fn from_json(text: &str) -> Result<MapBoard, MapError> {
        let file: FileMap = serde_json::from_str(text).map_err(|e| MapError::Parse {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let bad = |m: String| Err(MapError::Map(m));
        if file.format != MAP_FORMAT {
            return bad(format!(
                "format is {:?}; expected {MAP_FORMAT:?}",
                file.format
            ));
        }
        if file.version != MAP_VERSION {
            return bad(format!(
                "version {} is not supported (this program reads version {MAP_VERSION})",
                file.version
            ));
        }
        if file.name.is_empty() {
            return bad("name must not be empty".into());
        }
        // Legend: one character per entry.
        let mut regions: Vec<Region> = Vec::new();
        let mut large_cities: Vec<LargeCity> = file
            .large_cities
            .iter()
            .map(|c| LargeCity {
                name: intern(&c.name),
                squares: Vec::new(),
                coats_of_arms: c.coats_of_arms,
                open_sides: 0,
            })
            .collect();
        for (i, c) in file.large_cities.iter().enumerate() {
            if c.name.is_empty() || file.large_cities[..i].iter().any(|o| o.name == c.name) {
                return bad(format!(
                    "large city {:?}: names must be non-empty and unique",
                    c.name
                ));
            }
        }
        let mut legend: BTreeMap<char, Square> = BTreeMap::new();
        for (key, entry) in &file.legend {
            let mut chars = key.chars();
            let (Some(ch), None) = (chars.next(), chars.next()) else {
                return bad(format!("legend key {key:?} must be exactly one character"));
            };
            let square = match entry.kind.as_str() {
                "playable" => Square::Playable,
                "large_city" => {
                    let Some(i) = file.large_cities.iter().position(|c| c.name == entry.name)
                    else {
                        return bad(format!(
                            "legend {key:?} names large city {:?}, which large_cities does not list",
                            entry.name
                        ));
                    };
                    Square::LargeCity(i as u8)
                }
                "sea" | "land" => {
                    if entry.name.is_empty() {
                        return bad(format!("legend {key:?}: a region needs a name"));
                    }
                    regions.push(Region {
                        name: intern(&entry.name),
                        kind: if entry.kind == "sea" {
                            RegionKind::Sea
                        } else {
                            RegionKind::Land
                        },
                    });
                    Square::Outside((regions.len() - 1) as u8)
                }
                other => {
                    return bad(format!(
                    "legend {key:?}: kind {other:?} is not one of playable, large_city, sea, land"
                ))
                }
            };
            legend.insert(ch, square);
        }
        if large_cities.len() > 200 || regions.len() > 200 {
            return bad("too many large cities or regions (at most 200 each)".into());
        }
        // Rows.
        let height = file.rows.len() as i32;
        let width = file.rows.first().map_or(0, |r| r.chars().count()) as i32;
        if height < 3 || width < 3 || height > 500 || width > 500 {
            return bad(format!(
                "rows: {height} rows of {width} squares; expected 3 to 500 of each"
            ));
        }
        let [min_x, max_y] = file.origin;
        let mut squares = Vec::with_capacity((width * height) as usize);
        for (r, row) in file.rows.iter().enumerate() {
            if row.chars().count() as i32 != width {
                return bad(format!(
                    "row {r} has {} squares; every row must have {width}",
                    row.chars().count()
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                let Some(&sq) = legend.get(&ch) else {
                    return bad(format!(
                        "row {r}, column {c}: character {ch:?} is not in the legend"
                    ));
                };
                let edge = r == 0 || c == 0 || r as i32 == height - 1 || c as i32 == width - 1;
                if edge && !matches!(sq, Square::Outside(_)) {
                    return bad(format!(
                        "row {r}, column {c}: a playable or large-city square on the edge of the rows; surround the map with outside squares"
                    ));
                }
                if let Square::LargeCity(i) = sq {
                    large_cities[i as usize]
                        .squares
                        .push(Pos::new(min_x + c as i32, max_y - r as i32));
                }
                squares.push(sq);
            }
        }
        let mut map = MapBoard {
            name: file.name.clone(),
            title: file.title.clone(),
            description: file.description.join("\n"),
            min_x,
            max_y,
            width,
            height,
            playable: squares
                .iter()
                .filter(|s| matches!(s, Square::Playable))
                .count() as u32,
            constraints: vec![(0, 0); squares.len()],
            squares,
            regions,
            large_cities,
            start_squares: Vec::new(),
            towns: Vec::new(),
            prints: BTreeMap::new(),
        };
        if map.playable == 0 {
            return bad("no playable square".into());
        }
        for (i, city) in map.large_cities.iter().enumerate() {
            if city.squares.is_empty() {
                return bad(format!(
                    "large city {} has no square in the rows",
                    city.name
                ));
            }
            // A large city is one printed city: its squares must touch.
            let mut reached = vec![city.squares[0]];
            let mut k = 0;
            while k < reached.len() {
                let p = reached[k];
                for side in Side::ALL {
                    if let Some(n) = p.step(side) {
                        if city.squares.contains(&n) && !reached.contains(&n) {
                            reached.push(n);
                        }
                    }
                }
                k += 1;
            }
            if reached.len() != city.squares.len() {
                return bad(format!(
                    "large city {} ({i}): its squares do not form one connected area",
                    city.name
                ));
            }
        }
        // Named squares.
        let named = |list: &[FileNamed], what: &str, map: &MapBoard| {
            let mut out = Vec::new();
            for n in list {
                let at = Pos::new(n.at[0], n.at[1]);
                if map.square(at) != Square::Playable {
                    return Err(MapError::Map(format!(
                        "{what} {} at {at} is not on a playable square",
                        n.name
                    )));
                }
                if n.name.is_empty() || out.iter().any(|o: &NamedSquare| o.at == at) {
                    return Err(MapError::Map(format!(
                        "{what} {:?} at {at}: names must be non-empty and squares distinct",
                        n.name
                    )));
                }
                out.push(NamedSquare {
                    name: intern(&n.name),
                    at,
                });
            }
            Ok(out)
        };
        map.start_squares = named(&file.start_squares, "start square", &map)?;
        map.towns = named(&file.towns, "town", &map)?;
        if !(2..=8).contains(&map.start_squares.len()) {
            return bad(format!(
                "{} start squares; a map has 2 to 8",
                map.start_squares.len()
            ));
        }
        // Prints.
        for p in &file.prints {
            let at = Pos::new(p.at[0], p.at[1]);
            let Some(side) = Side::parse(&p.side) else {
                return bad(format!(
                    "print at {at}: side {:?} is not one of N, E, S, W",
                    p.side
                ));
            };
            let terrain = match p.feature.as_str() {
                "road" => Terrain::Road,
                "city" => Terrain::City,
                other => {
                    return bad(format!(
                        "print at {at} {side}: feature {other:?} is not road or city"
                    ))
                }
            };
            if map.square(at) != Square::Playable
                || !matches!(
                    at.step(side).map(|n| map.square(n)),
                    Some(Square::Outside(_))
                )
            {
                return bad(format!(
                    "print at {at} {side}: prints go on a side of a playable square that faces outside the map"
                ));
            }
            if p.segments == 0 {
                return bad(format!(
                    "print at {at} {side}: a print has at least one segment"
                ));
            }
            if map
                .prints
                .insert(
                    (at, side.index() as u8),
                    Print {
                        terrain,
                        segments: p.segments,
                        coats_of_arms: p.coats_of_arms,
                    },
                )
                .is_some()
            {
                return bad(format!("print at {at} {side} is listed twice"));
            }
        }
        // Large-city open sides and the static edge constraints of playable squares.
        for i in 0..map.squares.len() {
            let at = map.pos_of(i);
            if map.squares[i] != Square::Playable {
                continue;
            }
            let mut required = 0u8;
            let mut mask = 0u8;
            for side in Side::ALL {
                let n = at.step(side).expect("inside the grid");
                let code = match map.square(n) {
                    Square::LargeCity(c) => {
                        map.large_cities[c as usize].open_sides += 1;
                        Some(Terrain::City.code())
                    }
                    Square::Outside(_) => map
                        .prints
                        .get(&(at, side.index() as u8))
                        .map(|p| p.terrain.code()),
                    Square::Playable => None,
                };
                if let Some(code) = code {
                    required |= code << (2 * side.index());
                    mask |= 3 << (2 * side.index());
                }
            }
            map.constraints[i] = (required, mask);
        }
        Ok(map)
    }

    fn pos_of(&self, i: usize) -> Pos {
        let i = i as i32;
        Pos::new(self.min_x + i % self.width, self.max_y - i / self.width)
    }

    #[inline]
    fn index(&self, at: Pos) -> Option<usize> {
        let c = i64::from(at.x) - i64::from(self.min_x);
        let r = i64::from(self.max_y) - i64::from(at.y);
        (c >= 0 && r >= 0 && c < i64::from(self.width) && r < i64::from(self.height))
            .then(|| (r * i64::from(self.width) + c) as usize)
    }

    /// What the square at `at` is. Beyond the rows lies the region of the north-west corner
    /// square (validation keeps the rows' margin outside, so only squares past the margin,
    /// which touch no playable square, are answered this way).
    pub fn square(&self, at: Pos) -> Square {
        match self.index(at) {
            Some(i) => self.squares[i],
            None => self.squares[0],
        }
    }

    /// Whether a tile may go on `at`.
    #[inline]
    pub fn is_playable(&self, at: Pos) -> bool {
        self.index(at)
            .is_some_and(|i| self.squares[i] == Square::Playable)
    }

    /// The (required, mask) edge codes printed neighbours impose on a playable square.
    #[inline]
    pub(crate) fn constraint(&self, at: Pos) -> (u8, u8) {
        self.index(at).map_or((0, 0), |i| self.constraints[i])
    }

    /// What lies beyond `side` of the playable square `at`, if that side is an outer side.
    pub fn border(&self, at: Pos, side: Side) -> Option<Border> {
        let n = at.step(side)?;
        match self.square(n) {
            Square::Outside(r) => Some(Border {
                region: self.regions[r as usize],
                print: self.prints.get(&(at, side.index() as u8)).copied(),
            }),
            _ => None,
        }
    }

    /// The regions outside the map; [`Square::Outside`] holds an index into this slice.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The large cities; [`Square::LargeCity`] holds an index into this slice.
    pub fn large_cities(&self) -> &[LargeCity] {
        &self.large_cities
    }

    /// The large city with a square at `at`.
    pub fn large_city_at(&self, at: Pos) -> Option<(u8, &LargeCity)> {
        match self.square(at) {
            Square::LargeCity(i) => Some((i, &self.large_cities[i as usize])),
            _ => None,
        }
    }

    /// The start squares, in the file's order (2 to 8).
    pub fn start_squares(&self) -> &[NamedSquare] {
        &self.start_squares
    }

    /// The towns, in the file's order (none on a map without towns).
    pub fn towns(&self) -> &[NamedSquare] {
        &self.towns
    }

    /// The name of the town on square `at`, or `None` if no town is printed there.
    pub fn town_at(&self, at: Pos) -> Option<&'static str> {
        self.towns.iter().find(|t| t.at == at).map(|t| t.name)
    }

    /// Every printed segment abroad: square, side and print.
    pub fn prints(&self) -> impl Iterator<Item = (Pos, Side, Print)> + '_ {
        self.prints
            .iter()
            .map(|(&(at, s), &p)| (at, Side::from_index(s as usize), p))
    }

    /// Number of playable squares.
    pub fn playable_count(&self) -> u32 {
        self.playable
    }

    /// Every square of the grid with what it is, row by row from the north-west.
    pub fn grid(&self) -> impl Iterator<Item = (Pos, Square)> + '_ {
        self.squares
            .iter()
            .enumerate()
            .map(|(i, &s)| (self.pos_of(i), s))
    }

    /// Whether the square `at` counts as a neighbour of a monastery and whether it is filled
    /// regardless of tiles: `None` for squares that do not exist on the map (outside), `Some
    /// (true)` for large-city squares (printed), `Some(false)` for playable squares.
    #[inline]
    pub(crate) fn monastery_neighbour(&self, at: Pos) -> Option<bool> {
        match self.square(at) {
            Square::Playable => Some(false),
            Square::LargeCity(_) => Some(true),
            Square::Outside(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn germany_loads() {
        let m = MapBoard::germany();
        assert_eq!(m.name, "germany");
        let names: Vec<&str> = m.start_squares().iter().map(|s| s.name).collect();
        assert_eq!(names, ["Rostock", "Erfurt", "Stuttgart"]);
        let cities: Vec<&str> = m.large_cities().iter().map(|c| c.name).collect();
        for c in [
            "Hamburg",
            "Berlin",
            "Hannover",
            "Ruhrgebiet",
            "Frankfurt",
            "München",
        ] {
            assert!(cities.contains(&c), "{c}");
        }
        assert!(
            (110..=140).contains(&m.playable_count()),
            "{}",
            m.playable_count()
        );
        assert!(m.prints().count() >= 5);
        assert!(m.towns().len() >= 5);
    }

    #[test]
    fn errors_are_clear() {
        let err = MapBoard::from_json("{").unwrap_err();
        assert!(matches!(err, MapError::Parse { .. }), "{err}");
        let text = GERMANY_JSON.replace("\"version\": 1", "\"version\": 9");
        let err = MapBoard::from_json(&text).unwrap_err().to_string();
        assert!(err.contains("version 9"), "{err}");
    }
}
