//! The rules of Carcassonne Maps (issue 7, `shared/rules/maps-germany.md`): start squares,
//! tiles only on the map's playable squares, large cities and prints abroad as edge
//! constraints and as parts of features, borders closing roads and cities, monasteries that
//! count only the squares that exist, and the three town variants. This module holds the
//! rules; the map-board file format (squares, regions, large cities, towns, validation) is
//! [`crate::map`].
//!
//! The core calls in at named points: the setup check and the large cities' pseudo segments
//! ([`check_setup`], [`add_large_cities`], from [`Game::new`]), the start tiles
//! (`place_start_on_map`, from [`Game::apply`]), placement (`legal_placements_on_map`,
//! `map_constraint`, `check_on_map`, `check_printed_edges`, `monastery_ring_open_on_map`,
//! `join_printed_edges`), the towns after a placement (`town_after_placement`) and scoring
//! (`monastery_on_map`, `road_on_map`, `city_on_map`, `large_city_ref`). Without a map each
//! of these costs the core one branch (or returns at once).
//!
//! Rule ids implemented (`docs/rules.md`; the refusals and notes carry them, see
//! [`crate::ruling`]): `maps.setup.start-squares`, `maps.tile.on-map`,
//! `maps.tile.large-city`, `maps.large-city.edge`, `maps.border.print`, `maps.border.closes`,
//! `maps.score.road`, `maps.score.city`, `maps.score.monastery`, `maps.town`,
//! `maps.town.extra-turn`, `maps.town.cost`, `maps.town.road-bonus`.

use std::sync::Arc;

use super::placement::Joins;
use super::{Effects, Game, Phase, Placement, Setup};
use crate::board::Board;
use crate::features::Features;
use crate::geometry::{Pos, Rotation, Side, Terrain};
use crate::map::{MapBoard, RegionKind, Square};
use crate::reuse::clone_reusing;
use crate::ruling::{rule, Note, RuleId, RuleViolation};
use crate::score::{plural, FeatureRef, Score, ScoreSource, ScoreTime};
use crate::tileset::{FeatureKind, SegmentLabel, TileType, TileTypeId};

/// Setup and rule options of a game on a map board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapOptions {
    /// Start squares in use: the start tile goes on the first, a drawn tile on each other.
    pub start_squares: u8,
    /// Town variant 1: covering a town gives an extra turn.
    pub town_extra_turn: bool,
    /// Town variant 2: covering a town costs 2 points.
    pub town_cost: bool,
    /// Town variant 3: a scored road earns 2 per visible town orthogonally next to it.
    pub town_road_bonus: bool,
}

impl Default for MapOptions {
    fn default() -> MapOptions {
        MapOptions {
            start_squares: 2,
            town_extra_turn: false,
            town_cost: false,
            town_road_bonus: false,
        }
    }
}

/// `Features::tile` of a large city's segment: it lies on no placed tile.
const LARGE_CITY_TILE: u16 = u16::MAX;

/// Setup checks of the map options: town variants and start squares need a map; 2 start
/// squares at least, no more than the map has, and a tile in the bag for each.
pub(super) fn check_setup(setup: &Setup, bag_total: u32) -> Result<(), RuleViolation> {
    let bad = |what: String| Err(RuleViolation::Setup { what });
    match &setup.map {
        None if setup.options.map != MapOptions::default() => {
            return bad(
                "start squares and town variants are options of a game on a map; no map is set"
                    .into(),
            );
        }
        Some(map) => {
            let n = setup.options.map.start_squares;
            if n < 2 || usize::from(n) > map.start_squares().len() {
                return bad(format!(
                    "{n} start squares in use; at least 2, and the map {} has {}",
                    map.name,
                    map.start_squares().len()
                ));
            }
            if bag_total < u32::from(n) {
                return bad(format!(
                    "the bag holds {bag_total} tiles, fewer than the {n} start squares in use"
                ));
            }
        }
        None => {}
    }
    Ok(())
}

