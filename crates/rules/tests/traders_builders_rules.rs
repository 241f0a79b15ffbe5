//! One test per rule and interpretation of Traders & Builders (`docs/rules.md`, Traders &
//! Builders), given/when/then on small hand-built boards, and the rulebook's worked examples
//! (Wikicarpedia, Traders and Builders, C2: the completing player takes the goods whoever
//! scores the city; tied goods majorities score 10 each; the builder's double turn, none from
//! the second part; the builder stays for the second part even when the first part scored its
//! road; tied farmers with and without a pig).
//!
//! Every position starts from the base start tile D at (0,0), rotation 0: a city on the north
//! side, a road west–east. Tiles (rotation clockwise, north is y+1): base B a monastery in a
//! field, E a city on N only, L a city on N and three road ends E, S, W, U a straight road N–S
//! (W–E at 90°); TB11 a corner city N+E with wine, TB21 a city joined N–S with wine between two
//! fields.

mod common;

use carc_rules::*;
use common::*;

fn traders(players: u8, bag: &[(&str, u16)]) -> Table {
    traders_table(players, bag, Options::default())
}

fn specials(t: &Table, which: Special) -> Vec<String> {
    let mut out = Vec::new();
    t.game.legal_specials(which, &mut out);
    out.iter().map(|s| s.label.to_string()).collect()
}

/// A turn ending with the builder (`pig` false) or the pig on `on`; its effects.
fn special_turn(
    t: &mut Table,
    tile: &str,
    x: i32,
    y: i32,
    degrees: u32,
    pig: bool,
    on: &str,
) -> Effects {
    t.draw(tile).unwrap();
    t.place(x, y, degrees).unwrap();
    let mut all = t.fx.clone();
    t.special(pig, on)
        .unwrap_or_else(|e| panic!("special on {on}: {e}"));
    all.notes.extend_from_slice(&t.fx.notes);
    all.scores.extend(t.fx.scores.iter().cloned());
    all.returned.extend_from_slice(&t.fx.returned);
    all
}

// ---- Contents and setup ----------------------------------------------------------------------

/// id, edges N E S W, cities, roads, monastery, fields, the goods (the city index they are in).
type Described = (
    &'static str,
    &'static str,
    usize,
    usize,
    bool,
    usize,
    Option<(usize, Good)>,
);

