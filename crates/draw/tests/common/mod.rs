//! Helpers shared by the draw crate's expansion tests.

use carc_draw::{tile_type, Rgba, Shape};
use carc_rules::{Rotation, TileSet};

/// Shapes filled with `color` when the tile `id` of `set` is drawn alone.
pub fn filled(set: &TileSet, id: &str, color: Rgba) -> usize {
    let tile = set.get(set.find(id).unwrap());
    let mut out = Vec::new();
    tile_type(tile, Rotation::default(), carc_draw::Point::ZERO, &mut out);
    out.iter()
        .filter(|s| match s {
            Shape::Polygon { fill: Some(c), .. } | Shape::Circle { fill: Some(c), .. } => {
                *c == color
            }
            _ => false,
        })
        .count()
}
