//! The Markdown report: setup, each turn's moves in words with every score and its breakdown,
//! the annotations and their glyphs, the final scoring, and a final score table; optionally
//! [`Extras`]: marks and lines under some events, and a closing section.

use std::collections::BTreeMap;
use std::fmt::Write;

use carc_events::annotation::Annotation;
use carc_events::Header;
use carc_replay::describe::{score_details, score_headline, seat_name};
use carc_replay::Timeline;
use carc_rules::Score;

use crate::extras::{Extras, Section};
use crate::outline::{outline, Event, Outline, ScoreTable};

/// Writes the report of `timeline`, with `annotations` by event `seq` shown under their events.
pub fn markdown(timeline: &Timeline, annotations: &BTreeMap<u64, Annotation>) -> String {
    markdown_with(timeline, annotations, &Extras::default())
}

/// [`markdown`] with the caller's [`Extras`].
pub fn markdown_with(
    timeline: &Timeline,
    annotations: &BTreeMap<u64, Annotation>,
    extras: &Extras,
) -> String {
    let o = outline(timeline, annotations, extras);
    let mut out = String::new();
    setup(&mut out, o.header);
    for turn in &o.turns {
        let _ = writeln!(out, "\n### {}\n", inline(&turn.title));
        for e in &turn.events {
            event(&mut out, o.header, e);
        }
    }
    if let Some(e) = &o.illegal {
        let _ = writeln!(
            out,
            "\n**The log stops being legal here:** line {}, event {}: {} [`{}`]. The report ends at the last legal event.",
            e.line,
            inline(&e.event),
            inline(&e.message),
            e.rule
        );
    }
    if !o.finals.is_empty() {
        let _ = writeln!(out, "\n## Final scoring\n");
        final_rows(&mut out, &o);
        let _ = writeln!(out);
        for s in &o.finals {
            score(&mut out, o.header, s);
        }
        for line in &o.final_returned {
            let _ = writeln!(out, "- {}", inline(line));
        }
    }
    table(&mut out, &o.table);
    for s in o.sections {
        section(&mut out, s);
    }
    out
}

fn setup(out: &mut String, header: &Header) {
    let _ = writeln!(out, "# Game {}\n", inline(&header.game));
    let players: Vec<String> = header
        .players
        .iter()
        .map(|p| format!("{} ({})", inline(&p.name), p.color.as_str()))
        .collect();
    let r = &header.rules;
    let expansions = if r.expansions.is_empty() {
        "none".to_string()
    } else {
        inline(&r.expansions.join(", "))
    };
    let _ = writeln!(out, "- **Players**, in seat order: {}", players.join(", "));
    let _ = writeln!(
        out,
        "- **Rules**: farmers {}, a two-tile city scores {}, {} meeples each; expansions: {expansions}",
        if r.farmers { "on" } else { "off" },
        r.two_tile_city,
        r.meeples
    );
    let _ = writeln!(
        out,
        "- **Tile sets**: {}",
        inline(&header.tile_sets.join(", "))
    );
    if let Some(map) = &r.map {
        let variants: Vec<String> = map
            .town_variants
            .iter()
            .map(|v| v.as_str().to_string())
            .collect();
        let variants = if variants.is_empty() {
            "no town variants".to_string()
        } else {
            format!("town variants {}", variants.join(", "))
        };
        let _ = writeln!(
            out,
            "- **Map**: {}, {} start squares, {variants}",
            inline(&map.name),
            map.start_squares
        );
    }
    if let Some(c) = &header.comment {
        let _ = writeln!(out, "- **Comment**: {}", inline(c));
    }
    let _ = writeln!(out, "\n## Turn by turn");
}

fn event(out: &mut String, header: &Header, e: &Event) {
    let glyphs: String = e.marks.iter().map(|m| format!(" {}", m.glyph)).collect();
    let _ = writeln!(out, "- **{}**{glyphs} {}", e.seq, inline(&e.text));
    for line in e.arrows.iter().chain(&e.traders).chain(&e.gifts) {
        let _ = writeln!(out, "  - {}", inline(line));
    }
    for s in &e.scores {
        let _ = write!(out, "  ");
        score(out, header, s);
    }
    for line in &e.returned {
        let _ = writeln!(out, "  - {}", inline(line));
    }
    if let Some(comment) = e.comment {
        let _ = writeln!(out, "  > {}", inline(comment));
    }
    for line in e.lines {
        let _ = writeln!(out, "  - {}", inline(line));
    }
}

