//! The puzzle page (`carc puzzles --format html`): one self-contained page where a player
//! finds again the moves they got wrong. For each puzzle: the board at the position, the drawn
//! tile, and "find the best move": a click on a square (or the square list), R to rotate, the
//! rest of the move chosen from a list (meeple, arrow, none), then "try it" tells how the move
//! compares with the moves the judge measured (the best move and the move played); the best
//! move and the engine's line are one click away.
//!
//! It is built from the interactive page's parts, so it is exactly as inert: the same
//! Content-Security-Policy (its own script allowed by its hash, nothing fetched), every text in
//! one escaped `<script type="application/json">` element put into the page with
//! `textContent` only, and boards made of `carc-draw` SVG fragments the script clones. Its
//! script is a file of its own (`puzzles/page.js`): the interactive page steps through a game,
//! this one asks a question about one position, and neither carries the other's code.

use std::fmt::Write;

use carc_draw::svg;
use carc_draw::{pt, world_of, Rgba, Shape, Stroke, StrokeAlign, TileAt};
use carc_replay::Timeline;
use carc_rules::{Pos, Rotation, TileTypeId};

use crate::html::{meeple_rgba, symbols, SYMBOL_PX};
use crate::interactive::board::BoardParts;
use crate::interactive::head::page_head;
use crate::interactive::json::Value;

/// The page's script.
const SCRIPT: &str = include_str!("puzzles/page.js");
/// The interactive page's style sheet, then the puzzle page's own rules.
const STYLE: &str = include_str!("interactive/page.css");
const PUZZLE_STYLE: &str = include_str!("puzzles/page.css");

/// The squares a tile may go to: a pale cyan, as the best move's outline on the interactive
/// page.
const SQUARE: Rgba = Rgba::rgb(56, 208, 255);

/// One puzzle as the page shows it. The caller (the CLI) turns a judged turn into this.
pub struct PagePuzzle<'a> {
    /// The game up to the placement (its last state is the position).
    pub timeline: &'a Timeline,
    /// Where the game came from (a file or a stored game id), as the reader gave it.
    pub source: String,
    pub seat: u8,
    pub turn: u32,
    /// The placement event of the turn.
    pub seq: u64,
    /// `?` or `??`.
    pub mark: String,
    /// The drawn tile.
    pub tile: TileTypeId,
    /// The turn's legal moves.
    pub moves: Vec<PageMove>,
    /// The move played and the best move among [`Self::moves`].
    pub played: Option<usize>,
    pub best: Option<usize>,
    /// Both moves in words.
    pub played_text: String,
    pub best_text: String,
    /// The mover's chance to win (0..=1) after each, when the engine judged.
    pub played_win: Option<f64>,
    pub best_win: Option<f64>,
    /// Expected margin (points) after each.
    pub played_value: f64,
    pub best_value: f64,
    /// The expected line after the best move, in words.
    pub line: Vec<String>,
}

/// A rotation of the drawn tile on a square, with the moves (indices) that place it so.
type Turned = (Rotation, Vec<usize>);

/// One legal move: where the tile goes, and the rest of the move in words.
pub struct PageMove {
    pub at: Pos,
    pub rotation: Rotation,
    /// `meeple on road E`, `no meeple`, …
    pub rest: String,
}

/// Writes the page of `puzzles`, for `player` (a page without puzzles says so).
pub fn puzzles_html(player: &str, puzzles: &[PagePuzzle]) -> String {
    let mut out = String::new();
    head(&mut out);
    let map = puzzles
        .first()
        .and_then(|p| p.timeline.state_at(p.timeline.steps.len()).ok())
        .is_some_and(|g| g.map().is_some());
    body_frame(&mut out, map, puzzles.is_empty());

    let mut ghosts: Vec<TileAt> = Vec::new();
    for p in puzzles {
        for m in &p.moves {
            ghosts.push(TileAt {
                tile: p.tile,
                rotation: m.rotation,
                at: m.at,
            });
        }
    }
    symbols(&mut out, puzzles.iter().map(|p| p.timeline), &ghosts);

    let mut parts = BoardParts::default();
    let list: Vec<Value> = puzzles
        .iter()
        .map(|p| puzzle_value(&mut parts, p, map && same_game(p, puzzles)))
        .collect();
    parts.write_pool(&mut out);
    let data = Value::Obj(vec![
        ("player", player.into()),
        ("puzzles", Value::Arr(list)),
        ("board", parts.to_value()),
    ]);
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"carc-data\">{}</script>",
        data.to_json()
    );
    let _ = writeln!(out, "<script>{SCRIPT}</script>\n</body>\n</html>");
    out
}

