//! The board, drawn from the tile data with the painter (no image assets).
//!
//! Coordinates: a square `(x, y)` (y grows to the north) has its centre at world point
//! `(x, -y)`; one square is one world unit. On a square, local points run from `-0.5` to
//! `0.5`, `v` growing downwards (south), so the north side is `v = -0.5`.

use carc_rules::{
    Anchor, ArrowState, ArrowSymbol, FeatureKind, Game, MapBoard, Port, Pos, Print, RegionKind,
    Rotation, SegmentLabel, Side, Square, Terrain, TileType,
};
use egui::{vec2, Color32, Painter, Pos2, Rect, Shape, Stroke, Vec2};

pub const FIELD: Color32 = Color32::from_rgb(104, 160, 72);
pub const FIELD_EDGE: Color32 = Color32::from_rgb(70, 115, 50);
pub const CITY: Color32 = Color32::from_rgb(196, 150, 92);
pub const WALL: Color32 = Color32::from_rgb(110, 72, 38);
pub const ROAD: Color32 = Color32::from_rgb(238, 232, 210);
pub const ROAD_EDGE: Color32 = Color32::from_rgb(120, 110, 90);
pub const MONASTERY: Color32 = Color32::from_rgb(200, 80, 60);
pub const MONASTERY_WALL: Color32 = Color32::from_rgb(240, 225, 200);
pub const SHIELD: Color32 = Color32::from_rgb(40, 70, 170);
pub const LAST_PLACED: Color32 = Color32::from_rgb(255, 140, 0);
pub const HIGHLIGHT: Color32 = Color32::from_rgb(255, 240, 60);
pub const LEGAL: Color32 = Color32::from_rgba_premultiplied(90, 90, 90, 90);
/// Arrow colours (20th Anniversary), one per symbol.
pub const COMPANION: Color32 = Color32::from_rgb(150, 70, 200);
pub const PORTAL: Color32 = Color32::from_rgb(30, 190, 210);
pub const EXTRA_TURN: Color32 = Color32::from_rgb(235, 120, 20);
/// Map boards (Carcassonne Maps): playable land, sea, foreign land, towns and prints.
pub const MAP_LAND: Color32 = Color32::from_rgb(72, 96, 62);
pub const MAP_SEA: Color32 = Color32::from_rgb(44, 70, 110);
pub const MAP_ABROAD: Color32 = Color32::from_rgb(86, 84, 70);
pub const MAP_OUTLINE: Color32 = Color32::from_rgb(20, 26, 20);
pub const TOWN: Color32 = Color32::from_rgb(200, 60, 50);
/// A spent arrow is greyed over.
pub const SPENT: Color32 = Color32::from_rgba_premultiplied(70, 70, 70, 200);

/// The colour of an arrow's symbol.
pub fn arrow_color(symbol: ArrowSymbol) -> Color32 {
    match symbol {
        ArrowSymbol::Companion => COMPANION,
        ArrowSymbol::Portal => PORTAL,
        ArrowSymbol::ExtraTurn => EXTRA_TURN,
    }
}

/// The arrow's triangle on a square: its tip near the middle of `side`, pointing out.
fn arrow_triangle(sq: Rect, side: Side) -> Vec<Pos2> {
    let s = sq.width();
    let out = match side {
        Side::N => vec2(0.0, -1.0),
        Side::E => vec2(1.0, 0.0),
        Side::S => vec2(0.0, 1.0),
        Side::W => vec2(-1.0, 0.0),
    };
    let across = vec2(-out.y, out.x);
    let c = sq.center();
    [
        out * 0.46,
        out * 0.26 + across * 0.13,
        out * 0.26 - across * 0.13,
    ]
    .iter()
    .map(|&p| c + p * s)
    .collect()
}

/// Smallest and largest zoom, in pixels per square.
pub const MIN_SCALE: f32 = 6.0;
pub const MAX_SCALE: f32 = 240.0;

