//! carc-draw: a game position as a **draw list**, a list of simple shapes (rectangles,
//! polygons, polylines, circles, text labels) with RGBA colours, so that the viewer (egui),
//! the SVG writer and the PNG rasterizer all draw the same board from one piece of code.
//! It knows no GUI toolkit.
//!
//! Coordinates are **world coordinates**: a square `(x, y)` (y grows to the north) has its
//! centre at world point `(x, -y)`; one square is one world unit, and world `y` grows
//! downwards (south), as on a screen. On a square, local points run from `-0.5` to `0.5`, so
//! the north side is local `y = -0.5`.
//!
//! Sizes are in world units too. A stroke or a circle may also carry a minimum size in
//! pixels (`min_px`): the viewer zooms out to a few pixels per square, where a road a tenth of
//! a square wide would vanish. Whoever turns the list into pixels knows its scale (pixels per
//! square) and applies the minimum (see [`Stroke::world_width`]).
//!
//! - [`board`]: the board of a [`carc_rules::Game`] with an [`Overlay`] (last placed tile,
//!   highlights, meeple colours), also in [`Layers`] for writers that share repeated parts,
//!   and a single tile type.
//! - [`color`]: the palette, players' colours included.
//! - [`ghost`]: a move not on the board (a tile about to be placed, the best move found),
//!   faded, with its meeple.
//! - [`coordinates`]: the `(x,y)` of columns and rows along the edges of a picture.
//! - [`svg`]: a draw list as a standalone SVG document.
//! - `raster` (feature `png`): a draw list rasterized to a PNG image (labels left out).

pub mod board;
pub mod color;
pub mod coordinates;
mod geometry;
pub mod ghost;
#[cfg(feature = "png")]
pub mod raster;
pub mod svg;

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub};

pub use board::{board, board_bounds, layers, tile_type, world_of, Layers, Overlay, TileAt};
pub use color::{player_color, player_text_color, Rgba};
pub use coordinates::add_coordinates;
pub use geometry::{meeple_spot, port_point, side_mid};

/// A point or a vector in world coordinates (see the crate documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

/// A point from its coordinates.
pub const fn pt(x: f32, y: f32) -> Point {
    Point { x, y }
}

impl Point {
    pub const ZERO: Point = pt(0.0, 0.0);

    pub fn length(self) -> f32 {
        self.x.hypot(self.y)
    }

    /// The same direction with length 1 (the zero vector stays zero).
    pub fn normalized(self) -> Point {
        let len = self.length();
        if len == 0.0 {
            self
        } else {
            self / len
        }
    }

    pub fn abs(self) -> Point {
        pt(self.x.abs(), self.y.abs())
    }

    pub fn min(self, o: Point) -> Point {
        pt(self.x.min(o.x), self.y.min(o.y))
    }

    pub fn max(self, o: Point) -> Point {
        pt(self.x.max(o.x), self.y.max(o.y))
    }
}

