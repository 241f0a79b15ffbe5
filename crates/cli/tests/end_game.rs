//! Ending a partial game at the table (`carc record end`, issue 24): an explicit `game_ended`
//! event, final scoring at once, shown as an early end (the bag is not empty) by every verb.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{carc, carc_with_store, stderr, stdout};
use serde_json::Value;

fn ok(o: Output) -> Output {
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    o
}

/// Two turns of a table game, then `record end`; returns the store and what `end` printed.
fn two_turns_then_end(store: &Path) -> String {
    ok(carc_with_store(
        store,
        &["record", "new", "t1", "--players", "Ada,Brandt"],
    ));
    ok(carc_with_store(
        store,
        &["record", "turn", "t1", "N", "0", "1", "180", "city-S"],
    ));
    ok(carc_with_store(
        store,
        &["record", "turn", "t1", "U", "1", "0", "90", "road-W"],
    ));
    stdout(&ok(carc_with_store(store, &["record", "end", "t1"])))
}

#[test]
fn record_end_scores_now_and_says_the_bag_was_not_empty() {
    // Given a table game of two turns
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    // When the players end it
    let said = two_turns_then_end(&store);
    // Then the event says the game ended early, with the tiles left, and final scoring shows
    assert!(
        said.starts_with(
            "event 8: the players ended the game before the bag was empty; final scoring follows\n"
        ),
        "{said}"
    );
    assert!(said.contains("  scores: city (final scoring)"), "{said}");
    assert!(said.contains("  scores: road (final scoring)"), "{said}");
    assert!(
        said.contains("the game is over: ended early with 69 tiles still in the bag"),
        "{said}"
    );
    // And nothing more can be recorded
    let o = carc_with_store(&store, &["record", "draw", "t1", "V"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("game t1 is over; no further moves"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_ended_game_checks_replays_explains_and_exports() {
    // Given the ended game, exported as a log
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let store = d.join("store");
    two_turns_then_end(&store);
    let log = stdout(&ok(carc_with_store(
        &store,
        &["export", "t1", "--game-only"],
    )));
    // Then the log records the end as an event of its own
    assert!(
        log.contains("{\"seq\":8,\"type\":\"game_ended\"}\n"),
        "{log}"
    );
    fs::write(d.join("g.jsonl"), &log).unwrap();
    // And check says it is finished, ended early with the bag not empty
    let text = stdout(&ok(carc(&["check", "g.jsonl"], d)));
    assert!(
        text.starts_with(
            "g.jsonl: ok, 8 events; final scores (ended early, 69 tiles left in the bag): Ada "
        ),
        "{text}"
    );
    let v: Value =
        serde_json::from_str(&stdout(&ok(carc(&["check", "g.jsonl", "--json"], d)))).unwrap();
    assert_eq!(v["finished"], true);
    assert_eq!(v["ended_early"], serde_json::json!({"bag_left": 69}));
    // And explain names the rule and the final scores
    let text = stdout(&ok(carc(&["explain", "g.jsonl", "--at", "8"], d)));
    assert!(
        text.contains("the players end the game with 69 tiles still in the bag"),
        "{text}"
    );
    assert!(text.contains("[base.game.ended-early]"), "{text}");
    // And replay shows the game over, ended early
    let text = stdout(&ok(carc(&["replay", "g.jsonl"], d)));
    assert!(
        text.contains("the game is over: ended early with 69 tiles still in the bag"),
        "{text}"
    );
    // And the reports and the analysis read it
    let md = stdout(&ok(carc(&["export", "g.jsonl", "--format", "md"], d)));
    assert!(
        md.contains("the players ended the game before the bag was empty"),
        "{md}"
    );
    ok(carc(
        &["export", "g.jsonl", "--format", "html", "--out", "g.html"],
        d,
    ));
    ok(carc(&["analyze", "g.jsonl"], d));
    // And JCloisterZone, which has no early end, is refused plainly
    let o = carc(&["export", "g.jsonl", "--format", "jcz"], d);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("game_ended"), "{}", stderr(&o));
}

#[test]
fn a_game_is_ended_only_between_turns() {
    // Given a drawn tile not yet placed
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    ok(carc_with_store(
        &store,
        &["record", "new", "t1", "--players", "Ada,Brandt"],
    ));
    ok(carc_with_store(&store, &["record", "draw", "t1", "N"]));
    // When the players try to end the game
    let o = carc_with_store(&store, &["record", "end", "t1"]);
    // Then it is refused with the rule and the step the game waits for
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("it is not the time to end the game"),
        "{}",
        stderr(&o)
    );
}
