//! What the tiles left say about each unfinished feature ([`read_outlook`]), on hand-built
//! positions of the base game: the start tile D at (0,0), then listed turns.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_engine::{read_outlook, FeatureOutlook, Outlook, PLACED_THERE};
use carc_rules::{
    Action, Effects, FeatureKind, Game, Options, Pos, Rotation, SegmentLabel, Setup, TileSet,
};

/// A 2-player game whose bag holds only `bag` (and the start tile D, placed at (0,0)), after
/// the turns `(tile, x, y, degrees, meeple)`.
fn position(bag: &[(&str, u16)], turns: &[(&str, i32, i32, u32, Option<&str>)]) -> Game {
    let mut counts: BTreeMap<String, u16> = BTreeMap::new();
    counts.insert("D".into(), 1);
    for (id, n) in bag {
        *counts.entry((*id).into()).or_default() += n;
    }
    let setup = Setup {
        players: 2,
        options: Options::default(),
        tiles: Arc::new(TileSet::base()),
        bag: Some(counts),
        map: None,
    };
    let mut game = Game::new(setup).unwrap();
    let mut fx = Effects::quiet();
    let d = game.tiles().find("D").unwrap();
    let start = Action::PlaceStart {
        tile: d,
        at: Pos::new(0, 0),
        rotation: Rotation::default(),
    };
    game.apply(&start, &mut fx).unwrap();
    for &(tile, x, y, degrees, meeple) in turns {
        let tile = game.tiles().find(tile).unwrap();
        game.apply(&Action::Draw { tile }, &mut fx).unwrap();
        let place = Action::Place {
            at: Pos::new(x, y),
            rotation: Rotation::from_degrees(degrees).unwrap(),
        };
        game.apply(&place, &mut fx).unwrap();
        let step = match meeple {
            None => Action::SkipMeeple,
            Some(label) => {
                let label: SegmentLabel = label.parse().unwrap();
                let segment = game.resolve_meeple_target(&label).unwrap();
                Action::PlaceMeeple { segment }
            }
        };
        game.apply(&step, &mut fx).unwrap();
    }
    game
}

/// Seat 0 on a city wrapped around the empty square (0,2) (it needs a city there south and
/// east) that also needs the square (-1,1) (a city east): C above the start tile, N turned
/// to go north, N turned to come back west. `rest` is the rest of the bag.
fn city_around_a_hole(rest: &[(&str, u16)]) -> Game {
    let mut bag = vec![("C", 1), ("N", 2)];
    bag.extend_from_slice(rest);
    position(
        &bag,
        &[
            ("C", 0, 1, 0, Some("city N")),
            ("N", 1, 1, 270, None),
            ("N", 1, 2, 180, None),
        ],
    )
}

