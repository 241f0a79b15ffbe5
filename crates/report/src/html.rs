//! The HTML report: one self-contained page (no network, no external assets, no JavaScript)
//! with the setup, a score graph, each turn's moves in words with every score's breakdown
//! folded in `<details>`, the annotations and their glyphs, a picture of the board after each
//! turn (or after chosen turns), the final scoring and a final score table.
//!
//! Everything that comes from a log or an annotation (player names, the game id, comments,
//! annotation text, and so every sentence that names a player) is untrusted and goes through
//! [`escape`]. The page also carries a Content-Security-Policy that forbids scripts and any
//! fetch, so a mistake in escaping still cannot run code or call out.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use carc_draw::coordinates;
use carc_draw::svg::{self, num, SvgOptions};
use carc_draw::{
    layers, player_color, player_text_color, tile_type, world_of, Overlay, Point, Rgba, TileAt,
};
use carc_events::annotation::Annotation;
use carc_events::{Color, Header};
use carc_replay::describe::{score_details, score_headline, seat_name};
use carc_replay::Timeline;
use carc_rules::Score;

use crate::chart::{mark_svg, GraphUse, GRAPH_LEFT, GRAPH_RIGHT, GRAPH_W};
use crate::extras::{BoardAt, Extras, Section};
pub use crate::markup::escape;
use crate::outline::{outline, Event, Outline, ScoreTable};

/// Which turns get a picture of the board after them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Boards {
    /// After every turn (turn 0 is the start tile).
    #[default]
    EveryTurn,
    /// After these turns only; turns the game does not have are ignored.
    Turns(BTreeSet<u32>),
    /// No board pictures.
    None,
}

impl Boards {
    fn wants(&self, turn: u32) -> bool {
        match self {
            Boards::EveryTurn => true,
            Boards::Turns(t) => t.contains(&turn),
            Boards::None => false,
        }
    }
}

/// How to write the HTML report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HtmlOptions {
    pub boards: Boards,
}

/// Pixels per square at which the shared tile and map pictures are written (it sets the
/// pixel minimums of thin lines; the boards scale them).
pub(crate) const SYMBOL_PX: f32 = 40.0;
/// The longer side of a board picture, in pixels, within the scale limits below (the page
/// scales pictures down further to fit).
const BOARD_SIDE_PX: f32 = 416.0;
const BOARD_MIN_PX: f32 = 16.0;
const BOARD_MAX_PX: f32 = 64.0;

/// Writes the HTML report of `timeline`, with `annotations` by event `seq` shown under their
/// events (the same inputs as [`crate::markdown`]).
pub fn html(
    timeline: &Timeline,
    annotations: &BTreeMap<u64, Annotation>,
    options: &HtmlOptions,
) -> String {
    html_with(timeline, annotations, &Extras::default(), options)
}

