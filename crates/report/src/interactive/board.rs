//! The board at every position of the interactive page, as parts its script swaps.
//!
//! Every board is `carc-draw`'s [`layers`] of the position, written by `carc-draw`'s SVG
//! writer: the map and the tile types are defined once (shared with the static page), a
//! placed tile is a `<use>` of its type, and every other shape (map marks, meeples, arrows,
//! the last tile's outline) is its own small SVG fragment. Each distinct fragment is written
//! once in the page; a position is then the number of its line's tiles placed, a viewBox and
//! two lists of fragments (map marks, which rarely change, and the rest), each distinct list
//! stored once. The script only clones fragments the page holds: it draws nothing itself.

use std::collections::BTreeMap;
use std::fmt::Write;

use carc_draw::coordinates;
use carc_draw::svg::{self, num};
use carc_draw::{layers, pt, world_of, Bounds, Overlay, Rgba, Shape, Stroke, StrokeAlign, TileAt};
use carc_replay::Timeline;
use carc_rules::{Game, ReturnedMeeple};

use super::json::Value;
use crate::html::{tile_symbol, SYMBOL_PX};

/// The outline of the best move found (move quality): a cyan that no player has.
const BEST_MOVE: Rgba = Rgba::rgb(56, 208, 255);

/// Distinct fragments, viewBoxes and fragment lists, each with its index.
#[derive(Default)]
pub(crate) struct BoardParts {
    fragments: Interned<String>,
    views: Interned<String>,
    frames: Interned<Vec<usize>>,
}

/// What one position shows; indices into [`BoardParts`].
#[derive(Clone, Copy)]
pub(crate) struct PositionBoard {
    /// How many of its line's tiles are on the board.
    pub tiles: usize,
    pub view: usize,
    pub marks: usize,
    pub top: usize,
}

/// The boards of one line of play: its tiles in the order they were placed (fragments) and
/// the board at each position from `first` on.
pub(crate) struct LineBoards {
    pub tiles: Vec<usize>,
    pub first: usize,
    pub positions: Vec<PositionBoard>,
}

/// Values with the index of their first appearance.
struct Interned<T: Ord + Clone> {
    list: Vec<T>,
    index: BTreeMap<T, usize>,
}

impl<T: Ord + Clone> Default for Interned<T> {
    fn default() -> Self {
        Interned {
            list: Vec::new(),
            index: BTreeMap::new(),
        }
    }
}

impl<T: Ord + Clone> Interned<T> {
    fn id(&mut self, value: T) -> usize {
        if let Some(&i) = self.index.get(&value) {
            return i;
        }
        self.list.push(value.clone());
        self.index.insert(value, self.list.len() - 1);
        self.list.len() - 1
    }
}

impl BoardParts {
    /// A fragment's index (a new one the first time it is seen).
    pub fn fragment(&mut self, svg: String) -> usize {
        self.fragments.id(svg)
    }

    /// A placed tile: a `<use>` of its type's picture on its square.
    pub fn tile(&mut self, t: &TileAt) -> usize {
        let c = world_of(t.at);
        self.fragment(format!(
            "<use href=\"#{}\" x=\"{}\" y=\"{}\"/>",
            tile_symbol(t),
            num(c.x),
            num(c.y)
        ))
    }

    /// The best move found at a turn: the tile drawn faintly on the square it could have gone
    /// to, and that square outlined by `carc-draw`'s square frame (fragments).
    pub fn best_move(&mut self, t: &TileAt) -> (usize, usize) {
        let c = world_of(t.at);
        let mut frame = String::new();
        let h = 0.5;
        svg::write_shapes(
            &mut frame,
            &[Shape::Rect {
                min: pt(c.x - h, c.y - h),
                max: pt(c.x + h, c.y + h),
                rounding: 0.0,
                fill: None,
                stroke: Some(Stroke::new(0.06, 2.0, BEST_MOVE)),
                align: StrokeAlign::Inside,
            }],
            SYMBOL_PX,
            None,
        );
        let faded = self.fragment(format!(
            "<use href=\"#{}\" x=\"{}\" y=\"{}\" opacity=\"0.6\"/>",
            tile_symbol(t),
            num(c.x),
            num(c.y),
        ));
        (faded, self.fragment(frame.trim_end().to_string()))
    }

    fn shapes(&mut self, shapes: &[Shape]) -> usize {
        let ids = shapes
            .iter()
            .map(|s| {
                let mut out = String::new();
                svg::write_shapes(&mut out, std::slice::from_ref(s), SYMBOL_PX, None);
                self.fragment(out.trim_end().to_string())
            })
            .collect();
        self.frames.id(ids)
    }

    fn view(&mut self, b: &Bounds) -> usize {
        self.views.id(format!(
            "{} {} {} {}",
            num(b.min.x),
            num(b.min.y),
            num(b.width()),
            num(b.height())
        ))
    }

