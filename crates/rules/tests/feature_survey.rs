//! The survey of unfinished features (`Game::survey_features`) and which rotations of a tile
//! fit an empty square (`Game::fitting_rotations`), on hand-built positions.

mod common;

use carc_rules::*;
use common::*;

fn survey(game: &Game) -> FeatureSurvey {
    let mut out = FeatureSurvey::new();
    game.survey_features(&mut out);
    out
}

fn facing(sides: &[Side]) -> u8 {
    sides.iter().map(|s| 1 << s.index()).sum()
}

#[test]
fn the_start_tile_leaves_its_city_and_its_road_open_and_no_field_is_listed() {
    // Given only the start tile D (city north, road east-west)
    let t = table(2, &[("U", 1)]);
    // When the features are surveyed
    let s = survey(&t.game);
    // Then the city needs the square north, the road the squares east and west
    let kinds: Vec<FeatureKind> = s.features().iter().map(|f| f.kind).collect();
    assert_eq!(kinds, vec![FeatureKind::City, FeatureKind::Road]);
    let city = &s.features()[0];
    assert_eq!(
        s.squares(city),
        &[OpenSquare {
            at: Pos::new(0, 1),
            facing: facing(&[Side::S])
        }]
    );
    // (completed as it stands: one tile, 2 points)
    assert_eq!(
        (city.open, city.points_now, city.points_completed),
        (1, 1, 2)
    );
    let road = &s.features()[1];
    let mut at: Vec<(Pos, u8)> = s.squares(road).iter().map(|q| (q.at, q.facing)).collect();
    at.sort();
    assert_eq!(
        at,
        vec![
            (Pos::new(-1, 0), facing(&[Side::E])),
            (Pos::new(1, 0), facing(&[Side::W]))
        ]
    );
    assert_eq!(
        (road.open, road.points_now, road.points_completed),
        (2, 1, 1)
    );
    // And nobody stands on a field, so no field is listed
    assert!(s.features().iter().all(|f| f.meeples == [0; MAX_PLAYERS]));
}

/// D at (0,0), a full city C above it, N turned to join C's east side and reach north, and N
/// turned to come back west: one city whose open sides face (0,2) twice and (-1,1) once.
fn city_around_a_hole(bag: &[(&str, u16)]) -> Table {
    let mut all = vec![("C", 1), ("N", 2)];
    all.extend_from_slice(bag);
    let mut t = table(2, &all);
    t.turn("C", 0, 1, 0, Some("city N"));
    t.turn("N", 1, 1, 270, None);
    t.turn("N", 1, 2, 180, None);
    t
}

#[test]
fn a_square_a_city_faces_on_two_sides_is_one_square_with_both_sides() {
    // Given a city wrapped around the empty square (0,2), seat 0 on it
    let t = city_around_a_hole(&[("U", 1)]);
    // When the features are surveyed
    let s = survey(&t.game);
    let city = s
        .features()
        .iter()
        .find(|f| f.kind == FeatureKind::City && f.meeples[0] == 1)
        .expect("seat 0's city");
    // Then (0,2) is listed once, facing the city south and east, and (-1,1) facing it east
    let mut squares: Vec<(Pos, u8)> = s.squares(city).iter().map(|q| (q.at, q.facing)).collect();
    squares.sort();
    assert_eq!(
        squares,
        vec![
            (Pos::new(-1, 1), facing(&[Side::E])),
            (Pos::new(0, 2), facing(&[Side::S, Side::E]))
        ]
    );
    // And its three open sides, 4 tiles and a coat of arms: 5 points now, 10 if completed
    assert_eq!(city.open, 3);
    assert_eq!((city.points_now, city.points_completed), (5, 10));
    assert_eq!(city.meeples[..2], [1, 0]);
}

