//! Every refusal of a `.jcz` file says where in the text: line and column, and the JSON path
//! when the error is about a value (issue 21, item 7).

mod common;

use carc_jcz::JczError;
use serde_json::{json, Value};

/// A corpus game pretty-printed (one value per line, as JCloisterZone saves), with a change.
fn pretty(name: &str, change: impl FnOnce(&mut Value)) -> String {
    let text = std::fs::read_to_string(common::corpus_dir().join(name)).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    change(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

/// The 1-based line and column of the first occurrence of `needle` in `text`.
fn where_is(text: &str, needle: &str) -> (usize, usize) {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the text"));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = offset - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

#[test]
fn a_syntax_error_has_serde_json_line_and_column() {
    let text = "{\n  \"setup\": {},\n  \"replay\": [1,, 2]\n}";
    let e = carc_jcz::read(text).unwrap_err();
    assert!(matches!(e, JczError::Json { .. }), "{e}");
    assert_eq!(e.line(), Some(3));
    assert_eq!(e.column(), Some(16));
    assert_eq!(e.path(), None);
}

#[test]
fn a_wrong_value_is_located_by_its_path() {
    let text = pretty("tiny-city-rule.jcz", |v| {
        v["replay"][3]["payload"]["rotation"] = json!("R45");
    });
    let e = carc_jcz::read(&text).unwrap_err();
    assert_eq!(e.path().as_deref(), Some("replay[3].payload.rotation"));
    // The value "R45" (after the key and ": ") is where the error points.
    let (line, column) = where_is(&text, "\"R45\"");
    assert_eq!((e.line(), e.column()), (Some(line), Some(column)), "{e}");
}

#[test]
fn a_missing_field_is_located_at_the_object_that_lacks_it() {
    let text = pretty("tiny-city-rule.jcz", |v| {
        v["replay"][6]["payload"]
            .as_object_mut()
            .unwrap()
            .remove("position");
    });
    let e = carc_jcz::read(&text).unwrap_err();
    assert_eq!(e.path().as_deref(), Some("replay[6].payload.position"));
    // replay[6] is the third PLACE_TILE; its payload object opens on the line of "payload".
    let payload_lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"payload\""))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(e.line(), Some(payload_lines[6]), "{e}");
}

#[test]
fn a_refused_move_is_located_at_its_replay_entry() {
    let text = pretty("tiny-city-rule.jcz", |v| {
        v["replay"][3]["payload"]["position"] = json!([7, 7]);
    });
    let e = carc_jcz::read(&text).unwrap_err();
    assert!(matches!(e, JczError::Replay { index: 3, .. }), "{e}");
    assert_eq!(e.path().as_deref(), Some("replay[3]"));
    // The entry's object starts on the line after the previous entry's closing brace.
    let lines: Vec<&str> = text.lines().collect();
    let line = e.line().unwrap();
    assert_eq!(lines[line - 1].trim(), "{", "{e}");
    assert!(lines[line].contains("\"payload\"") || lines[line].contains("\"type\""));
    let (position_line, _) = where_is(&text, "7,");
    assert!(line < position_line, "{line} {position_line}");
}

#[test]
fn unsupported_content_is_located_at_its_first_item() {
    let text = pretty("tiny-city-rule.jcz", |v| {
        v["setup"]["elements"]["tower"] = json!(true);
    });
    let e = carc_jcz::read(&text).unwrap_err();
    assert!(matches!(e, JczError::Unsupported(_)), "{e}");
    assert_eq!(e.path().as_deref(), Some("setup.elements.tower"));
    let (line, column) = where_is(&text, "\"tower\": true");
    // The value `true`, after `"tower": `.
    assert_eq!(e.line(), Some(line));
    assert_eq!(e.column(), Some(column + "\"tower\": ".len()));
}

#[test]
fn invalid_utf8_is_reported_where_it_is() {
    let text = pretty("tiny-city-rule.jcz", |_| {});
    let (line, column) = where_is(&text, "Wendy");
    let mut bytes = text.into_bytes();
    let offset = bytes.windows(5).position(|w| w == b"Wendy").unwrap();
    bytes[offset + 1] = 0xFF;
    let e = carc_jcz::read_file(std::path::Path::new("x.jcz"), &bytes).unwrap_err();
    assert!(e.to_string().contains("not UTF-8"), "{e}");
    assert!(line > 1);
    assert_eq!(
        (e.line(), e.column()),
        (Some(line), Some(column + 1)),
        "{e}"
    );
}

#[test]
fn writing_errors_have_no_position() {
    let text = std::fs::read_to_string(common::corpus_dir().join("tiny-city-rule.jcz")).unwrap();
    let mut log = carc_jcz::read(&text).unwrap();
    log.header.rules.expansions = vec!["inns".into()];
    let e = carc_jcz::write(&log).unwrap_err();
    assert_eq!((e.line(), e.column(), e.path()), (None, None, None));
}