/// The map's large cities as the first segments of the union-find (`0..pseudo`), one city
/// segment each on no placed tile, so that tiles touching a large city join one city.
pub(super) fn add_large_cities(features: &mut Features, setup: &Setup) {
    if let Some(map) = &setup.map {
        for (i, city) in map.large_cities().iter().enumerate() {
            features.add(
                FeatureKind::City,
                LARGE_CITY_TILE,
                i as u8,
                city.open_sides,
                city.coats_of_arms,
            );
        }
    }
}

/// Carcassonne Maps' part of a game's state (`None` and empty in a game without a map).
#[derive(Debug)]
pub(super) struct MapsState {
    /// The map board; `None` in the base game, which then pays one branch per placement for
    /// maps.
    board: Option<Arc<MapBoard>>,
    /// Per large city of the map: connected yet.
    large_connected: Vec<bool>,
    /// Start tiles placed so far (a map game places one per start square in use).
    starts_placed: u8,
}

clone_reusing!(MapsState {
    board,
    large_connected,
    starts_placed
});

impl MapsState {
    /// At the start of a game on the setup's map, if any.
    pub(super) fn new(setup: &Setup) -> MapsState {
        MapsState {
            large_connected: vec![false; setup.map.as_ref().map_or(0, |m| m.large_cities().len())],
            starts_placed: 0,
            board: setup.map.clone(),
        }
    }
}

impl Game {
    // ---- queries ---------------------------------------------------------------------------

    /// The map board the game is played on, if any.
    pub fn map(&self) -> Option<&MapBoard> {
        self.map.board.as_deref()
    }

    /// The map board, shared.
    pub fn map_arc(&self) -> Option<&Arc<MapBoard>> {
        self.map.board.as_ref()
    }

    /// Whether the map's large city number `city` is connected (a tile touches it).
    pub fn large_city_connected(&self, city: usize) -> bool {
        self.map.large_connected.get(city).copied().unwrap_or(false)
    }

    /// Start tiles placed so far.
    pub fn starts_placed(&self) -> u8 {
        self.map.starts_placed
    }

    // ---- start tiles -----------------------------------------------------------------------

    /// Every legal placement of a start tile `tile` while the game waits for start tiles on a
    /// map (empty otherwise): free start squares, rotations matching what is printed around.
    pub fn legal_start_placements(&self, tile: TileTypeId, out: &mut Vec<Placement>) {
        out.clear();
        let (Some(map), Phase::Start) = (&self.map.board, self.phase) else {
            return;
        };
        for s in map.start_squares() {
            for rotation in Rotation::ALL {
                if self.tiles.get(tile).is_distinct_rotation(rotation)
                    && self.check_start(tile, s.at, rotation).is_ok()
                {
                    out.push(Placement { at: s.at, rotation });
                }
            }
        }
    }

    /// Checks a start tile on a map: a free start square, edges matching what is around.
    fn check_start(
        &self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        let map = self.map.board.as_ref().expect("a map game");
        if !map.start_squares().iter().any(|s| s.at == at) || self.board_has_tile(at) {
            let free: Vec<String> = map
                .start_squares()
                .iter()
                .filter(|s| !self.board_has_tile(s.at))
                .map(|s| format!("{} {}", s.name, s.at))
                .collect();
            return Err(RuleViolation::NotAStartSquare {
                at,
                squares: free.join(", "),
            });
        }
        self.check_edges(tile, at, rotation)
    }

    /// Whether a tile lies on `at` (before the first start tile the board is not yet set up).
    fn board_has_tile(&self, at: Pos) -> bool {
        self.map.starts_placed > 0 && self.board.tile_at(at).is_some()
    }

    /// A start tile on a map (action `PlaceStart` while the game waits for its start tiles):
    /// checked, taken from the bag and put on its start square. Gives whether every start
    /// square in use now holds its tile.
    pub(super) fn place_start_on_map(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        fx: &mut Effects,
    ) -> Result<bool, RuleViolation> {
        self.check_start(tile, at, rotation)?;
        self.take_from_bag(tile)?;
        if self.map.starts_placed == 0 {
            self.board = Board::new(at, self.map.board.clone());
        }
        self.put_tile(tile, at, rotation, fx);
        fx.notes.push(Note::StartPlaced { at, rotation });
        let map = self.map.board.as_ref().expect("checked");
        if let Some(s) = map.start_squares().iter().find(|s| s.at == at) {
            fx.notes.push(Note::StartSquare { name: s.name });
        }
        self.pending.clear();
        self.map.starts_placed += 1;
        Ok(self.map.starts_placed == self.options.map.start_squares)
    }

