//! The board of a game as a draw list: the map board (if any), the tiles drawn from the tile
//! data (no image assets), arrows, the overlay and the meeples.

use carc_rules::{
    ArrowState, FeatureKind, Game, Good, MapBoard, Pos, Print, RegionKind, ReturnedMeeple,
    Rotation, SegmentLabel, Side, Special, Square, Terrain, TileType, TileTypeId,
};

use crate::color::*;
use crate::geometry::{
    arrow_triangle, cap, corner, garden_spot, meeple_spot, quad, shield_spot, side_corners,
    side_mid, sides_of,
};
use crate::{pt, Bounds, DrawList, Point, Shape, Stroke, StrokeAlign};

/// A garden (The Abbot): a bed of darker green with a hedge, and its flowers.
const GARDEN: Rgba = Rgba::rgb(62, 128, 56);
const GARDEN_HEDGE: Rgba = Rgba::rgb(34, 80, 30);
const GARDEN_FLOWER: Rgba = Rgba::rgb(236, 200, 70);

/// What to draw besides the tiles. `Overlay::default()` draws nothing extra and white meeples.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overlay<'a> {
    /// Meeple colour per seat (white for a seat without one).
    pub colors: &'a [Rgba],
    /// The tile placed last (outlined).
    pub last_placed: Option<Pos>,
    /// The tile whose arrow the current event activated (its arrow is outlined in yellow).
    pub activated_arrow: Option<Pos>,
    /// Squares of a feature to highlight (a hovered score).
    pub highlight: &'a [Pos],
    /// Squares where the drawn tile could go.
    pub legal: &'a [Pos],
    /// The square under the pointer (outlined when it holds a tile).
    pub hovered: Option<Pos>,
    /// Figures the final scoring sent home, drawn where they stood, so the board at final
    /// scoring shows who held what ([`carc_rules::Effects::returned_at_final_scoring`]).
    pub final_figures: &'a [ReturnedMeeple],
}

/// The world point of a square's centre.
pub fn world_of(at: Pos) -> Point {
    pt(at.x as f32, -(at.y as f32))
}

/// Corners of a square, shrunk by `inset` on every side.
fn square(at: Pos, inset: f32) -> (Point, Point) {
    let c = world_of(at);
    let h = 0.5 - inset;
    (c - pt(h, h), c + pt(h, h))
}

/// The part of the world a picture of the board shows: every placed tile and, on a map board,
/// every square of the map that is not outside it, with half a square of margin (enough for
/// the roads and cities printed abroad).
pub fn board_bounds(game: &Game) -> Bounds {
    let mut squares: Vec<Pos> = game.placed().iter().map(|p| p.at).collect();
    if let Some(map) = game.map() {
        squares.extend(
            map.grid()
                .filter(|(_, sq)| !matches!(sq, Square::Outside(_)))
                .map(|(at, _)| at),
        );
    }
    if squares.is_empty() {
        squares.push(Pos::new(0, 0));
    }
    Bounds::of_points(squares.into_iter().map(world_of)).expand(1.0)
}

/// A placed tile by reference: its type, rotation and square. [`tile_type`] draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileAt {
    pub tile: TileTypeId,
    pub rotation: Rotation,
    pub at: Pos,
}

/// The board in layers, drawn bottom to top. Writers that show many boards of one game share
/// what repeats: the HTML report draws the map and each tile type once and refers to them.
#[derive(Clone, Debug, PartialEq)]
pub struct Layers {
    /// The parts of the map board that stay the same all game: squares, borders, segments
    /// printed abroad, coats of arms of large cities, start squares. Empty without a map.
    pub map: Vec<Shape>,
    /// The parts of the map that change: large-city names (white once connected) and towns
    /// (gone once covered).
    pub map_marks: Vec<Shape>,
    /// The placed tiles, in the order they were placed.
    pub tiles: Vec<TileAt>,
    /// The overlay, the arrows' states and the meeples.
    pub top: Vec<Shape>,
    /// See [`DrawList::bounds`].
    pub bounds: Bounds,
}

