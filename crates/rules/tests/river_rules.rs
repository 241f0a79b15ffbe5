//! One test per rule and interpretation of The River (`docs/rules.md`, The River),
//! given/when/then on small hand-built boards.
//!
//! Every position starts from the spring RS at (0,0), rotation 0: its river leaves by the
//! south side, so the open end is (0,-1). Tiles (rotation clockwise, north is y+1): R1 a
//! straight river N–S at 0°; R2 a river curve N–E at 0° (W–N at 270°, S–W at 180°); RL the
//! lake, river on N at 0°; A a monastery with a road (base set).

mod common;

use std::sync::Arc;

use carc_rules::*;
use common::*;

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

fn river(bag: &[(&str, u16)]) -> Table {
    river_table(2, bag, Options::default())
}

fn legal(t: &Table, tile: &str) -> Vec<Placement> {
    let mut out = Vec::new();
    t.game.legal_placements(t.id(tile), &mut out);
    out
}

// ---- Contents and setup ----------------------------------------------------------------------

#[test]
fn river_set_has_twelve_tiles_a_spring_and_a_lake() {
    // Given the built-in River set
    let set = TileSet::river();
    // Then it holds 12 tiles of 10 kinds, one spring (the start tile) and one lake
    assert_eq!(set.len(), 10);
    assert_eq!(set.tiles().iter().map(|t| t.count).sum::<u16>(), 12);
    let spring = set.get(set.spring().unwrap());
    assert_eq!(spring.id, "RS");
    assert_eq!(spring.start, 1);
    let ends: Vec<_> = set.tiles().iter().filter_map(|t| t.river_end).collect();
    assert_eq!(ends, [RiverEnd::Spring, RiverEnd::Lake]);
    // And every tile carries the river: through two sides, or one at the spring and the lake
    for t in set.tiles() {
        let want = if t.river_end.is_some() { 1 } else { 2 };
        assert_eq!(t.river_sides.count_ones(), want, "{}", t.id);
    }
}

#[test]
fn river_sides_are_no_feature_and_split_the_fields() {
    // Given the straight river R1 placed below the spring
    let mut t = river(&[("R1", 1), ("RL", 1)]);
    t.draw("R1").unwrap();
    t.place(0, -1, 0).unwrap();
    // Then the meeple may go on either bank, two fields, and on nothing else
    let mut spots = Vec::new();
    t.game.legal_meeples(&mut spots);
    let kinds: Vec<_> = spots
        .iter()
        .map(|s| t.game.tiles().get(t.id("R1")).segments[s.segment as usize].kind)
        .collect();
    assert_eq!(kinds, [FeatureKind::Field, FeatureKind::Field]);
    // And the spring's one field goes round the spring [I]: both banks below it touch the
    // same field there
    let rs = TileSet::river();
    let spring = rs.get(rs.spring().unwrap());
    assert_eq!(
        spring
            .segments
            .iter()
            .filter(|s| s.kind == FeatureKind::Field)
            .count(),
        1
    );
}

#[test]
fn r8_has_a_city_on_one_bank_and_a_road_ending_at_the_river_on_the_other() {
    // Given the river tile the published tile list gives as city, river, road, river (the
    // Big Box rules sheet; R8 had a field where the road is, which JCloisterZone's tile of
    // that kind showed up)
    let rs = TileSet::river();
    let r8 = rs.get(rs.find("R8").unwrap());
    // Then at rotation 0 its sides are city N, river E and W, road S
    let edges: Vec<char> = Side::ALL
        .iter()
        .map(|&s| r8.edge(Rotation::ALL[0], s).letter())
        .collect();
    assert_eq!(edges, ['C', 'W', 'R', 'W']);
    // And the road has its one end at S (it ends at the river bank)
    let roads: Vec<u8> = r8
        .segments
        .iter()
        .filter(|s| s.kind == FeatureKind::Road)
        .map(|s| s.sides)
        .collect();
    assert_eq!(roads, [1 << Side::S.index()]);
    // And four fields: two on the city bank (one either side of the city, both touching
    // it), two on the road bank (one either side of the road)
    let fields: Vec<(u8, u16)> = r8
        .segments
        .iter()
        .filter(|s| s.kind == FeatureKind::Field)
        .map(|s| (s.ports.count_ones() as u8, s.touches))
        .collect();
    assert_eq!(fields, [(1, 1), (1, 1), (2, 0), (2, 0)]);
}

