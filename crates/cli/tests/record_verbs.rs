//! `carc record`'s verbs as a player types them at the table (issue 36, item 3): the hint
//! after a refused move describes what is stored, an unknown tile lists the bag in words,
//! letters in either case, rotations either way round, the abbot in `record turn`, and
//! `record undo --turn`.

mod common;

use std::path::Path;
use std::process::Output;

use common::{carc_with_store, stderr, stdout};

fn run(store: &Path, args: &[&str]) -> Output {
    let mut all = vec!["record"];
    all.extend_from_slice(args);
    carc_with_store(store, &all)
}

fn ok(store: &Path, args: &[&str]) -> String {
    let o = run(store, args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

fn refused(store: &Path, args: &[&str]) -> String {
    let o = run(store, args);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{args:?}: {}{}",
        stdout(&o),
        stderr(&o)
    );
    stderr(&o)
}

fn raw(store: &Path) -> Vec<u8> {
    let o = carc_with_store(store, &["export", "--raw", "g"]);
    assert!(o.status.success(), "{}", stderr(&o));
    o.stdout
}

fn exported(store: &Path) -> String {
    let o = carc_with_store(store, &["export", "g", "--game-only"]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// The last line a successful move printed: the hint for the stored state.
fn hint_line(out: &str) -> String {
    out.lines().last().expect("a hint").to_string()
}

fn new_game(expansions: Option<&str>) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let mut args = vec!["new", "g", "--players", "Ada,Bo"];
    if let Some(e) = expansions {
        args.extend(["--expansions", e]);
    }
    ok(&store, &args);
    (dir, store)
}

#[test]
fn every_refused_move_leaves_the_hint_of_the_stored_state() {
    let (_dir, store) = new_game(None);
    // Ada's N north of D, a meeple on its city; the hint is Bo's draw.
    let after_n = hint_line(&ok(&store, &["turn", "g", "N", "0", "1", "180", "city-S"]));
    assert!(after_n.starts_with("next: Bo draws a tile"), "{after_n}");
    let before = raw(&store);
    for turn in [
        // a rotation that is no quarter turn: refused before the fold
        ["V", "1", "0", "45", "none"],
        ["V", "1", "0", "ninety", "none"],
        // a name that is no tile of the set
        ["Q7", "1", "0", "0", "none"],
        // an illegal square: the draw was fine, the placement is not
        ["V", "5", "5", "0", "none"],
        // edges that do not match
        ["V", "1", "0", "270", "none"],
        // a spot the tile lacks, and a meeple on the city Ada holds
        ["V", "1", "0", "90", "city-N"],
        ["E", "1", "1", "270", "city-W"],
        // the abbot without The Abbot
        ["B", "0", "-1", "0", "abbot"],
        // a spot that is no spot
        ["V", "1", "0", "90", "road-Q"],
    ] {
        let mut args = vec!["turn", "g"];
        args.extend_from_slice(&turn);
        let err = refused(&store, &args);
        // The hint is the one printed after the last stored move, word for word: no
        // placement of a tile that was never drawn.
        assert!(err.contains(&format!("\n{after_n}\n")), "{turn:?}: {err}");
        assert!(!err.contains("places tile"), "{turn:?}: {err}");
        assert!(err.contains("nothing was recorded"), "{turn:?}: {err}");
        assert_eq!(raw(&store), before, "{turn:?}");
    }
    // A placement refused after a stored draw: the hint is the stored draw's.
    let drawn = hint_line(&ok(&store, &["draw", "g", "V"]));
    assert!(drawn.starts_with("next: Bo places tile V"), "{drawn}");
    let before = raw(&store);
    for place in [
        ["1", "0", "45", "none"],
        ["1", "0", "90", "city-N"],
        ["7", "7", "0", "none"],
    ] {
        let mut args = vec!["place", "g"];
        args.extend_from_slice(&place);
        let err = refused(&store, &args);
        assert!(err.contains(&format!("\n{drawn}\n")), "{place:?}: {err}");
        assert!(!err.contains("may place a meeple"), "{place:?}: {err}");
        assert_eq!(raw(&store), before, "{place:?}");
    }
}

#[test]
fn an_unknown_tile_lists_the_letters_left_in_the_bag_in_words() {
    let (_dir, store) = new_game(None);
    // The bag's only X goes first.
    ok(&store, &["turn", "g", "X", "1", "0", "0", "none"]);
    let err = refused(&store, &["draw", "g", "monastery"]);
    assert!(
        err.contains("there is no tile \"monastery\"; the bag holds (letter, in either case: what it shows):"),
        "{err}"
    );
    for line in [
        "  A: monastery, road end, 2 left",
        "  B: monastery, 4 left",
        "  V: road curve, 9 left",
        "  U: straight road, 8 left",
        "  D: city on 1 side, straight road, 3 left",
        // Tiles with the same words say where their features are.
        "  J: city on 1 side, road curve (at 0°: city N, road E-S), 3 left",
        "  K: city on 1 side, road curve (at 0°: city N, road S-W), 3 left",
    ] {
        assert!(err.contains(&format!("{line}\n")), "{line}: {err}");
    }
    // X is no longer in the bag: not listed, and naming it says so.
    assert!(!err.contains("  X:"), "{err}");
    let err = refused(&store, &["turn", "g", "x", "2", "0", "0", "none"]);
    assert!(
        err.contains("no tile X is left in the bag; the bag holds"),
        "{err}"
    );
}

#[test]
fn tile_letters_in_either_case() {
    let (_dir, store) = new_game(Some("abbot"));
    let out = ok(&store, &["turn", "g", "v", "1", "0", "0", "none"]);
    assert!(out.starts_with("event 2: Ada drew tile V\n"), "{out}");
    // A garden copy, and `turn` after a `draw` in another case.
    ok(&store, &["draw", "g", "e+garden"]);
    let out = ok(&store, &["turn", "g", "E+GARDEN", "0", "1", "180", "none"]);
    assert!(out.starts_with("event 6: Bo placed tile E+garden"), "{out}");
    let log = exported(&store);
    assert!(
        log.contains(r#""type":"tile_drawn","player":0,"tile":"V""#),
        "{log}"
    );
    assert!(
        log.contains(r#""type":"tile_drawn","player":1,"tile":"E+garden""#),
        "{log}"
    );
}

#[test]
fn rotations_turn_either_way_and_others_get_a_plain_message() {
    let (_dir, store) = new_game(None);
    // -90 is 270, -270 is 90, -180 is 180.
    for (tile, x, y, rot, stored) in [
        ("V", "1", "0", "-270", 90),
        ("U", "-1", "0", "-90", 270),
        ("E", "0", "1", "-180", 180),
    ] {
        let out = ok(&store, &["turn", "g", tile, x, y, rot, "none"]);
        assert!(out.contains(&format!("rotated {stored}°")), "{rot}: {out}");
    }
    for (bad, shown) in [("45", "45"), ("360", "360"), ("-45", "-45"), ("x", "\"x\"")] {
        let err = refused(&store, &["turn", "g", "V", "2", "0", bad, "none"]);
        assert!(
            err.contains(&format!(
                "move refused, not recorded: rotation {shown} is not one of 0, 90, 180, 270 (or -90, -180, -270)\n"
            )),
            "{bad}: {err}"
        );
    }
    ok(&store, &["draw", "g", "V"]);
    let out = ok(&store, &["place", "g", "2", "0", "-90", "none"]);
    assert!(out.contains("rotated 270°"), "{out}");
}

#[test]
fn turn_takes_the_abbot_and_takes_it_back() {
    let (_dir, store) = new_game(Some("abbot"));
    // Ada's abbot on the monastery of B, in one command and without its square again.
    let out = ok(&store, &["turn", "g", "B", "0", "-1", "0", "abbot"]);
    assert!(
        out.contains("event 4: Ada placed their abbot on the monastery at (0,-1)"),
        "{out}"
    );
    // A tile without a monastery or garden takes no abbot: refused, nothing stored.
    let err = refused(&store, &["turn", "g", "U", "1", "0", "90", "abbot"]);
    assert!(
        err.contains("tile U at (1,0) has no monastery or garden for the abbot"),
        "{err}"
    );
    ok(&store, &["turn", "g", "U", "1", "0", "90", "none"]);
    // Ada takes it back after placing U west of D (it scores 1 + 3 neighbours at once).
    let out = ok(&store, &["turn", "g", "U", "-1", "0", "90", "abbot-back"]);
    assert!(out.contains("  abbot back to Ada"), "{out}");
    // A garden, named: `abbot-garden`, as `record abbot` names it.
    let out = ok(
        &store,
        &["turn", "g", "E+garden", "0", "1", "180", "abbot-garden"],
    );
    assert!(
        out.contains("placed their abbot on the garden at (0,1)"),
        "{out}"
    );
    let log = exported(&store);
    for line in [
        r#"{"seq":4,"type":"abbot_placed","player":0,"at":[0,-1],"on":"monastery"}"#,
        r#"{"seq":10,"type":"abbot_taken_back","player":0,"at":[0,-1]}"#,
        r#"{"seq":13,"type":"abbot_placed","player":1,"at":[0,1],"on":"garden"}"#,
    ] {
        assert!(log.contains(line), "{line}: {log}");
    }
}

#[test]
fn undo_turn_takes_back_the_whole_last_turn_in_one_append() {
    let (_dir, store) = new_game(None);
    ok(&store, &["turn", "g", "N", "0", "1", "180", "city-S"]);
    let after_one = exported(&store);
    let hint_after_one = {
        let o = carc_with_store(&store, &["legal", "g"]);
        stdout(&o)
    };
    ok(&store, &["turn", "g", "V", "1", "0", "90", "road-N"]);
    let version = |store: &Path| String::from_utf8(raw(store)).unwrap().lines().count();
    let lines_before = version(&store);
    let out = ok(&store, &["undo", "g", "--turn"]);
    assert!(
        out.starts_with(
            "retracted the last turn, Bo's turn 2: 3 events in one append (stored lines 6 to 8; the retractions are stored lines 9 to 11):\n  event 5: Bo drew tile V\n  event 6: Bo placed tile V at (1,0) rotated 90°\n  event 7: Bo placed a meeple on road N\n"
        ),
        "{out}"
    );
    assert!(
        hint_line(&out).starts_with("next: Bo draws a tile"),
        "{out}"
    );
    assert_eq!(version(&store), lines_before + 3);
    assert_eq!(exported(&store), after_one);
    assert_eq!(
        stdout(&carc_with_store(&store, &["legal", "g"])),
        hint_after_one
    );
    // A turn only begun (its draw) is taken back whole too.
    ok(&store, &["draw", "g", "W"]);
    let out = ok(&store, &["undo", "g", "--turn"]);
    assert!(
        out.starts_with("retracted the last turn, Bo's turn 2: 1 events in one append"),
        "{out}"
    );
    assert_eq!(exported(&store), after_one);
    // Then Ada's turn, and no further: the start tile is never taken back.
    ok(&store, &["undo", "g", "--turn"]);
    let o = run(&store, &["undo", "g", "--turn"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("nothing to undo in game g: only the start tile is recorded"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_river_game_starts_at_the_spring_and_takes_the_river_tiles_first() {
    // Given a new game with The River
    let (_dir, store) = new_game(Some("river"));
    // Then its start tile is the spring, not D
    let log = exported(&store);
    let start = log.lines().nth(1).unwrap();
    assert!(start.contains("\"tile\":\"RS\""), "{start}");
    // And a land tile cannot be drawn while river tiles are in the bag
    refused(&store, &["draw", "g", "V"]);
    ok(&store, &["draw", "g", "R1"]);
}