/// Pan and zoom of the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardView {
    /// World point shown at the centre of the board's rectangle.
    pub centre: Vec2,
    /// Pixels per square.
    pub scale: f32,
    /// Refit to the board every frame until the user pans or zooms.
    pub auto_fit: bool,
}

impl Default for BoardView {
    fn default() -> BoardView {
        BoardView {
            centre: Vec2::ZERO,
            scale: 60.0,
            auto_fit: true,
        }
    }
}

/// The world point of a square's centre.
pub fn world_of(at: Pos) -> Vec2 {
    vec2(at.x as f32, -(at.y as f32))
}

impl BoardView {
    pub fn to_screen(&self, rect: Rect, world: Vec2) -> Pos2 {
        rect.center() + (world - self.centre) * self.scale
    }

    pub fn to_world(&self, rect: Rect, p: Pos2) -> Vec2 {
        (p - rect.center()) / self.scale + self.centre
    }

    /// The square under a screen point.
    pub fn square_at(&self, rect: Rect, p: Pos2) -> Pos {
        let w = self.to_world(rect, p);
        Pos::new(w.x.round() as i32, (-w.y).round() as i32)
    }

    /// The screen rectangle of a square.
    pub fn square_rect(&self, rect: Rect, at: Pos) -> Rect {
        Rect::from_center_size(self.to_screen(rect, world_of(at)), Vec2::splat(self.scale))
    }

    /// Centres and zooms so that all `squares` (plus half a square of margin) fit in `rect`.
    pub fn fit(&mut self, rect: Rect, squares: impl IntoIterator<Item = Pos>) {
        let mut min = vec2(f32::INFINITY, f32::INFINITY);
        let mut max = vec2(f32::NEG_INFINITY, f32::NEG_INFINITY);
        for at in squares {
            let w = world_of(at);
            min = min.min(w);
            max = max.max(w);
        }
        if !min.x.is_finite() {
            min = Vec2::ZERO;
            max = Vec2::ZERO;
        }
        // Square extents plus half a square of margin on every side.
        let size = max - min + Vec2::splat(2.0);
        self.centre = (min + max) / 2.0;
        let scale = (rect.width() / size.x).min(rect.height() / size.y);
        self.scale = scale.clamp(MIN_SCALE, MAX_SCALE);
    }