    // ---- placement -------------------------------------------------------------------------

    /// [`Game::legal_placements`] on a map, for the distinct rotations' edge `patterns`.
    pub(super) fn legal_placements_on_map(
        &self,
        map: &MapBoard,
        patterns: &[(Rotation, u8)],
        out: &mut Vec<Placement>,
    ) {
        let board = &self.board;
        // The frontier holds playable squares only; printed neighbours add their edges.
        for (&at, &(required, mask)) in board.frontier.iter().zip(&board.frontier_constraint) {
            let (map_required, map_mask) = map.constraint(at);
            let (required, mask) = (required | map_required, mask | map_mask);
            for &(rotation, pattern) in patterns {
                if pattern & mask == required {
                    out.push(Placement { at, rotation });
                }
            }
        }
    }

    /// The edges printed around `at` that a tile there must match (required, mask), as in
    /// the board's frontier constraint; nothing without a map.
    pub(super) fn map_constraint(&self, at: Pos) -> (u8, u8) {
        self.map.board.as_ref().map_or((0, 0), |m| m.constraint(at))
    }

    /// A tile goes only on a playable square of the map (none of a large city, none outside).
    pub(super) fn check_on_map(&self, at: Pos) -> Result<(), RuleViolation> {
        if let Some(map) = &self.map.board {
            match map.square(at) {
                Square::Playable => {}
                Square::LargeCity(i) => {
                    return Err(RuleViolation::OnLargeCity {
                        at,
                        city: map.large_cities()[i as usize].name,
                    })
                }
                Square::Outside(_) => return Err(RuleViolation::OffMap { at }),
            }
        }
        Ok(())
    }

