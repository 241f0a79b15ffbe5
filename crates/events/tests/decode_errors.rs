//! One test per decoding error: the line number and a meaningful part of the message.

use std::io::{self, BufRead, BufReader, Read};

use carc_events::{
    read_log, read_log_from, read_log_prefix, DecodeError, DecodeErrorKind, Event, MAX_LINE_BYTES,
};

const HEADER: &str = r#"{"format":"carcassonne-log","version":1,"game":"g1","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"],"bag":null}"#;
const E1: &str = r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#;
const E2: &str = r#"{"seq":2,"type":"tile_drawn","player":0,"tile":"V"}"#;

/// The header with one field replaced (`"key":value` text).
fn header_with(field: &str, json: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(HEADER).unwrap();
    let mut map = value.as_object().unwrap().clone();
    map.insert(field.into(), serde_json::from_str(json).unwrap());
    serde_json::to_string(&map).unwrap()
}

fn decode_err(input: &[u8]) -> DecodeError {
    let err = read_log(input).expect_err("input should not decode");
    // The prefix reader agrees with the whole-file reader.
    let prefix_err = match read_log_prefix(input) {
        Ok(prefix) => prefix
            .error
            .expect("prefix reader should report the same error"),
        Err(err) => err,
    };
    assert_eq!(prefix_err, err);
    err
}

/// Asserts the error's line and that its display contains every part.
#[track_caller]
fn assert_err(input: &str, line: usize, parts: &[&str]) -> DecodeError {
    assert_err_bytes(input.as_bytes(), line, parts)
}

#[track_caller]
fn assert_err_bytes(input: &[u8], line: usize, parts: &[&str]) -> DecodeError {
    let err = decode_err(input);
    let msg = err.to_string();
    assert_eq!(err.line, line, "wrong line in: {msg}");
    assert!(msg.starts_with(&format!("line {line}: ")), "{msg}");
    for part in parts {
        assert!(msg.contains(part), "expected {part:?} in: {msg}");
    }
    err
}

fn body(lines: &[&str]) -> String {
    let mut text = format!("{HEADER}\n");
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text
}

// ---- line level -----------------------------------------------------------------------------

#[test]
fn not_utf8() {
    let mut input = body(&[E1]).into_bytes();
    input
        .extend_from_slice(b"{\"seq\":2,\"type\":\"tile_drawn\",\"player\":0,\"tile\":\"\xff\"}\n");
    let line3 = input.split(|&b| b == b'\n').nth(2).unwrap();
    let column = line3.iter().position(|&b| b == 0xff).unwrap() + 1;
    let err = assert_err_bytes(&input, 3, &["not valid UTF-8", &format!("column {column}")]);
    assert_eq!(err.kind, DecodeErrorKind::NotUtf8 { column });
}

#[test]
fn not_utf8_in_the_header() {
    assert_err_bytes(b"\xc3\x28", 1, &["not valid UTF-8", "column 1"]);
}

#[test]
fn empty_line_in_the_middle() {
    let input = body(&[
        E1,
        E2,
        "",
        r#"{"seq":3,"type":"meeple_skipped","player":0}"#,
    ]);
    let err = assert_err(&input, 4, &[]);
    assert_eq!(
        err.to_string(),
        "line 4: empty line; every line must hold one JSON object"
    );
}

#[test]
fn empty_line_number_seven() {
    let input = body(&[
        E1,
        E2,
        E2.replace(":2", ":3").as_str(),
        E2.replace(":2", ":4").as_str(),
        E2.replace(":2", ":5").as_str(),
        "",
    ]);
    let err = decode_err(input.as_bytes());
    assert_eq!(
        err.to_string(),
        "line 7: empty line; every line must hold one JSON object"
    );
}

#[test]
fn blank_line_of_spaces_is_empty() {
    assert_err(&body(&[E1, " \t "]), 3, &["empty line"]);
}

#[test]
fn two_trailing_newlines_are_an_empty_last_line() {
    assert_err(&format!("{HEADER}\n{E1}\n\n"), 3, &["empty line"]);
}

