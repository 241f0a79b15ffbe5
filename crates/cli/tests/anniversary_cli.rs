//! `carc` with the 20th Anniversary expansion: simulate with `--expansions`, `tiles check`,
//! a corrected tile-set file loaded with `--tiles`, and explain/legal on arrow events.

mod common;
use common::{carc, logs_dir, stderr, stdout};

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn anniversary_json() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/data/anniversary.json")
}

const SAMPLE_2P: &str = "sim-2p-anniversary-greedy.jsonl";

#[test]
fn simulate_with_the_expansion_names_it_and_checks_clean_and_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    for out in ["a.jsonl", "b.jsonl"] {
        let o = carc(
            &[
                "simulate",
                "--expansions",
                "anniversary",
                "--seed",
                "5",
                "--players",
                "3",
                "--out",
                out,
            ],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let a = std::fs::read_to_string(dir.path().join("a.jsonl")).unwrap();
    assert_eq!(
        a,
        std::fs::read_to_string(dir.path().join("b.jsonl")).unwrap()
    );
    let header: Value = serde_json::from_str(a.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["rules"]["expansions"],
        serde_json::json!(["anniversary"])
    );
    assert_eq!(
        header["tile_sets"],
        serde_json::json!(["base", "anniversary"])
    );
    let o = carc(&["check", "--json", "a.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stdout(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["finished"], true);
}

#[test]
fn an_unknown_expansion_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "simulate",
            "--expansions",
            "anniversary,map",
            "--out",
            "g.jsonl",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown expansion \"map\"; supported: anniversary, gifts, abbot"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("g.jsonl").exists());
}

#[test]
fn tiles_check_summarises_a_valid_file_and_names_the_problem_in_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = anniversary_json();
    let o = carc(&["tiles", "check", file.to_str().unwrap()], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("ok, tile set \"anniversary\" (replaces the built-in set \"anniversary\" when passed with --tiles): 15 tile types, 15 tiles; arrows: 5 companion, 5 portal, 5 extra turn"),
        "{text}"
    );
    let bad = std::fs::read_to_string(&file).unwrap().replace(
        r#""symbol": "portal", "side": "N""#,
        r#""symbol": "portal", "side": "up""#,
    );
    std::fs::write(dir.path().join("bad.json"), bad).unwrap();
    let o = carc(&["tiles", "check", "bad.json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o).trim(),
        "bad.json: invalid: tile set: tile 20F: arrow side \"up\" is not a side; expected N, E, S or W"
    );
}

#[test]
fn a_corrected_tile_set_loaded_with_tiles_replaces_the_built_in_one() {
    // Given a "corrected" anniversary file in which every arrow is an extra-turn arrow
    let dir = tempfile::tempdir().unwrap();
    let corrected = std::fs::read_to_string(anniversary_json())
        .unwrap()
        .replace("\"symbol\": \"companion\"", "\"symbol\": \"extra_turn\"")
        .replace("\"symbol\": \"portal\"", "\"symbol\": \"extra_turn\"");
    std::fs::write(dir.path().join("corrected.json"), corrected).unwrap();
    let sample = logs_dir().join(SAMPLE_2P);
    let sample = sample.to_str().unwrap();
    // Then the sample log, played with companions and portals, no longer replays with it …
    let o = carc(&["--tiles", "corrected.json", "check", sample], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("[anniversary."), "{}", stdout(&o));
    // … and a game simulated with it replays with it
    let o = carc(
        &[
            "--tiles",
            "corrected.json",
            "simulate",
            "--expansions",
            "anniversary",
            "--out",
            "g.jsonl",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = carc(
        &["--tiles", "corrected.json", "check", "g.jsonl"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stdout(&o));
    let log = std::fs::read_to_string(dir.path().join("g.jsonl")).unwrap();
    assert!(!log.contains("arrow_meeple_placed"));
}

/// The seq of the first event of `kind` in the 2-player sample.
fn first_seq(kind: &str) -> u64 {
    let text = std::fs::read_to_string(logs_dir().join(SAMPLE_2P)).unwrap();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == kind && v["seq"].is_u64())
        .and_then(|v| v["seq"].as_u64())
        .expect("the sample has the event")
}

#[test]
fn explain_and_legal_show_the_arrow_choice_and_remote_meeples() {
    let chosen = first_seq("arrow_chosen");
    let before = (chosen - 1).to_string();
    let o = carc(&["legal", SAMPLE_2P, "--at", &before], &logs_dir());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("activates 2 arrows;") && stdout(&o).contains("chooses one:"),
        "{}",
        stdout(&o)
    );
    let o = carc(
        &["explain", SAMPLE_2P, "--at", &chosen.to_string()],
        &logs_dir(),
    );
    let text = stdout(&o);
    assert!(text.contains("chose to activate the"), "{text}");
    assert!(text.contains("arrows (20th Anniversary):"), "{text}");
    assert!(text.contains("[anniversary.arrow.one-per-turn]"), "{text}");

    let sent = first_seq("arrow_meeple_placed");
    let o = carc(
        &["explain", SAMPLE_2P, "--at", &sent.to_string(), "--json"],
        &logs_dir(),
    );
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["legal"], true);
    let arrows = v["arrows"].as_array().unwrap();
    assert!(
        arrows
            .iter()
            .any(|a| a.as_str().unwrap().contains("companion meeple joins")
                || a.as_str().unwrap().contains("through the portal")),
        "{arrows:?}"
    );
    let o = carc(
        &[
            "legal",
            SAMPLE_2P,
            "--at",
            &(sent - 1).to_string(),
            "--json",
        ],
        &logs_dir(),
    );
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["step"], "meeple");
    assert!(v["arrow_action"].is_string());
    assert!(!v["arrow_meeple_on"].as_array().unwrap().is_empty());
}

