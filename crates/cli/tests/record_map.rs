//! `carc record` on a map board (issue 36, maps): `carc --map germany record new` writes the
//! header `carc simulate --map germany` writes (start squares, town variants, 9 meeples) and
//! no start tile; `record start` places one tile per start square in use; the Germany sample
//! game piped through the record shell, event for event, is the sample. And the arrow verbs
//! take the words the shell's completion offers (`arrow-meeple portal X Y city-N`): the 20th
//! Anniversary sample entered in them is the sample.

mod common;

use std::path::Path;

use common::{carc_with_store, record_shell as shell, stderr, stdout};

const SAMPLE: &str = "sim-2p-germany-greedy-vs-random.jsonl";

fn sample_lines() -> Vec<String> {
    lines_of(SAMPLE)
}

fn lines_of(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap()
}

/// `carc --store STORE ARGS…` that must succeed; its stdout.
fn ok(store: &Path, args: &[&str]) -> String {
    let o = carc_with_store(store, args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// The record shell's line for one event of a log (as a player types it at the table).
fn shell_line(event: &serde_json::Value) -> String {
    let s = |k: &str| event[k].as_str().unwrap().to_string();
    let at = |k: &str| format!("{} {}", event[k][0], event[k][1]);
    match event["type"].as_str().unwrap() {
        "start_placed" => format!("start {} {} {}", s("tile"), at("at"), event["rotation"]),
        "tile_drawn" => format!("draw {}", s("tile")),
        "tile_placed" => format!("place {} {}", at("at"), event["rotation"]),
        "meeple_placed" => format!("meeple {}", s("on")),
        "meeple_skipped" => "meeple none".to_string(),
        "arrow_chosen" => format!("arrow {}", at("at")),
        // The target's feature as completion offers it: one word, `city-N`.
        "arrow_meeple_placed" => format!(
            "arrow-meeple {} {} {}",
            s("action"),
            at("at"),
            s("on").replacen(' ', "-", 1)
        ),
        other => panic!("no shell line for {other}"),
    }
}

#[test]
fn a_new_map_game_has_the_header_simulate_writes_and_waits_for_its_start_tiles() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    // Given a game started on the Germany map with three start squares and two town variants
    let out = ok(
        &store,
        &[
            "--map",
            "germany",
            "record",
            "new",
            "g",
            "--players",
            "Ada,Bo",
            "--start-squares",
            "3",
            "--town-variants",
            "extra_turn,road_bonus",
        ],
    );
    // Then the hint asks for the start tile on a start square, with a command filled in
    let hint = out.lines().last().unwrap();
    assert!(
        hint.starts_with("next: start tile 1 of 3, the start tile on the start square chosen for it (free start squares: Rostock"),
        "{out}"
    );
    assert!(hint.contains("e.g. carc record start g D "), "{hint}");
    // And the stored game is its header alone, naming the map as `simulate` does
    let log = ok(&store, &["export", "g", "--game-only"]);
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 1, "{log}");
    let rules = &json(lines[0])["rules"];
    assert_eq!(
        rules["map"],
        json(r#"{"name":"germany","start_squares":3,"town_variants":["extra_turn","road_bonus"]}"#)
    );
    assert_eq!(rules["meeples"], 9);
    // When a turn is tried before the start tiles: refused, nothing stored
    let o = carc_with_store(&store, &["record", "turn", "g", "V", "0", "1", "0", "none"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no tile to draw"), "{}", stderr(&o));
    // And a start tile off the start squares is refused with the free ones named
    let o = carc_with_store(&store, &["record", "start", "g", "D", "1", "1", "0"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not a free start square of the map"),
        "{}",
        stderr(&o)
    );
    assert_eq!(ok(&store, &["export", "g", "--game-only"]), log);
    // And a start tile put down by mistake is taken back with undo, down to the header
    let hint = out.lines().last().unwrap().to_string();
    let example = hint.split("e.g. ").nth(1).unwrap();
    let words: Vec<&str> = example.split_whitespace().skip(2).collect();
    assert_eq!(words[..2], ["start", "g"], "{example}");
    ok(&store, &[&["record"], &words[..]].concat());
    assert_eq!(
        ok(&store, &["export", "g", "--game-only"]).lines().count(),
        2
    );
    // (no turn is played yet: `--turn` says so and points to the plain undo)
    let o = carc_with_store(&store, &["record", "undo", "g", "--turn"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no turn to undo in game g: only start tiles are recorded; `carc record undo g` takes back the last start tile"),
        "{}",
        stderr(&o)
    );
    ok(&store, &["record", "undo", "g"]);
    assert_eq!(ok(&store, &["export", "g", "--game-only"]), log);
    let o = carc_with_store(&store, &["record", "undo", "g"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("nothing to undo in game g: no start tile is recorded yet"),
        "{}",
        stderr(&o)
    );
    // Map options without a map are refused plainly
    let o = carc_with_store(
        &store,
        &[
            "record",
            "new",
            "h",
            "--players",
            "A,B",
            "--start-squares",
            "3",
        ],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("add --map germany"), "{}", stderr(&o));
}

#[test]
fn the_germany_sample_piped_through_the_record_shell_is_the_sample_event_for_event() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let sample = sample_lines();
    let header = json(&sample[0]);
    // Given a new game with the sample's players on the Germany map
    ok(
        &store,
        &[
            "--map",
            "germany",
            "record",
            "new",
            "g",
            "--players",
            "Ada,Brandt",
        ],
    );
    // When every event of the sample is typed into the record shell
    let events: Vec<&String> = sample[1..]
        .iter()
        .filter(|l| l.contains("\"seq\""))
        .collect();
    let input: String = events.iter().map(|l| shell_line(&json(l)) + "\n").collect();
    let o = shell(&store, "g", &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Then the stored game is the sample's: its rules, players, tile sets, and each event
    let log = ok(&store, &["export", "g", "--game-only"]);
    let lines: Vec<&str> = log.lines().collect();
    let stored = json(lines[0]);
    for field in ["players", "rules", "tile_sets", "bag"] {
        assert_eq!(stored[field], header[field], "{field}");
    }
    let stored_events: Vec<&str> = lines[1..].to_vec();
    assert_eq!(stored_events, events, "event for event");
    // And it is over: the final scores the sample expects
    assert!(
        stdout(&o).contains("final scores: Ada 140, Brandt 37"),
        "{}",
        stdout(&o).lines().last().unwrap_or_default()
    );
}

#[test]
fn the_anniversary_sample_entered_in_the_words_completion_offers_is_the_sample() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let sample = lines_of("sim-2p-anniversary-greedy.jsonl");
    ok(
        &store,
        &[
            "record",
            "new",
            "g",
            "--players",
            "Ada,Brandt",
            "--expansions",
            "anniversary",
        ],
    );
    // The start tile is stored by `new`; the rest typed as shell lines, arrows included
    let events: Vec<&String> = sample[2..]
        .iter()
        .filter(|l| l.contains("\"seq\""))
        .collect();
    assert!(events
        .iter()
        .any(|l| l.contains("\"on\":\"city N\"") && l.contains("arrow_meeple")));
    let input: String = events.iter().map(|l| shell_line(&json(l)) + "\n").collect();
    let o = shell(&store, "g", &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = ok(&store, &["export", "g", "--game-only"]);
    let stored: Vec<&str> = log.lines().skip(2).collect();
    assert_eq!(stored, events, "event for event");
}