#[test]
fn empty_first_line() {
    assert_err(&format!("\n{HEADER}\n"), 1, &["empty line"]);
}

#[test]
fn line_too_long_in_memory() {
    let long = format!("{{\"seq\":1,\"type\":\"{}\"}}", "x".repeat(MAX_LINE_BYTES));
    let err = assert_err(&body(&[&long]), 2, &["longer than 1048576 bytes"]);
    assert_eq!(err.kind, DecodeErrorKind::LineTooLong);
}

#[test]
fn line_of_exactly_the_limit_is_read() {
    let pad = MAX_LINE_BYTES - E1.len();
    let line = format!("{}{E1}", " ".repeat(pad));
    assert_eq!(line.len(), MAX_LINE_BYTES);
    assert_eq!(read_log(body(&[&line]).as_bytes()).unwrap().events.len(), 1);
}

/// Counts the bytes handed out, to show that a huge line is not read to its end.
struct Counting<R> {
    inner: R,
    handed_out: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.handed_out += n as u64;
        Ok(n)
    }
}

#[test]
fn endless_line_from_a_reader_stops_at_the_limit() {
    let start = format!("{HEADER}\n{E1}\n");
    let endless = io::Cursor::new(start.into_bytes()).chain(io::repeat(b'a'));
    let mut reader = BufReader::with_capacity(
        8192,
        Counting {
            inner: endless,
            handed_out: 0,
        },
    );
    let err = read_log_from(&mut reader).unwrap_err();
    assert_eq!(err.to_string(), "line 3: longer than 1048576 bytes");
    let read = reader.get_ref().handed_out;
    assert!(read < 2 * MAX_LINE_BYTES as u64, "read {read} bytes");
}

struct FailingAfter<'a> {
    data: &'a [u8],
}

impl Read for FailingAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return Err(io::Error::other("disk on fire"));
        }
        let n = self.data.read(buf)?;
        Ok(n)
    }
}

#[test]
fn read_error_names_the_line() {
    let start = format!("{HEADER}\n{E1}\n{{\"seq\"");
    let reader = BufReader::new(FailingAfter {
        data: start.as_bytes(),
    });
    let err = read_log_from(reader).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(
        err.to_string().contains("read error: disk on fire"),
        "{err}"
    );
}

// ---- JSON level ---------------------------------------------------------------------------

#[test]
fn truncated_json_object() {
    let cut = &E2[..E2.len() - 8];
    let input = format!("{HEADER}\n{E1}\n{cut}");
    let err = assert_err(&input, 3, &["invalid JSON", "truncated"]);
    assert!(matches!(
        err.kind,
        DecodeErrorKind::InvalidJson {
            truncated: true,
            ..
        }
    ));
}

#[test]
fn truncated_header() {
    assert_err(&HEADER[..40], 1, &["invalid JSON", "truncated"]);
}

