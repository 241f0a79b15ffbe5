//! The examples in docs/log-format.md decode, and the complete example writes back
//! byte-identically.

use carc_events::{read_log, write_log, Assertion, Envelope, EVENT_TYPES};

const DOC: &str = include_str!("../../../docs/log-format.md");

/// The contents of the ```json blocks.
fn json_blocks() -> Vec<&'static str> {
    DOC.split("```json\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap())
        .collect()
}

#[test]
fn complete_example_and_header_decode_and_round_trip() {
    let logs: Vec<&str> = json_blocks()
        .into_iter()
        .filter(|b| b.starts_with("{\"format\""))
        .collect();
    assert_eq!(logs.len(), 2, "the header block and the complete example");
    for text in logs {
        let log = read_log(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(write_log(&log), text);
    }
}

#[test]
fn every_event_type_has_a_decoding_example_line() {
    let mut seen = Vec::new();
    for row in DOC
        .lines()
        .filter(|l| l.starts_with("| `") && l.contains("{\"seq\""))
    {
        let json = row.rsplit('`').nth(1).unwrap();
        let envelope: Envelope =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        assert_eq!(serde_json::to_string(&envelope).unwrap(), json);
        seen.push(envelope.event.type_name());
    }
    assert_eq!(seen, EVENT_TYPES);
}

#[test]
fn assertion_examples_decode() {
    let block = json_blocks()
        .into_iter()
        .find(|b| b.starts_with("{\"type\":\"expect_"))
        .unwrap();
    for line in block.lines() {
        let assertion: Assertion = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&assertion).unwrap(), line);
    }
}
