//! The interactive HTML page (`carc export --format html`): one self-contained file that
//! behaves like the viewer. A board, the move list (one row per turn, its events one click
//! away, the variations under the move they leave from), a scrubber, the current event with
//! its scores' breakdowns and annotations, the score graph; ArrowLeft/ArrowRight step,
//! Home/End jump, a click on a move or on the graph jumps there.
//!
//! How it stays safe and small:
//! - **Text is data.** Everything from a log, an annotation or a caller reaches the page in one
//!   `<script type="application/json">` element, escaped for that context
//!   ([`json`](self::json)); the page's script reads it with `JSON.parse` and puts it into the
//!   DOM with `textContent` only. The page's markup holds no text from the log.
//! - **One script, allowed by its hash.** The Content-Security-Policy allows exactly the
//!   page's own script (`script-src 'sha256-…'`, computed here from `page.js`), no other
//!   script, no `eval`, and no fetch of any kind.
//! - **Boards from `carc-draw`.** The script draws nothing: it clones SVG fragments written by
//!   `carc-draw`'s SVG writer (see [`board`](self::board)).

pub(crate) mod board;
pub(crate) mod csp;
pub(crate) mod head;
pub(crate) mod json;

use std::collections::BTreeMap;
use std::fmt::Write;

use carc_draw::{player_text_color, Rgba, TileAt};
use carc_events::annotation::Annotation;
use carc_events::{label_of, Event as LogEvent, Header};
use carc_replay::describe::{
    describe_arrows, describe_gifts, describe_step, describe_traders, final_scoring_points,
    score_details, score_headline,
};
use carc_replay::{Step, Timeline};
use carc_rules::{Action, Effects, Game, Score, ScoreTime};

use self::board::BoardParts;
use self::json::Value;
use crate::chart::GraphUse;
use crate::extras::{Extras, Section, WinChart};
use crate::html::{escape, graph_svg, meeple_rgba, symbols};
use crate::outline::{outline, returned_line, Event, Outline};
use crate::win_graph::win_svg;

/// The page's script: it reads the data and swaps the precomputed parts.
const SCRIPT: &str = include_str!("interactive/page.js");
/// The page's style sheet.
const STYLE: &str = include_str!("interactive/page.css");