/// Whether a puzzle is from the first puzzle's game (whose map board the page holds).
fn same_game(p: &PagePuzzle, all: &[PagePuzzle]) -> bool {
    all.first()
        .is_some_and(|f| f.timeline.log.header == p.timeline.log.header)
}

fn head(out: &mut String) {
    // The title is set by the script from the data (the player's name is text from a log).
    page_head(
        out,
        SCRIPT,
        "carc puzzles",
        "carc puzzles",
        &format!("{STYLE}{PUZZLE_STYLE}"),
    );
}

fn body_frame(out: &mut String, map: bool, empty: bool) {
    let background = carc_draw::color::BACKGROUND.hex();
    let map = if map {
        "<g id=\"map\"><use href=\"#carc-map\"/></g>"
    } else {
        "<g id=\"map\"></g>"
    };
    if empty {
        let _ = writeln!(
            out,
            "<header><h1 id=\"title\">No puzzles</h1></header>\n<p id=\"none\">No puzzles: the judge marked none of this player's moves <code>?</code> or <code>??</code>.</p>"
        );
        return;
    }
    let _ = write!(
        out,
        "<header><h1 id=\"title\"></h1><p class=\"how\">Find the move: click a square the tile may go to (or choose it in the list), rotate with R, choose the rest of the move, then try it (Enter). N and P go to the next and previous puzzle.</p></header>
<noscript><p class=\"illegal\">This page needs JavaScript to try moves.</p></noscript>
<div class=\"app\">
<div class=\"stage\">
<figure class=\"board\"><svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\" style=\"background:{background}\" role=\"img\" aria-label=\"the board\">{map}<g id=\"tiles\"></g><g id=\"marks\"></g><g id=\"squares\"></g><g id=\"try\"></g><g id=\"top\"></g></svg></figure>
<ul id=\"now\" class=\"legend\"></ul>
</div>
<div class=\"side\">
<section id=\"puzzle\" class=\"event\" aria-live=\"polite\"></section>
<form id=\"find\" class=\"find\">
<label>square <select id=\"square\"></select></label>
<button type=\"button\" id=\"rotate\" title=\"rotate (R)\">rotate &#x21bb;</button> <span id=\"rotation\"></span>
<label>then <select id=\"rest\"></select></label>
<button type=\"submit\" id=\"submit\">try it</button>
</form>
<section id=\"verdict\" class=\"verdict\" aria-live=\"polite\"></section>
<button type=\"button\" id=\"reveal\">show the best move</button>
<section id=\"answer\" class=\"answer\" hidden></section>
<nav class=\"list\"><h2>Puzzles</h2><ol id=\"list\"></ol></nav>
</div>
</div>
"
    );
}

/// A square where the tile may go: a pale fill, outlined (a fragment the script clones and
/// makes clickable).
fn square_fragment(parts: &mut BoardParts, at: Pos) -> usize {
    let c = world_of(at);
    let h = 0.5;
    let mut s = String::new();
    svg::write_shapes(
        &mut s,
        &[Shape::Rect {
            min: pt(c.x - h, c.y - h),
            max: pt(c.x + h, c.y + h),
            rounding: 0.0,
            fill: Some(Rgba::new(56, 208, 255, 50)),
            stroke: Some(Stroke::new(0.03, 1.0, SQUARE)),
            align: StrokeAlign::Inside,
        }],
        SYMBOL_PX,
        None,
    );
    parts.fragment(format!("<g class=\"square\">{}</g>", s.trim_end()))
}