/// The board of `game` with `overlay`, in drawing order.
pub fn board(game: &Game, overlay: &Overlay<'_>) -> DrawList {
    let layers = layers(game, overlay);
    let mut shapes = layers.map;
    shapes.extend(layers.map_marks);
    for t in &layers.tiles {
        tile_type(
            game.tiles().get(t.tile),
            t.rotation,
            world_of(t.at),
            &mut shapes,
        );
    }
    shapes.extend(layers.top);
    DrawList {
        shapes,
        bounds: layers.bounds,
    }
}

/// The board of `game` with `overlay`, in layers.
pub fn layers(game: &Game, overlay: &Overlay<'_>) -> Layers {
    let (mut map, mut map_marks) = (Vec::new(), Vec::new());
    if let Some(m) = game.map() {
        map_board(&mut map, &mut map_marks, game, m);
    }
    let tiles = game
        .placed()
        .iter()
        .map(|p| TileAt {
            tile: p.tile,
            rotation: p.rotation,
            at: p.at,
        })
        .collect();
    let mut out = Vec::new();
    for &at in overlay.legal {
        let (min, max) = square(at, 0.06);
        out.push(Shape::Rect {
            min,
            max,
            rounding: 0.08,
            fill: None,
            stroke: Some(Stroke::new(0.02, 1.0, LEGAL)),
            align: StrokeAlign::Inside,
        });
    }
    for &at in overlay.highlight {
        let (min, max) = square(at, 0.0);
        out.push(Shape::Rect {
            min,
            max,
            rounding: 0.0,
            fill: Some(HIGHLIGHT_FILL),
            stroke: Some(Stroke::new(0.04, 1.5, HIGHLIGHT)),
            align: StrokeAlign::Inside,
        });
    }
    for arrow in game.arrows() {
        let c = world_of(arrow.at);
        let points: Vec<Point> = arrow_triangle(arrow.side)
            .into_iter()
            .map(|p| c + p)
            .collect();
        let (fill, stroke) = if overlay.activated_arrow == Some(arrow.at) {
            (None, Some(Stroke::new(0.04, 2.0, HIGHLIGHT)))
        } else if arrow.state == ArrowState::Spent {
            (Some(SPENT), None)
        } else if arrow.state == ArrowState::Activated {
            (None, Some(Stroke::new(0.02, 1.0, Rgba::WHITE)))
        } else {
            continue;
        };
        out.push(Shape::Polygon {
            points,
            fill,
            stroke,
        });
    }
    if let Some(at) = overlay.last_placed {
        out.push(frame(at, Stroke::new(0.05, 2.0, LAST_PLACED)));
    }
    if let Some(at) = overlay.hovered {
        if game.tile_at(at).is_some() {
            out.push(frame(at, Stroke::pixels(1.5, Rgba::WHITE)));
        }
    }
    let color_of = |player: u8| {
        overlay
            .colors
            .get(player as usize)
            .copied()
            .unwrap_or(Rgba::WHITE)
    };
    // The Abbot: on a garden it stands in the garden, on a monastery where a monk would.
    let abbot_spot = |at: Pos, label: SegmentLabel| {
        game.tile_at(at)
            .and_then(|p| garden_spot(game.tiles().get(p.tile), p.rotation))
            .filter(|_| label.kind == FeatureKind::Garden)
            .unwrap_or_else(|| meeple_spot(label))
    };
    // Inns & Cathedrals: the large meeples, drawn larger (empty without the expansion).
    let large: Vec<(u8, Pos, u8)> = game
        .large_meeples()
        .map(|(p, at, s, _)| (p, at, s))
        .collect();
    for (player, at, segment, label) in game.meeples() {
        let scale = if large.contains(&(player, at, segment)) {
            LARGE_MEEPLE
        } else {
            1.0
        };
        meeple(
            &mut out,
            world_of(at) + meeple_spot(label),
            label,
            color_of(player),
            scale,
        );
    }
    for (player, at, _, label) in game.abbots() {
        abbot(
            &mut out,
            world_of(at) + abbot_spot(at, label),
            color_of(player),
        );
    }
    // Traders & Builders: the builders and pigs, beside where a meeple would stand.
    for (player, which, at, _, label) in game.specials() {
        special(
            &mut out,
            world_of(at) + meeple_spot(label) + SPECIAL_OFFSET,
            which,
            color_of(player),
        );
    }
    for r in overlay.final_figures {
        if let Some(which) = r.special {
            let p = world_of(r.at) + meeple_spot(r.label) + SPECIAL_OFFSET;
            special(&mut out, p, which, color_of(r.player));
        } else if r.abbot {
            abbot(
                &mut out,
                world_of(r.at) + abbot_spot(r.at, r.label),
                color_of(r.player),
            );
        } else {
            let p = world_of(r.at) + meeple_spot(r.label);
            let scale = if r.large { LARGE_MEEPLE } else { 1.0 };
            meeple(&mut out, p, r.label, color_of(r.player), scale);
        }
    }
    Layers {
        map,
        map_marks,
        tiles,
        top: out,
        bounds: board_bounds(game),
    }
}

