//! One test per rule and interpretation of Inns & Cathedrals (`docs/rules.md`, Inns &
//! Cathedrals), given/when/then on small hand-built boards, and the rulebook's rulings
//! (Wikicarpedia, Inns and Cathedrals: the inn counts only for the road beside it; a
//! cathedral may be added to another player's city and strips it of its points if it stays
//! incomplete).
//!
//! Every position starts from the base start tile D at (0,0), rotation 0: a city on the north
//! side, a road west–east. Tiles (rotation clockwise, north is y+1): IC1 the cathedral (city on
//! all four sides); IC2 a straight road W–E with an inn; IC4 a junction of roads E (with the
//! inn), S and W; IC11 a city N–S with a coat of arms and two road ends; base E a city on N only, L a city on N
//! and a junction of roads E, S and W, U a straight road N–S (W–E at 90°).

mod common;

use carc_rules::tileset::SegmentDef;
use carc_rules::*;
use common::*;

fn inns(bag: &[(&str, u16)]) -> Table {
    inns_table(2, bag, Options::default())
}

fn spots(t: &Table, large: bool) -> Vec<MeepleSpot> {
    let mut out = Vec::new();
    if large {
        t.game.legal_large_meeples(&mut out);
    } else {
        t.game.legal_meeples(&mut out);
    }
    out
}

// ---- Contents and setup ----------------------------------------------------------------------

#[test]
fn inns_cathedrals_set_has_eighteen_tiles_six_inns_and_two_cathedrals() {
    // Given the built-in Inns & Cathedrals set
    let set = TileSet::inns_cathedrals();
    // Then it holds 18 tiles of 17 kinds
    assert_eq!(set.name, "inns_cathedrals");
    assert_eq!(set.len(), 17);
    assert_eq!(set.tiles().iter().map(|t| t.count).sum::<u16>(), 18);
    // And six tiles carry one inn each, on a road; two carry a cathedral, in a city
    let copies_with = |f: &dyn Fn(&SegmentDef) -> bool| -> u16 {
        set.tiles()
            .iter()
            .filter(|t| t.segments.iter().any(f))
            .map(|t| t.count)
            .sum()
    };
    assert_eq!(copies_with(&|s| s.inn), 6);
    assert_eq!(copies_with(&|s| s.cathedral), 2);
    for t in set.tiles() {
        for s in &t.segments {
            assert!(
                !s.inn || s.kind == FeatureKind::Road,
                "{}: inn off a road",
                t.id
            );
            assert!(
                !s.cathedral || s.kind == FeatureKind::City,
                "{}: cathedral off a city",
                t.id
            );
        }
        assert!(t.segments.iter().filter(|s| s.inn).count() <= 1, "{}", t.id);
        // No tile of the expansion is a start tile
        assert_eq!(t.start, 0, "{}", t.id);
    }
}

/// id, edges N E S W, cities, roads, monastery, fields, inn, cathedral.
type Described = (
    &'static str,
    &'static str,
    usize,
    usize,
    bool,
    usize,
    bool,
    bool,
);

