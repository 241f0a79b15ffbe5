//! The Markdown report: setup, each turn's moves in words with every score and its breakdown,
//! the annotations and their glyphs, the final scoring, and a final score table; optionally
//! [`Extras`]: marks and lines under some events, and a closing section.

use std::collections::BTreeMap;
use std::fmt::Write;

use carc_events::annotation::Annotation;
use carc_events::Header;
use carc_replay::describe::{score_details, score_headline};
use carc_replay::Timeline;
use carc_rules::Score;

use crate::extras::{Extras, Section};
use crate::outline::{outline, Event, ScoreTable};

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
        let _ = writeln!(out, "\n### {}\n", turn.title);
        for e in &turn.events {
            event(&mut out, o.header, e);
        }
    }
    if let Some(e) = &o.illegal {
        let _ = writeln!(
            out,
            "\n**The log stops being legal here:** line {}, event {}: {} [`{}`]. The report ends at the last legal event.",
            e.line, e.event, e.message, e.rule
        );
    }
    if !o.finals.is_empty() {
        let _ = writeln!(out, "\n## Final scoring\n");
        for s in &o.finals {
            score(&mut out, o.header, s);
        }
    }
    table(&mut out, &o.table);
    for s in o.sections {
        section(&mut out, s);
    }
    out
}

fn setup(out: &mut String, header: &Header) {
    let _ = writeln!(out, "# Game {}\n", header.game);
    let players: Vec<String> = header
        .players
        .iter()
        .map(|p| format!("{} ({})", p.name, p.color.as_str()))
        .collect();
    let r = &header.rules;
    let expansions = if r.expansions.is_empty() {
        "none".to_string()
    } else {
        r.expansions.join(", ")
    };
    let _ = writeln!(out, "- **Players**, in seat order: {}", players.join(", "));
    let _ = writeln!(
        out,
        "- **Rules**: farmers {}, a two-tile city scores {}, {} meeples each; expansions: {expansions}",
        if r.farmers { "on" } else { "off" },
        r.two_tile_city,
        r.meeples
    );
    let _ = writeln!(out, "- **Tile sets**: {}", header.tile_sets.join(", "));
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
            map.name, map.start_squares
        );
    }
    if let Some(c) = &header.comment {
        let _ = writeln!(out, "- **Comment**: {}", one_line(c));
    }
    let _ = writeln!(out, "\n## Turn by turn");
}

fn event(out: &mut String, header: &Header, e: &Event) {
    let glyphs: String = e.marks.iter().map(|m| format!(" {}", m.glyph)).collect();
    let _ = writeln!(out, "- **{}**{glyphs} {}", e.seq, e.text);
    for line in e.arrows.iter().chain(&e.gifts) {
        let _ = writeln!(out, "  - {line}");
    }
    for s in &e.scores {
        let _ = write!(out, "  ");
        score(out, header, s);
    }
    for line in &e.returned {
        let _ = writeln!(out, "  - {line}");
    }
    if let Some(comment) = e.comment {
        let _ = writeln!(out, "  > {}", one_line(comment));
    }
    for line in e.lines {
        let _ = writeln!(out, "  - {}", one_line(line));
    }
}

/// A score's headline and its breakdown as a nested list.
fn score(out: &mut String, header: &Header, s: &Score) {
    let _ = writeln!(out, "- score: {}", score_headline(header, s));
    for line in score_details(header, s) {
        let _ = writeln!(out, "    - {line}");
    }
}

fn table(out: &mut String, t: &ScoreTable) {
    let _ = writeln!(out, "\n## {}\n\n| player | points |\n|---|---:|", t.title);
    for row in &t.rows {
        let _ = writeln!(out, "| {} | {} |", row.name, row.points);
    }
}

fn section(out: &mut String, s: &Section) {
    let _ = writeln!(out, "\n## {}", one_line(&s.title));
    // Blocks are separated by one blank line.
    for p in &s.paragraphs {
        let _ = writeln!(out, "\n{}", one_line(p));
    }
    if !s.items.is_empty() {
        let _ = writeln!(out);
        for item in &s.items {
            let _ = writeln!(out, "- {}", one_line(item));
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

/// A table cell's text: one line, with `|` escaped so that it stays one cell.
fn cell(text: &str) -> String {
    one_line(text).replace('|', "\\|")
}

/// A comment on one line: line breaks would end the list item or the quote.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
