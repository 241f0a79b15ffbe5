//! `carc` with Carcassonne Maps: simulate with `--map germany`, `map check`, a corrected map
//! file loaded with `--map FILE`, explain naming the map rules, and the sample logs.

mod common;
use common::{carc, game_id, logs_dir, stderr, stdout};

use std::path::{Path, PathBuf};

use serde_json::Value;

fn germany_json() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/data/germany.json")
}

#[test]
fn simulate_on_the_map_names_it_in_the_header_checks_clean_and_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    for out in ["a.jsonl", "b.jsonl"] {
        let o = carc(
            &[
                "simulate",
                "--map",
                "germany",
                "--start-squares",
                "3",
                "--town-variants",
                "road_bonus",
                "--seed",
                "4",
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
        header["rules"]["map"],
        serde_json::json!({"name": "germany", "start_squares": 3, "town_variants": ["road_bonus"]})
    );
    assert_eq!(header["rules"]["meeples"], 9);
    // Three start tiles, then the first draw.
    let kinds: Vec<String> = a
        .lines()
        .skip(1)
        .take(4)
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["type"].to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "\"start_placed\"",
            "\"start_placed\"",
            "\"start_placed\"",
            "\"tile_drawn\""
        ]
    );
    let o = carc(&["check", "a.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn map_options_without_a_map_and_unknown_maps_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &["simulate", "--town-variants", "cost", "--out", "x.jsonl"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--map germany"), "{}", stderr(&o));
    let o = carc(
        &["simulate", "--map", "atlantis", "--out", "x.jsonl"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a built-in map"), "{}", stderr(&o));
}

#[test]
fn map_check_summarises_a_valid_file_and_names_the_problem_in_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &["map", "check", germany_json().to_str().unwrap()],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("123 playable squares")
            && text.contains("Rostock")
            && text.contains("Berlin"),
        "{text}"
    );
    let bad = std::fs::read_to_string(germany_json())
        .unwrap()
        .replace("\"at\": [3, 6]", "\"at\": [3, 9]");
    std::fs::write(dir.path().join("bad.json"), bad).unwrap();
    let o = carc(&["map", "check", "bad.json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("start square Rostock at (3,9) is not on a playable square"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_corrected_map_loaded_with_map_file_replaces_the_built_in_one() {
    let dir = tempfile::tempdir().unwrap();
    // A "corrected" Germany whose Erfurt start square lies one square further north.
    let corrected = std::fs::read_to_string(germany_json()).unwrap().replace(
        r#"{"name": "Erfurt", "at": [0, 0]}"#,
        r#"{"name": "Erfurt", "at": [0, 1]}"#,
    );
    std::fs::write(dir.path().join("germany.json"), corrected).unwrap();
    let o = carc(
        &[
            "--map",
            "germany.json",
            "simulate",
            "--start-squares",
            "3",
            "--seed",
            "2",
            "--out",
            "g.jsonl",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = carc(&["--map", "germany.json", "check", "g.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stdout(&o));
    // Without the file the built-in map applies, where (0,1) is no start square.
    let o = carc(&["check", "g.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("maps.setup.start-squares"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_map_sample_logs_check_and_explain_names_the_border() {
    let dir = logs_dir();
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("germany"))
        .collect();
    assert!(files.len() >= 3, "{files:?}");
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let o = carc(&args, &dir);
    assert!(o.status.success(), "{}", stdout(&o));
    // Some event of the 2-player sample ends a road or city at the border; explain says so.
    let log = "sim-2p-germany-greedy-vs-random.jsonl";
    let mut found = false;
    for n in 1..212 {
        let o = carc(&["explain", log, "--at", &n.to_string()], &dir);
        let text = stdout(&o);
        if text.contains("at the border toward") && text.contains("maps.border") {
            found = true;
            break;
        }
    }
    assert!(found, "no explanation names the border");
    // JCloisterZone cannot hold a game on a map: export refuses it.
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("st");
    let store = store.to_str().unwrap();
    let o = carc(
        &["--store", store, "import", dir.join(log).to_str().unwrap()],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = carc(
        &[
            "--store",
            store,
            "export",
            &game_id(&dir.join(log)),
            "--format",
            "jcz",
            "--out",
            "x.jcz",
        ],
        tmp.path(),
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("map board"), "{}", stderr(&o));
}

#[test]
fn legal_before_the_first_turn_lists_the_free_start_squares() {
    let dir = logs_dir();
    let o = carc(
        &[
            "legal",
            "sim-2p-germany-greedy-vs-random.jsonl",
            "--at",
            "1",
            "--json",
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["step"], "start");
    assert_eq!(v["map"], "germany");
    // Event 1 put the start tile on Stuttgart: Rostock and Erfurt remain.
    let names: Vec<&str> = v["start_squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Rostock", "Erfurt"]);
}