/// [`html`] with the caller's [`Extras`]: their marks follow the annotations' glyphs and are
/// drawn on the score graph, their lines are listed under the events, and their section closes
/// the page.
pub fn html_with(
    timeline: &Timeline,
    annotations: &BTreeMap<u64, Annotation>,
    extras: &Extras,
    options: &HtmlOptions,
) -> String {
    let o = outline(timeline, annotations, extras);
    let header = o.header;
    let mut out = String::new();
    head(&mut out, header);
    setup(&mut out, header);
    score_graph(&mut out, &o, timeline);
    if let Some(chart) = &extras.win_chart {
        crate::win_graph::win_section(&mut out, &o, chart, timeline.steps.len());
    }
    let _ = writeln!(out, "<h2>Turn by turn</h2>");
    // Boards of the closing sections come with any board pictures; `--boards none` has none.
    let section_boards: Vec<&BoardAt> = if options.boards == Boards::None {
        Vec::new()
    } else {
        o.sections.iter().filter_map(|s| s.board.as_ref()).collect()
    };
    if o.turns.iter().any(|t| options.boards.wants(t.number)) || !section_boards.is_empty() {
        let lines = std::iter::once(timeline).chain(section_boards.iter().map(|b| &b.timeline));
        symbols(&mut out, lines, &[]);
    }
    for turn in &o.turns {
        let _ = writeln!(
            out,
            "<section class=\"turn\" id=\"turn-{}\">\n<div class=\"moves\">\n<h3>{}</h3>\n<ul class=\"events\">",
            turn.number,
            escape(&turn.title)
        );
        for e in &turn.events {
            event(&mut out, header, e);
        }
        let _ = writeln!(out, "</ul>\n</div>");
        if options.boards.wants(turn.number) {
            let seq = turn.events.last().map_or(0, |e| e.seq);
            let ends_game = turn.steps_through == timeline.steps.len()
                && timeline
                    .steps
                    .last()
                    .is_some_and(|s| !s.effects.returned_at_final_scoring().is_empty());
            let caption = if turn.number == 0 {
                format!("The board after the start (event {seq})")
            } else if ends_game {
                format!(
                    "The board at final scoring, after turn {} (event {seq}): the figures that scored stand where they stood",
                    turn.number
                )
            } else {
                format!("The board after turn {} (event {seq})", turn.number)
            };
            board_after(&mut out, header, timeline, turn.steps_through, &caption);
        }
        let _ = writeln!(out, "</section>");
    }
    if let Some(e) = &o.illegal {
        let _ = writeln!(
            out,
            "<p class=\"illegal\"><strong>The log stops being legal here:</strong> line {}, event {}: {} [<code>{}</code>]. The report ends at the last legal event.</p>",
            e.line,
            e.event,
            escape(&e.message),
            escape(e.rule)
        );
    }
    if !o.finals.is_empty() {
        let _ = writeln!(
            out,
            "<h2 id=\"final-scoring\">Final scoring</h2>\n<div class=\"final\">"
        );
        final_rows(&mut out, &o);
        for s in &o.finals {
            score(&mut out, header, s);
        }
        for line in &o.final_returned {
            let _ = writeln!(out, "<p class=\"returned\">{}</p>", escape(line));
        }
        let _ = writeln!(out, "</div>");
    }
    table(&mut out, &o.table);
    for (k, s) in o.sections.iter().enumerate() {
        let board = s.board.as_ref().filter(|_| !section_boards.is_empty());
        section(&mut out, header, k + 1, s, board);
    }
    out.push_str("</body>\n</html>\n");
    out
}