/// Writes the interactive page of `timeline`, with `annotations` by event `seq` shown at their
/// events and the caller's `extras` (the move quality: marks, lines, the best move drawn on
/// the board; closing sections; sections with a board of another line of play of the game,
/// such as a what-if variation, become lines of play to step through, listed under the move
/// they leave from).
pub fn interactive_html(
    timeline: &Timeline,
    annotations: &BTreeMap<u64, Annotation>,
    extras: &Extras,
) -> String {
    let o = outline(timeline, annotations, extras);
    let header = o.header;
    let colors: Vec<Rgba> = header
        .players
        .iter()
        .map(|p| meeple_rgba(p.color))
        .collect();

    // The lines of play: the game, then each section's line that leaves the game somewhere.
    let variations: Vec<(&Section, &Timeline, usize)> = o
        .sections
        .iter()
        .filter_map(|s| {
            let b = s.board.as_ref()?;
            let line = &b.timeline;
            let from = common_steps(timeline, line);
            (line.steps.len() > from).then_some((s, line, from))
        })
        .collect();

    // The best moves found: the position before the event, the tile placed there and the
    // actions of the best move.
    let best: Vec<BestMove> = o
        .turns
        .iter()
        .flat_map(|t| &t.events)
        .filter_map(|e| {
            let actions = &extras.events.get(&e.seq)?.best;
            let (at, rotation) = actions.iter().find_map(|a| match a {
                Action::Place { at, rotation } => Some((*at, *rotation)),
                _ => None,
            })?;
            if !matches!(timeline.steps[e.index].event, LogEvent::TilePlaced { .. }) {
                return None;
            }
            let placed = timeline.state_at(e.index + 1).ok()?.placed().last()?.tile;
            Some(BestMove {
                position: e.index + 1,
                tile: TileAt {
                    tile: placed,
                    rotation,
                    at,
                },
                after: played_after(timeline, e.index, actions),
            })
        })
        .collect();

    let mut out = String::new();
    head(&mut out);
    body_frame(&mut out, &o, timeline, extras.win_chart.as_ref());

    let game_lines = std::iter::once(timeline).chain(variations.iter().map(|v| v.1));
    let extra_tiles: Vec<TileAt> = best.iter().map(|b| b.tile).collect();
    symbols(&mut out, game_lines, &extra_tiles);

    let mut parts = BoardParts::default();
    let mut lines = vec![line_value(&mut parts, timeline, &colors, 0, None)];
    for (k, (section, line, from)) in variations.iter().enumerate() {
        let own: Value = line.steps[*from..]
            .iter()
            .map(|s| step_value(header, s, &[], None, &[]))
            .collect();
        let mut v = line_value(&mut parts, line, &colors, from + 1, Some((section, *from)));
        if let Value::Obj(fields) = &mut v {
            fields.push(("steps", own));
            fields.push(("id", (k + 1).into()));
        }
        lines.push(v);
    }
    let best_value: Value = best
        .iter()
        .map(|b| {
            let (faded, frame) = parts.best_move(&b.tile);
            let board = b.after.as_ref().map(|game| parts.lone(game, &colors));
            Value::Obj(vec![
                ("position", b.position.into()),
                ("faded", faded.into()),
                ("frame", frame.into()),
                ("board", board.unwrap_or(Value::Null)),
            ])
        })
        .collect();
    parts.write_pool(&mut out);

    let start = o.turns.first().map_or(0, |t| t.steps_through);
    let data = Value::Obj(vec![
        ("game", header.game.as_str().into()),
        ("players", players_value(header)),
        ("setup", setup_value(header)),
        ("steps", steps_value(&o, timeline)),
        ("turns", turns_value(&o, timeline, &variations)),
        ("finals", finals_value(&o)),
        ("lines", Value::Arr(lines)),
        ("board", parts.to_value()),
        ("best", best_value),
        ("start", start.into()),
        ("illegal", illegal_value(&o)),
        ("table", table_value(&o)),
        (
            "sections",
            o.sections
                .iter()
                .filter(|s| s.board.is_none())
                .map(section_value)
                .collect(),
        ),
    ]);
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"carc-data\">{}</script>",
        data.to_json()
    );
    let _ = writeln!(out, "<script>{SCRIPT}</script>\n</body>\n</html>");
    out
}

/// The best move found instead of a placement (move quality).
struct BestMove {
    /// The position after the placement it could have replaced.
    position: usize,
    /// The tile placed there, where the best move puts it.
    tile: TileAt,
    /// The game after the best move, when its actions play on the position before the event.
    after: Option<Game>,
}

/// The game after `actions`, played on the position before step `index`; none if one of them
/// does not apply (the page then shows the placement alone).
fn played_after(timeline: &Timeline, index: usize, actions: &[Action]) -> Option<Game> {
    let mut game = timeline.state_at(index).ok()?;
    let mut fx = Effects::quiet();
    for a in actions {
        game.apply(a, &mut fx).ok()?;
    }
    Some(game)
}

/// How many first steps two lines of play of one game share.
fn common_steps(a: &Timeline, b: &Timeline) -> usize {
    a.steps
        .iter()
        .zip(&b.steps)
        .take_while(|(x, y)| x.seq == y.seq && x.event == y.event)
        .count()
}

fn head(out: &mut String) {
    // The title is set by the script from the data (the game id is text from the log).
    head::page_head(out, SCRIPT, "carc export --format html", "carc game", STYLE);
}

