//! The win-probability graph of both HTML pages: drawn from the caller's chart under the score
//! graph, with the caller's marks on the mover's chance; absent without a chart.

mod common;

use std::collections::BTreeMap;

use carc_report::{html_with, interactive_html, HtmlOptions, WinChart};
use common::{extras_on_event_24, sample_text, timeline};

/// A chart of the sample game: Ada at 50 %, 70 % after event 23 (the position after event 24
/// is 24) and the result at the end; Brandt the rest.
fn chart(positions: usize) -> WinChart {
    let ada = vec![(0, 0.5), (24, 0.7), (positions, 1.0)];
    let brandt = ada.iter().map(|&(p, c)| (p, 1.0 - c)).collect();
    WinChart {
        seats: vec![ada, brandt],
        caption: "chances <b>caption</b>".into(),
    }
}

/// The `<svg …>…</svg>` element with id `id`.
fn svg_with_id<'a>(page: &'a str, id: &str) -> &'a str {
    let start = page
        .find(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{id}\""
        ))
        .unwrap_or_else(|| panic!("no svg {id}"));
    let end = start + page[start..].find("</svg>").unwrap();
    &page[start..end]
}

#[test]
fn the_interactive_page_draws_the_chances_with_a_cursor_and_the_marks() {
    // Given the sample game with a mark on event 24 (Brandt's move) and a chart
    let t = timeline(&sample_text());
    let mut extras = extras_on_event_24();
    extras.win_chart = Some(chart(t.steps.len()));
    // When the interactive page is written
    let page = interactive_html(&t, &BTreeMap::new(), &extras);
    // Then a second graph is there, on the score graph's scale, with its own cursor
    let win = svg_with_id(&page, "wingraph");
    let score = svg_with_id(&page, "graph");
    let attr = |svg: &str, name: &str| {
        let at = svg.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        svg[at..at + svg[at..].find('"').unwrap()].to_string()
    };
    for a in ["data-left", "data-right", "data-positions"] {
        assert_eq!(attr(win, a), attr(score, a), "{a}");
    }
    assert!(win.contains("id=\"wincursor\""));
    // And one line per player, Brandt's ending at 0 % (the bottom) and Ada's at 100 % (the top)
    assert_eq!(win.matches("<polyline").count(), 2);
    // And the mark on event 24 sits on Brandt's chance there (30 %), a click target
    assert!(
        win.contains("<g class=\"mark\" data-position=\"24\">"),
        "{win}"
    );
    // (150 px high, 10 above and 12 below: 30 % is 10 + 128 × 0.7 from the top)
    assert!(win.contains("cy=\"99.6\""), "{win}");
    // And the caption is escaped
    assert!(page.contains("chances &lt;b&gt;caption&lt;/b&gt;"));
    assert!(!page.contains("<b>caption</b>"));
}

#[test]
fn the_static_page_has_a_section_with_the_chances() {
    let t = timeline(&sample_text());
    let mut extras = extras_on_event_24();
    extras.win_chart = Some(chart(t.steps.len()));
    let page = html_with(&t, &BTreeMap::new(), &extras, &HtmlOptions::default());
    let section = page
        .find("<h2>Chance to win over the game</h2>")
        .expect("the section");
    assert!(section > page.find("<h2>Scores over the game</h2>").unwrap());
    assert!(section < page.find("<h2>Turn by turn</h2>").unwrap());
    // The mark links to its event, as on the score graph
    let rest = &page[section..];
    let svg = &rest[..rest.find("</svg>").unwrap()];
    assert!(svg.contains("<a href=\"#event-24\">"), "{svg}");
    assert!(common::every_reference_is_defined(&page));
}

#[test]
fn without_a_chart_neither_page_has_the_graph() {
    let t = timeline(&sample_text());
    let extras = extras_on_event_24();
    let page = interactive_html(&t, &BTreeMap::new(), &extras);
    assert!(!page.contains("id=\"wingraph\""));
    let page = html_with(&t, &BTreeMap::new(), &extras, &HtmlOptions::default());
    assert!(!page.contains("Chance to win over the game"));
}
