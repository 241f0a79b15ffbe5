//! A move drawn as a ghost over the board: a tile not (yet) placed, faded, with a dashed-look
//! outline, and the meeple it would carry. The viewer draws the tile a player is about to
//! place under the pointer and the best move a move-quality run found this way.

use carc_rules::{Pos, Rotation, TileType};

use crate::board::{tile_type, world_of};
use crate::color::{Rgba, HIGHLIGHT, MEEPLE_OUTLINE};
use crate::{pt, Point, Shape, Stroke, StrokeAlign};

/// How opaque a ghost is (of 255).
const GHOST_ALPHA: f32 = 0.62;

fn fade(c: Rgba) -> Rgba {
    Rgba::new(c.r, c.g, c.b, (f32::from(c.a) * GHOST_ALPHA).round() as u8)
}

fn fade_stroke(s: Stroke) -> Stroke {
    Stroke {
        color: fade(s.color),
        ..s
    }
}

/// The shape with every colour faded.
fn faded(shape: Shape) -> Shape {
    match shape {
        Shape::Rect {
            min,
            max,
            rounding,
            fill,
            stroke,
            align,
        } => Shape::Rect {
            min,
            max,
            rounding,
            fill: fill.map(fade),
            stroke: stroke.map(fade_stroke),
            align,
        },
        Shape::Polygon {
            points,
            fill,
            stroke,
        } => Shape::Polygon {
            points,
            fill: fill.map(fade),
            stroke: stroke.map(fade_stroke),
        },
        Shape::Polyline { points, stroke } => Shape::Polyline {
            points,
            stroke: fade_stroke(stroke),
        },
        Shape::Line { from, to, stroke } => Shape::Line {
            from,
            to,
            stroke: fade_stroke(stroke),
        },
        Shape::Circle {
            centre,
            radius,
            min_radius_px,
            fill,
            stroke,
        } => Shape::Circle {
            centre,
            radius,
            min_radius_px,
            fill: fill.map(fade),
            stroke: stroke.map(fade_stroke),
        },
        Shape::Text {
            at,
            size,
            text,
            color,
            min_scale,
        } => Shape::Text {
            at,
            size,
            text,
            color: fade(color),
            min_scale,
        },
    }
}

/// A ghost move: `tile` turned by `rotation` on the square `at`, faded and outlined in
/// `outline`, and, if given, a meeple of colour `color` at the world point `meeple` (see
/// [`crate::meeple_spot`] for the spot of a segment on its square).
pub fn ghost_move(
    tile: &TileType,
    rotation: Rotation,
    at: Pos,
    outline: Rgba,
    meeple: Option<(Point, Rgba)>,
) -> Vec<Shape> {
    let centre = world_of(at);
    let mut shapes = Vec::new();
    tile_type(tile, rotation, centre, &mut shapes);
    let mut out: Vec<Shape> = shapes.into_iter().map(faded).collect();
    out.push(Shape::Rect {
        min: centre - pt(0.5, 0.5),
        max: centre + pt(0.5, 0.5),
        rounding: 0.0,
        fill: None,
        stroke: Some(Stroke::new(0.05, 2.0, outline)),
        align: StrokeAlign::Inside,
    });
    if let Some((at, color)) = meeple {
        out.push(Shape::Circle {
            centre: at,
            radius: 0.13,
            min_radius_px: 4.0,
            fill: Some(color),
            stroke: Some(Stroke::new(0.03, 1.5, MEEPLE_OUTLINE)),
        });
        // A ring around it: the meeple is proposed, not on the board.
        out.push(Shape::Circle {
            centre: at,
            radius: 0.2,
            min_radius_px: 6.0,
            fill: None,
            stroke: Some(Stroke::new(0.03, 1.5, HIGHLIGHT)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::Setup;

    #[test]
    fn a_ghost_is_the_tile_faded_on_its_square_with_its_meeple() {
        // Given the base set's first tile type
        let setup = Setup::base(2);
        let tile = &setup.tiles.tiles()[0];
        let at = Pos::new(2, -1);
        // When it is drawn as a ghost with a meeple
        let spot = world_of(at) + pt(0.1, 0.0);
        let shapes = ghost_move(
            tile,
            Rotation::ALL[1],
            at,
            HIGHLIGHT,
            Some((spot, Rgba::WHITE)),
        );
        // Then every shape of the tile lies on its square and is see-through
        let mut solid = Vec::new();
        tile_type(tile, Rotation::ALL[1], world_of(at), &mut solid);
        assert_eq!(shapes.len(), solid.len() + 3);
        for (ghost, tile) in shapes.iter().zip(&solid) {
            assert_eq!(ghost.bounds(), tile.bounds());
            if let (Shape::Rect { fill: Some(f), .. }, Shape::Rect { fill: Some(t), .. }) =
                (ghost, tile)
            {
                assert!(f.a < t.a, "{f:?} is faded from {t:?}");
            }
        }
        // And the meeple stands at the spot given, opaque
        assert!(shapes.iter().any(|s| matches!(
            s,
            Shape::Circle { centre, fill: Some(c), .. } if *centre == spot && c.a == 255
        )));
    }
}
