//! The board on screen: pan and zoom, hit-testing, and painting. What to draw comes from
//! `carc-draw` (the shapes of tiles, map, arrows and meeples, shared with the SVG and PNG
//! pictures of `carc render` and the HTML report); this module turns its shapes into egui
//! shapes.
//!
//! Coordinates: a square `(x, y)` (y grows to the north) has its centre at world point
//! `(x, -y)`; one square is one world unit (the conventions of `carc-draw`).

use carc_draw::{self as draw, Rgba, StrokeAlign};
use carc_rules::{Game, Pos, Rotation, TileType};
use egui::{vec2, Color32, Painter, Pos2, Rect, Shape, Stroke, Vec2};

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

// ---- painting: the shared draw list turned into egui shapes --------------------------------

/// What to draw besides the tiles, in the viewer's colours.
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
    /// Figures the final scoring sent home, drawn where they stood (the event that ended the
    /// game).
    pub final_figures: &'a [carc_rules::ReturnedMeeple],
}

/// Paints the board of `game` into `rect`: the draw list of `carc-draw` (the same shapes the
/// SVG and PNG pictures are made of) at the view's pan and zoom.
pub fn paint(painter: &Painter, rect: Rect, view: &BoardView, game: &Game, overlay: &Overlay<'_>) {
    let painter = painter.with_clip_rect(rect);
    painter.rect_filled(rect, 0.0, color32(draw::color::BACKGROUND));
    let colors: Vec<Rgba> = overlay.colors.iter().map(|&c| rgba(c)).collect();
    let list = draw::board(
        game,
        &draw::Overlay {
            colors: &colors,
            last_placed: overlay.last_placed,
            activated_arrow: overlay.activated_arrow,
            highlight: overlay.highlight,
            legal: overlay.legal,
            hovered: overlay.hovered,
            final_figures: overlay.final_figures,
        },
    );
    let to_screen = ToScreen {
        screen_centre: rect.center(),
        world_centre: view.centre,
        scale: view.scale,
    };
    paint_shapes(&painter, &list.shapes, &to_screen, rect);
}

/// Paints more draw-list shapes (a ghost move) over the board at the view's pan and zoom.
pub fn paint_extra(painter: &Painter, rect: Rect, view: &BoardView, shapes: &[draw::Shape]) {
    let painter = painter.with_clip_rect(rect);
    let to_screen = ToScreen {
        screen_centre: rect.center(),
        world_centre: view.centre,
        scale: view.scale,
    };
    paint_shapes(&painter, shapes, &to_screen, rect);
}

/// Paints a tile type with a rotation into the square `sq`.
pub fn paint_tile_type(painter: &Painter, sq: Rect, tile: &TileType, rot: Rotation) {
    let mut shapes = Vec::new();
    draw::tile_type(tile, rot, draw::Point::ZERO, &mut shapes);
    let to_screen = ToScreen {
        screen_centre: sq.center(),
        world_centre: Vec2::ZERO,
        scale: sq.width(),
    };
    paint_shapes(painter, &shapes, &to_screen, painter.clip_rect());
}

/// World to screen: `world_centre` is shown at `screen_centre`, `scale` pixels per square.
struct ToScreen {
    screen_centre: Pos2,
    world_centre: Vec2,
    scale: f32,
}

impl ToScreen {
    fn pos(&self, p: draw::Point) -> Pos2 {
        self.screen_centre + (vec2(p.x, p.y) - self.world_centre) * self.scale
    }

    fn stroke(&self, s: &draw::Stroke) -> Stroke {
        Stroke::new(s.px_width(self.scale), color32(s.color))
    }

    fn stroke_or_none(&self, s: &Option<draw::Stroke>) -> Stroke {
        s.as_ref().map_or(Stroke::NONE, |s| self.stroke(s))
    }
}

/// The egui colour (premultiplied alpha) of a draw-list colour (straight alpha).
pub fn color32(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r, c.g, c.b, c.a)
}

/// The draw-list colour of an opaque egui colour (the meeple colours are opaque).
fn rgba(c: Color32) -> Rgba {
    let [r, g, b, a] = c.to_srgba_unmultiplied();
    Rgba::new(r, g, b, a)
}

