//! Carcassonne Maps (`shared/rules/maps-germany.md`): the worked examples of the rules, the
//! placement refusals and the town variants, each on a small test map (or the Germany map),
//! given / when / then.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_rules::*;

/// A test map: `+` playable, `~` sea, `d` Denmark (land), `B` the large city Berlin.
fn test_map(
    rows: &[&str],
    origin: (i32, i32),
    starts: &[(i32, i32)],
    towns: &[(&str, i32, i32)],
    prints: &[(i32, i32, &str, &str, u16, u16)],
    berlin_coats: u16,
) -> Arc<MapBoard> {
    let starts: Vec<String> = starts
        .iter()
        .enumerate()
        .map(|(i, (x, y))| format!(r#"{{"name": "S{i}", "at": [{x}, {y}]}}"#))
        .collect();
    let towns: Vec<String> = towns
        .iter()
        .map(|(n, x, y)| format!(r#"{{"name": "{n}", "at": [{x}, {y}]}}"#))
        .collect();
    let prints: Vec<String> = prints
        .iter()
        .map(|(x, y, side, feature, segments, coats)| {
            format!(
                r#"{{"at": [{x}, {y}], "side": "{side}", "feature": "{feature}", "segments": {segments}, "coats_of_arms": {coats}}}"#
            )
        })
        .collect();
    let (cities, berlin) = if rows.iter().any(|r| r.contains('B')) {
        (
            format!(r#"{{"name": "Berlin", "coats_of_arms": {berlin_coats}}}"#),
            r#", "B": {"kind": "large_city", "name": "Berlin"}"#,
        )
    } else {
        (String::new(), "")
    };
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!(
        r#"{{"format": "carcassonne-map", "version": 1, "name": "test",
            "origin": [{}, {}],
            "legend": {{"+": {{"kind": "playable"}}, "~": {{"kind": "sea", "name": "the sea"}},
                        "d": {{"kind": "land", "name": "Denmark"}}{berlin}}},
            "rows": [{}],
            "large_cities": [{cities}],
            "start_squares": [{}], "towns": [{}], "prints": [{}]}}"#,
        origin.0,
        origin.1,
        rows.join(","),
        starts.join(","),
        towns.join(","),
        prints.join(",")
    );
    Arc::new(MapBoard::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}")))
}

struct Table {
    game: Game,
    fx: Effects,
}

/// A game on `map` with only the listed tiles in the bag, the two start tiles placed.
fn table(
    map: Arc<MapBoard>,
    starts: [(&str, i32, i32, u32); 2],
    bag: &[(&str, u16)],
    options: MapOptions,
) -> Table {
    let options = Options {
        meeples: 9,
        map: options,
        ..Options::default()
    };
    table_with(map, starts, bag, options, TileSet::base())
}

/// [`table`] with any options and tile set.
fn table_with(
    map: Arc<MapBoard>,
    starts: [(&str, i32, i32, u32); 2],
    bag: &[(&str, u16)],
    options: Options,
    tiles: TileSet,
) -> Table {
    let mut counts: BTreeMap<String, u16> = BTreeMap::new();
    for (id, ..) in starts {
        *counts.entry(id.into()).or_default() += 1;
    }
    for (id, n) in bag {
        *counts.entry((*id).into()).or_default() += n;
    }
    let mut game = Game::new(Setup {
        players: 2,
        options,
        tiles: Arc::new(tiles),
        bag: Some(counts),
        map: Some(map),
    })
    .expect("valid setup");
    let mut fx = Effects::default();
    for (id, x, y, degrees) in starts {
        let tile = game.tiles().find(id).unwrap();
        game.apply(
            &Action::PlaceStart {
                tile,
                at: Pos::new(x, y),
                rotation: Rotation::from_degrees(degrees).unwrap(),
            },
            &mut fx,
        )
        .unwrap_or_else(|e| panic!("start {id} at ({x},{y}): {e}"));
    }
    assert_eq!(game.phase(), Phase::Draw);
    Table { game, fx }
}

impl Table {
    fn draw(&mut self, tile: &str) {
        let tile = self.game.tiles().find(tile).unwrap();
        self.game
            .apply(&Action::Draw { tile }, &mut self.fx)
            .unwrap();
    }

    fn place(&mut self, x: i32, y: i32, degrees: u32) -> Result<(), RuleViolation> {
        self.game.apply(
            &Action::Place {
                at: Pos::new(x, y),
                rotation: Rotation::from_degrees(degrees).unwrap(),
            },
            &mut self.fx,
        )
    }

    /// A whole legal turn; returns the effects of the placement and the meeple step.
    fn turn(&mut self, tile: &str, x: i32, y: i32, degrees: u32, on: Option<&str>) -> Effects {
        self.draw(tile);
        self.place(x, y, degrees)
            .unwrap_or_else(|e| panic!("place {tile} at ({x},{y}) {degrees}: {e}"));
        let mut all = self.fx.clone();
        let action = match on {
            None => Action::SkipMeeple,
            Some(text) => Action::PlaceMeeple {
                segment: self
                    .game
                    .resolve_meeple_target(&text.parse().unwrap())
                    .unwrap(),
            },
        };
        self.game.apply(&action, &mut self.fx).unwrap();
        all.notes.extend_from_slice(&self.fx.notes);
        all.scores.extend(self.fx.scores.iter().cloned());
        all
    }
}

fn berlin_map() -> Arc<MapBoard> {
    test_map(
        &["~~~~~~~", "~+BB+~~", "~+++++~", "~+++++~", "~~~~~~~"],
        (-1, 3),
        &[(0, 0), (4, 0)],
        &[],
        &[],
        2,
    )
}

fn berlin_table() -> Table {
    table(
        berlin_map(),
        [("D", 0, 0, 0), ("U", 4, 0, 90)],
        &[("E", 3), ("M", 2)],
        MapOptions::default(),
    )
}

#[test]
fn berlin_completed_with_six_tiles_and_four_coats_of_arms_scores_20() {
    // Given Berlin (2 printed squares, 2 coats of arms) on the coast
    let mut t = berlin_table();
    t.turn("E", 0, 1, 180, None);
    // When a tile's city edge first meets Berlin, Berlin is connected
    let fx = t.turn("E", 0, 2, 90, None);
    assert!(fx
        .notes
        .contains(&Note::LargeCityConnected { city: "Berlin" }));
    t.turn("M", 1, 1, 0, None);
    t.turn("M", 2, 1, 270, None);
    // And the last open side of Berlin is closed by a tile placed next to Berlin only
    let fx = t.turn("E", 3, 2, 270, Some("city W"));
    // Then the city scores 6 tiles (4 placed + 2 printed) and 4 coats of arms: 20
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City && s.time == ScoreTime::Completed)
        .expect("Berlin completed");
    assert_eq!(s.points, 20, "{}", s.formula);
    assert_eq!(s.coats_of_arms, 4);
    assert_eq!(s.winners, vec![0]);
    assert_eq!(s.rule, "maps.score.city");
    assert!(
        s.formula.contains("2 printed squares of Berlin"),
        "{}",
        s.formula
    );
    assert!(s.tiles.contains(&Pos::new(1, 2)) && s.tiles.contains(&Pos::new(2, 2)));
}

fn denmark_map(feature: &str, segments: u16, coats: u16) -> Arc<MapBoard> {
    test_map(
        &["~~d~~", "~+++~", "~+++~", "~+++~", "~~~~~"],
        (-1, 3),
        &[(1, 0), (0, 2)],
        &[("Kiel", 2, 1)],
        &[(1, 2, "N", feature, segments, coats)],
        0,
    )
}

#[test]
fn a_road_ending_in_denmark_is_complete_and_scores_its_printed_segments_and_coats_of_arms() {
    // Given a road printed toward Denmark: 2 segments, 2 coats of arms
    let mut t = table(
        denmark_map("road", 2, 2),
        [("B", 1, 0, 0), ("B", 0, 2, 0)],
        &[("A", 1), ("U", 1)],
        MapOptions::default(),
    );
    t.turn("A", 1, 1, 180, None);
    // When a road tile joins the print and the road's other end is closed
    let fx = t.turn("U", 1, 2, 0, Some("road N"));
    // Then the road ends at the border, complete: 4 road segments + 2 × 2 coats of arms = 8
    assert!(fx.notes.iter().any(|n| matches!(
        n,
        Note::Border {
            side: Side::N,
            region: "Denmark",
            print: Some(_),
            ..
        }
    )));
    let text = fx
        .notes
        .iter()
        .map(|n| n.to_string())
        .find(|n| n.contains("Denmark"))
        .unwrap();
    assert!(
        text.contains("road ends at the border toward Denmark"),
        "{text}"
    );
    let s = &fx.scores[0];
    assert_eq!((s.kind, s.time), (FeatureKind::Road, ScoreTime::Completed));
    assert_eq!(s.points, 8, "{}", s.formula);
    assert_eq!(s.rule, "maps.score.road");
    assert!(s.formula.contains("toward Denmark"), "{}", s.formula);
}

#[test]
fn a_city_completed_against_the_border_counts_the_printed_segment_abroad() {
    // Given a city segment printed abroad with 2 coats of arms
    let mut t = table(
        denmark_map("city", 1, 2),
        [("B", 1, 0, 0), ("B", 0, 2, 0)],
        &[("E", 1), ("G", 1)],
        MapOptions::default(),
    );
    t.turn("E", 1, 1, 0, None);
    // When a city tile closes the city between the print and the first tile
    let fx = t.turn("G", 1, 2, 90, Some("city N"));
    // Then 3 city tiles (2 placed + 1 printed) × 2 + 2 coats of arms × 2 = 10
    let s = &fx.scores[0];
    assert_eq!(s.kind, FeatureKind::City);
    assert_eq!(s.points, 10, "{}", s.formula);
}

#[test]
fn an_incomplete_road_with_a_coat_of_arms_abroad_scores_one_per_coat_at_the_end() {
    // Given a road printed abroad: 1 segment, 1 coat of arms; the map one row taller
    let map = test_map(
        &["~~d~~", "~+++~", "~+++~", "~+++~", "~+++~", "~~~~~"],
        (-1, 3),
        &[(0, 2), (2, 2)],
        &[],
        &[(1, 2, "N", "road", 1, 1)],
        0,
    );
    let mut t = table(
        map,
        [("B", 0, 2, 0), ("B", 2, 2, 0)],
        &[("U", 2)],
        MapOptions::default(),
    );
    t.turn("U", 1, 2, 0, Some("road N"));
    // When the bag empties with the road still open to the south
    let fx = t.turn("U", 1, 1, 0, None);
    assert!(t.game.is_over());
    // Then final scoring: 3 road tiles (2 placed + 1 printed) + 1 coat of arms = 4
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road)
        .expect("road scored");
    assert_eq!(s.time, ScoreTime::Final);
    assert_eq!(s.points, 4, "{}", s.formula);
    assert_eq!(t.game.scores()[0], 4);
}

#[test]
fn a_monastery_on_the_border_is_complete_when_its_existing_neighbours_are_filled() {
    // Given a monastery square with only 4 neighbour squares on the map
    let map = test_map(
        &["~~~~~", "~~++~", "~+++~", "~+++~", "~~~~~"],
        (-1, 3),
        &[(0, 1), (2, 1)],
        &[],
        &[],
        0,
    );
    let mut t = table(
        map,
        [("B", 0, 1, 0), ("B", 2, 1, 0)],
        &[("B", 3), ("A", 1)],
        MapOptions::default(),
    );
    t.turn("B", 1, 1, 0, None);
    let fx = t.turn("B", 1, 2, 0, Some("monastery"));
    assert!(fx.scores.is_empty());
    // When the last existing neighbour is filled
    let fx = t.turn("B", 2, 2, 0, None);
    // Then it is complete: 1 + 4 neighbours = 5
    let s = fx
        .scores
        .iter()
        .find(|s| s.feature.at == Pos::new(1, 2))
        .expect("monastery completed");
    assert_eq!(s.time, ScoreTime::Completed);
    assert_eq!(s.points, 5, "{}", s.formula);
    assert_eq!(s.rule, "maps.score.monastery");
}

#[test]
fn the_abbot_on_a_garden_on_the_border_follows_the_monastery_neighbour_rules() {
    // Given the same border square holding a garden copy with seat 1's abbot (The Abbot):
    // only 4 neighbour squares exist on the map
    let map = test_map(
        &["~~~~~", "~~++~", "~+++~", "~+++~", "~~~~~"],
        (-1, 3),
        &[(0, 1), (2, 1)],
        &[],
        &[],
        0,
    );
    let mut t = table_with(
        map,
        [("B", 0, 1, 0), ("B", 2, 1, 0)],
        &[("B", 3), ("E+garden", 1), ("A", 1)],
        Options {
            meeples: 9,
            abbot: true,
            ..Options::default()
        },
        TileSet::base().with_gardens(),
    );
    t.turn("B", 1, 1, 0, None);
    t.draw("E+garden");
    t.place(1, 2, 0).unwrap();
    let garden = t
        .game
        .resolve_abbot_target(Pos::new(1, 2), &"garden".parse().unwrap())
        .unwrap();
    t.game
        .apply(
            &Action::PlaceAbbot {
                at: Pos::new(1, 2),
                segment: garden,
                portal: false,
            },
            &mut t.fx,
        )
        .unwrap();
    // When the last existing neighbour is filled
    let fx = t.turn("B", 2, 2, 0, None);
    // Then the garden is complete: 1 + 4 neighbours = 5 for its abbot, as a monastery there
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Garden)
        .expect("garden completed");
    assert_eq!(s.time, ScoreTime::Completed);
    assert_eq!((s.points, s.winners.clone()), (5, vec![1]), "{}", s.formula);
    assert_eq!(s.rule, "abbot.score.garden.completed");
    assert!(t.game.abbot_in_supply(1));
}