/// A square's outline, drawn inside it.
fn frame(at: Pos, stroke: Stroke) -> Shape {
    let (min, max) = square(at, 0.0);
    Shape::Rect {
        min,
        max,
        rounding: 0.0,
        fill: None,
        stroke: Some(stroke),
        align: StrokeAlign::Inside,
    }
}

fn filled(at: Pos, color: Rgba) -> Shape {
    let (min, max) = square(at, 0.0);
    Shape::Rect {
        min,
        max,
        rounding: 0.0,
        fill: Some(color),
        stroke: None,
        align: StrokeAlign::Inside,
    }
}

/// The map under the tiles: outside regions (sea, countries), the outline of the playable
/// squares, large cities (blocked, printed as city with their coats of arms), start squares
/// (darker margin), towns (a small house) and the road and city segments printed abroad.
/// What never changes goes to `out`; names and towns, which do, to `marks`.
fn map_board(out: &mut Vec<Shape>, marks: &mut Vec<Shape>, game: &Game, map: &MapBoard) {
    for (at, sq) in map.grid() {
        match sq {
            Square::Outside(r) => {
                let color = match map.regions()[r as usize].kind {
                    RegionKind::Sea => MAP_SEA,
                    RegionKind::Land => MAP_ABROAD,
                };
                out.push(filled(at, color));
            }
            Square::Playable => {
                out.push(filled(at, MAP_LAND));
                out.push(frame(at, Stroke::new(0.015, 0.5, MAP_OUTLINE)));
            }
            Square::LargeCity(_) => {
                out.push(filled(at, CITY));
                out.push(frame(at, Stroke::new(0.06, 1.0, WALL)));
            }
        }
    }
    // Outline of the playable land: sides between a playable square and the outside.
    let stroke = Stroke::new(0.05, 1.0, MAP_OUTLINE);
    for (at, sq) in map.grid() {
        if sq != Square::Playable {
            continue;
        }
        let c = world_of(at);
        for side in Side::ALL {
            let Some(border) = map.border(at, side) else {
                continue;
            };
            let [a, b] = side_corners(side);
            out.push(Shape::Line {
                from: c + a,
                to: c + b,
                stroke,
            });
            if let Some(print) = border.print {
                printed_abroad(out, c, side, print);
            }
        }
    }
    for (i, city) in map.large_cities().iter().enumerate() {
        let Some(&first) = city.squares.first() else {
            continue;
        };
        let c = world_of(first);
        for k in 0..city.coats_of_arms.min(4) {
            out.push(dot(c + pt(-0.3 + 0.2 * f32::from(k), -0.3), 0.07, SHIELD));
        }
        // A large city connected to the tiles gets a white name; a waiting one a dark name.
        let color = if game.large_city_connected(i) {
            Rgba::WHITE
        } else {
            Rgba::gray(40)
        };
        marks.push(label(c + pt(0.0, 0.15), 0.16, city.name, color));
    }
    for start in map.start_squares() {
        out.push(Shape::Rect {
            min: square(start.at, 0.04).0,
            max: square(start.at, 0.04).1,
            rounding: 0.0,
            fill: None,
            stroke: Some(Stroke::new(0.08, 1.0, MAP_OUTLINE)),
            align: StrokeAlign::Inside,
        });
    }
    for town in map.towns() {
        if game.tile_at(town.at).is_some() {
            continue;
        }
        let c = world_of(town.at);
        let w = 0.12;
        marks.push(Shape::Polygon {
            points: vec![
                c + pt(-w, 0.0),
                c + pt(0.0, -w),
                c + pt(w, 0.0),
                c + pt(w, w),
                c + pt(-w, w),
            ],
            fill: Some(TOWN),
            stroke: None,
        });
        marks.push(label(c + pt(0.0, w * 2.2), 0.14, town.name, Rgba::WHITE));
    }
}

