//! One test per rule and worked ruling of `shared/rules/base.md`, given/when/then.
//!
//! Every position starts from the start tile D at (0,0), rotation 0: city on its north side,
//! a road running west–east, field to the south. Bags hold only the tiles a test needs, so
//! games end (and final scoring runs) when the test says.

mod common;

use carc_rules::*;
use common::*;

// ---- Turn, step 1: the tile ---------------------------------------------------------------

#[test]
fn a_tile_must_touch_a_placed_tile_along_a_full_edge_corners_do_not_count() {
    // Given the start tile alone
    let mut t = table(2, &[("B", 1)]);
    t.draw("B").unwrap();
    // When B is put diagonally to it
    let err = t.place(1, -1, 0).unwrap_err();
    // Then it is refused under the adjacency rule, and nothing changed
    assert_eq!(err.rule(), "base.tile.adjacent");
    assert_eq!(
        err.to_string(),
        "square (1,-1) touches no placed tile along a full edge"
    );
    assert_eq!(t.game.phase(), Phase::Place { tile: t.id("B") });
    assert_eq!(t.game.placed().len(), 1);
}

#[test]
fn every_touching_edge_must_match_and_the_error_names_both_sides() {
    // Given the start tile (city on its north side)
    let mut t = table(2, &[("E", 1)]);
    t.draw("E").unwrap();
    // When E (city north, fields elsewhere) goes north of it unrotated: field faces city
    let err = t.place(0, 1, 0).unwrap_err();
    // Then
    assert_eq!(err.rule(), "base.tile.edges-match");
    assert_eq!(
        err.to_string(),
        "tile E at (0,1) rotated 0°: its S side is field, but the neighbour at (0,0) shows city on its N side"
    );
    // And turned 180° it fits (city meets city)
    t.place(0, 1, 180).unwrap();
}

#[test]
fn a_square_can_hold_one_tile() {
    let mut t = table(2, &[("B", 1)]);
    t.draw("B").unwrap();
    let err = t.place(0, 0, 0).unwrap_err();
    assert_eq!(err.rule(), "base.tile.empty-square");
    assert_eq!(err.to_string(), "square (0,0) already holds tile D");
}

#[test]
fn a_tile_that_fits_nowhere_is_set_aside_for_good_and_a_new_one_is_drawn() {
    // Given a closed city tile C as start: every open side demands a city
    let setup = Setup {
        bag: Some(
            [
                ("C".to_string(), 1),
                ("B".to_string(), 2),
                ("E".to_string(), 1),
            ]
            .into(),
        ),
        ..Setup::base(2)
    };
    let mut game = Game::new(setup).unwrap();
    let mut fx = Effects::default();
    let id = |g: &Game, s: &str| g.tiles().find(s).unwrap();
    let c = id(&game, "C");
    game.apply(
        &Action::PlaceStart {
            tile: c,
            at: Pos::new(0, 0),
            rotation: rot(0),
        },
        &mut fx,
    )
    .unwrap();
    // When seat 0 draws B (all field), which fits nowhere
    let b = id(&game, "B");
    game.apply(&Action::Draw { tile: b }, &mut fx).unwrap();
    let mut buf = Vec::new();
    game.legal_placements(b, &mut buf);
    assert!(buf.is_empty());
    game.apply(&Action::SetAside, &mut fx).unwrap();
    // Then it is removed from the game (not shuffled back) and the same seat draws again
    assert_eq!(fx.notes, vec![Note::FitsNowhere]);
    assert_eq!(game.set_aside(), &[b]);
    assert_eq!(game.bag_count(b), 1);
    assert_eq!(game.current_player(), 0);
    assert_eq!(game.phase(), Phase::Draw);
    // And a tile that fits cannot be set aside: the error shows where it fits
    let e = id(&game, "E");
    game.apply(&Action::Draw { tile: e }, &mut fx).unwrap();
    let err = game.apply(&Action::SetAside, &mut fx).unwrap_err();
    assert_eq!(err.rule(), "base.tile.set-aside");
    assert!(
        err.to_string()
            .starts_with("tile E cannot be set aside: it fits at"),
        "{err}"
    );
}

