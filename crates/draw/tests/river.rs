//! The River on the board picture: river tiles show their water (a band between the river
//! sides, a pool at the spring and the lake); land tiles draw nothing of it.

use carc_draw::{color::RIVER, tile_type, Shape};
use carc_rules::{Rotation, TileSet};

fn river_shapes(set: &TileSet, id: &str) -> (usize, usize) {
    let tile = set.get(set.find(id).unwrap());
    let mut out = Vec::new();
    tile_type(tile, Rotation::default(), carc_draw::Point::ZERO, &mut out);
    let bands = out
        .iter()
        .filter(|s| matches!(s, Shape::Polyline { stroke, .. } if stroke.color == RIVER))
        .count();
    let pools = out
        .iter()
        .filter(|s| matches!(s, Shape::Circle { fill: Some(c), .. } if *c == RIVER))
        .count();
    (bands, pools)
}

#[test]
fn river_tiles_show_their_water_and_land_tiles_none() {
    let river = TileSet::river();
    // The spring and the lake: a band to the side and a pool
    assert_eq!(river_shapes(&river, "RS"), (1, 1));
    assert_eq!(river_shapes(&river, "RL"), (1, 1));
    // A straight river and the bridge: one band, no pool
    assert_eq!(river_shapes(&river, "R1"), (1, 0));
    assert_eq!(river_shapes(&river, "R3"), (1, 0));
    // Every base tile: nothing blue
    let base = TileSet::base();
    for t in base.tiles() {
        assert_eq!(river_shapes(&base, &t.id), (0, 0), "{}", t.id);
    }
}
