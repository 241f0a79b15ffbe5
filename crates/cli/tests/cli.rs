//! The `carc` binary end to end: simulate, check (text and JSON), replay, explain, legal, and a
//! clear error for each kind of bad input.

mod common;
use common::{carc, logs_dir, stdout};

use std::path::PathBuf;

use serde_json::Value;

const SHORT: &str = "short-game-rulings.jsonl";

#[test]
fn simulate_then_check_json_reports_a_clean_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "simulate",
            "--seed",
            "7",
            "--players",
            "3",
            "--out",
            "g.jsonl",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = carc(&["check", "--json", "g.jsonl"], dir.path());
    assert!(o.status.success());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["file"], "g.jsonl");
    assert_eq!(v["ok"], true);
    assert_eq!(v["finished"], true);
    assert_eq!(
        v["events"], 214,
        "71 draws, placements and meeple steps + the start tile"
    );
    let scores = v["final_scores"].as_array().unwrap();
    assert_eq!(scores.len(), 3);
    assert_eq!(scores[0]["player"], "Ada");
    assert!(scores[0]["score"].is_u64());
}

#[test]
fn the_same_seed_gives_a_byte_identical_log() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.jsonl", "b.jsonl"] {
        let o = carc(
            &[
                "simulate",
                "--seed",
                "11",
                "--players",
                "4",
                "--strategy",
                "greedy,random",
                "--out",
                name,
            ],
            dir.path(),
        );
        assert!(o.status.success());
    }
    let a = std::fs::read(dir.path().join("a.jsonl")).unwrap();
    let b = std::fs::read(dir.path().join("b.jsonl")).unwrap();
    assert_eq!(a, b);
    let o = carc(
        &[
            "simulate",
            "--seed",
            "12",
            "--players",
            "4",
            "--out",
            "c.jsonl",
        ],
        dir.path(),
    );
    assert!(o.status.success());
    assert_ne!(a, std::fs::read(dir.path().join("c.jsonl")).unwrap());
}

#[test]
fn a_batch_of_simulated_games_all_check_clean() {
    let dir = tempfile::tempdir().unwrap();
    let o = carc(
        &[
            "simulate",
            "--seed",
            "100",
            "--players",
            "5",
            "--games",
            "25",
            "--out",
            "batch",
        ],
        dir.path(),
    );
    assert!(o.status.success());
    let files: Vec<String> = std::fs::read_dir(dir.path().join("batch"))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    assert_eq!(files.len(), 25);
    let mut args = vec!["check", "--json"];
    args.extend(files.iter().map(String::as_str));
    let o = carc(&args, dir.path());
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().count(), 25);
}

#[test]
fn every_sample_log_checks_clean() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(logs_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    for f in files {
        let o = carc(&["check", f.to_str().unwrap()], &logs_dir());
        assert!(o.status.success(), "{}: {}", f.display(), stdout(&o));
    }
}

#[test]
fn the_hand_written_game_scores_as_worked_out_by_hand() {
    let o = carc(&["check", "--json", SHORT], &logs_dir());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        v["final_scores"][0]["score"], 20,
        "city 8 (tie) + monastery 9 + shared field 3"
    );
    assert_eq!(
        v["final_scores"][1]["score"], 11,
        "city 8 (tie) + shared field 3"
    );
}

#[test]
fn explain_shows_the_tie_with_its_breakdown() {
    let o = carc(&["explain", SHORT, "--at", "19", "--json"], &logs_dir());
    assert!(o.status.success());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let s = &v["scores"][0];
    assert_eq!(s["feature"], "city");
    assert_eq!(s["when"], "completed");
    assert_eq!(s["points"], 8);
    assert_eq!(s["winners"], serde_json::json!(["Ada", "Brandt"]));
    assert_eq!(s["formula"], "2 × 4 tiles + 2 × 0 coats of arms = 8");
    assert_eq!(s["rule"], "base.score.city.completed");
    assert_eq!(v["returned"].as_array().unwrap().len(), 2);
    let text = stdout(&carc(&["explain", SHORT, "--at", "18"], &logs_dir()));
    assert!(
        text.contains("the tile joins 2 separate cities into one (2 of them held meeples)"),
        "{text}"
    );
}