#[test]
fn a_tile_cannot_be_drawn_more_often_than_the_game_holds_it() {
    let mut t = table(2, &[("B", 1)]);
    t.turn("B", 0, -1, 0, None);
    // The bag is empty now, so the game is over; check the bag rule on a fresh game instead.
    let mut t = table(2, &[("B", 1), ("E", 1)]);
    t.turn("B", 0, -1, 0, None);
    let err = t.draw("B").unwrap_err();
    assert_eq!(err.rule(), "base.draw.bag");
    assert_eq!(
        err.to_string(),
        "tile B cannot be drawn: all 1 copy in the game are already out of the bag"
    );
}

#[test]
fn turns_pass_in_seat_order_and_actions_must_come_in_turn_order() {
    let mut t = table(3, &[("B", 1), ("E", 2)]);
    assert_eq!(t.game.current_player(), 0);
    assert_eq!(
        t.game.turn(),
        1,
        "the start tile is turn 0; seat 0's first turn is turn 1"
    );
    assert_eq!(
        t.game.check_player(1).unwrap_err().rule(),
        "base.turn.order"
    );
    let err = t.place(0, -1, 0).unwrap_err();
    assert_eq!(err.rule(), "base.turn.phase");
    t.turn("B", 0, -1, 0, None);
    assert_eq!(t.game.current_player(), 1);
    assert_eq!(t.game.turn(), 2);
    t.turn("E", 0, 1, 180, None);
    assert_eq!(t.game.current_player(), 2);
}

// ---- Turn, step 2: the meeple -------------------------------------------------------------

#[test]
fn ruling_1_occupancy_covers_the_whole_connected_feature_own_meeples_included() {
    // Given seat 0's meeple on the road west of the start tile
    let mut t = table(2, &[("U", 2), ("B", 1)]);
    t.turn("U", -1, 0, 90, Some("road E"));
    t.turn("B", 0, -1, 0, None);
    // When seat 0 extends the same road to the east and tries to claim it again
    t.draw("U").unwrap();
    t.place(1, 0, 90).unwrap();
    let err = t.meeple(Some("road W")).unwrap_err();
    // Then it is refused, naming the meeple that holds the road
    assert_eq!(err.rule(), "base.meeple.occupied");
    assert_eq!(
        err.to_string(),
        "the road joined to road E at (1,0) is already occupied by seat 0's meeple on road E at (-1,0)"
    );
    // And the fields of the same tile are still free
    let mut spots = Vec::new();
    t.game.legal_meeples(&mut spots);
    let labels: Vec<String> = spots.iter().map(|s| s.label.code()).collect();
    assert_eq!(labels, vec!["field Nw", "field Es"]);
}

#[test]
fn ruling_2_a_separate_segment_of_the_same_kind_can_be_claimed() {
    // Given seat 0 holds the start tile's road
    let mut t = table(2, &[("U", 1), ("L", 1), ("B", 1)]);
    t.turn("U", -1, 0, 90, Some("road E"));
    // When seat 1 places L (a junction: three separate road stubs) east of the start tile
    t.draw("L").unwrap();
    t.place(1, 0, 0).unwrap();
    // Then the stub joined to seat 0's road is taken, but the east stub is free
    assert_eq!(
        t.meeple(Some("road W")).unwrap_err().rule(),
        "base.meeple.occupied"
    );
    t.meeple(Some("road E")).unwrap();
    assert_eq!(t.game.supply(), &[6, 6]);
}

#[test]
fn a_tile_may_join_occupied_features_which_become_shared() {
    // Given seat 0 on the field north of the road and seat 1 on the field south of it
    let mut t = table(2, &[("U", 1), ("B", 1), ("A", 1), ("E", 1)]);
    t.turn("B", 0, -1, 0, Some("field Nw")); // seat 0: south field (B + D south)
    t.turn("U", 1, 0, 90, Some("field Nw")); // seat 1: north field (U north + D north)
                                             // When A (a monastery where the road ends; its field wraps around) caps the road
    let fx = t.turn("A", 2, 0, 90, None);
    // Then the two occupied fields are one field, shared
    assert!(
        fx.notes.contains(&Note::Joined {
            kind: FeatureKind::Field,
            count: 2,
            occupied: 2
        }),
        "{:?}",
        fx.notes
    );
}