/// A score's headline and its breakdown as a nested list.
fn score(out: &mut String, header: &Header, s: &Score) {
    let _ = writeln!(out, "- score: {}", inline(&score_headline(header, s)));
    for line in score_details(header, s) {
        let _ = writeln!(out, "    - {}", inline(&line));
    }
}

/// The final scoring, one row per player and feature.
fn final_rows(out: &mut String, o: &Outline) {
    let _ = writeln!(out, "| player | feature | points |\n|---|---|---:|");
    for r in &o.final_rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            cell(&seat_name(o.header, r.seat)),
            cell(&r.what),
            r.points
        );
    }
}

fn table(out: &mut String, t: &ScoreTable) {
    let _ = writeln!(out, "\n## {}\n\n| player | points |\n|---|---:|", t.title);
    for row in &t.rows {
        let _ = writeln!(out, "| {} | {} |", inline(&row.name), row.points);
    }
}

fn section(out: &mut String, s: &Section) {
    let _ = writeln!(out, "\n## {}", inline(&s.title));
    // Blocks are separated by one blank line.
    for p in &s.paragraphs {
        let _ = writeln!(out, "\n{}", paragraph(p));
    }
    if !s.items.is_empty() {
        let _ = writeln!(out);
        for item in &s.items {
            let _ = writeln!(out, "- {}", inline(item));
        }
    }
    if let Some(t) = &s.table {
        let cells =
            |row: &[String]| -> String { row.iter().map(|c| format!(" {} |", cell(c))).collect() };
        let names: Vec<String> = t.columns.iter().map(|c| c.name.clone()).collect();
        let rule: String = t
            .columns
            .iter()
            .map(|c| if c.numeric { "---:|" } else { "---|" })
            .collect();
        let _ = writeln!(out, "\n|{}\n|{rule}", cells(&names));
        for row in &t.rows {
            let _ = writeln!(out, "|{}", cells(row));
        }
    }
}

/// A table cell's text: [`inline`] text, which also escapes `|` so that it stays one cell.
fn cell(text: &str) -> String {
    inline(text)
}

/// Text from a log, an annotation or a caller, made inert for Markdown: on one line (a line
/// break would end the list item or the quote), every character that Markdown or the HTML it
/// may pass through treats specially escaped, so that any renderer shows the text and builds
/// nothing from it (no raw HTML, no link, no emphasis, no table cell break), and control
/// characters shown visibly. Our own markup is written around it, never through it.
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Line breaks and tabs (with the spaces around them) become one space; runs of spaces
    // inside a line are kept, as the sentences align with them.
    let pieces = text
        .split(|c: char| c.is_whitespace() && c != ' ')
        .map(str::trim)
        .filter(|piece| !piece.is_empty());
    for piece in pieces {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in piece.chars() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                // `\\u{1b}` renders as the visible text `\u{1b}`; bidi controls and
                // U+2028/U+2029 likewise, so no name reorders the line it is on.
                c if carc_events::text::is_hazard(c) => {
                    let _ = write!(out, "\\\\u{{{:x}}}", c as u32);
                }
                c => out.push(c),
            }
        }
    }
    out
}

/// [`inline`] text that starts a line: also escapes a first character that would open a
/// heading, a list, a quote or a setext underline there.
fn paragraph(text: &str) -> String {
    let text = inline(text);
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let opens_block = match text.as_bytes().first() {
        Some(b'#' | b'-' | b'+' | b'=') => Some(0),
        Some(b'0'..=b'9') if matches!(text.as_bytes().get(digits), Some(b'.' | b')')) => {
            Some(digits)
        }
        _ => None,
    };
    match opens_block {
        Some(at) => format!("{}\\{}", &text[..at], &text[at..]),
        None => text,
    }
}
