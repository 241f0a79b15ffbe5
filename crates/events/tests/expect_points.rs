//! The `expect_points` assertion: read and written byte for byte, its seat and feature checked
//! when decoding, and logs without it unchanged.

use carc_events::{read_log, write_log, Assertion, FeatureKind};

const HEADER: &str = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"],"bag":null}"#;

fn log_with(line: &str) -> String {
    format!(
        "{HEADER}\n{}\n{line}\n",
        r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#
    )
}

#[test]
fn reads_and_writes_back_byte_for_byte() {
    let text = log_with(
        r#"{"type":"expect_points","after":1,"player":1,"feature":"monastery","points":9}"#,
    );
    let log = read_log(text.as_bytes()).unwrap();
    assert_eq!(
        log.assertions[0].1,
        Assertion::ExpectPoints {
            after: 1,
            player: 1,
            feature: FeatureKind::Monastery,
            points: 9
        }
    );
    assert_eq!(log.assertions[0].1.scores(), [9]);
    assert_eq!(write_log(&log), text);
}

#[test]
fn a_seat_the_game_does_not_have_or_an_unknown_feature_is_a_decoding_error() {
    let e = read_log(
        log_with(r#"{"type":"expect_points","after":1,"player":2,"feature":"city","points":4}"#)
            .as_bytes(),
    )
    .unwrap_err();
    assert_eq!(e.line, 3);
    assert!(
        e.to_string()
            .contains("player 2 is not a seat of this game (2 players)"),
        "{e}"
    );
    let e = read_log(
        log_with(r#"{"type":"expect_points","after":1,"player":0,"feature":"inn","points":4}"#)
            .as_bytes(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("unknown variant `inn`"), "{e}");
    let e = read_log(
        log_with(r#"{"type":"expect_points","after":1,"player":0,"feature":"city"}"#).as_bytes(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("missing field `points`"), "{e}");
}