#[test]
fn seven_meeples_per_player_and_none_when_the_supply_is_empty() {
    let t = table(2, &[("B", 1)]);
    assert_eq!(t.game.supply(), &[7, 7]);
    let mut t = table_with(
        2,
        &[("U", 3)],
        Options {
            meeples: 1,
            ..Options::default()
        },
    );
    t.turn("U", -1, 0, 90, Some("road E"));
    t.turn("U", 1, 0, 90, None);
    t.draw("U").unwrap();
    t.place(-2, 0, 90).unwrap();
    let mut spots = Vec::new();
    t.game.legal_meeples(&mut spots);
    assert!(spots.is_empty());
    let err = t.meeple(Some("field Nw")).unwrap_err();
    assert_eq!(err.rule(), "base.meeple.supply");
    assert_eq!(err.to_string(), "seat 0 has no meeple left in supply");
}

#[test]
fn with_farmers_off_fields_take_no_meeple_and_are_not_scored() {
    let mut t = table_with(
        2,
        &[("B", 1), ("E", 1)],
        Options {
            farmers: false,
            ..Options::default()
        },
    );
    t.draw("B").unwrap();
    t.place(0, -1, 0).unwrap();
    let err = t.meeple(Some("field Nw")).unwrap_err();
    assert_eq!(err.rule(), "base.meeple.farmers-option");
    let mut spots = Vec::new();
    t.game.legal_meeples(&mut spots);
    assert_eq!(
        spots
            .iter()
            .map(|s| s.label.to_string())
            .collect::<Vec<_>>(),
        vec!["monastery"]
    );
}

#[test]
fn a_meeple_must_name_a_segment_the_tile_has() {
    let mut t = table(2, &[("B", 1)]);
    t.draw("B").unwrap();
    t.place(0, -1, 0).unwrap();
    let err = t.meeple(Some("road N")).unwrap_err();
    assert_eq!(err.rule(), "base.meeple.segment");
    assert_eq!(err.to_string(), "tile B at (0,-1) has no road N");
    let err = t
        .game
        .apply(&Action::PlaceMeeple { segment: 9 }, &mut t.fx)
        .unwrap_err();
    assert_eq!(err.rule(), "base.meeple.segment");
    assert_eq!(
        err.to_string(),
        "tile B at (0,-1) has no segment number 9 (it has 2)"
    );
}

// ---- Turn, step 3 and scoring during play ---------------------------------------------------

#[test]
fn a_completed_road_scores_one_per_tile_for_its_owner_whoever_completes_it() {
    // Given seat 0's meeple on a road that ends at L's junction east of the start tile
    let mut t = table(2, &[("L", 1), ("A", 1)]);
    t.turn("L", 1, 0, 0, Some("road W"));
    // When seat 1 closes the west end with A (the road ends at its monastery)
    let fx = t.turn("A", -1, 0, 270, None);
    // Then the road scores 3 (A, D, L) for seat 0 — ruling 4: for all players, not the placer
    let s = &fx.scores[0];
    assert_eq!(s.kind, FeatureKind::Road);
    assert_eq!(s.time, ScoreTime::Completed);
    assert_eq!(
        s.tiles,
        vec![Pos::new(-1, 0), Pos::new(0, 0), Pos::new(1, 0)]
    );
    assert_eq!(s.winners, vec![0]);
    assert_eq!(s.points, 3);
    assert_eq!(s.formula, "1 × 3 tiles = 3");
    assert_eq!(s.rule, "base.score.road.completed");
    // And the meeple went home
    assert_eq!(fx.returned.len(), 1);
    assert_eq!(t.scores(), vec![3, 0]);
}