    /// Zooms by `factor`, keeping the world point under `pointer` where it is.
    pub fn zoom_at(&mut self, rect: Rect, pointer: Pos2, factor: f32) {
        let before = self.to_world(rect, pointer);
        self.scale = (self.scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        let after = self.to_world(rect, pointer);
        self.centre += before - after;
    }

    /// Moves the board by a screen-space delta.
    pub fn pan(&mut self, delta: Vec2) {
        self.centre -= delta / self.scale;
    }
}

// ---- local geometry on a square ------------------------------------------------------------

/// Midpoint of a side.
pub fn side_mid(side: Side) -> Vec2 {
    match side {
        Side::N => vec2(0.0, -0.5),
        Side::E => vec2(0.5, 0.0),
        Side::S => vec2(0.0, 0.5),
        Side::W => vec2(-0.5, 0.0),
    }
}

/// The two corners of a side, clockwise.
fn side_corners(side: Side) -> [Vec2; 2] {
    match side {
        Side::N => [vec2(-0.5, -0.5), vec2(0.5, -0.5)],
        Side::E => [vec2(0.5, -0.5), vec2(0.5, 0.5)],
        Side::S => [vec2(0.5, 0.5), vec2(-0.5, 0.5)],
        Side::W => [vec2(-0.5, 0.5), vec2(-0.5, -0.5)],
    }
}

/// Where a half-edge meets the border.
pub fn port_point(port: Port) -> Vec2 {
    match port {
        Port::Nw => vec2(-0.25, -0.5),
        Port::Ne => vec2(0.25, -0.5),
        Port::En => vec2(0.5, -0.25),
        Port::Es => vec2(0.5, 0.25),
        Port::Se => vec2(0.25, 0.5),
        Port::Sw => vec2(-0.25, 0.5),
        Port::Ws => vec2(-0.5, 0.25),
        Port::Wn => vec2(-0.5, -0.25),
    }
}

fn quad(a: Vec2, c: Vec2, b: Vec2, n: usize) -> impl Iterator<Item = Vec2> {
    (0..=n).map(move |i| {
        let t = i as f32 / n as f32;
        a * (1.0 - t) * (1.0 - t) + c * 2.0 * t * (1.0 - t) + b * t * t
    })
}

const CAP_DEPTH: f32 = 0.27;

/// A cap on `side`: the side itself, then a wall reaching `CAP_DEPTH` into the square, flat in
/// the middle and steep near the corners (depth `D·(1 − u⁴)`, a concave profile, so the cap
/// is convex). Returns the closed outline and the wall alone.
fn cap(side: Side) -> (Vec<Vec2>, Vec<Vec2>) {
    let [a, b] = side_corners(side);
    let inward = -side_mid(side) * 2.0;
    let n = 20;
    let curve: Vec<Vec2> = (0..=n)
        .map(|i| {
            let t = i as f32 / n as f32;
            let u = 2.0 * t - 1.0;
            b + (a - b) * t + inward * CAP_DEPTH * (1.0 - u.powi(4))
        })
        .collect();
    (curve.clone(), curve)
}

/// A city over two adjacent sides: the corner triangle, its diagonal bowed a little outwards.
fn corner(first: Side, second: Side) -> (Vec<Vec2>, Vec<Vec2>) {
    // `first` then `second` clockwise: the shared corner is first's end.
    let [a, shared] = side_corners(first);
    let [_, b] = side_corners(second);
    debug_assert_eq!(shared, side_corners(second)[0]);
    let control = -(shared) * 0.2;
    let curve: Vec<Vec2> = quad(b, control, a, 12).collect();
    let mut outline = vec![a, shared];
    outline.extend(curve.iter().copied());
    (outline, curve)
}

fn sides_of(mask: u8) -> Vec<Side> {
    Side::ALL
        .into_iter()
        .filter(|s| mask & (1 << s.index()) != 0)
        .collect()
}

/// Where a meeple on this segment stands, in local coordinates.
pub fn meeple_spot(label: SegmentLabel) -> Vec2 {
    match (label.kind, label.anchor) {
        (FeatureKind::City, Some(Anchor::Side(s))) => side_mid(s) * 0.7,
        (FeatureKind::Road, Some(Anchor::Side(s))) => side_mid(s) * 0.5,
        (FeatureKind::Field, Some(Anchor::Port(p))) => port_point(p) * 0.65,
        _ => vec2(0.0, 0.08),
    }
}

/// Where a city segment's coat of arms is drawn, in local coordinates.
fn shield_spot(sides: &[Side]) -> Vec2 {
    if let [s] = sides {
        let [a, b] = side_corners(*s);
        return side_mid(*s) * 0.78 + (b - a) * 0.2;
    }
    let avg = sides
        .iter()
        .map(|&s| side_mid(s))
        .fold(Vec2::ZERO, |acc, v| acc + v)
        / sides.len().max(1) as f32;
    if avg.length() < 0.01 {
        vec2(0.18, -0.1)
    } else if sides.len() == 2 {
        avg * 1.4
    } else {
        avg * 1.3 + vec2(avg.y, -avg.x).normalized() * 0.2
    }
}

// ---- painting ------------------------------------------------------------------------------

/// What to draw besides the tiles.
pub struct Overlay<'a> {
    /// Meeple colour per seat.
    pub colors: &'a [Color32],
    /// The tile placed last (outlined).
    pub last_placed: Option<Pos>,
    /// The tile whose arrow the current event activated (its arrow is outlined in yellow).
    pub activated_arrow: Option<Pos>,
    /// Squares of a feature to highlight (hovered score).
    pub highlight: &'a [Pos],
    /// Squares where the drawn tile could go.
    pub legal: &'a [Pos],
    /// The hovered square.
    pub hovered: Option<Pos>,
}