#[test]
fn each_traders_builders_tile_has_the_features_of_its_description() {
    // Given the built-in set, each tile described as the public tile list spells it (side
    // thirds: c city, r road, z field; the goods of one city; a monastery)
    use Good::*;
    let set = TileSet::traders_builders();
    let want: [Described; 24] = [
        ("TB1", "CCCR", 1, 1, false, 2, Some((0, Wine))),
        ("TB2", "CCCF", 1, 0, false, 1, Some((0, Grain))),
        ("TB3", "CCCC", 2, 0, false, 0, Some((0, Wine))),
        ("TB4", "CCCC", 3, 0, false, 0, Some((0, Cloth))),
        ("TB5", "CCRR", 1, 2, false, 3, Some((0, Wine))),
        ("TB6", "CCRF", 1, 1, false, 2, Some((0, Cloth))),
        ("TB7", "CCRR", 1, 2, false, 4, Some((0, Cloth))),
        ("TB8", "CCRF", 1, 1, false, 3, Some((0, Wine))),
        ("TB9", "CCFR", 1, 1, false, 2, Some((0, Grain))),
        ("TB10", "CCFF", 1, 0, false, 1, Some((0, Grain))),
        ("TB11", "CCFF", 1, 0, false, 1, Some((0, Wine))),
        ("TB12", "CCFR", 1, 1, false, 3, Some((0, Grain))),
        ("TB13", "CCCF", 2, 0, false, 1, Some((0, Cloth))),
        ("TB14", "CCCF", 2, 0, false, 1, Some((0, Wine))),
        ("TB15", "CCCR", 2, 1, false, 2, Some((1, Cloth))),
        ("TB16", "CCCR", 2, 1, false, 2, Some((1, Grain))),
        ("TB17", "CRCR", 1, 2, false, 4, Some((0, Wine))),
        ("TB18", "CRCF", 1, 1, false, 3, Some((0, Grain))),
        ("TB19", "CRCF", 1, 1, false, 3, Some((0, Wine))),
        ("TB20", "CRFF", 1, 1, false, 2, None),
        ("TB21", "CFCF", 1, 0, false, 2, Some((0, Wine))),
        ("TB22", "CFRR", 1, 2, false, 3, None),
        ("TB23", "RRRR", 0, 2, false, 4, None),
        ("TB24", "RRRF", 0, 3, true, 3, None),
    ];
    assert_eq!(set.name, "traders_builders");
    assert_eq!(set.len(), 24);
    for (id, edges, cities, roads, monastery, fields, goods) in want {
        let t = set.get(set.find(id).unwrap_or_else(|| panic!("{id} missing")));
        assert_eq!(t.count, 1, "{id} count");
        assert_eq!(t.start, 0, "{id} is no start tile");
        let letters: String = t.edges.iter().map(|e| e.letter()).collect();
        assert_eq!(letters, edges, "{id} edges");
        let count = |k: FeatureKind| t.segments.iter().filter(|s| s.kind == k).count();
        assert_eq!(count(FeatureKind::City), cities, "{id} cities");
        assert_eq!(count(FeatureKind::Road), roads, "{id} roads");
        assert_eq!(
            count(FeatureKind::Monastery) == 1,
            monastery,
            "{id} monastery"
        );
        assert_eq!(count(FeatureKind::Field), fields, "{id} fields");
        // The goods: on the named city (cities come first among the segments), nowhere else
        let with_goods: Vec<(usize, Good)> = t
            .segments
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.goods.map(|g| (i, g)))
            .collect();
        assert_eq!(
            with_goods,
            goods.into_iter().collect::<Vec<_>>(),
            "{id} goods"
        );
        assert!(t.segments.iter().all(|s| s.coats_of_arms == 0), "{id} arms");
    }
}

#[test]
fn the_set_has_24_tiles_and_20_goods_9_wine_6_grain_5_cloth() {
    // Given the built-in set
    let set = TileSet::traders_builders();
    // Then it holds 24 tiles, and the goods symbols number 9 wine, 6 grain and 5 cloth
    assert_eq!(set.tiles().iter().map(|t| t.count).sum::<u16>(), 24);
    let mut goods = [0u16; 3];
    for t in set.tiles() {
        for s in &t.segments {
            if let Some(g) = s.goods {
                assert_eq!(s.kind, FeatureKind::City, "{}: goods off a city", t.id);
                goods[g.index()] += t.count;
            }
        }
    }
    assert_eq!(goods, [9, 6, 5]);
    assert!(set.has_goods());
    assert!(!TileSet::base().has_goods());
}

#[test]
fn a_rotation_that_moves_the_goods_to_another_city_is_another_placement() {
    // Given TB3 (a city N+E with wine, a city S+W without) drawn beside the start tile's city
    let t = traders(2, &[("TB3", 1)]);
    let tb3 = t.id("TB3");
    let tile = t.game.tiles().get(tb3);
    // Then its four rotations are four placements: 180° and 270° put the wine in the city
    // that 0° and 90° leave without goods (every tile carries its goods as printed)
    for r in Rotation::ALL {
        assert!(tile.is_distinct_rotation(r), "{r:?}");
        assert_eq!(tile.listed_rotation(r), r);
    }
    let mut listed = Vec::new();
    t.game.legal_placements(tb3, &mut listed);
    let above: Vec<u32> = listed
        .iter()
        .filter(|p| p.at == Pos::new(0, 1))
        .map(|p| p.rotation.degrees())
        .collect();
    assert_eq!(above, [0, 90, 180, 270]);
    // And a tile whose rotations look alike in everything is still listed once (base U)
    let base = TileSet::base();
    let u = base.get(base.find("U").unwrap());
    assert!(!u.is_distinct_rotation(Rotation::ALL[2]));
    assert_eq!(u.listed_rotation(Rotation::ALL[2]), Rotation::ALL[0]);
}