#[test]
fn a_completed_city_scores_two_per_tile_and_two_per_coat_of_arms() {
    // Given seat 0's knight on a city of the start tile and M (with a coat of arms)
    let mut t = table(2, &[("M", 1), ("E", 1)]);
    t.turn("M", 0, 1, 180, Some("city S"));
    // When seat 1 closes it with E
    let fx = t.turn("E", -1, 1, 90, None);
    // Then: 3 tiles, 1 coat of arms → 8 for seat 0
    let s = &fx.scores[0];
    assert_eq!(s.kind, FeatureKind::City);
    assert_eq!(
        s.tiles,
        vec![Pos::new(-1, 1), Pos::new(0, 0), Pos::new(0, 1)]
    );
    assert_eq!(s.coats_of_arms, 1);
    assert_eq!(s.meeples, vec![(0, 1)]);
    assert_eq!(s.points, 8);
    assert_eq!(s.formula, "2 × 3 tiles + 2 × 1 coat of arms = 8");
    assert_eq!(t.scores(), vec![8, 0]);
}

#[test]
fn ruling_3_a_feature_the_tile_completes_may_be_claimed_and_scores_at_once() {
    // Given the start tile's one-sided city
    let mut t = table(2, &[("E", 1), ("B", 1)]);
    // When seat 0 closes it and puts a knight on it in the same turn
    let fx = t.turn("E", 0, 1, 180, Some("city S"));
    // Then the two-tile city scores 4 at once and the knight is back in supply
    assert_eq!(fx.scores.len(), 1);
    assert_eq!(fx.scores[0].points, 4);
    assert_eq!(
        fx.scores[0].formula,
        "2 × 2 tiles + 2 × 0 coats of arms = 4"
    );
    assert_eq!(fx.returned.len(), 1);
    assert_eq!(t.game.supply(), &[7, 7]);
    assert_eq!(t.scores(), vec![4, 0]);
}

#[test]
fn the_two_tile_city_option_scores_two() {
    let mut t = table_with(
        2,
        &[("E", 1), ("B", 1)],
        Options {
            two_tile_city: 2,
            ..Options::default()
        },
    );
    let fx = t.turn("E", 0, 1, 180, Some("city S"));
    assert_eq!(fx.scores[0].points, 2);
    assert_eq!(fx.scores[0].rule, "base.score.city.two-tile");
    assert_eq!(t.scores(), vec![2, 0]);
}

#[test]
fn a_completed_feature_without_meeples_is_reported_but_scores_for_nobody() {
    let mut t = table(2, &[("E", 1), ("B", 1)]);
    let fx = t.turn("E", 0, 1, 180, None);
    assert_eq!(fx.scores.len(), 1);
    assert!(fx.scores[0].winners.is_empty());
    assert_eq!(t.scores(), vec![0, 0]);
}

#[test]
fn tiles_count_once_per_feature_even_when_the_feature_crosses_a_tile_twice() {
    // Given a road leaving L's junction east and coming back into it from the south
    let mut t = table(2, &[("L", 1), ("V", 3)]);
    t.turn("L", 1, 0, 0, None);
    t.turn("V", 2, 0, 0, Some("road W"));
    t.turn("V", 2, -1, 90, None);
    // When the loop closes
    let fx = t.turn("V", 1, -1, 180, None);
    // Then L counts once: 4 tiles, not 5
    let s = &fx.scores[0];
    assert_eq!(s.tiles.len(), 4);
    assert_eq!(s.points, 4);
    assert_eq!(t.scores(), vec![0, 4]);
}

