//! The reader's strictness rules that `decode_errors.rs` does not pin down one by one: a key
//! given twice anywhere on a line, field order, escapes, and the exact error (line, column,
//! message) for each. Written before the reader was made faster, so that the fast path keeps
//! today's behaviour.

use carc_events::{read_log, DecodeErrorKind, Event, Pos, Rotation, TileId};

const HEADER: &str = r#"{"format":"carcassonne-log","version":1,"game":"g1","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"],"bag":null}"#;
const E1: &str = r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#;

fn body(lines: &[&str]) -> String {
    let mut text = format!("{HEADER}\n");
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// Decodes and expects an error on `line` whose kind is exactly `kind`.
#[track_caller]
fn assert_kind(input: &str, line: usize, kind: DecodeErrorKind) {
    let err = read_log(input.as_bytes()).expect_err("input should not decode");
    assert_eq!((err.line, err.kind), (line, kind), "input: {input}");
}

fn duplicate(column: usize, message: &str) -> DecodeErrorKind {
    DecodeErrorKind::Invalid {
        column: Some(column),
        message: message.into(),
    }
}

// ---- a key given twice ----------------------------------------------------------------------

#[test]
fn a_top_level_key_twice_names_the_key_and_the_column_after_it() {
    // Given event lines that repeat a key: the envelope's, the tag, a field, an unknown field
    // When they are read
    // Then the error names the key and the column of the second occurrence's closing quote
    let cases = [
        (
            r#"{"seq":1,"type":"start_placed","type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#,
            37,
            "\"type\"",
        ),
        (
            r#"{"seq":1,"type":"start_placed","tile":"D","tile":"E","at":[0,0],"rotation":0}"#,
            48,
            "\"tile\"",
        ),
        (
            r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0,"x":1,"x":2}"#,
            75,
            "\"x\"",
        ),
        (
            r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0,"seq":1}"#,
            71,
            "\"seq\"",
        ),
        (
            r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0,"type":"x"}"#,
            72,
            "\"type\"",
        ),
    ];
    for (line, column, key) in cases {
        assert_kind(
            &body(&[line]),
            2,
            duplicate(column, &format!("duplicate field {key}")),
        );
    }
}

#[test]
fn a_key_spelled_with_an_escape_is_the_same_key() {
    // Given "seq" and "s\u0065q" on one line
    let line = r#"{"seq":1,"s\u0065q":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#;
    // Then it is a duplicate
    assert_kind(&body(&[line]), 2, duplicate(19, "duplicate field \"seq\""));
}