#[test]
fn tiles_with_goods_need_the_option() {
    // Given base + Traders & Builders tiles without the option
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::traders_builders()]).unwrap();
    // When the game is set up / Then it is refused, naming the rule and the option
    let err = refused_setup(Options::default(), tiles, None);
    assert_eq!(err.rule(), rule::TB_OPTION);
    assert!(err.to_string().contains("traders_builders"), "{err}");
}

#[test]
fn traders_builders_does_not_combine_with_a_map() {
    // Given the option on a map board [I]
    let map = MapBoard::builtin_shared("germany").expect("built-in map");
    // Then the setup is refused
    let err = refused_setup(
        Options {
            traders_builders: true,
            ..Options::default()
        },
        TileSet::base(),
        Some(map),
    );
    assert!(err.to_string().contains("map"), "{err}");
}

#[test]
fn a_goods_file_word_that_is_no_good_is_refused_in_words() {
    // Given a tile-set file whose city shows "gold"
    let json = r#"{"format":"carcassonne-tiles","version":1,"name":"x","tiles":[{"id":"A","count":1,"edges":["C","F","F","F"],"cities":[{"sides":["N"],"goods":"gold"}],"fields":[{"ports":["En","Es","Se","Sw","Ws","Wn"],"cities":[0]}]}]}"#;
    // Then it is refused naming the tile and the kinds expected
    let err = TileSet::from_json(json).unwrap_err().to_string();
    assert!(
        err.contains("tile A") && err.contains("wine, grain or cloth"),
        "{err}"
    );
}

// ---- Goods -----------------------------------------------------------------------------------

/// Two wine cities: D's city closed by TB21 at (0,1) and E at (0,2); TB11's corner city at
/// (0,-1) turned to S+W, closed by E at (0,-2) and E at (-1,-1). Five turns, the bag's last
/// tile closes the second city.
fn two_wine_cities(first_meeple: Option<&str>) -> (Table, Vec<Effects>) {
    let mut t = traders(2, &[("TB21", 1), ("TB11", 1), ("E", 3)]);
    let fx = vec![
        t.turn("TB21", 0, 1, 0, first_meeple),
        t.turn("E", 0, 2, 180, None),
        t.turn("TB11", 0, -1, 180, None),
        t.turn("E", 0, -2, 0, None),
        t.turn("E", -1, -1, 90, None),
    ];
    (t, fx)
}

#[test]
fn the_completing_player_takes_the_goods_whoever_scores_the_city() {
    // Given seat 0's knight in D's city, extended by TB21 (wine)
    let (t, fx) = two_wine_cities(Some("city N"));
    // When seat 1 closes it with E at (0,2)
    let close = &fx[1];
    // Then seat 0 scores the city (3 tiles: 6) and seat 1, who placed the last tile, takes the
    // wine
    let city = close
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City)
        .expect("the city scored");
    assert_eq!((city.winners.clone(), city.points), (vec![0], 6));
    assert!(close.notes.iter().any(|n| matches!(
        n,
        Note::GoodsTaken {
            goods: [1, 0, 0],
            ..
        }
    )));
    let note = close
        .notes
        .iter()
        .find(|n| matches!(n, Note::GoodsTaken { .. }))
        .unwrap();
    assert_eq!(note.rule(), rule::GOODS_TAKE);
    assert!(note.to_string().contains("takes 1 wine"), "{note}");
    // And by the end each seat holds one wine
    assert_eq!(t.game.goods(0), [1, 0, 0]);
    assert_eq!(t.game.goods(1), [1, 0, 0]);
}

#[test]
fn goods_are_taken_even_when_nobody_scores_the_city() {
    // Given D's city with no knight, extended by TB21 (wine)
    let (_, fx) = two_wine_cities(None);
    // When seat 1 closes it
    let close = &fx[1];
    // Then nobody scores, and seat 1 takes the wine all the same
    assert!(close.scores.iter().all(|s| s.winners.is_empty()));
    assert!(close.notes.iter().any(|n| matches!(
        n,
        Note::GoodsTaken {
            goods: [1, 0, 0],
            ..
        }
    )));
}

