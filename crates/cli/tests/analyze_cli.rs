//! `carc analyze`, run as the real binary: one game (file or stored) and a folder.

mod common;
use common::{carc_with_store, logs_dir, stderr, stdout};

#[test]
fn one_game_in_words_and_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = logs_dir().join("short-game-rulings.jsonl");
    let log = log.to_str().unwrap();
    let o = carc_with_store(&store, &["analyze", log]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("game short-game-rulings: 34 events, finished; won by Ada\n"),
        "{out}"
    );
    assert!(
        out.contains("Ada: 20 points (city 8, field 3, monastery 9)"),
        "{out}"
    );
    assert!(
        out.contains("event  34  lead change: Ada takes the lead (20 points, 9 ahead)"),
        "{out}"
    );
    let o = carc_with_store(&store, &["analyze", log, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["winners"], serde_json::json!(["Ada"]));
    assert_eq!(v["players"][1]["points_by_source"]["city"], 8);
    assert_eq!(v["players"][0]["meeples_placed"], 3);
    // The same game from the store
    assert!(carc_with_store(&store, &["import", log]).status.success());
    let o = carc_with_store(&store, &["analyze", "short-game-rulings", "--json"]);
    let stored: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(stored, v);
}

#[test]
fn a_folder_is_aggregated_and_an_unreadable_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    for name in ["short-game-rulings.jsonl", "sim-3p-greedy.jsonl"] {
        std::fs::copy(logs_dir().join(name), games.join(name)).unwrap();
    }
    std::fs::write(games.join("broken.jsonl"), "not a log\n").unwrap();
    // An annotation file beside a log is not a game: passed over, not unreadable
    std::fs::write(
        games.join("sim-3p-greedy.jsonl.annotations.jsonl"),
        "{\"game\":\"x\",\"seq\":1,\"glyph\":\"!\",\"text\":\"\"}\n",
    )
    .unwrap();
    let o = carc_with_store(
        &dir.path().join("store"),
        &["analyze", games.to_str().unwrap(), "--json"],
    );
    assert_eq!(o.status.code(), Some(1), "an unreadable file fails the run");
    assert!(
        stderr(&o).contains("broken.jsonl: cannot be analysed"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["finished"], 2);
    assert_eq!(v["unreadable"].as_array().unwrap().len(), 1);
    assert_eq!(v["seats"].as_array().unwrap().len(), 3);
    assert_eq!(v["seats"][0]["games"], 2);
    assert_eq!(v["scores"]["count"], 5);
}
