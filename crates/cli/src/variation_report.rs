//! The what-if variations in a report (`carc export --format md|html`), and where a variation
//! branches in words, which `carc variation` says too.

use std::collections::BTreeMap;

use carc_events::variation::Variation;
use carc_replay::describe::{describe_step, score_headline, seat_name};
use carc_replay::variation::{fold_variation, score_difference, VariationLine};
use carc_replay::Timeline;
use carc_rules::TileSet;

/// Where a variation branches, in words.
pub fn from_text(v: &Variation) -> String {
    match &v.parent {
        None => format!("from event {} of the game", v.after),
        Some(p) => format!("from event {} of variation {p:?}", v.after),
    }
}

/// The report's sections on the variations (`carc export --format md|html`): one per
/// variation, nested ones after their parent, each with where it branches, its moves in words
/// with the scores after each, and how it ends against the game.
pub fn report_sections(
    main: &Timeline,
    variations: &BTreeMap<String, Variation>,
    loaded: &[TileSet],
) -> carc_report::Extras {
    let log = &main.log;
    let mut lines: Vec<(Vec<String>, carc_report::Section)> = Vec::new();
    for (name, v) in variations {
        let title = format!("Variation {name:?}");
        let section = match fold_variation(log, variations, name, loaded) {
            Ok(line) => variation_section(main, v, &line, title),
            Err(e) => carc_report::Section {
                title,
                paragraphs: vec![format!("Cannot be replayed: {e}.")],
                ..Default::default()
            },
        };
        let chain = carc_replay::variation::chain(variations, name).unwrap_or_default();
        lines.push((chain, section));
    }
    // A nested variation after its parent: the chains in order.
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    carc_report::Extras {
        sections: lines.into_iter().map(|(_, s)| s).collect(),
        ..Default::default()
    }
}

/// A variation in a report: where it branches, its own moves in words (with what they
/// scored), a table of the scores at its end against the game's at the same event, and (in
/// HTML) the board at its end (or at its last legal move).
fn variation_section(
    main: &Timeline,
    v: &Variation,
    line: &VariationLine,
    title: String,
) -> carc_report::Section {
    use carc_report::{BoardAt, Column, Section, Table};
    let header = &main.log.header;
    let nested = if line.chain.len() > 1 {
        format!(" ({})", line.chain.join(" > "))
    } else {
        String::new()
    };
    let moves = if v.events.len() == 1 { "move" } else { "moves" };
    let mut paragraphs = vec![format!(
        "Branches {}{nested}, {} {moves}:",
        from_text(v),
        v.events.len()
    )];
    let items = line
        .timeline
        .steps
        .iter()
        // Its own moves: a nested variation's line also holds its parent's.
        .filter(|s| s.seq > v.after)
        .map(|s| {
            let mut item = format!("{}: {}", s.seq, describe_step(header, s));
            for score in &s.effects.scores {
                item.push_str(&format!("; score: {}", score_headline(header, score)));
            }
            item
        })
        .collect();
    let table = match line.error() {
        Some(why) => {
            paragraphs.push(format!("Not legal: {why}."));
            None
        }
        None => {
            let last = line.timeline.steps.last().map_or(0, |s| s.seq);
            let scores = line.timeline.final_scores();
            let diff = score_difference(main, &line.timeline, last);
            let column = |name: String, numeric: bool| Column { name, numeric };
            Some(Table {
                columns: vec![
                    column("player".into(), false),
                    column(format!("after event {last}"), true),
                    column("against the game".into(), true),
                ],
                rows: scores
                    .iter()
                    .zip(&diff)
                    .enumerate()
                    .map(|(seat, (points, d))| {
                        vec![
                            seat_name(header, seat as u8),
                            points.to_string(),
                            format!("{d:+}"),
                        ]
                    })
                    .collect(),
            })
        }
    };
    let last = line.timeline.steps.last().map_or(0, |s| s.seq);
    let board = BoardAt {
        timeline: line.timeline.clone(),
        steps: line.timeline.steps.len(),
        caption: format!(
            "The board at the end of variation {:?} (event {last})",
            v.name
        ),
    };
    Section {
        title,
        paragraphs,
        items,
        table,
        board: Some(board),
    }
}