/// A name on the map, shown only when a square is at least 24 pixels wide.
fn label(at: Point, size: f32, text: &str, color: Rgba) -> Shape {
    Shape::Text {
        at,
        size,
        text: text.to_string(),
        color,
        min_scale: 24.0,
    }
}

fn dot(centre: Point, radius: f32, color: Rgba) -> Shape {
    Shape::Circle {
        centre,
        radius,
        min_radius_px: 0.0,
        fill: Some(color),
        stroke: None,
    }
}

/// A road or city printed abroad: a stub beyond the side of the square centred on `c`, with
/// its coats of arms.
fn printed_abroad(out: &mut Vec<Shape>, c: Point, side: Side, print: Print) {
    let dir = side_mid(side) * 2.0;
    let mid = c + side_mid(side);
    let far = c + dir * 0.85;
    match print.terrain {
        Terrain::City => {
            let across = pt(dir.y, dir.x).abs() * 0.25;
            out.push(Shape::Polygon {
                points: vec![
                    mid - across,
                    mid + across,
                    far + across * 0.6,
                    far - across * 0.6,
                ],
                fill: Some(CITY),
                stroke: Some(Stroke::new(0.02, 1.0, WALL)),
            });
        }
        _ => {
            for stroke in [
                Stroke::new(0.12, 0.0, ROAD_EDGE),
                Stroke::new(0.08, 0.0, ROAD),
            ] {
                out.push(Shape::Line {
                    from: mid,
                    to: far,
                    stroke,
                });
            }
        }
    }
    for k in 0..print.coats_of_arms.min(4) {
        out.push(dot(
            mid + (far - mid) * (0.35 + 0.2 * f32::from(k)),
            0.05,
            SHIELD,
        ));
    }
}

