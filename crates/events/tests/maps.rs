//! The header's `rules.map` (Carcassonne Maps): decoded, written back byte for byte, absent
//! (and not written) without a map, strict about its fields.

use carc_events::{read_log, write_log, MapRules, TownVariant};

const HEADER_NO_MAP: &str = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"],"bag":null}"#;

fn with_rules(rules: &str) -> String {
    HEADER_NO_MAP.replace(
        r#""rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7}"#,
        rules,
    ) + "\n"
}

#[test]
fn a_header_without_a_map_has_none_and_keeps_its_bytes() {
    let text = format!("{HEADER_NO_MAP}\n");
    let log = read_log(text.as_bytes()).unwrap();
    assert_eq!(log.header.rules.map, None);
    assert_eq!(write_log(&log), text);
}

#[test]
fn a_map_header_decodes_and_writes_back_byte_identically() {
    let text = with_rules(
        r#""rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":9,"map":{"name":"germany","start_squares":3,"town_variants":["extra_turn","road_bonus"]}}"#,
    );
    let log = read_log(text.as_bytes()).unwrap();
    assert_eq!(
        log.header.rules.map,
        Some(MapRules {
            name: "germany".into(),
            start_squares: 3,
            town_variants: vec![TownVariant::ExtraTurn, TownVariant::RoadBonus],
        })
    );
    assert_eq!(write_log(&log), text);
    // Defaults: 2 start squares, no town variant (and the empty list is not written).
    let short = with_rules(
        r#""rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":9,"map":{"name":"germany"}}"#,
    );
    let log = read_log(short.as_bytes()).unwrap();
    let map = log.header.rules.map.clone().unwrap();
    assert_eq!((map.start_squares, map.town_variants.len()), (2, 0));
    assert!(write_log(&log).contains(r#""map":{"name":"germany","start_squares":2}"#));
}

#[test]
fn bad_map_fields_are_decoding_errors() {
    for (rules, expected) in [
        (
            r#""map":{"name":"germany","start_squares":1}"#,
            "start_squares",
        ),
        (r#""map":{"name":"germany","towns":[]}"#, "unknown field"),
        (
            r#""map":{"name":"germany","town_variants":["fair"]}"#,
            "fair",
        ),
        (r#""map":"germany""#, "MapRules"),
    ] {
        let text = with_rules(&format!(
            r#""rules":{{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":9,{rules}}}"#
        ));
        let err = read_log(text.as_bytes()).unwrap_err().to_string();
        assert!(err.contains(expected), "{rules}: {err}");
    }
}
