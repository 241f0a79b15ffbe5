//! `carc puzzles`, run as the real binary: the JSON Lines schema, the page, the errors, and
//! hostile names kept inert. The engine judge runs at 200 iterations (seed 0), where Brandt's
//! turn 8 of the sample game (event 24) is a `?` and Ada has no `?` or `??`.

mod common;
use common::{carc, carc_with_store, logs_dir, stderr, stdout};

const JUDGE: [&str; 6] = ["--nodes", "200", "--seed", "0", "--threads", "2"];

fn sample() -> String {
    logs_dir()
        .join("short-game-rulings.jsonl")
        .to_str()
        .unwrap()
        .to_string()
}

fn puzzles(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["puzzles"];
    all.extend_from_slice(args);
    all.extend_from_slice(&JUDGE);
    carc(&all, dir)
}

#[test]
fn a_mistake_becomes_one_json_line_with_the_position_s_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = sample();
    let o = puzzles(dir.path(), &[&log, "--player", "Brandt"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{out}");
    let p = &lines[0];
    assert_eq!(p["puzzle_format"], 1);
    assert_eq!(p["game"], "short-game-rulings");
    assert_eq!(p["source"], log.as_str());
    assert_eq!(
        (p["event"].as_u64(), p["turn"].as_u64()),
        (Some(24), Some(8))
    );
    assert_eq!(
        (p["seat"].as_u64(), p["player"].as_str()),
        (Some(1), Some("Brandt"))
    );
    assert_eq!(p["tile"], "A");
    assert_eq!(p["mark"], "?");
    assert_eq!(p["judge"], "engine");
    assert_eq!(p["nodes"], 200);
    // The move played is the log's (event 24 places A at (2,0) rotated 90°, no meeple) in the
    // engine's notation and in words; the best move differs and wins more often
    assert_eq!(p["played"]["move"], "2,0 90 none");
    assert_eq!(
        p["played"]["text"],
        "tile A at (2,0) rotated 90°, no meeple"
    );
    assert_ne!(p["best"]["move"], p["played"]["move"]);
    let (won, best) = (
        p["played"]["win"].as_f64().unwrap(),
        p["best"]["win"].as_f64().unwrap(),
    );
    assert!(best > won, "{p}");
    let lost = p["win_lost"].as_f64().unwrap();
    assert!((lost - 100.0 * (best - won)).abs() < 1e-9, "{p}");
    assert!(lost >= 20.0, "a ? loses at least 20 points: {p}");
    assert!(p["loss"].as_f64().unwrap() > 0.0);
    assert_eq!(p["line"][0]["move"], p["best"]["move"]);
    assert_eq!(p["line"][0]["player"], "Brandt");
    assert!(p["moves"].as_u64().unwrap() > 2);
    // The log: the header, then every event before the placement (the draw of A last); as a
    // file it checks clean, in progress
    let log_lines = p["log"].as_array().unwrap();
    assert_eq!(log_lines[0]["format"], "carcassonne-log");
    let last = log_lines.last().unwrap();
    assert_eq!(
        (
            last["seq"].as_u64(),
            last["type"].as_str(),
            last["tile"].as_str()
        ),
        (Some(23), Some("tile_drawn"), Some("A"))
    );
    let text: String = log_lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("position.jsonl"), text).unwrap();
    let o = carc(&["check", "position.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("23 events; in progress"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_stored_game_gives_the_same_puzzles_and_out_writes_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = sample();
    let from_file = puzzles(dir.path(), &[&log, "--player", "Brandt"]);
    assert!(carc_with_store(&store, &["import", &log]).status.success());
    let mut args = vec![
        "puzzles",
        "short-game-rulings",
        "--player",
        "Brandt",
        "--out",
        "both",
    ];
    args.extend_from_slice(&JUDGE);
    let mut with_store = vec!["--store", store.to_str().unwrap()];
    with_store.extend(args);
    let o = carc(&with_store, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let stored = std::fs::read_to_string(dir.path().join("both/puzzles.jsonl")).unwrap();
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s.trim()).unwrap();
        v["source"] = serde_json::Value::Null;
        v
    };
    assert_eq!(strip(&stored), strip(&stdout(&from_file)));
    let page = std::fs::read_to_string(dir.path().join("both/puzzles.html")).unwrap();
    assert!(page.contains("Content-Security-Policy"));
    assert!(page.contains("id=\"carc-data\""));
}

#[test]
fn no_puzzles_is_said_on_stderr_and_the_page_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let log = sample();
    let o = puzzles(dir.path(), &[&log, "--player", "Ada"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("no puzzles"), "{}", stderr(&o));
    let o = puzzles(
        dir.path(),
        &[&log, "--player", "Ada", "--format", "html", "-o", "p.html"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.path().join("p.html")).unwrap();
    assert!(page.contains("No puzzles"), "{page}");
}

#[test]
fn a_player_not_in_the_game_or_in_none_of_the_games_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let log = sample();
    // One game without the player: an error naming the game and its players
    let o = puzzles(dir.path(), &[&log, "--player", "Zed"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "game \"short-game-rulings\" has no player named \"Zed\"; its players are \"Ada\", \"Brandt\""
        ),
        "{}",
        stderr(&o)
    );
    // Two games, the player in neither: an error listing both (the other game: the sample
    // with Cleo and Dan at the table)
    let text = std::fs::read_to_string(&log)
        .unwrap()
        .replacen("\"name\":\"Ada\"", "\"name\":\"Cleo\"", 1)
        .replacen("\"name\":\"Brandt\"", "\"name\":\"Dan\"", 1);
    std::fs::write(dir.path().join("other.jsonl"), text).unwrap();
    let other = "other.jsonl";
    let o = puzzles(dir.path(), &[&log, other, "--player", "Zed"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("no game given has a player named \"Zed\""),
        "{err}"
    );
    assert!(err.contains("\"Cleo\""), "{err}");
    // Two games, the player in one: the other is passed over, and said so
    let o = puzzles(dir.path(), &[&log, other, "--player", "Ada"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("other.jsonl: game \"short-game-rulings\" has no player named \"Ada\"; its players are \"Cleo\", \"Dan\"; passed over"),
        "{err}"
    );
    assert!(err.contains("in 1 judged game(s)"), "{err}");
}

#[test]
fn hostile_names_stay_data_in_the_page_and_escaped_on_the_terminal() {
    // Given the sample game with markup and a bidi override in Brandt's name and the game id
    let dir = tempfile::tempdir().unwrap();
    let name = "Bo\u{202e}</script><img src=x onerror=alert(1)>";
    let text = std::fs::read_to_string(sample())
        .unwrap()
        .replacen(
            "\"name\":\"Brandt\"",
            &format!("\"name\":{}", serde_json::json!(name)),
            1,
        )
        .replacen(
            "\"game\":\"short-game-rulings\"",
            "\"game\":\"g</script><b id=x>\"",
            1,
        );
    std::fs::write(dir.path().join("h.jsonl"), text).unwrap();
    // Then the JSON line holds the name as it is
    let o = puzzles(dir.path(), &["h.jsonl", "--player", name]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(p["player"], name);
    // And the page holds no markup from the log: the script element is never closed early
    let o = puzzles(
        dir.path(),
        &[
            "h.jsonl", "--player", name, "--format", "html", "-o", "h.html",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(dir.path().join("h.html")).unwrap();
    assert!(!page.contains("<img"), "an img tag reached the page");
    assert!(!page.contains("<b id=x>"));
    assert!(!page.contains('\u{202e}'));
    assert_eq!(page.matches("</script>").count(), 2);
    // And an error names them escaped on the terminal
    let o = puzzles(dir.path(), &["h.jsonl", "--player", "Zed"]);
    assert!(!stderr(&o).contains('\u{202e}'), "{}", stderr(&o));
    assert!(stderr(&o).contains("\\u{202e}"), "{}", stderr(&o));
}