/// A tile type with a rotation on the square centred on `centre`, appended to `out`.
pub fn tile_type(tile: &TileType, rot: Rotation, centre: Point, out: &mut Vec<Shape>) {
    let to = |p: Point| centre + p;
    let pts = |ps: &[Point]| ps.iter().map(|&p| to(p)).collect::<Vec<Point>>();
    let wall = Stroke::new(0.025, 1.0, WALL);
    let whole = |fill: Rgba| Shape::Rect {
        min: to(pt(-0.5, -0.5)),
        max: to(pt(0.5, 0.5)),
        rounding: 0.0,
        fill: Some(fill),
        stroke: None,
        align: StrokeAlign::Inside,
    };

    out.push(whole(FIELD));

    // Cities. Large ones (opposite sides, three or four sides) fill the square and get field
    // caps drawn back over the sides they do not reach.
    let mut cities: Vec<(u8, Vec<Side>)> = Vec::new();
    for (i, seg) in tile.segments.iter().enumerate() {
        if seg.kind == FeatureKind::City {
            cities.push((i as u8, sides_of(tile.segment_sides(rot, i as u8))));
        }
    }
    let is_large =
        |sides: &[Side]| sides.len() >= 3 || (sides.len() == 2 && sides[0].opposite() == sides[1]);
    for (_, sides) in cities.iter().filter(|(_, s)| is_large(s)) {
        out.push(whole(CITY));
        for side in Side::ALL.into_iter().filter(|x| !sides.contains(x)) {
            let (outline, curve) = cap(side);
            out.push(Shape::Polygon {
                points: pts(&outline),
                fill: Some(FIELD),
                stroke: None,
            });
            out.push(Shape::Polyline {
                points: pts(&curve),
                stroke: wall,
            });
        }
    }
    for (_, sides) in cities.iter().filter(|(_, s)| !is_large(s)) {
        let (outline, curve) = match sides.as_slice() {
            [one] => cap(*one),
            [a, b] => {
                // Clockwise order: (N,W) is W then N.
                if a.index() + 1 == b.index() {
                    corner(*a, *b)
                } else {
                    corner(*b, *a)
                }
            }
            _ => continue,
        };
        out.push(Shape::Polygon {
            points: pts(&outline),
            fill: Some(CITY),
            stroke: None,
        });
        out.push(Shape::Polyline {
            points: pts(&curve),
            stroke: wall,
        });
    }

    // The River: a blue band between its sides (under the roads, so a bridge crosses it); the
    // spring and the lake a pool in the centre. No river, no shape: other tiles draw as before.
    let river = sides_of(tile.river_sides(rot));
    if !river.is_empty() {
        let path: Vec<Point> = match river.as_slice() {
            [a, b] if a.opposite() == *b => vec![side_mid(*a), side_mid(*b)],
            [a, b] => quad(side_mid(*a), Point::ZERO, side_mid(*b), 12).collect(),
            _ => river
                .iter()
                .flat_map(|&x| [side_mid(x), Point::ZERO])
                .collect(),
        };
        out.push(Shape::Polyline {
            points: pts(&path),
            stroke: Stroke::new(0.14, 2.0, RIVER),
        });
        if tile.river_end.is_some() {
            out.push(Shape::Circle {
                centre: to(Point::ZERO),
                radius: 0.2,
                min_radius_px: 3.0,
                fill: Some(RIVER),
                stroke: None,
            });
        }
    }

    // Roads: a light band over a darker, wider one; a dead end gets a small round end.
    for (i, seg) in tile.segments.iter().enumerate() {
        if seg.kind != FeatureKind::Road {
            continue;
        }
        let sides = sides_of(tile.segment_sides(rot, i as u8));
        let path: Vec<Point> = match sides.as_slice() {
            [one] => vec![side_mid(*one), Point::ZERO],
            [a, b] if a.opposite() == *b => vec![side_mid(*a), side_mid(*b)],
            [a, b] => quad(side_mid(*a), Point::ZERO, side_mid(*b), 12).collect(),
            _ => sides
                .iter()
                .flat_map(|&x| [side_mid(x), Point::ZERO])
                .collect(),
        };
        let p = pts(&path);
        out.push(Shape::Polyline {
            points: p.clone(),
            stroke: Stroke::new(0.15, 2.25, ROAD_EDGE),
        });
        out.push(Shape::Polyline {
            points: p,
            stroke: Stroke::new(0.1, 1.5, ROAD),
        });
        if sides.len() == 1 {
            out.push(Shape::Circle {
                centre: to(Point::ZERO),
                radius: 0.09,
                min_radius_px: 1.35,
                fill: Some(ROAD),
                stroke: Some(Stroke::new(0.025, 0.375, ROAD_EDGE)),
            });
        }
    }

    // Monastery: a small church (body and roof) in the centre.
    if tile.monastery_segment().is_some() {
        let thin_wall = Stroke::new(0.015, 1.0, WALL);
        out.push(Shape::Rect {
            min: to(pt(-0.15, -0.05)),
            max: to(pt(0.15, 0.17)),
            rounding: 0.0,
            fill: Some(MONASTERY_WALL),
            stroke: Some(thin_wall),
            align: StrokeAlign::Middle,
        });
        out.push(Shape::Polygon {
            points: vec![to(pt(-0.2, -0.05)), to(pt(0.0, -0.22)), to(pt(0.2, -0.05))],
            fill: Some(MONASTERY),
            stroke: Some(thin_wall),
        });
        out.push(Shape::Rect {
            min: to(pt(-0.035, 0.07)),
            max: to(pt(0.035, 0.17)),
            rounding: 0.0,
            fill: Some(WALL),
            stroke: None,
            align: StrokeAlign::Inside,
        });
    }

    // A garden (a garden copy, The Abbot): a small bed with a hedge and three flowers.
    if let Some(g) = garden_spot(tile, rot) {
        out.push(Shape::Rect {
            min: to(g - pt(0.12, 0.09)),
            max: to(g + pt(0.12, 0.09)),
            rounding: 0.05,
            fill: Some(GARDEN),
            stroke: Some(Stroke::new(0.02, 1.0, GARDEN_HEDGE)),
            align: StrokeAlign::Inside,
        });
        for dx in [-0.06, 0.0, 0.06] {
            out.push(Shape::Circle {
                centre: to(g + pt(dx, if dx == 0.0 { -0.025 } else { 0.025 })),
                radius: 0.02,
                min_radius_px: 0.0,
                fill: Some(GARDEN_FLOWER),
                stroke: None,
            });
        }
    }

    // Inns & Cathedrals: an inn (a red-roofed house on a small lake) beside the middle of its
    // road, on the road's right-hand side; a cathedral (a grey nave with a spire) in its city.
    for (i, seg) in tile.segments.iter().enumerate() {
        if seg.inn {
            let sides = sides_of(tile.segment_sides(rot, i as u8));
            let Some(&first) = sides.first() else {
                continue;
            };
            let along = side_mid(first) * 0.55;
            let beside = pt(-along.y, along.x) * 0.45;
            let c = along + beside;
            out.push(Shape::Circle {
                centre: to(c),
                radius: 0.09,
                min_radius_px: 0.0,
                fill: Some(INN_LAKE),
                stroke: None,
            });
            out.push(Shape::Polygon {
                points: vec![
                    to(c + pt(-0.07, 0.0)),
                    to(c + pt(0.0, -0.07)),
                    to(c + pt(0.07, 0.0)),
                    to(c + pt(0.07, 0.06)),
                    to(c + pt(-0.07, 0.06)),
                ],
                fill: Some(INN),
                stroke: Some(Stroke::new(0.012, 1.0, WALL)),
            });
        }
        if seg.cathedral {
            out.push(Shape::Polygon {
                points: pts(&[
                    pt(-0.16, 0.14),
                    pt(0.16, 0.14),
                    pt(0.16, -0.02),
                    pt(0.05, -0.02),
                    pt(0.0, -0.24),
                    pt(-0.05, -0.02),
                    pt(-0.16, -0.02),
                ]),
                fill: Some(CATHEDRAL),
                stroke: Some(Stroke::new(0.015, 1.0, WALL)),
            });
        }
    }

    // Coats of arms.
    for (i, sides) in &cities {
        if tile.segments[*i as usize].coats_of_arms == 0 {
            continue;
        }
        let c = shield_spot(sides);
        let k = 0.07;
        out.push(Shape::Polygon {
            points: vec![
                to(c + pt(-k, -k)),
                to(c + pt(k, -k)),
                to(c + pt(k, 0.2 * k)),
                to(c + pt(0.0, 1.3 * k)),
                to(c + pt(-k, 0.2 * k)),
            ],
            fill: Some(SHIELD),
            stroke: Some(Stroke::new(0.012, 1.0, Rgba::WHITE)),
        });
    }

    // Traders & Builders: the goods of a city, where a coat of arms would go (beside it when
    // there is one): wine a purple disc, grain a golden diamond, cloth a blue square.
    for (i, sides) in &cities {
        let seg = &tile.segments[*i as usize];
        let Some(good) = seg.goods else {
            continue;
        };
        let shift = if seg.coats_of_arms > 0 {
            pt(-0.17, 0.0)
        } else {
            Point::ZERO
        };
        let c = shield_spot(sides) + shift;
        let k = 0.075;
        let stroke = Some(Stroke::new(0.012, 1.0, Rgba::WHITE));
        out.push(match good {
            Good::Wine => Shape::Circle {
                centre: to(c),
                radius: k,
                min_radius_px: 0.0,
                fill: Some(WINE),
                stroke,
            },
            Good::Grain => Shape::Polygon {
                points: vec![
                    to(c + pt(0.0, -k * 1.2)),
                    to(c + pt(k, 0.0)),
                    to(c + pt(0.0, k * 1.2)),
                    to(c + pt(-k, 0.0)),
                ],
                fill: Some(GRAIN),
                stroke,
            },
            Good::Cloth => Shape::Polygon {
                points: vec![
                    to(c + pt(-k, -k)),
                    to(c + pt(k, -k)),
                    to(c + pt(k, k)),
                    to(c + pt(-k, k)),
                ],
                fill: Some(CLOTH),
                stroke,
            },
        });
    }

    if let Some(arrow) = tile.arrow(rot) {
        out.push(Shape::Polygon {
            points: pts(&arrow_triangle(arrow.side)),
            fill: Some(arrow_color(arrow.symbol)),
            stroke: Some(Stroke::new(0.012, 1.0, Rgba::BLACK)),
        });
    }

    // The tile's edge: one pixel at any zoom, so that neighbouring tiles stay apart.
    out.push(Shape::Rect {
        min: to(pt(-0.5, -0.5)),
        max: to(pt(0.5, 0.5)),
        rounding: 0.0,
        fill: None,
        stroke: Some(Stroke::pixels(1.0, FIELD_EDGE)),
        align: StrokeAlign::Inside,
    });
}

