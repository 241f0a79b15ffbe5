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

/// Each player's chance to win over the game (the engine judge's), drawn as a second graph
/// under the score graph of both HTML pages.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WinChart {
    /// Per seat: the points `(position, chance)`, a position being the number of events applied
    /// and a chance in 0..=1, in position order.
    pub seats: Vec<Vec<(usize, f64)>>,
    /// What the lines are, in a sentence (the graph's caption).
    pub caption: String,
}

impl WinChart {
    /// Seat `seat`'s chance at `position`: its last point at or before it.
    pub fn at(&self, seat: usize, position: usize) -> Option<f64> {
        let line = self.seats.get(seat)?;
        line.iter()
            .take_while(|p| p.0 <= position)
            .last()
            .map(|p| p.1)
    }
}

/// What a caller adds to the report (nothing by default: the report is then exactly the
/// plain one).
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// By event `seq`.
    pub events: BTreeMap<u64, EventNote>,
    /// After the final score table, in this order.
    pub sections: Vec<Section>,
    /// The win-probability graph, when the caller has one (HTML pages only).
    pub win_chart: Option<WinChart>,
}