#[test]
fn placements_off_the_map_on_a_large_city_or_not_adjacent_are_refused() {
    // Given the Berlin map with its two start tiles
    let mut t = berlin_table();
    t.draw("E");
    let before = t.game.phase();
    // Then off the map (sea, or far away), on Berlin, or away from every placed tile: refused
    for (x, y, rule) in [
        (-1, 0, "maps.tile.on-map"),
        (40, 40, "maps.tile.on-map"),
        (1, 2, "maps.tile.large-city"),
        (2, 1, "base.tile.adjacent"),
        // Next to Berlin, which no tile has connected yet
        (3, 2, "base.tile.adjacent"),
    ] {
        let err = t.place(x, y, 0).unwrap_err();
        assert_eq!(err.rule(), rule, "({x},{y}): {err}");
        assert_eq!(t.game.phase(), before, "state unchanged");
    }
    // And a tile facing Berlin with a field edge: refused
    t.place(0, 1, 180).unwrap();
    t.game.apply(&Action::SkipMeeple, &mut t.fx).unwrap();
    t.draw("E");
    let err = t.place(0, 2, 0).unwrap_err();
    assert_eq!(err.rule(), "maps.large-city.edge", "{err}");
    assert!(err.to_string().contains("Berlin"), "{err}");
    // And the generator agrees: only the city edge toward Berlin is offered there
    let mut out = Vec::new();
    let e = t.game.tiles().find("E").unwrap();
    t.game.legal_placements(e, &mut out);
    assert!(out
        .iter()
        .filter(|p| p.at == Pos::new(0, 2))
        .all(|p| p.rotation == Rotation::from_degrees(90).unwrap()));
    assert!(out
        .iter()
        .all(|p| t.game.check_placement(e, p.at, p.rotation).is_ok()));
}