#[test]
fn r7s_road_splits_its_bank_in_two_fields_at_the_monastery() {
    // Given the straight river with a monastery and its road (the monastery stands against
    // the river, as JCloisterZone describes the tile: no field passes between them)
    let rs = TileSet::river();
    let r7 = rs.get(rs.find("R7").unwrap());
    // Then three fields: the two halves of the road's bank, and the other bank whole
    let mut fields: Vec<u32> = r7
        .segments
        .iter()
        .filter(|s| s.kind == FeatureKind::Field)
        .map(|s| s.ports.count_ones())
        .collect();
    fields.sort();
    assert_eq!(fields, [2, 2, 4]);
}

#[test]
fn river_tiles_need_the_option() {
    // Given the River set without the option
    // Then the setup is refused (river.option)
    let err = refused_setup(
        Options::default(),
        TileSet::combine(&[TileSet::base(), TileSet::river()]).unwrap(),
        None,
    );
    assert_eq!(err.rule(), rule::SETUP);
    assert!(err.to_string().contains("river"), "{err}");
}

#[test]
fn the_option_needs_a_spring_and_a_lake() {
    // Given the river on with the base set only
    // Then the setup is refused: no spring
    let err = refused_setup(
        Options {
            river: true,
            ..Options::default()
        },
        TileSet::base(),
        None,
    );
    assert!(err.to_string().contains("exactly one spring"), "{err}");
}

#[test]
fn the_spring_is_the_start_tile_and_the_base_start_tile_leaves_the_game() {
    // Given a full game of base + River
    let setup = Setup {
        players: 2,
        options: Options {
            river: true,
            ..Options::default()
        },
        tiles: Arc::new(TileSet::combine(&[TileSet::base(), TileSet::river()]).unwrap()),
        bag: None,
        map: None,
    };
    let mut game = Game::new(setup).unwrap();
    // Then the start tile is the spring, and of the four D one (the start copy) is out
    let rs = game.tiles().find("RS").unwrap();
    let d = game.tiles().find("D").unwrap();
    assert_eq!(game.start_tile(), Some(rs));
    assert_eq!(game.in_game_count(d), 3);
    assert_eq!(game.bag_left(), 71 + 12);
    // When the start tile placed is D
    let mut fx = Effects::default();
    let start = |tile| Action::PlaceStart {
        tile,
        at: p(0, 0),
        rotation: Rotation::default(),
    };
    let err = game.apply(&start(d), &mut fx).unwrap_err();
    // Then it is refused (river.setup.spring)
    assert_eq!(err.rule(), rule::RIVER_SPRING);
    // And the spring is accepted, its river the open end
    game.apply(&start(rs), &mut fx).unwrap();
    assert_eq!(game.river_open_end(), Some((p(0, 0), Side::S)));
}

// ---- Draw order ------------------------------------------------------------------------------

#[test]
fn river_tiles_are_drawn_first_and_the_lake_last() {
    // Given river tiles, the lake and a land tile in the bag
    let mut t = river(&[("R1", 1), ("RL", 1), ("A", 1)]);
    // When the land tile is drawn first: refused (river.draw.order)
    let err = t.draw("A").unwrap_err();
    assert_eq!(err.rule(), rule::RIVER_DRAW_ORDER);
    // When the lake is drawn before the last river tile: refused
    let err = t.draw("RL").unwrap_err();
    assert_eq!(err.rule(), rule::RIVER_DRAW_ORDER);
    assert!(err.to_string().contains("lake"), "{err}");
    // Then the river tile, then the lake, then the land tile
    t.turn("R1", 0, -1, 0, None);
    assert_eq!(t.draw("A").unwrap_err().rule(), rule::RIVER_DRAW_ORDER);
    t.turn("RL", 0, -2, 0, None);
    t.draw("A").unwrap();
}