fn seat_0_city(outlook: &Outlook) -> &FeatureOutlook {
    outlook
        .features()
        .iter()
        .find(|f| f.feature.kind == FeatureKind::City && f.feature.meeples[0] > 0)
        .expect("seat 0's city")
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn a_city_whose_hole_no_tile_left_fits_is_dead_and_its_meeple_is_stuck() {
    // Given seat 0's city around the hole (0,2) and only roads left in the bag
    let game = city_around_a_hole(&[("U", 3), ("V", 2)]);
    // When the bag is read
    let outlook = read_outlook(&game);
    let city = seat_0_city(&outlook);
    // Then no tile left fits the hole: the city is dead, it will score its 5 points of now
    let hole = outlook
        .squares(city)
        .iter()
        .find(|q| q.at == Pos::new(0, 2))
        .unwrap();
    assert_eq!((hole.fitting, hole.closing), (0, 0));
    assert!(city.dead);
    assert_eq!(city.completion, 0.0);
    assert_eq!(city.expected_points, 5.0);
    // And seat 0's meeple is stuck in it, and the bag adds nothing to seat 0's points
    assert_eq!(outlook.seats[0].stuck, 1);
    assert_eq!(outlook.seats[0].expected_gain, 0.0);
    assert_eq!(outlook.tiles_left, 5);
}

#[test]
fn a_city_is_completed_with_the_chance_that_each_square_gets_a_tile_that_closes_it() {
    // Given the same city with I (two one-sided cities), two E (one city side), a full city C
    // and roads left
    let game = city_around_a_hole(&[("I", 1), ("E", 2), ("C", 1), ("U", 3)]);
    // When the bag is read
    let outlook = read_outlook(&game);
    let city = seat_0_city(&outlook);
    let square = |x, y| {
        *outlook
            .squares(city)
            .iter()
            .find(|q| q.at == Pos::new(x, y))
            .unwrap()
    };
    // Then the hole fits C (which leaves the city open) and I turned 180 (which closes it)
    let hole = square(0, 2);
    assert_eq!((hole.fitting, hole.closing), (2, 1));
    // And (-1,1) fits I, both E and C; I and E close it there
    let west = square(-1, 1);
    assert_eq!((west.fitting, west.closing), (4, 3));
    // And each square closes with chance 1 - (1 - a)^closing, the city with their product
    let a = PLACED_THERE;
    assert!(near(hole.chance, a));
    assert!(near(west.chance, 1.0 - (1.0 - a).powi(3)));
    let p = hole.chance * west.chance;
    assert!(!city.dead);
    assert!(near(city.completion, p));
    // And it is expected to score p · 10 (completed) + (1 - p) · 5 (as it stands)
    assert!(near(city.expected_points, p * 10.0 + (1.0 - p) * 5.0));
    assert!(near(outlook.seats[0].expected_gain, p * 5.0));
    assert_eq!(outlook.seats[0].stuck, 0);
}

#[test]
fn a_farmer_expects_three_points_times_the_chance_of_each_open_city_it_touches() {
    // Given seat 0 on the field north of the road, which touches the start tile's open city,
    // and E (which closes that city) and V (which does not fit there) left
    let game = position(
        &[("U", 1), ("E", 1), ("V", 1)],
        &[("U", 1, 0, 90, Some("field Nw"))],
    );
    // When the bag is read
    let outlook = read_outlook(&game);
    let city = outlook
        .features()
        .iter()
        .find(|f| f.feature.kind == FeatureKind::City)
        .unwrap();
    let field = outlook
        .features()
        .iter()
        .find(|f| f.feature.kind == FeatureKind::Field)
        .unwrap();
    // Then the city closes with the one E left, chance a, and the field expects 3 · a
    assert!(near(city.completion, PLACED_THERE));
    assert!(near(field.expected_points, 3.0 * PLACED_THERE));
    assert!(!field.dead);
    // And seat 0 has one farmer, no meeple stuck
    assert_eq!(outlook.seats[0].farmers, 1);
    assert_eq!(outlook.seats[0].stuck, 0);
    assert!(near(outlook.seats[0].expected_gain, 3.0 * PLACED_THERE));
}

#[test]
fn a_monastery_fills_no_more_squares_than_tiles_are_left() {
    // Given seat 0's monastery south of the start tile, seven empty squares around it, and
    // one tile left
    let game = position(&[("B", 1), ("U", 1)], &[("B", 0, -1, 0, Some("monastery"))]);
    // When the bag is read
    let outlook = read_outlook(&game);
    let monastery = outlook
        .features()
        .iter()
        .find(|f| f.feature.kind == FeatureKind::Monastery)
        .unwrap();
    // Then it cannot be completed, and it expects at most one more square: 2 + 1
    assert_eq!(outlook.squares(monastery).len(), 7);
    assert_eq!(monastery.completion, 0.0);
    assert_eq!(monastery.expected_points, 3.0);
    // And the square east of the start tile takes the one U left (turned 90, the road on)
    let east = outlook
        .squares(monastery)
        .iter()
        .find(|q| q.at == Pos::new(1, 0))
        .unwrap();
    assert_eq!((east.fitting, east.closing), (1, 1));
}

#[test]
fn a_road_both_seats_stand_on_is_contested_and_both_expect_its_gain() {
    // Given seat 0 on the road west of the start tile and seat 1 on a road south of it, the
    // two joined by two curves
    let game = position(
        &[("U", 2), ("V", 2), ("A", 1)],
        &[
            ("U", -1, 0, 90, Some("road E")),
            ("U", 0, -1, 90, Some("road E")),
            ("V", 1, 0, 0, None),
            ("V", 1, -1, 90, None),
        ],
    );
    // When the bag is read
    let outlook = read_outlook(&game);
    let road = outlook
        .features()
        .iter()
        .find(|f| f.feature.kind == FeatureKind::Road)
        .unwrap();
    // Then the road is shared, and each seat counts one contested feature
    assert_eq!(road.feature.meeples[..2], [1, 1]);
    assert!(road.contested);
    assert_eq!(outlook.seats[0].contested, 1);
    assert_eq!(outlook.seats[1].contested, 1);
    // And both seats, tied on it, expect the same gain from it
    assert!(near(
        outlook.seats[0].expected_gain,
        outlook.seats[1].expected_gain
    ));
}

#[test]
fn every_kind_of_game_is_read_and_its_chances_are_chances() {
    for (name, setup) in common::every_kind_of_game() {
        // Given the positions of a simulated game of each kind (every expansion and the map)
        let positions = common::decisions(&setup, 21, &[carc_sim::Strategy::Greedy]);
        assert!(!positions.is_empty(), "{name}");
        for game in positions.iter().step_by(5) {
            // When the bag is read
            let outlook = read_outlook(game);
            // Then every chance is a chance, a dead feature has none, and a square no tile
            // left fits is what makes a feature dead
            for f in outlook.features() {
                assert!((0.0..=1.0).contains(&f.completion), "{name}: {f:?}");
                assert!(f.expected_points.is_finite(), "{name}: {f:?}");
                let squares = outlook.squares(f);
                let no_fit = squares.iter().any(|q| q.fitting == 0);
                if f.feature.kind != FeatureKind::Field {
                    assert_eq!(f.dead, no_fit, "{name}: {f:?} {squares:?}");
                }
                if f.dead {
                    assert_eq!(f.completion, 0.0, "{name}: {f:?}");
                }
                for q in squares {
                    assert!(q.closing <= q.fitting, "{name}: {q:?}");
                    assert!((0.0..=1.0).contains(&q.chance), "{name}: {q:?}");
                }
            }
            // And no seat has more meeples stuck than it has out
            for (seat, o) in outlook.seats.iter().enumerate() {
                let out: u32 = outlook
                    .features()
                    .iter()
                    .map(|f| u32::from(f.feature.meeples[seat]))
                    .sum();
                assert!(o.stuck + o.farmers <= out, "{name}: seat {seat}");
            }
        }
    }
}
