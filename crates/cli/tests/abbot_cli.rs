//! `carc` with The Abbot: simulate with `--expansions abbot` (alone and with the others),
//! `legal` and `explain` on abbot events, and `record` entering abbot moves.

mod common;
use common::{carc, logs_dir, stderr, stdout};

use std::process::Command;

use serde_json::Value;

const SAMPLE: &str = "sim-3p-abbot-mixed.jsonl";

#[test]
fn simulate_with_the_abbot_alone_and_with_every_other_expansion_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    for (expansions, out) in [
        ("abbot", "a.jsonl"),
        ("anniversary,gifts,abbot", "all.jsonl"),
    ] {
        let o = carc(
            &[
                "simulate",
                "--expansions",
                expansions,
                "--seed",
                "3",
                "--players",
                "3",
                "--out",
                out,
            ],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let log = std::fs::read_to_string(dir.path().join(out)).unwrap();
        assert!(log.contains(r#""type":"abbot_placed""#), "{expansions}");
        // The garden copies are tiles of their own in the log
        assert!(log.contains(r#"+garden""#), "{expansions}");
        let o = carc(&["check", out], dir.path());
        assert!(o.status.success(), "{}", stdout(&o));
    }
}

#[test]
fn legal_lists_the_abbot_and_explain_scores_the_garden() {
    // Given the sample game, where Cleo puts the abbot on a garden the tile completes (event 154)
    let o = carc(&["legal", SAMPLE, "--at", "153"], &logs_dir());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("or the abbot on the garden at (-1,-1)"),
        "{}",
        stdout(&o)
    );
    let o = carc(&["legal", SAMPLE, "--at", "153", "--json"], &logs_dir());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["abbot"][0]["place"]["on"], "garden");
    // When the event is explained
    let o = carc(&["explain", SAMPLE, "--at", "154"], &logs_dir());
    let text = stdout(&o);
    // Then the garden scores 9 and the abbot goes home
    assert!(
        text.contains(
            "1 for the garden + 8 surrounding tiles = 9; Cleo +9  [abbot.score.garden.completed]"
        ),
        "{text}"
    );
    assert!(
        text.contains("abbot returned: Cleo from garden at (-1,-1)"),
        "{text}"
    );
}

#[test]
fn analyze_counts_abbot_points_apart() {
    let o = carc(&["analyze", SAMPLE, "--json"], &logs_dir());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let text = v.to_string();
    assert!(text.contains(r#""abbot":"#), "{text}");
}

#[test]
fn record_enters_the_abbot_and_takes_it_back() {
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
    // Given a recorded game with the abbot: Ada puts her abbot on B south of D
    run(&["new", "g", "--players", "Ada,Bo", "--expansions", "abbot"]);
    run(&["draw", "g", "B"]);
    let hint = run(&["place", "g", "0", "-1", "0"]);
    assert!(
        hint.contains("or the abbot on the monastery at (0,-1): carc record meeple g abbot"),
        "{hint}"
    );
    run(&["abbot", "g", "0", "-1", "monastery"]);
    run(&["turn", "g", "U", "1", "0", "90", "none"]);
    // When Ada takes it back after placing U west of D
    run(&["draw", "g", "U"]);
    let hint = run(&["place", "g", "-1", "0", "90"]);
    assert!(hint.contains("carc record meeple g abbot-back"), "{hint}");
    run(&["abbot-back", "g"]);
    // Then the log holds both abbot events and Ada scored 1 + 3 neighbours
    let o = Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .args(["--store", store, "export", "g", "--out", "g.jsonl"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let log = std::fs::read_to_string(dir.path().join("g.jsonl")).unwrap();
    assert!(
        log.contains(r#"{"seq":4,"type":"abbot_placed","player":0,"at":[0,-1],"on":"monastery"}"#),
        "{log}"
    );
    assert!(
        log.contains(r#"{"seq":10,"type":"abbot_taken_back","player":0,"at":[0,-1]}"#),
        "{log}"
    );
    assert!(log.contains(r#""tile_sets":["base"]"#), "{log}");
    let o = carc(&["check", "g.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("Ada 4, Bo 0"), "{}", stdout(&o));
}