#[test]
fn an_edge_facing_a_border_print_must_match_it() {
    // Given a road printed toward Denmark at (1,2) north
    let mut t = table(
        denmark_map("road", 1, 0),
        [("B", 1, 0, 0), ("B", 0, 2, 0)],
        &[("G", 1)],
        MapOptions::default(),
    );
    t.draw("G");
    // When a city tile turns a field edge toward the print
    let err = t.place(1, 2, 90).unwrap_err();
    // Then it is refused, naming the print and the country
    assert_eq!(err.rule(), "maps.border.print");
    assert!(err.to_string().contains("toward Denmark"), "{err}");
}

#[test]
fn start_tiles_go_on_free_start_squares_only() {
    let map = berlin_map();
    let mut game = Game::new(Setup {
        players: 2,
        options: Options::default(),
        tiles: Arc::new(TileSet::base()),
        bag: None,
        map: Some(map),
    })
    .unwrap();
    let mut fx = Effects::default();
    let d = game.tiles().find("D").unwrap();
    let start = |at| Action::PlaceStart {
        tile: d,
        at,
        rotation: Rotation::default(),
    };
    let err = game.apply(&start(Pos::new(1, 1)), &mut fx).unwrap_err();
    assert_eq!(err.rule(), "maps.setup.start-squares");
    game.apply(&start(Pos::new(0, 0)), &mut fx).unwrap();
    assert_eq!(
        game.phase(),
        Phase::Start,
        "a second start square is in use"
    );
    let err = game.apply(&start(Pos::new(0, 0)), &mut fx).unwrap_err();
    assert_eq!(err.rule(), "maps.setup.start-squares");
    game.apply(&start(Pos::new(4, 0)), &mut fx).unwrap();
    assert_eq!(game.phase(), Phase::Draw);
}

