//! Issue 21 item 7: every rejection of a Board Game Arena replay says on which line and column
//! of the file its value is, not only the syntax errors: a wrong value at its JSON path, and a
//! move our rules refuse at its notification.

use std::path::Path;

use carc_formats::{read_game_file, InputError};
use serde_json::{json, Value};

/// The short test replay of the bga crate, written one value per line (as a person would
/// reformat it to read), so that lines and columns say something.
fn short_replay() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bga/tests/fixtures/short.json"
    );
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn note(v: &mut Value, packet: usize, notification: usize) -> &mut Value {
    &mut v["data"]["data"][packet]["data"][notification]
}

/// The error for `v` written pretty, with the text, and the line and column the text has
/// for the first occurrence of `needle` (what the error should point at).
fn error_and_position(v: &Value, needle: &str) -> (InputError, usize, usize) {
    let text = serde_json::to_string_pretty(v).unwrap();
    let e = read_game_file(Path::new("table.json"), text.as_bytes()).unwrap_err();
    let offset = text.find(needle).expect(needle);
    let line = 1 + text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1) + 1;
    (e, line, column)
}

#[test]
fn a_wrong_value_is_reported_at_its_line_and_column() {
    // Given a replay whose first tile has a column that is not a number
    let mut v = short_replay();
    note(&mut v, 1, 0)["args"]["x"] = json!("east");
    // When it is read
    let (e, line, column) = error_and_position(&v, "\"east\"");
    // Then the error names the value's path, line and column (the value's first byte)
    assert_eq!(
        e.json_path().as_deref(),
        Some("data.data[1].data[0].args.x")
    );
    assert_eq!((e.line(), e.column()), (line, Some(column)), "{e}");
    assert!(
        e.to_string()
            .starts_with(&format!("line {line}, column {column}: ")),
        "{e}"
    );
}

#[test]
fn a_refused_move_is_reported_at_its_notification() {
    // Given a replay whose first tile is put far from the start tile
    let mut v = short_replay();
    note(&mut v, 1, 0)["args"]["x"] = json!("5");
    note(&mut v, 1, 0)["uid"] = json!("the-refused-move");
    // When it is read
    let text = serde_json::to_string_pretty(&v).unwrap();
    let e = read_game_file(Path::new("table.json"), text.as_bytes()).unwrap_err();
    // Then the error is at the notification's opening brace: the line before its `uid`
    let uid = text.find("\"uid\": \"the-refused-move\"").unwrap();
    let uid_line = 1 + text[..uid].matches('\n').count();
    assert_eq!(e.rule(), "bga.illegal", "{e}");
    assert!(e.line() >= 1 && e.line() < uid_line, "{e}");
    let at_line = text.lines().nth(e.line() - 1).unwrap();
    assert_eq!(
        at_line.as_bytes().get(e.column().unwrap() - 1),
        Some(&b'{'),
        "{e}: {at_line:?}"
    );
}

#[test]
fn a_missing_value_is_reported_at_the_object_that_should_hold_it() {
    // Given a replay whose first tile notification has no `args`
    let mut v = short_replay();
    note(&mut v, 1, 0).as_object_mut().unwrap().remove("args");
    note(&mut v, 1, 0)["uid"] = json!("no-args-here");
    let text = serde_json::to_string_pretty(&v).unwrap();
    // When it is read
    let e = read_game_file(Path::new("table.json"), text.as_bytes()).unwrap_err();
    // Then the position is that of the notification (its line holds the opening brace)
    let uid = text.find("\"uid\": \"no-args-here\"").unwrap();
    let uid_line = 1 + text[..uid].matches('\n').count();
    assert!(e.line() >= 1 && e.line() < uid_line, "{e}");
    assert!(e.column().is_some(), "{e}");
}