/// The page's fixed markup: places the script fills, the board, the controls and the graph.
fn body_frame(out: &mut String, o: &Outline, timeline: &Timeline, win: Option<&WinChart>) {
    let background = carc_draw::color::BACKGROUND.hex();
    let map = if timeline.state_at(0).is_ok_and(|g| g.map().is_some()) {
        "<use href=\"#carc-map\"/>"
    } else {
        ""
    };
    let _ = write!(
        out,
        "<header><h1 id=\"title\"></h1><ul id=\"setup\" class=\"setup\"></ul></header>
<noscript><p class=\"illegal\">This page needs JavaScript to step through the game; <code>carc export --format html --static</code> writes a page without it.</p></noscript>
<div class=\"app\">
<div class=\"stage\">
<div class=\"controls\"><button type=\"button\" id=\"first\" title=\"first position (Home)\">|&#x25C0;</button><button type=\"button\" id=\"prev\" title=\"back one event (ArrowLeft)\">&#x25C0;</button><button type=\"button\" id=\"next\" title=\"forward one event (ArrowRight)\">&#x25B6;</button><button type=\"button\" id=\"last\" title=\"last position (End)\">&#x25B6;|</button><input type=\"range\" id=\"scrub\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"position\"><span id=\"where\"></span><button type=\"button\" id=\"back\" hidden>back to the game</button></div>
<figure class=\"board\"><svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\" style=\"background:{background}\" role=\"img\" aria-label=\"the board\">{map}<g id=\"tiles\"></g><g id=\"marks\"></g><g id=\"top\"></g><g id=\"best\"></g></svg></figure>
<ul id=\"now\" class=\"legend\"></ul>
<figure class=\"graph\">
"
    );
    graph_svg(out, o, timeline, GraphUse::Interactive);
    let _ = writeln!(
        out,
        "<figcaption><ul id=\"legend\" class=\"legend\"></ul></figcaption>\n</figure>"
    );
    if let Some(chart) = win {
        // Its caption is the caller's text, and the interactive page puts no text from the
        // caller into markup: it is escaped like every other text there.
        let _ = writeln!(out, "<figure class=\"graph\">");
        win_svg(out, o, chart, timeline.steps.len(), GraphUse::Interactive);
        let _ = writeln!(
            out,
            "<figcaption>{}</figcaption>\n</figure>",
            escape(&chart.caption)
        );
    }
    let _ = write!(
        out,
        "</div>
<div class=\"side\">
<section id=\"event\" class=\"event\" aria-live=\"polite\"></section>
<div class=\"moves\"><table id=\"moves\"><thead><tr><th>turn</th><th>player</th><th>tile</th><th>square</th><th>meeple</th><th>points</th><th>mark</th></tr></thead><tbody></tbody></table></div>
</div>
</div>
<section id=\"end\"></section>
"
    );
}

fn players_value(header: &Header) -> Value {
    header
        .players
        .iter()
        .map(|p| {
            let line = player_text_color(p.color.as_str(), false).unwrap_or(Rgba::BLACK);
            Value::Obj(vec![
                ("name", p.name.as_str().into()),
                ("color", p.color.as_str().into()),
                ("line", line.hex().into()),
            ])
        })
        .collect()
}

/// The setup as label and text pairs (the players are listed from `players`).
fn setup_value(header: &Header) -> Value {
    let r = &header.rules;
    let expansions = if r.expansions.is_empty() {
        "none".to_string()
    } else {
        r.expansions.join(", ")
    };
    let mut rows = vec![
        (
            "Rules",
            format!(
                "farmers {}, a two-tile city scores {}, {} meeples each; expansions: {expansions}",
                if r.farmers { "on" } else { "off" },
                r.two_tile_city,
                r.meeples,
            ),
        ),
        ("Tile sets", header.tile_sets.join(", ")),
    ];
    if let Some(map) = &r.map {
        let variants: Vec<&str> = map.town_variants.iter().map(|v| v.as_str()).collect();
        let variants = if variants.is_empty() {
            "no town variants".to_string()
        } else {
            format!("town variants {}", variants.join(", "))
        };
        rows.push((
            "Map",
            format!(
                "{}, {} start squares, {variants}",
                map.name, map.start_squares
            ),
        ));
    }
    if let Some(c) = &header.comment {
        rows.push(("Comment", c.clone()));
    }
    rows.into_iter()
        .map(|(label, text)| Value::Arr(vec![label.into(), text.into()]))
        .collect()
}