fn paint_shapes(painter: &Painter, shapes: &[draw::Shape], t: &ToScreen, clip: Rect) {
    // Shapes off the board's rectangle are skipped before egui sees them: a zoomed-in map
    // board is mostly off screen. The margin covers outlines wider than the shape.
    let visible = clip.expand((t.scale * 0.2).max(4.0));
    for shape in shapes {
        let b = shape.bounds();
        if !Rect::from_two_pos(t.pos(b.min), t.pos(b.max)).intersects(visible)
            && !matches!(shape, draw::Shape::Text { .. })
        {
            continue;
        }
        paint_shape(painter, shape, t);
    }
}

fn paint_shape(painter: &Painter, shape: &draw::Shape, t: &ToScreen) {
    match shape {
        draw::Shape::Rect {
            min,
            max,
            rounding,
            fill,
            stroke,
            align,
        } => {
            let r = Rect::from_min_max(t.pos(*min), t.pos(*max));
            let corner = rounding * t.scale;
            let kind = match align {
                StrokeAlign::Inside => egui::StrokeKind::Inside,
                StrokeAlign::Middle => egui::StrokeKind::Middle,
            };
            match (fill, stroke) {
                // Fill and outline as one egui shape for a centred outline, as two for an
                // inside one: the way the viewer always painted these.
                (Some(f), Some(s)) if kind == egui::StrokeKind::Middle => {
                    painter.rect(r, corner, color32(*f), t.stroke(s), kind);
                }
                (Some(f), Some(s)) => {
                    painter.rect_filled(r, corner, color32(*f));
                    painter.rect_stroke(r, corner, t.stroke(s), kind);
                }
                (Some(f), None) => {
                    painter.rect_filled(r, corner, color32(*f));
                }
                (None, Some(s)) => {
                    painter.rect_stroke(r, corner, t.stroke(s), kind);
                }
                (None, None) => {}
            }
        }
        draw::Shape::Polygon {
            points,
            fill,
            stroke,
        } => {
            let points: Vec<Pos2> = points.iter().map(|&p| t.pos(p)).collect();
            painter.add(match fill {
                Some(f) => Shape::convex_polygon(points, color32(*f), t.stroke_or_none(stroke)),
                None => Shape::closed_line(points, t.stroke_or_none(stroke)),
            });
        }
        draw::Shape::Polyline { points, stroke } => {
            let points: Vec<Pos2> = points.iter().map(|&p| t.pos(p)).collect();
            painter.add(Shape::line(points, t.stroke(stroke)));
        }
        draw::Shape::Line { from, to, stroke } => {
            painter.line_segment([t.pos(*from), t.pos(*to)], t.stroke(stroke));
        }
        draw::Shape::Circle {
            centre,
            radius,
            min_radius_px,
            fill,
            stroke,
        } => {
            painter.circle(
                t.pos(*centre),
                (radius * t.scale).max(*min_radius_px),
                fill.map_or(Color32::TRANSPARENT, color32),
                t.stroke_or_none(stroke),
            );
        }
        draw::Shape::Text {
            at,
            size,
            text,
            color,
            min_scale,
        } => {
            if t.scale >= *min_scale {
                painter.text(
                    t.pos(*at),
                    egui::Align2::CENTER_CENTER,
                    text,
                    egui::FontId::proportional(size * t.scale),
                    color32(*color),
                );
            }
        }
    }
}

/// The coordinate labels along the board's top and left edges for the squares in view: the
/// column numbers (x) on the top edge, the row numbers (y) on the left edge, each level with
/// its square's centre, the same `(x,y)` every text names squares by. Pinned to the edges, so
/// panning never hides them; when squares are small only every second, fifth… label is kept.
pub fn coordinate_labels(view: &BoardView, rect: Rect) -> Vec<(Pos2, egui::Align2, String)> {
    // At least about 22 pixels between two labels.
    let every = (22.0 / view.scale).ceil().max(1.0) as i32;
    let every = [1, 2, 5, 10, 20, 50]
        .into_iter()
        .find(|&k| k >= every)
        .unwrap_or(100);
    let top_left = view.square_at(rect, rect.left_top());
    let bottom_right = view.square_at(rect, rect.right_bottom());
    let mut out = Vec::new();
    for x in top_left.x..=bottom_right.x {
        if x.rem_euclid(every) != 0 {
            continue;
        }
        let c = view.to_screen(rect, world_of(Pos::new(x, 0)));
        if c.x > rect.left() + 24.0 && c.x < rect.right() - 8.0 {
            out.push((
                Pos2::new(c.x, rect.top() + 2.0),
                egui::Align2::CENTER_TOP,
                draw::coordinates::column_label(x),
            ));
        }
    }
    for y in bottom_right.y..=top_left.y {
        if y.rem_euclid(every) != 0 {
            continue;
        }
        let c = view.to_screen(rect, world_of(Pos::new(0, y)));
        if c.y > rect.top() + 18.0 && c.y < rect.bottom() - 8.0 {
            out.push((
                Pos2::new(rect.left() + 3.0, c.y),
                egui::Align2::LEFT_CENTER,
                draw::coordinates::row_label(y),
            ));
        }
    }
    out
}