#[test]
fn tied_goods_majorities_score_ten_for_each_tied_player() {
    // Given the two wine cities, closed by seat 1 and by seat 0 (the last tile)
    let (t, fx) = two_wine_cities(None);
    // When the bag is empty and the final scoring runs
    assert!(t.game.is_over());
    let goods: Vec<&Score> = fx[4]
        .scores
        .iter()
        .filter(|s| matches!(s.source, ScoreSource::Goods { .. }))
        .collect();
    // Then wine, one token each, scores 10 for both; grain and cloth, held by nobody, nothing
    assert_eq!(goods.len(), 1);
    assert_eq!(goods[0].source, ScoreSource::Goods { good: Good::Wine });
    assert_eq!(
        (goods[0].winners.clone(), goods[0].points),
        (vec![0, 1], 10)
    );
    assert_eq!(goods[0].rule, rule::GOODS_FINAL);
    assert!(
        goods[0].to_string().contains("goods majority, wine"),
        "{}",
        goods[0]
    );
    assert_eq!(t.game.scores(), [10, 10]);
}

#[test]
fn the_most_goods_of_a_kind_score_ten_alone() {
    // Given one player closing D's wine city
    let mut t = traders(1, &[("TB21", 1), ("E", 1)]);
    t.turn("TB21", 0, 1, 0, None);
    let end = t.turn("E", 0, 2, 180, None);
    // Then alone with the most wine, the seat scores 10
    let wine = end
        .scores
        .iter()
        .find(|s| s.source == ScoreSource::Goods { good: Good::Wine })
        .unwrap();
    assert_eq!((wine.winners.clone(), wine.points), (vec![0], 10));
    assert_eq!(t.game.scores(), [10]);
}

#[test]
fn without_the_expansion_nobody_holds_goods() {
    // Given a base game
    let mut t = table(2, &[("E", 1)]);
    t.turn("E", 0, 1, 180, None);
    // Then no goods are taken and no goods majority scores
    assert_eq!(t.game.goods(0), [0, 0, 0]);
    assert!(!t
        .fx
        .scores
        .iter()
        .any(|s| matches!(s.source, ScoreSource::Goods { .. })));
}

// ---- The builder -----------------------------------------------------------------------------

#[test]
fn the_builder_goes_on_a_road_or_city_of_the_tile_just_placed_where_the_player_has_a_meeple() {
    // Given seat 0's meeple on D's road, extended east by L at (1,0)
    let mut t = traders(2, &[("L", 2), ("B", 2), ("U", 1)]);
    t.turn("L", 1, 0, 0, Some("road W"));
    t.turn("B", 0, -1, 0, None);
    // When seat 0 places U at (-1,0), extending the road west
    t.draw("U").unwrap();
    t.place(-1, 0, 90).unwrap();
    // Then the builder may go on U's road only (his meeple is on it), not on its fields
    assert_eq!(specials(&t, Special::Builder), ["road E"]);
    let err = t.special(false, "field Nw").unwrap_err();
    assert_eq!(err.rule(), rule::BUILDER_PLACE);
    assert!(err.to_string().contains("road or a city"), "{err}");
    t.special(false, "road E").unwrap();
    assert!(t.fx.notes.contains(&Note::BuilderPlaced {
        label: "road E".parse().unwrap()
    }));
    assert_eq!(
        t.game.special_of(0, Special::Builder).map(|(at, ..)| at),
        Some(Pos::new(-1, 0))
    );
    // And the builder took no meeple from the supply (6 left after one meeple)
    assert_eq!(t.game.supply(), [6, 7]);
}

