//! What the report tests share: the hand-written sample game, annotations on it, and one
//! set of caller's extras that both formats must render.

#![allow(dead_code)] // each test file uses a part

use std::path::Path;

use carc_events::annotation::{Annotation, Glyph};
use carc_events::read_log;
use carc_replay::{fold, Timeline};
use carc_report::{Column, EventNote, Extras, Section, Table};

pub const SAMPLE_GAME: &str = "short-game-rulings";

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn sample_text() -> String {
    std::fs::read_to_string(root().join("../../logs/short-game-rulings.jsonl")).unwrap()
}

pub fn timeline(text: &str) -> Timeline {
    fold(read_log(text.as_bytes()).unwrap(), &[])
}

/// An annotation of `game`, keyed by its event.
pub fn note(game: &str, seq: u64, glyph: Option<Glyph>, text: &str) -> (u64, Annotation) {
    (
        seq,
        Annotation {
            game: game.into(),
            seq,
            glyph,
            text: text.into(),
        },
    )
}

/// A caller's mark and line on event 24 and a closing section with two paragraphs, an item and
/// a table, with line breaks and markup where a careless writer would let them through.
pub fn extras_on_event_24() -> Extras {
    let mut extras = Extras::default();
    extras.events.insert(
        24,
        EventNote {
            glyph: "??".into(),
            meaning: "move quality: blunder".into(),
            lines: vec!["best found: <script>x</script>\nelsewhere".into()],
            best: Vec::new(),
        },
    );
    let column = |name: &str, numeric: bool| Column {
        name: name.into(),
        numeric,
    };
    extras.sections.push(Section {
        title: "Move quality".into(),
        paragraphs: vec!["How <it>\nwas judged.".into(), "Marks.".into()],
        items: vec!["a <b>\nitem".into()],
        table: Some(Table {
            columns: vec![column("player", false), column("average loss", true)],
            rows: vec![vec!["A|d&a".into(), "1.50".into()]],
        }),
        board: None,
    });
    extras
}

/// Every `href="#id"` of a page names an element the page defines.
pub fn every_reference_is_defined(page: &str) -> bool {
    page.split("href=\"#").skip(1).all(|rest| {
        let id = &rest[..rest.find('"').unwrap()];
        page.contains(&format!("id=\"{id}\""))
    })
}

/// A page's data, read back as its script reads it.
pub fn data(page: &str) -> serde_json::Value {
    let open = "<script type=\"application/json\" id=\"carc-data\">";
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

/// The page without its data element (the markup and the script).
pub fn markup(page: &str) -> String {
    let open = "<script type=\"application/json\" id=\"carc-data\">";
    let start = page.find(open).unwrap();
    let end = start + page[start..].find("</script>").unwrap();
    format!("{}{}", &page[..start], &page[end..])
}

/// The page's own script.
pub fn script(page: &str) -> &str {
    let start = page.rfind("<script>").unwrap() + "<script>".len();
    &page[start..start + page[start..].find("</script>").unwrap()]
}

/// The tag names used in a page (opening and closing tags alike).
pub fn tags(page: &str) -> std::collections::BTreeSet<String> {
    page.split('<')
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '/' || *c == '!')
                .collect::<String>()
                .trim_start_matches('/')
                .to_ascii_lowercase()
        })
        .collect()
}

/// Asserts that a page's script parses its data and sets text only: no markup written, no
/// code made from text, nothing fetched.
pub fn assert_the_script_sets_text_only(script: &str) {
    assert!(script.contains("JSON.parse("));
    for word in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "Function(",
        "setTimeout(",
        "fetch(",
        "XMLHttpRequest",
        "createElementNS",
    ] {
        assert!(!script.contains(word), "{word} in the script");
    }
}
