//! The win-probability graph of both HTML pages: each player's chance to win over the game (the
//! caller's [`WinChart`], from the engine judge), under the score graph and on the same
//! horizontal scale, with the move-quality marks on the mover's chance.

use std::fmt::Write;

use carc_draw::svg::num;
use carc_draw::{player_text_color, Rgba};
use carc_replay::describe::seat_name;

use crate::chart::{mark_svg, GraphUse, GRAPH_LEFT, GRAPH_RIGHT, GRAPH_W};
use crate::extras::WinChart;
use crate::markup::escape;
use crate::outline::Outline;

const HEIGHT: f32 = 150.0;
const ABOVE: f32 = 10.0;
const BELOW: f32 = 12.0;

/// The static page's section: a heading, the graph and its caption.
pub(crate) fn win_section(out: &mut String, o: &Outline, chart: &WinChart, positions: usize) {
    let _ = writeln!(
        out,
        "<h2>Chance to win over the game</h2>\n<figure class=\"graph\">"
    );
    win_svg(out, o, chart, positions, GraphUse::Static);
    let _ = writeln!(
        out,
        "<figcaption>{}</figcaption>\n</figure>",
        escape(&chart.caption)
    );
}

/// The `<svg>` of the graph; `positions` is the number of events (the score graph's width).
/// On the interactive page it carries the geometry and a cursor line for the page's script,
/// as the score graph does (ids `wingraph` and `wincursor`).
pub(crate) fn win_svg(
    out: &mut String,
    o: &Outline,
    chart: &WinChart,
    positions: usize,
    mode: GraphUse,
) {
    if positions == 0 {
        return;
    }
    let (w, h) = (GRAPH_W, HEIGHT);
    let x = |i: usize| GRAPH_LEFT + (w - GRAPH_LEFT - GRAPH_RIGHT) * i as f32 / positions as f32;
    let y = |chance: f64| ABOVE + (h - ABOVE - BELOW) * (1.0 - chance.clamp(0.0, 1.0) as f32);
    let data = match mode {
        GraphUse::Static => String::new(),
        GraphUse::Interactive => format!(
            " id=\"wingraph\" data-left=\"{}\" data-right=\"{}\" data-positions=\"{positions}\"",
            num(GRAPH_LEFT),
            num(GRAPH_RIGHT),
        ),
    };
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\"{data} width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"each player's chance to win after each judged move\">",
        num(w),
        num(h),
        num(w),
        num(h)
    );
    for (chance, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#e2e0d8\" stroke-width=\"1\"/>\n<text x=\"{}\" y=\"{y}\" font-size=\"11\" font-family=\"sans-serif\" text-anchor=\"end\" dominant-baseline=\"central\" fill=\"#555\">{label}</text>",
            num(GRAPH_LEFT),
            num(w - GRAPH_RIGHT),
            num(GRAPH_LEFT - 6.0),
            y = num(y(chance)),
        );
    }
    let players = chart.seats.len();
    for (seat, line) in chart.seats.iter().enumerate() {
        let Some(p) = o.header.players.get(seat) else {
            continue;
        };
        let color = player_text_color(p.color.as_str(), false).unwrap_or(Rgba::BLACK);
        let coords: Vec<String> = line
            .iter()
            .map(|&(at, chance)| format!("{},{}", num(x(at)), num(y(chance))))
            .collect();
        // Earlier seats get wider lines, as on the score graph, so equal chances show both.
        let width = 2.0 + 1.2 * (players - 1 - seat) as f32 / (players.max(2) - 1) as f32;
        let title = match mode {
            GraphUse::Static => format!(
                "<title>{}</title>",
                escape(&seat_name(o.header, seat as u8))
            ),
            GraphUse::Interactive => String::new(),
        };
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\">{title}</polyline>",
            coords.join(" "),
            color.hex(),
            num(width),
        );
    }
    for e in o.turns.iter().flat_map(|t| &t.events) {
        let (Some(seat), Some(m)) = (e.seat, e.marks.iter().find(|m| m.extra)) else {
            continue;
        };
        let Some(chance) = chart.at(seat as usize, e.index + 1) else {
            continue;
        };
        let (cx, cy) = (x(e.index + 1), y(chance));
        mark_svg(out, mode, e.seq, e.index + 1, &m.meaning, &m.glyph, cx, cy);
    }
    if mode == GraphUse::Interactive {
        let _ = writeln!(
            out,
            "<line id=\"wincursor\" x1=\"{l}\" y1=\"{}\" x2=\"{l}\" y2=\"{}\" stroke=\"#1e211e\" stroke-width=\"1\" stroke-dasharray=\"3 3\"/>",
            num(ABOVE),
            num(h - BELOW),
            l = num(GRAPH_LEFT)
        );
    }
    let _ = writeln!(out, "</svg>");
}