#[test]
fn each_inns_cathedrals_tile_has_the_features_of_its_description() {
    // Given the set's tiles, each described by its edges, and how many cities, roads,
    // monasteries and fields it has, and which of them carry an inn or a cathedral
    let set = TileSet::inns_cathedrals();
    let want: [Described; 17] = [
        // id, edges N E S W, cities, roads, monastery, fields, inn, cathedral
        ("IC1", "CCCC", 1, 0, false, 0, false, true),
        ("IC2", "FRFR", 0, 1, false, 2, true, false),
        ("IC3", "FFRR", 0, 1, false, 2, true, false),
        ("IC4", "FRRR", 0, 3, false, 3, true, false),
        ("IC5", "CCFR", 1, 1, false, 2, true, false),
        ("IC6", "CFRR", 1, 1, false, 2, true, false),
        ("IC7", "CCRR", 1, 1, false, 2, true, false),
        ("IC8", "FRFR", 0, 2, true, 2, false, false),
        // IC9: each city's field is split in two by the road ends (as JCloisterZone has it)
        ("IC9", "CRCR", 2, 2, false, 4, false, false),
        ("IC10", "CCFC", 3, 0, false, 1, false, false),
        ("IC11", "CRCR", 1, 2, false, 4, false, false),
        ("IC12", "CCRF", 1, 1, false, 2, false, false),
        ("IC13", "CCCF", 2, 0, false, 1, false, false),
        ("IC14", "CFFF", 1, 0, false, 2, false, false),
        ("IC15", "CFRF", 1, 1, false, 2, false, false),
        ("IC16", "RRRR", 0, 2, false, 3, false, false),
        ("IC17", "CCCC", 4, 0, false, 0, false, false),
    ];
    for (id, edges, cities, roads, monastery, fields, inn, cathedral) in want {
        let t = set.get(set.find(id).unwrap_or_else(|| panic!("{id} missing")));
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
        assert_eq!(t.segments.iter().any(|s| s.inn), inn, "{id} inn");
        assert_eq!(
            t.segments.iter().any(|s| s.cathedral),
            cathedral,
            "{id} cathedral"
        );
    }
    // And the coats of arms are on IC7's corner city, IC11's city and IC13's corner city only
    let with_arms: Vec<&str> = set
        .tiles()
        .iter()
        .filter(|t| t.segments.iter().any(|s| s.coats_of_arms > 0))
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(with_arms, ["IC7", "IC11", "IC13"]);
}

#[test]
fn tiles_with_inns_or_cathedrals_need_the_option() {
    // Given base + Inns & Cathedrals tiles without the option
    let tiles = TileSet::combine(&[TileSet::base(), TileSet::inns_cathedrals()]).unwrap();
    // When the game is set up / Then it is refused, naming the rule
    let err = refused_setup(Options::default(), tiles, None);
    assert_eq!(err.rule(), rule::INNS_OPTION);
    assert!(err.to_string().contains("inns_cathedrals"), "{err}");
}

#[test]
fn inns_cathedrals_does_not_combine_with_a_map() {
    // Given the option on a map board [I]
    let map = MapBoard::builtin_shared("germany").expect("built-in map");
    // Then the setup is refused
    let err = refused_setup(
        Options {
            inns_cathedrals: true,
            ..Options::default()
        },
        TileSet::base(),
        Some(map),
    );
    assert!(err.to_string().contains("map"), "{err}");
}

#[test]
fn six_players_each_have_a_large_meeple() {
    // Given a six-player game with the expansion
    let t = inns_table(6, &[("U", 1)], Options::default());
    // Then every seat has its large meeple in supply beside its seven meeples
    for seat in 0..6 {
        assert!(t.game.large_meeple_in_supply(seat));
        assert_eq!(t.game.supply()[seat as usize], 7);
    }
    // And without the expansion nobody has one
    let base = table(2, &[("U", 1)]);
    assert!(!base.game.large_meeple_in_supply(0));
}

// ---- Inns ------------------------------------------------------------------------------------

/// D's road, extended east by IC2 (inn) at (1,0), with seat 0's meeple on it.
fn inn_road() -> Table {
    let mut t = inns(&[("IC2", 1), ("L", 2), ("U", 1)]);
    t.turn("IC2", 1, 0, 0, Some("road E"));
    t
}

#[test]
fn a_completed_road_with_an_inn_scores_two_per_tile() {
    // Given D's road with IC2's inn, seat 0's meeple on it
    let mut t = inn_road();
    // When junctions close both ends (L at (2,0) and at (-1,0))
    t.turn("L", 2, 0, 0, None);
    let fx = t.turn("L", -1, 0, 0, None);
    // Then the road of 4 tiles scores 2 each: 8 for seat 0
    let road = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road)
        .expect("the road scores");
    assert_eq!(road.points, 8);
    assert_eq!(road.rule, rule::INN_COMPLETED);
    assert_eq!(road.formula, "road with an inn: 2 × 4 tiles = 8");
    assert_eq!(road.winners, [0]);
    assert_eq!(t.scores(), [8, 0]);
}

