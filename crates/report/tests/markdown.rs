//! The Markdown report of the hand-written sample game, compared with a golden file.
//! After an intended change of wording, regenerate it with
//! `UPDATE_GOLDEN=1 cargo test -p carc-report` and review the diff.

mod common;

use std::collections::BTreeMap;

use carc_events::annotation::{Annotation, Glyph};
use carc_events::read_log;
use carc_replay::fold;

use common::{root, sample_text, timeline, SAMPLE_GAME};

fn report(annotations: &BTreeMap<u64, Annotation>) -> String {
    carc_report::markdown(&timeline(&sample_text()), annotations)
}

fn note(seq: u64, glyph: Option<Glyph>, text: &str) -> (u64, Annotation) {
    common::note(SAMPLE_GAME, seq, glyph, text)
}

#[test]
fn the_sample_game_reads_as_the_golden_report() {
    // Given the sample game with two annotations (one spanning lines)
    let annotations: BTreeMap<u64, Annotation> = [
        note(5, Some(Glyph::Dubious), "why not the city?"),
        note(19, None, "joining the two cities\nmakes a tie: 8 each"),
    ]
    .into_iter()
    .collect();
    // When the report is written
    let got = report(&annotations);
    // Then it is the golden file, byte for byte
    let golden = root().join("tests/golden/short-game-rulings.md");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &got).unwrap();
    }
    let want = std::fs::read_to_string(&golden).unwrap();
    assert_eq!(got, want, "the report differs from {}", golden.display());
}

#[test]
fn the_report_holds_every_score_the_annotations_and_the_final_table() {
    let annotations: BTreeMap<u64, Annotation> =
        [note(5, Some(Glyph::Dubious), "why not the city?")]
            .into_iter()
            .collect();
    let md = report(&annotations);
    // Every turn has its heading; the tie, the monastery and the field are explained
    assert!(md.contains("### Turn 11: Ada"));
    assert!(md.contains("= 8; Ada and Brandt +8  \\[base.score.city.completed\\]"));
    assert!(md.contains("= 9; Ada +9  \\[base.score.monastery.completed\\]"));
    assert!(md.contains("## Final scoring"));
    assert!(md.contains("\\[base.score.field.final\\]"));
    // The annotation's glyph is on its event and its text quoted below it
    assert!(
        md.contains("- **5** ?! Brandt drew tile J\n  > why not the city?\n"),
        "{md}"
    );
    // The final table
    assert!(md.ends_with("| Ada | 20 |\n| Brandt | 11 |\n"), "{md}");
}

#[test]
fn a_log_that_turns_illegal_says_where_and_reports_the_legal_part() {
    let text = sample_text();
    let bad = text.replace(
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,-1]",
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,0]",
    );
    let timeline = fold(read_log(bad.as_bytes()).unwrap(), &[]);
    let md = carc_report::markdown(&timeline, &BTreeMap::new());
    assert!(
        md.contains("**The log stops being legal here:** line 10, event 9"),
        "{md}"
    );
    assert!(md.contains("[`base.tile.empty-square`]"), "{md}");
    assert!(md.contains("## Scores (the game is not finished)"), "{md}");
    assert!(!md.contains("- **9**"), "{md}");
}

#[test]
fn a_map_game_names_its_map_and_town_variants() {
    let bytes =
        std::fs::read(root().join("../../logs/sim-3p-germany-town-variants.jsonl")).unwrap();
    let timeline = fold(read_log(&bytes).unwrap(), &[]);
    let md = carc_report::markdown(&timeline, &BTreeMap::new());
    assert!(
        md.contains(
            "- **Map**: germany, 2 start squares, town variants extra_turn, cost, road_bonus\n"
        ),
        "{}",
        &md[..600.min(md.len())]
    );
}

#[test]
fn extras_add_a_glyph_lines_under_an_event_and_a_closing_section_and_nothing_else() {
    use carc_report::Extras;
    let annotations: BTreeMap<u64, Annotation> = [note(24, Some(Glyph::Dubious), "hmm")]
        .into_iter()
        .collect();
    let plain = report(&annotations);
    // Given extras on event 24 (which also has an annotation) and a closing section
    let extras = common::extras_on_event_24();
    let timeline = timeline(&sample_text());
    // When the report is written with them
    let md = carc_report::markdown_with(&timeline, &annotations, &extras);
    // Then the glyph follows the annotation's, the lines follow the comment on one line each,
    // their markup escaped
    assert!(
        md.contains("- **24** ?! ?? Brandt placed tile A at (2,0) rotated 90°\n  > hmm\n  - best found: &lt;script&gt;x&lt;/script&gt; elsewhere\n"),
        "{md}"
    );
    // And the section closes the report: paragraphs and items on one line each, the table with
    // its numeric column right-aligned and a `|` inside a cell escaped
    assert!(
        md.ends_with("| Brandt | 11 |\n\n## Move quality\n\nHow &lt;it&gt; was judged.\n\nMarks.\n\n- a &lt;b&gt; item\n\n| player | average loss |\n|---|---:|\n| A\\|d&amp;a | 1.50 |\n"),
        "{md}"
    );
    // And without extras the report is the plain one
    assert_eq!(
        carc_report::markdown_with(&timeline, &annotations, &Extras::default()),
        plain
    );
}

#[test]
fn a_gifts_game_says_what_each_gift_did() {
    // Given a simulated 3-player game with The Gifts
    let text =
        std::fs::read_to_string(root().join("../../logs/sim-3p-anniversary-gifts-mixed.jsonl"))
            .unwrap();
    // When its report is written
    let md = carc_report::markdown(&timeline(&text), &BTreeMap::new());
    // Then the gift earned, the card taken and the card opened are listed under their events
    assert!(
        md.contains("  - Cleo's tile extends Ada's city: Cleo receives a gift\n"),
        "{md}"
    );
    assert!(md.contains(
        "- **10** Cleo received a gift: Synod\n  - Cleo takes the top gift card; 24 left in the deck\n"
    ));
    assert!(md.contains(
        "- **52** Brandt opened a gift, Take 2: they draw a second tile and keep one of the two\n  - Brandt opens Take 2\n"
    ));
}
