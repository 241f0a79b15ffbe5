//! The Gifts through the CLI: simulate with gifts alone and with the anniversary, check, and
//! the point-of-view option of explain.

mod common;
use common::{carc, logs_dir, stderr, stdout};

use std::path::Path;

use serde_json::Value;

#[test]
fn simulate_with_anniversary_and_gifts_checks_clean_and_explain_hides_other_hands() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "simulate",
            "--seed",
            "4",
            "--players",
            "3",
            "--strategy",
            "greedy,random,random",
            "--expansions",
            "anniversary,gifts",
            "--out",
            "g.jsonl",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.path().join("g.jsonl")).unwrap();
    assert!(text
        .lines()
        .next()
        .unwrap()
        .contains(r#""expansions":["anniversary","gifts"]"#));
    let o = carc(&["check", "g.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // The first gift received, seen by another seat, is face down; by its owner, face up.
    let (seq, player) = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "gift_received")
        .map(|v| (v["seq"].as_u64().unwrap(), v["player"].as_u64().unwrap()))
        .expect("a gift received");
    let other = ((player + 1) % 3).to_string();
    let seq = seq.to_string();
    let hidden = stdout(&carc(
        &["explain", "g.jsonl", "--at", &seq, "--as", &other],
        dir.path(),
    ));
    assert!(
        hidden.contains("received a gift card (face down)"),
        "{hidden}"
    );
    let own = stdout(&carc(
        &[
            "explain",
            "g.jsonl",
            "--at",
            &seq,
            "--as",
            &player.to_string(),
        ],
        dir.path(),
    ));
    assert!(own.contains("received a gift: "), "{own}");
    assert!(own.contains("[gifts.deck]"), "{own}");
}

#[test]
fn the_gifts_sample_logs_check() {
    for name in [
        "sim-3p-anniversary-gifts-mixed.jsonl",
        "sim-5p-anniversary-gifts-mixed.jsonl",
    ] {
        let path = logs_dir().join(name);
        let o = carc(&["check", path.to_str().unwrap()], Path::new("."));
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    }
}

#[test]
fn legal_lists_the_gift_actions_before_the_placement_and_they_include_the_one_opened() {
    let path = logs_dir().join("sim-5p-anniversary-gifts-mixed.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    for opened in text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "gift_opened")
        .take(5)
    {
        // The event before an opening is the draw: the place step, gifts listed.
        let before = (opened["seq"].as_u64().unwrap() - 1).to_string();
        let o = carc(
            &["legal", path.to_str().unwrap(), "--at", &before, "--json"],
            Path::new("."),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["step"], "place");
        let listed = v["gifts"].as_array().expect("gift actions listed");
        let same = |g: &&Value| {
            g["card"] == opened["card"]
                && g.get("at") == opened.get("at")
                && g.get("on") == opened.get("on")
                && g.get("to") == opened.get("to")
        };
        assert!(
            listed.iter().any(|g| same(&g)),
            "{opened} not in {listed:?}"
        );
    }
}