const STYLE: &str = "\
body{font-family:system-ui,\"Segoe UI\",\"DejaVu Sans\",\"Liberation Sans\",sans-serif;max-width:72rem;margin:1.5rem auto;padding:0 1rem;color:#1e211e;background:#fbfaf6;line-height:1.45}
h1{font-size:1.7rem;margin:0 0 .6rem}
h2{font-size:1.3rem;margin:1.6rem 0 .6rem;border-bottom:1px solid #d6d3c8;padding-bottom:.2rem}
h3{font-size:1.05rem;margin:.2rem 0 .4rem}
ul.setup{padding-left:1.2rem}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%;border:1px solid #333;margin-right:.3em;vertical-align:-.05em}
.turn{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:0 1.2rem;align-items:start;border-top:1px solid #e4e1d8;padding:.5rem 0}
.moves{min-width:0}
ul.events{list-style:none;padding:0;margin:0}
ul.events>li{margin:.15rem 0}
.seq{display:inline-block;min-width:2.2em;color:#6b6f68;font-variant-numeric:tabular-nums}
.glyph{font-weight:bold;color:#a4461a;margin-right:.3em;text-decoration:none}
ul.arrows{margin:.1rem 0 .1rem 2.2em;padding-left:1rem;color:#4a3d78}
ul.gifts{margin:.1rem 0 .1rem 2.2em;padding-left:1rem;color:#1f5f4a}
ul.goods{margin:.1rem 0 .1rem 2.2em;padding-left:1rem;color:#6b4a12}
details{margin:.15rem 0 .15rem 2.2em}
.final details{margin-left:0}
summary{cursor:pointer}
details ul{margin:.1rem 0 .3rem;padding-left:1.6rem;color:#3b3f3a}
.returned{margin:.1rem 0 .1rem 2.2em;color:#555}
ul.extra{margin:.1rem 0 .2rem 2.2em;padding-left:1rem;color:#7a3412}
.glyph.extra{color:#7a3412}
blockquote.note{margin:.25rem 0 .35rem 2.2em;padding:.2rem .6rem;border-left:3px solid #c8a13a;background:#f4efdf;white-space:pre-line}
figure{margin:0}
section.extra figure.board{width:fit-content}
svg.symbols{position:absolute;width:0;height:0;overflow:hidden}
figure.board svg{display:block;max-width:min(26rem,42vw);height:auto;border-radius:3px}
figure.board figcaption{font-size:.8rem;color:#6b6f68;text-align:center}
figure.graph svg{display:block;max-width:100%;height:auto;background:#fff;border:1px solid #e4e1d8}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1.4rem}
.illegal{background:#fbe3e0;border:1px solid #d9a29a;padding:.4rem .6rem}
table{border-collapse:collapse;margin:.4rem 0 2rem}
th,td{border:1px solid #d6d3c8;padding:.25rem .8rem}
td.points,td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.winner td{font-weight:bold}
code{font-size:.9em}
@media (max-width:46rem){.turn{grid-template-columns:minmax(0,1fr)}figure.board svg{max-width:100%}}
";

fn head(out: &mut String, header: &Header) {
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    );
    // No scripts, no fetches of any kind: the page is complete as it is.
    let _ = writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
    );
    let _ = writeln!(
        out,
        "<meta name=\"generator\" content=\"carc export --format html\">\n<title>Game {}</title>",
        escape(&header.game)
    );
    let _ = write!(out, "<style>\n{STYLE}");
    // One class per player colour (a closed list), for the swatches.
    for c in Color::ALL {
        let _ = writeln!(
            out,
            ".c-{}{{background:{}}}",
            c.as_str(),
            meeple_rgba(c).hex()
        );
    }
    let _ = writeln!(out, "</style>\n</head>\n<body>");
}

pub(crate) fn meeple_rgba(c: Color) -> Rgba {
    player_color(c.as_str()).unwrap_or(Rgba::WHITE)
}

fn setup(out: &mut String, header: &Header) {
    let _ = writeln!(
        out,
        "<h1>Game {}</h1>\n<ul class=\"setup\">",
        escape(&header.game)
    );
    let players: Vec<String> = header
        .players
        .iter()
        .map(|p| {
            format!(
                "<span class=\"swatch c-{}\"></span>{} ({})",
                p.color.as_str(),
                escape(&p.name),
                p.color.as_str()
            )
        })
        .collect();
    let r = &header.rules;
    let expansions = if r.expansions.is_empty() {
        "none".to_string()
    } else {
        r.expansions.join(", ")
    };
    let _ = writeln!(
        out,
        "<li><strong>Players</strong>, in seat order: {}</li>",
        players.join(", ")
    );
    let _ = writeln!(
        out,
        "<li><strong>Rules</strong>: farmers {}, a two-tile city scores {}, {} meeples each; expansions: {}</li>",
        if r.farmers { "on" } else { "off" },
        r.two_tile_city,
        r.meeples,
        escape(&expansions)
    );
    let _ = writeln!(
        out,
        "<li><strong>Tile sets</strong>: {}</li>",
        escape(&header.tile_sets.join(", "))
    );
    if let Some(map) = &r.map {
        let variants: Vec<&str> = map.town_variants.iter().map(|v| v.as_str()).collect();
        let variants = if variants.is_empty() {
            "no town variants".to_string()
        } else {
            format!("town variants {}", variants.join(", "))
        };
        let _ = writeln!(
            out,
            "<li><strong>Map</strong>: {}, {} start squares, {}</li>",
            escape(&map.name),
            map.start_squares,
            escape(&variants)
        );
    }
    if let Some(c) = &header.comment {
        let _ = writeln!(out, "<li><strong>Comment</strong>: {}</li>", escape(c));
    }
    let _ = writeln!(out, "</ul>");
}

fn event(out: &mut String, header: &Header, e: &Event) {
    let marks: String = e
        .marks
        .iter()
        .map(|m| {
            format!(
                "<abbr class=\"glyph{}\" title=\"{}\">{}</abbr>",
                if m.extra { " extra" } else { "" },
                escape(&m.meaning),
                escape(&m.glyph)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "<li id=\"event-{seq}\"><span class=\"seq\">{seq}</span>{marks}{}",
        escape(&e.text),
        seq = e.seq
    );
    list(out, "arrows", &e.arrows);
    list(out, "goods", &e.traders);
    list(out, "gifts", &e.gifts);
    for s in &e.scores {
        score(out, header, s);
    }
    for line in &e.returned {
        let _ = writeln!(out, "<p class=\"returned\">{}</p>", escape(line));
    }
    if let Some(comment) = e.comment {
        // Line breaks of the comment are kept (white-space: pre-line).
        let _ = writeln!(
            out,
            "<blockquote class=\"note\">{}</blockquote>",
            escape(comment)
        );
    }
    list(out, "extra", e.lines);
    let _ = writeln!(out, "</li>");
}

/// Sentences as a list of the given class; nothing when there are none.
fn list(out: &mut String, class: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "<ul class=\"{class}\">");
    for line in lines {
        let _ = writeln!(out, "<li>{}</li>", escape(line));
    }
    let _ = writeln!(out, "</ul>");
}

/// A score's headline, with its breakdown folded underneath.
fn score(out: &mut String, header: &Header, s: &Score) {
    let _ = writeln!(
        out,
        "<details class=\"score\"><summary>score: {}</summary>\n<ul>",
        escape(&score_headline(header, s))
    );
    for line in score_details(header, s) {
        let _ = writeln!(out, "<li>{}</li>", escape(&line));
    }
    let _ = writeln!(out, "</ul></details>");
}

/// The id of a tile type's picture at a rotation (numbers only: tile ids come from tile-set
/// files and are not fit for an id).
pub(crate) fn tile_symbol(t: &TileAt) -> String {
    format!("carc-tile-{}-{}", t.tile.index(), t.rotation.degrees())
}

/// The pictures every board refers to, once for the page: the map board's unchanging parts
/// and each tile type at each rotation the game uses. A board is then a few `<use>` elements
/// instead of thousands of shapes, which keeps a page with a board after every turn small.
/// `extra` tiles (types at rotations no board shows, such as a best move found) are defined
/// too.
pub(crate) fn symbols<'a>(
    out: &mut String,
    lines: impl Iterator<Item = &'a Timeline>,
    extra: &[TileAt],
) {
    // Tiles are never removed, so the last legal state of each line of play holds every tile
    // of its boards.
    let finals: Vec<_> = lines
        .filter_map(|t| t.state_at(t.steps.len()).ok())
        .collect();
    if finals.is_empty() {
        return;
    }
    let drawn: Vec<_> = finals
        .iter()
        .map(|game| (game, layers(game, &Overlay::default())))
        .collect();
    let _ = writeln!(
        out,
        "<svg class=\"symbols\" xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>"
    );
    // Every line is the same game, so on the same map board.
    let map = &drawn[0].1.map;
    if !map.is_empty() {
        let _ = writeln!(out, "<g id=\"carc-map\">");
        svg::write_shapes(out, map, SYMBOL_PX, None);
        let _ = writeln!(out, "</g>");
    }
    let mut done = BTreeSet::new();
    // The tiles on the boards, then the extra ones, drawn with the game's tile set.
    let placed = drawn
        .iter()
        .flat_map(|(game, drawing)| drawing.tiles.iter().map(move |t| (*game, t)));
    let extra = extra.iter().map(|t| (drawn[0].0, t));
    for (game, t) in placed.chain(extra) {
        let id = tile_symbol(t);
        if !done.insert(id.clone()) {
            continue;
        }
        let mut shapes = Vec::new();
        tile_type(
            game.tiles().get(t.tile),
            t.rotation,
            Point::ZERO,
            &mut shapes,
        );
        let _ = writeln!(out, "<g id=\"{id}\">");
        svg::write_shapes(out, &shapes, SYMBOL_PX, None);
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</defs></svg>");
}

/// The board after the first `n` steps of `timeline`, as an inline SVG picture made of the
/// shared pictures of [`symbols`] and the shapes of this moment.
fn board_after(out: &mut String, header: &Header, timeline: &Timeline, n: usize, caption: &str) {
    // A game that cannot be set up has no steps and so no turns; this is a safeguard.
    let Ok(game) = timeline.state_at(n) else {
        return;
    };
    let colors: Vec<Rgba> = header
        .players
        .iter()
        .map(|p| meeple_rgba(p.color))
        .collect();
    // At the end of the game the figures the final scoring sent home stay drawn where they
    // stood, so the board shows who held what.
    let final_figures = n
        .checked_sub(1)
        .and_then(|i| timeline.steps.get(i))
        .map_or(&[][..], |s| s.effects.returned_at_final_scoring());
    let layers = layers(
        &game,
        &Overlay {
            colors: &colors,
            last_placed: game.placed().last().map(|p| p.at),
            final_figures,
            ..Overlay::default()
        },
    );
    let b = layers.bounds;
    let px = (BOARD_SIDE_PX / b.width().max(b.height())).clamp(BOARD_MIN_PX, BOARD_MAX_PX);
    let mut picture = svg::start(
        &b,
        &SvgOptions {
            px_per_square: px,
            title: Some(caption.to_string()),
            ..SvgOptions::default()
        },
    );
    if !layers.map.is_empty() {
        picture.push_str("<use href=\"#carc-map\"/>\n");
    }
    svg::write_shapes(&mut picture, &layers.map_marks, px, Some(&b));
    for t in &layers.tiles {
        // `<use>` places the tile's picture (drawn around the origin) on its square.
        let c = world_of(t.at);
        let _ = writeln!(
            picture,
            "<use href=\"#{}\" x=\"{}\" y=\"{}\"/>",
            tile_symbol(t),
            num(c.x),
            num(c.y)
        );
    }
    svg::write_shapes(&mut picture, &layers.top, px, Some(&b));
    // The squares' numbers along the edges, as every text names squares by (x,y).
    svg::write_shapes(&mut picture, &coordinates::edge_labels(&b), px, Some(&b));
    picture.push_str("</svg>\n");
    let _ = write!(
        out,
        "<figure class=\"board\">\n{picture}<figcaption>{}</figcaption>\n</figure>\n",
        escape(caption)
    );
}

/// The score of each player after every event, as an inline SVG line chart in the players'
/// colours, with a legend.
///
/// The caller's marks (move quality) sit on the mover's line at their event, each a link to
/// the event.
fn score_graph(out: &mut String, o: &Outline, timeline: &Timeline) {
    let header = o.header;
    if timeline.steps.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<h2>Scores over the game</h2>\n<figure class=\"graph\">"
    );
    graph_svg(out, o, timeline, GraphUse::Static);
    let _ = writeln!(out, "<figcaption><ul class=\"legend\">");
    let finals = timeline.final_scores();
    for (seat, p) in header.players.iter().enumerate() {
        let _ = writeln!(
            out,
            "<li><span class=\"swatch c-{}\"></span>{}: {}</li>",
            p.color.as_str(),
            escape(&p.name),
            finals.get(seat).copied().unwrap_or(0)
        );
    }
    let _ = writeln!(out, "</ul></figcaption>\n</figure>");
}

/// The `<svg>` of the score graph (see [`score_graph`]).
pub(crate) fn graph_svg(out: &mut String, o: &Outline, timeline: &Timeline, mode: GraphUse) {
    let header = o.header;
    let steps = &timeline.steps;
    if steps.is_empty() {
        return;
    }
    let players = header.players.len();
    let top = steps
        .iter()
        .flat_map(|s| s.scores_after.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    // A round tick step giving at most six lines across the chart.
    let tick = [1u32, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|t| top.div_ceil(*t) <= 6)
        .unwrap_or(top.div_ceil(6));
    let top = top.div_ceil(tick) * tick;
    let (w, h) = (GRAPH_W, 240.0f32);
    let (left, right, above, below) = (GRAPH_LEFT, GRAPH_RIGHT, 10.0f32, 28.0f32);
    let events = steps.len() as f32;
    let x = |i: usize| left + (w - left - right) * i as f32 / events;
    let y = |v: u32| above + (h - above - below) * (1.0 - v as f32 / top as f32);
    let data = match mode {
        GraphUse::Static => String::new(),
        GraphUse::Interactive => format!(
            " id=\"graph\" data-left=\"{}\" data-right=\"{}\" data-positions=\"{}\"",
            num(left),
            num(right),
            steps.len()
        ),
    };
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\"{data} width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"score of each player after each event\">",
        num(w),
        num(h),
        num(w),
        num(h)
    );
    let mut v = 0;
    while v <= top {
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#e2e0d8\" stroke-width=\"1\"/>\n<text x=\"{}\" y=\"{y}\" font-size=\"11\" font-family=\"sans-serif\" text-anchor=\"end\" dominant-baseline=\"central\" fill=\"#555\">{v}</text>",
            num(left),
            num(w - right),
            num(left - 6.0),
            y = num(y(v)),
        );
        v += tick;
    }
    // Event numbers along the bottom: the first, the last, and round numbers between.
    let every = [10usize, 20, 25, 50, 100]
        .into_iter()
        .find(|e| steps.len() / e <= 10)
        .unwrap_or(steps.len().div_ceil(10).max(1));
    let mut i = 0;
    while i <= steps.len() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" font-family=\"sans-serif\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            num(x(i)),
            num(h - 10.0),
            i
        );
        i += every;
    }
    for seat in 0..players {
        let color = header.players[seat].color;
        let line = player_text_color(color.as_str(), false).unwrap_or(Rgba::BLACK);
        // A step line: the score stays flat until the event that changes it.
        let mut points = vec![(x(0), y(0))];
        let mut last = 0;
        for (k, s) in steps.iter().enumerate() {
            let now = s.scores_after.get(seat).copied().unwrap_or(last);
            if now != last {
                points.push((x(k + 1), y(last)));
                points.push((x(k + 1), y(now)));
                last = now;
            }
        }
        points.push((x(steps.len()), y(last)));
        let coords: Vec<String> = points
            .iter()
            .map(|(a, b)| format!("{},{}", num(*a), num(*b)))
            .collect();
        // Earlier seats get wider lines, so that equal scores show both colours.
        let width = 2.0 + 1.2 * (players - 1 - seat) as f32 / (players.max(2) - 1) as f32;
        let title = match mode {
            GraphUse::Static => {
                format!("<title>{}</title>", escape(&seat_name(header, seat as u8)))
            }
            GraphUse::Interactive => String::new(),
        };
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\">{title}</polyline>",
            coords.join(" "),
            line.hex(),
            num(width),
        );
    }
    for e in o.turns.iter().flat_map(|t| &t.events) {
        let (Some(seat), Some(m)) = (e.seat, e.marks.iter().find(|m| m.extra)) else {
            continue;
        };
        let points = steps[e.index]
            .scores_after
            .get(seat as usize)
            .copied()
            .unwrap_or(0);
        let (cx, cy) = (x(e.index + 1), y(points));
        mark_svg(out, mode, e.seq, e.index + 1, &m.meaning, &m.glyph, cx, cy);
    }
    if mode == GraphUse::Interactive {
        // Where the position shown is; the script moves it.
        let _ = writeln!(
            out,
            "<line id=\"cursor\" x1=\"{l}\" y1=\"{}\" x2=\"{l}\" y2=\"{}\" stroke=\"#1e211e\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>",
            num(above),
            num(h - below),
            l = num(left)
        );
    }
    let _ = writeln!(out, "</svg>");
}

/// The final scoring, one row per player and feature.
fn final_rows(out: &mut String, o: &Outline) {
    let _ = writeln!(
        out,
        "<table class=\"final-rows\">\n<thead><tr><th>player</th><th>feature</th><th>points</th></tr></thead>\n<tbody>"
    );
    for r in &o.final_rows {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"points\">+{}</td></tr>",
            escape(&seat_name(o.header, r.seat)),
            escape(&r.what),
            r.points
        );
    }
    let _ = writeln!(out, "</tbody>\n</table>");
}

fn table(out: &mut String, t: &ScoreTable) {
    let _ = writeln!(
        out,
        "<h2 id=\"scores\">{}</h2>\n<table>\n<thead><tr><th>player</th><th>points</th></tr></thead>\n<tbody>",
        t.title
    );
    for row in &t.rows {
        let class = if row.winner { " class=\"winner\"" } else { "" };
        let _ = writeln!(
            out,
            "<tr{class}><td>{}</td><td class=\"points\">{}</td></tr>",
            escape(&row.name),
            row.points
        );
    }
    let _ = writeln!(out, "</tbody>\n</table>");
}

/// The caller's `k`th closing section: paragraphs, a list, a table and the `board` picture,
/// all text escaped.
fn section(out: &mut String, header: &Header, k: usize, s: &Section, board: Option<&BoardAt>) {
    let _ = writeln!(
        out,
        "<h2 id=\"extra-{k}\">{}</h2>\n<section class=\"extra\">",
        escape(&s.title)
    );
    for p in &s.paragraphs {
        let _ = writeln!(out, "<p>{}</p>", escape(p));
    }
    list(out, "items", &s.items);
    if let Some(t) = &s.table {
        let heads: String = t
            .columns
            .iter()
            .map(|c| format!("<th>{}</th>", escape(&c.name)))
            .collect();
        let _ = writeln!(out, "<table>\n<thead><tr>{heads}</tr></thead>\n<tbody>");
        for row in &t.rows {
            let cells: String = row
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    let numeric = t.columns.get(i).is_some_and(|c| c.numeric);
                    let class = if numeric { " class=\"num\"" } else { "" };
                    format!("<td{class}>{}</td>", escape(cell))
                })
                .collect();
            let _ = writeln!(out, "<tr>{cells}</tr>");
        }
        let _ = writeln!(out, "</tbody>\n</table>");
    }
    if let Some(b) = board {
        board_after(out, header, &b.timeline, b.steps, &b.caption);
    }
    let _ = writeln!(out, "</section>");
}