#[test]
fn a_tile_fits_a_square_only_in_the_rotations_whose_edges_match_every_neighbour() {
    // Given the city around the hole (0,2), which needs a city south and east
    let t = city_around_a_hole(&[("U", 1), ("I", 1), ("E", 1), ("C", 1)]);
    let id = |name: &str| t.game.tiles().find(name).unwrap();
    let hole = Pos::new(0, 2);
    // When each tile is asked for its fitting rotations there
    // Then a road fits in none, a one-sided city in none, the full city once (its four
    // rotations are one), and I (two separate cities) only turned to face south and east
    assert_eq!(t.game.fitting_rotations(id("U"), hole), 0);
    assert_eq!(t.game.fitting_rotations(id("E"), hole), 0);
    assert_eq!(t.game.fitting_rotations(id("C"), hole), 0b0001);
    assert_eq!(t.game.fitting_rotations(id("I"), hole), 0b0100);
    // And a square holding a tile fits nothing
    assert_eq!(t.game.fitting_rotations(id("C"), Pos::new(0, 1)), 0);
    // And a square no tile touches yet takes any rotation of any tile
    assert_eq!(t.game.fitting_rotations(id("E"), Pos::new(5, 5)), 0b1111);
}

#[test]
fn a_monastery_needs_the_empty_squares_around_it() {
    // Given a monastery B south of the start tile, seat 0 on it
    let mut t = table(2, &[("B", 1), ("U", 1)]);
    t.turn("B", 0, -1, 0, Some("monastery"));
    // When the features are surveyed
    let s = survey(&t.game);
    let monastery = s
        .features()
        .iter()
        .find(|f| f.kind == FeatureKind::Monastery)
        .expect("the monastery");
    // Then it needs the seven empty squares around it (the start tile is the eighth), any side
    assert_eq!(monastery.open, 7);
    let squares = s.squares(monastery);
    assert_eq!(squares.len(), 7);
    assert!(squares.iter().all(|q| q.facing == 0));
    assert!(!squares.iter().any(|q| q.at == Pos::new(0, 0)));
    // And it is worth 2 now (itself and one neighbour), 9 completed
    assert_eq!((monastery.points_now, monastery.points_completed), (2, 9));
    assert_eq!(monastery.meeples[0], 1);
}

#[test]
fn an_occupied_field_lists_the_open_cities_it_touches_and_counts_the_completed_ones() {
    // Given seat 0 on the field north of the road (it touches the start tile's open city)
    let mut t = table(2, &[("U", 1), ("E", 1), ("V", 1)]);
    t.turn("U", 1, 0, 90, Some("field Nw"));
    // When the features are surveyed
    let s = survey(&t.game);
    let field = s
        .features()
        .iter()
        .find(|f| f.kind == FeatureKind::Field)
        .expect("seat 0's field");
    // Then the field names the start tile's city, open, and no completed city
    let cities: Vec<FeatureKind> = s
        .cities(field)
        .iter()
        .map(|&i| s.features()[i as usize].kind)
        .collect();
    assert_eq!(cities, vec![FeatureKind::City]);
    assert_eq!(s.features()[s.cities(field)[0] as usize].at, Pos::new(0, 0));
    assert_eq!((field.completed_cities, field.points_now), (0, 0));
    assert!(s.squares(field).is_empty());
    // When seat 1 closes that city with E turned south
    t.turn("E", 0, 1, 180, None);
    let s = survey(&t.game);
    let field = s
        .features()
        .iter()
        .find(|f| f.kind == FeatureKind::Field)
        .expect("seat 0's field");
    // Then the field counts it completed (3 points at the end) and lists no open city
    assert_eq!((field.completed_cities, field.points_now), (1, 3));
    assert!(s.cities(field).is_empty());
    assert!(!s.features().iter().any(|f| f.kind == FeatureKind::City));
}

#[test]
fn completed_features_leave_the_survey() {
    // Given the start tile's road closed at both ends by the roads of two monasteries A
    let mut t = table(2, &[("B", 1), ("A", 2)]);
    // A's road ends at its monastery: turned 90 its road leaves west, 270 east
    t.turn("A", 1, 0, 90, Some("road W"));
    t.turn("A", -1, 0, 270, None);
    // When the features are surveyed
    let s = survey(&t.game);
    // Then no road is listed (it scored and is finished); the monasteries are
    assert!(!s.features().iter().any(|f| f.kind == FeatureKind::Road));
    assert_eq!(
        s.features()
            .iter()
            .filter(|f| f.kind == FeatureKind::Monastery)
            .count(),
        2
    );
}
