//! The optional header field `source`: where a game comes from, read and written back byte for
//! byte, absent (and not written) when unknown.

use carc_events::{read_log, write_log, Source};

const BASE: &str = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"],"bag":null"#;

fn log_with(source: &str) -> String {
    format!("{BASE}{source}}}\n")
}

#[test]
fn a_simulated_and_a_bga_source_round_trip_byte_for_byte() {
    for (text, expected) in [
        (
            log_with(r#","source":{"kind":"simulated","seed":7,"strategies":["greedy","random"]}"#),
            Source::Simulated {
                seed: 7,
                strategies: vec!["greedy".into(), "random".into()],
            },
        ),
        (
            log_with(r#","source":{"kind":"bga","table":366166200,"players":[93033745,84051152]}"#),
            Source::Bga {
                table: 366166200,
                players: vec![93033745, 84051152],
            },
        ),
    ] {
        let log = read_log(text.as_bytes()).unwrap();
        assert_eq!(log.header.source.as_ref(), Some(&expected));
        assert_eq!(write_log(&log), text);
    }
}

#[test]
fn without_a_source_nothing_is_written() {
    let text = log_with("");
    let log = read_log(text.as_bytes()).unwrap();
    assert_eq!(log.header.source, None);
    assert_eq!(write_log(&log), text);
    assert!(!write_log(&log).contains("source"));
}

#[test]
fn an_unknown_kind_or_a_malformed_source_is_refused_at_line_1() {
    for bad in [
        r#","source":{"kind":"telepathy"}"#,
        r#","source":{"kind":"simulated","seed":"seven","strategies":[]}"#,
        r#","source":"BGA""#,
    ] {
        let err = read_log(log_with(bad).as_bytes()).unwrap_err();
        assert_eq!(err.line, 1, "{bad}");
    }
}