#[test]
fn ruling_5_a_monastery_needs_all_eight_neighbours_and_then_scores_nine() {
    // Given B with a monk south of the start tile
    let mut t = table(2, &[("B", 3), ("U", 2), ("E", 3)]);
    t.turn("B", 0, -1, 0, Some("monastery"));
    t.turn("U", 1, 0, 90, None);
    t.turn("U", -1, 0, 90, None);
    t.turn("B", -1, -1, 0, None);
    t.turn("B", 1, -1, 0, None);
    t.turn("E", -1, -2, 180, None);
    // When seven neighbours are there, it is not complete
    let fx = t.turn("E", 0, -2, 180, None);
    assert!(fx.scores.is_empty());
    // When the eighth arrives (diagonals count), it scores 9
    let fx = t.turn("E", 1, -2, 180, None);
    let s = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Monastery)
        .unwrap();
    assert_eq!(s.time, ScoreTime::Completed);
    assert_eq!(s.points, 9);
    assert_eq!(s.tiles.len(), 9);
    assert_eq!(s.rule, "base.score.monastery.completed");
    assert_eq!(t.scores()[0], 9);
}

// ---- End of game and final scoring ----------------------------------------------------------

#[test]
fn the_game_ends_after_the_turn_of_the_last_tile_and_then_takes_no_action() {
    let mut t = table(2, &[("B", 1)]);
    let fx = t.turn("B", 0, -1, 0, None);
    assert!(fx.notes.contains(&Note::BagEmpty));
    assert!(t.game.is_over());
    let err = t.draw("B").unwrap_err();
    assert_eq!(err.rule(), "base.game.end");
}