#[test]
fn an_incomplete_road_with_an_inn_scores_nothing_at_the_end() {
    // Given D's road with IC2's inn, seat 0's meeple on it, and one last tile elsewhere
    let mut t = inns(&[("IC2", 1), ("E", 1)]);
    t.turn("IC2", 1, 0, 0, Some("road E"));
    // When the last tile is placed and the final scoring runs
    let fx = t.turn("E", 0, 1, 180, None);
    // Then the road scores 0, named by its rule, and the meeple goes home
    let road = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road)
        .expect("the road is scored");
    assert_eq!(road.points, 0);
    assert_eq!(road.rule, rule::INN_FINAL);
    assert!(
        road.formula.contains("incomplete at the end: 0"),
        "{}",
        road.formula
    );
    assert_eq!(t.scores(), [0, 0]);
    assert!(t.game.is_over());
}

#[test]
fn an_inn_counts_only_for_the_road_beside_it() {
    // Given IC4 (roads E with the inn, S and W) east of D, seat 0's meeple on its west road,
    // which continues D's road
    let mut t = inns(&[("IC4", 1), ("L", 1), ("U", 1)]);
    t.turn("IC4", 1, 0, 0, Some("road W"));
    // When L closes the other end at (-1,0)
    let fx = t.turn("L", -1, 0, 0, None);
    // Then the road of 3 tiles scores 1 each: the inn lies beside another road of IC4
    let road = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road)
        .expect("the road scores");
    assert_eq!(road.points, 3);
    assert_eq!(road.rule, rule::SCORE_ROAD_COMPLETED);
}

#[test]
fn a_road_with_an_inn_scores_the_same_in_the_quiet_path() {
    // Given the completed inn road of the test above, played with quiet effects (the
    // simulator's path)
    let mut t = inn_road();
    t.fx = Effects::quiet();
    t.turn("L", 2, 0, 0, None);
    t.turn("L", -1, 0, 0, None);
    // Then the points are the same
    assert_eq!(t.scores(), [8, 0]);
}

// ---- Cathedrals ------------------------------------------------------------------------------

/// IC1 (cathedral) north of D, joining D's city, with `meeple` on it (or none).
fn cathedral_city(meeple: Option<&str>) -> Table {
    let mut t = inns(&[("IC1", 1), ("E", 3), ("IC11", 1), ("U", 1)]);
    t.turn("IC1", 0, 1, 0, meeple);
    t
}

/// Closes the cathedral city: caps east and west, IC11 north (a city N–S with a coat of arms,
/// its road ends free), then a cap north of it.
fn close_cathedral_city(t: &mut Table) -> Effects {
    t.turn("E", 1, 1, 270, None);
    t.turn("E", -1, 1, 90, None);
    t.turn("IC11", 0, 2, 0, None);
    t.turn("E", 0, 3, 180, None)
}

#[test]
fn a_completed_city_with_a_cathedral_scores_three_per_tile_and_coat_of_arms() {
    // Given D's city joined by the cathedral IC1, seat 0's meeple on it
    let mut t = cathedral_city(Some("city N"));
    // When caps and IC11 (with a coat of arms) close it
    let fx = close_cathedral_city(&mut t);
    // Then 6 tiles and 1 coat of arms score 3 each: 21
    let city = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City)
        .expect("the city scores");
    assert_eq!(city.points, 21);
    assert_eq!(city.rule, rule::CATHEDRAL_COMPLETED);
    assert_eq!(
        city.formula,
        "city with a cathedral: 3 × 6 tiles + 3 × 1 coat of arms = 21"
    );
    assert_eq!(t.scores(), [21, 0]);
}