    /// Edges of a tile against printed large cities and prints abroad (nothing without a map).
    pub(super) fn check_printed_edges(
        &self,
        t: &TileType,
        at: Pos,
        rotation: Rotation,
    ) -> Result<(), RuleViolation> {
        if let Some(map) = &self.map.board {
            for side in Side::ALL {
                let ours = t.edge(rotation, side);
                let Some(n) = at.step(side) else { continue };
                if let Some((_, city)) = map.large_city_at(n) {
                    if ours != Terrain::City {
                        return Err(RuleViolation::LargeCityEdgeMismatch {
                            tile: t.id.clone(),
                            at,
                            rotation,
                            side,
                            ours: ours.word(),
                            city: city.name,
                        });
                    }
                } else if let Some(b) = map.border(at, side) {
                    if let Some(p) = b.print.filter(|p| p.terrain != ours) {
                        return Err(RuleViolation::BorderPrintMismatch {
                            tile: t.id.clone(),
                            at,
                            rotation,
                            side,
                            ours: ours.word(),
                            print: p.terrain.word(),
                            region: b.region.name,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Open squares around a monastery placed at `at` on `map`: only squares that exist
    /// count; large-city squares are printed, so filled from the start.
    pub(super) fn monastery_ring_open_on_map(&self, map: &MapBoard, at: Pos) -> u16 {
        at.ring()
            .filter(|&p| {
                map.monastery_neighbour(p) == Some(false) && self.board.tile_index(p).is_none()
            })
            .count() as u16
    }

    /// The map's side of putting `tile` at `at` (segments from `first`): edges facing a large
    /// city join its pseudo segment (the first such tile connects the city and opens the
    /// squares around it), edges facing a border close roads and cities there and bring the
    /// coats of arms printed abroad. Pairs to join and the features as they were go into
    /// `joins`, before the placed neighbours'.
    pub(super) fn join_printed_edges(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        first: u32,
        joins: &mut Joins,
        fx: &mut Effects,
    ) {
        let Some(map) = self.map.board.clone() else {
            return;
        };
        let t = self.tiles.get(tile);
        for side in Side::ALL {
            let Some(npos) = at.step(side) else { continue };
            let segment = t.segment_at_side(rotation, side);
            if let Some((c, city)) = map.large_city_at(npos) {
                fx.notes.push(Note::LargeCityEdge {
                    side,
                    city: city.name,
                });
                let a = segment.expect("checked: the edge facing a large city is city");
                let theirs = u32::from(c);
                let root = self.features.find(theirs);
                if !joins.before[..joins.n_before].iter().any(|e| e.0 == root) {
                    joins.before[joins.n_before] = (
                        root,
                        FeatureKind::City,
                        self.features.meeple_total(root) > 0,
                    );
                    joins.n_before += 1;
                }
                joins.pairs[joins.n_pairs] = (first + u32::from(a), theirs);
                joins.n_pairs += 1;
                if !self.map.large_connected[c as usize] {
                    self.map.large_connected[c as usize] = true;
                    fx.notes.push(Note::LargeCityConnected { city: city.name });
                    for &sq in &city.squares {
                        for s in Side::ALL {
                            if let Some(p) = sq.step(s).filter(|&p| map.is_playable(p)) {
                                if p != at {
                                    self.board.open_square(p);
                                }
                            }
                        }
                    }
                }
            } else if let Some(b) = map.border(at, side) {
                // Fields meet any border without consequence: only roads and cities are
                // worth a line in the ruling trace.
                if segment.is_none() {
                    continue;
                }
                fx.notes.push(Note::Border {
                    side,
                    terrain: t.edge(rotation, side),
                    region: b.region.name,
                    sea: b.region.kind == RegionKind::Sea,
                    print: b.print,
                });
                // The side faces no square a tile could ever fill: it is closed, and a
                // printed segment brings its coats of arms (its length counts at scoring).
                if let Some(a) = segment {
                    let s = (first + u32::from(a)) as usize;
                    self.features.open[s] = self.features.open[s].saturating_sub(1);
                    if let Some(p) = b.print {
                        self.features.coats_of_arms[s] += p.coats_of_arms;
                    }
                }
            }
        }
    }

    // ---- towns -----------------------------------------------------------------------------

    /// A tile just placed on a town (town variants 1 and 2).
    pub(super) fn town_after_placement(
        &mut self,
        tile: TileTypeId,
        at: Pos,
        rotation: Rotation,
        fx: &mut Effects,
    ) {
        let Some(town) = self.map.board.as_ref().and_then(|m| m.town_at(at)) else {
            return;
        };
        fx.notes.push(Note::TownCovered { name: town });
        let player = self.current;
        if self.options.map.town_extra_turn {
            // At most one extra turn per turn, and none during an extra turn [I].
            if self.in_extra_turn {
                fx.notes.push(Note::TownExtraTurnDenied);
            } else {
                self.extra_pending = true;
                fx.notes.push(Note::TownExtraTurn);
            }
        }
        if self.options.map.town_cost {
            let before = self.score[player as usize];
            // A score never goes below zero [I].
            let cost = before.min(2);
            self.score[player as usize] = before - cost;
            fx.notes.push(Note::TownCost { seat: player });
            let t = self.tiles.get(tile);
            let label = t.segment_label(rotation, 0);
            fx.scores.push(Score {
                kind: label.kind,
                time: ScoreTime::Completed,
                feature: FeatureRef { at, label },
                tiles: vec![at],
                coats_of_arms: 0,
                cities: Vec::new(),
                meeples: Vec::new(),
                winners: vec![player],
                points: cost,
                formula: if cost == 2 {
                    "covering a town costs 2 points".into()
                } else {
                    format!("covering a town costs 2 points; the score had only {before}")
                },
                rule: rule::MAP_TOWN_COST,
                source: ScoreSource::TownCost { town },
            });
        }
    }

    // ---- scoring ---------------------------------------------------------------------------

    /// A large city no tile touches yet: named by its first printed square.
    pub(super) fn large_city_ref(&self, root: u32) -> FeatureRef {
        let city = &self
            .map
            .board
            .as_ref()
            .expect("large cities are on a map")
            .large_cities()[self.features.local[root as usize] as usize];
        FeatureRef {
            at: city.squares[0],
            label: SegmentLabel {
                kind: FeatureKind::City,
                anchor: None,
            },
        }
    }

    /// A monastery on a map, whose feature's first tile is `tiles[0]`; the squares around it
    /// that count are added to `tiles`. Points, formula, rule.
    pub(super) fn monastery_on_map(
        &self,
        tiles: &mut Vec<Pos>,
        time: ScoreTime,
    ) -> (u32, String, RuleId) {
        let map = self.map.board.as_ref().expect("matched");
        let at = tiles[0];
        let existing = at
            .ring()
            .filter(|&p| map.monastery_neighbour(p).is_some())
            .count() as u32;
        let large = at
            .ring()
            .filter(|&p| map.monastery_neighbour(p) == Some(true))
            .count() as u32;
        tiles.extend(at.ring().filter(|&p| {
            self.board.tile_index(p).is_some() || map.monastery_neighbour(p) == Some(true)
        }));
        let neighbours = (tiles.len() - 1) as u32;
        let printed = if large > 0 {
            format!(" ({large} of them printed large-city squares)")
        } else {
            String::new()
        };
        let rule = if existing < 8 || large > 0 {
            rule::MAP_SCORE_MONASTERY
        } else if time == ScoreTime::Completed {
            rule::SCORE_MONASTERY_COMPLETED
        } else {
            rule::SCORE_MONASTERY_FINAL
        };
        let of = if existing < 8 {
            format!(" (of {existing} on the map)")
        } else {
            String::new()
        };
        (
            1 + neighbours,
            format!(
                "1 for the monastery + {}{of}{printed} = {}",
                plural(neighbours, "surrounding square", "surrounding squares"),
                1 + neighbours
            ),
            rule,
        )
    }

    /// A road on a map, made of `members` on `tiles` (sorted and deduplicated here): printed
    /// segments abroad, coats of arms and visible towns count. Points, formula, rule.
    pub(super) fn road_on_map(
        &self,
        tiles: &mut Vec<Pos>,
        members: &[u32],
        coats_of_arms: u32,
        time: ScoreTime,
    ) -> (u32, String, RuleId) {
        let printed = self.printed_parts(members);
        tiles.sort_unstable();
        tiles.dedup();
        let placed = tiles.len() as u32;
        let n = placed + printed.abroad;
        let per_coat = match time {
            ScoreTime::Completed => 2,
            ScoreTime::Final => 1,
        };
        let towns = if self.options.map.town_road_bonus {
            self.visible_towns_beside(tiles)
        } else {
            0
        };
        let points = n + per_coat * coats_of_arms + 2 * towns;
        let mut formula = format!("1 × {}", printed.count_words(placed, "tile", "tiles"));
        if coats_of_arms > 0 {
            formula += &format!(
                " + {per_coat} × {}",
                plural(coats_of_arms, "coat of arms", "coats of arms")
            );
        }
        if towns > 0 {
            formula += &format!(" + 2 × {}", plural(towns, "visible town", "visible towns"));
        }
        formula += &format!(" = {points}");
        let rule = if towns > 0 {
            rule::MAP_TOWN_ROAD_BONUS
        } else if printed.abroad > 0 || coats_of_arms > 0 {
            rule::MAP_SCORE_ROAD
        } else if time == ScoreTime::Completed {
            rule::SCORE_ROAD_COMPLETED
        } else {
            rule::SCORE_ROAD_FINAL
        };
        (points, formula, rule)
    }

    /// A city on a map, made of `members` on `tiles` (sorted and deduplicated here, then
    /// joined by the printed large-city squares): printed squares and segments abroad count
    /// as city tiles. Points, formula, rule.
    pub(super) fn city_on_map(
        &self,
        tiles: &mut Vec<Pos>,
        members: &[u32],
        coats_of_arms: u32,
        time: ScoreTime,
    ) -> (u32, String, RuleId) {
        let printed = self.printed_parts(members);
        tiles.sort_unstable();
        tiles.dedup();
        let placed = tiles.len() as u32;
        tiles.extend(printed.large_squares.iter().copied());
        tiles.sort_unstable();
        let n = placed + printed.large + printed.abroad;
        let words = printed.count_words(placed, "tile", "tiles");
        let any_printed = printed.large + printed.abroad > 0;
        let (points, formula, base_rule) = match time {
            ScoreTime::Completed if n == 2 && self.options.two_tile_city == 2 => (
                2,
                format!("two-tile city ({words}), old-rules option: 2"),
                rule::SCORE_CITY_TWO_TILE,
            ),
            ScoreTime::Completed => (
                2 * n + 2 * coats_of_arms,
                format!(
                    "2 × {words} + 2 × {} = {}",
                    plural(coats_of_arms, "coat of arms", "coats of arms"),
                    2 * n + 2 * coats_of_arms
                ),
                rule::SCORE_CITY_COMPLETED,
            ),
            ScoreTime::Final => (
                n + coats_of_arms,
                format!(
                    "1 × {words} + 1 × {} = {}",
                    plural(coats_of_arms, "coat of arms", "coats of arms"),
                    n + coats_of_arms
                ),
                rule::SCORE_CITY_FINAL,
            ),
        };
        let rule = if any_printed {
            rule::MAP_SCORE_CITY
        } else {
            base_rule
        };
        (points, formula, rule)
    }

    /// The printed parts of the feature whose segments are `members` (nothing without a map).
    fn printed_parts(&self, members: &[u32]) -> Printed {
        let mut out = Printed::default();
        let Some(map) = &self.map.board else {
            return out;
        };
        for &s in members {
            if s < self.pseudo {
                let city = &map.large_cities()[self.features.local[s as usize] as usize];
                out.large += city.squares.len() as u32;
                out.large_squares.extend(city.squares.iter().copied());
                out.large_names.push(city.name);
                continue;
            }
            let kind = self.features.kind[s as usize];
            if !matches!(kind, FeatureKind::City | FeatureKind::Road) {
                continue;
            }
            let placed = &self.board.placed[self.features.tile[s as usize] as usize];
            let t = self.tiles.get(placed.tile);
            let local = self.features.local[s as usize];
            for side in Side::ALL {
                if t.segment_at_side(placed.rotation, side) != Some(local) {
                    continue;
                }
                if let Some(b) = map.border(placed.at, side) {
                    if let Some(p) = b.print {
                        out.abroad += u32::from(p.segments);
                        if !out.abroad_names.contains(&b.region.name) {
                            out.abroad_names.push(b.region.name);
                        }
                    }
                }
            }
        }
        out.large_names.sort_unstable();
        out
    }

    /// Towns with no tile on them orthogonally next to any of `squares` (town variant 3).
    fn visible_towns_beside(&self, squares: &[Pos]) -> u32 {
        let Some(map) = &self.map.board else { return 0 };
        map.towns()
            .iter()
            .filter(|t| {
                self.board.tile_index(t.at).is_none()
                    && Side::ALL
                        .iter()
                        .any(|&s| t.at.step(s).is_some_and(|n| squares.contains(&n)))
            })
            .count() as u32
    }
}

/// The printed parts of a feature on a map: large-city squares and segments abroad.
#[derive(Default)]
struct Printed {
    /// Large-city squares, with the cities' names.
    large: u32,
    large_squares: Vec<Pos>,
    large_names: Vec<&'static str>,
    /// Segments printed abroad, with the regions they lie in.
    abroad: u32,
    abroad_names: Vec<&'static str>,
}

impl Printed {
    /// "5 (3 tiles + 2 printed segments toward Denmark)", or "3 tiles" with nothing printed.
    fn count_words(&self, placed: u32, one: &str, many: &str) -> String {
        if self.large + self.abroad == 0 {
            return plural(placed, one, many);
        }
        let mut parts = vec![plural(placed, one, many)];
        if self.large > 0 {
            parts.push(format!(
                "{} of {}",
                plural(self.large, "printed square", "printed squares"),
                self.large_names.join(" and ")
            ));
        }
        if self.abroad > 0 {
            parts.push(format!(
                "{} toward {}",
                plural(self.abroad, "printed segment", "printed segments"),
                self.abroad_names.join(" and ")
            ));
        }
        format!(
            "{} ({})",
            placed + self.large + self.abroad,
            parts.join(" + ")
        )
    }
}