/// Paints the board of `game` into `rect`.
pub fn paint(painter: &Painter, rect: Rect, view: &BoardView, game: &Game, overlay: &Overlay<'_>) {
    let painter = painter.with_clip_rect(rect);
    painter.rect_filled(rect, 0.0, Color32::from_rgb(40, 44, 40));
    if let Some(map) = game.map() {
        paint_map(&painter, rect, view, game, map);
    }
    for placed in game.placed() {
        let sq = view.square_rect(rect, placed.at);
        if !sq.intersects(rect) {
            continue;
        }
        paint_tile(&painter, view, rect, game, placed.at);
    }
    let s = view.scale;
    for &at in overlay.legal {
        let sq = view.square_rect(rect, at).shrink(s * 0.06);
        painter.rect_stroke(
            sq,
            s * 0.08,
            Stroke::new((s * 0.02).max(1.0), LEGAL),
            egui::StrokeKind::Inside,
        );
    }
    for &at in overlay.highlight {
        let sq = view.square_rect(rect, at);
        painter.rect_filled(sq, 0.0, HIGHLIGHT.gamma_multiply(0.35));
        painter.rect_stroke(
            sq,
            0.0,
            Stroke::new((s * 0.04).max(1.5), HIGHLIGHT),
            egui::StrokeKind::Inside,
        );
    }
    for arrow in game.arrows() {
        let sq = view.square_rect(rect, arrow.at);
        let triangle = arrow_triangle(sq, arrow.side);
        if overlay.activated_arrow == Some(arrow.at) {
            painter.add(Shape::closed_line(
                triangle,
                Stroke::new((s * 0.04).max(2.0), HIGHLIGHT),
            ));
        } else if arrow.state == ArrowState::Spent {
            painter.add(Shape::convex_polygon(triangle, SPENT, Stroke::NONE));
        } else if arrow.state == ArrowState::Activated {
            painter.add(Shape::closed_line(
                triangle,
                Stroke::new((s * 0.02).max(1.0), Color32::WHITE),
            ));
        }
    }
    if let Some(at) = overlay.last_placed {
        painter.rect_stroke(
            view.square_rect(rect, at),
            0.0,
            Stroke::new((s * 0.05).max(2.0), LAST_PLACED),
            egui::StrokeKind::Inside,
        );
    }
    if let Some(at) = overlay.hovered {
        if game.tile_at(at).is_some() {
            painter.rect_stroke(
                view.square_rect(rect, at),
                0.0,
                Stroke::new(1.5, Color32::WHITE),
                egui::StrokeKind::Inside,
            );
        }
    }
    for (player, at, _, label) in game.meeples() {
        let color = overlay
            .colors
            .get(player as usize)
            .copied()
            .unwrap_or(Color32::WHITE);
        paint_meeple(&painter, view, rect, at, label, color);
    }
}

