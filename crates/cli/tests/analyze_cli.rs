//! `carc analyze`, run as the real binary: one game (file or stored) and a folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn logs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs")
}

fn carc(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carc"))
        .env_remove("CARC_STORE")
        .arg("--store")
        .arg(store)
        .args(args)
        .output()
        .expect("run carc")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn one_game_in_words_and_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = logs().join("short-game-rulings.jsonl");
    let log = log.to_str().unwrap();
    let o = carc(&store, &["analyze", log]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
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
    let o = carc(&store, &["analyze", log, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["winners"], serde_json::json!(["Ada"]));
    assert_eq!(v["players"][1]["points_by_source"]["city"], 8);
    assert_eq!(v["players"][0]["meeples_placed"], 3);
    // The same game from the store
    assert!(carc(&store, &["import", log]).status.success());
    let o = carc(&store, &["analyze", "short-game-rulings", "--json"]);
    let stored: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(stored, v);
}

#[test]
fn a_folder_is_aggregated_and_an_unreadable_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    for name in ["short-game-rulings.jsonl", "sim-3p-greedy.jsonl"] {
        std::fs::copy(logs().join(name), games.join(name)).unwrap();
    }
    std::fs::write(games.join("broken.jsonl"), "not a log\n").unwrap();
    // An annotation file beside a log is not a game: passed over, not unreadable
    std::fs::write(
        games.join("sim-3p-greedy.jsonl.annotations.jsonl"),
        "{\"game\":\"x\",\"seq\":1,\"glyph\":\"!\",\"text\":\"\"}\n",
    )
    .unwrap();
    let o = carc(
        &dir.path().join("store"),
        &["analyze", games.to_str().unwrap(), "--json"],
    );
    assert_eq!(o.status.code(), Some(1), "an unreadable file fails the run");
    assert!(
        text(&o.stderr).contains("broken.jsonl: cannot be analysed"),
        "{}",
        text(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["finished"], 2);
    assert_eq!(v["unreadable"].as_array().unwrap().len(), 1);
    assert_eq!(v["seats"].as_array().unwrap().len(), 3);
    assert_eq!(v["seats"][0]["games"], 2);
    assert_eq!(v["scores"]["count"], 5);
}
