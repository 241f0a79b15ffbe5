//! A draw list as SVG: a standalone document (no external references: no images, fonts,
//! stylesheets or links) or an `<svg>` element to put inline in HTML.
//!
//! The output is deterministic: coordinates are written with at most three decimals (trailing
//! zeros dropped), shapes in list order, attributes in a fixed order. The viewBox is the draw
//! list's bounds in world units; shapes wholly outside it are left out.

use std::fmt::Write;

use crate::{Bounds, DrawList, Point, Rgba, Shape, Stroke, StrokeAlign};

/// How to write the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgOptions {
    /// Pixels per square for the `width` and `height` attributes. Pixel minimums of strokes
    /// and labels (see the crate documentation) are applied at this scale.
    pub px_per_square: f32,
    /// Filled behind everything (`None`: transparent).
    pub background: Option<Rgba>,
    /// A title for the picture (`<title>`, shown as a tooltip and read by screen readers).
    pub title: Option<String>,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            px_per_square: 64.0,
            background: Some(crate::color::BACKGROUND),
            title: None,
        }
    }
}

/// A standalone SVG document (with the XML declaration), ending in a newline.
pub fn document(list: &DrawList, options: &SvgOptions) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&element(list, options));
    out
}

/// The `<svg>` element alone (for inline use in HTML), ending in a newline.
pub fn element(list: &DrawList, options: &SvgOptions) -> String {
    let mut out = start(&list.bounds, options);
    write_shapes(
        &mut out,
        &list.shapes,
        options.px_per_square,
        Some(&list.bounds),
    );
    out.push_str("</svg>\n");
    out
}

/// The opening `<svg>` tag of a picture of `bounds`, its title and background: for writers
/// that put the shapes in themselves (and close the element with `</svg>`).
pub fn start(bounds: &Bounds, options: &SvgOptions) -> String {
    let scale = options.px_per_square;
    let b = bounds;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\">",
        num(b.width() * scale),
        num(b.height() * scale),
        num(b.min.x),
        num(b.min.y),
        num(b.width()),
        num(b.height()),
    );
    if let Some(title) = &options.title {
        let _ = writeln!(out, "<title>{}</title>", escape(title));
    }
    if let Some(bg) = options.background {
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{}/>",
            num(b.min.x),
            num(b.min.y),
            num(b.width()),
            num(b.height()),
            fill(Some(bg)),
        );
    }
    out
}

/// Appends the shapes as SVG elements, pixel minimums applied at `px_per_square`. With
/// `view`, shapes wholly outside it (and beyond the reach of an outline) are left out.
pub fn write_shapes(out: &mut String, shapes: &[Shape], px_per_square: f32, view: Option<&Bounds>) {
    let view = view.map(|v| v.expand(0.5));
    for shape in shapes {
        if view.is_none_or(|v| shape.bounds().intersects(&v)) {
            write_shape(out, shape, px_per_square);
        }
    }
}

