//! Board Game Arena replays through the `carc` binary: the four real games of the corpus check
//! clean with every one of BGA's scoring claims verified, import into the store, explain,
//! analyze and export (our log, Markdown, HTML, JCloisterZone); a claim our rules contradict is
//! shown with both numbers, the feature and the event; a replay in another language reads the
//! same; a broken one says where.

mod common;
use common::{stderr, stdout};

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// The corpus's games with BGA's own final scores (its README).
const GAMES: [(&str, [u32; 2]); 4] = [
    ("366166200", [96, 70]),
    ("367163108", [85, 89]),
    ("368679629", [94, 91]),
    ("369577999", [96, 103]),
];

fn corpus() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bga");
    assert!(
        dir.is_dir(),
        "the Board Game Arena corpus is missing: expected {} (shared/ beside the repository)",
        dir.display()
    );
    dir
}

fn file(table: &str) -> String {
    corpus().join(format!("{table}.json")).display().to_string()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bga/tests/fixtures")
        .join(name)
}

fn carc(dir: &Path, args: &[&str]) -> Output {
    common::carc(args, dir)
}

#[test]
fn the_corpus_games_check_clean_with_every_scoring_claim_verified() {
    let dir = tempfile::tempdir().unwrap();
    for (table, scores) in GAMES {
        // Given a real BGA game, when it is checked
        let o = carc(dir.path(), &["check", "--json", &file(table)]);
        // Then it is legal, finished, and BGA's scores are ours
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(report["ok"], true, "{report}");
        assert_eq!(report["finished"], true, "{report}");
        let finals: Vec<u64> = report["final_scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["score"].as_u64().unwrap())
            .collect();
        let mut want: Vec<u64> = scores.iter().map(|&s| s as u64).collect();
        let mut got = finals.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{table}");
    }
    // And the claims really are in the imported log: our log written out holds them
    let o = carc(
        dir.path(),
        &["export", &file(GAMES[0].0), "--out", "g.jsonl"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let log = std::fs::read_to_string(dir.path().join("g.jsonl")).unwrap();
    assert!(log.matches("\"type\":\"expect_points\"").count() > 20);
    assert_eq!(log.matches("\"type\":\"expect_final_scores\"").count(), 1);
    assert!(
        log.contains("table 366166200"),
        "the source is kept in the header"
    );
}

#[test]
fn a_bga_game_imports_explains_analyzes_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let folder = corpus().display().to_string();
    // Given the corpus imported into a store (a folder's .json files are read too)
    let o = carc(dir.path(), &["--store", "st", "import", &folder]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).starts_with("imported 4,"), "{}", stdout(&o));
    let o = carc(dir.path(), &["--store", "st", "games"]);
    assert!(stdout(&o).contains("bga-366166200"), "{}", stdout(&o));
    // When a stored game is explained at its last scoring, analyzed and exported
    let o = carc(
        dir.path(),
        &["--store", "st", "explain", "bga-366166200", "--at", "40"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("event 40"), "{}", stdout(&o));
    let o = carc(dir.path(), &["analyze", "--json", &file("366166200")]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (format, out) in [("md", "g.md"), ("html", "g.html"), ("jcz", "g.jcz")] {
        let o = carc(
            dir.path(),
            &[
                "--store",
                "st",
                "export",
                "bga-366166200",
                "--format",
                format,
                "--out",
                out,
            ],
        );
        assert!(o.status.success(), "{format}: {}", stderr(&o));
    }
    // Then the reports name BGA's players and the JCloisterZone file reads back to the same end
    let md = std::fs::read_to_string(dir.path().join("g.md")).unwrap();
    assert!(md.contains("KokiYamaguchi") && md.contains("Kithara"));
    let html = std::fs::read_to_string(dir.path().join("g.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("Kithara"));
    let o = carc(dir.path(), &["check", "g.jcz"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("final scores"), "{}", stdout(&o));
}

#[test]
fn a_claim_our_rules_contradict_shows_both_numbers_the_feature_and_the_event() {
    // Given a replay whose first city scoring is claimed one point higher than it is
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("short.json")).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let win = doc["data"]["data"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|p| p["data"].as_array_mut().unwrap().iter_mut())
        .find(|n| n["type"] == "winPoints")
        .expect("the fixture scores something");
    let points = win["args"]["points"].as_u64().unwrap_or_else(|| {
        win["args"]["points"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap()
    });
    win["args"]["points"] = Value::from(points + 1);
    std::fs::write(dir.path().join("t.json"), doc.to_string()).unwrap();
    // When it is checked
    let o = carc(dir.path(), &["check", "t.json"]);
    // Then it fails, naming the claim, both numbers, the feature kind and the event
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "expect_points claims {} points, but the fold gives",
            points + 1
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("{points} points, not {}", points + 1)),
        "{out}"
    );
    assert!(out.contains(" features in event "), "{out}");
    // And the JSON report counts the claims compared and the ones that agreed: one did not
    let o = carc(dir.path(), &["check", "--json", "t.json"]);
    let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let checked = report["bga_claims"]["checked"].as_u64().expect("a count");
    assert!(checked > 1, "{report}");
    assert_eq!(report["bga_claims"]["agreed"], checked - 1, "{report}");
}

/// The claims of the corpus's games as `carc check` counts them: each game's assertions,
/// 173 in all (docs/bga.md, "What the conformance test found").
const CLAIMS: [(&str, u64); 4] = [
    ("366166200", 38),
    ("367163108", 43),
    ("368679629", 45),
    ("369577999", 47),
];

#[test]
fn check_says_how_many_of_bgas_score_claims_it_compared_and_that_they_agree() {
    let dir = tempfile::tempdir().unwrap();
    for (table, claims) in CLAIMS {
        // Given a real BGA game, when it is checked
        let o = carc(dir.path(), &["check", &file(table)]);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        // Then the line says BGA's claims were checked, how many, and that all agree
        let line = stdout(&o);
        assert!(
            line.trim_end().ends_with(&format!(
                "; Board Game Arena's {claims} score claims checked: all agree"
            )),
            "{line}"
        );
        // And the JSON report has the count as a field
        let o = carc(dir.path(), &["check", "--json", &file(table)]);
        let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(
            report["bga_claims"],
            serde_json::json!({"checked": claims, "agreed": claims}),
            "{report}"
        );
    }
    assert_eq!(CLAIMS.iter().map(|(_, n)| n).sum::<u64>(), 173);
    // And a log that is not from BGA says nothing of claims
    let o = carc(
        dir.path(),
        &[
            "check",
            "--json",
            &common::logs_dir()
                .join("short-game-rulings.jsonl")
                .display()
                .to_string(),
        ],
    );
    let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(report.get("bga_claims").is_none(), "{report}");
}

#[test]
fn a_translated_replay_reads_the_same_and_an_abandoned_one_is_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let show = |name: &str| {
        let o = carc(
            dir.path(),
            &["check", "--json", &fixture(name).display().to_string()],
        );
        assert!(o.status.success(), "{name}: {}{}", stdout(&o), stderr(&o));
        let mut v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["file"] = Value::Null;
        v
    };
    let english = show("abandoned.json");
    assert_eq!(english["finished"], false, "{english}");
    assert_eq!(
        show("abandoned-translated.json")["events"],
        english["events"]
    );
}

#[test]
fn a_broken_or_unsupported_replay_says_where_and_what() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("short.json")).unwrap();
    // Given a replay cut in the middle, and one with a tile type of another expansion
    std::fs::write(dir.path().join("cut.json"), &text[..text.len() / 2]).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    let play = doc["data"]["data"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|p| p["data"].as_array_mut().unwrap().iter_mut())
        .find(|n| n["type"] == "playTile")
        .unwrap();
    play["args"]["type"] = Value::from("999");
    std::fs::write(dir.path().join("other.json"), doc.to_string()).unwrap();
    // When they are checked
    let o = carc(dir.path(), &["check", "--json", "cut.json", "other.json"]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Then the cut one is a BGA format error with its line and column
    assert_eq!(lines[0]["error"]["rule"], "bga.format", "{}", lines[0]);
    assert!(lines[0]["error"]["line"].as_u64().unwrap() >= 1);
    assert!(
        lines[0]["error"]["column"].as_u64().is_some(),
        "{}",
        lines[0]
    );
    // And the other names what is unsupported
    assert_eq!(lines[1]["error"]["rule"], "bga.unsupported", "{}", lines[1]);
    assert!(
        lines[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("999"),
        "{}",
        lines[1]
    );
    // And the store is unchanged by a rejected import
    let o = carc(dir.path(), &["--store", "st", "import", "other.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let o = carc(dir.path(), &["--store", "st", "games"]);
    assert!(!stdout(&o).contains("bga-"), "{}", stdout(&o));
}

#[test]
fn a_scoring_disagreement_points_at_the_notification_in_the_replay() {
    // Given the short fixture, one notification to a line, with BGA's points for the city
    // of packet 3 changed from 4 to 5
    let mut v: Value =
        serde_json::from_slice(&std::fs::read(fixture("short.json")).unwrap()).unwrap();
    let claim = &mut v["data"]["data"][3]["data"][4];
    claim["args"]["points"] = serde_json::json!(5);
    claim["args"]["score"] = serde_json::json!("5");
    let claim_text = claim.to_string();
    let mut text = String::from("{\"status\":1,\"data\":{\"valid\":1,\"data\":[\n");
    let packets = v["data"]["data"].as_array().unwrap();
    for (i, packet) in packets.iter().enumerate() {
        let mut head = packet.clone();
        let notes = head.as_object_mut().unwrap().remove("data").unwrap();
        let head = head.to_string();
        text.push_str(&head[..head.len() - 1]);
        text.push_str(",\"data\":[\n");
        let notes: Vec<String> = notes
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect();
        text.push_str(&notes.join(",\n"));
        text.push_str(if i + 1 < packets.len() {
            "\n]},\n"
        } else {
            "\n]}\n"
        });
    }
    text.push_str("]}}\n");
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with(&claim_text))
        .expect("the claim on a line of its own");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("claim.json"), &text).unwrap();

    // When it is checked
    let o = carc(dir.path(), &["check", "claim.json"]);
    // Then the disagreement is shown at the notification's line of the replay, with its path
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let said = stdout(&o);
    assert!(
        said.starts_with(&format!(
            "claim.json:{line}:1: [log.assertion] expect_points claims 5 points"
        )),
        "{said}"
    );
    assert!(said.contains("(stated at data.data[3].data[4])"), "{said}");
    // And `--json` says the same line, column and path
    let o = carc(dir.path(), &["check", "--json", "claim.json"]);
    let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(report["error"]["line"], line, "{report}");
    assert_eq!(report["error"]["column"], 1, "{report}");
    assert_eq!(report["error"]["path"], "data.data[3].data[4]", "{report}");

    // When it is imported, the rejection names the same line
    let o = carc(dir.path(), &["--store", "st", "import", "claim.json"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains(&format!(
            "rejected claim.json:{line}: expect_points claims 5"
        )),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("(stated at data.data[3].data[4], column 1)"),
        "{}",
        stdout(&o)
    );
}
