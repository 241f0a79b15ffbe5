//! The graphs' common frame: where a graph goes and its horizontal geometry, so that the score
//! graph (`html`) and the win-probability graph (`win_graph`) line up without either file
//! importing the other.

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