#[test]
fn invalid_json_names_the_column() {
    let input = body(&[E1, r#"{"seq":2,"type":"tile_drawn","player":0 "tile":"V"}"#]);
    let err = assert_err(
        &input,
        3,
        &["invalid JSON at column 41", "expected `,` or `}`"],
    );
    assert!(matches!(
        err.kind,
        DecodeErrorKind::InvalidJson {
            column: 41,
            truncated: false,
            ..
        }
    ));
}

#[test]
fn trailing_text_after_the_object() {
    assert_err(
        &body(&[&format!("{E1} x")]),
        2,
        &["invalid JSON", "trailing characters"],
    );
}

#[test]
fn two_objects_on_one_line() {
    assert_err(
        &body(&[&format!("{E1}{E2}")]),
        2,
        &["invalid JSON", "trailing characters"],
    );
}

#[test]
fn line_not_an_object() {
    assert_err(&body(&[E1, "[1,2]"]), 3, &["expected a JSON object"]);
    assert_err(&body(&["\"seq\""]), 2, &["expected a JSON object"]);
    assert_err("42", 1, &["expected a JSON object"]);
}

#[test]
fn duplicate_key() {
    let line = r#"{"seq":1,"seq":2,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}"#;
    assert_err(&body(&[line]), 2, &["duplicate field \"seq\"", "column"]);
}

// ---- header -------------------------------------------------------------------------------

#[test]
fn missing_header_in_empty_file() {
    let err = assert_err("", 1, &["missing header", "file is empty"]);
    assert_eq!(err.kind, DecodeErrorKind::EmptyFile);
}

#[test]
fn header_not_on_line_one() {
    let err = assert_err(
        &format!("{E1}\n{HEADER}\n"),
        1,
        &["missing header", "must come first"],
    );
    assert_eq!(err.kind, DecodeErrorKind::HeaderNotFirst);
}

#[test]
fn header_without_format() {
    let err = assert_err(r#"{"version":1,"game":"g"}"#, 1, &["no \"format\""]);
    assert_eq!(err.kind, DecodeErrorKind::MissingFormat);
}

#[test]
fn second_header() {
    assert_err(&body(&[E1, HEADER]), 3, &["second header"]);
}

#[test]
fn wrong_format_name() {
    let input = header_with("format", r#""chess-pgn""#);
    assert_err(
        &input,
        1,
        &[
            "not a carcassonne log",
            "\"chess-pgn\"",
            "expected \"carcassonne-log\"",
        ],
    );
    assert_err(
        &header_with("format", "1"),
        1,
        &["not a carcassonne log", "is 1"],
    );
}

#[test]
fn future_version() {
    let err = decode_err(header_with("version", "3").as_bytes());
    assert_eq!(
        err.to_string(),
        "line 1: log format version 3 is newer than this program reads (up to 1); upgrade carc"
    );
    let huge = header_with("version", "99999999999");
    assert_err(&huge, 1, &["version 99999999999 is newer"]);
}

#[test]
fn invalid_version() {
    assert_err(
        &header_with("version", "0"),
        1,
        &["\"version\" must be a positive integer, found 0"],
    );
    assert_err(
        &header_with("version", "\"1\""),
        1,
        &["positive integer, found \"1\""],
    );
    assert_err(
        &header_with("version", "1.5"),
        1,
        &["positive integer, found 1.5"],
    );
    assert_err(
        &header_with("version", "-1"),
        1,
        &["positive integer, found -1"],
    );
    let without: String = HEADER.replace(r#""version":1,"#, "");
    assert_err(&without, 1, &["positive integer, found nothing"]);
}

#[test]
fn unknown_header_field_names_field_and_column() {
    let input = header_with("colour", "1");
    let err = assert_err(&input, 1, &["unknown field `colour`", "column"]);
    match err.kind {
        DecodeErrorKind::Invalid {
            column: Some(c), ..
        } => {
            // serde_json stops right after the key.
            assert_eq!(&input[c - 8..c], "\"colour\"", "column {c} in {input}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_field_in_player_and_rules() {
    let players = header_with("players", r#"[{"name":"Ada","color":"red","age":3}]"#);
    assert_err(
        &players,
        1,
        &[
            "unknown field `age`",
            "expected `name` or `color`",
            "column",
        ],
    );
    let rules = header_with("rules", r#"{"expansions":[],"farmer":true}"#);
    assert_err(&rules, 1, &["unknown field `farmer`", "column"]);
}

#[test]
fn missing_header_fields() {
    let no_game = HEADER.replace(r#""game":"g1","#, "");
    assert_err(&no_game, 1, &["missing field `game`"]);
    assert_err(
        &header_with("rules", "{}"),
        1,
        &["missing field `expansions`"],
    );
}

#[test]
fn bad_player_lists() {
    assert_err(
        &header_with("players", "[]"),
        1,
        &["players: expected 1 to 6 players, found 0"],
    );
    let seven = format!(
        "[{}]",
        (0..7)
            .map(|i| format!(r#"{{"name":"P{i}","color":"red"}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_err(
        &header_with("players", &seven),
        1,
        &["expected 1 to 6 players, found 7"],
    );
    let same = r#"[{"name":"Ada","color":"red"},{"name":"Ada","color":"blue"}]"#;
    assert_err(
        &header_with("players", same),
        1,
        &["players 0 and 1 are both named \"Ada\"", "unique"],
    );
    let nameless = r#"[{"name":"","color":"red"}]"#;
    assert_err(
        &header_with("players", nameless),
        1,
        &["player 0 has an empty name"],
    );
    let pink = r#"[{"name":"Ada","color":"pink"}]"#;
    assert_err(
        &header_with("players", pink),
        1,
        &["unknown variant `pink`", "`gray`"],
    );
    assert_err(&header_with("players", "null"), 1, &["invalid type: null"]);
}

#[test]
fn bad_rule_options() {
    let rules = |r: &str| header_with("rules", r);
    assert_err(
        &rules(r#"{"expansions":[],"two_tile_city":3}"#),
        1,
        &["two_tile_city must be 2 or 4, found 3"],
    );
    assert_err(
        &rules(r#"{"expansions":[],"meeples":0}"#),
        1,
        &["meeples must be between 1 and 20, found 0"],
    );
    assert_err(
        &rules(r#"{"expansions":[],"meeples":21}"#),
        1,
        &["found 21"],
    );
    assert_err(
        &rules(r#"{"expansions":[],"meeples":300}"#),
        1,
        &["found 300"],
    );
    assert_err(
        &rules(r#"{"expansions":[],"farmers":"yes"}"#),
        1,
        &["expected a boolean"],
    );
}

#[test]
fn bad_game_tile_sets_and_bag() {
    assert_err(
        &header_with("game", r#""""#),
        1,
        &["game id must not be empty"],
    );
    assert_err(
        &header_with("tile_sets", "[]"),
        1,
        &["tile_sets: expected at least one"],
    );
    assert_err(
        &header_with("tile_sets", r#"[""]"#),
        1,
        &["tile set names must not be empty"],
    );
    assert_err(
        &header_with("bag", r#"{"":1}"#),
        1,
        &["tile id must not be empty"],
    );
    assert_err(
        &header_with("bag", r#"{"A":-1}"#),
        1,
        &["invalid value: integer `-1`"],
    );
    assert_err(&header_with("bag", r#"{"A":70000}"#), 1, &["expected u16"]);
    assert_err(&header_with("bag", "[]"), 1, &["expected a map"]);
}

// ---- events -------------------------------------------------------------------------------

#[test]
fn seq_out_of_sequence_exact_message() {
    let mut lines = vec![E1.to_string()];
    for seq in 2..=5 {
        lines.push(format!(
            r#"{{"seq":{seq},"type":"meeple_skipped","player":0}}"#
        ));
    }
    lines.push(r#"{"type":"expect_scores","after":5,"scores":[0,0]}"#.into());
    lines.push(r#"{"type":"expect_final_scores","scores":[0,0]}"#.into());
    lines.push(r#"{"seq":7,"type":"meeple_skipped","player":1}"#.into());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let err = decode_err(body(&refs).as_bytes());
    assert_eq!(
        err.to_string(),
        "line 9: event seq 7 out of sequence; expected 6"
    );
}

#[test]
fn first_seq_must_be_one() {
    let zero = E1.replace(r#""seq":1"#, r#""seq":0"#);
    assert_err(
        &body(&[&zero]),
        2,
        &["event seq 0 out of sequence; expected 1"],
    );
    assert_err(
        &body(&[E2]),
        2,
        &["event seq 2 out of sequence; expected 1"],
    );
    assert_err(
        &body(&[E1, E1]),
        3,
        &["event seq 1 out of sequence; expected 2"],
    );
}

#[test]
fn invalid_or_missing_seq() {
    let text_seq = E1.replace(r#""seq":1"#, r#""seq":"1""#);
    assert_err(
        &body(&[&text_seq]),
        2,
        &["\"seq\" must be a positive integer, found \"1\""],
    );
    assert_err(
        &body(&[&E1.replace(r#""seq":1"#, r#""seq":-1"#)]),
        2,
        &["found -1"],
    );
    let no_seq = r#"{"type":"tile_drawn","player":0,"tile":"V"}"#;
    assert_err(&body(&[no_seq]), 2, &["tile_drawn event has no \"seq\""]);
}

#[test]
fn unknown_event_type_lists_known_ones() {
    let line = r#"{"seq":1,"type":"arrow_activated","player":0}"#;
    let err = assert_err(
        &body(&[line]),
        2,
        &[
            "unknown event type \"arrow_activated\"",
            "start_placed, tile_drawn, tile_placed, meeple_placed, meeple_skipped, tile_set_aside",
        ],
    );
    assert!(matches!(err.kind, DecodeErrorKind::UnknownEventType { .. }));
}

#[test]
fn event_without_type_or_with_a_non_string_type() {
    assert_err(
        &body(&[r#"{"seq":1,"tile":"D"}"#]),
        2,
        &["event has no \"type\"", "start_placed"],
    );
    assert_err(
        &body(&[r#"{"seq":1,"type":7}"#]),
        2,
        &["\"type\" must be a string, found 7"],
    );
}

#[test]
fn unrecognized_line() {
    assert_err(
        &body(&[E1, r#"{"note":"hello"}"#]),
        3,
        &[
            "expected an event",
            "an assertion",
            "or an annotation or variation",
        ],
    );
    assert_err(&body(&[r#"{"type":"banana"}"#]), 2, &["expected an event"]);
}

#[test]
fn unknown_event_field() {
    let line = r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0,"player":0}"#;
    assert_err(
        &body(&[line]),
        2,
        &["start_placed event", "unknown field `player`", "`tile`"],
    );
}

#[test]
fn missing_event_field() {
    let line = r#"{"seq":1,"type":"tile_drawn","player":0}"#;
    assert_err(
        &body(&[line]),
        2,
        &["tile_drawn event", "missing field `tile`"],
    );
}

#[test]
fn bad_rotation_names_allowed_values() {
    for bad in [
        "45",
        "360",
        "-90",
        "90.0",
        "\"90\"",
        "null",
        "99999999999999999999",
    ] {
        let line =
            format!(r#"{{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":{bad}}}"#);
        assert_err(
            &body(&[&line]),
            2,
            &["start_placed event", "0, 90, 180, 270"],
        );
    }
    let line = r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":45}"#;
    assert_err(
        &body(&[line]),
        2,
        &["rotation 45 is not one of 0, 90, 180, 270"],
    );
}

#[test]
fn bad_meeple_target_quotes_the_grammar() {
    for bad in [
        r#""city Q""#,
        r#""field N""#,
        r#""road""#,
        r#""monastery N""#,
        "5",
        r#""""#,
    ] {
        let line = format!(r#"{{"seq":1,"type":"meeple_placed","player":0,"on":{bad}}}"#);
        assert_err(
            &body(&[&line]),
            2,
            &[
                "meeple_placed event",
                "\"city <side>\"",
                "\"field <port>\"",
                "Nw Ne En Es Se Sw Ws Wn",
            ],
        );
    }
    let line = r#"{"seq":1,"type":"meeple_placed","player":0,"on":"city Q"}"#;
    assert_err(&body(&[line]), 2, &["invalid meeple target \"city Q\""]);
}

#[test]
fn bad_position_player_and_tile() {
    let at =
        |a: &str| format!(r#"{{"seq":1,"type":"start_placed","tile":"D","at":{a},"rotation":0}}"#);
    assert_err(
        &body(&[&at("[0]")]),
        2,
        &["start_placed event", "invalid length 1"],
    );
    assert_err(&body(&[&at("[0,0,0]")]), 2, &["invalid length 3"]);
    assert_err(
        &body(&[&at("[0.5,0]")]),
        2,
        &["invalid type: floating point"],
    );
    assert_err(&body(&[&at("[3000000000,0]")]), 2, &["expected i32"]);
    let player = r#"{"seq":1,"type":"tile_drawn","player":-1,"tile":"V"}"#;
    assert_err(&body(&[player]), 2, &["tile_drawn event", "expected u8"]);
    let tile = r#"{"seq":1,"type":"tile_drawn","player":0,"tile":""}"#;
    assert_err(&body(&[tile]), 2, &["tile id must not be empty"]);
}

#[test]
fn player_beyond_the_header() {
    let line = r#"{"seq":1,"type":"tile_drawn","player":2,"tile":"V"}"#;
    let err = assert_err(
        &body(&[line]),
        2,
        &["player 2 does not exist", "2 players (seats 0 to 1)"],
    );
    assert_eq!(
        err.kind,
        DecodeErrorKind::PlayerOutOfRange {
            player: 2,
            players: 2
        }
    );
}

// ---- assertions ---------------------------------------------------------------------------

#[test]
fn unknown_assertion_type() {
    let line = r#"{"type":"expect_winner","player":0}"#;
    assert_err(
        &body(&[line]),
        2,
        &[
            "unknown assertion type \"expect_winner\"",
            "expect_scores, expect_final_scores",
        ],
    );
}

#[test]
fn assertion_with_unknown_or_missing_field() {
    assert_err(
        &body(&[r#"{"type":"expect_scores","after":1,"scores":[1,2],"seq":3}"#]),
        2,
        &["expect_scores", "unknown field `seq`"],
    );
    assert_err(
        &body(&[r#"{"type":"expect_scores","scores":[1,2]}"#]),
        2,
        &["missing field `after`"],
    );
    assert_err(
        &body(&[r#"{"type":"expect_final_scores","scores":[1,-2]}"#]),
        2,
        &["expect_final_scores", "invalid value"],
    );
}

#[test]
fn assertion_score_count_must_match_players() {
    let line = r#"{"type":"expect_final_scores","scores":[1,2,3]}"#;
    assert_err(
        &body(&[E1, line]),
        3,
        &["expect_final_scores lists 3 scores but the game has 2 players"],
    );
}

#[test]
fn assertion_may_refer_to_any_seq() {
    let log =
        read_log(body(&[r#"{"type":"expect_scores","after":40,"scores":[1,2]}"#, E1]).as_bytes())
            .unwrap();
    assert_eq!(log.assertions[0].0, 2);
    assert_eq!(log.events[0].0, 3);
}

// ---- prefix mode --------------------------------------------------------------------------

#[test]
fn prefix_keeps_everything_before_the_bad_line() {
    let input = body(&[
        E1,
        E2,
        r#"{"type":"expect_scores","after":2,"scores":[0,0]}"#,
        r#"{"seq":3,"type":"tile_placed","player":0,"tile":"V","at":[1,0],"rotation":45}"#,
        E2,
    ]);
    let prefix = read_log_prefix(input.as_bytes()).unwrap();
    assert_eq!(prefix.log.events.len(), 2);
    assert_eq!(prefix.log.assertions.len(), 1);
    assert!(matches!(
        prefix.log.events[1].1.event,
        Event::TileDrawn { player: 0, .. }
    ));
    let err = prefix.error.unwrap();
    assert_eq!(err.line, 5);
    assert!(err.to_string().contains("rotation 45"), "{err}");
}

#[test]
fn prefix_of_a_good_log_has_no_error() {
    let input = body(&[E1, E2]);
    let prefix = read_log_prefix(input.as_bytes()).unwrap();
    assert_eq!(prefix.error, None);
    assert_eq!(Ok(prefix.log), read_log(input.as_bytes()));
}

#[test]
fn prefix_fails_outright_on_a_bad_header() {
    let err = read_log_prefix(header_with("version", "2").as_bytes()).unwrap_err();
    assert_eq!(err.line, 1);
}

#[test]
fn reader_and_slice_agree() {
    let input = body(&[E1, E2]);
    let from_reader = read_log_from(BufReader::with_capacity(7, input.as_bytes())).unwrap();
    assert_eq!(Ok(from_reader), read_log(input.as_bytes()));
    // A tiny buffer exercises lines that span many `fill_buf` calls.
    let reader: &mut dyn BufRead = &mut BufReader::with_capacity(3, input.as_bytes());
    assert!(read_log_from(reader).is_ok());
}