#[test]
fn town_variant_1_covering_a_town_gives_an_extra_turn() {
    let mut t = table(
        denmark_map("road", 1, 0),
        [("B", 1, 0, 0), ("B", 0, 2, 0)],
        &[("B", 3)],
        MapOptions {
            town_extra_turn: true,
            ..MapOptions::default()
        },
    );
    // When seat 0 covers the town Kiel
    let fx = t.turn("B", 2, 0, 0, None);
    assert!(!fx.notes.contains(&Note::TownCovered { name: "Kiel" }));
    let fx = t.turn("B", 2, 1, 0, None);
    // Then seat 1 (who covered it) plays again
    assert!(fx.notes.contains(&Note::TownCovered { name: "Kiel" }));
    assert!(fx.notes.contains(&Note::TownExtraTurn));
    assert_eq!(t.game.current_player(), 1);
    assert!(t.game.is_extra_turn());
}

#[test]
fn town_variant_2_covering_a_town_costs_two_points() {
    let mut t = table(
        denmark_map("road", 2, 2),
        [("B", 1, 0, 0), ("B", 0, 2, 0)],
        &[("A", 1), ("U", 1), ("B", 2)],
        MapOptions {
            town_cost: true,
            ..MapOptions::default()
        },
    );
    t.turn("A", 1, 1, 180, None);
    t.turn("U", 1, 2, 0, Some("road N"));
    assert_eq!(t.game.scores(), &[0, 8]);
    // When seat 0 (no points) and then seat 1 (8 points) cover a town
    t.turn("B", 2, 0, 0, None);
    let fx = t.turn("B", 2, 1, 0, None);
    // Then seat 1 pays 2 points
    let s = fx.scores.iter().find(|s| s.is_penalty()).expect("cost");
    assert_eq!(s.points, 2);
    assert_eq!(s.rule, "maps.town.cost");
    assert_eq!(s.signed_points(), "-2");
    assert_eq!(t.game.scores()[1], 6);
}