#[test]
fn final_scoring_incomplete_road_one_per_tile_incomplete_city_one_per_tile_and_coat_of_arms() {
    let mut t = table(2, &[("U", 1), ("M", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    let fx = t.turn("M", 0, 1, 180, Some("city S"));
    let city = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::City)
        .unwrap();
    assert_eq!(city.time, ScoreTime::Final);
    assert_eq!(city.points, 3);
    assert_eq!(city.formula, "1 × 2 tiles + 1 × 1 coat of arms = 3");
    assert_eq!(city.rule, "base.score.city.final");
    let road = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Road)
        .unwrap();
    assert_eq!(road.points, 2);
    assert_eq!(road.rule, "base.score.road.final");
    assert_eq!(t.scores(), vec![2, 3]);
}

#[test]
fn the_figures_sent_home_by_the_final_scoring_are_told_apart_from_the_last_moves() {
    // Given seat 0's meeple on an open road, and seat 1 about to close a city with the last tile
    let mut t = table(2, &[("U", 1), ("E", 1)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    // When seat 1's meeple completes the city and the game ends
    let fx = t.turn("E", 0, 1, 180, Some("city S"));
    // Then both meeples went home, but only the road's went home in the final scoring
    assert_eq!(fx.returned.len(), 2);
    let finals = t.fx.returned_at_final_scoring();
    assert_eq!(finals.len(), 1);
    assert_eq!((finals[0].player, finals[0].at), (0, Pos::new(1, 0)));
    assert_eq!(finals[0].label.kind, FeatureKind::Road);
    // And an action that does not end the game has none
    let mut t = table(2, &[("U", 2)]);
    t.turn("U", 1, 0, 90, Some("road W"));
    assert!(t.fx.returned_at_final_scoring().is_empty());
}

#[test]
fn final_scoring_incomplete_monastery_one_plus_neighbours() {
    let mut t = table(2, &[("B", 1), ("U", 2)]);
    t.turn("B", 0, -1, 0, Some("monastery"));
    t.turn("U", 1, 0, 90, None);
    let fx = t.turn("U", -1, 0, 90, None);
    let s = &fx.scores[0];
    assert_eq!(
        (s.kind, s.time, s.points),
        (FeatureKind::Monastery, ScoreTime::Final, 4)
    );
    assert_eq!(s.formula, "1 for the monastery + 3 surrounding tiles = 4");
}

#[test]
fn fields_score_three_per_completed_city_and_coats_of_arms_add_nothing() {
    // Given a farmer on the start tile's north field, touching its city
    let mut t = table(2, &[("U", 1), ("M", 1), ("E", 1)]);
    t.turn("U", 1, 0, 90, Some("field Nw"));
    // When the city (with a coat of arms) is completed
    t.turn("M", 0, 1, 180, None);
    let fx = t.turn("E", -1, 1, 90, None);
    // Then at the end the field scores 3 for that one city — not more for the coat of arms
    let field = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Field)
        .unwrap();
    assert_eq!(field.points, 3);
    assert_eq!(field.cities.len(), 1);
    assert_eq!(field.formula, "3 × 1 completed city = 3");
    assert_eq!(field.rule, "base.score.field.final");
    assert_eq!(t.scores(), vec![3, 0]);
}

#[test]
fn an_incomplete_city_gives_its_field_nothing() {
    let mut t = table(2, &[("U", 1), ("M", 1)]);
    t.turn("U", 1, 0, 90, Some("field Nw"));
    let fx = t.turn("M", 0, 1, 180, None);
    let field = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Field)
        .unwrap();
    assert_eq!(field.points, 0);
    assert_eq!(field.formula, "3 × 0 completed cities = 0");
}

#[test]
fn each_field_is_scored_on_its_own_a_city_touching_two_fields_pays_both() {
    // Given F north of the start tile: its city runs north–south with a field on each side
    let mut t = table(2, &[("F", 1), ("E", 1)]);
    t.turn("F", 0, 1, 90, Some("field En")); // seat 0: east field
                                             // When seat 1 puts a farmer on the west field and the city is closed
    t.draw("E").unwrap();
    t.place(0, 2, 180).unwrap();
    t.meeple(None).unwrap();
    // Then the city (3 tiles, 1 coat of arms) pays 3 to each field's farmer
    assert_eq!(t.scores(), vec![3, 0]);
    let mut t = table(2, &[("F", 1), ("E", 1), ("B", 1)]);
    t.turn("F", 0, 1, 90, Some("field En"));
    t.turn("E", 0, 2, 180, None);
    let fx = t.turn("B", 1, 1, 0, None);
    let fields: Vec<&Score> = fx
        .scores
        .iter()
        .filter(|s| s.kind == FeatureKind::Field)
        .collect();
    assert_eq!(fields.len(), 1);
    assert_eq!(fields[0].points, 3);
}

#[test]
fn majority_tied_players_all_score_in_full() {
    // Given seat 0 on the south field and seat 1 on the north field of the road
    let mut t = table(2, &[("B", 1), ("U", 1), ("A", 1), ("E", 1)]);
    t.turn("B", 0, -1, 0, Some("field Nw"));
    t.turn("U", 1, 0, 90, Some("field Nw"));
    // When A joins the fields and E completes the start tile's city
    t.turn("A", 2, 0, 90, None);
    let fx = t.turn("E", 0, 1, 180, None);
    // Then one field, one farmer each: both score 3
    let field = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Field)
        .unwrap();
    assert_eq!(field.meeples, vec![(0, 1), (1, 1)]);
    assert_eq!(field.winners, vec![0, 1]);
    assert_eq!(t.scores(), vec![3, 3]);
}

#[test]
fn majority_only_the_most_meeples_score_and_every_meeple_returns() {
    // Given seat 0 on the south field, seat 1 on the field of E, seat 0 on the north field
    let mut t = table(2, &[("B", 2), ("E", 1), ("U", 1), ("A", 1)]);
    t.turn("B", 0, -1, 0, Some("field Nw"));
    t.turn("E", 0, 1, 180, Some("field Nw"));
    t.turn("U", -1, 0, 90, Some("field Nw"));
    // When B joins E's field to the north field, and A joins the north and south fields
    t.turn("B", -1, 1, 0, None);
    let fx = t.turn("A", 1, 0, 90, None);
    // Then seat 0 (2 farmers) beats seat 1 (1 farmer); seat 1 scores nothing
    let field = fx
        .scores
        .iter()
        .find(|s| s.kind == FeatureKind::Field)
        .unwrap();
    assert_eq!(field.meeples, vec![(0, 2), (1, 1)]);
    assert_eq!(field.winners, vec![0]);
    assert_eq!(field.points, 3);
    assert_eq!(t.scores(), vec![3, 0]);
    assert_eq!(fx.returned.len(), 3);
    assert_eq!(t.game.supply(), &[7, 7]);
}