fn puzzle_value(parts: &mut BoardParts, p: &PagePuzzle, map: bool) -> Value {
    let header = &p.timeline.log.header;
    let colors: Vec<Rgba> = header
        .players
        .iter()
        .map(|pl| meeple_rgba(pl.color))
        .collect();
    let Ok(position) = p.timeline.state_at(p.timeline.steps.len()) else {
        return Value::Null;
    };
    // The squares in the order the moves list them, each with its rotations and their moves.
    let mut squares: Vec<(Pos, Vec<Turned>)> = Vec::new();
    for (i, m) in p.moves.iter().enumerate() {
        let k = match squares.iter().position(|(at, _)| *at == m.at) {
            Some(k) => k,
            None => {
                squares.push((m.at, Vec::new()));
                squares.len() - 1
            }
        };
        let rotations = &mut squares[k].1;
        match rotations.iter_mut().find(|(r, _)| *r == m.rotation) {
            Some((_, moves)) => moves.push(i),
            None => rotations.push((m.rotation, vec![i])),
        }
    }
    let at: Vec<Pos> = squares.iter().map(|(at, _)| *at).collect();
    let board = parts.position_showing(&position, &colors, &at);
    let tiles: Value = carc_draw::layers(&position, &carc_draw::Overlay::default())
        .tiles
        .iter()
        .map(|t| parts.tile(t))
        .collect();
    let squares_value: Value = squares
        .iter()
        .map(|(at, rotations)| {
            let frag = square_fragment(parts, *at);
            let rotations: Value = rotations
                .iter()
                .map(|(rotation, moves)| {
                    let (faded, frame) = parts.best_move(&TileAt {
                        tile: p.tile,
                        rotation: *rotation,
                        at: *at,
                    });
                    Value::Obj(vec![
                        ("degrees", rotation.degrees().into()),
                        ("ghost", Value::Arr(vec![faded.into(), frame.into()])),
                        ("moves", moves.iter().copied().collect()),
                    ])
                })
                .collect();
            Value::Obj(vec![
                ("x", i64::from(at.x).into()),
                ("y", i64::from(at.y).into()),
                ("fragment", frag.into()),
                ("rotations", rotations),
            ])
        })
        .collect();
    let scores = p
        .timeline
        .steps
        .last()
        .map(|s| s.scores_after.clone())
        .unwrap_or_default();
    let percent = |w: Option<f64>| w.map(|w| (w * 1000.0).round() as i64);
    Value::Obj(vec![
        ("game", header.game.as_str().into()),
        ("source", p.source.as_str().into()),
        ("seat", u32::from(p.seat).into()),
        ("turn", p.turn.into()),
        ("seq", p.seq.into()),
        ("mark", p.mark.as_str().into()),
        ("tile", position.tiles().get(p.tile).id.as_str().into()),
        ("map", map.into()),
        (
            "players",
            header
                .players
                .iter()
                .enumerate()
                .map(|(seat, pl)| {
                    Value::Obj(vec![
                        ("name", pl.name.as_str().into()),
                        ("color", pl.color.as_str().into()),
                        ("score", scores.get(seat).copied().unwrap_or(0).into()),
                    ])
                })
                .collect(),
        ),
        ("tiles", tiles),
        ("at", board.to_value()),
        ("squares", squares_value),
        (
            "moves",
            p.moves
                .iter()
                .map(|m| Value::from(m.rest.as_str()))
                .collect(),
        ),
        ("played", p.played.into()),
        ("best", p.best.into()),
        ("played_text", p.played_text.as_str().into()),
        ("best_text", p.best_text.as_str().into()),
        // Tenths of a percent, as integers (the page's JSON has no floats).
        ("played_win", percent(p.played_win).into()),
        ("best_win", percent(p.best_win).into()),
        (
            "played_value",
            ((p.played_value * 10.0).round() as i64).into(),
        ),
        ("best_value", ((p.best_value * 10.0).round() as i64).into()),
        ("line", p.line.iter().collect()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_without_puzzles_says_so_and_keeps_the_policy() {
        let page = puzzles_html("Ada", &[]);
        assert!(page.contains("No puzzles"));
        assert!(page.contains(&format!(
            "script-src {}",
            crate::interactive::csp::csp_hash(SCRIPT)
        )));
        // The name is data, never markup
        assert!(!page.contains(">Ada<"));
    }
}
