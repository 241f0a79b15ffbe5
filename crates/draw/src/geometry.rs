//! Local geometry on one square: points run from `-0.5` to `0.5`, `y` growing southwards, so
//! the north side is `y = -0.5` (see the crate documentation).

use carc_rules::{Anchor, FeatureKind, Port, Rotation, SegmentLabel, Side, TileType};

use crate::{pt, Point};

/// Midpoint of a side.
pub fn side_mid(side: Side) -> Point {
    match side {
        Side::N => pt(0.0, -0.5),
        Side::E => pt(0.5, 0.0),
        Side::S => pt(0.0, 0.5),
        Side::W => pt(-0.5, 0.0),
    }
}

/// The two corners of a side, clockwise.
pub(crate) fn side_corners(side: Side) -> [Point; 2] {
    match side {
        Side::N => [pt(-0.5, -0.5), pt(0.5, -0.5)],
        Side::E => [pt(0.5, -0.5), pt(0.5, 0.5)],
        Side::S => [pt(0.5, 0.5), pt(-0.5, 0.5)],
        Side::W => [pt(-0.5, 0.5), pt(-0.5, -0.5)],
    }
}

/// Where a half-edge meets the border.
pub fn port_point(port: Port) -> Point {
    match port {
        Port::Nw => pt(-0.25, -0.5),
        Port::Ne => pt(0.25, -0.5),
        Port::En => pt(0.5, -0.25),
        Port::Es => pt(0.5, 0.25),
        Port::Se => pt(0.25, 0.5),
        Port::Sw => pt(-0.25, 0.5),
        Port::Ws => pt(-0.5, 0.25),
        Port::Wn => pt(-0.5, -0.25),
    }
}

/// `n + 1` points of the quadratic Bézier curve from `a` to `b` with control point `c`.
pub(crate) fn quad(a: Point, c: Point, b: Point, n: usize) -> impl Iterator<Item = Point> {
    (0..=n).map(move |i| {
        let t = i as f32 / n as f32;
        a * (1.0 - t) * (1.0 - t) + c * 2.0 * t * (1.0 - t) + b * t * t
    })
}

const CAP_DEPTH: f32 = 0.27;

/// A cap on `side`: the side itself, then a wall reaching `CAP_DEPTH` into the square, flat in
/// the middle and steep near the corners (depth `D·(1 − u⁴)`, a concave profile, so the cap
/// is convex). Returns the closed outline and the wall alone.
pub(crate) fn cap(side: Side) -> (Vec<Point>, Vec<Point>) {
    let [a, b] = side_corners(side);
    let inward = -side_mid(side) * 2.0;
    let n = 20;
    let curve: Vec<Point> = (0..=n)
        .map(|i| {
            let t = i as f32 / n as f32;
            let u = 2.0 * t - 1.0;
            // u⁴ as two products: `powi` may round differently from one platform to the
            // next, and the SVG output is meant to be the same everywhere.
            let u2 = u * u;
            b + (a - b) * t + inward * CAP_DEPTH * (1.0 - u2 * u2)
        })
        .collect();
    (curve.clone(), curve)
}

/// A city over two adjacent sides: the corner triangle, its diagonal bowed a little outwards.
pub(crate) fn corner(first: Side, second: Side) -> (Vec<Point>, Vec<Point>) {
    // `first` then `second` clockwise: the shared corner is first's end.
    let [a, shared] = side_corners(first);
    let [_, b] = side_corners(second);
    debug_assert_eq!(shared, side_corners(second)[0]);
    let control = -shared * 0.2;
    let curve: Vec<Point> = quad(b, control, a, 12).collect();
    let mut outline = vec![a, shared];
    outline.extend(curve.iter().copied());
    (outline, curve)
}

/// The sides in a 4-bit side mask, in `Side::ALL` order.
pub(crate) fn sides_of(mask: u8) -> Vec<Side> {
    Side::ALL
        .into_iter()
        .filter(|s| mask & (1 << s.index()) != 0)
        .collect()
}

/// Where a meeple on this segment stands, in local coordinates.
pub fn meeple_spot(label: SegmentLabel) -> Point {
    match (label.kind, label.anchor) {
        (FeatureKind::City, Some(Anchor::Side(s))) => side_mid(s) * 0.7,
        (FeatureKind::Road, Some(Anchor::Side(s))) => side_mid(s) * 0.5,
        (FeatureKind::Field, Some(Anchor::Port(p))) => port_point(p) * 0.65,
        _ => pt(0.0, 0.08),
    }
}

