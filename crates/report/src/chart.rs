//! The graphs' common frame: where a graph goes and its horizontal geometry, so that the score
//! graph (`html`) and the win-probability graph (`win_graph`) line up without either file
//! importing the other; and the move-quality mark both draw.

use std::fmt::Write;

use carc_draw::svg::num;

use crate::markup::escape;

/// Where a graph goes, which decides what it carries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum GraphUse {
    /// The static page: players' names as the lines' tooltips, marks linking to their events.
    Static,
    /// The interactive page: no text from the log (names reach that page as data only), the
    /// marks and the chart's geometry as data attributes for its script, and a cursor line
    /// that the script moves to the position shown.
    Interactive,
}

/// A chart's width and side margins, in its own units (the page scales it): the same for every
/// graph of a page, so their positions line up.
pub(crate) const GRAPH_W: f32 = 720.0;
pub(crate) const GRAPH_LEFT: f32 = 44.0;
pub(crate) const GRAPH_RIGHT: f32 = 12.0;

/// A caller's mark on a graph at `(cx, cy)`: a dot and its glyph, what it means on hovering; a
/// link to event `seq` on the static page, a click target for the script on the interactive
/// page (it jumps to `position`, the position after the marked event).
#[allow(clippy::too_many_arguments)]
pub(crate) fn mark_svg(
    out: &mut String,
    mode: GraphUse,
    seq: u64,
    position: usize,
    meaning: &str,
    glyph: &str,
    cx: f32,
    cy: f32,
) {
    let mark = format!(
        "<title>event {seq}: {}</title><circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"#a4461a\"/><text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" font-family=\"sans-serif\" text-anchor=\"middle\" fill=\"#a4461a\">{}</text>",
        escape(meaning),
        num(cx),
        num(cy),
        num(cx),
        num((cy - 7.0).max(9.0)),
        escape(glyph)
    );
    let _ = match mode {
        GraphUse::Interactive => writeln!(
            out,
            "<g class=\"mark\" data-position=\"{position}\">{mark}</g>"
        ),
        GraphUse::Static => writeln!(out, "<a href=\"#event-{seq}\">{mark}</a>"),
    };
}