#[test]
fn the_builder_needs_a_meeple_of_its_owner_on_the_feature() {
    // Given D's road held by nobody, extended by U at (1,0)
    let mut t = traders(2, &[("U", 2)]);
    t.draw("U").unwrap();
    t.place(1, 0, 90).unwrap();
    // Then no builder may go there
    assert!(specials(&t, Special::Builder).is_empty());
    let err = t.special(false, "road E").unwrap_err();
    assert!(
        matches!(err, RuleViolation::FigureWithoutMeeple { .. }),
        "{err}"
    );
    // And another player's meeple does not do: seat 1 may not join seat 0's road
    t.meeple(Some("road E")).unwrap();
    t.draw("U").unwrap();
    t.place(2, 0, 90).unwrap();
    let err = t.special(false, "road E").unwrap_err();
    assert!(
        matches!(err, RuleViolation::FigureWithoutMeeple { player: 1, .. }),
        "{err}"
    );
}

#[test]
fn the_builder_may_join_a_road_the_tile_just_completed_and_goes_home_at_once() {
    // Given seat 0's meeple on D's road, open at (-1,0) (L at (1,0) ends it in the east)
    let mut t = traders(2, &[("L", 2), ("B", 2)]);
    t.turn("L", 1, 0, 0, Some("road W"));
    t.turn("B", 0, -1, 0, None);
    // When seat 0 closes the road with L at (-1,0)
    t.draw("L").unwrap();
    t.place(-1, 0, 0).unwrap();
    // Then the builder may join the road just completed [I]: the rules text asks only for
    // his meeple on it (JCloisterZone refuses it, docs/jcz.md)
    assert_eq!(specials(&t, Special::Builder), ["road E"]);
    t.special(false, "road E").unwrap();
    // And it goes home at once with the meeple when the road scores, giving no second turn
    let road =
        t.fx.scores
            .iter()
            .find(|s| s.kind == FeatureKind::Road)
            .unwrap();
    assert_eq!((road.winners.clone(), road.points), (vec![0], 3));
    assert!(t
        .fx
        .returned
        .iter()
        .any(|r| r.player == 0 && r.special == Some(Special::Builder)));
    assert!(t.game.special_in_supply(0, Special::Builder));
    assert_eq!(t.game.current_player(), 1);
}

/// Seat 0's meeple on D's road (via L at (1,0)) and his builder on U at (-1,0); seat 1 plays
/// monasteries B south of the road. `bag` adds tiles.
fn builder_road(bag: &[(&str, u16)]) -> Table {
    let mut all = vec![("L", 1), ("B", 2), ("U", 1)];
    all.extend_from_slice(bag);
    let mut t = traders(2, &all);
    t.turn("L", 1, 0, 0, Some("road W"));
    t.turn("B", 0, -1, 0, None);
    special_turn(&mut t, "U", -1, 0, 90, false, "road E");
    t.turn("B", -1, -1, 0, None);
    t
}

#[test]
fn extending_the_builders_road_gives_a_second_turn_at_once() {
    // Given seat 0's builder on his road
    let mut t = builder_road(&[("U", 2), ("B", 2)]);
    assert_eq!(t.game.current_player(), 0);
    // When seat 0 extends it with U at (-2,0)
    let fx = t.turn("U", -2, 0, 90, None);
    // Then a second turn follows: seat 0 draws again
    assert!(fx.notes.contains(&Note::DoubleTurn {
        at: Pos::new(-1, 0)
    }));
    assert_eq!(
        Note::DoubleTurn {
            at: Pos::new(-1, 0)
        }
        .rule(),
        rule::BUILDER_DOUBLE_TURN
    );
    assert!(fx.notes.contains(&Note::SecondTurnBegins { seat: 0 }));
    assert!(fx
        .notes
        .iter()
        .all(|n| !matches!(n, Note::ExtraTurnBegins { .. })));
    assert_eq!(t.game.current_player(), 0);
    assert!(t.game.is_extra_turn());
    // When in the second turn he extends the road again with U at (-3,0)
    let fx = t.turn("U", -3, 0, 90, None);
    // Then there is no third turn: seat 1 plays next
    assert!(fx.notes.contains(&Note::DoubleTurnDenied {
        at: Pos::new(-1, 0)
    }));
    assert_eq!(t.game.current_player(), 1);
    // And a later turn of his extending the road gives a second turn again
    t.turn("B", 0, -2, 0, None);
    assert_eq!(t.game.current_player(), 0);
}

