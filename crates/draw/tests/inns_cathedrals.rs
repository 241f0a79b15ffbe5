//! Inns & Cathedrals on the board picture: inns and cathedrals are drawn on their tiles (and
//! on no base tile), and the large meeple is drawn larger than a meeple.

mod common;

use std::path::Path;

use carc_draw::color::{CATHEDRAL, INN, INN_LAKE};
use carc_draw::{board, Overlay, Shape};
use carc_events::read_log;
use carc_replay::fold;
use carc_rules::TileSet;
use common::filled;

#[test]
fn inns_and_cathedrals_are_drawn_on_their_tiles_only() {
    let set = TileSet::inns_cathedrals();
    for t in set.tiles() {
        let inns = t.segments.iter().filter(|s| s.inn).count();
        let cathedrals = t.segments.iter().filter(|s| s.cathedral).count();
        // Each inn: a house and its lake; each cathedral: its nave and spire
        assert_eq!(filled(&set, &t.id, INN), inns, "{}", t.id);
        assert_eq!(filled(&set, &t.id, INN_LAKE), inns, "{}", t.id);
        assert_eq!(filled(&set, &t.id, CATHEDRAL), cathedrals, "{}", t.id);
    }
    let base = TileSet::base();
    for t in base.tiles() {
        for color in [INN, INN_LAKE, CATHEDRAL] {
            assert_eq!(filled(&base, &t.id, color), 0, "{}", t.id);
        }
    }
}

#[test]
fn the_large_meeple_is_drawn_larger() {
    // Given the two-player sample after event 13: seat 1's large meeple on a road, seat 0's
    // meeples elsewhere
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs/sim-2p-inns-cathedrals-mixed.jsonl");
    let timeline = fold(read_log(&std::fs::read(path).unwrap()).unwrap(), &[]);
    let game = timeline.state_at(13).unwrap();
    assert_eq!(game.large_meeples().count(), 1);
    // When the board is drawn
    let list = board(&game, &Overlay::default());
    // Then the figures on roads, cities and monasteries are discs: the large one 1.45 times
    // the radius of a meeple
    let radii: Vec<f32> = list
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Circle {
                radius,
                stroke: Some(_),
                fill: Some(_),
                ..
            } if (*radius - 0.11).abs() < 1e-4 || (*radius - 0.11 * 1.45).abs() < 1e-4 => {
                Some(*radius)
            }
            _ => None,
        })
        .collect();
    assert!(
        radii.iter().any(|r| (*r - 0.11 * 1.45).abs() < 1e-4),
        "{radii:?}"
    );
}
