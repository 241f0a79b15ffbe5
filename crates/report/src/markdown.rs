//! The Markdown report: setup, each turn's moves in words with every score and its breakdown,
//! the annotations and their glyphs, the final scoring, and a final score table; optionally
//! [`Extras`] (the move quality of `carc-analysis`, laid out by the caller): a glyph and lines
//! under some events, and a closing section.

use std::collections::BTreeMap;
use std::fmt::Write;

use carc_events::annotation::Annotation;
use carc_events::Header;
use carc_replay::describe::{
    describe_arrows, describe_event, score_details, score_headline, seat_name,
};
use carc_replay::{Step, Timeline};
use carc_rules::{Score, ScoreTime};

/// A note a caller adds to an event: a glyph after the event number (after the annotation's,
/// if any) and lines listed under the event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventNote {
    pub glyph: String,
    pub lines: Vec<String>,
}

/// What a caller adds to the report (nothing by default: the report is then exactly
/// [`markdown`]'s).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// By event `seq`.
    pub events: BTreeMap<u64, EventNote>,
    /// A closing section: its title and its Markdown lines.
    pub section: Option<(String, Vec<String>)>,
}

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
    let header = &timeline.log.header;
    let mut out = String::new();
    setup(&mut out, header);
    let mut turn = None;
    let mut finals: Vec<&Score> = Vec::new();
    for step in &timeline.steps {
        if turn != Some(step.turn) {
            turn = Some(step.turn);
            let title = match (step.turn, step.seat) {
                (0, _) => "Start".to_string(),
                (t, Some(seat)) => format!("Turn {t}: {}", seat_name(header, seat)),
                (t, None) => format!("Turn {t}"),
            };
            let _ = writeln!(out, "\n### {title}\n");
        }
        event(
            &mut out,
            header,
            step,
            annotations.get(&step.seq),
            extras.events.get(&step.seq),
        );
        finals.extend(
            step.effects
                .scores
                .iter()
                .filter(|s| s.time == ScoreTime::Final),
        );
    }
    if let Some(e) = &timeline.error {
        let _ = writeln!(
            out,
            "\n**The log stops being legal here:** line {}, event {}: {} [`{}`]. The report ends at the last legal event.",
            e.line(),
            e.seq().map_or_else(|| "?".to_string(), |s| s.to_string()),
            e.message(),
            e.rule()
        );
    }
    if !finals.is_empty() {
        let _ = writeln!(out, "\n## Final scoring\n");
        for s in finals {
            score(&mut out, header, s);
        }
    }
    table(&mut out, header, timeline);
    if let Some((title, lines)) = &extras.section {
        let _ = writeln!(out, "\n## {title}\n");
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
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

fn event(
    out: &mut String,
    header: &Header,
    step: &Step,
    note: Option<&Annotation>,
    extra: Option<&EventNote>,
) {
    let mut glyph = note
        .and_then(|a| a.glyph)
        .map(|g| format!(" {g}"))
        .unwrap_or_default();
    if let Some(e) = extra.filter(|e| !e.glyph.is_empty()) {
        glyph.push(' ');
        glyph.push_str(&e.glyph);
    }
    let _ = writeln!(
        out,
        "- **{}**{glyph} {}",
        step.seq,
        describe_event(header, &step.event)
    );
    for line in describe_arrows(header, step.seat, &step.effects) {
        let _ = writeln!(out, "  - {line}");
    }
    for s in step
        .effects
        .scores
        .iter()
        .filter(|s| s.time == ScoreTime::Completed)
    {
        let _ = write!(out, "  ");
        score(out, header, s);
    }
    for r in &step.effects.returned {
        let _ = writeln!(
            out,
            "  - meeple back to {}: {} at {}",
            seat_name(header, r.player),
            r.label,
            r.at
        );
    }
    if let Some(a) = note.filter(|a| !a.text.trim().is_empty()) {
        let _ = writeln!(out, "  > {}", one_line(&a.text));
    }
    for line in extra.map_or(&[][..], |e| &e.lines[..]) {
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

fn table(out: &mut String, header: &Header, timeline: &Timeline) {
    let scores = timeline.final_scores();
    let title = if timeline.finished {
        "Final scores"
    } else {
        "Scores (the game is not finished)"
    };
    let _ = writeln!(out, "\n## {title}\n\n| player | points |\n|---|---:|");
    for (seat, points) in scores.iter().enumerate() {
        let _ = writeln!(out, "| {} | {points} |", seat_name(header, seat as u8));
    }
}

/// A comment on one line: line breaks would end the list item or the quote.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
