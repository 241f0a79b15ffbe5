//! Bidi controls and line separators in a log's text (issue 33): one U+202E in a name once
//! reversed the whole "Players" line of the interactive page. Every report shows them as the
//! visible text `\u{202e}`, as it shows control characters, and holds none of them raw.

mod common;

use std::collections::BTreeMap;

use carc_events::annotation::Glyph;
use carc_events::text::is_hidden_format;
use carc_report::{html, interactive_html, markdown, Extras, HtmlOptions};

use common::{note, sample_text, timeline};

/// Every hidden format character, one after another.
const HIDDEN: &str = "\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{200e}\u{200f}\u{61c}\u{2028}\u{2029}";

#[test]
fn every_report_shows_bidi_controls_and_separators_escaped() {
    // Given a log whose names, game id and comment hold them, and an annotation that does
    let json = |s: &str| serde_json::to_string(s).unwrap();
    let text = sample_text()
        .replacen(
            "\"game\":\"short-game-rulings\"",
            &format!("\"game\":{}", json(&format!("g{HIDDEN}"))),
            1,
        )
        .replacen(
            "{\"name\":\"Ada\"",
            &format!("{{\"name\":{}", json(&format!("Ada{HIDDEN}tsiL"))),
            1,
        );
    let (head, rest) = text.split_once('\n').unwrap();
    let head = head.replacen(
        "\"comment\":\"",
        &format!("\"comment\":\"{}", &json(HIDDEN)[1..json(HIDDEN).len() - 1]),
        1,
    );
    let tl = timeline(&format!("{head}\n{rest}"));
    assert!(tl.error.is_none());
    let game = tl.log.header.game.clone();
    let annotations = [note(&game, 3, Some(Glyph::Good), "a\u{202e}cba\u{2028}b")]
        .into_iter()
        .collect::<BTreeMap<_, _>>();

    // When each report is written
    let pages = [
        ("markdown", markdown(&tl, &annotations)),
        ("html", html(&tl, &annotations, &HtmlOptions::default())),
        (
            "interactive",
            interactive_html(&tl, &annotations, &Extras::default()),
        ),
    ];
    for (what, page) in pages {
        // Then none of those characters is in it raw
        let raw: Vec<String> = page
            .chars()
            .filter(|&c| is_hidden_format(c))
            .map(|c| format!("U+{:04X}", c as u32))
            .collect();
        assert!(raw.is_empty(), "{what}: {raw:?}");
        // And the name is shown with them escaped
        let shown = "Ada\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{202e}\\u{2066}";
        // (the interactive page's JSON doubles the backslash)
        let shown_json = shown.replace('\\', "\\\\");
        assert!(
            page.contains(shown) || page.contains(&shown_json),
            "{what}: the name is not shown escaped"
        );
    }
}
