//! A draw list rasterized to a PNG image (feature `png`), with the same geometry as the SVG
//! writer: the picture covers the list's bounds at a given number of pixels per square.
//!
//! Text labels are left out: rasterizing text needs a font, and the image must not depend on
//! the fonts installed on the machine (the SVG keeps its labels).

use thiserror::Error;
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Transform};

use crate::svg::pixel_size;
use crate::{DrawList, Point, Rgba, Shape, Stroke, StrokeAlign};

/// The longest side of a picture, in pixels.
pub const MAX_SIDE: u32 = 16_384;
/// The most pixels in a picture (about 160 MB of RGBA while drawing).
pub const MAX_PIXELS: u64 = 40_000_000;

/// Why a picture could not be made.
#[derive(Debug, Error)]
pub enum RasterError {
    #[error("the picture would be {width} × {height} pixels; at most {MAX_SIDE} on a side and {MAX_PIXELS} in all: use fewer pixels per square")]
    TooLarge { width: u32, height: u32 },
    #[error("pixels per square must be a positive number, not {0}")]
    BadScale(f32),
    #[error("cannot encode the PNG image: {0}")]
    Encode(#[from] png::EncodingError),
}

/// The list drawn at `px_per_square` over `background` (transparent if `None`), as PNG bytes.
pub fn png(
    list: &DrawList,
    px_per_square: f32,
    background: Option<Rgba>,
) -> Result<Vec<u8>, RasterError> {
    let pixmap = rasterize(list, px_per_square, background)?;
    let (width, height) = (pixmap.width(), pixmap.height());
    // tiny-skia keeps premultiplied colours; PNG stores straight alpha.
    let mut data = Vec::with_capacity(pixmap.pixels().len() * 4);
    for p in pixmap.pixels() {
        let c = p.demultiply();
        data.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&data)?;
    writer.finish()?;
    Ok(out)
}

/// The list drawn into a new pixmap.
pub fn rasterize(
    list: &DrawList,
    px_per_square: f32,
    background: Option<Rgba>,
) -> Result<Pixmap, RasterError> {
    if !(px_per_square.is_finite() && px_per_square > 0.0) {
        return Err(RasterError::BadScale(px_per_square));
    }
    let (width, height) = pixel_size(&list.bounds, px_per_square);
    let too_large = || RasterError::TooLarge { width, height };
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(too_large());
    }
    let mut pixmap = Pixmap::new(width, height).ok_or_else(too_large)?;
    if let Some(bg) = background {
        pixmap.fill(tiny_skia::Color::from_rgba8(bg.r, bg.g, bg.b, bg.a));
    }
    let min = list.bounds.min;
    let transform = Transform::from_row(
        px_per_square,
        0.0,
        0.0,
        px_per_square,
        -min.x * px_per_square,
        -min.y * px_per_square,
    );
    let mut canvas = Canvas {
        pixmap: &mut pixmap,
        transform,
        scale: px_per_square,
    };
    let view = list.bounds.expand(0.5);
    for shape in &list.shapes {
        if shape.bounds().intersects(&view) {
            canvas.shape(shape);
        }
    }
    Ok(pixmap)
}

struct Canvas<'a> {
    pixmap: &'a mut Pixmap,
    transform: Transform,
    scale: f32,
}

fn paint(c: Rgba) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.r, c.g, c.b, c.a);
    p.anti_alias = true;
    p
}

impl Canvas<'_> {
    fn fill(&mut self, path: &tiny_skia::Path, color: Rgba) {
        self.pixmap
            .fill_path(path, &paint(color), FillRule::Winding, self.transform, None);
    }

    fn stroke(&mut self, path: &tiny_skia::Path, s: &Stroke) {
        let stroke = tiny_skia::Stroke {
            width: s.world_width(self.scale),
            ..tiny_skia::Stroke::default()
        };
        self.pixmap
            .stroke_path(path, &paint(s.color), &stroke, self.transform, None);
    }

    fn shape(&mut self, shape: &Shape) {
        match shape {
            Shape::Rect {
                min,
                max,
                rounding,
                fill,
                stroke,
                align,
            } => {
                if let Some(f) = fill {
                    if let Some(path) = rect_path(*min, *max, *rounding) {
                        self.fill(&path, *f);
                    }
                }
                if let Some(s) = stroke {
                    // Like the SVG: an inside outline is the rectangle shrunk by half its width.
                    let half = match align {
                        StrokeAlign::Inside => s.world_width(self.scale) / 2.0,
                        StrokeAlign::Middle => 0.0,
                    };
                    let inset = Point { x: half, y: half };
                    if let Some(path) = rect_path(*min + inset, *max - inset, *rounding) {
                        self.stroke(&path, s);
                    }
                }
            }
            Shape::Polygon {
                points,
                fill,
                stroke,
            } => {
                let Some(path) = poly_path(points, true) else {
                    return;
                };
                if let Some(f) = fill {
                    self.fill(&path, *f);
                }
                if let Some(s) = stroke {
                    self.stroke(&path, s);
                }
            }
            Shape::Polyline { points, stroke } => {
                if let Some(path) = poly_path(points, false) {
                    self.stroke(&path, stroke);
                }
            }
            Shape::Line { from, to, stroke } => {
                if let Some(path) = poly_path(&[*from, *to], false) {
                    self.stroke(&path, stroke);
                }
            }
            Shape::Circle {
                centre,
                radius,
                min_radius_px,
                fill,
                stroke,
            } => {
                let r = radius.max(min_radius_px / self.scale);
                let Some(path) = PathBuilder::from_circle(centre.x, centre.y, r) else {
                    return;
                };
                if let Some(f) = fill {
                    self.fill(&path, *f);
                }
                if let Some(s) = stroke {
                    self.stroke(&path, s);
                }
            }
            // No fonts: see the module documentation.
            Shape::Text { .. } => {}
        }
    }
}

fn poly_path(points: &[Point], closed: bool) -> Option<tiny_skia::Path> {
    let (first, rest) = points.split_first()?;
    let mut pb = PathBuilder::new();
    pb.move_to(first.x, first.y);
    for p in rest {
        pb.line_to(p.x, p.y);
    }
    if closed {
        pb.close();
    }
    pb.finish()
}

/// A rectangle, its corners rounded with quadratic curves (close enough to circular arcs at
/// the sizes of a farmer).
fn rect_path(min: Point, max: Point, rounding: f32) -> Option<tiny_skia::Path> {
    if max.x <= min.x || max.y <= min.y {
        return None;
    }
    let r = rounding
        .min((max.x - min.x) / 2.0)
        .min((max.y - min.y) / 2.0);
    if r <= 0.0 {
        return Some(PathBuilder::from_rect(tiny_skia::Rect::from_ltrb(
            min.x, min.y, max.x, max.y,
        )?));
    }
    let mut pb = PathBuilder::new();
    pb.move_to(min.x + r, min.y);
    pb.line_to(max.x - r, min.y);
    pb.quad_to(max.x, min.y, max.x, min.y + r);
    pb.line_to(max.x, max.y - r);
    pb.quad_to(max.x, max.y, max.x - r, max.y);
    pb.line_to(min.x + r, max.y);
    pb.quad_to(min.x, max.y, min.x, max.y - r);
    pb.line_to(min.x, min.y + r);
    pb.quad_to(min.x, min.y, min.x + r, min.y);
    pb.close();
    pb.finish()
}