#[test]
fn town_variant_3_a_scored_road_earns_two_per_visible_town_beside_it() {
    let mut t = table(
        denmark_map("road", 2, 2),
        [("B", 1, 0, 0), ("B", 0, 2, 0)],
        &[("A", 1), ("U", 1)],
        MapOptions {
            town_road_bonus: true,
            ..MapOptions::default()
        },
    );
    t.turn("A", 1, 1, 180, None);
    // When the road past the still-visible town Kiel at (2,1) is completed
    let fx = t.turn("U", 1, 2, 0, Some("road N"));
    // Then 8 for the road + 2 for Kiel
    let s = &fx.scores[0];
    assert_eq!(s.points, 10, "{}", s.formula);
    assert_eq!(s.rule, "maps.town.road-bonus");
}

#[test]
fn town_variants_are_off_by_default_and_need_a_map() {
    let off = MapOptions::default();
    assert!(!off.town_extra_turn && !off.town_cost && !off.town_road_bonus);
    let err = Game::new(Setup {
        players: 2,
        options: Options {
            map: MapOptions {
                town_cost: true,
                ..MapOptions::default()
            },
            ..Options::default()
        },
        tiles: Arc::new(TileSet::base()),
        bag: None,
        map: None,
    })
    .unwrap_err();
    assert_eq!(err.rule(), "base.setup");
}

#[test]
fn on_germany_three_start_squares_and_the_generator_agrees_with_the_validator() {
    let map = MapBoard::builtin_shared("germany").unwrap();
    let mut game = Game::new(Setup {
        players: 3,
        options: Options {
            meeples: 9,
            map: MapOptions {
                start_squares: 3,
                ..MapOptions::default()
            },
            ..Options::default()
        },
        tiles: Arc::new(TileSet::base()),
        bag: None,
        map: Some(map.clone()),
    })
    .unwrap();
    let mut fx = Effects::default();
    let mut out = Vec::new();
    for (tile, s) in ["D", "U", "V"].iter().zip(map.start_squares()) {
        let id = game.tiles().find(tile).unwrap();
        game.legal_start_placements(id, &mut out);
        let p = out.iter().find(|p| p.at == s.at).expect("fits");
        game.apply(
            &Action::PlaceStart {
                tile: id,
                at: p.at,
                rotation: p.rotation,
            },
            &mut fx,
        )
        .unwrap();
        assert!(fx.notes.contains(&Note::StartSquare { name: s.name }));
    }
    assert_eq!(game.phase(), Phase::Draw);
    // Every open square is on the map, and every generated placement is accepted
    assert!(game.open_squares().iter().all(|&p| map.is_playable(p)));
    for tile in ["K", "X", "E", "U"] {
        let id = game.tiles().find(tile).unwrap();
        game.legal_placements(id, &mut out);
        assert!(!out.is_empty());
        for p in &out {
            game.check_placement(id, p.at, p.rotation).unwrap();
        }
    }
}

#[test]
fn the_example_in_docs_maps_md_loads() {
    let doc = include_str!("../../../docs/maps.md");
    let block = doc
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a json block");
    let map = MapBoard::from_json(block).unwrap();
    assert_eq!(map.playable_count(), 5);
    assert_eq!(map.large_cities()[0].open_sides, 3);
    let border = map.border(Pos::new(-5, 8), Side::N).unwrap();
    assert_eq!(border.region.name, "Denmark");
    assert_eq!(border.print.unwrap().segments, 2);
}