#[test]
fn a_tile_not_touching_the_builders_feature_gives_no_second_turn() {
    // Given seat 0's builder on his road
    let mut t = builder_road(&[("B", 2)]);
    // When seat 0 places a monastery away from the road
    let fx = t.turn("B", 0, -2, 0, None);
    // Then seat 1 plays next
    assert!(!fx
        .notes
        .iter()
        .any(|n| matches!(n, Note::DoubleTurn { .. })));
    assert_eq!(t.game.current_player(), 1);
}

#[test]
fn the_builder_goes_home_when_its_road_is_scored_and_the_second_turn_still_follows() {
    // Given seat 0's builder on his road, open at (-2,0)
    let mut t = builder_road(&[("L", 1), ("B", 2)]);
    // When seat 0 closes the road with L at (-2,0)
    let fx = t.turn("L", -2, 0, 0, None);
    // Then the road scores 4 for his one meeple (the builder counts for no majority)
    let road = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road)
        .unwrap();
    assert_eq!(road.meeples, vec![(0, 1)]);
    assert_eq!((road.winners.clone(), road.points), (vec![0], 4));
    // And the builder goes home with the meeple
    let builder: Vec<&ReturnedMeeple> =
        fx.returned.iter().filter(|r| r.special.is_some()).collect();
    assert_eq!(builder.len(), 1);
    assert_eq!((builder[0].player, builder[0].figure()), (0, "builder"));
    assert!(t.game.special_in_supply(0, Special::Builder));
    // And the second turn follows all the same (the builder stood there when the tile went
    // down)
    assert!(fx.notes.contains(&Note::DoubleTurn {
        at: Pos::new(-1, 0)
    }));
    assert_eq!(t.game.current_player(), 0);
}