#[test]
fn an_empty_finished_cathedral_city_scores_for_nobody() {
    // Given the cathedral city with no figure on it
    let mut t = cathedral_city(None);
    // When it is closed
    let fx = close_cathedral_city(&mut t);
    // Then its score is reported, worth 21, and nobody gets it
    let city = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City)
        .expect("the city is reported");
    assert!(city.winners.is_empty());
    assert!(city.to_string().contains("nobody scores"), "{city}");
    assert_eq!(t.scores(), [0, 0]);
}

#[test]
fn a_cathedral_added_to_an_opponents_city_strips_it_at_the_end() {
    // Given seat 0's meeple on D's city, extended north by G (a city N–S at 90°)
    let mut t = inns(&[("G", 1), ("IC1", 1)]);
    t.turn("G", 0, 1, 90, Some("city N"));
    // When seat 1 adds the cathedral to it (the rulebook allows it) and the game ends with
    // the city open
    let fx = t.turn("IC1", 0, 2, 0, None);
    // Then the incomplete cathedral city scores 0 for seat 0 (3 tiles: 3 without it)
    let city = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City)
        .expect("the city is scored at the end");
    assert_eq!(city.points, 0);
    assert_eq!(city.rule, rule::CATHEDRAL_FINAL);
    assert_eq!(city.winners, [0]);
    assert_eq!(t.scores(), [0, 0]);
}

#[test]
fn an_incomplete_city_without_a_cathedral_still_scores_at_the_end() {
    // Given the expansion on and D's city, extended by G, without a cathedral; seat 0 on it
    let mut t = inns(&[("G", 1)]);
    let fx = t.turn("G", 0, 1, 90, Some("city N"));
    // Then the final scoring is the base game's: 1 per tile
    let city = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City)
        .expect("scored");
    assert_eq!(city.rule, rule::SCORE_CITY_FINAL);
    assert_eq!(city.points, 2);
}

// ---- The large meeple ------------------------------------------------------------------------

#[test]
fn the_large_meeple_goes_where_a_meeple_may_go_fields_included() {
    // Given IC2 just placed east of D
    let mut t = inns(&[("IC2", 1), ("U", 1)]);
    t.draw("IC2").unwrap();
    t.place(1, 0, 0).unwrap();
    // Then the large meeple's targets are the meeple's: the road and both fields
    let (meeple, large) = (spots(&t, false), spots(&t, true));
    assert_eq!(large, meeple);
    assert_eq!(large.len(), 3);
    // When it goes on a field
    t.large("field Nw").unwrap();
    // Then it stands there, out of the supply; the seven meeples stay in the supply
    assert!(!t.game.large_meeple_in_supply(0));
    assert_eq!(
        t.game.large_meeple_of(0).map(|(at, _)| at),
        Some(Pos::new(1, 0))
    );
    assert_eq!(t.game.supply(), [7, 7]);
    assert!(t
        .fx
        .notes
        .iter()
        .any(|n| n.rule() == rule::LARGE_MEEPLE_PLACE));
}

#[test]
fn the_large_meeple_counts_as_two_meeples_for_the_majority() {
    // Given seat 0's large meeple on the curve V below D (roads S and W), and seat 1's
    // meeple on the curve V west of D (roads E and S at 270°), which continues D's road
    let mut t = inns(&[("V", 3), ("L", 2), ("E", 1)]);
    t.draw("V").unwrap();
    t.place(0, -1, 0).unwrap();
    t.large("road S").unwrap();
    t.turn("V", -1, 0, 270, Some("road E"));
    // When seat 0 joins the two roads with a curve at (-1,-1), and junctions close both ends
    t.turn("V", -1, -1, 180, None);
    t.turn("L", 1, 0, 0, None);
    let fx = t.turn("L", 0, -2, 180, None);
    // Then the large meeple (2) outweighs the meeple (1): seat 0 alone scores the 6 tiles
    let road = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road && s.time == ScoreTime::Completed)
        .expect("the road scores");
    assert_eq!(road.meeples, [(0, 2), (1, 1)]);
    assert_eq!(road.winners, [0]);
    assert_eq!(road.points, 6);
    // And the large meeple is back in seat 0's supply, the meeple in seat 1's
    assert!(t.game.large_meeple_in_supply(0));
    assert_eq!(t.game.supply(), [7, 7]);
}