#[test]
fn ruling_7_gardens_are_pictures_not_segments() {
    let set = TileSet::base();
    let e = set.get(set.find("E").unwrap());
    assert_eq!(e.garden, 1);
    assert!(e.segments.iter().all(|s| s.kind != FeatureKind::Monastery));
    assert_eq!(
        e.segments.len(),
        2,
        "a city and a field; no garden segment a meeple could take"
    );
}

// ---- Perft-style counts of legal placements -------------------------------------------------

#[test]
fn perft_legal_placements_around_the_start_tile() {
    // Around D: north needs a city edge, east and west a road, south a field.
    // Counted by hand from the tile table (symmetric rotations count once).
    let t = table(2, &[("B", 1)]);
    let mut out = Vec::new();
    for (tile, expected) in [
        ("B", 1),
        ("C", 1),
        ("X", 2),
        ("U", 3),
        ("D", 6),
        ("V", 6),
        ("E", 4),
    ] {
        t.game.legal_placements(t.id(tile), &mut out);
        assert_eq!(out.len(), expected, "tile {tile}: {out:?}");
    }
}

#[test]
fn the_generator_agrees_with_the_validator_on_every_square_and_rotation() {
    let mut t = table(2, &[("B", 3), ("U", 2), ("E", 3)]);
    t.turn("B", 0, -1, 0, Some("monastery"));
    t.turn("U", 1, 0, 90, None);
    t.turn("U", -1, 0, 90, None);
    let mut out = Vec::new();
    for tile in TileSet::base().tiles() {
        let id = t.id(&tile.id);
        t.game.legal_placements(id, &mut out);
        for x in -3..=3 {
            for y in -3..=3 {
                for r in Rotation::ALL {
                    let legal = t.game.check_placement(id, Pos::new(x, y), r).is_ok();
                    // A symmetric duplicate rotation is listed under its smallest twin.
                    let listed = out
                        .iter()
                        .any(|p| p.at == Pos::new(x, y) && p.rotation == r);
                    let duplicate = !tile.is_distinct_rotation(r);
                    let same_as_listed =
                        listed || (duplicate && out.iter().any(|p| p.at == Pos::new(x, y)));
                    assert!(
                        !listed || legal,
                        "{} at ({x},{y}) {r} generated but illegal",
                        tile.id
                    );
                    if legal {
                        assert!(
                            same_as_listed,
                            "{} at ({x},{y}) {r} is legal but not generated",
                            tile.id
                        );
                    }
                }
            }
        }
        for p in &out {
            assert!(t.game.check_placement(id, p.at, p.rotation).is_ok());
        }
    }
}

#[test]
fn the_kth_copy_in_the_bag_counts_every_copy_once() {
    // Given a base game with its start tile placed (71 tiles in the bag)
    let mut game = Game::new(Setup::base(2)).unwrap();
    let start = game.tiles().start_tile().unwrap();
    let (at, rotation) = (Pos::new(0, 0), Rotation::default());
    game.apply(
        &Action::PlaceStart {
            tile: start,
            at,
            rotation,
        },
        &mut Effects::quiet(),
    )
    .unwrap();
    assert_eq!(game.bag_left(), 71);
    // When every k below the tiles left is asked for
    let mut seen = vec![0u16; game.tiles().len()];
    for k in 0..game.bag_left() {
        seen[game.tile_in_bag(k).unwrap().index()] += 1;
    }
    // Then each kind comes up as often as it has copies left, and past the end comes none
    for id in game.tiles().ids() {
        assert_eq!(seen[id.index()], game.bag_count(id), "{id:?}");
    }
    assert_eq!(game.tile_in_bag(71), None);
    // And a tile the set does not hold (an id of a larger set) has no copies (no panic)
    let larger = TileSet::combine(&[TileSet::base(), TileSet::river()]).unwrap();
    assert_eq!(game.bag_count(larger.ids().last().unwrap()), 0);
}