fn write_shape(out: &mut String, shape: &Shape, scale: f32) {
    match shape {
        Shape::Rect {
            min,
            max,
            rounding,
            fill: f,
            stroke,
            align,
        } => {
            let rect = |out: &mut String, min: Point, max: Point, paint: &str| {
                let _ = write!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
                    num(min.x),
                    num(min.y),
                    num((max.x - min.x).max(0.0)),
                    num((max.y - min.y).max(0.0)),
                );
                if *rounding > 0.0 {
                    let _ = write!(out, " rx=\"{}\"", num(*rounding));
                }
                let _ = writeln!(out, "{paint}/>");
            };
            match (stroke, align) {
                (Some(s), StrokeAlign::Middle) => {
                    rect(out, *min, *max, &(fill(*f) + &stroke_attrs(s, scale)));
                }
                (Some(s), StrokeAlign::Inside) => {
                    // SVG centres outlines on the edge: an inside outline is a rectangle
                    // shrunk by half the line's width, drawn over the full-size fill.
                    if f.is_some() {
                        rect(out, *min, *max, &fill(*f));
                    }
                    let half = s.world_width(scale) / 2.0;
                    let inset = Point { x: half, y: half };
                    rect(
                        out,
                        *min + inset,
                        *max - inset,
                        &(fill(None) + &stroke_attrs(s, scale)),
                    );
                }
                (None, _) => rect(out, *min, *max, &fill(*f)),
            }
        }
        Shape::Polygon {
            points,
            fill: f,
            stroke,
        } => {
            let _ = write!(
                out,
                "<polygon points=\"{}\"{}",
                points_attr(points),
                fill(*f)
            );
            if let Some(s) = stroke {
                out.push_str(&stroke_attrs(s, scale));
            }
            out.push_str("/>\n");
        }
        Shape::Polyline { points, stroke } => {
            let _ = writeln!(
                out,
                "<polyline points=\"{}\"{}{}/>",
                points_attr(points),
                fill(None),
                stroke_attrs(stroke, scale)
            );
        }
        Shape::Line { from, to, stroke } => {
            let _ = writeln!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>",
                num(from.x),
                num(from.y),
                num(to.x),
                num(to.y),
                stroke_attrs(stroke, scale)
            );
        }
        Shape::Circle {
            centre,
            radius,
            min_radius_px,
            fill: f,
            stroke,
        } => {
            let r = radius.max(min_radius_px / scale);
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{}",
                num(centre.x),
                num(centre.y),
                num(r),
                fill(*f)
            );
            if let Some(s) = stroke {
                out.push_str(&stroke_attrs(s, scale));
            }
            out.push_str("/>\n");
        }
        Shape::Text {
            at,
            size,
            text,
            color,
            min_scale,
        } => {
            if scale < *min_scale {
                return;
            }
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-family=\"sans-serif\" text-anchor=\"middle\" dominant-baseline=\"central\"{}>{}</text>",
                num(at.x),
                num(at.y),
                num(*size),
                fill(Some(*color)),
                escape(text)
            );
        }
    }
}

/// ` fill="…"` (and its opacity when not opaque), or ` fill="none"`.
fn fill(color: Option<Rgba>) -> String {
    match color {
        None => " fill=\"none\"".to_string(),
        Some(c) if c.a == 255 => format!(" fill=\"{}\"", c.hex()),
        Some(c) => format!(" fill=\"{}\" fill-opacity=\"{}\"", c.hex(), alpha(c)),
    }
}

fn stroke_attrs(s: &Stroke, scale: f32) -> String {
    let mut out = format!(
        " stroke=\"{}\" stroke-width=\"{}\"",
        s.color.hex(),
        num(s.world_width(scale))
    );
    if s.color.a != 255 {
        let _ = write!(out, " stroke-opacity=\"{}\"", alpha(s.color));
    }
    out
}

fn alpha(c: Rgba) -> String {
    num(f32::from(c.a) / 255.0)
}

fn points_attr(points: &[Point]) -> String {
    let mut out = String::new();
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{},{}", num(p.x), num(p.y));
    }
    out
}

/// A number with at most three decimals, without trailing zeros, and never `-0`: fixed
/// formatting keeps the output identical from run to run and small.
pub fn num(v: f32) -> String {
    if !v.is_finite() {
        return "0".to_string();
    }
    let mut s = format!("{v:.3}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".to_string();
    }
    s
}

