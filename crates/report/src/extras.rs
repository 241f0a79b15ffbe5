//! What a caller adds to a report (laid out by the CLI: the game's what-if variations and the
//! move quality of `carc-analysis`): marks and lines under some events, and closing sections. Both writers render the same
//! extras, so a report says the same in Markdown and in HTML.

use std::collections::BTreeMap;

use carc_replay::Timeline;
use carc_rules::Action;

/// A note a caller adds to an event: a mark after the event number (after the annotation's
/// glyph, if any) and lines listed under the event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventNote {
    /// The mark, e.g. `?!`; empty for none.
    pub glyph: String,
    /// What the mark means, in words (the HTML page shows it on hovering the mark).
    pub meaning: String,
    pub lines: Vec<String>,
    /// The best move found instead of the one at this event (move quality), as the actions
    /// from the tile's placement on (placement, arrow, meeple); empty for none. The interactive
    /// page draws it at the event.
    pub best: Vec<Action>,
}

/// A closing section: a title, paragraphs, a bulleted list, an optional table, and an optional
/// board picture (HTML only), in that order.
#[derive(Clone, Debug, Default)]
pub struct Section {
    pub title: String,
    pub paragraphs: Vec<String>,
    pub items: Vec<String>,
    pub table: Option<Table>,
    pub board: Option<BoardAt>,
}

/// A position to draw: the board after the first `steps` steps of `timeline` (a line of play
/// of the same game, such as a what-if variation).
#[derive(Clone, Debug)]
pub struct BoardAt {
    pub timeline: Timeline,
    pub steps: usize,
    pub caption: String,
}

/// A table of text cells; `numeric` columns are right-aligned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub columns: Vec<Column>,
    /// One cell per column in each row.
    pub rows: Vec<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    pub numeric: bool,
}

/// What a caller adds to the report (nothing by default: the report is then exactly the
/// plain one).
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// By event `seq`.
    pub events: BTreeMap<u64, EventNote>,
    /// After the final score table, in this order.
    pub sections: Vec<Section>,
}