#[test]
fn replay_shows_the_board_and_scores_after_an_event() {
    let o = carc(&["replay", SHORT, "--at", "19", "--json"], &logs_dir());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["tiles"].as_array().unwrap().len(), 7);
    assert_eq!(v["scores"][0]["score"], 8);
    assert_eq!(
        v["scores"][0]["meeples_in_supply"], 5,
        "monk and farmer out"
    );
    assert_eq!(v["phase"]["step"], "draw");
    let text = stdout(&carc(&["replay", SHORT, "--at", "19"], &logs_dir()));
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("Ada")
                && l.ends_with("8 points, 5 meeples in supply")),
        "{text}"
    );
}

#[test]
fn legal_lists_placements_and_meeple_spots() {
    let o = carc(&["legal", SHORT, "--at", "2", "--json"], &logs_dir());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["step"], "place");
    assert_eq!(v["tile"], "N");
    // N (city on two adjacent sides) next to the start tile: north (city below) 2 rotations,
    // east and west (road) none, south (field) 2 rotations.
    assert_eq!(v["placements"].as_array().unwrap().len(), 4, "{v}");
    let o = carc(&["legal", SHORT, "--at", "3", "--json"], &logs_dir());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["meeple_on"], serde_json::json!(["city S", "field Nw"]));
}

// ---- bad input: each names the file, the line, the rule, what was expected ---------------------

fn short_lines() -> Vec<String> {
    std::fs::read_to_string(logs_dir().join(SHORT))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Writes `lines` to a temp file, checks it, and returns (exit code, the JSON error).
fn check_lines(lines: &[String]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.jsonl"), lines.join("\n") + "\n").unwrap();
    let o = carc(&["check", "--json", "bad.jsonl"], dir.path());
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["ok"], false, "{v}");
    (o.status.code().unwrap(), v["error"].clone())
}

fn edit(line: usize, from: &str, to: &str) -> Vec<String> {
    let mut lines = short_lines();
    assert!(lines[line - 1].contains(from), "{}", lines[line - 1]);
    lines[line - 1] = lines[line - 1].replace(from, to);
    lines
}

#[test]
fn bad_input_a_truncated_line() {
    let mut lines = short_lines();
    lines[9].truncate(30);
    let (code, e) = check_lines(&lines);
    assert_eq!(code, 1);
    assert_eq!(e["line"], 10);
    assert_eq!(e["rule"], "log.format");
}

#[test]
fn bad_input_an_unknown_field_and_an_unknown_event_type() {
    let (_, e) = check_lines(&edit(
        4,
        "\"rotation\":180",
        "\"rotation\":180,\"colour\":1",
    ));
    assert_eq!(e["line"], 4);
    assert!(e["message"].as_str().unwrap().contains("colour"), "{e}");
    let (_, e) = check_lines(&edit(5, "meeple_placed", "meeple_teleported"));
    assert_eq!(e["line"], 5);
    assert!(
        e["message"].as_str().unwrap().contains("meeple_teleported"),
        "{e}"
    );
}

#[test]
fn bad_input_an_unknown_tile() {
    let (_, e) = check_lines(&edit(3, "\"tile\":\"N\"", "\"tile\":\"Z\""));
    assert_eq!(e["line"], 3);
    assert_eq!(e["event"], 2);
    assert_eq!(e["rule"], "base.draw.bag");
    assert_eq!(e["message"], "tile Z is not part of this game's tile sets");
}

#[test]
fn bad_input_a_tile_drawn_more_often_than_the_game_holds() {
    // The bag holds two N; draw a third instead of the V on line 22.
    let mut lines = edit(22, "\"tile\":\"V\"", "\"tile\":\"N\"");
    lines[22] = lines[22].replace("\"tile\":\"V\"", "\"tile\":\"N\"");
    let (_, e) = check_lines(&lines);
    assert_eq!(e["line"], 22);
    assert_eq!(e["rule"], "base.draw.bag");
    assert_eq!(
        e["message"],
        "tile N cannot be drawn: all 2 copies in the game are already out of the bag"
    );
}