/// Where the garden of a garden copy (The Abbot) is drawn, and its abbot stands, in local
/// coordinates: inside the field at the tile set's `garden_in` port, turned with the tile.
/// `None` for a tile without a garden.
pub fn garden_spot(tile: &TileType, rotation: Rotation) -> Option<Point> {
    tile.garden_segment()?;
    let port = tile.garden_in?.rotated(rotation);
    Some(port_point(port) * 0.55)
}

/// Where a city segment's coat of arms is drawn, in local coordinates.
pub(crate) fn shield_spot(sides: &[Side]) -> Point {
    if let [s] = sides {
        let [a, b] = side_corners(*s);
        return side_mid(*s) * 0.78 + (b - a) * 0.2;
    }
    let avg = sides
        .iter()
        .map(|&s| side_mid(s))
        .fold(Point::ZERO, |acc, v| acc + v)
        / sides.len().max(1) as f32;
    if avg.length() < 0.01 {
        pt(0.18, -0.1)
    } else if sides.len() == 2 {
        avg * 1.4
    } else {
        avg * 1.3 + pt(avg.y, -avg.x).normalized() * 0.2
    }
}

/// An arrow's triangle (20th Anniversary) on a square: its tip near the middle of `side`,
/// pointing out. Local coordinates.
pub(crate) fn arrow_triangle(side: Side) -> Vec<Point> {
    let out = side_mid(side) * 2.0;
    let across = pt(-out.y, out.x);
    vec![
        out * 0.46,
        out * 0.26 + across * 0.13,
        out * 0.26 - across * 0.13,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meeple_spots_lie_inside_the_square_and_near_their_anchor() {
        for side in Side::ALL {
            for kind in [FeatureKind::City, FeatureKind::Road] {
                let p = meeple_spot(SegmentLabel {
                    kind,
                    anchor: Some(Anchor::Side(side)),
                });
                assert!(p.x.abs() < 0.5 && p.y.abs() < 0.5);
                assert!((p - side_mid(side)).length() < 0.3, "{kind:?} {side:?}");
            }
        }
        for port in Port::ALL {
            let p = meeple_spot(SegmentLabel {
                kind: FeatureKind::Field,
                anchor: Some(Anchor::Port(port)),
            });
            assert!((p - port_point(port)).length() < 0.2);
        }
    }

    fn convex(pts: &[Point]) -> bool {
        let n = pts.len();
        let mut sign = 0.0f32;
        for i in 0..n {
            let (a, b, c) = (pts[i], pts[(i + 1) % n], pts[(i + 2) % n]);
            let cross = (b - a).x * (c - b).y - (b - a).y * (c - b).x;
            if cross.abs() > 1e-6 {
                if sign == 0.0 {
                    sign = cross.signum();
                } else if cross.signum() != sign {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn caps_and_corners_are_convex_and_inside() {
        for side in Side::ALL {
            let (outline, _) = cap(side);
            assert!(convex(&outline), "{side:?}");
            assert!(outline
                .iter()
                .all(|p| p.x.abs() <= 0.5 + 1e-6 && p.y.abs() <= 0.5 + 1e-6));
            let next = Side::from_index(side.index() + 1);
            let (outline, _) = corner(side, next);
            assert!(convex(&outline), "{side:?}");
        }
    }

    #[test]
    fn the_check_for_convexity_rejects_a_dent() {
        // Given an arrow-head outline with a dent, the helper the tests above rely on says no
        let dented = [pt(0.0, 0.0), pt(1.0, 0.0), pt(0.5, 0.2), pt(0.5, 1.0)];
        assert!(!convex(&dented));
        assert!(convex(&arrow_triangle(Side::E)));
    }

    #[test]
    fn an_arrow_points_out_of_its_side() {
        for side in Side::ALL {
            let tri = arrow_triangle(side);
            // The tip is the point nearest the side's midpoint and lies inside the square.
            let tip = tri[0];
            assert!((tip - side_mid(side)).length() < 0.05, "{side:?}");
            assert!(tri.iter().all(|p| p.x.abs() < 0.5 && p.y.abs() < 0.5));
        }
    }
}
