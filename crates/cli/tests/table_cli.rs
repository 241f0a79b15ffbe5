//! Entering a game at the table (`carc record turn`, what a move scored, hints with their
//! arguments, undo after a refused move, players by name), `--at` left out, `analyze
//! --per-game`, and simulated file names in seed order.

mod common;

use std::path::Path;

use common::{carc, carc_with_store, logs_dir, stderr, stdout};
use serde_json::Value;

/// The first ten turns of the short sample game, as a club player enters them.
const TABLE_GAME: [[&str; 5]; 10] = [
    ["N", "0", "1", "180", "city-S"],
    ["J", "-1", "0", "0", "city-N"],
    ["B", "0", "-1", "0", "monastery"],
    ["U", "1", "0", "90", "field-Nw"],
    ["B", "1", "-1", "0", "field-Nw"],
    ["N", "-1", "1", "90", "none"],
    ["V", "-1", "-1", "90", "none"],
    ["A", "2", "0", "90", "none"],
    ["E", "-1", "-2", "180", "none"],
    ["E", "0", "-2", "180", "none"],
];

fn ok(o: std::process::Output) -> std::process::Output {
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    o
}

fn turn(store: &Path, t: &[&str; 5]) -> std::process::Output {
    let mut args = vec!["record", "turn", "table-1"];
    args.extend_from_slice(t);
    carc_with_store(store, &args)
}

#[test]
fn a_table_game_entered_turn_by_turn_replays_like_the_sample() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    ok(carc_with_store(
        &store,
        &["record", "new", "table-1", "--players", "Ada,Brandt"],
    ));
    let mut outputs = Vec::new();
    for t in &TABLE_GAME {
        outputs.push(stdout(&ok(turn(&store, t))));
    }
    // Each turn is three events, in one command.
    assert!(outputs[0].starts_with(
        "event 2: Ada drew tile N\nevent 3: Ada placed tile N at (0,1) rotated 180°\nevent 4: Ada placed a meeple on city S\n"
    ), "{}", outputs[0]);
    // Turn 6 closes the city two meeples share: the score is printed at once, with who and
    // how much, the meeples coming back and the totals.
    let closing = &outputs[5];
    assert!(
        closing.contains("  scores: city (completed) city N at (0,0): 2 × 4 tiles + 2 × 0 coats of arms = 8; Ada and Brandt +8"),
        "{closing}"
    );
    assert!(
        closing.contains("  meeple back to Ada: from city S at (0,1)"),
        "{closing}"
    );
    assert!(
        closing.contains("  score now: Ada 8, Brandt 8"),
        "{closing}"
    );
    assert!(!outputs[6].contains("scores:"), "{}", outputs[6]);
    // The events are those of the sample's first ten turns, byte for byte.
    let exported = stdout(&ok(carc_with_store(
        &store,
        &["export", "table-1", "--game-only"],
    )));
    let sample = std::fs::read_to_string(logs_dir().join("short-game-rulings.jsonl")).unwrap();
    let events = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("{\"seq\""))
            .take(31)
            .map(String::from)
            .collect()
    };
    assert_eq!(events(&exported), events(&sample));
}

#[test]
fn a_refused_turn_records_nothing_names_players_and_undo_says_what_it_takes_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    ok(carc_with_store(
        &store,
        &["record", "new", "table-1", "--players", "Ada,Brandt"],
    ));
    for t in &TABLE_GAME[..3] {
        ok(turn(&store, t));
    }
    // Brandt's farmer on U's south field, then Ada's farmer joins that field: refused.
    ok(turn(&store, &["U", "1", "0", "90", "field-Es"]));
    let before = ok(carc_with_store(&store, &["export", "--raw", "table-1"])).stdout;
    let o = turn(&store, &["B", "1", "-1", "0", "field-Nw"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("already occupied by Brandt's meeple on field, south-east at (1,0)"),
        "{err}"
    );
    assert!(!err.contains("seat "), "{err}");
    // The whole turn is refused: not even the draw is stored.
    assert_eq!(
        ok(carc_with_store(&store, &["export", "--raw", "table-1"])).stdout,
        before
    );
    assert!(
        err.contains("nothing was recorded; the last recorded move is still event 13: Brandt placed a meeple on field, south-east (`carc record undo table-1` would retract that one)"),
        "{err}"
    );
    let o = ok(carc_with_store(&store, &["record", "undo", "table-1"]));
    assert!(
        stdout(&o).starts_with(
            "retracted the last recorded move, event 13: Brandt placed a meeple on field, south-east"
        ),
        "{}",
        stdout(&o)
    );
    // The hint names the spots as the command takes them, with one filled in.
    assert!(
        stdout(&o)
            .contains("carc record meeple table-1 SPOT|none, e.g. carc record meeple table-1 "),
        "{}",
        stdout(&o)
    );
}