    /// The boards of `timeline` at positions `first..=steps` (position `k`: after its first
    /// `k` steps), meeples in `colors`. Positions whose state cannot be rebuilt (none, for a
    /// timeline's legal steps) repeat the board before them.
    pub fn line(&mut self, timeline: &Timeline, colors: &[Rgba], first: usize) -> LineBoards {
        let last = timeline.steps.len();
        let tiles = match timeline.state_at(last) {
            Ok(game) => layers(&game, &Overlay::default())
                .tiles
                .iter()
                .map(|t| self.tile(t))
                .collect(),
            Err(_) => Vec::new(),
        };
        let mut positions: Vec<PositionBoard> = Vec::new();
        for k in first..=last {
            let Ok(game) = timeline.state_at(k) else {
                let before = positions.last().copied().unwrap_or(PositionBoard {
                    tiles: 0,
                    view: self.view(&Bounds::new(Default::default(), Default::default())),
                    marks: self.frames.id(Vec::new()),
                    top: self.frames.id(Vec::new()),
                });
                positions.push(before);
                continue;
            };
            // The position that ended the game keeps the final scoring's figures drawn.
            let final_figures = k
                .checked_sub(1)
                .and_then(|i| timeline.steps.get(i))
                .map_or(&[][..], |s| s.effects.returned_at_final_scoring());
            positions.push(self.position_with(&game, colors, final_figures, &[]));
        }
        LineBoards {
            tiles,
            first,
            positions,
        }
    }

    /// The board of one position (its tiles are those of its line, by count).
    pub fn position(&mut self, game: &Game, colors: &[Rgba]) -> PositionBoard {
        self.position_with(game, colors, &[], &[])
    }

    /// [`Self::position`] with the view grown to show `squares` whole (a puzzle's squares
    /// where the drawn tile may go).
    pub fn position_showing(
        &mut self,
        game: &Game,
        colors: &[Rgba],
        squares: &[carc_rules::Pos],
    ) -> PositionBoard {
        self.position_with(game, colors, &[], squares)
    }

    /// [`Self::position`] with the figures the final scoring sent home drawn where they stood,
    /// and the view grown to show `squares` whole.
    fn position_with(
        &mut self,
        game: &Game,
        colors: &[Rgba],
        final_figures: &[ReturnedMeeple],
        squares: &[carc_rules::Pos],
    ) -> PositionBoard {
        let mut l = layers(
            game,
            &Overlay {
                colors,
                last_placed: game.placed().last().map(|p| p.at),
                final_figures,
                ..Overlay::default()
            },
        );
        for &at in squares {
            let c = world_of(at);
            let square = Bounds::new(c - pt(0.5, 0.5), c + pt(0.5, 0.5)).expand(0.5);
            l.bounds = l.bounds.union(&square);
        }
        // The squares' numbers along the edges go on top, as on the static page.
        let mut top = l.top;
        top.extend(coordinates::edge_labels(&l.bounds));
        PositionBoard {
            tiles: l.tiles.len(),
            view: self.view(&l.bounds),
            marks: self.shapes(&l.map_marks),
            top: self.shapes(&top),
        }
    }

    /// A board off every line, such as the position after the best move found: its tiles as
    /// fragments, and the position (tiles, view, marks, top).
    pub fn lone(&mut self, game: &Game, colors: &[Rgba]) -> Value {
        let tiles: Value = layers(game, &Overlay::default())
            .tiles
            .iter()
            .map(|t| self.tile(t))
            .collect();
        let p = self.position(game, colors);
        Value::Obj(vec![("tiles", tiles), ("at", p.to_value())])
    }

    /// The viewBoxes and fragment lists, as the page's data.
    pub fn to_value(&self) -> Value {
        Value::Obj(vec![
            ("views", self.views.list.iter().collect()),
            (
                "frames",
                self.frames
                    .list
                    .iter()
                    .map(|f| f.iter().copied().collect::<Value>())
                    .collect(),
            ),
        ])
    }

    /// The hidden element holding every fragment, in index order.
    pub fn write_pool(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "<svg class=\"symbols\" xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs><g id=\"pool\">"
        );
        for f in &self.fragments.list {
            out.push_str(f);
            out.push('\n');
        }
        let _ = writeln!(out, "</g></defs></svg>");
    }
}

impl PositionBoard {
    pub fn to_value(self) -> Value {
        Value::Arr(vec![
            self.tiles.into(),
            self.view.into(),
            self.marks.into(),
            self.top.into(),
        ])
    }
}

impl LineBoards {
    pub fn to_value(&self) -> Value {
        Value::Obj(vec![
            ("tiles", self.tiles.iter().copied().collect()),
            ("first", self.first.into()),
            ("at", self.positions.iter().map(|p| p.to_value()).collect()),
        ])
    }
}