/// One step as the page shows it: its words, marks, scores with their breakdowns, the
/// annotation's comment, the caller's lines and the scores after it.
fn step_value(
    header: &Header,
    step: &Step,
    marks: &[crate::outline::Mark],
    comment: Option<&str>,
    lines: &[String],
) -> Value {
    let scores_of = |time: ScoreTime| step.effects.scores.iter().filter(move |s| s.time == time);
    let returned = &step.effects.returned;
    let at_end = step.effects.returned_at_final_scoring().len();
    let (moved, ended) = returned.split_at(returned.len() - at_end);
    Value::Obj(vec![
        ("seq", step.seq.into()),
        ("turn", step.turn.into()),
        ("seat", step.seat.map(u32::from).into()),
        ("text", describe_step(header, step).into()),
        (
            "marks",
            marks
                .iter()
                .map(|m| {
                    Value::Obj(vec![
                        ("glyph", m.glyph.as_str().into()),
                        ("meaning", m.meaning.as_str().into()),
                        ("extra", m.extra.into()),
                    ])
                })
                .collect(),
        ),
        (
            "arrows",
            describe_arrows(header, step.seat, &step.effects)
                .into_iter()
                .collect(),
        ),
        (
            "traders",
            describe_traders(header, step.seat, &step.effects)
                .into_iter()
                .collect(),
        ),
        (
            "gifts",
            describe_gifts(header, step.seat, &step.effects)
                .into_iter()
                .collect(),
        ),
        (
            "scores",
            scores_of(ScoreTime::Completed)
                .map(|s| score_value(header, s))
                .collect(),
        ),
        (
            "returned",
            moved
                .iter()
                .map(|r| Value::from(returned_line(header, r)))
                .collect(),
        ),
        // The final scoring the step set off, told apart from the move.
        (
            "final_scores",
            scores_of(ScoreTime::Final)
                .map(|s| score_value(header, s))
                .collect(),
        ),
        (
            "final_returned",
            ended
                .iter()
                .map(|r| Value::from(returned_line(header, r)))
                .collect(),
        ),
        ("comment", comment.into()),
        ("lines", lines.iter().collect()),
        ("after", step.scores_after.iter().copied().collect()),
    ])
}

fn score_value(header: &Header, s: &Score) -> Value {
    Value::Obj(vec![
        ("headline", score_headline(header, s).into()),
        ("details", score_details(header, s).into_iter().collect()),
    ])
}

/// The game's steps, with the annotations and the caller's notes of the outline.
fn steps_value(o: &Outline, timeline: &Timeline) -> Value {
    o.turns
        .iter()
        .flat_map(|t| &t.events)
        .map(|e: &Event| {
            step_value(
                o.header,
                &timeline.steps[e.index],
                &e.marks,
                e.comment,
                e.lines,
            )
        })
        .collect()
}

/// One row per turn: who, which tile where, the meeple, the mover's points, the marks, the
/// steps it spans and the variations that leave from it.
fn turns_value(
    o: &Outline,
    timeline: &Timeline,
    variations: &[(&Section, &Timeline, usize)],
) -> Value {
    o.turns
        .iter()
        .map(|t| {
            let first = t.events.first().map_or(0, |e| e.index);
            let steps = &timeline.steps[first..t.steps_through];
            let (mut tile, mut square, mut rotation, mut meeple) =
                (String::new(), String::new(), String::new(), String::new());
            for s in steps {
                match &s.event {
                    LogEvent::TilePlaced {
                        tile: id,
                        at,
                        rotation: r,
                        ..
                    }
                    | LogEvent::StartPlaced {
                        tile: id,
                        at,
                        rotation: r,
                    } => {
                        tile = id.as_str().to_string();
                        square = format!("({},{})", at.x, at.y);
                        rotation = format!("{}°", r.degrees());
                    }
                    LogEvent::TileSetAside { tile: id, .. } if tile.is_empty() => {
                        tile = format!("{} (set aside)", id.as_str());
                    }
                    // Spots in words (`field, north-east`), not the log's `field En`.
                    LogEvent::MeeplePlaced { on, .. } => meeple = label_of(on).to_string(),
                    LogEvent::ArrowMeeplePlaced { at, on, .. } => {
                        meeple = format!("{} of ({},{})", label_of(on), at.x, at.y);
                    }
                    LogEvent::MeepleSkipped { .. } => meeple = "none".to_string(),
                    LogEvent::AbbotPlaced {
                        on, portal: false, ..
                    } => {
                        meeple = format!("abbot on {}", label_of(on));
                    }
                    LogEvent::AbbotPlaced { on, at, .. } => {
                        meeple = format!("abbot on {} of ({},{})", label_of(on), at.x, at.y);
                    }
                    LogEvent::AbbotTakenBack { at, .. } => {
                        meeple = format!("abbot back from ({},{})", at.x, at.y);
                    }
                    _ => {}
                }
            }
            let seat = steps.iter().find_map(|s| s.seat);
            let before = first
                .checked_sub(1)
                .and_then(|i| timeline.steps.get(i))
                .map(|s| s.scores_after.clone())
                .unwrap_or_default();
            let after = steps
                .last()
                .map(|s| s.scores_after.clone())
                .unwrap_or_default();
            // The final scoring that the last move sets off is not the move's: it has rows
            // of its own (`finals`).
            let at_end = steps.last().map_or_else(Vec::new, |s| {
                final_scoring_points(&s.effects.scores, s.scores_after.len())
            });
            let points = seat.map(|seat| {
                let of = |scores: &[u32]| scores.get(seat as usize).copied().unwrap_or(0);
                of(&after).saturating_sub(of(&before) + of(&at_end))
            });
            let glyphs: Vec<String> = t
                .events
                .iter()
                .flat_map(|e| e.marks.iter().map(|m| m.glyph.clone()))
                .collect();
            let vars: Value = variations
                .iter()
                .enumerate()
                // Under the turn of the last event it shares with the game (the first turn
                // when it shares none).
                .filter(|(_, (_, _, from))| {
                    (*from > first || (*from == 0 && first == 0)) && *from <= t.steps_through
                })
                .map(|(k, _)| k + 1)
                .collect();
            Value::Obj(vec![
                ("number", t.number.into()),
                ("title", t.title.as_str().into()),
                ("seat", seat.map(u32::from).into()),
                ("first", first.into()),
                ("last", t.steps_through.into()),
                ("tile", tile.into()),
                ("square", square.into()),
                ("rotation", rotation.into()),
                ("meeple", meeple.into()),
                ("points", points.into()),
                ("glyphs", glyphs.join(" ").into()),
                ("variations", vars),
            ])
        })
        .collect()
}