/// Paints [`coordinate_labels`] on a dark backing, so they read over tiles too.
pub fn paint_coordinates(painter: &Painter, rect: Rect, view: &BoardView) {
    let painter = painter.with_clip_rect(rect);
    let font = egui::FontId::monospace(11.0);
    let color = color32(draw::coordinates::LABEL);
    for (at, align, text) in coordinate_labels(view, rect) {
        let galley = painter.layout_no_wrap(text, font.clone(), color);
        let r = align.anchor_size(at, galley.size()).expand(1.0);
        painter.rect_filled(r, 2.0, Color32::from_black_alpha(150));
        painter.galley(r.min + vec2(1.0, 1.0), galley, color);
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
    fn coordinates_name_the_squares_they_sit_beside() {
        // Given a view of 50 px per square centred on (2,1)
        let view = BoardView {
            centre: vec2(2.0, -1.0),
            scale: 50.0,
            auto_fit: false,
        };
        let r = rect();
        // When the labels are laid out
        let labels = coordinate_labels(&view, r);
        // Then every column label is level with its column and on the top edge, every row
        // label level with its row and on the left edge
        let columns: Vec<_> = labels.iter().filter(|l| l.0.y == r.top() + 2.0).collect();
        let rows: Vec<_> = labels.iter().filter(|l| l.0.x == r.left() + 3.0).collect();
        assert_eq!(columns.len() + rows.len(), labels.len());
        assert!(columns.len() >= 6 && rows.len() >= 4, "{labels:?}");
        for (at, _, text) in &columns {
            let x: i32 = text.parse().unwrap();
            assert_eq!(view.square_at(r, pos2(at.x, r.center().y)).x, x);
        }
        for (at, _, text) in &rows {
            let y: i32 = text.parse().unwrap();
            assert_eq!(view.square_at(r, pos2(r.center().x, at.y)).y, y);
        }
        assert!(columns.iter().any(|l| l.2 == "2") && rows.iter().any(|l| l.2 == "1"));
        // And zoomed far out, only every fifth label is kept
        let far = BoardView { scale: 6.0, ..view };
        assert!(coordinate_labels(&far, r)
            .iter()
            .all(|l| l.2.parse::<i32>().unwrap() % 5 == 0));
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
    fn the_shared_palette_gives_the_colours_the_viewer_always_used() {
        // Given the translucent colours, once written premultiplied in this module
        // Then the straight-alpha colours of carc-draw premultiply back to the same values
        assert_eq!(
            color32(draw::color::LEGAL),
            Color32::from_rgba_premultiplied(90, 90, 90, 90)
        );
        assert_eq!(
            color32(draw::color::SPENT),
            Color32::from_rgba_premultiplied(70, 70, 70, 200)
        );
        assert_eq!(
            color32(draw::color::HIGHLIGHT_FILL),
            color32(draw::color::HIGHLIGHT).gamma_multiply(0.35)
        );
        assert_eq!(color32(draw::color::FIELD), Color32::from_rgb(104, 160, 72));
        assert_eq!(rgba(Color32::from_rgb(1, 2, 3)), Rgba::rgb(1, 2, 3));
    }

    #[test]
    fn a_tile_is_painted_where_its_square_is_on_screen() {
        // Given a view 50 px per square and the square (3,2)
        let view = BoardView {
            centre: vec2(2.0, -1.0),
            scale: 50.0,
            auto_fit: false,
        };
        let r = rect();
        let at = Pos::new(3, 2);
        let t = ToScreen {
            screen_centre: r.center(),
            world_centre: view.centre,
            scale: view.scale,
        };
        // When the corners of its square in the draw list go through the conversion
        let w = draw::world_of(at);
        let min = t.pos(w - draw::pt(0.5, 0.5));
        let max = t.pos(w + draw::pt(0.5, 0.5));
        // Then they are the corners of the square the view hit-tests
        let sq = view.square_rect(r, at);
        assert!((min - sq.min).length() < 1e-3 && (max - sq.max).length() < 1e-3);
        assert_eq!(view.square_at(r, t.pos(w)), at);
    }
}