#[test]
fn a_tile_id_the_set_does_not_hold_is_refused_as_in_every_game() {
    // Given a River game waiting for a draw (its set: 24 base kinds and 10 river kinds), and
    // the ids of a larger set (ids cannot be made up: they come from a tile set)
    let mut t = river(&[("R1", 1), ("RL", 1), ("A", 1)]);
    let kinds = t.game.tiles().len();
    assert_eq!(kinds, 34);
    let larger = TileSet::combine(&[
        TileSet::base(),
        TileSet::river(),
        TileSet::inns_cathedrals(),
        TileSet::traders_builders(),
    ])
    .unwrap();
    let beyond: Vec<TileTypeId> = larger.ids().skip(kinds).collect();
    assert!(beyond.len() > 30, "{}", beyond.len());
    let before = format!("{:?}", t.game);
    for id in beyond {
        // When a draw of a tile id beyond the set is applied
        let err = t
            .game
            .apply(&Action::Draw { tile: id }, &mut t.fx)
            .unwrap_err();
        // Then it is refused as a tile the game does not know, and nothing changed
        assert!(
            matches!(err, RuleViolation::UnknownTile { .. }),
            "{id:?}: {err:?}"
        );
        assert_eq!(err.rule(), rule::DRAW_BAG);
        assert_eq!(format!("{:?}", t.game), before, "{id:?}");
    }
    // And the game goes on
    t.turn("R1", 0, -1, 0, None);
}

// ---- Placement -------------------------------------------------------------------------------

#[test]
fn a_river_tile_continues_the_river_from_its_open_end() {
    // Given the spring with its open end at (0,-1)
    let mut t = river(&[("R1", 1), ("RL", 1)]);
    t.draw("R1").unwrap();
    // Then the straight river fits only there, N–S (its 180° twin is the same tile)
    assert_eq!(
        legal(&t, "R1"),
        [Placement {
            at: p(0, -1),
            rotation: rot(0)
        }]
    );
    // When it is placed beside the spring, its river touching no river
    let err = t.place(1, 0, 0).unwrap_err();
    // Then it is refused (river.tile.continue)
    assert_eq!(err.rule(), rule::RIVER_CONTINUE);
    // When its land side faces the open end: the edges do not match (river meets only river)
    let err = t.place(0, -1, 90).unwrap_err();
    assert_eq!(err.rule(), rule::TILE_EDGES_MATCH);
    assert!(err.to_string().contains("river"), "{err}");
    // And at the open end it continues the river
    t.place(0, -1, 0).unwrap();
    assert!(t
        .fx
        .notes
        .iter()
        .any(|n| matches!(n, Note::RiverContinued { lake: false })));
    assert_eq!(t.game.river_open_end(), Some((p(0, -1), Side::S)));
}

#[test]
fn no_immediate_u_turn() {
    // Given the river turned left at (0,-1): flowing south, it leaves east
    let mut t = river(&[("R2", 2), ("RL", 1)]);
    t.turn("R2", 0, -1, 0, None);
    assert_eq!(t.game.river_open_end(), Some((p(0, -1), Side::E)));
    // When the next curve turns left again (entering from the west, leaving north)
    t.draw("R2").unwrap();
    let err = t.place(1, -1, 270).unwrap_err();
    // Then it is refused (river.tile.no-u-turn), and it is not among the legal placements
    assert_eq!(err.rule(), rule::RIVER_NO_U_TURN);
    assert_eq!(
        legal(&t, "R2"),
        [Placement {
            at: p(1, -1),
            rotation: rot(180)
        }]
    );
    // And turning right (leaving south) is legal
    t.place(1, -1, 180).unwrap();
    assert_eq!(t.game.river_open_end(), Some((p(1, -1), Side::S)));
}

#[test]
fn the_lake_ends_the_river_and_land_tiles_follow() {
    // Given the lake drawn after the last river tile
    let mut t = river(&[("RL", 1), ("A", 1)]);
    t.draw("RL").unwrap();
    // Then it fits only with its river facing the open end (0° at (0,-1))
    assert_eq!(
        legal(&t, "RL"),
        [Placement {
            at: p(0, -1),
            rotation: rot(0)
        }]
    );
    t.place(0, -1, 0).unwrap();
    // And it closes the river: no open end is left
    assert!(t
        .fx
        .notes
        .iter()
        .any(|n| matches!(n, Note::RiverContinued { lake: true })));
    assert_eq!(t.game.river_open_end(), None);
    t.meeple(None).unwrap();
    // And the land tile comes next, placed as in the base game
    t.draw("A").unwrap();
    assert!(!legal(&t, "A").is_empty());
}