impl Add for Point {
    type Output = Point;
    fn add(self, o: Point) -> Point {
        pt(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Point {
    fn add_assign(&mut self, o: Point) {
        *self = *self + o;
    }
}

impl Sub for Point {
    type Output = Point;
    fn sub(self, o: Point) -> Point {
        pt(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f32> for Point {
    type Output = Point;
    fn mul(self, k: f32) -> Point {
        pt(self.x * k, self.y * k)
    }
}

impl Div<f32> for Point {
    type Output = Point;
    fn div(self, k: f32) -> Point {
        pt(self.x / k, self.y / k)
    }
}

impl Neg for Point {
    type Output = Point;
    fn neg(self) -> Point {
        pt(-self.x, -self.y)
    }
}

/// A line's width and colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Width in world units.
    pub width: f32,
    /// The line is never thinner than this many pixels (0: no minimum).
    pub min_px: f32,
    pub color: Rgba,
}

impl Stroke {
    /// A stroke `width` world units wide, at least `min_px` pixels.
    pub const fn new(width: f32, min_px: f32, color: Rgba) -> Stroke {
        Stroke {
            width,
            min_px,
            color,
        }
    }

    /// A hairline of exactly `px` pixels at any zoom (the tile's edge, the hovered square).
    pub const fn pixels(px: f32, color: Rgba) -> Stroke {
        Stroke::new(0.0, px, color)
    }

    /// The width in pixels at `scale` pixels per square.
    pub fn px_width(&self, scale: f32) -> f32 {
        (self.width * scale).max(self.min_px)
    }

    /// The width in world units once the pixel minimum is applied at `scale` pixels per square.
    pub fn world_width(&self, scale: f32) -> f32 {
        self.px_width(scale) / scale
    }
}

/// Where a rectangle's outline lies: inside its edge (a square's frame never spills onto the
/// neighbour) or centred on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrokeAlign {
    Inside,
    Middle,
}

/// One thing to draw. Shapes are drawn in list order, later ones on top.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// An axis-aligned rectangle; the outline is drawn after the fill.
    Rect {
        min: Point,
        max: Point,
        /// Corner radius, world units.
        rounding: f32,
        fill: Option<Rgba>,
        stroke: Option<Stroke>,
        align: StrokeAlign,
    },
    /// A closed **convex** polygon (the viewer's painter fills convex polygons only).
    Polygon {
        points: Vec<Point>,
        fill: Option<Rgba>,
        stroke: Option<Stroke>,
    },
    /// An open line through the points.
    Polyline { points: Vec<Point>, stroke: Stroke },
    /// A straight line between two points, for borders and stubs along the grid: a renderer
    /// may snap it to whole pixels to keep it crisp (the viewer does).
    Line {
        from: Point,
        to: Point,
        stroke: Stroke,
    },
    Circle {
        centre: Point,
        /// Radius, world units.
        radius: f32,
        /// The radius is never less than this many pixels (0: no minimum).
        min_radius_px: f32,
        fill: Option<Rgba>,
        stroke: Option<Stroke>,
    },
    /// A label centred on `at`.
    Text {
        at: Point,
        /// Font size (the height of a line), world units.
        size: f32,
        text: String,
        color: Rgba,
        /// Drawn only at this many pixels per square or more: a label too small to read is
        /// clutter.
        min_scale: f32,
    },
}

impl Shape {
    /// The world rectangle the shape's geometry covers (outlines and text extents not
    /// included: callers that cull add a margin).
    pub fn bounds(&self) -> Bounds {
        match self {
            Shape::Rect { min, max, .. } => Bounds::new(*min, *max),
            Shape::Polygon { points, .. } | Shape::Polyline { points, .. } => {
                Bounds::of_points(points.iter().copied())
            }
            Shape::Line { from, to, .. } => Bounds::of_points([*from, *to]),
            Shape::Circle { centre, radius, .. } => Bounds::new(
                *centre - pt(*radius, *radius),
                *centre + pt(*radius, *radius),
            ),
            Shape::Text { at, .. } => Bounds::new(*at, *at),
        }
    }
}

/// An axis-aligned world rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: Point,
    pub max: Point,
}

impl Bounds {
    pub fn new(min: Point, max: Point) -> Bounds {
        Bounds { min, max }
    }

    /// The smallest rectangle around the points; an empty one at the origin for none.
    pub fn of_points(points: impl IntoIterator<Item = Point>) -> Bounds {
        let mut it = points.into_iter();
        let Some(first) = it.next() else {
            return Bounds::new(Point::ZERO, Point::ZERO);
        };
        it.fold(Bounds::new(first, first), |b, p| {
            Bounds::new(b.min.min(p), b.max.max(p))
        })
    }

    pub fn width(&self) -> f32 {
        self.max.x - self.min.x
    }

    pub fn height(&self) -> f32 {
        self.max.y - self.min.y
    }

    /// Grown by `margin` on every side.
    pub fn expand(&self, margin: f32) -> Bounds {
        Bounds::new(self.min - pt(margin, margin), self.max + pt(margin, margin))
    }

    pub fn union(&self, o: &Bounds) -> Bounds {
        Bounds::new(self.min.min(o.min), self.max.max(o.max))
    }

    /// Whether the two rectangles overlap (touching edges count).
    pub fn intersects(&self, o: &Bounds) -> bool {
        self.min.x <= o.max.x
            && o.min.x <= self.max.x
            && self.min.y <= o.max.y
            && o.min.y <= self.max.y
    }
}

/// Shapes to draw, and the part of the world worth showing.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawList {
    pub shapes: Vec<Shape>,
    /// What a picture of the list should show (an SVG's viewBox, a PNG's extent): for a board,
    /// the placed tiles and the map with a margin.
    pub bounds: Bounds,
}