/// An abbot standing at `p` (The Abbot): a mitre in the player's colour, taller than a meeple.
fn abbot(out: &mut Vec<Shape>, p: Point, color: Rgba) {
    let outline = if color.is_dark() {
        Rgba::WHITE
    } else {
        MEEPLE_OUTLINE
    };
    out.push(Shape::Polygon {
        points: vec![
            p + pt(-0.1, 0.13),
            p + pt(0.1, 0.13),
            p + pt(0.1, -0.05),
            p + pt(0.0, -0.17),
            p + pt(-0.1, -0.05),
        ],
        fill: Some(color),
        stroke: Some(Stroke::new(0.02, 1.0, outline)),
    });
    // A cross on the mitre, so that the abbot is told from a meeple without colour.
    out.push(Shape::Line {
        from: p + pt(0.0, -0.06),
        to: p + pt(0.0, 0.08),
        stroke: Stroke::new(0.018, 1.0, outline),
    });
    out.push(Shape::Line {
        from: p + pt(-0.045, 0.0),
        to: p + pt(0.045, 0.0),
        stroke: Stroke::new(0.018, 1.0, outline),
    });
}

/// Where a builder or pig stands from the spot of a meeple on its feature (beside it, as the
/// feature always holds its owner's meeple).
const SPECIAL_OFFSET: Point = pt(0.17, 0.12);