/// The map under the tiles: outside regions (sea, countries), the outline of the playable
/// squares, large cities (blocked, printed as city with their coats of arms), start squares
/// (darker margin), towns (a small house) and the road and city segments printed abroad.
fn paint_map(painter: &Painter, rect: Rect, view: &BoardView, game: &Game, map: &MapBoard) {
    let s = view.scale;
    for (at, square) in map.grid() {
        let sq = view.square_rect(rect, at);
        if !sq.intersects(rect) {
            continue;
        }
        match square {
            Square::Outside(r) => {
                let color = match map.regions()[r as usize].kind {
                    RegionKind::Sea => MAP_SEA,
                    RegionKind::Land => MAP_ABROAD,
                };
                painter.rect_filled(sq, 0.0, color);
            }
            Square::Playable => {
                painter.rect_filled(sq, 0.0, MAP_LAND);
                painter.rect_stroke(
                    sq,
                    0.0,
                    Stroke::new((s * 0.015).max(0.5), MAP_OUTLINE),
                    egui::StrokeKind::Inside,
                );
            }
            Square::LargeCity(_) => {
                painter.rect_filled(sq, 0.0, CITY);
                painter.rect_stroke(
                    sq,
                    0.0,
                    Stroke::new((s * 0.06).max(1.0), WALL),
                    egui::StrokeKind::Inside,
                );
            }
        }
    }
    // Outline of the playable land: sides between a playable square and the outside.
    let stroke = Stroke::new((s * 0.05).max(1.0), MAP_OUTLINE);
    for (at, square) in map.grid() {
        if square != Square::Playable {
            continue;
        }
        let sq = view.square_rect(rect, at);
        for side in Side::ALL {
            if map.border(at, side).is_none() {
                continue;
            }
            let [a, b] = side_corners(side);
            let to = |v: Vec2| sq.center() + v * s;
            painter.line_segment([to(a), to(b)], stroke);
            if let Some(print) = map.border(at, side).and_then(|b| b.print) {
                paint_print(painter, sq, side, print, s);
            }
        }
    }
    for (i, city) in map.large_cities().iter().enumerate() {
        let Some(&first) = city.squares.first() else {
            continue;
        };
        let sq = view.square_rect(rect, first);
        for k in 0..city.coats_of_arms.min(4) {
            let c = sq.center() + vec2(-0.3 + 0.2 * f32::from(k), -0.3) * s;
            painter.circle_filled(c, s * 0.07, SHIELD);
        }
        let name_color = if game.large_city_connected(i) {
            Color32::WHITE
        } else {
            Color32::from_gray(40)
        };
        if s >= 24.0 {
            painter.text(
                sq.center() + vec2(0.0, 0.15) * s,
                egui::Align2::CENTER_CENTER,
                city.name,
                egui::FontId::proportional(s * 0.16),
                name_color,
            );
        }
    }
    for start in map.start_squares() {
        let sq = view.square_rect(rect, start.at);
        painter.rect_stroke(
            sq.shrink(s * 0.04),
            0.0,
            Stroke::new((s * 0.08).max(1.0), MAP_OUTLINE),
            egui::StrokeKind::Inside,
        );
    }
    for town in map.towns() {
        if game.tile_at(town.at).is_some() {
            continue;
        }
        let c = view.square_rect(rect, town.at).center();
        let w = s * 0.12;
        painter.add(Shape::convex_polygon(
            vec![
                c + vec2(-w, 0.0),
                c + vec2(0.0, -w),
                c + vec2(w, 0.0),
                c + vec2(w, w),
                c + vec2(-w, w),
            ],
            TOWN,
            Stroke::NONE,
        ));
        if s >= 24.0 {
            painter.text(
                c + vec2(0.0, w * 2.2),
                egui::Align2::CENTER_CENTER,
                town.name,
                egui::FontId::proportional(s * 0.14),
                Color32::WHITE,
            );
        }
    }
}

/// A road or city printed abroad: a stub beyond the side, with its coats of arms.
fn paint_print(painter: &Painter, sq: Rect, side: Side, print: Print, s: f32) {
    let out = side_mid(side) * 2.0;
    let mid = sq.center() + side_mid(side) * s;
    let far = sq.center() + out * s * 0.85;
    match print.terrain {
        Terrain::City => {
            let across = vec2(out.y, out.x).abs() * 0.25 * s;
            painter.add(Shape::convex_polygon(
                vec![
                    mid - across,
                    mid + across,
                    far + across * 0.6,
                    far - across * 0.6,
                ],
                CITY,
                Stroke::new((s * 0.02).max(1.0), WALL),
            ));
        }
        _ => {
            painter.line_segment([mid, far], Stroke::new(s * 0.12, ROAD_EDGE));
            painter.line_segment([mid, far], Stroke::new(s * 0.08, ROAD));
        }
    }
    for k in 0..print.coats_of_arms.min(4) {
        let c = mid + (far - mid) * (0.35 + 0.2 * f32::from(k));
        painter.circle_filled(c, s * 0.05, SHIELD);
    }
}

fn paint_tile(painter: &Painter, view: &BoardView, rect: Rect, game: &Game, at: Pos) {
    let Some(placed) = game.tile_at(at) else {
        return;
    };
    let tile = game.tiles().get(placed.tile);
    paint_tile_type(painter, view.square_rect(rect, at), tile, placed.rotation);
}