/// Text escaped for XML content and attribute values: labels come from map files, which a
/// user may write.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab and line breaks are not allowed in XML.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// The bounds of a list's picture in pixels at `px_per_square`, rounded up.
pub fn pixel_size(bounds: &Bounds, px_per_square: f32) -> (u32, u32) {
    let w = (bounds.width() * px_per_square).ceil().max(1.0);
    let h = (bounds.height() * px_per_square).ceil().max(1.0);
    (w as u32, h as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pt;

    #[test]
    fn numbers_have_at_most_three_decimals_and_no_negative_zero() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-0.5), "-0.5");
        assert_eq!(num(0.1234), "0.123");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(12.3456), "12.346");
        assert_eq!(num(f32::NAN), "0");
    }

    #[test]
    fn markup_in_text_is_escaped() {
        assert_eq!(
            escape("<a href='x'>\"&\"</a>\u{7}"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;"
        );
    }

    fn list(shapes: Vec<Shape>) -> DrawList {
        DrawList {
            shapes,
            bounds: Bounds::new(pt(-1.0, -1.0), pt(1.0, 2.0)),
        }
    }

    #[test]
    fn the_view_box_is_the_bounds_and_the_size_follows_the_scale() {
        // Given an empty list with bounds 2 × 3 squares
        let svg = element(
            &list(vec![]),
            &SvgOptions {
                px_per_square: 10.0,
                ..SvgOptions::default()
            },
        );
        // Then the viewBox is in world units and the size in pixels
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"30\" viewBox=\"-1 -1 2 3\">"),
            "{svg}"
        );
        assert!(svg.contains("<rect x=\"-1\" y=\"-1\" width=\"2\" height=\"3\" fill=\"#282c28\"/>"));
        assert_eq!(
            pixel_size(&Bounds::new(pt(0.0, 0.0), pt(1.01, 2.0)), 10.0),
            (11, 20)
        );
    }

    #[test]
    fn an_inside_outline_is_inset_by_half_its_width_and_respects_the_pixel_minimum() {
        // Given a square with an inside outline 0.1 wide, at least 20 px
        let shape = Shape::Rect {
            min: pt(0.0, 0.0),
            max: pt(1.0, 1.0),
            rounding: 0.0,
            fill: Some(Rgba::WHITE),
            stroke: Some(Stroke::new(0.1, 20.0, Rgba::BLACK)),
            align: StrokeAlign::Inside,
        };
        // When written at 100 px per square (20 px = 0.2 squares)
        let svg = element(
            &list(vec![shape]),
            &SvgOptions {
                px_per_square: 100.0,
                background: None,
                title: None,
            },
        );
        // Then the fill covers the square and the outline is 0.2 wide, inset by 0.1
        assert!(
            svg.contains("<rect x=\"0\" y=\"0\" width=\"1\" height=\"1\" fill=\"#ffffff\"/>\n"),
            "{svg}"
        );
        assert!(svg.contains("<rect x=\"0.1\" y=\"0.1\" width=\"0.8\" height=\"0.8\" fill=\"none\" stroke=\"#000000\" stroke-width=\"0.2\"/>\n"), "{svg}");
    }

    #[test]
    fn translucent_colours_get_an_opacity_and_small_labels_are_left_out() {
        let shapes = vec![
            Shape::Circle {
                centre: pt(0.0, 0.0),
                radius: 0.01,
                min_radius_px: 5.0,
                fill: Some(Rgba::new(255, 0, 0, 51)),
                stroke: None,
            },
            Shape::Text {
                at: pt(0.0, 0.0),
                size: 0.2,
                text: "Köln & <Bonn>".into(),
                color: Rgba::WHITE,
                min_scale: 24.0,
            },
        ];
        let at = |px: f32| {
            element(
                &list(shapes.clone()),
                &SvgOptions {
                    px_per_square: px,
                    background: None,
                    title: None,
                },
            )
        };
        let big = at(50.0);
        assert!(
            big.contains(
                "<circle cx=\"0\" cy=\"0\" r=\"0.1\" fill=\"#ff0000\" fill-opacity=\"0.2\"/>"
            ),
            "{big}"
        );
        assert!(big.contains(">Köln &amp; &lt;Bonn&gt;</text>"), "{big}");
        let small = at(10.0);
        assert!(!small.contains("<text"), "{small}");
    }

    #[test]
    fn shapes_outside_the_picture_are_left_out() {
        let disc = |x: f32| Shape::Circle {
            centre: pt(x, x),
            radius: 0.2,
            min_radius_px: 0.0,
            fill: Some(Rgba::WHITE),
            stroke: None,
        };
        let (far, near) = (disc(50.0), disc(0.0));
        let svg = element(&list(vec![far, near]), &SvgOptions::default());
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
    }
}