#[test]
fn bad_input_an_event_out_of_sequence() {
    let (_, e) = check_lines(&edit(6, "\"seq\":5", "\"seq\":6"));
    assert_eq!(e["line"], 6);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("out of sequence; expected 5"),
        "{e}"
    );
}

#[test]
fn bad_input_a_placement_that_does_not_fit_names_both_edges() {
    let (_, e) = check_lines(&edit(4, "\"rotation\":180", "\"rotation\":0"));
    assert_eq!(e["line"], 4);
    assert_eq!(e["event"], 3);
    assert_eq!(e["rule"], "base.tile.edges-match");
    assert_eq!(
        e["message"],
        "tile N at (0,1) rotated 0°: its S side is field, but the neighbour at (0,0) shows city on its N side"
    );
}

#[test]
fn bad_input_a_meeple_on_an_occupied_feature_names_the_occupant() {
    // Brandt's farmer goes on U's south field instead of its north field (line 14). That
    // field runs along the start tile's south side; Ada's farmer on B at (1,-1) (line 17)
    // joins it, so that meeple is refused and the error names Brandt's farmer.
    let (_, e) = check_lines(&edit(14, "\"on\":\"field Nw\"", "\"on\":\"field Es\""));
    assert_eq!(e["line"], 17);
    assert_eq!(e["rule"], "base.meeple.occupied");
    // Players by name, not "seat 1" (the rules' wording names seats; the CLI names players).
    assert_eq!(
        e["message"],
        "the field joined to field, north-west at (1,-1) is already occupied by Brandt's meeple on field, south-east at (1,0)"
    );
}

#[test]
fn bad_input_the_wrong_seat() {
    let (_, e) = check_lines(&edit(3, "\"player\":0", "\"player\":1"));
    assert_eq!(e["line"], 3);
    assert_eq!(e["rule"], "base.turn.order");
    assert_eq!(e["message"], "it is Ada's turn, not Brandt's");
}

#[test]
fn bad_input_a_header_from_a_future_format_version() {
    let (_, e) = check_lines(&edit(1, "\"version\":1", "\"version\":7"));
    assert_eq!(e["line"], 1);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("newer than this program reads"),
        "{e}"
    );
}

#[test]
fn bad_input_a_claim_the_fold_contradicts() {
    let (_, e) = check_lines(&edit(21, "[8,8]", "[8,9]"));
    assert_eq!(e["line"], 21);
    assert_eq!(e["rule"], "log.assertion");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("the fold gives [8, 8]"),
        "{e}"
    );
}

#[test]
fn check_text_names_file_line_event_and_rule_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.jsonl"),
        edit(4, "\"rotation\":180", "\"rotation\":0").join("\n"),
    )
    .unwrap();
    let o = carc(&["check", "bad.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("bad.jsonl:4: event 3: [base.tile.edges-match] tile N at (0,1)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn explain_of_an_illegal_event_shows_the_ruling() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.jsonl"),
        edit(4, "\"rotation\":180", "\"rotation\":0").join("\n"),
    )
    .unwrap();
    let o = carc(&["explain", "bad.jsonl", "--at", "3"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("ILLEGAL [base.tile.edges-match]"),
        "{}",
        stdout(&o)
    );
    // The input is illegal: exit 1 (the exit-code table), not 2.
    let o = carc(&["replay", "bad.jsonl", "--at", "5"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.jsonl:4: event 3 is illegal"));
}

#[test]
fn missing_files_and_events_are_clear_errors() {
    let o = carc(&["replay", "nope.jsonl", "--at", "1"], &logs_dir());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read nope.jsonl"));
    let o = carc(&["explain", SHORT, "--at", "99"], &logs_dir());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("there is no event 99; events are numbered 1 to 34"));
}