/// A builder or pig (Traders & Builders) at `p`, in the player's colour: the builder a tall
/// block with a white band (a standing figure taller than wide, unlike the round meeple), the
/// pig a wide body with a snout (unlike the farmer's plain bar).
fn special(out: &mut Vec<Shape>, p: Point, which: Special, color: Rgba) {
    let outline = if color.is_dark() {
        Rgba::WHITE
    } else {
        MEEPLE_OUTLINE
    };
    let stroke = Some(Stroke::new(0.018, 1.0, outline));
    match which {
        Special::Builder => {
            out.push(Shape::Rect {
                min: p - pt(0.055, 0.1),
                max: p + pt(0.055, 0.1),
                rounding: 0.02,
                fill: Some(color),
                stroke,
                align: StrokeAlign::Middle,
            });
            out.push(Shape::Line {
                from: p + pt(-0.055, -0.02),
                to: p + pt(0.055, -0.02),
                stroke: Stroke::new(0.02, 1.0, outline),
            });
        }
        Special::Pig => {
            out.push(Shape::Rect {
                min: p - pt(0.09, 0.055),
                max: p + pt(0.09, 0.055),
                rounding: 0.05,
                fill: Some(color),
                stroke,
                align: StrokeAlign::Middle,
            });
            out.push(Shape::Circle {
                centre: p + pt(0.1, 0.0),
                radius: 0.03,
                min_radius_px: 0.0,
                fill: Some(color),
                stroke,
            });
        }
    }
}

/// How much larger the large meeple (Inns & Cathedrals) is drawn than a meeple.
pub const LARGE_MEEPLE: f32 = 1.45;

/// A meeple standing at `p`, `scale` times the normal size; a farmer lies down.
fn meeple(out: &mut Vec<Shape>, p: Point, label: SegmentLabel, color: Rgba, scale: f32) {
    let outline = if color.is_dark() {
        Rgba::WHITE
    } else {
        MEEPLE_OUTLINE
    };
    let stroke = Some(Stroke::new(0.02, 1.0, outline));
    if label.kind == FeatureKind::Field {
        out.push(Shape::Rect {
            min: p - pt(0.14, 0.065) * scale,
            max: p + pt(0.14, 0.065) * scale,
            rounding: 0.06,
            fill: Some(color),
            stroke,
            align: StrokeAlign::Middle,
        });
    } else {
        out.push(Shape::Circle {
            centre: p,
            radius: 0.11 * scale,
            min_radius_px: 0.0,
            fill: Some(color),
            stroke,
        });
    }
}