/// The final scoring, one row per player and feature (shown after the last turn).
fn finals_value(o: &Outline) -> Value {
    o.final_rows
        .iter()
        .map(|r| {
            Value::Obj(vec![
                ("seat", u32::from(r.seat).into()),
                ("what", r.what.as_str().into()),
                ("points", r.points.into()),
            ])
        })
        .collect()
}

/// A line of play's boards, and for a variation its title and where it leaves the game.
fn line_value(
    parts: &mut BoardParts,
    line: &Timeline,
    colors: &[Rgba],
    first: usize,
    variation: Option<(&Section, usize)>,
) -> Value {
    let boards = parts.line(line, colors, first);
    let mut v = boards.to_value();
    if let (Value::Obj(fields), Some((section, from))) = (&mut v, variation) {
        fields.push(("title", section.title.as_str().into()));
        fields.push(("from", from.into()));
        let caption = section.board.as_ref().map(|b| b.caption.as_str());
        fields.push(("caption", caption.into()));
    }
    v
}

fn illegal_value(o: &Outline) -> Value {
    o.illegal
        .as_ref()
        .map(|e| {
            format!(
                "The log stops being legal here: line {}, event {}: {} [{}]. The page ends at the last legal event.",
                e.line, e.event, e.message, e.rule
            )
        })
        .into()
}

fn table_value(o: &Outline) -> Value {
    Value::Obj(vec![
        ("title", o.table.title.into()),
        (
            "rows",
            o.table
                .rows
                .iter()
                .map(|r| {
                    Value::Obj(vec![
                        ("name", r.name.as_str().into()),
                        ("points", r.points.into()),
                        ("winner", r.winner.into()),
                    ])
                })
                .collect(),
        ),
    ])
}

fn section_value(s: &Section) -> Value {
    let table = s.table.as_ref().map(|t| {
        Value::Obj(vec![
            (
                "columns",
                t.columns
                    .iter()
                    .map(|c| {
                        Value::Obj(vec![
                            ("name", c.name.as_str().into()),
                            ("numeric", c.numeric.into()),
                        ])
                    })
                    .collect(),
            ),
            (
                "rows",
                t.rows.iter().map(|r| r.iter().collect::<Value>()).collect(),
            ),
        ])
    });
    Value::Obj(vec![
        ("title", s.title.as_str().into()),
        ("paragraphs", s.paragraphs.iter().collect()),
        ("items", s.items.iter().collect()),
        ("table", table.unwrap_or(Value::Null)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_the_script_by_the_hash_of_its_text() {
        let page = head_only();
        assert!(page.contains(&format!("script-src {}", csp::csp_hash(SCRIPT))));
        assert!(!page.contains("unsafe-eval"));
        assert!(!page.contains("script-src 'unsafe-inline'"));
    }

    fn head_only() -> String {
        let mut out = String::new();
        head(&mut out);
        out
    }
}
