//! Bundles: a log followed by its annotation and variation records, read and written back.

use carc_events::annotation::Glyph;
use carc_events::variation::VariationRecord;
use carc_events::{read_log, write_log, DecodeErrorKind};

const HEADER: &str = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"],"bag":null}"#;

const BODY: &str = r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}
{"seq":2,"type":"tile_drawn","player":0,"tile":"V"}
{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[1,0],"rotation":90}
{"seq":4,"type":"meeple_placed","player":0,"on":"road W"}
{"type":"annotation","game":"g","seq":3,"glyph":"?!","text":"<script>alert(1)</script>"}
{"type":"variation","game":"g","name":"other side","parent":null,"after":2,"events":[{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[-1,0],"rotation":270}]}
{"type":"variation","game":"g","name":"gone","deleted":true}
"#;

fn bundle() -> String {
    format!("{HEADER}\n{BODY}")
}

#[test]
fn a_bundle_keeps_its_records_apart_from_the_game() {
    // Given a bundle with an annotation, a variation and a deletion after the events
    // When it is read
    let log = read_log(bundle().as_bytes()).unwrap();
    // Then the game has its four events, and the records are kept with their lines
    assert_eq!(log.events.len(), 4);
    assert_eq!(log.annotations.len(), 1);
    let (line, annotation) = &log.annotations[0];
    assert_eq!(*line, 6);
    assert_eq!(annotation.glyph, Some(Glyph::Dubious));
    assert_eq!(annotation.text, "<script>alert(1)</script>");
    assert_eq!(log.variations.len(), 2);
    match &log.variations[0].1 {
        VariationRecord::Set(v) => {
            assert_eq!(v.name, "other side");
            assert_eq!(v.after, 2);
            assert_eq!(v.events[0].seq, 3);
        }
        other => panic!("expected a variation, got {other:?}"),
    }
    assert!(
        matches!(&log.variations[1].1, VariationRecord::Deleted { name, .. } if name == "gone")
    );
    assert!(log.has_companions());
    assert!(!log.clone().without_companions().has_companions());
}

#[test]
fn a_bundle_writes_back_byte_identically() {
    // Given a bundle read back
    let text = bundle();
    let log = read_log(text.as_bytes()).unwrap();
    // When it is written
    // Then the bytes are the same, records after the events as they were
    assert_eq!(write_log(&log), text);
}

#[test]
fn records_between_events_keep_their_place() {
    // Given an annotation line between two events (a bundle edited by hand)
    let text = format!(
        "{HEADER}\n{}\n{}\n{}\n",
        r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#,
        r#"{"type":"annotation","game":"g","seq":1,"glyph":"!","text":""}"#,
        r#"{"seq":2,"type":"tile_drawn","player":0,"tile":"V"}"#,
    );
    // When read and written
    let log = read_log(text.as_bytes()).unwrap();
    // Then the event numbering is not disturbed and the bytes come back the same
    assert_eq!(log.last_seq(), 2);
    assert_eq!(write_log(&log), text);
}

#[test]
fn a_record_of_another_game_is_refused_with_its_line() {
    // Given an annotation line naming another game on line 3
    let text = format!(
        "{HEADER}\n{}\n{}\n",
        r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#,
        r#"{"type":"annotation","game":"h","seq":1,"glyph":"!","text":""}"#,
    );
    // When it is read
    let err = read_log(text.as_bytes()).unwrap_err();
    // Then the error is on line 3 and names both games
    assert_eq!(err.line, 3);
    assert!(matches!(
        err.kind,
        DecodeErrorKind::CompanionOtherGame { .. }
    ));
    assert_eq!(
        err.to_string(),
        "line 3: annotation line for game \"h\", but this is the log of game \"g\""
    );
}

#[test]
fn a_bad_variation_line_names_the_move() {
    // Given a variation whose move is by a player the game does not have
    let text = format!(
        "{HEADER}\n{}\n",
        r#"{"type":"variation","game":"g","name":"v","after":0,"events":[{"seq":1,"type":"meeple_skipped","player":4}]}"#,
    );
    // When it is read
    let err = read_log(text.as_bytes()).unwrap_err();
    // Then the error names the line, the variation, the move and the reason
    assert_eq!(err.line, 2);
    let message = err.to_string();
    assert!(
        message.contains("variation \"v\", move 1 (seq 1): player 4 does not exist"),
        "{message}"
    );
}

#[test]
fn a_bad_annotation_line_is_refused() {
    // Given an annotation line with an unknown glyph
    let text = format!(
        "{HEADER}\n{}\n",
        r#"{"type":"annotation","game":"g","seq":1,"glyph":"!!!","text":""}"#,
    );
    // When it is read
    let err = read_log(text.as_bytes()).unwrap_err();
    // Then it is an annotation error on line 2
    assert_eq!(err.line, 2);
    assert!(
        err.to_string().starts_with("line 2: annotation line: "),
        "{err}"
    );
}