#[test]
fn assertion_annotation_and_variation_keys_twice_are_refused() {
    assert_kind(
        &body(&[r#"{"type":"expect_final_scores","scores":[0,0],"scores":[0,0]}"#]),
        2,
        duplicate(53, "duplicate field \"scores\""),
    );
    assert_kind(
        &body(&[r#"{"type":"expect_final_scores","type":"expect_final_scores","scores":[0,0]}"#]),
        2,
        duplicate(36, "duplicate field \"type\""),
    );
    assert_kind(
        &body(&[r#"{"type":"annotation","game":"g1","seq":1,"text":"a","text":"b"}"#]),
        2,
        duplicate(58, "duplicate field \"text\""),
    );
    assert_kind(
        &body(&[r#"{"type":"variation","game":"g1","name":"v","name":"w","after":0,"events":[]}"#]),
        2,
        duplicate(49, "duplicate field \"name\""),
    );
}

#[test]
fn header_keys_twice_are_refused_at_every_depth() {
    let with = |from: &str, to: &str| HEADER.replace(from, to);
    let cases = [
        (
            with(r#""game":"g1""#, r#""game":"g1","game":"g2""#),
            58,
            "duplicate field \"game\"",
        ),
        (
            with(r#""version":1"#, r#""version":1,"version":1"#),
            49,
            "duplicate field \"version\"",
        ),
        (
            with(r#""name":"Ada","#, r#""name":"Ada","name":"Al","#),
            83,
            "duplicate field `name`",
        ),
        (
            with(r#""farmers":true"#, r#""farmers":true,"farmers":false"#),
            171,
            "duplicate field `farmers`",
        ),
        (
            with(
                r#""meeples":7"#,
                r#""meeples":7,"map":{"name":"germany","name":"x"}"#,
            ),
            222,
            "duplicate field `name`",
        ),
        (
            with(
                r#""bag":null"#,
                r#""source":{"kind":"simulated","seed":1,"seed":2,"strategies":[]}"#,
            ),
            // At the repeated key itself; before the fast reader, serde buffered the tagged
            // `source` and named the end of the object (column 278).
            258,
            "duplicate field `seed`",
        ),
    ];
    for (header, column, message) in cases {
        assert_kind(&format!("{header}\n{E1}\n"), 1, duplicate(column, message));
    }
}

// ---- what is accepted -----------------------------------------------------------------------

fn start_placed() -> Event {
    Event::StartPlaced {
        tile: TileId::new("D").unwrap(),
        at: Pos::new(0, 0),
        rotation: Rotation::R0,
    }
}

#[test]
fn field_order_escapes_and_surrounding_blanks_do_not_matter() {
    // Given the same event written in other orders, with escapes, and with blanks around it
    for line in [
        r#"{"type":"start_placed","seq":1,"tile":"D","at":[0,0],"rotation":0}"#,
        r#"{"tile":"D","at":[0,0],"rotation":0,"type":"start_placed","seq":1}"#,
        r#"{"s\u0065q":1,"typ\u0065":"start_placed","tile":"\u0044","at":[0,0],"rotation":0}"#,
        r#"  { "seq" : 1 , "type" : "start_placed" , "tile" : "D" , "at" : [ 0 , 0 ] , "rotation" : 0 }  "#,
        "{\"seq\":1,\"type\":\"start_placed\",\"tile\":\"D\",\"at\":[0,0],\"rotation\":0}\r",
    ] {
        // When read
        let log = read_log(body(&[line]).as_bytes()).unwrap_or_else(|e| panic!("{line}: {e}"));
        // Then it is the one event
        assert_eq!(log.events.len(), 1, "{line}");
        assert_eq!(log.events[0].0, 2);
        assert_eq!(log.events[0].1.seq, 1);
        assert_eq!(log.events[0].1.event, start_placed(), "{line}");
    }
    let assertion = r#"{"scores":[0,0],"type":"expect_final_scores"}"#;
    let log = read_log(body(&[assertion]).as_bytes()).unwrap();
    assert_eq!(log.assertions.len(), 1);
}

#[test]
fn an_optional_field_may_be_null() {
    let line = r#"{"seq":1,"type":"gift_opened","player":1,"card":"take_2","at":null}"#;
    let log = read_log(body(&[line]).as_bytes()).unwrap();
    assert!(matches!(
        log.events[0].1.event,
        Event::GiftOpened {
            at: None,
            on: None,
            to: None,
            ..
        }
    ));
}

// ---- exact errors of the envelope -------------------------------------------------------------

#[test]
fn seq_must_be_an_integer_that_fits() {
    let seq = |s: &str| {
        format!(r#"{{"seq":{s},"type":"start_placed","tile":"D","at":[0,0],"rotation":0}}"#)
    };
    assert_kind(
        &body(&[&seq("1.0")]),
        2,
        DecodeErrorKind::InvalidSeq {
            found: "1.0".into(),
        },
    );
    assert_kind(
        &body(&[&seq("18446744073709551616")]),
        2,
        DecodeErrorKind::InvalidSeq {
            found: "1.8446744073709552e+19".into(),
        },
    );
}

#[test]
fn a_format_key_after_the_header_is_a_second_header_wherever_it_stands() {
    let line = r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0,"format":"x"}"#;
    assert_kind(&body(&[line]), 2, DecodeErrorKind::SecondHeader);
}

#[test]
fn field_errors_of_events_and_assertions_keep_their_messages() {
    assert_kind(
        &body(&[r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0.0}"#]),
        2,
        DecodeErrorKind::Invalid {
            column: None,
            message: "start_placed event: rotation 0 is not one of 0, 90, 180, 270 (clockwise degrees, an integer)".into(),
        },
    );
    assert_kind(
        &body(&[r#"{"seq":1,"type":"tile_drawn","player":true,"tile":"D"}"#]),
        2,
        DecodeErrorKind::Invalid {
            column: None,
            message: "tile_drawn event: invalid type: boolean `true`, expected u8".into(),
        },
    );
    assert_kind(
        &body(&[r#"{"seq":1,"type":"start_placed","tile":"D","at":{"0":1},"rotation":0}"#]),
        2,
        DecodeErrorKind::Invalid {
            column: None,
            message: "start_placed event: invalid type: map, expected an array of length 2".into(),
        },
    );
    assert_kind(
        &body(&[r#"{"type":"expect_points","after":1,"player":2,"feature":"city","points":4}"#]),
        2,
        DecodeErrorKind::Invalid {
            column: None,
            message: "expect_points: player 2 is not a seat of this game (2 players)".into(),
        },
    );
}

// ---- a key given twice inside a map or a variation's move (refused since the fast reader) ----

#[test]
fn a_bag_key_twice_is_refused() {
    // Given a header whose bag names tile A twice, once through an escape
    for bag in [r#"{"A":1,"A":2}"#, r#"{"A":1,"\u0041":2}"#] {
        let header = HEADER.replace(r#""bag":null"#, &format!(r#""bag":{bag}"#));
        // When it is read
        let err = read_log(format!("{header}\n{E1}\n").as_bytes()).unwrap_err();
        // Then line 1 is refused at the second key, instead of the last count winning
        assert_eq!(err.line, 1, "{err}");
        assert_eq!(
            err.kind,
            duplicate(
                header.find(&bag[7..]).unwrap() + bag[7..].find(':').unwrap(),
                "duplicate field `A`"
            ),
            "{header}"
        );
    }
}

#[test]
fn a_key_twice_in_a_variation_move_is_refused() {
    // Given a bundle line whose variation move repeats its seq
    let line = r#"{"type":"variation","game":"g1","name":"v","after":0,"events":[{"seq":1,"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}]}"#;
    // When it is read
    let err = read_log(body(&[line]).as_bytes()).unwrap_err();
    // Then the line is refused at the repeated key
    assert_eq!(err.line, 2);
    assert_eq!(err.kind, duplicate(77, "duplicate field `seq`"));
}