#[test]
fn hints_fill_in_the_commands_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    ok(carc_with_store(
        &store,
        &["record", "new", "table-1", "--players", "Ada,Brandt"],
    ));
    let o = ok(carc_with_store(&store, &["record", "draw", "table-1", "V"]));
    let hint = stdout(&o);
    // `--at 2`, the event just recorded, not `--at N`; and a legal placement as an example.
    assert!(
        hint.contains("(`carc legal table-1 --at 2` lists them)"),
        "{hint}"
    );
    assert!(!hint.contains("--at N"), "{hint}");
    let example = hint
        .split("e.g. ")
        .nth(1)
        .expect("an example command")
        .trim();
    let args: Vec<&str> = example.split(' ').skip(1).collect();
    assert_eq!(args[..3], ["record", "place", "table-1"], "{example}");
    // The example is a legal move: it records.
    ok(carc_with_store(&store, &args));
    // `place` also takes the meeple spot.
    let o = carc_with_store(&store, &["record", "meeple", "table-1", "none"]);
    ok(o);
    let o = ok(carc_with_store(
        &store,
        &["record", "turn", "table-1", "E", "0", "1", "180"],
    ));
    // Without a spot the meeple step stays open.
    assert!(
        stdout(&o).contains("next: Brandt may place a meeple"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn replay_explain_and_legal_default_to_the_last_event() {
    let dir = logs_dir();
    for verb in ["replay", "explain", "legal"] {
        let default = carc(&[verb, "sim-3p-greedy.jsonl", "--json"], &dir);
        let last = carc(
            &[verb, "sim-3p-greedy.jsonl", "--json", "--at", "214"],
            &dir,
        );
        assert_eq!(
            default.status.code(),
            Some(0),
            "{verb}: {}",
            stderr(&default)
        );
        assert_eq!(stdout(&default), stdout(&last), "{verb}");
    }
    let text = stdout(&carc(&["explain", "sim-3p-greedy.jsonl"], &dir));
    assert!(text.starts_with("event 214 "), "{text}");
}

#[test]
fn explain_names_players_in_the_ruling_trace_text_and_json() {
    let dir = logs_dir();
    let text = stdout(&carc(
        &["explain", "short-game-rulings.jsonl", "--at", "4"],
        &dir,
    ));
    assert!(
        text.contains("  - Brandt plays next  [base.turn.order]"),
        "{text}"
    );
    let json = stdout(&carc(
        &["explain", "short-game-rulings.jsonl", "--at", "4", "--json"],
        &dir,
    ));
    assert!(json.contains("\"text\":\"Brandt plays next\""), "{json}");
    assert!(!json.contains("seat 1"), "{json}");
}

#[test]
fn analyze_per_game_gives_one_json_line_per_game_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    for name in ["short-game-rulings.jsonl", "sim-3p-greedy.jsonl"] {
        std::fs::copy(logs_dir().join(name), games.join(name)).unwrap();
    }
    let o = ok(carc_with_store(
        &dir.path().join("store"),
        &["analyze", games.to_str().unwrap(), "--json", "--per-game"],
    ));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["game"], "short-game-rulings");
    assert!(lines[0]["file"]
        .as_str()
        .unwrap()
        .ends_with("short-game-rulings.jsonl"));
    assert_eq!(lines[0]["players"][1]["seat"], 1);
    assert_eq!(lines[0]["players"][0]["points"], 20);
    assert_eq!(lines[1]["players"].as_array().unwrap().len(), 3);
    // Text: one line per game, seats numbered from 0 as in the JSON.
    let o = ok(carc_with_store(
        &dir.path().join("store"),
        &["analyze", games.to_str().unwrap(), "--per-game"],
    ));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.contains("seat 0 Ada 20, seat 1 Brandt 11"), "{text}");
    // The aggregate numbers seats from 0 too.
    let o = ok(carc_with_store(
        &dir.path().join("store"),
        &["analyze", games.to_str().unwrap()],
    ));
    let text = stdout(&o);
    let seat_rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("seat"))
        .skip(1)
        .take_while(|l| !l.starts_with('('))
        .collect();
    assert_eq!(
        seat_rows[0].split_whitespace().next(),
        Some("0"),
        "{seat_rows:?}"
    );
}

