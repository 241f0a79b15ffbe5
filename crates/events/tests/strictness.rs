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

// ---- every event and assertion kind, field by field ---------------------------------------------
//
// Written when event lines began to be decoded through an externally tagged twin of `Event`
// (`tagged_enum!`): the twin must refuse, or leave to the reference decoder, every line the
// reference refuses, for every kind and every field, optional ones included.

/// The entries of a line of every event and assertion kind of a 2-player game, `seq` and
/// `type` first as carc writes them, with every optional field given.
const EVERY_KIND: &[&[&str]] = &[
    &[
        r#""seq":1"#,
        r#""type":"start_placed""#,
        r#""tile":"D""#,
        r#""at":[0,0]"#,
        r#""rotation":0"#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"tile_drawn""#,
        r#""player":0"#,
        r#""tile":"V""#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"tile_placed""#,
        r#""player":0"#,
        r#""tile":"V""#,
        r#""at":[1,0]"#,
        r#""rotation":90"#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"meeple_placed""#,
        r#""player":1"#,
        r#""on":"road W""#,
    ],
    &[r#""seq":1"#, r#""type":"meeple_skipped""#, r#""player":1"#],
    &[
        r#""seq":1"#,
        r#""type":"tile_set_aside""#,
        r#""player":1"#,
        r#""tile":"X""#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"arrow_chosen""#,
        r#""player":1"#,
        r#""at":[1,-1]"#,
        r#""symbol":"extra_turn""#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"arrow_meeple_placed""#,
        r#""player":1"#,
        r#""action":"portal""#,
        r#""at":[2,-1]"#,
        r#""on":"city N""#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"gift_received""#,
        r#""player":1"#,
        r#""card":"take_2""#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"gift_opened""#,
        r#""player":1"#,
        r#""card":"change_position""#,
        r#""at":[0,0]"#,
        r#""on":"road E""#,
        r#""to":"field Nw""#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"tile_returned""#,
        r#""player":0"#,
        r#""tile":"V""#,
    ],
    &[r#""seq":1"#, r#""type":"game_ended""#],
    &[
        r#""seq":1"#,
        r#""type":"abbot_placed""#,
        r#""player":0"#,
        r#""at":[0,-1]"#,
        r#""on":"garden""#,
        r#""portal":true"#,
    ],
    &[
        r#""seq":1"#,
        r#""type":"abbot_taken_back""#,
        r#""player":0"#,
        r#""at":[0,-1]"#,
    ],
    &[
        r#""type":"expect_scores""#,
        r#""after":1"#,
        r#""scores":[0,0]"#,
    ],
    &[r#""type":"expect_final_scores""#, r#""scores":[3,4]"#],
    &[
        r#""type":"expect_points""#,
        r#""after":1"#,
        r#""player":1"#,
        r#""feature":"city""#,
        r#""points":4"#,
    ],
];

/// The fields that may be left out, as `(type, field)`.
const OPTIONAL: &[(&str, &str)] = &[
    ("gift_opened", "at"),
    ("gift_opened", "on"),
    ("gift_opened", "to"),
    ("abbot_placed", "portal"),
];

fn object(entries: &[&str]) -> String {
    format!("{{{}}}", entries.join(","))
}

fn key(entry: &str) -> &str {
    entry[1..].split('"').next().unwrap()
}

/// The line's `type`, and how the reference decoder starts a field error of that kind.
fn kind_of<'a>(entries: &[&'a str]) -> (&'a str, String) {
    let type_entry = entries.iter().find(|e| key(e) == "type").unwrap();
    let type_name = type_entry.split('"').nth(3).unwrap();
    let prefix = if type_name.starts_with("expect_") {
        format!("{type_name}: ")
    } else {
        format!("{type_name} event: ")
    };
    (type_name, prefix)
}

#[test]
fn every_kind_with_every_optional_field_reads() {
    for entries in EVERY_KIND {
        let line = object(entries);
        let log = read_log(body(&[&line]).as_bytes()).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(log.events.len() + log.assertions.len(), 1, "{line}");
    }
}

#[test]
fn any_key_given_twice_is_refused_on_every_kind() {
    for entries in EVERY_KIND {
        for (i, entry) in entries.iter().enumerate() {
            // Given a line of any kind with one of its entries again, right after it or last
            for at in [i + 1, entries.len()] {
                let mut twice = entries.to_vec();
                twice.insert(at, entry);
                let line = object(&twice);
                // When it is read
                // Then the error names the key at the second one's closing quote
                let column = object(&twice[..at]).len() + key(entry).len() + 2;
                assert_kind(
                    &body(&[&line]),
                    2,
                    duplicate(column, &format!("duplicate field \"{}\"", key(entry))),
                );
            }
        }
    }
}

#[test]
fn an_unknown_field_is_refused_on_every_kind() {
    for entries in EVERY_KIND {
        let (_, prefix) = kind_of(entries);
        // Given a line of this kind with a field it does not have, first or last
        for at in [2, entries.len()] {
            let mut more = entries.to_vec();
            more.insert(at.min(entries.len()), r#""x":1"#);
            // When it is read
            let err = read_log(body(&[&object(&more)]).as_bytes()).unwrap_err();
            // Then the field is named, after the kind
            let DecodeErrorKind::Invalid {
                column: None,
                message,
            } = &err.kind
            else {
                panic!("{}: {err:?}", object(&more));
            };
            assert!(
                message.starts_with(&format!("{prefix}unknown field `x`, ")),
                "{message}"
            );
            assert_eq!(err.line, 2);
        }
    }
}

#[test]
fn a_missing_field_is_refused_unless_it_is_optional() {
    for entries in EVERY_KIND {
        let (type_name, prefix) = kind_of(entries);
        for (i, entry) in entries.iter().enumerate() {
            let field = key(entry);
            if field == "seq" || field == "type" {
                continue; // the envelope's own errors, in decode_errors.rs
            }
            // Given a line of this kind without one of its fields
            let mut fewer = entries.to_vec();
            fewer.remove(i);
            let line = object(&fewer);
            // When it is read
            let read = read_log(body(&[&line]).as_bytes());
            // Then an optional field takes its default, and any other is missing
            if OPTIONAL.contains(&(type_name, field)) {
                let log = read.unwrap_or_else(|e| panic!("{line}: {e}"));
                let event = &log.events[0].1.event;
                let defaulted = match event {
                    Event::GiftOpened { at, on, to, .. } => match field {
                        "at" => at.is_none(),
                        "on" => on.is_none(),
                        _ => to.is_none(),
                    },
                    Event::AbbotPlaced { portal, .. } => !portal,
                    _ => false,
                };
                assert!(defaulted, "{line}: {event:?}");
            } else {
                assert_kind(
                    &body(&[&line]),
                    2,
                    DecodeErrorKind::Invalid {
                        column: None,
                        message: format!("{prefix}missing field `{field}`"),
                    },
                );
            }
        }
    }
}

#[test]
fn game_ended_with_a_key_twice_is_refused() {
    // Given game_ended lines that repeat a key game_ended does not have (serde's derive ignores
    // such keys on a variant without fields; the fast path took these lines before the twin)
    for (line, column, key) in [
        (r#"{"seq":1,"type":"game_ended","x":1,"x":2}"#, 38, "x"),
        (
            r#"{"seq":1,"type":"game_ended","player":0,"player":0}"#,
            48,
            "player",
        ),
    ] {
        // When one is read
        // Then the repeated key is refused as on any other line
        assert_kind(
            &body(&[line]),
            2,
            duplicate(column, &format!("duplicate field \"{key}\"")),
        );
    }
}