#[test]
fn land_tiles_never_touch_the_open_river() {
    // Given the spring and a land tile (no river tile left to draw)
    let mut t = river(&[("A", 1)]);
    t.draw("A").unwrap();
    // Then no placement of it faces the open end at (0,-1)
    assert!(legal(&t, "A").iter().all(|pl| pl.at != p(0, -1)));
    assert!(!legal(&t, "A").is_empty());
    // And placing it there is refused for its edges (field or road against river)
    for degrees in [0, 90, 180, 270] {
        let err = t.place(0, -1, degrees).unwrap_err();
        assert_eq!(err.rule(), rule::TILE_EDGES_MATCH, "{degrees}");
    }
}

#[test]
fn a_river_wound_into_a_dead_end_sets_the_river_tile_aside() {
    // Given a river that turned right three times (never twice in a row) and now flows east
    // at (-2,-1) toward (-1,-1), whose east neighbour (0,-1) shows a road (the bridge R3)
    let mut t = river(&[
        ("R3", 1),
        ("R8", 1),
        ("R6", 1),
        ("R5", 1),
        ("R2", 2),
        ("R1", 2),
        ("RL", 1),
    ]);
    for (tile, x, y, degrees) in [
        ("R3", 0, -1, 0),
        ("R8", 0, -2, 270),
        ("R6", 0, -3, 90),
        ("R5", -1, -3, 270),
        ("R2", -2, -3, 0),
        ("R1", -2, -2, 0),
        ("R2", -2, -1, 90),
    ] {
        t.turn(tile, x, y, degrees, None);
    }
    assert_eq!(t.game.river_open_end(), Some((p(-2, -1), Side::E)));
    // When the straight river is drawn
    t.draw("R1").unwrap();
    // Then it fits nowhere (straight on meets the road; a right turn would be the U-turn)
    assert!(legal(&t, "R1").is_empty());
    assert_eq!(
        t.place(-1, -1, 90).unwrap_err().rule(),
        rule::TILE_EDGES_MATCH
    );
    // And it is set aside [I], the river still open for the lake
    t.game.apply(&Action::SetAside, &mut t.fx).unwrap();
    assert_eq!(t.game.set_aside(), [t.id("R1")]);
    assert_eq!(t.game.river_open_end(), Some((p(-2, -1), Side::E)));
}

// ---- Tile-set files --------------------------------------------------------------------------

fn one_tile(tile: &str) -> Result<TileSet, TileSetError> {
    TileSet::from_json(&format!(
        r#"{{"format":"carcassonne-tiles","version":1,"name":"t","tiles":[{tile}]}}"#
    ))
}

#[test]
fn river_sides_in_tile_files_are_checked() {
    // A straight river with its banks: valid
    let ok = r#"{"id":"X","count":1,"edges":["W","F","W","F"],
        "fields":[{"ports":["Nw","Wn","Ws","Sw"]},{"ports":["Ne","En","Es","Se"]}]}"#;
    assert!(one_tile(ok).is_ok());
    // A road reaching a river side: refused
    let road = r#"{"id":"X","count":1,"edges":["W","F","W","F"],"roads":[["N","S"]],
        "fields":[{"ports":["Nw","Wn","Ws","Sw"]},{"ports":["Ne","En","Es","Se"]}]}"#;
    let err = one_tile(road).unwrap_err().to_string();
    assert!(
        err.contains("side N is W but a road or city segment reaches it"),
        "{err}"
    );
    // One river side on a tile that is neither spring nor lake: refused
    let end = r#"{"id":"X","count":1,"edges":["W","F","F","F"],
        "fields":[{"ports":["Nw","Ne","En","Es","Se","Sw","Ws","Wn"]}]}"#;
    let err = one_tile(end).unwrap_err().to_string();
    assert!(err.contains("1 river side(s)"), "{err}");
    // A spring with two river sides: refused
    let spring = r#"{"id":"X","count":1,"river":"spring","edges":["W","F","W","F"],
        "fields":[{"ports":["Nw","Wn","Ws","Sw"]},{"ports":["Ne","En","Es","Se"]}]}"#;
    let err = one_tile(spring).unwrap_err().to_string();
    assert!(err.contains("a spring has exactly one river side"), "{err}");
}