#[test]
fn there_is_one_large_meeple_per_player() {
    // Given seat 0's large meeple on a field, and seat 0's next turn
    let mut t = inns(&[("U", 2), ("V", 1), ("E", 1)]);
    t.draw("U").unwrap();
    t.place(1, 0, 90).unwrap();
    t.large("field Nw").unwrap();
    t.turn("V", 0, -1, 0, None);
    t.draw("U").unwrap();
    t.place(2, 0, 90).unwrap();
    // Then it has no large meeple to place: none offered, and the action is refused
    assert!(spots(&t, true).is_empty());
    let err = t.large("road E").unwrap_err();
    assert_eq!(err.rule(), rule::LARGE_MEEPLE_PLACE);
    assert!(err.to_string().contains("not in their supply"), "{err}");
}

#[test]
fn the_large_meeple_needs_no_meeple_in_supply_and_the_expansion() {
    // Given one meeple each, seat 0's already on the board
    let options = Options {
        meeples: 1,
        ..Options::default()
    };
    let mut t = inns_table(2, &[("U", 2), ("E", 1)], options);
    t.turn("U", 1, 0, 90, Some("road E"));
    t.turn("E", 0, 1, 180, None);
    t.draw("U").unwrap();
    t.place(-1, 0, 90).unwrap();
    // Then the meeple is not offered, the large meeple is
    assert!(spots(&t, false).is_empty());
    assert!(!spots(&t, true).is_empty());
    t.large("field Nw").unwrap();
    // And without the expansion there is no large meeple
    let mut base = table(2, &[("U", 1)]);
    base.draw("U").unwrap();
    base.place(1, 0, 90).unwrap();
    assert!(spots(&base, true).is_empty());
    let err = base.large("field Nw").unwrap_err();
    assert_eq!(err.rule(), rule::INNS_OPTION);
}

#[test]
fn the_large_meeple_may_not_join_an_occupied_feature() {
    // Given seat 0's meeple on D's road through IC2
    let mut t = inn_road();
    // When seat 1 places L to the west and tries its large meeple on the same road
    t.draw("L").unwrap();
    t.place(-1, 0, 0).unwrap();
    let err = t.large("road E").unwrap_err();
    // Then it is refused as for any meeple
    assert_eq!(err.rule(), rule::MEEPLE_OCCUPIED);
}

#[test]
fn the_large_meeple_as_a_farmer_counts_two_at_the_end() {
    // Given seat 0's large meeple on the field north of a straight road east of D (the field
    // along D's city)
    let mut t = inns(&[("U", 2), ("E", 1)]);
    t.draw("U").unwrap();
    t.place(1, 0, 90).unwrap();
    t.large("field Nw").unwrap();
    t.turn("U", -1, 0, 90, None);
    // When the last tile closes D's city (an E cap at (0,1)) and the game ends
    let fx = t.turn("E", 0, 1, 180, None);
    // Then the large meeple's field supplies the completed city: 3 for seat 0, who holds it
    // with a strength of two
    let field = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Field && s.winners == [0])
        .expect("seat 0's field scores");
    assert_eq!(field.points, 3);
    assert_eq!(field.meeples, [(0, 2)]);
    assert!(t.game.large_meeple_in_supply(0));
}

// ---- With The Gifts [I] ----------------------------------------------------------------------