#[test]
fn simulated_file_names_sort_in_seed_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sims");
    let o = carc(
        &[
            "simulate",
            "--seed",
            "8",
            "--players",
            "2",
            "--games",
            "3",
            "--strategy",
            "random",
            "--out",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // stderr is no terminal here: no progress bar, only the closing note.
    assert_eq!(
        stderr(&o),
        format!("carc: wrote 3 games to {}\n", out.display())
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["game-s08.jsonl", "game-s09.jsonl", "game-s10.jsonl"]
    );
}

#[test]
fn rebuild_help_names_jcz_games_as_the_docs_do() {
    let help = stdout(&carc(&["rebuild", "--help"], &logs_dir()));
    assert!(help.contains("*.jcz"), "{help}");
    assert!(help.contains("*.jsonl"), "{help}");
}

#[test]
fn a_progress_bar_with_rate_and_time_left_shows_on_a_terminal_only() {
    // A terminal for stderr: util-linux `script` runs carc in a pseudo-terminal. Where it is
    // missing (not Linux), there is nothing to run the check in.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sims");
    let command = format!(
        "{} simulate --seed 1 --players 2 --games 2000 --strategy random --out {}",
        env!("CARGO_BIN_EXE_carc"),
        out.display()
    );
    let Ok(o) = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
    else {
        eprintln!("no `script` here: the terminal case is not checked");
        return;
    };
    if !o.status.success() {
        eprintln!("`script` failed: the terminal case is not checked");
        return;
    }
    let shown = stdout(&o);
    assert!(shown.contains("/2000 games ("), "{shown}");
    assert!(
        shown.contains("/s, ") && shown.contains(" left)"),
        "{shown}"
    );
    // With --quiet, no bar (and the stdout of simulate is empty in both cases).
    let quiet = std::process::Command::new("script")
        .args(["-qec", &format!("{command} --quiet"), "/dev/null"])
        .output()
        .unwrap();
    assert!(!stdout(&quiet).contains("games ("), "{}", stdout(&quiet));
}

#[test]
fn simulate_writes_seed_and_strategies_as_a_header_field_and_games_shows_them() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("g.jsonl");
    let o = carc(
        &[
            "simulate",
            "--seed",
            "8",
            "--players",
            "3",
            "--strategy",
            "greedy,random",
            "--out",
            log.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&log).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    // One strategy per seat: the list is cycled.
    assert_eq!(
        header["source"],
        serde_json::json!({"kind": "simulated", "seed": 8, "strategies": ["greedy", "random", "greedy"]})
    );
    let store = dir.path().join("store");
    ok(carc_with_store(&store, &["import", log.to_str().unwrap()]));
    let games: Value =
        serde_json::from_str(stdout(&ok(carc_with_store(&store, &["games", "--json"]))).trim())
            .unwrap();
    assert_eq!(games["source"], header["source"]);
    // A game without a source has no such field.
    ok(carc_with_store(
        &store,
        &[
            "import",
            logs_dir()
                .join("short-game-rulings.jsonl")
                .to_str()
                .unwrap(),
        ],
    ));
    let listed = stdout(&ok(carc_with_store(&store, &["games", "--json"])));
    let short: Value = serde_json::from_str(
        listed
            .lines()
            .find(|l| l.contains("short-game-rulings"))
            .unwrap(),
    )
    .unwrap();
    assert!(short.get("source").is_none(), "{short}");
}