/// Paints a tile type with a rotation into the square `sq`.
pub fn paint_tile_type(painter: &Painter, sq: Rect, tile: &TileType, rot: Rotation) {
    let s = sq.width();
    let to = |p: Vec2| sq.center() + p * s;
    let pts = |ps: &[Vec2]| ps.iter().map(|&p| to(p)).collect::<Vec<Pos2>>();
    let wall = Stroke::new((s * 0.025).max(1.0), WALL);

    painter.rect_filled(sq, 0.0, FIELD);

    // Cities. Large ones (opposite sides, three or four sides) fill the square and get field
    // caps painted back over the sides they do not reach.
    let mut cities: Vec<(u8, Vec<Side>)> = Vec::new();
    for (i, seg) in tile.segments.iter().enumerate() {
        if seg.kind == FeatureKind::City {
            cities.push((i as u8, sides_of(tile.segment_sides(rot, i as u8))));
        }
    }
    let is_large =
        |sides: &[Side]| sides.len() >= 3 || (sides.len() == 2 && sides[0].opposite() == sides[1]);
    for (_, sides) in cities.iter().filter(|(_, s)| is_large(s)) {
        painter.rect_filled(sq, 0.0, CITY);
        for side in Side::ALL.into_iter().filter(|x| !sides.contains(x)) {
            let (outline, curve) = cap(side);
            painter.add(Shape::convex_polygon(pts(&outline), FIELD, Stroke::NONE));
            painter.add(Shape::line(pts(&curve), wall));
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
        painter.add(Shape::convex_polygon(pts(&outline), CITY, Stroke::NONE));
        painter.add(Shape::line(pts(&curve), wall));
    }

    // Roads.
    let road_w = (s * 0.1).max(1.5);
    for (i, seg) in tile.segments.iter().enumerate() {
        if seg.kind != FeatureKind::Road {
            continue;
        }
        let sides = sides_of(tile.segment_sides(rot, i as u8));
        let path: Vec<Vec2> = match sides.as_slice() {
            [one] => vec![side_mid(*one), Vec2::ZERO],
            [a, b] if a.opposite() == *b => vec![side_mid(*a), side_mid(*b)],
            [a, b] => quad(side_mid(*a), Vec2::ZERO, side_mid(*b), 12).collect(),
            _ => sides
                .iter()
                .flat_map(|&x| [side_mid(x), Vec2::ZERO])
                .collect(),
        };
        let p = pts(&path);
        painter.add(Shape::line(p.clone(), Stroke::new(road_w * 1.5, ROAD_EDGE)));
        painter.add(Shape::line(p, Stroke::new(road_w, ROAD)));
        if sides.len() == 1 {
            painter.circle(
                to(Vec2::ZERO),
                road_w * 0.9,
                ROAD,
                Stroke::new(road_w * 0.25, ROAD_EDGE),
            );
        }
    }

    // Monastery: a small church (body and roof) in the centre.
    if tile.monastery_segment().is_some() {
        let body = Rect::from_center_size(to(vec2(0.0, 0.06)), vec2(0.3, 0.22) * s);
        painter.rect(
            body,
            0.0,
            MONASTERY_WALL,
            Stroke::new((s * 0.015).max(1.0), WALL),
            egui::StrokeKind::Middle,
        );
        let roof = vec![
            to(vec2(-0.2, -0.05)),
            to(vec2(0.0, -0.22)),
            to(vec2(0.2, -0.05)),
        ];
        painter.add(Shape::convex_polygon(
            roof,
            MONASTERY,
            Stroke::new((s * 0.015).max(1.0), WALL),
        ));
        let door = Rect::from_center_size(to(vec2(0.0, 0.12)), vec2(0.07, 0.1) * s);
        painter.rect_filled(door, 0.0, WALL);
    }

    // Coats of arms.
    for (i, sides) in &cities {
        if tile.segments[*i as usize].coats_of_arms == 0 {
            continue;
        }
        let c = shield_spot(sides);
        let k = 0.07;
        let shield = vec![
            to(c + vec2(-k, -k)),
            to(c + vec2(k, -k)),
            to(c + vec2(k, 0.2 * k)),
            to(c + vec2(0.0, 1.3 * k)),
            to(c + vec2(-k, 0.2 * k)),
        ];
        painter.add(Shape::convex_polygon(
            shield,
            SHIELD,
            Stroke::new((s * 0.012).max(1.0), Color32::WHITE),
        ));
    }

    if let Some(arrow) = tile.arrow(rot) {
        painter.add(Shape::convex_polygon(
            arrow_triangle(sq, arrow.side),
            arrow_color(arrow.symbol),
            Stroke::new((s * 0.012).max(1.0), Color32::BLACK),
        ));
    }

    painter.rect_stroke(
        sq,
        0.0,
        Stroke::new(1.0, FIELD_EDGE),
        egui::StrokeKind::Inside,
    );
}

fn paint_meeple(
    painter: &Painter,
    view: &BoardView,
    rect: Rect,
    at: Pos,
    label: SegmentLabel,
    color: Color32,
) {
    let s = view.scale;
    let p = view.to_screen(rect, world_of(at) + meeple_spot(label));
    let outline = if color.r() < 60 && color.g() < 60 && color.b() < 60 {
        Color32::WHITE
    } else {
        Color32::from_rgb(20, 20, 20)
    };
    let stroke = Stroke::new((s * 0.02).max(1.0), outline);
    if label.kind == FeatureKind::Field {
        // A farmer lies down.
        let r = Rect::from_center_size(p, vec2(0.28, 0.13) * s);
        painter.rect(r, s * 0.06, color, stroke, egui::StrokeKind::Middle);
    } else {
        painter.circle(p, s * 0.11, color, stroke);
    }
}

/// The screen point of a square's centre.
pub fn square_center(view: &BoardView, rect: Rect, at: Pos) -> Pos2 {
    view.to_screen(rect, world_of(at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    fn rect() -> Rect {
        Rect::from_min_size(pos2(100.0, 50.0), vec2(400.0, 300.0))
    }

    #[test]
    fn screen_and_world_round_trip() {
        let view = BoardView {
            centre: vec2(2.0, -1.0),
            scale: 50.0,
            auto_fit: false,
        };
        let r = rect();
        assert_eq!(view.to_screen(r, vec2(2.0, -1.0)), r.center());
        for at in [Pos::new(0, 0), Pos::new(3, 2), Pos::new(-4, -1)] {
            let c = square_center(&view, r, at);
            assert_eq!(view.square_at(r, c), at);
            // A point near the north-east corner is still on the same square.
            assert_eq!(view.square_at(r, c + vec2(20.0, -20.0)), at);
        }
        // North is up on the screen.
        assert!(
            square_center(&view, r, Pos::new(0, 1)).y < square_center(&view, r, Pos::new(0, 0)).y
        );
    }

    #[test]
    fn fit_shows_every_square() {
        let mut view = BoardView::default();
        let r = rect();
        let squares = [Pos::new(-3, 0), Pos::new(4, 2), Pos::new(0, -2)];
        view.fit(r, squares);
        for at in squares {
            assert!(r.contains_rect(view.square_rect(r, at)), "{at}");
        }
        view.fit(r, []);
        assert_eq!(view.centre, Vec2::ZERO);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_pointer() {
        let mut view = BoardView::default();
        let r = rect();
        let pointer = pos2(420.0, 90.0);
        let before = view.to_world(r, pointer);
        view.zoom_at(r, pointer, 1.7);
        let after = view.to_world(r, pointer);
        assert!((before - after).length() < 1e-4);
        view.zoom_at(r, pointer, 1000.0);
        assert_eq!(view.scale, MAX_SCALE);
    }

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

    #[test]
    fn caps_and_corners_are_convex_and_inside() {
        let convex = |pts: &[Vec2]| {
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
        };
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
}