#[test]
fn cash_out_takes_the_large_meeple_back_to_its_place_and_counts_it_as_two() {
    // Given The Gifts and Inns & Cathedrals; seat 0's large meeple on D's road (through U at
    // (1,0)), seat 1's meeple on D's city (through G at (0,1))
    let options = Options {
        gifts: true,
        ..Options::default()
    };
    let mut t = inns_table(2, &[("U", 3), ("G", 2)], options);
    t.draw("U").unwrap();
    t.place(1, 0, 90).unwrap();
    t.large("road E").unwrap();
    t.turn("G", 0, 1, 90, Some("city N"));
    // seat 0 extends seat 1's city and receives Cash Out
    t.draw("G").unwrap();
    t.place(0, 2, 90).unwrap();
    assert!(matches!(t.game.phase(), Phase::ReceiveGift { .. }));
    t.game
        .apply(
            &Action::ReceiveGift {
                card: GiftCard::CashOut,
            },
            &mut t.fx,
        )
        .unwrap();
    t.meeple(None).unwrap();
    // seat 1 extends seat 0's road, and receives a gift too
    t.draw("U").unwrap();
    t.place(-1, 0, 90).unwrap();
    t.game
        .apply(
            &Action::ReceiveGift {
                card: GiftCard::Synod,
            },
            &mut t.fx,
        )
        .unwrap();
    t.meeple(None).unwrap();
    // When seat 0 opens Cash Out on its large meeple's road
    t.draw("U").unwrap();
    let label: SegmentLabel = "road E".parse().unwrap();
    let segment = t
        .game
        .resolve_gift_segment(GiftCard::CashOut, Pos::new(1, 0), &label)
        .unwrap();
    t.game
        .apply(
            &Action::OpenGift {
                gift: GiftAction::CashOut {
                    at: Pos::new(1, 0),
                    segment,
                },
            },
            &mut t.fx,
        )
        .unwrap();
    // Then it scores 2 per meeple, the large meeple counting two: 4 [I]
    let cash = t.fx.scores.last().expect("Cash Out scores");
    assert_eq!(cash.points, 4);
    // And the large meeple is back in its place in the supply; the meeples are all there
    assert!(t.game.large_meeple_in_supply(0));
    assert_eq!(t.game.supply()[0], 7);
    assert_eq!(t.game.large_meeple_of(0), None);
}

// ---- The tile-set file -----------------------------------------------------------------------

#[test]
fn a_wrong_road_in_a_tile_set_file_is_refused_in_words() {
    let file = |road: &str| {
        format!(
            r#"{{"format":"carcassonne-tiles","version":1,"name":"x","tiles":[{{"id":"A","count":1,"edges":["F","R","F","R"],"roads":[{road}],"fields":[{{"ports":["Nw","Ne","En","Wn"]}},{{"ports":["Es","Se","Sw","Ws"]}}]}}]}}"#
        )
    };
    // Given roads written both ways, they read the same but for the inn
    let plain = TileSet::from_json(&file(r#"["E","W"]"#)).unwrap();
    let inn = TileSet::from_json(&file(r#"{"sides":["E","W"],"inn":true}"#)).unwrap();
    assert!(!plain.tiles()[0].segments.iter().any(|s| s.inn));
    assert!(inn.tiles()[0].segments.iter().any(|s| s.inn));
    // And wrong ones are refused, saying what a road is
    for (road, says) in [
        (
            r#"{"sides":["E","W"],"inn":"yes"}"#,
            r#"a road's "inn" is true or false, not "yes""#,
        ),
        (
            r#"{"sides":["E","W"],"hotel":true}"#,
            r#"unknown road field "hotel""#,
        ),
        (r#""EW""#, "a road is a list of sides"),
    ] {
        let err = TileSet::from_json(&file(road)).unwrap_err().to_string();
        assert!(err.contains(says), "{road}: {err}");
        assert!(err.contains("tile A"), "{road}: {err}");
    }
}