#[test]
fn there_is_one_builder_per_player() {
    // Given seat 0's builder on his road
    let mut t = builder_road(&[("U", 2), ("B", 2)]);
    // When, in the second turn, he would place it again on the road just extended
    t.turn("U", -2, 0, 90, None);
    t.draw("U").unwrap();
    t.place(-3, 0, 90).unwrap();
    // Then it is not offered, and refused
    assert!(specials(&t, Special::Builder).is_empty());
    let err = t.special(false, "road E").unwrap_err();
    assert!(
        matches!(
            err,
            RuleViolation::FigureNotInSupply {
                player: 0,
                figure: "builder",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn the_builder_stays_at_the_end_and_goes_home_unscored() {
    // Given seat 0's builder on his road, open at both ends, when the bag empties
    let mut t = builder_road(&[("B", 1)]);
    let fx = t.turn("B", 0, -2, 0, None);
    assert!(t.game.is_over());
    // Then the road (3 tiles) scores 3 for seat 0's meeple and the builder goes home with it
    let road = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road)
        .unwrap();
    assert_eq!((road.winners.clone(), road.points), (vec![0], 3));
    assert!(fx
        .returned
        .iter()
        .any(|r| r.special == Some(Special::Builder)));
}

#[test]
fn without_the_expansion_there_is_no_builder_or_pig() {
    // Given a base game at the meeple step with seat 0's meeple on D's road
    let mut t = table(2, &[("U", 2), ("B", 1)]);
    t.turn("U", 1, 0, 90, Some("road E"));
    t.turn("B", 0, -1, 0, None);
    t.draw("U").unwrap();
    t.place(-1, 0, 90).unwrap();
    // Then nothing is offered and the action is refused, naming the option
    assert!(specials(&t, Special::Builder).is_empty());
    let err = t.special(false, "road E").unwrap_err();
    assert_eq!(err.rule(), rule::TB_OPTION);
}

// ---- The pig ---------------------------------------------------------------------------------

/// Seat 0's farmer on the field of E at (0,1) (turned to close D's city: a completed city of
/// two tiles), the pig `pig` on the field of B at (1,1) (the same field).
fn pig_field(pig: bool) -> (Table, Effects) {
    let mut t = traders(2, &[("E", 1), ("B", 3)]);
    t.turn("E", 0, 1, 180, Some("field Nw"));
    t.turn("B", 0, -1, 0, None);
    if pig {
        special_turn(&mut t, "B", 1, 1, 0, true, "field Nw");
    } else {
        t.turn("B", 1, 1, 0, None);
    }
    let end = t.turn("B", 1, -1, 0, None);
    (t, end)
}

#[test]
fn the_pig_goes_on_a_field_of_the_tile_just_placed_where_the_player_has_a_farmer() {
    // Given seat 0's farmer north of D's city
    let mut t = traders(2, &[("E", 1), ("B", 3)]);
    t.turn("E", 0, 1, 180, Some("field Nw"));
    t.turn("B", 0, -1, 0, None);
    // When seat 0 places B at (1,1), in the same field
    t.draw("B").unwrap();
    t.place(1, 1, 0).unwrap();
    // Then the pig may go on its field only, not on the monastery
    assert_eq!(specials(&t, Special::Pig).len(), 1);
    let err = t.special(true, "monastery").unwrap_err();
    assert_eq!(err.rule(), rule::PIG_PLACE);
    t.special(true, "field Nw").unwrap();
    assert!(matches!(t.fx.notes[0], Note::PigPlaced { .. }));
}

#[test]
fn the_pig_needs_a_farmer_of_its_owner_in_the_field() {
    // Given the field south of D's road, held by nobody
    let mut t = traders(2, &[("B", 1)]);
    t.draw("B").unwrap();
    t.place(0, -1, 0).unwrap();
    // Then no pig may go there
    assert!(specials(&t, Special::Pig).is_empty());
    let err = t.special(true, "field Nw").unwrap_err();
    assert!(
        matches!(
            err,
            RuleViolation::FigureWithoutMeeple { figure: "pig", .. }
        ),
        "{err}"
    );
}

#[test]
fn the_pig_adds_one_point_per_completed_city_for_its_owner_winning_the_field() {
    // Given seat 0's farmer and pig in the field beside one completed city
    let (t, end) = pig_field(true);
    // When the game ends
    assert!(t.game.is_over());
    // Then the field scores 3 and the pig 1 more: 4 for the city
    let field = end
        .scores
        .iter()
        .find(|s| {
            s.kind == FeatureKind::Field
                && s.source == ScoreSource::Feature
                && !s.winners.is_empty()
        })
        .unwrap();
    assert_eq!((field.winners.clone(), field.points), (vec![0], 3));
    let pig = end
        .scores
        .iter()
        .find(|s| s.source == ScoreSource::Pig)
        .unwrap();
    assert_eq!((pig.winners.clone(), pig.points), (vec![0], 1));
    assert_eq!(pig.rule, rule::PIG_SCORE);
    assert!(pig.formula.contains("4 instead of 3"), "{}", pig.formula);
    // And the pig counted for no majority and went home
    assert_eq!(field.meeples, vec![(0, 1)]);
    assert!(end.returned.iter().any(|r| r.special == Some(Special::Pig)));
    assert_eq!(t.game.scores(), [4, 0]);
    // And without the pig the same field gives 3
    let (t, _) = pig_field(false);
    assert_eq!(t.game.scores(), [3, 0]);
}

/// The rulebook's example (there with three players and two pigs): players tied on a field
/// each score it; the one with his pig there scores 4 per completed city, the other 3.
#[test]
fn tied_farmers_with_a_pig_score_four_per_city_and_without_three() {
    // Given seat 0's farmer north of the city closed by E at (0,1), seat 1's farmer north of
    // D's road (U at (1,0)), both fields joined by B at (1,1), where seat 0 puts his pig
    let mut t = traders(2, &[("E", 1), ("U", 1), ("B", 2)]);
    t.turn("E", 0, 1, 180, Some("field Nw"));
    t.turn("U", 1, 0, 90, Some("field Nw"));
    special_turn(&mut t, "B", 1, 1, 0, true, "field Nw");
    // When the game ends
    let end = t.turn("B", 0, -1, 0, None);
    assert!(t.game.is_over());
    // Then both tie on the field of one completed city: 3 each, and 1 more for the pig
    let field = end
        .scores
        .iter()
        .find(|s| {
            s.kind == FeatureKind::Field
                && !s.winners.is_empty()
                && s.source == ScoreSource::Feature
        })
        .unwrap();
    assert_eq!((field.winners.clone(), field.points), (vec![0, 1], 3));
    let pig = end
        .scores
        .iter()
        .find(|s| s.source == ScoreSource::Pig)
        .unwrap();
    assert_eq!((pig.winners.clone(), pig.points), (vec![0], 1));
    assert_eq!(t.game.scores(), [4, 3]);
}

#[test]
fn a_pig_whose_owner_loses_the_field_adds_nothing() {
    // Given seat 0's large meeple (Inns & Cathedrals: two meeples) as a farmer north of the
    // city closed by E at (0,1), and seat 1's farmer north of D's road (U at (1,0)), both
    // fields joined by B at (1,1), where seat 1 puts his pig
    let options = Options {
        inns_cathedrals: true,
        ..Options::default()
    };
    let mut t = traders_table(2, &[("E", 1), ("U", 1), ("B", 3)], options);
    t.draw("E").unwrap();
    t.place(0, 1, 180).unwrap();
    t.large("field Nw").unwrap();
    t.turn("U", 1, 0, 90, Some("field Nw"));
    t.turn("B", 0, -1, 0, None);
    special_turn(&mut t, "B", 1, 1, 0, true, "field Nw");
    // When the game ends
    let end = t.turn("B", -1, -1, 0, None);
    assert!(t.game.is_over());
    // Then seat 0 wins the field (2 against 1: the pig counts for nothing) and seat 1's pig
    // adds nothing [I: the pig adds to a score its owner gets]
    assert!(!end.scores.iter().any(|s| s.source == ScoreSource::Pig));
    assert_eq!(t.game.scores(), [3, 0]);
    assert!(end
        .returned
        .iter()
        .any(|r| r.special == Some(Special::Pig) && r.player == 1));
}

#[test]
fn cash_out_of_the_last_meeple_sends_the_builder_home() {
    // Given The Gifts; seat 0's meeple on D's road (U at (1,0)) and his builder on it (U at
    // (2,0)); seat 0 holds Cash Out
    let options = Options {
        gifts: true,
        ..Options::default()
    };
    let mut t = traders_table(2, &[("U", 5), ("G", 2), ("B", 1)], options);
    t.turn("U", 1, 0, 90, Some("road E"));
    t.turn("G", 0, 1, 90, Some("city N"));
    t.draw("G").unwrap();
    t.place(0, 2, 90).unwrap();
    let cash_out = Action::ReceiveGift {
        card: GiftCard::CashOut,
    };
    t.game.apply(&cash_out, &mut t.fx).unwrap();
    t.meeple(None).unwrap();
    t.draw("U").unwrap();
    t.place(-1, 0, 90).unwrap();
    let synod = Action::ReceiveGift {
        card: GiftCard::Synod,
    };
    t.game.apply(&synod, &mut t.fx).unwrap();
    t.meeple(None).unwrap();
    special_turn(&mut t, "U", 2, 0, 90, false, "road E");
    t.turn("B", 0, -1, 0, None);
    // When seat 0 cashes out his one meeple on the road
    t.draw("U").unwrap();
    let label: SegmentLabel = "road E".parse().unwrap();
    let segment = t
        .game
        .resolve_gift_segment(GiftCard::CashOut, Pos::new(1, 0), &label)
        .unwrap();
    let open = Action::OpenGift {
        gift: GiftAction::CashOut {
            at: Pos::new(1, 0),
            segment,
        },
    };
    t.game.apply(&open, &mut t.fx).unwrap();
    // Then the builder, left without a meeple of his on the road, goes home too [I]; Cash Out
    // counted the meeple alone (the builder is no meeple): 2
    assert_eq!(t.fx.scores.last().unwrap().points, 2);
    assert!(t
        .fx
        .returned
        .iter()
        .any(|r| r.special == Some(Special::Builder) && r.player == 0));
    assert!(t.game.special_in_supply(0, Special::Builder));
}