#[test]
fn explain_shows_the_two_points_of_an_arrow_pointing_at_no_tile() {
    let text = std::fs::read_to_string(logs_dir().join(SAMPLE_2P)).unwrap();
    // Find a placement whose explanation carries the arrow score.
    let placements: Vec<u64> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "tile_placed" && v["tile"].as_str().unwrap().starts_with("20"))
        .filter_map(|v| v["seq"].as_u64())
        .collect();
    let found = placements.iter().find_map(|seq| {
        let o = carc(
            &["explain", SAMPLE_2P, "--at", &seq.to_string()],
            &logs_dir(),
        );
        let out = stdout(&o);
        out.contains("[anniversary.arrow.no-tile]").then_some(out)
    });
    let out = found.expect("some arrow of the sample points at no tile");
    assert!(out.contains("arrow points at no tile: +2"), "{out}");
    assert!(out.contains("scores 2"), "{out}");
}

#[test]
fn record_enters_arrow_choices_and_arrow_meeples_move_by_move() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let store = store.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["--store", store, "record"];
        all.extend_from_slice(args);
        let o = Command::new(env!("CARGO_BIN_EXE_carc"))
            .env_remove("CARC_STORE")
            .args(&all)
            .current_dir(dir.path())
            .output()
            .expect("carc runs");
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    run(&[
        "new",
        "g",
        "--players",
        "Ada,Bo",
        "--expansions",
        "anniversary",
    ]);
    run(&["draw", "g", "20H"]);
    run(&["place", "g", "0", "-1", "0"]);
    run(&["meeple", "g", "none"]);
    run(&["draw", "g", "20O"]);
    let hint = run(&["place", "g", "1", "-1", "180"]);
    assert!(hint.contains("chooses one arrow to activate"), "{hint}");
    let hint = run(&["arrow", "g", "0", "-1"]);
    assert!(hint.contains("through the portal arrow"), "{hint}");
    run(&["arrow-meeple", "g", "portal", "0", "0", "city N"]);
    let o = Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .args(["--store", store, "export", "g", "--out", "g.jsonl"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let log = std::fs::read_to_string(dir.path().join("g.jsonl")).unwrap();
    assert!(
        log.contains(r#"{"seq":7,"type":"arrow_chosen","player":1,"at":[0,-1],"symbol":"portal"}"#),
        "{log}"
    );
    assert!(log.contains(
        r#"{"seq":8,"type":"arrow_meeple_placed","player":1,"action":"portal","at":[0,0],"on":"city N"}"#
    ));
    let o = carc(&["check", "g.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("Ada 2, Bo 0"), "{}", stdout(&o));
}
