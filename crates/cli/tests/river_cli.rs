//! `carc` with The River: simulate with `--expansions river` (alone and with the others),
//! `legal` and `explain` on river tiles, and `check` refusing a log that breaks the draw order.

mod common;
use common::{carc, logs_dir, refused_with_a_map, simulated_and_checked, stderr, stdout};

const SAMPLE: &str = "sim-2p-river-mixed.jsonl";

#[test]
fn simulate_with_the_river_alone_and_with_the_others_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    for (expansions, out) in [
        ("river", "r.jsonl"),
        ("anniversary,gifts,abbot,river", "all.jsonl"),
    ] {
        let log = simulated_and_checked(
            dir.path(),
            &["--expansions", expansions, "--seed", "4"],
            out,
        );
        // The spring is the start tile, and the first tile drawn is a river tile
        assert!(
            log.contains(r#""type":"start_placed","tile":"RS""#),
            "{expansions}"
        );
        let first_draw = log.lines().find(|l| l.contains("tile_drawn")).unwrap();
        assert!(first_draw.contains(r#""tile":"R"#), "{first_draw}");
    }
    // And a map does not combine with the river
    refused_with_a_map(dir.path(), "river");
}

#[test]
fn legal_offers_only_the_open_end_and_explain_names_the_river_rules() {
    // Given the sample, before the first river tile is placed
    let o = carc(&["legal", SAMPLE, "--at", "2"], &logs_dir());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("1 legal placements"), "{}", stdout(&o));
    assert!(stdout(&o).contains("(0,-1) rotated 0°"), "{}", stdout(&o));
    // When the placement is explained: the river continues
    let o = carc(&["explain", SAMPLE, "--at", "3"], &logs_dir());
    assert!(
        stdout(&o).contains("[river.tile.continue]"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_refuses_a_land_tile_drawn_before_the_river() {
    // Given the sample with its first draw changed to a land tile
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(logs_dir().join(SAMPLE)).unwrap();
    let bad = text.replacen(
        r#"{"seq":2,"type":"tile_drawn","player":0,"tile":"R1"}"#,
        r#"{"seq":2,"type":"tile_drawn","player":0,"tile":"D"}"#,
        1,
    );
    assert_ne!(bad, text);
    std::fs::write(dir.path().join("bad.jsonl"), bad).unwrap();
    // Then `check` fails at that event, naming the rule
    let o = carc(&["check", "bad.jsonl"], dir.path());
    assert!(!o.status.success());
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("bad.jsonl:3: event 2: [river.draw.order] D cannot be drawn now"),
        "{out}"
    );
}
